// Model presets count exactly the parameters their authors publish; names in files map to presets, GPUs and vocabularies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findGpu, GPUS } from '../../src/core/memory/gpus.js';
import { countParams, findPreset, MODEL_PRESETS } from '../../src/core/memory/presets.js';
import { vocabFromTokenizer } from '../../src/core/memory/tokenizers.js';

const preset = (id: string) => {
  const p = MODEL_PRESETS[id];
  assert.ok(p, `preset ${id}`);
  return p;
};
const total = (id: string) => countParams(preset(id)).total;
const billions = (n: number, digits: number) => Number((n / 1e9).toFixed(digits));

test('Llama 3 8B and 70B count exactly the Hugging Face safetensors totals', () => {
  assert.equal(total('llama3-8b'), 8_030_261_248);
  assert.equal(total('llama3-70b'), 70_553_706_496);
});

test('Llama 3.1 405B and Llama 3.3 70B count exactly (HF API safetensors.total of Llama-3.1-405B / -70B)', () => {
  assert.equal(total('llama3-405b'), 405_853_388_800);
  assert.equal(total('llama3.3-70b'), 70_553_706_496);
});

test('Llama 3 8B breakdown: untied embeddings twice, GQA attention, three SwiGLU matrices, two RMSNorms per layer', () => {
  const c = countParams(preset('llama3-8b'));
  assert.equal(c.embedding, 2 * 128256 * 4096);
  assert.equal(c.outputLayer, 128256 * 4096);
  assert.equal(c.perLayer.attention, 2 * 4096 * 4096 + 2 * 4096 * 1024);
  assert.equal(c.perLayer.denseMlp, 3 * 4096 * 14336);
  assert.equal(c.perLayer.norms, 2 * 4096);
  assert.equal(c.norms, 32 * 2 * 4096 + 4096);
  assert.equal(c.routedExperts + c.router + c.sharedExperts, 0);
});

test('gpt-oss counts the model card totals to the published digit (116.83B / 20.91B, arXiv:2508.10925)', () => {
  assert.equal(billions(total('gpt-oss-120b'), 2), 116.83);
  assert.equal(billions(total('gpt-oss-20b'), 2), 20.91);
});

test('DeepSeek-V3: 671B without the MTP module (technical report); MLA projections per layer', () => {
  const c = countParams(preset('deepseek-v3'));
  assert.equal(c.total, 671_026_419_200);
  assert.equal(billions(c.total, 0), 671);
  // q_a 7168·1536 + q_b 1536·128·192 + kv_a 7168·576 + kv_b 512·128·256 + o 128·128·7168
  assert.equal(c.perLayer.attention, 187_105_280);
  assert.equal(c.denseLayers, 3);
  assert.equal(c.moeLayers, 58);
  assert.equal(c.router, 58 * (256 * 7168 + 256)); // router weight + e_score_correction_bias
});

test('Qwen3 totals and non-embedding counts match the model cards (8.2B/6.95B, 32.8B/31.2B, 235B)', () => {
  const q8 = countParams(preset('qwen3-8b'));
  assert.equal(billions(q8.total, 1), 8.2);
  assert.equal(billions(q8.total - q8.embedding, 2), 6.95);
  const q32 = countParams(preset('qwen3-32b'));
  assert.equal(billions(q32.total, 1), 32.8);
  assert.equal(billions(q32.total - q32.embedding, 1), 31.2);
  assert.equal(billions(total('qwen3-235b-a22b'), 0), 235);
});

test('Nemotron-4 non-embedding counts match the technical reports (12.5B; 9.4B + 331.6B)', () => {
  const n15 = countParams(preset('nemotron4-15b'));
  // The 15B report's "3.2 billion embedding parameters" is above 2 · 256000 · 6144 = 3.146e9 (rounded up, or counted otherwise).
  assert.equal(n15.embedding, 2 * 256000 * 6144);
  assert.equal(billions(n15.total - n15.embedding, 1), 12.5);
  const n340 = countParams(preset('nemotron4-340b'));
  assert.equal(billions(n340.embedding, 1), 9.4);
  assert.equal(billions(n340.total - n340.embedding, 1), 331.6);
});

test('every preset is within 1% of its published size and says where its shape comes from', () => {
  for (const [id, p] of Object.entries(MODEL_PRESETS)) {
    assert.ok(p.publishedParams, `${id} has a published size`);
    const err = Math.abs(countParams(p).total / p.publishedParams - 1);
    assert.ok(err < 0.01, `${id}: ${countParams(p).total} vs ${p.publishedParams}`);
    assert.match(p.source, /config|Config/, `${id} cites its config`);
    assert.equal(p.name, id);
  }
});

test('findPreset maps checkpoint, tokenizer and config-class names to a preset, case-insensitively', () => {
  const cases: [string, string | undefined][] = [
    ['meta-llama/Meta-Llama-3-8B', 'llama3-8b'],
    ['meta-llama/Meta-Llama-3.1-70B', 'llama3-70b'],
    ['meta-llama/Llama-3.3-70B-Instruct', 'llama3.3-70b'],
    ['nvidia/Llama-3.3-70B-Instruct-FP8', 'llama3.3-70b'],
    ['meta-llama/Llama-3.1-405B-Instruct', 'llama3-405b'],
    ['deepseek-ai/DeepSeek-R1', 'deepseek-v3'],
    ['deepseek-ai/DeepSeek-V3-0324', 'deepseek-v3'],
    ['deepseek-r1', 'deepseek-v3'],
    ['openai/gpt-oss-120b', 'gpt-oss-120b'],
    ['Qwen/Qwen3-235B-A22B', 'qwen3-235b-a22b'],
    ['Qwen/Qwen3-235B-A22B-Instruct-2507-FP8', 'qwen3-235b-a22b'],
    ['mistralai/Mixtral-8x7B-v0.1', 'mixtral-8x7b'],
    ['MIXTRAL-8X22B', 'mixtral-8x22b'],
    ['llama31_405b', 'llama3-405b'],
    ['nemotron4_340b', 'nemotron4-340b'],
    ['Llama3Config8B', 'llama3-8b'],
    ['nemo.collections.llm.gpt.model.qwen3.Qwen3Config235B_A22B', 'qwen3-235b-a22b'],
    ['GPTOSSConfig20B', 'gpt-oss-20b'],
    ['deepseek-ai/DeepSeek-V2-Lite', 'deepseek-v2-lite'],
    ['DeepSeek-V3-Lite', undefined],
    ['meta-llama/Llama-2-7b-hf', undefined],
    ['constructor', undefined],
    ['', undefined],
  ];
  for (const [name, id] of cases) assert.equal(findPreset(name), id, name);
});

test('findGpu: measured H100 and H200 capacities, aliases, custom sizes', () => {
  assert.equal(findGpu('h100')?.bytes, 85_017_493_504);
  assert.equal(findGpu('H100-80GB')?.id, 'h100');
  assert.equal(findGpu('NVIDIA H100 80GB HBM3')?.id, 'h100');
  assert.equal(findGpu('h200')?.bytes, 150_109_880_320);
  assert.equal(findGpu('H20')?.id, 'h20');
  assert.equal(findGpu('b200')?.id, 'b200');
  assert.equal(findGpu('a100-40gb')?.bytes, 42_298_834_944);
  assert.equal(findGpu('A100')?.id, 'a100-80gb');
  assert.equal(findGpu('h100-nvl')?.id, 'h100-nvl');
  assert.equal(findGpu('GB300')?.id, 'gb300');
  assert.equal(findGpu('custom:96')?.bytes, 96 * 2 ** 30);
  assert.equal(findGpu('custom:0'), undefined);
  assert.equal(findGpu('tpu-v5'), undefined);
  for (const g of GPUS) assert.ok(g.bytes > 30e9 && g.source.length > 20, g.id);
});

test('vocabFromTokenizer matches HF ids, SentencePiece files by basename and Megatron GPT-2 BPE', () => {
  const v = (lib: string | undefined, t: string | undefined) => vocabFromTokenizer(lib, t)?.vocab;
  assert.equal(v('huggingface', 'meta-llama/Meta-Llama-3-8B'), 128256);
  assert.equal(v('huggingface', 'META-LLAMA/META-LLAMA-3.1-70B'), 128256);
  assert.equal(v('huggingface', 'mistralai/Mixtral-8x7B-v0.1'), 32000);
  assert.equal(v('huggingface', 'mistralai/Mixtral-8x22B-Instruct-v0.1'), 32768);
  assert.equal(v('sentencepiece', '/lustre/data/utils/nemotron_2_256k.model'), 256000);
  assert.equal(v('sentencepiece', '29e0db5f7dd14bcf9f32727ff482502b_nemotron_2_256k.model'), 256000);
  assert.equal(v('megatron', 'GPT2BPETokenizer'), 50257);
  assert.equal(v('megatron', '${data_dir}/bpe/vocab.json'), 50257);
  assert.equal(v('huggingface', '${data_dir}/bpe/vocab.json'), undefined);
  assert.equal(v(undefined, '/root/.cache/torch/megatron/megatron-gpt-345m_vocab'), 50257);
  assert.equal(v('huggingface', 'gpt2'), 50257);
  assert.equal(v('huggingface', 'nvidia/Llama-3.3-70B-Instruct-FP8'), 128256); // through the preset
  assert.equal(v('huggingface', 'Qwen/Qwen3-8B'), 151936);
  assert.equal(v('sentencepiece', '/path/to/tokenizer.model'), undefined);
  assert.equal(v(undefined, undefined), undefined);
  assert.match(vocabFromTokenizer('huggingface', 'openai/gpt-oss-120b')?.source ?? '', /config\.json/);
});
