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
    // The KV reuse section's trace: a path argument, else a quick pick of the workspace's .jsonl files (or a file dialog).
    // Returns the server's answer (undefined when nothing was picked or the server did not answer).
    vscode.commands.registerCommand('recipeLens.kvReuse.pickTrace', async (arg?: unknown) => {
      const path = typeof arg === 'string' ? arg : await pickFile('trace');
      if (!path) return undefined;
      await panel.open();
      const r = await panel.simulate({ kind: 'file', path });
      if (r && !r.ok) void vscode.window.showWarningMessage(`Recipe Lens: no KV reuse simulation: ${r.reason}`);
      return r;
    }),
    // Compare a training log with the active training recipe: a path argument, else a file dialog.
    vscode.commands.registerCommand('recipeLens.compareLog', async (arg?: unknown) => {
      const path = typeof arg === 'string' ? arg : await pickFile('log');
      if (!path) return undefined;
      await panel.open();
      const r = await panel.compare(path);
      if (r && !r.ok) void vscode.window.showWarningMessage(`Recipe Lens: no comparison: ${r.reason}`);
      return r;
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

/** Workspace .jsonl files listed in the trace quick pick at most. */
const TRACES_LISTED = 200;

/** A local file path the user picks: a trace (quick pick of the workspace's .jsonl files, or browse) or a training log. */
async function pickFile(kind: 'trace' | 'log'): Promise<string | undefined> {
  const browse = async () => {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: kind === 'trace' ? 'Simulate' : 'Compare',
      title:
        kind === 'trace'
          ? 'A trace: Mooncake, token trace or KV cache events (.jsonl)'
          : 'A training log (Megatron, NeMo, Bridge or a TensorBoard export)',
      filters:
        kind === 'trace'
          ? { 'JSON Lines': ['jsonl', 'json'], All: ['*'] }
          : { Logs: ['log', 'txt', 'out', 'err', 'csv', 'json'], All: ['*'] },
    });
    return picked?.[0]?.scheme === 'file' ? picked[0].fsPath : undefined;
  };
  if (kind === 'log') return browse();
  const files = await vscode.workspace.findFiles('**/*.jsonl', '**/node_modules/**', TRACES_LISTED);
  if (!files.length) return browse();
  const items: (vscode.QuickPickItem & { path?: string })[] = files
    .filter((f) => f.scheme === 'file')
    .map((f) => ({ label: vscode.workspace.asRelativePath(f), path: f.fsPath }))
    .sort((a, b) => a.label.localeCompare(b.label));
  items.push({ label: 'Browse…', description: 'a trace outside the workspace' });
  const chosen = await vscode.window.showQuickPick(items, {
    title: 'Recipe Lens: a trace to simulate KV reuse on (Mooncake, token trace or KV cache events, told by content)',
  });
  if (!chosen) return undefined;
  return chosen.path ?? browse();
}

/** VS Code waits for the server's shutdown and exit. */
export function deactivate(): Thenable<void> | undefined {
  const c = running;
  running = undefined;
  return c?.stop();
}
