// pydantic's lax mode for the TensorRT-LLM formats: the spellings pydantic converts are accepted, the others rejected.
// Rules (pydantic docs): "Conversion Table" (docs.pydantic.dev/latest/concepts/conversion_table/) — bool from str:
// 'f', 'n', 'no', 'off', 'false', 't', 'y', 'on', 'yes', 'true' in any case, '0', '1'; bool from int/float: 0 and 1
// only; int from str: "must be numeric only"; int from float: "must be exact int"; int and float from bool: allowed.
// "Number Types": "float(v) is used to coerce values to floats" (so '9e-1', 'inf'). "Strict Types": StrictInt and
// friends convert nothing, and StrictInt takes no bool. "Standard Library Types", str: strings accepted as-is, numbers
// are not strings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFile } from '../../src/core/document.js';
import { schemaFindings } from '../../src/core/schemaCheck.js';
import { laxValue, type LaxRule } from '../../src/core/trtllmLax.js';

type Row = [input: unknown, type: 'integer' | 'number' | 'boolean', out: unknown, rule: LaxRule | undefined, why: string];

const TABLE: Row[] = [
  // int from str: numeric only (an optional sign); a zero fraction is an exact int.
  ['8', 'integer', 8, 'int-from-str', 'numeric string'],
  ['-3', 'integer', -3, 'int-from-str', 'signed numeric string'],
  ['8.0', 'integer', 8, 'int-from-str', 'zero fraction: an exact int'],
  ['1_000', 'integer', 1000, 'int-from-str', "accepted here: Python's int() reads underscores (never a false error)"],
  ['8.5', 'integer', undefined, undefined, 'not an exact int'],
  ['9e-1', 'integer', undefined, undefined, 'not numeric only'],
  ['eight', 'integer', undefined, undefined, 'not numeric'],
  ['', 'integer', undefined, undefined, 'empty'],
  [true, 'integer', 1, 'int-from-bool', 'bool is allowed for int in lax mode'],
  // float from str: what float(v) reads.
  ['9e-1', 'number', 0.9, 'float-from-str', 'exponent without a dot (PyYAML leaves it a string)'],
  ['0.85', 'number', 0.85, 'float-from-str', 'decimal'],
  ['.5', 'number', 0.5, 'float-from-str', 'leading dot'],
  ['1e3', 'number', 1000, 'float-from-str', 'exponent'],
  ['inf', 'number', Number.MAX_VALUE, 'float-from-str', 'infinity, as the largest double (JSON has no infinity)'],
  ['nan', 'number', NaN, 'float-from-str', 'nan (placed by the caller)'],
  ['0.9.1', 'number', undefined, undefined, 'two dots'],
  ['90%', 'number', undefined, undefined, 'a percent sign'],
  ['e5', 'number', undefined, undefined, 'no digits before the exponent'],
  [false, 'number', 0, 'float-from-bool', 'bool is allowed for float in lax mode'],
  // bool: the documented strings in any case, and 0 / 1.
  ['yes', 'boolean', true, 'bool-from-str', 'yes'],
  ['True', 'boolean', true, 'bool-from-str', 'any case'],
  ['OFF', 'boolean', false, 'bool-from-str', 'any case'],
  ['0', 'boolean', false, 'bool-from-str', "'0'"],
  ['t', 'boolean', true, 'bool-from-str', "'t'"],
  ['n', 'boolean', false, 'bool-from-str', "'n'"],
  [1, 'boolean', true, 'bool-from-number', '1'],
  [0, 'boolean', false, 'bool-from-number', '0'],
  ['maybe', 'boolean', undefined, undefined, 'not in the list'],
  ['enabled', 'boolean', undefined, undefined, 'not in the list'],
  [2, 'boolean', undefined, undefined, 'only 0 and 1'],
];

test('lax-mode conversions: each accepted spelling and the rule it follows, each rejected one', () => {
  for (const [input, type, out, rule, why] of TABLE) {
    const got = laxValue(input, type);
    if (rule === undefined) assert.equal(got, undefined, `${JSON.stringify(input)} → ${type}: ${why}`);
    else {
      assert.equal(got?.rule, rule, `${JSON.stringify(input)} → ${type}: ${why}`);
      if (Number.isNaN(out)) assert.ok(Number.isNaN(got?.value), why);
      else assert.equal(got?.value, out, `${JSON.stringify(input)} → ${type}: ${why}`);
    }
  }
});

const check = (text: string) =>
  parseFile(text).docs.flatMap((d) => schemaFindings(d, 'trtllm-options').map((f) => [f.code, f.severity, f.path, f.message]));

test('lax-mode strings in an options file: accepted where pydantic converts them, bounds still apply', () => {
  // PyYAML reads 9e-1 (no dot) and every quoted scalar as a string; pydantic converts them for these fields.
  assert.deepEqual(
    check(
      'kv_cache_config:\n  free_gpu_memory_fraction: 9e-1\n  enable_block_reuse: "yes"\n  tokens_per_block: "32"\nmax_batch_size: "8"\nmax_num_tokens: true\nenable_chunked_prefill: "False"\n',
    ),
    [],
  );
  // Converted, then judged: 1.5 is above the K1 bound.
  assert.deepEqual(check('kv_cache_config:\n  free_gpu_memory_fraction: "1.5"\n'), [
    ['RL-K1', 'error', 'kv_cache_config.free_gpu_memory_fraction', '`free_gpu_memory_fraction` must be a number ≥ 0 and ≤ 1, got "1.5"'],
  ]);
});

test('lax-mode strings pydantic rejects stay rejected; strict fields and str fields convert nothing', () => {
  assert.deepEqual(check('max_batch_size: "8.5"\nenable_chunked_prefill: maybe\n').sort(), [
    ['RL-SCHEMA', 'error', 'enable_chunked_prefill', '`enable_chunked_prefill` must be a boolean (true/false), got the string "maybe"'],
    ['RL-SCHEMA', 'error', 'max_batch_size', '`max_batch_size` must be an integer or null, got the string "8.5"'],
  ]);
  // MambaStateConfig's offsets are List[StrictInt > 0]: a quoted number stays a string.
  assert.deepEqual(check('kv_cache_config:\n  mamba_state_config:\n    additional_snapshot_offsets_from_start: ["8"]\n'), [
    [
      'RL-SCHEMA',
      'error',
      'kv_cache_config.mamba_state_config.additional_snapshot_offsets_from_start[0]',
      '`additional_snapshot_offsets_from_start[0]` must be an integer, got the string "8"',
    ],
  ]);
  // A str field takes no number (pydantic 2 does not coerce numbers to str).
  assert.deepEqual(check('kv_cache_config:\n  dtype: 16\n'), [
    ['RL-K3', 'error', 'kv_cache_config.dtype', '`dtype` must be a string, got the integer 16'],
  ]);
});
