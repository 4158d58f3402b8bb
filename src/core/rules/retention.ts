// KV cache retention rules RT2–RT8 (formats.md §7, TensorRT-LLM kvCacheRetentionConfig.cpp) on the normalized
// ranges. RT1, RT3 and RT6 are field ranges: the schema carries them (`x-rule`).
import type { RetentionField, RetentionRangeField } from '../formats/fields.js';
import type { RetentionRecipe } from '../recipe.js';
import type { Ref, RuleHit } from './hit.js';

/** TensorRT-LLM defaults: kDefaultRetentionPriority, kDefaultSecondaryOffloadMinPriority, tokens_per_block. */
export const DEFAULT_RETENTION_PRIORITY = 35;
export const DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY = 30;
export const DEFAULT_TOKENS_PER_BLOCK = 32;

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

export function retentionRules(recipe: RetentionRecipe, tokensPerBlock = DEFAULT_TOKENS_PER_BLOCK): RetentionHit[] {
  const out: RetentionHit[] = [];
  const ranges = retentionRanges(recipe);
  const at = (r: RetentionRange, field: RetentionRangeField): Ref<RetentionHitField> => ({ field, group: r.index });
  const endOrStart = (r: RetentionRange) => (recipe.ranges[r.index]!.loc.end ? at(r, 'end') : at(r, 'start'));
  // RT4 — "Range must have a positive, non-zero length."
  for (const r of ranges)
    if (r.end !== null && r.end <= r.start)
      out.push({
        code: 'RL-RT4',
        severity: 'error',
        message: `token range [${r.start}, ${r.end}) must have a positive, non-zero length (token_end > token_start)`,
        fields: [at(r, 'end'), at(r, 'start')],
      });
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  // RT2 — "Invalid use of end indicator.": only the last range (by token_start) may be open-ended.
  sorted.forEach((r, i) => {
    if (r.end === null && i < sorted.length - 1)
      out.push({
        code: 'RL-RT2',
        severity: 'error',
        message: `only the last range may leave token_end unset; [${r.start}, end) is followed by the range starting at ${sorted[i + 1]!.start}`,
        fields: [endOrStart(r), at(sorted[i + 1]!, 'start')],
      });
  });
  // RT5 — "Token ranges must be non-overlapping."
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i]!;
    const b = sorted[i + 1]!;
    if (a.end !== null && a.end > b.start)
      out.push({
        code: 'RL-RT5',
        severity: 'error',
        message: `token ranges [${a.start}, ${a.end}) and [${b.start}, ${b.end ?? 'end'}) overlap`,
        fields: [at(a, 'end'), at(b, 'start')],
      });
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
