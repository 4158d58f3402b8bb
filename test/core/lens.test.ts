// The per-GPU estimate's place and text in the editor (src/core/lens.ts): on the first parallelism key written in the
// file (from the recipe's field locations), with the analysis's own figures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { estimateLenses } from '../../src/core/lens.js';
import { GIB } from '../../src/core/memory/overheads.js';
import { EXAMPLES } from '../helpers.js';

const read = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');
const gib = (b: number) => `${(b / GIB).toFixed(2)} GiB`;
const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

test('training: on tensor_model_parallel_size (the block’s first key), most-loaded rank against the GPU, the layout', () => {
  const text = read('bridge_llama3_70b_64k.yaml');
  const a = analyze(text, { gpu: 'h100' });
  const e = a.main!.estimate!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  const lenses = estimateLenses(a);
  assert.equal(lenses.length, 1);
  const [l] = lenses;
  assert.equal(text.slice(l!.span[0], l!.span[1]), 'tensor_model_parallel_size');
  assert.equal(lineOf(text, l!.span[0]), 27);
  assert.equal(
    l!.text,
    `${gib(e.estimate.perGpu.total)} per GPU of ${gib(e.gpu.bytes)} (h100) — ${e.estimate.fit.verdict.replace(/-/g, ' ')} · TP 8 · PP 4 · CP 8 · DP 1`,
  );
  assert.equal(l!.verdict, e.estimate.fit.verdict);
});

test('a key moved below the others: the line follows the first parallelism key written, wherever it is', () => {
  const text = read('broken/llama3_8b_cp3.yaml');
  // move context_parallel_size above tensor_model_parallel_size
  const cp = '  context_parallel_size: 3 # WRONG: breaks R1 (64 % 24) and R3 (131072 % 6); use 8\n';
  const moved = text.replace(cp, '').replace('  tensor_model_parallel_size: 4\n', cp + '  tensor_model_parallel_size: 4\n');
  assert.notEqual(moved, text);
  const [l] = estimateLenses(analyze(moved, { gpu: 'h100' }));
  assert.equal(moved.slice(l!.span[0], l!.span[1]), 'context_parallel_size');
});

test('serving: the KV pool on the first parallelism key of the options file', () => {
  const text = read('trtllm_llama3_70b_serve.yaml');
  const a = analyze(text, { gpu: 'h100' });
  const e = a.main!.estimate!;
  assert.equal(e.kind, 'serving');
  if (e.kind !== 'serving') return;
  const [l, more] = estimateLenses(a);
  assert.equal(more, undefined);
  assert.equal(lineOf(text, l!.span[0]), 12);
  const k = e.roles[0]!.kv;
  assert.equal(l!.text, `KV pool ${gib(k.allocatedBytes)} per GPU = ${k.poolTokens.toLocaleString('en-US')} tokens (h100, TP 4)`);
  assert.equal(l!.verdict, 'kv-pool');
});

test('no estimate, no line: a retention config, a file with syntax errors, a non-recipe', () => {
  assert.deepEqual(estimateLenses(analyze(read('retention_system_prompt.yaml'))), []);
  assert.deepEqual(estimateLenses(analyze('model:\n  tensor_model_parallel_size: [\n')), []);
  assert.deepEqual(estimateLenses(analyze('name: hello\nitems: [1, 2]\n')), []);
});
