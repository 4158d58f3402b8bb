// Parameters per GPU by pipeline stage, and the bytes of weights, gradients and optimizer state.
// Follows Megatron-LM megatron/training/theoretical_memory_usage.py and Megatron-Bridge
// theoretical_memory_utils.py (distributed optimizer sharded over DP×CP, experts over the expert-DP group).
import type { TrainingConfig } from './config.js';
import { NVFP4_BF16_LAYER_FRACTION, PRECISIONS } from './precision.js';
import type { ModelShape } from './types.js';

/** Megatron pads the vocabulary to a multiple of make_vocab_size_divisible_by × TP (megatron/training/tokenizer _vocab_size_with_padding). */
export function paddedVocab(vocab: number, tp: number, divisibleBy = 128): number {
  const multiple = divisibleBy * tp;
  return Math.ceil(vocab / multiple) * multiple;
}

export interface StageParams {
  stage: number;
  layers: number;
  moeLayers: number;
  /** Parameters sharded like dense weights (optimizer shard group DP×CP). */
  dense: number;
  /** Of `dense`, the GEMM weights a low-precision recipe quantizes. */
  denseLinear: number;
  /** Routed-expert parameters (optimizer shard group = expert data-parallel). */
  experts: number;
}

/** Layers per pipeline stage; uneven splits give the remainder to the first stages (the most-loaded case). */
export function layersOfStage(L: number, pp: number, stage: number): { first: number; count: number } {
  const base = Math.floor(L / pp);
  const extra = L % pp;
  const count = base + (stage < extra ? 1 : 0);
  const first = stage * base + Math.min(stage, extra);
  return { first, count };
}

export function stageParams(m: ModelShape, c: TrainingConfig, vocabDivisibleBy = 128): StageParams[] {
  const t = c.tp;
  const h = m.hidden;
  const mats = m.gatedMlp ? 3 : 2; // SwiGLU: gate, up, down
  const norm = m.norm === 'rmsnorm' ? h : 2 * h;
  const attn = (2 * h * m.heads * m.headDim + 2 * h * m.kvHeads * m.headDim) / t; // Q,O + K,V (GQA)
  const denseMlp = (mats * h * m.ffn) / t;
  const shared = (mats * h * m.sharedExpertFfn) / t;
  const expert = (mats * h * m.moeFfn * m.experts) / (c.ep * c.etp);
  const V = paddedVocab(m.vocab, t, vocabDivisibleBy);
  const embedding = (V * h) / t;
  const out: StageParams[] = [];
  for (let st = 0; st < c.pp; st++) {
    const { first, count } = layersOfStage(m.layers, c.pp, st);
    // Layers [first, first + count) that are MoE: those at or past denseLayersBeforeMoe (counted, not looped: L can be huge).
    const moeLayers = m.experts > 0 ? Math.max(0, first + count - Math.max(first, m.denseLayersBeforeMoe)) : 0;
    const denseLayers = count - moeLayers;
    const linear = count * attn + denseLayers * denseMlp + moeLayers * shared;
    let dense = linear + count * 2 * norm + moeLayers * h * m.experts; // two norms per layer; router h·E
    if (st === 0) dense += embedding;
    if (st === c.pp - 1) {
      dense += norm; // final norm
      // Output layer: untied, or a tied copy on the last stage when PP > 1 (Megatron shared embedding).
      if (!m.tiedEmbeddings || c.pp > 1) dense += embedding;
    }
    out.push({ stage: st, layers: count, moeLayers, dense, denseLinear: linear, experts: moeLayers * expert });
  }
  return out;
}

export interface StateBytes {
  weights: number;
  gradients: number;
  optimizer: number;
  /** Extra low-precision weight copies (part of `weights`). */
  quantizedCopies: number;
  bytesPerParam: { weights: number; gradients: number; optimizer: number };
}

/** Bytes per parameter by precision layout (Megatron-LM docs/source/api-guide/dist_optimizer.md): 18, or 6 + 12/d. */
export function perParamBytes(c: TrainingConfig, shard: number): { weights: number; gradients: number; optimizer: number } {
  const d = c.distributedOptimizer ? shard : 1;
  if (c.params === 'fp32') return { weights: 4, gradients: 4, optimizer: 8 / d }; // Adam m, v
  if (c.params === 'fp16') return { weights: 2, gradients: 2, optimizer: 16 / d }; // fp32 main param + main grad + m + v
  return { weights: 2, gradients: c.gradReduceInFp32 ? 4 : 2, optimizer: 12 / d }; // fp32 main param + m + v
}

/** Low-precision copies TE keeps next to (or instead of) the BF16 weight, per linear parameter. */
function quantizedBytesPerLinearParam(c: TrainingConfig): { copy: number; replacesBf16: boolean } {
  if (c.fp4) {
    const q = PRECISIONS[c.fp4].savedInputBytes;
    const share = c.fp4 === 'nvfp4' ? 1 - NVFP4_BF16_LAYER_FRACTION : 1;
    // Rowwise and columnwise copies (NVFP4 GEMM supports only the TN layout, TE NVFP4 docs).
    return { copy: (c.quantizedParams ? q : 2 * q) * share, replacesBf16: c.quantizedParams };
  }
  if (c.fp8) {
    const q = PRECISIONS[`fp8-${c.fp8}`].savedInputBytes;
    // Default FP8 keeps BF16 weights plus FP8 rowwise + transposed copies; fp8_param keeps only the FP8 copy (TE docs, memory.md §1.2).
    return { copy: c.quantizedParams ? q : 2 * q, replacesBf16: c.quantizedParams };
  }
  return { copy: 0, replacesBf16: false };
}

export function stateBytes(p: StageParams, c: TrainingConfig, denseShard: number, expertShard: number): StateBytes {
  const bd = perParamBytes(c, denseShard);
  const be = perParamBytes(c, expertShard);
  const q = quantizedBytesPerLinearParam(c);
  const linear = p.denseLinear + p.experts;
  const quantizedCopies = q.copy * linear;
  const replaced = q.replacesBf16 ? bd.weights * linear : 0;
  return {
    weights: p.dense * bd.weights + p.experts * be.weights + quantizedCopies - replaced,
    gradients: p.dense * bd.gradients + p.experts * be.gradients,
    optimizer: p.dense * bd.optimizer + p.experts * be.optimizer,
    quantizedCopies,
    bytesPerParam: bd,
  };
}

/** Optimizer shard groups: DP×CP for dense parameters, world/(ETP·EP·PP) = DP·CP·TP/(EP·ETP) for routed experts (Megatron intra_dp_cp_group; Bridge). */
export function shardGroups(dp: number, cp: number, tp: number, ep: number, etp: number): { dense: number; experts: number } {
  return { dense: dp * cp, experts: (dp * cp * tp) / (ep * etp) };
}
