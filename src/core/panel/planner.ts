// Layouts section: the planner (core/plan) for the file's model, sequence length and global batch on the panel's GPU
// and GPU count, run on demand only (a button, the Suggest Layouts command; never per keystroke). The cheapest
// candidates with their memory and cost terms, the file's own layout on the same scale, and per candidate the what-if
// values Preview sets and the edits Apply writes (whatIf.ts writeCheck: the same path as the what-if Apply).
import type { PlanConflict, PlannerVM, PlanRowVM, PrecisionChoice, WhatIfValues } from './viewModels.js';
import { PRECISION_CHOICES } from './viewModels.js';
import { derived, type TrainingConfig } from '../memory/config.js';
import { reestimate } from '../memory/estimate.js';
import { PRECISIONS, type PrecisionId } from '../memory/precision.js';
import { fitVerdict, type TrainingEstimate } from '../memory/training.js';
import { MFU } from '../plan/cost.js';
import { hardwareFor } from '../plan/hardware.js';
import { configCost, plan, type Candidate, type PlanResult } from '../plan/plan.js';
import { violations } from '../plan/space.js';
import type { TextEdit } from '../types.js';
import { count, gib, stackedBar } from './format.js';
import { trainingParts, type TrainingDoc } from './memory.js';
import { precisionIdOf } from '../memory/precision.js';
import { applyNote, changeRows, effectiveChanges, previewConfig, writeCheck, type WriteInput } from './whatIf.js';

/** Candidates the section lists. */
export const PLAN_TOP = 8;

/** A search the host keeps: the planner's result for one file, GPU, GPU count and planning inputs. */
export interface PlanCache {
  id: number;
  uri: string;
  /** planKey() of the inputs it ran on: rows are shown only while the key is unchanged. */
  key: string;
  gpus: number;
  gpuName: string;
  result: PlanResult;
}

/** The host's planner state for buildSections. */
export interface PlanState {
  /** The last search (for any file; used only when uri and key match). */
  cache?: PlanCache;
  /** Run the planner now (the button or the command), with this id for the new search. */
  run?: { id: number };
  /** A search was asked for and is about to run (the section says so meanwhile). */
  running?: boolean;
}

export interface PlannerInput extends WriteInput {
  e: TrainingDoc;
  uri: string;
  docVersion: number;
  /** GPU count chosen in the layout section (null: the file's world size). */
  chosenWorld: number | null;
  /** The file's recipe-lens modeline (world_size= is one source of the world size). */
  modeline: Record<string, string>;
  /** The panel's what-if values (to mark the row being previewed). */
  whatIf: WhatIfValues;
  state: PlanState;
}

export interface PlannerResult {
  vm: PlannerVM;
  /** A new search (when `state.run` asked for one). */
  cache?: PlanCache;
  /** Per row of vm.rows: the edits its Apply writes against the text, or undefined where Apply is off. */
  edits: (TextEdit[] | undefined)[];
}

const LAYOUT_HEAD = ['TP', 'PP', 'VPP', 'CP', 'EP', 'DP', 'MBS'];
const COSTS: { key: keyof Candidate['cost']; label: string; title: string }[] = [
  { key: 'bubble', label: 'bubble', title: 'pipeline bubble: (PP − 1) / (micro-batches · VPP)' },
  {
    key: 'recompute',
    label: 'recompute',
    title: 'activation recompute: one extra forward of every layer (full) or of the attention scores (selective)',
  },
  { key: 'tpComm', label: 'TP', title: 'tensor-parallel all-reduce / all-gather + reduce-scatter time, not overlapped' },
  { key: 'cpComm', label: 'CP', title: 'context-parallel K/V ring time beyond the attention compute it hides behind' },
  { key: 'epComm', label: 'EP', title: 'expert-parallel all-to-all dispatch and combine time, not overlapped' },
  { key: 'ppComm', label: 'PP', title: 'pipeline send / receive time of activations and their gradients' },
  {
    key: 'dpComm',
    label: 'DP',
    title: 'gradient reduce-scatter / parameter all-gather time beyond what overlaps the first and last micro-batch',
  },
  { key: 'offload', label: 'offload', title: 'CPU activation offload copies not hidden behind the next layer' },
  { key: 'total', label: 'total', title: 'sum of the terms: the modelled step time is (1 + total) × T0' },
];

const pct1 = (x: number) => `${(100 * x).toFixed(1)}%`;
const precisionText = (p: PrecisionId) => PRECISIONS[p].label.replace(/ mixed precision$/, '');
const recomputeText = (r: 'none' | 'selective' | 'full' | null) =>
  !r || r === 'none' ? 'no recompute' : r === 'full' ? 'full recompute' : 'selective recompute';

/**
 * The inputs a search depends on (model, the file's settings other than the layout the planner chooses, GPU, GPU
 * count): a search stays valid while this is unchanged, so writing a candidate into the file keeps the list.
 */
export function planKey(e: TrainingDoc, gpus: number): string {
  const rest: Partial<TrainingConfig> = { ...e.config };
  for (const k of ['tp', 'pp', 'vpp', 'cp', 'ep', 'etp', 'sp', 'microBatch', 'recompute', 'offloadLayers', 'worldSize'] as const)
    delete rest[k];
  return JSON.stringify({ shape: e.shape, rest, gpu: [e.gpu.id, e.gpu.bytes], gpus });
}

/** What Preview puts into the what-if controls for a candidate: its settings that differ from the file's. */
export function candidateValues(c: TrainingConfig, cand: Candidate): WhatIfValues {
  const want: WhatIfValues = {
    tp: cand.tp,
    pp: cand.pp,
    vpp: cand.vpp ?? 1,
    cp: cand.cp,
    ep: cand.ep,
    sp: cand.sp,
    microBatch: cand.microBatchSize,
    recompute: cand.recompute === 'none' ? 'off' : cand.recompute,
    offloadLayers: cand.offloadLayers,
  };
  // The planner tries the file's own precision (any recipe) plus BF16, FP8 delayed and NVFP4.
  if ((PRECISION_CHOICES as readonly string[]).includes(cand.precision)) want.precision = cand.precision as PrecisionChoice;
  const v = effectiveChanges(c, want);
  // The planner keeps ETP = TP (Megatron's default); the what-if moves ETP along only where the file had ETP = TP.
  if (previewConfig(c, v).etp !== cand.tp) v.etp = cand.tp;
  return v;
}

const sameValues = (a: WhatIfValues, b: WhatIfValues) => {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k as keyof WhatIfValues] === b[k as keyof WhatIfValues]);
};

function memoryOf(perGpu: TrainingEstimate['perGpu'], capacity: number, label: string) {
  const verdict = fitVerdict(perGpu.total, capacity).verdict;
  return {
    bar: stackedBar(label, trainingParts(perGpu), capacity, verdict),
    memory: `${gib(perGpu.total)} of ${gib(capacity)} (${Math.round((100 * perGpu.total) / capacity)}%)`,
  };
}

/** Where the GPU count comes from, for the section's caption and Apply's world-size check. */
function worldOf(input: PlannerInput): { gpus: number | undefined; text: string; fileWorld: number | undefined; source: string } {
  const fileWorld = input.e.config.worldSize;
  const fileKeys = input.recipe.world?.source === 'file';
  const modeline = fileWorld !== undefined && input.recipe.world?.source === 'modeline';
  const where = fileKeys ? "the file's world size" : modeline ? "the modeline's world_size" : 'recipeLens.worldSize';
  const source = fileKeys
    ? 'trainer.num_nodes × trainer.devices'
    : modeline
      ? "the recipe-lens modeline's world_size"
      : 'recipeLens.worldSize';
  const chosen = input.chosenWorld ?? undefined;
  const gpus = chosen ?? fileWorld;
  if (!gpus) return { gpus, text: '', fileWorld, source };
  const text =
    chosen !== undefined && chosen !== fileWorld
      ? `${count(gpus)} GPUs (chosen in Parallel layout${fileWorld ? `; ${where}: ${count(fileWorld)}` : ''})`
      : `${count(gpus)} GPUs (${where})`;
  return { gpus, text, fileWorld, source };
}

export function plannerSection(input: PlannerInput): PlannerResult {
  const { e } = input;
  const c = e.config;
  const cap = e.gpu.bytes;
  const world = worldOf(input);
  const { hw } = hardwareFor(e.gpu);
  const base: PlannerVM = {
    uri: input.uri,
    docVersion: input.docVersion,
    planId: 0,
    state: 'idle',
    message: '',
    gpus: world.gpus ?? null,
    gpusText: world.text,
    caption: `${e.shape.name} · seq ${count(c.seq)} · global batch ${c.globalBatch ? count(c.globalBatch) : '?'} · ${world.gpus ? `${count(world.gpus)} × ` : ''}${e.gpu.name}`,
    summary: '',
    layoutHead: LAYOUT_HEAD,
    costHead: COSTS.map(({ label, title }) => ({ label, title })),
    reference: null,
    rows: [],
    legend: `Cost columns: the extra step time each term adds, in % of T0, the step's compute time (its FLOPs spread over all GPUs at ${Math.round(MFU * 100)}% of the dense BF16 peak). They are relative costs that rank the layouts, not a throughput; memory is the most-loaded rank's estimate.`,
    hardware: `Constants: ${hw.source}; MFU ${Math.round(MFU * 100)}% from Llama 3 (Dubey et al. 2024, Table 4).`,
    notes: [],
  };
  const gpus = world.gpus;
  if (!gpus)
    return {
      vm: {
        ...base,
        state: 'unavailable',
        message: 'World size unknown: pick a GPU count in Parallel layout (or set recipeLens.worldSize) to suggest layouts.',
      },
      edits: [],
    };
  if (!c.globalBatch)
    return {
      vm: {
        ...base,
        state: 'unavailable',
        message: 'The file gives no global batch size: the planner keeps it and splits it into micro-batches.',
      },
      edits: [],
    };

  // The file's own layout on the same scale: configCost and its estimate at this GPU count.
  const fileConfig: TrainingConfig = { ...c, worldSize: gpus };
  const fileEstimate = gpus === c.worldSize ? e.estimate : reestimate(e, fileConfig);
  const fileDp = derived(fileConfig).dp;
  const rules = { base: input.recipe.values, family: input.recipe.family, overlapP2p: input.recipe.values.overlapP2p === true };
  const broken = violations(e.shape, fileConfig, gpus, rules);
  const fileCost = configCost(e.shape, fileConfig, e.gpu, gpus);
  const reference: PlanRowVM = {
    index: null,
    label: 'file',
    layout: [c.tp, c.pp, c.vpp ?? '–', c.cp, c.ep, fileDp ?? '—', c.microBatch].map(String),
    levers: [
      recomputeText(c.recompute.granularity),
      c.offloadLayers ? `offload ${c.offloadLayers} layers` : 'no offload',
      precisionText(precisionIdOf(c)),
    ].join(' · '),
    ...memoryOf(fileEstimate.perGpu, cap, "the file's layout"),
    costs: COSTS.map(({ key }) => pct1(fileCost[key])),
    total: fileCost.total,
    current: true,
    previewed: false,
    values: null,
    changes: [],
    conflicts: broken.map((v) => ({
      code: v.rule,
      severity: 'warning' as const,
      message: `on ${count(gpus)} GPUs the file's layout breaks ${v.rule}: ${v.message}`,
    })),
    canApply: false,
    applyNote: "The file's layout, for reference.",
  };

  const key = planKey(e, gpus);
  let cache = input.state.cache;
  let fresh: PlanCache | undefined;
  if (input.state.run) {
    fresh = cache = {
      id: input.state.run.id,
      uri: input.uri,
      key,
      gpus,
      gpuName: e.gpu.name,
      result: plan(e.shape, c, e.gpu, { gpus, top: PLAN_TOP, ...rules }),
    };
  }
  const vm: PlannerVM = { ...base, reference };
  if (input.state.running)
    return { vm: { ...vm, state: 'running', message: `Searching the layouts for ${count(gpus)} × ${e.gpu.name}…` }, edits: [] };
  if (!cache || cache.uri !== input.uri) return { vm, edits: [] };
  if (cache.key !== key) {
    const why =
      cache.gpus !== gpus
        ? `The last suggestion was for ${count(cache.gpus)} GPUs; the panel now plans for ${count(gpus)}.`
        : cache.gpuName !== e.gpu.name
          ? `The last suggestion was for the ${cache.gpuName}; the panel's GPU is now the ${e.gpu.name}.`
          : "The file's model, sequence length, batch or precision changed since the last suggestion.";
    return { vm: { ...vm, message: `${why} Suggest again to update the list.` }, edits: [] };
  }

  const r = cache.result;
  const shown = r.candidates.slice(0, PLAN_TOP);
  // Apply writes the layout, not the world size: refused when the list is for another GPU count than the file runs on.
  const worldConflict: PlanConflict | null =
    world.fileWorld !== undefined && world.fileWorld !== gpus
      ? {
          code: 'world',
          severity: 'error',
          message: `planned for ${count(gpus)} GPUs, but the file runs on ${count(world.fileWorld)} (${world.source}); Apply does not change the world size: set it by hand first, or plan for ${count(world.fileWorld)}`,
        }
      : null;
  const previewing = effectiveChanges(c, input.whatIf);
  const edits: (TextEdit[] | undefined)[] = [];
  const rows = shown.map((cand, i): PlanRowVM => {
    const values = candidateValues(c, cand);
    const current = Object.keys(values).length === 0;
    const row: PlanRowVM = {
      index: i,
      label: String(i + 1),
      layout: [cand.tp, cand.pp, cand.vpp ?? '–', cand.cp, cand.ep, cand.dp, cand.microBatchSize].map(String),
      levers: [
        recomputeText(cand.recompute),
        cand.offloadLayers ? `offload ${cand.offloadLayers} layers` : 'no offload',
        precisionText(cand.precision),
      ].join(' · '),
      ...memoryOf(cand.perGpu, cap, `layout ${i + 1}`),
      costs: COSTS.map(({ key }) => pct1(cand.cost[key])),
      total: cand.cost.total,
      current,
      previewed: !current && sameValues(previewing, values),
      values,
      changes: [],
      conflicts: [],
      canApply: false,
      applyNote: "This is the file's layout.",
    };
    if (current) {
      edits.push(undefined);
      return row;
    }
    const w = writeCheck(input, c, values);
    const conflicts = worldConflict ? [worldConflict, ...w.conflicts] : w.conflicts;
    const errors = w.errors + (worldConflict ? 1 : 0);
    const canApply = w.canApply && !worldConflict;
    edits.push(canApply ? w.edits : undefined);
    return { ...row, changes: changeRows(w.changes), conflicts, canApply, applyNote: applyNote(canApply, w.changes.length, errors) };
  });
  const notes = [...r.notes];
  if (worldConflict) notes.push(`Preview estimates at the file's ${count(world.fileWorld!)} GPUs; the rows at ${count(gpus)}.`);
  return {
    vm: {
      ...vm,
      planId: cache.id,
      state: 'ready',
      message: shown.length
        ? ''
        : `No layout fits ${count(gpus)} × ${e.gpu.name} within 90% of its memory: more GPUs, a larger GPU, or a shorter sequence.`,
      summary: `${count(r.space)} combinations pass the launch rules; ${count(r.searched)} searched (${count(r.estimated)} memory estimates), ${count(r.valid)} fit within 90% of the GPU${shown.length ? `; the ${shown.length === 1 ? 'cheapest' : `${shown.length} cheapest`}, lowest total first:` : '.'}`,
      rows,
      hardware: `Constants: ${r.hardware.source}; MFU ${Math.round(MFU * 100)}% from Llama 3 (Dubey et al. 2024, Table 4).`,
      notes,
    },
    cache: fresh,
    edits,
  };
}
