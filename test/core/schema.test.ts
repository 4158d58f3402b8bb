// Schema findings: every Ajv error kind becomes a message a person can act on, at the right place,
// with the quick fix it promises; interpolations are judged by what they resolve to.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFile } from '../../src/core/document.js';
import { deprecationMessage, schemaFindings } from '../../src/core/schemaCheck.js';
import { closest, editDistance } from '../../src/core/suggest.js';
import type { Diagnostic, FormatId } from '../../src/core/types.js';
import { sortFindings, toDiagnostics } from '../../src/core/diagnostics.js';
import { diagnose, posOf, rangeOf } from '../helpers.js';

/** Schema findings only (no cross-field rules), with positions, for a text of the expected format. */
function schemaDiags(text: string, format: FormatId): Diagnostic[] {
  const parsed = parseFile(text);
  const doc = parsed.docs[0]!;
  assert.equal(doc.format, format, 'format detected');
  return toDiagnostics(parsed, sortFindings(schemaFindings(doc, format)));
}

/** Range of `needle` in the first place it follows `prefix` (`prefix` + `needle` written together). */
function rangeAfter(text: string, prefix: string, needle: string) {
  const p = posOf(text, prefix + needle);
  const start = { line: p.line, character: p.character + prefix.length };
  return { start, end: { line: start.line, character: start.character + needle.length } };
}

const nemo1 = (cp: string, extra = '') =>
  `name: x\ntrainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  encoder_seq_length: 4096\n  tensor_model_parallel_size: 2\n  context_parallel_size: ${cp}\n${extra}`;

const trt = (extra: string) => `kv_cache_config:\n  free_gpu_memory_fraction: 0.9\n${extra}`;

// ---------------------------------------------------------------------------------------------
// Value errors

test('type error: a string where an integer is expected', () => {
  const text = nemo1('abc');
  assert.deepEqual(schemaDiags(text, 'nemo1'), [
    {
      code: 'RL-SCHEMA',
      severity: 'error',
      message: '`context_parallel_size` must be an integer, got the string "abc"',
      path: 'model.context_parallel_size',
      range: rangeOf(text, 'abc'),
    },
  ]);
});

test('range error: below the minimum names the type and the bound', () => {
  const text = nemo1('0');
  assert.deepEqual(schemaDiags(text, 'nemo1'), [
    {
      code: 'RL-SCHEMA',
      severity: 'error',
      message: '`context_parallel_size` must be an integer ≥ 1, got 0',
      path: 'model.context_parallel_size',
      range: rangeAfter(text, 'context_parallel_size: ', '0'),
    },
  ]);
});

test('the schema error is what the full pipeline reports too, once', () => {
  const text = nemo1('0');
  const ds = diagnose(text).filter((d) => d.path === 'model.context_parallel_size' && d.code === 'RL-SCHEMA');
  assert.deepEqual(
    ds.map((d) => [d.severity, d.message, d.range]),
    [['error', '`context_parallel_size` must be an integer ≥ 1, got 0', rangeAfter(text, 'context_parallel_size: ', '0')]],
  );
});

test('a range that formats.md lists as a rule reports under the rule code (K1: 0 ≤ fraction ≤ 1)', () => {
  const text = 'kv_cache_config:\n  free_gpu_memory_fraction: 1.5\n';
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-K1',
      severity: 'error',
      message: '`free_gpu_memory_fraction` must be a number ≥ 0 and ≤ 1, got 1.5',
      path: 'kv_cache_config.free_gpu_memory_fraction',
      range: rangeOf(text, '1.5'),
      fixes: [{ title: 'Clamp to 1', edits: [{ range: rangeOf(text, '1.5'), newText: '1' }] }],
    },
  ]);
});

test('a range error inside a list item names the key and the item path', () => {
  const text = 'token_range_retention_configs:\n  - token_start: 0\n    priority: 80\n  - token_start: 64\n    priority: 101\n';
  assert.deepEqual(schemaDiags(text, 'kv-retention'), [
    {
      code: 'RL-RT1',
      severity: 'error',
      message: '`priority` must be an integer ≥ 0 and ≤ 100, got 101',
      path: 'token_range_retention_configs[1].priority',
      range: rangeOf(text, '101'),
      fixes: [{ title: 'Clamp to 100', edits: [{ range: rangeOf(text, '101'), newText: '100' }] }],
    },
  ]);
});

test('enum error with a did-you-mean and a quick fix that replaces the value', () => {
  const text = trt('cache_transceiver_config:\n  backend: NIXLL\n');
  const range = rangeOf(text, 'NIXLL');
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-SCHEMA',
      severity: 'error',
      message: '`backend` must be one of "DEFAULT", "UCX", "NIXL", "MOONCAKE", "MPI", null; got "NIXLL" (did you mean "NIXL"?)',
      path: 'cache_transceiver_config.backend',
      range,
      fixes: [{ title: 'Change to NIXL', edits: [{ range, newText: 'NIXL' }] }],
    },
  ]);
});

test('enum error far from every value: no guess, no fix', () => {
  const text = trt('cache_transceiver_config:\n  backend: TCP\n');
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-SCHEMA',
      severity: 'error',
      message: '`backend` must be one of "DEFAULT", "UCX", "NIXL", "MOONCAKE", "MPI", null; got "TCP"',
      path: 'cache_transceiver_config.backend',
      range: rangeOf(text, 'TCP'),
    },
  ]);
});

test('enum value that differs only in case: RL-ENUM-CASE warning with a fix to the listed spelling', () => {
  const text = trt('cache_transceiver_config:\n  backend: ucx\n');
  const range = rangeOf(text, 'ucx');
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-ENUM-CASE',
      severity: 'warning',
      message: '`backend: ucx` differs in case from the listed value `UCX`; current TensorRT-LLM / NeMo spell it `UCX`',
      path: 'cache_transceiver_config.backend',
      range,
      fixes: [{ title: 'Change to UCX', edits: [{ range, newText: 'UCX' }] }],
    },
  ]);
});

test('`None` where null is allowed: RL-NONE-STRING warning with a fix to `null`', () => {
  const text = trt('cuda_graph_config: None\n');
  const range = rangeOf(text, 'None');
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-NONE-STRING',
      severity: 'warning',
      message: '`cuda_graph_config: None` is the string "None" in YAML, not null; write `null` (or leave the key out) for "not set"',
      path: 'cuda_graph_config',
      range,
      fixes: [{ title: 'Replace None with null', edits: [{ range, newText: 'null' }] }],
    },
  ]);
});

test('a quoted "none" is caught the same way, and the fix replaces the quotes too', () => {
  const text = trt('cuda_graph_config: "none"\n');
  const range = rangeOf(text, '"none"');
  const ds = schemaDiags(text, 'trtllm-options');
  assert.deepEqual(
    ds.map((d) => [d.code, d.range, d.fixes]),
    [['RL-NONE-STRING', range, [{ title: 'Replace none with null', edits: [{ range, newText: 'null' }] }]]],
  );
});

// ---------------------------------------------------------------------------------------------
// Missing and unknown keys

test('a missing required key in a list item is reported at that item, naming the item', () => {
  const text = 'token_range_retention_configs:\n  - token_start: 0\n    token_end: 64\n  - token_start: 64\n    priority: 80\n';
  const at = posOf(text, 'token_start: 0');
  assert.deepEqual(schemaDiags(text, 'kv-retention'), [
    {
      code: 'RL-SCHEMA',
      severity: 'error',
      message: '`token_range_retention_configs[0]` is missing the required key `priority`',
      path: 'token_range_retention_configs[0]',
      range: { start: at, end: at },
    },
  ]);
});

test('a missing required top-level key is reported at the start of the file', () => {
  // `trainer` is not required: NeMo ships model-only presets that are merged into a full config.
  assert.deepEqual(schemaDiags('model:\n  encoder_seq_length: 4096\n', 'nemo1'), []);
  const text = '# recipe-lens: format=nemo1\ntrainer:\n  devices: 8\n';
  assert.deepEqual(schemaDiags(text, 'nemo1'), [
    {
      code: 'RL-SCHEMA',
      severity: 'error',
      message: 'the required top-level key `model` is missing',
      path: '',
      // The document starts below the modeline.
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
    },
  ]);
});

test('unknown key in a closed object: warning, did-you-mean, and a rename fix on the key', () => {
  const text = 'kv_cache_config:\n  free_gpu_memory_fractio: 0.9\n';
  const key = rangeOf(text, 'free_gpu_memory_fractio');
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'warning',
      message: 'unknown key `free_gpu_memory_fractio` in `kv_cache_config`; did you mean `free_gpu_memory_fraction`?',
      path: 'kv_cache_config.free_gpu_memory_fractio',
      range: key,
      fixes: [{ title: 'Rename to free_gpu_memory_fraction', edits: [{ range: key, newText: 'free_gpu_memory_fraction' }] }],
    },
  ]);
});

test('unknown key in a closed object with no near miss says the loader rejects it', () => {
  const text = 'kv_cache_config:\n  free_gpu_memory_fraction: 0.9\n  prefetch_everything: true\n';
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'warning',
      message: 'unknown key `prefetch_everything` in `kv_cache_config` (the loader rejects unknown keys here)',
      path: 'kv_cache_config.prefetch_everything',
      range: rangeOf(text, 'prefetch_everything'),
    },
  ]);
});

test('a top-level alias (x-aliases) points at the nested key it means', () => {
  const text = 'tensor_parallel_size: 4\nkv_cache_free_gpu_memory_fraction: 0.8\n';
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'warning',
      message: 'unknown key `kv_cache_free_gpu_memory_fraction`; did you mean `kv_cache_config.free_gpu_memory_fraction`?',
      path: 'kv_cache_free_gpu_memory_fraction',
      range: rangeOf(text, 'kv_cache_free_gpu_memory_fraction'),
    },
  ]);
});

test('a typo in the open NeMo `model` section: warning with did-you-mean and rename fix', () => {
  const text = 'trainer:\n  devices: 8\nmodel:\n  encoder_seq_length: 4096\n  context_paralel_size: 2\n';
  const key = rangeOf(text, 'context_paralel_size');
  assert.deepEqual(schemaDiags(text, 'nemo1'), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'warning',
      message: 'unknown key `context_paralel_size` in `model`; did you mean `context_parallel_size`?',
      path: 'model.context_paralel_size',
      range: key,
      fixes: [{ title: 'Rename to context_parallel_size', edits: [{ range: key, newText: 'context_parallel_size' }] }],
    },
  ]);
});

test('a legitimate-looking key in an open section, far from every known key: no finding', () => {
  const text =
    'trainer:\n  devices: 8\nmodel:\n  encoder_seq_length: 4096\n  use_custom_rope_scaling: true\n  my_team_tag: llama\n  data:\n    my_blend_weights: [0.5, 0.5]\n';
  assert.deepEqual(schemaDiags(text, 'nemo1'), []);
});

test('a key that is only a differently-cased known key is a typo too', () => {
  const text = 'trainer:\n  devices: 8\nmodel:\n  encoder_seq_length: 4096\n  Context_Parallel_Size: 2\n';
  assert.deepEqual(
    schemaDiags(text, 'nemo1').map((d) => [d.code, d.message]),
    [['RL-UNKNOWN-KEY', 'unknown key `Context_Parallel_Size` in `model`; did you mean `context_parallel_size`?']],
  );
});

// ---------------------------------------------------------------------------------------------
// Deprecated keys

test('deprecated keys: RL-DEPRECATED warning on the key, the schema note quoted without repeating the key', () => {
  const text = trt(
    'kv_cache_dtype: fp8\nenable_build_cache: true\nspeculative_config:\n  decoding_type: MTP\n  num_nextn_predict_layers: 3\n',
  );
  assert.deepEqual(schemaDiags(text, 'trtllm-options'), [
    {
      code: 'RL-DEPRECATED',
      severity: 'warning',
      message: '`kv_cache_dtype` was replaced by kv_cache_config.dtype',
      path: 'kv_cache_dtype',
      range: rangeOf(text, 'kv_cache_dtype'),
    },
    {
      code: 'RL-DEPRECATED',
      severity: 'warning',
      message: '`enable_build_cache` is deprecated: TensorRT-engine backend only (removed in newer releases)',
      path: 'enable_build_cache',
      range: rangeOf(text, 'enable_build_cache'),
    },
    {
      code: 'RL-DEPRECATED',
      severity: 'warning',
      message: '`num_nextn_predict_layers` is deprecated; use max_draft_len instead',
      path: 'speculative_config.num_nextn_predict_layers',
      range: rangeOf(text, 'num_nextn_predict_layers'),
    },
  ]);
});

test('deprecationMessage: key-led notes, dotted-path-led notes, other notes, no note', () => {
  assert.equal(deprecationMessage('use_uvm', 'use_uvm is deprecated.'), '`use_uvm` is deprecated');
  assert.equal(
    deprecationMessage(
      'capture_num_tokens',
      'torch_compile_config.capture_num_tokens is deprecated; use prefill_capture_num_tokens instead.',
    ),
    '`torch_compile_config.capture_num_tokens` is deprecated; use prefill_capture_num_tokens instead',
  );
  assert.equal(
    deprecationMessage('fast_build', 'TensorRT-engine backend only.'),
    '`fast_build` is deprecated: TensorRT-engine backend only',
  );
  assert.equal(deprecationMessage('x_size', 'deprecated'), '`x_size` is deprecated');
  // A note that starts with a longer key sharing the prefix is not mistaken for this key.
  assert.equal(deprecationMessage('block', 'block_size was renamed.'), '`block` is deprecated: block_size was renamed');
});

// ---------------------------------------------------------------------------------------------
// Interpolations

const launcher = (model: string) =>
  `run:\n  name: llama\n  results_dir: \${base_results_dir}/\${.name}\ntrainer:\n  devices: 8\n  num_nodes: \${base_nodes}\nmodel:\n  encoder_seq_length: 4096\n${model}`;

test('values OmegaConf fills in later (`${…}` from another file, `???`) are never judged', () => {
  const text = launcher(
    '  context_parallel_size: ${base_results_dir}\n  tensor_model_parallel_size: ???\n  pipeline_model_parallel_size: ${oc.env:PP}\n  micro_batch_size: ${.no_such_key}\n',
  );
  assert.deepEqual(schemaDiags(text, 'nemo-launcher'), []);
});

test('an interpolation that resolves to a valid value is fine', () => {
  const text = launcher('  context_parallel_size: ${multiply:1,2}\n  tensor_model_parallel_size: ${training.trainer.devices}\n');
  assert.deepEqual(schemaDiags(text, 'nemo-launcher'), []);
});

test('an interpolation that resolves to a bad value is reported, saying what it came from, with no fix', () => {
  const text = launcher('  context_parallel_size: ${multiply:0,1}\n  pipeline_model_parallel_size: ${training.run.name}\n');
  assert.deepEqual(schemaDiags(text, 'nemo-launcher'), [
    {
      code: 'RL-SCHEMA',
      severity: 'error',
      message: '`context_parallel_size` must be an integer ≥ 1, got 0 (resolved from `${multiply:0,1}`)',
      path: 'model.context_parallel_size',
      range: rangeOf(text, '${multiply:0,1}'),
    },
    {
      code: 'RL-SCHEMA',
      severity: 'error',
      message: '`pipeline_model_parallel_size` must be an integer, got the string "llama" (resolved from `${training.run.name}`)',
      path: 'model.pipeline_model_parallel_size',
      range: rangeOf(text, '${training.run.name}'),
    },
  ]);
});

test('an interpolation that resolves to a wrongly-cased enum value warns without an edit that would overwrite it', () => {
  const text = 'name: BF16\ntrainer:\n  devices: 8\n  precision: ${name}\nmodel:\n  encoder_seq_length: 4096\n';
  assert.deepEqual(
    schemaDiags(text, 'nemo1').map((d) => [d.code, d.path, d.message, d.range, d.fixes]),
    [
      [
        'RL-ENUM-CASE',
        'trainer.precision',
        '`precision: BF16` differs in case from the listed value `bf16`; current TensorRT-LLM / NeMo spell it `bf16` (resolved from `${name}`)',
        rangeOf(text, '${name}'),
        undefined,
      ],
    ],
  );
});

// ---------------------------------------------------------------------------------------------
// Suggestions

test('editDistance: Levenshtein, capped', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('same', 'same'), 0);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('abcdef', 'uvwxyz', 3), 4, 'over the cap → cap + 1');
  assert.equal(editDistance('a', 'abcdefgh', 3), 4, 'length difference alone over the cap');
  assert.equal(editDistance('abcdef', 'uvwxyz', 10), 6);
});

test('closest: one nearest candidate within the allowance', () => {
  const keys = ['tokens_per_block', 'free_gpu_memory_fraction', 'enable_block_reuse'];
  assert.equal(closest('tokens_per_blok', keys), 'tokens_per_block');
  assert.equal(closest('free_gpu_memry_fractin', keys), 'free_gpu_memory_fraction', 'two edits allowed for keys of 12+ characters');
  assert.equal(closest('free_gpu_mmry_fractin', keys), undefined, 'three edits are too many');
  assert.equal(closest('devics', ['devices', 'num_nodes']), 'devices', 'one edit for 5–11 characters');
  assert.equal(closest('devcs', ['devices']), undefined, 'two edits are too many for a short key');
  assert.equal(closest('DEVICES', ['devices']), 'devices', 'case-only difference');
});

test('closest: ties give no suggestion', () => {
  assert.equal(closest('abcdx', ['abcde', 'abcdf']), undefined);
  assert.equal(closest('tp_sizes', ['tp_size', 'pp_sizes']), undefined);
});

test('closest: short keys (under 5 characters) get none', () => {
  assert.equal(closest('dtyp', ['dtype']), undefined);
  assert.equal(closest('GDSS', ['GDS', 'DRAM']), undefined);
  assert.equal(closest('tpz', ['tp']), undefined);
});

test('closest: an exact match means no typo', () => {
  assert.equal(closest('devices', ['devices', 'devicez']), undefined);
});
