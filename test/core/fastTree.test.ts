// The fast YAML path (src/core/fastTree.ts) must give exactly the tree the `yaml` library path gives, or decline,
// under both loaders' readings (PyYAML's as built, OmegaConf's after applyLoader). Checked on the corpus, the
// examples, line-level mutations of both with the scalars of test/data/yaml-scalars.json, and hand-written cases.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseFile } from '../../src/core/document.js';
import { fastBuildTree } from '../../src/core/fastTree.js';
import { DEFAULT_TREE_LIMITS } from '../../src/core/tree.js';
import { applyLoader } from '../../src/core/yaml/loader.js';
import type { Loader } from '../../src/core/yaml/scalars.js';
import { CORPUS, SHARED, yamlFiles } from '../helpers.js';

function examples(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(n)) out.push(p);
    }
  };
  walk('examples');
  return out;
}
const WILD = yamlFiles(join(SHARED, 'corpus-wild'));
const files = [...yamlFiles(CORPUS), ...examples(), ...WILD];
/** Plain and quoted scalars of the truth table, as values for the mutations. */
const TABLE_SCALARS = (
  JSON.parse(readFileSync('test/data/yaml-scalars.json', 'utf8')) as { scalars: { source: string; style: string }[] }
).scalars
  .filter((r) => r.style !== 'tagged' && !/[\t\n]/.test(r.source))
  .map((r) => (r.style === 'single' ? `'${r.source}'` : r.style === 'double' ? `"${r.source}"` : r.source));
const texts = files.map((f) => readFileSync(f, 'utf8'));

/** Both paths' view of a text; `fast` is undefined when the fast path declines. */
function both(text: string) {
  const fast = fastBuildTree(text, DEFAULT_TREE_LIMITS.maxDepth);
  const slow = parseFile(text, { parser: 'yaml' });
  return { fast, slow };
}

/** The first place two trees differ, for a readable failure. */
function firstDiff(a: unknown, b: unknown, path = ''): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime() ? undefined : path;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return `${path}: fast ${String(a)}, yaml ${String(b)}`;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDiff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return undefined;
}

const LOADERS: Loader[] = ['pyyaml', 'omegaconf'];

function assertSame(text: string, label: string): boolean {
  const { fast, slow } = both(text);
  if (!fast) return false;
  assert.equal(slow.docs.length, 1, `${label}: the fast path took a text that is not one document`);
  const d = slow.docs[0]!;
  assert.deepEqual(d.problems, [], `${label}: the fast path took a text the yaml library reports problems in`);
  assert.equal(d.truncated, undefined, `${label}: truncated`);
  for (const loader of LOADERS) {
    applyLoader(fast.root, loader);
    applyLoader(d.root, loader);
    const diff: string | undefined = firstDiff(fast.root, d.root, 'root') ?? firstDiff(fast.span, d.span, 'span');
    assert.equal(diff, undefined, `${label} (${loader}): ${diff} in ${JSON.stringify(text)}`);
  }
  assert.deepEqual(fast.duplicateKeys, d.duplicateKeys, `${label}: duplicate keys differ`);
  return true;
}

test('fast path: every corpus file and example is taken and gives the same tree', () => {
  let taken = 0;
  let wildTaken = 0;
  files.forEach((f, i) => {
    if (assertSame(texts[i]!, f)) {
      if (i < files.length - WILD.length) taken++;
      else wildTaken++;
    }
  });
  // The point of the fast path is that real recipes take it: all but files with anchors, block scalars and the like.
  const own = files.length - WILD.length;
  assert.ok(taken >= own - 3, `only ${taken} of ${own} files took the fast path`);
  // Upstream files use more YAML (block scalars, anchors and merge keys, multi-line strings, several documents).
  assert.ok(wildTaken >= WILD.length - 16, `only ${wildTaken} of ${WILD.length} corpus-wild files took the fast path`);
});

test('fast path: line-level mutations give the same tree or are declined', () => {
  const mutation = fc.record({
    file: fc.nat({ max: texts.length - 1 }),
    ops: fc.array(
      fc.record({
        kind: fc.constantFrom('delete', 'duplicate', 'indent', 'dedent', 'value', 'insert', 'comment', 'blank', 'trail'),
        at: fc.nat(),
        value: fc.oneof(
          fc.constantFrom(
            '0',
            '-1',
            '0x1F',
            '012',
            '1_000',
            '1:30',
            '.nan',
            '-.inf',
            'yes',
            'No',
            'on',
            '~',
            'null',
            'Null',
            '2e-4',
            '1.5e+3',
            '2024-01-02',
            '${model.x}',
            "'it''s'",
            '"q"',
            '[1, 2]',
            '[]',
            '{}',
            '[a, "b", c d]',
            'a b',
            'x:y',
            '- z',
            'k: v',
            '# c',
            'a #b',
            'a#b',
            '"a\\tb"',
            '*a',
            '&a 3',
            '!!str 3',
            '|',
            '>',
            '[',
            '{',
            '"',
            "'",
            '@x',
            '`x',
            '%x',
            '? x',
          ),
          fc.constantFrom(...TABLE_SCALARS),
          fc.string({ maxLength: 8 }),
        ),
      }),
      { minLength: 1, maxLength: 5 },
    ),
  });
  let taken = 0;
  fc.assert(
    fc.property(mutation, ({ file, ops }) => {
      const lines = texts[file]!.split('\n');
      for (const op of ops) {
        const i = op.at % lines.length;
        const l = lines[i]!;
        if (op.kind === 'delete') lines.splice(i, 1);
        else if (op.kind === 'duplicate') lines.splice(i, 0, l);
        else if (op.kind === 'indent') lines[i] = '  ' + l;
        else if (op.kind === 'dedent') lines[i] = l.replace(/^ {1,2}/, '');
        else if (op.kind === 'value') lines[i] = l.replace(/:( .*)?$/, `: ${op.value}`);
        else if (op.kind === 'insert') lines.splice(i, 0, `${/^ */.exec(l)![0]}${op.value}`);
        else if (op.kind === 'comment') lines.splice(i, 0, `${' '.repeat(op.value.length % 7)}# ${op.value}`);
        else if (op.kind === 'blank') lines.splice(i, 0, ' '.repeat(op.value.length % 3));
        else lines[i] = l + (op.value.length % 2 ? '   ' : ` # ${op.value}`);
      }
      const text = lines.join('\n');
      if (assertSame(text, `mutation of ${files[file]}`)) taken++;
    }),
    { numRuns: 400, seed: 20240611 },
  );
  assert.ok(taken > 40, `the fast path took only ${taken} of 400 mutated files`);
});

test('fast path: small hand-written cases', () => {
  const cases = [
    'a: 1   \nb: 2',
    'a:\n  b: 1\n  # nested comment\nc: 2\n',
    'a:\n  b: 1\n\n\nc: 2',
    'a:\n  - 1\n  # c\n  - 2\n',
    'a:\n- 1\n- 2\nb: 3',
    'a:  # comment\n  b: 1\n',
    'a: # c\nb:   \nc: 1',
    '- a: 1\n  b: 2\n- c\n',
    '\n\n# head\n\na: 1\n# end comment\n\n',
    'a:\n  b:\n  c: 1\n',
    'a:\n  b:\n    # deep comment\nc: 1\n',
    'x: 1 # a\n  # indented comment after\ny: 2',
    'x: 1\n\n  # after a blank line\ny: 2',
    'x:\n  y: 1\n\n    # deeper after a blank\nz: 2\n',
    'a: [1, 2] # c\nb: {}\nc: []\n',
    "\"q\": 1\n'r': 's'\n",
    'a: 1\na: 2\n',
    '  a: 1\n  b: 2\n',
    'a:\n  - b: 1\n    c: 2\n  - d\n',
    'a:\n  - b: 1\n    # c\n  - d: 2\n',
    'a:\n  - b: 1\n      # deeper\n  - d: 2\n',
    'list:\n  - [0, 1]\n  - "x"\n',
    'yes: 1\n1: 2\n0x10: 3\n~: 4\n',
    'a: b\n  c\n',
    'a:\n  b: 1\n c: 2\n',
    // Keys that are one Python dict key, or that read differently per loader; scalars that differ per loader.
    '1: a\ntrue: b\n1.0: c\n',
    '0: a\nfalse: b\nno: c\n',
    '.nan: a\n.nan: b\n',
    '1e5: a\n100000.0: b\n',
    '2024-01-02 00:00:00: a\n2024-01-02T00:00:00: b\n',
    'y: 1\nn: 2\n~: 3\n12345678901234567890: 4\n=: 5\n',
    'time_limit: 04:00:00\nlr: 1e-4\nmin_lr: 1.0e-5\nd: 2024-01-02\nbad: 2024-02-30\nx: ._\n',
    'x: [1e5, 04:00:00, y, .5, 2024-01-02, ~, "1e5"]\n',
    'a:\n  b: 1\n  b: 2\nc: 1\nc: 2\n',
  ];
  for (const c of cases) assertSame(c, JSON.stringify(c));
});
