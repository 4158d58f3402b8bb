// The "KV reuse" panel section's view model, on a hand-computed trace (the pool-too-small case of kvsim.test.ts)
// and on a replayed KV event stream.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildKvReuseVM } from '../../src/core/panel/kvReuse.js';
import {
  readTokenTrace,
  replayKvEvents,
  retentionFromObject,
  Simulator,
  sweep,
  tokenTraceWorkload,
  type SimOptions,
} from '../../src/core/kvsim/index.js';
import { simOptions } from '../kvsimOptions.js';

const seq = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const SYSTEM = seq(1000, 8);
const lines = [
  { tokens: [...SYSTEM, ...seq(2000, 4)], output_len: 1 },
  { tokens: seq(10_000, 40), output_len: 1 },
  { tokens: seq(10_100, 40), output_len: 1 },
  { tokens: [...SYSTEM, ...seq(2010, 4)], output_len: 1 },
].map((l) => JSON.stringify(l));
const t = readTokenTrace(lines);
if ('error' in t) throw new Error(t.error);
const workload = tokenTraceWorkload(t, 'chats and documents');
const r = retentionFromObject({ token_range_retention_configs: [{ token_start: 0, token_end: 8, priority: 100 }] });
if ('error' in r) throw new Error(r.error);
const retention = r.spec;
const cfg = (over: Partial<SimOptions> = {}): SimOptions => simOptions({ primaryBlocks: 14, tokensPerBlock: 4, retention, ...over });

test('KV reuse view model: curve with the file pool marked, occupancy by priority, pinning that earned its keep', () => {
  const points = sweep(workload, [56, 14, 28], cfg());
  const detailRun = new Simulator(cfg({ policy: 'retention', samples: 4, expectedRequests: 4 }));
  const detailRet = detailRun.run(workload.requests());
  const detailLru = new Simulator(cfg()).run(workload.requests());
  const vm = buildKvReuseVM({
    workload: workload.name,
    tokensPerBlock: 4,
    sweep: points,
    filePool: 28,
    retention,
    occupancy: { source: 'simulation', label: 'retention at 14 blocks', capacity: 14, samples: detailRet.samples },
    detail: { poolBlocks: 14, lru: detailLru, retention: detailRet },
  });
  assert.equal(vm.title, 'KV reuse');
  assert.equal(vm.subtitle, 'chats and documents (4 requests) · 4 tokens per block');
  // Log axis over 14..56 blocks: 28 is half way; LRU loses the system prompt at 14 blocks only.
  assert.deepEqual(
    vm.curve.points.map((p) => [p.poolBlocks, p.x, p.lru.text, p.retention?.text]),
    [
      [14, 0, 'LRU 0.0%', 'retention 7.7%'],
      [28, 50, 'LRU 7.7%', 'retention 7.7%'],
      [56, 100, 'LRU 7.7%', 'retention 7.7%'],
    ],
  );
  assert.equal(vm.curve.points[0]!.label, '14 blocks (56 tokens)');
  assert.deepEqual(
    vm.curve.ticks.map((k) => [k.label, k.x]),
    [
      ['14', 0],
      ['16', 9.632], // 100 · ln(16/14) / ln(56/14)
      ['32', 59.632], // 100 · ln(32/14) / ln 4
      ['56', 100],
    ],
  );
  assert.deepEqual(vm.curve.marker, { x: 50, label: 'options file: 28 blocks' });

  // Occupancy after each admission (blocks in the radix tree by priority, % of 14): chat1 stored its system prompt
  // (2 at 100); doc1 stored 9 full blocks, its first 2 pinned too; doc2 evicted chat1's message and 8 of doc1's blocks;
  // chat2 evicted doc2's last block for its own message.
  const occ = vm.occupancy!;
  assert.deepEqual(
    occ.series.map((s) => [s.tier, s.label, s.values.map((v) => Math.round((v * 14) / 100))]),
    [
      ['GPU', 'priority 35 (default)', [0, 8, 7, 7]],
      ['GPU', 'priority 100', [2, 4, 6, 6]],
    ],
  );
  assert.deepEqual(occ.xLabels, ['request 1', 'request 2', 'request 3', 'request 4']);
  assert.deepEqual(
    occ.held!.map((v) => Math.round((v * 14) / 100)),
    [3, 10, 10, 3],
  );

  // Pinning: range [0, 8) gave 6 blocks priority 100 (2 per request but chat2, whose 2 were reused), and earned the 2
  // system-prompt hits that LRU did not get; the other 18 blocks stayed at the default and were never reused.
  const pin = vm.pinning!;
  assert.equal(pin.summary, 'At 14 blocks: retention 7.7% vs LRU 0.0% (+7.7 points)');
  assert.deepEqual(
    pin.rows.map((x) => [x.label, x.priority, x.pinned, x.hitsRetention, x.hitsLru, x.earned, x.verdict]),
    [
      ['tokens [0, 8)', '100', '6', '2', '0', '+2', 'earned'],
      ['outside every range', '35 (default)', '18', '0', '0', '±0', 'no effect'],
    ],
  );
});

test('KV reuse view model from a KV event stream: occupancy only, per cache level', () => {
  const ev = (id: number, data: object) => JSON.stringify({ event_id: id, data, window_size: 64 });
  const block = (h: number, level: number, priority: number) => ({
    type: 'stored_block',
    block_hash: h,
    tokens: [],
    cache_level: level,
    priority,
  });
  const replay = replayKvEvents(
    [
      ev(0, { type: 'created', num_blocks_per_cache_level: [4, 2] }),
      ev(1, { type: 'stored', parent_hash: null, blocks: [block(1, 0, 35), block(2, 0, 90)] }),
      ev(2, { type: 'updated', block_hash: 1, cache_level: { type: 'event_diff', old_value: 0, new_value: 1 }, priority: null }),
    ].join('\n'),
  );
  assert.ok(!('error' in replay));
  const pool = replay.pools[0]!;
  const vm = buildKvReuseVM({
    workload: 'events.jsonl',
    tokensPerBlock: 32,
    sweep: [],
    filePool: null,
    retention: null,
    occupancy: { source: 'events', label: 'deployment', capacity: pool.capacity!.primary, samples: pool.samples },
  });
  assert.equal(vm.pinning, null);
  assert.deepEqual(vm.curve.points, []);
  const occ = vm.occupancy!;
  assert.equal(occ.held, null);
  assert.deepEqual(occ.xLabels, ['event 0', 'event 1', 'event 2']);
  assert.deepEqual(
    occ.series.map((s) => [s.tier, s.priority, s.values]),
    [
      ['GPU', 35, [0, 25, 0]],
      ['GPU', 90, [0, 25, 25]],
      ['host', 35, [0, 0, 100]],
    ],
  );
  assert.match(vm.notes.join(' '), /events do not say which blocks running requests hold/);
});
