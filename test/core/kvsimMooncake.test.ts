// Mooncake-format traces: block expansion at other block sizes, and the shared FAST'25 synthetic trace against an
// independent reference and the figures the paper publishes about it (traces/mooncake/README.md).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { mooncakeWorkload, readMooncake, simulate, splitLines, type MooncakeTrace, type SimOptions } from '../../src/core/kvsim/index.js';
import { SHARED } from '../helpers.js';
import { simOptions } from '../kvsimOptions.js';

const cfg = (over: Partial<SimOptions> = {}): SimOptions =>
  simOptions({ primaryBlocks: 1_000_000, tokensPerBlock: 512, enablePartialReuse: false, ...over });

const read = (lines: string[], block = 512): MooncakeTrace => {
  const t = readMooncake(lines, block);
  if ('error' in t) throw new Error(t.error);
  return t;
};

test('a trace block becomes tokens_per_block-sized blocks keyed by its id, the reuse structure kept exactly', () => {
  // Request 1: ids [7, 8], 1000 tokens (id 8 covers the last 488). Request 2: ids [7, 9], 700 tokens.
  const t = read([
    '{"timestamp": 0, "input_length": 1000, "output_length": 10, "hash_ids": [7, 8]}',
    '{"timestamp": 5, "input_length": 700, "output_length": 10, "hash_ids": [7, 9]}',
  ]);
  const w = mooncakeWorkload(t);
  const second = (tpb: number, partial = false) => {
    const s = simulate(w, cfg({ tokensPerBlock: tpb, enablePartialReuse: partial }));
    return { reused: s.reusedBlocks, full: s.promptBlocks, saved: s.prefillTokensSaved, partial: s.partialReuses };
  };
  // 512: request 2 has one full block, id 7: reused.
  assert.deepEqual(second(512), { reused: 1, full: 1 + 1, saved: 512, partial: 0 });
  // 128: id 7 is four blocks (7, 0..127) … (7, 384..511), all stored by request 1; request 2's fifth block is id 9's.
  // Full prompt blocks: floor(1000/128) + floor(700/128) = 7 + 5.
  assert.deepEqual(second(128), { reused: 4, full: 12, saved: 512, partial: 0 });
  // 96 (not a divisor of 512): block 5 spans (7, 480..511) + (8 or 9, 0..63), different in the two requests: 5 hits.
  // With partial reuse, that block shares its first 32 tokens: one partial reuse, 5·96 + 32 tokens saved.
  assert.deepEqual(second(96), { reused: 5, full: 10 + 7, saved: 480, partial: 0 });
  assert.deepEqual(second(96, true), { reused: 5, full: 17, saved: 512, partial: 1 });
});

test('a stored block holding a prompt tail and generated tokens shares only the prompt tail', () => {
  // Request 1: id 5 covers 131 tokens; with 189 generated, its only block (512 tokens) stores 131 + 188 = 319 tokens:
  // (5, 0..130) then generated ones. Request 2: id 5 covers 320 tokens, looked up over 319: a partial match of 131
  // tokens (the rest of request 1's block is its generated text), never a 319-token match.
  const t = read([
    '{"timestamp": 0, "input_length": 131, "output_length": 189, "hash_ids": [5]}',
    '{"timestamp": 1, "input_length": 320, "output_length": 1, "hash_ids": [5]}',
    '{"timestamp": 2, "input_length": 131, "output_length": 1, "hash_ids": [5]}',
  ]);
  const s = simulate(mooncakeWorkload(t), cfg({ enablePartialReuse: true }));
  // Request 3 (130 tokens looked up) shares 130 with request 2's stored 320-token prefix.
  assert.deepEqual([s.partialReuses, s.prefillTokensSaved, s.reusedBlocks], [2, 131 + 130, 0]);
});

test('Mooncake lines are validated with their line numbers', () => {
  const bad = (line: string, block = 512) => {
    const r = readMooncake(['{"input_length": 10, "output_length": 1, "hash_ids": [1]}', line], block);
    return 'error' in r ? r.error : 'ok';
  };
  assert.equal(
    bad('{"input_length": 1000, "output_length": 1, "hash_ids": [1]}'),
    'line 2: 1 hash_ids for input_length 1000; ceil(1000 / 512) = 2 (is the trace block size 512? set --trace-block-size)',
  );
  assert.equal(bad('{"input_length": 1000, "output_length": 1, "hash_ids": [1]}', 1024), 'ok');
  assert.equal(bad('{"input_length": 0, "hash_ids": []}'), 'line 2: input_length must be a positive integer');
  assert.equal(bad('{"input_length": 5, "hash_ids": [-1]}'), 'line 2: hash_ids must be non-negative integers');
  assert.match(bad('{"input_length": 5,'), /^line 2: not JSON/);
  assert.equal(bad(''), 'ok');
});

const TRACE = join(SHARED, 'traces', 'mooncake', 'synthetic_trace.jsonl');

/**
 * An independent reference: plain LRU over hash ids, in blocks of 512 tokens, with TensorRT-LLM's accounting —
 * a prompt's blocks match from the first and stop at the first miss, only its first L-1 tokens are looked up,
 * it holds ceil((L + output - 1) / 512) blocks while it runs (full prompt blocks by id; the rest hold its last
 * prompt tokens or generated ones and match nothing), and its blocks are released last first, so its first block
 * ends up the most recently used.
 */
function referenceLru(lines: { input_length: number; output_length: number; hash_ids: number[] }[], capacity: number) {
  const lru = new Map<number | string, true>();
  let hits = 0;
  let full = 0;
  let unique = 0;
  for (const r of lines) {
    const L = r.input_length;
    const usable = L + Math.max(1, r.output_length) - 1;
    const blocks = Math.ceil(usable / 512);
    const lookup = Math.floor((L - 1) / 512);
    full += Math.floor(L / 512);
    let m = 0;
    while (m < lookup && lru.has(r.hash_ids[m]!)) m++;
    hits += m;
    // Matched blocks are held by the request (out of the free queue); the other free blocks must make room for it.
    for (let i = 0; i < m; i++) lru.delete(r.hash_ids[i]!);
    for (const k of lru.keys()) {
      if (lru.size + blocks <= capacity) break;
      lru.delete(k);
    }
    const keys: (number | string)[] = [...r.hash_ids.slice(0, lookup)];
    while (keys.length < blocks) keys.push(`unique ${unique++}`);
    for (let i = keys.length - 1; i >= 0; i--) {
      lru.delete(keys[i]!);
      lru.set(keys[i]!, true);
    }
  }
  return { hits, full };
}

test(
  "the Mooncake FAST'25 synthetic trace: exact reuse when unbounded, the paper's 3M / 50M-token LRU points",
  { skip: !existsSync(TRACE) },
  () => {
    const text = readFileSync(TRACE, 'utf8');
    const t = read([...splitLines(text)]);
    assert.equal(t.requests, 3993);
    const w = mooncakeWorkload(t);
    // Unbounded: every block whose id was seen in an earlier request is reused, under either policy.
    const unbounded = simulate(w, cfg());
    assert.deepEqual([unbounded.reusedBlocks, unbounded.promptBlocks, unbounded.evictions], [77_740, 117_888, 0]);
    assert.equal(unbounded.hitRate.toFixed(4), '0.6594');
    // A retention config changes what is evicted, not what an unbounded pool reuses. Its generated blocks, at
    // priority 10, rank below never-used blocks (35): the next request's first allocation evicts each of them.
    const pin = {
      ranges: [{ tokenStart: 0, tokenEnd: 4096, priority: 90, durationMs: 60_000 }],
      decodePriority: 10,
      decodeDurationMs: null,
    };
    const pinned = simulate(w, cfg({ policy: 'retention', retention: pin }));
    assert.equal(pinned.reusedBlocks, 77_740);
    const decodeBlocks = pinned.pinnedByOrigin[2]!; // origins: range 0, default, decode, per-request
    assert.ok(decodeBlocks > 0);
    assert.equal(pinned.evictions, decodeBlocks);

    const lines = text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { input_length: number; output_length: number; hash_ids: number[] });
    const max = unbounded.hitRate;
    for (const tokens of [3_000_000, 50_000_000]) {
      const capacity = Math.floor(tokens / 512);
      const ref = referenceLru(lines, capacity);
      const sim = simulate(w, cfg({ primaryBlocks: capacity }));
      assert.equal(sim.reusedBlocks, ref.hits, `${tokens} tokens`);
      assert.equal(sim.promptBlocks, ref.full);
      const rate = ref.hits / ref.full;
      // "A local cache with a 3M token capacity does not achieve 50% of the theoretical maximum hit rate";
      // "a cache capacity of 50M tokens nearly reaches the theoretical maximum hit rate" (§5.3.1, Figure 9).
      if (tokens === 3_000_000) assert.ok(rate < 0.5 * max, `3M: ${rate} < ${0.5 * max}`);
      else assert.ok(rate >= 0.95 * max, `50M: ${rate} ≥ 0.95 × ${max}`);
    }
  },
);
