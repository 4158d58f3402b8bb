// DeepSeek Sparse Attention (the DSA "lightning indexer") in the memory model, each number derived by hand from its source:
// - weights: Megatron-LM megatron/core/transformer/experimental_attention_variant/dsa.py@d98e8a64 DSAIndexer (linear_wq_b
//   q_lora_rank → index_n_heads·index_head_dim, linear_wk hidden → index_head_dim, k_norm a LayerNorm with weight and bias,
//   linear_weights_proj hidden → index_n_heads; all parallel_mode "duplicated"), is_dsa_skip_topk_layer for GLM-5.2's sharing;
// - serving cache: TensorRT-LLM tensorrt_llm/_torch/attention_backend/sparse/dsa/cache_manager.py get_cache_bytes_per_token
//   (index_head_dim FP8 bytes + index_head_dim/128 FP32 scales per token and indexer layer, whatever the KV dtype);
// - training: dsa.py FusedDSAIndexerLoss.save_for_backward (q, weights, k, top-k indices) with the indexer loss on.
// Fixtures: verbatim HF config.json copies from ai-dynamo/aiconfigurator model_configs/@095f58a (DeepSeek-V3.2, GLM-5.2).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { megatronKind } from '../../src/core/memory/activations.js';
import { dsaIndexerKeyBytes, kvPerToken, kvTokenFormula } from '../../src/core/memory/kvcache.js';
import {
  attentionGroups,
  countParams,
  dsaIndexerGroups,
  dsaIndexerLayerCount,
  dsaIndexerShare,
  hasDsaIndexer,
  layerGroups,
  mtpGroups,
  rankShare,
  sumGroups,
} from '../../src/core/memory/params.js';
import type { ModelShape } from '../../src/core/memory/types.js';
import { catalogueEntry, matchModelName } from '../../src/core/models/catalogue.js';
import { fromHfConfig } from '../../src/core/models/hfConfig.js';
import { REPO, trainingConfig } from '../helpers.js';

const shape = (id: string): ModelShape => {
  const e = catalogueEntry(id);
  assert.ok(e, id);
  return e.shape;
};
const v32 = shape('deepseek-v3.2');
const glm5 = shape('glm-5');
const glm52 = shape('glm-5.2');
const { dsa: _dsa, ...v3Like } = v32; // DeepSeek-V3.2 without its indexer: the DeepSeek-V3 shape
/** Equal up to floating-point rounding (an averaged indexer share of 18/75 is not exact in binary). */
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) <= 1e-6 * Math.abs(b), `${a} ≉ ${b}`);
const withoutDsa = (m: ModelShape): ModelShape => {
  const { dsa: _d, ...rest } = m;
  return rest;
};

test('DSA indexer weights per layer: wq_b, wk, a LayerNorm k_norm with bias, weights_proj, all replicated over TP', () => {
  // DeepSeek-V3.2 (q_lora_rank 1536, hidden 7168, index_n_heads 64, index_head_dim 128):
  // wq_b 1536·64·128 = 12,582,912; wk 7168·128 = 917,504; k_norm 2·128 = 256; weights_proj 7168·64 = 458,752.
  const g = dsaIndexerGroups(v32);
  assert.deepEqual(
    g.map((x) => [x.name, x.n, x.shard]),
    [
      ['DSA indexer wq_b', 12_582_912, 'rep'],
      ['DSA indexer wk', 917_504, 'rep'],
      ['DSA indexer k_norm (LayerNorm)', 256, 'rep'],
      ['DSA indexer weights_proj', 458_752, 'rep'],
    ],
  );
  assert.equal(sumGroups(g), 13_959_424);
  // Duplicated linears: every TP rank holds the whole indexer.
  assert.equal(rankShare(g, 8, 1, 1).dense, 13_959_424);
  // In the MLA attention groups; the k_norm is counted with the norms: 187,105,280 (V3) + 13,959,168.
  assert.equal(countParams(v32).perLayer.attention, 187_105_280 + 13_959_168);
  assert.equal(sumGroups(attentionGroups(v32)) - sumGroups(attentionGroups(v3Like)), 13_959_424);
  // GLM-5 (q_lora_rank 2048, hidden 6144, index_n_heads 32, index_head_dim 128):
  // 2048·32·128 = 8,388,608 + 6144·128 = 786,432 + 256 + 6144·32 = 196,608 → 9,371,904.
  assert.equal(sumGroups(dsaIndexerGroups(glm5)), 9_371_904);
  // No MLA, no indexer (Megatron asserts DSA is MLA-only).
  assert.deepEqual(dsaIndexerGroups({ ...shape('llama3-8b'), dsa: { heads: 8, headDim: 128, topK: 64 } }), []);
});

test('DeepSeek-V3.2 counts 671.88B + 11.62B MTP: with the MTP layer’s embedding and head copies, the published 685B', () => {
  const c = countParams(v32);
  // DeepSeek-V3's 671,026,419,200 + 61 layers · 13,959,424 = 671,877,944,064.
  assert.equal(c.total, 671_026_419_200 + 61 * 13_959_424);
  assert.equal(c.total, 671_877_944_064);
  // The MTP layer replicates a decoder layer, indexer included: V3's 11,610,068,224 + 13,959,424.
  assert.equal(c.mtp, 11_624_027_648);
  // The HF checkpoint also stores the MTP layer's embed_tokens and shared_head.head (2 · 129280 · 7168 = 1,853,358,080):
  // 671,877,944,064 + 11,624,027,648 + 1,853,358,080 = 685,355,329,792 ≈ the model card's 685B.
  const checkpoint = c.total + c.mtp + 2 * 129280 * 7168;
  assert.equal(checkpoint, 685_355_329_792);
  assert.equal(Math.round(checkpoint / 1e9), catalogueEntry('deepseek-v3.2')!.published.total / 1e9);
});

test('GLM-5.2 shares its indexer: 21 of 78 layers run one (index_topk_freq 4, offset 3), averaged per layer kind', () => {
  // is_dsa_skip_topk_layer with 1-based L: computes when max(L − 3, 0) mod 4 = 0 → 0-based layers 0, 1, 2, 6, 10, …, 74.
  const full = Array.from({ length: 78 }, (_, i) => i).filter((i) => hasDsaIndexer(glm52, i));
  assert.deepEqual(full, [0, 1, 2, ...Array.from({ length: 18 }, (_, k) => 6 + 4 * k)]);
  assert.equal(dsaIndexerLayerCount(glm52), 21);
  assert.equal(dsaIndexerLayerCount(glm5), 78);
  assert.equal(hasDsaIndexer(glm52, 78), true); // the MTP layer holds its own (GLM-5.2-FP8 lists layers.78 indexer tensors)
  // The 3 dense layers all run one; 18 of the 75 MoE layers.
  assert.equal(dsaIndexerShare(glm52, 'dense'), 1);
  assert.equal(dsaIndexerShare(glm52, 'moe'), 18 / 75);
  assert.equal(dsaIndexerShare(glm5, 'moe'), 1);
  // Totals: GLM-5 743,911,218,432 (the report's 744B); GLM-5.2 drops 57 indexers: − 57 · 9,371,904 = 743,377,019,904.
  assert.equal(countParams(glm5).total, 743_911_218_432);
  assert.equal(countParams(glm52).total, 743_911_218_432 - 57 * 9_371_904);
  assert.equal(countParams(glm52).total, 743_377_019_904);
  // The MTP layer keeps a whole indexer in both.
  assert.equal(sumGroups(mtpGroups(glm52)), sumGroups(mtpGroups(glm5)));
  close(sumGroups(layerGroups(glm52, 'moe')) - sumGroups(layerGroups(withoutDsa(glm52), 'moe')), (18 / 75) * 9_371_904);
});

test('serving KV cache: the indexer adds 132 B per token and indexer layer beside the MLA latent, in FP8 whatever the KV dtype', () => {
  assert.equal(dsaIndexerKeyBytes(128), 128 + 4); // 128 FP8 keys + one FP32 scale per 128
  // DeepSeek-V3.2, BF16 cache, TP 8 (MLA keeps one latent head): 61 · 576 · 2 = 70,272 + 61 · 132 = 8,052 → 78,324.
  const bf16 = kvPerToken(v32, { tp: 8, dtype: 'bf16' });
  assert.deepEqual(bf16.indexer, { layers: 61, bytesPerLayer: 132, bytes: 8_052 });
  assert.equal(bf16.elements, 61 * 576);
  assert.equal(bf16.bytes, 78_324);
  assert.equal(kvTokenFormula(bf16), '1 (latent) × 61 layers × 1 KV heads × 576 × 2 B bf16 + DSA indexer 61 layers × 132 B');
  // FP8 cache: 61 · 576 = 35,136 + 8,052 = 43,188.
  assert.equal(kvPerToken(v32, { tp: 8, dtype: 'fp8' }).bytes, 43_188);
  // Without the indexer the same model caches the V3 latent only.
  assert.equal(kvPerToken(v3Like, { tp: 8, dtype: 'fp8' }).bytes, 35_136);
  // GLM-5.2, FP8: 78 · 576 = 44,928 + 21 · 132 = 2,772 → 47,700; one MTP draft layer adds 576 + 132 → 48,408.
  assert.equal(kvPerToken(glm52, { dtype: 'fp8' }).bytes, 47_700);
  assert.equal(kvPerToken(glm52, { dtype: 'fp8', draftLayers: 1 }).bytes, 48_408);
  // PP 2, rank 0 holds layers 0–38, of which 0, 1, 2, 6, …, 38 (12) run an indexer: 39 · 576 + 12 · 132 = 24,048.
  const r0 = kvPerToken(glm52, { dtype: 'fp8', pp: 2, ppRank: 0 });
  assert.equal(r0.indexer?.layers, 12);
  assert.equal(r0.bytes, 24_048);
  // GLM-5 (every layer an indexer), BF16: 78 · 1152 = 89,856 + 78 · 132 = 10,296 → 100,152.
  assert.equal(kvPerToken(glm5, { dtype: 'bf16' }).bytes, 100_152);
});

test('training activations: the indexer keeps q, head weights, k and int64 top-k for backward; core_attn recompute keeps none', () => {
  const s = 4096;
  const c = trainingConfig({ seq: s });
  const extra = (m: ModelShape, cfg = c, kind: 'dense' | 'moe' = 'moe') =>
    megatronKind(m, cfg, 1, s, kind).stored - megatronKind(withoutDsa(m), cfg, 1, s, kind).stored;
  // DeepSeek-V3.2, b 1, s 4096, bf16, TP 1:
  //   q + weights 2·4096·64·(128 + 1) = 67,633,152; k + k_norm input 2·2·4096·128 = 2,097,152 and its fp32 mean, rstd
  //   8·4096 = 32,768; top-k indices 8·4096·2048 = 67,108,864 → 136,871,936.
  assert.equal(extra(v32), 67_633_152 + 2_097_152 + 32_768 + 67_108_864);
  assert.equal(extra(v32), 136_871_936);
  const terms = megatronKind(v32, c, 1, s, 'moe').terms.filter((t) => t.label.startsWith('DSA indexer'));
  assert.deepEqual(
    terms.map((t) => t.bytes),
    [67_633_152, 2_129_920, 67_108_864],
  );
  // TP 8 with sequence parallelism: nothing splits over TP (duplicated linears, full sequence), and x, qr are all-gathered
  // copies the linears save: 2·4096·(7168 + 1536) = 71,303,168 more → 208,175,104.
  const sp = trainingConfig({ seq: s, tp: 8, sp: true });
  assert.equal(extra(v32, sp), 136_871_936 + 71_303_168);
  // core_attn recompute checkpoints the whole DSAttention, indexer included.
  const ckpt = trainingConfig({
    seq: s,
    recompute: { granularity: 'selective', method: null, numLayers: null, modules: ['core_attn'] },
  });
  assert.equal(extra(v32, ckpt), 0);
  // GLM-5.2: a dense layer runs its indexer; an MoE layer 18/75 of one. GLM-5 per layer: q + weights 2·4096·32·129 =
  // 33,816,576; k, k_norm 2,097,152 + 32,768; top-k 67,108,864 → 103,055,360.
  assert.equal(extra(glm52, c, 'dense'), 103_055_360);
  close(extra(glm52, c, 'moe'), (18 / 75) * 103_055_360);
});

test('hfConfig reads index_n_heads, index_head_dim, index_topk and GLM-5.2’s sharing; model types deepseek_v32, glm_moe_dsa', () => {
  const read = (dir: string) => {
    const json = JSON.parse(readFileSync(join(REPO, 'test', 'fixtures', 'hf', dir, 'config.json'), 'utf8')) as unknown;
    const r = fromHfConfig(json, undefined, dir);
    assert.ok(r.ok, dir);
    return r;
  };
  const ds = read('deepseek-ai--DeepSeek-V3.2');
  assert.deepEqual(ds.shape.dsa, { heads: 64, headDim: 128, topK: 2048 });
  assert.deepEqual(ds.weights.dtype, 'fp8');
  // The catalogue entry counts what the file does.
  assert.equal(countParams(ds.shape).total, countParams(v32).total);
  const g = read('zai-org--GLM-5.2');
  assert.equal(g.architecture, 'GlmMoeDsaForCausalLM');
  assert.deepEqual(g.shape.dsa, { heads: 32, headDim: 128, topK: 2048, topKFreq: 4, skipTopKOffset: 3 });
  assert.deepEqual(g.shape.mla, { kvLoraRank: 512, qkRopeHeadDim: 64, qkNopeHeadDim: 192, vHeadDim: 256, qLoraRank: 2048 });
  assert.equal(g.shape.attentionBias, undefined); // glm_moe_dsa reads as DeepSeek, not GLM-4's qkv bias
  assert.equal(countParams(g.shape).total, countParams(glm52).total);
  assert.equal(countParams(g.shape).mtp, countParams(glm52).mtp);
  // indexer_types alone (no freq/offset keys) gives the same schedule; an all-"full" list none.
  const cfg = JSON.parse(readFileSync(join(REPO, 'test', 'fixtures', 'hf', 'zai-org--GLM-5.2', 'config.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const { index_topk_freq: _f, index_skip_topk_offset: _o, ...listOnly } = cfg;
  const fromList = fromHfConfig(listOnly);
  assert.ok(fromList.ok);
  assert.deepEqual(fromList.shape.dsa, { heads: 32, headDim: 128, topK: 2048, topKFreq: 4, skipTopKOffset: 3 });
  const allFull = fromHfConfig({ ...listOnly, indexer_types: Array(78).fill('full') });
  assert.ok(allFull.ok);
  assert.deepEqual(allFull.shape.dsa, { heads: 32, headDim: 128, topK: 2048 });
  // Indexer keys without MLA: no indexer, and a note says so.
  const noMla = fromHfConfig({ model_type: 'llama', num_hidden_layers: 2, hidden_size: 64, num_attention_heads: 4, index_n_heads: 4 });
  assert.ok(noMla.ok);
  assert.equal(noMla.shape.dsa, undefined);
  assert.ok(noMla.notes.some((n) => n.includes('DSA indexer keys')));
});

test('catalogue names: V3.2 releases, GLM-5.1 on GLM-5, GLM-4.6/4.7 on GLM-4.5, Kimi K2.6 / K2.7-Code on Kimi K2.5', () => {
  const id = (n: string) => {
    const m = matchModelName(n);
    return m.kind === 'found' ? m.entry.id : m.kind;
  };
  assert.equal(id('deepseek-ai/DeepSeek-V3.2'), 'deepseek-v3.2');
  assert.equal(id('deepseek-ai/DeepSeek-V3.2-Exp'), 'deepseek-v3.2');
  assert.equal(id('nvidia/DeepSeek-V3.2-NVFP4'), 'deepseek-v3.2');
  assert.equal(id('zai-org/GLM-5.1-FP8'), 'glm-5');
  assert.equal(id('nvidia/GLM-5.2-NVFP4'), 'glm-5.2');
  assert.equal(id('zai-org/GLM-4.7'), 'glm4.5-355b-a32b');
  assert.equal(id('zai-org/GLM-4.7-Flash'), 'glm4.7-flash');
  assert.equal(id('moonshotai/Kimi-K2.6'), 'kimi-k2.5');
  assert.equal(id('nvidia/Kimi-K2.7-Code-NVFP4'), 'kimi-k2.5');
  assert.equal(id('moonshotai/Kimi-K2-Thinking'), 'kimi-k2');
  // nvidia/Kimi-K2.6-NVFP4: only the routed experts are NVFP4; nvidia/GLM-5-NVFP4 every MLP; GLM-5.1-NVFP4 the experts.
  const w = (hfId: string) => catalogueEntry(id(hfId) as string)!.checkpoints.find((c) => c.hfId === hfId)!.weights;
  assert.deepEqual([w('nvidia/Kimi-K2.6-NVFP4').scope, w('nvidia/Kimi-K2.6-NVFP4').kvCache], ['experts', 'fp8']);
  assert.equal(w('nvidia/GLM-5-NVFP4').scope, 'mlp');
  assert.equal(w('nvidia/GLM-5.1-NVFP4').scope, 'experts');
  assert.deepEqual([w('zai-org/GLM-5-FP8').dtype, w('zai-org/GLM-5-FP8').scope], ['fp8', 'linear']);
  // GLM-4.7-Flash: 29,943,393,920 without its MTP layer (Megatron-Bridge: "about 30B").
  assert.equal(countParams(shape('glm4.7-flash')).total, 29_943_393_920);
});
