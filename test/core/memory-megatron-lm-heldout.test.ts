// Held-out check: the memory model against Megatron-LM's functional tests on other GPUs (test/data/megatron-lm-golden-
// {gb200,a100}.json). Every case runs the arguments of an H100 case of megatron-lm-golden.json (the configuration file is
// the same in every argument that can change memory) on the world size of the recipe that runs it there: on GB200 8 GPUs
// (2 nodes × 4) or 4 for the *_1node cases, which halves the data-parallel size; on A100 8. Nothing in the model was tuned
// on these values: they test the hardware-dependent terms (cuBLAS and TE workspaces per compute capability, FP8 weight
// copies on Blackwell) and the sharding over a different DP. MEGATRON_TABLE=1 prints the summaries (docs/memory-model.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GPUS } from '../../src/core/memory/gpus.js';
import { meanAbs as mean, worstAbs as worst } from '../helpers.js';
import { DATA, estimateStage, HELD_OUT, heldOutArgs } from '../megatronGolden.js';

const MIB = 2 ** 20;

/** What each platform's recipes look like: the recipe files and the nodes of a case. */
const RECIPES = {
  gb200: {
    path: /^tests\/test_utils\/recipes\/(gb200\/|gpt-gb200\.yaml$)/,
    gpus: 4,
    nodes: (id: string) => (id.endsWith('_1node') ? 1 : 2),
  },
  a100: { path: /^tests\/test_utils\/recipes\/(h100\/)?(gpt|moe|mamba)\.yaml$/, gpus: 8, nodes: () => 1 },
} as const;

for (const [platform, data] of Object.entries(HELD_OUT) as [keyof typeof HELD_OUT, (typeof HELD_OUT)[keyof typeof HELD_OUT]][]) {
  const gpu = GPUS.find((g) => g.id === data.gpu)!;
  const results = data.cases.map((g) => {
    const a = heldOutArgs(g);
    const stage = estimateStage(a, g.measuredRank, gpu);
    return {
      g,
      a,
      stage,
      error: stage.allocated / g.memMaxAllocatedBytes - 1,
      first: stage.firstIteration / g.firstIteration.memMaxAllocatedBytes - 1,
    };
  });

  for (const r of results)
    test(`Megatron-LM on ${platform} ${r.g.id} (${r.a.world_size} GPUs): peak allocated of rank ${r.g.measuredRank} within 12%`, () => {
      assert.ok(
        Math.abs(r.error) <= 0.12,
        `estimate ${(r.stage.allocated / MIB).toFixed(0)} MiB vs measured ${(r.g.memMaxAllocatedBytes / MIB).toFixed(0)} MiB (${(r.error * 100).toFixed(1)}%)`,
      );
    });

  test(`Megatron-LM on ${platform}, held out: mean |error| ≤ 5%, worst ≤ 12% on the allocated peak; first iteration mean ≤ 5%`, () => {
    const errs = results.map((r) => r.error);
    const firsts = results.map((r) => r.first);
    if (process.env.MEGATRON_TABLE) {
      const small = results.filter((r) => r.a.world_size < 8).map((r) => r.error);
      console.log(
        `${platform}: ${results.length} cases: mean |error| ${(mean(errs) * 100).toFixed(2)}%, worst ${(worst(errs) * 100).toFixed(2)}%` +
          (small.length ? `; 4 GPUs (${small.length}): ${(mean(small) * 100).toFixed(2)}% / ${(worst(small) * 100).toFixed(2)}%` : '') +
          `; first iteration: ${(mean(firsts) * 100).toFixed(2)}% / ${(worst(firsts) * 100).toFixed(2)}%`,
      );
    }
    assert.ok(mean(errs) <= 0.05, `mean |error| ${(mean(errs) * 100).toFixed(2)}%`);
    assert.ok(worst(errs) <= 0.12, `worst |error| ${(worst(errs) * 100).toFixed(2)}%`);
    assert.ok(mean(firsts) <= 0.05, `first iteration mean |error| ${(mean(firsts) * 100).toFixed(2)}%`);
  });

  test(`Megatron-LM on ${platform} dataset: each case paired with an H100 case and a recipe, the last rank measured`, () => {
    const h100 = new Set(DATA.cases.map((c) => c.id));
    const ids = new Set<string>();
    const recipe = RECIPES[platform];
    assert.ok(data.cases.length >= 70);
    for (const g of data.cases) {
      assert.ok(!ids.has(g.id), `${g.id} once`);
      ids.add(g.id);
      assert.ok(h100.has(g.h100), g.id);
      assert.ok(g.id === g.h100 || g.id === `${g.h100}_1node`, g.id);
      assert.match(g.golden.commit, /^[0-9a-f]{40}$/);
      assert.ok(g.golden.path.endsWith(`/golden_values_dev_dgx_${platform}.json`), g.id);
      assert.equal(g.harness.commit, g.golden.commit);
      assert.match(g.harness.path, recipe.path, g.id);
      assert.equal(g.harness.gpus, recipe.gpus, g.id);
      assert.equal(g.harness.nodes, recipe.nodes(g.id), g.id);
      assert.equal(g.measuredRank, g.harness.nodes * g.harness.gpus - 1);
      assert.ok(g.steadyFrom >= 1 && g.steadyFrom <= g.iteration, g.id);
    }
    for (const x of data.excluded) {
      assert.ok(x.reason.length > 20 && !ids.has(x.id), x.id);
      assert.ok(x.golden.path.endsWith(`/golden_values_dev_dgx_${platform}.json`), x.id);
    }
  });
}
