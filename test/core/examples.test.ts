// The shipped examples validate clean; the deliberately broken ones fail exactly as their comments say.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLES, diagnoseFile, rel, yamlFiles } from '../helpers.js';

const files = yamlFiles(EXAMPLES);

test('the examples are there', () => {
  assert.equal(files.filter((f) => !f.includes('/broken/')).length, 14);
});

for (const file of files.filter((f) => !f.includes('/broken/'))) {
  test(`example ${rel(EXAMPLES, file)} has no error and no warning`, () => {
    const ds = diagnoseFile(file).filter((d) => d.severity !== 'info');
    assert.deepEqual(
      ds.map((d) => `${d.code} ${d.path}: ${d.message}`),
      [],
    );
  });
}

test('broken/llama3_8b_cp3.yaml: RL-R1 on TP, PP, CP and RL-R3 on both keys', () => {
  const ds = diagnoseFile(`${EXAMPLES}/broken/llama3_8b_cp3.yaml`);
  assert.deepEqual(
    ds.map((d) => [d.code, d.severity, d.path, d.range.start.line + 1]),
    [
      ['RL-R1', 'error', 'model.tensor_model_parallel_size', 51],
      ['RL-R1', 'error', 'model.pipeline_model_parallel_size', 52],
      ['RL-R1', 'error', 'model.context_parallel_size', 54],
      ['RL-R3', 'error', 'model.context_parallel_size', 54],
      ['RL-R3', 'error', 'model.encoder_seq_length', 58],
    ],
  );
});

test('broken/retention_overlap.yaml: RT5 on both ranges, RT1 on the priority', () => {
  const ds = diagnoseFile(`${EXAMPLES}/broken/retention_overlap.yaml`).filter((d) => d.severity === 'error');
  assert.deepEqual(
    ds.map((d) => [d.code, d.path, d.message]),
    [
      ['RL-RT5', 'token_range_retention_configs[0].token_end', 'token ranges [0, 64) and [60, 80) overlap'],
      ['RL-RT1', 'token_range_retention_configs[0].priority', '`priority` must be an integer ≥ 0 and ≤ 100, got 150'],
      ['RL-RT5', 'token_range_retention_configs[1].token_start', 'token ranges [0, 64) and [60, 80) overlap'],
    ],
  );
});
