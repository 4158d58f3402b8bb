// The planning panel's view models (host → webview) and the UI state the webview keeps: plain JSON the core's
// panel builders produce (src/core/panel) and the webview draws. src/protocol.ts wraps them in messages.
// View models (host → webview). Plain JSON: numbers the webview needs for drawing are already percentages,
// every text is final; the webview computes nothing.

export type Verdict = 'fits' | 'tight' | 'does-not-fit';
export type BarCategory = 'weights' | 'gradients' | 'optimizer' | 'activations' | 'transient' | 'kv' | 'overhead';

export interface BarSegment {
  category: BarCategory;
  label: string;
  /** "12.34 GiB (20.1%)". */
  text: string;
  /** Start and width as percentages of the bar's scale (max of capacity and total). */
  x: number;
  w: number;
}

export interface MemoryBar {
  label: string;
  /** "61.20 / 79.18 GiB". */
  text: string;
  segments: BarSegment[];
  /** Where the GPU capacity falls on the bar, as a percentage. */
  capacityX: number;
  verdict: Verdict;
  /** Marks the most-loaded stage among per-stage bars. */
  peak?: boolean;
}

export interface Choice {
  value: string;
  label: string;
}

export interface HeaderVM {
  state: 'empty' | 'recipe' | 'no-estimate';
  title: string;
  /** Format and model, e.g. "NeMo 1.x Hydra config · Llama 3 8B". */
  subtitle: string;
  /** Empty state or why there is no estimate. */
  message: string;
  uri: string | null;
  docVersion: number | null;
}

export interface BreakdownRow {
  label: string;
  category: BarCategory;
  gib: string;
  pct: string;
  formula: string;
  source: string;
}

export interface AssumptionRow {
  what: string;
  source: string;
  provenance: string;
}

export interface MemoryVM {
  kind: 'training' | 'serving';
  /** "most-loaded rank (PP stage 0 of 2)". */
  caption: string;
  gpu: { id: string; name: string; capacity: string; source: string };
  gpuOptions: Choice[];
  verdict: Verdict;
  verdictText: string;
  bar: MemoryBar;
  rows: BreakdownRow[];
  total: { gib: string; pct: string };
  /** One bar per pipeline stage when PP > 1 (else empty). */
  stages: MemoryBar[];
  assumptions: AssumptionRow[];
}

export type RankRel = 'self' | 'tp' | 'cp' | 'dp' | 'pp' | '';

export interface RankCell {
  rank: number;
  rel: RankRel;
  /** Whether the rank shares the selected rank's EP group (MoE only). */
  ep: boolean;
  /** "TP 1 · CP 0 · DP 3 · PP 0". */
  coords: string;
}

export interface NodeBox {
  /** "node 3 (ranks 24–31)". */
  label: string;
  cells: RankCell[];
}

export interface LayoutVM {
  /** Why no grid is drawn (no training layout, world not divisible, …); the rest is then empty. */
  reason: string | null;
  worldSize: number;
  fileWorldSize: number | null;
  worldSizeChoices: Choice[];
  order: string;
  /** "TP 4 × CP 8 × DP 2 × PP 2 = 128 GPUs on 16 nodes of 8". */
  caption: string;
  /** Counts per dimension: size and number of groups. */
  summary: { dim: string; size: number; groups: number; text: string }[];
  view: { mode: 'all' | 'node' | 'replica'; page: number; pages: number; caption: string; modes: Choice[] };
  boxes: NodeBox[];
  selected: { rank: number; text: string; groups: { dim: string; text: string }[] } | null;
  cp: CpRingVM | null;
  notes: string[];
}

export interface CpRingVM {
  size: number;
  /** The selected rank's CP group in ring order with the chunks each member holds. */
  members: { rank: number; cpIndex: number; chunks: [number, number]; self: boolean; text: string }[];
  /** The 2·CP sequence chunks, in sequence order, with their owner (index into members). */
  chunks: { index: number; owner: number; text: string }[];
  /** "2.00 MiB per step (GQA: 8 KV heads for 32 query heads; MHA would send 8.00 MiB, 4× more)". */
  exchange: string;
  exchangeDetail: string;
}

export interface FactRow {
  label: string;
  value: string;
}

export interface QuantVM {
  kind: 'training' | 'serving';
  title: string;
  facts: FactRow[];
  /** What stays in higher precision and the recipe's special treatment (RHT, stochastic rounding, …). */
  notes: string[];
  source: string;
  /** This file's estimate under its own recipe and the alternatives (re-estimated by the host). */
  comparison: { label: string; cells: string[]; current: boolean }[];
  comparisonHead: string[];
  comparisonNote: string;
  summary: string;
  kv: FactRow[];
}

export interface TimelineRange {
  x: number;
  w: number;
  /** Colour bucket: index of the priority among the file's distinct priorities, lowest first (0…5). */
  level: number;
  priority: number;
  label: string;
  detail: string;
  open: boolean;
  /** Evicted without a host copy (priority below secondary_offload_min_priority). */
  dropped: boolean;
}

export interface TimelineVM {
  axis: { x: number; label: string }[];
  ranges: TimelineRange[];
  /** Block boundaries as percentages (only when there are few enough to draw). */
  blocks: number[];
  caption: string;
}

export interface KvVM {
  kind: 'serving' | 'retention';
  groups: { title: string; rows: FactRow[] }[];
  timeline: TimelineVM | null;
  eviction: { order: number; text: string; dropped: boolean }[];
  notes: string[];
}

export type WhatIfKey =
  'cp' | 'tp' | 'pp' | 'vpp' | 'ep' | 'etp' | 'sp' | 'microBatch' | 'seq' | 'recompute' | 'offloadLayers' | 'precision';
export const WHAT_IF_KEYS: readonly WhatIfKey[] = [
  'cp',
  'tp',
  'pp',
  'vpp',
  'ep',
  'etp',
  'sp',
  'microBatch',
  'seq',
  'recompute',
  'offloadLayers',
  'precision',
];
export type RecomputeChoice = 'off' | 'selective' | 'full';
export const RECOMPUTE_CHOICES: readonly RecomputeChoice[] = ['off', 'selective', 'full'];
export const PRECISION_CHOICES = ['bf16', 'fp16', 'fp8-delayed', 'fp8-tensorwise', 'fp8-blockwise', 'fp8-mxfp8', 'nvfp4'] as const;
export type PrecisionChoice = (typeof PRECISION_CHOICES)[number];

/** What-if values the webview sends; a key left out keeps the file's value. */
export interface WhatIfValues {
  cp?: number;
  tp?: number;
  pp?: number;
  /** 1 = not interleaved. */
  vpp?: number;
  /** Expert parallelism (a control for MoE models; the planner's Preview sets it). */
  ep?: number;
  /** Expert tensor parallelism: set only by the planner's Preview, where the file's ETP would not follow TP. */
  etp?: number;
  /** sequence_parallel: set only by the planner's Preview (its layouts run SP whenever TP > 1). */
  sp?: boolean;
  microBatch?: number;
  seq?: number;
  recompute?: RecomputeChoice;
  offloadLayers?: number;
  precision?: PrecisionChoice;
}

export interface WhatIfField {
  key: WhatIfKey;
  label: string;
  kind: 'int' | 'select';
  /** The file's value, as text. */
  file: string;
  /** The previewed value, as the control shows it. */
  value: string;
  changed: boolean;
  options: Choice[];
  min: number;
  max: number;
}

export interface WhatIfVM {
  uri: string;
  /** The document version the preview was computed on; Apply sends it back. */
  docVersion: number;
  fields: WhatIfField[];
  /** Null while nothing differs from the file. */
  preview: { bar: MemoryBar; verdictText: string; deltas: { label: string; from: string; to: string; delta: string }[] } | null;
  conflicts: { code: string; severity: 'error' | 'warning' | 'info'; message: string }[];
  changes: { path: string; from: string; to: string }[];
  canApply: boolean;
  applyNote: string;
}

export interface PlanConflict {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

/** One layout of the planner's list (or the file's own, as the reference row). */
export interface PlanRowVM {
  /** Position in the planner's candidates (applyCandidate sends it); null for the file's reference row. */
  index: number | null;
  /** "1", "2", … or "file". */
  label: string;
  /** One value per PlannerVM.layoutHead column: TP, PP, VPP, CP, EP, DP, MBS ("–" for no interleaving). */
  layout: string[];
  /** "no recompute · offload 8 layers · BF16". */
  levers: string;
  /** The most-loaded rank against the GPU (compact bar). */
  bar: MemoryBar;
  /** "68.19 GiB of 79.18 GiB (86%)". */
  memory: string;
  /** One text per PlannerVM.costHead column, in % of T0. */
  costs: string[];
  /** cost.total as a fraction of T0 (the sort key; the webview only shows `costs`). */
  total: number;
  /** The file already has this layout. */
  current: boolean;
  /** The what-if values are this row's. */
  previewed: boolean;
  /** What Preview puts into the what-if controls (changes against the file); null for the reference row. */
  values: WhatIfValues | null;
  /** The keys Apply writes, and why it cannot (keys the format cannot express, launch rules the result breaks). */
  changes: { path: string; from: string; to: string }[];
  conflicts: PlanConflict[];
  canApply: boolean;
  applyNote: string;
}

export interface PlannerVM {
  uri: string;
  /** The document version the rows' edits were computed on; applyCandidate sends it back. */
  docVersion: number;
  /** Which search the rows came from (the host counts them); applyCandidate sends it back. */
  planId: number;
  /** idle: not run for these inputs yet; running; ready: rows below; unavailable: the planner cannot run (see message). */
  state: 'idle' | 'running' | 'ready' | 'unavailable';
  /** Why the planner cannot run, or why earlier rows were dropped (the GPU, GPU count or file changed). */
  message: string;
  /** The GPU count it plans for, and where that count comes from. */
  gpus: number | null;
  gpusText: string;
  /** "llama3-8b · seq 131,072 · global batch 512 · 64 × NVIDIA H100 80GB HBM3 (SXM)". */
  caption: string;
  /** Search statistics: combinations, estimates, how many fit. */
  summary: string;
  layoutHead: string[];
  costHead: { label: string; title: string }[];
  /** The file's own layout on the same scale (configCost and its estimate). */
  reference: PlanRowVM | null;
  rows: PlanRowVM[];
  /** What the cost columns are (relative costs, not a throughput) and the hardware constants' sources. */
  legend: string;
  hardware: string;
  notes: string[];
}

export interface Sections {
  header: HeaderVM;
  memory: MemoryVM | null;
  layout: LayoutVM | null;
  quant: QuantVM | null;
  kv: KvVM | null;
  whatIf: WhatIfVM | null;
  planner: PlannerVM | null;
}
export type SectionId = keyof Sections;
export const SECTION_IDS: readonly SectionId[] = ['header', 'memory', 'layout', 'quant', 'kv', 'whatIf', 'planner'];

// ---------------------------------------------------------------------------------------------------------
// UI state the webview keeps with setState and hands back in `ready` after the view was hidden.

export type LayoutMode = 'all' | 'node' | 'replica';
export const LAYOUT_MODES: readonly LayoutMode[] = ['all', 'node', 'replica'];

export interface LayoutViewState {
  /** A chosen world size; null = the file's. */
  worldSize: number | null;
  mode: LayoutMode;
  page: number;
}

export interface UiState {
  /** The document the what-if values and rank belong to. */
  uri: string | null;
  gpu: string | null;
  whatIf: WhatIfValues;
  rank: number;
  layout: LayoutViewState;
}
