// The planner's search space: the enumeration of layouts, virtual pipeline sizes, micro-batches and memory levers
// that the launch rules allow. The rules are the checker's own (core/rules/training.ts): the enumeration uses their
// predicates, and a configuration is accepted only when trainingRules reports no error for it.
import type { TrainingValues } from '../formats/fields.js';
import { NEMO2 } from '../formats/nemo2.js';
import type { TrainingFamily } from '../formats/training.js';
import type { TrainingConfig } from '../memory/config.js';
import type { PrecisionId } from '../memory/precision.js';
import type { ModelShape } from '../memory/types.js';
import {
  batchDivisible,
  expertsDivisible,
  expertWorldDivisible,
  groupsCompatible,
  headsDivisible,
  interleavedMicrobatches as microbatchesDivisible,
  layersDivisible,
  seqDivisible,
  trainingRules,
  vppDivisible,
  vppPpOk,
  worldDivisible,
} from '../rules/training.js';
import type { Hardware } from './hardware.js';

/** A rule a configuration breaks: the rule id of formats.md §5 (or the planner's own id) and why. */
export interface Violation {
  rule: string;
  message: string;
}

export interface SpaceOptions {
  /** GPUs per node: TP stays inside one (Megatron places TP ranks on consecutive GPUs). Default 8. */
  gpusPerNode?: number;
  /** overlap_p2p_comm: lets VPP run with PP = 2 (R5b). Default false, the Megatron-LM default. */
  overlapP2p?: boolean;
}

export const DEFAULT_GPUS_PER_NODE = 8;
/** Micro-batch sizes the planner tries. */
export const MICRO_BATCHES = [1, 2, 4] as const;
/** Search cap, not a rule: CP ranks keep ≥ 1024 tokens, below which a ring step's attention is too short to hide the K/V exchange (cost.ts cpComm). */
export const MIN_TOKENS_PER_CP_RANK = 1024;

/** R24's condition for a point of the space (no interleaving: nothing to check). */
export const interleavedMicrobatches = (pp: number, vpp: number | null, microbatches: number) =>
  !vpp || vpp === 1 || pp === 1 || microbatchesDivisible(microbatches, pp);
// Hardware: FP8 needs compute capability ≥ 8.9, MXFP8 and NVFP4 need Blackwell — TransformerEngine docs.
export const precisionSupported = (p: PrecisionId, hw: Hardware) =>
  p === 'nvfp4' || p === 'mxfp4' || p === 'fp8-mxfp8' ? hw.fp4 : p.startsWith('fp8-') ? hw.fp8 : true;

/** The rule values of a memory configuration: what the checker reads from a file that says exactly this. */
export function valuesOf(m: ModelShape, c: TrainingConfig, base: TrainingValues = {}): TrainingValues {
  return {
    ...base,
    tp: c.tp,
    pp: c.pp,
    vpp: c.vpp,
    cp: c.cp,
    ep: c.ep,
    etp: c.etp,
    sp: c.sp,
    seq: c.seq,
    mbs: c.microBatch,
    gbs: c.globalBatch ?? base.gbs,
    layers: m.layers,
    heads: m.heads,
    groups: m.kvHeads,
    experts: m.experts || null,
    recomputeGranularity: c.recompute.granularity,
    recomputeMethod: c.recompute.method,
    recomputeLayers: c.recompute.numLayers,
    cpuOffloading: c.offloadLayers > 0,
    offloadLayers: c.offloadLayers,
  };
}

/** The launch rules `values` break on `world` GPUs: errors only, what the launcher refuses. */
export function launchViolations(values: TrainingValues, family: TrainingFamily, world: number): Violation[] {
  return trainingRules({ v: values, family, world })
    .filter((h) => h.severity === 'error')
    .map((h) => ({ rule: h.code.replace(/^RL-/, ''), message: h.message }));
}

export interface ViolationOptions extends SpaceOptions {
  /** The file's own normalized values (the settings the planner does not choose), and whose loader reads it. */
  base?: TrainingValues;
  family?: TrainingFamily;
}

/** Every launch rule `c` breaks on `world` GPUs, plus the planner's own search limit (TP within a node). Empty: accepted. */
export function violations(m: ModelShape, c: TrainingConfig, world: number, opts: ViolationOptions = {}): Violation[] {
  // Without the file's values: a file that says exactly this and nothing else, read with megatron-core's defaults.
  const base = opts.base ?? { ...NEMO2.defaults, overlapP2p: opts.overlapP2p ?? false };
  const out = launchViolations(valuesOf(m, c, base), opts.family ?? 'mcore', world);
  const node = opts.gpusPerNode ?? DEFAULT_GPUS_PER_NODE;
  if (c.tp > node) out.push({ rule: 'TP-node', message: `TP ${c.tp} spans more than one ${node}-GPU node` });
  return out;
}

/** A process-group layout: how the world splits into TP × PP × CP × DP (EP inside DP·CP·TP/ETP). */
export interface Layout {
  tp: number;
  pp: number;
  cp: number;
  ep: number;
  dp: number;
}

export const divisorsOf = (n: number): number[] => {
  const out: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
};

/**
 * Every layout that passes R1, R1b, R3, R4, R7, R8, the expert and TP-in-a-node conditions, and admits at least one
 * micro-batch size under R2. CP is capped at MIN_TOKENS_PER_CP_RANK tokens per rank. EP varies fastest (the planner shares
 * memory facts between layouts that differ only in EP).
 */
export function layouts(m: ModelShape, seq: number, gbs: number, world: number, opts: SpaceOptions = {}): Layout[] {
  const node = opts.gpusPerNode ?? DEFAULT_GPUS_PER_NODE;
  const out: Layout[] = [];
  const worldDivisors = divisorsOf(world);
  for (const tp of worldDivisors) {
    if (tp > node || !headsDivisible(m.heads, tp) || !groupsCompatible(m.kvHeads, tp)) continue;
    for (const pp of worldDivisors) {
      if (!layersDivisible(m.layers, pp) || world % (tp * pp) !== 0) continue;
      for (const cp of divisorsOf(world / (tp * pp))) {
        if (!worldDivisible(world, tp, pp, cp) || !seqDivisible(seq, cp) || (cp > 1 && seq / cp < MIN_TOKENS_PER_CP_RANK)) continue;
        const dp = world / (tp * pp * cp);
        if (!MICRO_BATCHES.some((b) => batchDivisible(gbs, b, dp))) continue;
        const eps = m.experts > 0 ? divisorsOf(m.experts).filter((ep) => expertsDivisible(m.experts, ep)) : [1];
        for (const ep of eps) if (expertWorldDivisible(world, tp, ep, pp)) out.push({ tp, pp, cp, ep, dp }); // ETP = TP (megatron-core default)
      }
    }
  }
  return out;
}

/** Virtual pipeline sizes for a layout: none, and every divisor > 1 of L/PP where R5b allows interleaving. */
export function vppChoices(m: ModelShape, pp: number, opts: SpaceOptions = {}): (number | null)[] {
  const out: (number | null)[] = [null];
  if (!vppPpOk(pp, opts.overlapP2p ?? false)) return out;
  for (const v of divisorsOf(m.layers / pp)) if (v > 1 && vppDivisible(m.layers, pp, v)) out.push(v);
  return out;
}

/** Micro-batch sizes that keep R2 and fit in GBS/DP. */
export const microBatchChoices = (gbs: number, dp: number): number[] =>
  MICRO_BATCHES.filter((b) => b <= gbs / dp && batchDivisible(gbs, b, dp));

export type RecomputeChoice = 'none' | 'selective' | 'full';

/** A memory lever setting: recompute (full = uniform, 1 layer per checkpoint) or CPU offload of n layers. */
export interface MemoryVariant {
  recompute: RecomputeChoice;
  offloadLayers: number;
}

/** none, selective, full, and (PP 1 only, R11) offload of L/4 and L/2 layers. */
export function memoryVariants(m: ModelShape, pp: number): MemoryVariant[] {
  const out: MemoryVariant[] = [
    { recompute: 'none', offloadLayers: 0 },
    { recompute: 'selective', offloadLayers: 0 },
    { recompute: 'full', offloadLayers: 0 },
  ];
  if (pp === 1)
    for (const n of new Set([Math.floor(m.layers / 4), Math.floor(m.layers / 2)]))
      if (n > 0 && n < m.layers) out.push({ recompute: 'none', offloadLayers: n });
  return out;
}

/**
 * Memory order the model guarantees between variants of one layout, micro-batch and precision: full recompute keeps one
 * input per layer, offloading more layers keeps fewer, selective keeps no more than none, and with flash attention
 * (Megatron profile) exactly as much: flash never stores the scores selective recompute would drop (activations.ts).
 * True when `a` needs at least as much memory as `b`.
 */
export function needsAtLeast(a: MemoryVariant, b: MemoryVariant, flash = false): boolean {
  const plain = (v: MemoryVariant) => v.recompute === 'none' && v.offloadLayers === 0;
  if (b.recompute === 'full') return true;
  if (b.recompute === 'selective') return a.recompute === 'selective' || plain(a);
  if (a.recompute === 'selective') return flash && plain(b);
  return a.recompute === 'none' && a.offloadLayers <= b.offloadLayers;
}

/** The configuration a point of the space describes, on top of the file's other settings. */
export function withRecompute(c: TrainingConfig, v: MemoryVariant): TrainingConfig {
  const recompute: TrainingConfig['recompute'] =
    v.recompute === 'full'
      ? { granularity: 'full', method: 'uniform', numLayers: 1, modules: [] }
      : v.recompute === 'selective'
        ? { granularity: 'selective', method: null, numLayers: null, modules: ['core_attn'] }
        : { granularity: null, method: null, numLayers: null, modules: [] };
  return { ...c, recompute, offloadLayers: v.offloadLayers };
}
