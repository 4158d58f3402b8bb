#!/usr/bin/env node
// KV reuse simulator budgets (issue "KV-cache reuse simulator"), run by `npm run bench` after bench/run.mjs's own
// series, or alone:  node bench/kvsim.mjs [--quick]
//   - the Mooncake FAST'25 synthetic trace (3,993 requests) at one pool size: parse + simulate ≤ 0.5 s
//   - the same trace over 16 pool sizes (LRU): ≤ 3 s
//   - one million synthetic requests (chat, 32-token blocks): ≤ 10 s
//   - peak memory: each synthetic run in its own process, 10^5 and 10^6 requests (bounded by the pool, not the trace)
// Timings are medians of several runs after a warm-up; each process's peak RSS comes from process.resourceUsage().
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, 'bench', 'tmp');
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const bundle = join(tmp, 'kvsim.cjs');

if (!args.includes('--child')) {
  mkdirSync(tmp, { recursive: true });
  await esbuild.build({
    // The simulator and the settings helper the server and `recipe-lens simulate` use (simConfigFrom).
    stdin: {
      contents: "export * from './src/core/kvsim/index.ts'; export { simConfigFrom } from './src/core/kvsim/fromAnalysis.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    logLevel: 'warning',
    absWorkingDir: root,
  });
}
const kv = createRequire(import.meta.url)(bundle);

// KvCacheConfig's reuse defaults (no options file), plain LRU, one request at a time; each run sets its pool and block size.
const CFG = { ...kv.simConfigFrom(null, { tokensPerBlock: 0, secondaryBlocks: 0, retention: null, concurrency: 1 }), policy: 'lru' };
const SYNTH_POOL = 32768;

function synthetic(n) {
  const spec = kv.parseWorkloadSpec('chat');
  const w = kv.syntheticWorkload(spec, n, 1);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const sim = new kv.Simulator({ ...CFG, primaryBlocks: SYNTH_POOL, tokensPerBlock: 32 });
  const s = sim.run(w.requests());
  return {
    ms: performance.now() - t0,
    cpuMs: process.cpuUsage(cpu0).user / 1000,
    hitRate: s.hitRate,
    promptBlocks: s.promptBlocks,
    poolBytes: sim.pool.bytes,
    rssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

if (args.includes('--child')) {
  process.stdout.write(JSON.stringify(synthetic(Number(args[args.indexOf('--child') + 1]))));
  process.exit(0);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const mib = (b) => `${(b / 1048576).toFixed(1)} MiB`;
const rows = [];
const row = (what, figure, budget, ok) =>
  rows.push(`| ${what} | ${figure} | ${budget} | ${ok === undefined ? '—' : ok ? 'met' : 'MISSED'} |`);

const tracePath = join(root, '..', 'shared', 'traces', 'mooncake', 'synthetic_trace.jsonl');
if (existsSync(tracePath)) {
  const text = readFileSync(tracePath, 'utf8');
  const runs = QUICK ? 3 : 7;
  // One pool size: 3M tokens of 512-token blocks (the paper's "local cache" point), parse included.
  const one = () => {
    const t0 = performance.now();
    const t = kv.readMooncake(kv.splitLines(text), 512);
    const tParse = performance.now();
    const s = kv.simulate(kv.mooncakeWorkload(t), { ...CFG, primaryBlocks: 5859, tokensPerBlock: 512 });
    return { total: performance.now() - t0, parse: tParse - t0, hitRate: s.hitRate };
  };
  one();
  const ones = Array.from({ length: runs }, one);
  const m = median(ones.map((o) => o.total));
  row(
    `Mooncake trace, 3,993 requests, one pool (5,859 × 512 tokens), parse + simulate (hit rate ${(100 * ones[0].hitRate).toFixed(2)}%)`,
    `${fmt(m)} ms (parse ${fmt(median(ones.map((o) => o.parse)))} ms)`,
    '≤ 500 ms',
    m <= 500,
  );
  // 16 pool sizes from 1,024 to 131,072 blocks (0.5M to 67M tokens), LRU, parsed once.
  const t = kv.readMooncake(kv.splitLines(text), 512);
  const w = kv.mooncakeWorkload(t);
  const sizes = Array.from({ length: 16 }, (_, i) => Math.round(1024 * 2 ** ((7 * i) / 15)));
  const sweepOnce = () => {
    const t0 = performance.now();
    const pts = kv.sweep(w, sizes, { ...CFG, tokensPerBlock: 512 });
    return { ms: performance.now() - t0, last: pts[pts.length - 1].lru.hitRate, first: pts[0].lru.hitRate };
  };
  sweepOnce();
  const sw = Array.from({ length: QUICK ? 1 : 3 }, sweepOnce);
  const ms = median(sw.map((s) => s.ms));
  row(
    `Mooncake trace, sweep of 16 pool sizes (1,024 … 131,072 blocks; LRU ${(100 * sw[0].first).toFixed(1)}% … ${(100 * sw[0].last).toFixed(1)}%)`,
    `${fmt(ms)} ms`,
    '≤ 3,000 ms',
    ms <= 3000,
  );
  // The same with a retention config (the panel's two curves): 32 runs.
  const pin = kv.retentionFromObject({ token_range_retention_configs: [{ token_start: 0, token_end: 4096, priority: 90 }] }).spec;
  const both = () => {
    const t0 = performance.now();
    kv.sweep(w, sizes, { ...CFG, tokensPerBlock: 512, retention: pin });
    return performance.now() - t0;
  };
  const msBoth = median(Array.from({ length: QUICK ? 1 : 3 }, both));
  row('Mooncake trace, the same 16 sizes under LRU and a retention config (32 runs)', `${fmt(msBoth)} ms`, '≤ 3,000 ms', msBoth <= 3000);
} else row('Mooncake trace', 'not measured (../shared/traces/mooncake missing)', '—');

// Synthetic runs, each in a fresh process so that its peak RSS is its own.
const child = (n) =>
  JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(n)], { encoding: 'utf8' }));
const small = child(100_000);
const big = child(1_000_000);
row(
  `1,000,000 synthetic chat requests (1,280-token prompts, ${big.promptBlocks.toLocaleString('en-US')} prompt blocks of 32 tokens, pool ${SYNTH_POOL.toLocaleString('en-US')} blocks, hit rate ${(100 * big.hitRate).toFixed(2)}%)`,
  `${fmt(big.ms)} ms (CPU ${fmt(big.cpuMs)} ms)`,
  '≤ 10,000 ms',
  big.ms <= 10_000,
);
row(
  'peak RSS of the process: 100,000 vs 1,000,000 requests (same pool)',
  `${mib(small.rssBytes)} vs ${mib(big.rssBytes)}; simulator arrays ${mib(big.poolBytes)}`,
  'bounded by the pool',
  big.rssBytes < 1.5 * small.rssBytes,
);

const out = [
  `KV reuse simulator (node ${process.version}, ${new Date().toISOString().slice(0, 10)})`,
  '',
  '| measurement | figure | budget | |',
  '|---|---:|---|---|',
  ...rows,
].join('\n');
process.stdout.write(out + '\n');
