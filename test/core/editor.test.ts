// Editor features of the core: what is under the cursor, completion from the schema, hover text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { completions } from '../../src/core/complete.js';
import { completionContext, lookupLoose, pathAtOffset, type CompletionContext } from '../../src/core/cursor.js';
import { parseFile } from '../../src/core/document.js';
import { hoverMarkdown } from '../../src/core/hoverText.js';
import { lookup } from '../../src/core/tree.js';
import type { FormatId } from '../../src/core/types.js';
import { CORPUS, REPO } from '../helpers.js';

/** Offset of the `nth` occurrence of `needle`, plus `delta`. */
function at(text: string, needle: string, delta = 0, nth = 0): number {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  if (i < 0) throw new Error(`${needle} not in text`);
  return i + delta;
}

/** Text with the cursor marked by `|`: the text without it, and the cursor offset. */
function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  assert.ok(offset >= 0 && marked.indexOf('|', offset + 1) < 0, 'exactly one cursor');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

const ctxOf = (marked: string) => {
  const { text, offset } = cursor(marked);
  return completionContext(text, offset);
};

/** Completion as the VS Code adapter does it: context from the text, keys already in the mapping left out. */
function complete(marked: string, format: FormatId) {
  const { text, offset } = cursor(marked);
  const ctx = completionContext(text, offset);
  assert.ok(ctx, 'a completion context');
  const doc = parseFile(text).docs[0];
  const parent = ctx.mode === 'key' ? lookup(doc?.root, ctx.path)?.node : undefined;
  const existing = new Set(parent?.kind === 'map' ? parent.entries.map((e) => e.key) : []);
  return completions(format, ctx, existing);
}
const labels = (items: { label: string }[]) => items.map((i) => i.label);

// ---------------------------------------------------------------------------------------------
// pathAtOffset

const NEMO = `trainer:
  devices: 8
model:
  encoder_seq_length: 4096
  data:
    seq_length: \${model.encoder_seq_length}
    data_prefix:
      - 0.5
      - /data/a_text_document
`;

const RETENTION = `token_range_retention_configs:
  - token_start: 0
    token_end: 64
    priority: 100
  - token_start: 64
    priority: 20
decode_retention_priority: 35
`;

test('pathAtOffset: on a nested key (start, middle and end of the key)', () => {
  const root = parseFile(NEMO).docs[0]!.root;
  for (const delta of [0, 4, 'seq_length'.length]) {
    const hit = pathAtOffset(root, at(NEMO, '    seq_length:', 4 + delta));
    assert.deepEqual(hit?.path, ['model', 'data', 'seq_length'], `delta ${delta}`);
    assert.equal(hit?.onKey, true);
    assert.equal(hit?.entry?.key, 'seq_length');
  }
});

test('pathAtOffset: on a scalar value', () => {
  const root = parseFile(NEMO).docs[0]!.root;
  const hit = pathAtOffset(root, at(NEMO, '${model.encoder_seq_length}', 3));
  assert.deepEqual(hit?.path, ['model', 'data', 'seq_length']);
  assert.equal(hit?.onKey, false);
  assert.equal(hit?.entry?.key, 'seq_length');
  const top = pathAtOffset(root, at(NEMO, 'devices: 8', 'devices: '.length));
  assert.deepEqual([top?.path, top?.onKey], [['trainer', 'devices'], false]);
});

test('pathAtOffset: a key of a mapping inside a list has the item index in its path', () => {
  const root = parseFile(RETENTION).docs[0]!.root;
  const key = pathAtOffset(root, at(RETENTION, 'priority', 2, 1));
  assert.deepEqual([key?.path, key?.onKey], [['token_range_retention_configs', 1, 'priority'], true]);
  const value = pathAtOffset(root, at(RETENTION, 'token_start: 64', 'token_start: '.length + 1));
  assert.deepEqual(
    [value?.path, value?.onKey, value?.entry?.key],
    [['token_range_retention_configs', 1, 'token_start'], false, 'token_start'],
  );
  const first = pathAtOffset(root, at(RETENTION, 'token_end'));
  assert.deepEqual(first?.path, ['token_range_retention_configs', 0, 'token_end']);
});

test('pathAtOffset: a plain scalar in a list belongs to the list key (its hover is the list key’s)', () => {
  const root = parseFile(NEMO).docs[0]!.root;
  const hit = pathAtOffset(root, at(NEMO, '/data/a_text_document', 3));
  assert.deepEqual([hit?.path, hit?.onKey, hit?.entry?.key], [['model', 'data', 'data_prefix'], false, 'data_prefix']);
});

test('pathAtOffset: nothing under the cursor, or no document', () => {
  const text = '# a comment\nkv_cache_config:\n  dtype: fp8\n';
  assert.equal(pathAtOffset(parseFile(text).docs[0]!.root, 3), undefined);
  assert.equal(pathAtOffset(undefined, 0), undefined);
});

// ---------------------------------------------------------------------------------------------
// completionContext

test('completionContext: key mode at the top level', () => {
  assert.deepEqual(ctxOf('kv_cache_config:\n  dtype: fp8\n|'), { path: [], mode: 'key', prefix: '', wordStart: 30 });
  assert.deepEqual(ctxOf('kv_cache_config:\n  dtype: fp8\nmax_b|'), { path: [], mode: 'key', prefix: 'max_b', wordStart: 30 });
});

test('completionContext: key mode one and two levels down, with a partial key', () => {
  const one = cursor('kv_cache_config:\n  dtype: fp8\n  free|\n');
  assert.deepEqual(completionContext(one.text, one.offset), {
    path: ['kv_cache_config'],
    mode: 'key',
    prefix: 'free',
    wordStart: one.offset - 4,
  });
  const two = ctxOf('trainer:\n  devices: 8\nmodel:\n  tensor_model_parallel_size: 2\n  data:\n    seq_length: 4096\n    |\n');
  assert.deepEqual([two?.path, two?.mode, two?.prefix], [['model', 'data'], 'key', '']);
});

test('completionContext: after a deeper block, the indentation picks the right parent', () => {
  const c = ctxOf('kv_cache_config:\n  dtype: fp8\ncache_transceiver_config:\n  backend: UCX\n  max_tokens_in_buffer: 8192\n  |\n');
  assert.deepEqual([c?.path, c?.mode], [['cache_transceiver_config'], 'key']);
  const back = ctxOf('model:\n  data:\n    seq_length: 4096\n  |\n');
  assert.deepEqual(back?.path, ['model']);
});

test('completionContext: blank and comment lines between the cursor and its parent are skipped', () => {
  const c = ctxOf('model:\n  data:\n    # the blend\n\n    seq_length: 4096\n\n    # more\n    |\n');
  assert.deepEqual(c?.path, ['model', 'data']);
});

test('completionContext: in a `- ` list item of token_range_retention_configs', () => {
  // On the item line itself …
  const onDash = ctxOf('token_range_retention_configs:\n  - tok|\n');
  assert.deepEqual([onDash?.path, onDash?.mode, onDash?.prefix], [['token_range_retention_configs'], 'key', 'tok']);
  // … and on a continuation line of the item.
  const cont = ctxOf('token_range_retention_configs:\n  - token_start: 0\n    pri|\n');
  assert.deepEqual([cont?.path, cont?.mode, cont?.prefix], [['token_range_retention_configs'], 'key', 'pri']);
});

test('completionContext: value mode names the key whose value is typed', () => {
  const { text, offset } = cursor('kv_cache_config:\n  dtype: fp8\ncache_transceiver_config:\n  backend: NI|\n');
  assert.deepEqual(completionContext(text, offset), {
    path: ['cache_transceiver_config', 'backend'],
    mode: 'value',
    prefix: 'NI',
    wordStart: offset - 2,
  });
  const empty = ctxOf('kv_cache_config:\n  enable_block_reuse: |\n');
  assert.deepEqual([empty?.path, empty?.mode, empty?.prefix], [['kv_cache_config', 'enable_block_reuse'], 'value', '']);
  const inItem = ctxOf('token_range_retention_configs:\n  - token_start: 0\n    priority: |\n');
  assert.deepEqual([inItem?.path, inItem?.mode], [['token_range_retention_configs', 'priority'], 'value']);
});

test('completionContext: none in a comment or where the line is no key or value being typed', () => {
  assert.equal(ctxOf('kv_cache_config:\n  # free|\n'), undefined);
  assert.equal(ctxOf('kv_cache_config:\n  dtype: "fp8" # x|\n'), undefined);
});

// ---------------------------------------------------------------------------------------------
// completions

test('completions: the keys of kv_cache_config, without the keys already there', () => {
  const items = complete('kv_cache_config:\n  free_gpu_memory_fraction: 0.9\n  enable_block_reuse: true\n  |\n', 'trtllm-options');
  const got = labels(items);
  for (const k of ['tokens_per_block', 'max_tokens', 'host_cache_size', 'dtype', 'enable_partial_reuse']) assert.ok(got.includes(k), k);
  assert.ok(!got.includes('free_gpu_memory_fraction'), 'already present');
  assert.ok(!got.includes('enable_block_reuse'), 'already present');
  assert.ok(!got.includes('kv_cache_config') && !got.includes('tensor_parallel_size'), 'top-level keys do not belong here');
  const tpb = items.find((i) => i.label === 'tokens_per_block')!;
  assert.equal(tpb.kind, 'key');
  assert.equal(tpb.insertText, 'tokens_per_block: ');
  assert.equal(tpb.detail, 'integer');
  assert.match(tpb.documentation ?? '', /^The number of tokens per block/);
  assert.equal(tpb.deprecated, false);
  assert.equal(items.find((i) => i.label === 'onboard_blocks')?.deprecated, true);
});

test('completions: top-level keys of a TRT-LLM options file', () => {
  const got = labels(complete('kv_cache_config:\n  dtype: fp8\n|', 'trtllm-options'));
  for (const k of ['tensor_parallel_size', 'max_batch_size', 'cache_transceiver_config']) assert.ok(got.includes(k), k);
  assert.ok(!got.includes('kv_cache_config'), 'already present');
  assert.ok(!got.includes('tokens_per_block'), 'a kv_cache_config key, not a top-level one');
});

test('completions: the keys of a NeMo model section', () => {
  const got = labels(complete('trainer:\n  devices: 8\nmodel:\n  encoder_seq_length: 4096\n  |\n', 'nemo1'));
  for (const k of ['context_parallel_size', 'tensor_model_parallel_size', 'sequence_parallel', 'data', 'optim'])
    assert.ok(got.includes(k), k);
  assert.ok(!got.includes('encoder_seq_length'));
  assert.ok(!got.includes('devices'));
});

test('completions: inside a list item, the item’s keys', () => {
  assert.deepEqual(labels(complete('token_range_retention_configs:\n  - |\n', 'kv-retention')), [
    'token_start',
    'token_end',
    'priority',
    'duration_ms',
  ]);
  const ctx: CompletionContext = { path: ['token_range_retention_configs'], mode: 'key', prefix: '', wordStart: 0 };
  assert.deepEqual(labels(completions('kv-retention', ctx, new Set(['token_start']))), ['token_end', 'priority', 'duration_ms']);
});

test('completions: enum values in value mode, null last and marked as the default', () => {
  const items = complete('kv_cache_config:\n  dtype: fp8\ncache_transceiver_config:\n  backend: |\n', 'trtllm-options');
  assert.deepEqual(labels(items), ['DEFAULT', 'UCX', 'NIXL', 'MOONCAKE', 'MPI', 'null']);
  assert.deepEqual(
    items.map((i) => [i.kind, i.insertText, i.detail]),
    [
      ['value', 'DEFAULT', undefined],
      ['value', 'UCX', undefined],
      ['value', 'NIXL', undefined],
      ['value', 'MOONCAKE', undefined],
      ['value', 'MPI', undefined],
      ['value', 'null', 'default'],
    ],
  );
  assert.match(items[0]!.documentation ?? '', /^The communication backend type to use for the cache transceiver/);
});

test('completions: a string field without an enum offers the values the schema lists as examples (dtype)', () => {
  const items = complete('tensor_parallel_size: 4\ndtype: |\n', 'trtllm-options');
  assert.deepEqual(labels(items), ['auto', 'float16', 'bfloat16', 'float32']);
  assert.equal(items.find((i) => i.label === 'auto')?.detail, 'default');
});

test('completions: booleans for a boolean key', () => {
  const trt = complete('kv_cache_config:\n  enable_block_reuse: |\n', 'trtllm-options');
  assert.deepEqual(labels(trt), ['true', 'false']);
  const nemo = complete('trainer:\n  devices: 8\nmodel:\n  encoder_seq_length: 4096\n  sequence_parallel: |\n', 'nemo1');
  assert.deepEqual(labels(nemo), ['true', 'false']);
});

test('completions: nothing for an integer key or a key the schema does not know', () => {
  assert.deepEqual(complete('kv_cache_config:\n  tokens_per_block: |\n', 'trtllm-options'), []);
  assert.deepEqual(complete('kv_cache_config:\n  no_such_key: |\n', 'trtllm-options'), []);
});

// ---------------------------------------------------------------------------------------------
// hoverMarkdown

const LLAMA = readFileSync(join(CORPUS, 'NeMo-Framework-Launcher', 'llama3_8b.yaml'), 'utf8');
const llamaDoc = parseFile(LLAMA).docs[0]!;
const schemaModel = JSON.parse(readFileSync(join(REPO, 'schemas', 'nemo1.schema.json'), 'utf8')).$defs.model.properties;

test('hover on model.context_parallel_size (llama3_8b.yaml): header with type and range, description, default', () => {
  assert.equal(llamaDoc.format, 'nemo-launcher');
  const hit = pathAtOffset(llamaDoc.root, at(LLAMA, '  context_parallel_size:', 4));
  assert.deepEqual([hit?.path, hit?.onKey], [['model', 'context_parallel_size'], true]);
  const md = hoverMarkdown(llamaDoc, 'nemo-launcher', hit!.path)!;
  const lines = md.split('\n');
  assert.equal(lines[0], '**`model.context_parallel_size`** — integer ≥ 1');
  assert.ok(lines.includes(schemaModel.context_parallel_size.description), 'the schema description');
  assert.ok(lines.includes('default `1`'));
  assert.equal(lines.at(-1), '_NeMo-Framework-Launcher training recipe · Recipe Lens_');
  assert.ok(!/Resolves to|resolved at launch/.test(md), 'a literal value needs no resolution line');
});

test('hover on a `${…}` value says what it resolves to', () => {
  const hit = pathAtOffset(llamaDoc.root, at(LLAMA, 'model_parallel_size: ${multiply:', 'model_parallel_size: '.length + 4));
  assert.deepEqual([hit?.path, hit?.onKey], [['exp_manager', 'checkpoint_callback_params', 'model_parallel_size'], false]);
  const md = hoverMarkdown(llamaDoc, 'nemo-launcher', hit!.path)!;
  // TP 1 × PP 1 in this recipe.
  assert.ok(md.split('\n').includes('Resolves to `1`.'), md);
});

test('hover on a `${…}` that lives in another file says it is resolved at launch', () => {
  const md = hoverMarkdown(llamaDoc, 'nemo-launcher', ['run', 'results_dir'])!;
  assert.ok(md.split('\n').includes('Interpolation `${base_results_dir}/${.name}` is resolved at launch (not in this file).'), md);
});

test('hover lists enum values and marks deprecated keys', () => {
  const doc = parseFile('kv_cache_config:\n  onboard_blocks: true\ncache_transceiver_config:\n  backend: UCX\n').docs[0]!;
  const backend = hoverMarkdown(doc, 'trtllm-options', ['cache_transceiver_config', 'backend'])!;
  assert.equal(backend.split('\n')[0], '**`cache_transceiver_config.backend`** — string | null');
  assert.ok(backend.includes('one of `DEFAULT`, `UCX`, `NIXL`, `MOONCAKE`, `MPI`, `null` · default `null`'), backend);
  const onboard = hoverMarkdown(doc, 'trtllm-options', ['kv_cache_config', 'onboard_blocks'])!;
  assert.match(onboard, /\*\*Deprecated:\*\* onboard_blocks was removed/);
});

test('hover on a key the schema does not describe: none', () => {
  assert.equal(hoverMarkdown(llamaDoc, 'nemo-launcher', ['model', 'no_such_key']), undefined);
});

test('lookupLoose finds the list item at the cursor for a path without indices', () => {
  const text = 'token_range_retention_configs:\n  - token_start: 0\n    priority: 100\n  - token_start: 64\n    \n';
  const doc = parseFile(text).docs[0]!;
  const node = lookupLoose(doc.root, ['token_range_retention_configs'], text.indexOf('    \n') + 4);
  assert.equal(node?.kind, 'map');
  assert.deepEqual(node?.kind === 'map' ? node.entries.map((e) => e.key) : [], ['token_start']);
});
