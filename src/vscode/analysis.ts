// The extension's view of the one analysis per (document, version, settings): the core's AnalysisStore, keyed by
// URI, reused while the version and the settings fingerprint are unchanged. Consumers never re-validate: they ask
// here, and the first to ask for a version computes it. onDidAnalyze tells listeners (status bar, panel) a new one.
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { AnalysisStore, type Analysis } from '../core/analysis.js';
import { explicitModelRefs, memoModelFiles, nodeModelFiles, withModelFiles } from '../host/modelFiles.js';
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
      // Model references resolve against local files here (the core reads none): the explicit ones, and the ones the
      // last analysis of this document asked for (a `model:` path, an HF id in the local cache).
      const documentPath = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.path;
      const fs = this.files(doc.uri.scheme === 'file' ? dirname(documentPath) : undefined);
      const text = doc.getText();
      const asked = (this.store.peek(key)?.modelRequests ?? []).map((ref) => ({ ref, origin: 'file' as const }));
      const settings = withModelFiles({ ...s.analysis, documentPath }, [...explicitModelRefs(text, s.analysis), ...asked], fs);
      a = this.store.get(key, doc.version, () => text, settings);
      if (a.modelRequests.length) {
        const more = withModelFiles(
          settings,
          a.modelRequests.map((ref) => ({ ref, origin: 'file' as const })),
          fs,
        );
        if (Object.keys(more.models ?? {}).length > Object.keys(settings.models ?? {}).length)
          a = this.store.get(key, doc.version, () => text, more);
      }
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

  private readonly fileSystems = new Map<string, ReturnType<typeof memoModelFiles>>();
  /** Local model files, relative references resolved against the document's folder; answers kept a few seconds. */
  private files(cwd: string | undefined) {
    const k = cwd ?? '';
    let fs = this.fileSystems.get(k);
    if (!fs) {
      if (this.fileSystems.size > 64) this.fileSystems.clear();
      fs = memoModelFiles(nodeModelFiles(cwd ? { cwd } : {}));
      this.fileSystems.set(k, fs);
    }
    return fs;
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
