// Status-bar item with the estimate for the active editor ("61.2 / 79.2 GiB H100"); click for the planning panel.
import * as vscode from 'vscode';
import type { AnalysisCache } from './analysis.js';
import { gib, gibNumber } from '../core/units.js';

export class EstimateStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('recipeLens.estimate', vscode.StatusBarAlignment.Right, 100);
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly cache: AnalysisCache,
    command: string,
  ) {
    this.item.name = 'Recipe Lens memory estimate';
    this.item.command = command;
    this.subs.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      // Never on a keystroke: the item follows the analysis, computed once per debounced change.
      cache.onDidAnalyze((doc) => {
        if (doc === vscode.window.activeTextEditor?.document) this.update();
      }),
    );
    this.update();
  }

  update(): void {
    const ed = vscode.window.activeTextEditor;
    const a = ed && ed.document.languageId === 'yaml' ? this.cache.get(ed.document) : undefined;
    const e = a?.main?.estimate;
    if (!e || e.kind !== 'training') {
      this.item.hide();
      return;
    }
    const t = e.estimate;
    const icon = t.fit.verdict === 'fits' ? '$(check)' : t.fit.verdict === 'tight' ? '$(warning)' : '$(error)';
    this.item.text = `${icon} ${gibNumber(t.perGpu.total, 1)} / ${gib(e.gpu.bytes, 1)}`;
    this.item.tooltip = `Recipe Lens: most-loaded rank needs ${gib(t.perGpu.total)} on ${e.gpu.name} (${t.fit.verdict}). Click to open the planning panel.`;
    this.item.backgroundColor =
      t.fit.verdict === 'does-not-fit'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : t.fit.verdict === 'tight'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}
