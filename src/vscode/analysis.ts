// The extension's view of the one analysis per (document, version, settings): the core's AnalysisStore, keyed by
// URI, reused while the version and the settings fingerprint are unchanged. Consumers never re-validate: they ask
// here, and the first to ask for a version computes it. onDidAnalyze tells listeners (status bar, panel) a new one.
import * as vscode from 'vscode';
import { AnalysisStore, type Analysis } from '../core/analysis.js';
import { settingsFor } from './settings.js';

export class AnalysisCache implements vscode.Disposable {
  private readonly store = new AnalysisStore();
  private readonly emitter = new vscode.EventEmitter<vscode.TextDocument>();
  readonly onDidAnalyze = this.emitter.event;

  get(doc: vscode.TextDocument): Analysis | undefined {
    const key = doc.uri.toString();
    const s = settingsFor(doc);
    if (!s.enable || doc.languageId !== 'yaml') {
      this.store.delete(key);
      return undefined;
    }
    const before = this.store.peek(key, doc.version);
    let a: Analysis;
    try {
      a = this.store.get(key, doc.version, () => doc.getText(), s.analysis);
    } catch (e) {
      // The core is meant never to throw; if it does, this file gets no diagnostics, the editor keeps working.
      console.error(`recipe-lens: analysis failed for ${doc.uri.fsPath}:`, e);
      return undefined;
    }
    if (a !== before) this.emitter.fire(doc);
    return a;
  }

  /** The current analysis of a document, if one was computed (never computes). */
  peek(doc: vscode.TextDocument): Analysis | undefined {
    return this.store.peek(doc.uri.toString());
  }

  delete(uri: vscode.Uri): void {
    this.store.delete(uri.toString());
  }
  clear(): void {
    this.store.clear();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}
