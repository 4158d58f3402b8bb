// Every real upstream file of ../shared/corpus-wild against its reviewed expectation (test/data/corpus-wild-expected.tsv):
// the format it is detected as, every error and warning with its line, whether it gets an estimate and with which
// model, and whether a serving config fits. A diagnostic stays in the expectation only where the file really has the
// anomaly (the `why` column says what it is); a false one is fixed in the product. The estimate's bytes are checked
// elsewhere (training-corpus, serving-corpus), so settings wired into it later do not churn this table.
// Regenerate a draft with `node scripts/corpus-wild-expectations.mjs`, then review every row it marks REVIEW.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wildSources } from '../helpers.js';
import { mergeReviewed, readExpected, rowDifferences, wildRows, type WildRow } from '../corpusWild.js';

test('the expectations cover every corpus-wild file, once, and every row is reviewed', () => {
  const expected = readExpected();
  assert.deepEqual(
    expected.map((r) => r.file),
    wildSources().map((s) => s.file),
  );
  assert.deepEqual(
    expected.filter((r) => !r.why || r.why.startsWith('REVIEW')).map((r) => r.file),
    [],
  );
});

test('every corpus-wild file gets exactly the reviewed format, diagnostics, estimate, model and fit', () => {
  const diff = rowDifferences(wildRows(), readExpected());
  assert.equal(diff.length, 0, `corpus-wild differs from test/data/corpus-wild-expected.tsv:\n  ${diff.join('\n  ')}`);
});

test('the only error on a real file is the upstream mistake it has: falcon_7b global batch 32 over 128 data-parallel ranks', () => {
  const errors = readExpected().flatMap((r) => (r.diagnostics.includes('error:') ? [`${r.file} ${r.diagnostics}`] : []));
  assert.deepEqual(errors, ['NeMo-Framework-Launcher/falcon_7b.yaml error:RL-R2@50']);
});

test('a regenerated table marks a changed row REVIEW, keeps the mark on the next run, and leaves a reviewed row alone', () => {
  const row = (file: string, diagnostics: string, why: string): WildRow => ({
    file,
    format: 'nemo2-recipe',
    base: '-',
    diagnostics,
    estimate: 'yes',
    model: 'llama3-8b',
    fits: '-',
    why,
  });
  const reviewed = [row('a.yaml', '-', 'clean'), row('b.yaml', '-', 'clean too')];
  const now = [row('a.yaml', '-', ''), row('b.yaml', 'warning:RL-R7@3', '')];
  const first = mergeReviewed(now, reviewed, false);
  assert.deepEqual(
    first.rows.map((r) => r.why),
    ['clean', 'REVIEW: clean too'],
  );
  assert.equal(first.toReview, 1);
  // The same rows again: b no longer differs from the table, yet nobody has deleted its mark.
  const second = mergeReviewed(now, first.rows, false);
  assert.deepEqual(
    second.rows.map((r) => r.why),
    ['clean', 'REVIEW: clean too'],
  );
  // The reviewer deletes the mark: the row is accepted.
  const accepted = [first.rows[0]!, { ...first.rows[1]!, why: 'real: R7 holds here' }];
  assert.deepEqual(
    mergeReviewed(now, accepted, false).rows.map((r) => r.why),
    ['clean', 'real: R7 holds here'],
  );
  // The project's corpus asks a reason only of a row with an error.
  const up = mergeReviewed([row('a.yaml', 'warning:RL-R7@3', ''), row('b.yaml', 'error:RL-R2@5', '')], reviewed, true);
  assert.deepEqual(
    up.rows.map((r) => r.why),
    ['clean', 'REVIEW: clean too'],
  );
});
