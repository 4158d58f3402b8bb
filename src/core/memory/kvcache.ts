// TensorRT-LLM KV cache model (memory.md §3): bytes per token, the paged block pool sized from free GPU memory,
// the host tier, sliding-window pools, and which blocks a KV retention config protects (formats.md §7).
import { perBlockRetention } from '../kvsim/perBlock.js';
import { CUDA_CONTEXT_BYTES, NCCL_DENSE_BYTES as NCCL_BYTES, NCCL_EP_BYTES } from './overheads.js';
import { hasDsaIndexer, hybridLayers, isGdnLayer, isGlobalLayer, isKvSharedLayer } from './params.js';
import type { Assumption, GpuSpec, ModelShape } from './types.js';
import { gib } from '../units.js';

export type KvDtype = 'bf16' | 'fp16' | 'fp32' | 'fp8' | 'int8' | 'nvfp4';
export type ModelDtype = 'bf16' | 'fp16' | 'fp32';

/** kv_cache_config.tokens_per_block default [TRT-KVC llm_args.py `Field(default=32)`]. */
export const DEFAULT_TOKENS_PER_BLOCK = 32;
/** kv_cache_config.free_gpu_memory_fraction default [TRT-KVC; TRT-RM calculate_max_num_blocks `else 0.9`]. */
export const DEFAULT_FREE_GPU_MEMORY_FRACTION = 0.9;
/** max_num_tokens the profiling dry run uses by default [TRT-RM KVCacheManager.__init__ `max_num_tokens: int = 8192`]. */
export const DEFAULT_MAX_NUM_TOKENS = 8192;

export interface KvLayout {
  tp?: number;
  pp?: number;
  /** enable_attention_dp: attention runs with TP 1, so each rank caches every KV head. */
  attentionDp?: boolean;
  /** kv_cache_config.dtype; 'auto' (default) is the model dtype. */
  dtype?: string;
  modelDtype?: ModelDtype;
  /** PP rank (default 0: with an uneven split it holds the most layers, so it binds the all-reduced minimum). */
  ppRank?: number;
  /** Draft layers cached with the target on the last PP rank (MTP speculative decoding; _util.py `_get_num_draft_layers`). */
  draftLayers?: number;
}

/**
 * The layers that keep a KV cache: every layer, but only the attention layers of hybrid stacks — `*` of a Nemotron-H
 * pattern, the full-attention layer of each Gated DeltaNet group (Qwen3-Next `full_attention_interval`). Mamba and
 * linear-attention layers keep a fixed recurrent state instead (TensorRT-LLM config_utils.py `is_hybrid_linear`).
 * KV-shared layers (Gemma 4 `num_kv_shared_layers`) read an earlier layer's cache and keep none (HF Gemma4TextAttention
 * skips past_key_values.update for them).
 */
export function attentionLayerIndices(shape: ModelShape, layers: readonly number[]): number[] {
  if (shape.hybridPattern) {
    const p = hybridLayers(shape.hybridPattern);
    return layers.filter((i) => p[i] === '*');
  }
  if (shape.linearAttention) return layers.filter((i) => !isGdnLayer(shape, i));
  if (shape.kvSharedLayers) return layers.filter((i) => !isKvSharedLayer(shape, i));
  return [...layers];
}

const KV_DTYPES: Record<string, KvDtype> = {
  bf16: 'bf16',
  bfloat16: 'bf16',
  fp16: 'fp16',
  float16: 'fp16',
  half: 'fp16',
  fp32: 'fp32',
  float32: 'fp32',
  float: 'fp32',
  fp8: 'fp8',
  fp8_ds_mla: 'fp8',
  int8: 'int8',
  nvfp4: 'nvfp4',
};

/** The cache element type a kv_cache_config.dtype stands for ('auto' = model dtype [TRT-KVC]); undefined if unknown. */
export function resolveKvDtype(dtype: string | undefined, modelDtype: ModelDtype = 'bf16'): KvDtype | undefined {
  const d = (dtype ?? 'auto').trim().toLowerCase();
  if (d === 'auto') return modelDtype;
  return Object.hasOwn(KV_DTYPES, d) ? KV_DTYPES[d] : undefined;
}

/** Bytes of n cache elements: fp16/bf16 2, fp8/int8 1, fp32 4; nvfp4 = ceil(n/2) FP4 bytes + ceil(n/16) FP8 scales [TRT-RM get_cache_size_per_token]. */
export function kvBytesForElements(n: number, dtype: KvDtype): number {
  if (dtype === 'nvfp4') return Math.ceil(n / 2) + Math.ceil(n / 16);
  return n * { bf16: 2, fp16: 2, fp32: 4, fp8: 1, int8: 1 }[dtype];
}

/** Layers on PP rank `rank`: the first L mod PP ranks get one extra layer [TRT-LLM mapping.py pp_layers, torch.tensor_split]. */
export function ppLayers(layers: number, pp: number, rank = 0): number[] {
  const base = Math.floor(layers / pp);
  const extra = layers % pp;
  const start = rank * base + Math.min(rank, extra);
  return Array.from({ length: base + (rank < extra ? 1 : 0) }, (_, i) => start + i);
}

export interface KvPerToken {
  dtype: KvDtype;
  /** 2 (K and V) or 1 (MLA caches one compressed latent) [TRT-RM `kv_factor`]. */
  kvFactor: 1 | 2;
  layers: number[];
  /** KV heads per rank and head dim (of the windowed layers when global layers differ, Gemma 4: see `layerElements`). */
  kvHeads: number;
  headDim: number;
  /** Elements of each layer of `layers` when they differ (Gemma 4 global layers); absent when all are alike. */
  layerElements?: number[];
  /** Elements of the attention cache (the DSA indexer keys are in `indexer`). */
  elements: number;
  /** Attention cache bytes plus the DSA indexer key cache. */
  bytes: number;
  /** DSA lightning-indexer key cache of the layers that run an indexer (DeepSeek-V3.2, GLM-5). */
  indexer?: { layers: number; bytesPerLayer: number; bytes: number };
}

/**
 * How the bytes per token add up, for reports and the panel: `2 (K and V) × 32 layers × 8 KV heads × 128 × 2 B bf16`;
 * layers of different widths (Gemma 4 global layers) are grouped by their elements; the DSA indexer keys are added.
 */
export function kvTokenFormula(p: KvPerToken): string {
  const perElement =
    p.dtype === 'nvfp4'
      ? 'NVFP4 (4 bits + E4M3 scale per 16)'
      : `${p.elements ? (p.bytes - (p.indexer?.bytes ?? 0)) / p.elements : 0} B ${p.dtype}`;
  let core = `${p.kvFactor} (${p.kvFactor === 2 ? 'K and V' : 'latent'}) × ${p.layers.length} layers × ${p.kvHeads} KV heads × ${p.headDim}`;
  if (p.layerElements) {
    const byWidth = new Map<number, number>();
    for (const n of p.layerElements) byWidth.set(n, (byWidth.get(n) ?? 0) + 1);
    core = `(${[...byWidth].map(([n, layers]) => `${layers} layers × ${n}`).join(' + ')} elements)`;
  }
  const indexer = p.indexer ? ` + DSA indexer ${p.indexer.layers} layers × ${p.indexer.bytesPerLayer} B` : '';
  return `${core} × ${perElement}${indexer}`;
}

/**
 * Bytes one token takes in the DSA indexer's key cache of one layer: index_head_dim FP8 keys plus one FP32 scale per 128
 * of them, 128 + 4 = 132 B at index_head_dim 128. The pool is raw UINT8 whatever kv_cache_config.dtype is, and is not split
 * over TP (TensorRT-LLM tensorrt_llm/_torch/attention_backend/sparse/dsa/cache_manager.py DSACacheManager
 * get_cache_bytes_per_token, quant_block_size 128, indexer_k_dtype "fp8" by default; DeepSeek-V3.2-Exp inference/model.py
 * Indexer k_cache FP8 + k_scale_cache FP32 per block of 128).
 */
export const dsaIndexerKeyBytes = (indexHeadDim: number) => indexHeadDim + Math.floor(indexHeadDim / 128) * 4;

/** Cache elements and bytes one token occupies on one rank. Throws on an unknown dtype. */
export function kvPerToken(shape: ModelShape, layout: KvLayout = {}): KvPerToken {
  const dtype = resolveKvDtype(layout.dtype, layout.modelDtype);
  if (!dtype) throw new Error(`unknown KV cache dtype "${layout.dtype}"`);
  const pp = layout.pp ?? 1;
  const rank = layout.ppRank ?? 0;
  const own = attentionLayerIndices(shape, ppLayers(shape.layers, pp, rank));
  // Draft (MTP) layers sit after the last decoder layer, on the last PP rank.
  const draft = rank === pp - 1 ? Array.from({ length: layout.draftLayers ?? 0 }, (_, i) => shape.layers + i) : [];
  const layers = [...own, ...draft];
  const tp = layout.attentionDp ? 1 : (layout.tp ?? 1); // attention DP: tp_size = 1 for the cache [TRT-RM __init__]
  // MLA caches kv_lora_rank + qk_rope_head_dim per token and layer, one "head", K only [TRT-RM get_cache_size_per_token `mla`].
  const kvFactor = shape.mla ? 1 : 2;
  const headDim = shape.mla ? shape.mla.kvLoraRank + shape.mla.qkRopeHeadDim : shape.headDim;
  // KV heads split over TP, rounded up: with kvHeads < TP each rank keeps a replicated head [TRT-RM `(num_kv_heads + tp_size - 1) // tp_size`].
  const kvHeads = shape.mla ? 1 : Math.ceil(shape.kvHeads / tp);
  // Gemma 4 global layers cache K and V of their own geometry — global_head_dim, and num_global_key_value_heads with
  // attention_k_eq_v, where K and V are still two tensors (HF Gemma4TextAttention past_key_values.update(key, value);
  // ai-dynamo/aiconfigurator sdk/models/gemma4.py) [UNVERIFIED how TensorRT-LLM's cache manager lays out mixed head dims].
  const ga = shape.mla ? undefined : shape.globalAttention;
  const layerElements = ga
    ? layers.map((i) => kvFactor * (isGlobalLayer(shape, i) ? Math.ceil(ga.kvHeads / tp) * ga.headDim : kvHeads * headDim))
    : undefined;
  // [TRT-RM get_cache_bytes_per_token]
  const elements = layerElements ? layerElements.reduce((a, x) => a + x, 0) : kvFactor * layers.length * kvHeads * headDim;
  const bytes = kvBytesForElements(elements, dtype);
  if (!shape.dsa) return { dtype, kvFactor, layers, kvHeads, headDim, ...(layerElements ? { layerElements } : {}), elements, bytes };
  // DSA: the layers that run their own indexer (all but GLM-5.2's shared-indexer layers; draft layers too) cache its keys.
  const n = layers.filter((i) => hasDsaIndexer(shape, i)).length;
  const bytesPerLayer = dsaIndexerKeyBytes(shape.dsa.headDim);
  const indexer = { layers: n, bytesPerLayer, bytes: n * bytesPerLayer };
  return { dtype, kvFactor, layers, kvHeads, headDim, elements, bytes: bytes + indexer.bytes, indexer };
}

/** KV bytes per token on one rank: 2 · local layers · ceil(kvHeads/TP) · head_dim · bytes per element (memory.md §3). */
export function kvBytesPerToken(shape: ModelShape, layout: KvLayout = {}): number {
  return kvPerToken(shape, layout).bytes;
}

/**
 * The per-layer windows a model declares (gpt-oss: layers 0, 2, 4, … use 128 tokens; Gemma 3/4: five of every six), as
 * kv_cache_config.max_attention_window would list them; the global layers (isGlobalLayer) attend over max_seq_len.
 */
export function modelAttentionWindows(shape: ModelShape, maxSeqLen: number): number[] {
  const sw = shape.slidingWindow;
  return Array.from({ length: shape.layers }, (_, i) => (sw && !isGlobalLayer(shape, i) ? Math.min(sw.window, maxSeqLen) : maxSeqLen));
}

export interface ServingLayout {
  tp?: number;
  pp?: number;
  attentionDp?: boolean;
}

export interface RuntimeEstimate {
  bytes: number;
  assumptions: Assumption[];
}

/**
 * Non-KV memory at the profiled peak besides weights: CUDA context, NCCL buffers and the activations of a forward over
 * max_num_tokens tokens. TRT-LLM measures this in a dry run ("peak memory … torch + non-torch") [TRT-UTIL]; this is
 * the estimate used when no measured figure is given.
 */
export function defaultRuntimeBytes(shape: ModelShape, layout: ServingLayout & { maxNumTokens?: number } = {}): RuntimeEstimate {
  const tp = layout.tp ?? 1;
  const world = tp * (layout.pp ?? 1);
  const tokens = layout.maxNumTokens ?? DEFAULT_MAX_NUM_TOKENS;
  const dense = shape.experts > 0 && shape.denseLayersBeforeMoe === 0 ? 0 : shape.ffn;
  const moe = shape.experts > 0 ? shape.topK * shape.moeFfn + shape.sharedExpertFfn : 0;
  // Live bf16 tensors in one layer's MLP: residual, normed input, attention output, down-proj output (4h) + gate/up and act (3·ffn/TP) [UNVERIFIED derivation].
  const activations = tokens * (4 * shape.hidden + (3 * Math.max(dense, moe)) / tp) * 2;
  const comm = world > 1 ? (shape.experts > 0 ? NCCL_EP_BYTES : NCCL_BYTES) : 0;
  const bytes = Math.ceil(CUDA_CONTEXT_BYTES + comm + activations);
  return {
    bytes,
    assumptions: [
      {
        what: `non-KV runtime memory = ${gib(bytes)} (CUDA context ${gib(CUDA_CONTEXT_BYTES)} + NCCL ${gib(comm)} + activations of ${tokens} tokens ${gib(activations)})`,
        source:
          'memory.md §7 (context 0.3–0.45 GB with lazy loading; NCCL 0.5–2 GiB, 2–5 GiB with all-to-all); activations tokens·(4h + 3·ffn/TP)·2 B [UNVERIFIED]; TRT-LLM measures the real peak in a dry run',
        provenance: 'default',
      },
    ],
  };
}

export interface KvCacheInput {
  shape: ModelShape;
  gpu: GpuSpec;
  tp?: number;
  pp?: number;
  attentionDp?: boolean;
  /** kv_cache_config.dtype (default 'auto'). */
  kvDtype?: string;
  modelDtype?: ModelDtype;
  /** Weight bytes per GPU (servingWeights.ts, or a measured figure). */
  weightBytes: number;
  /** Measured non-KV peak (activations, NCCL, CUDA graphs, context) per GPU (else `defaultRuntimeBytes`). */
  runtimeBytes?: number;
  /** Recurrent state of hybrid models (Mamba, Gated DeltaNet) per GPU, allocated before the KV pool. */
  stateBytes?: number;
  /** Context parallelism that splits each sequence's KV cache over CP ranks (Helix in generation servers). */
  cp?: number;
  /** Draft (MTP) layers cached with the target. */
  draftLayers?: number;
  maxNumTokens?: number;
  maxSeqLen: number;
  maxBeamWidth?: number;
  tokensPerBlock?: number;
  /** kv_cache_config.free_gpu_memory_fraction; null = explicitly unset. */
  freeGpuMemoryFraction?: number | null;
  maxTokens?: number;
  maxGpuTotalBytes?: number;
  hostCacheSize?: number;
  /** kv_cache_config.max_attention_window (repeated over the layers, each clamped to max_seq_len). */
  maxAttentionWindow?: number[];
}

export type KvLimit = 'free_gpu_memory_fraction' | 'max_tokens' | 'max_gpu_total_bytes';

export interface WindowPool {
  window: number;
  layers: number;
  bytesPerToken: number;
  share: number;
  bytes: number;
  tokens: number;
  blocks: number;
  blocksPerSequence: number;
  /** Requests of max_seq_len this pool holds. */
  requests: number;
}

export interface KvCacheEstimate {
  perToken: KvPerToken;
  bytesPerToken: number;
  tokensPerBlock: number;
  bytesPerBlock: number;
  /** Blocks one request of max_seq_len needs, × beam width. */
  blocksPerSequence: number;
  weightBytes: number;
  runtimeBytes: number;
  stateBytes: number;
  fraction: number | null;
  /** GPU bytes − weights − non-KV runtime − recurrent state (≥ 0). */
  freeBytes: number;
  /** The byte budget of each limit that is set. */
  budgets: Partial<Record<KvLimit, number>>;
  limit: KvLimit;
  /** The pool budget in bytes (the smallest budget), then whole tokens, then whole blocks. */
  poolBytes: number;
  poolTokens: number;
  poolBlocks: number;
  /** Bytes the primary pool really allocates (whole blocks). */
  allocatedBytes: number;
  /** Requests of max_seq_len the pool holds (with window pools: the smallest over the pools). */
  requestsAtMaxSeqLen: number;
  host: { bytes: number; tokens: number; blocks: number };
  /** Per-window pools when layers use different attention windows (VSWA). */
  windowPools?: WindowPool[];
  assumptions: Assumption[];
}

export function estimateKvCache(input: KvCacheInput): KvCacheEstimate {
  const { shape, gpu } = input;
  const assumptions: Assumption[] = [];
  const layout = {
    tp: input.tp,
    pp: input.pp,
    attentionDp: input.attentionDp,
    dtype: input.kvDtype,
    modelDtype: input.modelDtype,
    draftLayers: input.draftLayers,
  };
  // With PP the all-reduced minimum over ranks binds: the rank caching the most bytes per token (rank 0 has the most
  // layers, the last rank the draft layers) [TRT-RM calculate_max_num_blocks].
  const pp = input.pp ?? 1;
  const perToken = [0, pp - 1].map((ppRank) => kvPerToken(shape, { ...layout, ppRank })).reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const bpt = perToken.bytes;
  const tpb = input.tokensPerBlock ?? DEFAULT_TOKENS_PER_BLOCK;
  const beam = input.maxBeamWidth ?? 1;
  if ((input.kvDtype ?? 'auto').toLowerCase() === 'auto')
    assumptions.push({
      what: `KV cache dtype = ${perToken.dtype}`,
      source: "kv_cache_config.dtype 'auto' follows the model dtype",
      provenance: 'default',
    });
  if (perToken.indexer)
    assumptions.push({
      what: `DSA indexer key cache: ${perToken.indexer.layers} layers × ${perToken.indexer.bytesPerLayer} B per token (${shape.dsa?.headDim} FP8 keys + FP32 scales per 128), whatever the KV dtype`,
      source:
        'TensorRT-LLM _torch/attention_backend/sparse/dsa/cache_manager.py DSACacheManager.get_cache_bytes_per_token (indexer_k_dtype fp8)',
      provenance: 'default',
    });
  if (input.kvDtype?.toLowerCase() === 'fp8_ds_mla')
    assumptions.push({
      what: 'fp8_ds_mla counted as 1 byte per element',
      source: 'its scale and rope layout is not modelled [UNVERIFIED]',
      provenance: 'default',
    });
  if (pp > 1)
    assumptions.push({
      what: `the PP rank caching ${perToken.layers.length} of ${shape.layers} layers`,
      source:
        'max_tokens is all-reduced to the minimum over ranks: the rank with the most KV bytes per token binds [TRT-RM calculate_max_num_blocks]',
      provenance: 'default',
    });
  const weightBytes = input.weightBytes;
  const stateBytes = input.stateBytes ?? 0;
  let runtimeBytes = input.runtimeBytes;
  if (runtimeBytes === undefined) {
    const r = defaultRuntimeBytes(shape, { tp: input.tp, pp: input.pp, attentionDp: input.attentionDp, maxNumTokens: input.maxNumTokens });
    runtimeBytes = r.bytes;
    assumptions.push(...r.assumptions);
  }

  // available = (total − peak) · fraction, the peak being weights + activations + non-torch memory [TRT-UTIL _cal_max_memory].
  const freeBytes = Math.max(0, gpu.bytes - weightBytes - runtimeBytes - stateBytes);
  const fractionSet = input.freeGpuMemoryFraction !== null || input.maxTokens === undefined;
  const fraction = fractionSet ? (input.freeGpuMemoryFraction ?? DEFAULT_FREE_GPU_MEMORY_FRACTION) : null;
  const budgets: Partial<Record<KvLimit, number>> = {};
  if (fraction !== null) budgets.free_gpu_memory_fraction = Math.floor(freeBytes * fraction);
  // max_tokens and max_gpu_total_bytes cap the pool; the minimum wins (formats.md K13; TRT-UTIL configure_kv_cache_capacity).
  if (input.maxTokens !== undefined) budgets.max_tokens = input.maxTokens * bpt;
  if (input.maxGpuTotalBytes !== undefined && input.maxGpuTotalBytes > 0) budgets.max_gpu_total_bytes = input.maxGpuTotalBytes;
  let limit: KvLimit = 'free_gpu_memory_fraction';
  let poolBytes = Infinity;
  for (const [k, v] of Object.entries(budgets) as [KvLimit, number][]) if (v < poolBytes) [limit, poolBytes] = [k, v];
  // A pool is allocated from free memory: a cap above it (max_tokens, max_gpu_total_bytes, a fraction over 1, which
  // RL-K1 reports) cannot be allocated, so the pool never exceeds what is free.
  if (poolBytes > freeBytes) {
    assumptions.push({
      what: `KV pool capped at the ${freeBytes} B free`,
      source: `${limit} asks for ${poolBytes} B, more than weights, runtime and state leave`,
      provenance: 'default',
    });
    poolBytes = freeBytes;
  }
  const poolTokens = Math.floor(poolBytes / bpt);
  const poolBlocks = Math.floor(poolTokens / tpb); // blocks_in_primary_pool = max_tokens // tokens_per_block [TRT-RM]
  // Helix: each CP rank caches every cp-th block of a sequence, so one request needs ceil(len / CP) tokens per rank.
  const cp = Math.max(1, input.cp ?? 1);
  const blocksPerSequence = Math.ceil(Math.ceil(input.maxSeqLen / cp) / tpb) * beam;
  if (cp > 1)
    assumptions.push({
      what: `KV cache split over CP ${cp}: a request of ${input.maxSeqLen} tokens keeps ${Math.ceil(input.maxSeqLen / cp)} per rank`,
      source:
        'Helix parallelism shards the KV cache of each sequence over the CP ranks of the generation servers (TensorRT-LLM cp_config HELIX)',
      provenance: 'default',
    });
  const hostBytes = input.hostCacheSize ?? 0;
  const hostTokens = Math.floor(hostBytes / bpt); // host_cache_size // bytes per token // tokens_per_block [TRT-RM]

  const windows = input.maxAttentionWindow;
  if (!windows && shape.slidingWindow)
    assumptions.push({
      what: 'all layers cached at full length',
      source: `${shape.name} declares ${shape.slidingWindow.window}-token windows, but without kv_cache_config.max_attention_window TRT-LLM sizes every layer for max_seq_len [TRT-RM: max_attention_window_vec = [max_seq_len]] [UNVERIFIED whether the model code sets it]`,
      provenance: 'default',
    });
  const pools = windows ? windowPools(perToken, windows, input.maxSeqLen, poolBytes, tpb, beam) : undefined;
  return {
    perToken,
    bytesPerToken: bpt,
    tokensPerBlock: tpb,
    bytesPerBlock: bpt * tpb,
    blocksPerSequence,
    weightBytes,
    runtimeBytes,
    stateBytes,
    fraction,
    freeBytes,
    budgets,
    limit,
    poolBytes,
    poolTokens,
    poolBlocks,
    allocatedBytes: poolBlocks * tpb * bpt,
    requestsAtMaxSeqLen: pools ? Math.min(...pools.map((p) => p.requests)) : Math.floor(poolBlocks / blocksPerSequence),
    host: { bytes: hostBytes, tokens: hostTokens, blocks: Math.floor(hostTokens / tpb) },
    windowPools: pools,
    assumptions,
  };
}

/**
 * VSWA: one pool per distinct window; a window's share of the budget is proportional to window × its bytes per token
 * [kvCacheManager.cpp BlockManager::calculateWindowSizeToShare]. A windowed layer needs ceil(window/tpb) + 1 blocks per
 * sequence (the extra block being written) [UNVERIFIED]. Which releases apply the split is not traced [UNVERIFIED].
 */
function windowPools(
  perToken: KvPerToken,
  windows: number[],
  maxSeqLen: number,
  poolBytes: number,
  tpb: number,
  beam: number,
): WindowPool[] {
  const perLayer = perToken.elements / Math.max(1, perToken.layers.length);
  const indexerPerLayer = (perToken.indexer?.bytes ?? 0) / Math.max(1, perToken.layers.length); // DSA indexer keys, averaged over the layers
  // Each window's layers and cache elements (Gemma 4 global layers hold more per token than the windowed ones).
  const groups = new Map<number, { n: number; elements: number }>();
  perToken.layers.forEach((layer, j) => {
    const w = Math.min(windows[layer % windows.length] ?? maxSeqLen, maxSeqLen);
    const gr = groups.get(w) ?? { n: 0, elements: 0 };
    groups.set(w, { n: gr.n + 1, elements: gr.elements + (perToken.layerElements?.[j] ?? perLayer) });
  });
  const weights = [...groups].map(([w, { n, elements }]) => ({
    w,
    n,
    bpt: kvBytesForElements(elements, perToken.dtype) + indexerPerLayer * n,
  }));
  const total = weights.reduce((s, g) => s + g.w * g.bpt, 0);
  return weights.map(({ w, n, bpt }) => {
    const share = (w * bpt) / total;
    const bytes = Math.floor(poolBytes * share);
    const tokens = Math.floor(bytes / bpt);
    const blocks = Math.floor(tokens / tpb);
    const perSeq = (Math.ceil(w / tpb) + (w < maxSeqLen ? 1 : 0)) * beam;
    return {
      window: w,
      layers: n,
      bytesPerToken: bpt,
      share,
      bytes,
      tokens,
      blocks,
      blocksPerSequence: perSeq,
      requests: Math.floor(blocks / perSeq),
    };
  });
}

// ---- KV retention (formats.md §7) ----

/** kDefaultRetentionPriority: blocks outside every range, and expired ranges, have priority 35 (executor.h). */
export const DEFAULT_RETENTION_PRIORITY = 35;
/**
 * secondary_offload_min_priority default: 30 in cpp/tensorrt_llm/batch_manager/evictionPolicy.cpp
 * (kDefaultSecondaryOffloadMinPriority) and the V2 retention doc; docs/source/features/kvcache.md says 35.
 * formats.md §9 item 5 records the conflict; the engine's 30 is used.
 */
export const DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY = 30;

export interface TokenRange {
  tokenStart: number;
  /** Exclusive; null/undefined = to the end of the prompt. */
  tokenEnd?: number | null;
  priority: number;
  durationMs?: number | null;
}

export interface RetentionOptions {
  decodeRetentionPriority?: number;
  decodeDurationMs?: number | null;
  secondaryOffloadMinPriority?: number;
}

export interface RetentionBlock {
  index: number;
  firstToken: number;
  endToken: number;
  priority: number;
  durationMs: number | null;
  /** Index into the ranges as given; null = no range (default priority). */
  range: number | null;
}

/** Prompt blocks listed one by one at most (2^16 blocks = 2M tokens at 32 per block). */
export const MAX_LISTED_BLOCKS = 1 << 16;

export interface RetentionCoverage {
  tokensPerBlock: number;
  /** True when the ranges cover more blocks than are listed (counts below cover the listed blocks). */
  truncated: boolean;
  /** Prompt blocks, known when the prompt length is given or every range is closed. */
  blocks: RetentionBlock[];
  perRange: { range: number; priority: number; firstBlock: number; endBlock: number | null; blocks: number | null }[];
  /** Prompt blocks per priority, lowest priority first. */
  perPriority: { priority: number; blocks: number }[];
  decodePriority: number;
  decodeDurationMs: number | null;
  /** Eviction order, lowest priority first (least recently used first within a level); expiring blocks revert to 35. */
  evictionOrder: { priority: number; blocks: number[]; decode: boolean; revertsAfterMs: number | null }[];
  secondaryOffloadMinPriority: number;
  /** Prompt blocks evicted without a host copy (priority below secondary_offload_min_priority). */
  notOffloaded: number[];
  decodeNotOffloaded: boolean;
}

/** Which blocks each retention range covers: a block belongs to the range holding its first token (formats.md RT8). */
export function retentionCoverage(
  ranges: TokenRange[],
  tokensPerBlock: number,
  promptTokens?: number,
  opts: RetentionOptions = {},
): RetentionCoverage {
  const tpb = tokensPerBlock;
  const threshold = opts.secondaryOffloadMinPriority ?? DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY;
  const decodePriority = opts.decodeRetentionPriority ?? DEFAULT_RETENTION_PRIORITY;
  const perRange = ranges.map((r, i) => {
    const firstBlock = Math.ceil(r.tokenStart / tpb);
    const end = r.tokenEnd ?? promptTokens;
    const endBlock = end === undefined ? null : Math.max(firstBlock, Math.ceil(end / tpb));
    return { range: i, priority: r.priority, firstBlock, endBlock, blocks: endBlock === null ? null : endBlock - firstBlock };
  });
  // Without a prompt length, blocks are listed up to the last closed range (or the start of an open-ended one).
  const open = perRange.filter((r) => r.endBlock === null).map((r) => r.firstBlock);
  const closed = perRange.map((r) => r.endBlock ?? 0);
  const wanted = promptTokens !== undefined ? Math.ceil(promptTokens / tpb) : open.length > 0 ? Math.min(...open) : Math.max(0, ...closed);
  // One entry per block: a range ending at token 10^12 must not allocate 3·10^10 of them; list the first MAX_LISTED_BLOCKS.
  const count = Math.min(wanted, MAX_LISTED_BLOCKS);
  // Which range each block takes: the simulator's per-block walk (kvsim/perBlock.ts), over the ranges sorted as
  // TensorRT-LLM sorts them; its range index maps back to the ranges as given.
  const sorted = ranges.map((r, i) => ({ r, i })).sort((a, b) => a.r.tokenStart - b.r.tokenStart);
  const walk = {
    ranges: sorted.map(({ r }) => ({
      tokenStart: r.tokenStart,
      tokenEnd: r.tokenEnd ?? null,
      priority: r.priority,
      durationMs: r.durationMs ?? null,
    })),
  };
  const rangeOf = new Int32Array(count);
  perBlockRetention(walk, tpb, count * tpb, new Int32Array(count), new Float64Array(count), rangeOf);
  const blocks: RetentionBlock[] = Array.from({ length: count }, (_, index) => {
    const first = index * tpb;
    const k = rangeOf[index]!;
    const i = k >= 0 ? sorted[k]!.i : -1;
    const r = i >= 0 ? ranges[i] : undefined;
    return {
      index,
      firstToken: first,
      endToken: promptTokens !== undefined ? Math.min(first + tpb, promptTokens) : first + tpb,
      priority: r?.priority ?? DEFAULT_RETENTION_PRIORITY,
      durationMs: r?.durationMs ?? null,
      range: i >= 0 ? i : null,
    };
  });
  const levels = new Map<string, { priority: number; blocks: number[]; decode: boolean; revertsAfterMs: number | null }>();
  const level = (priority: number, revertsAfterMs: number | null) => {
    const key = `${priority}/${revertsAfterMs}`;
    if (!levels.has(key)) levels.set(key, { priority, blocks: [], decode: false, revertsAfterMs });
    return levels.get(key)!;
  };
  for (const b of blocks) level(b.priority, b.durationMs).blocks.push(b.index);
  level(decodePriority, opts.decodeDurationMs ?? null).decode = true;
  const evictionOrder = [...levels.values()].sort((a, b) => a.priority - b.priority);
  const perPriority = [...new Set(blocks.map((b) => b.priority))]
    .sort((a, b) => a - b)
    .map((p) => ({ priority: p, blocks: blocks.filter((b) => b.priority === p).length }));
  return {
    tokensPerBlock: tpb,
    blocks,
    truncated: wanted > count,
    perRange,
    perPriority,
    decodePriority,
    decodeDurationMs: opts.decodeDurationMs ?? null,
    evictionOrder,
    secondaryOffloadMinPriority: threshold,
    notOffloaded: blocks.filter((b) => b.priority < threshold).map((b) => b.index),
    decodeNotOffloaded: decodePriority < threshold,
  };
}
