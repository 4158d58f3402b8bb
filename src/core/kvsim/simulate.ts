// The request loop: admission, matching and allocation of a request's blocks, storing them for reuse and releasing
// them, as TensorRT-LLM's KVCacheManager drives its BlockManager [kvCacheManager.cpp @b35ac1b6 KVCacheManager::
// addSequence, storeContextBlocks, removeSequence; WindowBlockManager::addSequence, loadOrAllocateBlocks,
// allocateBlock, storeBlocks, releaseBlocks]. Simplifications (listed in docs/kv-reuse.md): beam width 1, one
// attention window, a request's decode blocks are allocated right after its context, and a request finishes when the
// request C places later arrives (C = concurrency), or earlier if the pool needs its blocks.
import { DEFAULT_RETENTION_PRIORITY } from '../memory/kvcache.js';
import { BlockKeys, GENERATED_STREAM_BASE, RunList } from './content.js';
import { BlockPool, ORIGIN_DECODE, ORIGIN_DEFAULT, ORIGIN_OWN } from './pool.js';
import { NO_RETENTION, perBlockRetention, type RetentionSpec } from './retention.js';
import type { PolicyStats, SimOptions, SimRequest, Workload } from './types.js';

/** Pools larger than this many blocks (primary + host) are refused: the simulator takes about 260 bytes a block. */
export const MAX_SIM_BLOCKS = 1 << 22;

/** A running request: its blocks and everything its release needs. */
class Slot {
  keys = new BlockKeys();
  runs = new RunList();
  count = 0;
  blocks = new Int32Array(16);
  /** Per context block: the applied config's priority (-1 none), duration (NaN none) and range. */
  prio = new Int16Array(16);
  dur = new Float64Array(16);
  range = new Int16Array(16);
  /** The same from the config hits are attributed to (the request's own or the file's, also under LRU). */
  shadowPrio = new Int16Array(16);
  shadowDur = new Float64Array(16);
  shadow = new Int16Array(16);
  origin = new Int16Array(16);
  originGiven = new Uint8Array(16);

  ensure(n: number): void {
    if (n <= this.blocks.length) return;
    const c = Math.max(n, 2 * this.blocks.length);
    this.blocks = new Int32Array(c);
    this.prio = new Int16Array(c);
    this.dur = new Float64Array(c);
    this.range = new Int16Array(c);
    this.shadowPrio = new Int16Array(c);
    this.shadowDur = new Float64Array(c);
    this.shadow = new Int16Array(c);
    this.origin = new Int16Array(c);
    this.originGiven = new Uint8Array(c);
  }
}

/** Index of an origin in hitsByOrigin / pinnedByOrigin: the file's ranges, then default, decode, per-request. */
export function originIndex(origin: number, ranges: number): number {
  return origin >= 0 ? origin : origin === ORIGIN_DEFAULT ? ranges : origin === ORIGIN_DECODE ? ranges + 1 : ranges + 2;
}

export class Simulator {
  readonly pool: BlockPool;
  readonly opts: SimOptions;
  private readonly tpb: number;
  /** Ring of running requests, created as needed (at most one per pool block). */
  private readonly slots: (Slot | undefined)[];
  private head = 0;
  private live = 0;
  private seq = 0;
  private readonly fileRanges: number;
  private readonly stats: PolicyStats;
  private readonly census1 = new Float64Array(101);
  private readonly census2 = new Float64Array(101);
  private sampleEvery = 0;
  private lastTime = 0;

  constructor(opts: SimOptions) {
    if (!(opts.primaryBlocks >= 1) || !Number.isInteger(opts.primaryBlocks)) throw new Error('the pool needs at least one block');
    if (opts.primaryBlocks + opts.secondaryBlocks > MAX_SIM_BLOCKS)
      throw new Error(`pools above ${MAX_SIM_BLOCKS} blocks (primary + host) are not simulated`);
    this.opts = opts;
    this.pool = new BlockPool(opts);
    this.tpb = opts.tokensPerBlock;
    this.slots = new Array<Slot | undefined>(Math.max(1, Math.min(opts.concurrency, opts.primaryBlocks)));
    this.fileRanges = opts.retention?.ranges.length ?? 0;
    const origins = this.fileRanges + 3;
    this.stats = {
      requests: 0,
      skipped: 0,
      promptBlocks: 0,
      reusedBlocks: 0,
      hitRate: 0,
      partialReuses: 0,
      promptTokens: 0,
      prefillTokensSaved: 0,
      evictions: 0,
      offloads: 0,
      onboards: 0,
      hitsByOrigin: new Array<number>(origins).fill(0),
      pinnedByOrigin: new Array<number>(origins).fill(0),
      samples: [],
    };
    if (opts.samples && opts.expectedRequests) this.sampleEvery = Math.max(1, Math.ceil(opts.expectedRequests / opts.samples));
  }

  run(requests: Iterable<SimRequest>): PolicyStats {
    const every = this.opts.progressEvery ?? 65536;
    for (const r of requests) {
      this.add(r);
      if (this.opts.onProgress && this.stats.requests % every === 0) this.opts.onProgress(this.stats.requests);
    }
    return this.finish();
  }

  /** Admits one request (finishing older ones first as the concurrency and the free pool require). */
  add(req: SimRequest): void {
    const st = this.stats;
    const t = this.tpb;
    const L = req.promptTokens;
    const index = st.requests++;
    st.promptTokens += L;
    st.promptBlocks += Math.floor(L / t);
    if (req.arrivalMs > this.lastTime) this.lastTime = req.arrivalMs;
    const pool = this.pool;
    pool.now = this.lastTime;
    const out = Math.max(1, req.outputTokens);
    // Tokens whose KV state is in the cache at the end: the last generated token's never is [storeBlocksForReuse: usableSize = size - 1].
    const usable = L + out - 1;
    const total = Math.ceil(usable / t);
    if (total > this.opts.primaryBlocks) {
      st.skipped++;
      return;
    }
    // Capacity scheduler (GUARANTEED_NO_EVICT): a request starts when the free blocks cover all it will allocate
    // [KVCacheManager::getRemainingBlocksToCompletion]; running requests finish, oldest first, until they do.
    while (this.live >= this.slots.length || pool.freePrimary < total) {
      // With nothing running every block is free, and total ≤ the pool: this never runs dry.
      if (this.live === 0) throw new Error('internal error: free blocks do not add up');
      this.retireOldest();
    }
    pool.refresh();
    const at = (this.head + this.live) % this.slots.length;
    const slot = (this.slots[at] ??= new Slot());
    this.live++;
    this.admit(slot, req, L, out, usable, total);
    if (this.sampleEvery && index % this.sampleEvery === 0) this.sample(index);
  }

  private admit(slot: Slot, req: SimRequest, L: number, out: number, usable: number, total: number): void {
    const pool = this.pool;
    const st = this.stats;
    const t = this.tpb;
    const seq = this.seq++;
    slot.ensure(total);
    // Token content: the request's runs, then its generated tokens (a fresh stream unless the workload named them).
    const runs = slot.runs.reset();
    runs.pushPrefix(req.runs, L + (req.outputIncluded ? Math.min(out, req.outputTokens) : 0));
    if (runs.tokens < L + out) runs.push(GENERATED_STREAM_BASE - seq, runs.tokens - L, L + out - runs.tokens);
    const keys = slot.keys;
    keys.build(runs, usable, t, req.loraId, req.cacheSalt);

    // Retention per context block. LRU leaves out the command line's config; a request's own config (a token trace's
    // "retention" object) applies under both. Hits are attributed by the config retention would apply.
    const numContext = Math.ceil(L / t);
    const file = this.opts.retention;
    const own = req.retention === undefined ? file : req.retention;
    const applied: RetentionSpec = (this.opts.policy === 'lru' && req.retention === undefined ? null : own) ?? NO_RETENTION;
    perBlockRetention(applied, t, L, slot.prio, slot.dur, slot.range);
    const shadowSpec = own ?? NO_RETENTION;
    if (shadowSpec === applied) slot.shadow.set(slot.range.subarray(0, numContext));
    else perBlockRetention(shadowSpec, t, L, slot.shadowPrio, slot.shadowDur, slot.shadow);
    const isFile = own === file && own !== null;
    for (let i = 0; i < numContext; i++) {
      const r = slot.shadow[i]!;
      slot.originGiven[i] = r >= 0 ? 1 : 0;
      slot.origin[i] = r < 0 ? ORIGIN_DEFAULT : isFile ? r : ORIGIN_OWN;
    }
    const decodePrio = applied.decodePriority;
    const decodeDur = applied.decodeDurationMs ?? NaN;

    // The prompt's last key covers tokens up to the second-to-last: the last one "can't be recovered" [addSequence].
    // Block `tail` (always a context block) is looked up with its first L-1-tail·T tokens (none: an empty key).
    const tail = Math.floor((L - 1) / t);
    const tailFull = keys.n[tail]!;
    keys.truncate(tail, L - 1 - tail * t);

    // loadOrAllocateBlocks
    slot.count = 0;
    let searchRoot = pool.root;
    const fullPrompt = Math.floor(L / t);
    let matchedTokens = 0;
    const partialOn = this.opts.enablePartialReuse;
    for (let i = 0; i < numContext; i++) {
      const m = searchRoot >= 0 ? pool.findMatch(searchRoot, keys, i, partialOn) : -1;
      let b: number;
      const prio = slot.prio[i]!;
      const dur = slot.dur[i]!;
      if (m >= 0) {
        const partial = pool.matchPartial;
        const got = pool.matchTokens;
        matchedTokens += got;
        if (i < fullPrompt && got === t) {
          st.reusedBlocks++;
          st.hitsByOrigin[originIndex(pool.origin[m]!, this.fileRanges)]!++;
        }
        if (partial) {
          st.partialReuses++;
          if (pool.refs[m]! > 0 || !pool.isLeaf(m)) {
            // Somebody uses it or it has descendants: copy the matched tokens into a new block.
            const origin = pool.origin[m]!;
            b = pool.getFreeBlock(pool.prio[m]!, pool.dur[m]!);
            pool.origin[b] = origin;
            pool.hasTokens[b] = 1;
            st.pinnedByOrigin[originIndex(origin, this.fileRanges)]!++;
          } else {
            // A free leaf: it leaves the tree and becomes this request's block.
            pool.detachLeaf(m);
            pool.claim(m, prio, dur);
            if (slot.originGiven[i]) pool.origin[m] = slot.origin[i]!;
            b = m;
          }
          searchRoot = -1;
        } else {
          pool.claim(m, prio, dur);
          if (slot.originGiven[i]) pool.origin[m] = slot.origin[i]!;
          b = m;
          searchRoot = m;
        }
        pool.onboard(b);
      } else {
        b = pool.getFreeBlock(prio >= 0 ? prio : DEFAULT_RETENTION_PRIORITY, dur);
        pool.origin[b] = slot.origin[i]!;
        pool.hasTokens[b] = keys.n[i]! > 0 ? 1 : 0;
        st.pinnedByOrigin[originIndex(slot.origin[i]!, this.fileRanges)]!++;
        searchRoot = -1;
      }
      pool.refs[b]!++;
      slot.blocks[slot.count++] = b;
    }
    st.prefillTokensSaved += matchedTokens;

    // storeContextBlocks: the full blocks of the prompt but its last token.
    this.store(slot, tail);
    keys.truncate(tail, tailFull);

    // Generation: one block per tokensPerBlock generated tokens, at the decode priority [allocateBlock].
    const decodeOrigin = originIndex(ORIGIN_DECODE, this.fileRanges);
    for (let i = numContext; i < total; i++) {
      const b = pool.getFreeBlock(decodePrio, decodeDur);
      pool.origin[b] = ORIGIN_DECODE;
      st.pinnedByOrigin[decodeOrigin]!++;
      pool.refs[b]!++;
      slot.blocks[slot.count++] = b;
    }
  }

  /** WindowBlockManager::storeBlocks for the first `count` keys of a running request. */
  private store(slot: Slot, count: number): void {
    const pool = this.pool;
    const keys = slot.keys;
    let searchRoot = pool.root;
    let needMatch = true;
    for (let i = 0; i < count; i++) {
      const b = slot.blocks[i]!;
      // The request's own block under this parent holds this request's tokens from position i·T: it is key i exactly
      // when it holds as many tokens (the lookup would find it).
      if (needMatch && pool.parent[b] === searchRoot && pool.keyTokens(b) === keys.n[i]) {
        searchRoot = b;
        continue;
      }
      const m = needMatch ? pool.findExact(searchRoot, keys, i) : -1;
      if (m >= 0) {
        searchRoot = m;
        continue;
      }
      needMatch = false;
      if (pool.inTree(b)) {
        // Cannot happen with consistent keys (a block in the tree is found by the walk); kept safe rather than corrupt.
        searchRoot = b;
        continue;
      }
      pool.insert(searchRoot, b, keys, i);
      searchRoot = b;
    }
  }

  /** KVCacheManager::removeSequence: store the sequence's blocks for reuse, then release them last block first. */
  private retireOldest(): void {
    const slot = this.slots[this.head]!;
    this.head = (this.head + 1) % this.slots.length;
    this.live--;
    this.store(slot, slot.keys.count);
    const pool = this.pool;
    for (let i = slot.count - 1; i >= 0; i--) {
      const b = slot.blocks[i]!;
      if (pool.refs[b]! > 0 && --pool.refs[b]! === 0) pool.releaseBlock(b);
    }
    slot.count = 0;
  }

  private sample(index: number): void {
    const c = this.pool.census(this.census1, this.census2);
    const sparse = (a: Float64Array): [number, number][] => {
      const out: [number, number][] = [];
      for (let p = 0; p < a.length; p++) if (a[p]) out.push([p, a[p]!]);
      return out;
    };
    this.stats.samples.push({
      at: index,
      timeMs: this.lastTime,
      primary: sparse(this.census1),
      secondary: sparse(this.census2),
      held: c.held,
      emptyPrimary: c.primaryEmpty,
    });
  }

  /** Finishes every running request and returns the counts. */
  finish(): PolicyStats {
    while (this.live > 0) this.retireOldest();
    const st = this.stats;
    st.evictions = this.pool.evictions;
    st.offloads = this.pool.offloads;
    st.onboards = this.pool.onboards;
    st.hitRate = st.promptBlocks ? st.reusedBlocks / st.promptBlocks : 0;
    return st;
  }
}

export type SimConfig = Omit<SimOptions, 'policy'>;

/** Blocks the workload allocates in all: a pool this large never evicts ("unbounded"). */
export function workloadBlocks(workload: Workload, tokensPerBlock: number): number {
  let n = 0;
  for (const r of workload.requests()) n += Math.ceil((r.promptTokens + Math.max(1, r.outputTokens) - 1) / tokensPerBlock);
  return n;
}

/** One run of a workload under one policy. */
export function simulate(workload: Workload, opts: SimOptions): PolicyStats {
  return new Simulator(opts).run(workload.requests());
}

export interface SweepPoint {
  poolBlocks: number;
  lru: PolicyStats;
  retention?: PolicyStats;
}

/** LRU (and the retention config, when given) at each pool size. */
export function sweep(workload: Workload, sizes: number[], cfg: SimConfig, onPoint?: (p: SweepPoint) => void): SweepPoint[] {
  return sizes.map((poolBlocks) => {
    const base = { ...cfg, primaryBlocks: poolBlocks };
    const point: SweepPoint = { poolBlocks, lru: simulate(workload, { ...base, policy: 'lru' }) };
    if (cfg.retention) point.retention = simulate(workload, { ...base, policy: 'retention' });
    onPoint?.(point);
    return point;
  });
}
