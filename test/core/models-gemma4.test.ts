// Gemma 4 (transformers models/gemma4): the catalogue shapes, their exact parameter counts (derived by hand below from
// modeling_gemma4.py), the KV cache of global and KV-shared layers, and fromHfConfig on the real config.json files
// (test/fixtures/hf/: copies in ai-dynamo/aiconfigurator model_configs/@095f58a, trimmed to the text_config and the
// vision tower's size; hf_quant_config.json verbatim).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateKvCache, kvPerToken, kvTokenFormula, modelAttentionWindows } from '../../src/core/memory/kvcache.js';
import { attentionGroups, countParams, isGlobalLayer, layerGroups, sumGroups } from '../../src/core/memory/params.js';
import type { ModelShape } from '../../src/core/memory/types.js';
import { catalogueEntry, matchModelName } from '../../src/core/models/catalogue.js';
import { fromHfConfig } from '../../src/core/models/hfConfig.js';
import { readHfFixture } from '../helpers.js';

const shape = (id: string): ModelShape => {
  const e = catalogueEntry(id);
  assert.ok(e, id);
  return e.shape;
};
const GIB = 1024 ** 3;

const read = readHfFixture;

test('Gemma 4 31B: 60 layers, 10 global with 512-wide heads over 4 KV heads and no v_proj', () => {
  const c = countParams(shape('gemma4-31b'));
  // h 5376, 32 heads, 16 KV heads × 256; global: 32 × 512 queries, 4 KV heads × 512, K = V (attention_k_eq_v).
  // Windowed layer: q 5376·8192 + k, v 2 · 5376·4096 + o 8192·5376 = 132_120_576.
  // Global layer:   q 5376·16384 + k 5376·2048 + o 16384·5376 = 187_170_816.
  assert.equal(c.attention, 50 * 132_120_576 + 10 * 187_170_816);
  assert.equal(c.denseMlp, 60 * 3 * 5376 * 21504);
  // Four RMSNorms of h per layer (input, post-attention, pre- and post-feedforward), q_norm + k_norm of the head dim
  // (256 windowed, 512 global), the final norm.
  assert.equal(c.norms, 60 * 4 * 5376 + 50 * 2 * 256 + 10 * 2 * 512 + 5376);
  assert.equal(c.embedding, 262144 * 5376); // tied
  // 1_409_286_144 + 8_477_736_960 + 20_808_990_720 + 1_331_456
  assert.equal(c.total, 30_697_345_280);
});

test('Gemma 4 26B-A4B: 128 experts of 704 (top 8) beside a 2112-wide dense MLP; router scales and branch norms', () => {
  const s = shape('gemma4-26b-a4b');
  const c = countParams(s);
  // Windowed: q 2816·4096 + k, v 2 · 2816·2048 + o 4096·2816 = 34_603_008; global: q 2816·8192 + k 2816·1024 + o = 49_020_928.
  assert.equal(c.attention, 25 * 34_603_008 + 5 * 49_020_928);
  assert.equal(c.routedExperts, 30 * 128 * 3 * 2816 * 704);
  assert.equal(c.sharedExperts, 30 * 3 * 2816 * 2112);
  // proj h·E, scale h, per_expert_scale E (HF Gemma4TextRouter).
  assert.equal(c.router, 30 * (2816 * 128 + 2816 + 128));
  // Seven norms of h per layer: the four sandwich norms and pre_feedforward_layernorm_2, post_feedforward_layernorm_1, _2.
  assert.equal(c.norms, 30 * 7 * 2816 + 25 * 2 * 256 + 5 * 2 * 512 + 2816);
  // 738_197_504 + 1_110_179_840 + 22_837_985_280 + 535_265_280 + 10_901_760 + 612_096
  assert.equal(c.total, 25_233_141_760);
  assert.equal(c.moeLayers, 30);
});

test('Gemma 4 E2B: per-layer embeddings, 20 KV-shared layers with double-wide MLPs, global layers every fifth', () => {
  const c = countParams(shape('gemma4-e2b'));
  // Layers 0–14 own their K/V (globals 4, 9, 14); layers 15–34 share them (globals 19, 24, 29, 34).
  // Own windowed: q 1536·2048 + k, v 2 · 1536·256 + o = 7_077_888; own global: q 1536·4096 + k, v 2 · 1536·512 + o = 14_155_776;
  // shared windowed: q + o = 6_291_456; shared global: 12_582_912.
  assert.equal(c.attention, 12 * 7_077_888 + 3 * 14_155_776 + 16 * 6_291_456 + 4 * 12_582_912);
  // 15 MLPs of 6144 and 20 of 12288 (use_double_wide_mlp).
  assert.equal(c.denseMlp, 15 * 3 * 1536 * 6144 + 20 * 3 * 1536 * 12288);
  // PLE: table 262144 × 35·256, model projection 1536 × 35·256, per layer gate + projection 2 · 1536·256.
  assert.equal(c.perLayerEmbedding, 262144 * 8960 + 1536 * 8960 + 35 * 2 * 1536 * 256);
  // Five norms of h per layer (the sandwich four + post_per_layer_input_norm); q_norm always, k_norm in own layers only;
  // the final norm and per_layer_projection_norm (256).
  assert.equal(c.norms, 35 * 5 * 1536 + (12 * 512 + 3 * 1024 + 16 * 256 + 4 * 512) + 1536 + 256);
  assert.equal(c.total, 4_628_569_344);
});

test('Gemma 4 E4B: 42 layers, 18 KV-shared, per-layer embeddings of 256', () => {
  const c = countParams(shape('gemma4-e4b'));
  // Own layers 0–23 (globals 5, 11, 17, 23), shared 24–41 (globals 29, 35, 41).
  // Own windowed: q 2560·2048 + k, v 2 · 2560·512 + o = 13_107_200; own global 26_214_400; shared 10_485_760 / 20_971_520.
  assert.equal(c.attention, 20 * 13_107_200 + 4 * 26_214_400 + 15 * 10_485_760 + 3 * 20_971_520);
  assert.equal(c.perLayerEmbedding, 262144 * 10752 + 2560 * 10752 + 42 * 2 * 2560 * 256);
  // 671_088_640 + 2_901_147_648 + 587_202_560 + 3_303_014_400 + 560_128
  assert.equal(c.total, 7_463_013_376);
});

test('the mean layer of a kind is exact over the model: kind count × mean groups = the per-variant sum', () => {
  for (const id of ['gemma4-e2b', 'gemma4-e4b', 'gemma4-26b-a4b', 'gemma4-31b']) {
    const s = shape(id);
    const c = countParams(s);
    const kind = s.experts > 0 ? 'moe' : 'dense';
    const layer = sumGroups(layerGroups(s, kind));
    // Everything but the embedding, the final norm and the PLE projection norm sits in the layers.
    const inLayers = c.total - c.embedding - s.hidden - (s.perLayerEmbedding?.width ?? 0);
    assert.equal(Math.round(s.layers * layer), inLayers, id);
  }
  // A windowed layer of the 31B alone, and a global one.
  const s = shape('gemma4-31b');
  assert.equal(
    sumGroups(attentionGroups(s, 1, { global: false, kvShared: false }), (g) => g.category === 'attention'),
    132_120_576,
  );
  assert.equal(
    sumGroups(attentionGroups(s, 1, { global: true, kvShared: false }), (g) => g.category === 'attention'),
    187_170_816,
  );
  assert.deepEqual(
    Array.from({ length: 12 }, (_, i) => isGlobalLayer(s, i)),
    [false, false, false, false, false, true, false, false, false, false, false, true],
  );
});

test('KV cache per token: global layers cache their own geometry, KV-shared layers none', () => {
  // 26B-A4B, BF16: 25 windowed layers × 2 · 8 · 256 + 5 global × 2 · 2 · 512 = 112_640 elements = 225_280 B.
  const moe = kvPerToken(shape('gemma4-26b-a4b'));
  assert.equal(moe.elements, 25 * 4096 + 5 * 2048);
  assert.equal(moe.bytes, 225_280);
  // TP 4: ceil(8/4) = 2 windowed KV heads, ceil(2/4) = 1 global (replicated): 25 · 1024 + 5 · 1024 elements.
  assert.equal(kvPerToken(shape('gemma4-26b-a4b'), { tp: 4 }).bytes, 2 * (25 * 1024 + 5 * 1024));
  // 31B, FP8 cache (the NVFP4 checkpoint's kv_cache_quant_algo): 50 · 2 · 16 · 256 + 10 · 2 · 4 · 512 = 450_560 B.
  assert.equal(kvPerToken(shape('gemma4-31b'), { dtype: 'fp8' }).bytes, 450_560);
  // E2B: only layers 0–14 cache (12 windowed × 2 · 256 + 3 global × 2 · 512 = 9216 elements).
  const e2b = kvPerToken(shape('gemma4-e2b'));
  assert.deepEqual(
    e2b.layers,
    Array.from({ length: 15 }, (_, i) => i),
  );
  assert.equal(e2b.bytes, 2 * 9216);
  // E4B: layers 0–23: 20 × 2 · 2 · 256 + 4 × 2 · 2 · 512.
  assert.equal(kvPerToken(shape('gemma4-e4b')).bytes, 2 * (20 * 1024 + 4 * 2048));
  // Reports and the panel spell the sum by layer width, not as one layers × heads × dim product.
  assert.equal(kvTokenFormula(moe), '(25 layers × 4096 + 5 layers × 2048 elements) × 2 B bf16');
});

test('sliding-window pools: 31B windowed layers keep 1024 tokens, global ones max_seq_len; shares by window × bytes', () => {
  const s = shape('gemma4-31b');
  const w = modelAttentionWindows(s, 8192);
  assert.deepEqual(w.slice(0, 6), [1024, 1024, 1024, 1024, 1024, 8192]);
  const k = estimateKvCache({
    shape: s,
    gpu: { id: 'custom', name: 'custom 80 GiB', bytes: 80 * GIB, source: 'test' },
    weightBytes: 0,
    runtimeBytes: 2 * GIB,
    maxSeqLen: 8192,
    maxAttentionWindow: w,
  });
  const pools = k.windowPools ?? [];
  assert.deepEqual(
    pools.map((p) => [p.window, p.layers, p.bytesPerToken]),
    [
      [1024, 50, 50 * 2 * 16 * 256 * 2],
      [8192, 10, 10 * 2 * 4 * 512 * 2],
    ],
  );
  // 1024 · 819_200 / (1024 · 819_200 + 8192 · 81_920) = 5/9.
  assert.equal(pools[0]?.share, 5 / 9);
});

test('fromHfConfig reads the Gemma 4 26B-A4B config: top_k_experts, the dense MLP as a shared expert, global heads', () => {
  const r = read('google--gemma-4-26B-A4B');
  assert.equal(r.architecture, 'Gemma4ForConditionalGeneration');
  const s = r.shape;
  assert.deepEqual(
    [s.layers, s.hidden, s.heads, s.kvHeads, s.headDim, s.vocab, s.experts, s.topK, s.moeFfn, s.sharedExpertFfn, s.sharedExperts],
    [30, 2816, 16, 8, 256, 262144, 128, 8, 704, 2112, 1],
  );
  assert.deepEqual(s.globalAttention, { headDim: 512, kvHeads: 2, kEqV: true });
  assert.deepEqual([s.slidingWindow, s.slidingWindowPattern], [{ window: 1024, everyOther: false }, 6]);
  assert.equal(s.kvSharedLayers, undefined);
  assert.equal(s.perLayerEmbedding, undefined); // hidden_size_per_layer_input 0
  assert.ok(s.tiedEmbeddings && s.qkNorm && s.postNorms && s.moeBranchNorms);
  assert.equal(s.activation, 'geglu');
  assert.ok(!r.assumptions.some((a) => /top-k/.test(a.what)), 'top-k is read, not assumed');
  assert.equal(countParams(s).total, countParams(shape('gemma4-26b-a4b')).total);
  assert.equal(r.weights.dtype, 'bf16');
  assert.ok(r.notes.some((n) => /vision encoder \(vision_config: 27 layers of width 1152\)/.test(n)));
});

test('fromHfConfig reads the NVIDIA NVFP4 checkpoints: experts alone (26B-A4B), MLPs (31B), FP8 KV cache', () => {
  const moe = read('nvidia--Gemma-4-26B-A4B-NVFP4');
  assert.deepEqual([moe.weights.dtype, moe.weights.scope, moe.weights.kvCache], ['nvfp4', 'experts', 'fp8']);
  const dense = read('nvidia--Gemma-4-31B-IT-NVFP4');
  assert.deepEqual([dense.weights.dtype, dense.weights.scope, dense.weights.kvCache], ['nvfp4', 'mlp', 'fp8']);
  const s = dense.shape;
  // num_experts null, enable_moe_block false: dense.
  assert.deepEqual([s.layers, s.hidden, s.ffn, s.heads, s.kvHeads, s.experts, s.topK], [60, 5376, 21504, 32, 16, 0, 0]);
  assert.deepEqual(s.globalAttention, { headDim: 512, kvHeads: 4, kEqV: true });
  assert.equal(countParams(s).total, 30_697_345_280);
});

test('fromHfConfig reads E2B-style keys: KV-shared layers, double-wide MLPs, PLE; global KV heads only with k_eq_v', () => {
  // The E2B text_config as convert_gemma4_weights.py writes it (its _VARIANTS["gemma-4-e2b"] over the class defaults).
  const types = Array.from({ length: 35 }, (_, i) => ((i + 1) % 5 ? 'sliding_attention' : 'full_attention'));
  const r = fromHfConfig({
    architectures: ['Gemma4ForConditionalGeneration'],
    model_type: 'gemma4',
    text_config: {
      model_type: 'gemma4_text',
      hidden_size: 1536,
      hidden_size_per_layer_input: 256,
      intermediate_size: 6144,
      num_hidden_layers: 35,
      layer_types: types,
      num_attention_heads: 8,
      num_key_value_heads: 1,
      num_global_key_value_heads: null,
      head_dim: 256,
      global_head_dim: 512,
      attention_k_eq_v: false,
      num_kv_shared_layers: 20,
      use_double_wide_mlp: true,
      enable_moe_block: false,
      sliding_window: 512,
      max_position_embeddings: 131072,
      vocab_size: 262144,
      vocab_size_per_layer_input: 262144,
      hidden_activation: 'gelu_pytorch_tanh',
      tie_word_embeddings: true,
    },
  });
  assert.ok(r.ok);
  const s = r.shape;
  assert.deepEqual(s.globalAttention, { headDim: 512, kvHeads: 1, kEqV: false });
  assert.deepEqual([s.kvSharedLayers, s.doubleWideSharedMlp, s.slidingWindowPattern], [20, true, 5]);
  assert.deepEqual(s.perLayerEmbedding, { width: 256, vocab: 262144 });
  assert.equal(countParams(s).total, countParams(shape('gemma4-e2b')).total);
});

test('Gemma 4 names resolve; Gemma 2 and 3 names resolve as before and count their KerasHub totals with sandwich norms', () => {
  const found = (name: string) => {
    const m = matchModelName(name);
    return m.kind === 'found' ? m.entry.id : m.kind;
  };
  assert.equal(found('google/gemma-4-31B-it'), 'gemma4-31b');
  assert.equal(found('gemma-4-26B-A4B-it'), 'gemma4-26b-a4b');
  assert.equal(found('nvidia/Gemma-4-31B-IT-NVFP4'), 'gemma4-31b');
  assert.equal(found('nvidia/Gemma-4-26B-A4B-NVFP4'), 'gemma4-26b-a4b');
  assert.equal(found('google/gemma-4-E2B-it'), 'gemma4-e2b');
  assert.equal(found('google/gemma-4-E4B-it'), 'gemma4-e4b');
  assert.equal(found('google/gemma-4-E2B-it-assistant'), 'none'); // the MTP drafter is another model
  for (const [name, id] of [
    ['google/gemma-3-27b-it', 'gemma3-27b'],
    ['gemma-3-4b', 'gemma3-4b'],
    ['Gemma3ModelProvider4B', 'gemma3-4b'],
    ['gemma3_1b', 'gemma3-1b'],
    ['google/gemma-2-9b', 'gemma2-9b'],
    ['gemma2_2b', 'gemma2-2b'],
  ] as const)
    assert.equal(found(name), id, name);
  // post_attention_layernorm and post_feedforward_layernorm are counted: Gemma 2 and Gemma 3 1B equal KerasHub's counts.
  for (const id of ['gemma2-2b', 'gemma2-9b', 'gemma2-27b', 'gemma3-1b'])
    assert.equal(countParams(shape(id)).total, catalogueEntry(id)?.published.total, id);
});
