// The analyses of the documents one thread owns, and every feature computed from them. The same class runs on the
// server's main thread (documents under WORKER_MIN_CHARS) and in the analysis worker (larger ones), so a long
// analysis never holds the thread that answers the other documents. Each feature reads the one analysis of the
// document's current version (AnalysisStore: the first to ask computes it, everyone else reuses it).
import { dirname } from 'node:path';
import type * as lsp from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { AnalysisStore, analysisStats, readsFile, settingsFingerprint, type Analysis, type AnalysisSettings } from '../core/analysis.js';
import { completions } from '../core/complete.js';
import { completionContext, lookupLoose } from '../core/cursor.js';
import type { RecipeDoc } from '../core/document.js';
import { lineIndent } from '../core/embedded.js';
import { hoverAt } from '../core/hover.js';
import { describeDetection } from '../core/detect.js';
import { estimateLenses } from '../core/lens.js';
import { estimateText } from '../core/memory/report.js';
import { recipeSymbols } from '../core/symbols.js';
import { explicitModelRefs, memoModelFiles, nodeModelFiles, withModelFiles } from '../host/modelFiles.js';
import { FORMAT_LABELS } from '../core/types.js';
import { gib, gibNumber } from '../core/units.js';
import type { AnalysisResult, ApplyParams, CompareLogResult, PanelView, StatusVM, WhatIfValues } from '../protocol.js';
import {
  fixActions,
  matchDiagnostic,
  offsetOf,
  toCodeLens,
  toDocumentSymbols,
  toInlayHint,
  toLspCompletion,
  toLspDiagnostic,
  toLspHover,
  toSymbolInformation,
} from './convert.js';
import { fileNameOf, PanelState } from './panel.js';
import type { KvInputs } from './kvReuse.js';
import { poolFromEstimate, retentionFromDoc } from '../core/kvsim/fromAnalysis.js';
import { compareLog } from '../core/memory/logs.js';
import { compareLogVM } from '../core/panel/compareLog.js';
import { estimateOptionsOf, withGpu } from '../core/panel/index.js';

/** Analyses kept in memory at once (the most recently used documents); the others are recomputed when asked for. */
export const ANALYSES_KEPT = 16;

export interface DocumentSource {
  get(uri: string): TextDocument | undefined;
}

/** Each feature's parameters and result. `settings: null` means Recipe Lens is disabled for the document. */
export interface Features {
  diagnostics: { params: Record<string, never>; result: { resultId: string; items: lsp.Diagnostic[] } };
  hover: { params: { position: lsp.Position }; result: lsp.Hover | null };
  completion: { params: { position: lsp.Position }; result: lsp.CompletionItem[] };
  codeAction: { params: { range: lsp.Range; diagnostics: lsp.Diagnostic[]; only?: string[] }; result: lsp.CodeAction[] };
  symbols: { params: { hierarchical: boolean }; result: lsp.DocumentSymbol[] | lsp.SymbolInformation[] };
  codeLens: { params: { command: string }; result: lsp.CodeLens[] };
  inlayHint: { params: { range: lsp.Range }; result: lsp.InlayHint[] };
  /** The status bar's and the commands' summary, and the panel's sections when the client sends its view. */
  summary: { params: { view?: PanelView }; result: AnalysisResult };
  whatIf: { params: { view: PanelView; values: WhatIfValues }; result: ReturnType<PanelState['whatIf']> };
  plan: { params: { view: PanelView; gpus?: number }; result: ReturnType<PanelState['plan']> };
  apply: { params: ApplyParams; result: ReturnType<PanelState['apply']> };
  /** What the KV reuse simulation takes of the document (its pool under the panel's GPU, or its retention config). */
  kvInputs: { params: { gpu: string | null }; result: KvInputs };
  /** A training log's text against the document's estimate. */
  compareLog: { params: { text: string; logName: string }; result: CompareLogResult };
}
export type FeatureName = keyof Features;

export interface EngineRequest<K extends FeatureName = FeatureName> {
  feature: K;
  uri: string;
  /** The version the caller saw; the answer is for the document's current version (`stale` when they differ). */
  version: number;
  settings: AnalysisSettings | null;
  params: Features[K]['params'];
}
export type EngineReply<K extends FeatureName = FeatureName> =
  { ok: true; value: Features[K]['result'] } | { ok: false; reason: 'stale' | 'unknown'; version?: number };

/** The status-bar summary of an analysis: the most-loaded rank against the GPU (training recipes only). */
export function statusOf(a: Analysis | undefined): StatusVM | null {
  const e = a?.main?.estimate;
  if (e?.kind !== 'training') return null;
  const t = e.estimate;
  return {
    verdict: t.fit.verdict,
    text: `${gibNumber(t.perGpu.total, 1)} / ${gib(e.gpu.bytes, 1)}`,
    tooltip: `Recipe Lens: most-loaded rank needs ${gib(t.perGpu.total)} on ${e.gpu.name} (${t.fit.verdict}).`,
  };
}

/** What the first recipe document was read as and why (or why the file is no recipe), for the status bar's format item. */
function detectedOf(a: Analysis | undefined): string | null {
  const doc = a?.main?.doc ?? a?.parsed.docs[0];
  return doc ? describeDetection(doc.detection) : null;
}

function summaryOf(uri: string, version: number, a: Analysis | undefined): AnalysisResult {
  const e = a?.main?.estimate;
  let estimate: AnalysisResult['estimate'] = null;
  if (a?.main)
    estimate = !e
      ? { kind: 'none', reason: 'the file has syntax errors' }
      : e.kind === 'none'
        ? { kind: 'none', reason: e.reason }
        : e.kind === 'training'
          ? { kind: 'training', totalBytes: e.estimate.perGpu.total, report: estimateText(e) }
          : { kind: e.kind, report: estimateText(e) };
  return {
    uri,
    version,
    format: a?.format ?? null,
    formatLabel: a?.format ? FORMAT_LABELS[a.format] : null,
    detected: detectedOf(a),
    status: statusOf(a),
    estimate,
  };
}

export class Engine {
  private readonly store = new AnalysisStore();
  /** URIs by last use, most recent last (a Map keeps insertion order). */
  private readonly used = new Map<string, true>();
  private readonly panels = new PanelState();

  constructor(
    private readonly docs: DocumentSource,
    /**
     * Reads the other files a document names (NeMo-RL `defaults:` parents) for the core: settings cross threads as
     * data, so each thread brings its own reader (open buffers first, then the disk).
     */
    private readonly readFile?: (path: string) => string | undefined,
  ) {}

  /** Analyses computed by this thread (the core's counter is per thread). */
  get computed(): number {
    return analysisStats.computed;
  }

  /**
   * The analysis of `doc`'s current version under `settings`; computed on the first ask. As the CLI does
   * (host/modelFiles.ts analyzeWithModelFiles): model references a local file answers (a config.json path, an HF id in
   * the local cache) are read here, the core reads none; a second analysis only when the first asked for one found.
   */
  analysis(doc: TextDocument, settings: AnalysisSettings): Analysis {
    const text = doc.getText();
    const fs = this.modelFiles(settings.documentPath && doc.uri.startsWith('file:') ? dirname(settings.documentPath) : undefined);
    const asked = (this.store.peek(doc.uri)?.modelRequests ?? []).map((ref) => ({ ref, origin: 'file' as const }));
    // Other files (NeMo-RL `defaults:` parents) only for documents on disk, as the extension did.
    const base = doc.uri.startsWith('file:') && this.readFile ? { ...settings, readFile: this.readFile } : settings;
    const s = withModelFiles(base, [...explicitModelRefs(text, base), ...asked], fs);
    let a = this.store.get(doc.uri, doc.version, () => text, s);
    if (a.modelRequests.length) {
      const more = withModelFiles(
        s,
        a.modelRequests.map((ref) => ({ ref, origin: 'file' as const })),
        fs,
      );
      if (Object.keys(more.models ?? {}).length > Object.keys(s.models ?? {}).length)
        a = this.store.get(doc.uri, doc.version, () => text, more);
    }
    this.used.delete(doc.uri);
    this.used.set(doc.uri, true);
    while (this.used.size > ANALYSES_KEPT) {
      const oldest = this.used.keys().next().value!;
      this.used.delete(oldest);
      this.store.delete(oldest);
    }
    return a;
  }

  private readonly fileSystems = new Map<string, ReturnType<typeof memoModelFiles>>();
  /** Local model files, relative references resolved against the document's folder; answers kept a few seconds. */
  private modelFiles(cwd: string | undefined) {
    const k = cwd ?? '';
    let fs = this.fileSystems.get(k);
    if (!fs) {
      if (this.fileSystems.size > 64) this.fileSystems.clear();
      fs = memoModelFiles(nodeModelFiles(cwd ? { cwd } : {}));
      this.fileSystems.set(k, fs);
    }
    return fs;
  }

  forget(uri: string): void {
    this.used.delete(uri);
    this.store.delete(uri);
    this.panels.forget(uri);
  }

  /** The documents whose current analysis read the file at `path` (a NeMo-RL `defaults:` parent). */
  dependents(path: string): string[] {
    return [...this.used.keys()].filter((uri) => {
      const a = this.store.peek(uri);
      return a !== undefined && readsFile(a, path);
    });
  }

  /** Drops every analysis (settings changed, or the user asked to re-validate). */
  clear(): void {
    this.used.clear();
    this.store.clear();
  }

  run<K extends FeatureName>(req: EngineRequest<K>): EngineReply<K> {
    const doc = this.docs.get(req.uri);
    if (!doc) return { ok: false, reason: 'unknown' };
    if (doc.version !== req.version) return { ok: false, reason: 'stale', version: doc.version };
    const a = req.settings ? this.analysis(doc, req.settings) : undefined;
    return { ok: true, value: this.feature(req, doc, a) as Features[K]['result'] };
  }

  private feature(req: EngineRequest, doc: TextDocument, a: Analysis | undefined): Features[FeatureName]['result'] {
    const { uri, version } = doc;
    switch (req.feature) {
      case 'diagnostics':
        return {
          // A result id names the version and the settings: a client's previousResultId equal to it means "unchanged".
          resultId: `${version}:${a ? hash(settingsFingerprint(a.settings)) : 'off'}`,
          items: a ? a.diagnostics.map((d) => toLspDiagnostic(d, uri)) : [],
        };
      case 'hover': {
        const { position } = req.params as Features['hover']['params'];
        const h = a && hoverAt(a, offsetOf(a, position));
        return h ? toLspHover(a, h) : null;
      }
      case 'completion':
        return a ? completionAt(a, (req.params as Features['completion']['params']).position) : [];
      case 'codeAction':
        return a ? codeActions(a, uri, version, req.params as Features['codeAction']['params']) : [];
      case 'symbols': {
        if (!a) return [];
        const symbols = recipeSymbols(a);
        return (req.params as Features['symbols']['params']).hierarchical
          ? toDocumentSymbols(a, symbols)
          : toSymbolInformation(a, uri, symbols);
      }
      case 'codeLens':
        return a ? estimateLenses(a).map((l) => toCodeLens(a, l, (req.params as Features['codeLens']['params']).command)) : [];
      case 'inlayHint': {
        if (!a) return [];
        const { range } = req.params as Features['inlayHint']['params'];
        return estimateLenses(a)
          .map((l) => toInlayHint(a, l))
          .filter((h) => h.position.line >= range.start.line && h.position.line <= range.end.line);
      }
      case 'summary': {
        const { view } = req.params as Features['summary']['params'];
        const out = summaryOf(uri, version, a);
        if (view) out.panel = this.panels.panel({ uri, version, analysis: a }, view);
        return out;
      }
      case 'whatIf': {
        const p = req.params as Features['whatIf']['params'];
        return this.panels.whatIf({ uri, version, analysis: a }, p.view, p.values);
      }
      case 'plan': {
        const p = req.params as Features['plan']['params'];
        return this.panels.plan({ uri, version, analysis: a }, p.view, p.gpus);
      }
      case 'apply':
        return this.panels.apply({ uri, version, analysis: a }, req.params as ApplyParams);
      case 'kvInputs':
        return kvInputsOf(a, (req.params as Features['kvInputs']['params']).gpu);
      case 'compareLog': {
        const p = req.params as Features['compareLog']['params'];
        return compareLogOf(a, uri, version, p.text, p.logName);
      }
    }
  }
}

/** The options file's pool (re-sized for the panel's GPU, as its memory section shows it) or the retention file's config. */
function kvInputsOf(a: Analysis | undefined, gpu: string | null): KvInputs {
  const main = a?.main;
  const e = main?.estimate;
  if (!a || !main || !e) return { kind: 'none', reason: 'Recipe Lens does not handle this file now' };
  if (e.kind === 'retention') {
    const r = retentionFromDoc(main.doc);
    return 'error' in r
      ? { kind: 'none', reason: r.error }
      : { kind: 'retention', retention: r, tokensPerBlock: e.coverage.tokensPerBlock };
  }
  if (e.kind !== 'serving')
    return { kind: 'none', reason: 'KV reuse is simulated for TensorRT-LLM options files and KV retention configs' };
  const pool = poolFromEstimate(main.recipe, withGpu(e, main.recipe, a.modeline, estimateOptionsOf(a), gpu));
  return 'error' in pool ? { kind: 'none', reason: pool.error } : { kind: 'serving', pool };
}

function compareLogOf(a: Analysis | undefined, uri: string, version: number, text: string, logName: string): CompareLogResult {
  const e = a?.main?.estimate;
  if (e?.kind !== 'training')
    return {
      ok: false,
      reason: `no training estimate for this file${e?.kind === 'none' ? ` (${e.reason})` : ''}; nothing to compare with`,
    };
  return { ok: true, version, vm: compareLogVM(compareLog(text, logName, e.estimate), e, logName, fileNameOf(uri)) };
}

/** A short, stable hash of a settings fingerprint (FNV-1a), for result ids. */
function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** A blank line typed after an embedded block, indented as deep as the block: the block goes on there. */
function continues(text: string, doc: RecipeDoc, offset: number): boolean {
  if (!doc.embedded || text.slice(doc.span[1], offset).trim() !== '') return false;
  // The block starts at the beginning of its first line: its indentation is that line's.
  return offset - (text.lastIndexOf('\n', offset - 1) + 1) >= lineIndent(text, doc.span[0]);
}

function completionAt(a: Analysis, position: lsp.Position): lsp.CompletionItem[] {
  if (!a.format) return [];
  const offset = offsetOf(a, position);
  // The recipe document under the cursor; a file embedded in a ConfigMap is completed on its own text (same offsets),
  // and the manifest around it gets nothing.
  const here = a.docs.find((d) => d.doc.format && offset >= d.doc.span[0] && (offset <= d.doc.span[1] || continues(a.text, d.doc, offset)));
  if (!here && a.main?.doc.embedded) return [];
  const format = here?.doc.format ?? a.format;
  const ctx = completionContext(here?.doc.embedded?.text ?? a.text, offset);
  if (!ctx) return [];
  const doc = here?.doc ?? a.main?.doc ?? a.parsed.docs[0];
  const parent = ctx.mode === 'key' ? lookupLoose(doc?.root, ctx.path, offset) : undefined;
  const existing = new Set(parent?.kind === 'map' ? parent.entries.map((e) => e.key) : []);
  const range = { start: a.parsed.lines.positionAt(ctx.wordStart), end: a.parsed.lines.positionAt(offset) };
  return completions(format, ctx, existing).map((c) => toLspCompletion(c, range));
}

const overlaps = (r: lsp.Range, s: lsp.Range) =>
  !(
    r.end.line < s.start.line ||
    (r.end.line === s.start.line && r.end.character < s.start.character) ||
    s.end.line < r.start.line ||
    (s.end.line === r.start.line && s.end.character < r.start.character)
  );

function codeActions(a: Analysis, uri: string, version: number, p: Features['codeAction']['params']): lsp.CodeAction[] {
  // Every fix is a plain 'quickfix': asked for only other kinds (refactor, source…), there is nothing to offer.
  if (p.only && !p.only.some((k) => k === 'quickfix' || k === '')) return [];
  // The client's diagnostics at the range; a client that sends none gets the fixes of every diagnostic there.
  const pairs = p.diagnostics.length
    ? p.diagnostics.map((c) => [matchDiagnostic(a, c), c] as const)
    : a.diagnostics.filter((d) => overlaps(d.range, p.range)).map((d) => [d, toLspDiagnostic(d, uri)] as const);
  // Two findings on one key often carry the same fix (R1 and R3 on CP both offer "Set … 4"): one action for both.
  const byEdit = new Map<string, lsp.CodeAction>();
  for (const [d, client] of pairs) {
    if (!d) continue;
    for (const action of fixActions(d, client, uri, version)) {
      const key = JSON.stringify([action.title, action.edit]);
      const same = byEdit.get(key);
      if (same) same.diagnostics!.push(client);
      else byEdit.set(key, action);
    }
  }
  return [...byEdit.values()];
}
