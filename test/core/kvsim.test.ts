// The KV reuse simulator against hand-computed traces: every count below is derived in the comments from
// TensorRT-LLM's rules (kvCacheManager.cpp / evictionPolicy.cpp), with 4-token blocks so the traces stay small.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  readTokenTrace,
  retentionFromObject,
  simulate,
  Simulator,
  tokenTraceWorkload,
  type PolicyStats,
  type RetentionSpec,
  type SimOptions,
  type Workload,
} from '../../src/core/kvsim/index.js';
import { simOptions } from '../kvsimOptions.js';

const cfg = (over: Partial<SimOptions> = {}): SimOptions => simOptions({ primaryBlocks: 1000, tokensPerBlock: 4, ...over });
const seq = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const trace = (lines: object[]): Workload => {
  const t = readTokenTrace(lines.map((l) => JSON.stringify(l)));
  if ('error' in t) throw new Error(t.error);
  return tokenTraceWorkload(t);
};
const spec = (v: object): RetentionSpec => {
  const r = retentionFromObject(v);
  if ('error' in r) throw new Error(r.error);
  return r.spec;
};
const run = (w: Workload, over: Partial<SimOptions> = {}): PolicyStats => simulate(w, cfg(over));

test('unbounded pool: the full-block reuse fraction, equal under LRU and under a retention config', () => {
  // Prompts are looked up over all tokens but the last [addSequence "Ignore last token"], so a 16-token prompt has
  // keys [0-3] [4-7] [8-11] and a 3-token tail; at release prompt + output - 1 = 16 tokens are stored as 4 blocks.
  const w = trace([
    { tokens: seq(0, 16), output_len: 1 }, // nothing cached: 0 of 4
    { tokens: [...seq(0, 12), ...seq(100, 4)], output_len: 1 }, // [0-3] [4-7] [8-11] hit, tail differs: 3 of 4
    { tokens: seq(0, 16), output_len: 1 }, // 3 hits; the tail [12,13,14] matches [12-15] only in part: 3 of 4
    { tokens: seq(0, 18), output_len: 1 }, // keys over 17 tokens: [0-3] … [12-15] all full and cached: 4 of 4
  ]);
  const lru = run(w);
  assert.deepEqual([lru.reusedBlocks, lru.promptBlocks, lru.hitRate], [10, 16, 10 / 16]);
  // Prefill saved: 12 + (12 + 3 of the partially matched tail) + 16 tokens.
  assert.equal(lru.prefillTokensSaved, 43);
  assert.equal(lru.partialReuses, 1);
  const retention = spec({
    token_range_retention_configs: [{ token_start: 0, token_end: 8, priority: 90 }],
    decode_retention_priority: 10,
  });
  const pinned = run(w, { policy: 'retention', retention });
  assert.deepEqual([pinned.reusedBlocks, pinned.promptBlocks], [10, 16]);
  // Without partial reuse the third request's tail is recomputed: 3 fewer tokens saved, the same full-block hits.
  const noPartial = run(w, { enablePartialReuse: false });
  assert.deepEqual([noPartial.reusedBlocks, noPartial.prefillTokensSaved, noPartial.partialReuses], [10, 40, 0]);
});

test('unbounded pool: hits equal an independent prefix count on random prompts sharing prefixes', () => {
  // Reference: a full prompt block i is reused when some earlier prompt has the same first (i+1)·4 tokens and the
  // block lies within the first L-1 tokens. The simulator (partial reuse off, pool never full) must agree exactly.
  let s = 7;
  const rnd = (n: number) => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const stems = [seq(0, 23), seq(500, 9), seq(900, 40)];
  const prompts: number[][] = [];
  for (let r = 0; r < 300; r++) {
    const stem = stems[rnd(3)]!.slice(0, 1 + rnd(40));
    prompts.push([...stem, ...seq(10_000 + r * 50, rnd(20))]);
  }
  let expected = 0;
  let full = 0;
  prompts.forEach((p, r) => {
    const fullBlocks = Math.floor(p.length / 4);
    full += fullBlocks;
    for (let i = 0; i < fullBlocks && (i + 1) * 4 <= p.length - 1; i++) {
      const head = p.slice(0, (i + 1) * 4).join();
      if (!prompts.slice(0, r).some((q) => q.length >= (i + 1) * 4 && q.slice(0, (i + 1) * 4).join() === head)) break;
      expected++;
    }
  });
  const w = trace(prompts.map((tokens) => ({ tokens, output_len: 3 })));
  for (const policy of ['lru', 'retention'] as const) {
    const st = run(w, {
      primaryBlocks: 100_000,
      enablePartialReuse: false,
      policy,
      retention: spec({ token_range_retention_configs: [{ token_start: 0, token_end: null, priority: 70 }] }),
    });
    assert.equal(st.promptBlocks, full);
    assert.equal(st.reusedBlocks, expected, policy);
    assert.equal(st.evictions, 0);
  }
  assert.ok(expected > 100, `the prompts share prefixes (${expected} reusable blocks)`);
});

// A chat = 8-token system prompt (2 blocks) + 4-token message: 3 blocks. A document = 40 one-off tokens: 10 blocks.
const SYSTEM = seq(1000, 8);
const chat = (k: number, extra: object = {}) => ({ tokens: [...SYSTEM, ...seq(2000 + 10 * k, 4)], output_len: 1, ...extra });
const doc = (k: number, extra: object = {}) => ({ tokens: seq(10_000 + 100 * k, 40), output_len: 1, ...extra });
const PIN_SYSTEM = { token_range_retention_configs: [{ token_start: 0, token_end: 8, priority: 100 }] };

test('pool too small: pinned system-prompt blocks survive documents that flush them under LRU', () => {
  // 14 blocks. LRU: chat1 takes 0,1,2 and releases them last block first, so the free queue is [3..13, 2, 1, 0].
  // doc1 takes 3..12; released, the queue is [13, 2, 1, 0, 12 … 3]; doc2 takes 13, 2, 1, 0, 12 … 7: the system
  // prompt (blocks 0, 1) is evicted and chat2 recomputes it. Evictions: doc2 drops 2, 1, 0 and doc1's 12 … 7 (9),
  // chat2 drops doc1's 6, 5, 4 (3).
  const w = trace([chat(1), doc(1), doc(2), chat(2)]);
  const lru = run(w, { primaryBlocks: 14 });
  assert.deepEqual([lru.reusedBlocks, lru.promptBlocks, lru.evictions], [0, 26, 12]);
  // Retention, the same config for every request: tokens [0, 8) at priority 100. chat1's system blocks go to the
  // priority-100 queue; doc1 also pins its own first two blocks (3, 4) and takes 3 … 12 from the priority-35 queue;
  // doc2 needs 10 blocks and the priority-35 queue holds exactly 10 (13, 2, 12 … 5), so blocks 0 and 1 survive and
  // chat2 reuses both.
  const pinned = run(w, { primaryBlocks: 14, policy: 'retention', retention: spec(PIN_SYSTEM) });
  assert.deepEqual([pinned.reusedBlocks, pinned.promptBlocks], [2, 26]);
  assert.equal(pinned.hitRate, 2 / 26);
});

test('mixed trace: chats sharing a system prompt and one-off documents; retention wins by the chats LRU loses', () => {
  // The retention file pins the system prompt; chats take it (no "retention" key), documents opt out ("retention":
  // null), so their first blocks are not pinned. LRU applies no file. In 14 blocks, one document leaves the
  // most recently released system prompt in place under LRU (it takes 10 of the 11 older blocks); two documents in
  // a row flush it. With the pin, documents only ever take priority-35 blocks, of which there are always 12.
  // Sequence: c d d c d c c d d c. Chats after the first: 4. LRU misses the system prompt after each "d d" (2 chats)
  // and hits it after "c d" and "c c" (2 chats): 2 × 2 blocks. Retention hits it in all 4: 4 × 2 blocks. The margin,
  // 4 blocks, is the 2 system-prompt blocks of each chat that follows two documents.
  const order = 'cddcdccddc';
  let c = 0;
  let d = 0;
  const lines = [...order].map((k) => (k === 'c' ? chat(c++) : doc(d++, { retention: null })));
  const w = trace(lines);
  const lru = run(w, { primaryBlocks: 14, retention: spec(PIN_SYSTEM) });
  const pinned = run(w, { primaryBlocks: 14, policy: 'retention', retention: spec(PIN_SYSTEM) });
  assert.equal(lru.promptBlocks, 5 * 3 + 5 * 10);
  assert.equal(lru.reusedBlocks, 4);
  assert.equal(pinned.reusedBlocks, 8);
  const afterTwoDocs = [...order].filter((k, i) => k === 'c' && order.slice(i - 2, i) === 'dd').length;
  assert.equal(pinned.reusedBlocks - lru.reusedBlocks, 2 * afterTwoDocs);
});

test('duration_ms: an expired priority falls back to 35 and its blocks queue behind the LRU ones', () => {
  // 5 blocks. chat1 at t=0 pins its system prompt (blocks 0, 1) at 100 for D ms; it is released at t=10 (when doc1
  // arrives), so it expires at 10 + D. doc1 (t=10) takes 3, 4, 2. doc2 (t=5000): after refresh, an expired
  // system prompt is back at 35, at the end of that queue: [2, 4, 3, 0, 1]; doc2 takes 2, 4, 3. doc3 (t=5005) finds
  // [0, 1, 3, 4, 2] and takes 0, 1, 3: the system prompt is gone for chat2 (t=5010). Unexpired, it stays pinned.
  const lines = [
    { ...chat(1), timestamp: 0 },
    { ...doc(1), tokens: seq(3000, 12), timestamp: 10, retention: null },
    { ...doc(2), tokens: seq(4000, 12), timestamp: 5000, retention: null },
    { ...doc(3), tokens: seq(5000, 12), timestamp: 5005, retention: null },
    { ...chat(2), timestamp: 5010 },
  ];
  const pin = (duration: number | null) =>
    spec({ token_range_retention_configs: [{ token_start: 0, token_end: 8, priority: 100, duration_ms: duration }] });
  const reused = (duration: number | null, policy: 'lru' | 'retention' = 'retention') =>
    run(trace(lines), { primaryBlocks: 5, policy, retention: pin(duration) }).reusedBlocks;
  assert.equal(reused(null), 2);
  assert.equal(reused(10_000), 2); // expires at 10 010, after chat2
  assert.equal(reused(1000), 0); // expired at 1010
  assert.equal(reused(null, 'lru'), 0);
});

test('decode_retention_priority: generated blocks a later turn sends back are kept or evicted by it', () => {
  // turn1: 8-token prompt at priority 90, 5 generated tokens it names (so turn2 can send them back). Stored: 12 tokens
  // = [10-13] [14-17] [50-53] (the last generated token is never stored), the third block at the decode priority.
  // A 2-block filler then needs two blocks from the free queues: [3, 4] at 35, the reply block at X. With X = 10 the
  // reply is the lowest priority and goes first; with 35 or 90 blocks 3 and 4 go. turn2 sends prompt + reply + 3
  // tokens: 3 full hits when the reply survived, 2 when not.
  const lines = [
    { tokens: seq(10, 8), output_tokens: seq(50, 5) },
    { tokens: seq(700, 8), output_len: 1, retention: null },
    { tokens: [...seq(10, 8), ...seq(50, 5), ...seq(60, 3)], output_len: 1 },
  ];
  const file = (x: number) =>
    spec({ token_range_retention_configs: [{ token_start: 0, token_end: null, priority: 90 }], decode_retention_priority: x });
  const hits = (x: number, policy: 'lru' | 'retention' = 'retention') =>
    run(trace(lines), { primaryBlocks: 5, policy, retention: file(x) }).reusedBlocks;
  assert.equal(hits(10), 2);
  assert.equal(hits(35), 3);
  assert.equal(hits(90), 3);
  assert.equal(hits(10, 'lru'), 3);
});

test('host tier: evicted blocks at or above secondary_offload_min_priority are offloaded and onboarded on reuse', () => {
  // GPU 3 blocks (0-2), host 3 (3-5), LRU, no partial reuse. req1 stores [0-3] [4-7] in blocks 0, 1. The filler
  // needs 3: block 2 (never used), then 1 and 0, whose contents move to host blocks 3 and 4 (2 offloads; they stay
  // in the tree). req3 matches [0-3] in the host tier: onboarding takes a GPU block (the filler's last, offloaded to
  // host block 5: 3rd offload) and swaps it in (1 onboard). Its tail [4,5,6] is no exact match, so a new block is
  // taken: the filler's middle block, offloaded into the host block holding [4-7] (4th offload), which drops it.
  const w = trace([
    { tokens: seq(0, 8), output_len: 1 },
    { tokens: seq(100, 12), output_len: 1 },
    { tokens: seq(0, 8), output_len: 1 },
  ]);
  const host = run(w, { primaryBlocks: 3, secondaryBlocks: 3, enablePartialReuse: false });
  assert.deepEqual([host.reusedBlocks, host.offloads, host.onboards, host.evictions], [1, 4, 1, 1]);
  // No host tier, or a threshold above every block's priority (35 < 40): evicted blocks are dropped, nothing reused.
  const none = run(w, { primaryBlocks: 3, enablePartialReuse: false });
  assert.deepEqual([none.reusedBlocks, none.offloads, none.onboards], [0, 0, 0]);
  const high = run(w, { primaryBlocks: 3, secondaryBlocks: 3, secondaryOffloadMinPriority: 40, enablePartialReuse: false });
  assert.deepEqual([high.reusedBlocks, high.offloads], [0, 0]);
});

test('concurrency: a running request shares its stored blocks, and held blocks are never evicted', () => {
  // 6 blocks, 2 requests at once. A (12 tokens: blocks 0, 1, 2) stores [0-3] [4-7] after its context; A2 (same
  // prompt) arrives while A runs and shares blocks 0 and 1 (2 hits), allocating only block 3. B (3 blocks) retires A:
  // blocks 0 and 1 are still held by A2, so only A's block 2 is released; B takes 4, 5 and 2 (evicting [8-11] only).
  const A = { tokens: seq(0, 12), output_len: 1 };
  const sim = new Simulator(cfg({ primaryBlocks: 6, concurrency: 2, enablePartialReuse: false }));
  const w = trace([A, A, { tokens: seq(100, 12), output_len: 1 }, A]);
  const it = w.requests()[Symbol.iterator]();
  sim.add(it.next().value);
  sim.add(it.next().value);
  assert.deepEqual([sim.pool.refs[0], sim.pool.refs[1], sim.pool.freePrimary], [2, 2, 2]);
  sim.add(it.next().value);
  assert.equal(sim.pool.evictions, 1);
  assert.ok(sim.pool.inTree(0) && sim.pool.inTree(1));
  assert.deepEqual([sim.pool.refs[0], sim.pool.refs[1]], [1, 1]);
  sim.add(it.next().value); // retires A2; its blocks 0 and 1 are reused again
  const st = sim.finish();
  assert.deepEqual([st.reusedBlocks, st.promptBlocks], [4, 12]);
});

test('token traces: no "retention" uses the command line config, null none, an object its own', () => {
  // File config: tokens [0, 8) at 80, decode 40. Each request: 8 prompt tokens + 4 generated = 11 stored tokens,
  // 3 blocks (2 prompt, 1 with generated tokens). Priorities in the tree afterwards:
  //   line 1 (no key): 80, 80, decode 40;  line 2 (null): 35, 35, decode 35;  line 3 (own [0,4) at 60, decode 50): 60, 35, 50.
  // Under LRU the file is not applied (line 1 at 35 too); line 3's own config still is.
  const file = spec({ token_range_retention_configs: [{ token_start: 0, token_end: 8, priority: 80 }], decode_retention_priority: 40 });
  const w = trace([
    { tokens: seq(0, 8), output_len: 4 },
    { tokens: seq(100, 8), output_len: 4, retention: null },
    {
      tokens: seq(200, 8),
      output_len: 4,
      retention: { token_range_retention_configs: [{ token_start: 0, token_end: 4, priority: 60 }], decode_retention_priority: 50 },
    },
  ]);
  const census = (policy: 'lru' | 'retention', retention = file) => {
    const sim = new Simulator(cfg({ policy, retention }));
    const st = sim.run(w.requests());
    const p = new Float64Array(101);
    sim.pool.census(p, new Float64Array(101));
    return {
      byPriority: [...p.entries()].filter(([, n]) => n).map(([k, n]) => [k, n]),
      pinned: st.pinnedByOrigin,
      evictions: st.evictions,
    };
  };
  const r = census('retention');
  assert.deepEqual(r.byPriority, [
    [35, 4],
    [40, 1],
    [50, 1],
    [60, 1],
    [80, 2],
  ]);
  // Origins (file range 0, default, decode, per-request config): line 1's two pinned blocks; line 2's two and line 3's
  // second at the default; three decode blocks; line 3's first under its own config.
  assert.deepEqual(r.pinned, [2, 3, 3, 1]);
  assert.deepEqual(census('lru').byPriority, [
    [35, 7],
    [50, 1],
    [60, 1],
  ]);
  // Below the default, a released block goes before never-used blocks (the lowest priority queue is served first):
  // with decode at 20, line 2's first block evicts line 1's decode block though 990 blocks were never used.
  const low = census('retention', { ...file, decodePriority: 20 });
  assert.equal(low.evictions, 1);
  assert.equal(r.evictions, 0);
});

test('retention configs are validated as the C++ constructor does, with the rules RT2, RT4, RT5 the checker reports', () => {
  const err = (v: object) => {
    const r = retentionFromObject(v);
    return 'error' in r ? r.error : 'ok';
  };
  const range = (a: number, b: number | null, p = 50) => ({ token_start: a, token_end: b, priority: p });
  assert.equal(
    err({ token_range_retention_configs: [range(0, null), range(30, 50)] }),
    'only the last range may leave token_end unset; [0, end) is followed by the range starting at 30',
  );
  assert.equal(err({ token_range_retention_configs: [range(0, 64), range(60, 80)] }), 'token ranges [0, 64) and [60, 80) overlap');
  assert.equal(
    err({ token_range_retention_configs: [range(8, 8)] }),
    'token range [8, 8) must have a positive, non-zero length (token_end > token_start)',
  );
  assert.equal(
    err({ token_range_retention_configs: [range(-32, 8)] }),
    'token_start -32 must be ≥ 0 (Token indices must be non-negative.)',
  );
  assert.equal(
    err({ token_range_retention_configs: [range(0, 8, 101)] }),
    'token_range_retention_configs[0].priority 101 is outside 0..100',
  );
  assert.equal(err({ token_range_retention_configs: [range(50, 100), range(30, 40)] }), 'ok'); // sorted first, as upstream
  assert.equal(err({ decode_retention_priority: -1 }), 'decode_retention_priority -1 is outside 0..100');
});
