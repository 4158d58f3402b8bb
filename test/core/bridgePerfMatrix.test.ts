// Megatron-Bridge performance configs: the perf_matrix runs as the launcher merges them (helpers.py
// apply_perf_matrix_overrides), and the estimate of the run it starts by default or the one a modeline names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { perfMatrixRuns } from '../../src/core/formats/bridgePerfMatrix.js';
import { parseFile } from '../../src/core/document.js';

const FILE = `ConfigContainer:
  model:
    cross_entropy_fusion_impl: "te"
  train:
    train_iters: 100
  mixed_precision:
    grad_reduce_in_fp32: false
perf_matrix:
  h100:
    num_gpus_8:
      common:
        seq_length: 8192
        mbs: 1
        gbs: 128
        tp: 1
        pp: 1
        vp: null
        ep: 1
        etp: null
      bf16:
        cp: 2
        use_megatron_fsdp: false
      fp8_cs:
        cp: 1
        use_megatron_fsdp: true
  b200:
    num_gpus_16:
      common:
        seq_length: 8192
        mbs: 2
        gbs: 128
        tp: 2
        cuda_graphs: true
      bf16:
      fp8_mx:
`;

test('perf_matrix runs: common merged with each precision block, parallel sizes defaulted as the launcher does', () => {
  const root = parseFile(FILE).docs[0]!.root;
  const runs = perfMatrixRuns(root);
  assert.deepEqual(
    runs.map((r) => `${r.gpu}/${r.numGpus}/${r.precision}`),
    ['h100/8/bf16', 'h100/8/fp8_cs', 'b200/16/bf16', 'b200/16/fp8_mx'],
  );
  assert.deepEqual(runs[0]!.values, {
    seq: 8192,
    mbs: 1,
    gbs: 128,
    tp: 1,
    pp: 1,
    cp: 2,
    ep: 1,
    sp: false,
    mixedPrecision: 'bf16_mixed',
  });
  assert.deepEqual(runs[1]!.values, {
    seq: 8192,
    mbs: 1,
    gbs: 128,
    tp: 1,
    pp: 1,
    cp: 1,
    ep: 1,
    sp: false,
    mixedPrecision: 'bf16_with_fp8_current_scaling_mixed',
    bf16Layers: false,
    megatronFsdp: true,
    fsdpSharding: 'optim_grads_params',
    gradAccFusion: true,
  });
  // An empty block is `common` alone; TP 2 turns sequence parallelism on; cuda_graphs sets enable_cuda_graph.
  assert.deepEqual(runs[3]!.values, {
    seq: 8192,
    mbs: 2,
    gbs: 128,
    tp: 2,
    pp: 1,
    cp: 1,
    ep: 1,
    sp: true,
    mixedPrecision: 'bf16_with_mxfp8_mixed',
    enableCudaGraph: true,
  });
  assert.deepEqual(perfMatrixRuns(parseFile('perf_matrix: 3\n').docs[0]!.root), []);
});

const estimate = (text: string) => {
  const a = analyze(text, { documentPath: '/NVIDIA-NeMo/Megatron-Bridge/scripts/performance/configs/llama3/llama3_8b_llm_pretrain.yaml' });
  return { a, e: a.main!.estimate! };
};

test('the estimate shows the run the launcher starts by default (H100, first count, bf16) and says which, with the others', () => {
  const { a, e } = estimate(FILE);
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  assert.deepEqual([e.gpu.id, e.config.seq, e.config.cp, e.config.tp, e.config.worldSize, e.config.fp8], ['h100', 8192, 2, 1, 8, null]);
  // The file's mixed_precision.grad_reduce_in_fp32: false overrides bf16_mixed's True (the YAML merges over the recipe).
  assert.equal(e.config.gradReduceInFp32, false);
  const run = e.estimate.assumptions.find((x) => x.what.startsWith('perf_matrix run'))!;
  assert.equal(run.what, 'perf_matrix run h100 · num_gpus_8 · bf16');
  assert.match(run.source, /the file also holds 3 other runs \(h100\/8\/fp8_cs, b200\/16\/bf16, b200\/16\/fp8_mx\)/);
  assert.ok(e.estimate.assumptions.some((x) => x.what === 'settings the launcher sets in code are not counted'));
  // A matrix run's estimate raises no RL-MEM, whatever it says.
  assert.deepEqual(
    a.diagnostics.filter((d) => d.code === 'RL-MEM'),
    [],
  );
});

test('a gpu= or world_size= modeline picks another run; one the matrix lacks gives no estimate, with the reason', () => {
  const b200 = estimate(`# recipe-lens: gpu=b200\n${FILE}`).e;
  assert.deepEqual(
    b200.kind === 'training' ? [b200.gpu.id, b200.config.tp, b200.config.sp, b200.config.microBatch, b200.config.worldSize] : [],
    ['b200', 2, true, 2, 16],
  );
  const none = estimate(`# recipe-lens: gpu=gb200\n${FILE}`).e;
  assert.deepEqual(
    none.kind === 'none' ? none.reason : '',
    'the perf_matrix has no run for the NVIDIA GB200 (per Blackwell GPU) (it has h100, b200)',
  );
  const count = estimate(`# recipe-lens: world_size=64\n${FILE}`).e;
  assert.deepEqual(count.kind === 'none' ? count.reason : '', 'the perf_matrix has no h100 run on 64 GPUs (it has num_gpus 8)');
});

test('a Bridge override that leaves the sequence length to its recipe is estimated at the assumed 4096, stated; seq= sets it', () => {
  const override = 'model:\n  tensor_model_parallel_size: 2\ntrain:\n  global_batch_size: 64\n  micro_batch_size: 1\n';
  const path = { documentPath: '/NVIDIA-NeMo/Megatron-Bridge/examples/conf/llama3_8b_pretrain_override.yaml' };
  const assumed = analyze(override, path).main!.estimate!;
  assert.equal(assumed.kind, 'training');
  if (assumed.kind !== 'training') return;
  assert.deepEqual([assumed.shape.name, assumed.config.seq, assumed.seqAssumed], ['llama3-8b', 4096, true]);
  assert.match(
    assumed.estimate.assumptions.find((a) => a.what === 'sequence length 4096 (assumed)')?.source ?? '',
    /227 of 420 seq_length settings/,
  );
  const set = analyze(`# recipe-lens: seq=8192\n${override}`, path).main!.estimate!;
  assert.deepEqual(set.kind === 'training' ? [set.config.seq, set.seqAssumed] : [], [8192, undefined]);
  // No model named: no guess at all, and the reason says how to give the length.
  const none = analyze(override).main!.estimate!;
  assert.equal(none.kind, 'none');
});
