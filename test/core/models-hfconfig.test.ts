// fromHfConfig reads real config.json files (test/fixtures/hf/<org>--<name>/, the published keys that matter) into the
// exact shape and weight format. Fixture sources (verbatim HF config.json copies, trimmed to the keys read):
// - ai-dynamo/aiconfigurator model_configs/ (history up to 095f58a): DeepSeek-R1, gpt-oss-120b, Qwen3-30B-A3B,
//   Qwen3-32B-FP8, Qwen3-Next-80B-A3B-Thinking, Qwen3.5-35B-A3B, Qwen2.5-7B, Llama-4-Maverick-17B-128E-Instruct,
//   NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 (+ hf_quant_config.json), NVIDIA-Nemotron-3-Super-120B-A12B-FP8 (+ hf_quant_config.json),
//   NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4,
//   Llama-3.1-70B-Instruct-FP8 (+ hf_quant_config.json), DeepSeek-V3-0324-NVFP4 (+ hf_quant_config.json), Kimi-K2-Instruct,
//   Nemotron-H-56B-Base-8K, MiniMax-M2.5;
// - mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py@79d603f: gemma-3-1b-it, gemma-2-9b, Llama-3.2-1B, starcoder2-7b,
//   chatglm3-6b, DeepSeek-V2-Lite, Phi-3.5-mini-instruct;
// - kevinstephano/thunder_model_blocks mistral/mistral_config.py: Mistral-Nemo-Base-2407.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelShape } from '../../src/core/memory/types.js';
import { catalogueEntry } from '../../src/core/models/catalogue.js';
import { fromHfConfig, parseJsonText } from '../../src/core/models/hfConfig.js';
import { weightFormatFromConfig } from '../../src/core/models/weights.js';
import { dtypeBytes } from '../../src/core/memory/weightFormat.js';
import { countParams } from '../../src/core/memory/params.js';
import { readHfFixture } from '../helpers.js';

const read = readHfFixture;
/** The shape without its display name. */
const dims = (s: ModelShape) => {
  const { name: _name, ...rest } = s;
  return rest;
};
const DENSE = { experts: 0, topK: 0, moeFfn: 0, sharedExpertFfn: 0, denseLayersBeforeMoe: 0 };

test('DeepSeek-R1: MLA, 256 experts after 3 dense layers, one shared expert, router bias, MTP; FP8 128×128 blocks', () => {
  const r = read('deepseek-ai--DeepSeek-R1');
  assert.equal(r.architecture, 'DeepseekV3ForCausalLM');
  assert.deepEqual(dims(r.shape), {
    architecture: 'DeepseekV3ForCausalLM',
    layers: 61,
    hidden: 7168,
    ffn: 18432,
    heads: 128,
    kvHeads: 128,
    headDim: 192,
    vocab: 129280,
    tiedEmbeddings: false,
    gatedMlp: true,
    norm: 'rmsnorm',
    activation: 'swiglu',
    experts: 256,
    topK: 8,
    moeFfn: 2048,
    sharedExpertFfn: 2048,
    denseLayersBeforeMoe: 3,
    sharedExperts: 1,
    mla: { kvLoraRank: 512, qkRopeHeadDim: 64, qkNopeHeadDim: 128, vHeadDim: 128, qLoraRank: 1536 },
    routerBias: true,
    maxPositionEmbeddings: 163840,
    mtpLayers: 1,
  });
  assert.deepEqual([r.weights.dtype, r.weights.scope, r.weights.other], ['fp8', 'linear', 'bf16']);
  assert.match(r.weights.source, /quant_method fp8 \(e4m3\), weight_block_size 128×128/);
  assert.deepEqual(r.assumptions, []);
  // The catalogue entry says the same.
  const { name: _n, ...cat } = catalogueEntry('deepseek-r1')!.shape;
  const { maxPositionEmbeddings: _m, ...fromFile } = dims(r.shape);
  assert.deepEqual(fromFile, cat);
});

test('gpt-oss-120b: layer_types alternate a 128-token window, sinks and biases, MXFP4 experts', () => {
  const r = read('openai--gpt-oss-120b');
  assert.deepEqual(dims(r.shape), {
    architecture: 'GptOssForCausalLM',
    layers: 36,
    hidden: 2880,
    ffn: 2880,
    heads: 64,
    kvHeads: 8,
    headDim: 64,
    vocab: 201088,
    tiedEmbeddings: false,
    gatedMlp: true,
    norm: 'rmsnorm',
    activation: 'swiglu',
    experts: 128,
    topK: 4,
    moeFfn: 2880,
    sharedExpertFfn: 0,
    denseLayersBeforeMoe: 0,
    slidingWindow: { window: 128, everyOther: true },
    attentionBias: 'all',
    attentionSinks: true,
    routerBias: true,
    expertBias: true,
    maxPositionEmbeddings: 131072,
  });
  assert.deepEqual([r.weights.dtype, r.weights.scope, r.weights.other], ['mxfp4', 'experts', 'bf16']);
  assert.deepEqual(r.weights.excluded, ['model.layers.*.self_attn', 'model.layers.*.mlp.router', 'model.embed_tokens', 'lm_head']);
});

test('Qwen3-30B-A3B: q/k norms, 128 experts of 768 in every layer; Qwen2.5-7B: q/k/v biases, the unused sliding_window ignored', () => {
  const moe = read('Qwen--Qwen3-30B-A3B').shape;
  assert.deepEqual(
    [
      moe.layers,
      moe.hidden,
      moe.heads,
      moe.kvHeads,
      moe.headDim,
      moe.experts,
      moe.topK,
      moe.moeFfn,
      moe.denseLayersBeforeMoe,
      moe.qkNorm,
      moe.moeLayerFreq,
    ],
    [48, 2048, 32, 4, 128, 128, 8, 768, 0, true, undefined],
  );
  const q25 = read('Qwen--Qwen2.5-7B').shape;
  assert.deepEqual(dims(q25), {
    architecture: 'Qwen2ForCausalLM',
    layers: 28,
    hidden: 3584,
    ffn: 18944,
    heads: 28,
    kvHeads: 4,
    headDim: 128,
    vocab: 152064,
    tiedEmbeddings: false,
    gatedMlp: true,
    norm: 'rmsnorm',
    activation: 'swiglu',
    ...DENSE,
    attentionBias: 'qkv',
    maxPositionEmbeddings: 131072,
  });
});

test('Qwen3-32B-FP8 reads the quantization_config; Qwen3-Next and Qwen3.5 read Gated DeltaNet layers, a gated attention and a shared expert', () => {
  const fp8 = read('Qwen--Qwen3-32B-FP8').weights;
  assert.deepEqual(
    [fp8.dtype, fp8.scope, fp8.block],
    ['fp8', 'linear', '128×128 weight blocks with FP32 scales (weight_block_size [128, 128])'],
  );
  const next = read('Qwen--Qwen3-Next-80B-A3B-Thinking').shape;
  assert.deepEqual(
    [next.layers, next.heads, next.kvHeads, next.headDim, next.experts, next.topK, next.moeFfn, next.sharedExpertFfn, next.sharedExperts],
    [48, 16, 2, 256, 512, 10, 512, 512, 1],
  );
  assert.equal(next.attentionOutputGate, true);
  assert.deepEqual(next.linearAttention, {
    fullAttentionInterval: 4,
    keyHeads: 16,
    valueHeads: 32,
    keyHeadDim: 128,
    valueHeadDim: 128,
    convKernel: 4,
  });
  const q35 = read('Qwen--Qwen3.5-35B-A3B');
  assert.equal(q35.architecture, 'Qwen3_5MoeForConditionalGeneration');
  assert.deepEqual(
    [q35.shape.layers, q35.shape.vocab, q35.shape.mtpLayers, q35.shape.ffn, q35.shape.slidingWindow],
    [40, 248320, 1, 512, undefined],
  );
  assert.equal(q35.weights.dtype, 'bf16');
  assert.match(q35.weights.source, /torch_dtype "bfloat16"/);
  assert.deepEqual(q35.assumptions, []);
  assert.ok(q35.notes.some((n) => /multimodal checkpoint/.test(n)));
});

test('Llama 4 Maverick: the nested text_config, MoE on odd layers, dense layers of intermediate_size_mlp, chunked attention', () => {
  const r = read('meta-llama--Llama-4-Maverick-17B-128E-Instruct');
  const s = r.shape;
  assert.deepEqual([s.layers, s.hidden, s.ffn, s.heads, s.kvHeads, s.headDim, s.vocab], [48, 5120, 16384, 40, 8, 128, 202048]);
  assert.deepEqual([s.experts, s.topK, s.moeFfn, s.sharedExpertFfn, s.sharedExperts, s.denseLayersBeforeMoe], [128, 1, 8192, 8192, 1, 1]);
  assert.equal((s.moeLayerFreq as number[]).join(''), '01'.repeat(24));
  assert.deepEqual([s.slidingWindow, s.slidingWindowPattern], [{ window: 8192, everyOther: false }, 4]);
  assert.deepEqual(r.notes, [
    'multimodal checkpoint: the language model only (the vision/audio encoders are not in the shape)',
    'chunked attention over 8192-token chunks on 3 of every 4 layers, taken as a 8192-token window',
  ]);
});

test('Nemotron 3 Nano NVFP4: hybrid pattern, Mamba dims, MoE with a shared expert; NVFP4 MLPs with attention and Mamba excluded', () => {
  const r = read('nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4');
  const s = r.shape;
  assert.equal(s.hybridPattern, 'MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME');
  assert.deepEqual(s.mamba, { stateDim: 128, numHeads: 64, headDim: 64, groups: 8, convKernel: 4 });
  assert.deepEqual(
    [s.layers, s.hidden, s.heads, s.kvHeads, s.experts, s.topK, s.moeFfn, s.sharedExpertFfn, s.gatedMlp, s.activation, s.positionEmbedding],
    [52, 2688, 32, 2, 128, 6, 1856, 3712, false, 'squared-relu', 'none'],
  );
  assert.deepEqual([r.weights.dtype, r.weights.scope, r.weights.kvCache, r.weights.excluded?.length], ['nvfp4', 'mlp', 'fp8', 60]);
  const sup = read('nvidia--NVIDIA-Nemotron-3-Super-120B-A12B-FP8');
  assert.deepEqual([sup.shape.moeLatentSize, sup.shape.mtpLayers, sup.shape.experts, sup.shape.topK], [1024, 1, 512, 22]);
  // The MTP block: mtp_hybrid_override_pattern "*E", repeated over the depths (Bridge nemotron_h_bridge.py default).
  assert.deepEqual([sup.shape.mtpPattern, sup.shape.mtpRepeated], ['*E', true]);
  // transformers ≥ 5 spells it mtp_layers_block_type (Nemotron 3.5 Lightning).
  const lightning = read('nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4').shape;
  assert.deepEqual([lightning.mtpLayers, lightning.mtpPattern, lightning.mtpRepeated, lightning.layers], [1, '*E', true, 52]);
  assert.deepEqual([sup.weights.dtype, sup.weights.scope, sup.weights.kvCache], ['fp8', 'linear', 'fp8']);
  const h56 = read('nvidia--Nemotron-H-56B-Base-8K').shape;
  assert.deepEqual([h56.layers, h56.hybridPattern?.length, h56.experts, h56.mamba?.stateDim], [118, 118, 0, 256]);
});

test('NVIDIA ModelOpt checkpoints: FP8 Llama with an FP8 KV cache; NVFP4 DeepSeek with BF16 attention', () => {
  const llama = read('nvidia--Llama-3.1-70B-Instruct-FP8');
  assert.deepEqual(llama.weights, {
    dtype: 'fp8',
    scope: 'linear',
    other: 'bf16',
    block: 'one FP32 scale per tensor',
    excluded: ['lm_head'],
    kvCache: 'fp8',
    source: 'nvidia--Llama-3.1-70B-Instruct-FP8/hf_quant_config.json quant_algo FP8, kv_cache_quant_algo FP8',
  });
  const ds = read('nvidia--DeepSeek-V3-0324-NVFP4');
  assert.deepEqual([ds.weights.dtype, ds.weights.scope, ds.weights.kvCache], ['nvfp4', 'mlp', undefined]);
  assert.ok(ds.weights.excluded?.includes('model.layers.61*'));
});

test('Kimi K2: the DeepSeek-V3 architecture with 64 heads, 384 experts and no MTP', () => {
  const s = read('moonshotai--Kimi-K2-Instruct').shape;
  assert.deepEqual([s.heads, s.experts, s.denseLayersBeforeMoe, s.vocab, s.mtpLayers, s.routerBias], [64, 384, 1, 163840, undefined, true]);
});

test('MiniMax-M2.5: full-width Q/K norms, router bias, declared MTP modules left out; its catalogue shape and 228.7B count', () => {
  const r = read('MiniMaxAI--MiniMax-M2.5');
  const { maxPositionEmbeddings: _max, ...cat } = dims(catalogueEntry('minimax-m2')!.shape);
  const { maxPositionEmbeddings, ...read_ } = dims(r.shape);
  assert.deepEqual(read_, cat);
  assert.equal(maxPositionEmbeddings, 196608);
  assert.equal(r.shape.qkNorm, 'full');
  assert.equal(r.shape.mtpLayers, undefined);
  assert.ok(r.notes.some((n) => /declares 3 MTP modules/.test(n)));
  assert.deepEqual(r.assumptions, []);
  assert.deepEqual(
    [r.weights.dtype, r.weights.scope, r.weights.block],
    ['fp8', 'linear', '128×128 weight blocks with FP32 scales (weight_block_size [128, 128])'],
  );
  // Per layer: norms 2·3072, qkv 3072·(6144 + 2·1024) = 25,165,824, o 6144·3072 = 18,874,368, q/k norms 6144 + 1024,
  // router 3072·256 + 256 bias, experts 256·3·3072·1536 = 3,623,878,656 → 3,668,718,848; × 62 + 2 · 200064·3072 + 3072.
  assert.equal(countParams(r.shape).total, 3_668_718_848 * 62 + 2 * 200064 * 3072 + 3072);
  assert.equal(countParams(r.shape).total, 228_689_764_864);
});

test('a config.json of a model Recipe Lens does not model is read with the common keys and a note naming what is left out', () => {
  // The keys of HF deepseek-ai/DeepSeek-V4-Flash config.json that the note is about (a trimmed copy).
  const v4 = fromHfConfig(
    {
      architectures: ['DeepseekV4ForCausalLM'],
      model_type: 'deepseek_v4',
      hidden_size: 4096,
      num_hidden_layers: 43,
      num_attention_heads: 64,
      num_key_value_heads: 1,
      head_dim: 512,
      hc_mult: 4,
      vocab_size: 129280,
    },
    undefined,
    'DeepSeek-V4-Flash',
  );
  assert.ok(v4.ok);
  assert.ok(
    v4.ok &&
      v4.notes.some((n) => /^DeepSeek-V4 is a model Recipe Lens does not model yet: its manifold-constrained hyper-connections/.test(n)),
  );
  assert.ok(v4.ok && !v4.notes.some((n) => /is not one Recipe Lens reads specifically/.test(n)));
  // Kimi K3 nests a kimi_linear text_config under model_type kimi_k3.
  const k3 = fromHfConfig(
    {
      model_type: 'kimi_k3',
      text_config: { model_type: 'kimi_linear', hidden_size: 7168, num_hidden_layers: 93, num_attention_heads: 96, vocab_size: 163840 },
    },
    undefined,
    'Kimi-K3',
  );
  assert.ok(k3.ok && k3.notes.some((n) => /^Kimi K3 is a model Recipe Lens does not model yet: its Kimi Delta Attention layers/.test(n)));
  // A Kimi Linear checkpoint on its own (model_type kimi_linear) is named as such, not as Kimi K3.
  const linear = fromHfConfig(
    { model_type: 'kimi_linear', hidden_size: 2304, num_hidden_layers: 27, num_attention_heads: 32 },
    undefined,
    'Kimi-Linear',
  );
  assert.ok(
    linear.ok && linear.notes.some((n) => /^Kimi Linear is a model Recipe Lens does not model yet: its Kimi Delta Attention/.test(n)),
  );
});

test('Gemma 2 alternates a 4096 window; Gemma 3 1B has five local layers per global one; both tie embeddings by default', () => {
  const g2 = read('google--gemma-2-9b').shape;
  assert.deepEqual(
    [g2.slidingWindow, g2.slidingWindowPattern, g2.tiedEmbeddings, g2.activation, g2.postNorms],
    [{ window: 4096, everyOther: true }, undefined, true, 'geglu', true],
  );
  const g3 = read('google--gemma-3-1b-it').shape;
  assert.deepEqual(
    [g3.slidingWindow, g3.slidingWindowPattern, g3.qkNorm, g3.kvHeads, g3.headDim, g3.vocab],
    [{ window: 512, everyOther: false }, 6, true, 1, 256, 262144],
  );
});

test('Llama 3.2 1B ties embeddings with head_dim 64; Mistral NeMo has head_dim 128 ≠ hidden / heads; Phi-3.5 ignores a window beyond its positions', () => {
  const l = read('meta-llama--Llama-3.2-1B').shape;
  assert.deepEqual(dims(l), {
    architecture: 'LlamaForCausalLM',
    layers: 16,
    hidden: 2048,
    ffn: 8192,
    heads: 32,
    kvHeads: 8,
    headDim: 64,
    vocab: 128256,
    tiedEmbeddings: true,
    gatedMlp: true,
    norm: 'rmsnorm',
    activation: 'swiglu',
    ...DENSE,
    maxPositionEmbeddings: 131072,
  });
  const nemo = read('mistralai--Mistral-Nemo-Base-2407').shape;
  assert.deepEqual([nemo.headDim, nemo.hidden / nemo.heads, nemo.vocab, nemo.slidingWindow], [128, 160, 131072, undefined]);
  assert.equal(read('microsoft--Phi-3.5-mini-instruct').shape.slidingWindow, undefined);
});

test('StarCoder2: LayerNorm, GELU without gate, biases everywhere, tied embeddings, a 4096 window; ChatGLM3: its own key names', () => {
  const sc = read('bigcode--starcoder2-7b').shape;
  assert.deepEqual(
    [sc.norm, sc.gatedMlp, sc.activation, sc.linearBias, sc.tiedEmbeddings, sc.slidingWindow],
    ['layernorm', false, 'gelu', true, true, { window: 4096, everyOther: false }],
  );
  const glm = read('THUDM--chatglm3-6b');
  assert.deepEqual(
    [glm.shape.layers, glm.shape.ffn, glm.shape.kvHeads, glm.shape.headDim, glm.shape.vocab, glm.shape.attentionBias],
    [28, 13696, 2, 128, 65024, 'qkv'],
  );
  assert.equal(glm.weights.dtype, 'fp16');
  const lite = read('deepseek-ai--DeepSeek-V2-Lite').shape;
  assert.deepEqual([lite.mla?.qLoraRank, lite.sharedExperts, lite.sharedExpertFfn, lite.routerBias], [undefined, 2, 2816, undefined]);
});

test('an unknown architecture is read with the common keys and every default listed; bad input gives a reason, never a throw', () => {
  const r = fromHfConfig(
    { architectures: ['NewModelForCausalLM'], hidden_size: 1024, num_hidden_layers: 4, num_attention_heads: 8, hidden_act: 'silu' },
    undefined,
    'x',
  );
  assert.ok(r.ok);
  assert.deepEqual(
    [r.shape.kvHeads, r.shape.headDim, r.shape.ffn, r.shape.vocab, r.shape.tiedEmbeddings, r.shape.gatedMlp, r.weights.dtype],
    [8, 128, 4096, 128256, false, true, 'bf16'],
  );
  assert.deepEqual(
    r.assumptions.map((a) => a.what),
    [
      'kv heads = 8',
      'ffn = 4096 (4 × hidden)',
      'vocab = 128256',
      'untied input and output embeddings',
      'gated MLP (gate, up, down)',
      'weights stored as bf16',
    ],
  );
  assert.match(r.notes[0]!, /NewModelForCausalLM is not one Recipe Lens reads specifically/);
  assert.deepEqual(fromHfConfig([1, 2], undefined, 'x'), { ok: false, reason: 'x/config.json is not a JSON object' });
  assert.deepEqual(fromHfConfig({ hidden_size: 8 }, undefined, 'x'), {
    ok: false,
    reason: 'x/config.json has no num_hidden_layers, num_attention_heads: not a decoder model config Recipe Lens can read',
  });
  assert.deepEqual(fromHfConfig({ num_hidden_layers: 2, hidden_size: 64, num_attention_heads: 'eight' }, null, 'x').ok, false);
  const bad = parseJsonText('{"a": ');
  assert.equal(bad.ok, false);
  assert.deepEqual(parseJsonText('x'.repeat(20), 10), { ok: false, reason: 'larger than 10 bytes' });
  // Python's json writes float('inf') / float('nan') bare (Nemotron-H and Nemotron 3 config.json time_step_limit): read
  // as null outside strings; the same words inside strings stay.
  assert.deepEqual(parseJsonText('{"time_step_limit": [0.0, Infinity], "x": -Infinity, "y": NaN, "name": "NaN Infinity \\" NaN"}'), {
    ok: true,
    value: { time_step_limit: [0, null], x: null, y: null, name: 'NaN Infinity " NaN' },
  });
});

test('MoE placement keys: DeepSeek moe_layer_freq, Qwen decoder_sparse_step and mlp_only_layers become one entry per layer', () => {
  const base = {
    architectures: ['Qwen3MoeForCausalLM'],
    model_type: 'qwen3_moe',
    hidden_size: 64,
    num_hidden_layers: 6,
    num_attention_heads: 4,
    vocab_size: 100,
  };
  const step = fromHfConfig({ ...base, num_experts: 4, num_experts_per_tok: 2, moe_intermediate_size: 32, decoder_sparse_step: 2 });
  assert.ok(step.ok);
  assert.deepEqual([step.shape.moeLayerFreq, step.shape.denseLayersBeforeMoe], [[0, 1, 0, 1, 0, 1], 1]);
  const only = fromHfConfig({ ...base, num_experts: 4, num_experts_per_tok: 2, moe_intermediate_size: 32, mlp_only_layers: [0, 5] });
  assert.ok(only.ok);
  assert.deepEqual(only.shape.moeLayerFreq, [0, 1, 1, 1, 1, 0]);
  const ds = fromHfConfig({
    model_type: 'deepseek_v3',
    hidden_size: 64,
    num_hidden_layers: 6,
    num_attention_heads: 4,
    vocab_size: 100,
    n_routed_experts: 8,
    num_experts_per_tok: 2,
    moe_intermediate_size: 16,
    first_k_dense_replace: 1,
    moe_layer_freq: 2,
  });
  assert.ok(ds.ok);
  assert.deepEqual([ds.shape.moeLayerFreq, ds.shape.denseLayersBeforeMoe], [[0, 0, 1, 0, 1, 0], 2]);
});

test('compressed-tensors INT4 keeps its group size: half a byte plus a 16-bit scale per group (Kimi-K2-Thinking: group 32)', () => {
  const qc = {
    quant_method: 'compressed-tensors',
    format: 'pack-quantized',
    config_groups: { group_0: { targets: ['Linear'], weights: { num_bits: 4, type: 'int', group_size: 32, symmetric: true } } },
    ignore: ['lm_head', 're:.*self_attn.*', 're:.*shared_experts.*'],
  };
  const w = weightFormatFromConfig({ quantization_config: qc }, undefined, 'config.json').weights!;
  assert.deepEqual([w.dtype, w.block], ['int4', 'group 32']);
  assert.deepEqual(dtypeBytes('int4', w.block), { bytes: 0.5625, label: 'INT4 (16-bit scale per 32)' });
  assert.deepEqual(dtypeBytes('int4'), { bytes: 0.515625, label: 'INT4 (FP16 scale per 128, assumed)' });
  const kimi = catalogueEntry('kimi-k2')!.checkpoints.find((c) => c.hfId === 'moonshotai/Kimi-K2-Thinking')!.weights;
  assert.deepEqual([kimi.dtype, kimi.scope, dtypeBytes(kimi.dtype, kimi.block).bytes], ['int4', 'experts', 0.5625]);
});
