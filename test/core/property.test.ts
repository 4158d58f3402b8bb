// Property tests (seeded, short): whatever the text, validation returns and every range lies inside the document.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { toDiagnostics } from '../../src/core/diagnostics.js';
import { analyzeText, CORPUS, yamlFiles } from '../helpers.js';
import { mutate, mutationOps } from '../mutate.js';

const corpus = yamlFiles(CORPUS).map((f) => readFileSync(f, 'utf8'));

function checkRanges(text: string): void {
  const r = analyzeText(text);
  const lines = text.split(/\r\n|\r|\n/);
  for (const d of toDiagnostics(r.parsed, r.findings)) {
    for (const p of [d.range.start, d.range.end]) {
      assert.ok(p.line >= 0 && p.line < lines.length + 1, `line ${p.line} outside ${lines.length} lines (${d.code})`);
      assert.ok(
        p.character >= 0 && p.character <= (lines[p.line]?.length ?? 0),
        `character ${p.character} outside line ${p.line} (${d.code})`,
      );
    }
    assert.ok(
      d.range.start.line < d.range.end.line ||
        (d.range.start.line === d.range.end.line && d.range.start.character <= d.range.end.character),
    );
  }
}

/** Line-level mutations of a real file (test/mutate.ts). */
const mutation = fc.record({ file: fc.nat({ max: corpus.length - 1 }), ops: mutationOps(6) });

test('mutated corpus files never throw and keep every range inside the text', () => {
  fc.assert(
    fc.property(mutation, ({ file, ops }) => {
      const lines = mutate(corpus[file]!, ops);
      checkRanges(lines.join(op_eol(ops.length)));
    }),
    { seed: 20261122, numRuns: 300 },
  );
});

const op_eol = (n: number) => (n % 3 === 0 ? '\r\n' : '\n');

test('random text never throws', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 400, unit: 'binary' }), (s) => checkRanges(s)),
    { seed: 7, numRuns: 300 },
  );
});
