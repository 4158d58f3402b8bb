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
  'attention' | 'mlp' | 'experts' | 'shared-experts' | 'router' | 'norm' | 'mamba' | 'embedding' | 'positions' | 'output' | 'mtp';

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
 */
export type LayerKind = 'dense' | 'moe' | 'mamba' | 'attention' | 'mlp' | 'moe-mlp';
export const LAYER_KINDS: readonly LayerKind[] = ['dense', 'moe', 'mamba', 'attention', 'mlp', 'moe-mlp'];
/** The blocks a layer kind holds: self-attention (dense, moe, attention), a dense MLP (dense, mlp), an MoE block (moe, moe-mlp). */
export const hasAttention = (k: LayerKind) => k === 'dense' || k === 'moe' || k === 'attention';
export const hasDenseMlp = (k: LayerKind) => k === 'dense' || k === 'mlp';
export const hasMoe = (k: LayerKind) => k === 'moe' || k === 'moe-mlp';

export type KindCounts = Record<LayerKind, number>;
export const noKinds = (): KindCounts => ({ dense: 0, moe: 0, mamba: 0, attention: 0, mlp: 0, 'moe-mlp': 0 });

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

const g = (name: string, n: number, shard: Shard, gemm: boolean, category: ParamCategory, matrix = gemm): ParamGroup => ({
  name,
  n,
  shard,
  gemm,
  category,
  matrix,
});

/** Self-attention: GQA (q, k, v, o) or MLA projections, biases, sinks, q/k norms; the pre-attention norm. */
export function attentionGroups(m: ModelShape): ParamGroup[] {
  const h = m.hidden;
  const out: ParamGroup[] = [g('input norm', normParams(m, h), 'rep', false, 'norm')];
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
    return out;
  }
  const q = m.heads * m.headDim;
  const kv = m.kvHeads * m.headDim;
  // GQA: Q and O are h × heads·d, K and V h × kvHeads·d (Megatron theoretical_memory_usage.py `attn` with num_query_groups).
  out.push(g('qkv projection', h * (q + 2 * kv), 'tp', true, 'attention'));
  out.push(g('output projection', q * h, 'tp', true, 'attention'));
  // Column-parallel qkv bias is sharded; the row-parallel output bias is replicated (Megatron add_bias_linear / HF attention_bias).
  if (m.linearBias || m.attentionBias) out.push(g('qkv bias', q + 2 * kv, 'tp', false, 'attention'));
  if (m.linearBias || m.attentionBias === 'all') out.push(g('output bias', h, 'rep', false, 'attention'));
  if (m.attentionSinks) out.push(g('attention sinks', m.heads, 'tp', false, 'attention')); // one logit per head (gpt-oss `sinks`)
  if (m.qkNorm) out.push(g('q/k norms', 2 * normParams(m, m.headDim), 'rep', false, 'norm')); // per-head q_norm, k_norm (Qwen3)
  return out;
}

/** Dense MLP of width `ffn` with its pre-MLP norm; `shared` names a shared expert (TP-sharded like a dense MLP). */
export function mlpGroups(m: ModelShape, ffn: number, category: 'mlp' | 'shared-experts' = 'mlp', withNorm = true): ParamGroup[] {
  const h = m.hidden;
  const out: ParamGroup[] = [];
  if (withNorm) out.push(g('pre-MLP norm', normParams(m, h), 'rep', false, 'norm'));
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
  // Router h·E, replicated (Megatron theoretical_memory_usage.py); bias = gpt-oss router bias / DeepSeek-V3 e_score_correction_bias.
  out.push(g('router', h * E, 'rep', false, 'router', true));
  if (m.routerBias) out.push(g('router bias', E, 'rep', false, 'router'));
  // Latent MoE (HF Nemotron 3 Super `moe_latent_size`): experts work in a latent space entered and left through two projections.
  const w = m.moeLatentSize ?? h;
  if (m.moeLatentSize) out.push(g('latent projections', 2 * h * m.moeLatentSize, 'tp', true, 'mlp'));
  out.push(g('routed experts', E * mats * w * m.moeFfn, 'exp', true, 'experts'));
  if (m.expertBias || m.linearBias) out.push(g('expert biases', E * ((mats - 1) * m.moeFfn + w), 'exp', false, 'experts'));
  if (m.sharedExpertFfn > 0) out.push(...mlpGroups(m, m.sharedExpertFfn, 'shared-experts', false));
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

/** Parameter groups of one decoder layer of a kind. */
export function layerGroups(m: ModelShape, kind: LayerKind): ParamGroup[] {
  switch (kind) {
    case 'dense':
      return [...attentionGroups(m), ...mlpGroups(m, m.ffn)];
    case 'moe':
      return [...attentionGroups(m), ...moeGroups(m)];
    case 'mamba':
      return mambaGroups(m);
    case 'attention':
      return attentionGroups(m);
    case 'mlp':
      return mlpGroups(m, m.ffn);
    case 'moe-mlp':
      return moeGroups(m);
  }
}

/** One multi-token-prediction layer (Megatron multi_token_prediction.py; DeepSeek-V3 §2.2): enorm, hnorm, eh_proj, a decoder layer, its final norm. */
export function mtpGroups(m: ModelShape): ParamGroup[] {
  const h = m.hidden;
  return [
    g('MTP enorm + hnorm', 2 * normParams(m, h), 'rep', false, 'norm'),
    g('MTP eh_proj', 2 * h * h, 'tp', true, 'mtp'),
    ...layerGroups(m, lastLayerKind(m)),
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
  /** All layers: q/k/v/o (or MLA) projections, their biases, attention sinks. */
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
  const by = (c: ParamCategory) => {
    let n = 0;
    for (const k of LAYER_KINDS) if (kinds[k]) n += kinds[k] * sumGroups(layerGroups(s, k), (x) => x.category === c);
    return n;
  };
  const h = s.hidden;
  const outputLayer = s.tiedEmbeddings ? 0 : s.vocab * h;
  const embedding = s.vocab * h + outputLayer;
  const positions = s.positionEmbedding === 'learned_absolute' ? (s.maxPositionEmbeddings ?? 0) * h : 0;
  const norms = by('norm') + normParams(s, h); // + final norm
  const attention = by('attention');
  const denseMlp = by('mlp');
  const routedExperts = by('experts');
  const sharedExperts = by('shared-experts');
  const router = by('router');
  const mamba = by('mamba');
  const mtp = (s.mtpLayers ?? 0) * sumGroups(mtpGroups(s));
  const total = embedding + positions + attention + denseMlp + routedExperts + sharedExperts + router + mamba + norms;
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
    norms,
    denseLayers: kinds.dense,
    moeLayers: kinds.moe + kinds['moe-mlp'],
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
