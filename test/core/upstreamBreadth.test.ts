// Classes of real upstream files found by checking whole repositories (Megatron-LM functional tests, the Launcher's
// stage configs, NeMo-RL recipes) that were read wrong: each case below is the shape of such a file, cut down.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../helpers.js';

const codes = (text: string) =>
  analyzeText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning')
    .map((d) => `${d.severity} ${d.code} ${d.path}`);

const MLM = (extra: string) => `MODEL_ARGS:
  --num-layers: 12
  --hidden-size: 512
  --num-attention-heads: 8
  --seq-length: 1024
  --max-position-embeddings: 1024
  --micro-batch-size: 4
  --global-batch-size: 32
  --tensor-model-parallel-size: 1
  --pipeline-model-parallel-size: 2
  --context-parallel-size: 4
${extra}TEST_TYPE: regular
`;

test('Megatron-LM: an integer list argument written as "2 2" is a list (nargs +), so R13 sees the hierarchical CP sizes', () => {
  const ok = MLM('  --cp-comm-type: a2a+p2p\n  --hierarchical-context-parallel-sizes: 2 2\n');
  const r = analyzeText(ok).main!.recipe!;
  assert.deepEqual(r.kind === 'training' ? r.values.hcp : null, [2, 2]);
  assert.deepEqual(codes(ok), []);
  // Sizes whose product is not CP are still R13's error; a missing list with a2a+p2p too.
  assert.deepEqual(codes(MLM('  --cp-comm-type: a2a+p2p\n  --hierarchical-context-parallel-sizes: 2 4\n')), [
    'error RL-R13 MODEL_ARGS.--hierarchical-context-parallel-sizes',
  ]);
  assert.deepEqual(codes(MLM('  --cp-comm-type: a2a+p2p\n')), ['error RL-R13 MODEL_ARGS.--cp-comm-type']);
});

test('Megatron-LM: MODEL_ARGS_<N> (the N-th run of a multi-run functional test) is known, and checked like MODEL_ARGS', () => {
  const rerun = `${MLM('')}MODEL_ARGS_2:\n  --micro-batch-size: 2\n  --tensor-model-paralel-size: 2\n`;
  // The section is not reported as unknown; a typo inside it is, as it would be in MODEL_ARGS.
  assert.deepEqual(
    codes(rerun).filter((c) => c.includes('UNKNOWN')),
    ['warning RL-UNKNOWN-KEY MODEL_ARGS_2.--tensor-model-paralel-size'],
  );
  assert.deepEqual(codes(`${MLM('')}MODEL_ARGS_:\n  --micro-batch-size: 2\n`), ['warning RL-UNKNOWN-KEY MODEL_ARGS_']);
});

test("the Launcher's checkpoint conversion configs are no training recipe (run.nemo_file_name); fine-tuning stages still are", () => {
  const conversion = `run:
  name: convert_hf_mixtral
  convert_name: convert_hf_mixtral_to_nemo
  nemo_file_name: \${data_dir}/results/mixtral.nemo
trainer:
  devices: 1
  num_nodes: 1
model:
  encoder_seq_length: 4096
  tensor_model_parallel_size: 1
  pipeline_model_parallel_size: 16
  micro_batch_size: 1
  global_batch_size: 8
`;
  const a = analyzeText(conversion);
  assert.equal(a.parsed.docs[0]!.detection.format, null);
  assert.equal(a.parsed.docs[0]!.detection.notRecipe, 'a NeMo-Framework-Launcher checkpoint conversion config');
  assert.deepEqual(codes(conversion), []);
  // A fine-tuning stage names the conversion that follows it (run.convert_name) and stays a launcher recipe.
  const sft = conversion
    .replace('  nemo_file_name: ${data_dir}/results/mixtral.nemo\n', '')
    .replace('pipeline_model_parallel_size: 16', 'pipeline_model_parallel_size: 1');
  assert.equal(analyzeText(sft).main?.doc.detection.format, 'nemo-launcher');
});

test('a null in the Launcher\'s main config is "not set" (filled on the command line): an information, not a type error', () => {
  const main = `defaults:
  - _self_
  - cluster: bcm
  - data_preparation: gpt3/download_gpt3_pile
cluster_type: bcm
launcher_scripts_path: null
base_results_dir: \${launcher_scripts_path}/results
`;
  const a = analyzeText(main);
  assert.equal(a.main?.doc.detection.format, 'nemo-launcher-main');
  assert.deepEqual(
    a.diagnostics.filter((d) => d.path === 'launcher_scripts_path').map((d) => `${d.severity} ${d.code}`),
    ['info RL-SCHEMA'],
  );
});
