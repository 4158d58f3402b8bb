// What a rule returns: the fields involved, never paths or spans. The checker (rules/place.ts) places a hit on
// the key a person most likely changes and turns each fix choice into an edit through the format's table; the
// planner and the what-if read the same hits to accept or explain a configuration.
import type { Severity } from '../types.js';

export type ScalarValue = string | number | boolean | null;

/** A field of the recipe, or one item of a list field, or a field of one group (a server role, a retention range). */
export type Ref<F extends string> = F | { field: F; item?: number; group?: number };

export const refField = <F extends string>(r: Ref<F>): F => (typeof r === 'string' ? r : r.field);

/** One way to repair a hit: the field values to write (or a key to rename). The checker words the title from the keys. */
export interface FixChoice<F extends string> {
  title?: string;
  set?: Partial<Record<F, ScalarValue>>;
  rename?: { ref: Ref<F>; to: string };
}

export interface RuleHit<F extends string> {
  code: string;
  severity: Severity;
  message: string;
  /** Keys a person would change, the rule's primary key first. */
  fields: Ref<F>[];
  /** Keys that only feed the rule (shown as related locations). */
  context?: Ref<F>[];
  fixes?: FixChoice<F>[];
}

/** What a rule module calls to record a hit; a null severity (a release range that does not apply) records nothing. */
export type HitSink<F extends string> = (
  code: string,
  severity: Severity | null,
  message: string,
  fields: Ref<F>[],
  rest?: Partial<RuleHit<F>>,
) => void;

/** A hit sink that appends to `out`. */
export const hitSink =
  <F extends string>(out: RuleHit<F>[]): HitSink<F> =>
  (code, severity, message, fields, rest = {}) => {
    if (severity) out.push({ code, severity, message, fields, ...rest });
  };

export function fmt(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(fmt).join(', ')}]`;
  return String(v);
}

export const pos = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1;

/** Divisors of n in increasing order (n ≤ 2^31; √n steps). */
export function divisors(n: number): number[] {
  const lo: number[] = [];
  const hi: number[] = [];
  for (let d = 1; d * d <= n; d++)
    if (n % d === 0) {
      lo.push(d);
      if (d * d !== n) hi.push(n / d);
    }
  return [...lo, ...hi.reverse()];
}

/** Of `options`, the nearest value below and the nearest above `current` (the repairs a person would consider). */
export function nearest(options: readonly number[], current: number): number[] {
  const below = options.filter((x) => x < current).pop();
  const above = options.find((x) => x > current);
  return [below, above].filter((x): x is number => x !== undefined);
}
