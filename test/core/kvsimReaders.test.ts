// The simulator's other inputs: TensorRT-LLM KV cache events, token traces' fields, the built-in synthetic workloads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  openTrace,
  parseWorkloadSpec,
  readTokenTrace,
  replayKvEvents,
  simulate,
  syntheticWorkload,
  tokenTraceWorkload,
  type SimOptions,
} from '../../src/core/kvsim/index.js';
import { simOptions } from '../kvsimOptions.js';

const cfg = (over: Partial<SimOptions> = {}): SimOptions => simOptions({ primaryBlocks: 4096, tokensPerBlock: 32, ...over });

// Events as LLM.get_kv_cache_events() serializes them (KVCacheEventSerializer). Two hashes differ only past double
// precision: 2^64 - 1 and 2^64 - 2 round to the same number in JSON.parse.
const tok = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'unique_token', token_id: i, token_extra_id: 0 }));
const EVENTS = [
  { event_id: 0, data: { type: 'created', num_blocks_per_cache_level: [10, 4] }, window_size: 4096 },
  {
    event_id: 1,
    data: {
      type: 'stored',
      parent_hash: null,
      blocks: [
        { type: 'stored_block', block_hash: 101, tokens: tok(32), cache_level: 0, priority: 35 },
        { type: 'stored_block', block_hash: 102, tokens: tok(32), cache_level: 0, priority: 80 },
      ],
    },
    window_size: 4096,
  },
  {
    event_id: 2,
    data: {
      type: 'stored',
      parent_hash: 102,
      blocks: [
        { type: 'stored_block', block_hash: '18446744073709551615', tokens: tok(20), cache_level: 0, priority: 35 },
        { type: 'stored_block', block_hash: '18446744073709551614', tokens: tok(20), cache_level: 0, priority: 35 },
      ],
    },
    window_size: 4096,
  },
  {
    event_id: 3,
    data: {
      type: 'updated',
      block_hash: 101,
      cache_level: { type: 'event_diff', new_value: 1, old_value: 0 },
      priority: null,
    },
    window_size: 4096,
  },
  {
    event_id: 4,
    data: { type: 'updated', block_hash: 102, cache_level: null, priority: { type: 'event_diff', new_value: 35, old_value: 80 } },
    window_size: 4096,
  },
  { event_id: 5, data: { type: 'removed', block_hashes: ['18446744073709551615', 999] }, window_size: 4096 },
];
// Hashes above 2^53 are written as bare integers in real dumps: unquote them.
const asJson = (v: unknown) => JSON.stringify(v).replace(/"(\d{16,})"/g, '$1');

test('KV cache events replay into the pool view: levels, priorities, 64-bit hashes, unknown blocks', () => {
  for (const text of [asJson(EVENTS), EVENTS.map(asJson).join('\n'), [asJson(EVENTS.slice(0, 3)), asJson(EVENTS.slice(3))].join('\n')]) {
    const r = replayKvEvents(text, 100);
    assert.ok(!('error' in r));
    assert.equal(r.events, 6);
    assert.equal(r.pools.length, 1);
    const p = r.pools[0]!;
    assert.deepEqual(p.capacity, { primary: 10, secondary: 4 });
    assert.equal(p.windowSize, 4096);
    assert.equal(p.tokensPerBlock, 32);
    assert.deepEqual([p.stored, p.removed, p.offloads, p.onboards, p.priorityChanges, p.unknown], [4, 1, 1, 0, 1, 1]);
    // 102 (now 35) and the hash ending in …614 stay on the GPU; 101 moved to the host.
    assert.deepEqual(p.final, { primary: [[35, 2]], secondary: [[35, 1]] });
    assert.deepEqual(
      p.samples.map((s) => [s.at, s.primary, s.secondary, s.emptyPrimary]),
      [
        [0, [], [], 10],
        [
          1,
          [
            [35, 1],
            [80, 1],
          ],
          [],
          8,
        ],
        [
          2,
          [
            [35, 3],
            [80, 1],
          ],
          [],
          6,
        ],
        [
          3,
          [
            [35, 2],
            [80, 1],
          ],
          [[35, 1]],
          7,
        ],
        [4, [[35, 3]], [[35, 1]], 7],
        [5, [[35, 2]], [[35, 1]], 8],
      ],
    );
  }
  const opened = openTrace(EVENTS.map(asJson).join('\n'), 'events.jsonl', { traceBlockSize: 512 });
  assert.equal('kind' in opened && opened.kind, 'events');
  const bad = replayKvEvents('{"event_id": 1, "data": 5}');
  assert.deepEqual(bad, { error: 'event 1: no "data" with a "type" (is this a KV cache event stream?)' });
});

test('token traces: lora_id and cache_salt keep otherwise equal prompts apart', () => {
  const line = (extra: object) => JSON.stringify({ tokens: Array.from({ length: 64 }, (_, i) => i), output_len: 1, ...extra });
  const hits = (a: object, b: object) => {
    const t = readTokenTrace([line(a), line(b)]);
    if ('error' in t) throw new Error(t.error);
    return simulate(tokenTraceWorkload(t), cfg()).reusedBlocks;
  };
  // 64 tokens at 32 per block: the second request's first block (the second holds the last token) is reusable.
  assert.equal(hits({}, {}), 1);
  assert.equal(hits({ lora_id: 3 }, { lora_id: 3 }), 1);
  assert.equal(hits({ lora_id: 3 }, { lora_id: 4 }), 0);
  assert.equal(hits({ lora_id: 3 }, {}), 0);
  assert.equal(hits({ cache_salt: 'tenant-a' }, { cache_salt: 'tenant-a' }), 1);
  assert.equal(hits({ cache_salt: 'tenant-a' }, { cache_salt: 'tenant-b' }), 0);
  const err = readTokenTrace(['{"tokens": [1, 2], "retention": {"token_range_retention_configs": [{"token_start": 0, "priority": 300}]}}']);
  assert.deepEqual(err, { error: 'line 1: retention: token_range_retention_configs[0].priority 300 is outside 0..100' });
  assert.deepEqual(readTokenTrace(['{"tokens": []}']), { error: 'line 1: "tokens" must be a non-empty list of token ids' });
});

test('synthetic workloads: deterministic for a seed, parameters checked, sharing where the workload shares', () => {
  const spec = (s: string) => {
    const r = parseWorkloadSpec(s);
    if ('error' in r) throw new Error(r.error);
    return r;
  };
  assert.deepEqual(parseWorkloadSpec('chat:system=64,bogus=1'), {
    error: 'chat has no parameter "bogus" (system, prompts, user, output, rate)',
  });
  assert.deepEqual(parseWorkloadSpec('chat:user=0'), { error: 'chat:user must be a number in 1..16777216' });
  assert.deepEqual(parseWorkloadSpec('nope'), { error: 'unknown workload "nope" (chat, multiturn, agentic, rag, mix, or a .jsonl trace)' });
  const hitRate = (name: string, seed: number) =>
    simulate(syntheticWorkload(spec(name), 400, seed), cfg({ primaryBlocks: 100_000 })).hitRate;
  for (const name of ['chat', 'multiturn', 'agentic', 'rag', 'mix']) {
    assert.equal(hitRate(name, 1), hitRate(name, 1), `${name} is deterministic`);
    assert.notEqual(hitRate(name, 1), hitRate(name, 2), `${name} depends on the seed`);
  }
  // chat: one 1024-token system prompt = 32 blocks, a 128..384-token message and 64..192 generated tokens; with an
  // unbounded pool every request after the first reuses exactly the 32 system-prompt blocks.
  const chat = simulate(syntheticWorkload(spec('chat'), 400, 1), cfg({ primaryBlocks: 100_000 }));
  assert.equal(chat.reusedBlocks, 399 * 32);
  // multiturn: a turn resends its history (previous messages and replies), so more than the system prompt is reused.
  const turns = simulate(syntheticWorkload(spec('multiturn'), 400, 1), cfg({ primaryBlocks: 100_000 }));
  assert.ok(turns.reusedBlocks > 399 * 32, `${turns.reusedBlocks}`);
});
