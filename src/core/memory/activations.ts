// Activation memory held for backward, per layer kind and per micro-batch, and the transient buffers of one running
// layer. Units: bytes. s is the local sequence (s / CP: CP splits every activation, Megatron context_parallel docs); with
// sequence parallelism the norm/residual regions hold s/TP tokens (Korthikanti et al. 2022 §4.2.2).
// Megatron profile: what Megatron-Core with Transformer Engine saves (NVIDIA/Megatron-LM@d98e8a64: transformer_layer.py,
// attention.py, multi_latent_attention.py, moe/{router,token_dispatcher,experts,moe_utils,shared_experts}.py,
// ssm/mamba_mixer.py; memory.md §2.4 re-derivation of Korthikanti Table 2). HF profile: hf-activations.md (measured).
import { LORA_DEFAULT_TARGETS, type OffloadModule, type TrainingConfig } from './config.js';
import {
  dsaIndexerShare,
  hasAttention,
  hasDenseMlp,
  hasGdn,
  hasLayerVariants,
  hasMoe,
  mambaInner,
  meanAttentionWidths,
  meanDenseFfn,
  mtpKinds,
  type LayerKind,
} from './params.js';
import { NVFP4_BF16_LAYER_FRACTION, PRECISIONS } from './precision.js';
import type { ModelShape } from './types.js';

export interface ActivationTerm {
  label: string;
  bytes: number;
  /** Formula in words, with its source. */
  formula: string;
}

/**
 * The part of a layer a CUDA graph can capture (Megatron TransformerConfig.cuda_graph_modules): attention, dense MLP, MoE
 * router (with the shared experts), MoE preprocess (permutation), routed experts, Mamba mixer. `other` is never captured alone.
 */
export type LayerModule = 'attn' | 'mlp' | 'moe_router' | 'moe_preprocess' | 'moe_experts' | 'mamba' | 'other';

/** One layer kind, one micro-batch: bytes saved for backward, and transient bytes while its forward / backward runs. */
export interface KindActivations {
  stored: number;
  fwd: number;
  bwd: number;
  terms: ActivationTerm[];
  /** Saved bytes by the module that saves them (Megatron profile; empty for hf). */
  byModule: Partial<Record<LayerModule, number>>;
  /** Of `stored`, what fine-grained activation offloading moves to the host (0 without it). */
  offloaded: number;
  /** Bytes the layer asks of Megatron's global memory buffer "mpu", which keeps its largest size between steps. */
  globalBuffer: number;
  /** hf dense layers: what stays saved outside the wrapped submodules under submodule checkpointing (hfLayer). */
  unwrapped?: number;
}

export interface LayerActivations {
  dense: number;
  moe: number;
  terms: ActivationTerm[];
  /** hf profile: of `dense`, what stays saved outside the submodules Automodel's submodule checkpointing wraps. */
  unwrapped?: number;
}

/** Bytes of a saved linear-layer input under the file's precision recipe (TE saves the quantized copy). */
export function savedInputBytes(c: TrainingConfig): number {
  if (c.params === 'fp32') return 4;
  if (c.fp4) {
    const q = PRECISIONS[c.fp4].savedInputBytes;
    // NVFP4 keeps ~15% of linear layers in BF16 (NVFP4 paper) unless first_last_layers_bf16 says which; averaged over the layers.
    return c.fp4 === 'nvfp4' && !c.bf16Layers ? (1 - NVFP4_BF16_LAYER_FRACTION) * q + NVFP4_BF16_LAYER_FRACTION * 2 : q;
  }
  if (c.fp8) return PRECISIONS[`fp8-${c.fp8}`].savedInputBytes;
  return 2;
}

const actBytes = (c: TrainingConfig) => (c.params === 'fp32' ? 4 : 2);

/** Tokens a rank's experts process per micro-batch, relative to its local tokens: top-k copies, all-gathered over ETP (token_dispatcher.py), capped by a capacity factor. */
export function expertTokenFactor(m: ModelShape, c: TrainingConfig): number {
  const cf = c.moe?.capacityFactor;
  // Dropless routing is taken as balanced: every rank receives k·T tokens (moe_router_force_load_balancing); a capacity
  // factor f caps each expert at f·T·k/E tokens, and moe_pad_expert_input_to_capacity pads every expert to that cap.
  const capacity = cf ? (c.moe?.padToCapacity ? cf : Math.min(1, cf)) : 1;
  return m.topK * c.etp * capacity;
}

interface Ctx {
  m: ModelShape;
  c: TrainingConfig;
  s: number;
  b: number;
  t: number;
  h: number;
  /** Tokens of the norm / residual regions on this rank: s·b/TP with SP. */
  rep: number;
  e: number;
  /** Bytes per element of a saved GEMM input: dense linears (`lin`) and routed experts (`linE`), quantized where the recipe covers them. */
  lin: number;
  linE: number;
  mods: Set<string>;
  /** A saved tensor; `off`: the offload_modules group whose context saves it (fine-grained activation offloading). */
  add: (label: string, bytes: number, formula: string, off?: OffloadModule) => number;
  /** The module the following add() calls belong to. */
  at: (module: LayerModule) => void;
  byModule: Partial<Record<LayerModule, number>>;
  byOffload: Partial<Record<OffloadModule, number>>;
}

const fmt = (x: number) => String(+x.toFixed(4));

/**
 * The score matrix unfused attention keeps (a·s²·b/t per layer): the softmax output (TE FusedScaleMaskSoftmax saves it),
 * and with attention dropout its mask (1 byte) and output (Korthikanti et al. 2022 Table 2: 5as²b). `core_attn` recompute
 * drops them.
 */
function scores(x: Ctx): number {
  const { m, c, s, b, t, e, mods, add } = x;
  if (mods.has('core_attn')) return 0;
  const s2 = (m.heads * s * s * b) / t;
  let a = add('softmax output', e * s2, `${e}·a·s²·b/t`, 'core_attn');
  if (c.attentionDropout > 0) a += add('attention dropout mask + output', 3 * s2, '(1+2)·a·s²·b/t', 'core_attn');
  return a;
}

/**
 * `layernorm` recompute of the pre-MLP norm of an MoE layer (a separate TENorm there; fused into TE LayerNormMLP /
 * LayerNormLinear in dense layers, where the option does nothing). Megatron disables it when TE graphs capture the MoE
 * router, unless they also capture the preprocess with the alltoall dispatcher (transformer_layer.py
 * can_recompute_pre_mlp_layernorm_for_cudagraph).
 */
function preMlpNormRecomputed(c: TrainingConfig, mods: Set<string>): boolean {
  if (!mods.has('layernorm')) return false;
  const g = c.cudaGraph;
  if (!g || g.impl !== 'transformer_engine' || !g.scope.includes('moe_router')) return true;
  return g.scope.includes('moe_preprocess') && c.moe?.dispatcher === 'alltoall';
}

/** Self-attention with its input norm: GQA (TE LayerNormLinear + fused / flash attention) or MLA. */
function attentionBlock(x: Ctx, indexerShare = 0): { stored: number; fwd: number; bwd: number } {
  const { m, c, s, b, t, h, rep, e, lin, mods, add } = x;
  const sbh = s * b * h;
  const sp = c.sp && c.profile === 'megatron' ? '/t' : '';
  x.at('attn');
  let a = 0;
  // The input norm is its own module under MLA and Megatron's local layers; TE fuses it into linear_qkv (LayerNormLinear),
  // so the residual is saved inside the qkv_linear group and attn_norm has nothing to offload (an IdentityOp).
  const separateNorm = !!m.mla || c.transformerImpl === 'local';
  a += add('LN1 input (residual)', e * sbh * rep, `${e}·sbh${sp} — norm backward`, separateNorm ? 'attn_norm' : 'qkv_linear');
  if (m.mla) {
    const q = m.mla;
    const heads = m.heads;
    // MLA: the input norm is a separate TENorm (no fused LN-linear), so `layernorm` recompute discards its output.
    if (!mods.has('layernorm')) a += add('LN1 output (q/kv down-projection input)', lin * sbh * rep, `${fmt(lin)}·sbh${sp}`, 'qkv_linear');
    const sbRep = s * b * rep;
    if (q.qLoraRank)
      a += add(
        'q latent (norm input + q up-projection input)',
        (e + lin) * sbRep * q.qLoraRank,
        `(${e}+${fmt(lin)})·s·b·q_lora_rank${sp}`,
        'qkv_linear',
      );
    a += add(
      'kv latent (down-projection output + normed kv up-projection input)',
      e * sbRep * (q.kvLoraRank + q.qkRopeHeadDim) + lin * sbRep * q.kvLoraRank,
      `${e}·s·b·(kv_lora_rank + qk_rope_head_dim)${sp} + ${fmt(lin)}·s·b·kv_lora_rank${sp}`,
      'qkv_linear',
    );
    const qk = q.qkNopeHeadDim + q.qkRopeHeadDim;
    if (!mods.has('mla_up_proj'))
      // query, key (RoPE applied, concatenated) and the contiguous value the core attention saves; mla_up_proj discards them (CheckpointWithoutOutput).
      a += add(
        'Q, K, V after up-projection and RoPE',
        (e * s * b * heads * (2 * qk + q.vHeadDim)) / t,
        `${e}·s·b·a·(2·${qk} + ${q.vHeadDim})/t`,
        'core_attn',
      );
    a += add('attention output (proj input)', (e * s * b * heads * q.vHeadDim) / t, `${e}·s·b·a·v_head_dim/t`, 'attn_proj');
    if (lin !== e)
      a += add('proj input, quantized copy', (lin * s * b * heads * q.vHeadDim) / t, `${fmt(lin)}·s·b·a·v_head_dim/t`, 'attn_proj');
    const unfused = c.attention === 'eager' && c.profile === 'megatron';
    if (unfused) a += scores(x);
    else if (!mods.has('core_attn'))
      a += add('softmax log-sum-exp (fp32)', (4 * heads * s * b) / t, '4·a·s·b/t — FlashAttention / cuDNN stats', 'core_attn');
    const idx = dsaIndexerBlock(x, indexerShare);
    a += idx.stored;
    const bwd = unfused ? (2 * e * heads * s * s * b) / t : (e * s * b * heads * (2 * qk + q.vHeadDim)) / t;
    return { stored: a, fwd: 0, bwd: Math.max(bwd, idx.bwd) };
  }
  // Q and K widths of the mean layer (Gemma 4: wider global heads, no K/V of their own in KV-shared layers).
  const widths = meanAttentionWidths(m);
  const qd = widths.q / h;
  const kv = widths.kv / h;
  a += add(
    'QKV GEMM input (LN1 output)',
    lin * sbh * rep,
    `${fmt(lin)}·sbh${sp} — saved for the weight gradient (TE LayerNormLinear)`,
    'qkv_linear',
  );
  if (m.qkNorm && c.profile === 'megatron') {
    // q_layernorm / k_layernorm (TE RMSNorm) run on the Q and K views of the fused QKV output and save a contiguous copy of
    // their input and the fp32 rstd of every normalised row: per head, or per token with a full-width norm (Megatron
    // attention.py get_query_key_value_tensors; TransformerEngine ops/basic/rmsnorm.py saves x and rstdevs).
    const rows = m.qkNorm === 'full' ? 2 : m.heads + m.kvHeads;
    a += add(
      'Q, K norm inputs and rstd (fp32)',
      (e * sbh * (qd + kv)) / t + (4 * s * b * rows) / t,
      `${e}·sbh·(a+g)·d/(h·t) + 4·s·b·${m.qkNorm === 'full' ? '2' : '(a+g)'}/t — qk_layernorm`,
    );
  }
  if (c.attention === 'flash' || c.profile !== 'megatron') {
    // TE makes V contiguous (its view into the fused QKV output matches no supported layout), so the fused output is freed.
    a += add('V (contiguous copy)', (e * sbh * kv) / t, `${e}·sbh·g·d/(h·t)`, 'core_attn');
    a += add('Q, K after RoPE', (e * sbh * (qd + kv)) / t, `${e}·sbh·(a+g)·d/(h·t)`, 'core_attn');
    const o = m.attentionOutputGate ? 'attention output O (flash saves it; gate input)' : 'attention output O (flash saves it; proj input)';
    a += add(o, (e * sbh * qd) / t, `${e}·sbh·a·d/(h·t)`, 'attn_proj');
    a += projInput(x, qd);
    // core_attn recompute under flash attention drops only the statistics (Bridge activation-recompute study: −0.01%).
    if (!mods.has('core_attn'))
      a += add('softmax log-sum-exp (fp32)', (4 * m.heads * s * b) / t, '4·a·s·b/t — FlashAttention / cuDNN stats', 'core_attn');
  } else {
    // TE UnfusedDotProductAttention (attention/dot_product_attention/backends.py): with GQA, K and V are first repeated to
    // every head (repeat_interleave); baddbmm saves Q and K, bmm(probs, V) saves V; the permuted context is the projection input.
    // With core_attn recompute the checkpoint keeps its inputs Q, K, V instead (Megatron _checkpointed_attention_forward).
    const repeated = m.kvHeads < m.heads && !mods.has('core_attn');
    const kvSaved = repeated ? qd : kv;
    const w = repeated ? 'a' : 'g';
    a += add(
      repeated ? 'Q, K repeated to all heads (GQA)' : 'Q, K',
      (e * sbh * (qd + kvSaved)) / t,
      `${e}·sbh·(a + ${w})·d/(h·t)`,
      'core_attn',
    );
    a += add(repeated ? 'V repeated to all heads (GQA)' : 'V', (e * sbh * kvSaved) / t, `${e}·sbh·${w}·d/(h·t)`, 'core_attn');
    a += add(
      m.attentionOutputGate ? 'context (gate input)' : 'context (proj input)',
      (e * sbh * qd) / t,
      `${e}·sbh·a·d/(h·t)`,
      'attn_proj',
    );
    a += projInput(x, qd);
    a += scores(x);
  }
  a += residualDropoutMask(x);
  // Context parallelism (TE p2p ring): K and V of every step are kept until the attention call returns.
  let fwd = 0;
  if (c.cp > 1 && c.profile === 'megatron') fwd = 2 * s * c.cp * b * Math.ceil(m.kvHeads / t) * m.headDim * e;
  // Backward working set: unfused attention holds the gradients of the probabilities and of the scores (a·s² each);
  // flash attention the gradients of Q, K and V (and of the output gate).
  const gq = m.attentionOutputGate ? 2 * qd : qd;
  const bwd = c.attention === 'flash' || c.profile !== 'megatron' ? (e * sbh * (gq + 2 * kv)) / t : (2 * e * m.heads * s * s * b) / t;
  return { stored: a, fwd, bwd };
}

/**
 * What the output projection's input adds to the attention output: without a gate, its quantized copy under FP8/FP4 (TE
 * saves it); with gated attention (Megatron attention.py _apply_output_gate, jit-fused x · sigmoid(gate)) the product saves
 * the contiguous gate beside the attention output, and the gated output is a new tensor the projection saves.
 */
function projInput(x: Ctx, qd: number): number {
  const { m, s, b, h, t, e, lin, add } = x;
  const sbh = s * b * h;
  if (!m.attentionOutputGate)
    return lin !== e ? add('proj input, quantized copy', (lin * sbh * qd) / t, `${fmt(lin)}·sbh·a·d/(h·t)`, 'attn_proj') : 0;
  return (
    add('output gate (sigmoid input)', (e * sbh * qd) / t, `${e}·sbh·a·d/(h·t) — attention.py _apply_output_gate`) +
    add('gated output (proj input)', (lin * sbh * qd) / t, `${fmt(lin)}·sbh·a·d/(h·t) — saved by linear_proj`, 'attn_proj')
  );
}

/**
 * The DSA lightning indexer of an MLA layer, `share` of it (the layers that run one), as Megatron-Core trains it with the
 * indexer loss on (experimental_attention_variant/dsa.py DSAttention.forward, dsa_indexer_loss_coeff > 0 as
 * Megatron-Bridge glm5_bridge.py sets it, 0.001 with the sparse loss). Its inputs x and qr are detached, so only the
 * indexer's own tensors stay: FusedDSAIndexerLoss saves q (index_n_heads · index_head_dim per token), the head weights
 * (index_n_heads) and k (index_head_dim, all-gathered over CP), and the top-k indices (torch.topk int64; the sparse
 * attention reuses them); k_norm (TE LayerNorm) saves its input, mean and rstd. The indexer linears are duplicated over TP
 * (every rank computes every token: no /t) and save their inputs: the tensors MLA already holds, except under sequence
 * parallelism (all-gathered copies of x and qr) or FP8/FP4 (each TE Linear its own quantized copy: x twice, for wk and
 * weights_proj). The s × s index scores per indexer head are never saved: FusedDSAIndexerLoss recomputes them in backward
 * (the cuDNN fused kernel saves the indexer gradients instead, of the same sizes). Their transient — fp32 s·b·s_kv per
 * indexer head on the reference path (dsa_kernel_backend "none"), chunked by the cuDNN / TileLang kernels — is not counted
 * [UNVERIFIED peak], nor does the core attention of a DSA layer (absorbed MLA + sparse MLA kernel) differ here from the
 * dense MLA core it replaces [UNVERIFIED]. `core_attn` recompute checkpoints the whole DSAttention: nothing stays.
 */
function dsaIndexerBlock(x: Ctx, share: number): { stored: number; bwd: number } {
  const { m, c, s, b, h, e, lin, mods, add } = x;
  const d = m.dsa;
  if (!d || !m.mla || share <= 0 || mods.has('core_attn')) return { stored: 0, bwd: 0 };
  const sb = s * b;
  const of = share < 1 ? ` × ${fmt(share)} (share of the layers running an indexer)` : '';
  const qIn = m.mla.qLoraRank ?? h;
  let a = add(
    'DSA indexer: q and head weights',
    share * e * sb * d.heads * (d.headDim + 1),
    `${e}·s·b·index_n_heads·(index_head_dim + 1)${of} — dsa.py FusedDSAIndexerLoss.save_for_backward`,
    'core_attn',
  );
  a += add(
    'DSA indexer: k, k_norm input, mean and rstd',
    share * (e * sb * c.cp * d.headDim + e * sb * d.headDim + 8 * sb),
    `${e}·s·${c.cp > 1 ? 'CP·' : ''}b·index_head_dim + ${e}·s·b·index_head_dim + 8·s·b${of} — k (gathered over CP) and the TE LayerNorm`,
    'core_attn',
  );
  a += add(
    'DSA indexer: top-k indices (int64)',
    share * 8 * sb * d.topK,
    `8·s·b·index_topk${of} — torch.topk indices, kept for the indexer loss and the sparse attention`,
    'core_attn',
  );
  const quantized = lin !== e;
  const gathered = c.sp && c.tp > 1;
  if (quantized || gathered)
    a += add(
      'DSA indexer: linear inputs (own copies)',
      share * lin * sb * ((quantized ? 2 : 1) * h + qIn),
      `${fmt(lin)}·s·b·(${quantized ? '2·' : ''}h + ${m.mla.qLoraRank ? 'q_lora_rank' : 'h'})${of} — ${quantized ? 'each duplicated TE Linear quantizes its input' : 'x and qr all-gathered over TP (sequence parallelism)'}`,
      'core_attn',
    );
  // Backward: the gradients of q, the head weights and k (FusedDSAIndexerLoss.backward), one layer at a time.
  return { stored: a, bwd: share * e * sb * (d.heads * (d.headDim + 1) + c.cp * d.headDim) };
}

/** Dense MLP (TE LayerNormMLP): LN2 input and output, FC1 output (both halves when gated), FC2 input. */
function mlpBlock(x: Ctx, ffn: number, label: string, withNorm: boolean, recompute: boolean): { stored: number; bwd: number } {
  const { m, c, s, b, t, h, rep, e, lin, add } = x;
  const sbh = s * b * h;
  const sp = c.sp && c.profile === 'megatron' ? '/t' : '';
  x.at('mlp');
  let d = 0;
  // TE fuses the pre-MLP norm into linear_fc1 (pre_mlp_layernorm an IdentityOp: nothing for mlp_norm to offload).
  if (withNorm)
    d += add(`${label}: LN2 input (residual)`, e * sbh * rep, `${e}·sbh${sp}`, c.transformerImpl === 'local' ? 'mlp_norm' : undefined);
  const g = m.gatedMlp ? 2 : 1;
  // Backward working set of the block: gradients of FC1 output and FC1 input (one layer at a time).
  const bwd = e * s * b * ((g * ffn) / t + h);
  const inner = (withNorm ? lin * sbh * rep : 0) + (e * g * ffn * s * b) / t + (lin * ffn * s * b) / t;
  // `mlp` recompute: only the checkpoint input stays; the block's saved tensors are rebuilt in backward (transformer_layer.py).
  if (recompute) return { stored: d, bwd: bwd + inner };
  if (withNorm) d += add(`${label}: FC1 input (LN2 output)`, lin * sbh * rep, `${fmt(lin)}·sbh${sp}`);
  d += add(`${label}: FC1 output`, (e * g * ffn * s * b) / t, `${e}·${g}·ffn·s·b/t — activation-function input`);
  d += add(`${label}: FC2 input (activation output)`, (lin * ffn * s * b) / t, `${fmt(lin)}·ffn·s·b/t — saved for the weight gradient`);
  return { stored: d, bwd };
}

/** MoE block: pre-MLP norm, router, token dispatch, grouped experts, shared experts (Megatron moe/*). */
function moeBlock(x: Ctx): { stored: number; fwd: number; bwd: number; gathered: number } {
  const { m, c, s, b, t, h, rep, e, lin, linE, mods, add } = x;
  const sp = c.sp && c.profile === 'megatron' ? '/t' : '';
  const T = s * b * rep; // tokens on this rank before dispatch
  const E = m.experts;
  const k = m.topK;
  const Te = T * expertTokenFactor(m, c); // token-expert pairs this rank's experts process
  // Latent MoE: fc1_latent_proj takes the tokens to moe_latent_size before dispatch and fc2_latent_proj back after combine,
  // so the dispatcher and the experts see latent-width tokens (Megatron moe/moe_layer.py preprocess / postprocess).
  const w = m.moeLatentSize ?? h;
  const ffnE = m.moeFfn / c.etp;
  const g = m.gatedMlp ? 2 : 1;
  x.at('moe_router');
  let d = add('MoE: pre-MLP norm input (residual)', e * T * h, `${e}·s·b·h${sp}`, 'mlp_norm');
  const normRecompute = preMlpNormRecomputed(c, mods);
  if (mods.has('moe')) {
    // Whole-MoE recompute keeps the checkpoint input (the norm output) and rebuilds the layer in backward; `layernorm`
    // recompute discards that output after the MoE forward and rebuilds it first (transformer_layer.py
    // pre_mlp_norm_checkpoint.discard_output_and_register_recompute), so only the norm input stays.
    if (!normRecompute) d += add('MoE: checkpointed input (norm output)', e * T * h, `${e}·s·b·h${sp} — recompute_modules moe`);
  } else {
    // The norm is a separate TENorm in MoE layers; its output is the router's saved input (RouterGatingLinearFunction).
    if (!normRecompute) d += add('MoE: norm output (router and dispatch input)', e * T * h, `${e}·s·b·h${sp}`);
    const rb = c.moe?.routerDtype === 'fp64' ? 8 : c.moe?.routerDtype === 'fp32' ? 4 : e;
    d += add(
      'router: logits, scores, routing map, top-k indices',
      T * E * (2 * rb + 1) + 8 * T * k,
      `s·b·E·(2·${rb} + 1)${sp} + 8·s·b·k${sp} — moe_router_dtype ${c.moe?.routerDtype ?? 'activation dtype'}`,
    );
    const idx = c.moe?.permuteFusion ? 4 : 8;
    x.at('moe_preprocess');
    d += add(
      'permutation indices (permute / unpermute)',
      idx * (T * k + Te),
      `${idx}·(s·b·k${sp} + tokens after dispatch) — moe_utils permute`,
    );
    x.at('moe_experts');
    d += add(
      'experts: FC1 input (dispatched tokens)',
      linE * Te * w,
      `${fmt(linE)}·k·ETP·s·b·${m.moeLatentSize ? 'moe_latent_size' : 'h'}${sp}`,
      'expert_fc1',
    );
    d += add('experts: FC1 output', e * g * Te * ffnE, `${e}·${g}·k·ETP·s·b·moe_ffn/ETP${sp}`, 'moe_act');
    d += add('experts: routing probabilities (fp32)', 4 * Te, `4·k·ETP·s·b${sp}`, 'moe_act');
    if (!mods.has('moe_act')) {
      d += add(
        'experts: FC2 input (activation output)',
        linE * Te * ffnE,
        `${fmt(linE)}·k·ETP·s·b·moe_ffn/ETP${sp} — moe_act recompute drops it`,
      );
      // The router probabilities weight the activation output (moe_apply_probs_on_input False): without the fused weighted
      // kernels (weighted_bias_swiglu for SwiGLU with bias_activation_fusion; use_fused_weighted_squared_relu, which saves
      // only its input and the probabilities) the product act(x)·probs saves act(x) as well (Megatron-Core moe/experts.py
      // TEGroupedMLP bias_act_func, SequentialMLP via MLP per_token_scale; fusions/fused_weighted_squared_relu.py).
      const fused = m.gatedMlp ? c.moe?.activationFusion !== false : m.activation === 'squared-relu' && c.moe?.squaredReluFusion === true;
      if (!fused) d += add('experts: activation output (weighted by the probabilities)', e * Te * ffnE, `${e}·k·ETP·s·b·moe_ffn/ETP${sp}`);
    }
    // fc2_latent_proj saves the combined latent tokens (a TELinear input).
    if (m.moeLatentSize)
      d += add('latent MoE: fc2_latent_proj input (combined tokens)', lin * T * w, `${fmt(lin)}·s·b·moe_latent_size${sp}`);
    if (m.sharedExpertFfn > 0 && !mods.has('shared_experts')) {
      const sffn = m.sharedExpertFfn;
      // cuda_graph_modules moe_router captures the shared experts with the router (transformer_config.py).
      x.at('moe_router');
      d += add('shared experts: FC1 output', (e * g * sffn * s * b) / t, `${e}·${g}·shared_ffn·s·b/t`);
      d += add('shared experts: FC2 input', (lin * sffn * s * b) / t, `${fmt(lin)}·shared_ffn·s·b/t`);
    }
  }
  // Dispatch buffers of the running layer (forward; their gradients in backward): alltoall keeps the permuted send buffer
  // and the received tokens before they are sorted by local expert; allgather permutes the tokens it gathered over
  // ETP×EP into Megatron's global memory buffer "mpu", which outlives the layer (token_dispatcher.py
  // MoEAllGatherTokenDispatcher.token_dispatch, use_global_buffer=True; no gather when ETP and EP are 1), while the
  // gradient of the gathered tokens is allocated in backward; flex (DeepEP / HybridEP) writes the received tokens in place.
  const dispatcher = c.moe?.dispatcher ?? 'allgather';
  const gathered = dispatcher === 'allgather' && (c.ep > 1 || c.etp > 1) ? e * T * c.ep * c.etp * w : 0;
  const buffers = dispatcher === 'alltoall' ? 2 * e * Te * w : e * Te * w;
  const expertBwd = e * Te * (g * ffnE + w) + gathered;
  // Whole-MoE recompute rebuilds the block's saved tensors during its backward.
  const remat = mods.has('moe')
    ? moeBlock({ ...x, mods: new Set([...mods].filter((z) => z !== 'moe')), add: (_l, bytes) => bytes }).stored - d
    : 0;
  return { stored: d, fwd: buffers, bwd: buffers + expertBwd + Math.max(0, remat), gathered };
}

/**
 * The dropout mask (1 byte per element) of one residual add: every block of a layer (attention, MLP / MoE, Mamba mixer)
 * ends in its own bias-dropout-add (transformer_layer.py self_attn_bda / mlp_bda, mamba_layer.py mamba_bda).
 */
function residualDropoutMask(x: Ctx): number {
  const { c, s, b, h, rep, add } = x;
  return c.hiddenDropout > 0 ? add('dropout mask (residual add)', s * b * h * rep, '1 byte·sbh — hidden_dropout > 0') : 0;
}

/** Mamba-2 mixer (Megatron mamba_mixer.py with mamba_ssm's chunked scan, ssd_combined.py save_for_backward). */
function mambaBlock(x: Ctx): number {
  const { m, c, s, b, t, h, rep, e, lin, add } = x;
  const mb = m.mamba;
  const sp = c.sp && c.profile === 'megatron' ? '/t' : '';
  x.at('mamba');
  let d = add('Mamba: norm input (residual)', e * s * b * h * rep, `${e}·sbh${sp}`);
  d += add('Mamba: in_proj input (norm output)', lin * s * b * h * rep, `${fmt(lin)}·sbh${sp}`);
  if (!mb) return d;
  const inner = mambaInner(m);
  const bc = 2 * mb.groups * mb.stateDim;
  const sb = (s * b) / t;
  d += add('Mamba: in_proj output (z, xBC, dt)', e * sb * (2 * inner + bc + mb.numHeads), `${e}·s·b·(2·d_inner + 2·g·N + heads)/t`);
  // mamba_split_conv1d_scan_combined saves zxbcdt and the scan output before gating (out_x); it recomputes the conv1d
  // output in backward. The gated scan output is the input of the mixer's RMSNorm (rmsnorm_fn saves it and rstd), whose
  // output out_proj saves (Megatron mamba_mixer.py _ssm_training; mamba_ssm ops/triton/ssd_combined.py, layernorm_gated.py).
  d += add('Mamba: scan output before gating (out_x)', e * sb * inner, `${e}·s·b·d_inner/t`);
  d += add(
    'Mamba: gated scan output (norm input) and rstd (fp32)',
    e * sb * inner + 4 * sb * mb.groups,
    `${e}·s·b·d_inner/t + 4·s·b·groups/t`,
  );
  d += add('Mamba: out_proj input (norm output)', lin * sb * inner, `${fmt(lin)}·s·b·d_inner/t`);
  return d;
}

/** FLA's chunk length of the chunked gated delta rule (Megatron gdn.py chunk_size = 64; fla chunk_gated_delta_rule_fwd). */
const GDN_CHUNK = 64;

/**
 * Gated DeltaNet mixer with its input norm (Megatron ssm/gated_delta_net/gdn.py GatedDeltaNet.forward and common.py; the
 * fla kernels it calls at fla-org/flash-linear-attention@0315a70: modules/convolution.py CausalConv1dFunction saves the
 * conv input, modules/l2norm.py saves the normalised q, k and their rstd, ops/gated_delta_rule/chunk.py
 * ChunkGatedDeltaRuleFunction saves q, k, v, the cumulative decay g, β and the WY matrix A and recomputes the chunk states
 * in backward). Megatron repeats q and k to the value heads before the kernel. Heads split over TP; under CP the mixer
 * all-to-alls to whole sequences of heads/CP (common.py a2a_cp_to_hp), the same bytes per rank. `gdn_norm_out` recompute
 * (CheckpointWithoutOutput) keeps only the gated norm's inputs and drops its output and the out_proj input.
 */
function gdnBlock(x: Ctx): { stored: number; fwd: number; bwd: number } {
  const { m, c, s, b, t, h, rep, e, lin, mods, add } = x;
  const la = m.linearAttention!;
  const sp = c.sp && c.profile === 'megatron' ? '/t' : '';
  const sb = (s * b) / t; // tokens × local heads share
  const hv = la.valueHeads;
  const qk = la.keyHeads * la.keyHeadDim;
  const v = hv * la.valueHeadDim;
  x.at('attn');
  let a = add('GDN: norm input (residual)', e * s * b * h * rep, `${e}·sbh${sp} — in_proj is a TE LayerNormColumnParallelLinear`);
  a += add('GDN: in_proj input (norm output)', lin * s * b * h * rep, `${fmt(lin)}·sbh${sp} — saved for the weight gradient`);
  a += add(
    'GDN: conv1d input (q, k, v)',
    e * sb * (2 * qk + v),
    `${e}·s·b·(2·k_heads·d_k + v_heads·d_v)/t — CausalConv1dFunction saves x (a contiguous copy)`,
  );
  a += add(
    'GDN: L2-normalised q, k and their rstd (fp32)',
    e * sb * 2 * qk + 4 * sb * 2 * la.keyHeads,
    `${e}·s·b·2·k_heads·d_k/t + 4·s·b·2·k_heads/t — fla l2norm saves y, rstd`,
  );
  a += add(
    'GDN: q, k repeated to the value heads, v',
    e * sb * hv * (2 * la.keyHeadDim + la.valueHeadDim),
    `${e}·s·b·v_heads·(2·d_k + d_v)/t — chunk_gated_delta_rule saves q, k, v`,
  );
  a += add(
    'GDN: decay g (fp32 cumsum), β, WY matrix A',
    sb * hv * (4 + e + e * GDN_CHUNK),
    `s·b·v_heads·(4 + ${e} + ${e}·${GDN_CHUNK})/t — chunk_gated_delta_rule saves g, beta, A`,
  );
  // The decay −exp(A_log)·softplus(α + dt_bias) is computed in fp32 (gdn.py _compute_gates); softplus saves its input.
  a += add('GDN: softplus input of the decay (fp32)', 4 * sb * hv, `4·s·b·v_heads/t — _compute_gates`);
  a += add(
    'GDN: kernel output (norm input) and output gate z',
    2 * e * sb * v,
    `2·${e}·s·b·v_heads·d_v/t — the gated norm's inputs (_apply_gated_norm)`,
  );
  if (!mods.has('gdn_norm_out')) {
    a += add(
      'GDN: normalised output (gate product input) and rstd (fp32)',
      e * sb * v + 4 * sb * hv,
      `${e}·s·b·v_heads·d_v/t + 4·s·b·v_heads/t — TE RMSNorm over d_v, then y·silu(z) — gdn_norm_out recompute drops them`,
    );
    a += add('GDN: out_proj input (gated norm output)', lin * sb * v, `${fmt(lin)}·s·b·v_heads·d_v/t — gdn_norm_out recompute drops it`);
  }
  a += residualDropoutMask(x);
  // Forward working set of the kernel: the chunk states h (b · ⌈s/64⌉ · v_heads · d_k · d_v in the input dtype), w, u and
  // v_new (chunk_delta_h.py chunk_gated_delta_rule_fwd_h, wy_fast.py recompute_w_u_fwd). Backward recomputes them and adds
  // the state gradients dh of the same shape and dq, dk, dv (chunk.py chunk_gated_delta_rule_bwd).
  const chunks = Math.ceil((s * c.cp) / GDN_CHUNK) / c.cp;
  const states = (e * b * chunks * hv * la.keyHeadDim * la.valueHeadDim) / t;
  const wu = e * sb * hv * (la.keyHeadDim + 2 * la.valueHeadDim);
  const fwd = states + wu;
  const bwd = 2 * states + wu + e * sb * hv * (2 * la.keyHeadDim + la.valueHeadDim);
  return { stored: a, fwd, bwd };
}

/** LoRA on a layer: with SP, column-parallel adapters (linear_qkv, linear_fc1) keep their gathered input (Bridge peft/utils.py ParallelLinearAdapter). */
function loraBlock(x: Ctx, kind: LayerKind): number {
  const { c, s, b, h, e, add } = x;
  const p = c.peft;
  if (!p || !c.sp || c.tp <= 1 || p.inputRegather) return 0;
  x.at('other');
  const targets = new Set(p.targets.length ? p.targets : LORA_DEFAULT_TARGETS);
  const eligible = (targets.has('linear_qkv') && hasAttention(kind) ? 1 : 0) + (targets.has('linear_fc1') && hasDenseMlp(kind) ? 1 : 0);
  return eligible
    ? add(
        'LoRA-A inputs, gathered over TP (sequence parallel)',
        eligible * e * s * b * h,
        `${eligible}·${e}·s·b·h — set sequence_parallel_input_regather`,
      )
    : 0;
}

function context(m: ModelShape, c: TrainingConfig, b: number, s: number, terms: ActivationTerm[] | null): Ctx {
  const hf = c.profile === 'hf';
  const byModule: Partial<Record<LayerModule, number>> = {};
  const byOffload: Partial<Record<OffloadModule, number>> = {};
  let module: LayerModule = 'other';
  const e = actBytes(c);
  return {
    m,
    c,
    s,
    b,
    t: hf ? 1 : c.tp,
    h: m.hidden,
    rep: c.sp && !hf ? 1 / c.tp : 1,
    e,
    // Automodel te_fp8 quantizes only the modules TE builds (config.ts teModules); the others save bf16 inputs.
    lin: c.teModules && !c.teModules.dense ? e : savedInputBytes(c),
    linE: c.teModules && !c.teModules.experts ? e : savedInputBytes(c),
    mods: c.recompute.granularity === 'selective' ? new Set(c.recompute.modules) : new Set<string>(),
    add: (label, bytes, formula, off) => {
      if (bytes > 0) byModule[module] = (byModule[module] ?? 0) + bytes;
      // min_offloaded_tensor_size: tensors under 1M elements stay on the GPU (transformer_config.py default).
      if (off && bytes / e >= MIN_OFFLOADED_ELEMENTS) byOffload[off] = (byOffload[off] ?? 0) + bytes;
      if (bytes > 0 && terms) terms.push({ label, bytes, formula });
      return bytes;
    },
    at: (next) => {
      module = next;
    },
    byModule,
    byOffload,
  };
}

/** megatron-core TransformerConfig.min_offloaded_tensor_size default (elements). */
const MIN_OFFLOADED_ELEMENTS = 1024 * 1024;

/**
 * What fine-grained activation offloading moves to the host of one layer: the bytes the configured offload_modules save
 * (pipeline_parallel/fine_grained_activation_offload.py: a saved-tensor hook inside each module's context), times
 * activation_offload_fraction (the first share of the eligible groups in forward order, taken as that share of the bytes).
 */
function offloadedBytes(c: TrainingConfig, byOffload: Partial<Record<OffloadModule, number>>): number {
  const o = c.activationOffload;
  if (!o || c.profile !== 'megatron') return 0;
  return o.fraction * o.modules.reduce((a, mod) => a + (byOffload[mod] ?? 0), 0);
}

/**
 * Gemma 4 per-layer input (PLE) of one layer, after the MLP (HF Gemma4TextDecoderLayer; Megatron-Bridge
 * gemma/modeling_gemma4.py, plain nn.Linear and RMSNorm): the gate's input (2·sbh), its output (GELU input), the GELU
 * output (multiplied by the layer's per-layer input) and the projection input (3 · 2·s·b·w), and the norm's fp32 input
 * and rstd (4·sbh + 4·sb, as hf-activations.md counts an RMSNorm's). Sequence parallelism holds s/TP tokens.
 */
function perLayerInputBlock(x: Ctx): number {
  const { m, c, s, b, h, rep, e, add } = x;
  const w = m.perLayerEmbedding?.width ?? 0;
  const sp = c.sp ? '/t' : '';
  let d = add('per-layer input: gate input', e * s * b * h * rep, `${e}·sbh${sp}`);
  d += add('per-layer input: gate output, GELU output, projection input', 3 * e * s * b * w * rep, `3·${e}·s·b·${w}${sp}`);
  d += add('per-layer input: norm input (fp32) and rstd', (4 * s * b * h + 4 * s * b) * rep, `(4·sbh + 4·sb)${sp}`);
  return d;
}

/** One decoder layer of a kind, Megatron-Core + TE, one micro-batch. */
export function megatronKind(m: ModelShape, c: TrainingConfig, b: number, s: number, kind: LayerKind, withTerms = true): KindActivations {
  const terms: ActivationTerm[] = [];
  const x = context(m, c, b, s, withTerms ? terms : null);
  let stored = 0;
  let fwd = 0;
  let bwd = 0;
  let globalBuffer = 0;
  if (hasAttention(kind)) {
    const a = attentionBlock(x, dsaIndexerShare(m, kind));
    stored += a.stored;
    fwd = Math.max(fwd, a.fwd);
    bwd = Math.max(bwd, a.bwd);
  }
  if (hasGdn(kind)) {
    const a = gdnBlock(x);
    stored += a.stored;
    fwd = Math.max(fwd, a.fwd);
    bwd = Math.max(bwd, a.bwd);
  }
  if (hasDenseMlp(kind)) {
    const d = mlpBlock(x, meanDenseFfn(m), 'MLP', true, x.mods.has('mlp'));
    stored += d.stored;
    bwd = Math.max(bwd, d.bwd);
  }
  if (hasMoe(kind)) {
    const d = moeBlock(x);
    stored += d.stored;
    fwd = Math.max(fwd, d.fwd);
    bwd = Math.max(bwd, d.bwd);
    globalBuffer = d.gathered;
  }
  if (m.perLayerEmbedding && (kind === 'dense' || kind === 'moe')) {
    x.at('other');
    stored += perLayerInputBlock(x);
  }
  if (kind === 'mamba') stored += mambaBlock(x);
  // The residual add after the MLP, MoE or Mamba mixer has its own dropout (the attention's is in attentionBlock).
  if (kind !== 'attention') {
    x.at(kind === 'mamba' ? 'mamba' : hasDenseMlp(kind) ? 'mlp' : 'other');
    stored += residualDropoutMask(x);
  }
  stored += loraBlock(x, kind);
  return { stored, fwd, bwd, terms, byModule: x.byModule, offloaded: offloadedBytes(c, x.byOffload), globalBuffer };
}

// cuda_graph_modules → the layer modules each captures (Megatron transformer_config.py; "full" and [] capture the whole layer).
const GRAPH_MODULES: Record<string, readonly LayerModule[]> = {
  attn: ['attn'],
  mlp: ['mlp'],
  moe: ['moe_router', 'moe_preprocess', 'moe_experts'],
  moe_router: ['moe_router'],
  moe_preprocess: ['moe_preprocess'],
  mamba: ['mamba'],
};

/**
 * What per-layer CUDA graphs capture of one layer kind: the saved bytes inside the captured modules, and the number of
 * graphed callables (attention and the MLP part are captured as separate graphs; the whole layer as one).
 */
export function graphCapture(
  kind: LayerKind,
  { byModule, stored }: Pick<KindActivations, 'byModule' | 'stored'>,
  scope: readonly string[],
): { captured: number; callables: number } {
  const named = scope.filter((x) => x !== 'full');
  if (named.length === 0) return { captured: stored, callables: 1 };
  const modules = new Set(named.flatMap((x) => GRAPH_MODULES[x] ?? []));
  const captured = [...modules].reduce((a, mod) => a + (byModule[mod] ?? 0), 0);
  // The Gated DeltaNet mixer is the layer's self_attention submodule (experimental_attention_variant_module_specs.py).
  const attn = (hasAttention(kind) || hasGdn(kind)) && modules.has('attn') ? 1 : 0;
  const mlpPart =
    (hasDenseMlp(kind) && modules.has('mlp')) || (hasMoe(kind) && (modules.has('moe_router') || modules.has('moe_experts'))) ? 1 : 0;
  const mamba = kind === 'mamba' && modules.has('mamba') ? 1 : 0;
  return { captured, callables: attn + mlpPart + mamba };
}

/** Per-layer inventory of what Megatron-Core with Transformer Engine saves: a dense and an MoE layer (memory.md §2.4, Korthikanti 2022 Table 2 re-derived). */
export function megatronLayer(m: ModelShape, c: TrainingConfig, b: number, s: number): LayerActivations {
  const dense = megatronKind(m, c, b, s, m.hybridPattern ? 'attention' : 'dense');
  const moe = m.experts > 0 ? megatronKind(m, c, b, s, m.hybridPattern ? 'moe-mlp' : 'moe') : dense;
  return {
    dense: dense.stored,
    moe: moe.stored,
    terms: m.experts > 0 && !m.hybridPattern && m.denseLayersBeforeMoe === 0 ? moe.terms : dense.terms,
  };
}

/**
 * How DTensor tensor parallelism (torch.distributed.tensor.parallel, as NeMo-RL's nemo_rl/models/dtensor/parallelize.py and
 * torchtitan's parallelize_llama.py plan a Llama) splits what an HF layer saves: ColwiseParallel q/k/v and gate/up shard
 * the heads and the MLP intermediate (1/t); SequenceParallel norms (with SP) hold s/t tokens; the projections' input is
 * held whole (replicated without SP, all-gathered before the column-parallel GEMMs with SP).
 */
export function hfShards(c: TrainingConfig): { t: number; q: number; perT: string; what: string } {
  const t = c.tp;
  const q = c.sp && t > 1 ? 1 / t : 1;
  const perT = t > 1 ? '/t' : '';
  return {
    t,
    q,
    perT,
    what: t > 1 ? `TP ${t}${c.sp ? ' + SP' : ''}: heads, MLP intermediate and logits /t${c.sp ? ', norms /t' : ''}` : '',
  };
}

/**
 * Hugging Face transformers Llama layer, measured with autograd hooks (hf-activations.md, "modern" PyTorch), split by
 * where each tensor lives under DTensor TP (hfShards). At TP 1 the terms sum to the measured formulas exactly.
 */
export function hfLayer(m: ModelShape, c: TrainingConfig, b: number, s: number): LayerActivations {
  const h = m.hidden;
  const sbh = s * b * h;
  const sb = s * b;
  const { t, q, perT: tt } = hfShards(c);
  const terms: ActivationTerm[] = [];
  const add = (label: string, bytes: number, formula: string) => {
    terms.push({ label, bytes, formula });
    return bytes;
  };
  let bytes = 0;
  const k = c.hfKernels;
  const norm = hfNormSaves(m, k);
  // Two norms per layer, four with sandwich norms (HF Gemma2/3/4DecoderLayer post_attention_layernorm on the attention
  // output, pre_feedforward_layernorm before the MLP and post_feedforward_layernorm after it).
  const nNorms = m.postNorms ? 4 : 2;
  const normsFormula = `${nNorms * norm.perH}·sbh + ${nNorms * norm.perRow}·sb`;
  const normsTerm = add(
    `RMSNorms ×${nNorms}: ${norm.what}`,
    nNorms * (norm.perH * sbh + norm.perRow * sb) * q,
    `${q < 1 ? `(${normsFormula})/t` : normsFormula} — ${norm.source}`,
  );
  bytes += normsTerm;
  // Rows 5 and 17: the RMSNorm outputs the q/k/v and gate/up projections save.
  const projInputs = add(
    'q/k/v and gate/up input (RMSNorm outputs)',
    4 * sbh,
    `4·sbh${q < 1 ? ' (all-gathered over TP)' : ''} — hf-activations.md rows 5, 17`,
  );
  bytes += projInputs;
  let attention: number;
  // Gemma 4 (layers of different attention widths): the same rows at the mean layer's widths, heads · head dim in place of h.
  if (hasLayerVariants(m)) attention = add(...gemma4HfAttention(m, c, b, s));
  else if (c.attention === 'eager')
    // Rows 6–12: q, repeated k and v, o_proj input (2sbh each); softmax fp32 and its bf16 copy (6as²b).
    attention = add(
      'eager attention: q, repeated k/v, output; scores fp32 + bf16',
      (8 * sbh + 6 * m.heads * s * s * b) / t,
      `(8·sbh + 6·a·s²·b)${tt} — hf-activations.md rows 6–12`,
    );
  // Rows 6'–10': q and out (2sbh each), k and v unrepeated (2sbgd each), fp32 log-sum-exp (4asb).
  else
    attention = add(
      'flash attention: q, k, v, output, log-sum-exp',
      ((4 + (4 * m.kvHeads) / m.heads) * sbh + 4 * m.heads * sb) / t,
      `((4 + 4g/a)·sbh + 4·a·s·b)${tt} — hf-activations.md rows 6'–10'`,
    );
  bytes += attention;
  // Hidden states the loop holds (config.ts heldHiddenStates): the layer's bf16 output, unless a fused norm of the next
  // layer saves that very tensor as its input.
  if (c.heldHiddenStates && !k?.norm)
    bytes += add('layer output held in the returned hidden states', 2 * sbh * q, `2·sbh${q < 1 ? '/t' : ''} — output_hidden_states`);
  // Q/K norms (Qwen3 q_norm, k_norm: per head): rows 1, 3, 4 at the width of the query and key heads. They stay eager
  // under Liger (monkey_patch.py apply_liger_kernel_to_qwen3 patches only the layer norms). Gemma-style norms save their
  // fp32 output; Gemma 4 also norms V without a scale (v_norm: its fp32 input and the two per-row tensors).
  let qkNorms = 0;
  if (m.qkNorm) {
    // At the mean layer's widths (Gemma 4: wider global heads, no keys of their own in KV-shared layers).
    const rows = m.qkNorm === 'full' ? 2 : m.heads + m.kvHeads;
    const w = meanAttentionWidths(m);
    const eager = hfNormSaves(m, undefined);
    const vNorm = isGemma4(m) ? 4 * sb * w.kv + eager.perRow * sb * m.kvHeads : 0;
    qkNorms = add(
      `Q/K${vNorm ? '/V' : ''} norms: ${eager.what}`,
      (eager.perH * sb * (w.q + w.kv) + eager.perRow * sb * rows + vNorm) / t,
      `(${eager.perH}·s·b·(a+g)·d + ${eager.perRow}·s·b·${m.qkNorm === 'full' ? '2' : '(a+g)'}${vNorm ? ` + 4·s·b·g·d + ${eager.perRow}·s·b·g` : ''})${tt} — ${eager.kind === 'gemma' ? eager.source : 'hf-activations.md rows 1, 3, 4'} at the Q${vNorm ? ', K and V' : ' and K'} widths`,
    );
    bytes += qkNorms;
  }
  // Rows 18–21: gate output, SiLU output, up output, down_proj input (2sbi each); the mean width with Gemma 4's double-wide MLPs.
  if (!k?.glu)
    bytes += add(
      'SwiGLU MLP: gate, SiLU, up, down_proj input',
      (8 * sb * meanDenseFfn(m)) / t,
      `8·sbi${tt} — hf-activations.md rows 18–21`,
    );
  // A fused gated activation saves gate and up and returns the down_proj input (Liger ops/swiglu.py, ops/geglu.py).
  else
    bytes += add(
      `gated MLP: gate, up, down_proj input (${k.what})`,
      (6 * sb * meanDenseFfn(m)) / t,
      `6·sbi${tt} — Liger LigerSiLUMulFunction saves a, b`,
    );
  let perLayerInput = 0;
  if (m.perLayerEmbedding) {
    // Gemma 4 per-layer input (perLayerInputBlock): gate input, three width-w tensors, the norm's fp32 input and rstd.
    const w = m.perLayerEmbedding.width;
    perLayerInput = add(
      'per-layer input: gate input and output, GELU output, projection input, norm',
      (6 * sbh + 6 * sb * w + 4 * sb) * q,
      `(6·sbh + 6·s·b·${w} + 4·sb)${q < 1 ? '/t' : ''} — HF Gemma4TextDecoderLayer`,
    );
    bytes += perLayerInput;
  }
  // What Automodel's submodule checkpointing leaves saved (config.ts checkpointWraps): the norms it does not wrap (Gemma's
  // pre_feedforward_layernorm and post_feedforward_layernorm; every norm when only attention and MLP are wrapped), the
  // attention when it is not wrapped (KV-shared layers: its saved tensors, Q/K/V norms and the q/k/v input) and the
  // per-layer-input block, which no wrapper covers (activation_checkpointing.py apply_submodule_checkpointing).
  const wraps = checkpointWraps(c);
  const unwrapped =
    (normsTerm * (nNorms - (wraps.layerNorms ? 2 : 0))) / nNorms +
    (wraps.attention ? 0 : attention + qkNorms + projInputs / 2) +
    perLayerInput;
  return { dense: bytes, moe: bytes, terms, unwrapped };
}

/** Gemma's RMSNorm (HF GemmaRMSNorm … Gemma4RMSNorm): it scales the fp32 normalized tensor, so it saves that, not a bf16 copy. */
const isGemma = (m: ModelShape): boolean => /^Gemma/.test(m.architecture ?? '');
const isGemma4 = (m: ModelShape): boolean => /^Gemma4/.test(m.architecture ?? '');

/**
 * What one RMSNorm saves per hidden element (perH, bytes per sbh) and per row (perRow, bytes per sb). Llama's eager norm
 * (hf-activations.md rows 1–4): fp32 input, bf16 normalized (the weight multiplies the bf16 copy), fp32 rstd. Gemma's
 * eager norm: fp32 input and fp32 normalized (`normed * (1 + weight.float())`, Gemma 4 `normed * weight.float()`), with
 * rsqrt's output (Gemma 1–3) or pow(ms, −0.5)'s input and output (Gemma 4). A fused norm (Liger, TE) saves its input and rstd.
 */
export function hfNormSaves(
  m: ModelShape,
  k: TrainingConfig['hfKernels'],
): { kind: 'fused' | 'gemma' | 'llama'; perH: number; perRow: number; what: string; source: string } {
  if (k?.norm)
    return {
      kind: 'fused',
      perH: 2,
      perRow: 4,
      what: `bf16 input, rstd (${k.what})`,
      source: 'Liger ops/rms_norm.py, TE ops/basic/rmsnorm.py save x and rstd',
    };
  if (isGemma(m))
    return isGemma4(m)
      ? {
          kind: 'gemma',
          perH: 8,
          perRow: 8,
          what: 'fp32 input, fp32 normalized, mean square and its −½ power',
          source: 'HF Gemma4RMSNorm (pow(ms, −0.5), fp32 scale)',
        }
      : {
          kind: 'gemma',
          perH: 8,
          perRow: 4,
          what: 'fp32 input, fp32 normalized, rstd',
          source: 'HF GemmaRMSNorm / Gemma2RMSNorm / Gemma3RMSNorm (fp32 (1 + weight))',
        };
  return { kind: 'llama', perH: 6, perRow: 4, what: 'fp32 input, normalized bf16, rstd', source: 'hf-activations.md rows 1–4, 13–16' };
}

/**
 * hf-activations.md rows 6–12 (eager) or 6'–10' (flash) for layers whose attention widths differ from h (Gemma 4): q and
 * the output are heads · d wide, k and v kvHeads · d (repeated to every head under eager attention), at the mean layer's
 * widths (meanAttentionWidths: wider global heads, no keys or values of their own in KV-shared layers).
 */
function gemma4HfAttention(m: ModelShape, c: TrainingConfig, b: number, s: number): [string, number, string] {
  const { t, perT: tt } = hfShards(c);
  const sb = s * b;
  const w = meanAttentionWidths(m);
  if (c.attention === 'eager')
    return [
      'eager attention: q, repeated k/v, output; scores fp32 + bf16 (mean layer widths)',
      (8 * sb * w.q + 6 * m.heads * s * s * b) / t,
      `(8·s·b·a·d + 6·a·s²·b)${tt}, a·d = ${fmt(w.q)} — hf-activations.md rows 6–12`,
    ];
  return [
    'flash attention: q, k, v, output, log-sum-exp (mean layer widths)',
    (4 * sb * (w.q + w.kv) + 4 * m.heads * sb) / t,
    `(4·s·b·(a·d + g·d) + 4·a·s·b)${tt}, a·d = ${fmt(w.q)}, g·d = ${fmt(w.kv)} — hf-activations.md rows 6'–10'`,
  ];
}

/**
 * One layer kind under the hf profile: hf-activations.md measured Llama's attention + SwiGLU layer (`dense`); the other
 * kinds (MoE, Mamba and the hybrid stacks' single-block layers) take Megatron-Core's inventory of the same blocks, whose
 * saved tensors match in kind (Automodel's MoE and Mamba layers follow Megatron-Core's design). Megatron's global memory
 * buffer does not exist there.
 */
export function hfKind(m: ModelShape, c: TrainingConfig, b: number, s: number, kind: LayerKind): KindActivations {
  if (kind !== 'dense')
    return { ...megatronKind(m, { ...c, profile: 'megatron', moe: { dispatcher: 'alltoall', ...c.moe } }, b, s, kind), globalBuffer: 0 };
  const l = hfLayer(m, c, b, s);
  return { stored: l.dense, fwd: 0, bwd: 0, terms: l.terms, byModule: {}, offloaded: 0, globalBuffer: 0, unwrapped: l.unwrapped ?? 0 };
}

/**
 * Full recompute keeps only each checkpointed layer's input (Korthikanti Table 2: 2sbh, /t with SP; DTensor SP likewise).
 * Automodel's submodule checkpointing (config.ts checkpointUnit) keeps the input of each wrapped submodule: mlp, and
 * self_attn, input_layernorm and post_attention_layernorm where config.ts checkpointWraps says they are wrapped.
 */
export function checkpointInput(m: ModelShape, c: TrainingConfig, b: number, s: number): number {
  const rep = c.sp ? 1 / c.tp : 1;
  return (c.checkpointUnit === 'submodule' ? submoduleInputs(c) : 1) * actBytes(c) * s * b * m.hidden * rep;
}

/** What submodule checkpointing wraps besides mlp; unset, all of apply_submodule_checkpointing's (config.ts checkpointWraps). */
const checkpointWraps = (c: TrainingConfig): NonNullable<TrainingConfig['checkpointWraps']> =>
  c.checkpointWraps ?? { attention: true, layerNorms: true };

/** How many submodule inputs a layer keeps under Automodel's submodule checkpointing (config.ts checkpointWraps). */
export function submoduleInputs(c: TrainingConfig): number {
  const w = checkpointWraps(c);
  return 1 + (w.attention ? 1 : 0) + (w.layerNorms ? 2 : 0);
}

/**
 * What Automodel's MoE checkpoint policy saves in each checkpointed MoE layer besides its input: the router projection
 * (bf16 logits, s·b·E) and the top-k outputs (fp32 scores, int64 indices: 12·s·b·k), MUST_SAVE so that recompute routes
 * the same tokens (components/moe/parallelizer.py apply_ac _custom_policy, ignore_router_for_ac default true).
 */
export function checkpointRouterSaves(m: ModelShape, c: TrainingConfig, b: number, s: number): number {
  if (c.checkpointUnit !== 'moe-block' || !m.experts) return 0;
  return s * b * (actBytes(c) * m.experts + 12 * m.topK);
}

// ---------------------------------------------------------------------------------------------------------------
// Non-layer terms

export interface EdgeActivations {
  /** Bytes saved per micro-batch. */
  stored: number;
  /** Transient bytes while the forward / backward of this part runs. */
  fwd: number;
  bwd: number;
  terms: ActivationTerm[];
}

/** The input embedding's saved tensors: int64 token ids (8·s·b), position ids with learned positions, the dropout mask. */
export function embeddingActivations(m: ModelShape, c: TrainingConfig, b: number, s: number): EdgeActivations {
  const terms: ActivationTerm[] = [];
  const add = (label: string, bytes: number, formula: string) => {
    if (bytes > 0) terms.push({ label, bytes, formula });
    return bytes;
  };
  let stored = 0;
  if (c.profile === 'hf') {
    stored += add('embedding: int64 token ids', 8 * s * b, '8·s·b — hf-activations.md');
    // Rotary cos and sin, computed once per forward and shared by all layers (1×s×d each, bf16).
    stored += add('rotary cos + sin', 4 * s * m.headDim, '4·s·d — hf-activations.md');
  } else {
    stored += add('embedding: int64 token ids', 8 * s * b, '8·s·b — Megatron theoretical_memory_usage.py');
    if (m.positionEmbedding === 'learned_absolute') stored += add('embedding: int64 position ids', 8 * s * b, '8·s·b');
    if (c.hiddenDropout > 0) stored += add('embedding dropout mask', s * b * m.hidden * (c.sp ? 1 / c.tp : 1), 'sbh (1 byte)');
  }
  if (m.perLayerEmbedding) {
    // Gemma 4 PLE inputs of all L layers (HF Gemma4TextModel project_per_layer_inputs; Megatron-Bridge
    // _compute_per_layer_inputs): the projection's output as its RMSNorm's fp32 input and rstd, and the combined bf16
    // per-layer inputs every layer multiplies by (L·w wide; s/TP tokens with sequence parallelism).
    const lw = m.layers * m.perLayerEmbedding.width;
    const r = c.sp ? 1 / c.tp : 1;
    stored += add(
      'per-layer inputs (PLE): projection norm fp32 input and rstd, combined bf16 inputs',
      (6 * s * b * lw + 4 * s * b * m.layers) * r,
      `(6·s·b·L·${m.perLayerEmbedding.width} + 4·s·b·L)${c.sp ? '/t' : ''}`,
    );
  }
  return { stored, fwd: 0, bwd: 0, terms };
}

/**
 * Final norm, output layer and loss on the last stage, per micro-batch. Megatron's vocab-parallel cross entropy
 * (tensor_parallel/cross_entropy.py, fusions/fused_cross_entropy.py) upcasts the V/t logits to fp32 (4 B) next to the bf16
 * output (2 B): 6·s·b·V/t at the forward peak; it saves the fp32 softmax (4 B), whose gradient is computed in place and cast
 * back to bf16 (2 B): 6 again in backward; the fused native path (torch.compile'd) keeps one more fp32 buffer: 10. TE's parallel_cross_entropy (cross_entropy_fusion_impl 'te') saves the bf16
 * logits and writes the gradient into them: 2·s·b·V/t. Hugging Face: hf-activations.md's non-layer terms.
 */
export function lossActivations(m: ModelShape, c: TrainingConfig, b: number, s: number, V: number): EdgeActivations {
  const terms: ActivationTerm[] = [];
  const add = (label: string, bytes: number, formula: string) => {
    if (bytes > 0) terms.push({ label, bytes, formula });
    return bytes;
  };
  const h = m.hidden;
  const sbh = s * b * h;
  const sb = s * b;
  if (c.profile === 'hf') {
    // Under DTensor TP the final norm is a SequenceParallel norm (s/t tokens with SP), lm_head a ColwiseParallel with
    // vocab-sharded output (Shard(-1)): its input is whole and every logits tensor is V/t (hfShards).
    const { t, q, perT: tt } = hfShards(c);
    let stored = 0;
    const fn = hfNormSaves(m, c.hfKernels);
    const fnFormula = `${fn.perH}·sbh + ${fn.perRow}·sb`;
    stored += add(
      `final RMSNorm: ${fn.what}`,
      (fn.perH * sbh + fn.perRow * sb) * q,
      `${q < 1 ? `(${fnFormula})/t` : fnFormula} — ${{ fused: 'a fused RMSNorm saves x and rstd', gemma: fn.source, llama: 'hf-activations.md' }[fn.kind]}`,
    );
    stored += add('lm_head input', 2 * sbh, '2·sbh — hf-activations.md');
    if (c.hfLoss === 'cut-cross-entropy') {
      // Cut cross-entropy (apple/ml-cross-entropy cce.py LinearCrossEntropyFunction): no logits; it saves the hidden states,
      // the classifier, the fp32 log-sum-exp and the valid-token indices, and its backward allocates dE and dC in their
      // dtypes (cce_backward.py zeros_like). Under FSDP the classifier is the gathered lm_head (linear_ce.py
      // materialize_lm_weight full_tensor): 2·V·h more.
      const gathered = c.fsdp ? 2 * V * h : 0;
      stored += add('cut cross-entropy: fp32 log-sum-exp, int64 valid-token indices', 12 * sb, '(4 + 8)·s·b — cce.py save_for_backward');
      stored += add('lm_head weight gathered for the fused loss', gathered, '2·V·h — linear_ce.py materialize_lm_weight');
      stored += add('int64 labels', 8 * sb, '8·s·b');
      return {
        stored,
        fwd: 0,
        bwd: 2 * sbh + 2 * V * h,
        terms,
      };
    }
    // Without the fp32 upcast (Automodel MaskedCrossEntropy fp32_upcast: false) log_softmax and both gradients are bf16.
    const e = c.hfLoss === 'bf16' ? 2 : 4;
    stored +=
      e === 2
        ? add('bf16 log_softmax of the logits (no fp32 upcast)', (2 * sb * V) / t, `2·s·b·V${tt} — masked_ce.py fp32_upcast false`)
        : add('fp32 log_softmax of the logits', (4 * sb * V) / t, `4·s·b·V${tt} — hf-activations.md`);
    // Gemma 2 / 4 soft-cap the logits before returning them (cap · tanh(logits / cap)): tanh saves its bf16 output.
    if (m.finalLogitSoftcap)
      stored += add(
        `final logit soft-capping (${m.finalLogitSoftcap}): tanh output (bf16)`,
        (2 * sb * V) / t,
        `2·s·b·V${tt} — HF modeling_gemma2.py / modeling_gemma4.py forward; TanhBackward saves its result`,
      );
    // Shifted labels: pad + slice keeps the padded storage when b = 1 (already contiguous).
    stored += add(
      'int64 shifted labels',
      b === 1 ? 8 * b * (s + 1) : 8 * sb,
      b === 1 ? '8·b·(s+1) (b = 1) — hf-activations.md' : '8·s·b — hf-activations.md',
    );
    stored += add('cross-entropy total_weight', 4, '4 B — hf-activations.md');
    if (c.recompute.granularity === 'full' && c.attention === 'eager')
      stored += add('causal mask held by the checkpoints (bf16)', 2 * s * s, '2·s² — hf-activations.md');
    // Forward peak: the bf16 logits (returned to the caller) and their fp32 upcast next to the saved log_softmax.
    const fwd = ((e === 2 ? 2 : 6) * sb * V) / t;
    // Backward peak: PyTorch's cross entropy is not in place (derivatives.yaml): nll_loss_backward allocates the fp32
    // gradient (zeros_like + scatter) and _log_softmax_backward_data a second one beside the saved log_softmax: 8 on top of 4.
    // A loop that still holds the model output keeps the bf16 logits beside them (config.ts heldLogits): 2 more.
    const bwd = ((2 * e + (c.heldLogits ? 2 : 0)) * sb * V) / t;
    return {
      stored,
      fwd,
      bwd,
      terms: [
        ...terms,
        e === 2
          ? { label: 'logits bf16 (transient)', bytes: fwd, formula: `2·s·b·V${tt} — the model output` }
          : {
              label: 'logits bf16 + fp32 upcast (transient)',
              bytes: fwd,
              formula: `(2 + 4)·s·b·V${tt} — HF ForCausalLMLoss logits.float()`,
            },
      ],
    };
  }
  const t = c.tp;
  const rep = c.sp ? 1 / t : 1;
  const sp = c.sp ? '/t' : '';
  let stored = 0;
  stored += add('final norm input', 2 * sbh * rep, `2·sbh${sp}`);
  stored += add('output-layer input (final norm output)', 2 * sbh * rep, `2·sbh${sp} — ColumnParallelLinear saves the local shard`);
  const te = c.crossEntropyFusion === 'te';
  const logits = (sb * V) / t;
  stored += add(
    te ? 'bf16 logits (TE cross entropy writes the gradient into them)' : 'fp32 softmax saved by the vocab-parallel cross entropy',
    (te ? 2 : 4) * logits,
    te ? '2·s·b·V/t — TE parallel_cross_entropy' : '4·s·b·V/t — cross_entropy.py save_for_backward(exp_logits)',
  );
  stored += add('target mask and masked targets', 9 * sb, '(8 + 1)·s·b — cross_entropy.py');
  // Megatron's fused native cross entropy runs the same steps as torch.compile'd functions (fusions/fused_cross_entropy.py;
  // megatron/core/jit.py: jit_fuser = torch.compile from PyTorch 2.2). They mutate their fp32 input in place (logits − max,
  // exp, the gradient), which the compiled graph computes into a new buffer before copying back: one more 4·s·b·V/t beside
  // the eager path's 6 (Megatron-LM functional test gpt3_mcore_te_tp2_pp2_cross_entropy_loss_fusion: +4·s·b·V/t over the
  // unfused gpt3_mcore_te_tp2_pp2_resume_torch_dist).
  const native = c.crossEntropyFusion === 'native';
  const transient = te ? 0 : (native ? 6 : 2) * logits;
  if (transient)
    terms.push({
      label: native
        ? 'bf16 logits and the compiled kernels’ fp32 output buffer next to the fp32 logits (forward, backward)'
        : 'bf16 logits next to their fp32 copy (forward), bf16 logits gradient (backward)',
      bytes: transient,
      formula: native
        ? '(2 + 4)·s·b·V/t on top of the 4 saved: 10·s·b·V/t at the peak'
        : '2·s·b·V/t on top of the 4 saved: 6·s·b·V/t at the peak',
    });
  return { stored, fwd: transient, bwd: transient, terms };
}

/**
 * One entry of defer_embedding_wgrad_compute's buffers: the output layer's input (the local sequence shard under SP) and
 * its logits gradient cast to the input dtype, both kept for the drain's weight-gradient GEMM (tensor_parallel/layers.py
 * ColumnParallelLinear.forward, LinearWithGradAccumulationAndAsyncCommunication.backward).
 */
export function deferredWgradEntry(m: ModelShape, c: TrainingConfig, b: number, s: number, V: number) {
  const e = actBytes(c);
  const rep = c.sp ? 1 / c.tp : 1;
  return {
    bytes: e * s * b * m.hidden * rep + (e * s * b * V) / c.tp,
    formula: `${e}·sbh${c.sp ? '/t' : ''} input + ${e}·s·b·V/t logits gradient`,
  };
}

/** One multi-token-prediction layer: its norms and eh_proj input, a decoder layer, its final norm, output-layer input and loss. */
export function mtpActivations(m: ModelShape, c: TrainingConfig, b: number, s: number, V: number): EdgeActivations {
  // The depth's decoder layers in turn: their saved tensors add up, their transients do not overlap.
  const layers = mtpKinds(m).map((k) => megatronKind(m, c, b, s, k, false));
  const layer = {
    stored: layers.reduce((a, l) => a + l.stored, 0),
    fwd: Math.max(...layers.map((l) => l.fwd)),
    bwd: Math.max(...layers.map((l) => l.bwd)),
  };
  const loss = lossActivations(m, c, b, s, V);
  const rep = c.sp ? 1 / c.tp : 1;
  const e = actBytes(c);
  const extra = e * s * b * m.hidden * rep * 2 + savedInputBytes(c) * 2 * s * b * m.hidden * rep + 8 * s * b;
  const stored = layer.stored + loss.stored + extra;
  return {
    stored,
    fwd: Math.max(layer.fwd, loss.fwd),
    bwd: Math.max(layer.bwd, loss.bwd),
    terms: [
      {
        label: 'MTP layer (enorm/hnorm inputs, eh_proj input, decoder layer, loss)',
        bytes: stored,
        formula:
          'per-layer inventory + 2·2·sbh + 2·2·sbh (eh_proj input) + final norm, output layer and cross entropy — multi_token_prediction.py',
      },
    ],
  };
}
