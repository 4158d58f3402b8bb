// Minimal edits: one scalar's bytes change and nothing else; missing keys are added in block style.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { parseFile } from '../../src/core/document.js';
import { applyEdits, editsForChanges, scalarText, setScalarEdit, type ScalarValue } from '../../src/core/edit.js';
import { lookup, visit, type TreeNode } from '../../src/core/tree.js';
import type { PathSeg } from '../../src/core/types.js';
import { applyLoader } from '../../src/core/yaml/loader.js';
import { CORPUS, EXAMPLES, REPO, rel, yamlFiles } from '../helpers.js';

/** Raw values of every document (interpolations left as written), read with one loader whatever the format. */
const plain = (text: string): unknown[] => {
  const rec = (n: TreeNode | undefined): unknown =>
    !n
      ? null
      : n.kind === 'scalar'
        ? n.value
        : n.kind === 'seq'
          ? n.items.map(rec)
          : Object.fromEntries(n.entries.map((e) => [e.key, rec(e.value)]));
  return parseFile(text).docs.map((d) => (applyLoader(d.root, 'pyyaml'), rec(d.root)));
};

/** Set `path` in the plain data of document 0 to `value`. */
const withValue = (data: unknown[], path: readonly PathSeg[], value: unknown): unknown[] => {
  const copy = structuredClone(data);
  let cur = copy[0] as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) cur = cur[seg] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
  return copy;
};

const set = (text: string, path: PathSeg[], value: ScalarValue) => {
  const r = setScalarEdit(text, path, value);
  assert.equal(r.error, undefined, r.error);
  return applyEdits(text, [r.edit!]);
};

/** Integer leaves written plain, parallel sizes first. */
function candidates(text: string): { path: PathSeg[]; node: TreeNode & { kind: 'scalar' } }[] {
  const out: { path: PathSeg[]; node: TreeNode & { kind: 'scalar' } }[] = [];
  visit(parseFile(text).docs[0]?.root, (n, path) => {
    if (n.kind === 'scalar' && Number.isInteger(n.value) && !n.quoted && text.slice(n.span[0], n.span[1]) === n.source)
      out.push({ path, node: n });
  });
  const rank = (p: PathSeg[]) => (/parallel_size$/.test(String(p[p.length - 1])) ? 0 : 1);
  return out.sort((a, b) => rank(a.path) - rank(b.path));
}

const files = [...yamlFiles(CORPUS), ...yamlFiles(EXAMPLES)];

test('the corpus and the examples are there', () => {
  assert.ok(files.length >= 40, `${files.length} files`);
});

for (const file of files) {
  const name = file.startsWith(CORPUS) ? `corpus/${rel(CORPUS, file)}` : rel(REPO, file);
  test(`${name}: changing one integer changes only its bytes`, () => {
    const text = readFileSync(file, 'utf8');
    const before = plain(text);
    let done = false;
    for (const { path, node } of candidates(text)) {
      const value = (node.value as number) + 1;
      const r = setScalarEdit(text, path, value);
      // Aliased anchors and merged keys are refused or would insert: take the next candidate.
      if (r.error !== undefined || r.edit.span[0] !== node.span[0] || r.edit.span[1] !== node.span[1]) continue;
      const after = applyEdits(text, [r.edit]);
      const [s, e] = node.span;
      assert.equal(r.edit.newText, String(value));
      assert.equal(after.slice(0, s), text.slice(0, s), 'prefix');
      assert.equal(after.slice(s + r.edit.newText.length), text.slice(e), 'suffix');
      assert.deepEqual(plain(after), withValue(before, path, value));
      const doc = parseFile(after).docs[0]!;
      assert.equal(lookup(doc.root, path)?.node.kind === 'scalar' && (lookup(doc.root, path)!.node as { value: unknown }).value, value);
      assert.equal(doc.problems.filter((p) => p.severity === 'error').length, 0);
      done = true;
      break;
    }
    const hasInts = candidates(text).length > 0;
    assert.equal(done, hasInts, 'an integer leaf could be edited');
  });

  test(`${name}: a new top-level key is one inserted line`, () => {
    const text = readFileSync(file, 'utf8');
    const r = setScalarEdit(text, ['recipe_lens_probe'], 'x y');
    assert.ok(r.edit, r.error);
    const [s, e] = r.edit.span;
    assert.equal(s, e);
    assert.match(r.edit.newText, /^(\r?\n)?recipe_lens_probe: x y(\r?\n)?$/);
    const after = applyEdits(text, [r.edit]);
    assert.equal(after.slice(0, s) + after.slice(s + r.edit.newText.length), text);
    const [doc, ...rest] = plain(after) as [Record<string, unknown>, ...unknown[]];
    assert.equal(doc.recipe_lens_probe, 'x y');
    delete doc.recipe_lens_probe;
    assert.deepEqual([doc, ...rest], plain(text));
  });
}

test('quoted strings keep their quotes; comments after the value stay', () => {
  const text = 'name: \'megatron_gpt\' # run name\npath: "/data/x"   # where\nmode: plain # m\n';
  assert.equal(set(text, ['name'], 'llama 3'), 'name: \'llama 3\' # run name\npath: "/data/x"   # where\nmode: plain # m\n');
  assert.equal(set(text, ['path'], 'a"b'), 'name: \'megatron_gpt\' # run name\npath: "a\\"b"   # where\nmode: plain # m\n');
  assert.equal(set(text, ['name'], "it's"), "name: 'it''s' # run name\npath: \"/data/x\"   # where\nmode: plain # m\n");
  assert.equal(set(text, ['mode'], 'selective'), 'name: \'megatron_gpt\' # run name\npath: "/data/x"   # where\nmode: selective # m\n');
  // A number replacing a quoted string is written plain: it must read back as a number.
  assert.equal(set(text, ['name'], 16), 'name: 16 # run name\npath: "/data/x"   # where\nmode: plain # m\n');
});

test('values read back as the same value in YAML 1.1 and 1.2', () => {
  const cases: ScalarValue[] = [
    8,
    -3,
    0.9,
    1e-7,
    1.5e-5,
    3e21,
    true,
    false,
    null,
    'yes',
    'off',
    'null',
    '~',
    '16',
    '1e5',
    '2024-01-01',
    'a: b',
    'x #y',
    '- a',
    '',
    ' pad',
    'a\nb',
    'tab\there',
    'bf16-mixed',
    '${model.tensor_model_parallel_size}',
    'Null',
    '<<',
    '=',
    '0x1F',
    '1_000',
    '1:30',
  ];
  for (const v of cases) {
    const text = set('k: 1 # c\n', ['k'], v);
    for (const version of ['1.1', '1.2'] as const)
      assert.deepEqual(parse(text, { version }).k, v, `${JSON.stringify(v)} in ${version}: ${text}`);
    assert.ok(text.endsWith(' # c\n'), text);
  }
  // PyYAML's 1.1 float pattern needs a dot: 1e-7 is written 1.0e-7.
  assert.equal(scalarText(1e-7), '1.0e-7');
  assert.equal(scalarText(0.5), '0.5');
  // True/False in a NeMo file stay capitalised.
  assert.equal(set('sequence_parallel: True\n', ['sequence_parallel'], false), 'sequence_parallel: False\n');
  assert.equal(set('sequence_parallel: true\n', ['sequence_parallel'], false), 'sequence_parallel: false\n');
});

test('empty values: `key:` and `key:  # note`', () => {
  assert.equal(set('a:\nb: 1\n', ['a'], 4), 'a: 4\nb: 1\n');
  assert.equal(set('a:   # note\nb: 1\n', ['a'], 4), 'a:   4 # note\nb: 1\n');
});

test('CRLF files keep CRLF', () => {
  const text = 'trainer:\r\n  devices: 8 # per node\r\nmodel:\r\n  tensor_model_parallel_size: 2\r\n  seq: 4096\r\n';
  const r = editsForChanges(text, [
    { path: ['model', 'tensor_model_parallel_size'], value: 4 },
    { path: ['model', 'context_parallel_size'], value: 2 },
    { path: ['trainer', 'num_nodes'], value: 2 },
  ]);
  assert.ok(r.edits, r.error);
  const after = applyEdits(text, r.edits);
  assert.equal(
    after,
    'trainer:\r\n  devices: 8 # per node\r\n  num_nodes: 2\r\nmodel:\r\n  tensor_model_parallel_size: 4\r\n  seq: 4096\r\n  context_parallel_size: 2\r\n',
  );
  assert.doesNotMatch(after, /[^\r]\n/);
});

test('a missing key is inserted after the last entry, with the siblings’ indentation', () => {
  // Last entry is a nested mapping with a trailing comment: insert after it, at the parent's indentation.
  const nested = 'model:\n  tp: 1\n  optim:\n    name: adam # o\n\n# trailing\nrun: x\n';
  assert.equal(
    set(nested, ['model', 'context_parallel_size'], 2),
    'model:\n  tp: 1\n  optim:\n    name: adam # o\n  context_parallel_size: 2\n\n# trailing\nrun: x\n',
  );
  // End of file without a final newline.
  assert.equal(set('model:\n  tp: 1', ['model', 'cp'], 2), 'model:\n  tp: 1\n  cp: 2');
  assert.equal(set('a: 1\n', ['b'], 'x'), 'a: 1\nb: x\n');
  // A mapping inside a sequence item.
  assert.equal(
    set('servers:\n  - url: a\n    port: 1\n  - url: b\n', ['servers', 0, 'tp'], 2),
    'servers:\n  - url: a\n    port: 1\n    tp: 2\n  - url: b\n',
  );
  // Keys that a loader would read as something else are quoted.
  assert.equal(set('a: 1\n', ['on'], 1), "a: 1\n'on': 1\n");
});

test('multiple changes at once: one sorted list, inserts into one mapping merged in order', () => {
  const text = 'model:\n  a: 1\n  b: 2\nz: 0\n';
  const r = editsForChanges(text, [
    { path: ['model', 'c'], value: 3 },
    { path: ['z'], value: 'q' },
    { path: ['model', 'd'], value: 4 },
    { path: ['model', 'a'], value: 9 },
  ]);
  assert.ok(r.edits, r.error);
  assert.deepEqual(r.edits, [
    { span: [12, 13], newText: '9' },
    { span: [21, 21], newText: '  c: 3\n  d: 4\n' },
    { span: [24, 25], newText: 'q' },
  ]);
  assert.equal(applyEdits(text, r.edits), 'model:\n  a: 9\n  b: 2\n  c: 3\n  d: 4\nz: q\n');
  assert.match(
    editsForChanges(text, [
      { path: ['z'], value: 1 },
      { path: ['z'], value: 2 },
    ]).error ?? '',
    /changed twice/,
  );
  assert.match(
    editsForChanges(text, [
      { path: ['z'], value: 1 },
      { path: ['y', 'x'], value: 2 },
    ]).error ?? '',
    /^y\.x: y does not exist/,
  );
});

test('duplicate keys: the last one (the one loaders keep) is edited', () => {
  assert.equal(set('a: 1\nb: 2\na: 3\n', ['a'], 5), 'a: 1\nb: 2\na: 5\n');
});

test('flow collections: scalars inside are edited, inserts are refused', () => {
  assert.equal(set('sizes: {tp: 1, pp: 2}\n', ['sizes', 'pp'], 4), 'sizes: {tp: 1, pp: 4}\n');
  assert.equal(set('xs: [1, 2, 3]\n', ['xs', 1], 'a,b'), "xs: [1, 'a,b', 3]\n");
  assert.match(setScalarEdit('sizes: {tp: 1}\n', ['sizes', 'cp'], 2).error ?? '', /flow mapping/);
});

test('refusals: aliases, anchors in use, tags, block scalars, missing parents, non-scalars, broken YAML', () => {
  const refuse = (text: string, path: PathSeg[], re: RegExp) => {
    const r = setScalarEdit(text, path, 1);
    assert.equal(r.edit, undefined, `${path.join('.')} should be refused`);
    assert.match(r.error ?? '', re);
  };
  refuse('a: &x 1\nb: *x\n', ['b'], /alias/);
  refuse('a: &x 1\nb: *x\n', ['a'], /anchored/);
  refuse('base: &b {x: 1}\nc: *b\n', ['c', 'x'], /alias/);
  refuse('a: !!str 7\n', ['a'], /tag/);
  refuse('a: |\n  text\n', ['a'], /block scalar/);
  refuse('a: 1\n', ['model', 'tp'], /model does not exist/);
  refuse('model:\n', ['model', 'tp'], /not a mapping/);
  refuse('model:\n  tp: 1\n', ['model'], /not a scalar/);
  refuse('xs:\n  - 1\n', ['xs', 3], /out of range/);
  refuse('a: [1\nb: 2\n', ['b'], /syntax errors/);
  refuse('a: 1\n', [], /empty path/);
  // An anchor nobody aliases can be edited.
  assert.equal(set('a: &x 1\n', ['a'], 2), 'a: &x 2\n');
});

test('multi-document files: the option picks the document', () => {
  const text = 'a: 1\n---\na: 2\n';
  const r = setScalarEdit(text, ['a'], 5, { doc: 1 });
  assert.ok(r.edit, r.error);
  assert.equal(applyEdits(text, [r.edit]), 'a: 1\n---\na: 5\n');
  assert.match(setScalarEdit(text, ['a'], 5, { doc: 2 }).error ?? '', /no YAML document 2/);
});

test('applyEdits refuses overlapping edits', () => {
  assert.throws(() =>
    applyEdits('abcdef', [
      { span: [0, 3], newText: 'x' },
      { span: [2, 4], newText: 'y' },
    ]),
  );
  assert.equal(
    applyEdits('abc', [
      { span: [1, 1], newText: 'X' },
      { span: [1, 2], newText: 'Y' },
      { span: [1, 1], newText: 'Z' },
    ]),
    'aXZYc',
  );
});
