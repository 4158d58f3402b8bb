// Mooncake-format traces (the format of the Mooncake FAST'25 traces, read by Dynamo's replay and mocker and by NVIDIA
// AIPerf): one request per line, {"timestamp": ms, "input_length": tokens, "output_length": tokens, "hash_ids": [int]}.
// hash_ids are prefix hashes of trace blocks of `traceBlockSize` tokens (512 in the Mooncake traces); the last id
// covers a partial block when input_length is not a multiple. Equal ids are the same block content after the same
// prefix, so a trace block id is a token stream: its block holds positions 0..len-1 of stream `id`. The simulator
// chops those runs into its own blocks, so with tokens_per_block = 128 a 512-token trace block becomes four
// blocks keyed (id, 0..127), (id, 128..255), …: the reuse structure is kept exactly, at any block size.
import type { Workload } from '../types.js';
import { blankRequest } from './request.js';
import { forEachJsonLine, type LineError } from './lines.js';

/** The trace in flat arrays: about 8 bytes per hash id, 28 per request. */
export interface MooncakeTrace {
  requests: number;
  traceBlockSize: number;
  ids: Float64Array;
  /** Request r's ids are ids[offsets[r] .. offsets[r+1]). */
  offsets: Int32Array;
  input: Int32Array;
  output: Int32Array;
  timestamp: Float64Array;
}

class Grow {
  a: Float64Array;
  n = 0;
  constructor(c = 1024) {
    this.a = new Float64Array(c);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const g = new Float64Array(this.a.length * 2);
      g.set(this.a);
      this.a = g;
    }
    this.a[this.n++] = v;
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2 ** 31 - 1;

/** Parses a Mooncake trace; `limit` stops after that many requests. */
export function readMooncake(lines: Iterable<string>, traceBlockSize: number, limit = Infinity): MooncakeTrace | LineError {
  const ids = new Grow(1 << 16);
  const offsets = new Grow();
  const input = new Grow();
  const output = new Grow();
  const ts = new Grow();
  offsets.push(0);
  let lastTs = 0;
  const err = forEachJsonLine(lines, (v, line) => {
    if (input.n >= limit) return false;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `line ${line}: a Mooncake request is a JSON object`;
    const o = v as Record<string, unknown>;
    if (!isCount(o.input_length) || o.input_length < 1) return `line ${line}: input_length must be a positive integer`;
    if (o.output_length !== undefined && !isCount(o.output_length)) return `line ${line}: output_length must be a non-negative integer`;
    const h = o.hash_ids;
    if (!Array.isArray(h)) return `line ${line}: hash_ids must be a list of integers`;
    const want = Math.ceil(o.input_length / traceBlockSize);
    if (h.length !== want)
      return `line ${line}: ${h.length} hash_ids for input_length ${o.input_length}; ceil(${o.input_length} / ${traceBlockSize}) = ${want} (is the trace block size ${traceBlockSize}? set --trace-block-size)`;
    for (const id of h) {
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return `line ${line}: hash_ids must be non-negative integers`;
      ids.push(id);
    }
    const t = o.timestamp;
    if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t) || t < 0))
      return `line ${line}: timestamp must be a non-negative number of milliseconds`;
    lastTs = typeof t === 'number' ? t : lastTs;
    offsets.push(ids.n);
    input.push(o.input_length);
    output.push((o.output_length as number | undefined) ?? 0);
    ts.push(lastTs);
    return undefined;
  });
  if (err) return err;
  return {
    requests: input.n,
    traceBlockSize,
    ids: ids.a.slice(0, ids.n),
    offsets: Int32Array.from(offsets.a.subarray(0, offsets.n)),
    input: Int32Array.from(input.a.subarray(0, input.n)),
    output: Int32Array.from(output.a.subarray(0, output.n)),
    timestamp: ts.a.slice(0, ts.n),
  };
}

export function mooncakeWorkload(trace: MooncakeTrace, name = 'Mooncake trace'): Workload {
  return {
    name: `${name} (${trace.requests} requests, ${trace.traceBlockSize}-token trace blocks)`,
    *requests() {
      const req = blankRequest();
      const runs = req.runs;
      const B = trace.traceBlockSize;
      for (let r = 0; r < trace.requests; r++) {
        runs.reset();
        const L = trace.input[r]!;
        const from = trace.offsets[r]!;
        const to = trace.offsets[r + 1]!;
        for (let k = from; k < to; k++) runs.push(trace.ids[k]!, 0, k < to - 1 ? B : L - (to - 1 - from) * B);
        req.promptTokens = L;
        req.outputTokens = trace.output[r]!;
        req.arrivalMs = trace.timestamp[r]!;
        yield req;
      }
    },
  };
}
