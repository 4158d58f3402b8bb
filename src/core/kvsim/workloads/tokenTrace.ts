// Token traces: JSON Lines {"tokens": [int, …], "output_len": N, "retention": {…} | null}, optionally "timestamp" (ms),
// "lora_id" (int), "cache_salt" (string or int) and "output_tokens" (the generated tokens, when a later prompt sends
// them back, as a conversation's next turn does; without them generated tokens match nothing). A line without "retention" uses the command line's retention
// config; null means none (every block at the default priority 35); an object is that request's own
// KvCacheRetentionConfig (token_range_retention_configs, decode_retention_priority, decode_duration_ms).
import { literalStream } from '../content.js';
import { retentionFromObject, type RetentionSpec } from '../retention.js';
import type { Workload } from '../types.js';
import { blankRequest } from './request.js';
import { forEachJsonLine, type LineError } from './lines.js';

export interface TokenTrace {
  requests: number;
  tokens: Int32Array;
  /** Request r's tokens are tokens[offsets[r] .. offsets[r+1]), its prompt the first promptLen[r] of them. */
  offsets: Int32Array;
  promptLen: Int32Array;
  output: Int32Array;
  timestamp: Float64Array;
  lora: Float64Array;
  salt: Float64Array;
  retention: (RetentionSpec | null | undefined)[];
}

/** A cache salt string as a number (FNV-1a, 32 bits, + 1 so that 0 stays "none"); an integer salt is taken as is + 1. */
export function saltId(v: string | number): number {
  if (typeof v === 'number') return v + 1;
  let h = 0x811c9dc5;
  for (let i = 0; i < v.length; i++) h = Math.imul(h ^ v.charCodeAt(i), 0x01000193);
  return (h >>> 0) + 1;
}

const isTokenId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2 ** 31 - 1;

export function readTokenTrace(lines: Iterable<string>, limit = Infinity): TokenTrace | LineError {
  let tokens = new Int32Array(1 << 16);
  let nTok = 0;
  const offsets: number[] = [0];
  const promptLen: number[] = [];
  const output: number[] = [];
  const ts: number[] = [];
  const lora: number[] = [];
  const salt: number[] = [];
  const retention: (RetentionSpec | null | undefined)[] = [];
  let lastTs = 0;
  const err = forEachJsonLine(lines, (v, line) => {
    if (output.length >= limit) return false;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `line ${line}: a request is a JSON object with "tokens"`;
    const o = v as Record<string, unknown>;
    const t = o.tokens;
    if (!Array.isArray(t) || t.length === 0) return `line ${line}: "tokens" must be a non-empty list of token ids`;
    const given = o.output_tokens;
    if (given !== undefined && !Array.isArray(given)) return `line ${line}: "output_tokens" must be a list of token ids`;
    const out = o.output_len ?? given?.length ?? 1;
    if (typeof out !== 'number' || !Number.isInteger(out) || out < 0) return `line ${line}: "output_len" must be a non-negative integer`;
    const all = given ? [...t, ...given.slice(0, out)] : t;
    if (nTok + all.length > tokens.length) {
      const g = new Int32Array(Math.max(tokens.length * 2, nTok + all.length));
      g.set(tokens.subarray(0, nTok));
      tokens = g;
    }
    for (const x of all) {
      if (!isTokenId(x)) return `line ${line}: token ids must be integers in 0..2^31-1`;
      tokens[nTok++] = x;
    }
    promptLen.push(t.length);
    if (!('retention' in o)) retention.push(undefined);
    else if (o.retention === null) retention.push(null);
    else {
      const r = retentionFromObject(o.retention);
      if ('error' in r) return `line ${line}: retention: ${r.error}`;
      retention.push(r.spec);
    }
    const stamp = o.timestamp;
    if (stamp !== undefined && (typeof stamp !== 'number' || !Number.isFinite(stamp) || stamp < 0))
      return `line ${line}: "timestamp" must be a non-negative number of milliseconds`;
    if (typeof stamp === 'number') lastTs = stamp;
    const l = o.lora_id;
    if (l !== undefined && l !== null && !isTokenId(l)) return `line ${line}: "lora_id" must be a non-negative integer`;
    const s = o.cache_salt;
    if (s !== undefined && s !== null && typeof s !== 'string' && !isTokenId(s))
      return `line ${line}: "cache_salt" must be a string or a non-negative integer`;
    offsets.push(nTok);
    output.push(out);
    ts.push(lastTs);
    lora.push(typeof l === 'number' ? l + 1 : 0);
    salt.push(s === undefined || s === null ? 0 : saltId(s as string | number));
    return undefined;
  });
  if (err) return err;
  return {
    requests: output.length,
    tokens: tokens.slice(0, nTok),
    offsets: Int32Array.from(offsets),
    promptLen: Int32Array.from(promptLen),
    output: Int32Array.from(output),
    timestamp: Float64Array.from(ts),
    lora: Float64Array.from(lora),
    salt: Float64Array.from(salt),
    retention,
  };
}

export function tokenTraceWorkload(trace: TokenTrace, name = 'token trace'): Workload {
  return {
    name: `${name} (${trace.requests} requests)`,
    *requests() {
      const req = blankRequest();
      const runs = req.runs;
      for (let r = 0; r < trace.requests; r++) {
        runs.reset();
        for (let k = trace.offsets[r]!; k < trace.offsets[r + 1]!; k++) runs.push(literalStream(trace.tokens[k]!), 0, 1);
        req.promptTokens = trace.promptLen[r]!;
        req.outputIncluded = runs.tokens > req.promptTokens;
        req.outputTokens = trace.output[r]!;
        req.arrivalMs = trace.timestamp[r]!;
        req.loraId = trace.lora[r]!;
        req.cacheSalt = trace.salt[r]!;
        req.retention = trace.retention[r];
        yield req;
      }
    },
  };
}
