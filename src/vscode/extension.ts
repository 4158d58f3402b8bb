// Extension entry point: wires the core to VS Code. Activation does no validation work of its own
// beyond the open YAML documents.
import * as vscode from 'vscode';
import { FORMAT_LABELS } from '../core/types.js';
import { estimateText } from '../core/memory/report.js';
import { AnalysisCache } from './analysis.js';
import { DiagnosticsController } from './diagnostics.js';
import { RecipeCodeActionProvider, RecipeCompletionProvider, RecipeHoverProvider } from './providers.js';
import { PlanningPanel } from './panel.js';
import { EstimateStatusBar } from './statusBar.js';

const YAML: vscode.DocumentSelector = [{ language: 'yaml' }];

export function activate(context: vscode.ExtensionContext): void {
  const cache = new AnalysisCache();
  context.subscriptions.push(cache);
  const diagnostics = new DiagnosticsController(cache);
  const panel = new PlanningPanel(cache, context.extensionUri);
  context.subscriptions.push(
    panel,
    vscode.window.registerWebviewViewProvider(PlanningPanel.viewType, panel),
    vscode.commands.registerCommand('recipeLens.openPanel', () => panel.open()),
    // Returns how many layouts the Layouts section lists (undefined when the planner cannot run for the active file).
    // Optional argument: the GPU count, as a number or { gpus } (else the panel's count: the layout section's or the file's).
    vscode.commands.registerCommand('recipeLens.suggestLayouts', (arg?: unknown) => {
      const gpus = typeof arg === 'number' ? arg : (arg as { gpus?: unknown } | null | undefined)?.gpus;
      return panel.suggestLayouts(typeof gpus === 'number' && Number.isInteger(gpus) && gpus >= 1 && gpus <= 1 << 20 ? gpus : undefined);
    }),
    diagnostics,
    vscode.languages.registerHoverProvider(YAML, new RecipeHoverProvider(cache)),
    vscode.languages.registerCompletionItemProvider(YAML, new RecipeCompletionProvider(cache), ':', ' '),
    vscode.languages.registerCodeActionsProvider(YAML, new RecipeCodeActionProvider(cache), {
      providedCodeActionKinds: RecipeCodeActionProvider.kinds,
    }),
    vscode.commands.registerCommand('recipeLens.revalidate', () => diagnostics.refreshAll()),
    new EstimateStatusBar(cache, 'recipeLens.openPanel'),
    vscode.commands.registerCommand('recipeLens.showEstimate', async () => {
      const ed = vscode.window.activeTextEditor;
      const a = ed ? cache.get(ed.document) : undefined;
      const e = a?.main?.estimate;
      if (!e || e.kind !== 'training') {
        void vscode.window.showInformationMessage(
          `Recipe Lens: no memory estimate for this file${e?.kind === 'none' ? ` (${e.reason})` : ''}`,
        );
        return undefined;
      }
      const report = await vscode.workspace.openTextDocument({ content: estimateText(e), language: 'plaintext' });
      await vscode.window.showTextDocument(report, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return e.estimate.perGpu.total;
    }),
    vscode.commands.registerCommand('recipeLens.showFormat', () => {
      const ed = vscode.window.activeTextEditor;
      const a = ed ? cache.get(ed.document) : undefined;
      const f = a?.format;
      void vscode.window.showInformationMessage(
        f ? `Recipe Lens: ${FORMAT_LABELS[f]} (${f})` : 'Recipe Lens: this file is not a recognised recipe format',
      );
      return f ?? null;
    }),
  );
}

export function deactivate(): void {}
