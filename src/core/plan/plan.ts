// The planner: every layout of the search space (space.ts) whose most-loaded rank fits the GPU with a 10% margin
// (memory model, training.ts), ranked by the cost model (cost.ts). Answers "which TP / PP / VPP / CP / EP / micro-batch /
// recompute / offload / precision for N GPUs of this kind" from the memory model, without launching trial jobs.
//
// A layout is (TP, PP, CP, EP, DP); a group is a layout with a VPP and a micro-batch size; a point is a group with a
// recompute / offload lever and a precision. Each group contributes its cheapest point that fits. Pruning, with every
// point of the space counted once (searched or dominated):
// - weights + gradients + optimizer of a (TP, PP, EP, DP×CP) and precision are computed once; if they alone, with the
//   fixed runtime overheads, exceed 90% of the GPU, no point of that layout and precision is estimated;
// - a point whose memory the model orders at or above one that missed is a miss, at or below one that fit a fit
//   (micro-batch, interleaving, lever, and EP ≥ 2 within layouts that differ only in EP), without an estimate;
// - the column every group tries first (no recompute, preferred precision) is settled by probing its largest and
//   smallest points and binary-searching each micro-batch size; the first miss of a precision checks its floor
//   (full recompute, micro-batch 1, no interleaving);
// - within a group, points are tried cheapest first; once one fits, the costlier (or equally costly, less preferred)
//   ones are dominated and skipped;
// - only the returned candidates get an estimate they did not already have (which also confirms an inferred fit).
import { MAX_RANKS } from '../layout.js';
import { derived, type TrainingConfig } from '../memory/config.js';
import { deviceBytes } from '../memory/overheads.js';
import type { PrecisionId } from '../memory/precision.js';
import { megatronLayer } from '../memory/activations.js';
import { estimateTraining, gradientsAtPeak, TIGHT_FRACTION, type TrainingEstimate } from '../memory/training.js';
import type { GpuSpec, ModelShape } from '../memory/types.js';
import { shardGroups, stageParams, stateBytes, type StageParams } from '../memory/weights.js';
import { precisionIdOf, withPrecision } from '../memory/precision.js';
import { planCost, tokenFlops, type CostBreakdown, type CostInput, type TokenFlops } from './cost.js';
import { hardwareFor, type Hardware } from './hardware.js';
import {
  violations,
  type ViolationOptions,
  interleavedMicrobatches,
  layouts,
  memoryVariants,
  microBatchChoices,
  needsAtLeast,
  precisionSupported,
  vppChoices,
  withRecompute,
  type Layout,
  type MemoryVariant,
  type RecomputeChoice,
} from './space.js';

export interface PlanOptions extends ViolationOptions {
  /** World size to plan for. */
  gpus: number;
  /** Precisions tried besides the file's (where the GPU has the tensor cores); default bf16, fp8-delayed, nvfp4. */
  precisions?: PrecisionId[];
  /** Candidates returned (each with its estimate); 0 = every fitting one. Default 10. */
  top?: number;
}

export interface Candidate {
  tp: number;
  pp: number;
  vpp: number | null;
  cp: number;
  ep: number;
  dp: number;
  sp: boolean;
  microBatchSize: number;
  /** Micro-batches per step and pipeline: GBS / (MBS·DP). */
  microbatches: number;
  recompute: RecomputeChoice;
  offloadLayers: number;
  precision: PrecisionId;
  perGpu: TrainingEstimate['perGpu'];
  /** perGpu.total / GPU bytes. */
  fraction: number;
  fits: boolean;
  cost: CostBreakdown;
}

export interface PlanResult {
  gpus: number;
  gpu: { id: string; name: string; bytes: number };
  model: string;
  seq: number;
  globalBatch: number;
  /** The best `top` fitting candidates (all with `top: 0`), lowest cost first. */
  candidates: Candidate[];
  /** Points of the space whose fit was decided: by a memory estimate, or by a bound that proves it does not fit. */
  searched: number;
  /** Of those, the ones that fit: by an estimate, or by the memory order below a point that fits. */
  valid: number;
  /** Memory estimates run (estimateTraining calls), the returned candidates' included. */
  estimated: number;
  /** Points skipped because a cheaper variant of the same layout, VPP and micro-batch fits. */
  dominated: number;
  /** Points of the space (rule-valid combinations): searched + dominated. */
  space: number;
  hardware: Hardware;
  notes: string[];
}

/** Precision variants: the file's own first, then bf16, FP8 (delayed scaling, Megatron's default recipe), NVFP4. */
export function precisionChoices(
  base: TrainingConfig,
  hw: Hardware,
  extra: PrecisionId[] = ['bf16', 'fp8-delayed', 'nvfp4'],
): PrecisionId[] {
  const own = precisionIdOf(base);
  return [own, ...extra.filter((p) => p !== own && precisionSupported(p, hw))];
}

/** The file's configuration with a candidate's layout and levers applied (ETP follows TP, SP = TP > 1). */
export function candidateConfig(
  base: TrainingConfig,
  c: Pick<Candidate, 'tp' | 'pp' | 'vpp' | 'cp' | 'ep' | 'microBatchSize' | 'recompute' | 'offloadLayers' | 'precision'>,
  gpus: number,
): TrainingConfig {
  const layout: TrainingConfig = {
    ...base,
    tp: c.tp,
    pp: c.pp,
    vpp: c.vpp,
    cp: c.cp,
    ep: c.ep,
    etp: c.tp,
    sp: c.tp > 1,
    worldSize: gpus,
    microBatch: c.microBatchSize,
  };
  return withPrecision(withRecompute(layout, { recompute: c.recompute, offloadLayers: c.offloadLayers }), c.precision);
}

/** Weights, gradients and optimizer of the most-loaded stage plus the fixed runtime overheads: a floor under the estimate's total. */
function stateFloor(c: TrainingConfig, params: StageParams[], dp: number): number {
  const groups = shardGroups(dp, c.cp, c.tp, c.ep, c.etp);
  let worst = 0;
  for (const p of params) {
    const s = stateBytes(p, c, groups.dense, groups.experts);
    worst = Math.max(worst, s.weights + s.gradients + s.optimizer);
  }
  return deviceBytes(worst, c); // the device level of the state alone (memory/overheads.ts)
}

/** The stage whose parameters (and so gradient traffic) are largest. */
const heaviestStage = (params: StageParams[]) => params.reduce((a, b) => (b.dense + b.experts > a.dense + a.experts ? b : a));

/** A point of one layout: micro-batch, interleaving, memory lever and precision (EP kept for the memory order across EP). */
interface Decided {
  ep: number;
  mbs: number;
  vpp: number | null;
  variant: MemoryVariant;
  precision: PrecisionId;
}

/** Groups are probed from no interleaving to ever coarser VPP (memory/schedule.ts: rank 0 holds less as VPP grows). */
const vppKey = (vpp: number | null) => vpp ?? Infinity;

/**
 * Interleaving orders memory only against no interleaving: every rank keeps at least as many layer-passes in flight
 * (memory/schedule.ts, Megatron schedules.py: (PP + (PP − 2r − 1)/VPP)·L/PP against (PP − r)·L/PP). Between two VPPs the
 * first ranks hold less with the finer one and the last ranks more, so neither VPP needs at least the other.
 */
const vppAtLeast = (a: number | null, b: number | null) => a === b || b === null;

/**
 * `a` needs at least the memory of `b` (same TP, PP, CP, DP): same precision, no smaller micro-batch, the same
 * interleaving or `b` none, a lever that keeps more, and the same EP or, both ≥ 2, no larger one (routed experts and their optimizer
 * state shrink with EP; activations do not depend on it; EP 1 → 2 trades expert bytes for NCCL's all-to-all buffers).
 */
const atLeast = (a: Decided, b: Decided, flash: boolean, freedMbs: number | undefined) =>
  (a.ep === b.ep || (a.ep >= 2 && a.ep <= b.ep)) &&
  a.mbs >= b.mbs &&
  // One micro-batch per step whose gradients the loop freed (training.ts gradientsAtPeak) runs its forward and
  // backward without the gradients that every smaller micro-batch's step holds: no order between the two.
  (a.mbs !== freedMbs || b.mbs === freedMbs) &&
  vppAtLeast(a.vpp, b.vpp) &&
  needsAtLeast(a.variant, b.variant, flash);

/** What the estimates so far prove about other points: the largest points that fit and the smallest that do not, per precision. */
class MemoryFacts {
  private readonly fits = new Map<PrecisionId, Decided[]>();
  private readonly misses = new Map<PrecisionId, Decided[]>();
  /** `freedMbs`: the micro-batch size at which a step has one micro-batch and the forward/backward holds no gradients. */
  constructor(
    private readonly flash: boolean,
    private readonly freedMbs?: number,
  ) {}

  /** true: some point needing at least as much fits; false: some point needing no more does not; undefined: unknown. */
  known(d: Decided): boolean | undefined {
    if (this.misses.get(d.precision)?.some((f) => atLeast(d, f, this.flash, this.freedMbs))) return false;
    if (this.fits.get(d.precision)?.some((f) => atLeast(f, d, this.flash, this.freedMbs))) return true;
    return undefined;
  }

  add(d: Decided, fits: boolean): void {
    const map = fits ? this.fits : this.misses;
    // Keep an antichain: drop the facts the new one implies.
    const implied = (f: Decided) => (fits ? atLeast(d, f, this.flash, this.freedMbs) : atLeast(f, d, this.flash, this.freedMbs));
    map.set(d.precision, [...(map.get(d.precision) ?? []).filter((f) => !implied(f)), d]);
  }
}

interface Group {
  vpp: number | null;
  mbs: number;
  microbatches: number;
}

interface Point {
  variant: MemoryVariant;
  variantRank: number;
  precision: PrecisionId;
  precisionRank: number;
  cost: CostBreakdown;
}

interface Found {
  candidate: Omit<Candidate, 'perGpu' | 'fraction' | 'fits'>;
  config: () => TrainingConfig;
  precisionRank: number;
  variantRank: number;
  estimate?: TrainingEstimate;
}

export function plan(m: ModelShape, base: TrainingConfig, gpu: GpuSpec, opts: PlanOptions): PlanResult {
  const gbs = base.globalBatch;
  if (!gbs) throw new Error("the global batch size is unknown; the planner keeps the file's global batch");
  const world = opts.gpus;
  if (!Number.isSafeInteger(world) || world < 1 || world > MAX_RANKS)
    throw new Error(`the GPU count must be an integer from 1 to ${MAX_RANKS}`);
  const { hw, assumed } = hardwareFor(gpu);
  const notes: string[] = [];
  if (assumed) notes.push(hw.source);
  const flops = tokenFlops(m, base.seq);
  const precisions = precisionChoices(base, hw, opts.precisions);
  const capacity = TIGHT_FRACTION * gpu.bytes;
  // Selective (core_attn) recompute under flash attention still drops the softmax statistics (memory/activations.ts), so it
  // needs slightly less than no recompute: the order is taken without the flash shortcut.
  const flash = false;
  const found: Found[] = [];
  let searched = 0;
  let estimated = 0;
  let dominated = 0;
  const run = (c: TrainingConfig) => {
    estimated++;
    return estimateTraining(m, c, gpu);
  };

  let family = '';
  let facts = new MemoryFacts(flash, undefined);
  for (const lay of layouts(m, base.seq, gbs, world, opts)) {
    const configOf = (d: Omit<Decided, 'ep'>) =>
      candidateConfig(base, { ...lay, vpp: d.vpp, microBatchSize: d.mbs, precision: d.precision, ...d.variant }, world);
    const layoutBase = configOf({ mbs: 1, vpp: null, variant: { recompute: 'none', offloadLayers: 0 }, precision: precisionIdOf(base) });
    const params = stageParams(m, layoutBase);
    const stage = heaviestStage(params);
    // Smallest memory first (micro-batch up; no interleaving, then fine to coarse VPP), so a miss rules out the groups after it.
    const groups: Group[] = vppChoices(m, lay.pp, opts)
      .flatMap((vpp) => microBatchChoices(gbs, lay.dp).map((mbs) => ({ vpp, mbs, microbatches: gbs / (mbs * lay.dp) })))
      .filter((g) => interleavedMicrobatches(lay.pp, g.vpp, g.microbatches))
      .sort((a, b) => a.mbs - b.mbs || vppKey(b.vpp) - vppKey(a.vpp));
    const variants = memoryVariants(m, lay.pp);
    // Weights + gradients + optimizer once per (TP, PP, EP, DP×CP) and precision: if they alone exceed the margin, nothing fits.
    const live = precisions.filter((p) => stateFloor(withPrecision(layoutBase, p), params, lay.dp) <= capacity);
    searched += (precisions.length - live.length) * variants.length * groups.length;
    if (!live.length) continue;

    // Facts are shared by the layouts that differ only in EP (layouts() varies EP fastest).
    const key = `${lay.tp}/${lay.pp}/${lay.cp}/${lay.dp}`;
    if (key !== family) {
      family = key;
      facts = new MemoryFacts(flash, gradientsAtPeak(base, 1) === 'freed' ? gbs / lay.dp : undefined);
    }
    const estimates = new Map<string, TrainingEstimate>();
    const keyOf = (d: Decided) => `${d.precision}|${d.variant.recompute}|${d.variant.offloadLayers}|${d.mbs}|${d.vpp}`;
    const floorChecked = new Set<PrecisionId>();
    /** Fit of a point: from the facts where they decide it, else from an estimate. */
    const settle = (d: Decided): boolean => {
      const known = facts.known(d);
      if (known !== undefined) return known;
      const e = run(configOf(d));
      const fits = e.fit.verdict === 'fits';
      facts.add(d, fits);
      if (fits) estimates.set(keyOf(d), e);
      else if (!floorChecked.has(d.precision)) {
        // First miss of this precision here: its floor (full recompute, micro-batch 1, no interleaving) settles the rest.
        floorChecked.add(d.precision);
        settle({ ...d, mbs: 1, vpp: null, variant: { recompute: 'full', offloadLayers: 0 } });
      }
      return fits;
    };
    // Every group tries no recompute in the preferred precision first. Its memory grows with the micro-batch and from no
    // interleaving to ever coarser VPP, so settle that column up front: its largest point (if it fits, all do), its
    // smallest (if it misses, all do), then per micro-batch size the largest and a binary search for where it stops fitting.
    const at = (g: Group) =>
      settle({ ep: lay.ep, mbs: g.mbs, vpp: g.vpp, variant: { recompute: 'none', offloadLayers: 0 }, precision: live[0]! });
    const rows = [...new Set(groups.map((g) => g.mbs))].map((mbs) => groups.filter((g) => g.mbs === mbs));
    const largest = rows[rows.length - 1]!;
    if (!at(largest[largest.length - 1]!) && at(rows[0]![0]!))
      for (const row of rows) {
        if (at(row[row.length - 1]!)) continue;
        let lo = 0;
        let hi = row.length - 2;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if (at(row[mid]!)) lo = mid + 1;
          else hi = mid - 1;
        }
      }

    for (const g of groups) {
      const points: Point[] = [];
      for (const [variantRank, variant] of variants.entries()) {
        let cost: CostBreakdown | undefined;
        for (const [precisionRank, precision] of precisions.entries()) {
          if (!live.includes(precision)) continue;
          if (!cost || variant.offloadLayers > 0) cost = pointCost(m, flops, base, lay, g, variant, precision, stage, hw, world, gbs);
          points.push({ variant, variantRank, precision, precisionRank, cost });
        }
      }
      points.sort((a, b) => a.cost.total - b.cost.total || a.precisionRank - b.precisionRank || a.variantRank - b.variantRank);
      let done = false;
      for (const pt of points) {
        if (done) {
          dominated++;
          continue;
        }
        searched++;
        const here: Decided = { ep: lay.ep, mbs: g.mbs, vpp: g.vpp, variant: pt.variant, precision: pt.precision };
        if (!settle(here)) continue;
        done = true;
        found.push({
          candidate: toCandidate(lay, g, pt),
          config: () => configOf(here),
          precisionRank: pt.precisionRank,
          variantRank: pt.variantRank,
          estimate: estimates.get(keyOf(here)),
        });
      }
    }
  }
  found.sort(
    (a, b) =>
      a.candidate.cost.total - b.candidate.cost.total ||
      a.precisionRank - b.precisionRank ||
      a.variantRank - b.variantRank ||
      layoutOrder(a.candidate, b.candidate),
  );
  // The estimate of every candidate returned; a fit inferred from the memory order is confirmed here (and dropped if wrong).
  const top = opts.top === undefined ? 10 : opts.top;
  const candidates: Candidate[] = [];
  let valid = found.length;
  for (const f of found) {
    if (top > 0 && candidates.length >= top) break;
    // The checker's rules on the candidate with the file's other settings: a layout the file's own keys rule out
    // (its hierarchical CP sizes, a pipeline_dtype null, …) is not offered.
    const broken = violations(m, f.config(), world, opts);
    if (broken.length) {
      valid--;
      notes.push(
        `TP ${f.candidate.tp} PP ${f.candidate.pp} CP ${f.candidate.cp}: left out, the file's other settings break ${broken.map((b) => b.rule).join(', ')}`,
      );
      continue;
    }
    const e = f.estimate ?? run(f.config());
    if (e.fit.verdict !== 'fits') {
      valid--;
      notes.push(`TP ${f.candidate.tp} PP ${f.candidate.pp} CP ${f.candidate.cp}: a fit inferred from the memory order did not hold`);
      continue;
    }
    candidates.push({ ...f.candidate, perGpu: e.perGpu, fraction: e.fit.fraction, fits: true });
  }
  return {
    gpus: world,
    gpu: { id: gpu.id, name: gpu.name, bytes: gpu.bytes },
    model: m.name,
    seq: base.seq,
    globalBatch: gbs,
    candidates,
    searched,
    valid,
    estimated,
    dominated,
    space: searched + dominated,
    hardware: hw,
    notes,
  };
}

type LayoutKeys = Pick<Candidate, 'tp' | 'pp' | 'vpp' | 'cp' | 'ep' | 'microBatchSize' | 'offloadLayers'>;
const layoutOrder = (a: LayoutKeys, b: LayoutKeys) =>
  a.tp - b.tp ||
  a.pp - b.pp ||
  (a.vpp ?? 1) - (b.vpp ?? 1) ||
  a.cp - b.cp ||
  a.ep - b.ep ||
  a.microBatchSize - b.microBatchSize ||
  a.offloadLayers - b.offloadLayers;

function toCandidate(lay: Layout, g: Group, pt: Point): Found['candidate'] {
  return {
    tp: lay.tp,
    pp: lay.pp,
    vpp: g.vpp,
    cp: lay.cp,
    ep: lay.ep,
    dp: lay.dp,
    sp: lay.tp > 1,
    microBatchSize: g.mbs,
    microbatches: g.microbatches,
    recompute: pt.variant.recompute,
    offloadLayers: pt.variant.offloadLayers,
    precision: pt.precision,
    cost: pt.cost,
  };
}

/** The cost-model input of one point; `c` supplies the settings a layout keeps from the file (optimizer, gradient dtype). */
function costInput(
  m: ModelShape,
  flops: TokenFlops,
  c: TrainingConfig,
  s: Layout & Omit<Group, 'mbs'> & { mbs: number; etp: number; sp: boolean; variant: MemoryVariant },
  stage: StageParams,
  layerActivationBytes: number,
  hw: Hardware,
  gpus: number,
  gbs: number,
): CostInput {
  return {
    shape: m,
    flops,
    seq: c.seq,
    globalBatch: gbs,
    gpus,
    tp: s.tp,
    pp: s.pp,
    vpp: s.vpp,
    cp: s.cp,
    ep: s.ep,
    etp: s.etp,
    dp: s.dp,
    sp: s.sp,
    microBatch: s.mbs,
    microbatches: s.microbatches,
    recompute: s.variant.recompute,
    offloadLayers: s.variant.offloadLayers,
    stage: { layers: stage.layers, moeLayers: stage.moeLayers, dense: stage.dense, experts: stage.experts },
    layerActivationBytes,
    distributedOptimizer: c.distributedOptimizer,
    gradBytes: c.params === 'fp32' || c.gradReduceInFp32 ? 4 : 2,
    paramBytes: c.params === 'fp32' ? 4 : 2,
    hw,
  };
}

/** Bytes one layer of the stage saves per micro-batch (memory model), averaged over its dense and MoE layers: what offloading moves. */
function layerBytes(m: ModelShape, c: TrainingConfig, stage: StageParams): number {
  const layer = megatronLayer(m, c, c.microBatch, c.seq / c.cp);
  return (layer.dense * (stage.layers - stage.moeLayers) + layer.moe * stage.moeLayers) / stage.layers;
}

/** Cost of a point of one layout; precision only enters through the bytes an offloaded layer moves. */
function pointCost(
  m: ModelShape,
  flops: TokenFlops,
  base: TrainingConfig,
  lay: Layout,
  g: Group,
  variant: MemoryVariant,
  precision: PrecisionId,
  stage: StageParams,
  hw: Hardware,
  gpus: number,
  gbs: number,
): CostBreakdown {
  let bytes = 0;
  if (variant.offloadLayers > 0)
    bytes = layerBytes(
      m,
      candidateConfig(base, { ...lay, vpp: g.vpp, microBatchSize: g.mbs, precision, recompute: 'none', offloadLayers: 0 }, gpus),
      stage,
    );
  const s = {
    tp: lay.tp,
    pp: lay.pp,
    cp: lay.cp,
    ep: lay.ep,
    dp: lay.dp,
    etp: lay.tp,
    sp: lay.tp > 1,
    vpp: g.vpp,
    mbs: g.mbs,
    microbatches: g.microbatches,
    variant,
  };
  return planCost(costInput(m, flops, base, s, stage, bytes, hw, gpus, gbs));
}

/** The cost of any configuration (the file's own, say) on the same scale as the planner's candidates. */
export function configCost(m: ModelShape, c: TrainingConfig, gpu: GpuSpec, gpus: number): CostBreakdown {
  const { hw } = hardwareFor(gpu);
  const dp = derived({ ...c, worldSize: gpus }).dp ?? 1;
  const gbs = c.globalBatch ?? c.microBatch * dp;
  const stage = heaviestStage(stageParams(m, c));
  const variant: MemoryVariant = {
    recompute: c.recompute.granularity ?? 'none',
    offloadLayers: c.pp === 1 && !c.recompute.granularity ? c.offloadLayers : 0,
  };
  const s = {
    tp: c.tp,
    pp: c.pp,
    cp: c.cp,
    ep: c.ep,
    dp,
    etp: c.etp,
    sp: c.sp,
    vpp: c.vpp,
    mbs: c.microBatch,
    microbatches: gbs / (c.microBatch * dp),
    variant,
  };
  return planCost(costInput(m, tokenFlops(m, c.seq), c, s, stage, variant.offloadLayers ? layerBytes(m, c, stage) : 0, hw, gpus, gbs));
}
