// The parameter inventory: every parameter group of every layer kind, with how Megatron-Core shards it. The one place
// parameter counts are computed — the published-count check (the catalogue), the per-rank weights (weights.ts) and the
// planner read it. Shapes follow Megatron-Core's layer specs at NVIDIA/Megatron-LM@d98e8a64 (gpt_layer_specs.py,
// multi_latent_attention.py, ssm/mamba_mixer.py, multi_token_prediction.py) and the Hugging Face configs of the catalogue models.
import type { ModelShape } from './types.js';

/** How a group is laid out over the model-parallel ranks. */
export type Shard =
  /** Split over tensor parallelism (column/row-parallel weights, column-parallel biases, the vocab-parallel embedding). */
  | 'tp'
  /** Replicated on every TP rank (norms, routers, row-parallel biases, MLA down projections, learned positions). */
  | 'rep'
  /** Routed experts: split over EP × ETP. */
  | 'exp';

export type ParamCategory =
  | 'attention'
  | 'mlp'
  | 'experts'
  | 'shared-experts'
  | 'router'
  | 'norm'
  | 'mamba'
  | 'embedding'
  | 'positions'
  | 'output'
  | 'mtp'
  | 'per-layer-embedding';

export interface ParamGroup {
  name: string;
  n: number;
  shard: Shard;
  /** A GEMM weight: what an FP8/FP4 recipe quantizes and what LoRA can target. */
  gemm: boolean;
  category: ParamCategory;
  /**
   * A 2-D weight Muon orthogonalizes: every GEMM weight and the router, except the Mamba in_proj (use_muon = False);
   * embeddings, the output layer and 1-D parameters go to Muon's scalar optimizer (Megatron layer_wise_optimizer.py
   * is_managed_by_layer_wise_optimizer, emerging_optimizers.py _is_muon_excluded).
   */
  matrix: boolean;
}

/**
 * The kinds of decoder layer: a GPT layer is attention + dense MLP (`dense`) or attention + MoE (`moe`); a hybrid stack
 * (Megatron `hybrid_override_pattern`) has one mixer per layer: Mamba-2 (`M`), self-attention (`*`), MLP (`-`), MoE (`E`).
 * With linear attention (Qwen3-Next / Qwen3.5) the layers between the full-attention ones hold a Gated DeltaNet mixer in
 * place of self-attention: `gdn` (+ dense MLP) and `gdn-moe` (+ MoE).
 */
export type LayerKind = 'dense' | 'moe' | 'mamba' | 'attention' | 'mlp' | 'moe-mlp' | 'gdn' | 'gdn-moe';
export const LAYER_KINDS: readonly LayerKind[] = ['dense', 'moe', 'mamba', 'attention', 'mlp', 'moe-mlp', 'gdn', 'gdn-moe'];
/**
 * The blocks a layer kind holds: self-attention (dense, moe, attention), a Gated DeltaNet mixer (gdn, gdn-moe), a dense
 * MLP (dense, mlp, gdn), an MoE block (moe, moe-mlp, gdn-moe).
 */
export const hasAttention = (k: LayerKind) => k === 'dense' || k === 'moe' || k === 'attention';
export const hasGdn = (k: LayerKind) => k === 'gdn' || k === 'gdn-moe';
export const hasDenseMlp = (k: LayerKind) => k === 'dense' || k === 'mlp' || k === 'gdn';
export const hasMoe = (k: LayerKind) => k === 'moe' || k === 'moe-mlp' || k === 'gdn-moe';

export type KindCounts = Record<LayerKind, number>;
export const noKinds = (): KindCounts => ({ dense: 0, moe: 0, mamba: 0, attention: 0, mlp: 0, 'moe-mlp': 0, gdn: 0, 'gdn-moe': 0 });
/** MoE layers among the counted kinds. */
export const moeLayerCount = (k: KindCounts) => k.moe + k['moe-mlp'] + k['gdn-moe'];

const HYBRID: Record<string, LayerKind> = { M: 'mamba', '*': 'attention', '-': 'mlp', E: 'moe-mlp' };

/** The layer characters of a hybrid pattern, without pipeline (`|`) separators and the MTP part after `/` (Megatron hybrid_layer_pattern). */
export function hybridLayers(pattern: string): string {
  return (pattern.split('/')[0] ?? '').replace(/[|\s]/g, '');
}

/** RMSNorm has a weight; LayerNorm a weight and a bias (Megatron theoretical_memory_usage.py `norm_sz`). */
export const normParams = (m: ModelShape, width: number) => (m.norm === 'rmsnorm' ? width : 2 * width);

/** GEMM matrices of an MLP: gate, up and down when gated (SwiGLU/GEGLU), else up and down (Megatron `glu` 3/2). */
export const mlpMatrices = (m: ModelShape) => (m.gatedMlp ? 3 : 2);

/** Mamba-2 inner width d_inner = mamba_num_heads · mamba_head_dim (Megatron ssm/mamba_mixer.py). */
export const mambaInner = (m: ModelShape) => (m.mamba ? m.mamba.numHeads * m.mamba.headDim : 0);

/** Whether layer `i` (0-based) of a GPT stack is MoE: Megatron `moe_layer_freq` (int k: i % k == 0; list: explicit), after the leading dense layers. */
function isMoeLayer(m: ModelShape, i: number): boolean {
  if (m.experts <= 0 || i < m.denseLayersBeforeMoe) return false;
  const f = m.moeLayerFreq;
  if (Array.isArray(f)) return f[i] === 1;
  if (typeof f === 'number' && f > 1) return i % f === 0;
  return true;
}

/** Multiples of k in [a, b). */
const multiples = (k: number, a: number, b: number) => (b <= a ? 0 : Math.floor((b - 1) / k) - Math.floor((a - 1) / k));

/**
 * Whether layer `i` (0-based) is a Gated DeltaNet layer: of every `fullAttentionInterval` layers the last attends fully
 * (HF Qwen3-Next / Qwen3.5 `layer_types`: full_attention when (i + 1) % full_attention_interval == 0; Megatron
 * experimental_attention_variant_module_specs.py get_linear_attention_pattern with an int linear_attention_freq).
 */
export const isGdnLayer = (m: ModelShape, i: number): boolean =>
  !!m.linearAttention && (i + 1) % m.linearAttention.fullAttentionInterval !== 0;

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** Integers i in [a, b) with pred(i), for a predicate of period p: one loop over at most min(b − a, p) values. */
function countPeriodic(p: number, a: number, b: number, pred: (i: number) => boolean): number {
  if (b <= a) return 0;
  let n = 0;
  if (b - a <= p) {
    for (let i = a; i < b; i++) if (pred(i)) n++;
    return n;
  }
  // Residue r occurs at r + j·p in [a, b): multiples of p in [a − r, b − r).
  for (let r = 0; r < p; r++) if (pred(r)) n += multiples(p, a - r, b - r);
  return n;
}

/**
 * Layer kinds of layers [first, first + count): counted arithmetically for the usual placements (the layer count can be a
 * typo of 10⁹), looped only over an explicit list the file wrote.
 */
export function countKinds(m: ModelShape, first: number, count: number): KindCounts {
  const out = noKinds();
  if (count <= 0) return out;
  if (m.hybridPattern) {
    const p = hybridLayers(m.hybridPattern);
    for (let i = first; i < Math.min(first + count, p.length); i++) out[HYBRID[p[i]!] ?? 'dense']++;
    return out;
  }
  const end = first + count;
  let moe = 0;
  if (m.experts > 0) {
    const f = m.moeLayerFreq;
    const a = Math.max(first, m.denseLayersBeforeMoe);
    if (Array.isArray(f)) for (let i = a; i < Math.min(end, f.length); i++) moe += isMoeLayer(m, i) ? 1 : 0;
    else if (typeof f === 'number' && f > 1) moe = a < end ? multiples(f, a, end) : 0;
    else moe = Math.max(0, end - a);
  }
  out.moe = moe;
  out.dense = count - moe;
  const la = m.linearAttention;
  if (la && la.fullAttentionInterval > 1) {
    // Full-attention layers, and of them the MoE ones; every other layer is a Gated DeltaNet layer of the same MLP kind.
    const N = la.fullAttentionInterval;
    const full = multiples(N, first + 1, end + 1);
    let fullMoe = 0;
    if (moe > 0) {
      const f = m.moeLayerFreq;
      const a = Math.max(first, m.denseLayersBeforeMoe);
      if (Array.isArray(f)) for (let i = a; i < Math.min(end, f.length); i++) fullMoe += isMoeLayer(m, i) && !isGdnLayer(m, i) ? 1 : 0;
      else {
        const k = typeof f === 'number' && f > 1 ? f : 1;
        fullMoe = countPeriodic((k * N) / gcd(k, N), a, end, (i) => i % k === 0 && (i + 1) % N === 0);
      }
    }
    out.moe = fullMoe;
    out['gdn-moe'] = moe - fullMoe;
    out.dense = full - fullMoe;
    out.gdn = count - full - (moe - fullMoe);
  }
  return out;
}

/** The layer kinds a model holds, in LAYER_KINDS order. */
export const kindsPresent = (m: ModelShape): LayerKind[] => {
  const k = countKinds(m, 0, m.layers);
  return LAYER_KINDS.filter((x) => k[x] > 0);
};

/** The kind of the last decoder layer (what an MTP layer replicates, Megatron multi_token_prediction.py). */
export function lastLayerKind(m: ModelShape): LayerKind {
  const k = countKinds(m, m.layers - 1, 1);
  return LAYER_KINDS.find((x) => k[x] > 0) ?? 'dense';
}

// ---- Layers that differ within one kind (Gemma 4): global attention geometry, KV-shared layers ----

/** Period of the global layers: 1 without a window (every layer attends fully), 0 when every layer is windowed. */
function globalPeriod(m: ModelShape): number {
  const sw = m.slidingWindow;
  if (!sw) return 1;
  return m.slidingWindowPattern ?? (sw.everyOther ? 2 : 0);
}

/**
 * Whether layer `i` (0-based) attends fully: with a window, the last of every `slidingWindowPattern` layers (every other
 * with `everyOther`) — HF Gemma 2/3/4 layer_types "full_attention" when (i + 1) % pattern == 0, gpt-oss odd layers.
 */
export function isGlobalLayer(m: ModelShape, i: number): boolean {
  const p = globalPeriod(m);
  return p > 0 && (i + 1) % p === 0;
}

/** Global layers in [a, b). */
const globalsIn = (m: ModelShape, a: number, b: number) => {
  const p = globalPeriod(m);
  return p > 0 ? multiples(p, a + 1, b + 1) : 0;
};

/** The first KV-shared layer: HF Gemma 4 first_kv_shared_layer_idx = num_hidden_layers − num_kv_shared_layers (none unless > 0). */
export function firstKvSharedLayer(m: ModelShape): number {
  const n = m.kvSharedLayers ?? 0;
  return n > 0 && m.layers - n > 0 ? m.layers - n : m.layers;
}

/** Whether layer `i` reuses an earlier layer's keys and values (HF Gemma 4 Gemma4TextAttention.is_kv_shared_layer). */
export const isKvSharedLayer = (m: ModelShape, i: number) => i >= firstKvSharedLayer(m) && i < m.layers;

/** Whether the layers of one kind differ (Gemma 4 global geometry, KV-shared layers, double-wide MLPs). */
export const hasLayerVariants = (m: ModelShape): boolean => !!m.globalAttention || firstKvSharedLayer(m) < m.layers;

/** The attention of one layer: global (full) or windowed, with its own keys and values or an earlier layer's. */
export interface AttentionVariant {
  global: boolean;
  kvShared: boolean;
}

/** Attention variants of layers [first, first + count), counted arithmetically; omits empty ones. */
export function attentionVariants(m: ModelShape, first: number, count: number): { v: AttentionVariant; times: number }[] {
  const end = first + count;
  const s0 = Math.min(Math.max(first, firstKvSharedLayer(m)), end);
  const own = s0 - first;
  const shared = end - s0;
  const ownGlobal = globalsIn(m, first, s0);
  const sharedGlobal = globalsIn(m, s0, end);
  return [
    { v: { global: false, kvShared: false }, times: own - ownGlobal },
    { v: { global: true, kvShared: false }, times: ownGlobal },
    { v: { global: false, kvShared: true }, times: shared - sharedGlobal },
    { v: { global: true, kvShared: true }, times: sharedGlobal },
  ].filter((x) => x.times > 0);
}

/**
 * Query and key (= value) widths, heads · head dim, of the mean layer: Gemma 4 global layers use global_head_dim (and
 * their own KV heads), KV-shared layers compute no keys or values (HF Gemma4TextAttention reuses the earlier tensors).
 * For uniform models, heads · headDim and kvHeads · headDim.
 */
export function meanAttentionWidths(m: ModelShape): { q: number; kv: number } {
  if (!hasLayerVariants(m)) return { q: m.heads * m.headDim, kv: m.kvHeads * m.headDim };
  let q = 0;
  let kv = 0;
  for (const { v, times } of attentionVariants(m, 0, m.layers)) {
    const ga = v.global ? m.globalAttention : undefined;
    const d = ga?.headDim ?? m.headDim;
    q += times * m.heads * d;
    kv += v.kvShared ? 0 : times * (ga?.kvHeads ?? m.kvHeads) * d;
  }
  return { q: q / m.layers, kv: kv / m.layers };
}

/** Groups of several layer sets merged by name into one layer's mean (n = Σ times · n / Σ times). */
function meanGroups(sets: readonly { groups: readonly ParamGroup[]; times: number }[]): ParamGroup[] {
  const total = sets.reduce((a, x) => a + x.times, 0);
  const out = new Map<string, ParamGroup>();
  for (const { groups, times } of sets)
    for (const x of groups) {
      const prev = out.get(x.name);
      const n = (times * x.n) / total;
      out.set(x.name, prev ? { ...prev, n: prev.n + n } : { ...x, n });
    }
  return [...out.values()];
}

/**
 * Per-layer embeddings of one layer (HF Gemma 4 PLE; Megatron-Bridge gemma/modeling_gemma4.py _attach_ple_modules): its
 * vocab × width slice of the packed table (VocabParallelEmbedding) and its hidden × width slice of the model projection
 * (ColumnParallelLinear), both held with the embedding; its gate (hidden → width), projection (width → hidden) and norm
 * (nn.Linear / RMSNorm, replicated). The table's own norm (width) is model-level, in countParams.
 */
export function perLayerEmbeddingGroups(m: ModelShape): ParamGroup[] {
  const x = m.perLayerEmbedding;
  if (!x) return [];
  const h = m.hidden;
  return [
    g('per-layer embedding table (this layer’s slice)', x.vocab * x.width, 'tp', false, 'per-layer-embedding', false),
    g('per-layer model projection (this layer’s slice)', h * x.width, 'tp', false, 'per-layer-embedding', true),
    g('per-layer input gate + projection', 2 * h * x.width, 'rep', false, 'per-layer-embedding', true),
    g('per-layer input norm', normParams(m, h), 'rep', false, 'norm'),
  ];
}

/**
 * Mean MLP width of the dense layers: with use_double_wide_mlp the KV-shared ones are 2 · ffn wide (HF Gemma4TextMLP),
 * so the mean is exact over the model and an average within a pipeline stage.
 */
export function meanDenseFfn(m: ModelShape): number {
  if (!m.doubleWideSharedMlp) return m.ffn;
  const dense = countKinds(m, 0, m.layers).dense;
  const s0 = firstKvSharedLayer(m);
  const wide = countKinds(m, s0, m.layers - s0).dense;
  return dense > 0 ? (m.ffn * (dense + wide)) / dense : m.ffn;
}

const g = (name: string, n: number, shard: Shard, gemm: boolean, category: ParamCategory, matrix = gemm): ParamGroup => ({
  name,
  n,
  shard,
  gemm,
  category,
  matrix,
});

/**
 * Whether layer `i` (0-based) runs its own DSA indexer: every MLA layer, or with cross-layer top-k sharing only the layers
 * Megatron computes top-k on (experimental_attention_variant/dsa.py is_dsa_skip_topk_layer: with 1-based L, a layer reuses
 * an earlier top-k when max(L − max(offset, 1), 0) mod freq ≠ 0). MTP layers (i ≥ layers) hold their own indexer (the
 * GLM-5.2 checkpoint ships `model.layers.78.self_attn.indexer`).
 */
export function hasDsaIndexer(m: ModelShape, i: number): boolean {
  const d = m.dsa;
  if (!d || !m.mla) return false;
  const f = d.topKFreq ?? 1;
  if (f <= 1 || i >= m.layers) return true;
  return Math.max(i + 1 - Math.max(d.skipTopKOffset ?? 0, 1), 0) % f === 0;
}

/** Layers (of all `layers`) that run their own DSA indexer: the first max(offset, 1), then every freq-th (hasDsaIndexer in closed form). */
export function dsaIndexerLayerCount(m: ModelShape): number {
  const d = m.dsa;
  if (!d || !m.mla) return 0;
  const f = d.topKFreq ?? 1;
  if (f <= 1) return m.layers;
  const off = Math.max(d.skipTopKOffset ?? 0, 1);
  return Math.min(off, m.layers) + Math.max(0, Math.floor((m.layers - off) / f));
}

/**
 * Share of the layers of a kind that run their own DSA indexer (1 without top-k sharing). The parameter inventory is per
 * layer kind, so with sharing (GLM-5.2: 21 of 78 layers) a kind's indexer weights are averaged over its layers: exact over
 * the whole model, an average within a pipeline stage.
 */
export function dsaIndexerShare(m: ModelShape, kind: LayerKind): number {
  if (!m.dsa || !m.mla || !hasAttention(kind)) return 0;
  if ((m.dsa.topKFreq ?? 1) <= 1) return 1;
  const total = countKinds(m, 0, m.layers)[kind];
  if (!total) return 0;
  // A layer count written as a typo of 10⁹ is not looped over: the model-wide share stands in for the kind's.
  if (m.layers > 100_000) return dsaIndexerLayerCount(m) / m.layers;
  let n = 0;
  for (let i = 0; i < m.layers; i++) if (hasDsaIndexer(m, i) && countKinds(m, i, 1)[kind]) n++;
  return n / total;
}

/**
 * The DSA lightning indexer of one MLA layer, `share` of it (Megatron experimental_attention_variant/dsa.py DSAIndexer;
 * DeepSeek-V3.2-Exp inference/model.py Indexer): linear_wq_b q_lora_rank → index_n_heads · index_head_dim (hidden_size
 * without q LoRA), linear_wk hidden → index_head_dim, k_norm a LayerNorm with weight and bias (normalization "LayerNorm"
 * whatever the model's norm; the GLM-5 checkpoints ship `indexer.k_norm.bias`), linear_weights_proj hidden → index_n_heads.
 * No biases on the projections; all four are parallel_mode "duplicated": replicated on every TP rank.
 */
export function dsaIndexerGroups(m: ModelShape, share = 1): ParamGroup[] {
  const d = m.dsa;
  if (!d || !m.mla || share <= 0) return [];
  const qIn = m.mla.qLoraRank ?? m.hidden;
  return [
    g('DSA indexer wq_b', share * qIn * d.heads * d.headDim, 'rep', true, 'attention'),
    g('DSA indexer wk', share * m.hidden * d.headDim, 'rep', true, 'attention'),
    g('DSA indexer k_norm (LayerNorm)', share * 2 * d.headDim, 'rep', false, 'norm'),
    g('DSA indexer weights_proj', share * m.hidden * d.heads, 'rep', true, 'attention'),
  ];
}

/**
 * Self-attention: GQA (q, k, v, o) or MLA projections (+ the DSA indexer, `indexerShare` of it), biases, sinks, q/k
 * norms; the pre-attention norm (and the post-attention one with sandwich norms). When layers differ (Gemma 4 global
 * layers, KV-shared layers) `variant` picks one; without it the groups are the mean over the model's layers, exact over
 * all of them, an average within a pipeline stage.
 */
export function attentionGroups(m: ModelShape, indexerShare = 1, variant?: AttentionVariant): ParamGroup[] {
  if (!variant && hasLayerVariants(m))
    return meanGroups(attentionVariants(m, 0, m.layers).map(({ v, times }) => ({ groups: attentionGroups(m, indexerShare, v), times })));
  const h = m.hidden;
  const out: ParamGroup[] = [g('input norm', normParams(m, h), 'rep', false, 'norm')];
  // Sandwich norms: post_attention_layernorm on the attention output (HF Gemma2/3/4DecoderLayer).
  if (m.postNorms) out.push(g('post-attention norm', normParams(m, h), 'rep', false, 'norm'));
  if (m.mla) {
    const a = m.heads;
    const x = m.mla;
    const qHead = x.qkNopeHeadDim + x.qkRopeHeadDim;
    // MLA (DeepSeek-V2 §2.1; Megatron multi_latent_attention.py): the down projections are duplicated TELinear, the up and out projections TP-sharded.
    if (x.qLoraRank) {
      out.push(g('q down projection', h * x.qLoraRank, 'rep', true, 'attention'));
      out.push(g('q latent norm', normParams(m, x.qLoraRank), 'rep', false, 'norm'));
      out.push(g('q up projection', x.qLoraRank * a * qHead, 'tp', true, 'attention'));
    } else out.push(g('q projection', h * a * qHead, 'tp', true, 'attention'));
    out.push(g('kv down projection', h * (x.kvLoraRank + x.qkRopeHeadDim), 'rep', true, 'attention'));
    out.push(g('kv latent norm', normParams(m, x.kvLoraRank), 'rep', false, 'norm'));
    out.push(g('kv up projection', x.kvLoraRank * a * (x.qkNopeHeadDim + x.vHeadDim), 'tp', true, 'attention'));
    out.push(g('output projection', a * x.vHeadDim * h, 'tp', true, 'attention'));
    out.push(...dsaIndexerGroups(m, indexerShare));
    return out;
  }
  // Gemma 4 global layers: global_head_dim, and num_global_key_value_heads with attention_k_eq_v (HF Gemma4TextAttention).
  const ga = variant?.global ? m.globalAttention : undefined;
  const d = ga?.headDim ?? m.headDim;
  const q = m.heads * d;
  const kv = (ga?.kvHeads ?? m.kvHeads) * d;
  if (variant?.kvShared) {
    // A KV-shared layer has q_proj, q_norm and o_proj only: "Layers sharing kv states don't need any weight matrices" (HF Gemma4TextAttention).
    out.push(g('q projection', h * q, 'tp', true, 'attention'));
    out.push(g('output projection', q * h, 'tp', true, 'attention'));
    if (m.attentionBias) out.push(g('q bias', q, 'tp', false, 'attention'));
    if (m.attentionBias === 'all') out.push(g('output bias', h, 'rep', false, 'attention'));
    if (m.qkNorm) out.push(g('q norm', normParams(m, d), 'rep', false, 'norm'));
    return out;
  }
  // attention_k_eq_v: a global layer has no v_proj, V being the K projection (HF Gemma4TextAttention use_alternative_attention).
  const vOut = ga?.kEqV ? 0 : kv;
  // Gated attention: linear_qkv also emits a per-head output gate of heads·d (Megatron attention.py linear_qkv_out_dim with
  // attention_output_gate; HF Qwen3-Next / Qwen3.5 q_proj of width heads·head_dim·2).
  const qOut = m.attentionOutputGate ? 2 * q : q;
  // GQA: Q and O are h × heads·d, K and V h × kvHeads·d (Megatron theoretical_memory_usage.py `attn` with num_query_groups).
  out.push(g('qkv projection', h * (qOut + kv + vOut), 'tp', true, 'attention'));
  out.push(g('output projection', q * h, 'tp', true, 'attention'));
  // Column-parallel qkv bias is sharded; the row-parallel output bias is replicated (Megatron add_bias_linear / HF attention_bias).
  if (m.linearBias || m.attentionBias) out.push(g('qkv bias', qOut + kv + vOut, 'tp', false, 'attention'));
  if (m.linearBias || m.attentionBias === 'all') out.push(g('output bias', h, 'rep', false, 'attention'));
  if (m.attentionSinks) out.push(g('attention sinks', m.heads, 'tp', false, 'attention')); // one logit per head (gpt-oss `sinks`)
  // Full-width q_norm / k_norm over every head, split with the heads under TP (Megatron-Bridge minimax_m2_provider.py _FullDimRMSNorm).
  if (m.qkNorm === 'full') out.push(g('q/k norms', normParams(m, q + kv), 'tp', false, 'norm'));
  else if (m.qkNorm) out.push(g('q/k norms', 2 * normParams(m, d), 'rep', false, 'norm')); // per-head q_norm, k_norm (Qwen3)
  return out;
}

/** Dense MLP of width `ffn` with its pre-MLP norm; `shared` names a shared expert (TP-sharded like a dense MLP). */
export function mlpGroups(m: ModelShape, ffn: number, category: 'mlp' | 'shared-experts' = 'mlp', withNorm = true): ParamGroup[] {
  const h = m.hidden;
  const out: ParamGroup[] = [];
  if (withNorm) out.push(g('pre-MLP norm', normParams(m, h), 'rep', false, 'norm'));
  // Sandwich norms: post_feedforward_layernorm on the MLP output (HF Gemma2/3/4DecoderLayer).
  if (withNorm && m.postNorms) out.push(g('post-MLP norm', normParams(m, h), 'rep', false, 'norm'));
  out.push(g(category === 'mlp' ? 'MLP' : 'shared experts', mlpMatrices(m) * h * ffn, 'tp', true, category));
  if (m.linearBias) {
    out.push(g(`${category === 'mlp' ? 'MLP' : 'shared-expert'} fc1 bias`, (mlpMatrices(m) - 1) * ffn, 'tp', false, category));
    out.push(g(`${category === 'mlp' ? 'MLP' : 'shared-expert'} fc2 bias`, h, 'rep', false, category));
  }
  return out;
}

/** MoE block: pre-MLP norm, router (+ bias), routed experts (+ biases), shared experts. */
export function moeGroups(m: ModelShape): ParamGroup[] {
  const h = m.hidden;
  const E = m.experts;
  const mats = mlpMatrices(m);
  const out: ParamGroup[] = [g('pre-MLP norm', normParams(m, h), 'rep', false, 'norm')];
  if (m.postNorms) out.push(g('post-MLP norm', normParams(m, h), 'rep', false, 'norm'));
  // Router h·E, replicated (Megatron theoretical_memory_usage.py); bias = gpt-oss router bias / DeepSeek-V3 e_score_correction_bias.
  out.push(g('router', h * E, 'rep', false, 'router', true));
  if (m.routerBias) out.push(g('router bias', E, 'rep', false, 'router'));
  if (m.moeBranchNorms) {
    // Gemma 4: router `scale` (hidden) and `per_expert_scale` (E) beside proj; pre_feedforward_layernorm_2 and
    // post_feedforward_layernorm_1, _2 around the experts and the dense MLP (HF Gemma4TextRouter, Gemma4TextDecoderLayer).
    out.push(g('router scales', h + E, 'rep', false, 'router'));
    out.push(g('MoE branch norms', 3 * normParams(m, h), 'rep', false, 'norm'));
  }
  // Latent MoE (HF Nemotron 3 Super `moe_latent_size`): experts work in a latent space entered and left through two
  // projections, TELinear parallel_mode "duplicated" — whole on every TP rank (Megatron moe/moe_layer.py fc1/fc2_latent_proj).
  const w = m.moeLatentSize ?? h;
  if (m.moeLatentSize) out.push(g('latent projections', 2 * h * m.moeLatentSize, 'rep', true, 'mlp'));
  out.push(g('routed experts', E * mats * w * m.moeFfn, 'exp', true, 'experts'));
  if (m.expertBias || m.linearBias) out.push(g('expert biases', E * ((mats - 1) * m.moeFfn + w), 'exp', false, 'experts'));
  if (m.sharedExpertFfn > 0) out.push(...mlpGroups(m, m.sharedExpertFfn, 'shared-experts', false));
  // Sigmoid gate on the shared experts' output: a replicated [1, h] weight (Megatron moe/shared_experts.py gate_weight).
  if (m.sharedExpertGate && m.sharedExpertFfn > 0) out.push(g('shared-expert gate', h, 'rep', false, 'shared-experts', true));
  return out;
}

/** Mamba-2 mixer (Megatron ssm/mamba_mixer.py): fused norm + in_proj, depthwise conv1d with bias, A_log, D, dt_bias, gated RMSNorm, out_proj. */
export function mambaGroups(m: ModelShape): ParamGroup[] {
  const x = m.mamba;
  if (!x) return [g('input norm', normParams(m, m.hidden), 'rep', false, 'norm')];
  const h = m.hidden;
  const inner = mambaInner(m);
  const bc = 2 * x.groups * x.stateDim;
  return [
    g('input norm', normParams(m, h), 'rep', false, 'norm'),
    g('in_proj (z, x, B, C, dt)', h * (2 * inner + bc + x.numHeads), 'tp', true, 'mamba', false), // use_muon = False (mamba_mixer.py)
    g('conv1d (weight + bias)', (inner + bc) * (x.convKernel + 1), 'tp', false, 'mamba'),
    g('A_log, D, dt_bias', 3 * x.numHeads, 'tp', false, 'mamba'),
    g('gated norm', inner, 'tp', false, 'mamba'),
    g('out_proj', inner * h, 'tp', true, 'mamba'),
  ];
}

/**
 * Gated DeltaNet mixer of a linear-attention layer (Megatron ssm/gated_delta_net/common.py _GDNBase; HF modeling_qwen3_5.py
 * Qwen3_5GatedDeltaNet): the pre-norm fused into in_proj (TELayerNormColumnParallelLinear), in_proj for q, k (k_heads·d_k
 * each), v and the output gate z (v_heads·d_v each), β and α (v_heads each); the depthwise causal conv1d over q, k, v
 * without bias (conv_bias False; HF bias=False); A_log and dt_bias per value head; the gated RMSNorm over d_v, one weight
 * shared by every head and replicated (out_norm of hidden_size value_head_dim); out_proj. No projection biases (bias False).
 * in_proj, conv1d, A_log and dt_bias split over TP by heads (tensor_model_parallel, partition_dim 0); out_proj is row-parallel.
 */
export function gdnGroups(m: ModelShape): ParamGroup[] {
  const h = m.hidden;
  const out: ParamGroup[] = [g('input norm', normParams(m, h), 'rep', false, 'norm')];
  const x = m.linearAttention;
  if (!x) return out;
  const qk = x.keyHeads * x.keyHeadDim;
  const v = x.valueHeads * x.valueHeadDim;
  const conv = 2 * qk + v;
  out.push(g('GDN in_proj (q, k, v, z, β, α)', h * (conv + v + 2 * x.valueHeads), 'tp', true, 'attention'));
  out.push(g('GDN conv1d', conv * x.convKernel, 'tp', false, 'attention')); // [conv_dim, 1, kernel]: not a 2-D weight
  out.push(g('GDN A_log, dt_bias', 2 * x.valueHeads, 'tp', false, 'attention'));
  out.push(g('GDN gated norm', normParams(m, x.valueHeadDim), 'rep', false, 'norm'));
  out.push(g('GDN out_proj', v * h, 'tp', true, 'attention'));
  return out;
}

/**
 * Parameter groups of one decoder layer of a kind; `indexerShare` overrides the kind's DSA indexer share (an MTP layer has
 * its own). Where layers of a kind differ (Gemma 4), the mean layer of the kind (attentionGroups, meanDenseFfn).
 */
export function layerGroups(m: ModelShape, kind: LayerKind, indexerShare = dsaIndexerShare(m, kind)): ParamGroup[] {
  switch (kind) {
    case 'dense':
      return [...attentionGroups(m, indexerShare), ...mlpGroups(m, meanDenseFfn(m)), ...perLayerEmbeddingGroups(m)];
    case 'moe':
      return [...attentionGroups(m, indexerShare), ...moeGroups(m), ...perLayerEmbeddingGroups(m)];
    case 'mamba':
      return mambaGroups(m);
    case 'attention':
      return attentionGroups(m, indexerShare);
    case 'mlp':
      return mlpGroups(m, m.ffn);
    case 'moe-mlp':
      return moeGroups(m);
    case 'gdn':
      return [...gdnGroups(m), ...mlpGroups(m, m.ffn)];
    case 'gdn-moe':
      return [...gdnGroups(m), ...moeGroups(m)];
  }
}

/**
 * The decoder layers of one MTP depth: the hybrid characters of its pattern (Megatron hybrid_layer_allocation.py
 * parse_hybrid_pattern, the part after `/`; HF Nemotron-H mtp_hybrid_override_pattern), else one layer of the last
 * decoder layer's kind (multi_token_prediction.py builds the MTP layer from the decoder's layer spec).
 */
export function mtpKinds(m: ModelShape): LayerKind[] {
  return m.mtpPattern ? [...m.mtpPattern].map((ch) => HYBRID[ch] ?? 'dense') : [lastLayerKind(m)];
}

/** One MTP depth's pattern as a file or config.json writes it: its hybrid characters, or undefined when it holds others. */
export function mtpDepthPattern(x: unknown): string | undefined {
  const p = typeof x === 'string' ? x.replace(/[|\s]/g, '') : '';
  return p && [...p].every((ch) => ch in HYBRID) ? p : undefined;
}

/** MTP blocks with weights of their own among `depths` depths: one when it is repeated (Megatron mtp_use_repeated_layer). */
export const mtpWeightCopies = (m: ModelShape, depths: number): number => (m.mtpRepeated ? Math.min(1, depths) : depths);

/** One multi-token-prediction block (Megatron multi_token_prediction.py; DeepSeek-V3 §2.2): enorm, hnorm, eh_proj, its decoder layers, its final norm. */
export function mtpGroups(m: ModelShape): ParamGroup[] {
  const h = m.hidden;
  return [
    g('MTP enorm + hnorm', 2 * normParams(m, h), 'rep', false, 'norm'),
    g('MTP eh_proj', 2 * h * h, 'tp', true, 'mtp'),
    ...mtpKinds(m).flatMap((k) => layerGroups(m, k, 1)),
    g('MTP final norm', normParams(m, h), 'rep', false, 'norm'),
  ];
}

export const sumGroups = (gs: readonly ParamGroup[], pick: (x: ParamGroup) => boolean = () => true) =>
  gs.reduce((a, x) => a + (pick(x) ? x.n : 0), 0);

export interface ParamCount {
  /** Main model (decoder, embeddings, final norm); MTP layers are in `mtp`. */
  total: number;
  /** Multi-token-prediction layers (they share the embedding and output layer). */
  mtp: number;
  /** Input embedding, plus the output layer when untied. */
  embedding: number;
  /** Output layer alone (0 when tied). */
  outputLayer: number;
  /** Learned absolute position embeddings (0 with RoPE). */
  positions: number;
  /** All layers: q/k/v/o (or MLA) projections, their biases, attention sinks; Gated DeltaNet mixers (norms excluded). */
  attention: number;
  /** Dense MLPs (every layer of a dense model; the leading dense layers of an MoE model; hybrid MLP layers). */
  denseMlp: number;
  /** Routed experts of all MoE layers (weights and expert biases). */
  routedExperts: number;
  sharedExperts: number;
  /** Router weights (h · E) and router biases. */
  router: number;
  /** Mamba-2 mixers (norms excluded). */
  mamba: number;
  /** Per-layer embeddings (Gemma 4 PLE): the table, its model projection, each layer's gate and projection (norms excluded). */
  perLayerEmbedding: number;
  /** Layer norms, q/k norms, MLA latent norms and the final norm. */
  norms: number;
  denseLayers: number;
  moeLayers: number;
  kinds: KindCounts;
  /** One layer of each GPT kind. */
  perLayer: { attention: number; norms: number; denseMlp: number; moe: number };
}

/** Exact parameter count as Hugging Face stores it (unpadded vocabulary). */
export function countParams(s: ModelShape): ParamCount {
  const kinds = countKinds(s, 0, s.layers);
  // Each kind's groups once (the DSA indexer share and the Gemma 4 mean layer walk the layers), summed per category below.
  const groups = LAYER_KINDS.filter((k) => kinds[k]).map((k) => ({ times: kinds[k], groups: layerGroups(s, k) }));
  const by = (c: ParamCategory) => {
    let n = 0;
    for (const x of groups) n += x.times * sumGroups(x.groups, (y) => y.category === c);
    // A DSA indexer shared over layers is averaged per kind (dsaIndexerShare), and so are layers that differ within a kind
    // (Gemma 4 global and KV-shared layers, attentionGroups): whole counts again over all the layers.
    return Math.round(n);
  };
  const h = s.hidden;
  const outputLayer = s.tiedEmbeddings ? 0 : s.vocab * h;
  const embedding = s.vocab * h + outputLayer;
  const positions = s.positionEmbedding === 'learned_absolute' ? (s.maxPositionEmbeddings ?? 0) * h : 0;
  // + final norm; + the per-layer-embedding projection norm (HF Gemma 4 per_layer_projection_norm, model-level).
  const norms = by('norm') + normParams(s, h) + (s.perLayerEmbedding ? normParams(s, s.perLayerEmbedding.width) : 0);
  const attention = by('attention');
  const denseMlp = by('mlp');
  const routedExperts = by('experts');
  const sharedExperts = by('shared-experts');
  const router = by('router');
  const mamba = by('mamba');
  const perLayerEmbedding = by('per-layer-embedding');
  const mtp = mtpWeightCopies(s, s.mtpLayers ?? 0) * sumGroups(mtpGroups(s));
  const total = embedding + positions + attention + denseMlp + routedExperts + sharedExperts + router + mamba + perLayerEmbedding + norms;
  const attn = attentionGroups(s);
  return {
    total,
    mtp,
    embedding,
    outputLayer,
    positions,
    attention,
    denseMlp,
    routedExperts,
    sharedExperts,
    router,
    mamba,
    perLayerEmbedding,
    norms,
    denseLayers: kinds.dense + kinds.gdn,
    moeLayers: moeLayerCount(kinds),
    kinds,
    perLayer: {
      attention: sumGroups(attn, (x) => x.category === 'attention'),
      norms: sumGroups(layerGroups(s, s.experts > 0 ? 'moe' : 'dense'), (x) => x.category === 'norm'),
      denseMlp: sumGroups(mlpGroups(s, s.ffn), (x) => x.category === 'mlp'),
      moe: s.experts > 0 ? sumGroups(moeGroups(s), (x) => x.category !== 'norm') : 0,
    },
  };
}

/** Parameters one rank holds of a set of groups, split the way the optimizer shards them. */
export interface RankParams {
  /** Non-expert parameters on this rank (TP-sharded ones divided by TP). */
  dense: number;
  /** Of `dense`, GEMM weights. */
  denseGemm: number;
  /** Routed-expert parameters on this rank (divided by EP · ETP). */
  experts: number;
  /** Of `experts`, GEMM weights. */
  expertGemm: number;
  /** Of `dense` and `experts`, the 2-D weights Muon orthogonalizes (ParamGroup.matrix). */
  denseMatrix: number;
  expertMatrix: number;
}

export const noRankParams = (): RankParams => ({ dense: 0, denseGemm: 0, experts: 0, expertGemm: 0, denseMatrix: 0, expertMatrix: 0 });

/** Per-rank share of parameter groups, `times` copies of them. */
export function rankShare(gs: readonly ParamGroup[], tp: number, ep: number, etp: number, times = 1): RankParams {
  const out = noRankParams();
  if (times === 0) return out;
  for (const x of gs) {
    if (x.shard === 'exp') {
      const n = (times * x.n) / (ep * etp);
      out.experts += n;
      if (x.gemm) out.expertGemm += n;
      if (x.matrix) out.expertMatrix += n;
    } else {
      const n = (times * x.n) / (x.shard === 'tp' ? tp : 1);
      out.dense += n;
      if (x.gemm) out.denseGemm += n;
      if (x.matrix) out.denseMatrix += n;
    }
  }
  return out;
}

export function addRankParams(a: RankParams, b: RankParams): RankParams {
  return {
    dense: a.dense + b.dense,
    denseGemm: a.denseGemm + b.denseGemm,
    experts: a.experts + b.experts,
    expertGemm: a.expertGemm + b.expertGemm,
    denseMatrix: a.denseMatrix + b.denseMatrix,
    expertMatrix: a.expertMatrix + b.expertMatrix,
  };
}
