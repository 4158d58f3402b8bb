// The KV reuse section's simulation (recipeLens/kvReuse): a workload (built-in, or a trace file told by its content)
// run through kvsim's sweep with the pool of the open options file or the config of the open retention file, the same
// runs `recipe-lens simulate` makes. A sweep takes seconds, so it runs in a worker thread (the CLI bundle as
// `recipe-lens lsp --kv-worker`): the server keeps answering hovers meanwhile. Answers are kept per inputs (the
// document's pool or config, the workload, the trace file's size and time), so a refresh of an unchanged file is free.
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { parentPort, Worker } from 'node:worker_threads';
import {
  MAX_SIM_BLOCKS,
  openTrace,
  parseWorkloadSpec,
  sweep,
  syntheticWorkload,
  workloadBlocks,
  type RetentionSpec,
  type SweepPoint,
  type Workload,
} from '../core/kvsim/index.js';
import { simConfigFrom, type PoolFromOptions } from '../core/kvsim/fromAnalysis.js';
import { buildKvReuseVM, type KvReuseInput } from '../core/panel/kvReuse.js';
import { count } from '../core/units.js';
import type { KvReuseParams, KvReuseResult } from '../protocol.js';

/** Trace files read at most (a Mooncake trace of 10^6 requests is about 400 MB; larger ones are cut with --requests in the CLI). */
export const MAX_TRACE_BYTES = 512 * 2 ** 20;
/** Requests read from a trace at most. */
export const MAX_TRACE_REQUESTS = 1_000_000;
/** Requests of a built-in workload: `recipe-lens simulate`'s default, so the numbers match it. */
export const BUILTIN_REQUESTS = 10_000;
/** Tokens per hash id of a Mooncake trace: `recipe-lens simulate --trace-block-size`'s default. */
export const TRACE_BLOCK_SIZE = 512;
/** Occupancy samples over a run (the section's chart). */
const SAMPLES = 48;
/** A simulation that takes longer is stopped (the worker is terminated) with a clear message. */
const JOB_TIMEOUT_MS = 5 * 60_000;
/** Answers kept. */
const KEPT = 16;

/** What the simulation needs of the open document: an options file's pool, or a retention file's config. */
export type KvInputs =
  | { kind: 'serving'; pool: PoolFromOptions }
  | { kind: 'retention'; retention: RetentionSpec; tokensPerBlock: number }
  | { kind: 'none'; reason: string };

export interface KvJob {
  workload: KvReuseParams['workload'];
  poolSweep: number[] | null;
  inputs: Exclude<KvInputs, { kind: 'none' }>;
}

type JobResult = Exclude<KvReuseResult, { ok: true }> | Omit<Extract<KvReuseResult, { ok: true }>, 'version'>;

/** Pools around the options file's: 1/16 … 4 × its pool (what fits in MAX_SIM_BLOCKS with the host tier). */
export function poolsAround(pool: number, hostBlocks: number): number[] {
  const out = new Set<number>();
  for (const f of [1 / 16, 1 / 8, 1 / 4, 1 / 2, 1, 2, 4]) {
    const n = Math.max(1, Math.round(pool * f));
    if (n + hostBlocks <= MAX_SIM_BLOCKS) out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/** Pools spread over a workload: 1/64 … all of the blocks it would ever hold (an unbounded pool). */
export function poolsOver(allBlocks: number): number[] {
  const out = new Set<number>();
  for (let d = 64; d >= 1; d /= 2) out.add(Math.max(1, Math.min(MAX_SIM_BLOCKS, Math.round(allBlocks / d))));
  return [...out].sort((a, b) => a - b);
}

const rate = (p: SweepPoint) => ({ poolBlocks: p.poolBlocks, lru: p.lru.hitRate, retention: p.retention?.hitRate ?? null });

/** Runs one job (in the worker thread; the tests call it directly). Never throws for bad input: it says why. */
export function runKvJob(job: KvJob): JobResult {
  const { inputs } = job;
  const tokensPerBlock = inputs.kind === 'serving' ? inputs.pool.tokensPerBlock : inputs.tokensPerBlock;
  let workload: Workload;
  let kind: 'synthetic' | 'mooncake' | 'tokens';
  let message: string;
  let requests: number;
  if (job.workload.kind === 'builtin') {
    const spec = parseWorkloadSpec(job.workload.name);
    if ('error' in spec) return { ok: false, reason: spec.error };
    workload = syntheticWorkload(spec, BUILTIN_REQUESTS, 1);
    kind = 'synthetic';
    requests = BUILTIN_REQUESTS;
    message = `${count(BUILTIN_REQUESTS)} requests generated (seed 1)`;
  } else {
    const path = job.workload.path;
    const name = basename(path);
    let text: string;
    try {
      const st = statSync(path);
      if (!st.isFile()) return { ok: false, reason: `${name} is not a file` };
      if (st.size > MAX_TRACE_BYTES)
        return {
          ok: false,
          reason: `${name} is ${count(st.size / 2 ** 20)} MiB; traces of at most ${MAX_TRACE_BYTES / 2 ** 20} MiB are read`,
        };
      text = readFileSync(path, 'utf8');
    } catch (e) {
      return { ok: false, reason: `cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    const opened = openTrace(text, name, { traceBlockSize: TRACE_BLOCK_SIZE, limit: MAX_TRACE_REQUESTS, samples: SAMPLES });
    if ('error' in opened) return { ok: false, reason: `${name}: ${opened.error}` };
    if (opened.kind === 'events') {
      const pool = opened.replay.pools[0];
      const input: KvReuseInput = {
        workload: `${name} (${count(opened.replay.events)} KV cache events)`,
        tokensPerBlock: pool?.tokensPerBlock ?? tokensPerBlock,
        sweep: [],
        filePool: null,
        retention: null,
      };
      if (pool?.samples.length)
        input.occupancy = {
          source: 'events',
          label: `${name}: stored blocks by priority`,
          capacity: pool.capacity?.primary ?? Math.max(1, ...pool.samples.map((s) => s.primary.reduce((t, [, b]) => t + b, 0))),
          samples: pool.samples,
        };
      return {
        ok: true,
        kind: 'events',
        workload: name,
        message: `${count(opened.replay.events)} KV cache events replayed (${opened.replay.pools.length} pool${opened.replay.pools.length === 1 ? '' : 's'}); an event stream has no requests to simulate`,
        points: [],
        vm: buildKvReuseVM(input),
      };
    }
    workload = opened.workload;
    kind = opened.kind;
    requests = opened.requests;
    message = `${count(opened.requests)} requests read${opened.requests >= MAX_TRACE_REQUESTS ? ` (the first ${count(MAX_TRACE_REQUESTS)})` : ''}`;
  }
  const pool = inputs.kind === 'serving' ? inputs.pool : null;
  const retention = inputs.kind === 'retention' ? inputs.retention : null;
  const hostBlocks = pool?.hostBlocks ?? 0;
  const sizes = job.poolSweep ?? (pool ? poolsAround(pool.poolBlocks, hostBlocks) : poolsOver(workloadBlocks(workload, tokensPerBlock)));
  const over = sizes.find((s) => s + hostBlocks > MAX_SIM_BLOCKS);
  if (over !== undefined)
    return {
      ok: false,
      reason: `pools above ${count(MAX_SIM_BLOCKS)} blocks (GPU + host) are not simulated (${count(over + hostBlocks)})`,
    };
  // The pool the pinning table and the occupancy chart describe: the file's, else the middle of the sweep.
  const detailPool =
    pool && sizes.includes(pool.poolBlocks) ? pool.poolBlocks : [...sizes].sort((a, b) => a - b)[Math.floor(sizes.length / 2)]!;
  const cfg = simConfigFrom(pool, { tokensPerBlock, secondaryBlocks: hostBlocks, retention, concurrency: 1 });
  const points = sweep(workload, sizes, cfg);
  // The detail run with occupancy samples (the sweep's runs take none: samples do not change the hit rates).
  const detail = sweep(workload, [detailPool], { ...cfg, samples: SAMPLES, expectedRequests: requests })[0]!;
  const shown = detail.retention ?? detail.lru;
  const input: KvReuseInput = {
    workload: workload.name,
    tokensPerBlock,
    sweep: points,
    filePool: pool?.poolBlocks ?? null,
    retention,
    occupancy: {
      source: 'simulation',
      label: `${detail.retention ? 'retention' : 'LRU'} at ${count(detailPool)} blocks`,
      capacity: detailPool,
      samples: shown.samples,
    },
  };
  if (detail.retention) input.detail = { poolBlocks: detailPool, lru: detail.lru, retention: detail.retention };
  if (pool && !pool.enableBlockReuse)
    message += '; the file sets enable_block_reuse: false (nothing is reused there): simulated with reuse on';
  return {
    ok: true,
    kind,
    workload: job.workload.kind === 'builtin' ? job.workload.name : basename(job.workload.path),
    message,
    points: points.map(rate),
    vm: buildKvReuseVM(input),
  };
}

/** The worker side (`recipe-lens lsp --kv-worker`): one job in, its answer out. */
export function runKvWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('--kv-worker runs only as the language server’s worker thread');
  port.on('message', (job: KvJob) => {
    let out: JobResult;
    try {
      out = runKvJob(job);
    } catch (e) {
      out = { ok: false, reason: `the simulation failed: ${(e as Error).message}` };
    }
    port.postMessage(out);
  });
}

/** The main thread's side: answers kept per inputs; each new job in a fresh worker thread, stopped when done. */
export class KvReuseService {
  private readonly kept = new Map<string, Promise<JobResult>>();
  constructor(private readonly entry: string) {}

  run(job: KvJob): Promise<JobResult> {
    let stamp = '';
    if (job.workload.kind === 'file')
      try {
        const st = statSync(job.workload.path);
        stamp = `${st.size}:${st.mtimeMs}`;
      } catch {
        stamp = 'missing';
      }
    const key = JSON.stringify([job, stamp]);
    const hit = this.kept.get(key);
    if (hit) {
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit;
    }
    const p = this.inWorker(job);
    this.kept.set(key, p);
    // A failure to run (not an answer about the input) is not kept.
    void p.then((r) => {
      if (!r.ok && r.reason.startsWith('the simulation')) this.kept.delete(key);
    });
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return p;
  }

  private inWorker(job: KvJob): Promise<JobResult> {
    return new Promise((resolve) => {
      const w = new Worker(this.entry, { argv: ['lsp', '--kv-worker'], stdout: false, stderr: false });
      let done = false;
      const finish = (r: JobResult) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(r);
        void w.terminate();
      };
      const timer = setTimeout(
        () => finish({ ok: false, reason: `the simulation took longer than ${JOB_TIMEOUT_MS / 60_000} minutes and was stopped` }),
        JOB_TIMEOUT_MS,
      );
      w.on('message', (r: JobResult) => finish(r));
      w.on('error', (e) => finish({ ok: false, reason: `the simulation stopped: ${e.message}` }));
      w.on('exit', (code) => finish({ ok: false, reason: `the simulation stopped (exit code ${code})` }));
      w.unref();
      w.postMessage(job);
    });
  }
}
