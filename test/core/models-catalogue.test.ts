// The model catalogue is internally consistent, keeps the old preset ids, and records each checkpoint's weight format.
import { modelsTable, TABLE_END, TABLE_START, withTable } from '../modelsTable.js';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { countParams } from '../../src/core/memory/params.js';
import { CATALOGUE, catalogueEntry, findCatalogueId } from '../../src/core/models/catalogue.js';
import { exactKey } from '../../src/core/models/names.js';
import { exactParams, roundedParams } from '../../src/core/models/published.js';
import type { CatalogueEntry } from '../../src/core/models/types.js';
import { readHfFixture, REPO } from '../helpers.js';

const entry = (id: string): CatalogueEntry => {
  const e = catalogueEntry(id);
  assert.ok(e, `catalogue entry ${id}`);
  return e;
};
const weightsOf = (hfId: string) => {
  for (const e of CATALOGUE) for (const c of e.checkpoints) if (c.hfId === hfId) return c.weights;
  assert.fail(`no checkpoint ${hfId}`);
};

test('ids are unique kebab-case, each shape is named by its id, and titles are set', () => {
  const ids = CATALOGUE.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const e of CATALOGUE) {
    assert.match(e.id, /^[a-z0-9][a-z0-9.]*(-[a-z0-9.]+)*$/, e.id);
    assert.equal(e.shape.name, e.id);
    assert.ok(e.title.length > 2, e.id);
  }
  assert.equal(CATALOGUE.length, 118);
});

test('no alias, checkpoint name or HF id names two entries', () => {
  const owner = new Map<string, string>();
  const claim = (key: string, id: string) => {
    const prev = owner.get(key);
    assert.ok(prev === undefined || prev === id, `"${key}" names both ${prev} and ${id}`);
    owner.set(key, id);
  };
  for (const e of CATALOGUE) {
    claim(exactKey(e.id), e.id);
    for (const a of e.aliases) claim(exactKey(a), e.id);
    for (const c of e.checkpoints) {
      claim(c.hfId.toLowerCase(), e.id);
      claim(exactKey(c.hfId.slice(c.hfId.indexOf('/') + 1)), e.id);
    }
  }
});

test('shapes are consistent: heads divide into KV groups, patterns and MoE placements have one entry per layer', () => {
  for (const { id, shape: s } of CATALOGUE) {
    for (const k of ['layers', 'hidden', 'ffn', 'heads', 'kvHeads', 'headDim', 'vocab'] as const)
      assert.ok(Number.isInteger(s[k]) && s[k] > 0, `${id}.${k}`);
    assert.equal(s.heads % s.kvHeads, 0, `${id}: heads ${s.heads} / kv ${s.kvHeads}`);
    if (s.mla) assert.equal(s.headDim, s.mla.qkNopeHeadDim + s.mla.qkRopeHeadDim, id);
    if (s.hybridPattern) assert.equal(s.hybridPattern.length, s.layers, id);
    if (Array.isArray(s.moeLayerFreq)) {
      assert.equal(s.moeLayerFreq.length, s.layers, id);
      assert.equal(s.moeLayerFreq.indexOf(1), s.denseLayersBeforeMoe, id);
    }
    if (s.experts > 0) {
      assert.ok(s.topK > 0 && s.topK <= s.experts && s.moeFfn > 0, `${id}: MoE fields`);
      assert.equal(s.sharedExpertFfn > 0, (s.sharedExperts ?? 0) > 0, `${id}: shared experts`);
    } else assert.equal(s.topK + s.moeFfn + s.sharedExpertFfn + s.denseLayersBeforeMoe, 0, `${id}: dense model has MoE fields`);
    if (s.slidingWindowPattern) assert.ok(s.slidingWindow && s.slidingWindowPattern > 2, id);
    if (s.linearAttention) assert.equal(s.layers % s.linearAttention.fullAttentionInterval, 0, id);
  }
});

test('every entry names its sources, its tokenizer vocabulary equals its shape, and its published size is positive', () => {
  for (const e of CATALOGUE) {
    assert.ok(e.sources.length > 0 && e.sources.every((s) => s.length > 10), e.id);
    assert.equal(e.tokenizer.vocab, e.shape.vocab, e.id);
    assert.ok(e.published.total > 0 && e.published.source.length > 5, e.id);
    assert.equal(e.published.kind === 'exact', e.published.tolerance === 0, e.id);
    for (const c of e.checkpoints) {
      assert.match(c.hfId, /^[\w.-]+\/[\w.-]+$/, c.hfId);
      assert.ok(c.weights.source.length > 10, c.hfId);
    }
  }
});

test('published figures parse as written: exact counts, rounded counts within half a unit, nominal sizes', () => {
  assert.deepEqual(exactParams('116_829_156_672', 's'), {
    total: 116829156672,
    kind: 'exact',
    tolerance: 0,
    text: '116_829_156_672',
    source: 's',
  });
  assert.deepEqual(roundedParams('1.23B', 's'), {
    total: 1_230_000_000,
    kind: 'rounded',
    tolerance: 5_000_000,
    text: '1.23B',
    source: 's',
  });
  assert.equal(roundedParams('1T', 's', { nominal: true }).tolerance, 5e11);
  assert.equal(roundedParams('70B', 's', { nominal: true }).kind, 'nominal');
  assert.throws(() => exactParams('8.2B', 's'), /not an exact count/);
  assert.throws(() => roundedParams('8,2B', 's'), /not a rounded count/);
  assert.equal(entry('llama3-8b').published.total, 8_030_261_248);
  assert.equal(entry('gpt-oss-120b').published.total, 116_829_156_672);
  assert.equal(entry('qwen3-235b-a22b').published.total, 235_093_634_560);
  assert.equal(entry('deepseek-v3').published.text, '671B');
  assert.match(entry('deepseek-v3').published.scope ?? '', /multi-token-prediction/);
});

test('the former preset ids are catalogue ids, found by findCatalogueId, with the shapes the estimate used', () => {
  // Exact parameter counts of the former presets (countParams; HF safetensors totals where published).
  const totals: Record<string, number> = {
    'llama3-8b': 8_030_261_248,
    'llama3-70b': 70_553_706_496,
    'llama3-405b': 405_853_388_800,
    'llama3.3-70b': 70_553_706_496,
    'mixtral-8x7b': 46_702_792_704,
    'mixtral-8x22b': 140_620_634_112,
    'nemotron4-15b': 15_628_775_424,
    'nemotron4-340b': 341_029_195_776,
    'deepseek-v3': 671_026_419_200,
    'deepseek-v2-lite': 15_706_484_224,
    'qwen3-8b': 8_190_735_360,
    'qwen3-32b': 32_762_123_264,
    'qwen3-235b-a22b': 235_093_634_560,
    'qwen3-30b-a3b': 30_532_122_624,
    'moonlight-16b-a3b': 15_960_110_208,
    'gpt-oss-20b': 20_914_757_184,
    'gpt-oss-120b': 116_829_156_672,
  };
  for (const [id, total] of Object.entries(totals)) {
    assert.equal(findCatalogueId(id), id);
    assert.equal(countParams(entry(id).shape).total, total, id);
  }
  assert.equal(Object.keys(totals).length, 17);
});

test('NeMo and Megatron-Bridge class names and recipe names are aliases', () => {
  assert.equal(findCatalogueId('Llama31Config405B'), 'llama3-405b');
  assert.equal(findCatalogueId('nemo.collections.llm.gpt.model.llama.Llama3Config70B'), 'llama3-70b');
  assert.equal(findCatalogueId('llama3_70b'), 'llama3-70b');
  assert.equal(findCatalogueId('Qwen3MoEModelProvider30B_A3B'), 'qwen3-30b-a3b');
  assert.equal(findCatalogueId('Nemotron3NanoProvider'), 'nemotron3-nano-30b-a3b');
  assert.equal(findCatalogueId('NemotronHConfig56B'), 'nemotron-h-56b');
  assert.equal(findCatalogueId('GPTOSSConfig120B'), 'gpt-oss-120b');
  assert.equal(findCatalogueId('KimiK2Provider'), 'kimi-k2');
  assert.equal(findCatalogueId('MistralConfig7B'), 'mistral-7b-v0.1');
});

test('checkpoint weight formats: FP8 blocks for DeepSeek-V3/R1 and Kimi K2, MXFP4 experts for gpt-oss, NVFP4 for NVIDIA FP4', () => {
  for (const id of ['deepseek-ai/DeepSeek-V3', 'deepseek-ai/DeepSeek-R1', 'moonshotai/Kimi-K2-Instruct', 'Qwen/Qwen3-32B-FP8']) {
    const w = weightsOf(id);
    assert.deepEqual([w.dtype, w.scope, w.other], ['fp8', 'linear', 'bf16'], id);
    assert.match(w.block ?? '', /128×128/, id);
  }
  const oss = weightsOf('openai/gpt-oss-120b');
  assert.deepEqual([oss.dtype, oss.scope, oss.other], ['mxfp4', 'experts', 'bf16']);
  assert.deepEqual(oss.excluded, ['model.layers.*.self_attn', 'model.layers.*.mlp.router', 'model.embed_tokens', 'lm_head']);
  const r1fp4 = weightsOf('nvidia/DeepSeek-R1-FP4');
  assert.deepEqual([r1fp4.dtype, r1fp4.scope], ['nvfp4', 'mlp']);
  assert.match(r1fp4.source, /Model-Optimizer#150/);
  const v3fp4 = weightsOf('nvidia/DeepSeek-V3-0324-NVFP4');
  assert.deepEqual([v3fp4.dtype, v3fp4.scope], ['nvfp4', 'mlp']);
  const qwenFp4 = weightsOf('nvidia/Qwen3-235B-A22B-NVFP4');
  assert.deepEqual([qwenFp4.dtype, qwenFp4.scope, qwenFp4.kvCache], ['nvfp4', 'linear', 'fp8']);
  const llamaFp8 = weightsOf('nvidia/Llama-3.1-70B-Instruct-FP8');
  assert.deepEqual([llamaFp8.dtype, llamaFp8.scope, llamaFp8.kvCache, llamaFp8.excluded], ['fp8', 'linear', 'fp8', ['lm_head']]);
  assert.equal(weightsOf('meta-llama/Llama-2-7b-hf').dtype, 'fp16');
  assert.equal(weightsOf('meta-llama/Llama-3.1-8B').dtype, 'bf16');
  assert.match(weightsOf('nvidia/Llama-3.1-Nemotron-Nano-8B-v1').source, /^BF16 assumed/);
});

test('hybrid and windowed shapes carry their patterns (Nemotron-H, Llama 4, Gemma 3, gpt-oss, Qwen3-Next)', () => {
  const nano = entry('nemotron3-nano-30b-a3b').shape;
  assert.equal([...nano.hybridPattern!].filter((ch) => ch === '*').length, 6);
  assert.equal([...nano.hybridPattern!].filter((ch) => ch === 'E').length, 23);
  assert.deepEqual(nano.mamba, { stateDim: 128, numHeads: 64, headDim: 64, groups: 8, convKernel: 4 });
  assert.equal(entry('nemotron3-super-120b-a12b').shape.moeLatentSize, 1024);
  const mav = entry('llama4-maverick-17b-128e').shape;
  assert.equal((mav.moeLayerFreq as number[]).filter(Boolean).length, 24);
  assert.deepEqual([mav.slidingWindow, mav.slidingWindowPattern], [{ window: 8192, everyOther: false }, 4]);
  assert.deepEqual([entry('gemma3-27b').shape.slidingWindow?.window, entry('gemma3-27b').shape.slidingWindowPattern], [1024, 6]);
  assert.deepEqual(entry('gpt-oss-20b').shape.slidingWindow, { window: 128, everyOther: true });
  assert.deepEqual(entry('qwen3-next-80b-a3b').shape.linearAttention, {
    fullAttentionInterval: 4,
    keyHeads: 16,
    valueHeads: 32,
    keyHeadDim: 128,
    valueHeadDim: 128,
    convKernel: 4,
  });
});

test('every entry names its HF architecture (config.json architectures[0] of its reference checkpoint)', () => {
  // Left without one: Nemotron-4 15B has no public checkpoint, and nvidia/Nemotron-4-340B-Base ships as a .nemo checkpoint
  // with no HF config.json to name a class.
  const without = ['nemotron4-15b', 'nemotron4-340b'];
  for (const e of CATALOGUE) {
    if (without.includes(e.id)) assert.equal(e.shape.architecture, undefined, e.id);
    else assert.match(e.shape.architecture ?? '', /^[A-Z][A-Za-z0-9_]*$/, e.id);
  }
  // architectures[0] as read in the config.json copies named in the catalogue files (aiconfigurator model_configs/,
  // mlc-llm model_preset.py) or in a Megatron-Bridge model verification card (hf_id / architecture).
  const pinned: Record<string, string> = {
    'llama3-8b': 'LlamaForCausalLM', // meta-llama/Meta-Llama-3.1-8B (aiconfigurator)
    'llama4-scout-17b-16e': 'Llama4ForConditionalGeneration', // Llama-4-Scout-17B-16E-Instruct (aiconfigurator)
    'qwen2.5-3b': 'Qwen2ForCausalLM', // mlc-llm qwen2.5_3b
    'qwen3-32b': 'Qwen3ForCausalLM', // Qwen/Qwen3-32B (aiconfigurator)
    'qwen3-30b-a3b': 'Qwen3MoeForCausalLM', // Qwen/Qwen3-30B-A3B (aiconfigurator; card qwen3-30b-a3b)
    'qwen3.5-397b-a17b': 'Qwen3_5MoeForConditionalGeneration', // Qwen/Qwen3.5-397B-A17B (aiconfigurator)
    'qwen3-vl-8b': 'Qwen3VLForConditionalGeneration', // Qwen/Qwen3-VL-8B-Instruct (aiconfigurator)
    'deepseek-v3': 'DeepseekV3ForCausalLM', // deepseek-ai/DeepSeek-V3 (aiconfigurator; card deepseek-v3)
    'deepseek-v3.2': 'DeepseekV32ForCausalLM', // deepseek-ai/DeepSeek-V3.2 (aiconfigurator)
    'kimi-k2': 'DeepseekV3ForCausalLM', // moonshotai/Kimi-K2-Instruct (aiconfigurator; model_type kimi_k2)
    'kimi-k2.5': 'KimiK25ForConditionalGeneration', // moonshotai/Kimi-K2.5 (aiconfigurator; text_config DeepseekV3ForCausalLM)
    'gpt-oss-120b': 'GptOssForCausalLM', // openai/gpt-oss-120b (aiconfigurator)
    'nemotron3-nano-30b-a3b': 'NemotronHForCausalLM', // NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 (aiconfigurator)
    'nemotron-h-56b': 'NemotronHForCausalLM', // nvidia/Nemotron-H-56B-Base-8K (aiconfigurator)
    'nemotron3-nano-omni-30b-a3b': 'NemotronH_Nano_Omni_Reasoning_V3', // card nemotron-3-nano-omni-30b-a3b-reasoning
    'gemma3-1b': 'Gemma3ForCausalLM', // mlc-llm gemma3_1b_it
    'gemma3-4b': 'Gemma3ForConditionalGeneration', // card gemma-3-4b-it
    'gemma4-26b-a4b': 'Gemma4ForConditionalGeneration', // card gemma-4-26b-a4b-it
    'phi4-mini': 'Phi3ForCausalLM', // mlc-llm phi-4 (Phi-4-mini-instruct)
    'mixtral-8x7b': 'MixtralForCausalLM', // mistralai/Mixtral-8x7B-v0.1 (aiconfigurator)
    'mistral-7b-v0.3': 'MistralForCausalLM', // mlc-llm mistral_7b_v03
    'glm-5': 'GlmMoeDsaForCausalLM', // zai-org/GLM-5 (aiconfigurator)
    'minimax-m2': 'MiniMaxM2ForCausalLM', // MiniMaxAI/MiniMax-M2.5 (aiconfigurator), the same architecture
    'chatglm3-6b': 'ChatGLMModel', // mlc-llm chatglm
    'mimo-7b': 'MiMoForCausalLM', // XiaomiMiMo/MiMo-7B-Base (aiconfigurator)
  };
  for (const [id, arch] of Object.entries(pinned)) assert.equal(entry(id).shape.architecture, arch, id);
  assert.equal(Object.keys(pinned).length, 25);
  // Every config.json fixture (verbatim HF copies, test/fixtures/hf/<org>--<name>/) of a catalogue checkpoint names the
  // entry's architecture, whether it is the reference checkpoint or a sibling (base, quantized, Thinking).
  let checked = 0;
  for (const dir of readdirSync(join(REPO, 'test', 'fixtures', 'hf'))) {
    const hfId = dir.replace('--', '/');
    const owner = CATALOGUE.find((e) => e.checkpoints.some((c) => c.hfId === hfId));
    if (!owner) continue;
    assert.equal(readHfFixture(dir).shape.architecture, owner.shape.architecture, `${hfId} (${owner.id})`);
    checked++;
  }
  assert.ok(checked >= 29, `${checked} fixtures checked`);
});

test('docs/models.md lists every catalogue id', () => {
  const doc = readFileSync(join(REPO, 'docs', 'models.md'), 'utf8');
  for (const e of CATALOGUE) assert.ok(doc.includes(`| ${e.id} |`), `docs/models.md lacks ${e.id}`);
});

test('docs/models.md holds the catalogue table exactly as scripts/models-table.mjs renders it', () => {
  const doc = readFileSync(join(REPO, 'docs', 'models.md'), 'utf8');
  assert.ok(doc.includes(TABLE_START) && doc.includes(TABLE_END), 'docs/models.md lacks the models-table markers');
  assert.equal(withTable(doc), doc, 'docs/models.md is out of date: run node scripts/models-table.mjs');
  // One row per entry, in catalogue order, with the shape's own numbers.
  const rows = modelsTable()
    .split('\n')
    .filter((l) => /^\| [a-z0-9]/.test(l));
  assert.equal(rows.length, CATALOGUE.length);
  assert.equal(
    rows.find((r) => r.startsWith('| deepseek-r1-distill-qwen-1.5b |')),
    '| deepseek-r1-distill-qwen-1.5b | DeepSeek-R1-Distill-Qwen 1.5B | 1.78B | 28 | 1536 | 12 / 2 | 151936 | BF16 | `deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B` config.json |',
  );
});
