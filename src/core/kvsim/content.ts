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

// ---- hashing (murmur3 32-bit mixing, two seeds for a 64-bit key) ----

function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const SEED1 = 0x9747b28c | 0;
const SEED2 = 0x2f0e1b53 | 0;
const hi32 = (x: number) => Math.floor(x / 4294967296) | 0;

/** Two 32-bit hashes of up to four numbers (integers below 2^53 in magnitude; `b` below 2^31). */
export function hash2(out: Int32Array, at: number, a: number, b: number, c: number, d: number): void {
  const aHi = hi32(a);
  const cd = (c | 0) ^ Math.imul(hi32(c), 0x27d4eb2d);
  const dd = (d | 0) ^ Math.imul(hi32(d), 0x165667b1);
  let h1 = mix(mix(mix(mix(SEED1, a | 0), aHi), b), cd);
  let h2 = mix(mix(mix(mix(SEED2, b), a | 0), cd), aHi);
  h1 = mix(h1, dd);
  h2 = mix(h2, dd);
  out[at] = fmix(h1 ^ 20);
  out[at + 1] = fmix(h2 ^ 20);
}

/**
 * The blocks of one request, chopped from its runs: block i covers tokens [i·T, min((i+1)·T, usable)). For each:
 * token count, where it starts in the runs, whether it is one run, its key hash (runs + LoRA + salt) and the hash
 * of its first token (+ LoRA + salt), which is all a partial match can share.
 */
export class BlockKeys {
  runs = new Float64Array(48);
  runCount = 0;
  count = 0;
  n = new Int32Array(64);
  runIdx = new Int32Array(64);
  runOff = new Float64Array(64);
  single = new Uint8Array(64);
  /** h[2i], h[2i+1]: key hash; f[2i], f[2i+1]: first-token hash. */
  h = new Int32Array(128);
  f = new Int32Array(128);
  lora = 0;
  salt = 0;
  private tmp = new Int32Array(2);

  private ensure(blocks: number, runs: number): void {
    if (3 * runs > this.runs.length) this.runs = new Float64Array(Math.max(3 * runs, 2 * this.runs.length));
    if (blocks > this.n.length) {
      const c = Math.max(blocks, 2 * this.n.length);
      this.n = new Int32Array(c);
      this.runIdx = new Int32Array(c);
      this.runOff = new Float64Array(c);
      this.single = new Uint8Array(c);
      this.h = new Int32Array(2 * c);
      this.f = new Int32Array(2 * c);
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
      this.hashBlock(i, ri, off, n);
      // advance the cursor by n tokens
      let left = n;
      while (left > 0) {
        const avail = r[3 * ri + 2]! - off;
        if (avail > left) {
          off += left;
          left = 0;
        } else {
          left -= avail;
          ri++;
          off = 0;
        }
      }
    }
  }

  /** Re-hashes block i as its first `n` tokens (the prompt's last, partial block before the last token). */
  truncate(i: number, n: number): void {
    this.n[i] = n;
    if (n > 0) this.hashBlock(i, this.runIdx[i]!, this.runOff[i]!, n);
  }

  /** Computes the first-token hash of block i into f (only inserts and partial searches need it). */
  firstHash(i: number): void {
    const ri = this.runIdx[i]!;
    hash2(this.f, 2 * i, this.runs[3 * ri]!, this.runs[3 * ri + 1]! + this.runOff[i]!, this.lora, this.salt);
  }

  private hashBlock(i: number, ri: number, off: number, n: number): void {
    const r = this.runs;
    const s0 = r[3 * ri]!;
    const st0 = r[3 * ri + 1]! + off;
    const len0 = r[3 * ri + 2]! - off;
    if (len0 >= n) {
      this.single[i] = 1;
      hash2(this.h, 2 * i, s0, st0, n * 4096 + 1, this.lora * 31 + this.salt);
      return;
    }
    this.single[i] = 0;
    // Fold the clipped runs into the key hash.
    const t = this.tmp;
    let h1 = n | 0;
    let h2 = ~n | 0;
    let left = n;
    let j = ri;
    let o = off;
    while (left > 0) {
      const l = Math.min(r[3 * j + 2]! - o, left);
      hash2(t, 0, r[3 * j]!, r[3 * j + 1]! + o, l, h1 ^ Math.imul(h2, 0x27d4eb2d));
      h1 = t[0]!;
      h2 = t[1]!;
      left -= l;
      j++;
      o = 0;
    }
    hash2(t, 0, h1, h2, this.lora, this.salt);
    this.h[2 * i] = t[0]!;
    this.h[2 * i + 1] = t[1]!;
  }

  /** The clipped runs of block i as a fresh array (stream, start, length)×k, for a stored multi-run block. */
  blockRuns(i: number): Float64Array {
    const r = this.runs;
    let k = 0;
    for (let left = this.n[i]!, j = this.runIdx[i]!, o = this.runOff[i]!; left > 0; j++, o = 0, k++)
      left -= Math.min(r[3 * j + 2]! - o, left);
    const out = new Float64Array(3 * k);
    let left = this.n[i]!;
    let j = this.runIdx[i]!;
    let o = this.runOff[i]!;
    for (let x = 0; left > 0; x += 3, j++, o = 0) {
      const l = Math.min(r[3 * j + 2]! - o, left);
      out[x] = r[3 * j]!;
      out[x + 1] = r[3 * j + 1]! + o;
      out[x + 2] = l;
      left -= l;
    }
    return out;
  }

  /**
   * Tokens block i shares from its start with stored content: one run (stream, start, n) when `multi` is null,
   * else the run triples in `multi`. Equal content when the result equals both lengths.
   */
  commonPrefix(i: number, multi: Float64Array | null, stream: number, start: number, n: number): number {
    const r = this.runs;
    let qj = this.runIdx[i]!;
    let qo = this.runOff[i]!;
    let qLeft = this.n[i]!;
    if (multi === null) {
      // One stored run: the query's first run decides.
      if (r[3 * qj] !== stream || r[3 * qj + 1]! + qo !== start) return 0;
      return Math.min(r[3 * qj + 2]! - qo, qLeft, n);
    }
    let matched = 0;
    let sj = 0;
    let so = 0;
    const sCount = multi.length / 3;
    while (qLeft > 0 && sj < sCount) {
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
