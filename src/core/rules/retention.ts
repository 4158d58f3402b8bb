// KV cache retention rules RT2–RT8 (formats.md §7, TensorRT-LLM kvCacheRetentionConfig.cpp).
// RT1, RT3 and RT6 are field ranges: the schema carries them (`x-rule`).
import type { RecipeDoc } from '../document.js';
import { lookup } from '../tree.js';
import type { Finding } from '../types.js';
import { emit } from './emit.js';
import { factAt, type Fact } from './facts.js';

/** TensorRT-LLM defaults: kDefaultRetentionPriority, kDefaultSecondaryOffloadMinPriority, tokens_per_block. */
export const DEFAULT_RETENTION_PRIORITY = 35;
export const DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY = 30;
export const DEFAULT_TOKENS_PER_BLOCK = 32;

export interface RetentionRange {
  index: number;
  start: number;
  end: number | null;
  priority?: number;
  durationMs?: number | null;
  startFact: Fact;
  endFact?: Fact;
  priorityFact?: Fact;
}

export function retentionRanges(doc: RecipeDoc): RetentionRange[] {
  const list = lookup(doc.root, ['token_range_retention_configs'])?.node;
  if (!list || list.kind !== 'seq') return [];
  const out: RetentionRange[] = [];
  list.items.forEach((_, i) => {
    const base = ['token_range_retention_configs', i];
    const s = factAt(doc, [...base, 'token_start']);
    const e = factAt(doc, [...base, 'token_end']);
    const p = factAt(doc, [...base, 'priority']);
    const d = factAt(doc, [...base, 'duration_ms']);
    if (!s || typeof s.value !== 'number' || !Number.isInteger(s.value)) return;
    const end = e === undefined || e.value === null ? null : typeof e.value === 'number' ? e.value : undefined;
    if (end === undefined) return;
    out.push({
      index: i,
      start: s.value,
      end,
      priority: typeof p?.value === 'number' ? p.value : undefined,
      durationMs: typeof d?.value === 'number' ? d.value : null,
      startFact: s,
      endFact: e,
      priorityFact: p,
    });
  });
  return out;
}

export function retentionRules(doc: RecipeDoc, tokensPerBlock = DEFAULT_TOKENS_PER_BLOCK): Finding[] {
  const out: Finding[] = [];
  const ranges = retentionRanges(doc);
  // RT4: a range has positive length — "Range must have a positive, non-zero length."
  for (const r of ranges)
    if (r.end !== null && r.end <= r.start)
      out.push(
        ...emit('RL-RT4', 'error', `token range [${r.start}, ${r.end}) must have a positive, non-zero length (token_end > token_start)`, [
          r.endFact,
          r.startFact,
        ]),
      );
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  // RT2: only the last range (by token_start) may be open-ended — "Invalid use of end indicator."
  sorted.forEach((r, i) => {
    if (r.end === null && i < sorted.length - 1)
      out.push(
        ...emit(
          'RL-RT2',
          'error',
          `only the last range may leave token_end unset; [${r.start}, end) is followed by the range starting at ${sorted[i + 1]!.start}`,
          [r.endFact ?? r.startFact, sorted[i + 1]!.startFact],
        ),
      );
  });
  // RT5: ranges do not overlap — "Token ranges must be non-overlapping."
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i]!;
    const b = sorted[i + 1]!;
    if (a.end !== null && a.end > b.start)
      out.push(
        ...emit('RL-RT5', 'error', `token ranges [${a.start}, ${a.end}) and [${b.start}, ${b.end ?? 'end'}) overlap`, [
          a.endFact,
          b.startFact,
        ]),
      );
  }
  // RT7: below secondary_offload_min_priority, evicted blocks are dropped instead of offloaded — kvcache.md.
  for (const r of ranges)
    if (r.priority !== undefined && r.priority >= 0 && r.priority < DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY)
      out.push(
        ...emit(
          'RL-RT7',
          'info',
          `priority ${r.priority} is below the default secondary_offload_min_priority (${DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY}): when evicted, these blocks are dropped, not offloaded to host memory`,
          [r.priorityFact],
        ),
      );
  // RT8: retention is per block of the prompt: a range edge inside a block — kvcache.md, executor.h.
  for (const r of ranges) {
    const edges = [r.start, ...(r.end !== null ? [r.end] : [])].filter((x) => x % tokensPerBlock !== 0);
    if (edges.length)
      out.push(
        ...emit(
          'RL-RT8',
          'info',
          `retention applies per block of ${tokensPerBlock} tokens: ${edges.join(' and ')} ${edges.length > 1 ? 'fall' : 'falls'} inside a block, so the block holding ${edges.length > 1 ? 'them' : 'it'} takes the priority of the range its first token belongs to`,
          [edges.includes(r.start) ? r.startFact : r.endFact],
        ),
      );
  }
  return out;
}
