// The planning panel: a webview view that follows the active editor. The host owns the computation
// (src/core/panel builds every section's view model) and sends only the sections whose JSON changed;
// the webview draws. Nothing is sent before the webview's `ready`; every incoming message is validated.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { buildSections, emptySections } from '../core/panel/index.js';
import { panelHtml } from '../core/panel/html.js';
import type { PlanCache } from '../core/panel/planner.js';
import type { TextEdit } from '../core/types.js';
import {
  DEFAULT_UI,
  parseWebviewMessage,
  PROTOCOL_VERSION,
  SECTION_IDS,
  type FromWebview,
  type Sections,
  type ToWebview,
  type UiState,
} from '../protocol.js';
import type { AnalysisCache } from './analysis.js';

/** Delay after a keystroke before the panel recomputes (the refresh budget is 100 ms). */
const DEBOUNCE_MS = 50;

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
  private docUri?: string;
  private timer?: ReturnType<typeof setTimeout>;
  /** What Apply writes: the preview's edits against one document version. */
  private preview?: { uri: string; version: number; edits?: TextEdit[]; keys: number };
  /** The planner's searches, by document (the few most recent); a search runs only when asked for. */
  private plans = new Map<string, PlanCache>();
  private planCount = 0;
  /** A search asked for and not finished: the section shows "Searching…" meanwhile. */
  private planning?: Promise<number | undefined>;
  private planRunning = false;
  /** What applyCandidate writes: each planner row's edits against one document version. */
  private planPreview?: { uri: string; version: number; planId: number; edits: (TextEdit[] | undefined)[]; keys: number[] };
  /** The last message posted (awaited before a long search, so "Searching…" is on screen first). */
  private lastPost?: Thenable<boolean>;
  private log?: vscode.LogOutputChannel;

  constructor(
    private readonly cache: AnalysisCache,
    private readonly extensionUri: vscode.Uri,
  ) {
    this.follow(vscode.window.activeTextEditor);
    this.subs.push(
      vscode.window.onDidChangeActiveTextEditor((ed) => {
        if (this.follow(ed)) this.refresh();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === this.docUri && e.contentChanges.length) this.schedule();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.toString() === this.docUri) {
          this.docUri = undefined;
          this.refresh();
        }
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('recipeLens')) this.schedule();
      }),
    );
  }

  /** Switch to the editor's document; false when the panel keeps what it shows (no editor, output panes). */
  private follow(ed: vscode.TextEditor | undefined): boolean {
    if (!ed || ed.document.uri.scheme === 'output' || ed.document.uri.scheme === 'vscode-scm') return false;
    const uri = ed.document.uri.toString();
    if (uri === this.docUri) return false;
    this.docUri = uri;
    // What-if values, the selected rank and the grid page belong to one file; the GPU stays.
    this.ui = { ...structuredClone(DEFAULT_UI), uri, gpu: this.ui.gpu };
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

  /** Reveals the view (the `recipeLens.openPanel` command and the status-bar item). */
  async open(): Promise<void> {
    this.follow(vscode.window.activeTextEditor);
    await vscode.commands.executeCommand(`${PlanningPanel.viewType}.focus`);
    this.refresh();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh();
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
          if (msg.ui.uri && msg.ui.uri === this.docUri) {
            this.ui = { ...msg.ui, gpu: this.ui.gpu };
            this.layoutPage = msg.ui.layout.page;
          }
        }
        this.refresh();
        return;
      case 'selectGpu':
        this.ui.gpu = msg.gpu;
        this.refresh();
        return;
      case 'preview':
        this.ui.whatIf = msg.values;
        this.refresh();
        return;
      case 'selectRank':
        this.ui.rank = msg.rank;
        this.refresh();
        return;
      case 'layoutView': {
        const cur = this.ui.layout;
        this.layoutPage = msg.view.mode !== cur.mode || msg.view.worldSize !== cur.worldSize ? 'rank' : msg.view.page;
        this.ui.layout = msg.view;
        this.refresh();
        return;
      }
      case 'apply':
        void this.apply(msg.uri, msg.docVersion);
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
        void this.applyCandidate(msg.uri, msg.planId, msg.index, msg.docVersion);
        return;
    }
  }

  private document(): vscode.TextDocument | undefined {
    return this.docUri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.docUri) : undefined;
  }

  private compute(run = false): Sections {
    const doc = this.document();
    this.preview = undefined;
    this.planPreview = undefined;
    if (!doc) return emptySections();
    const uri = doc.uri.toString();
    const out = buildSections({
      uri: doc.uri.toString(),
      fileName: doc.uri.path.split('/').pop() || doc.uri.toString(),
      docVersion: doc.version,
      analysis: this.cache.get(doc),
      ui: this.ui,
      layoutPage: this.layoutPage,
      plan: { cache: this.plans.get(uri), run: run ? { id: ++this.planCount } : undefined, running: !run && this.planRunning },
    });
    const s = out.sections;
    if (out.plan) {
      this.plans.delete(uri);
      this.plans.set(uri, out.plan);
      while (this.plans.size > 8) this.plans.delete(this.plans.keys().next().value!);
    }
    if (s.planner?.state === 'ready' && out.planEdits)
      this.planPreview = {
        uri,
        version: doc.version,
        planId: s.planner.planId,
        edits: out.planEdits,
        keys: s.planner.rows.map((r) => r.changes.length),
      };
    // Keep the grid where the view model put it (a page number from now on, clamped to the grid).
    if (s.layout?.reason === null) {
      this.ui.layout = { ...this.ui.layout, mode: s.layout.view.mode, page: s.layout.view.page };
      this.ui.rank = s.layout.selected?.rank ?? 0;
      this.layoutPage = s.layout.view.page;
    }
    if (s.whatIf) this.preview = { uri: s.whatIf.uri, version: s.whatIf.docVersion, edits: out.edits, keys: s.whatIf.changes.length };
    return s;
  }

  /** Recompute and send the sections whose JSON changed (all of them right after the handshake). */
  refresh(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.view || !this.ready) return;
    let sections: Sections;
    try {
      sections = this.compute();
    } catch (e) {
      this.logger().error(`planning panel: ${(e as Error).stack ?? e}`);
      this.post({ v: PROTOCOL_VERSION, type: 'error', message: `Recipe Lens could not build the panel: ${(e as Error).message}` });
      return;
    }
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

  private refuse(text: string): void {
    this.notice('warning', text);
    void vscode.window.showWarningMessage(`Recipe Lens: ${text}`);
  }

  /** One WorkspaceEdit for all the edits (one undo step); false when VS Code refused it. */
  private async write(doc: vscode.TextDocument, edits: readonly TextEdit[]): Promise<boolean> {
    const we = new vscode.WorkspaceEdit();
    for (const e of edits) we.replace(doc.uri, new vscode.Range(doc.positionAt(e.span[0]), doc.positionAt(e.span[1])), e.newText);
    return vscode.workspace.applyEdit(we);
  }

  /** Writes the previewed change as one WorkspaceEdit (one undo step), only into the document shown, only at the previewed version. */
  private async apply(uri: string, version: number): Promise<void> {
    const doc = this.document();
    if (!doc || doc.uri.toString() !== uri) return this.refuse('the panel shows another file now; nothing was written.');
    if (doc.version !== version || !this.preview || this.preview.uri !== uri || this.preview.version !== doc.version)
      return this.refuse(
        `the file changed since the preview was computed (version ${version}, now ${doc.version}); check the new preview and apply again.`,
      );
    const edits = this.preview.edits;
    if (!edits?.length) return this.refuse('this change cannot be applied (see the conflicts in the what-if section).');
    const keys = this.preview.keys;
    if (!(await this.write(doc, edits))) return this.refuse('VS Code refused the edit; nothing was written.');
    this.ui.whatIf = {};
    this.notice('info', `Wrote ${keys} key${keys === 1 ? '' : 's'} into ${doc.uri.path.split('/').pop()}; Undo reverts them in one step.`);
    this.refresh();
  }

  /** Writes planner row `index` the same way: only the rows shown for this document version and this search. */
  private async applyCandidate(uri: string, planId: number, index: number, version: number): Promise<void> {
    const doc = this.document();
    if (!doc || doc.uri.toString() !== uri) return this.refuse('the panel shows another file now; nothing was written.');
    const p = this.planPreview;
    if (!p || p.uri !== uri || p.planId !== planId)
      return this.refuse('the layout list changed since (another search, GPU or GPU count); check the new list and apply again.');
    if (doc.version !== version || p.version !== doc.version)
      return this.refuse(
        `the file changed since the layouts were listed (version ${version}, now ${doc.version}); check the list and apply again.`,
      );
    const edits = p.edits[index];
    if (!edits?.length) return this.refuse(`layout ${index + 1} cannot be applied (see its conflicts in the Layouts section).`);
    const keys = p.keys[index] ?? edits.length;
    if (!(await this.write(doc, edits))) return this.refuse('VS Code refused the edit; nothing was written.');
    this.ui.whatIf = {};
    this.notice(
      'info',
      `Wrote layout ${index + 1} (${keys} key${keys === 1 ? '' : 's'}) into ${doc.uri.path.split('/').pop()}; Undo reverts it in one step.`,
    );
    this.refresh();
  }

  /**
   * Runs the planner for the document shown (the Layouts section's button, the Suggest Layouts command): the section
   * says "Searching…" first, then lists the candidates. Returns how many it lists; undefined when it cannot run.
   */
  suggest(): Promise<number | undefined> {
    if (this.planning) return this.planning;
    this.planRunning = true;
    const run = async (): Promise<number | undefined> => {
      let sections: Sections;
      try {
        this.refresh();
        // Let the "Searching…" state reach the webview before the search holds the extension host.
        await Promise.race([this.lastPost, new Promise((r) => setTimeout(r, 250))]);
        sections = this.compute(true);
      } catch (e) {
        this.logger().error(`planning panel: planner: ${(e as Error).stack ?? e}`);
        this.notice('error', `The planner failed: ${(e as Error).message}`);
        return undefined;
      } finally {
        this.planRunning = false;
      }
      this.refresh();
      const p = sections.planner;
      if (!p || p.state !== 'ready') {
        const why = !p ? 'this file has no training layout to plan' : p.message || 'the planner could not run';
        this.notice('warning', `No layouts suggested: ${why}`);
        return undefined;
      }
      return p.rows.length;
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
    if (n === undefined) {
      const p = this.compute().planner;
      void vscode.window.showWarningMessage(
        `Recipe Lens: no layouts suggested: ${p ? p.message || 'the planner could not run' : 'open a training recipe (NeMo or Megatron-Bridge) first'}.`,
      );
    }
    return n;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of [...this.subs, ...this.viewSubs]) s.dispose();
    this.log?.dispose();
  }
}
