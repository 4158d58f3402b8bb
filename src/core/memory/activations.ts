// Activation memory held for backward, per layer and per pipeline stage, for the most-loaded rank.
// Units: bytes. s is the local sequence (s / CP: CP splits every activation, Megatron context_parallel docs).
import type { TrainingConfig } from './config.js';
import { NVFP4_BF16_LAYER_FRACTION, PRECISIONS } from './precision.js';
import type { ModelShape } from './types.js';

export interface ActivationTerm {
  label: string;
  bytes: number;
  /** Formula in words, with its source. */
  formula: string;
}

export interface LayerActivations {
  dense: number;
  moe: number;
  terms: ActivationTerm[];
}

/** Bytes of a saved linear-layer input under the file's precision recipe (TE saves the quantized copy). */
export function savedInputBytes(c: TrainingConfig): number {
  if (c.params === 'fp32') return 4;
  if (c.fp4) {
    const q = PRECISIONS[c.fp4].savedInputBytes;
    // NVFP4 keeps ~15% of linear layers in BF16 (NVFP4 paper); averaged over the layers.
    return c.fp4 === 'nvfp4' ? (1 - NVFP4_BF16_LAYER_FRACTION) * q + NVFP4_BF16_LAYER_FRACTION * 2 : q;
  }
  if (c.fp8) return PRECISIONS[`fp8-${c.fp8}`].savedInputBytes;
  return 2;
}

const actBytes = (c: TrainingConfig) => (c.params === 'fp32' ? 4 : 2);

/** Per-layer inventory of what Megatron-Core with Transformer Engine saves (memory.md §2.4, Korthikanti 2022 Table 2 re-derived). */
export function megatronLayer(m: ModelShape, c: TrainingConfig, b: number, s: number): LayerActivations {
  const t = c.tp;
  const h = m.hidden;
  const sbh = s * b * h;
  const rep = c.sp ? 1 / t : 1; // SP shards the norm/dropout regions over TP (Korthikanti §4.2.2)
  const e = actBytes(c);
  const lin = savedInputBytes(c);
  const q = (m.heads * m.headDim) / h;
  const kv = (m.kvHeads * m.headDim) / h;
  const mods = c.recompute.granularity === 'selective' ? new Set(c.recompute.modules) : new Set<string>();
  const terms: ActivationTerm[] = [];
  const add = (label: string, bytes: number, formula: string) => {
    if (bytes > 0) terms.push({ label, bytes, formula });
    return bytes;
  };
  let attn = 0;
  attn += add('LN1 input (residual)', e * sbh * rep, `${e}·sbh${c.sp ? '/t' : ''} — norm backward (TE LayerNormLinear)`);
  attn += add('QKV GEMM input (LN1 output)', lin * sbh * rep, `${lin}·sbh${c.sp ? '/t' : ''} — saved for the weight gradient`);
  // TE makes V contiguous (its view into the fused QKV output matches no supported layout), so the fused output is freed.
  attn += add('V (contiguous copy)', (e * sbh * kv) / t, `${e}·sbh·g·d/(h·t)`);
  attn += add('Q, K after RoPE', (e * sbh * (q + kv)) / t, `${e}·sbh·(a+g)·d/(h·t)`);
  if (c.attention === 'flash') {
    attn += add('attention output O (flash saves it; proj input)', (e * sbh * q) / t, `${e}·sbh·a·d/(h·t)`);
    if (lin !== e) attn += add('proj input, quantized copy', (lin * sbh * q) / t, `${lin}·sbh·a·d/(h·t)`);
    attn += add('softmax log-sum-exp (fp32)', (4 * m.heads * s * b) / t, '4·a·s·b/t — FlashAttention / cuDNN stats');
  } else if (!mods.has('core_attn')) {
    // Unfused attention: the score matrix is materialised (Korthikanti Table 2: 5as²b with dropout).
    const s2 = (m.heads * s * s * b) / t;
    attn += add('softmax output', e * s2, `${e}·a·s²·b/t`);
    if (c.attentionDropout > 0) attn += add('attention dropout mask + output', 3 * s2, '(1+2)·a·s²·b/t');
    attn += add('V repeated to all heads + context', (2 * e * sbh * q) / t, `2·${e}·sbh·a·d/(h·t)`);
  } else {
    attn += add('attention output (core attention recomputed)', (e * sbh * q) / t, `${e}·sbh·a·d/(h·t) — selective recompute of core_attn`);
  }
  if (c.hiddenDropout > 0) attn += add('dropout masks (2 per layer)', 2 * sbh * rep, '2·1 byte·sbh — hidden_dropout > 0');

  const mlpBlock = (ffn: number, tokens: number, split: number, label: string) => {
    const width = ffn / h;
    let x = 0;
    x += add(
      `${label} FC1 output`,
      (e * (m.gatedMlp ? 2 : 1) * width * sbh * tokens) / split,
      `${e}·${m.gatedMlp ? 2 : 1}·ffn·s·b/${split === 1 ? '1' : 'split'} — activation-function input`,
    );
    x += add(
      `${label} FC2 input (activation output)`,
      (lin * width * sbh * tokens) / split,
      `${lin}·ffn·s·b — saved for the weight gradient`,
    );
    return x;
  };
  let dense = add('LN2 input (residual)', e * sbh * rep, `${e}·sbh${c.sp ? '/t' : ''}`);
  let moe = dense;
  if (mods.has('mlp')) {
    // Selective recompute of the MLP keeps only its input.
  } else {
    dense += add('FC1 input (LN2 output)', lin * sbh * rep, `${lin}·sbh${c.sp ? '/t' : ''}`);
    dense += mlpBlock(m.ffn, 1, t, 'MLP');
  }
  if (m.experts > 0) {
    if (!mods.has('moe')) {
      const r = rep;
      moe += add('router input + fp32 routing probs', lin * sbh * r + 4 * s * b * m.experts * r, 'LN2 output + 4·s·b·E');
      moe += add('dispatched tokens (expert FC1 input)', lin * m.topK * sbh * r, `${lin}·k·sbh — top-k copies after all-to-all`);
      if (!mods.has('moe_act')) moe += mlpBlock(m.moeFfn, m.topK * r, c.etp, 'experts');
      else moe += add('experts FC1 output', (e * (m.gatedMlp ? 2 : 1) * m.topK * r * sbh * (m.moeFfn / h)) / c.etp, 'moe_act recomputed');
      moe += add('expert outputs kept for the weighted combine', e * m.topK * sbh * r, `${e}·k·sbh`);
      if (m.sharedExpertFfn > 0) moe += mlpBlock(m.sharedExpertFfn, 1, t, 'shared expert');
    }
  }
  return { dense: attn + dense, moe: attn + moe, terms };
}

/** Hugging Face transformers Llama layer, measured with autograd hooks (hf-activations.md, "modern" PyTorch). */
export function hfLayer(m: ModelShape, c: TrainingConfig, b: number, s: number): LayerActivations {
  const h = m.hidden;
  const i = m.ffn;
  const sbh = s * b * h;
  const sb = s * b;
  const terms: ActivationTerm[] = [];
  let bytes: number;
  if (c.attention === 'eager') {
    bytes = 24 * sbh + 8 * sb * i + 6 * m.heads * s * s * b + 8 * sb; // 24sbh + 8sbi + 6as²b + 8sb
    terms.push({
      label: 'HF eager layer',
      bytes,
      formula: '24·sbh + 8·sbi + 6·a·s²·b + 8·sb (scores stored fp32 and bf16; K/V repeated) — hf-activations.md',
    });
  } else {
    bytes = (20 + (4 * m.kvHeads) / m.heads) * sbh + 8 * sb * i + 4 * m.heads * s * b + 8 * sb;
    terms.push({ label: 'HF flash/sdpa layer', bytes, formula: '(20 + 4g/a)·sbh + 8·sbi + 4·a·s·b + 8·sb — hf-activations.md' });
  }
  return { dense: bytes, moe: bytes, terms };
}

/** Full recompute keeps only each checkpointed layer's input (Korthikanti Table 2: 2sbh, /t with SP). */
export function checkpointInput(m: ModelShape, c: TrainingConfig, b: number, s: number): number {
  const rep = c.profile === 'megatron' && c.sp ? 1 / c.tp : 1;
  return actBytes(c) * s * b * m.hidden * rep;
}
