// Hostile files: each gives one clear diagnostic (or none, for a file that is no recipe) and never throws.
// Outcomes are asserted, not times (the benchmark measures those).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_UNKNOWN_KEYS } from '../../src/core/schemaCheck.js';
import { analyzeText, estimateOf } from '../helpers.js';

const codes = (text: string) => analyzeText(text).findings.map((f) => f.code);

test('10,000-deep flow nesting: one nesting-limit error where the depth limit is reached, nothing else', () => {
  // The parser also runs out of stack deeper in: that is the same problem, not a flood of syntax errors.
  const r = analyzeText('kv_cache_config:\n  x: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n');
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character, d.message]),
    [['RL-LIMIT', 'error', 1, 259, 'nesting is too deep; the rest of the document is not read']],
  );
});

test('a 10 MB single line: one information diagnostic, not parsed', () => {
  const r = analyzeText('kv_cache_config:\n  dtype: "' + 'x'.repeat(10 * 1024 * 1024) + '"\n');
  assert.deepEqual(
    r.findings.map((f) => [f.code, f.severity]),
    [['RL-SIZE', 'info']],
  );
});

test('a 50,000-line closed mapping of unknown keys: the first 200 are listed, then one count', () => {
  const text = 'kv_cache_config:\n' + Array.from({ length: 50_000 }, (_, i) => `  key_${i}: ${i}`).join('\n') + '\n';
  const r = analyzeText(text).findings;
  assert.equal(r.filter((f) => f.code === 'RL-UNKNOWN-KEY' && f.severity === 'warning').length, MAX_UNKNOWN_KEYS);
  const last = r.find((f) => f.severity === 'info');
  assert.equal(last?.message, `${50_000 - MAX_UNKNOWN_KEYS} more unknown keys are not listed (the first ${MAX_UNKNOWN_KEYS} are)`);
});

test('a 50,000-line NeMo model section of legitimate-looking keys: no findings', () => {
  const text =
    'name: x\ntrainer:\n  devices: 8\nmodel:\n  encoder_seq_length: 4096\n' +
    Array.from({ length: 50_000 }, (_, i) => `  custom_key_${i}: ${i}`).join('\n') +
    '\n';
  assert.deepEqual(codes(text), []);
});

test('billion laughs: one RL-LIMIT error', () => {
  const lines = ['kv_cache_config:', '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 0; i < 9; i++)
    lines.push(
      `  ${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
        .fill('*' + String.fromCharCode(97 + i))
        .join(',')}]`,
    );
  assert.equal(codes(lines.join('\n') + '\n').filter((c) => c === 'RL-LIMIT').length, 1);
});

test('binary bytes: not a recipe, no diagnostics', () => {
  const bin = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
  assert.deepEqual(analyzeText(bin).findings, []);
});

test('a git conflict-marker file: YAML errors at the markers, nothing else', () => {
  const text = 'kv_cache_config:\n<<<<<<< HEAD\n  dtype: fp8\n=======\n  dtype: auto\n>>>>>>> branch\n';
  const r = analyzeText(text);
  assert.ok(r.findings.length > 0);
  assert.ok(r.findings.every((f) => f.code === 'RL-YAML'));
  assert.equal(r.parsed.lines.positionAt(r.findings[0]!.span[0]).line, 1);
});

test('a collection used as a key (with a merge key inside) is named by its offset, never converted', () => {
  // Converting `? - <<: 1` to JS throws inside the yaml library ("Merge sources must be maps"); found by fuzzing.
  const r = analyzeText('kv_cache_config:\n  ? - <<: 1\n  : x\n');
  assert.deepEqual(
    r.findings.map((f) => [f.code, f.message]),
    [['RL-UNKNOWN-KEY', 'unknown key `<complex key at 21>` in `kv_cache_config` (the loader rejects unknown keys here)']],
  );
});

test('absurd sizes cost no memory: PP 63,479,766, a 10^12-token retention range, a 2^30-rank layout', async () => {
  const { rankLayout, MAX_RANKS } = await import('../../src/core/layout.js');
  // Found by fuzzing: the estimate built one pipeline stage per PP.
  const nemo =
    'name: x\ntrainer:\n  devices: 8\n  num_nodes: 2\nmodel:\n  encoder_seq_length: 4096\n  num_layers: 24\n  hidden_size: 1024\n  num_attention_heads: 16\n  tokenizer:\n    type: gpt2\n  pipeline_model_parallel_size: 63479766\n';
  assert.deepEqual(
    analyzeText(nemo, { gpu: 'h100', memoryWarnings: true })
      .findings.map((f) => f.code)
      .filter((c) => c === 'RL-R1' || c === 'RL-R4'),
    ['RL-R1', 'RL-R4'],
  );
  const e = estimateOf(nemo, { gpu: 'h100' })!;
  assert.deepEqual(e.kind === 'none' && e.reason, 'pipeline size 63479766 exceeds num_layers 24');
  const retention = 'token_range_retention_configs:\n  - token_start: 0\n    token_end: 1000000000000\n    priority: 90\n';
  const r = estimateOf(retention, {})!;
  assert.equal(r.kind === 'retention' && r.coverage.truncated, true);
  assert.equal(r.kind === 'retention' && r.coverage.blocks.length, 1 << 16);
  assert.throws(
    () => rankLayout({ tp: 8, cp: 1, ep: 1, dp: 1 << 27, pp: 1 }),
    new RegExp(`over ${MAX_RANKS.toLocaleString('en-US')} ranks`),
  );
});
