// Status-bar items for the active editor: the format the file was read as (its tooltip says why: the keys that decided,
// or why the file is no recipe) and the estimate ("61.2 / 79.2 GiB"; click for the planning panel). They show
// what the server says (recipeLens/didAnalyze after each analysis, recipeLens/analysis when the editor changes);
// never computed here, never on a keystroke: the server announces a document version once it analysed it.
import * as vscode from 'vscode';
import { LSP_METHODS, type DidAnalyze, type StatusVM } from '../protocol.js';
import type { RecipeLensClient } from './client.js';

export class EstimateStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('recipeLens.estimate', vscode.StatusBarAlignment.Right, 100);
  private readonly formatItem = vscode.window.createStatusBarItem('recipeLens.format', vscode.StatusBarAlignment.Right, 101);
  private readonly subs: vscode.Disposable[] = [];
  /** Requests answered out of order must not show an older editor's estimate. */
  private seq = 0;

  constructor(
    private readonly lsp: RecipeLensClient,
    command: string,
  ) {
    this.item.name = 'Recipe Lens memory estimate';
    this.item.command = command;
    this.formatItem.name = 'Recipe Lens format';
    this.formatItem.command = 'recipeLens.showFormat';
    this.subs.push(
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
      lsp.onDidAnalyze((note) => {
        const ed = vscode.window.activeTextEditor;
        if (ed && this.lsp.uri(ed.document) === note.uri) {
          this.seq++;
          this.showFormat(note);
          this.show(note.status);
        }
      }),
    );
    void this.update();
  }

  async update(): Promise<void> {
    const seq = ++this.seq;
    const ed = vscode.window.activeTextEditor;
    if (!ed || ed.document.languageId !== 'yaml') {
      this.showFormat(null);
      return this.show(null);
    }
    const a = await this.lsp.request(LSP_METHODS.analysis, { textDocument: { uri: this.lsp.uri(ed.document) } });
    if (seq !== this.seq) return;
    this.showFormat(a?.version != null ? a : null);
    this.show(a?.status ?? null);
  }

  /** "$(file-code) Megatron-Bridge override" or "$(circle-slash) no recipe"; the tooltip is the detection's reason. */
  private showFormat(a: Pick<DidAnalyze, 'format' | 'formatLabel' | 'detected'> | null): void {
    if (!a) {
      this.formatItem.hide();
      return;
    }
    this.formatItem.text = a.format ? `$(file-code) ${a.formatLabel ?? a.format}` : '$(circle-slash) no recipe';
    this.formatItem.tooltip = `Recipe Lens: ${a.detected ?? (a.format ? `read as ${a.formatLabel}` : 'not a recipe Recipe Lens reads')}`;
    this.formatItem.show();
  }

  private show(s: StatusVM | null): void {
    if (!s) {
      this.item.hide();
      return;
    }
    const icon = s.verdict === 'fits' ? '$(check)' : s.verdict === 'tight' ? '$(warning)' : '$(error)';
    this.item.text = `${icon} ${s.text}`;
    this.item.tooltip = `${s.tooltip} Click to open the planning panel.`;
    this.item.backgroundColor =
      s.verdict === 'does-not-fit'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : s.verdict === 'tight'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.item.dispose();
    this.formatItem.dispose();
  }
}
