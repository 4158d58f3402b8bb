// Writes a draft of test/data/corpus-wild-expected.tsv: what the product says today about every file of
// ../shared/corpus-wild (test/corpusWild.ts computes the rows exactly as test/core/corpusWild.test.ts does).
// The reviewer's `why` column is kept; a row whose computed columns changed gets "REVIEW:" in front of it, so that
// nobody accepts a new diagnostic without reading the file.
// Usage: node scripts/corpus-wild-expectations.mjs [OUT]   (default test/data/corpus-wild-expected.tsv)
//        node scripts/corpus-wild-expectations.mjs --upstream [OUT]   (the project's corpus: test/data/upstream/EXPECTED.tsv)
import { join, resolve } from 'node:path';
import { compileSchemas } from './compile-schemas.mjs';
import { ROOT as root, runTs } from './run-ts.mjs';

const upstream = process.argv.includes('--upstream');
const args = process.argv.slice(2).filter((a) => a !== '--upstream');
const out = resolve(
  args[0] ?? (upstream ? join(root, 'test', 'data', 'upstream', 'EXPECTED.tsv') : join(root, 'test', 'data', 'corpus-wild-expected.tsv')),
);
const entry = `
import { existsSync, writeFileSync } from 'node:fs';
import { COLUMNS, EXPECTED_TSV, readExpected, toTsv, upstreamRows, wildRows } from './test/corpusWild.ts';
const out = process.env.CORPUS_WILD_OUT;
const upstream = process.env.CORPUS_UPSTREAM === '1';
const old = new Map(existsSync(out) ? readExpected(out).map((r) => [r.file, r]) : !upstream && existsSync(EXPECTED_TSV) ? readExpected().map((r) => [r.file, r]) : []);
let changed = 0;
const rows = (upstream ? upstreamRows() : wildRows()).map((r) => {
  const before = old.get(r.file);
  const same = before && COLUMNS.every((c) => c === 'why' || before[c] === r[c]);
  const why = (before?.why ?? '').replace(/^REVIEW: ?/, '');
  // The project's corpus asks a reason of every row with an error (an upstream mistake); the rest is recorded as it is.
  const needsReview = !same && (!upstream || r.diagnostics.includes('error:'));
  if (needsReview) changed++;
  return { ...r, why: needsReview ? 'REVIEW: ' + why : why };
});
writeFileSync(out, toTsv(rows));
console.log('wrote ' + out + ': ' + rows.length + ' files, ' + changed + ' to review');
`;
compileSchemas();
process.exit(
  await runTs({
    name: 'corpus-wild-expectations',
    contents: entry,
    env: { CORPUS_WILD_OUT: out, CORPUS_UPSTREAM: upstream ? '1' : '0' },
  }),
);
