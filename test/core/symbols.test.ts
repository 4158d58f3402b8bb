// The recipe's outline (src/core/symbols.ts): mapping and sequence keys nested as written, scalars left out, one entry
// per document of a multi-document file, bounded for generated files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateRecipe } from '../../bench/generate.mjs';
import { analyze } from '../../src/core/analysis.js';
import { recipeSymbols, SYMBOL_LIMITS, type RecipeSymbol } from '../../src/core/symbols.js';
import { CORPUS, EXAMPLES } from '../helpers.js';

const brief = (s: RecipeSymbol): unknown[] => [s.name, s.kind, s.detail, ...(s.children.length ? [s.children.map(brief)] : [])];
const count = (ss: RecipeSymbol[]): number => ss.reduce((n, s) => n + 1 + count(s.children), 0);

test('a KV retention config: the list and its two ranges', () => {
  const text = readFileSync(join(EXAMPLES, 'retention_system_prompt.yaml'), 'utf8');
  const symbols = recipeSymbols(analyze(text));
  assert.deepEqual(symbols.map(brief), [
    [
      'token_range_retention_configs',
      'list',
      '2 items',
      [
        ['[0]', 'section', '4 keys'],
        ['[1]', 'section', '4 keys'],
      ],
    ],
  ]);
  const s = symbols[0]!;
  assert.equal(text.slice(s.selection[0], s.selection[1]), 'token_range_retention_configs');
});

test('a TensorRT-LLM options file: its two sections with their key counts; spans cover key and value', () => {
  const text = readFileSync(join(EXAMPLES, 'trtllm_llama3_70b_serve.yaml'), 'utf8');
  const symbols = recipeSymbols(analyze(text));
  assert.deepEqual(symbols.map(brief), [
    ['cuda_graph_config', 'section', '2 keys'],
    ['kv_cache_config', 'section', '7 keys'],
  ]);
  const kv = symbols[1]!;
  assert.ok(text.slice(kv.span[0], kv.span[1]).startsWith('kv_cache_config:'));
  assert.ok(text.slice(kv.span[0], kv.span[1]).trimEnd().endsWith(text.trimEnd().split('\n').at(-1)!.trim()));
});

test('two YAML documents: one entry per document, named and labelled with its format', () => {
  const doc = 'kv_cache_config:\n  free_gpu_memory_fraction: 0.9\n';
  const symbols = recipeSymbols(analyze(`${doc}---\n${doc}`));
  assert.deepEqual(symbols.map(brief), [
    ['document 1', 'document', 'TensorRT-LLM LLM-API options', [['kv_cache_config', 'section', '1 key']]],
    ['document 2', 'document', 'TensorRT-LLM LLM-API options', [['kv_cache_config', 'section', '1 key']]],
  ]);
});

test('bounded: 3,000 sections give SYMBOL_LIMITS.count symbols; a generated 10,000-line recipe all of its 400; a non-recipe none', () => {
  const wide = 'kv_cache_config:\n' + Array.from({ length: 3000 }, (_, i) => `  k${i}:\n    a: 1\n`).join('');
  assert.equal(count(recipeSymbols(analyze(wide))), SYMBOL_LIMITS.count);
  const big = generateRecipe(readFileSync(join(CORPUS, 'NeMo', 'megatron_gpt_config.yaml'), 'utf8'), { lines: 10_000 });
  assert.equal(count(recipeSymbols(analyze(big))), 400);
  assert.deepEqual(recipeSymbols(analyze('name: hello\nitems:\n  a: 1\n')), []);
});
