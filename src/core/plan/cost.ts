// The planner's cost model. Every term is the time a layout adds to a training step, as a fraction of T0, the step's
// compute time per GPU (all FLOPs of the step spread evenly over the GPUs at MFU × the dense BF16 peak). T0 is the
// same for every candidate of one search (same model, sequence, global batch and GPU count), so fractions compare
// across candidates, and 1 + total is the modelled step time in units of T0. No term is a throughput: each is a ratio of
// bytes ÷ bandwidth or FLOPs ÷ FLOPs, with the constants of hardware.ts.
// Not modelled: GEMM efficiency (micro-batch size, TP shards), FP8/NVFP4 GEMM speed-ups (precision is a memory lever
// here), kernel launch overheads, straggling, and the MoE load imbalance.
import { kvExchangePerCpStep } from '../layout.js';
import { shardGroups } from '../memory/weights.js';
import type { TrainingConfig } from '../memory/config.js';
import type { ModelShape } from '../memory/types.js';
import type { Hardware } from './hardware.js';
import type { RecomputeChoice } from './space.js';

/** Forward FLOPs per token of the whole model, by part. */
export interface TokenFlops {
  /** Transformer layers (projections, attention scores, MLP / experts), summed over all layers. */
  layers: number;
  /** Of `layers`: the attention score and context products (what selective recompute of core_attn repeats). */
  core: number;
  /** Output layer (logits). */
  logits: number;
  total: number;
}

/**
 * Forward FLOPs per token: 2 FLOPs per multiply-add of each GEMM (Narayanan et al. 2021, eq. 3, extended for GQA, gated
 * MLPs and MoE as Megatron-LM training.py num_floating_point_operations does); causal attention visits s/2 keys per query.
 */
export function tokenFlops(m: ModelShape, seq: number): TokenFlops {
  const h = m.hidden;
  const mats = m.gatedMlp ? 3 : 2;
  const proj = 2 * h * (m.heads * m.headDim + 2 * m.kvHeads * m.headDim) + 2 * m.heads * m.headDim * h; // QKV + output projection
  const keys = (window?: number) => Math.min(seq / 2, window ?? Infinity); // causal: s/2 keys per query on average
  const coreAt = (window?: number) => 2 * 2 * m.heads * m.headDim * keys(window); // QKᵀ and A·V
  const sw = m.slidingWindow;
  const windowed = sw ? (sw.everyOther ? Math.floor(m.layers / 2) : m.layers) : 0;
  const core = (m.layers - windowed) * coreAt() + windowed * coreAt(sw?.window);
  const moeLayers = m.experts > 0 ? m.layers - m.denseLayersBeforeMoe : 0;
  const dense = 2 * h * m.ffn * mats;
  const moe = 2 * h * m.experts + m.topK * 2 * h * m.moeFfn * mats + 2 * h * m.sharedExpertFfn * mats; // router + top-k experts + shared
  const layers = m.layers * proj + core + (m.layers - moeLayers) * dense + moeLayers * moe;
  const logits = 2 * h * m.vocab;
  return { layers, core, logits, total: layers + logits };
}

/** What the cost terms read: the model, one point of the search space, and the hardware. */
export interface CostInput extends Pick<
  TrainingConfig,
  'seq' | 'tp' | 'pp' | 'vpp' | 'cp' | 'ep' | 'etp' | 'sp' | 'microBatch' | 'offloadLayers' | 'distributedOptimizer'
> {
  shape: ModelShape;
  flops: TokenFlops;
  globalBatch: number;
  gpus: number;
  dp: number;
  /** Micro-batches per step per pipeline: GBS / (MBS·DP). */
  microbatches: number;
  recompute: RecomputeChoice;
  /** Parameters of the most-loaded pipeline stage: dense (gradients reduced over DP×CP) and routed experts (expert-DP group). */
  stage: { layers: number; moeLayers: number; dense: number; experts: number };
  /** Bytes one layer saves for backward per micro-batch (memory model, activations.ts): what offloading moves. */
  layerActivationBytes: number;
  /** Bytes of a gradient in the reduction (4 with grad_reduce_in_fp32) and of a gathered parameter. */
  gradBytes: number;
  paramBytes: number;
  hw: Hardware;
}

export interface CostBreakdown {
  bubble: number;
  recompute: number;
  tpComm: number;
  cpComm: number;
  epComm: number;
  ppComm: number;
  offload: number;
  dpComm: number;
  total: number;
}

/**
 * Share of the BF16 peak that dense training reaches, applied to every compute time (T0, a layer's forward, attention):
 * Llama 3 (Dubey et al. 2024, Table 4) reports 38–43% BF16 MFU on 8K–16K H100s. Bubble and recompute are FLOPs ÷ FLOPs and do
 * not depend on it; communication fractions scale with it. Bandwidths are datasheet peaks (hardware.ts), so those stay optimistic.
 */
export const MFU = 0.4;

/** Bytes of one bf16 activation or gradient element on the wire. */
const WIRE_BYTES = 2;

/** FLOP/s one GPU sustains: MFU × dense BF16 peak. */
const sustained = (hw: Hardware) => MFU * hw.peakBf16;

/** T0: the step's FLOPs (3× forward: backward costs twice the forward, Narayanan et al. 2021) over all GPUs, seconds. */
export function idealStepSeconds(x: CostInput): number {
  return (3 * x.flops.total * x.seq * x.globalBatch) / (x.gpus * sustained(x.hw));
}

/** Bandwidth of a group whose ranks span `span` consecutive GPUs: scale-up inside one NVLink domain, else the scale-out NIC. */
export function groupBandwidth(span: number, hw: Hardware): number {
  return span <= hw.scaleUpDomain ? hw.scaleUp : hw.scaleOut;
}

/** Seconds of one layer's forward on one GPU for one micro-batch (its share of the model's layer FLOPs). */
function layerForwardSeconds(x: CostInput): number {
  return ((x.flops.layers / x.shape.layers) * (x.seq / x.cp) * x.microBatch) / (x.tp * sustained(x.hw));
}

/** Pipeline bubble: (PP − 1) / (m · VPP) of the ideal time (Narayanan et al. 2021 §2.2, interleaved 1F1B). */
export function bubbleCost(pp: number, vpp: number | null, microbatches: number): number {
  return (pp - 1) / (microbatches * (vpp ?? 1));
}

/**
 * Recompute: full repeats every layer's forward in backward (+1 forward of 3 = ~33% of the layer compute); selective
 * (core_attn) repeats only the attention scores and context (Korthikanti et al. 2022 §5, Table 4).
 */
export function recomputeCost(kind: RecomputeChoice, f: TokenFlops): number {
  if (kind === 'full') return f.layers / (3 * f.total);
  if (kind === 'selective') return f.core / (3 * f.total);
  return 0;
}

/**
 * TP: per layer, 2 all-reduces forward and 2 backward (with SP: all-gather + reduce-scatter pairs, same bytes) of the
 * s·b·h activation; a ring all-reduce sends 2(t−1)/t of the message, so the forward moves 4(t−1)/t·s·b·h elements against
 * its ≈24·s·b·h² FLOPs (Korthikanti et al. 2022 §4.2.2; NCCL ring). TP stays in one node (NVLink). Not overlapped.
 */
export function tpCommCost(x: CostInput, t0: number): number {
  if (x.tp === 1) return 0;
  const perLayer = 4 * ((2 * (x.tp - 1)) / x.tp) * (x.seq / x.cp) * x.microBatch * x.shape.hidden * WIRE_BYTES;
  return (x.microbatches * x.stage.layers * perLayer) / groupBandwidth(x.tp, x.hw) / t0;
}

/**
 * CP: the K/V ring. Forward, each of CP − 1 steps passes the local K and V chunk (2·s/cp·b·⌈g/t⌉·d elements, GQA-reduced);
 * backward passes K/V again and returns dK/dV (3× the forward bytes). It hides behind the attention compute of the layer
 * (TransformerEngine context_parallel.py p2p overlap; Megatron-LM context_parallel docs): only the excess is exposed.
 */
export function cpCommCost(x: CostInput, t0: number): number {
  if (x.cp === 1) return 0;
  const m = x.shape;
  // CP − 1 ring steps, forward plus the two of backward (K/V again, then dK/dV), each moving one step's K/V block.
  const bytes = 3 * (x.cp - 1) * kvExchangePerCpStep(m, x.seq, x.microBatch, x.tp, x.cp, WIRE_BYTES).bytes;
  const comm = bytes / groupBandwidth(x.tp * x.cp, x.hw);
  const attention = (3 * (x.flops.core / m.layers) * (x.seq / x.cp) * x.microBatch) / (x.tp * sustained(x.hw));
  return (x.microbatches * x.stage.layers * Math.max(0, comm - attention)) / t0;
}

/**
 * EP: per MoE layer, all-to-all dispatch and combine forward and again backward; each moves the (EP−1)/EP of the local
 * tokens' top-k copies that leave the rank (Megatron-Core alltoall token dispatcher). Not overlapped.
 */
export function epCommCost(x: CostInput, t0: number): number {
  if (x.ep === 1 || x.stage.moeLayers === 0) return 0;
  const tokens = ((x.seq / x.cp) * x.microBatch) / (x.sp ? x.tp : 1);
  const perLayer = 4 * ((x.ep - 1) / x.ep) * tokens * x.shape.topK * x.shape.hidden * WIRE_BYTES;
  return (x.microbatches * x.stage.moeLayers * perLayer) / groupBandwidth(x.etp * x.ep, x.hw) / t0;
}

/**
 * PP: each model chunk sends its output activation forward and receives its gradient backward, per micro-batch
 * (s/cp·b·h, split over TP with SP: Megatron p2p_communication.py); VPP chunks multiply the sends. PP is the outermost
 * group (Megatron rank order tp-cp-ep-dp-pp), so it leaves the NVLink domain unless the whole world fits in it. Counted in full.
 */
export function ppCommCost(x: CostInput, t0: number): number {
  if (x.pp === 1) return 0;
  const perMicrobatch = 2 * (x.vpp ?? 1) * (((x.seq / x.cp) * x.microBatch * x.shape.hidden) / (x.sp ? x.tp : 1)) * WIRE_BYTES;
  return (x.microbatches * perMicrobatch) / groupBandwidth(x.gpus, x.hw) / t0;
}

/**
 * CPU offload: each offloaded layer's saved activations go to the host in forward and come back in backward over the
 * host link; TransformerEngine overlaps the copy with the next layer's compute (TE cpu_offload docs), so only a copy
 * longer than one layer's forward (backward: twice that) is exposed.
 */
export function offloadCost(x: CostInput, t0: number): number {
  if (x.offloadLayers === 0) return 0;
  const copy = x.layerActivationBytes / x.hw.host;
  const fwd = layerForwardSeconds(x);
  const exposed = Math.max(0, copy - fwd) + Math.max(0, copy - 2 * fwd);
  return (x.microbatches * x.offloadLayers * exposed) / t0;
}

/**
 * DP: gradients reduced over DP×CP once per step: with the distributed optimizer a reduce-scatter of gradients plus an
 * all-gather of parameters, (d−1)/d of the bytes each; else an all-reduce, 2(d−1)/d (NCCL ring; Megatron
 * distributed_data_parallel). overlap_grad_reduce hides the reduction behind the last micro-batch's backward and
 * overlap_param_gather the gather behind the first forward (NeMo 2.0 recipes set both): only the excess is exposed.
 */
export function dpCommCost(x: CostInput, t0: number): number {
  const g = shardGroups(x.dp, x.cp, x.tp, x.ep, x.etp); // the optimizer's shard groups (memory/weights.ts)
  const share = (n: number) => (n > 1 ? (n - 1) / n : 0);
  const elems = share(g.dense) * x.stage.dense + share(g.experts) * x.stage.experts;
  if (elems === 0) return 0;
  const bw = groupBandwidth(x.tp * x.cp * x.dp, x.hw);
  const reduce = ((x.distributedOptimizer ? 1 : 2) * elems * x.gradBytes) / bw;
  const gather = x.distributedOptimizer ? (elems * x.paramBytes) / bw : 0;
  const fwd = t0 / (3 * x.microbatches);
  return (Math.max(0, reduce - 2 * fwd) + Math.max(0, gather - fwd)) / t0;
}

/** All terms and their sum, as fractions of T0. */
export function planCost(x: CostInput): CostBreakdown {
  const t0 = idealStepSeconds(x);
  const c = {
    bubble: bubbleCost(x.pp, x.vpp, x.microbatches),
    recompute: recomputeCost(x.recompute, x.flops),
    tpComm: tpCommCost(x, t0),
    cpComm: cpCommCost(x, t0),
    epComm: epCommCost(x, t0),
    ppComm: ppCommCost(x, t0),
    offload: offloadCost(x, t0),
    dpComm: dpCommCost(x, t0),
  };
  return { ...c, total: Object.values(c).reduce((a, b) => a + b, 0) };
}
