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

test('broken/llama3_8b_cp3.yaml: two mistakes, two problems, both on CP with the other keys related and CP 2 / 4 offered', () => {
  const ds = diagnoseFile(`${EXAMPLES}/broken/llama3_8b_cp3.yaml`);
  assert.deepEqual(
    ds.map((d) => [d.code, d.severity, d.path, d.range.start.line + 1, d.related?.map((r) => r.path), d.fixes?.map((f) => f.title)]),
    [
      [
        'RL-R1',
        'error',
        'model.context_parallel_size',
        54,
        ['model.tensor_model_parallel_size', 'model.pipeline_model_parallel_size', 'trainer.devices', 'trainer.num_nodes'],
        ['Set model.context_parallel_size: 2', 'Set model.context_parallel_size: 4'],
      ],
      [
        'RL-R3',
        'error',
        'model.context_parallel_size',
        54,
        ['model.encoder_seq_length'],
        ['Set model.context_parallel_size: 2', 'Set model.context_parallel_size: 4'],
      ],
    ],
  );
});

test('broken/retention_overlap.yaml: RT5 once (on the first range end, the second start related), RT1 on the priority', () => {
  const ds = diagnoseFile(`${EXAMPLES}/broken/retention_overlap.yaml`).filter((d) => d.severity === 'error');
  assert.deepEqual(
    ds.map((d) => [d.code, d.path, d.message]),
    [
      ['RL-RT5', 'token_range_retention_configs[0].token_end', 'token ranges [0, 64) and [60, 80) overlap'],
      ['RL-RT1', 'token_range_retention_configs[0].priority', '`priority` must be an integer ≥ 0 and ≤ 100, got 150'],
    ],
  );
});
