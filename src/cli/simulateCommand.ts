// `recipe-lens simulate`: TensorRT-LLM's KV block reuse under LRU and under a retention config, on a trace or a
// built-in workload, at one pool size or a sweep of them (src/core/kvsim).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { analyze } from '../core/analysis.js';
import { analyzeWithModelFiles } from '../host/modelFiles.js';
import { poolFromAnalysis, retentionFromDoc, simConfigFrom, type PoolFromOptions } from '../core/kvsim/fromAnalysis.js';
import { DEFAULT_TOKENS_PER_BLOCK } from '../core/memory/kvcache.js';
import {
  eventsJson,
  eventsText,
  MAX_SIM_BLOCKS,
  openTrace,
  parseWorkloadSpec,
  simulationJson,
  simulationText,
  sweep,
  SYNTHETIC,
  syntheticWorkload,
  workloadBlocks,
  type RetentionSpec,
  type Workload,
} from '../core/kvsim/index.js';
import { gpuArg, intArg, modelArg, modelSettings, UsageError, type ModelArg } from './args.js';

export const SIMULATE_USAGE = `usage: recipe-lens simulate [--options OPTIONS.yaml] [--model M] [--gpu G] [--pool-blocks N[,N…]]
                           [--tokens-per-block T] [--host-blocks H] [--trace-block-size B]
                           [--workload NAME|TRACE.jsonl] [--requests N] [--concurrency C] [--seed S]
                           [--format text|json] [RETENTION.yaml]

  simulate            replay a workload through TensorRT-LLM's KV block reuse (radix tree, priorities, host tier):
                      hit rate = full prompt blocks reused / full prompt blocks requested, under plain LRU and,
                      given RETENTION.yaml (a KvCacheRetentionConfig), under its priorities (a token trace's
                      per-request "retention" objects apply under both)
  --options           TensorRT-LLM options file: the KV pool (blocks, tokens_per_block, host tier) from the memory
                      estimate with --model / --gpu, and its enable_partial_reuse, copy_on_partial_reuse,
                      onboard_blocks and secondary_offload_min_priority
  --pool-blocks       GPU pool size in blocks, a comma-separated list for a sweep, or "unbounded"
  --tokens-per-block  block size (default: the options file's, else ${DEFAULT_TOKENS_PER_BLOCK})
  --host-blocks       host (secondary) tier in blocks (default: the options file's host_cache_size, else 0)
  --trace-block-size  tokens per hash id in a Mooncake trace (default 512)
  --workload          a .jsonl trace (Mooncake {"hash_ids"}, token trace {"tokens"}, or TensorRT-LLM KV cache
                      events), or ${Object.keys(SYNTHETIC).join(' | ')}[:key=value,…] (default mix)
  --requests          requests to generate (synthetic, default 10000) or to read from the trace (default all)
  --concurrency       requests holding their blocks at once (default 1: each finishes before the next starts)
  --seed              seed of the synthetic workloads (default 1)
  --format            text (default) or json

synthetic workloads and their parameters (defaults):
${Object.entries(SYNTHETIC)
  .map(
    ([n, w]) =>
      `  ${n.padEnd(10)} ${w.help}\n${' '.repeat(13)}${Object.entries(w.params)
        .map(([k, p]) => `${k}=${p.default}`)
        .join(', ')}`,
  )
  .join('\n')}

exit status: 0 simulated, 2 usage error or unreadable / invalid input`;

export type { PoolFromOptions };

/**
 * The KV pool and reuse settings of a TensorRT-LLM options file, from the memory estimate (parseFile + estimateDoc)
 * and kv_cache_config (core/kvsim/fromAnalysis.ts, shared with the language server).
 */
export function poolFromOptions(
  text: string,
  opts: { model?: ModelArg; gpu?: string; documentPath?: string },
): PoolFromOptions | { error: string } {
  const a = analyzeWithModelFiles(text, {
    ...modelSettings(opts.model),
    ...(opts.gpu ? { explicitGpu: opts.gpu } : {}),
    ...(opts.documentPath ? { documentPath: opts.documentPath } : {}),
    memoryWarnings: false,
  });
  return poolFromAnalysis(a.main);
}

/** The values of a KvCacheRetentionConfig YAML file (its one analysis). The one place that reads the retention file for the simulator. */
export function retentionFromYaml(text: string): RetentionSpec | { error: string } {
  const a = analyze(text, { forcedFormat: 'kv-retention', memoryWarnings: false });
  return retentionFromDoc(a.docs[0]?.doc ?? a.parsed.docs[0]);
}

const OPTIONS = {
  options: { type: 'string' },
  model: { type: 'string' },
  gpu: { type: 'string' },
  'pool-blocks': { type: 'string' },
  'tokens-per-block': { type: 'string' },
  'host-blocks': { type: 'string' },
  'trace-block-size': { type: 'string' },
  workload: { type: 'string' },
  requests: { type: 'string' },
  concurrency: { type: 'string' },
  seed: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

class InputError extends Error {}

/** Bounds that keep a run's time and memory reasonable: 10^8 requests take minutes; 65,536 running requests is far above max_batch_size. */
const MAX_REQUESTS = 100_000_000;
const MAX_CONCURRENCY = 65_536;

/** Runs `recipe-lens simulate` with the arguments after the command name; returns the exit status. */
export function simulateCommand(argv: string[], write: (s: string) => void, warn: (s: string) => void): number {
  try {
    return run(argv, write, warn);
  } catch (e) {
    if (e instanceof UsageError) {
      warn(`recipe-lens: ${e.message}\n${SIMULATE_USAGE}`);
      return 2;
    }
    if (e instanceof InputError) {
      warn(`recipe-lens: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

function run(argv: string[], write: (s: string) => void, warn: (s: string) => void): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) {
    write(SIMULATE_USAGE);
    return 0;
  }
  if (parsed.positionals.length > 1) throw new UsageError('simulate takes at most one RETENTION.yaml');
  const format = v.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`unknown --format ${format} (text or json)`);
  const model = v.model !== undefined ? modelArg(v.model) : undefined;
  const gpu = v.gpu !== undefined ? gpuArg(v.gpu) : undefined;
  const traceBlockSize = v['trace-block-size'] !== undefined ? intArg('trace-block-size', v['trace-block-size'], 1)! : 512;
  const concurrency = v.concurrency !== undefined ? intArg('concurrency', v.concurrency, 1)! : 1;
  if (concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency is at most ${MAX_CONCURRENCY}`);
  const seed = v.seed !== undefined ? intArg('seed', v.seed, 0)! : 1;
  const limit = v.requests !== undefined ? intArg('requests', v.requests, 1)! : undefined;
  if (limit !== undefined && limit > MAX_REQUESTS) throw new UsageError(`--requests is at most ${MAX_REQUESTS.toLocaleString('en-US')}`);
  const sizesArg = v['pool-blocks'];
  const sizes =
    sizesArg === undefined || sizesArg.trim() === 'unbounded'
      ? undefined
      : sizesArg.split(',').map((s) => intArg('pool-blocks', s.trim(), 1)!);
  if (sizes && sizes.length > 256) throw new UsageError('--pool-blocks lists at most 256 sizes');
  const unbounded = sizesArg?.trim() === 'unbounded';

  // The workload: a trace file, or a built-in one.
  const wl = v.workload ?? 'mix';
  let workload: Workload;
  let requests: number;
  if (/\.jsonl?$/i.test(wl)) {
    const opened = openTrace(readText(wl, 'trace'), basename(wl), { traceBlockSize, limit });
    if ('error' in opened) throw new InputError(`${wl}: ${opened.error}`);
    if (opened.kind === 'events') {
      write(format === 'json' ? JSON.stringify(eventsJson(opened.replay), null, 2) : eventsText(opened.replay));
      return 0;
    }
    workload = opened.workload;
    requests = opened.requests;
  } else {
    const spec = parseWorkloadSpec(wl);
    if ('error' in spec) throw new UsageError(spec.error);
    requests = limit ?? 10_000;
    workload = syntheticWorkload(spec, requests, seed);
  }

  // The pool: flags win over the options file.
  let fromFile: PoolFromOptions | undefined;
  if (v.options !== undefined) {
    const r = poolFromOptions(readText(v.options, 'options file'), { model, gpu, documentPath: v.options });
    if ('error' in r) throw new InputError(`no KV pool from ${v.options}: ${r.error}`);
    fromFile = r;
    if (!r.enableBlockReuse)
      warn(`recipe-lens: ${v.options} sets enable_block_reuse: false (nothing is reused there); simulating with reuse on`);
  } else if (!sizes && !unbounded) throw new UsageError('give the pool: --pool-blocks N[,N…] or --options OPTIONS.yaml');
  const tokensPerBlock =
    v['tokens-per-block'] !== undefined
      ? intArg('tokens-per-block', v['tokens-per-block'], 1)!
      : (fromFile?.tokensPerBlock ?? DEFAULT_TOKENS_PER_BLOCK);
  const hostBlocks = v['host-blocks'] !== undefined ? intArg('host-blocks', v['host-blocks'], 0)! : (fromFile?.hostBlocks ?? 0);

  let retention: RetentionSpec | null = null;
  const retentionPath = parsed.positionals[0];
  if (retentionPath !== undefined) {
    const r = retentionFromYaml(readText(retentionPath, 'retention file'));
    if ('error' in r) throw new InputError(`${retentionPath}: ${r.error}`);
    retention = r;
  }

  let poolSizes = sizes ?? (fromFile && !unbounded ? [fromFile.poolBlocks] : undefined);
  if (!poolSizes) {
    const all = workloadBlocks(workload, tokensPerBlock);
    if (all + hostBlocks > MAX_SIM_BLOCKS)
      throw new InputError(`an unbounded pool for this workload is ${all} blocks; pools above ${MAX_SIM_BLOCKS} blocks are not simulated`);
    poolSizes = [Math.max(1, all)];
  }
  for (const s of poolSizes)
    if (s + hostBlocks > MAX_SIM_BLOCKS)
      throw new InputError(`pools above ${MAX_SIM_BLOCKS} blocks (GPU + host) are not simulated (${s + hostBlocks})`);

  const cfg = simConfigFrom(fromFile, { tokensPerBlock, secondaryBlocks: hostBlocks, retention, concurrency });
  // Progress on stderr once a run has taken more than two seconds.
  const started = Date.now();
  let index = 0;
  const sizesRun = poolSizes;
  const onProgress = (done: number) => {
    if (Date.now() - started > 2000)
      warn(
        `recipe-lens simulate: pool ${sizesRun[index]} blocks: ${done.toLocaleString('en-US')} of ${requests.toLocaleString('en-US')} requests`,
      );
  };
  const points = sweep(workload, poolSizes, { ...cfg, onProgress }, () => index++);
  const info = { workload: workload.name, tokensPerBlock, hostBlocks, requests: points[0]?.lru.requests ?? 0 };
  write(format === 'json' ? JSON.stringify(simulationJson(points, info), null, 2) : simulationText(points, info));
  return 0;
}
