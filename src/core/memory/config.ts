// The training settings the memory model reads, independent of the file format they came from.
import type { Fp4Recipe, Fp8Recipe } from './precision.js';

export type RecomputeGranularity = 'full' | 'selective' | null;
export type Profile = 'megatron' | 'hf';
export type Attention = 'flash' | 'eager';

export interface TrainingConfig {
  /** Full sequence length (before CP). */
  seq: number;
  microBatch: number;
  globalBatch?: number;
  tp: number;
  pp: number;
  /** Virtual pipeline size; null/1 = not interleaved. */
  vpp: number | null;
  cp: number;
  ep: number;
  etp: number;
  sp: boolean;
  /** World size when the file (or a setting) gives one. */
  worldSize?: number;
  recompute: { granularity: RecomputeGranularity; method: 'uniform' | 'block' | null; numLayers: number | null; modules: string[] };
  /** Layers whose activations are offloaded to CPU (0 = off). */
  offloadLayers: number;
  params: 'bf16' | 'fp16' | 'fp32';
  fp8: Fp8Recipe | null;
  fp4: Fp4Recipe | null;
  /** fp8_param / fp4_param: the model keeps only the quantized weight copy. */
  quantizedParams: boolean;
  distributedOptimizer: boolean;
  gradReduceInFp32: boolean;
  hiddenDropout: number;
  attentionDropout: number;
  profile: Profile;
  attention: Attention;
}

/** Derived sizes: data-parallel size and micro-batches per step. */
export function derived(c: TrainingConfig): { dp: number | undefined; microbatches: number | undefined } {
  const model = c.tp * c.pp * c.cp;
  const dp = c.worldSize && c.worldSize % model === 0 ? c.worldSize / model : undefined;
  const microbatches = dp && c.globalBatch && c.globalBatch % (c.microBatch * dp) === 0 ? c.globalBatch / (c.microBatch * dp) : undefined;
  return { dp, microbatches };
}
