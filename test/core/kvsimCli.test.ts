// `recipe-lens simulate`: flags, the JSON shape, sweeps, the options and retention files, exit codes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { poolFromOptions, retentionFromYaml, simulateCommand } from '../../src/cli/simulateCommand.js';
import { analyze } from '../../src/core/analysis.js';
import { EXAMPLES } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-kvsim-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const run = (...args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const status = simulateCommand(
    args,
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
};

const seq = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
// Three 16-token prompts sharing their first 8 tokens, at 4 tokens per block: 4 full blocks each, the 2nd and 3rd
// reuse 2 (the shared 8 tokens).
const TRACE = file(
  'trace.jsonl',
  [0, 1, 2].map((k) => JSON.stringify({ tokens: [...seq(0, 8), ...seq(100 + 10 * k, 8)], output_len: 2 })).join('\n') + '\n',
);
const RETENTION = file(
  'retention.yaml',
  'token_range_retention_configs:\n  - token_start: 0\n    token_end: 8\n    priority: 90\ndecode_retention_priority: 10\n',
);

test('JSON: one pool size has the documented shape, with a retention file both policies', () => {
  const r = run('--pool-blocks', '64', '--tokens-per-block', '4', '--workload', TRACE, '--format', 'json', RETENTION);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ['poolBlocks', 'tokensPerBlock', 'requests', 'policies', 'workload', 'hostBlocks']);
  assert.deepEqual([out.poolBlocks, out.tokensPerBlock, out.requests, out.hostBlocks], [64, 4, 3, 0]);
  assert.deepEqual(Object.keys(out.policies), ['lru', 'retention']);
  for (const [name, p] of Object.entries(out.policies) as [string, Record<string, number>][]) {
    assert.deepEqual(Object.keys(p), [
      'hitRate',
      'reusedBlocks',
      'promptBlocks',
      'evictions',
      'offloads',
      'onboards',
      'prefillTokensSaved',
      'partialReuses',
      'skippedRequests',
    ]);
    // Under the retention file the generated blocks sit at priority 10, below never-used blocks (35): the 2nd and 3rd
    // requests each evict the previous request's generated block first.
    const evictions = name === 'retention' ? 2 : 0;
    assert.deepEqual(
      [p.hitRate, p.reusedBlocks, p.promptBlocks, p.evictions, p.offloads, p.prefillTokensSaved],
      [4 / 12, 4, 12, evictions, 0, 16],
    );
  }
  const lruOnly = JSON.parse(run('--pool-blocks', '64', '--tokens-per-block', '4', '--workload', TRACE, '--format', 'json').stdout);
  assert.deepEqual(Object.keys(lruOnly.policies), ['lru']);
});

test('a list of pool sizes is a sweep: one object per size, the hit-rate curve', () => {
  // Each request holds 16 + 2 - 1 = 17 tokens: 5 blocks. In 4 blocks none fits (skipped, counted as requested). In 5,
  // each request evicts its predecessor's last 3 blocks; released last block first, the shared two are the most
  // recent and survive: the same 4 hits as in 64 blocks.
  const r = run('--pool-blocks', '4,5,64', '--tokens-per-block', '4', '--workload', TRACE, '--format', 'json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  type Point = { poolBlocks: number; policies: { lru: { reusedBlocks: number; skippedRequests: number; evictions: number } } };
  assert.deepEqual(
    out.sweep.map((p: Point) => [p.poolBlocks, p.policies.lru.reusedBlocks, p.policies.lru.skippedRequests, p.policies.lru.evictions]),
    [
      [4, 0, 3, 0],
      [5, 4, 0, 6],
      [64, 4, 0, 0],
    ],
  );
  assert.deepEqual([out.tokensPerBlock, out.requests], [4, 3]);
  const text = run('--pool-blocks', '4,64', '--tokens-per-block', '4', '--workload', TRACE);
  assert.equal(text.status, 0);
  assert.match(text.stdout, /^64 +256 +lru +33\.33% +4 \/ 12 +16 tokens +0 +0 +0$/m);
  assert.match(text.stdout, /^4 +16 +lru +0\.00% +0 \/ 12 +0 tokens +0 +0 +3$/m);
  assert.match(text.stdout, /^skipped: requests larger than the whole pool/m);
});

test('the options file gives the pool, the block size and the reuse settings of the memory estimate', () => {
  const path = join(EXAMPLES, 'trtllm_llama3_70b_serve.yaml');
  const text = readFileSync(path, 'utf8');
  const pool = poolFromOptions(text, {});
  assert.ok(!('error' in pool));
  const e = analyze(text).main!.estimate!;
  assert.ok(e.kind === 'serving');
  const kv = e.roles[0]!.kv;
  assert.deepEqual(
    [pool.poolBlocks, pool.tokensPerBlock, pool.hostBlocks, pool.secondaryOffloadMinPriority, pool.enablePartialReuse],
    [kv.poolBlocks, 32, kv.host.blocks, 30, true],
  );
  const r = run('--options', path, '--workload', 'chat:system=256,user=64,output=32', '--requests', '50', '--format', 'json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual([out.poolBlocks, out.tokensPerBlock, out.hostBlocks, out.requests], [kv.poolBlocks, 32, kv.host.blocks, 50]);
  // 50 chats, one 256-token system prompt (8 blocks): 49 × 8 reused.
  assert.equal(out.policies.lru.reusedBlocks, 49 * 8);
  const noReuse = file('noreuse.yaml', 'kv_cache_config:\n  enable_block_reuse: false\n  tokens_per_block: 64\n');
  const off = run('--options', noReuse, '--model', 'llama3-8b', '--workload', 'chat', '--requests', '10', '--format', 'json');
  assert.equal(off.status, 0, off.stderr);
  assert.equal(JSON.parse(off.stdout).tokensPerBlock, 64);
  assert.match(off.stderr, /enable_block_reuse: false/);
});

test('synthetic workloads are deterministic for a seed; "unbounded" sizes the pool to the workload', () => {
  const args = ['--pool-blocks', '300', '--workload', 'mix:doc=2048', '--requests', '300', '--format', 'json'];
  const a = run(...args, '--seed', '5');
  const b = run(...args, '--seed', '5');
  const c = run(...args, '--seed', '6');
  assert.equal(a.stdout, b.stdout);
  assert.notEqual(a.stdout, c.stdout);
  const u = JSON.parse(run('--pool-blocks', 'unbounded', '--tokens-per-block', '4', '--workload', TRACE, '--format', 'json').stdout);
  // 3 requests × 5 blocks.
  assert.deepEqual([u.poolBlocks, u.policies.lru.evictions], [15, 0]);
});

test('KV cache events: the replay summary', () => {
  const ev = file(
    'events.jsonl',
    [
      { event_id: 0, data: { type: 'created', num_blocks_per_cache_level: [100, 0] }, window_size: 512 },
      {
        event_id: 1,
        data: {
          type: 'stored',
          parent_hash: null,
          blocks: [{ type: 'stored_block', block_hash: 5, tokens: [], cache_level: 0, priority: 35 }],
        },
        window_size: 512,
      },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n'),
  );
  const r = run('--pool-blocks', '8', '--workload', ev, '--format', 'json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual([out.source, out.events, out.pools[0].stored, out.pools[0].final.primary], ['kv-cache-events', 2, 1, [[35, 1]]]);
  assert.match(run('--workload', ev).stdout, /^KV cache events: 2\npool \(window 512\): 100 GPU \+ 0 host blocks/);
});

test('exit 2 on usage errors and unreadable or invalid input, with a message and no stack trace', () => {
  const bad = (args: string[], message: RegExp) => {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  };
  bad(['--workload', TRACE], /give the pool: --pool-blocks/);
  bad(['--pool-blocks', '8', '--bogus'], /Unknown option '--bogus'/);
  bad(['--pool-blocks', 'x'], /--pool-blocks must be an integer ≥ 1, got x/);
  bad(['--pool-blocks', '8', '--format', 'xml'], /unknown --format xml/);
  bad(['--pool-blocks', '8', '--workload', 'nope'], /unknown workload "nope"/);
  bad(['--pool-blocks', '8', '--workload', join(dir, 'missing.jsonl')], /cannot read trace .*missing\.jsonl: ENOENT/);
  bad(
    ['--pool-blocks', '8', '--workload', file('bad.jsonl', '{"tokens": [1]}\n{"tokens": "x"}\n')],
    /bad\.jsonl: line 2: "tokens" must be/,
  );
  bad(
    ['--pool-blocks', '8', '--workload', TRACE, file('r.yaml', 'token_range_retention_configs:\n  - token_start: 0\n    priority: 200\n')],
    /r\.yaml: token_range_retention_configs\[0\]\.priority 200 is outside 0\.\.100/,
  );
  bad(['--options', file('x.yaml', 'name: x\ntrainer:\n  devices: 8\n')], /not a TensorRT-LLM options file/);
  bad(['--pool-blocks', '8', 'a.yaml', 'b.yaml'], /at most one RETENTION\.yaml/);
  bad(['--pool-blocks', '5000000'], /pools above 4194304 blocks/);
  bad(['--pool-blocks', '8', '--concurrency', '100000'], /--concurrency is at most 65536/);
  bad(['--pool-blocks', '8', '--requests', '1000000000'], /--requests is at most 100,000,000/);
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: recipe-lens simulate/);
});

test('the retention file reader keeps the values and rejects what the C++ constructor rejects', () => {
  assert.deepEqual(retentionFromYaml(readFileSync(RETENTION, 'utf8')), {
    ranges: [{ tokenStart: 0, tokenEnd: 8, priority: 90, durationMs: null }],
    decodePriority: 10,
    decodeDurationMs: null,
  });
  const example = retentionFromYaml(readFileSync(join(EXAMPLES, 'retention_system_prompt.yaml'), 'utf8'));
  assert.deepEqual(example, {
    ranges: [
      { tokenStart: 0, tokenEnd: 1024, priority: 100, durationMs: null },
      { tokenStart: 1024, tokenEnd: null, priority: 35, durationMs: null },
    ],
    decodePriority: 20,
    decodeDurationMs: 30000,
  });
  assert.deepEqual(
    retentionFromYaml(
      'token_range_retention_configs:\n  - {token_start: 0, token_end: null, priority: 1}\n  - {token_start: 5, token_end: 9, priority: 1}\n',
    ),
    {
      error: 'only the last range may leave token_end unset; [0, end) is followed by the range starting at 5',
    },
  );
});
