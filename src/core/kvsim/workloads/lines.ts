// JSON Lines input: one JSON value per line, blank lines skipped, the first bad line reported by number.

export interface LineError {
  error: string;
}

/** The lines of a text, lazily (no array of every line). */
export function* splitLines(text: string): Generator<string> {
  let at = 0;
  while (at < text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    yield text.charCodeAt(nl - 1) === 13 ? text.slice(at, nl - 1) : text.slice(at, nl);
    at = nl + 1;
  }
}

/**
 * Calls `fn` with each line's parsed value and its 1-based line number. `fn` returns an error message to stop with
 * it, false to stop quietly, or nothing to go on.
 */
export function forEachJsonLine(
  lines: Iterable<string>,
  fn: (value: unknown, line: number) => string | false | undefined,
): LineError | undefined {
  let line = 0;
  for (const raw of lines) {
    line++;
    const s = raw.trim();
    if (!s) continue;
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch (e) {
      return { error: `line ${line}: not JSON (${(e as Error).message})` };
    }
    const r = fn(v, line);
    if (r === false) return undefined;
    if (typeof r === 'string') return { error: r };
  }
  return undefined;
}
