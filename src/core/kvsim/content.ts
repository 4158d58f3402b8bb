// What a block holds, without token text: a request's tokens are runs (stream, start, length) = tokens
// start..start+length-1 of a token stream. Equal (stream, position) is the same token; different streams never share
// tokens. A Mooncake trace block id is a stream (its block's tokens are positions 0..511 of it), a token trace's
// literal token t is the one-token stream -1-t, a synthetic system prompt is one stream shared by every request that
// sends it, and generated tokens are a fresh stream per request unless the workload says what they are (a reply the
// next turn sends back). Runs are kept maximal, so equal token sequences have equal run lists: a block's key is its
// run list (+ LoRA id and cache salt), as TensorRT-LLM's BlockKey is its tokens (+ LoRA task id and cache salt id)
// [cpp/include/tensorrt_llm/batch_manager/kvCacheManager.h @2213a799e45a8ce5ab635f44b18bb61ffb00ed28 BlockKey].

/** The one-token stream of a literal token id (token traces). */
export const literalStream = (token: number): number => -1 - token;
/** Streams of generated tokens the workload does not name: one per request, below every literal stream. */
export const GENERATED_STREAM_BASE = -(2 ** 40);

/** A growable run list; `push` merges a run that continues the previous one. */
export class RunList {
  data = new Float64Array(48);
  count = 0;
  tokens = 0;

  reset(): this {
    this.count = 0;
    this.tokens = 0;
    return this;
  }

  push(stream: number, start: number, len: number): this {
    if (len <= 0) return this;
    const c = this.count;
    const d = this.data;
    // A literal token (stream < 0, one token) never continues the previous run: the same token twice is two runs.
    if (c > 0 && stream >= 0 && d[3 * c - 3] === stream && d[3 * c - 2]! + d[3 * c - 1]! === start) d[3 * c - 1] = d[3 * c - 1]! + len;
    else {
      if (3 * c + 3 > d.length) {
        const g = new Float64Array(d.length * 2);
        g.set(d);
        this.data = g;
      }
      this.data[3 * c] = stream;
      this.data[3 * c + 1] = start;
      this.data[3 * c + 2] = len;
      this.count = c + 1;
    }
    this.tokens += len;
    return this;
  }

  /** Appends the first `len` tokens of another run list. */
  pushPrefix(other: RunList, len: number): this {
    const d = other.data;
    for (let i = 0; i < other.count && len > 0; i++) {
      const l = Math.min(d[3 * i + 2]!, len);
      this.push(d[3 * i]!, d[3 * i + 1]!, l);
      len -= l;
    }
    return this;
  }
}

// ---- hashing: two 32-bit lanes of multiply-xorshift rounds and the murmur3 finalizer. Keys are verified against
// the stored content on every match, so the hash only spreads entries; it need not resist collisions.

function round(h: number, x: number, k: number): number {
  h = Math.imul(h ^ x, k);
  return h ^ (h >>> 15);
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const hi32 = (x: number) => Math.floor(x / 4294967296) | 0;

/** Two 32-bit hashes of up to four numbers (integers below 2^53 in magnitude; `b` below 2^31). */
export function hash2(out: Int32Array, at: number, a: number, b: number, c: number, d: number): void {
  const a0 = a | 0;
  const a1 = hi32(a);
  const c0 = (c | 0) ^ Math.imul(hi32(c), 0x27d4eb2d);
  const d0 = (d | 0) ^ Math.imul(hi32(d), 0x165667b1);
  out[at] = fmix(
    round(round(round(round(round(0x9747b28c, a0, 0x9e3779b1), a1, 0x85ebca77), b, 0xc2b2ae3d), c0, 0x27d4eb2f), d0, 0x165667b1),
  );
  out[at + 1] = fmix(
    round(round(round(round(round(0x2f0e1b53, b, 0x2545f491), a0, 0xcc9e2d51), c0, 0x1b873593), a1, 0x5bd1e995), d0, 0xe6546b64),
  );
}

/**
 * The hash of a block's content: one run (stream, start) when `runs` is null, else `runCount` run triples; with its
 * token count, LoRA id and salt. The same for a request's block and a stored one.
 */
export function contentHash(
  out: Int32Array,
  at: number,
  runs: Float64Array | null,
  runCount: number,
  stream: number,
  start: number,
  n: number,
  lora: number,
  salt: number,
): void {
  if (runs === null) {
    hash2(out, at, stream, start, n * 4096 + 1, lora * 31 + salt);
    return;
  }
  let h1 = n | 0;
  let h2 = ~n | 0;
  for (let j = 0; j < runCount; j++) {
    hash2(out, at, runs[3 * j]!, runs[3 * j + 1]!, runs[3 * j + 2]!, h1 ^ Math.imul(h2, 0x27d4eb2d));
    h1 = out[at]!;
    h2 = out[at + 1]!;
  }
  hash2(out, at, h1, h2, lora, salt);
}

/** The hash of a block's first token (+ LoRA + salt): what every partial match shares. */
export function firstTokenHash(out: Int32Array, at: number, stream: number, start: number, lora: number, salt: number): void {
  hash2(out, at, stream, start, lora, salt);
}

/**
 * The blocks of one request, chopped from its runs: block i covers tokens [i·T, min((i+1)·T, usable)). For each:
 * token count, where it starts in the runs and whether it is one run; hashes are computed only when asked for
 * (nodes with many children are found through a hash table, the others by comparing their few children).
 */
export class BlockKeys {
  runs = new Float64Array(48);
  runCount = 0;
  count = 0;
  n = new Int32Array(64);
  runIdx = new Int32Array(64);
  runOff = new Float64Array(64);
  single = new Uint8Array(64);
  lora = 0;
  salt = 0;
  private scratch = new Float64Array(48);

  private ensure(blocks: number, runs: number): void {
    if (3 * runs > this.runs.length) this.runs = new Float64Array(Math.max(3 * runs, 2 * this.runs.length));
    if (blocks > this.n.length) {
      const c = Math.max(blocks, 2 * this.n.length);
      this.n = new Int32Array(c);
      this.runIdx = new Int32Array(c);
      this.runOff = new Float64Array(c);
      this.single = new Uint8Array(c);
    }
  }

  /** Copies `runs` (the first `usable` tokens matter) and chops them into blocks of `tpb`. LoRA / salt: 0 = none. */
  build(runs: RunList, usable: number, tpb: number, lora: number, salt: number): void {
    const blocks = Math.ceil(usable / tpb);
    this.ensure(blocks, runs.count);
    this.runs.set(runs.data.subarray(0, 3 * runs.count));
    this.runCount = runs.count;
    this.count = blocks;
    this.lora = lora;
    this.salt = salt;
    const r = this.runs;
    let ri = 0;
    let off = 0;
    for (let i = 0; i < blocks; i++) {
      const n = Math.min(tpb, usable - i * tpb);
      this.n[i] = n;
      this.runIdx[i] = ri;
      this.runOff[i] = off;
      // advance the cursor by n tokens
      let left = n;
      let one = 1;
      while (left > 0) {
        const avail = r[3 * ri + 2]! - off;
        if (avail > left) {
          off += left;
          left = 0;
        } else {
          left -= avail;
          ri++;
          off = 0;
          if (left > 0) one = 0;
        }
      }
      this.single[i] = one;
    }
  }

  /** Block i as its first `n` tokens (the prompt's last key, which leaves out the last token). */
  truncate(i: number, n: number): void {
    this.n[i] = n;
    this.single[i] = this.runs[3 * this.runIdx[i]! + 2]! - this.runOff[i]! >= n ? 1 : 0;
  }

  /** Stream and start of block i's first token. */
  stream(i: number): number {
    return this.runs[3 * this.runIdx[i]!]!;
  }

  start(i: number): number {
    return this.runs[3 * this.runIdx[i]! + 1]! + this.runOff[i]!;
  }

  hashKey(i: number, out: Int32Array, at: number): void {
    if (this.single[i]) contentHash(out, at, null, 1, this.stream(i), this.start(i), this.n[i]!, this.lora, this.salt);
    else {
      const k = this.clipped(i);
      contentHash(out, at, this.scratch, k, 0, 0, this.n[i]!, this.lora, this.salt);
    }
  }

  hashFirst(i: number, out: Int32Array, at: number): void {
    firstTokenHash(out, at, this.stream(i), this.start(i), this.lora, this.salt);
  }

  /** Writes block i's clipped runs into the scratch array; returns how many. */
  private clipped(i: number): number {
    const r = this.runs;
    let k = 0;
    let left = this.n[i]!;
    let j = this.runIdx[i]!;
    let o = this.runOff[i]!;
    while (left > 0) {
      if (3 * k + 3 > this.scratch.length) {
        const g = new Float64Array(this.scratch.length * 2);
        g.set(this.scratch);
        this.scratch = g;
      }
      const l = Math.min(r[3 * j + 2]! - o, left);
      this.scratch[3 * k] = r[3 * j]!;
      this.scratch[3 * k + 1] = r[3 * j + 1]! + o;
      this.scratch[3 * k + 2] = l;
      k++;
      left -= l;
      j++;
      o = 0;
    }
    return k;
  }

  /** Run count of the last `writeRuns`. */
  written = 0;

  /** Block i's clipped runs (stream, start, length)×k for a stored multi-run block, in `into` when it is large enough. */
  writeRuns(i: number, into: Float64Array | undefined): Float64Array {
    const k = this.clipped(i); // may grow the scratch array: read it after
    const out = into && into.length >= 3 * k ? into : new Float64Array(3 * Math.max(k, 4));
    out.set(this.scratch.subarray(0, 3 * k));
    this.written = k;
    return out;
  }

  /**
   * Tokens block i shares from its start with stored content: one run (stream, start, n) when `multiCount` is 0,
   * else the first `multiCount` run triples of `multi`. Equal content when the result equals both lengths.
   */
  commonPrefix(i: number, multi: Float64Array | undefined, multiCount: number, stream: number, start: number, n: number): number {
    const r = this.runs;
    let qj = this.runIdx[i]!;
    let qo = this.runOff[i]!;
    let qLeft = this.n[i]!;
    if (multiCount === 0 || multi === undefined) {
      // One stored run: the query's first run decides.
      if (r[3 * qj] !== stream || r[3 * qj + 1]! + qo !== start) return 0;
      return Math.min(r[3 * qj + 2]! - qo, qLeft, n);
    }
    let matched = 0;
    let sj = 0;
    let so = 0;
    while (qLeft > 0 && sj < multiCount) {
      const qs = r[3 * qj]!;
      const qst = r[3 * qj + 1]! + qo;
      const ql = Math.min(r[3 * qj + 2]! - qo, qLeft);
      const ss = multi[3 * sj]!;
      const sst = multi[3 * sj + 1]! + so;
      const sl = multi[3 * sj + 2]! - so;
      if (qs !== ss || qst !== sst) break;
      const m = Math.min(ql, sl);
      matched += m;
      qLeft -= m;
      if (m === ql) {
        qj++;
        qo = 0;
      } else qo += m;
      if (m === sl) {
        sj++;
        so = 0;
      } else so += m;
    }
    return matched;
  }
}
