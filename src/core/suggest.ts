// "Did you mean" suggestions for misspelled keys.

/** Levenshtein distance, capped: returns `cap + 1` as soon as the distance exceeds `cap`. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * How far a key may be from a known key to count as a typo of it, relative to its length: none under 5 characters,
 * one edit under 12, two from 12 on. (`in_channels` is two edits from `kv_channels` but a different word.)
 */
export function allowance(key: string): number {
  if (key.length < 5) return 0;
  if (key.length < 12) return 1;
  return 2;
}

/**
 * A typo changes a word; it does not swap one word for another. With the keys split at `_`, two keys that differ only
 * in one word that shares nothing with its counterpart (`in_channels` / `kv_channels`) name different things.
 */
export function replacesWholeWord(a: string, b: string): boolean {
  const wa = a.toLowerCase().split('_');
  const wb = b.toLowerCase().split('_');
  if (wa.length !== wb.length) return false;
  const diff = wa.map((w, i) => [w, wb[i]!] as const).filter(([x, y]) => x !== y);
  if (diff.length !== 1) return false;
  const [x, y] = diff[0]!;
  return editDistance(x, y, Math.max(x.length, y.length)) >= Math.max(x.length, y.length);
}

/** The closest candidate within the typo allowance and its distance, if exactly one is closest. */
export function nearest(key: string, candidates: Iterable<string>): { key: string; distance: number } | undefined {
  const cap = allowance(key);
  if (cap === 0) return undefined;
  let best: string | undefined;
  let bestD = cap + 1;
  let tie = false;
  const lower = key.toLowerCase();
  for (const c of candidates) {
    if (c === key) return undefined;
    const d = c.toLowerCase() === lower ? 0.5 : editDistance(lower, c.toLowerCase(), cap);
    if (d > cap || (d >= 1 && replacesWholeWord(key, c))) continue;
    if (d < bestD) {
      best = c;
      bestD = d;
      tie = false;
    } else if (d === bestD) tie = true;
  }
  return best !== undefined && !tie ? { key: best, distance: bestD } : undefined;
}

/** The closest candidate within the typo allowance, if exactly one is closest. */
export function closest(key: string, candidates: Iterable<string>): string | undefined {
  return nearest(key, candidates)?.key;
}

/**
 * The suggestion among several models' keys (each schema object that applies at one place is one model): the
 * nearest key of any model, and none when two models offer different keys at the same distance.
 */
export function closestAcross(key: string, models: readonly KeyIndex[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  let tie = false;
  for (const m of models) {
    if (m.has(key)) return undefined;
    const n = m.nearest(key);
    if (!n) continue;
    if (!best || n.distance < best.distance) {
      best = n;
      tie = false;
    } else if (n.distance === best.distance && n.key !== best.key) tie = true;
  }
  return best && !tie ? best.key : undefined;
}

/**
 * Candidates bucketed by length, so a lookup only measures the few whose length is within the typo allowance
 * (a 50,000-key mapping against 300 schema keys stays linear). Answers are memoised per key.
 */
export class KeyIndex {
  static readonly MEMO_LIMIT = 4096;
  private readonly byLength = new Map<number, string[]>();
  private readonly exact = new Set<string>();
  private readonly memo = new Map<string, { key: string; distance: number } | undefined>();
  constructor(candidates: Iterable<string>) {
    for (const c of candidates) {
      this.exact.add(c);
      const list = this.byLength.get(c.length) ?? [];
      list.push(c);
      this.byLength.set(c.length, list);
    }
  }
  has(key: string): boolean {
    return this.exact.has(key);
  }
  get size(): number {
    return this.exact.size;
  }
  closest(key: string): string | undefined {
    return this.nearest(key)?.key;
  }
  nearest(key: string): { key: string; distance: number } | undefined {
    if (this.memo.has(key)) return this.memo.get(key);
    const cap = allowance(key);
    const near: string[] = [];
    for (let l = key.length - cap; l <= key.length + cap; l++) near.push(...(this.byLength.get(l) ?? []));
    const r = cap === 0 || this.exact.has(key) ? undefined : nearest(key, near);
    // Indexes live as long as the schemas: keep the memo bounded against files full of distinct keys.
    if (this.memo.size >= KeyIndex.MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, r);
    return r;
  }
}
