// The planning panel's host: a webview view that follows the active editor. The language server computes every
// section (recipeLens/analysis, recipeLens/plan, recipeLens/apply: buildSections runs there, next to the analysis);
// this host keeps the UI state, sends only the sections whose JSON changed, and writes Apply's WorkspaceEdit into the
// document. Nothing is sent before the webview's `ready`; every incoming message is validated.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { panelHtml } from '../core/panel/html.js';
import {
  DEFAULT_UI,
  LSP_METHODS,
  parseWebviewMessage,
  PROTOCOL_VERSION,
  SECTION_IDS,
  type ApplyParams,
  type CompareLogResult,
  type CompareSectionVM,
  type FromWebview,
  type KvReuseParams,
  type KvReuseResult,
  type KvReuseSectionVM,
  type PanelResult,
  type PanelView,
  type Sections,
  type ToWebview,
  type UiState,
} from '../protocol.js';
import type { RecipeLensClient } from './client.js';

/**
 * Delay after a keystroke before the panel asks for its sections again (the refresh budget is 100 ms): none beyond
 * the current task. The server answers in a few milliseconds and an answer to an older state is dropped, so asking
 * on every change costs one analysis per document version, which the diagnostics reuse.
 */
const DEBOUNCE_MS = 0;

export class PlanningPanel implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = 'recipeLens.planning';

  private view?: vscode.WebviewView;
  private viewSubs: vscode.Disposable[] = [];
  private readonly subs: vscode.Disposable[] = [];
  /** The webview said `ready` and has not been torn down since. */
  private ready = false;
  /** JSON of each section as the webview last received it. */
  private sent = new Map<string, string>();
  private sentUi = '';
  private ui: UiState = structuredClone(DEFAULT_UI);
  private layoutPage: number | 'rank' = 'rank';
  /** The document the panel shows: the last active text editor's. */
  private docUri?: vscode.Uri;
  private timer?: ReturnType<typeof setTimeout>;
  /** Each refresh's number: an answer to an older one is dropped (a newer state supersedes it). */
  private seq = 0;
  /** A search asked for and not finished: the section shows "Searching…" meanwhile. */
  private planning?: Promise<number | undefined>;
  private planRunning = false;
  /** Why the last search listed nothing. */
  private planMessage = '';
  /** The last message posted (awaited before a long search, so "Searching…" is on screen first). */
  private lastPost?: Thenable<boolean>;
  private log?: vscode.LogOutputChannel;
  /**
   * The KV reuse and Compare sections' runs for the document shown: the server's sections carry their idle state, these
   * states (running, a result, an error) are laid over them until another document is shown.
   */
  private runs: { uri: string; kvReuse?: Partial<KvReuseSectionVM>; compare?: Partial<CompareSectionVM> } | undefined;

  constructor(
    private readonly lsp: RecipeLensClient,
    private readonly extensionUri: vscode.Uri,
  ) {
    this.follow(vscode.window.activeTextEditor);
    this.subs.push(
      vscode.window.onDidChangeActiveTextEditor((ed) => {
        if (this.follow(ed)) void this.refresh();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.docUri && e.document.uri.toString() === this.docUri.toString() && e.contentChanges.length) this.schedule();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (this.docUri && d.uri.toString() === this.docUri.toString()) {
          this.docUri = undefined;
          void this.refresh();
        }
      }),
      // Settings change the analysis (the server re-analyses): ask again once it did.
      lsp.onDidAnalyze((note) => {
        if (this.docUri && note.uri === this.lsp.uri(this.docUri) && !this.timer) this.schedule();
      }),
    );
  }

  /** Switch to the editor's document; false when the panel keeps what it shows (no editor, output panes). */
  private follow(ed: vscode.TextEditor | undefined): boolean {
    if (!ed || ed.document.uri.scheme === 'output' || ed.document.uri.scheme === 'vscode-scm') return false;
    if (this.docUri?.toString() === ed.document.uri.toString()) return false;
    this.docUri = ed.document.uri;
    // What-if values, the selected rank and the grid page belong to one file; the GPU stays.
    this.ui = { ...structuredClone(DEFAULT_UI), uri: this.lsp.uri(ed.document), gpu: this.ui.gpu };
    this.layoutPage = 'rank';
    return true;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    for (const s of this.viewSubs) s.dispose();
    this.view = view;
    this.ready = false;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    view.webview.html = panelHtml({
      cspSource: view.webview.cspSource,
      nonce: randomBytes(24).toString('base64url'),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css')).toString(),
    });
    this.viewSubs = [
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      // A hidden webview view is torn down (no retainContextWhenHidden); it reloads and says `ready` again.
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.ready = false;
      }),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        this.ready = false;
      }),
    ];
  }

  /** Reveals the view (the `recipeLens.openPanel` command, the status-bar item and the code lens). */
  async open(): Promise<void> {
    this.follow(vscode.window.activeTextEditor);
    await vscode.commands.executeCommand(`${PlanningPanel.viewType}.focus`);
    await this.refresh();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, DEBOUNCE_MS);
  }

  private logger(): vscode.LogOutputChannel {
    return (this.log ??= vscode.window.createOutputChannel('Recipe Lens', { log: true }));
  }

  private post(msg: ToWebview): void {
    if (this.view) this.lastPost = this.view.webview.postMessage(msg);
  }

  private notice(level: 'info' | 'warning' | 'error', text: string): void {
    this.post({ v: PROTOCOL_VERSION, type: 'notice', level, text });
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.logger().warn(`planning panel: ignored a malformed message: ${parsed.error}`);
      return;
    }
    const msg = parsed.msg;
    if (msg.type !== 'ready' && !this.ready) {
      this.logger().warn(`planning panel: ignored "${msg.type}" before the handshake`);
      return;
    }
    this.handle(msg);
  }

  private handle(msg: FromWebview): void {
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        this.sent.clear();
        this.sentUi = '';
        // The webview's saved state: its GPU always, the rest only when it belongs to the file shown now.
        if (msg.ui) {
          if (msg.ui.gpu) this.ui.gpu = msg.ui.gpu;
          if (msg.ui.uri && msg.ui.uri === this.ui.uri) {
            this.ui = { ...msg.ui, gpu: this.ui.gpu };
            this.layoutPage = msg.ui.layout.page;
          }
        }
        void this.refresh();
        return;
      case 'selectGpu':
        this.ui.gpu = msg.gpu;
        void this.refresh();
        return;
      case 'preview':
        this.ui.whatIf = msg.values;
        void this.refresh();
        return;
      case 'selectRank':
        this.ui.rank = msg.rank;
        void this.refresh();
        return;
      case 'layoutView': {
        const cur = this.ui.layout;
        this.layoutPage = msg.view.mode !== cur.mode || msg.view.worldSize !== cur.worldSize ? 'rank' : msg.view.page;
        this.ui.layout = msg.view;
        void this.refresh();
        return;
      }
      case 'apply':
        void this.apply(msg.uri, msg.docVersion, { kind: 'whatIf' });
        return;
      case 'plan':
        if (msg.gpus !== undefined && msg.gpus !== this.ui.layout.worldSize) {
          // The planner's GPU count is the layout section's: both show the same world from now on.
          this.ui.layout = { ...this.ui.layout, worldSize: msg.gpus, page: 0 };
          this.layoutPage = 'rank';
        }
        void this.suggest();
        return;
      case 'applyCandidate':
        void this.apply(msg.uri, msg.docVersion, { kind: 'candidate', planId: msg.planId, index: msg.index });
        return;
      case 'kvReuse':
        void this.simulate({ kind: 'builtin', name: msg.workload }, msg.uri);
        return;
      case 'pickTrace':
        void vscode.commands.executeCommand('recipeLens.kvReuse.pickTrace');
        return;
      case 'compareLog':
        void vscode.commands.executeCommand('recipeLens.compareLog');
        return;
    }
  }

  private document(): vscode.TextDocument | undefined {
    const uri = this.docUri?.toString();
    return uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri) : undefined;
  }

  private panelView(): PanelView {
    return { ui: this.ui, layoutPage: this.layoutPage, planRunning: this.planRunning };
  }

  /** The server's placement of the rank grid becomes the panel's state (a page number from now on). */
  private take(p: PanelResult): void {
    this.ui = p.ui;
    this.layoutPage = p.layoutPage;
  }

  /** The sections with this document's runs laid over the KV reuse and Compare sections. */
  private withRuns(sections: Sections): Sections {
    const r = this.runs;
    if (!r || sections.header.uri !== r.uri) return sections;
    return {
      ...sections,
      kvReuse: sections.kvReuse && r.kvReuse ? { ...sections.kvReuse, ...r.kvReuse } : sections.kvReuse,
      compare: sections.compare && r.compare ? { ...sections.compare, ...r.compare } : sections.compare,
    };
  }

  /** The document shown and its URI as the server knows it, when it is `uri` (or any document when `uri` is not given). */
  private shown(uri?: string): { doc: vscode.TextDocument; uri: string } | undefined {
    const doc = this.document();
    const u = doc ? this.lsp.uri(doc) : undefined;
    return doc && u && (uri === undefined || u === uri) ? { doc, uri: u } : undefined;
  }

  private setRun<K extends 'kvReuse' | 'compare'>(uri: string, key: K, state: NonNullable<NonNullable<PlanningPanel['runs']>[K]>): void {
    if (this.runs?.uri !== uri) this.runs = { uri };
    this.runs[key] = state;
  }

  /**
   * Simulates KV reuse for the document shown (the section's Simulate button, the Pick a Trace command): the section
   * says "Simulating…", then shows the curves or why there are none. Returns the server's answer.
   */
  async simulate(workload: KvReuseParams['workload'], uri?: string): Promise<KvReuseResult | undefined> {
    const d = this.shown(uri);
    if (!d) {
      this.refuse('the panel shows another file now; nothing was simulated.');
      return undefined;
    }
    const label = workload.kind === 'builtin' ? workload.name : workload.path.split(/[/\\]/).pop() || workload.path;
    const before = this.runs?.uri === d.uri ? this.runs.kvReuse : undefined;
    this.setRun(d.uri, 'kvReuse', { ...before, state: 'running', workload: label, message: `Simulating ${label}…` });
    await this.refresh();
    const r = await this.lsp.request(LSP_METHODS.kvReuse, { textDocument: { uri: d.uri }, workload, gpu: this.ui.gpu });
    if (this.runs?.uri === d.uri)
      this.setRun(
        d.uri,
        'kvReuse',
        r?.ok
          ? { state: 'ready', workload: r.workload, message: r.message, result: r.vm }
          : {
              state: 'error',
              workload: label,
              message: r ? r.reason : 'the language server did not answer (see the Recipe Lens output)',
              result: null,
            },
      );
    await this.refresh();
    return r;
  }

  /** Compares a training log with the document shown (the Compare section, the Compare with a Training Log command). */
  async compare(logPath: string): Promise<CompareLogResult | undefined> {
    const d = this.shown();
    if (!d) {
      this.refuse('open a training recipe first; nothing was compared.');
      return undefined;
    }
    const name = logPath.split(/[/\\]/).pop() || logPath;
    const before = this.runs?.uri === d.uri ? this.runs.compare : undefined;
    this.setRun(d.uri, 'compare', { ...before, state: 'running', message: `Reading ${name}…` });
    await this.refresh();
    const r = await this.lsp.request(LSP_METHODS.compareLog, { textDocument: { uri: d.uri }, logPath });
    if (this.runs?.uri === d.uri)
      this.setRun(
        d.uri,
        'compare',
        r?.ok
          ? { state: 'ready', message: '', result: r.vm }
          : { state: 'error', message: r ? r.reason : 'the language server did not answer (see the Recipe Lens output)', result: null },
      );
    await this.refresh();
    return r;
  }

  /** Send the sections whose JSON changed (all of them right after the handshake). */
  private send(raw: Sections): void {
    const sections = this.withRuns(raw);
    const first = this.sent.size === 0;
    const changed: Partial<Record<keyof Sections, unknown>> = {};
    for (const id of SECTION_IDS) {
      const json = JSON.stringify(sections[id]);
      if (this.sent.get(id) !== json) {
        this.sent.set(id, json);
        changed[id] = sections[id];
      }
    }
    const ui = JSON.stringify(this.ui);
    if (first) this.post({ v: PROTOCOL_VERSION, type: 'init', sections, ui: this.ui });
    else if (Object.keys(changed).length || ui !== this.sentUi)
      this.post({ v: PROTOCOL_VERSION, type: 'update', sections: changed as Partial<Sections>, ui: this.ui });
    this.sentUi = ui;
  }

  /** Ask the server for the sections of the document shown, and send what changed. */
  async refresh(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.view || !this.ready) return;
    const seq = ++this.seq;
    const doc = this.document();
    const r = await this.lsp.request(LSP_METHODS.analysis, {
      textDocument: doc ? { uri: this.lsp.uri(doc) } : null,
      panel: this.panelView(),
    });
    if (seq !== this.seq || !this.view || !this.ready) return;
    if (!r?.panel) {
      this.post({
        v: PROTOCOL_VERSION,
        type: 'error',
        message: 'Recipe Lens could not build the panel: the language server did not answer (see the Recipe Lens output).',
      });
      return;
    }
    this.take(r.panel);
    this.send(r.panel.sections);
  }

  private refuse(text: string): void {
    this.notice('warning', text);
    void vscode.window.showWarningMessage(`Recipe Lens: ${text}`);
  }

  /**
   * Writes the preview (or planner row) as one WorkspaceEdit (one undo step): the server computes the edit for exactly
   * the version the webview showed, and refuses any other; this host only checks the file is still the one shown.
   */
  private async apply(uri: string, version: number, target: ApplyParams['target']): Promise<void> {
    const doc = this.document();
    if (!doc || this.lsp.uri(doc) !== uri) return this.refuse('the panel shows another file now; nothing was written.');
    const candidate = target.kind === 'candidate';
    const changed = () =>
      candidate
        ? `the file changed since the layouts were listed (version ${version}, now ${doc.version}); check the list and apply again.`
        : `the file changed since the preview was computed (version ${version}, now ${doc.version}); check the new preview and apply again.`;
    if (doc.version !== version) return this.refuse(changed());
    this.seq++; // an answer to a refresh asked before this write would show the state before it
    const r = await this.lsp.request(LSP_METHODS.apply, { textDocument: { uri, version }, panel: this.panelView(), target });
    if (!r) return this.refuse('the language server did not answer; nothing was written.');
    if (!r.ok) return this.refuse(r.reason);
    if (doc.version !== version) return this.refuse(changed());
    const client = await this.lsp.ready;
    if (!client) return this.refuse('the language server is not running; nothing was written.');
    const edit = await client.protocol2CodeConverter.asWorkspaceEdit(r.edit);
    if (!(await vscode.workspace.applyEdit(edit))) return this.refuse('VS Code refused the edit; nothing was written.');
    this.ui.whatIf = {};
    const name = doc.uri.path.split('/').pop();
    const keys = `${r.keys} key${r.keys === 1 ? '' : 's'}`;
    this.notice(
      'info',
      target.kind === 'candidate'
        ? `Wrote layout ${target.index + 1} (${keys}) into ${name}; Undo reverts it in one step.`
        : `Wrote ${keys} into ${name}; Undo reverts them in one step.`,
    );
    await this.refresh();
  }

  /**
   * Runs the planner for the document shown (the Layouts section's button, the Suggest Layouts command): the section
   * says "Searching…" first, then lists the candidates. Returns how many it lists; undefined when it cannot run.
   */
  suggest(): Promise<number | undefined> {
    if (this.planning) return this.planning;
    this.planRunning = true;
    const run = async (): Promise<number | undefined> => {
      let rows: number | null;
      try {
        await this.refresh();
        // Let the "Searching…" state reach the webview before the search.
        await Promise.race([this.lastPost, new Promise((r) => setTimeout(r, 250))]);
        const doc = this.document();
        this.planRunning = false;
        const seq = ++this.seq;
        const r = doc
          ? await this.lsp.request(LSP_METHODS.plan, { textDocument: { uri: this.lsp.uri(doc) }, panel: this.panelView() })
          : undefined;
        this.planMessage = r
          ? r.message
          : doc
            ? 'the language server did not answer'
            : 'open a training recipe (NeMo or Megatron-Bridge) first';
        rows = r?.rows ?? null;
        if (r && seq === this.seq && this.view && this.ready) {
          this.take(r.panel);
          this.send(r.panel.sections);
        } else await this.refresh();
      } finally {
        this.planRunning = false;
      }
      if (rows === null) {
        this.notice('warning', `No layouts suggested: ${this.planMessage}`);
        return undefined;
      }
      return rows;
    };
    const pending = run();
    this.planning = pending;
    void pending.finally(() => {
      if (this.planning === pending) this.planning = undefined;
    });
    return pending;
  }

  /** The Suggest Layouts command: reveal the panel for the active editor, then run the planner (for `gpus` GPUs when given). */
  async suggestLayouts(gpus?: number): Promise<number | undefined> {
    await this.open();
    if (gpus !== undefined && gpus !== this.ui.layout.worldSize) {
      this.ui.layout = { ...this.ui.layout, worldSize: gpus, page: 0 };
      this.layoutPage = 'rank';
    }
    const n = await this.suggest();
    if (n === undefined) void vscode.window.showWarningMessage(`Recipe Lens: no layouts suggested: ${this.planMessage}.`);
    return n;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of [...this.subs, ...this.viewSubs]) s.dispose();
    this.log?.dispose();
  }
}
