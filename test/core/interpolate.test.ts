// OmegaConf interpolations as real recipes write them resolve to numbers; the rest stays as written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFile, valueAt } from '../../src/core/document.js';
import { UNRESOLVED, splitInterpolations } from '../../src/core/interpolate.js';

const LAUNCHER = `run:
  name: llama3_8b
  results_dir: \${base_results_dir}/\${.name}
trainer:
  num_nodes: 16
  devices: 8
model:
  tensor_model_parallel_size: 4
  pipeline_model_parallel_size: 2
  encoder_seq_length: 131072
  max_position_embeddings: \${.encoder_seq_length}
  data:
    seq_length: \${model.encoder_seq_length}
    twice: \${multiply:\${training.model.encoder_seq_length}, 2}
    sum3: \${sum:\${training.trainer.devices},-1}
    label: seq\${training.model.encoder_seq_length}_tp\${training.model.tensor_model_parallel_size}
    parent: \${..tensor_model_parallel_size}
  mp: \${multiply:\${training.model.tensor_model_parallel_size}, \${training.model.pipeline_model_parallel_size}}
  cycle_a: \${.cycle_b}
  cycle_b: \${.cycle_a}
  unknown_resolver: \${oc.env:HOME}
  escaped: \\\${not.an.interp}
`;

const doc = parseFile(LAUNCHER).docs[0]!;

test('detects the launcher format so `training.` is the root', () => {
  assert.equal(doc.format, 'nemo-launcher');
});

test('relative `${.key}` resolves to a sibling', () => {
  assert.equal(valueAt(doc, 'model.max_position_embeddings'), 131072);
});

test('absolute `${model.key}` resolves from the root', () => {
  assert.equal(valueAt(doc, 'model.data.seq_length'), 131072);
});

test('`${..key}` goes one level up', () => {
  assert.equal(valueAt(doc, 'model.data.parent'), 4);
});

test('`${multiply:a,b}` and `${sum:a,b}` with nested `${training.…}` arguments', () => {
  assert.equal(valueAt(doc, 'model.data.twice'), 262144);
  assert.equal(valueAt(doc, 'model.data.sum3'), 7);
  assert.equal(valueAt(doc, 'model.mp'), 8);
});

test('string interpolation builds a string', () => {
  assert.equal(valueAt(doc, 'model.data.label'), 'seq131072_tp4');
});

test('leaves from another file, unknown resolvers and cycles stay unresolved', () => {
  assert.equal(valueAt(doc, 'run.results_dir'), UNRESOLVED);
  assert.equal(valueAt(doc, 'model.unknown_resolver'), UNRESOLVED);
  assert.equal(valueAt(doc, 'model.cycle_a'), UNRESOLVED);
});

test('an escaped `\\${` is literal text', () => {
  assert.deepEqual(splitInterpolations('\\${a.b}'), [{ text: '${a.b}' }]);
  assert.equal(valueAt(doc, 'model.escaped'), '${not.an.interp}');
});

test('unbalanced braces are not an interpolation', () => {
  assert.equal(splitInterpolations('${a.b'), undefined);
});
