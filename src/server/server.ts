// The Recipe Lens language server: one server for every editor (VS Code is one client among several). It owns the
// open documents and the one analysis per document version (src/core/analysis.ts), and serves diagnostics (pushed,
// or pulled where the client supports textDocument/diagnostic), hover, completion, quick fixes, document symbols, the
// per-GPU estimate as a code lens and an inlay hint, and the planning panel's custom requests (src/protocol.ts).
// Every message from the client is checked before use: a malformed one gets InvalidParams (requests) or is logged
// and dropped (notifications), and the server keeps serving.
import {
  CancellationToken,
  CodeLensRefreshRequest,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  TextDocumentSyncKind,
  type ClientCapabilities,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import * as v from 'valibot';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  LSP_METHODS,
  parseLspParams,
  type AnalysisResult,
  type CompareLogResult,
  type KvReuseResult,
  type LspParams,
  type LspRequestMethod,
} from '../protocol.js';
import { KvReuseService } from './kvReuse.js';
import { DiagnosticsScheduler } from './diagnostics.js';
import { DocumentStore, PositionSchema, RangeSchema } from './documents.js';
import { Engine, type Features, type FeatureName } from './engine.js';
import { PanelState } from './panel.js';
import { analysisSettingsOf, DEFAULT_SETTINGS, overlay, recipeLensSection, uriPath, type ServerSettings } from './settings.js';
import { AnalysisWorker, WORKER_MAX_BACK, WORKER_MIN_CHARS } from './worker.js';
import { cachedSourceReader } from '../host/sourceFiles.js';

export const SERVER_NAME = 'recipe-lens';

/** What a client may pass in initializationOptions besides the settings themselves (see docs/editors.md). */
interface ClientOptions {
  /** The command a click on the estimate's code lens runs in the client ('' = a label only). */
  codeLensCommand: string;
  /** Where the per-GPU estimate is shown: code lens, inlay hint, both (default), or neither. */
  estimateHint: 'codeLens' | 'inlayHint' | 'both' | 'none';
  /** 'auto': pull diagnostics where the client supports them, else push. */
  diagnosticMode: 'auto' | 'push' | 'pull';
}

const DocParams = v.object({ textDocument: v.object({ uri: v.pipe(v.string(), v.minLength(1), v.maxLength(8192)) }) });
const PositionParams = v.object({ ...DocParams.entries, position: PositionSchema });
const RangeParams = v.object({ ...DocParams.entries, range: RangeSchema });
const CodeActionParams = v.object({
  ...RangeParams.entries,
  context: v.object({
    diagnostics: v.pipe(
      v.array(v.looseObject({ range: RangeSchema, message: v.string(), code: v.optional(v.union([v.string(), v.number()])) })),
      v.maxLength(10_000),
    ),
    only: v.optional(v.array(v.string())),
  }),
});
const DiagnosticParams = v.object({ ...DocParams.entries, previousResultId: v.optional(v.nullable(v.string())) });

/** Params checked against `schema`, or InvalidParams with the first problem's path and message. */
function valid<S extends v.GenericSchema>(schema: S, raw: unknown, method: string): v.InferOutput<S> {
  const r = v.safeParse(schema, raw);
  if (r.success) return r.output;
  throw new ResponseError(
    ErrorCodes.InvalidParams,
    `${method}: ${v.getDotPath(r.issues[0]) ?? 'params'} ${r.issues[0].message.slice(0, 160)}`,
  );
}

/** Training logs read at most (a log of that size holds millions of lines; cut a larger one to its memory lines). */
export const MAX_LOG_BYTES = 64 * 2 ** 20;

/** A training log's text, or why it cannot be read. */
async function readLog(path: string): Promise<{ text: string } | { error: string }> {
  const name = basename(path);
  try {
    const st = await stat(path);
    if (!st.isFile()) return { error: `${name} is not a file` };
    if (st.size > MAX_LOG_BYTES)
      return {
        error: `${name} is ${Math.round(st.size / 2 ** 20)} MiB; logs of at most ${MAX_LOG_BYTES / 2 ** 20} MiB are read (keep its memory lines: grep -E 'memory \\((MB|GB)\\)|mem-' LOG > memory.log)`,
      };
    return { text: await readFile(path, 'utf8') };
  } catch (e) {
    return { error: `cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
}

const cancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
/** LSP's ServerNotInitialized (-32002): a request before initialize. */
const notInitialized = (method: string) => new ResponseError(ErrorCodes.ServerNotInitialized, `${method} before initialize`);

export class RecipeLensServer {
  readonly docs = new DocumentStore();
  // The main thread's reader of NeMo-RL `defaults:` parents: an open document's text first (unsaved edits count), else the disk.
  private readonly local = new Engine(
    this.docs,
    cachedSourceReader((path) => this.docs.byPath(path)?.getText()),
  );
  private readonly worker: AnalysisWorker;
  private readonly panels = new PanelState();
  private readonly kvReuse: KvReuseService;
  private readonly diagnostics: DiagnosticsScheduler;
  private caps: ClientCapabilities = {};
  private options: ClientOptions = { codeLensCommand: '', estimateHint: 'both', diagnosticMode: 'auto' };
  private folders: string[] = [];
  /** Settings layers below workspace/configuration: initializationOptions, then didChangeConfiguration. */
  private initSettings: ServerSettings = DEFAULT_SETTINGS;
  private pushedRaw: unknown = undefined;
  private readonly settingsCache = new Map<string, Promise<ServerSettings>>();
  /** The settings last resolved per document (read synchronously where a round trip would delay a timer). */
  private readonly resolved = new Map<string, ServerSettings>();
  private settingsEpoch = 0;
  private pull = false;
  private initialized = false;
  /** A shutdown request came (the process's exit code is then 0). */
  shutdownReceived = false;

  constructor(
    readonly connection: Connection,
    workerEntry: string,
  ) {
    this.worker = new AnalysisWorker(workerEntry, this.docs, (m) => this.warn(m));
    this.kvReuse = new KvReuseService(workerEntry);
    this.diagnostics = new DiagnosticsScheduler(this);
  }

  warn(message: string): void {
    this.connection.console.warn(`recipe-lens: ${message}`);
  }

  get pullMode(): boolean {
    return this.pull;
  }

  // ------------------------------------------------------------------------------------------------ settings

  /** The settings of `uri` (cached until the configuration changes). */
  settingsFor(uri: string): Promise<ServerSettings> {
    let p = this.settingsCache.get(uri);
    if (!p) {
      const epoch = this.settingsEpoch;
      p = this.fetchSettings(uri).catch((e) => {
        this.warn(`could not read the settings of ${uri}: ${(e as Error).message}`);
        return this.baseSettings();
      });
      this.settingsCache.set(uri, p);
      void p.then((s) => {
        if (this.settingsCache.get(uri) === p) this.resolved.set(uri, s);
        // A configuration change while the request was out: do not keep the older answer.
        if (epoch !== this.settingsEpoch && this.settingsCache.get(uri) === p) this.settingsCache.delete(uri);
      });
    }
    return p;
  }

  private baseSettings(): ServerSettings {
    return overlay(this.initSettings, recipeLensSection(this.pushedRaw), 'workspace/didChangeConfiguration', (m) => this.warn(m));
  }

  private async fetchSettings(uri: string): Promise<ServerSettings> {
    const base = this.baseSettings();
    if (!this.caps.workspace?.configuration) return base;
    const [scoped] = (await this.connection.workspace.getConfiguration([{ scopeUri: uri, section: 'recipeLens' }])) as unknown[];
    return overlay(base, scoped, 'workspace/configuration', (m) => this.warn(m));
  }

  async analysisSettings(uri: string) {
    const s = await this.settingsFor(uri);
    return { settings: s, analysis: s.enable ? analysisSettingsOf(s, uri, this.folders) : null };
  }

  /** Settings changed: forget them and every analysis, re-validate the open documents, ask the client to refresh. */
  private reconfigure(): void {
    this.settingsEpoch++;
    this.settingsCache.clear();
    this.local.clear();
    this.worker.clear();
    for (const uri of this.docs.uris()) this.diagnostics.schedule(uri, 0);
    const ws = this.caps.workspace;
    if (this.pull && ws?.diagnostics?.refreshSupport) void this.connection.languages.diagnostics.refresh().catch(() => {});
    if (ws?.codeLens?.refreshSupport && this.options.estimateHint !== 'inlayHint')
      void this.connection.sendRequest(CodeLensRefreshRequest.type).catch(() => {});
    if (ws?.inlayHint?.refreshSupport && this.options.estimateHint !== 'codeLens')
      void this.connection.languages.inlayHint.refresh().catch(() => {});
  }

  // ------------------------------------------------------------------------------------------------ analyses

  /**
   * Runs `feature` on the current version of `uri`, where its analysis lives (main thread or worker). Undefined when
   * the document is not open.
   */
  async run<K extends FeatureName>(feature: K, uri: string, params: Features[K]['params'], token?: CancellationToken) {
    const { analysis } = await this.analysisSettings(uri);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (token?.isCancellationRequested) throw cancelled();
      const doc = this.docs.get(uri);
      if (!doc) return undefined;
      const req = { feature, uri, version: doc.version, settings: analysis, params };
      const reply = this.worker.owns(uri) ? await this.worker.run(req) : this.local.run(req);
      if (reply.ok) return { version: doc.version, value: reply.value as Features[K]['result'] };
      if (reply.reason === 'unknown' && !this.worker.owns(uri)) return undefined;
    }
    throw new ResponseError(LSPErrorCodes.ContentModified, 'the document changed while the request was answered');
  }

  /**
   * The file at `uri` changed (edited, saved, created, deleted, closed): re-validate the open documents whose analysis
   * read it as a NeMo-RL `defaults:` parent. Their analyses notice on the next read (Analysis.sources); this publishes.
   */
  private async rescheduleDependents(uri: string): Promise<void> {
    if (!uri.startsWith('file:')) return;
    const path = uriPath(uri);
    const uris = new Set([...this.local.dependents(path), ...(await this.worker.dependents(path).catch(() => []))]);
    uris.delete(uri);
    for (const u of uris)
      if (this.docs.get(u)) this.diagnostics.schedule(u, this.resolved.get(u)?.debounceMs ?? DEFAULT_SETTINGS.debounceMs);
  }

  /** Analyses computed, on this thread and in the worker. */
  async stats() {
    return {
      analyses: this.local.computed,
      workerAnalyses: await this.worker.computed().catch(() => 0),
      published: this.diagnostics.published,
      pulled: this.diagnostics.pulled,
      documents: this.docs.size,
      workerDocuments: this.worker.size,
    };
  }

  // ------------------------------------------------------------------------------------------------ lifecycle

  private initialize(params: InitializeParams): InitializeResult {
    this.initialized = true;
    this.caps = params.capabilities ?? {};
    const init = (params.initializationOptions ?? {}) as Record<string, unknown>;
    const opt = (key: keyof ClientOptions, allowed: readonly string[] | null) => {
      const x = init[key];
      if (x === undefined) return;
      if (typeof x === 'string' && (allowed === null ? x.length <= 256 : allowed.includes(x)))
        (this.options as unknown as Record<string, string>)[key] = x;
      else this.warn(`initializationOptions.${key}: ${JSON.stringify(x)?.slice(0, 60)} ignored`);
    };
    opt('codeLensCommand', null);
    opt('estimateHint', ['codeLens', 'inlayHint', 'both', 'none']);
    opt('diagnosticMode', ['auto', 'push', 'pull']);
    this.initSettings = overlay(DEFAULT_SETTINGS, recipeLensSection(init), 'initializationOptions', (m) => this.warn(m));
    this.folders = (params.workspaceFolders ?? []).map((f) => f.uri);
    if (!this.folders.length && params.rootUri) this.folders = [params.rootUri];
    const canPull = !!this.caps.textDocument?.diagnostic;
    this.pull = this.options.diagnosticMode === 'pull' || (this.options.diagnosticMode === 'auto' && canPull);
    const capabilities: ServerCapabilities = {
      positionEncoding: 'utf-16',
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [':', ' '], resolveProvider: false },
      codeActionProvider: this.caps.textDocument?.codeAction?.codeActionLiteralSupport ? { codeActionKinds: ['quickfix'] } : true,
      documentSymbolProvider: { label: 'Recipe Lens' },
    };
    if (this.options.estimateHint === 'codeLens' || this.options.estimateHint === 'both')
      capabilities.codeLensProvider = { resolveProvider: false };
    if (this.options.estimateHint === 'inlayHint' || this.options.estimateHint === 'both')
      capabilities.inlayHintProvider = { resolveProvider: false };
    if (this.pull) capabilities.diagnosticProvider = { identifier: SERVER_NAME, interFileDependencies: false, workspaceDiagnostics: false };
    return { capabilities, serverInfo: { name: SERVER_NAME, version: '0.1.0' } };
  }

  listen(): void {
    const c = this.connection;
    c.onInitialize((p) => this.initialize(p));
    c.onInitialized(() => {
      if (this.caps.workspace?.didChangeConfiguration?.dynamicRegistration)
        void c.client.register(DidChangeConfigurationNotification.type, { section: 'recipeLens' }).catch(() => {});
      // A NeMo-RL `defaults:` parent may change on disk, not in an editor: the client tells us of YAML file events.
      if (this.caps.workspace?.didChangeWatchedFiles?.dynamicRegistration)
        void c.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{yaml,yml}' }] }).catch(() => {});
    });
    c.onDidChangeWatchedFiles((p) => {
      const changes = Array.isArray((p as { changes?: unknown } | null)?.changes) ? (p as { changes: { uri?: unknown }[] }).changes : [];
      for (const ch of changes.slice(0, 10_000)) if (typeof ch?.uri === 'string') void this.rescheduleDependents(ch.uri);
    });
    c.onDidChangeConfiguration((p) => {
      this.pushedRaw = (p as { settings?: unknown } | null)?.settings;
      this.reconfigure();
    });
    c.onShutdown(async () => {
      this.shutdownReceived = true;
      this.diagnostics.dispose();
      await this.worker.dispose();
    });

    // Documents ------------------------------------------------------------------------------------------------
    const early = (method: string) => {
      // LSP: notifications before initialize are dropped.
      if (!this.initialized) this.warn(`${method} before initialize: dropped`);
      return !this.initialized;
    };
    c.onDidOpenTextDocument((p) => {
      if (early('textDocument/didOpen')) return;
      const r = this.docs.open(p);
      if (!r.ok) return this.warn(r.reason);
      const doc = r.value;
      this.local.forget(doc.uri);
      if (doc.getText().length >= WORKER_MIN_CHARS) this.worker.open(doc);
      else this.worker.close(doc.uri);
      this.diagnostics.schedule(doc.uri, 0);
      void this.rescheduleDependents(doc.uri);
    });
    c.onDidChangeTextDocument((p) => {
      if (early('textDocument/didChange')) return;
      const r = this.docs.change(p);
      if (!r.ok) return this.warn(r.reason);
      const { doc, changes } = r.value;
      const size = doc.getText().length;
      if (this.worker.owns(doc.uri)) {
        if (size < WORKER_MAX_BACK) this.worker.close(doc.uri);
        else this.worker.change(doc.uri, doc.version, changes);
      } else if (size >= WORKER_MIN_CHARS) {
        this.local.forget(doc.uri);
        this.worker.open(doc);
      }
      // The debounce of the settings known for the document (resolved on its open), so the timer is set before the
      // next message is read: a pull request right after this change then waits for it.
      const known = this.resolved.get(doc.uri);
      if (known) this.diagnostics.schedule(doc.uri, known.debounceMs);
      else void this.settingsFor(doc.uri).then((s) => this.diagnostics.schedule(doc.uri, s.debounceMs));
      void this.rescheduleDependents(doc.uri);
    });
    c.onDidCloseTextDocument((p) => {
      if (early('textDocument/didClose')) return;
      const r = this.docs.close(p);
      if (!r.ok) return this.warn(r.reason);
      this.local.forget(r.value);
      this.worker.close(r.value);
      this.settingsCache.delete(r.value);
      this.resolved.delete(r.value);
      this.diagnostics.forget(r.value);
      // Its dependents read the disk again (the unsaved buffer is gone).
      void this.rescheduleDependents(r.value);
    });

    // Features -------------------------------------------------------------------------------------------------
    const checked = <S extends v.GenericSchema>(schema: S, raw: unknown, method: string): v.InferOutput<S> => {
      if (!this.initialized) throw notInitialized(method);
      return valid(schema, raw, method);
    };
    const value = async <K extends FeatureName>(
      k: K,
      uri: string,
      params: Features[K]['params'],
      token: CancellationToken,
      none: Features[K]['result'],
    ) => (await this.run(k, uri, params, token))?.value ?? none;
    c.onHover(async (raw, token) => {
      const p = checked(PositionParams, raw, 'textDocument/hover');
      return value('hover', p.textDocument.uri, { position: p.position }, token, null);
    });
    c.onCompletion(async (raw, token) => {
      const p = checked(PositionParams, raw, 'textDocument/completion');
      return value('completion', p.textDocument.uri, { position: p.position }, token, []);
    });
    c.onCodeAction(async (raw, token) => {
      const p = checked(CodeActionParams, raw, 'textDocument/codeAction');
      const params = {
        range: p.range,
        diagnostics: p.context.diagnostics as Features['codeAction']['params']['diagnostics'],
        only: p.context.only,
      };
      return value('codeAction', p.textDocument.uri, params, token, []);
    });
    c.onDocumentSymbol(async (raw, token) => {
      const p = checked(DocParams, raw, 'textDocument/documentSymbol');
      const hierarchical = !!this.caps.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport;
      return value('symbols', p.textDocument.uri, { hierarchical }, token, []);
    });
    c.onCodeLens(async (raw, token) => {
      const p = checked(DocParams, raw, 'textDocument/codeLens');
      return value('codeLens', p.textDocument.uri, { command: this.options.codeLensCommand }, token, []);
    });
    c.languages.inlayHint.on(async (raw, token) => {
      const p = checked(RangeParams, raw, 'textDocument/inlayHint');
      return value('inlayHint', p.textDocument.uri, { range: p.range }, token, []);
    });
    c.languages.diagnostics.on(async (raw, token) => {
      const p = checked(DiagnosticParams, raw, 'textDocument/diagnostic');
      return this.diagnostics.pullReport(p.textDocument.uri, p.previousResultId ?? undefined, token);
    });

    // Custom requests (src/protocol.ts) ------------------------------------------------------------------------
    const custom = <M extends LspRequestMethod>(method: M, handler: (r: { msg: LspParams<M> }) => Promise<unknown>) =>
      c.onRequest(method, async (raw: unknown) => {
        if (!this.initialized) throw notInitialized(method);
        // A request without params reaches the handler with the cancellation token in their place (vscode-jsonrpc).
        const none = raw === null || CancellationToken.is(raw) || (Array.isArray(raw) && raw.length === 0);
        const r = parseLspParams(method, none ? undefined : raw);
        if (!r.ok) throw new ResponseError(ErrorCodes.InvalidParams, `${method}: ${r.error}`);
        return handler(r);
      });
    custom(LSP_METHODS.analysis, async ({ msg }) => {
      const uri = msg.textDocument?.uri;
      const got = uri ? await this.run('summary', uri, { view: msg.panel }) : undefined;
      if (got) return got.value;
      const none: AnalysisResult = {
        uri: uri ?? null,
        version: null,
        format: null,
        formatLabel: null,
        detected: null,
        status: null,
        estimate: null,
      };
      if (msg.panel) none.panel = this.panels.panel(undefined, msg.panel);
      return none;
    });
    custom(LSP_METHODS.whatIf, async ({ msg }) => {
      const got = await this.run('whatIf', msg.textDocument.uri, { view: msg.panel, values: msg.values });
      return got?.value ?? this.panels.whatIf(undefined, msg.panel, msg.values);
    });
    custom(LSP_METHODS.plan, async ({ msg }) => {
      const got = await this.run('plan', msg.textDocument.uri, { view: msg.panel, gpus: msg.gpus });
      return got?.value ?? this.panels.plan(undefined, msg.panel, msg.gpus);
    });
    custom(LSP_METHODS.apply, async ({ msg }) => {
      const got = await this.run('apply', msg.textDocument.uri, msg);
      return got?.value ?? { ok: false, reason: 'the file is not open in the language server; nothing was written.' };
    });
    custom(LSP_METHODS.revalidate, async () => {
      this.reconfigure();
      return null;
    });
    custom(LSP_METHODS.stats, async () => this.stats());
    custom(LSP_METHODS.kvReuse, async ({ msg }): Promise<KvReuseResult> => {
      const uri = msg.textDocument.uri;
      const got = await this.run('kvInputs', uri, { gpu: msg.gpu ?? null });
      if (!got) return { ok: false, reason: 'the file is not open in the language server' };
      const inputs = got.value;
      if (inputs.kind === 'none') return { ok: false, reason: inputs.reason };
      const r = await this.kvReuse.run({ workload: msg.workload, poolSweep: msg.poolSweep ?? null, inputs });
      return r.ok ? { ...r, version: got.version } : r;
    });
    custom(LSP_METHODS.compareLog, async ({ msg }): Promise<CompareLogResult> => {
      const read = await readLog(msg.logPath);
      if ('error' in read) return { ok: false, reason: read.error };
      const got = await this.run('compareLog', msg.textDocument.uri, { text: read.text, logName: basename(msg.logPath) });
      return got?.value ?? { ok: false, reason: 'the file is not open in the language server' };
    });
  }
}
