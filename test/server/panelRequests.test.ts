// The KV reuse and Compare sections' requests over JSON-RPC (recipeLens/kvReuse, recipeLens/compareLog), as any
// editor sends them: the simulation's hit rates are exactly `recipe-lens simulate --format json`'s on the same inputs,
// and the comparison's rows are those of the core function `recipe-lens compare` runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { compareLog } from '../../src/core/memory/logs.js';
import { compareLogVM } from '../../src/core/panel/compareLog.js';
import { parseLspResult, type CompareLogResult, type KvReuseResult } from '../../src/protocol.js';
import { EXAMPLES, REPO, SHARED } from '../helpers.js';
import { CLI, fileUri, TestClient } from './client.js';

const TRACE = join(SHARED, 'traces', 'mooncake', 'synthetic_trace.jsonl');
const RETENTION = join(EXAMPLES, 'retention_system_prompt.yaml');
const OPTIONS = join(EXAMPLES, 'trtllm_llama3_70b_serve.yaml');
const RECIPE = join(EXAMPLES, 'llama3_8b_128k.yaml');
const LOG = join(REPO, 'test', 'fixtures', 'logs', 'train_pp2.log');

/** `recipe-lens simulate --format json`'s hit rates per pool: [pool, LRU, retention or null]. */
function simulateJson(args: string[]): [number, number, number | null][] {
  const out = JSON.parse(execFileSync(process.execPath, [CLI, 'simulate', '--format', 'json', ...args], { encoding: 'utf8' })) as {
    sweep: { poolBlocks: number; policies: { lru: { hitRate: number }; retention?: { hitRate: number } } }[];
  };
  return out.sweep.map((p) => [p.poolBlocks, p.policies.lru.hitRate, p.policies.retention?.hitRate ?? null]);
}

async function kvReuse(c: TestClient, uri: string, workload: unknown, poolSweep?: number[]) {
  const raw = await c.request('recipeLens/kvReuse', { textDocument: { uri }, workload, ...(poolSweep ? { poolSweep } : {}) });
  const r = parseLspResult('recipeLens/kvReuse', raw);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.msg as KvReuseResult;
}

test('recipeLens/kvReuse: the Mooncake trace against a retention file, hit rates exactly those of recipe-lens simulate', async () => {
  const c = new TestClient();
  await c.initialize();
  const uri = fileUri(RETENTION);
  await c.open(uri, readFileSync(RETENTION, 'utf8'));
  const r = await kvReuse(c, uri, { kind: 'file', path: TRACE }, [1000, 4000, 16000]);
  assert.ok(r.ok, r.ok ? '' : r.reason);
  assert.equal(r.kind, 'mooncake');
  assert.equal(r.version, 1);
  assert.equal(r.message, '3,993 requests read');
  const expected = simulateJson(['--workload', TRACE, '--pool-blocks', '1000,4000,16000', RETENTION]);
  assert.deepEqual(
    r.points.map((p) => [p.poolBlocks, p.lru, p.retention]),
    expected,
  );
  // The figures the CLI printed when this test was written (the LRU curve; retention pins the system prompt).
  assert.deepEqual(
    expected.slice(0, 2).map(([, l]) => l),
    [12969 / 1910336, 46820 / 1910336],
  );
  // The view model: one point per pool with the same rates, the pinning table at the middle pool.
  assert.deepEqual(
    r.vm.curve.points.map((p) => [p.poolBlocks, p.lru.text, p.retention?.text]),
    expected.map(([n, l, t]) => [n, `LRU ${(100 * l).toFixed(1)}%`, `retention ${(100 * t!).toFixed(1)}%`]),
  );
  assert.equal(r.vm.curve.marker, null);
  assert.match(r.vm.pinning!.summary, /^At 4,000 blocks: retention /);
  assert.equal(r.vm.subtitle, 'synthetic_trace.jsonl (3993 requests, 512-token trace blocks) · 32 tokens per block');
  await c.stop();
});

test('recipeLens/kvReuse: an options file marks its own pool; LRU only; same rates as simulate --options', async () => {
  const c = new TestClient();
  await c.initialize();
  const uri = fileUri(OPTIONS);
  await c.open(uri, readFileSync(OPTIONS, 'utf8'));
  const r = await kvReuse(c, uri, { kind: 'file', path: TRACE }, [2000, 30634]);
  assert.ok(r.ok, r.ok ? '' : r.reason);
  assert.deepEqual(
    r.points.map((p) => [p.poolBlocks, p.lru, p.retention]),
    simulateJson(['--workload', TRACE, '--pool-blocks', '2000,30634', '--options', OPTIONS, '--gpu', 'h100']),
  );
  // The file's pool (30,634 blocks on the H100, as the memory section shows) at the right end of the axis.
  assert.deepEqual(r.vm.curve.marker, { x: 100, label: 'options file: 30,634 blocks' });
  assert.equal(r.vm.pinning, null);
  assert.equal(r.vm.occupancy?.title, 'LRU at 30,634 blocks');
  await c.stop();
});

test('recipeLens/kvReuse: a KV event stream is told by content; malformed traces, unknown workloads and training files get reasons', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-kvreuse-'));
  const events = join(dir, 'events <b>.jsonl');
  const ev = (id: number, data: object) => JSON.stringify({ event_id: id, data, window_size: 64 });
  writeFileSync(
    events,
    [
      ev(0, { type: 'created', num_blocks_per_cache_level: [4, 2] }),
      ev(1, {
        type: 'stored',
        parent_hash: null,
        blocks: [{ type: 'stored_block', block_hash: 1, tokens: [], cache_level: 0, priority: 35 }],
      }),
    ].join('\n'),
  );
  const bad = join(dir, 'bad.jsonl');
  writeFileSync(bad, '{"hash_ids": [1, 2], "input_length": 1024, "output_length": 1}\n{"hash_ids": [1, \n');
  const c = new TestClient();
  await c.initialize();
  const uri = fileUri(RETENTION);
  await c.open(uri, readFileSync(RETENTION, 'utf8'));
  const e = await kvReuse(c, uri, { kind: 'file', path: events });
  assert.ok(e.ok);
  assert.equal(e.kind, 'events');
  assert.deepEqual(e.points, []);
  assert.equal(e.vm.subtitle, 'events <b>.jsonl (2 KV cache events) · 32 tokens per block');
  assert.deepEqual(
    e.vm.occupancy!.series.map((s) => [s.tier, s.priority, s.values]),
    [['GPU', 35, [0, 25]]],
  );
  const b = await kvReuse(c, uri, { kind: 'file', path: bad });
  assert.deepEqual(b.ok ? null : b.reason.split(':')[0], 'bad.jsonl');
  assert.match(b.ok ? '' : b.reason, /line 2/);
  assert.deepEqual(await kvReuse(c, uri, { kind: 'file', path: join(dir, 'missing.jsonl') }), {
    ok: false,
    reason: 'cannot read missing.jsonl: ENOENT',
  });
  assert.deepEqual(await kvReuse(c, uri, { kind: 'builtin', name: 'nosuch' }), {
    ok: false,
    reason: 'unknown workload "nosuch" (chat, multiturn, agentic, rag, mix, or a .jsonl trace)',
  });
  const recipe = fileUri(RECIPE);
  await c.open(recipe, readFileSync(RECIPE, 'utf8'));
  assert.deepEqual(await kvReuse(c, recipe, { kind: 'builtin', name: 'chat' }), {
    ok: false,
    reason: 'KV reuse is simulated for TensorRT-LLM options files and KV retention configs',
  });
  await assert.rejects(c.request('recipeLens/kvReuse', { textDocument: { uri }, workload: { kind: 'builtin', name: '<script>' } }), {
    message: 'recipeLens/kvReuse: workload.name is not a workload name',
  });
  await c.stop();
});

test('recipeLens/compareLog: per rank and level, measured peaks against the stage estimate, as recipe-lens compare computes them', async () => {
  const c = new TestClient();
  await c.initialize();
  const uri = fileUri(RECIPE);
  const text = readFileSync(RECIPE, 'utf8');
  await c.open(uri, text);
  const raw = await c.request('recipeLens/compareLog', { textDocument: { uri }, logPath: LOG });
  const p = parseLspResult('recipeLens/compareLog', raw);
  assert.ok(p.ok, p.ok ? '' : p.error);
  const r = p.msg as CompareLogResult;
  assert.ok(r.ok, r.ok ? '' : r.reason);
  // The same core function on the same text and the server's default settings.
  const e = analyze(text, { gpu: 'h100', profile: 'megatron', attention: 'flash', maxLength: 5120 * 1024, documentPath: RECIPE }).main!
    .estimate!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  const expected = compareLogVM(
    compareLog(readFileSync(LOG, 'utf8'), 'train_pp2.log', e.estimate),
    e,
    'train_pp2.log',
    'llama3_8b_128k.yaml',
  );
  assert.deepEqual(r.vm, expected);
  // Rank 0 is stage 0 and rank 32 stage 1 (64 GPUs, PP 2: 32 ranks per stage); peaks in MiB as logged, and the
  // "allocated" each line printed after the step.
  assert.deepEqual(
    r.vm.rows.map((x) => x.cells.slice(0, 4)),
    [
      ['0', '0', 'max allocated', '50.00 GiB'],
      ['0', '0', 'max reserved', '56.00 GiB'],
      ['0', '0', 'allocated after the step', '29.30 GiB'],
      ['32', '1', 'max allocated', '40.00 GiB'],
      ['32', '1', 'max reserved', '45.00 GiB'],
      ['32', '1', 'allocated after the step', '24.41 GiB'],
    ],
  );
  assert.equal(r.vm.title, 'train_pp2.log against llama3_8b_128k.yaml');
  assert.equal(r.vm.rows.filter((x) => x.worst).length, 1);

  const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-comparelog-'));
  const empty = join(dir, 'empty.log');
  writeFileSync(empty, 'loss 1.0\n');
  const none = (await c.request('recipeLens/compareLog', { textDocument: { uri }, logPath: empty })) as CompareLogResult;
  assert.ok(none.ok);
  assert.deepEqual(none.vm.rows, []);
  assert.match(none.vm.notes[0]!, /^no memory lines found/);
  assert.deepEqual(await c.request('recipeLens/compareLog', { textDocument: { uri }, logPath: dir }), {
    ok: false,
    reason: `${dir.split('/').pop()} is not a file`,
  });
  const serving = fileUri(OPTIONS);
  await c.open(serving, readFileSync(OPTIONS, 'utf8'));
  assert.deepEqual(await c.request('recipeLens/compareLog', { textDocument: { uri: serving }, logPath: LOG }), {
    ok: false,
    reason: 'no training estimate for this file; nothing to compare with',
  });
  await c.stop();
});
