// The memory model against Megatron-LM's own functional tests (test/data/megatron-lm-golden.json): each case's recorded
// mem-max-allocated-bytes (torch.cuda.memory_stats allocated_bytes.all.peak on the last rank, which writes TensorBoard)
// against the estimate of that rank, and mem-allocated-bytes after the step against the static terms. The dataset holds
// the arguments as Megatron-LM reads them (defaults applied); test/megatronGolden.ts maps them to a ModelShape and a TrainingConfig.
// MEGATRON_TABLE=1 prints the comparison table (docs/memory-model.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GPUS } from '../../src/core/memory/gpus.js';
import type { StageEstimate } from '../../src/core/memory/training.js';
import { meanAbs as mean, worstAbs as worst } from '../helpers.js';
import { DATA, estimateStage, type Case } from '../megatronGolden.js';

const H100 = GPUS.find((g) => g.id === 'h100')!;
const MIB = 2 ** 20;

interface Result {
  c: Case;
  stage: StageEstimate;
  error: number;
}

function evaluate(c: Case): Result {
  const stage = estimateStage(c.megatron, c.measuredRank, H100);
  return {
    c,
    stage,
    error: stage.allocated / c.memMaxAllocatedBytes - 1,
  };
}

const results = DATA.cases.map(evaluate);

/** Per case: the allocated peak within 12% (the product target's worst case); the dataset as a whole below. */
const CASE_TOLERANCE = 0.12;

for (const r of results)
  test(`Megatron-LM ${r.c.id}: peak allocated of rank ${r.c.measuredRank} within ${CASE_TOLERANCE * 100}%`, () => {
    assert.ok(
      Math.abs(r.error) <= CASE_TOLERANCE,
      `${r.c.id}: estimate ${(r.stage.allocated / MIB).toFixed(0)} MiB vs measured ${(r.c.memMaxAllocatedBytes / MIB).toFixed(0)} MiB ` +
        `(${(r.error * 100).toFixed(1)}%)`,
    );
  });

test('Megatron-LM functional tests: mean |error| ≤ 5%, worst ≤ 12% on the allocated peak', () => {
  const errs = results.map((r) => r.error);
  if (process.env.MEGATRON_TABLE) {
    const lines = [
      '| case | TP·PP·VPP·CP·EP | measured | estimated | error | after the step: measured / static estimate |',
      '|---|---|---:|---:|---:|---:|',
    ];
    for (const r of results) {
      const a = r.c.megatron;
      const par = `${a.tensor_model_parallel_size}·${a.pipeline_model_parallel_size}·${a.virtual_pipeline_model_parallel_size ?? 1}·${a.context_parallel_size}·${a.expert_model_parallel_size}`;
      lines.push(
        `| ${r.c.id} | ${par} | ${(r.c.memMaxAllocatedBytes / MIB).toFixed(0)} MiB | ${(r.stage.allocated / MIB).toFixed(0)} MiB | ${(r.error * 100).toFixed(1)}% | ${(r.c.memAllocatedBytes / MIB).toFixed(0)} / ${(r.stage.afterStep / MIB).toFixed(0)} MiB |`,
      );
    }
    lines.push('', `${results.length} cases: mean |error| ${(mean(errs) * 100).toFixed(2)}%, worst ${(worst(errs) * 100).toFixed(2)}%`);
    // The subsets of docs/memory-model.md's summary table.
    const subsets: [string, (a: (typeof results)[number]['c']['megatron']) => boolean][] = [
      ['all', () => true],
      ['dense GPT', (a) => !a.num_experts && !a.hybrid_layer_pattern],
      ['hybrid Mamba', (a) => !!a.hybrid_layer_pattern],
      ['MoE', (a) => !!a.num_experts],
      ['PP > 1', (a) => a.pipeline_model_parallel_size > 1],
      ['interleaved (VPP)', (a) => (a.virtual_pipeline_model_parallel_size ?? 1) > 1],
      ['CP 2–4', (a) => a.context_parallel_size > 1],
      ['recompute', (a) => !!a.recompute_granularity],
      ['distributed optimizer / FSDP', (a) => a.use_distributed_optimizer || a.use_megatron_fsdp],
      ['FP8', (a) => !!a.fp8],
      ['unfused attention or local layers', (a) => a.attention_backend === 'unfused' || a.transformer_impl === 'local'],
    ];
    lines.push('', '| subset | cases | mean / worst |', '|---|---:|---:|');
    for (const [name, has] of subsets) {
      const e = results.filter((r) => has(r.c.megatron)).map((r) => r.error);
      lines.push(`| ${name} | ${e.length} | ${(mean(e) * 100).toFixed(1)}% / ${(worst(e) * 100).toFixed(1)}% |`);
    }
    console.log(lines.join('\n'));
  }
  assert.ok(mean(errs) <= 0.05, `mean |error| ${(mean(errs) * 100).toFixed(2)}%`);
  assert.ok(worst(errs) <= 0.12, `worst |error| ${(worst(errs) * 100).toFixed(2)}%`);
});

/**
 * The cases whose first iteration the model does not describe, with the reason: the first iteration of fine-grained
 * activation offloading is the offloader's warm-up (fine_grained_activation_offload.py `_is_warmup`, which records the
 * offload groups instead of running the steady schedule): both cases record as iteration 1's peak exactly the allocated
 * bytes after its step (4114 and 5039 MiB), below any forward/backward with activations.
 */
const firstIterationReason = (c: Case): string | null =>
  c.megatron.fine_grained_activation_offloading
    ? 'fine-grained activation offloading: the first iteration is the offloader’s warm-up'
    : null;

test('Megatron-LM first iteration: the forward/backward before the first optimizer step creates the Adam states, within 8% (mean ≤ 3%)', () => {
  const checked = results.filter((r) => firstIterationReason(r.c) === null);
  assert.equal(results.length - checked.length, 2);
  const errs = checked.map((r) => r.stage.firstIteration / r.c.firstIteration.memMaxAllocatedBytes - 1);
  if (process.env.MEGATRON_TABLE)
    console.log(
      `first iteration, ${checked.length} cases: mean |error| ${(mean(errs) * 100).toFixed(2)}%, worst ${(worst(errs) * 100).toFixed(2)}%`,
    );
  checked.forEach((r, i) =>
    assert.ok(
      Math.abs(errs[i]!) <= 0.08,
      `${r.c.id}: ${(r.stage.firstIteration / MIB).toFixed(0)} vs ${(r.c.firstIteration.memMaxAllocatedBytes / MIB).toFixed(0)} MiB`,
    ),
  );
  assert.ok(mean(errs) <= 0.03, `mean ${(mean(errs) * 100).toFixed(2)}%`);
  // The steady peak taken for the first iteration would be 13% off on average: the lazy states are what differs.
  const steady = checked.map((r) => r.stage.allocated / r.c.firstIteration.memMaxAllocatedBytes - 1);
  assert.ok(mean(steady) > 0.1, `steady-as-first mean ${(mean(steady) * 100).toFixed(2)}%`);
  // The states exist after iteration 1's step: allocated after it equals the steady value, except under fp16 (loss-scale
  // overflows skip the first steps), Megatron FSDP, and CUDA graphs (captured after the warm-up iterations).
  const settled = (a: Case['megatron']) => a.params_dtype !== 'fp16' && !a.use_megatron_fsdp && (a.cuda_graph_impl ?? 'none') === 'none';
  assert.ok(checked.filter((r) => settled(r.c.megatron)).length >= 80);
  for (const r of checked)
    if (settled(r.c.megatron)) assert.ok(Math.abs(r.c.firstIteration.memAllocatedBytes - r.c.memAllocatedBytes) < 2 * MIB, r.c.id);
});

test('Megatron-LM dataset: every case paired at one commit, 8 GPUs on one node, the last rank measured, a steady iteration', () => {
  const sha = /^[0-9a-f]{40}$/;
  assert.ok(DATA.cases.length >= 30);
  for (const c of DATA.cases) {
    assert.match(c.golden.commit, sha);
    assert.equal(c.config.commit, c.golden.commit, `${c.id}: config and values from one commit`);
    assert.equal(c.harness.commit, c.golden.commit);
    assert.ok(c.golden.path.startsWith('tests/functional_tests/test_cases/') && c.golden.path.endsWith('.json'));
    assert.equal(c.harness.nodes * c.harness.gpus, c.megatron.world_size);
    assert.equal(c.measuredRank, c.megatron.world_size - 1);
    assert.ok(c.steadyFrom >= 1 && c.steadyFrom <= c.iteration, `${c.id}: steady by iteration ${c.iteration}`);
    const a = c.megatron;
    const model = a.tensor_model_parallel_size * a.pipeline_model_parallel_size * a.context_parallel_size;
    assert.equal(a.world_size % model, 0, c.id);
    // The padded vocabulary as vocab_utils.py computes it.
    const multiple = a.make_vocab_size_divisible_by * a.tensor_model_parallel_size;
    assert.equal(a.padded_vocab_size, Math.ceil(a.vocab_size / multiple) * multiple);
  }
  for (const x of DATA.excluded) assert.ok(x.reason.length > 10, x.id);
  const ids = new Set([...DATA.cases, ...DATA.excluded].map((x) => x.id));
  assert.equal(ids.size, DATA.cases.length + DATA.excluded.length, 'each case once');
});

test('Megatron-LM: after the step, allocated = weights + gradients + optimizer state + persistent buffers (dense GPT and hybrid Mamba, one stage)', () => {
  // With PP 1 the last rank is the whole model: Megatron's parameter count, 18 B (or 6 + 12/d; 16 + 4 with fp16) per
  // parameter, the three 32 MiB GEMM workspaces (TE's and PyTorch's two) and, with Megatron's local layers, the global
  // buffer holding the attention-score input leave nothing else allocated between steps (to the KiB on most cases).
  // Pipeline stages keep 10–40 MiB more (1.3 GiB on the 7B VPP 8 case), MoE stages up to 300 MiB more: not modelled.
  const pp1 = results.filter((r) => r.c.megatron.pipeline_model_parallel_size === 1 && !r.c.megatron.num_experts);
  assert.ok(pp1.length >= 8);
  for (const r of pp1)
    assert.ok(
      Math.abs(r.stage.afterStep - r.c.memAllocatedBytes) < 16 * MIB,
      `${r.c.id}: ${(r.stage.afterStep - r.c.memAllocatedBytes) / MIB} MiB`,
    );
});
