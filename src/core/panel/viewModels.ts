// The planning panel's view models (host → webview) and the UI state the webview keeps: plain JSON the core's
// panel builders produce (src/core/panel) and the webview draws. Each one is a valibot schema, and its TypeScript
// type is inferred from it (v.InferOutput): one definition for the type and the runtime check. src/protocol.ts
// wraps them in messages and validates every message at the boundary it crosses.
// View models carry final texts, and numbers the webview needs for drawing are already percentages: the webview
// computes nothing.
import * as v from 'valibot';

// ---------------------------------------------------------------------------------------------------------
// Building blocks. Every schema's message is the predicate of a sentence whose subject is the value's path
// (src/protocol.ts describeIssue): "values.cp must be an integer in 1…1048576".

/**
 * Upper bounds. What the webview sends (untrusted): sizes and counts up to 2^20 (a million GPUs), sequence lengths
 * up to 2^26 tokens, short strings. What the host sends is trusted and only bounded against a runaway: texts up to
 * 2^20 characters, lists up to 2^16 items.
 */
export const LIMITS = {
  size: 1 << 20,
  seq: 1 << 26,
  rank: 1 << 24,
  page: 1 << 24,
  text: 256,
  uri: 4096,
  candidates: 64,
  vmText: 1 << 20,
  items: 1 << 16,
} as const;

/**
 * A plain object: no array, no class instance. Its prototype is null or an Object.prototype, this realm's or
 * another's (a message cloned into a webview, a test's page): an Object.prototype is the one with no prototype.
 */
export const isPlainObject = (x: unknown): x is Record<string, unknown> => {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === null || Object.getPrototypeOf(proto) === null;
};
/** The message of a failed isPlainObject. */
export const notPlain = (i: { input: unknown }) =>
  typeof i.input === 'object' && i.input !== null && !Array.isArray(i.input) ? 'is not a plain object' : 'is not an object';

/**
 * An object with exactly these keys (missing and unexpected keys are reported by name), and a plain one: no array,
 * no class instance. The output is a fresh object holding only the known keys.
 */
export const strict = <const E extends v.ObjectEntries>(entries: E) =>
  v.pipe(v.custom<Record<string, unknown>>(isPlainObject, notPlain), v.strictObject(entries));

/** An integer in min…max (NaN, fractions, strings and infinities are not). */
export const int = (min: number, max: number) => {
  const m = `must be an integer in ${min}…${max}`;
  return v.pipe(v.number(m), v.integer(m), v.minValue(min, m), v.maxValue(max, m));
};

/** A string of at most `max` characters. */
export const str = (max: number) => {
  const m = `must be a string of at most ${max} characters`;
  return v.pipe(v.string(m), v.maxLength(max, m));
};

/** One of a fixed list of strings. */
export const oneOf = <const T extends readonly string[]>(options: T) => v.picklist(options, `must be one of ${options.join(', ')}`);

export const bool = v.boolean('must be true or false');

/** A finite number (a percentage, a value the file gave). */
const num = v.pipe(v.number('must be a finite number'), v.finite('must be a finite number'));
/** A count, a rank or an index the core computed. */
const whole = int(0, Number.MAX_SAFE_INTEGER);
/** Any text of a view model. */
const text = str(LIMITS.vmText);
const list = <S extends v.GenericSchema>(item: S, max: number = LIMITS.items) => {
  const m = `must be a list of at most ${max} items`;
  return v.pipe(v.array(item, m), v.maxLength(max, m));
};

/** A document URI (the host's; the webview hands it back in apply and applyCandidate). */
export const Uri = str(LIMITS.uri);
/** A document version (VS Code's TextDocument.version); the webview hands it back with Apply. */
export const DocVersion = int(0, Number.MAX_SAFE_INTEGER);
/** Which planner search a list came from (the host counts them); the webview hands it back with applyCandidate. */
export const PlanId = int(0, Number.MAX_SAFE_INTEGER);
/** A planner row's position in its list; applyCandidate hands it back. */
export const CandidateIndex = int(0, LIMITS.candidates - 1);

// ---------------------------------------------------------------------------------------------------------
// What-if values: what the webview sends in `preview` and keeps in its UI state; a key left out keeps the file's value.

export const WHAT_IF_KEYS = [
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
] as const;
export type WhatIfKey = (typeof WHAT_IF_KEYS)[number];
export const RECOMPUTE_CHOICES = ['off', 'selective', 'full'] as const;
export type RecomputeChoice = (typeof RECOMPUTE_CHOICES)[number];
export const PRECISION_CHOICES = ['bf16', 'fp16', 'fp8-delayed', 'fp8-tensorwise', 'fp8-blockwise', 'fp8-mxfp8', 'nvfp4'] as const;
export type PrecisionChoice = (typeof PRECISION_CHOICES)[number];

const size = int(1, LIMITS.size);
export const WhatIfValuesSchema = strict({
  cp: v.optional(size),
  tp: v.optional(size),
  pp: v.optional(size),
  /** 1 = not interleaved. */
  vpp: v.optional(size),
  /** Expert parallelism (a control for MoE models; the planner's Preview sets it). */
  ep: v.optional(size),
  /** Expert tensor parallelism: set only by the planner's Preview, where the file's ETP would not follow TP. */
  etp: v.optional(size),
  /** sequence_parallel: set only by the planner's Preview (its layouts run SP whenever TP > 1). */
  sp: v.optional(bool),
  microBatch: v.optional(size),
  seq: v.optional(int(1, LIMITS.seq)),
  recompute: v.optional(oneOf(RECOMPUTE_CHOICES)),
  offloadLayers: v.optional(int(0, LIMITS.size)),
  precision: v.optional(oneOf(PRECISION_CHOICES)),
});
export type WhatIfValues = v.InferOutput<typeof WhatIfValuesSchema>;

// ---------------------------------------------------------------------------------------------------------
// Shared pieces of the sections.

export const VERDICTS = ['fits', 'tight', 'does-not-fit'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const BAR_CATEGORIES = ['weights', 'gradients', 'optimizer', 'activations', 'transient', 'kv', 'overhead'] as const;
export type BarCategory = (typeof BAR_CATEGORIES)[number];
const SEVERITIES = ['error', 'warning', 'info'] as const;

export const BarSegmentSchema = strict({
  category: oneOf(BAR_CATEGORIES),
  label: text,
  /** "12.34 GiB (20.1%)". */
  text,
  /** Start and width as percentages of the bar's scale (max of capacity and total). */
  x: num,
  w: num,
});
export type BarSegment = v.InferOutput<typeof BarSegmentSchema>;

export const MemoryBarSchema = strict({
  label: text,
  /** "61.20 / 79.18 GiB". */
  text,
  segments: list(BarSegmentSchema),
  /** Where the GPU capacity falls on the bar, as a percentage. */
  capacityX: num,
  verdict: oneOf(VERDICTS),
  /** Marks the most-loaded stage among per-stage bars. */
  peak: v.optional(bool),
});
export type MemoryBar = v.InferOutput<typeof MemoryBarSchema>;

export const ChoiceSchema = strict({ value: text, label: text });
export type Choice = v.InferOutput<typeof ChoiceSchema>;

export const FactRowSchema = strict({ label: text, value: text });
export type FactRow = v.InferOutput<typeof FactRowSchema>;

export const PlanConflictSchema = strict({ code: text, severity: oneOf(SEVERITIES), message: text });
export type PlanConflict = v.InferOutput<typeof PlanConflictSchema>;

/** A key Apply writes: its path in the file, the file's value and the new one. */
const KeyChangeSchema = strict({ path: text, from: text, to: text });

// ---------------------------------------------------------------------------------------------------------
// Header.

export const HeaderVMSchema = strict({
  state: oneOf(['empty', 'recipe', 'no-estimate']),
  title: text,
  /** Format and model, e.g. "NeMo 1.x Hydra config · Llama 3 8B". */
  subtitle: text,
  /** Empty state or why there is no estimate. */
  message: text,
  uri: v.nullable(Uri),
  docVersion: v.nullable(DocVersion),
});
export type HeaderVM = v.InferOutput<typeof HeaderVMSchema>;

// ---------------------------------------------------------------------------------------------------------
// Memory.

export const BreakdownRowSchema = strict({
  label: text,
  category: oneOf(BAR_CATEGORIES),
  gib: text,
  pct: text,
  formula: text,
  source: text,
});
export type BreakdownRow = v.InferOutput<typeof BreakdownRowSchema>;

export const AssumptionRowSchema = strict({ what: text, source: text, provenance: text });
export type AssumptionRow = v.InferOutput<typeof AssumptionRowSchema>;

/** One pipeline stage (or the one rank of PP 1) at the three levels PyTorch names. */
export const StageLevelsSchema = strict({
  /** "0", "1", …; "every rank" when PP is 1. */
  stage: text,
  /** "20 layers", "4 + 4 + 4 + 4 + 4 layers" (virtual chunks). */
  layers: text,
  /** "23 forward passes (of 16 micro-batches)". */
  inFlight: text,
  allocated: text,
  reserved: text,
  device: text,
  verdict: oneOf(VERDICTS),
  /** The most-loaded stage. */
  peak: bool,
});
export type StageLevels = v.InferOutput<typeof StageLevelsSchema>;

export const MemoryVMSchema = strict({
  kind: oneOf(['training', 'serving']),
  /** "most-loaded rank (PP stage 0 of 2)". */
  caption: text,
  gpu: strict({ id: text, name: text, capacity: text, source: text }),
  gpuOptions: list(ChoiceSchema),
  verdict: oneOf(VERDICTS),
  verdictText: text,
  bar: MemoryBarSchema,
  rows: list(BreakdownRowSchema),
  total: strict({ gib: text, pct: text }),
  /** One bar per pipeline stage when PP > 1 (else empty). */
  stages: list(MemoryBarSchema),
  /** allocated / reserved / device per stage (training; empty for serving). */
  levels: list(StageLevelsSchema),
  assumptions: list(AssumptionRowSchema),
});
export type MemoryVM = v.InferOutput<typeof MemoryVMSchema>;

// ---------------------------------------------------------------------------------------------------------
// Parallel layout.

export const RANK_RELS = ['self', 'tp', 'cp', 'dp', 'pp', ''] as const;
export type RankRel = (typeof RANK_RELS)[number];

export const RankCellSchema = strict({
  rank: whole,
  rel: oneOf(RANK_RELS),
  /** Whether the rank shares the selected rank's EP group (MoE only). */
  ep: bool,
  /** "TP 1 · CP 0 · DP 3 · PP 0". */
  coords: text,
});
export type RankCell = v.InferOutput<typeof RankCellSchema>;

export const NodeBoxSchema = strict({
  /** "node 3 (ranks 24–31)". */
  label: text,
  cells: list(RankCellSchema),
});
export type NodeBox = v.InferOutput<typeof NodeBoxSchema>;

export const CpRingVMSchema = strict({
  size: whole,
  /** The selected rank's CP group in ring order with the chunks each member holds. */
  members: list(strict({ rank: whole, cpIndex: whole, chunks: v.strictTuple([whole, whole]), self: bool, text })),
  /** The 2·CP sequence chunks, in sequence order, with their owner (index into members). */
  chunks: list(strict({ index: whole, owner: whole, text })),
  /** "2.00 MiB per step (GQA: 8 KV heads for 32 query heads; MHA would send 8.00 MiB, 4× more)". */
  exchange: text,
  exchangeDetail: text,
});
export type CpRingVM = v.InferOutput<typeof CpRingVMSchema>;

export const LAYOUT_MODES = ['all', 'node', 'replica'] as const;
export type LayoutMode = (typeof LAYOUT_MODES)[number];

export const LayoutVMSchema = strict({
  /** Why no grid is drawn (no training layout, world not divisible, …); the rest is then empty. */
  reason: v.nullable(text),
  worldSize: whole,
  fileWorldSize: v.nullable(whole),
  worldSizeChoices: list(ChoiceSchema),
  order: text,
  /** "TP 4 × CP 8 × DP 2 × PP 2 = 128 GPUs on 16 nodes of 8". */
  caption: text,
  /** Counts per dimension: size and number of groups. */
  summary: list(strict({ dim: text, size: whole, groups: whole, text })),
  view: strict({ mode: oneOf(LAYOUT_MODES), page: whole, pages: whole, caption: text, modes: list(ChoiceSchema) }),
  boxes: list(NodeBoxSchema),
  selected: v.nullable(strict({ rank: whole, text, groups: list(strict({ dim: text, text })) })),
  cp: v.nullable(CpRingVMSchema),
  notes: list(text),
});
export type LayoutVM = v.InferOutput<typeof LayoutVMSchema>;

// ---------------------------------------------------------------------------------------------------------
// Quantization.

export const QuantVMSchema = strict({
  kind: oneOf(['training', 'serving']),
  title: text,
  facts: list(FactRowSchema),
  /** What stays in higher precision and the recipe's special treatment (RHT, stochastic rounding, …). */
  notes: list(text),
  source: text,
  /** This file's estimate under its own recipe and the alternatives (re-estimated by the host). */
  comparison: list(strict({ label: text, cells: list(text), current: bool })),
  comparisonHead: list(text),
  comparisonNote: text,
  summary: text,
  kv: list(FactRowSchema),
});
export type QuantVM = v.InferOutput<typeof QuantVMSchema>;

// ---------------------------------------------------------------------------------------------------------
// KV cache.

export const TimelineRangeSchema = strict({
  x: num,
  w: num,
  /** Colour bucket: index of the priority among the file's distinct priorities, lowest first (0…5). */
  level: int(0, 5),
  priority: num,
  label: text,
  detail: text,
  open: bool,
  /** Evicted without a host copy (priority below secondary_offload_min_priority). */
  dropped: bool,
});
export type TimelineRange = v.InferOutput<typeof TimelineRangeSchema>;

export const TimelineVMSchema = strict({
  axis: list(strict({ x: num, label: text })),
  ranges: list(TimelineRangeSchema),
  /** Block boundaries as percentages (only when there are few enough to draw). */
  blocks: list(num),
  caption: text,
});
export type TimelineVM = v.InferOutput<typeof TimelineVMSchema>;

export const KvVMSchema = strict({
  kind: oneOf(['serving', 'retention']),
  groups: list(strict({ title: text, rows: list(FactRowSchema) })),
  timeline: v.nullable(TimelineVMSchema),
  eviction: list(strict({ order: whole, text, dropped: bool })),
  notes: list(text),
});
export type KvVM = v.InferOutput<typeof KvVMSchema>;

// ---------------------------------------------------------------------------------------------------------
// What if.

export const WhatIfFieldSchema = strict({
  key: oneOf(WHAT_IF_KEYS),
  label: text,
  kind: oneOf(['int', 'select']),
  /** The file's value, as text. */
  file: text,
  /** The previewed value, as the control shows it. */
  value: text,
  changed: bool,
  options: list(ChoiceSchema),
  min: num,
  max: num,
});
export type WhatIfField = v.InferOutput<typeof WhatIfFieldSchema>;

export const WhatIfVMSchema = strict({
  uri: Uri,
  /** The document version the preview was computed on; Apply sends it back. */
  docVersion: DocVersion,
  fields: list(WhatIfFieldSchema),
  /** Null while nothing differs from the file. */
  preview: v.nullable(
    strict({ bar: MemoryBarSchema, verdictText: text, deltas: list(strict({ label: text, from: text, to: text, delta: text })) }),
  ),
  conflicts: list(PlanConflictSchema),
  changes: list(KeyChangeSchema),
  canApply: bool,
  applyNote: text,
});
export type WhatIfVM = v.InferOutput<typeof WhatIfVMSchema>;

// ---------------------------------------------------------------------------------------------------------
// Layouts (the planner).

/** One layout of the planner's list (or the file's own, as the reference row). */
export const PlanRowVMSchema = strict({
  /** Position in the planner's candidates (applyCandidate sends it); null for the file's reference row. */
  index: v.nullable(CandidateIndex),
  /** "1", "2", … or "file". */
  label: text,
  /** One value per PlannerVM.layoutHead column: TP, PP, VPP, CP, EP, DP, MBS ("–" for no interleaving). */
  layout: list(text),
  /** "no recompute · offload 8 layers · BF16". */
  levers: text,
  /** The most-loaded rank against the GPU (compact bar). */
  bar: MemoryBarSchema,
  /** "68.19 GiB of 79.18 GiB (86%)". */
  memory: text,
  /** One text per PlannerVM.costHead column, in % of T0. */
  costs: list(text),
  /** cost.total as a fraction of T0 (the sort key; the webview only shows `costs`). */
  total: num,
  /** The file already has this layout. */
  current: bool,
  /** The what-if values are this row's. */
  previewed: bool,
  /** What Preview puts into the what-if controls (changes against the file); null for the reference row. */
  values: v.nullable(WhatIfValuesSchema),
  /** The keys Apply writes, and why it cannot (keys the format cannot express, launch rules the result breaks). */
  changes: list(KeyChangeSchema),
  conflicts: list(PlanConflictSchema),
  canApply: bool,
  applyNote: text,
});
export type PlanRowVM = v.InferOutput<typeof PlanRowVMSchema>;

export const PlannerVMSchema = strict({
  uri: Uri,
  /** The document version the rows' edits were computed on; applyCandidate sends it back. */
  docVersion: DocVersion,
  /** Which search the rows came from (the host counts them); applyCandidate sends it back. */
  planId: PlanId,
  /** idle: not run for these inputs yet; running; ready: rows below; unavailable: the planner cannot run (see message). */
  state: oneOf(['idle', 'running', 'ready', 'unavailable']),
  /** Why the planner cannot run, or why earlier rows were dropped (the GPU, GPU count or file changed). */
  message: text,
  /** The GPU count it plans for, and where that count comes from. */
  gpus: v.nullable(whole),
  gpusText: text,
  /** "llama3-8b · seq 131,072 · global batch 512 · 64 × NVIDIA H100 80GB HBM3 (SXM)". */
  caption: text,
  /** Search statistics: combinations, estimates, how many fit. */
  summary: text,
  layoutHead: list(text),
  costHead: list(strict({ label: text, title: text })),
  /** The file's own layout on the same scale (configCost and its estimate). */
  reference: v.nullable(PlanRowVMSchema),
  rows: list(PlanRowVMSchema, LIMITS.candidates),
  /** What the cost columns are (relative costs, not a throughput) and the hardware constants' sources. */
  legend: text,
  hardware: text,
  notes: list(text),
});
export type PlannerVM = v.InferOutput<typeof PlannerVMSchema>;

// ---------------------------------------------------------------------------------------------------------
// KV reuse (core/panel/kvReuse.ts builds the result; the language server runs the simulation on request).

const KvHitSchema = strict({ y: num, text });
export const KvReuseVMSchema = strict({
  title: text,
  subtitle: text,
  curve: strict({
    xLabel: text,
    yLabel: text,
    points: list(strict({ poolBlocks: whole, label: text, x: num, lru: KvHitSchema, retention: v.nullable(KvHitSchema) })),
    ticks: list(strict({ x: num, label: text })),
    marker: v.nullable(strict({ x: num, label: text })),
  }),
  occupancy: v.nullable(
    strict({
      source: oneOf(['simulation', 'events']),
      title: text,
      x: list(num),
      xLabels: list(text),
      series: list(strict({ tier: oneOf(['GPU', 'host']), priority: num, label: text, values: list(num) })),
      held: v.nullable(list(num)),
    }),
  ),
  pinning: v.nullable(
    strict({
      summary: text,
      rows: list(
        strict({
          label: text,
          priority: text,
          pinned: text,
          hitsRetention: text,
          hitsLru: text,
          earned: text,
          earnedBlocks: v.pipe(v.number('must be an integer'), v.integer('must be an integer')),
          verdict: oneOf(['earned', 'no effect', 'cost']),
        }),
      ),
    }),
  ),
  notes: list(text),
});
export type KvReuseResultVM = v.InferOutput<typeof KvReuseVMSchema>;

/** idle: nothing run yet; running: the simulation or the comparison is under way; ready: `result`; error: `message`. */
export const RUN_STATES = ['idle', 'running', 'ready', 'error'] as const;

export const KvReuseSectionSchema = strict({
  uri: Uri,
  docVersion: DocVersion,
  state: oneOf(RUN_STATES),
  /** What the section simulates with (the options file's pool, the retention file's config). */
  intro: text,
  /** Built-in workloads (value: the name `recipe-lens simulate --workload` takes). */
  workloads: list(ChoiceSchema),
  /** The workload run or running (a built-in name or a trace's file name); '' before the first run. */
  workload: text,
  /** The error, or what the run read ("3,993 requests from a Mooncake trace"). */
  message: text,
  result: v.nullable(KvReuseVMSchema),
});
export type KvReuseSectionVM = v.InferOutput<typeof KvReuseSectionSchema>;

// ---------------------------------------------------------------------------------------------------------
// Compare with a training log (core/panel/compareLog.ts).

export const CompareLogVMSchema = strict({
  /** "train.log against llama3_8b.yaml". */
  title: text,
  /** "Llama 3 8B; TP 2 PP 2 CP 1 EP 1 DP 2; NVIDIA H100 80GB HBM3 (SXM) · 4 memory samples". */
  caption: text,
  head: list(text),
  /** One row per rank and level: rank, stage, level, measured, estimated, error. */
  rows: list(strict({ cells: list(text), worst: bool })),
  worst: text,
  suspectsCaption: text,
  suspects: list(strict({ label: text, bytes: text, share: text })),
  notes: list(text),
});
export type CompareLogVM = v.InferOutput<typeof CompareLogVMSchema>;

export const CompareSectionSchema = strict({
  uri: Uri,
  docVersion: DocVersion,
  state: oneOf(RUN_STATES),
  intro: text,
  message: text,
  result: v.nullable(CompareLogVMSchema),
});
export type CompareSectionVM = v.InferOutput<typeof CompareSectionSchema>;

// ---------------------------------------------------------------------------------------------------------
// All sections: what `init` carries in full and `update` in part (only the sections whose JSON changed).

export const SECTION_IDS = ['header', 'memory', 'layout', 'quant', 'kv', 'whatIf', 'planner', 'kvReuse', 'compare'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

const SECTION_ENTRIES = {
  header: HeaderVMSchema,
  memory: v.nullable(MemoryVMSchema),
  layout: v.nullable(LayoutVMSchema),
  quant: v.nullable(QuantVMSchema),
  kv: v.nullable(KvVMSchema),
  whatIf: v.nullable(WhatIfVMSchema),
  planner: v.nullable(PlannerVMSchema),
  kvReuse: v.nullable(KvReuseSectionSchema),
  compare: v.nullable(CompareSectionSchema),
};
export const SectionsSchema = strict(SECTION_ENTRIES);
export type Sections = v.InferOutput<typeof SectionsSchema>;
/** Some of the sections: a key present replaces that section (null removes it), a key left out keeps it. */
export const PartialSectionsSchema = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, notPlain),
  v.partial(v.strictObject(SECTION_ENTRIES)),
);

// ---------------------------------------------------------------------------------------------------------
// UI state the webview keeps with setState and hands back in `ready` after the view was hidden.

export const LayoutViewStateSchema = strict({
  /** A chosen world size; null = the file's. */
  worldSize: v.nullable(int(1, LIMITS.size)),
  mode: oneOf(LAYOUT_MODES),
  page: int(0, LIMITS.page),
});
export type LayoutViewState = v.InferOutput<typeof LayoutViewStateSchema>;

/** GPU ids as gpus.ts and the settings write them: `h100`, `a100-80gb`, `custom:96`. */
export const GPU_ID = /^(?:[a-z0-9][a-z0-9-]{0,31}|custom:\d{1,5}(?:\.\d{1,3})?)$/;
export const GpuId = v.pipe(str(48), v.regex(GPU_ID, 'is not a GPU id'));

export const UiStateSchema = strict({
  /** The document the what-if values and rank belong to. */
  uri: v.nullable(Uri),
  gpu: v.nullable(GpuId),
  whatIf: WhatIfValuesSchema,
  rank: int(0, LIMITS.rank),
  layout: LayoutViewStateSchema,
});
export type UiState = v.InferOutput<typeof UiStateSchema>;
