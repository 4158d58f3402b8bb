// Which kind of trace a JSON Lines text is: a Mooncake trace ("hash_ids"), a token trace ("tokens") or a KV cache
// event stream ("event_id" + "data"), decided by its first value.
import type { Workload } from '../types.js';
import { isKvEvent, parseEventJson, replayKvEvents, type EventReplay } from './events.js';
import { splitLines, type LineError } from './lines.js';
import { mooncakeWorkload, readMooncake } from './mooncake.js';
import { readTokenTrace, tokenTraceWorkload } from './tokenTrace.js';

export type OpenedTrace =
  { kind: 'mooncake' | 'tokens'; workload: Workload; requests: number } | { kind: 'events'; replay: EventReplay } | LineError;

export function openTrace(text: string, name: string, opts: { traceBlockSize: number; limit?: number; samples?: number }): OpenedTrace {
  const trimmed = text.trimStart();
  let first: unknown;
  if (trimmed.startsWith('[')) first = [];
  else
    for (const line of splitLines(trimmed)) {
      if (!line.trim()) continue;
      try {
        first = parseEventJson(line);
      } catch (e) {
        return { error: `line 1: not JSON (${(e as Error).message})` };
      }
      break;
    }
  if (first === undefined) return { error: 'the trace is empty' };
  if (Array.isArray(first) || isKvEvent(first)) {
    const replay = replayKvEvents(text, opts.samples);
    return 'error' in replay ? replay : { kind: 'events', replay };
  }
  const o = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
  if ('hash_ids' in o) {
    const t = readMooncake(splitLines(text), opts.traceBlockSize, opts.limit);
    return 'error' in t ? t : { kind: 'mooncake', workload: mooncakeWorkload(t, name), requests: t.requests };
  }
  if ('tokens' in o) {
    const t = readTokenTrace(splitLines(text), opts.limit);
    return 'error' in t ? t : { kind: 'tokens', workload: tokenTraceWorkload(t, name), requests: t.requests };
  }
  return { error: 'not a Mooncake trace ("hash_ids"), a token trace ("tokens") or a KV cache event stream ("event_id", "data")' };
}
