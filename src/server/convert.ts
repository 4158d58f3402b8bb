// The core's results as LSP values. Positions are the analysis's own (its LineIndex over the text of that version,
// UTF-16 code units, as LSP's default position encoding); nothing here computes a finding, an estimate or a fix.
import { pathToFileURL } from 'node:url';
import type * as lsp from 'vscode-languageserver';
import type { Analysis } from '../core/analysis.js';
import type { CompletionItem as CoreCompletion } from '../core/complete.js';
import type { Hover as CoreHover } from '../core/hover.js';
import type { EstimateLens } from '../core/lens.js';
import type { RecipeSymbol } from '../core/symbols.js';
import type { Diagnostic, Range, Severity, Span } from '../core/types.js';

/** LSP's numeric constants used here (vscode-languageserver-types), written out so this module stays type-only. */
const SEVERITY: Record<Severity, lsp.DiagnosticSeverity> = { error: 1, warning: 2, info: 3 };
const TAG_DEPRECATED = 2 as lsp.DiagnosticTag;
const KIND = { property: 10, value: 12, enumMember: 20 } as const;
const SYMBOL_KIND: Record<RecipeSymbol['kind'], lsp.SymbolKind> = { document: 1, section: 3, list: 18 };
export const SOURCE = 'recipe-lens';

export const spanRange = (a: Analysis, s: Span): lsp.Range => ({
  start: a.parsed.lines.positionAt(s[0]),
  end: a.parsed.lines.positionAt(s[1]),
});
export const offsetOf = (a: Analysis, p: lsp.Position): number => a.parsed.lines.offsetAt(p);
const sameRange = (x: Range, y: lsp.Range) =>
  x.start.line === y.start.line &&
  x.start.character === y.start.character &&
  x.end.line === y.end.line &&
  x.end.character === y.end.character;

export function toLspDiagnostic(d: Diagnostic, uri: string): lsp.Diagnostic {
  const out: lsp.Diagnostic = { range: d.range, severity: SEVERITY[d.severity], source: SOURCE, code: d.code, message: d.message };
  // A related location may be in another file: the NeMo-RL `defaults:` parent that writes the value.
  if (d.related?.length)
    out.relatedInformation = d.related.map((r) => ({
      location: { uri: r.file ? pathToFileURL(r.file).href : uri, range: r.range },
      message: r.message,
    }));
  if (d.code === 'RL-DEPRECATED') out.tags = [TAG_DEPRECATED];
  return out;
}

export function toLspHover(a: Analysis, h: CoreHover): lsp.Hover {
  return { contents: { kind: 'markdown', value: h.contents.join('\n\n---\n\n') }, range: spanRange(a, h.span) };
}

export function toLspCompletion(c: CoreCompletion, range: lsp.Range): lsp.CompletionItem {
  const item: lsp.CompletionItem = {
    label: c.label,
    kind: c.kind === 'key' ? KIND.property : KIND.value,
    textEdit: { range, newText: c.insertText },
    filterText: c.label,
  };
  if (c.detail) item.detail = c.detail;
  if (c.documentation) item.documentation = { kind: 'markdown', value: c.documentation };
  if (c.deprecated) item.tags = [1 as lsp.CompletionItemTag];
  return item;
}

/** The core diagnostic a client's diagnostic stands for: same code, range and message in this version's analysis. */
export function matchDiagnostic(a: Analysis, d: lsp.Diagnostic): Diagnostic | undefined {
  if (d.source !== undefined && d.source !== SOURCE) return undefined;
  return a.diagnostics.find((x) => x.code === d.code && x.message === d.message && sameRange(x.range, d.range));
}

export function fixActions(d: Diagnostic, client: lsp.Diagnostic, uri: string, version: number): lsp.CodeAction[] {
  const fixes = d.fixes ?? [];
  return fixes.map((fix) => ({
    title: fix.title,
    kind: 'quickfix',
    diagnostics: [client],
    isPreferred: fixes.length === 1,
    edit: { documentChanges: [{ textDocument: { uri, version }, edits: fix.edits.map((e) => ({ range: e.range, newText: e.newText })) }] },
  }));
}

function symbolName(s: RecipeSymbol): string {
  return s.name === '' ? '""' : s.name;
}

export function toDocumentSymbols(a: Analysis, symbols: RecipeSymbol[]): lsp.DocumentSymbol[] {
  return symbols.map((s) => ({
    name: symbolName(s),
    detail: s.detail,
    kind: SYMBOL_KIND[s.kind],
    range: spanRange(a, s.span),
    selectionRange: spanRange(a, s.selection),
    children: toDocumentSymbols(a, s.children),
  }));
}

/** The flat form for clients without hierarchical document symbols. */
export function toSymbolInformation(a: Analysis, uri: string, symbols: RecipeSymbol[], container?: string): lsp.SymbolInformation[] {
  return symbols.flatMap((s) => [
    { name: symbolName(s), kind: SYMBOL_KIND[s.kind], location: { uri, range: spanRange(a, s.span) }, containerName: container },
    ...toSymbolInformation(a, uri, s.children, container ? `${container}.${symbolName(s)}` : symbolName(s)),
  ]);
}

export function toCodeLens(a: Analysis, l: EstimateLens, command: string): lsp.CodeLens {
  const at = a.parsed.lines.positionAt(l.span[0]);
  return {
    range: { start: { line: at.line, character: 0 }, end: { line: at.line, character: 0 } },
    command: { title: l.text, command, tooltip: l.tooltip } as lsp.Command,
  };
}

/** The hint sits at the end of the anchor key's line. */
export function toInlayHint(a: Analysis, l: EstimateLens): lsp.InlayHint {
  const line = a.parsed.lines.positionAt(l.span[0]).line;
  // offsetAt clamps the character to the line's end (before its line break).
  const position = a.parsed.lines.positionAt(a.parsed.lines.offsetAt({ line, character: Number.MAX_SAFE_INTEGER }));
  return { position, label: l.text, paddingLeft: true, tooltip: l.tooltip };
}
