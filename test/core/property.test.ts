// Property tests (seeded, short): whatever the text, validation returns and every range lies inside the document.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { validateText } from '../../src/core/validate.js';
import { toDiagnostics } from '../../src/core/validate.js';
import { CORPUS, yamlFiles } from '../helpers.js';

const corpus = yamlFiles(CORPUS).map((f) => readFileSync(f, 'utf8'));

function checkRanges(text: string): void {
  const r = validateText(text);
  const lines = text.split(/\r\n|\r|\n/);
  for (const d of toDiagnostics(r.parsed, r.findings)) {
    for (const p of [d.range.start, d.range.end]) {
      assert.ok(p.line >= 0 && p.line < lines.length + 1, `line ${p.line} outside ${lines.length} lines (${d.code})`);
      assert.ok(p.character >= 0 && p.character <= (lines[p.line]?.length ?? 0), `character ${p.character} outside line ${p.line} (${d.code})`);
    }
    assert.ok(d.range.start.line < d.range.end.line || (d.range.start.line === d.range.end.line && d.range.start.character <= d.range.end.character));
  }
}

/** Line-level mutations of a real file: delete, duplicate, re-indent, replace a value. */
const mutation = fc.record({
  file: fc.nat({ max: corpus.length - 1 }),
  ops: fc.array(
    fc.record({
      kind: fc.constantFrom('delete', 'duplicate', 'indent', 'dedent', 'value', 'tab', 'insert'),
      at: fc.nat(),
      value: fc.oneof(fc.constantFrom('0', '-1', '.nan', '.inf', 'None', '~', '${model.x}', '*a', '&a 3', '[', '{', '"', '1e400', '\u0000', '\uFEFF'), fc.string({ maxLength: 12 })),
    }),
    { minLength: 1, maxLength: 6 },
  ),
});

test('mutated corpus files never throw and keep every range inside the text', () => {
  fc.assert(
    fc.property(mutation, ({ file, ops }) => {
      const lines = corpus[file]!.split('\n');
      for (const op of ops) {
        const i = op.at % Math.max(1, lines.length);
        const l = lines[i] ?? '';
        if (op.kind === 'delete') lines.splice(i, 1);
        else if (op.kind === 'duplicate') lines.splice(i, 0, l);
        else if (op.kind === 'indent') lines[i] = '  ' + l;
        else if (op.kind === 'dedent') lines[i] = l.replace(/^ {1,2}/, '');
        else if (op.kind === 'tab') lines[i] = '\t' + l;
        else if (op.kind === 'insert') lines.splice(i, 0, op.value);
        else lines[i] = l.replace(/:\s.*$/, `: ${op.value}`);
      }
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
