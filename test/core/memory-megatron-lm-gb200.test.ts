// Held-out check: the memory model against Megatron-LM's functional tests on GB200 (test/data/megatron-lm-golden-gb200.json).
// Every case runs the arguments of an H100 case of megatron-lm-golden.json (the configuration file is the same in every
// argument that can change memory) on the GB200 recipe's world size: 8 GPUs (2 nodes × 4), or 4 for the *_1node cases,
// which halves the data-parallel size. Nothing in the model was changed for these values: they test the hardware-dependent
// terms (Blackwell's cuBLAS and TE workspaces, FP8 weight copies) and, on 4 GPUs, the sharding over a different DP.
// MEGATRON_TABLE=1 prints the comparison table (docs/memory-model.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GPUS } from '../../src/core/memory/gpus.js';
import { estimateTraining } from '../../src/core/memory/training.js';
import { configOf, DATA, gb200Args, GB200_DATA, shapeOf, stageOfRank } from '../megatronGolden.js';

const GB200 = GPUS.find((g) => g.id === 'gb200')!;
const MIB = 2 ** 20;

const results = GB200_DATA.cases.map((g) => {
  const a = gb200Args(g);
  const stage = estimateTraining(shapeOf(a), configOf(a), GB200).stages[stageOfRank(a, g.measuredRank)]!;
  return {
    g,
    a,
    stage,
    error: stage.allocated / g.memMaxAllocatedBytes - 1,
    first: stage.firstIteration / g.firstIteration.memMaxAllocatedBytes - 1,
  };
});
const mean = (xs: number[]) => xs.reduce((s, x) => s + Math.abs(x), 0) / xs.length;
const worst = (xs: number[]) => Math.max(...xs.map(Math.abs));

for (const r of results)
  test(`Megatron-LM on GB200 ${r.g.id} (${r.a.world_size} GPUs): peak allocated of rank ${r.g.measuredRank} within 12%`, () => {
    assert.ok(
      Math.abs(r.error) <= 0.12,
      `estimate ${(r.stage.allocated / MIB).toFixed(0)} MiB vs measured ${(r.g.memMaxAllocatedBytes / MIB).toFixed(0)} MiB (${(r.error * 100).toFixed(1)}%)`,
    );
  });

test('Megatron-LM on GB200, held out: mean |error| ≤ 5%, worst ≤ 12% on the allocated peak; first iteration mean ≤ 5%', () => {
  const errs = results.map((r) => r.error);
  const firsts = results.map((r) => r.first);
  if (process.env.MEGATRON_TABLE) {
    const lines = ['| case | GPUs | measured | estimated | error | first iteration error |', '|---|---:|---:|---:|---:|---:|'];
    for (const r of results)
      lines.push(
        `| ${r.g.id} | ${r.a.world_size} | ${(r.g.memMaxAllocatedBytes / MIB).toFixed(0)} MiB | ${(r.stage.allocated / MIB).toFixed(0)} MiB | ${(r.error * 100).toFixed(1)}% | ${(r.first * 100).toFixed(1)}% |`,
      );
    const four = results.filter((r) => r.a.world_size === 4).map((r) => r.error);
    lines.push(
      '',
      `${results.length} cases: mean |error| ${(mean(errs) * 100).toFixed(2)}%, worst ${(worst(errs) * 100).toFixed(2)}%; ` +
        `4 GPUs (${four.length}): ${(mean(four) * 100).toFixed(2)}% / ${(worst(four) * 100).toFixed(2)}%; ` +
        `first iteration: ${(mean(firsts) * 100).toFixed(2)}% / ${(worst(firsts) * 100).toFixed(2)}%`,
    );
    console.log(lines.join('\n'));
  }
  assert.ok(mean(errs) <= 0.05, `mean |error| ${(mean(errs) * 100).toFixed(2)}%`);
  assert.ok(worst(errs) <= 0.12, `worst |error| ${(worst(errs) * 100).toFixed(2)}%`);
  assert.ok(mean(firsts) <= 0.05, `first iteration mean |error| ${(mean(firsts) * 100).toFixed(2)}%`);
});

test('Megatron-LM on GB200 dataset: each case paired with an H100 case, a GB200 recipe, the last rank measured', () => {
  const h100 = new Set(DATA.cases.map((c) => c.id));
  const ids = new Set<string>();
  assert.ok(GB200_DATA.cases.length >= 100);
  for (const g of GB200_DATA.cases) {
    assert.ok(!ids.has(g.id), `${g.id} once`);
    ids.add(g.id);
    assert.ok(h100.has(g.h100), g.id);
    assert.ok(g.id === g.h100 || g.id === `${g.h100}_1node`, g.id);
    assert.match(g.golden.commit, /^[0-9a-f]{40}$/);
    assert.ok(g.golden.path.endsWith('/golden_values_dev_dgx_gb200.json'), g.id);
    assert.equal(g.harness.commit, g.golden.commit);
    assert.match(g.harness.path, /^tests\/test_utils\/recipes\/(gb200\/|gpt-gb200\.yaml$)/);
    // The *_1node cases run on one node, the others on two.
    assert.equal(g.harness.nodes, g.id.endsWith('_1node') ? 1 : 2, g.id);
    assert.equal(g.harness.gpus, 4);
    assert.equal(g.measuredRank, g.harness.nodes * g.harness.gpus - 1);
    assert.ok(g.steadyFrom >= 1 && g.steadyFrom <= g.iteration, g.id);
  }
  // Both world sizes are represented: the same DP as the H100 run, and half of it.
  assert.ok(GB200_DATA.cases.some((g) => g.harness.nodes === 1) && GB200_DATA.cases.some((g) => g.harness.nodes === 2));
});
