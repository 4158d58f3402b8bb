// Catalogue models count exactly the parameters their authors publish; names in files map to catalogue models, GPUs
// and vocabularies. (These were the memory model's presets; the catalogue is now the one model source.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findGpu, GPUS } from '../../src/core/memory/gpus.js';
import { countParams } from '../../src/core/memory/params.js';
import { catalogueEntry, findCatalogueId } from '../../src/core/models/catalogue.js';
import { vocabFromTokenizer } from '../../src/core/models/tokenizers.js';

/** The 17 models the estimate knew before the catalogue replaced its presets. */
const FORMER_PRESETS = [
  'llama3-8b',
  'llama3-70b',
  'llama3-405b',
  'llama3.3-70b',
  'mixtral-8x7b',
  'mixtral-8x22b',
  'nemotron4-15b',
  'nemotron4-340b',
  'deepseek-v3',
  'deepseek-v2-lite',
  'qwen3-8b',
  'qwen3-32b',
  'qwen3-235b-a22b',
  'qwen3-30b-a3b',
  'moonlight-16b-a3b',
  'gpt-oss-20b',
  'gpt-oss-120b',
];

const preset = (id: string) => {
  const e = catalogueEntry(id);
  assert.ok(e, `catalogue entry ${id}`);
  return e.shape;
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

test('the former presets are within 1% of their published count (5% of a size in a name) and cite a config', () => {
  for (const id of FORMER_PRESETS) {
    const e = catalogueEntry(id)!;
    const err = Math.abs(countParams(e.shape).total / e.published.total - 1);
    // A nominal size ("15B" for Nemotron-4 15B's 15.6B) is a class, not a count.
    assert.ok(err < (e.published.kind === 'nominal' ? 0.05 : 0.01), `${id}: ${countParams(e.shape).total} vs ${e.published.total}`);
    assert.match(e.sources.join(' '), /config|Config|Provider/, `${id} cites its config or model provider`);
    assert.equal(e.shape.name, id);
  }
});

test('findCatalogueId maps checkpoint, tokenizer and config-class names to a model, case-insensitively', () => {
  const cases: [string, string | undefined][] = [
    ['meta-llama/Meta-Llama-3-8B', 'llama3-8b'],
    ['meta-llama/Meta-Llama-3.1-70B', 'llama3-70b'],
    ['meta-llama/Llama-3.3-70B-Instruct', 'llama3.3-70b'],
    ['nvidia/Llama-3.3-70B-Instruct-FP8', 'llama3.3-70b'],
    ['meta-llama/Llama-3.1-405B-Instruct', 'llama3-405b'],
    // R1 is its own catalogue entry (the DeepSeek-V3 shape, its own checkpoints); the presets mapped it to deepseek-v3.
    ['deepseek-ai/DeepSeek-R1', 'deepseek-r1'],
    ['deepseek-ai/DeepSeek-V3-0324', 'deepseek-v3'],
    ['deepseek-r1', 'deepseek-r1'],
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
    // The catalogue holds Llama 2 (the presets did not).
    ['meta-llama/Llama-2-7b-hf', 'llama2-7b'],
    ['constructor', undefined],
    ['', undefined],
  ];
  for (const [name, id] of cases) assert.equal(findCatalogueId(name), id, name);
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
  assert.equal(v('huggingface', 'nvidia/Llama-3.3-70B-Instruct-FP8'), 128256); // through the catalogue
  assert.equal(v('huggingface', 'Qwen/Qwen3-8B'), 151936);
  assert.equal(v('sentencepiece', '/path/to/tokenizer.model'), undefined);
  assert.equal(v(undefined, undefined), undefined);
  assert.match(vocabFromTokenizer('huggingface', 'openai/gpt-oss-120b')?.source ?? '', /config\.json/);
});
