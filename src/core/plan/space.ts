// The planner's search space: the launch-time rules of formats.md §5 as pure predicates over a TrainingConfig and a
// ModelShape (the same conditions core/rules/training.ts reports on a document), and the enumeration of layouts.
import { derived, type TrainingConfig } from '../memory/config.js';
import type { PrecisionId } from '../memory/precision.js';
import type { ModelShape } from '../memory/types.js';
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

const divides = (d: number, n: number) => d >= 1 && n % d === 0;

// R1: world % (TP·PP·CP) == 0 — NeMo megatron_init.py, Megatron-LM arguments.py, Bridge config.py.
export const r1WorldDivisible = (world: number, tp: number, pp: number, cp: number) => divides(tp * pp * cp, world);
// R1b: with EP, world % (ETP·EP·PP) == 0 — NeMo megatron_init.py.
export const r1bExpertWorld = (world: number, etp: number, ep: number, pp: number) => ep === 1 || divides(etp * ep * pp, world);
// R2: GBS % (MBS·DP) == 0 — megatron/core/num_microbatches_calculator.py.
export const r2BatchDivisible = (gbs: number, mbs: number, dp: number) => divides(mbs * dp, gbs);
// R3: S % (2·CP) == 0 when CP > 1 — Megatron-LM arguments.py, Bridge config.py.
export const r3SeqDivisible = (seq: number, cp: number) => cp === 1 || seq % (2 * cp) === 0;
// R4: L % PP == 0 (even stages) — Megatron-LM arguments.py.
export const r4LayersDivisible = (layers: number, pp: number) => divides(pp, layers);
// R5: (L/PP) % VPP == 0 — NeMo megatron_base_model.py, Megatron-LM arguments.py.
export const r5VppDivisible = (layers: number, pp: number, vpp: number | null) => !vpp || vpp === 1 || Math.floor(layers / pp) % vpp === 0;
// R5b: VPP needs PP > 2, or PP > 1 with overlap_p2p_comm — Megatron-LM arguments.py.
export const r5bVppNeedsPp = (pp: number, vpp: number | null, overlapP2p: boolean) => !vpp || vpp === 1 || pp > (overlapP2p ? 1 : 2);
// R6: sequence_parallel needs TP > 1 — megatron-core model_parallel_config.py.
export const r6SpNeedsTp = (sp: boolean, tp: number) => !sp || tp > 1;
// R7: heads % TP == 0 — megatron-core transformer_config.py.
export const r7HeadsDivisible = (m: ModelShape, tp: number) => m.heads % tp === 0;
// R8: query groups a multiple or a divisor of TP — megatron-core transformer_config.py.
export const r8GroupsCompatible = (m: ModelShape, tp: number) => m.kvHeads % tp === 0 || tp % m.kvHeads === 0;
// R10: full recompute needs a method and 1 ≤ layers ≤ L/PP; selective takes neither — megatron-core transformer_config.py.
export const r10Recompute = (m: ModelShape, c: TrainingConfig) => {
  const r = c.recompute;
  if (r.granularity === 'full')
    return r.method !== null && r.numLayers !== null && r.numLayers >= 1 && r.numLayers <= Math.floor(m.layers / c.pp);
  if (r.granularity === 'selective') return r.numLayers === null;
  return true;
};
// R11: CPU offloading: 0 ≤ n < L, PP == 1, no recompute — megatron-core transformer_config.py.
export const r11Offload = (m: ModelShape, c: TrainingConfig) =>
  c.offloadLayers === 0 || (c.offloadLayers > 0 && c.offloadLayers < m.layers && c.pp === 1 && !c.recompute.granularity);
// R21: EP > 1 with TP > 1 needs sequence parallelism — megatron-core model_parallel_config.py.
export const r21EpTpNeedsSp = (ep: number, tp: number, sp: boolean) => ep === 1 || tp === 1 || sp;
// MoE: experts % EP == 0 — megatron-core transformer_config.py ("num_moe_experts must be divisible by expert_model_parallel_size").
export const expertsDivisible = (m: ModelShape, ep: number) => ep === 1 || (m.experts > 0 && m.experts % ep === 0);
// Interleaved 1F1B: micro-batches % PP == 0 — megatron-core pipeline_parallel/schedules.py ("…when using interleaved schedule").
export const interleavedMicrobatches = (pp: number, vpp: number | null, microbatches: number) =>
  !vpp || vpp === 1 || microbatches % pp === 0;
// Hardware: FP8 needs compute capability ≥ 8.9, MXFP8 and NVFP4 need Blackwell — TransformerEngine docs.
export const precisionSupported = (p: PrecisionId, hw: Hardware) =>
  p === 'nvfp4' || p === 'mxfp4' || p === 'fp8-mxfp8' ? hw.fp4 : p.startsWith('fp8-') ? hw.fp8 : true;

/** Every rule `c` breaks on `world` GPUs (empty: the launch-time checks pass). Needs `c.globalBatch`. */
export function violations(m: ModelShape, c: TrainingConfig, world: number, opts: SpaceOptions = {}): Violation[] {
  const out: Violation[] = [];
  const add = (ok: boolean, rule: string, message: string) => {
    if (!ok) out.push({ rule, message });
  };
  const node = opts.gpusPerNode ?? DEFAULT_GPUS_PER_NODE;
  add(r1WorldDivisible(world, c.tp, c.pp, c.cp), 'R1', `world ${world} % (TP·PP·CP = ${c.tp * c.pp * c.cp}) ≠ 0`);
  add(r1bExpertWorld(world, c.etp, c.ep, c.pp), 'R1b', `world ${world} % (ETP·EP·PP = ${c.etp * c.ep * c.pp}) ≠ 0`);
  const { dp, microbatches } = derived({ ...c, worldSize: world });
  if (dp !== undefined && c.globalBatch !== undefined)
    add(r2BatchDivisible(c.globalBatch, c.microBatch, dp), 'R2', `GBS ${c.globalBatch} % (MBS·DP = ${c.microBatch * dp}) ≠ 0`);
  add(r3SeqDivisible(c.seq, c.cp), 'R3', `seq ${c.seq} % (2·CP = ${2 * c.cp}) ≠ 0`);
  add(r4LayersDivisible(m.layers, c.pp), 'R4', `layers ${m.layers} % PP ${c.pp} ≠ 0`);
  add(r5VppDivisible(m.layers, c.pp, c.vpp), 'R5', `layers per stage ${Math.floor(m.layers / c.pp)} % VPP ${c.vpp} ≠ 0`);
  add(r5bVppNeedsPp(c.pp, c.vpp, opts.overlapP2p ?? false), 'R5b', `VPP ${c.vpp} needs PP > ${opts.overlapP2p ? 1 : 2}`);
  add(r6SpNeedsTp(c.sp, c.tp), 'R6', 'sequence parallelism needs TP > 1');
  add(r7HeadsDivisible(m, c.tp), 'R7', `heads ${m.heads} % TP ${c.tp} ≠ 0`);
  add(r8GroupsCompatible(m, c.tp), 'R8', `query groups ${m.kvHeads} neither a multiple nor a divisor of TP ${c.tp}`);
  add(r10Recompute(m, c), 'R10', 'recompute granularity, method and layer count disagree');
  add(r11Offload(m, c), 'R11', `CPU offload of ${c.offloadLayers} layers needs 0 ≤ n < ${m.layers}, PP 1 and no recompute`);
  add(r21EpTpNeedsSp(c.ep, c.tp, c.sp), 'R21', 'EP > 1 with TP > 1 needs sequence parallelism');
  add(expertsDivisible(m, c.ep), 'EP', `experts ${m.experts} % EP ${c.ep} ≠ 0`);
  add(c.tp <= node, 'TP-node', `TP ${c.tp} spans more than one ${node}-GPU node`);
  if (microbatches !== undefined)
    add(interleavedMicrobatches(c.pp, c.vpp, microbatches), 'VPP-m', `interleaving needs micro-batches ${microbatches} % PP ${c.pp} = 0`);
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
    if (tp > node || !r7HeadsDivisible(m, tp) || !r8GroupsCompatible(m, tp)) continue;
    for (const pp of worldDivisors) {
      if (!r4LayersDivisible(m.layers, pp) || world % (tp * pp) !== 0) continue;
      for (const cp of divisorsOf(world / (tp * pp))) {
        if (!r3SeqDivisible(seq, cp) || (cp > 1 && seq / cp < MIN_TOKENS_PER_CP_RANK)) continue;
        const dp = world / (tp * pp * cp);
        if (!MICRO_BATCHES.some((b) => r2BatchDivisible(gbs, b, dp))) continue;
        const eps = m.experts > 0 ? divisorsOf(m.experts) : [1];
        for (const ep of eps) if (r1bExpertWorld(world, tp, ep, pp)) out.push({ tp, pp, cp, ep, dp }); // ETP = TP (megatron-core default)
      }
    }
  }
  return out;
}

/** Virtual pipeline sizes for a layout: none, and every divisor > 1 of L/PP where R5b allows interleaving. */
export function vppChoices(m: ModelShape, pp: number, opts: SpaceOptions = {}): (number | null)[] {
  const out: (number | null)[] = [null];
  if (!r5bVppNeedsPp(pp, 2, opts.overlapP2p ?? false)) return out;
  for (const v of divisorsOf(m.layers / pp)) if (v > 1 && r5VppDivisible(m.layers, pp, v)) out.push(v);
  return out;
}

/** Micro-batch sizes that keep R2 and fit in GBS/DP. */
export const microBatchChoices = (gbs: number, dp: number): number[] =>
  MICRO_BATCHES.filter((b) => b <= gbs / dp && r2BatchDivisible(gbs, b, dp));

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
