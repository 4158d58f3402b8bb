// Findings (offset spans) to diagnostics (LSP positions), and their stable order.
import type { ParsedFile } from './document.js';
import type { Diagnostic, Finding } from './types.js';

export function toDiagnostics(parsed: ParsedFile, findings: readonly Finding[]): Diagnostic[] {
  const r = (s: readonly [number, number]) => parsed.lines.rangeOf(s);
  return findings.map((f) => ({
    code: f.code,
    severity: f.severity,
    message: f.message,
    path: f.path,
    range: r(f.span),
    ...(f.related?.length
      ? {
          related: f.related.map((x) =>
            x.file !== undefined
              ? {
                  path: x.path,
                  range: x.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                  message: x.message,
                  file: x.file,
                }
              : { path: x.path, range: r(x.span), message: x.message },
          ),
        }
      : {}),
    ...(f.fixes?.length
      ? { fixes: f.fixes.map((x) => ({ title: x.title, edits: x.edits.map((e) => ({ range: r(e.span), newText: e.newText })) })) }
      : {}),
  }));
}

/** Stable order: by position, then code. */
export function sortFindings(f: Finding[]): Finding[] {
  return f.sort((a, b) => a.span[0] - b.span[0] || a.code.localeCompare(b.code));
}
