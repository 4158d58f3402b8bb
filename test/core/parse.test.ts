// Malformed and hostile YAML: a clear diagnostic at the right place, never an exception.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnose } from '../helpers.js';

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
  const t0 = Date.now();
  const r = analyzeText(lines.join('\n') + '\n');
  assert.ok(Date.now() - t0 < 5000);
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

test('binary bytes, BOM and CRLF never throw', () => {
  for (const t of [
    '\u0000\u0001\u0002kv_cache_config: 1',
    '\uFEFFkv_cache_config:\r\n  dtype: fp8\r\n',
    '\uFFFD\uFFFD: [',
    '<<<<<<< HEAD\nkv_cache_config: {}\n=======\n>>>>>>> x\n',
  ])
    assert.doesNotThrow(() => analyzeText(t));
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
