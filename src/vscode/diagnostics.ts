// Keeps a DiagnosticCollection current: immediately on open, debounced on change, cleared on close.
import * as vscode from 'vscode';
import { readsFile } from '../core/analysis.js';
import type { AnalysisCache } from './analysis.js';
import { toVsDiagnostic } from './convert.js';
import { settingsFor } from './settings.js';

export class DiagnosticsController implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('recipe-lens');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly cache: AnalysisCache) {
    this.subs.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.refresh(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        this.schedule(e.document);
        this.scheduleDependents(e.document.uri);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('recipeLens')) this.refreshAll();
      }),
    );
    // A NeMo-RL `defaults:` parent changed on disk: the documents that read it are re-validated.
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}');
    for (const on of [watcher.onDidChange, watcher.onDidCreate, watcher.onDidDelete]) this.subs.push(on((u) => this.scheduleDependents(u)));
    this.subs.push(watcher);
    this.refreshAll();
  }

  /** Re-validate the open documents whose analysis read `uri` (a `defaults:` parent). */
  private scheduleDependents(uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    for (const d of vscode.workspace.textDocuments) {
      if (d.uri.toString() === uri.toString()) continue;
      const a = this.cache.peek(d);
      if (a && readsFile(a, uri.fsPath)) this.schedule(d);
    }
  }

  refreshAll(): void {
    this.cache.clear();
    for (const d of vscode.workspace.textDocuments) this.refresh(d);
  }

  refresh(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
    if (doc.languageId !== 'yaml') {
      this.collection.delete(doc.uri);
      return;
    }
    const a = this.cache.get(doc);
    this.collection.set(doc.uri, a ? a.diagnostics.map((d) => toVsDiagnostic(d, doc.uri)) : []);
  }

  private schedule(doc: vscode.TextDocument): void {
    if (doc.languageId !== 'yaml') return;
    const key = doc.uri.toString();
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.set(
      key,
      setTimeout(() => this.refresh(doc), settingsFor(doc).debounceMs),
    );
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
    this.collection.delete(uri);
    this.cache.delete(uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const s of this.subs) s.dispose();
    this.collection.dispose();
  }
}
