// Hand-built configurations of measured runs, shared by the measured-peak test (memory-measured.test.ts) and the test
// that reads the same runs from Megatron-Bridge overrides (memory-fileSettings.test.ts).
import type { TrainingConfig } from '../src/core/memory/config.js';
import { trainingConfig } from './helpers.js';

const BASE = trainingConfig({});
export const selective = (modules: string[]): TrainingConfig['recompute'] => ({
  granularity: 'selective',
  method: null,
  numLayers: null,
  modules,
});

// Qwen3-30B-A3B pre-training on 16 H100 (Bridge qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config): EP 16, bf16 gradients,
// precision-aware optimizer with fp32 states, TE cross entropy, fused permute, TE graphs over the router and preprocess.
export const qwen3 = (p: Partial<TrainingConfig>): TrainingConfig => ({
  ...BASE,
  globalBatch: 1024,
  ep: 16,
  worldSize: 16,
  gradReduceInFp32: false,
  crossEntropyFusion: 'te',
  cudaGraph: { impl: 'transformer_engine', scope: ['moe_router', 'moe_preprocess'] },
  optimizerDtypes: {},
  ...p,
});

// Moonlight 16B on 8 H100 (Bridge moonlight_16b_pretrain_8gpu_h100_bf16_config, DeepSeek-V3 bridge: fp32 router, fused
// permute, TE cross entropy): TP 2 with SP, EP 8, alltoall, GBS 4 (one micro-batch), bf16 gradients, precision-aware
// optimizer with fp32 main params and bf16 moments.
export const moonlight = (modules: string[]): TrainingConfig => ({
  ...BASE,
  globalBatch: 4,
  tp: 2,
  ep: 8,
  sp: true,
  worldSize: 8,
  gradReduceInFp32: false,
  recompute: selective(modules),
  crossEntropyFusion: 'te',
  moe: { dispatcher: 'alltoall', permuteFusion: true, routerDtype: 'fp32' },
  optimizerDtypes: { mainParams: 'fp32', expAvg: 'bf16', expAvgSq: 'bf16' },
});

// Qwen3-30B-A3B pre-training on 16 H100 with optimizer CPU offload (Bridge docs/training/cpu-offloading.md and the skill's
// card.yaml, validated 2026-03-30: qwen3_30b_a3b_pretrain_config at 5b7797da with TP 2, PP 2, EP 4, GBS 8, MBS 1): seq 4096,
// SP, full uniform recompute of every layer, DeepEP (flex) on Hopper, grouped GEMM, fused permute, TE cross entropy,
// bf16_mixed (fp32 gradient buffer), distributed optimizer without the precision-aware optimizer (fp32 main shards).
export const qwen3Offload = (fraction: number | undefined): TrainingConfig => ({
  ...BASE,
  globalBatch: 8,
  tp: 2,
  pp: 2,
  ep: 4,
  etp: 1,
  sp: true,
  worldSize: 16,
  recompute: { granularity: 'full', method: 'uniform', numLayers: 1, modules: [] },
  crossEntropyFusion: 'te',
  moe: { dispatcher: 'flex', permuteFusion: true, groupedGemm: true },
  ...(fraction === undefined ? {} : { optimizerCpuOffload: fraction }),
});
