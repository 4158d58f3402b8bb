// Which range's priority each block of a prompt gets under a KvCacheRetentionConfig: the one implementation the
// simulator (kvsim/simulate.ts) and the KV cache estimate (memory/kvcache.ts retentionCoverage) share. A leaf module
// (it imports nothing) so that memory/kvcache.ts can use it without an import cycle.
// Port of TensorRT-LLM cpp/tensorrt_llm/executor/kvCacheRetentionConfig.cpp getPerBlockRetentionPriorityDuration
// @3585984b32cded5cc002d3087d3da4b0fd9fb8a5.

/** What the per-block walk reads of a config: its ranges, sorted by tokenStart. */
export interface BlockRanges {
  ranges: readonly { tokenStart: number; tokenEnd: number | null; priority: number; durationMs: number | null }[];
}

type Ints = Int16Array | Int32Array;

/**
 * Per context block: the priority (-1 = none given, so a new block gets 35 and a reused one keeps its own), the
 * duration (NaN = none) and the index of the range that gave it (-1 = none). A block takes the range holding its
 * first token; blocks past every range get none. Port of getPerBlockRetentionPriorityDuration(blockSize, seqLen).
 */
export function perBlockRetention(
  spec: BlockRanges,
  blockSize: number,
  seqLen: number,
  prio: Ints,
  dur: Float64Array,
  range: Ints,
): number {
  const ranges = spec.ranges;
  if (ranges.length === 0) {
    const n = Math.ceil(seqLen / blockSize);
    prio.fill(-1, 0, n);
    dur.fill(NaN, 0, n);
    range.fill(-1, 0, n);
    return n;
  }
  let n = 0;
  const put = (p: number, d: number, r: number) => {
    prio[n] = p;
    dur[n] = d;
    range[n] = r;
    n++;
  };
  let tokenLoc = 0;
  let pointer = 0;
  for (; ranges.length && tokenLoc < ranges[0]!.tokenStart && tokenLoc < seqLen; tokenLoc += blockSize) put(-1, NaN, -1);
  while (tokenLoc < seqLen && pointer < ranges.length) {
    const e = ranges[pointer]!;
    if (e.tokenEnd !== null && tokenLoc >= e.tokenEnd) pointer++;
    else {
      if (tokenLoc < e.tokenStart) put(-1, NaN, -1);
      else put(e.priority, e.durationMs ?? NaN, pointer);
      tokenLoc += blockSize;
    }
  }
  for (; tokenLoc < seqLen; tokenLoc += blockSize) put(-1, NaN, -1);
  return n;
}
