// Megatron's rank layout (parallel_state.py RankGenerator), CP chunk assignment and the ring K/V exchange.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  kvExchangePerCpStep,
  layoutFromRecipe,
  layoutText,
  nodesOf,
  rankLayout,
  type LayoutResult,
  type RankLayout,
} from '../../src/core/layout.js';
import { EXAMPLES, recipeOf } from '../helpers.js';

const fromText = (text: string, worldSize?: number): LayoutResult =>
  layoutFromRecipe(recipeOf(text, worldSize ? { worldSize } : {}), { worldSize });
const fromFile = (name: string, worldSize?: number) => fromText(readFileSync(join(EXAMPLES, name), 'utf8'), worldSize);

test("the NeMo article's picture: 4 GPUs, TP 2, CP 2 → TP {0,1},{2,3}; CP {0,2},{1,3}", () => {
  const l = rankLayout({ tp: 2, cp: 2, ep: 1, dp: 1, pp: 1 });
  assert.equal(l.worldSize, 4);
  assert.equal(l.order, 'tp-cp-ep-dp-pp');
  assert.deepEqual(l.groups.tp, [
    [0, 1],
    [2, 3],
  ]);
  assert.deepEqual(l.groups.cp, [
    [0, 2],
    [1, 3],
  ]);
  assert.deepEqual(l.groups.dp, [[0], [1], [2], [3]]);
  assert.deepEqual(l.groups.pp, [[0], [1], [2], [3]]);
  assert.deepEqual(l.cpChunks, { 0: [0, 3], 1: [1, 2] });
});

test('TP 2 × CP 2 × DP 2 × PP 2 (default order): rank = tp + 2·cp + 4·dp + 8·pp', () => {
  const l = rankLayout({ tp: 2, cp: 2, ep: 1, dp: 2, pp: 2 });
  assert.deepEqual(l.sizes, { tp: 2, cp: 2, ep: 1, dp: 2, pp: 2 });
  assert.deepEqual(l.groups.tp, [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
    [8, 9],
    [10, 11],
    [12, 13],
    [14, 15],
  ]);
  assert.deepEqual(l.groups.cp, [
    [0, 2],
    [1, 3],
    [4, 6],
    [5, 7],
    [8, 10],
    [9, 11],
    [12, 14],
    [13, 15],
  ]);
  assert.deepEqual(l.groups.dp, [
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
    [8, 12],
    [9, 13],
    [10, 14],
    [11, 15],
  ]);
  assert.deepEqual(l.groups.pp, [
    [0, 8],
    [1, 9],
    [2, 10],
    [3, 11],
    [4, 12],
    [5, 13],
    [6, 14],
    [7, 15],
  ]);
  assert.deepEqual(
    l.groups.ep,
    l.groups.tp.flat().map((r) => [r]),
  );
});

test('use_tp_pp_dp_mapping order tp-cp-ep-pp-dp: rank = tp + 2·pp + 4·dp', () => {
  const l = rankLayout({ tp: 2, cp: 1, ep: 1, dp: 2, pp: 2, order: 'tp-cp-ep-pp-dp' });
  assert.equal(l.order, 'tp-cp-ep-pp-dp');
  assert.deepEqual(l.groups.tp, [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
  ]);
  assert.deepEqual(l.groups.pp, [
    [0, 2],
    [1, 3],
    [4, 6],
    [5, 7],
  ]);
  assert.deepEqual(l.groups.dp, [
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ]);
  // Megatron asserts the dense and expert grids share PP groups; with CP 2 and EP 1 they do not.
  assert.throws(() => rankLayout({ tp: 2, cp: 2, ep: 1, dp: 2, pp: 2, order: 'tp-cp-ep-pp-dp' }), /ETP·EP = TP·CP/);
  // With PP 1 both orders give the same groups.
  const a = rankLayout({ tp: 2, cp: 2, ep: 1, dp: 2, pp: 1, order: 'tp-cp-ep-pp-dp' });
  const b = rankLayout({ tp: 2, cp: 2, ep: 1, dp: 2, pp: 1 });
  assert.deepEqual(a.groups, b.groups);
});

test('every group holds ranks that differ only in its own coordinate', () => {
  for (const [tp, cp, dp, pp] of [
    [4, 2, 3, 2],
    [1, 8, 2, 4],
    [8, 1, 1, 3],
    [2, 3, 5, 1],
  ] as const) {
    for (const order of ['tp-cp-ep-dp-pp', 'tp-cp-ep-pp-dp'] as const) {
      if (order === 'tp-cp-ep-pp-dp' && cp > 1 && pp > 1) continue;
      const l = rankLayout({ tp, cp, ep: 1, dp, pp, order });
      const dims = order === 'tp-cp-ep-dp-pp' ? (['tp', 'cp', 'dp', 'pp'] as const) : (['tp', 'cp', 'pp', 'dp'] as const);
      const coord = (r: number) => {
        const c: Record<string, number> = {};
        for (const d of dims) {
          c[d] = r % l.sizes[d];
          r = Math.floor(r / l.sizes[d]);
        }
        return c;
      };
      for (const d of dims) {
        const seen = new Set<number>();
        for (const g of l.groups[d]) {
          assert.equal(g.length, l.sizes[d]);
          const c0 = coord(g[0]!);
          g.forEach((r, k) => {
            seen.add(r);
            const c = coord(r);
            assert.equal(c[d], k, `${order} ${d} rank ${r}`);
            for (const o of dims) if (o !== d) assert.equal(c[o], c0[o], `${order} ${d} group ${g}`);
          });
        }
        assert.equal(seen.size, l.worldSize, `${order} ${d} covers every rank once`);
      }
    }
  }
});

test('causal load balancing: with CP 4 the sequence is cut in 8 and CP rank i holds chunks i and 7−i', () => {
  const l = rankLayout({ tp: 1, cp: 4, ep: 1, dp: 1, pp: 1 });
  assert.deepEqual(l.cpChunks, { 0: [0, 7], 1: [1, 6], 2: [2, 5], 3: [3, 4] });
  assert.deepEqual(rankLayout({ tp: 1, cp: 1, ep: 1, dp: 1, pp: 1 }).cpChunks, { 0: [0, 1] });
});

test('EP groups come from the expert grid ETP × EP × expert-DP × PP (Mixtral-like)', () => {
  // 16 GPUs, TP 2, CP 2, PP 2, DP 2, EP 4 with ETP = TP: expert-DP 1, EP spans the CP×DP ranks of each TP/PP slot.
  const l = rankLayout({ tp: 2, cp: 2, ep: 4, dp: 2, pp: 2 });
  assert.deepEqual(l.expert, { etp: 2, edp: 1 });
  assert.deepEqual(l.groups.ep, [
    [0, 2, 4, 6],
    [1, 3, 5, 7],
    [8, 10, 12, 14],
    [9, 11, 13, 15],
  ]);
  const dpCp = (r: number) => [r % 2, Math.floor(r / 8)].join(); // ranks sharing tp and pp
  for (const g of l.groups.ep) assert.equal(new Set(g.map(dpCp)).size, 1);
  // Megatron MoE style ETP 1: 16 GPUs, TP 2, PP 2, DP 4, EP 4 → expert-DP 2, EP groups of 4 consecutive ranks.
  const m = rankLayout({ tp: 2, cp: 1, ep: 4, dp: 4, pp: 2, etp: 1 });
  assert.deepEqual(m.expert, { etp: 1, edp: 2 });
  assert.deepEqual(m.groups.ep, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10, 11],
    [12, 13, 14, 15],
  ]);
  assert.deepEqual(m.groups.pp, [
    [0, 8],
    [1, 9],
    [2, 10],
    [3, 11],
    [4, 12],
    [5, 13],
    [6, 14],
    [7, 15],
  ]);
  // 8 experts, EP 8 on 64 GPUs with TP 4 (ETP 4): world must divide by ETP·EP·PP.
  assert.throws(() => rankLayout({ tp: 4, cp: 1, ep: 8, dp: 4, pp: 4 }), /not divisible by ETP·EP·PP/);
});

test('16,384 ranks: every dimension covers every rank once', () => {
  const l = rankLayout({ tp: 8, cp: 8, ep: 8, dp: 64, pp: 4 });
  assert.equal(l.worldSize, 16384);
  const counts = Object.fromEntries(Object.entries(l.groups).map(([d, gs]) => [d, gs.length]));
  assert.deepEqual(counts, { tp: 2048, cp: 2048, dp: 256, pp: 4096, ep: 2048 });
  assert.equal(l.expert.edp, 64);
  for (const gs of Object.values(l.groups)) {
    const seen = new Uint8Array(l.worldSize);
    for (const g of gs) for (const r of g) seen[r]!++;
    assert.ok(seen.every((n) => n === 1));
  }
  assert.equal(Object.keys(l.cpChunks).length, 8);
  const text = layoutText(l);
  assert.match(text, /TP: 2048 groups of 8/);
  assert.match(text, /… 1984 more/);
});

test('nodesOf: ranks fill nodes in order', () => {
  assert.deepEqual(nodesOf(16, 8), [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
  assert.equal(nodesOf(16384, 8)[16383], 2047);
  assert.throws(() => nodesOf(8, 0));
});

test('ring K/V per CP step: Llama 3 8B (8 KV groups, d 128) at 128K, CP 8, TP 4', () => {
  const x = kvExchangePerCpStep({ kvHeads: 8, headDim: 128, heads: 32 }, 131072, 1, 4, 8);
  // 2 (K and V) · 16384 tokens · 1 · ⌈8/4⌉ heads · 128 · 2 bytes
  assert.equal(x.bytes, 2 * 16384 * 2 * 128 * 2);
  assert.equal(x.bytes, 16_777_216);
  assert.equal(x.mhaBytes, 67_108_864);
  assert.equal(x.shrink, 4);
  // TP wider than the KV groups still sends one head per rank.
  assert.equal(kvExchangePerCpStep({ kvHeads: 8, headDim: 128, heads: 64 }, 131072, 1, 16, 8).bytes, 2 * 16384 * 1 * 128 * 2);
});

test('layoutFromRecipe: sizes and world from the recipe, the option when the file has none', () => {
  const r = fromFile('llama3_8b_128k.yaml');
  assert.ok(r.layout, r.reason);
  assert.deepEqual([r.layout.worldSize, r.layout.sizes], [64, { tp: 4, cp: 8, ep: 1, dp: 1, pp: 2 }]);
  assert.deepEqual(r.layout.groups.cp[0], [0, 4, 8, 12, 16, 20, 24, 28]);
  const mix: RankLayout | undefined = fromFile('mixtral_8x7b_64k.yaml').layout;
  assert.deepEqual(mix?.sizes, { tp: 8, cp: 4, ep: 1, dp: 1, pp: 4 });
  // The file's world wins over the option.
  assert.equal(fromFile('llama3_8b_128k.yaml', 8).layout?.worldSize, 64);

  // The example's modeline (world_size=64) speaks for the file, as trainer.devices would, and wins over the option.
  assert.equal(fromFile('bridge_llama3_8b_128k.yaml', 128).layout?.worldSize, 64);
  const bridgeText = readFileSync(join(EXAMPLES, 'bridge_llama3_8b_128k.yaml'), 'utf8').replace(/ world_size=64/, '');
  const bridge = fromText(bridgeText);
  assert.equal(bridge.layout, undefined);
  assert.equal(bridge.layout === undefined && bridge.kind, 'world');
  assert.equal(fromText(bridgeText, 128).layout?.sizes.dp, 2);
  const bad = fromText(bridgeText, 96);
  assert.equal(bad.layout === undefined && bad.kind, 'invalid');
  assert.match(bad.reason ?? '', /not divisible by TP·PP·CP/);

  assert.equal(fromFile('trtllm_llama3_70b_serve.yaml').layout, undefined);
});

test('layoutFromRecipe: use_tp_pp_dp_mapping selects tp-cp-ep-pp-dp (NeMo model., Bridge dist.)', () => {
  const nemo =
    'trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  encoder_seq_length: 4096\n  tensor_model_parallel_size: 2\n  pipeline_model_parallel_size: 2\n  use_tp_pp_dp_mapping: True\n';
  const r = fromText(nemo);
  assert.equal(r.layout?.order, 'tp-cp-ep-pp-dp');
  assert.deepEqual(r.layout?.groups.dp, [
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ]);
  assert.equal(fromText(nemo.replace('True', 'False')).layout?.order, 'tp-cp-ep-dp-pp');
  const bridge =
    'train:\n  global_batch_size: 8\nmodel:\n  seq_length: 4096\n  tensor_model_parallel_size: 2\n  pipeline_model_parallel_size: 2\ndist:\n  use_tp_pp_dp_mapping: true\n';
  assert.equal(fromText(bridge, 8).layout?.order, 'tp-cp-ep-pp-dp');
});
