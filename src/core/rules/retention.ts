// KV cache retention rules RT2–RT8 (formats.md §7, TensorRT-LLM kvCacheRetentionConfig.cpp) on the normalized
// ranges. RT1, RT3 and RT6 are field ranges: the schema carries them (`x-rule`).
import type { RetentionField, RetentionRangeField } from '../formats/fields.js';
import type { RetentionRecipe } from '../recipe.js';
import type { Ref, RuleHit } from './hit.js';

import { DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY, DEFAULT_TOKENS_PER_BLOCK } from '../memory/kvcache.js';

export type RetentionHitField = RetentionField | RetentionRangeField;
export type RetentionHit = RuleHit<RetentionHitField>;

/** A range the rules and the estimate can use: an integer start, and an integer end or none (to the end). */
export interface RetentionRange {
  /** Index in token_range_retention_configs. */
  index: number;
  start: number;
  end: number | null;
  priority?: number;
  durationMs: number | null;
}

export function retentionRanges(r: RetentionRecipe): RetentionRange[] {
  const out: RetentionRange[] = [];
  for (const { index, values: v } of r.ranges) {
    if (typeof v.start !== 'number') continue;
    const end = v.end === undefined || v.end === null ? null : v.end;
    // An end the file writes but that is no integer makes the range unusable (the schema reports it).
    if (end === null && v.end === undefined && r.ranges[index]!.loc.end) continue;
    out.push({
      index,
      start: v.start,
      end,
      priority: typeof v.priority === 'number' ? v.priority : undefined,
      durationMs: typeof v.durationMs === 'number' ? v.durationMs : null,
    });
  }
  return out;
}

/** Two ranges, or one, that TensorRT-LLM's KvCacheRetentionConfig constructor rejects (kvCacheRetentionConfig.cpp). */
export type RangeConflict = { code: 'RL-RT4'; range: number } | { code: 'RL-RT2' | 'RL-RT5'; range: number; next: number };

interface Span {
  start: number;
  end: number | null;
}

/**
 * RT4 (positive length), RT2 (only the last range by token_start may be open-ended), RT5 (no overlap) over `ranges`;
 * indices refer to `ranges`. Shared by the rules (findings on the file's keys) and the simulator (a trace's own config).
 */
export function rangeConflicts(ranges: readonly Span[]): RangeConflict[] {
  const out: RangeConflict[] = [];
  ranges.forEach((r, i) => {
    // RT4 — "Range must have a positive, non-zero length."
    if (r.end !== null && r.end <= r.start) out.push({ code: 'RL-RT4', range: i });
  });
  const order = ranges.map((_, i) => i).sort((a, b) => ranges[a]!.start - ranges[b]!.start);
  order.forEach((i, k) => {
    const next = order[k + 1];
    // RT2 — "Invalid use of end indicator."
    if (next !== undefined && ranges[i]!.end === null) out.push({ code: 'RL-RT2', range: i, next });
  });
  for (let k = 0; k + 1 < order.length; k++) {
    const a = ranges[order[k]!]!;
    const b = ranges[order[k + 1]!]!;
    // RT5 — "Token ranges must be non-overlapping."
    if (a.end !== null && a.end > b.start) out.push({ code: 'RL-RT5', range: order[k]!, next: order[k + 1]! });
  }
  return out;
}

/** What a conflict means, with TensorRT-LLM's own words. */
export function conflictMessage(c: RangeConflict, ranges: readonly Span[]): string {
  const r = ranges[c.range]!;
  if (c.code === 'RL-RT4') return `token range [${r.start}, ${r.end}) must have a positive, non-zero length (token_end > token_start)`;
  const n = ranges[c.next]!;
  if (c.code === 'RL-RT2')
    return `only the last range may leave token_end unset; [${r.start}, end) is followed by the range starting at ${n.start}`;
  return `token ranges [${r.start}, ${r.end}) and [${n.start}, ${n.end ?? 'end'}) overlap`;
}

export function retentionRules(recipe: RetentionRecipe, tokensPerBlock = DEFAULT_TOKENS_PER_BLOCK): RetentionHit[] {
  const out: RetentionHit[] = [];
  const ranges = retentionRanges(recipe);
  const at = (r: RetentionRange, field: RetentionRangeField): Ref<RetentionHitField> => ({ field, group: r.index });
  const endOrStart = (r: RetentionRange) => (recipe.ranges[r.index]!.loc.end ? at(r, 'end') : at(r, 'start'));
  for (const c of rangeConflicts(ranges)) {
    const r = ranges[c.range]!;
    const fields =
      c.code === 'RL-RT4'
        ? [at(r, 'end'), at(r, 'start')]
        : c.code === 'RL-RT2'
          ? [endOrStart(r), at(ranges[c.next]!, 'start')]
          : [at(r, 'end'), at(ranges[c.next]!, 'start')];
    out.push({ code: c.code, severity: 'error', message: conflictMessage(c, ranges), fields });
  }
  // RT7 — kvcache.md: below secondary_offload_min_priority evicted blocks are dropped, not offloaded.
  for (const r of ranges)
    if (r.priority !== undefined && r.priority >= 0 && r.priority < DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY)
      out.push({
        code: 'RL-RT7',
        severity: 'info',
        message: `priority ${r.priority} is below the default secondary_offload_min_priority (${DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY}): when evicted, these blocks are dropped, not offloaded to host memory`,
        fields: [at(r, 'priority')],
      });
  // RT8 — kvcache.md, executor.h: retention is per block of the prompt.
  for (const r of ranges) {
    const edges = [r.start, ...(r.end !== null ? [r.end] : [])].filter((x) => x % tokensPerBlock !== 0);
    if (edges.length)
      out.push({
        code: 'RL-RT8',
        severity: 'info',
        message: `retention applies per block of ${tokensPerBlock} tokens: ${edges.join(' and ')} ${edges.length > 1 ? 'fall' : 'falls'} inside a block, so the block holding ${edges.length > 1 ? 'them' : 'it'} takes the priority of the range its first token belongs to`,
        fields: [edges.includes(r.start) ? at(r, 'start') : at(r, 'end')],
      });
  }
  return out;
}
