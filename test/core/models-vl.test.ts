// Multimodal releases whose language model the catalogue sizes (Qwen2-VL, Qwen2.5-VL, Qwen3-VL 2B), MiMo-7B, ModelOpt's
// static per-tensor FP8 Qwen3-32B, and the models named but not modelled (DeciLM Llama-Nemotron, MiMo-V2).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countParams } from '../../src/core/memory/params.js';
import { catalogueEntry } from '../../src/core/models/catalogue.js';
import { describeWeights, resolveModelRef, type ModelResolution } from '../../src/core/models/resolve.js';

type Catalogue = Extract<ModelResolution, { kind: 'catalogue' }>;
function catalogue(ref: string): Catalogue {
  const r = resolveModelRef(ref);
  assert.equal(r.kind, 'catalogue', `${ref}: ${JSON.stringify(r).slice(0, 300)}`);
  return r as Catalogue;
}
const total = (id: string) => countParams(catalogueEntry(id)!.shape).total;

test('Qwen2-VL and Qwen2.5-VL checkpoints resolve to their own entries, not to the text-only model of their size', () => {
  const cases: [string, string][] = [
    ['Qwen/Qwen2.5-VL-3B-Instruct', 'qwen2.5-vl-3b'],
    ['Qwen/Qwen2.5-VL-7B-Instruct', 'qwen2.5-vl-7b'],
    ['Qwen/Qwen2.5-VL-32B-Instruct', 'qwen2.5-vl-32b'],
    ['Qwen/Qwen2.5-VL-72B-Instruct', 'qwen2.5-vl-72b'],
    ['Qwen/Qwen2-VL-2B-Instruct', 'qwen2-vl-2b'],
    ['Qwen/Qwen2-VL-7B-Instruct', 'qwen2-vl-7b'],
    ['Qwen/Qwen2-VL-72B-Instruct', 'qwen2-vl-72b'],
    ['Qwen/Qwen3-VL-2B-Instruct', 'qwen3-vl-2b'],
    // NeMo 2 config classes and recipe names.
    ['Qwen25VLConfig3B', 'qwen2.5-vl-3b'],
    ['qwen25vl_7b', 'qwen2.5-vl-7b'],
    ['qwen2vl_2b', 'qwen2-vl-2b'],
  ];
  for (const [ref, id] of cases) assert.equal(catalogue(ref).entry.id, id, ref);
  // The text-only releases keep theirs.
  assert.equal(catalogue('Qwen/Qwen2.5-3B-Instruct').entry.id, 'qwen2.5-3b');
  assert.equal(catalogue('Qwen/Qwen2-7B-Instruct').entry.id, 'qwen2-7b');
});

test('a Qwen2-VL / Qwen2.5-VL language model is the Qwen2 / Qwen2.5 config NeMo builds it from, to the parameter', () => {
  // nemo/collections/vlm/qwen2vl/model/qwen2vl.py: language_transformer_config Qwen25Config3B, Qwen2Config7B, ...
  assert.equal(total('qwen2.5-vl-3b'), total('qwen2.5-3b'));
  assert.equal(total('qwen2.5-vl-3b'), 3_085_938_688);
  assert.equal(total('qwen2.5-vl-7b'), total('qwen2.5-7b'));
  assert.equal(total('qwen2.5-vl-32b'), total('qwen2.5-32b'));
  assert.equal(total('qwen2.5-vl-72b'), total('qwen2.5-72b'));
  assert.equal(total('qwen2-vl-7b'), total('qwen2-7b'));
  assert.equal(total('qwen2-vl-72b'), total('qwen2-72b'));
  // Qwen2VLConfig2B ties Qwen2Config1P5B's embeddings: one 151936 × 1536 matrix, not two.
  const vl2b = catalogueEntry('qwen2-vl-2b')!;
  assert.equal(vl2b.shape.tiedEmbeddings, true);
  assert.equal(countParams(vl2b.shape).embedding, 151936 * 1536);
  for (const id of ['qwen2-vl-2b', 'qwen2.5-vl-3b', 'qwen2.5-vl-72b', 'qwen3-vl-2b']) {
    const e = catalogueEntry(id)!;
    assert.match(e.notes.join(' '), /vision encoder .* not in the shape/, id);
    assert.equal(e.published.scope, 'the multimodal checkpoint (vision encoder included)', id);
  }
  assert.equal(catalogueEntry('qwen2.5-vl-3b')!.shape.attentionBias, 'qkv');
  assert.match(catalogueEntry('qwen2.5-vl-32b')!.notes[0]!, /ffn_hidden_size 3456/);
});

test('Qwen3-VL 2B is its config.json text_config: 28 layers of width 2048, 16 heads, 8 KV heads, tied', () => {
  const s = catalogueEntry('qwen3-vl-2b')!.shape;
  assert.deepEqual(
    [s.layers, s.hidden, s.ffn, s.heads, s.kvHeads, s.headDim, s.vocab, s.tiedEmbeddings, s.qkNorm],
    [28, 2048, 6144, 16, 8, 128, 151936, true, true],
  );
  // Qwen3-1.7B's language model: the same dimensions.
  assert.equal(total('qwen3-vl-2b'), total('qwen3-1.7b'));
});

test('MiMo-7B is a Qwen2-style layer with q/k/v biases and one MTP layer', () => {
  const r = catalogue('XiaomiMiMo/MiMo-7B-RL');
  assert.equal(r.entry.id, 'mimo-7b');
  assert.equal(r.weights.dtype, 'bf16');
  const s = r.entry.shape;
  assert.deepEqual([s.layers, s.hidden, s.ffn, s.kvHeads, s.vocab, s.attentionBias, s.mtpLayers], [36, 4096, 11008, 8, 151680, 'qkv', 1]);
  assert.equal(catalogue('XiaomiMiMo/MiMo-7B-Base').weights.source.includes('torch_dtype bfloat16'), true);
});

test("ModelOpt's static per-tensor FP8 Qwen3-32B resolves with its own format, and per-tensor / per-channel qualifiers are read", () => {
  const r = catalogue('Qwen/Qwen3-32B-FP8-Static-PerTensor');
  assert.equal(r.entry.id, 'qwen3-32b');
  assert.equal(r.checkpoint?.hfId, 'Qwen/Qwen3-32B-FP8-Static-PerTensor');
  assert.deepEqual([r.weights.dtype, r.weights.kvCache, r.weights.excluded], ['fp8', 'fp8', ['lm_head']]);
  assert.equal(describeWeights(r.weights), 'FP8 (linear layers; the rest BF16)');
  // Not a listed checkpoint: the qualifiers name the same architecture.
  assert.equal(catalogue('org/Qwen3-8B-FP8-Static-PerTensor').entry.id, 'qwen3-8b');
  assert.equal(catalogue('org/Llama-3.1-8B-FP8-PerChannel').entry.id, 'llama3-8b');
});

test('DeciLM Llama-Nemotron and MiMo-V2 are named as unmodelled, with what their architecture has that no term covers', () => {
  for (const ref of [
    'nvidia/Llama-3_3-Nemotron-Super-49B-v1',
    'nvidia/Llama-3_3-Nemotron-Super-49B-v1_5',
    'nvidia/Llama-3.3-Nemotron-Super-49B-v1',
    'nvidia/Llama-3_1-Nemotron-Ultra-253B-v1',
  ]) {
    const r = resolveModelRef(ref);
    assert.equal(r.kind, 'not-found', ref);
    assert.match(
      (r as { message: string }).message,
      /names Llama-Nemotron Super \/ Ultra \(DeciLM\), a model Recipe Lens does not model yet: its heterogeneous blocks/,
      ref,
    );
  }
  const mimo = resolveModelRef('XiaomiMiMo/MiMo-V2-Flash');
  assert.equal(mimo.kind, 'not-found');
  assert.match((mimo as { message: string }).message, /names MiMo-V2, .*per-layer-type heads/);
  // Llama-Nemotron releases that are plain Llama layers still resolve.
  assert.equal(catalogue('nvidia/Llama-3.1-Nemotron-Nano-8B-v1').entry.id, 'llama3.1-nemotron-nano-8b');
  assert.equal(catalogue('nvidia/Llama-3.1-Nemotron-70B-Instruct-HF').entry.id, 'llama3-70b');
});
