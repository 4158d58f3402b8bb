// Hover, completion and quick-fix providers: thin adapters over src/core.
import * as vscode from 'vscode';
import { completions } from '../core/complete.js';
import { completionContext, lookupLoose } from '../core/cursor.js';
import { hoverAt } from '../core/hover.js';
import type { AnalysisCache } from './analysis.js';
import { toRange } from './convert.js';

export class RecipeHoverProvider implements vscode.HoverProvider {
  constructor(private readonly cache: AnalysisCache) {}
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const a = this.cache.get(document);
    const h = a ? hoverAt(a, document.offsetAt(position)) : undefined;
    if (!h) return undefined;
    return new vscode.Hover(
      h.contents.map((p) => new vscode.MarkdownString(p)),
      new vscode.Range(document.positionAt(h.span[0]), document.positionAt(h.span[1])),
    );
  }
}

export class RecipeCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly cache: AnalysisCache) {}
  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const a = this.cache.get(document);
    const format = a?.format;
    if (!a || !format) return undefined;
    const offset = document.offsetAt(position);
    const ctx = completionContext(document.getText(), offset);
    if (!ctx) return undefined;
    const doc = a.main?.doc ?? a.parsed.docs[0];
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
