// TensorRT-LLM's KV block pool with reuse, block for block: the radix tree of stored blocks, the free queues per
// cache level and priority, priority expiry, the secondary (host) tier, and the search that matches a request's
// blocks. Sources (TensorRT-LLM, read at these commits):
//   cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp @b35ac1b64368513d215c57d2ed01d62d910df8da (WindowBlockManager:
//     getFreeBlock, freeChildren, onboardBlock, loadOrAllocateBlocks, storeBlocks, releaseBlocks; KVCacheBlock::
//     findMatchingBlock)
//   cpp/tensorrt_llm/batch_manager/evictionPolicy.cpp @05a919198033f5c5d70680da46bb4fe431b7c27e (LRUEvictionPolicy)
//   cpp/include/tensorrt_llm/batch_manager/kvCacheManager.h @2213a799e45a8ce5ab635f44b18bb61ffb00ed28 (BlockKey)
// Blocks are ids 0..P-1 (primary memory at start) and P..P+S-1 (secondary); as upstream, a block object keeps its
// place in the tree while offloading or onboarding swaps which memory it sits in. Memory is O(P+S): nothing here
// grows with the number of requests.
import { DEFAULT_RETENTION_PRIORITY } from '../memory/kvcache.js';
import { contentHash, firstTokenHash, type BlockKeys } from './content.js';
import { MAX_PRIORITY } from './retention.js';
import { NodeTable } from './table.js';

export interface PoolConfig {
  /** Blocks in GPU memory (the primary pool). */
  primaryBlocks: number;
  /** Blocks in host memory (the secondary pool; host_cache_size / bytes per block). */
  secondaryBlocks: number;
  tokensPerBlock: number;
  /** kv_cache_config.enable_partial_reuse (default true). */
  enablePartialReuse: boolean;
  /** kv_cache_config.copy_on_partial_reuse (default true). */
  copyOnPartialReuse: boolean;
  /** kv_cache_config.onboard_blocks (default true): offloaded blocks come back to GPU memory to be reused. */
  onboardBlocks: boolean;
  /** kv_cache_config.secondary_offload_min_priority (engine default 30). */
  secondaryOffloadMinPriority: number;
}

const LEVELS = 2;
/** Children of a node go into the hash tables once there are more than this many. */
const INDEX_AT = 8;
const NPRIO = MAX_PRIORITY + 1;
const DEFAULT_PRIO = DEFAULT_RETENTION_PRIORITY;

/** Where a block's priority came from, for "which ranges earned their pinning": ≥ 0 = a range of the file's config. */
export const ORIGIN_DEFAULT = -1;
export const ORIGIN_DECODE = -2;
export const ORIGIN_OWN = -3;

export class BlockPool {
  readonly cfg: PoolConfig;
  /** Blocks (primary + secondary); the tree's root is the extra node `root` = n. */
  readonly n: number;
  readonly root: number;
  /** Simulated clock (ms) for priority expiry. */
  now = 0;
  evictions = 0;
  offloads = 0;
  onboards = 0;

  // ---- per block: where it lives and its retention
  readonly level: Uint8Array;
  readonly refs: Int32Array;
  readonly prio: Uint8Array;
  /** Duration of the priority (NaN = none). */
  readonly dur: Float64Array;
  readonly expiry: Float64Array;
  readonly origin: Int16Array;
  /** A block that ever held a key keeps it until it gets another; upstream offloads any such block. */
  readonly hasTokens: Uint8Array;

  // ---- free queues: one doubly linked list per (level, priority), LRU at the head
  private readonly qIdx: Int16Array;
  private readonly qNext: Int32Array;
  private readonly qPrev: Int32Array;
  private readonly qHead: Int32Array;
  private readonly qTail: Int32Array;
  private readonly qMask: Uint32Array;
  readonly freeCount: Int32Array;

  // ---- expiring blocks: an indexed min-heap on (expiry, id)
  private readonly heap: Int32Array;
  private readonly heapPos: Int32Array;
  private heapSize = 0;

  // ---- radix tree (size n + 1: the root is a node with no content)
  readonly parent: Int32Array;
  private readonly firstChild: Int32Array;
  private readonly nextSib: Int32Array;
  private readonly prevSib: Int32Array;
  private readonly childCount: Int32Array;
  /** Whether a node's children are in the hash tables (nodes with more than INDEX_AT children). */
  private readonly indexed: Uint8Array;
  /** Whether a block's entries are in its parent's tables. */
  private readonly inIndex: Uint8Array;
  private readonly chainNext: Int32Array;
  private readonly chainPrev: Int32Array;
  /** Stored key: token count, one run (stream, start) or kRunCount > 0 runs in kRuns, LoRA, salt, key and first-token hashes. */
  private readonly kN: Int32Array;
  private readonly kStream: Float64Array;
  private readonly kStart: Float64Array;
  /** Run buffers of multi-run keys, kept with their block for reuse (bounded by the pool). */
  private readonly kRuns: (Float64Array | undefined)[];
  private readonly kRunCount: Int32Array;
  private readonly kLora: Float64Array;
  private readonly kSalt: Float64Array;
  private readonly kH: Int32Array;
  private readonly kF: Int32Array;
  /**
   * For nodes with many children (the root, the last block of a shared prompt): (parent, key hash) → child, and
   * (parent, first-token hash) → head of the children sharing that first token (with partial reuse on). A node
   * with few children is searched by comparing them, as upstream searches its mNextBlocks map.
   */
  private readonly exact: NodeTable;
  private readonly first: NodeTable | null;

  private readonly scratch = new Int32Array(2);
  /** Set once two different keys under one parent had the same 64-bit hash: lookups then fall back to comparing children. */
  private collided = false;

  /** Result of the last `findMatch`. */
  matchPartial = false;
  matchTokens = 0;

  constructor(cfg: PoolConfig) {
    this.cfg = cfg;
    const n = cfg.primaryBlocks + cfg.secondaryBlocks;
    this.n = n;
    this.root = n;
    this.level = new Uint8Array(n);
    this.refs = new Int32Array(n);
    this.prio = new Uint8Array(n).fill(DEFAULT_PRIO);
    this.dur = new Float64Array(n).fill(NaN);
    this.expiry = new Float64Array(n);
    this.origin = new Int16Array(n).fill(ORIGIN_DEFAULT);
    this.hasTokens = new Uint8Array(n);
    this.qIdx = new Int16Array(n).fill(-1);
    this.qNext = new Int32Array(n);
    this.qPrev = new Int32Array(n);
    this.qHead = new Int32Array(LEVELS * NPRIO).fill(-1);
    this.qTail = new Int32Array(LEVELS * NPRIO).fill(-1);
    this.qMask = new Uint32Array(LEVELS * 4);
    this.freeCount = new Int32Array(LEVELS);
    this.heap = new Int32Array(n);
    this.heapPos = new Int32Array(n).fill(-1);
    this.parent = new Int32Array(n + 1).fill(-1);
    this.firstChild = new Int32Array(n + 1).fill(-1);
    this.nextSib = new Int32Array(n + 1).fill(-1);
    this.prevSib = new Int32Array(n + 1).fill(-1);
    this.childCount = new Int32Array(n + 1);
    this.indexed = new Uint8Array(n + 1);
    this.inIndex = new Uint8Array(n);
    this.chainNext = new Int32Array(n).fill(-1);
    this.chainPrev = new Int32Array(n).fill(-1);
    this.kN = new Int32Array(n);
    this.kStream = new Float64Array(n);
    this.kStart = new Float64Array(n);
    this.kRuns = new Array<Float64Array | undefined>(n).fill(undefined);
    this.kRunCount = new Int32Array(n);
    this.kLora = new Float64Array(n);
    this.kSalt = new Float64Array(n);
    this.kH = new Int32Array(2 * n);
    this.kF = new Int32Array(2 * n);
    this.exact = new NodeTable(n);
    this.first = cfg.enablePartialReuse ? new NodeTable(n) : null;
    // LRUEvictionPolicy::initialize: every block starts free at the default priority, in id order, per cache level.
    for (let b = 0; b < n; b++) {
      this.level[b] = b < cfg.primaryBlocks ? 0 : 1;
      this.qPush(b, false);
    }
  }

  /** Bytes of the pool's own arrays (the simulator's memory is this plus the live requests). */
  get bytes(): number {
    const arrays = [
      this.level,
      this.refs,
      this.prio,
      this.dur,
      this.expiry,
      this.origin,
      this.hasTokens,
      this.qIdx,
      this.qNext,
      this.qPrev,
      this.heap,
      this.heapPos,
      this.parent,
      this.firstChild,
      this.nextSib,
      this.prevSib,
      this.childCount,
      this.indexed,
      this.inIndex,
      this.chainNext,
      this.chainPrev,
      this.kN,
      this.kRunCount,
      this.kStream,
      this.kStart,
      this.kLora,
      this.kSalt,
      this.kH,
      this.kF,
    ];
    // kRuns: one pointer per block (8 bytes); multi-run keys add their own arrays.
    return arrays.reduce((s, a) => s + a.byteLength, 0) + 8 * this.n + this.exact.bytes + (this.first?.bytes ?? 0);
  }

  // ------------------------------------------------------------------ free queues (LRUEvictionPolicy)

  private qPush(b: number, front: boolean): void {
    const lvl = this.level[b]!;
    const idx = lvl * NPRIO + this.prio[b]!;
    const head = this.qHead[idx]!;
    if (head < 0) {
      this.qHead[idx] = b;
      this.qTail[idx] = b;
      this.qPrev[b] = -1;
      this.qNext[b] = -1;
      this.qMask[lvl * 4 + (this.prio[b]! >> 5)]! |= 1 << (this.prio[b]! & 31);
    } else if (front) {
      this.qPrev[b] = -1;
      this.qNext[b] = head;
      this.qPrev[head] = b;
      this.qHead[idx] = b;
    } else {
      const tail = this.qTail[idx]!;
      this.qNext[b] = -1;
      this.qPrev[b] = tail;
      this.qNext[tail] = b;
      this.qTail[idx] = b;
    }
    this.qIdx[b] = idx;
    this.freeCount[lvl]!++;
  }

  /** removeFromFreeBlockQueue: by the stored queue, not the block's current level or priority. */
  private qRemove(b: number): boolean {
    const idx = this.qIdx[b]!;
    if (idx < 0) return false;
    const prev = this.qPrev[b]!;
    const next = this.qNext[b]!;
    if (prev >= 0) this.qNext[prev] = next;
    else this.qHead[idx] = next;
    if (next >= 0) this.qPrev[next] = prev;
    else this.qTail[idx] = prev;
    this.qIdx[b] = -1;
    const lvl = idx >= NPRIO ? 1 : 0;
    this.freeCount[lvl]!--;
    if (this.qHead[idx]! < 0) {
      const p = idx - lvl * NPRIO;
      this.qMask[lvl * 4 + (p >> 5)]! &= ~(1 << (p & 31));
    }
    return true;
  }

  /** The lowest non-empty priority of a level (getFreeBlock scans priorities upwards), -1 if the level is empty. */
  private lowest(lvl: number): number {
    for (let w = 0; w < 4; w++) {
      const m = this.qMask[lvl * 4 + w]!;
      if (m !== 0) return w * 32 + (31 - Math.clz32(m & -m));
    }
    return -1;
  }

  /** LRUEvictionPolicy::releaseBlock: back of its queue; a block with a duration and a non-default priority starts expiring. */
  releaseBlock(b: number, front = false): void {
    this.qPush(b, front);
    if (!Number.isNaN(this.dur[b]!) && this.prio[b] !== DEFAULT_PRIO) {
      this.expiry[b] = this.now + this.dur[b]!;
      this.heapPush(b);
    }
  }

  /** LRUEvictionPolicy::claimBlock: out of the free queue (and the expiry heap); priority set when given (≥ 0); duration always set. */
  claim(b: number, prio: number, dur: number): void {
    if (this.qRemove(b)) this.heapRemove(b);
    if (prio >= 0) this.prio[b] = prio;
    this.dur[b] = dur;
  }

  /** LRUEvictionPolicy::refresh: expired free blocks go back to the default priority, at the back of its queue. */
  refresh(): void {
    while (this.heapSize > 0) {
      const b = this.heap[0]!;
      if (this.expiry[b]! > this.now) break;
      this.heapRemove(b);
      if (this.qRemove(b)) {
        this.prio[b] = DEFAULT_PRIO;
        this.qPush(b, false);
      }
    }
  }

  // ------------------------------------------------------------------ expiry heap

  private less(a: number, b: number): boolean {
    const ea = this.expiry[a]!;
    const eb = this.expiry[b]!;
    return ea < eb || (ea === eb && a < b);
  }

  private heapPush(b: number): void {
    if (this.heapPos[b]! >= 0) this.heapRemove(b);
    const i = this.heapSize++;
    this.heap[i] = b;
    this.heapPos[b] = i;
    this.siftUp(i);
  }

  private heapRemove(b: number): void {
    const i = this.heapPos[b]!;
    if (i < 0) return;
    this.heapPos[b] = -1;
    const last = this.heap[--this.heapSize]!;
    if (i === this.heapSize) return;
    this.heap[i] = last;
    this.heapPos[last] = i;
    this.siftUp(i);
    this.siftDown(this.heapPos[last]!);
  }

  private siftUp(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i]!, h[p]!)) break;
      this.swapHeap(i, p);
      i = p;
    }
  }

  private siftDown(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.heapSize && this.less(h[l]!, h[m]!)) m = l;
      if (r < this.heapSize && this.less(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      this.swapHeap(i, m);
      i = m;
    }
  }

  private swapHeap(i: number, j: number): void {
    const a = this.heap[i]!;
    const b = this.heap[j]!;
    this.heap[i] = b;
    this.heap[j] = a;
    this.heapPos[b] = i;
    this.heapPos[a] = j;
  }

  // ------------------------------------------------------------------ radix tree

  inTree(b: number): boolean {
    return this.parent[b]! >= 0;
  }

  isLeaf(b: number): boolean {
    return this.firstChild[b]! < 0;
  }

  /** Puts block b under `parent` with key i of `keys` (storeBlocks: setBlockKey, setPrevBlock, addNextBlock). */
  insert(parent: number, b: number, keys: BlockKeys, i: number): void {
    const n = keys.n[i]!;
    this.kN[b] = n;
    this.kLora[b] = keys.lora;
    this.kSalt[b] = keys.salt;
    if (keys.single[i]) {
      this.kStream[b] = keys.stream(i);
      this.kStart[b] = keys.start(i);
      this.kRunCount[b] = 0;
    } else {
      this.kRuns[b] = keys.writeRuns(i, this.kRuns[b]);
      this.kRunCount[b] = keys.written;
    }
    this.hasTokens[b] = n > 0 ? 1 : 0;
    this.parent[b] = parent;
    const fc = this.firstChild[parent]!;
    this.nextSib[b] = fc;
    this.prevSib[b] = -1;
    if (fc >= 0) this.prevSib[fc] = b;
    this.firstChild[parent] = b;
    const count = ++this.childCount[parent]!;
    if (this.indexed[parent]) this.index(parent, b);
    else if (count > INDEX_AT) {
      // Many children: put them all in the tables, oldest first so that each first-token chain lists the newest first.
      this.indexed[parent] = 1;
      let c = b;
      while (this.nextSib[c]! >= 0) c = this.nextSib[c]!;
      for (; c >= 0; c = this.prevSib[c]!) this.index(parent, c);
    }
  }

  /** Adds child c to its parent's tables (skipped on a 64-bit hash collision: c is then only found by content). */
  private index(parent: number, c: number): void {
    const t = this.scratch;
    const count = this.kRunCount[c]!;
    const multi = count > 0 ? this.kRuns[c]! : null;
    contentHash(t, 0, multi, count, this.kStream[c]!, this.kStart[c]!, this.kN[c]!, this.kLora[c]!, this.kSalt[c]!);
    if (!this.exact.set(parent, t[0]!, t[1]!, c)) {
      this.collided = true;
      return;
    }
    this.kH[2 * c] = t[0]!;
    this.kH[2 * c + 1] = t[1]!;
    this.inIndex[c] = 1;
    const first = this.first;
    if (!first) return;
    firstTokenHash(t, 0, multi ? multi[0]! : this.kStream[c]!, multi ? multi[1]! : this.kStart[c]!, this.kLora[c]!, this.kSalt[c]!);
    const f1 = t[0]!;
    const f2 = t[1]!;
    this.kF[2 * c] = f1;
    this.kF[2 * c + 1] = f2;
    const head = first.get(parent, f1, f2);
    this.chainPrev[c] = -1;
    this.chainNext[c] = head;
    if (head >= 0) {
      this.chainPrev[head] = c;
      first.replace(parent, f1, f2, c);
    } else first.set(parent, f1, f2, c);
  }

  /** KVCacheBlock::freeLeafBlock: unlink a leaf from its parent. */
  private unlink(b: number): void {
    const p = this.parent[b]!;
    if (p < 0) return;
    if (this.inIndex[b]) {
      this.inIndex[b] = 0;
      this.exact.delete(p, this.kH[2 * b]!, this.kH[2 * b + 1]!);
      const first = this.first;
      if (first) {
        const cp = this.chainPrev[b]!;
        const cn = this.chainNext[b]!;
        if (cp >= 0) this.chainNext[cp] = cn;
        else if (cn >= 0) first.replace(p, this.kF[2 * b]!, this.kF[2 * b + 1]!, cn);
        else first.delete(p, this.kF[2 * b]!, this.kF[2 * b + 1]!);
        if (cn >= 0) this.chainPrev[cn] = cp;
      }
    }
    const ps = this.prevSib[b]!;
    const ns = this.nextSib[b]!;
    if (ps >= 0) this.nextSib[ps] = ns;
    else this.firstChild[p] = ns;
    if (ns >= 0) this.prevSib[ns] = ps;
    if (--this.childCount[p]! === 0) this.indexed[p] = 0;
    this.parent[b] = -1;
  }

  /** WindowBlockManager::freeChildren: the subtree of b (b included) leaves the tree; each block dropped from the tree is an eviction. */
  private freeChildren(b: number): void {
    if (this.parent[b]! < 0 && this.firstChild[b]! < 0) return;
    for (;;) {
      let x = b;
      while (this.firstChild[x]! >= 0) x = this.firstChild[x]!;
      if (this.parent[x]! >= 0) {
        if (this.hasTokens[x]) this.evictions++;
        this.unlink(x);
      }
      if (x === b) return;
    }
  }

  /** partial claim: a free leaf leaves the tree to become the request's private block. */
  detachLeaf(b: number): void {
    this.unlink(b);
  }

  /** Whether stored block b holds exactly key i (tokens, LoRA, salt): BlockKey equality. */
  private sameKey(b: number, keys: BlockKeys, i: number): boolean {
    const n = keys.n[i]!;
    if (this.kN[b] !== n || this.kLora[b] !== keys.lora || this.kSalt[b] !== keys.salt) return false;
    const count = this.kRunCount[b]!;
    if (count === 0) return keys.single[i] === 1 && this.kStream[b] === keys.stream(i) && this.kStart[b] === keys.start(i);
    return keys.single[i] === 0 && keys.commonPrefix(i, this.kRuns[b], count, 0, 0, n) === n;
  }

  /** The child of `searchRoot` holding exactly key i (mNextBlocks.find), -1 if none. */
  findExact(searchRoot: number, keys: BlockKeys, i: number): number {
    if (keys.n[i] === 0 || this.firstChild[searchRoot]! < 0) return -1;
    if (this.indexed[searchRoot]) {
      const t = this.scratch;
      keys.hashKey(i, t, 0);
      const m = this.exact.get(searchRoot, t[0]!, t[1]!);
      if (m >= 0 && this.sameKey(m, keys, i)) return m;
      // A child left out of the table on a hash collision is still found by content.
      return this.collided ? this.scanExact(searchRoot, keys, i) : -1;
    }
    return this.scanExact(searchRoot, keys, i);
  }

  private scanExact(searchRoot: number, keys: BlockKeys, i: number): number {
    for (let c = this.firstChild[searchRoot]!; c >= 0; c = this.nextSib[c]!) if (this.sameKey(c, keys, i)) return c;
    return -1;
  }

  /**
   * KVCacheBlock::findMatchingBlock under `searchRoot` for key i: the exact child, else (partial reuse on) the child
   * sharing the most leading tokens among those that may be taken (copyOnPartialReuse, or free leaves).
   * Sets matchPartial / matchTokens; returns -1 without a match.
   */
  findMatch(searchRoot: number, keys: BlockKeys, i: number, allowPartial: boolean): number {
    const n = keys.n[i]!;
    const m = this.findExact(searchRoot, keys, i);
    if (m >= 0) {
      this.matchPartial = this.kN[m] !== this.cfg.tokensPerBlock;
      this.matchTokens = n;
      return m;
    }
    if (!allowPartial || n === 0 || this.firstChild[searchRoot]! < 0) return -1;
    let best = 0;
    let bestBlock = -1;
    const copy = this.cfg.copyOnPartialReuse;
    // Candidates share the first token: the parent's first-token chain, or (few children) the children themselves.
    const viaIndex = this.indexed[searchRoot] === 1 && !this.collided;
    let c = this.firstChild[searchRoot]!;
    if (viaIndex) {
      keys.hashFirst(i, this.scratch, 0);
      c = this.first!.get(searchRoot, this.scratch[0]!, this.scratch[1]!);
    }
    for (; c >= 0; c = viaIndex ? this.chainNext[c]! : this.nextSib[c]!) {
      if (!copy && (this.refs[c]! > 0 || this.firstChild[c]! >= 0)) continue;
      if (this.kLora[c] !== keys.lora || this.kSalt[c] !== keys.salt) continue;
      const k = keys.commonPrefix(i, this.kRuns[c], this.kRunCount[c]!, this.kStream[c]!, this.kStart[c]!, this.kN[c]!);
      if (k > best) {
        best = k;
        bestBlock = c;
      }
    }
    if (best === 0) return -1;
    this.matchPartial = true;
    this.matchTokens = best;
    return bestBlock;
  }

  /** Tokens block b holds (its stored key's length). */
  keyTokens(b: number): number {
    return this.kN[b]!;
  }

  // ------------------------------------------------------------------ allocation (WindowBlockManager)

  /**
   * WindowBlockManager::getFreeBlock: the head of the lowest-priority primary queue. If it holds a key, its priority
   * is at least secondary_offload_min_priority, a host block is free and onboarding is on, its content moves to the
   * host block (which takes its place in the tree) and the host block's memory is handed out instead. The block
   * handed out leaves the tree with all its descendants, then is claimed at the requested priority and duration.
   */
  getFreeBlock(prio: number, dur: number): number {
    const p = this.lowest(0);
    if (p < 0) throw new Error('no free block in the primary pool');
    let b = this.qHead[p]!;
    if (this.hasTokens[b] && p >= this.cfg.secondaryOffloadMinPriority && this.freeCount[1]! > 0 && this.cfg.onboardBlocks) {
      const o = this.qHead[NPRIO + this.lowest(1)]!;
      this.level[b] = 1;
      this.level[o] = 0;
      // claimBlock(block) keeps the priority and clears the duration; releaseBlock puts it in the secondary queue.
      this.claim(b, -1, NaN);
      this.releaseBlock(b);
      this.offloads++;
      b = o;
    }
    this.freeChildren(b);
    this.claim(b, prio, dur);
    return b;
  }

  /** WindowBlockManager::onboardBlock: a matched host block takes a free primary block's memory (at the default priority). */
  onboard(b: number): void {
    if (!this.cfg.onboardBlocks || this.level[b] === 0) return;
    const f = this.getFreeBlock(DEFAULT_PRIO, NaN);
    this.level[b] = 0;
    this.level[f] = 1;
    this.onboards++;
    this.releaseBlock(f);
  }

  /** Free primary blocks (held blocks are in no queue). */
  get freePrimary(): number {
    return this.freeCount[0]!;
  }

  /** Counts of blocks in the tree by level and priority, and of held blocks, for occupancy samples. */
  census(primary: Float64Array, secondary: Float64Array): { held: number; primaryEmpty: number } {
    primary.fill(0);
    secondary.fill(0);
    let held = 0;
    let empty = 0;
    for (let b = 0; b < this.n; b++) {
      const r = this.refs[b]! > 0;
      if (r) held++;
      if (this.parent[b]! >= 0) (this.level[b] === 0 ? primary : secondary)[this.prio[b]!]!++;
      else if (!r && this.level[b] === 0) empty++;
    }
    return { held, primaryEmpty: empty };
  }
}
