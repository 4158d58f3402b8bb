// Hover, completion and quick-fix providers: thin adapters over src/core.
import * as vscode from 'vscode';
import { completions } from '../core/complete.js';
import { completionContext, lookupLoose, pathAtOffset } from '../core/cursor.js';
import { hoverMarkdown } from '../core/hoverText.js';
import { KV_KEYS, memoryHoverMarkdown, retentionHoverMarkdown, servingHoverMarkdown } from '../core/memory/hover.js';
import { LEVER_KEYS } from '../core/memory/whatIf.js';
import { estimateOf, type AnalysisCache } from './analysis.js';
import { toRange } from './convert.js';

function docAt(cache: AnalysisCache, document: vscode.TextDocument, offset: number) {
  const a = cache.get(document);
  if (!a) return undefined;
  const doc =
    a.result.parsed.docs.find((d) => offset >= d.span[0] && offset <= d.span[1] && d.format) ?? a.result.parsed.docs.find((d) => d.format);
  return doc?.format ? { doc, format: doc.format, analysis: a } : undefined;
}

export class RecipeHoverProvider implements vscode.HoverProvider {
  constructor(private readonly cache: AnalysisCache) {}
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const offset = document.offsetAt(position);
    const hit = docAt(this.cache, document, offset);
    if (!hit) return undefined;
    const where = pathAtOffset(hit.doc.root, offset);
    if (!where?.entry) return undefined;
    const key = where.path[where.path.length - 1];
    const lever = typeof key === 'string' ? LEVER_KEYS[key] : undefined;
    const parts: string[] = [];
    if (typeof key === 'string') {
      const e = estimateOf(hit.analysis, hit.doc);
      if (e.kind === 'training' && lever) parts.push(memoryHoverMarkdown(e, lever));
      if (e.kind === 'serving' && (KV_KEYS.has(key) || where.path[0] === 'kv_cache_config' || where.path[1] === 'kv_cache_config'))
        parts.push(
          servingHoverMarkdown(e, typeof where.path[0] === 'string' && where.path[0].endsWith('_servers') ? where.path[0] : undefined),
        );
      if (e.kind === 'retention') parts.push(retentionHoverMarkdown(e));
    }
    const md = hoverMarkdown(hit.doc, hit.format, where.path);
    if (md) parts.push(md);
    if (!parts.length) return undefined;
    const s = where.entry.keySpan;
    return new vscode.Hover(
      parts.map((p) => new vscode.MarkdownString(p)),
      new vscode.Range(document.positionAt(s[0]), document.positionAt(s[1])),
    );
  }
}

export class RecipeCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly cache: AnalysisCache) {}
  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const a = this.cache.get(document);
    const format = a?.result.format;
    if (!a || !format) return undefined;
    const offset = document.offsetAt(position);
    const ctx = completionContext(document.getText(), offset);
    if (!ctx) return undefined;
    const doc = a.result.parsed.docs.find((d) => d.format) ?? a.result.parsed.docs[0];
    const parent = ctx.mode === 'key' ? lookupLoose(doc?.root, ctx.path, offset) : undefined;
    const existing = new Set(parent?.kind === 'map' ? parent.entries.map((e) => e.key) : []);
    const range = new vscode.Range(document.positionAt(ctx.wordStart), position);
    return completions(format, ctx, existing).map((c) => {
      const item = new vscode.CompletionItem(
        c.label,
        c.kind === 'key' ? vscode.CompletionItemKind.Property : vscode.CompletionItemKind.Value,
      );
      item.insertText = c.insertText;
      item.range = range;
      if (c.detail) item.detail = c.detail;
      if (c.documentation) item.documentation = new vscode.MarkdownString(c.documentation);
      if (c.deprecated) item.tags = [vscode.CompletionItemTag.Deprecated];
      return item;
    });
  }
}

export class RecipeCodeActionProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  constructor(private readonly cache: AnalysisCache) {}
  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const a = this.cache.get(document);
    if (!a) return [];
    const out: vscode.CodeAction[] = [];
    for (const vd of context.diagnostics) {
      if (vd.source !== 'recipe-lens') continue;
      const d = a.diagnostics.find((x) => x.code === vd.code && toRange(x.range).isEqual(vd.range) && x.message === vd.message);
      for (const fix of d?.fixes ?? []) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [vd];
        action.isPreferred = (d?.fixes?.length ?? 0) === 1;
        const edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits) edit.replace(document.uri, toRange(e.range), e.newText);
        action.edit = edit;
        out.push(action);
      }
    }
    return out;
  }
}
