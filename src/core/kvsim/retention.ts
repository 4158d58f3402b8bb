// KvCacheRetentionConfig as the simulator applies it: the per-request config read from plain data (a retention
// YAML file's values, or a token trace's "retention" object) and its per-block priorities and durations.
// Validation and the per-block walk follow TensorRT-LLM cpp/tensorrt_llm/executor/kvCacheRetentionConfig.cpp
// @3585984b32cded5cc002d3087d3da4b0fd9fb8a5 (constructor checks; getPerBlockRetentionPriorityDuration).
import { DEFAULT_RETENTION_PRIORITY } from '../memory/kvcache.js';
import { conflictMessage, rangeConflicts } from '../rules/retention.js';

/** kMinRetentionPriority / kMaxRetentionPriority (executor.h). */
export const MIN_PRIORITY = 0;
export const MAX_PRIORITY = 100;

export interface RetentionRange {
  tokenStart: number;
  /** Exclusive; null = to the end of the prompt (only the last range). */
  tokenEnd: number | null;
  priority: number;
  /** null = the priority never expires. */
  durationMs: number | null;
}

export interface RetentionSpec {
  /** Sorted by tokenStart (the constructor sorts them). */
  ranges: RetentionRange[];
  decodePriority: number;
  decodeDurationMs: number | null;
}

/** A config with no ranges and the default decode priority: what a request without a config gets (`value_or(KvCacheRetentionConfig())`). */
export const NO_RETENTION: RetentionSpec = { ranges: [], decodePriority: DEFAULT_RETENTION_PRIORITY, decodeDurationMs: null };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

function priorityOf(v: unknown, what: string): number | string {
  if (!isInt(v)) return `${what} must be an integer`;
  // TokenRangeRetentionConfig ctor: "Invalid priority value. Must be between 0 and 100".
  if (v < MIN_PRIORITY || v > MAX_PRIORITY) return `${what} ${v} is outside ${MIN_PRIORITY}..${MAX_PRIORITY}`;
  return v;
}

function durationOf(v: unknown, what: string): number | null | string {
  if (v === undefined || v === null) return null;
  if (!isInt(v) || v < 0) return `${what} must be a non-negative integer number of milliseconds or null`;
  return v;
}

/**
 * A KvCacheRetentionConfig from plain data ({token_range_retention_configs, decode_retention_priority,
 * decode_duration_ms}); the checks of the C++ constructor, with its messages.
 */
export function retentionFromObject(v: unknown): { spec: RetentionSpec } | { error: string } {
  if (!isObj(v)) return { error: 'a retention config is a mapping with token_range_retention_configs' };
  const list = v.token_range_retention_configs ?? [];
  if (!Array.isArray(list)) return { error: 'token_range_retention_configs must be a list' };
  const ranges: RetentionRange[] = [];
  for (let i = 0; i < list.length; i++) {
    const r: unknown = list[i];
    const at = `token_range_retention_configs[${i}]`;
    if (!isObj(r)) return { error: `${at} must be a mapping` };
    if (!isInt(r.token_start)) return { error: `${at}.token_start must be an integer` };
    if (r.token_end !== undefined && r.token_end !== null && !isInt(r.token_end))
      return { error: `${at}.token_end must be an integer or null` };
    const priority = priorityOf(r.priority, `${at}.priority`);
    if (typeof priority === 'string') return { error: priority };
    const durationMs = durationOf(r.duration_ms, `${at}.duration_ms`);
    if (typeof durationMs === 'string') return { error: durationMs };
    ranges.push({ tokenStart: r.token_start, tokenEnd: (r.token_end as number | null | undefined) ?? null, priority, durationMs });
  }
  ranges.sort((a, b) => a.tokenStart - b.tokenStart);
  // RT3 is a field range in the rules (the schema's minimum); a trace's config is not schema-checked.
  const negative = ranges.find((r) => r.tokenStart < 0);
  if (negative) return { error: `token_start ${negative.tokenStart} must be ≥ 0 (Token indices must be non-negative.)` };
  const spans = ranges.map((r) => ({ start: r.tokenStart, end: r.tokenEnd }));
  const conflict = rangeConflicts(spans)[0];
  if (conflict) return { error: conflictMessage(conflict, spans) };
  const decode = v.decode_retention_priority ?? DEFAULT_RETENTION_PRIORITY;
  const decodePriority = priorityOf(decode, 'decode_retention_priority');
  if (typeof decodePriority === 'string') return { error: decodePriority };
  const decodeDurationMs = durationOf(v.decode_duration_ms, 'decode_duration_ms');
  if (typeof decodeDurationMs === 'string') return { error: decodeDurationMs };
  return { spec: { ranges, decodePriority, decodeDurationMs } };
}

export { perBlockRetention } from './perBlock.js';
