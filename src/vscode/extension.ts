// Extension entry point: a thin client of the Recipe Lens language server (src/server, started in the background by
// vscode-languageclient), the planning panel's webview host and the status-bar item, both fed by the server's custom
// requests. activate() starts nothing it waits for: the commands wait for the server when they need it.
import * as vscode from 'vscode';
import { LSP_METHODS } from '../protocol.js';
import { RecipeLensClient } from './client.js';
import { PlanningPanel } from './panel.js';
import { EstimateStatusBar } from './statusBar.js';

let running: RecipeLensClient | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const lsp = new RecipeLensClient(context);
  running = lsp;
  const panel = new PlanningPanel(lsp, context.extensionUri);
  /** The server's view of the active editor's document (undefined without an editor or when the server is down). */
  const active = () => {
    const ed = vscode.window.activeTextEditor;
    return ed ? lsp.request(LSP_METHODS.analysis, { textDocument: { uri: lsp.uri(ed.document) } }) : Promise.resolve(undefined);
  };
  context.subscriptions.push(
    lsp,
    panel,
    vscode.window.registerWebviewViewProvider(PlanningPanel.viewType, panel),
    vscode.commands.registerCommand('recipeLens.openPanel', () => panel.open()),
    // Returns how many layouts the Layouts section lists (undefined when the planner cannot run for the active file).
    // Optional argument: the GPU count, as a number or { gpus } (else the panel's count: the layout section's or the file's).
    vscode.commands.registerCommand('recipeLens.suggestLayouts', (arg?: unknown) => {
      const gpus = typeof arg === 'number' ? arg : (arg as { gpus?: unknown } | null | undefined)?.gpus;
      return panel.suggestLayouts(typeof gpus === 'number' && Number.isInteger(gpus) && gpus >= 1 && gpus <= 1 << 20 ? gpus : undefined);
    }),
    // Forget every analysis and setting, re-validate the open documents (the server re-publishes or the client re-pulls).
    vscode.commands.registerCommand('recipeLens.revalidate', async () => {
      await (await lsp.ready)?.sendRequest(LSP_METHODS.revalidate, null);
    }),
    new EstimateStatusBar(lsp, 'recipeLens.openPanel'),
    vscode.commands.registerCommand('recipeLens.showEstimate', async () => {
      const a = await active();
      const e = a?.estimate;
      if (e?.kind !== 'training') {
        void vscode.window.showInformationMessage(
          `Recipe Lens: no memory estimate for this file${e?.kind === 'none' ? ` (${e.reason})` : ''}`,
        );
        return undefined;
      }
      const report = await vscode.workspace.openTextDocument({ content: e.report, language: 'plaintext' });
      await vscode.window.showTextDocument(report, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return e.totalBytes;
    }),
    vscode.commands.registerCommand('recipeLens.showFormat', async () => {
      const a = await active();
      void vscode.window.showInformationMessage(
        a?.format
          ? `Recipe Lens: ${a.formatLabel} (${a.format})${a.detected ? ` — ${a.detected}` : ''}`
          : `Recipe Lens: this file is not a recognised recipe format${a?.detected ? ` — ${a.detected}` : ''}`,
      );
      return a?.format ?? null;
    }),
  );
}

/** VS Code waits for the server's shutdown and exit. */
export function deactivate(): Thenable<void> | undefined {
  const c = running;
  running = undefined;
  return c?.stop();
}
