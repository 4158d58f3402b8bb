// Memory section: the most-loaded rank's stacked bar against the GPU, the breakdown table, per-stage bars
// and the assumptions, from a DocEstimate (training or serving).
import type { AssumptionRow, BarCategory, Choice, MemoryBar, MemoryVM, StageLevels, Verdict } from './viewModels.js';
import type { DocEstimate, ServingRole } from '../memory/estimate.js';
import { GPUS } from '../memory/gpus.js';
import { fitVerdict, type StageEstimate, type TrainingEstimate } from '../memory/training.js';
import type { Assumption, GpuSpec } from '../memory/types.js';
import { gib, pct, stackedBar, VERDICT_TEXT } from './format.js';

export type TrainingDoc = Extract<DocEstimate, { kind: 'training' }>;
export type ServingDoc = Extract<DocEstimate, { kind: 'serving' }>;

const TRAINING_ORDER = ['weights', 'gradients', 'optimizer', 'activations', 'transient', 'overhead'] as const;

/** The GPU picker's choices: every preset, plus the current GPU when it is a custom size. */
export function gpuChoices(current: GpuSpec): Choice[] {
  const out = GPUS.map((g) => ({ value: g.id, label: `${g.name} — ${gib(g.bytes)}` }));
  if (!GPUS.some((g) => g.id === current.id)) out.push({ value: current.id, label: `${current.name} — ${gib(current.bytes)}` });
  return out;
}

const assumptionRows = (list: readonly Assumption[]): AssumptionRow[] =>
  list.map((a) => ({ what: a.what, source: a.source, provenance: a.provenance }));

/** The per-category parts of an estimate's most-loaded rank or of one stage. */
export function trainingParts(s: Pick<StageEstimate, (typeof TRAINING_ORDER)[number]>): { category: BarCategory; bytes: number }[] {
  return TRAINING_ORDER.map((category) => ({ category, bytes: s[category] }));
}

export function trainingBar(t: TrainingEstimate, capacity: number, label = 'most-loaded rank'): MemoryBar {
  return stackedBar(label, trainingParts(t.perGpu), capacity, t.fit.verdict);
}

function verdictText(verdict: Verdict, total: number, capacity: number, where: string): string {
  return `${VERDICT_TEXT[verdict]}: ${where} needs ${gib(total)} of ${gib(capacity)} (${pct(total, capacity)})`;
}

export function trainingMemory(e: TrainingDoc): MemoryVM {
  const t = e.estimate;
  const cap = e.gpu.bytes;
  const pp = t.stages.length;
  const rank = pp > 1 ? `most-loaded rank: PP stage ${t.stage} of ${pp}` : 'per GPU (every rank holds the same)';
  // NeMo-RL: the bar is the training phase; the step's other phases (memory/nemoRl.ts) are named beside it.
  const peak = e.rl?.phases.find((p) => p.id === e.rl!.peak.training);
  const caption = e.rl && peak ? `${rank}; training phase of a NeMo-RL step — step peak: ${peak.label} ${gib(peak.bytes)}` : rank;
  const scale = Math.max(cap, ...t.stages.map((s) => s.total));
  const stages =
    pp > 1
      ? t.stages.map((s) => ({
          ...stackedBar(`stage ${s.stage} (${s.layers} layers)`, trainingParts(s), cap, fitVerdict(s.total, cap).verdict, scale),
          ...(s.stage === t.stage ? { peak: true } : {}),
        }))
      : [];
  return {
    kind: 'training',
    caption,
    gpu: { id: e.gpu.id, name: e.gpu.name, capacity: gib(cap), source: e.gpu.source },
    gpuOptions: gpuChoices(e.gpu),
    verdict: t.fit.verdict,
    verdictText: verdictText(t.fit.verdict, t.perGpu.total, cap, pp > 1 ? `stage ${t.stage}` : 'each GPU'),
    bar: trainingBar(t, cap),
    rows: t.breakdown.map((l) => ({
      label: l.label,
      category: l.category,
      gib: gib(l.bytes),
      pct: pct(l.bytes, t.perGpu.total),
      formula: l.formula,
      source: l.source,
    })),
    total: { gib: gib(t.perGpu.total), pct: '100%' },
    stages,
    levels: t.stages.map((s) => stageLevels(s, t, cap)),
    assumptions: assumptionRows(t.assumptions),
  };
}

/** One row of the levels table: the stage's layers, its passes in flight at the peak, and the three levels. */
function stageLevels(s: StageEstimate, t: TrainingEstimate, cap: number): StageLevels {
  const f = s.inFlight;
  const chunks = f.perChunk.length > 1 ? ` over ${f.perChunk.length} virtual stages` : '';
  return {
    stage: t.stages.length > 1 ? String(s.stage) : 'every rank',
    layers: `${s.layers} layer${s.layers === 1 ? '' : 's'}`,
    // `microbatches`: the activations held, in whole micro-batches of this stage's layers (a chunk is a fraction of one).
    inFlight: `${f.passes} forward pass${f.passes === 1 ? '' : 'es'}${chunks}: ${+f.microbatches.toFixed(2)} micro-batch${f.microbatches === 1 ? '' : 'es'} of activations`,
    allocated: gib(s.allocated),
    reserved: gib(s.reserved),
    device: gib(s.device),
    verdict: fitVerdict(s.device, cap).verdict,
    peak: s.stage === t.stage,
  };
}

/** The role a serving file is sized by: the generation servers of a disaggregated file, else the only one. */
export function mainRole(e: ServingDoc): ServingRole {
  return e.roles.find((r) => r.role === 'generation_servers') ?? e.roles[0]!;
}

export function roleName(r: ServingRole): string {
  return `${r.role || 'server'}: TP ${r.tp}${r.pp > 1 ? ` PP ${r.pp}` : ''}${r.cp > 1 ? ` CP ${r.cp}` : ''}${r.attentionDp ? ' (attention DP)' : ''}`;
}

export function servingMemory(e: ServingDoc): MemoryVM {
  const r = mainRole(e);
  const k = r.kv;
  const cap = e.gpu.bytes;
  const h = r.holds;
  const total = h.weights + h.kvPool + h.runtime + h.state;
  // The pool is sized to fill what weights, state and the runtime leave: the plan fails only when they alone overflow.
  const verdict: Verdict = r.fits ? 'fits' : 'does-not-fit';
  const parts = [
    { category: 'weights' as const, bytes: h.weights },
    { category: 'kv' as const, bytes: h.kvPool },
    { category: 'overhead' as const, bytes: h.runtime + h.state },
  ];
  const limitText = k.limit === 'free_gpu_memory_fraction' ? `free_gpu_memory_fraction ${k.fraction} of ${gib(k.freeBytes)} free` : k.limit;
  const rows: MemoryVM['rows'] = r.weights.lines.map((l) => ({
    label: `weights: ${l.part}`,
    category: 'weights' as const,
    gib: gib(l.bytes),
    pct: pct(l.bytes, total),
    formula: `${l.params.toLocaleString('en-US')} parameters × ${+l.bytesPerParam.toFixed(5)} B (${l.storage}), ${l.split}`,
    source: `${e.weights.source}; TensorRT-LLM mapping.py sharding (servingWeights.ts)`,
  }));
  rows.push({
    label: `KV cache pool (${k.poolBlocks} blocks)`,
    category: 'kv',
    gib: gib(h.kvPool),
    pct: pct(h.kvPool, total),
    formula: `limited by ${limitText}; whole blocks of ${k.bytesPerBlock} B`,
    source: 'TensorRT-LLM _util.py _cal_max_memory; KVCacheManager calculate_max_num_blocks',
  });
  rows.push({
    label: 'non-KV runtime (context, NCCL, activations)',
    category: 'overhead',
    gib: gib(h.runtime),
    pct: pct(h.runtime, total),
    formula: 'CUDA context + NCCL + activations of max_num_tokens',
    source: 'memory.md §7',
  });
  if (h.state)
    rows.push({
      label: 'recurrent state (Mamba / linear attention)',
      category: 'overhead',
      gib: gib(h.state),
      pct: pct(h.state, total),
      formula: 'conv + SSM state per layer × max_batch_size / TP',
      source: 'TensorRT-LLM mamba_cache_manager.py (recurrentState.ts)',
    });
  return {
    kind: 'serving',
    caption: `per GPU (${roleName(r)})`,
    gpu: { id: e.gpu.id, name: e.gpu.name, capacity: gib(cap), source: e.gpu.source },
    gpuOptions: gpuChoices(e.gpu),
    verdict,
    verdictText: r.fits
      ? `fits: weights and runtime take ${gib(h.weights + h.runtime + h.state)} of ${gib(cap)}; the KV pool gets ${gib(h.kvPool)}`
      : `does not fit: weights and runtime alone need ${gib(h.weights + h.runtime + h.state)} of ${gib(cap)}`,
    bar: stackedBar('per GPU', parts, cap, verdict),
    rows,
    total: { gib: gib(total), pct: '100%' },
    stages: [],
    levels: [],
    assumptions: assumptionRows([...e.assumptions, ...k.assumptions]),
  };
}

export function memorySection(e: DocEstimate): MemoryVM | null {
  if (e.kind === 'training') return trainingMemory(e);
  if (e.kind === 'serving') return servingMemory(e);
  return null;
}
