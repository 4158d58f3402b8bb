// The generation engine of a NeMo-RL step: vLLM takes gpu_memory_utilization × GPU for weights, activations and KV
// cache (nemo_rl/models/generation/vllm/vllm_worker.py); TensorRT-LLM turns gpu_memory_utilization into
// kv_cache_config.free_gpu_memory_fraction (generation/trtllm/trtllm_worker_async.py). Weights and KV bytes per token
// come from the serving model (memory/kvcache.ts).
import type { NemoRlRead } from '../formats/nemoRl.js';
import type { TrainingRecipe } from '../recipe.js';
import { gib } from '../units.js';
import { DEFAULT_MAX_NUM_TOKENS, defaultRuntimeBytes, estimateKvCache, kvBytesPerToken } from './kvcache.js';
import { servingWeights } from './servingWeights.js';
import { bf16Weights, modeloptFp8Weights } from '../models/weights.js';
import type { RlLine } from './nemoRl.js';
import type { Assumption, GpuSpec, ModelShape } from './types.js';

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const pos = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 1;

export interface RlGeneration {
  backend: 'vllm' | 'trtllm';
  tp: number;
  pp: number;
  /** The fraction of the GPU the engine takes (vLLM gpu_memory_utilization) or of the free memory (TensorRT-LLM). */
  fraction: number;
  weightBytes: number;
  kvBytesPerToken: number;
  kvPoolBytes: number;
  kvTokens: number;
  maxModelLen: number;
  /** Sequences of max_model_len the KV cache holds at once. */
  sequencesAtMaxLen: number;
}

/** The generation engine's memory per GPU: vLLM takes gpu_memory_utilization × GPU; TensorRT-LLM fills a fraction of what is free. */
export function generationMemory(
  rl: NemoRlRead,
  shape: ModelShape,
  gpu: GpuSpec,
  assumptions: Assumption[],
  r: TrainingRecipe,
): RlGeneration | undefined {
  const x = rl.values;
  const backend = x.genBackend;
  const seq = num(r.values.seq);
  if (backend === 'vllm') {
    const tp = pos(x.vllmTp) ? x.vllmTp : 1;
    const pp = pos(x.vllmPp) ? x.vllmPp : 1;
    const util = num(x.vllmUtil);
    if (util === undefined || util <= 0 || util > 1) {
      assumptions.push({
        what: 'no generation estimate',
        source: 'vllm_cfg.gpu_memory_utilization is not a fraction in (0, 1]',
        provenance: 'default',
      });
      return undefined;
    }
    const weightBytes = generationWeightBytes(shape, x.vllmPrecision === 'fp8', tp, pp);
    const kvDtype = x.vllmKvDtype === 'fp8' || x.vllmKvDtype === 'fp8_e4m3' ? 'fp8' : 'auto';
    const perToken = kvBytesPerToken(shape, { tp, pp, dtype: kvDtype, modelDtype: x.vllmPrecision === 'float16' ? 'fp16' : 'bf16' });
    const runtime = defaultRuntimeBytes(shape, { tp, pp, maxNumTokens: DEFAULT_MAX_NUM_TOKENS });
    assumptions.push(...runtime.assumptions);
    assumptions.push({
      what: `vLLM profiles a forward of ${DEFAULT_MAX_NUM_TOKENS} tokens (max_num_batched_tokens) before sizing the KV cache`,
      source: 'vLLM default scheduler budget; memory/kvcache.ts defaultRuntimeBytes',
      provenance: 'default',
    });
    const pool = Math.max(0, util * gpu.bytes - weightBytes - runtime.bytes);
    const maxLen = pos(x.vllmMaxLen) ? x.vllmMaxLen : (seq ?? 0);
    const kvTokens = perToken > 0 ? Math.floor(pool / perToken) : 0;
    return {
      backend: 'vllm',
      tp,
      pp,
      fraction: util,
      weightBytes,
      kvBytesPerToken: perToken,
      kvPoolBytes: pool,
      kvTokens,
      maxModelLen: maxLen,
      sequencesAtMaxLen: maxLen > 0 ? Math.floor(kvTokens / maxLen) : 0,
    };
  }
  if (backend === 'trtllm') {
    const tp = pos(x.trtllmTp) ? x.trtllmTp : 1;
    const pp = pos(x.trtllmPp) ? x.trtllmPp : 1;
    const maxLen = pos(x.trtllmMaxLen) ? x.trtllmMaxLen : (seq ?? 1);
    // trtllm_worker_async.py: gpu_memory_utilization becomes kv_cache_config.free_gpu_memory_fraction.
    const kv = estimateKvCache({
      shape,
      gpu,
      tp,
      pp,
      maxSeqLen: maxLen,
      freeGpuMemoryFraction: num(x.trtllmUtil),
      weightBytes: generationWeightBytes(shape, x.trtllmPrecision === 'fp8', tp, pp),
    });
    assumptions.push(...kv.assumptions);
    return {
      backend: 'trtllm',
      tp,
      pp,
      fraction: kv.fraction ?? 0,
      weightBytes: kv.weightBytes,
      kvBytesPerToken: kv.bytesPerToken,
      kvPoolBytes: kv.allocatedBytes,
      kvTokens: kv.poolTokens,
      maxModelLen: maxLen,
      sequencesAtMaxLen: kv.requestsAtMaxSeqLen,
    };
  }
  if (backend !== undefined && backend !== null)
    assumptions.push({
      what: `generation backend ${String(backend)} not estimated`,
      source: 'only vLLM and TensorRT-LLM are modelled',
      provenance: 'default',
    });
  return undefined;
}

/** The lines of the engine's own memory on a GPU. */
export function enginePhaseLines(g: RlGeneration, gpu: GpuSpec): RlLine[] {
  if (g.backend === 'vllm') {
    const total = g.fraction * gpu.bytes;
    return [
      {
        label: `vLLM: weights ${gib(g.weightBytes)}, KV cache ${gib(g.kvPoolBytes)} (${g.kvTokens} tokens, ${g.sequencesAtMaxLen} sequences of ${g.maxModelLen}), runtime`,
        bytes: total,
        formula: `gpu_memory_utilization ${g.fraction} × ${gib(gpu.bytes)}`,
        source: 'nemo_rl/models/generation/vllm/vllm_worker.py gpu_memory_utilization; vLLM sizes the KV cache to fill it',
      },
    ];
  }
  return [
    {
      label: 'TensorRT-LLM weights',
      bytes: g.weightBytes,
      formula: `/ (TP·PP = ${g.tp}·${g.pp})`,
      source: 'memory/servingWeights.ts (the policy refitted in BF16, or quantized online to FP8)',
    },
    {
      label: `TensorRT-LLM KV cache (${g.kvTokens} tokens)`,
      bytes: g.kvPoolBytes,
      formula: `free_gpu_memory_fraction ${g.fraction} of the free memory`,
      source: 'trtllm_worker_async.py gpu_memory_utilization → free_gpu_memory_fraction; memory/kvcache.ts',
    },
  ];
}

/**
 * Generation weights on one GPU: the policy refitted in BF16 (NeMo-RL streams the trained weights into the engine), or
 * quantized on the fly to FP8 with per-tensor scales, LM head kept in BF16 (vllm_cfg.precision: fp8, fp8.py).
 */
function generationWeightBytes(shape: ModelShape, fp8: boolean, tp: number, pp: number): number {
  const format = fp8
    ? modeloptFp8Weights('NeMo-RL generation precision fp8: linear layers quantized when the weights are loaded', ['lm_head'])
    : bf16Weights('NeMo-RL refits the policy weights in BF16');
  return servingWeights(shape, format, { tp, pp }).bytes;
}
