// The extension's language client: the Recipe Lens language server (the same dist/cli.js every editor runs, as
// `recipe-lens lsp --node-ipc`) behind vscode-languageclient. Diagnostics, hover, completion, quick fixes, symbols and
// the estimate's code lens come from the server through the client's built-in features; the status bar and the
// planning panel use the custom requests of src/protocol.ts, whose results are checked here before use.
// No analysis runs in the extension host.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { LSP_METHODS, parseLspResult, type DidAnalyze, type LspResultMethod } from '../protocol.js';
import type * as v from 'valibot';
import type { AnalysisResultSchema, ApplyResultSchema, PlanResultSchema, StatsSchema, WhatIfResultSchema } from '../protocol.js';

interface Results {
  [LSP_METHODS.analysis]: v.InferOutput<typeof AnalysisResultSchema>;
  [LSP_METHODS.whatIf]: v.InferOutput<typeof WhatIfResultSchema>;
  [LSP_METHODS.plan]: v.InferOutput<typeof PlanResultSchema>;
  [LSP_METHODS.apply]: v.InferOutput<typeof ApplyResultSchema>;
  [LSP_METHODS.stats]: v.InferOutput<typeof StatsSchema>;
}

export class RecipeLensClient implements vscode.Disposable {
  readonly client: LanguageClient;
  /** Settles when the server answered initialize (never rejects: a failed start is logged by the client). */
  readonly ready: Promise<boolean>;
  private readonly analyzed = new vscode.EventEmitter<DidAnalyze>();
  /** A new analysis of a document (the server's recipeLens/didAnalyze notification, checked). */
  readonly onDidAnalyze = this.analyzed.event;

  constructor(context: vscode.ExtensionContext) {
    const run = { module: context.asAbsolutePath('dist/cli.js'), transport: TransportKind.ipc, args: ['lsp'] };
    const serverOptions: ServerOptions = { run, debug: run };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ language: 'yaml' }],
      diagnosticCollectionName: 'recipe-lens',
      // The code lens opens the planning panel; VS Code shows the estimate as a code lens only (no inlay hint twice).
      initializationOptions: { codeLensCommand: 'recipeLens.openPanel', estimateHint: 'codeLens' },
    };
    this.client = new LanguageClient('recipeLens', 'Recipe Lens', serverOptions, clientOptions);
    this.client.onNotification(LSP_METHODS.didAnalyze, (raw: unknown) => {
      const r = parseLspResult(LSP_METHODS.didAnalyze, raw);
      if (r.ok) this.analyzed.fire(r.msg);
      else this.client.warn(`recipeLens/didAnalyze ignored: ${r.error}`);
    });
    // Started in the background: activate() returns at once; requests wait for `ready`.
    this.ready = this.client.start().then(
      () => true,
      (e: unknown) => {
        this.client.error('the Recipe Lens language server did not start', e, 'force');
        return false;
      },
    );
  }

  /** The URI of a document as the client sent it to the server. */
  uri(doc: vscode.TextDocument | vscode.Uri): string {
    return this.client.code2ProtocolConverter.asUri(doc instanceof vscode.Uri ? doc : doc.uri);
  }

  /** A custom request, its result checked against the protocol; undefined (and logged) when it failed. */
  async request<M extends keyof Results & LspResultMethod>(method: M, params: unknown): Promise<Results[M] | undefined> {
    if (!(await this.ready)) return undefined;
    let raw: unknown;
    try {
      raw = await this.client.sendRequest(method, params);
    } catch (e) {
      this.client.warn(`${method} failed: ${(e as Error).message}`);
      return undefined;
    }
    const r = parseLspResult(method, raw);
    if (!r.ok) {
      this.client.warn(`${method}: the server's answer is malformed: ${r.error}`);
      return undefined;
    }
    return r.msg as Results[M];
  }

  dispose(): void {
    this.analyzed.dispose();
    void this.client.stop().catch(() => {});
  }
}
