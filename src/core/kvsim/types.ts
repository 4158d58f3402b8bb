// The simulator's inputs and outputs.
import type { RunList } from './content.js';
import type { PoolConfig } from './pool.js';
import type { RetentionSpec } from './retention.js';

/**
 * One request as a workload yields it. A workload may reuse the same object for every request: the simulator
 * copies what it keeps before asking for the next one.
 */
export interface SimRequest {
  /** The prompt's tokens as runs, followed by the generated tokens' runs when `outputIncluded`. */
  runs: RunList;
  promptTokens: number;
  /** Generated tokens (at least one is generated: 0 counts as 1). */
  outputTokens: number;
  /** Whether `runs` also names the generated tokens (a reply a later prompt sends back); else they are new tokens. */
  outputIncluded: boolean;
  /** LoRA task id, 0 = none. */
  loraId: number;
  /** Cache salt id, 0 = none. */
  cacheSalt: number;
  /** undefined: the command line's retention config; null: none (every block at the default priority); else the request's own. */
  retention: RetentionSpec | null | undefined;
  /** Arrival time in ms (priority durations run on this clock). */
  arrivalMs: number;
}

export interface Workload {
  /** "mooncake trace (3,993 requests)", "chat (seed 1)", … */
  name: string;
  /** A fresh pass over the requests (a sweep runs the workload once per pool size and policy). */
  requests(): Iterable<SimRequest>;
}

/**
 * lru: the command line's retention config is not applied (a request's own config still is); with no per-request
 * configs every block is at the default priority 35. retention: the command line's config applies to every request
 * without its own.
 */
export type Policy = 'lru' | 'retention';

export interface SimOptions extends PoolConfig {
  policy: Policy;
  /** The command line's retention config (also the ranges hits are attributed to); null = none. */
  retention: RetentionSpec | null;
  /** Requests that hold their blocks at once (1 = each finishes before the next starts). */
  concurrency: number;
  /** Occupancy samples to take over the run (0 = none). */
  samples?: number;
  /** Requests in the workload, when known (spaces the samples). */
  expectedRequests?: number;
  /** Called every `progressEvery` requests. */
  onProgress?: (done: number) => void;
  progressEvery?: number;
}

/** Blocks in the radix tree by cache level and priority, and blocks held by running requests, at one moment. */
export interface OccupancySample {
  /** Request index (simulation) or event id (event stream). */
  at: number;
  /** Simulated time (ms); null for an event stream (events carry no time). */
  timeMs: number | null;
  /** [priority, blocks] for priorities that have blocks, ascending. */
  primary: [number, number][];
  secondary: [number, number][];
  /** Blocks used by running requests; null for an event stream (events do not say). */
  held: number | null;
  /** Primary blocks holding nothing reusable (for an event stream: primary capacity minus stored primary blocks). */
  emptyPrimary: number;
}

export interface PolicyStats {
  requests: number;
  /** Requests larger than the whole primary pool: never admitted (their blocks count as requested, not reused). */
  skipped: number;
  /** Full prompt blocks requested: floor(prompt / tokens per block) per request. */
  promptBlocks: number;
  /** Full prompt blocks matched whole from the cache. */
  reusedBlocks: number;
  hitRate: number;
  /** Blocks reused in part (enable_partial_reuse), the prompt's last block included. */
  partialReuses: number;
  promptTokens: number;
  /** Prompt tokens not recomputed: TensorRT-LLM's prepopulatedPromptLen summed (partial matches included). */
  prefillTokensSaved: number;
  /** Blocks dropped from the radix tree to make room (the "removed" events). */
  evictions: number;
  /** Blocks copied to the host tier when evicted from GPU memory. */
  offloads: number;
  /** Host blocks copied back to GPU memory to be reused. */
  onboards: number;
  /** Hits on full prompt blocks by the origin of the block's priority: the file's ranges, then default, decode, per-request configs. */
  hitsByOrigin: number[];
  /** Blocks allocated under each origin (same order). */
  pinnedByOrigin: number[];
  samples: OccupancySample[];
}
