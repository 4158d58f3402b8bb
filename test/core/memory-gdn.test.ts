// Gated DeltaNet (linear-attention) layers of Qwen3-Next / Qwen3.5 / Qwen3.6: which layers they are, their parameters
// group by group (Megatron ssm/gated_delta_net/common.py _GDNBase; HF modeling_qwen3_5.py Qwen3_5GatedDeltaNet), the gated
// attention's double-width q projection, and the bytes a GDN layer saves for backward (gdn.py with fla's kernels). Every
// expected value is derived by hand in the comment above it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphCapture, megatronKind } from '../../src/core/memory/activations.js';
import {
  attentionGroups,
  countKinds,
  countParams,
  gdnGroups,
  isGdnLayer,
  lastLayerKind,
  moeGroups,
  mtpGroups,
  rankShare,
  sumGroups,
} from '../../src/core/memory/params.js';
import { attentionLayerIndices } from '../../src/core/memory/kvcache.js';
import { recurrentState } from '../../src/core/memory/recurrentState.js';
import type { ModelShape } from '../../src/core/memory/types.js';
import { catalogueEntry, findCatalogueId } from '../../src/core/models/catalogue.js';
import { fromHfConfig } from '../../src/core/models/hfConfig.js';
import { modelShape, NO_RECOMPUTE, trainingConfig } from '../helpers.js';

const next = modelShape('qwen3-next-80b-a3b');
const byName = (m: ModelShape) => Object.fromEntries(gdnGroups(m).map((x) => [x.name, [x.n, x.shard]]));

test('Qwen3-Next: of every 4 layers the last is gated attention, the other three Gated DeltaNet; every layer MoE', () => {
  // 48 layers, full_attention_interval 4: full attention at 3, 7, …, 47 (12 layers), GDN elsewhere (36), all MoE.
  assert.deepEqual(countKinds(next, 0, 48), { dense: 0, moe: 12, mamba: 0, attention: 0, mlp: 0, 'moe-mlp': 0, gdn: 0, 'gdn-moe': 36 });
  assert.deepEqual(
    [0, 1, 2, 3, 47].map((i) => isGdnLayer(next, i)),
    [true, true, true, false, false],
  );
  // A pipeline stage of layers 5..11: full attention at 7 and 11, GDN at 5, 6, 8, 9, 10.
  assert.deepEqual([countKinds(next, 5, 7).moe, countKinds(next, 5, 7)['gdn-moe']], [2, 5]);
  // The KV cache and the recurrent state read the same rule: 12 attention layers, 36 GDN layers.
  assert.deepEqual(attentionLayerIndices(next, [...Array(48).keys()]), [3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47]);
  assert.equal(recurrentState(next)?.layers, 36);
  // The MTP layer replicates the last layer, a full-attention MoE layer.
  assert.equal(lastLayerKind(next), 'moe');
});

test('linear attention with MoE every k-th layer and with dense layers: counted arithmetically, equal to a loop', () => {
  const base = { ...next, denseLayersBeforeMoe: 0 };
  // Interval 4, MoE on even layers (moe_layer_freq 2): of 16 layers the full-attention ones (3, 7, 11, 15) are odd, so
  // dense; the 8 even layers are GDN + MoE; the other 4 odd layers GDN + MLP.
  assert.deepEqual(countKinds({ ...base, moeLayerFreq: 2 }, 0, 16), {
    dense: 4,
    moe: 0,
    mamba: 0,
    attention: 0,
    mlp: 0,
    'moe-mlp': 0,
    gdn: 4,
    'gdn-moe': 8,
  });
  // A typo of 10⁹ layers, MoE every 3rd (i % 3 == 0), interval 4 ((i + 1) % 4 == 0): full attention 250,000,000;
  // MoE ⌈10⁹/3⌉ = 333,333,334; both: i ≡ 3 (mod 12), i = 3 + 12j ≤ 999,999,999 → j = 0..83,333,333: 83,333,334.
  const big = countKinds({ ...base, moeLayerFreq: 3 }, 0, 1e9);
  assert.deepEqual([big.moe, big['gdn-moe'], big.dense, big.gdn], [83_333_334, 250_000_000, 166_666_666, 500_000_000]);
  // The same rule over a window [37, 37 + 500) against a per-layer loop.
  const m = { ...base, moeLayerFreq: 3 };
  const loop = { moe: 0, 'gdn-moe': 0, dense: 0, gdn: 0 };
  for (let i = 37; i < 537; i++) {
    const moe = i % 3 === 0;
    const g = isGdnLayer(m, i);
    loop[g ? (moe ? 'gdn-moe' : 'gdn') : moe ? 'moe' : 'dense']++;
  }
  const w = countKinds(m, 37, 500);
  assert.deepEqual({ moe: w.moe, 'gdn-moe': w['gdn-moe'], dense: w.dense, gdn: w.gdn }, loop);
  // Hybrid Mamba stacks are untouched: Nemotron 3 Nano's pattern still counts 23 Mamba layers and no GDN layer.
  const nano = countKinds(modelShape('nemotron3-nano-30b-a3b'), 0, 52);
  assert.deepEqual([nano.mamba, nano.gdn + nano['gdn-moe']], [23, 0]);
});

test('one Qwen3-Next GDN layer holds 33,720,512 parameters, split over TP by heads except the norms', () => {
  // h 2048; q, k: 16 key heads × 128 = 2048 each; v, z: 32 value heads × 128 = 4096 each; conv over q, k, v: 8192 channels.
  // in_proj: 2048 × (2048 + 2048 + 4096 + 4096 + 32 + 32) = 2048 × 12352 = 25,296,896; conv1d 8192 × 4 = 32,768 (no bias);
  // A_log + dt_bias 2 × 32 = 64; gated RMSNorm over d_v 128; out_proj 4096 × 2048 = 8,388,608; input norm 2048.
  assert.deepEqual(byName(next), {
    'input norm': [2048, 'rep'],
    'GDN in_proj (q, k, v, z, β, α)': [25_296_896, 'tp'],
    'GDN conv1d': [32_768, 'tp'],
    'GDN A_log, dt_bias': [64, 'tp'],
    'GDN gated norm': [128, 'rep'],
    'GDN out_proj': [8_388_608, 'tp'],
  });
  // 25,296,896 + 32,768 + 64 + 128 + 8,388,608 + 2048 = 33,720,512.
  assert.equal(sumGroups(gdnGroups(next)), 33_720_512);
  // TP 4: (25,296,896 + 32,768 + 64 + 8,388,608) / 4 = 8,429,584, plus the replicated 2048 + 128 = 8,431,760.
  assert.equal(rankShare(gdnGroups(next), 4, 1, 1).dense, 8_431_760);
  // in_proj and out_proj are GEMMs (FP8/FP4, LoRA) and 2-D Muon weights; the 3-D conv weight and the vectors are not.
  assert.deepEqual(
    gdnGroups(next).map((x) => [x.gemm, x.matrix]),
    [
      [false, false],
      [true, true],
      [false, false],
      [false, false],
      [false, false],
      [true, true],
    ],
  );
});

test('gated attention: linear_qkv also emits the output gate, so Q is counted twice', () => {
  // Qwen3-Next full attention: 16 heads × 256 = 4096 query width, doubled by the gate; 2 KV heads × 256 = 512 each.
  // qkv: 2048 × (2 × 4096 + 2 × 512) = 18,874,368; output 4096 × 2048 = 8,388,608; q/k norms 2 × 256; input norm 2048.
  const a = attentionGroups(next);
  assert.equal(a.find((x) => x.name === 'qkv projection')?.n, 18_874_368);
  assert.equal(sumGroups(a), 18_874_368 + 8_388_608 + 512 + 2048);
  // Without the gate the query width is single: 2048 × (4096 + 1024).
  assert.equal(attentionGroups({ ...next, attentionOutputGate: false }).find((x) => x.name === 'qkv projection')?.n, 10_485_760);
});

test('Qwen3-Next counts 79,674,391,296 parameters, and 81,324,862,720 with the MTP layer its checkpoint ships', () => {
  // Embeddings, untied: 2 × 151,936 × 2048 = 622,329,856; final norm 2048.
  // 12 attention layers × 27,265,536 = 327,186,432; 36 GDN layers × 33,720,512 = 1,213,938,432.
  // 48 MoE blocks × (pre-MLP norm 2048 + router 2048 × 512 = 1,048,576 + experts 512 × 3 × 2048 × 512 = 1,610,612,736
  //   + shared expert 3 × 2048 × 512 = 3,145,728 + shared-expert gate 2048) = 48 × 1,614,811,136 = 77,510,934,528.
  // Sum: 622,329,856 + 2048 + 327,186,432 + 1,213,938,432 + 77,510,934,528 = 79,674,391,296.
  assert.equal(sumGroups(moeGroups(next)), 1_614_811_136);
  const c = countParams(next);
  assert.equal(c.total, 79_674_391_296);
  assert.deepEqual([c.denseLayers, c.moeLayers], [0, 48]);
  // One MTP layer (not in config.json, shipped as mtp.*): enorm + hnorm 4096, eh_proj 2 × 2048 × 2048 = 8,388,608, a
  // full-attention MoE layer 27,265,536 + 1,614,811,136, final norm 2048 = 1,650,471,424; the checkpoint's 81.3B.
  assert.equal(sumGroups(mtpGroups(next)), 1_650_471_424);
  assert.equal(c.total + sumGroups(mtpGroups(next)), 81_324_862_720);
});

/** A small GDN model: h 256, 4 heads of 64 (2 KV heads) with the output gate, GDN 2 key heads and 4 value heads of 32. */
const small: ModelShape = {
  ...next,
  name: 'gdn-small',
  layers: 8,
  hidden: 256,
  ffn: 512,
  heads: 4,
  kvHeads: 2,
  headDim: 64,
  vocab: 1024,
  experts: 0,
  topK: 0,
  moeFfn: 0,
  sharedExpertFfn: 0,
  sharedExperts: 0,
  sharedExpertGate: false,
  linearAttention: { fullAttentionInterval: 4, keyHeads: 2, valueHeads: 4, keyHeadDim: 32, valueHeadDim: 32, convKernel: 4 },
};
const c128 = trainingConfig({ seq: 128 });

test('a GDN + MLP layer saves 1,057,792 bytes at s 128, b 1 in BF16, every term by hand', () => {
  // s·b·h = 128 × 256 = 32,768; q/k width 2 × 32 = 64 each; v and z width 4 × 32 = 128; BF16 (2 B), TP 1.
  const terms = Object.fromEntries(megatronKind(small, c128, 1, 128, 'gdn').terms.map((x) => [x.label, x.bytes]));
  assert.deepEqual(terms, {
    'GDN: norm input (residual)': 65_536, // 2 · 32,768
    'GDN: in_proj input (norm output)': 65_536, // 2 · 32,768
    'GDN: conv1d input (q, k, v)': 65_536, // 2 · 128 · (64 + 64 + 128)
    'GDN: L2-normalised q, k and their rstd (fp32)': 34_816, // 2 · 128 · 128 + 4 · 128 · 2 · 2
    'GDN: q, k repeated to the value heads, v': 98_304, // 2 · 128 · 4 · (32 + 32 + 32)
    'GDN: decay g (fp32 cumsum), β, WY matrix A': 68_608, // 128 · 4 · (4 + 2 + 2 · 64)
    'GDN: softplus input of the decay (fp32)': 2_048, // 4 · 128 · 4
    'GDN: kernel output (norm input) and output gate z': 65_536, // 2 · 2 · 128 · 128
    'GDN: normalised output (gate product input) and rstd (fp32)': 34_816, // 2 · 128 · 128 + 4 · 128 · 4
    'GDN: out_proj input (gated norm output)': 32_768, // 2 · 128 · 128
    'MLP: LN2 input (residual)': 65_536, // 2 · 32,768
    'MLP: FC1 input (LN2 output)': 65_536,
    'MLP: FC1 output': 262_144, // 2 · 2 · 512 · 128
    'MLP: FC2 input (activation output)': 131_072, // 2 · 512 · 128
  });
  // GDN 533,504 + MLP 524,288.
  const k = megatronKind(small, c128, 1, 128, 'gdn');
  assert.equal(k.stored, 1_057_792);
  // Forward working set: chunk states 2 · 1 · ⌈128/64⌉ · 4 · 32 · 32 = 16,384, plus w, u, v_new 2 · 128 · 4 · (32 + 64) = 98,304.
  assert.equal(k.fwd, 114_688);
  // Backward: the MLP's 2 · 128 · (2 · 512 + 256) = 327,680 exceeds the GDN's 2 · 16,384 + 98,304 + 2 · 128 · 4 · 96 = 229,376.
  assert.equal(k.bwd, 327_680);
  // TP 2 with SP halves every term (norm regions hold s/t tokens, the mixer's heads split over TP).
  assert.equal(megatronKind(small, trainingConfig({ seq: 128, tp: 2, sp: true }), 1, 128, 'gdn').stored, 528_896);
  // gdn_norm_out recompute drops the norm's output and rstd and the out_proj input: 34,816 + 32,768.
  const rc = trainingConfig({ seq: 128, recompute: { ...NO_RECOMPUTE, granularity: 'selective', modules: ['gdn_norm_out'] } });
  assert.equal(megatronKind(small, rc, 1, 128, 'gdn').stored, 1_057_792 - 67_584);
  // A CUDA graph of the `attn` scope captures the mixer: one callable, the GDN bytes 533,504.
  assert.deepEqual(graphCapture('gdn', k, ['attn']), { captured: 533_504, callables: 1 });
});

test('gated attention saves the gate and the gated projection input beside the attention output', () => {
  // Flash attention, a 4 × 64 = 256 query width (a·d/h = 1), 2 KV heads (g·d/h = 0.5), s·b·h = 32,768:
  // LN1 input 65,536, QKV input 65,536, V 32,768, Q + K 98,304, O 65,536, softmax LSE 4 · 4 · 128 = 2048;
  // the gate adds its sigmoid input 65,536 and the gated output the projection saves 65,536.
  const gated = megatronKind(small, c128, 1, 128, 'dense');
  const plain = megatronKind({ ...small, attentionOutputGate: false }, c128, 1, 128, 'dense');
  assert.equal(gated.stored - plain.stored, 131_072);
  const t = Object.fromEntries(gated.terms.map((x) => [x.label, x.bytes]));
  assert.deepEqual(
    [t['attention output O (flash saves it; gate input)'], t['output gate (sigmoid input)'], t['gated output (proj input)']],
    [65_536, 65_536, 65_536],
  );
});

test('Qwen3.5 and Qwen3.6 entries: 3.6 shares 3.5 shapes under its own names, and no 3.6 name resolves to a 3.5 entry', () => {
  assert.equal(findCatalogueId('Qwen/Qwen3.6-35B-A3B'), 'qwen3.6-35b-a3b');
  assert.equal(findCatalogueId('nvidia/Qwen3.6-27B-NVFP4'), 'qwen3.6-27b');
  assert.equal(findCatalogueId('Qwen/Qwen3.5-35B-A3B'), 'qwen3.5-35b-a3b');
  const shape = (id: string) => ({ ...catalogueEntry(id)!.shape, name: '' });
  assert.deepEqual(shape('qwen3.6-35b-a3b'), shape('qwen3.5-35b-a3b'));
  assert.deepEqual(shape('qwen3.6-27b'), shape('qwen3.5-27b'));
  // Qwen3.5-122B-A10B: 48 layers = 12 × (3 GDN + 1 attention), 64 value heads; 27B dense: 16 × 4 layers with an MLP each.
  assert.deepEqual(countKinds(modelShape('qwen3.5-122b-a10b'), 0, 48), {
    dense: 0,
    moe: 12,
    mamba: 0,
    attention: 0,
    mlp: 0,
    'moe-mlp': 0,
    gdn: 0,
    'gdn-moe': 36,
  });
  assert.deepEqual([countKinds(modelShape('qwen3.5-27b'), 0, 64).dense, countKinds(modelShape('qwen3.5-27b'), 0, 64).gdn], [16, 48]);
  // Qwen3.5-27B GDN layer: h 5120; q, k 2048 each, v and z 48 × 128 = 6144 each; in_proj 5120 × (2048 · 2 + 6144 · 2 + 96)
  // = 5120 × 16,480 = 84,377,600; conv (4096 + 6144) × 4 = 40,960; A_log + dt_bias 96; gated norm 128; out_proj 6144 × 5120
  // = 31,457,280; input norm 5120: 115,881,184.
  assert.equal(sumGroups(gdnGroups(modelShape('qwen3.5-27b'))), 115_881_184);
  // NVIDIA's Qwen3.5 NVFP4 checkpoints quantize the routed experts only; Qwen3.6's mix NVFP4 MLPs with FP8 attention.
  const w = (id: string, hf: string) => catalogueEntry(id)!.checkpoints.find((x) => x.hfId === hf)!.weights;
  assert.deepEqual(
    [w('qwen3.5-397b-a17b', 'nvidia/Qwen3.5-397B-A17B-NVFP4').scope, w('qwen3.5-122b-a10b', 'nvidia/Qwen3.5-122B-A10B-NVFP4').scope],
    ['experts', 'experts'],
  );
  const q36 = w('qwen3.6-35b-a3b', 'nvidia/Qwen3.6-35B-A3B-NVFP4');
  assert.deepEqual([q36.dtype, q36.scope, q36.other, q36.kvCache], ['nvfp4', 'mlp', 'fp8', 'fp8']);
});

test('a config.json that states only layer_types gives the same Gated DeltaNet period', () => {
  // transformers ≥ 5 writes layer_types and may drop full_attention_interval: 8 layers, full attention at 3 and 7 → period 4.
  const types = ['linear_attention', 'linear_attention', 'linear_attention', 'full_attention'];
  const json = {
    architectures: ['Qwen3_5ForCausalLM'],
    model_type: 'qwen3_5_text',
    hidden_size: 256,
    intermediate_size: 512,
    num_hidden_layers: 8,
    num_attention_heads: 4,
    num_key_value_heads: 2,
    head_dim: 64,
    vocab_size: 1024,
    layer_types: [...types, ...types],
    linear_num_key_heads: 2,
    linear_num_value_heads: 4,
    linear_key_head_dim: 32,
    linear_value_head_dim: 32,
    linear_conv_kernel_dim: 4,
  };
  const r = fromHfConfig(json);
  assert.ok(r.ok);
  assert.deepEqual(r.ok && r.shape.linearAttention, small.linearAttention);
  assert.deepEqual(r.ok && [r.shape.attentionOutputGate, r.shape.qkNorm], [true, true]);
});
