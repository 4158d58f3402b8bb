// Every scalar of test/data/yaml-scalars.json (the real PyYAML and OmegaConf loaders' readings, written by
// scripts/yaml-truth/generate.py) read through both tree builders and both loaders: exact value and Python type.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseFile } from '../../src/core/document.js';
import { fastBuildTree } from '../../src/core/fastTree.js';
import { DEFAULT_TREE_LIMITS, type MapEntry, type TreeNode } from '../../src/core/tree.js';
import { applyLoader, loadErrors, toPyNodes, type PyNode } from '../../src/core/yaml/loader.js';
import { interpolationError, keyText, pyFloatRepr, resolvePlain, timestampIso, type Loader } from '../../src/core/yaml/scalars.js';
import type { Duplicate } from '../../src/core/yaml/build.js';

type Answer = { error: string } | { type: string; value: unknown; repr: string; key?: string };
interface ScalarRow {
  source: string;
  style: 'plain' | 'single' | 'double' | 'tagged';
  where: 'value' | 'key';
  yaml: string;
  pyyaml: Answer;
  omegaconf: Answer;
}
interface DocRow {
  yaml: string;
  pyyaml: { error: string } | { nodes: PyNode[] };
  omegaconf: { error: string } | { nodes: PyNode[] };
}
const TABLE = JSON.parse(readFileSync('test/data/yaml-scalars.json', 'utf8')) as { scalars: ScalarRow[]; documents: DocRow[] };
const LOADERS: Loader[] = ['pyyaml', 'omegaconf'];

/**
 * Rows PyYAML's scanner refuses but the `yaml` library parses: syntax, not scalar reading, so outside this table's
 * reach (a tab inside a plain scalar).
 */
const SCANNER_DIFFERENCES = ['x: 2024-01-02\t10:00:00\n'];

/** The tree each builder makes of a text; the fast path may decline (undefined). */
function trees(text: string): { builder: string; root: TreeNode | undefined; duplicates: Duplicate[]; problems: number }[] {
  const slow = parseFile(text, { parser: 'yaml' });
  const out = slow.docs.map((d) => ({
    builder: 'yaml',
    root: d.root,
    duplicates: d.duplicateKeys as Duplicate[],
    problems: d.problems.length,
  }));
  const fast = fastBuildTree(text, DEFAULT_TREE_LIMITS.maxDepth);
  if (fast) out.push({ builder: 'fast', root: fast.root, duplicates: fast.duplicateKeys, problems: 0 });
  return out;
}

const errorClass = (e: string) => e.split(':')[0];

test('the table covers every class of scalar, and the two loaders disagree where the issue says they do', () => {
  assert.ok(TABLE.scalars.length >= 400, `${TABLE.scalars.length} scalars`);
  const row = (yaml: string) => TABLE.scalars.find((r) => r.yaml === yaml)!;
  assert.deepEqual(row('x: 04:00:00\n').pyyaml, { type: 'str', value: '04:00:00', repr: "'04:00:00'" });
  assert.deepEqual(row('x: 4:00:00\n').pyyaml, { type: 'int', value: 14400, repr: '14400' });
  assert.deepEqual(row('x: 1e5\n').pyyaml, { type: 'str', value: '1e5', repr: "'1e5'" });
  assert.deepEqual(row('x: 1e5\n').omegaconf, { type: 'float', value: 100000, repr: '100000.0' });
  assert.deepEqual(row('x: 1.0e+5\n').pyyaml, { type: 'float', value: 100000, repr: '100000.0' });
  assert.deepEqual(row('x: y\n').pyyaml, { type: 'str', value: 'y', repr: "'y'" });
  assert.deepEqual(row('x: 2024-01-02\n').omegaconf, { type: 'str', value: '2024-01-02', repr: "'2024-01-02'" });
});

test('every scalar of the table reads as each loader reads it, through both tree builders', () => {
  let checked = 0;
  let fastTaken = 0;
  for (const row of TABLE.scalars) {
    for (const t of trees(row.yaml)) {
      if (t.builder === 'fast') fastTaken++;
      for (const loader of LOADERS) {
        const want = row[loader];
        const label = `${t.builder} ${loader} ${JSON.stringify(row.yaml)}`;
        if ('error' in want && /^(Scanner|Parser)Error/.test(want.error)) {
          // A syntax error: the yaml library must report it too (or the row is a known parser difference).
          if (SCANNER_DIFFERENCES.includes(row.yaml)) continue;
          assert.ok(t.problems > 0, `${label}: ${want.error}, but no YAML problem`);
          continue;
        }
        applyLoader(t.root, loader);
        assert.equal(t.root?.kind, 'map', label);
        const entry: MapEntry = (t.root as Extract<TreeNode, { kind: 'map' }>).entries[0]!;
        checked++;
        if (row.where === 'value') {
          const n = entry.value;
          assert.equal(n.kind, 'scalar', label);
          if (n.kind !== 'scalar') continue;
          if ('error' in want) {
            assert.equal(n.error && errorClass(n.error), errorClass(want.error), `${label}: expected ${want.error}`);
            continue;
          }
          assert.equal(n.error, undefined, label);
          // The node as the table records it: type, JSON value (non-finite floats as text, dates as isoformat()).
          const [, type, value] = toPyNodes(t.root).find((p) => p[0].length === 1)!;
          assert.deepEqual({ type, value }, { type: want.type, value: want.value }, label);
          // A date keeps its text as the value (a schema that wants a string sees one); its Python value is isoformat().
          if (want.type === 'date' || want.type === 'datetime') assert.equal(n.value, row.source.replace(/^!!timestamp '?|'$/g, ''), label);
        } else {
          const r = entry.keyLoaders?.[loader] ?? entry.keyRead;
          if ('error' in want) {
            assert.equal(r?.error && errorClass(r.error), errorClass(want.error), `${label}: expected ${want.error}`);
            continue;
          }
          assert.equal(r?.error, undefined, label);
          assert.equal(entry.key, want.key, label);
          assert.equal(r?.type ?? 'str', want.type, label);
        }
      }
    }
  }
  // Both loaders, both builders: the fast path takes every single-line plain and quoted row it can (tags, `<<`,
  // keys such as `''`, syntax errors and tabs go to the yaml library).
  assert.ok(checked >= 1800, `${checked} checks`);
  assert.ok(fastTaken >= 425, `the fast path took ${fastTaken} rows`);
});

test('every document of the table reads as each loader reads it: merge keys, colliding keys, aliases, flow', () => {
  for (const row of TABLE.documents) {
    const slow = parseFile(row.yaml, { parser: 'yaml' });
    for (const t of trees(row.yaml)) {
      for (const loader of LOADERS) {
        const want = row[loader];
        const label = `${t.builder} ${loader} ${JSON.stringify(row.yaml)}`;
        if (slow.docs.length > 1) {
          // safe_load and OmegaConf.load read one document.
          assert.match('error' in want ? want.error : '', /^ComposerError/, label);
          continue;
        }
        applyLoader(t.root, loader);
        const errors = loadErrors(t.root, t.duplicates, loader);
        if ('error' in want) {
          assert.ok(errors.length > 0, `${label}: expected ${want.error}`);
          assert.equal(errorClass(errors[0]!.message), errorClass(want.error), `${label}: ${errors[0]!.message}`);
          continue;
        }
        assert.deepEqual(errors, [], label);
        assert.deepEqual(toPyNodes(t.root, loader), want.nodes, label);
      }
    }
  }
});

test('applyLoader switches back and forth, and re-keys a mapping whose keys read per loader', () => {
  const text = 'a: 1e5\nb: 2024-01-02\n1e5: x\n100000.0: y\nc: 04:00:00\n';
  for (const t of trees(text)) {
    const root = t.root as Extract<TreeNode, { kind: 'map' }>;
    const view = () => root.entries.map((e) => [e.key, e.value.kind === 'scalar' ? e.value.value : null]);
    assert.deepEqual(view(), [
      ['a', '1e5'],
      ['b', '2024-01-02'],
      ['1e5', 'x'],
      ['100000.0', 'y'],
      ['c', '04:00:00'],
    ]);
    applyLoader(root, 'omegaconf');
    // Both keys are the float 100000.0 to OmegaConf: one dict key, the later value.
    assert.deepEqual(view(), [
      ['a', 100000],
      ['b', '2024-01-02'],
      ['100000.0', 'y'],
      ['c', '04:00:00'],
    ]);
    applyLoader(root, 'pyyaml');
    assert.deepEqual(view(), [
      ['a', '1e5'],
      ['b', '2024-01-02'],
      ['1e5', 'x'],
      ['100000.0', 'y'],
      ['c', '04:00:00'],
    ]);
  }
});

test('scalar helpers: Python float repr, key names, isoformat, and the cached resolution is stable', () => {
  assert.deepEqual(
    [1e16, 1234567890123456, 0.0001, 0.00001, 1.5e-7, -0, 100000, 0.1 + 0.2, 5e-324, 1.7976931348623157e308].map(pyFloatRepr),
    [
      '1e+16',
      '1234567890123456.0',
      '0.0001',
      '1e-05',
      '1.5e-07',
      '-0.0',
      '100000.0',
      '0.30000000000000004',
      '5e-324',
      '1.7976931348623157e+308',
    ],
  );
  assert.equal(keyText({ value: Infinity, type: 'float' }), 'Infinity');
  assert.equal(keyText(resolvePlain('18446744073709551617', 'pyyaml')), '18446744073709551617');
  assert.equal(timestampIso('2001-12-14 21:59:43.10 -5'), '2001-12-14T21:59:43.100000-05:00');
  assert.equal(timestampIso('2024-02-30'), undefined);
  assert.equal(resolvePlain('1_000', 'pyyaml'), resolvePlain('1_000', 'pyyaml'));
  assert.deepEqual(resolvePlain('0o17', 'omegaconf'), { value: '0o17', type: 'str' });
});

test('OmegaConf refuses a malformed interpolation when it creates the node; PyYAML reads the string', () => {
  // Each case checked against OmegaConf 2.2 (OmegaConf.create({'a': value})).
  const refused = ['${{ matrix.os }}', 'a ${{ x }} b', '${x', '${}', '${a b}', '${"x"}', '${a}${b'];
  const accepted = ['${x}', '${ x }', '$x', '\\${x}', '${x}}', '${oc.env:HOME}', '${x.y[0]}', '$${x}', '${a:b,c}', '${a.${b}}', '{x}'];
  assert.deepEqual(
    refused.map((s) => interpolationError(s) !== undefined),
    refused.map(() => true),
  );
  assert.deepEqual(
    accepted.map((s) => interpolationError(s)),
    accepted.map(() => undefined),
  );
  assert.equal(interpolationError('${a b}'), "token recognition error at: ' b'");
  const text = 'on:\n  run: "${{ matrix.os }}"\n  plain: ${{ x }}\n';
  const doc = parseFile(text).docs[0]!;
  applyLoader(doc.root, 'omegaconf');
  assert.deepEqual(
    loadErrors(doc.root, doc.duplicateKeys as Duplicate[], 'omegaconf').map((e) => [e.message, e.span]),
    [
      ["GrammarParseError: token recognition error at: '{'", [11, 29]],
      ["GrammarParseError: token recognition error at: '{'", [39, 47]],
    ],
  );
  applyLoader(doc.root, 'pyyaml');
  assert.deepEqual(loadErrors(doc.root, doc.duplicateKeys as Duplicate[], 'pyyaml'), []);
});

test('a block scalar that ends the file without a line break keeps none, as PyYAML reads it', () => {
  const value = (t: string) => {
    const r = parseFile(t).docs[0]!.root;
    return r?.kind === 'map' && r.entries[0]!.value.kind === 'scalar' ? r.entries[0]!.value.value : undefined;
  };
  assert.equal(value('a: |\n  x\n  y'), 'x\ny');
  assert.equal(value('a: |\n  x\n  y\n'), 'x\ny\n');
  assert.equal(value('a: |+\n  x'), 'x');
  assert.equal(value('a: >\n  x'), 'x');
  assert.equal(value('a: |\n  x\nb: 1'), 'x\n');
});
