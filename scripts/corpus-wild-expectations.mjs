// Writes a draft of test/data/corpus-wild-expected.tsv: what the product says today about every file of
// ../shared/corpus-wild (test/corpusWild.ts computes the rows exactly as test/core/corpusWild.test.ts does).
// The reviewer's `why` column is kept; a row whose computed columns changed gets "REVIEW:" in front of it, so that
// nobody accepts a new diagnostic without reading the file (test/corpusWild.ts mergeReviewed).
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
import { EXPECTED_TSV, mergeReviewed, readExpected, toTsv, upstreamRows, wildRows } from './test/corpusWild.ts';
const out = process.env.CORPUS_WILD_OUT;
const upstream = process.env.CORPUS_UPSTREAM === '1';
const before = existsSync(out) ? readExpected(out) : !upstream && existsSync(EXPECTED_TSV) ? readExpected() : [];
const { rows, toReview } = mergeReviewed(upstream ? upstreamRows() : wildRows(), before, upstream);
writeFileSync(out, toTsv(rows));
console.log('wrote ' + out + ': ' + rows.length + ' files, ' + toReview + ' to review');
`;
compileSchemas();
process.exit(
  await runTs({
    name: 'corpus-wild-expectations',
    contents: entry,
    env: { CORPUS_WILD_OUT: out, CORPUS_UPSTREAM: upstream ? '1' : '0' },
  }),
);
