// Number formatting and bar geometry shared by the panel's view models (the webview only draws the result).
import type { BarCategory, BarSegment, MemoryBar, Verdict } from './viewModels.js';

export { bytes, count, deltaGib, gib } from '../units.js';
import { gib, gibNumber } from '../units.js';

export const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '—');

export const VERDICT_TEXT: Record<Verdict, string> = { fits: 'fits', tight: 'tight', 'does-not-fit': 'does not fit' };

export const CATEGORY_LABEL: Record<BarCategory, string> = {
  weights: 'weights',
  gradients: 'gradients',
  optimizer: 'optimizer',
  activations: 'activations',
  transient: 'transient',
  kv: 'KV cache',
  overhead: 'overheads',
};

/** Percentages with three decimals: enough for a 1000-px bar, short in JSON. */
const p3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * A stacked bar: segments in the given order, scaled to `scale` bytes (the capacity or the total, whichever
 * is larger, so an overflowing estimate runs past the capacity line).
 */
export function stackedBar(
  label: string,
  parts: { category: BarCategory; bytes: number }[],
  capacity: number,
  verdict: Verdict,
  scale = Math.max(
    capacity,
    parts.reduce((a, p) => a + p.bytes, 0),
  ),
): MemoryBar {
  const total = parts.reduce((a, p) => a + p.bytes, 0);
  let x = 0;
  const segments: BarSegment[] = [];
  for (const p of parts) {
    if (p.bytes <= 0) continue;
    const w = (100 * p.bytes) / scale;
    segments.push({
      category: p.category,
      label: CATEGORY_LABEL[p.category],
      text: `${gib(p.bytes)} (${pct(p.bytes, total)})`,
      x: p3(x),
      w: p3(w),
    });
    x += w;
  }
  return {
    label,
    text: `${gibNumber(total)} / ${gib(capacity)}`,
    segments,
    capacityX: p3((100 * capacity) / scale),
    verdict,
  };
}

/** "0, 8, 16, …, 120 (16 ranks, stride 8)" for long arithmetic runs, else the full list. */
export function rankList(ranks: readonly number[]): string {
  if (ranks.length <= 8) return ranks.join(', ');
  const stride = ranks[1]! - ranks[0]!;
  const arithmetic = ranks.every((r, i) => i === 0 || r - ranks[i - 1]! === stride);
  if (arithmetic)
    return stride === 1
      ? `${ranks[0]}–${ranks[ranks.length - 1]} (${ranks.length} ranks)`
      : `${ranks.slice(0, 3).join(', ')}, …, ${ranks[ranks.length - 1]} (${ranks.length} ranks, stride ${stride})`;
  return `${ranks.slice(0, 6).join(', ')}, … (${ranks.length} ranks)`;
}

/** Contiguous runs of block indices: "0–31, 40, 48–50". */
export function blockRuns(blocks: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < blocks.length;) {
    let j = i;
    while (j + 1 < blocks.length && blocks[j + 1] === blocks[j]! + 1) j++;
    out.push(i === j ? String(blocks[i]) : `${blocks[i]}–${blocks[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}
