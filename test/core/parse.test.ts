// Malformed and hostile YAML: a clear diagnostic at the right place, never an exception.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFile } from '../../src/core/document.js';
import { lookup, parsePath, type MapNode } from '../../src/core/tree.js';
import { applyLoader, loadErrors } from '../../src/core/yaml/loader.js';
import { analyzeText, diagnose, SHARED } from '../helpers.js';

test('a syntax error in a recipe is reported where it is', () => {
  const text = 'kv_cache_config:\n  free_gpu_memory_fraction: 0.9\n  dtype: fp8: auto\n';
  const yaml = diagnose(text).filter((d) => d.code === 'RL-YAML');
  assert.deepEqual(
    yaml.map((d) => [d.severity, d.range.start.line, d.range.start.character, d.message]),
    [['error', 2, 9, 'Nested mappings are not allowed in compact mappings']],
  );
});

test('an unclosed flow sequence is reported at the end of the document, inside it', () => {
  const text = 'kv_cache_config:\n  dtype: [fp8\n';
  const yaml = diagnose(text).filter((d) => d.code === 'RL-YAML');
  assert.equal(yaml.length, 1);
  assert.match(yaml[0]!.message, /Flow sequence .* end with a \]/);
  assert.deepEqual(yaml[0]!.range.start, { line: 2, character: 0 });
});

test('a tab used as indentation is a YAML error in a recipe, and only that is reported', () => {
  const ds = diagnose('kv_cache_config:\n\tdtype: fp8\n');
  assert.deepEqual(
    ds.map((d) => [d.code, d.range.start.line, d.range.start.character]),
    [['RL-YAML', 1, 0]],
  );
});

test('an alias bomb stops at the expansion limit with one diagnostic', () => {
  const lines = ['kv_cache_config:', '  a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 12; i++)
    lines.push(
      `  a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  // Bounded work: the expansion budget stops it (the benchmark measures the time, tests assert the outcome).
  const r = analyzeText(lines.join('\n') + '\n');
  const limit = r.findings.filter((f) => f.code === 'RL-LIMIT');
  assert.equal(limit.length, 1);
  assert.match(limit[0]!.message, /alias/);
});

test('deep nesting stops at the depth limit', () => {
  const text = 'kv_cache_config:\n  x: ' + '['.repeat(400) + ']'.repeat(400) + '\n';
  const r = analyzeText(text);
  assert.deepEqual(
    r.findings.filter((f) => f.code === 'RL-LIMIT').map((f) => f.message),
    ['nesting is too deep; the rest of the document is not read'],
  );
});

test('duplicate keys warn on the second occurrence and point at the first', () => {
  const text = 'kv_cache_config:\n  dtype: fp8\n  dtype: auto\n';
  const ds = diagnose(text).filter((d) => d.code === 'RL-DUPLICATE-KEY');
  assert.equal(ds.length, 1);
  assert.deepEqual(ds[0]!.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 7 } });
  assert.deepEqual(ds[0]!.related?.[0]?.range.start, { line: 1, character: 2 });
});

test('a file over the size limit is not parsed; a recipe gets one info', () => {
  const text = 'kv_cache_config:\n  dtype: fp8\n' + '# padding\n'.repeat(2000);
  const r = analyzeText(text, { maxLength: 1024 });
  assert.deepEqual(
    r.findings.map((f) => [f.code, f.severity]),
    [['RL-SIZE', 'info']],
  );
  assert.equal(r.format, 'trtllm-options');
  assert.deepEqual(analyzeText('a: 1\n' + '# x\n'.repeat(1000), { maxLength: 1024 }).findings, []);
});

test('binary bytes, a BOM, replacement characters and conflict markers: what each file is, and what is said about it', () => {
  const seen = (t: string) => {
    const a = analyzeText(t);
    return [a.format, a.diagnostics.map((d) => d.code)];
  };
  // Control bytes before the key make it another key: no recipe, nothing said.
  assert.deepEqual(seen('\u0000\u0001\u0002kv_cache_config: 1'), [null, []]);
  // A BOM and CRLF line ends are read through: a clean TensorRT-LLM options file.
  assert.deepEqual(seen('\uFEFFkv_cache_config:\r\n  dtype: fp8\r\n'), ['trtllm-options', []]);
  // Unreadable text that is no recipe: silence, not a syntax error in a file Recipe Lens does not own.
  assert.deepEqual(seen('\uFFFD\uFFFD: ['), [null, []]);
  assert.deepEqual(seen('<<<<<<< HEAD\nkv_cache_config: {}\n=======\n>>>>>>> x\n'), [null, []]);
  // The same markers in a file forced to a format: syntax errors where the markers are.
  const forced = analyzeText('# recipe-lens: format=trtllm-options\n<<<<<<< HEAD\nkv_cache_config: {}\n=======\n>>>>>>> x\n');
  assert.deepEqual(forced.diagnostics.map((d) => [d.code, d.range.start.line]).slice(0, 2), [
    ['RL-YAML', 1],
    ['RL-YAML', 3],
  ]);
});

test('CRLF positions match LF positions', () => {
  const lf = diagnose('kv_cache_config:\n  free_gpu_memory_fraction: 2\n');
  const crlf = diagnose('kv_cache_config:\r\n  free_gpu_memory_fraction: 2\r\n');
  assert.deepEqual(
    crlf.map((d) => d.range),
    lf.map((d) => d.range),
  );
});

test('multi-document files are validated document by document', () => {
  const text =
    'kv_cache_config:\n  free_gpu_memory_fraction: 2\n---\ntoken_range_retention_configs:\n  - token_start: 0\n    priority: 101\n';
  const ds = diagnose(text);
  assert.deepEqual(
    ds.map((d) => [d.code, d.range.start.line]),
    [
      ['RL-K1', 1],
      ['RL-RT1', 5],
    ],
  );
});

// YAML read as the consuming program reads it (src/core/yaml/): PyYAML for TensorRT-LLM, OmegaConf for NeMo.

test('a Launcher time limit of 04:00:00 is the string Slurm expects, not 14400 and a schema error', () => {
  const file = join(SHARED, 'corpus-wild/NeMo-Framework-Launcher/llama__sft.yaml');
  const r = analyzeText(readFileSync(file, 'utf8'));
  assert.equal(r.format, 'nemo-launcher');
  const run = lookup(r.parsed.docs[0]!.root, ['run', 'time_limit'])!.node;
  assert.deepEqual([run.kind === 'scalar' && run.value, run.kind === 'scalar' && run.type], ['04:00:00', 'str']);
  assert.deepEqual(
    r.findings.filter((f) => f.message.includes('time_limit')),
    [],
  );
});

test('the same plain scalar reads per the format: 1e-5 is a float to OmegaConf, a string to yaml.safe_load', () => {
  const text = 'kv_cache_config:\n  free_gpu_memory_fraction: 0.9\nlr: 1e-5\nwhen: 2024-01-02\n';
  const read = (format: 'trtllm-options' | 'nemo1') => {
    const root = parseFile(text, { forcedFormat: format }).docs[0]!.root;
    return ['lr', 'when'].map((k) => {
      const n = lookup(root, [k])!.node;
      return n.kind === 'scalar' ? [n.value, n.type] : undefined;
    });
  };
  assert.deepEqual(read('trtllm-options'), [
    ['1e-5', 'str'],
    ['2024-01-02', 'date'],
  ]);
  assert.deepEqual(read('nemo1'), [
    [0.00001, 'float'],
    ['2024-01-02', 'str'],
  ]);
});

test('merge keys are flattened as PyYAML does: NeMo-RL teacher inherits the policy and overrides its own keys', () => {
  const root = parseFile(readFileSync(join(SHARED, 'corpus-wild/NeMo-RL/distillation_math.yaml'), 'utf8')).docs[0]!.root;
  const at = (p: string) => {
    const n = lookup(root, parsePath(p))?.node;
    return n?.kind === 'scalar' ? n.value : n?.kind;
  };
  assert.deepEqual(
    ['teacher.model_name', 'teacher.precision', 'teacher.dtensor_cfg.tensor_parallel_size', 'policy.dtensor_cfg.tensor_parallel_size'].map(
      at,
    ),
    ['Qwen/Qwen3-4B', 'bfloat16', 4, 2],
  );
  // No key is named after the merge marker.
  assert.equal(
    lookup(root, ['teacher'])?.node.kind === 'map' &&
      (lookup(root, ['teacher'])!.node as MapNode).entries.some((e) => e.key.includes('<<')),
    false,
  );
});

test('YAML 1.1 readings the yaml library got wrong: `.` is a string, `y`/`n` keys are strings, `0o17` is a string', () => {
  const root = parseFile('hydra:\n  run:\n    dir: .\ny: 1\nn: 2\nmode: 0o17\nold: 017\n', { parser: 'yaml' }).docs[0]!.root as MapNode;
  assert.deepEqual(
    root.entries.map((e) => e.key),
    ['hydra', 'y', 'n', 'mode', 'old'],
  );
  const at = (p: string) => {
    const n = lookup(root, parsePath(p))!.node;
    return n.kind === 'scalar' ? [n.value, n.type] : n.kind;
  };
  assert.deepEqual(['hydra.run.dir', 'y', 'mode', 'old'].map(at), [
    ['.', 'str'],
    [1, 'int'],
    ['0o17', 'str'],
    [15, 'int'],
  ]);
});

test('what the loaders refuse: OmegaConf a repeated key and a null key, PyYAML a date that does not exist', () => {
  const errs = (text: string, loader: 'pyyaml' | 'omegaconf') => {
    const d = parseFile(text).docs[0]!;
    applyLoader(d.root, loader);
    return loadErrors(d.root, d.duplicateKeys, loader).map((e) => [e.message.split(':')[0], e.span]);
  };
  assert.deepEqual(errs('a: 1\na: 2\n', 'pyyaml'), []);
  assert.deepEqual(errs('a: 1\na: 2\n', 'omegaconf'), [['ConstructorError', [5, 6]]]);
  // 1 and true are one dict key: PyYAML keeps the later value, OmegaConf's duplicate check only sees string keys.
  assert.deepEqual(errs('1: a\ntrue: b\n', 'omegaconf'), []);
  assert.deepEqual(errs('~: a\n', 'omegaconf'), [['KeyValidationError', [0, 1]]]);
  assert.deepEqual(errs('d: 2024-02-30\n', 'pyyaml'), [['ValueError', [3, 13]]]);
  assert.deepEqual(errs('d: 2024-02-30\n', 'omegaconf'), []);
});
