// The planning panel: the message protocol's validator, each section's view model on real files, the CSP of the
// webview page, and file text that looks like markup staying plain data.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { applyEdits } from '../../src/core/edit.js';
import { panelCsp, panelHtml } from '../../src/core/panel/html.js';
import { buildSections, type PanelInput } from '../../src/core/panel/index.js';
import { PLAN_TOP, type PlanState } from '../../src/core/panel/planner.js';
import { analyze } from '../../src/core/analysis.js';
import { findGpu } from '../../src/core/memory/gpus.js';
import { configCost, plan } from '../../src/core/plan/plan.js';
import { MAX_CELLS } from '../../src/core/panel/rankGrid.js';
import { DEFAULT_UI, parseHostMessage, parseWebviewMessage, PROTOCOL_VERSION, type FromWebview, type UiState } from '../../src/protocol.js';
import { analyzeText, CORPUS, estimateOf, EXAMPLES, REPO, rel, yamlFiles } from '../helpers.js';
import { gib } from '../../src/core/units.js';

const URI = 'file:///work/recipe.yaml';

function panel(
  text: string,
  ui: Partial<UiState> = {},
  opts: { worldSize?: number; page?: number | 'rank'; plan?: PlanState; docVersion?: number } = {},
) {
  const input: PanelInput = {
    uri: URI,
    fileName: 'recipe.yaml',
    docVersion: opts.docVersion ?? 7,
    analysis: analyze(text, opts.worldSize ? { worldSize: opts.worldSize } : {}),
    ui: { ...structuredClone(DEFAULT_UI), uri: URI, ...ui },
    layoutPage: opts.page ?? 'rank',
    plan: opts.plan,
  };
  return buildSections(input);
}
const example = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');
const LLAMA_128K = example('llama3_8b_128k.yaml');
const layoutUi = (worldSize: number | null, mode: 'all' | 'node' | 'replica' = 'all', page = 0) => ({ layout: { worldSize, mode, page } });

// ---- protocol -----------------------------------------------------------------------------------------

const v = PROTOCOL_VERSION;
const VALID: FromWebview[] = [
  { v, type: 'ready', ui: null },
  {
    v,
    type: 'ready',
    ui: {
      uri: URI,
      gpu: 'h200',
      whatIf: { cp: 4, recompute: 'full', precision: 'nvfp4' },
      rank: 5,
      layout: { worldSize: null, mode: 'all', page: 0 },
    },
  },
  { v, type: 'selectGpu', gpu: 'a100-80gb' },
  { v, type: 'selectGpu', gpu: 'custom:96' },
  { v, type: 'preview', values: {} },
  {
    v,
    type: 'preview',
    values: { cp: 8, tp: 4, pp: 2, vpp: 1, microBatch: 2, seq: 131072, recompute: 'off', offloadLayers: 0, precision: 'fp8-delayed' },
  },
  { v, type: 'apply', uri: URI, docVersion: 12 },
  { v, type: 'selectRank', rank: 4095 },
  { v, type: 'layoutView', view: { worldSize: 8192, mode: 'replica', page: 3 } },
  { v, type: 'preview', values: { ep: 8, etp: 1, sp: true, tp: 2 } },
  { v, type: 'preview', values: { sp: false } },
  { v, type: 'plan' },
  { v, type: 'plan', gpus: 128 },
  { v, type: 'applyCandidate', uri: URI, planId: 3, index: 0, docVersion: 12 },
  { v, type: 'applyCandidate', uri: URI, planId: 0, index: 63, docVersion: 0 },
];

test('protocol: every valid webview message is accepted unchanged', () => {
  for (const m of VALID) {
    const r = parseWebviewMessage(structuredClone(m));
    assert.ok(r.ok, `${m.type}: ${!r.ok && r.error}`);
    assert.deepEqual(r.msg, m);
  }
  // A plain object made in another realm (a message cloned into the webview's page) is plain too.
  const foreign: unknown = runInNewContext('({ v: 3, type: "preview", values: { cp: 4 } })');
  assert.notEqual(Object.getPrototypeOf(foreign), Object.prototype);
  assert.deepEqual(parseWebviewMessage(foreign), { ok: true, msg: { v, type: 'preview', values: { cp: 4 } } });
});

test('protocol: malformed, unknown, wrong-version and over-nested messages are rejected with the path and the rule broken', () => {
  const bad: [unknown, string][] = [
    [null, 'message is not an object'],
    ['ready', 'message is not an object'],
    [[{ v, type: 'ready', ui: null }], 'message is not an object'],
    [{ type: 'ready', ui: null }, 'unsupported protocol version undefined (expected 3)'],
    [{ v: 4, type: 'ready', ui: null }, 'unsupported protocol version 4 (expected 3)'],
    [{ v: 1, type: 'ready', ui: null }, 'unsupported protocol version 1 (expected 3)'],
    [{ v: '1', type: 'ready', ui: null }, 'unsupported protocol version "1" (expected 3)'],
    [{ v, type: 'hack' }, 'unknown message type "hack"'],
    [{ v, type: 'ready' }, 'ready: missing "ui"'],
    [{ v, type: 'ready', ui: null, extra: 1 }, 'ready: unexpected key "extra"'],
    [{ v, type: 'selectRank', rank: -1 }, 'rank must be an integer in 0…16777216'],
    [{ v, type: 'selectRank', rank: 1.5 }, 'rank must be an integer in 0…16777216'],
    [{ v, type: 'selectRank', rank: '3' }, 'rank must be an integer in 0…16777216'],
    [{ v, type: 'selectRank', rank: { n: 3 } }, 'rank must be an integer in 0…16777216'],
    [{ v, type: 'selectGpu', gpu: 'h100"><script>' }, 'gpu is not a GPU id'],
    [{ v, type: 'selectGpu', gpu: ['h100'] }, 'gpu must be a string of at most 48 characters'],
    [{ v, type: 'preview', values: { cp: 0 } }, 'values.cp must be an integer in 1…1048576'],
    [{ v, type: 'preview', values: { cp: 2 ** 40 } }, 'values.cp must be an integer in 1…1048576'],
    [{ v, type: 'preview', values: { cp: '8' } }, 'values.cp must be an integer in 1…1048576'],
    [{ v, type: 'preview', values: { cp: { value: 8 } } }, 'values.cp must be an integer in 1…1048576'],
    [{ v, type: 'preview', values: { gpu: 'h100' } }, 'values: unexpected key "gpu"'],
    [
      { v, type: 'preview', values: { precision: 'fp2' } },
      'values.precision must be one of bf16, fp16, fp8-delayed, fp8-tensorwise, fp8-blockwise, fp8-mxfp8, nvfp4',
    ],
    [{ v, type: 'preview', values: { recompute: 'sometimes' } }, 'values.recompute must be one of off, selective, full'],
    [{ v, type: 'preview', values: [8] }, 'values is not an object'],
    [{ v, type: 'preview', values: { nested: { cp: 8 } } }, 'values: unexpected key "nested"'],
    [{ v, type: 'apply', uri: URI }, 'apply: missing "docVersion"'],
    [{ v, type: 'apply', uri: URI, docVersion: NaN }, 'docVersion must be an integer in 0…9007199254740991'],
    [{ v, type: 'layoutView', view: { worldSize: 64, mode: 'zoom', page: 0 } }, 'view.mode must be one of all, node, replica'],
    [{ v, type: 'layoutView', view: { worldSize: 64, mode: 'node', page: 0, extra: true } }, 'view: unexpected key "extra"'],
    [{ v, type: 'ready', ui: { ...DEFAULT_UI, rank: 0, extra: 1 } }, 'ui: unexpected key "extra"'],
    [{ v, type: 'ready', ui: { ...DEFAULT_UI, whatIf: { tp: [4] } } }, 'ui.whatIf.tp must be an integer in 1…1048576'],
    [JSON.parse(`{"v":${v},"type":"selectRank","rank":1,"__proto__":{"polluted":true}}`), 'selectRank: unexpected key "__proto__"'],
    [Object.assign(new (class Msg {})(), { v, type: 'ready', ui: null }), 'message is not a plain object'],
    [{ v, type: 'preview', values: { sp: 'true' } }, 'values.sp must be true or false'],
    [{ v, type: 'preview', values: { sp: 1 } }, 'values.sp must be true or false'],
    [{ v, type: 'preview', values: { ep: 0 } }, 'values.ep must be an integer in 1…1048576'],
    [{ v, type: 'preview', values: { etp: 2.5 } }, 'values.etp must be an integer in 1…1048576'],
    [{ v, type: 'plan', gpus: 0 }, 'gpus must be an integer in 1…1048576'],
    [{ v, type: 'plan', gpus: '64' }, 'gpus must be an integer in 1…1048576'],
    [{ v, type: 'plan', gpus: 64.5 }, 'gpus must be an integer in 1…1048576'],
    [{ v, type: 'plan', gpus: 2 ** 21 }, 'gpus must be an integer in 1…1048576'],
    [{ v, type: 'plan', gpus: null }, 'gpus must be an integer in 1…1048576'],
    [{ v, type: 'plan', gpu: 'h100' }, 'plan: unexpected key "gpu"'],
    [{ v, type: 'plan', gpus: 64, top: 100 }, 'plan: unexpected key "top"'],
    [{ type: 'plan' }, 'unsupported protocol version undefined (expected 3)'],
    [{ v, type: 'applyCandidate', uri: URI, index: 0, docVersion: 1 }, 'applyCandidate: missing "planId"'],
    [{ v, type: 'applyCandidate', uri: URI, planId: 1, docVersion: 1 }, 'applyCandidate: missing "index"'],
    [{ v, type: 'applyCandidate', uri: URI, planId: 1, index: 0 }, 'applyCandidate: missing "docVersion"'],
    [{ v, type: 'applyCandidate', planId: 1, index: 0, docVersion: 1 }, 'applyCandidate: missing "uri"'],
    [{ v, type: 'applyCandidate', uri: URI, planId: 1, index: 64, docVersion: 1 }, 'index must be an integer in 0…63'],
    [{ v, type: 'applyCandidate', uri: URI, planId: 1, index: -1, docVersion: 1 }, 'index must be an integer in 0…63'],
    [{ v, type: 'applyCandidate', uri: URI, planId: 1, index: '0', docVersion: 1 }, 'index must be an integer in 0…63'],
    [{ v, type: 'applyCandidate', uri: URI, planId: -1, index: 0, docVersion: 1 }, 'planId must be an integer in 0…9007199254740991'],
    [{ v, type: 'applyCandidate', uri: URI, planId: 1, index: 0, docVersion: '7' }, 'docVersion must be an integer in 0…9007199254740991'],
    [
      { v, type: 'applyCandidate', uri: 'x'.repeat(4097), planId: 1, index: 0, docVersion: 1 },
      'uri must be a string of at most 4096 characters',
    ],
    [{ v, type: 'applyCandidate', uri: URI, planId: 1, index: 0, docVersion: 1, edits: [] }, 'applyCandidate: unexpected key "edits"'],
    [{ v, type: 'applyCandidate', uri: URI, planId: 1, index: { n: 0 }, docVersion: 1 }, 'index must be an integer in 0…63'],
    // Values JSON cannot write (a structured clone can carry them) are refused, not thrown on.
    [{ v: 2n, type: 'plan' }, 'unsupported protocol version bigint (expected 3)'],
    [{ v, type: 'selectRank', rank: 5n }, 'rank must be an integer in 0…16777216'],
    [{ v, type: 'preview', values: new Map([['cp', 2]]) }, 'values is not a plain object'],
    [{ v, type: 'selectRank', rank: new Date(0) }, 'rank must be an integer in 0…16777216'],
    // Whatever the peer sends, the reason stays short.
    [{ v, type: 'x'.repeat(100_000) }, `unknown message type "${'x'.repeat(40)}"`],
    [{ v, type: 'selectRank', rank: 1, ['k'.repeat(100_000)]: 1 }, `selectRank: unexpected key "${'k'.repeat(40)}"`],
    [
      { v: 'v'.repeat(100_000), type: 'plan' },
      `unsupported protocol version ${JSON.stringify('v'.repeat(100_000)).slice(0, 20)} (expected 3)`,
    ],
  ];
  for (const [raw, why] of bad) {
    const r = parseWebviewMessage(raw);
    assert.deepEqual(r, { ok: false, error: why }, why);
  }
});

// ---- memory section -----------------------------------------------------------------------------------

test('memory (llama3_8b_128k): most-loaded stage against the H100, breakdown, per-stage bars, assumptions', () => {
  const m = panel(LLAMA_128K).sections.memory!;
  assert.equal(m.kind, 'training');
  assert.equal(m.caption, 'most-loaded rank: PP stage 0 of 2');
  assert.equal(m.verdict, 'fits');
  assert.equal(m.verdictText, 'fits: stage 0 needs 28.53 GiB of 79.18 GiB (36.0%)');
  assert.equal(m.bar.text, '28.53 / 79.18 GiB');
  assert.deepEqual(
    m.bar.segments.map((s) => [s.category, s.text]),
    [
      ['weights', '1.87 GiB (6.6%)'],
      ['gradients', '3.74 GiB (13.1%)'],
      ['optimizer', '1.40 GiB (4.9%)'],
      ['activations', '17.02 GiB (59.7%)'],
      ['transient', '0.34 GiB (1.2%)'],
      ['overhead', '4.15 GiB (14.6%)'],
    ],
  );
  // Segments are laid end to end on a scale of the capacity (the estimate fits, so the capacity line is at 100%).
  assert.equal(m.bar.capacityX, 100);
  for (let i = 1; i < m.bar.segments.length; i++) {
    const [a, b] = [m.bar.segments[i - 1]!, m.bar.segments[i]!];
    assert.ok(Math.abs(a.x + a.w - b.x) < 0.002);
  }
  assert.deepEqual(m.rows[3], {
    label: 'transformer layers (16 layers × 2 micro-batches in flight)',
    category: 'activations',
    gib: '17.02 GiB',
    pct: '59.7%',
    formula: 'per layer 0.53 GiB (dense) at s = 16384, b = 1',
    source: 'memory.md §2.4 inventory; Megatron-Core layer modules; schedules.py',
  });
  assert.deepEqual(m.total, { gib: '28.53 GiB', pct: '100%' });
  assert.deepEqual(
    m.stages.map((s) => [s.label, s.text, s.peak ?? false]),
    [
      ['stage 0 (16 layers)', '28.53 / 79.18 GiB', true],
      ['stage 1 (16 layers)', '24.66 / 79.18 GiB', false],
    ],
  );
  assert.equal(m.gpu.id, 'h100');
  assert.equal(m.gpuOptions.length, 11);
  assert.ok(m.assumptions.some((a) => a.what === 'vocab = 128256' && a.provenance === 'tokenizer'));
});

test('memory: the GPU picker re-estimates (H200 and a custom size), the file stays the same', () => {
  const m = panel(LLAMA_128K, { gpu: 'h200' }).sections.memory!;
  assert.equal(m.gpu.id, 'h200');
  assert.equal(m.bar.text, '28.53 / 139.80 GiB');
  assert.equal(m.verdictText, 'fits: stage 0 needs 28.53 GiB of 139.80 GiB (20.4%)');
  const small = panel(LLAMA_128K, { gpu: 'custom:24' }).sections.memory!;
  assert.equal(small.verdict, 'does-not-fit');
  assert.equal(small.bar.capacityX, 84.135); // 24 GiB of 28.53: the bar runs past the capacity line
  assert.equal(small.gpuOptions[small.gpuOptions.length - 1]!.value, 'custom:24');
});

test('memory (TensorRT-LLM options): weights, KV pool and runtime per GPU of the TP 4 server', () => {
  const m = panel(example('trtllm_llama3_70b_serve.yaml')).sections.memory!;
  assert.equal(m.kind, 'serving');
  assert.equal(m.caption, 'per GPU (server: TP 4)');
  assert.deepEqual(
    m.bar.segments.map((s) => [s.category, s.text]),
    [
      ['weights', '32.86 GiB (45.3%)'],
      ['kv', '37.40 GiB (51.5%)'],
      ['overhead', '2.33 GiB (3.2%)'],
    ],
  );
  assert.equal(m.verdictText, 'fits: weights and runtime take 35.18 GiB of 79.18 GiB; the KV pool gets 37.40 GiB');
  assert.deepEqual(m.stages, []);
});

// ---- layout section -----------------------------------------------------------------------------------

test("layout (llama3_8b_128k): Megatron's order on 8 nodes of 8; rank 0's groups; the CP ring and its 16 chunks", () => {
  const l = panel(LLAMA_128K).sections.layout!;
  assert.equal(l.reason, null);
  assert.equal(l.caption, 'TP 4 × CP 8 × DP 1 × PP 2 = 64 GPUs on 8 nodes of 8 · order tp-cp-ep-dp-pp');
  assert.deepEqual(
    l.summary.map((s) => [s.dim, s.size, s.groups]),
    [
      ['TP', 4, 16],
      ['CP', 8, 8],
      ['DP', 1, 64],
      ['PP', 2, 32],
      ['nodes', 8, 8],
    ],
  );
  assert.equal(l.view.mode, 'all');
  assert.deepEqual(
    l.boxes.map((b) => [b.label, b.cells.length]),
    Array.from({ length: 8 }, (_, n) => [`node ${n} · ranks ${8 * n}–${8 * n + 7}`, 8]),
  );
  assert.deepEqual(l.selected!.groups, [
    { dim: 'tp', text: 'TP group 0: 0, 1, 2, 3' },
    { dim: 'cp', text: 'CP group 0: 0, 4, 8, 12, 16, 20, 24, 28' },
    { dim: 'dp', text: 'DP 1: no group' },
    { dim: 'pp', text: 'PP group 0: 0, 32' },
  ]);
  const rel = Object.fromEntries(l.boxes.flatMap((b) => b.cells).map((c) => [c.rank, c.rel]));
  assert.deepEqual([rel[0], rel[1], rel[3], rel[4], rel[28], rel[32], rel[33], rel[5]], ['self', 'tp', 'tp', 'cp', 'cp', 'pp', '', '']);
  // CP rank i holds chunks i and 2·CP−1−i.
  const cp = l.cp!;
  assert.deepEqual(
    cp.members.map((m) => [m.rank, m.cpIndex, m.chunks]),
    [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [4 * i, i, [i, 15 - i]]),
  );
  assert.deepEqual(
    cp.chunks.map((c) => c.owner),
    [0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0],
  );
  // 2 (K, V) · 16384 tokens · ⌈8/4⌉ KV heads · 128 · 2 B = 16 MiB; MHA would carry 32/8 = 4× more.
  assert.equal(
    cp.exchange,
    '16.00 MiB of K and V per rank per CP step: 2 (K, V) × 16,384 tokens × 2 KV heads per TP rank × 128 × 2 B × micro-batch 1; 7 ring steps per attention forward',
  );
  assert.equal(cp.exchangeDetail, 'GQA: 8 KV heads for 32 query heads, so the ring carries 4× less than MHA would (64.00 MiB per step).');
});

test('layout: selecting rank 5 highlights its TP, CP and PP groups', () => {
  const l = panel(LLAMA_128K, { rank: 5 }).sections.layout!;
  assert.equal(l.selected!.text, 'rank 5: TP 1 · CP 1 · DP 0 · PP 0 · node 0, GPU 5');
  assert.deepEqual(
    l.selected!.groups.map((g) => g.text),
    ['TP group 1: 4, 5, 6, 7', 'CP group 1: 1, 5, 9, 13, 17, 21, 25, 29', 'DP 1: no group', 'PP group 5: 5, 37'],
  );
  assert.deepEqual(
    l.cp!.members.find((m) => m.self),
    { rank: 5, cpIndex: 1, chunks: [1, 14], self: true, text: 'rank 5 (CP 1) holds chunks 1 and 14' },
  );
});

test('layout: thousands of ranks are summarised and paged, never more than MAX_CELLS cells', () => {
  const byNode = panel(LLAMA_128K, { ...layoutUi(8192, 'node'), rank: 5000 }).sections.layout!;
  assert.equal(byNode.caption, 'TP 4 × CP 8 × DP 128 × PP 2 = 8,192 GPUs on 1,024 nodes of 8 · order tp-cp-ep-dp-pp');
  assert.deepEqual(byNode.view, {
    mode: 'node',
    page: 19,
    pages: 32,
    caption: 'ranks 4,864–5,119 (nodes 608–639 of 1024)',
    modes: [
      { value: 'node', label: 'by node' },
      { value: 'replica', label: 'by DP replica' },
    ],
  });
  assert.equal(byNode.boxes.flatMap((b) => b.cells).length, MAX_CELLS);
  assert.equal(byNode.selected!.groups[2]!.text, 'DP group 40: 4104, 4136, 4168, …, 8168 (128 ranks, stride 32)');
  const replica = panel(LLAMA_128K, { ...layoutUi(8192, 'replica'), rank: 5000 }).sections.layout!;
  assert.equal(replica.view.pages, 128);
  assert.equal(replica.view.caption, 'the model replica at DP index 28 (64 ranks = TP × CP × PP; 128 replicas)');
  const ranks = replica.boxes.flatMap((b) => b.cells.map((c) => c.rank));
  assert.equal(ranks.length, 64);
  assert.ok(ranks.includes(5000));
  // Every rank of one replica differs from the others in TP, CP or PP only.
  assert.ok(replica.boxes.flatMap((b) => b.cells).every((c) => / DP 28 /.test(c.coords)));
  const huge = panel(LLAMA_128K, layoutUi(131072, 'replica')).sections.layout!;
  assert.ok(huge.boxes.flatMap((b) => b.cells).length <= MAX_CELLS);
});

test('layout: a world size that TP·PP·CP does not divide is explained, with other GPU counts to pick', () => {
  const l = panel(LLAMA_128K, layoutUi(96)).sections.layout!;
  assert.equal(l.reason, 'RL-R1: world size 96 is not divisible by TP·PP·CP = 4·2·8 = 64; pick another GPU count.');
  assert.deepEqual(l.boxes, []);
  assert.deepEqual(
    l.worldSizeChoices.slice(0, 3).map((c) => c.value),
    ['64', '96', '128'],
  );
});

test('layout (corpus launcher recipe, MoE): Mixtral 8x7B with EP 8 on 64 GPUs', () => {
  const l = panel(readFileSync(join(CORPUS, 'NeMo-Framework-Launcher', 'mixtral_8x7b.yaml'), 'utf8')).sections.layout!;
  assert.equal(l.caption, 'TP 1 × CP 1 × DP 16 × PP 4 (EP 8) = 64 GPUs on 8 nodes of 8 · order tp-cp-ep-dp-pp');
  assert.deepEqual(
    l.selected!.groups.map((g) => g.text),
    [
      'TP 1: no group',
      'CP 1: no group',
      'DP group 0: 0–15 (16 ranks)',
      'PP group 0: 0, 16, 32, 48',
      'EP group 0: 0, 1, 2, 3, 4, 5, 6, 7 (expert grid ETP 1 × EP 8 × EDP 2 × PP 4)',
    ],
  );
  assert.equal(l.cp, null);
  const m = panel(readFileSync(join(CORPUS, 'NeMo-Framework-Launcher', 'llama3_8b.yaml'), 'utf8')).sections;
  assert.equal(m.layout!.caption, 'TP 1 × CP 2 × DP 64 × PP 1 = 128 GPUs on 16 nodes of 8 · order tp-cp-ep-dp-pp');
  assert.equal(m.memory!.verdictText, 'tight: each GPU needs 77.43 GiB of 79.18 GiB (97.8%)');
});

test('layout: a Megatron-Bridge override without a world size asks for one, then draws the chosen one', () => {
  // The example's modeline names its 256 GPUs; without it the override says nothing about the world.
  assert.equal(panel(example('bridge_llama3_70b_64k.yaml')).sections.layout!.worldSize, 256);
  const text = example('bridge_llama3_70b_64k.yaml').replace(/ world_size=\d+/, '');
  const none = panel(text).sections.layout!;
  assert.match(none.reason!, /^World size unknown/);
  assert.deepEqual(none.worldSizeChoices[0], { value: '', label: 'pick a GPU count' });
  const chosen = panel(text, layoutUi(512)).sections.layout!;
  assert.equal(chosen.reason, null);
  assert.equal(chosen.worldSize, 512);
  assert.equal(chosen.view.mode, 'node');
});

// ---- quantization section -----------------------------------------------------------------------------

test('quantization (llama3_8b_128k): BF16 facts and the file re-estimated under FP8, MXFP8 and NVFP4', () => {
  const q = panel(LLAMA_128K).sections.quant!;
  assert.equal(q.title, 'BF16 mixed precision');
  assert.deepEqual(q.facts[0], { label: 'element format', value: 'BF16 (E8M7)' });
  assert.deepEqual(
    q.comparison.map((r) => [r.label, r.cells[0], r.cells[3], r.current]),
    [
      ['BF16 (file)', '28.53 GiB', '—', true],
      ['FP8 delayed', '27.84 GiB', '−0.69 GiB', false],
      ['MXFP8', '28.01 GiB', '−0.52 GiB', false],
      ['NVFP4', '26.11 GiB', '−2.41 GiB', false],
    ],
  );
});

test('quantization: an NVFP4 what-if shows E2M1, 16-value blocks, RHT, stochastic rounding and the BF16 layers', () => {
  const text = example('bridge_llama3_8b_128k.yaml').replace(/^mixed_precision:.*$/m, '') + '\nmixed_precision: bf16_with_nvfp4_mixed\n';
  const q = panel(text, {}, { worldSize: 64 }).sections.quant!;
  assert.equal(q.title, 'NVFP4');
  assert.deepEqual(q.facts.slice(0, 4), [
    { label: 'element format', value: 'E2M1 (±6)' },
    { label: 'block', value: '1×16 activations and gradients, 16×16 weights' },
    { label: 'scale', value: 'E4M3 per block + one FP32 per tensor' },
    { label: 'bits per value', value: '4.5 (scales included)' },
  ]);
  assert.ok(q.notes.some((n) => /Random Hadamard transforms/.test(n)));
  assert.ok(q.notes.some((n) => /Stochastic rounding on gradients only/.test(n)));
  assert.ok(
    q.notes.includes("In this model: about 5 of 32 layers' linears stay BF16; the estimate counts 15% of the linear bytes at BF16."),
  );
  assert.match(q.summary, /^NVFP4 saves [\d.]+ GiB on the most-loaded rank against BF16/);
});

test('quantization (TensorRT-LLM): FP8 KV cache at 40,960 B per token per GPU against 81,920 in BF16', () => {
  const q = panel(example('trtllm_llama3_70b_serve.yaml')).sections.quant!;
  assert.equal(q.title, 'BF16 weights · fp8 KV cache');
  assert.deepEqual(q.kv, [
    { label: 'KV cache dtype', value: 'fp8' },
    { label: 'bytes per token', value: '40,960 B (40.0 KiB) per GPU' },
    { label: 'in BF16', value: '81,920 B per token: the same pool would hold 490,144 tokens instead of 980,298' },
  ]);
});

// ---- KV cache section ---------------------------------------------------------------------------------

test('KV cache (TensorRT-LLM): bytes per token, block size, pool tokens and requests of max_seq_len', () => {
  const k = panel(example('trtllm_llama3_70b_serve.yaml')).sections.kv!;
  assert.equal(k.kind, 'serving');
  assert.equal(k.groups[0]!.title, 'server: TP 4');
  assert.deepEqual(k.groups[0]!.rows, [
    { label: 'bytes per token', value: '40,960 B = 2 (K and V) × 80 layers × 2 KV heads × 128 × 1 B fp8' },
    { label: 'block', value: '32 tokens = 1.25 MiB' },
    { label: 'free after weights and runtime', value: '43.99 GiB × free_gpu_memory_fraction 0.85' },
    { label: 'pool', value: '37.40 GiB = 980,298 tokens = 30,634 blocks (limited by free_gpu_memory_fraction)' },
    { label: 'requests of max_seq_len 131,072', value: '7 (4,096 blocks each)' },
    { label: 'host tier', value: '48.00 GiB = 1,258,291 tokens = 39,321 blocks' },
  ]);
  assert.equal(k.timeline, null);
});

test('KV cache (retention): timeline by priority, decode dropped below 30, eviction order lowest first', () => {
  const k = panel(example('retention_system_prompt.yaml')).sections.kv!;
  assert.equal(k.kind, 'retention');
  const t = k.timeline!;
  assert.deepEqual(
    t.ranges.map((r) => [r.label, r.x, r.w, r.level, r.open, r.dropped]),
    [
      ['[0, 1,024) priority 100', 0, 68.8, 5, false, false],
      ['[1,024, end) priority 35', 68.8, 17.2, 3, true, false],
      ['decode priority 20', 88, 12, 0, false, true],
    ],
  );
  assert.equal(t.ranges[0]!.detail, 'range 0: 32 blocks (0–31); no expiry; copied to the host tier when evicted');
  assert.equal(
    t.ranges[2]!.detail,
    'generated tokens: priority for 30,000 ms, then 35; dropped when evicted (below secondary_offload_min_priority 30)',
  );
  assert.equal(t.blocks.length, 39); // 40 blocks of 32 tokens on the drawn axis (1,280 tokens)
  assert.deepEqual(
    k.eviction.map((e) => [e.order, e.text, e.dropped]),
    [
      [1, 'priority 20 (for 30,000 ms, then 35): generated (decode) tokens — dropped, not offloaded', true],
      [2, 'priority 35: prompt [1,024, end): blocks 32–end', false],
      [3, 'priority 100: prompt [0, 1,024): 32 blocks (0–31)', false],
    ],
  );
});

// ---- what-if section ----------------------------------------------------------------------------------

test('what-if: no change, no preview; controls carry the file values', () => {
  const w = panel(LLAMA_128K).sections.whatIf!;
  assert.equal(w.preview, null);
  assert.equal(w.canApply, false);
  assert.deepEqual(
    w.fields.map((f) => [f.key, f.file]),
    [
      ['cp', '8'],
      ['tp', '4'],
      ['pp', '2'],
      ['vpp', '1'],
      ['microBatch', '1'],
      ['seq', '131072'],
      ['recompute', 'off'],
      ['offloadLayers', '0'],
      ['precision', 'bf16'],
    ],
  );
  // A value set back to the file's is no change.
  assert.equal(panel(LLAMA_128K, { whatIf: { cp: 8, tp: 4 } }).sections.whatIf!.preview, null);
});

test('what-if: CP 3 breaks R1 and R3, offload with PP 2 breaks R11; Apply is refused', () => {
  const w = panel(LLAMA_128K, { whatIf: { cp: 3, offloadLayers: 4 } }).sections.whatIf!;
  assert.deepEqual(
    w.conflicts.map((c) => [c.code, c.severity, c.message]),
    [
      ['RL-R1', 'error', 'world size 64 is not divisible by TP·PP·CP = 4·2·3 = 24'],
      [
        'RL-R3',
        'error',
        'seq 131072 is not a multiple of 2·CP = 6 (context parallelism splits the sequence into 2·CP load-balanced chunks)',
      ],
      ['RL-R11', 'error', 'CPU offloading does not support pipeline parallelism (PP = 2)'],
      [
        'estimate',
        'info',
        'the estimate ignores the 4 offloaded layers: CPU offloading works only with PP 1 and without recompute (RL-R11)',
      ],
    ],
  );
  assert.equal(w.canApply, false);
  assert.equal(w.applyNote, 'Apply is off: 3 conflicts to resolve first.');
  const r11 = panel(LLAMA_128K, { whatIf: { pp: 1, offloadLayers: 4, recompute: 'full' } }).sections.whatIf!;
  assert.ok(r11.conflicts.some((c) => c.message === 'CPU offloading does not work when activation recomputation is enabled (full)'));
});

test('what-if: CP 16 previews halved activations and explains that 64 GPUs no longer divide', () => {
  const out = panel(LLAMA_128K, { whatIf: { cp: 16 } });
  const w = out.sections.whatIf!;
  assert.equal(w.preview!.verdictText, 'fits: 18.21 GiB of 79.18 GiB (−10.32 GiB against the file)');
  assert.deepEqual(
    w.preview!.deltas.find((d) => d.label === 'activations'),
    { label: 'activations', from: '17.02', to: '8.51', delta: '−8.51' },
  );
  assert.deepEqual(
    w.conflicts.map((c) => c.code),
    ['RL-R1'],
  );
  // The layout section follows the preview: 4·2·16 = 128 does not divide 64.
  assert.match(out.sections.layout!.reason!, /^RL-R1: world size 64 is not divisible by TP·PP·CP = 4·2·16 = 128/);
});

test('what-if: Apply writes only the changed keys, comments and formatting kept, one edit per key', () => {
  const out = panel(LLAMA_128K, { whatIf: { seq: 65536, recompute: 'full', precision: 'fp8-delayed' } });
  const w = out.sections.whatIf!;
  assert.equal(w.canApply, true);
  assert.equal(w.docVersion, 7);
  assert.deepEqual(w.changes, [
    { path: 'model.encoder_seq_length', from: '131072', to: '65536' },
    { path: 'model.activations_checkpoint_granularity', from: 'null', to: 'full' },
    { path: 'model.activations_checkpoint_method', from: 'null', to: 'uniform' },
    { path: 'model.activations_checkpoint_num_layers', from: 'null', to: '1' },
    { path: 'model.fp8', from: 'false', to: 'true' },
  ]);
  const after = applyEdits(LLAMA_128K, out.edits!);
  const changed = LLAMA_128K.split('\n')
    .map((line, i) => [line, after.split('\n')[i]])
    .filter(([a, b]) => a !== b);
  assert.deepEqual(changed, [
    ['  encoder_seq_length: 131072', '  encoder_seq_length: 65536'],
    ['  fp8: False', '  fp8: True'],
    ['  activations_checkpoint_granularity: null', '  activations_checkpoint_granularity: full'],
    ['  activations_checkpoint_method: null', '  activations_checkpoint_method: uniform'],
    ['  activations_checkpoint_num_layers: null', '  activations_checkpoint_num_layers: 1'],
  ]);
  // The written file estimates what the preview showed.
  const re = panel(after).sections.memory!;
  assert.equal(re.bar.text, w.preview!.bar.text);
});

test('what-if: precision a NeMo 1.x file cannot express is explained, not written', () => {
  const w = panel(LLAMA_128K, { whatIf: { precision: 'nvfp4' } }).sections.whatIf!;
  assert.deepEqual(w.conflicts[0], {
    code: 'write',
    severity: 'error',
    message: 'NVFP4: a NeMo 1.x config switches only between BF16 and FP8 (model.fp8); set it by hand',
  });
  assert.equal(w.canApply, false);
});

test('what-if: values from another document are not applied to this one', () => {
  const out = buildSections({
    uri: URI,
    fileName: 'recipe.yaml',
    docVersion: 1,
    analysis: analyze(LLAMA_128K),
    ui: { ...structuredClone(DEFAULT_UI), uri: 'file:///other.yaml', whatIf: { cp: 3 }, rank: 9 },
    layoutPage: 'rank',
  });
  assert.equal(out.sections.whatIf!.preview, null);
  assert.equal(out.sections.layout!.selected!.rank, 0);
});

test('every example and corpus file builds a panel (with and without what-if values) that draws at most MAX_CELLS ranks', () => {
  const files = [...yamlFiles(EXAMPLES), ...yamlFiles(CORPUS)];
  assert.ok(files.length >= 35, `${files.length} files`);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const ui of [
      {},
      {
        whatIf: { cp: 2, tp: 2, seq: 8192, recompute: 'full' as const, precision: 'nvfp4' as const },
        rank: 3,
        ...layoutUi(4096, 'replica'),
      },
    ]) {
      const s = panel(text, ui).sections;
      assert.notEqual(s.header.state, 'empty', rel(REPO, f));
      assert.ok((s.layout?.boxes.flatMap((b) => b.cells).length ?? 0) <= MAX_CELLS, rel(REPO, f));
      assert.deepEqual(JSON.parse(JSON.stringify(s)), s, `${rel(REPO, f)}: plain JSON`);
    }
  }
});

// ---- layouts (planner) section ------------------------------------------------------------------------

const RUN: PlanState = { run: { id: 1 } };

test("layouts (llama3_8b_128k): idle until asked; the file's layout as the reference row; nothing searched", () => {
  const out = panel(LLAMA_128K);
  const p = out.sections.planner!;
  assert.equal(p.state, 'idle');
  assert.equal(out.plan, undefined);
  assert.deepEqual(p.rows, []);
  assert.equal(p.gpus, 64);
  assert.equal(p.gpusText, "64 GPUs (the file's world size)");
  assert.equal(p.caption, 'llama3-8b · seq 131,072 · global batch 512 · 64 × NVIDIA H100 80GB HBM3 (SXM)');
  assert.deepEqual(p.reference!.layout, ['4', '2', '–', '8', '1', '1', '1']);
  assert.equal(p.reference!.levers, 'no recompute · no offload · BF16');
  assert.equal(p.reference!.memory, '28.53 GiB of 79.18 GiB (36%)');
  assert.match(p.legend, /relative costs that rank the layouts, not a throughput/);
  assert.match(p.hardware, /^Constants: NVIDIA H100 datasheet \(BF16 1,979 TFLOP\/s sparse, NVLink 900 GB\/s, PCIe Gen5 128 GB\/s\)/);
});

test('layouts (llama3_8b_128k): the 8 cheapest of plan(), sorted by total, the reference row is configCost of the file', () => {
  const out = panel(LLAMA_128K, {}, { plan: RUN });
  const p = out.sections.planner!;
  assert.equal(p.state, 'ready');
  assert.equal(p.planId, 1);
  assert.ok(out.plan, 'the search is handed back for the host to keep');
  // The same search as `recipe-lens plan --top 8` on this file.
  const ex = estimateOf(LLAMA_128K)!;
  assert.ok(ex.kind === 'training');
  const h100 = findGpu('h100')!;
  const direct = plan(ex.shape, ex.config, h100, { gpus: 64, top: PLAN_TOP });
  assert.equal(direct.valid, 201);
  assert.equal(p.rows.length, 8);
  assert.equal(PLAN_TOP, 8);
  assert.equal(
    p.summary,
    '2,802 combinations pass the launch rules; 2,310 searched (690 memory estimates), 201 fit within 90% of the GPU; the 8 cheapest, lowest total first:',
  );
  assert.deepEqual(
    p.rows.map((r) => r.layout.join(' ')),
    direct.candidates.map((c) => [c.tp, c.pp, c.vpp ?? '–', c.cp, c.ep, c.dp, c.microBatchSize].join(' ')),
  );
  assert.deepEqual(
    p.rows.map((r) => r.total),
    direct.candidates.map((c) => c.cost.total),
  );
  for (let i = 1; i < p.rows.length; i++) assert.ok(p.rows[i - 1]!.total <= p.rows[i]!.total, `row ${i} sorted by cost.total`);
  assert.deepEqual(
    p.rows.map((r) => r.index),
    [0, 1, 2, 3, 4, 5, 6, 7],
  );
  // The reference row is the file's own layout on the same scale.
  const fileCost = configCost(ex.shape, ex.config, h100, 64);
  assert.equal(p.reference!.total, fileCost.total);
  assert.deepEqual(
    p.reference!.costs,
    [
      fileCost.bubble,
      fileCost.recompute,
      fileCost.tpComm,
      fileCost.cpComm,
      fileCost.epComm,
      fileCost.ppComm,
      fileCost.dpComm,
      fileCost.offload,
      fileCost.total,
    ].map((x) => `${(100 * x).toFixed(1)}%`),
  );
  assert.deepEqual(p.reference!.costs, ['0.2%', '0.0%', '3.7%', '0.0%', '0.0%', '0.2%', '0.0%', '0.0%', '4.1%']);
  assert.equal(p.reference!.memory, out.sections.memory!.bar.text.replace(/^([\d.]+) \/ ([\d.]+) GiB$/, '$1 GiB of $2 GiB (36%)'));
  assert.deepEqual(
    p.costHead.map((c) => c.label),
    ['bubble', 'recompute', 'TP', 'CP', 'EP', 'PP', 'DP', 'offload', 'total'],
  );
  // Row 1: TP 1 · CP 32 · DP 2 with 16 layers offloaded.
  const r1 = p.rows[0]!;
  assert.deepEqual(r1.layout, ['1', '1', '–', '32', '1', '2', '1']);
  assert.equal(r1.levers, 'no recompute · offload 16 layers · BF16');
  assert.equal(r1.memory, '68.84 GiB of 79.18 GiB (87%)');
  assert.equal(r1.bar.verdict, 'fits');
  assert.deepEqual(r1.values, { tp: 1, pp: 1, cp: 32, sp: false, offloadLayers: 16 });
  assert.equal(r1.canApply, true);
  assert.equal(r1.applyNote, 'Apply writes 6 keys into the file (one undo step).');
  assert.deepEqual(r1.changes, [
    { path: 'model.tensor_model_parallel_size', from: '4', to: '1' },
    { path: 'model.sequence_parallel', from: 'true', to: 'false' },
    { path: 'model.context_parallel_size', from: '8', to: '32' },
    { path: 'model.pipeline_model_parallel_size', from: '2', to: '1' },
    { path: 'model.cpu_offloading', from: 'false', to: 'true' },
    { path: 'model.cpu_offloading_num_layers', from: '(absent)', to: '16' },
  ]);
  assert.equal(out.planEdits!.length, 8);
  assert.deepEqual(JSON.parse(JSON.stringify(p)), p, 'plain JSON');
});

test('layouts: Preview puts a row into the what-if (same estimate as the row); Apply writes it and the list stays', () => {
  const first = panel(LLAMA_128K, {}, { plan: RUN });
  const cache = first.plan!;
  const rows = first.sections.planner!.rows;
  // Every row previews to the memory the planner estimated for it.
  for (const r of rows) {
    const w = panel(LLAMA_128K, { whatIf: r.values! }, { plan: { cache } }).sections;
    assert.equal(w.whatIf!.preview!.bar.text, r.bar.text, `row ${r.label}`);
    assert.deepEqual(
      w.planner!.rows.map((x) => x.previewed),
      rows.map((x) => x === r),
    );
  }
  // Apply row 2 (TP 1, CP 32, no offload): only the keys that change, comments kept.
  const r2 = rows[1]!;
  const after = applyEdits(LLAMA_128K, first.planEdits![1]!);
  const changed = LLAMA_128K.split('\n')
    .map((line, i) => [line, after.split('\n')[i]])
    .filter(([a, b]) => a !== b);
  assert.deepEqual(changed, [
    ['  tensor_model_parallel_size: 4', '  tensor_model_parallel_size: 1'],
    [
      '  context_parallel_size: 8 # split into 2·CP = 16 chunks for causal load balancing',
      '  context_parallel_size: 32 # split into 2·CP = 16 chunks for causal load balancing',
    ],
    [
      '  sequence_parallel: True # shards LayerNorm/dropout activations over TP; needs TP > 1',
      '  sequence_parallel: False # shards LayerNorm/dropout activations over TP; needs TP > 1',
    ],
  ]);
  // The written file has no new launch-rule findings, estimates what the row showed, and keeps the list (same inputs).
  assert.deepEqual(
    analyzeText(after)
      .findings.filter((f) => /^RL-R/.test(f.code) && f.severity !== 'info')
      .map((f) => f.code),
    [],
  );
  const next = panel(after, {}, { plan: { cache }, docVersion: 8 });
  const p = next.sections.planner!;
  assert.equal(next.sections.memory!.bar.text, r2.bar.text);
  assert.equal(p.state, 'ready');
  assert.equal(p.docVersion, 8);
  assert.deepEqual(
    p.rows.map((r) => r.current),
    [false, true, false, false, false, false, false, false],
  );
  assert.equal(p.rows[1]!.canApply, false);
  assert.equal(next.planEdits![1], undefined);
  assert.deepEqual(p.reference!.layout, r2.layout);
  assert.equal(p.reference!.total, r2.total);
});

test('layouts: a list for another GPU, GPU count or file is dropped with the reason, never recomputed by itself', () => {
  const cache = panel(LLAMA_128K, {}, { plan: RUN }).plan!;
  const h200 = panel(LLAMA_128K, { gpu: 'h200' }, { plan: { cache } });
  assert.equal(h200.plan, undefined);
  assert.equal(h200.sections.planner!.state, 'idle');
  assert.deepEqual(h200.sections.planner!.rows, []);
  assert.equal(
    h200.sections.planner!.message,
    "The last suggestion was for the NVIDIA H100 80GB HBM3 (SXM); the panel's GPU is now the NVIDIA H200 141GB. Suggest again to update the list.",
  );
  const gbs = panel(LLAMA_128K.replace('global_batch_size: 512', 'global_batch_size: 256'), {}, { plan: { cache } }).sections.planner!;
  assert.equal(
    gbs.message,
    "The file's model, sequence length, batch or precision changed since the last suggestion. Suggest again to update the list.",
  );
  const other = buildSections({
    uri: 'file:///other.yaml',
    fileName: 'other.yaml',
    docVersion: 1,
    analysis: analyze(LLAMA_128K),
    ui: { ...structuredClone(DEFAULT_UI), uri: 'file:///other.yaml' },
    layoutPage: 'rank',
    plan: { cache },
  });
  assert.equal(other.sections.planner!.state, 'idle');
  assert.equal(other.sections.planner!.message, '');
  assert.equal(panel(LLAMA_128K, {}, { plan: { running: true } }).sections.planner!.state, 'running');
});

test('layouts: another GPU count (from the layout section) plans for it, and Apply explains that the world size is not written', () => {
  const out = panel(LLAMA_128K, layoutUi(128), { plan: RUN });
  const p = out.sections.planner!;
  assert.equal(p.gpus, 128);
  assert.equal(p.gpusText, "128 GPUs (chosen in Parallel layout; the file's world size: 64)");
  assert.ok(p.rows.length > 0);
  assert.deepEqual(p.reference!.layout.slice(5), ['2', '1']);
  for (const r of p.rows) {
    assert.equal(r.canApply, false);
    assert.deepEqual(r.conflicts[0], {
      code: 'world',
      severity: 'error',
      message:
        'planned for 128 GPUs, but the file runs on 64 (trainer.num_nodes × trainer.devices); Apply does not change the world size: set it by hand first, or plan for 64',
    });
  }
  assert.deepEqual(out.planEdits!.filter(Boolean), []);
});

test('layouts: a precision the NeMo 1.x file cannot express is a conflict on that row (llama3_70b_64k on B200)', () => {
  const text = example('llama3_70b_64k.yaml');
  const out = panel(text, { gpu: 'b200' }, { plan: RUN });
  const rows = out.sections.planner!.rows;
  const fp4 = rows.filter((r) => r.levers.endsWith('NVFP4'));
  assert.ok(fp4.length > 0, 'NVFP4 rows');
  for (const r of fp4) {
    assert.equal(r.values!.precision, 'nvfp4');
    assert.equal(r.canApply, false);
    assert.ok(
      r.conflicts.some(
        (c) =>
          c.code === 'write' && c.message === 'NVFP4: a NeMo 1.x config switches only between BF16 and FP8 (model.fp8); set it by hand',
      ),
    );
    assert.equal(out.planEdits![r.index!], undefined);
  }
  assert.ok(
    rows.some((r) => r.canApply),
    'the BF16 rows can be applied',
  );
});

test('layouts: MoE rows set EP (Mixtral 8x7B), and a file without world size or global batch says why it cannot plan', () => {
  const moe = panel(example('mixtral_8x7b_64k.yaml'), {}, { plan: RUN });
  const rows = moe.sections.planner!.rows;
  assert.equal(rows.length, 8);
  const ep = rows.find((r) => r.layout[4] !== '1')!;
  assert.equal(ep.values!.ep, Number(ep.layout[4]));
  assert.ok(ep.changes.some((c) => c.path === 'model.expert_model_parallel_size' && c.to === ep.layout[4]));
  // The what-if section has an EP control for MoE models only.
  assert.ok(moe.sections.whatIf!.fields.some((f) => f.key === 'ep'));
  assert.ok(!panel(LLAMA_128K).sections.whatIf!.fields.some((f) => f.key === 'ep'));
  // The Bridge override has its world size only in the modeline.
  const bridgeText = example('bridge_llama3_70b_64k.yaml');
  assert.equal(panel(bridgeText).sections.planner!.gpusText, "256 GPUs (the modeline's world_size)");
  const other = panel(bridgeText, layoutUi(512), { plan: RUN }).sections.planner!;
  assert.ok(
    other.rows.every(
      (r) =>
        r.conflicts[0]?.message ===
        "planned for 512 GPUs, but the file runs on 256 (the recipe-lens modeline's world_size); Apply does not change the world size: set it by hand first, or plan for 256",
    ),
  );
  const noWorld = bridgeText.replace(' world_size=256', '');
  const bridge = panel(noWorld, {}, { plan: RUN });
  assert.equal(bridge.sections.planner!.state, 'unavailable');
  assert.match(bridge.sections.planner!.message, /^World size unknown: pick a GPU count in Parallel layout/);
  assert.equal(bridge.plan, undefined);
  const chosen = panel(noWorld, layoutUi(256), { plan: RUN }).sections.planner!;
  assert.equal(chosen.state, 'ready');
  assert.equal(chosen.gpusText, '256 GPUs (chosen in Parallel layout)');
  // No world size in the file: the chosen count's layouts can be written.
  assert.ok(chosen.rows.some((r) => r.canApply));
  const noGbs = panel(LLAMA_128K.replace(/^ {2}global_batch_size: 512\n/m, ''), {}, { plan: RUN }).sections.planner!;
  assert.equal(noGbs.state, 'unavailable');
  assert.equal(noGbs.message, 'The file gives no global batch size: the planner keeps it and splits it into micro-batches.');
  // Serving files have no Layouts section.
  assert.equal(panel(example('trtllm_llama3_70b_serve.yaml')).sections.planner, null);
});

// ---- empty state, CSP, untrusted text -----------------------------------------------------------------

test('a file that is not a recipe gets the welcome state and no sections', () => {
  const s = panel('apiVersion: v1\nkind: Pod\n').sections;
  assert.equal(s.header.state, 'empty');
  assert.match(s.header.message, /^Open a NeMo, Megatron-Bridge or TensorRT-LLM YAML file/);
  assert.deepEqual([s.memory, s.layout, s.quant, s.kv, s.whatIf, s.planner], [null, null, null, null, null, null]);
});

test("CSP: default-src 'none', nonce-only scripts, styles and fonts from the extension, no unsafe-*", () => {
  // What VS Code passes as webview.cspSource (webviewGenericCspSource).
  const source = "'self' https://*.vscode-cdn.net";
  const csp = panelCsp(source, 'AbCdEf0123456789_-xyz');
  assert.equal(
    csp,
    `default-src 'none'; script-src 'nonce-AbCdEf0123456789_-xyz'; style-src ${source}; img-src ${source} data:; font-src ${source}`,
  );
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|'unsafe-hashes'|\bdata:.*script|https?:\/\/\* /);
  assert.equal(
    panelCsp('https://file+.vscode-resource.vscode-cdn.net', 'AbCdEf0123456789'),
    "default-src 'none'; script-src 'nonce-AbCdEf0123456789'; style-src https://file+.vscode-resource.vscode-cdn.net; img-src https://file+.vscode-resource.vscode-cdn.net data:; font-src https://file+.vscode-resource.vscode-cdn.net",
  );
  assert.throws(() => panelCsp("'self' 'unsafe-inline'", 'AbCdEf0123456789'), /invalid CSP source/);
  assert.throws(() => panelCsp(source, "x' 'unsafe-inline"), /invalid nonce/);
  assert.throws(() => panelCsp("https://a; script-src 'unsafe-inline'", 'AbCdEf0123456789'), /invalid CSP source/);
  const html = panelHtml({
    cspSource: source,
    nonce: 'AbCdEf0123456789_-xyz',
    scriptUri: 'https://x/dist/webview.js?a=1&b="2"',
    styleUri: 'https://x/media/panel.css',
  });
  assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${csp}">`));
  assert.ok(html.includes('<script nonce="AbCdEf0123456789_-xyz" src="https://x/dist/webview.js?a=1&amp;b=&quot;2&quot;"></script>'));
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.doesNotMatch(html, /<style|\sstyle=|\son\w+=/i);
});

test('file text that looks like markup or code stays plain data in the view models', () => {
  const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)';
  const text = [
    '# recipe-lens: vocab=32000',
    `name: "${hostile}"`,
    'trainer: {devices: 8, num_nodes: 1}',
    'model:',
    '  tensor_model_parallel_size: 2',
    '  context_parallel_size: 2',
    '  encoder_seq_length: 4096',
    '  num_layers: 4',
    '  hidden_size: 1024',
    '  num_attention_heads: 16',
    '',
  ].join('\n');
  const fileName = 'a${process.exit()}<b onmouseover=x>.yaml';
  const s = buildSections({
    uri: URI,
    fileName,
    docVersion: 1,
    analysis: analyze(text),
    ui: { ...structuredClone(DEFAULT_UI), uri: URI },
    layoutPage: 'rank',
  }).sections;
  assert.equal(s.header.title, fileName);
  assert.equal(s.header.subtitle, `NeMo 1.x Hydra config · ${hostile} · NVIDIA H100 80GB HBM3 (SXM)`);
  // A Megatron-Bridge precision string travels verbatim into the what-if changes.
  const bridge = `${example('bridge_llama3_8b_128k.yaml').replace(/^mixed_precision:.*$/m, '')}\nmixed_precision: "<script>\${x}</script> javascript:void(0)"\n`;
  const w = panel(bridge, { whatIf: { precision: 'fp8-delayed' } }, { worldSize: 64 }).sections.whatIf!;
  assert.deepEqual(
    w.changes.find((c) => c.path === 'mixed_precision'),
    { path: 'mixed_precision', from: '<script>${x}</script> javascript:void(0)', to: 'bf16_with_fp8_delayed_scaling_mixed' },
  );
  // Every string is data: the hostile text sits verbatim in exactly these places (nothing escaped, nothing evaluated),
  // and the sections pass the webview's check unchanged (test/webview/hostile.test.ts draws them).
  const strings: string[] = [];
  const walk = (x: unknown): void => {
    if (typeof x === 'string') strings.push(x);
    else if (x && typeof x === 'object') Object.values(x).forEach(walk);
  };
  walk(s);
  assert.deepEqual(
    strings.filter((t) => t.includes('<') || t.includes('${')),
    [
      fileName,
      `NeMo 1.x Hydra config · ${hostile} · NVIDIA H100 80GB HBM3 (SXM)`,
      `${hostile} · seq 4,096 · global batch ? · 8 × NVIDIA H100 80GB HBM3 (SXM)`,
    ],
  );
  const ui = { ...structuredClone(DEFAULT_UI), uri: URI };
  assert.deepEqual(parseHostMessage({ v, type: 'init', sections: s, ui }), { ok: true, msg: { v, type: 'init', sections: s, ui } });
});

test('the levels table of an interleaved pipeline: every stage, its virtual chunks in flight, allocated < reserved < device', () => {
  const text = readFileSync(join(CORPUS, 'NeMo-Framework-Launcher/llama3_1_70b.yaml'), 'utf8');
  const vm = panel(text).sections.memory!;
  const t = estimateOf(text)!;
  assert.equal(t.kind, 'training');
  if (t.kind !== 'training') return;
  const est = t.estimate;
  assert.equal(vm.levels.length, est.stages.length);
  assert.deepEqual(
    vm.levels.map((r) => [r.stage, r.peak]),
    est.stages.map((s) => [String(s.stage), s.stage === est.stage]),
  );
  const first = est.stages[0]!;
  assert.equal(
    vm.levels[0]!.inFlight,
    `${first.inFlight.passes} forward passes over ${first.inFlight.perChunk.length} virtual stages: ${+first.inFlight.microbatches.toFixed(2)} micro-batches of activations`,
  );
  assert.equal(first.inFlight.perChunk.length, est.parallel.vpp);
  for (const [i, s] of est.stages.entries()) {
    assert.ok(s.allocated < s.reserved && s.reserved < s.device, `stage ${i}`);
    assert.deepEqual(
      [vm.levels[i]!.allocated, vm.levels[i]!.reserved, vm.levels[i]!.device],
      [gib(s.allocated), gib(s.reserved), gib(s.device)],
    );
  }
});
