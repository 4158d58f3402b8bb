// Published parameter counts, written as their authors publish them ("8,030,261,248", "8.2B", "70B").
import type { PublishedParams } from './types.js';

const UNIT: Record<string, number> = { M: 1e6, B: 1e9, T: 1e12 };

/**
 * An exact count: digits, optionally grouped with `,` or `_`.
 * Throws on a malformed literal: the catalogue is static data, a typo must fail its tests, not reach a user.
 */
export function exactParams(text: string, source: string, scope?: string): PublishedParams {
  const digits = text.replace(/[,_]/g, '');
  if (!/^\d+$/.test(digits)) throw new Error(`not an exact count: ${text}`);
  return { total: Number(digits), kind: 'exact', tolerance: 0, text, source, ...(scope ? { scope } : {}) };
}

/**
 * A rounded count ("8.2B", "116.83B"): within half a unit of its last digit; with `truncated`, a count cut after its
 * last digit (Meta's "1.23B" for 1,235,814,400; Qwen's "7.61B" for 7,615,616,512): within one unit above it; with
 * `nominal`, the size class of a model's name or announcement ("70B"), which is not a count and carries the arithmetic
 * tolerance only as a hint.
 */
export function roundedParams(
  text: string,
  source: string,
  opts: { nominal?: boolean; truncated?: boolean; scope?: string } = {},
): PublishedParams {
  const m = /^(\d+)(?:\.(\d+))?([MBT])$/.exec(text);
  if (!m) throw new Error(`not a rounded count: ${text}`);
  const unit = UNIT[m[3]!]!;
  const decimals = m[2]?.length ?? 0;
  const total = Math.round(Number(`${m[1]}.${m[2] ?? '0'}`) * unit);
  const tolerance = ((opts.truncated ? 1 : 0.5) * unit) / 10 ** decimals;
  return {
    total,
    kind: opts.nominal ? 'nominal' : opts.truncated ? 'truncated' : 'rounded',
    tolerance,
    text,
    source,
    ...(opts.scope ? { scope: opts.scope } : {}),
  };
}
