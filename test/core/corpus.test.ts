// Every real NVIDIA file validates with no error, and warns exactly where corpus/EXPECTED.tsv says.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { EXPECTED_FORMAT, EXPECTED_WARNINGS } from '../expected.js';
import { CORPUS, bySeverity, diagnoseFile, rel, yamlFiles } from '../helpers.js';

const files = yamlFiles(CORPUS);

test('the corpus is there (25 files beside the checkout)', () => {
  assert.equal(files.length, 25);
});

test('EXPECTED.tsv names exactly the files this test expects warnings for', () => {
  const rows = readFileSync(`${CORPUS}/EXPECTED.tsv`, 'utf8')
    .trim()
    .split('\n')
    .slice(2)
    .map((l) => l.split('\t')[0]);
  assert.deepEqual(rows.sort(), Object.keys(EXPECTED_WARNINGS).sort());
});

for (const file of files) {
  const name = rel(CORPUS, file);
  test(`corpus ${name}: no error, exactly the expected warnings`, () => {
    const ds = diagnoseFile(file);
    assert.deepEqual(
      bySeverity(ds, 'error').map((d) => `${d.code} ${d.path}: ${d.message}`),
      [],
    );
    const warnings = bySeverity(ds, 'warning').map((d) => ({ code: d.code, path: d.path }));
    assert.deepEqual(warnings, EXPECTED_WARNINGS[name] ?? []);
  });
}

test('corpus formats are detected by content', async () => {
  const { analyzeText } = await import('../helpers.js');
  for (const file of files) {
    const name = rel(CORPUS, file);
    const f = analyzeText(readFileSync(file, 'utf8')).format;
    assert.notEqual(f, null, `${name} detected as a recipe`);
    if (EXPECTED_FORMAT[name]) assert.equal(f, EXPECTED_FORMAT[name], name);
    if (name.startsWith('NeMo-Framework-Launcher/') && !name.endsWith('config.yaml')) assert.equal(f, 'nemo-launcher', name);
    if (name.startsWith('Megatron-Bridge/')) assert.equal(f, 'megatron-bridge', name);
    if (/TensorRT-LLM\/disagg/.test(name)) assert.equal(f, 'trtllm-disagg', name);
  }
});
