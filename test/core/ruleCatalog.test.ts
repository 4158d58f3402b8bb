// The rule catalogue is the one list of diagnostic codes: every code the sources emit is in it (hover, SARIF and the
// README read it), and the README's rules table is the catalogue, row for row.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULES } from '../../src/core/ruleCatalog.js';
import { REPO } from '../helpers.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test("every RL- code written in src/ or a schema's x-rule is in the rule catalogue, and every catalogue code is emitted somewhere", () => {
  const emitted = new Set<string>();
  for (const f of sources(join(REPO, 'src'))) {
    if (f.endsWith('ruleCatalog.ts')) continue;
    for (const m of readFileSync(f, 'utf8').matchAll(/'(RL-[A-Za-z0-9-]+)'/g)) emitted.add(m[1]!);
  }
  // Field ranges the schemas carry: a schema error on a field with `"x-rule": "K1"` is reported as RL-K1.
  for (const f of readdirSync(join(REPO, 'schemas')).filter((n) => n.endsWith('.schema.json')))
    for (const m of readFileSync(join(REPO, 'schemas', f), 'utf8').matchAll(/"x-rule": "([A-Za-z0-9]+)"/g)) emitted.add(`RL-${m[1]}`);
  assert.deepEqual([...emitted].filter((c) => !(c in RULES)).sort(), []);
  assert.deepEqual(
    Object.keys(RULES)
      .filter((c) => !emitted.has(c))
      .sort(),
    [],
  );
});

test("README's rules table lists the catalogue: code, title and source, in the catalogue's order", () => {
  const lines = readFileSync(join(REPO, 'README.md'), 'utf8').split('\n');
  const head = lines.indexOf('| code | rule | upstream source |');
  assert.ok(head > 0, 'the rules table header');
  const rows: string[] = [];
  for (let i = head + 2; lines[i]?.startsWith('| `'); i++) rows.push(lines[i]!);
  const expected = Object.entries(RULES).map(([code, r]) => `| \`${code}\` | ${r.title} | ${r.source ?? '—'} |`);
  assert.deepEqual(rows, expected);
});
