// The project's own corpus of real upstream files (test/data/upstream): every recipe, and every YAML whose "no recipe"
// verdict needed evidence, of whole repositories at pinned commits — Megatron-Bridge, NeMo-RL, NeMo Automodel, the NeMo-Framework-Launcher,
// Megatron-LM and NeMo (SOURCES.tsv: repository, path, commit, license). Each file's format, `defaults:` parents, errors
// and warnings with their lines, estimate, model and fit are locked in EXPECTED.tsv; an error is allowed only on a real
// upstream mistake, whose row says what it is. Regenerate a draft with
// `node scripts/corpus-wild-expectations.mjs --upstream`; rows with a new error come back marked REVIEW.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readExpected, rowDifferences, UPSTREAM_TSV, upstreamRows, upstreamSources } from '../corpusWild.js';

test('the upstream corpus: every file once in EXPECTED.tsv, and every row with an error says which upstream mistake it is', () => {
  const expected = readExpected(UPSTREAM_TSV);
  assert.deepEqual(
    expected.map((r) => r.file),
    upstreamSources().map((s) => s.file),
  );
  assert.equal(expected.length, 1873);
  assert.deepEqual(
    expected
      .filter((r) => (r.why ?? '').startsWith('REVIEW') || (r.diagnostics.includes('error:') && !(r.why ?? '').startsWith('real')))
      .map((r) => r.file),
    [],
  );
});

test('the upstream corpus: every file gets exactly the recorded format, diagnostics, estimate, model and fit', () => {
  const diff = rowDifferences(upstreamRows(), readExpected(UPSTREAM_TSV));
  assert.equal(diff.length, 0, `the upstream corpus differs from test/data/upstream/EXPECTED.tsv:\n  ${diff.join('\n  ')}`);
});

test('the upstream corpus: formats detected, and errors only on the nine files with a real mistake', () => {
  const rows = readExpected(UPSTREAM_TSV);
  const count = (f: string) => rows.filter((r) => r.format === f).length;
  assert.deepEqual(
    [
      'megatron-bridge',
      'nemo-rl',
      'automodel',
      'nemo-launcher',
      'nemo-launcher-main',
      'megatron-lm',
      'nemo1',
      'nemo2',
      'trtllm-options',
      'trtllm-disagg',
      'trtllm-perf',
      'none',
    ].map(count),
    [52, 333, 481, 221, 4, 325, 39, 1, 92, 26, 8, 291],
  );
  assert.equal(rows.filter((r) => r.diagnostics.includes('error:')).length, 9);
});
