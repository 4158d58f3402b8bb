// The extension's language client: the Recipe Lens language server (the same dist/cli.js every editor runs, as
// `recipe-lens lsp --node-ipc`) behind vscode-languageclient. Diagnostics, hover, completion, quick fixes, symbols and
// the estimate's code lens come from the server through the client's built-in features; the status bar and the
// planning panel use the custom requests of src/protocol.ts, whose results are checked here before use.
// No analysis runs in the extension host.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { LSP_METHODS, parseLspResult, type DidAnalyze, type LspResultMethod } from '../protocol.js';
import type * as v from 'valibot';
import type {
  AnalysisResultSchema,
  ApplyResultSchema,
  CompareLogResultSchema,
  KvReuseResultSchema,
  PlanResultSchema,
  StatsSchema,
  WhatIfResultSchema,
} from '../protocol.js';

interface Results {
  [LSP_METHODS.analysis]: v.InferOutput<typeof AnalysisResultSchema>;
  [LSP_METHODS.whatIf]: v.InferOutput<typeof WhatIfResultSchema>;
  [LSP_METHODS.plan]: v.InferOutput<typeof PlanResultSchema>;
  [LSP_METHODS.apply]: v.InferOutput<typeof ApplyResultSchema>;
  [LSP_METHODS.stats]: v.InferOutput<typeof StatsSchema>;
  [LSP_METHODS.kvReuse]: v.InferOutput<typeof KvReuseResultSchema>;
  [LSP_METHODS.compareLog]: v.InferOutput<typeof CompareLogResultSchema>;
}

export class RecipeLensClient implements vscode.Disposable {
  /** The language client, once created (right after activate() returned). */
  private current?: LanguageClient;
  /** The client, once the server answered initialize; undefined when it did not start (the client logged why). */
  private readonly started: Promise<LanguageClient | undefined>;
  private readonly analyzed = new vscode.EventEmitter<DidAnalyze>();
  /** A new analysis of a document (the server's recipeLens/didAnalyze notification, checked). */
  readonly onDidAnalyze = this.analyzed.event;

  constructor(context: vscode.ExtensionContext) {
    // Created and started after activate() returned (activation stays a few milliseconds); requests wait for it.
    this.started = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const client = this.create(context);
      this.current = client;
      return client.start().then(
        () => client,
        (e: unknown) => {
          client.error('the Recipe Lens language server did not start', e, 'force');
          return undefined;
        },
      );
    });
  }

  private create(context: vscode.ExtensionContext): LanguageClient {
    const run = { module: context.asAbsolutePath('dist/cli.js'), transport: TransportKind.ipc, args: ['lsp'] };
    const serverOptions: ServerOptions = { run, debug: run };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ language: 'yaml' }],
      diagnosticCollectionName: 'recipe-lens',
      // The code lens opens the planning panel; VS Code shows the estimate as a code lens only (no inlay hint twice).
      initializationOptions: { codeLensCommand: 'recipeLens.openPanel', estimateHint: 'codeLens' },
      middleware: {
        workspace: {
          // recipeLens.gpu only when the user (or the workspace) set it: the contributed default would hide the GPU a
          // file's path names (the server then lets the core choose).
          configuration: async (params, token, next) => {
            const result = await next(params, token);
            if (!Array.isArray(result)) return result;
            return result.map((r: unknown, i) => {
              const item = params.items[i];
              if (item?.section !== 'recipeLens' || typeof r !== 'object' || r === null) return r;
              const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
              const g = vscode.workspace.getConfiguration('recipeLens', scope).inspect<string>('gpu');
              const user = g?.workspaceFolderValue ?? g?.workspaceValue ?? g?.globalValue;
              const { gpu: _default, ...rest } = r as Record<string, unknown>;
              return user ? { ...rest, gpu: user } : rest;
            });
          },
        },
      },
    };
    const client = new LanguageClient('recipeLens', 'Recipe Lens', serverOptions, clientOptions);
    client.onNotification(LSP_METHODS.didAnalyze, (raw: unknown) => {
      const r = parseLspResult(LSP_METHODS.didAnalyze, raw);
      if (r.ok) this.analyzed.fire(r.msg);
      else client.warn(`recipeLens/didAnalyze ignored: ${r.error}`);
    });
    return client;
  }

  /** The running client (undefined when the server did not start). */
  get ready(): Promise<LanguageClient | undefined> {
    return this.started;
  }

  /** The URI of a document as the client sends it to the server (vscode-languageclient's default conversion). */
  uri(doc: vscode.TextDocument | vscode.Uri): string {
    return (doc instanceof vscode.Uri ? doc : doc.uri).toString();
  }

  /** A custom request, its result checked against the protocol; undefined (and logged) when it failed. */
  async request<M extends keyof Results & LspResultMethod>(method: M, params: unknown): Promise<Results[M] | undefined> {
    const client = await this.started;
    if (!client) return undefined;
    let raw: unknown;
    try {
      raw = await client.sendRequest(method, params);
    } catch (e) {
      client.warn(`${method} failed: ${(e as Error).message}`);
      return undefined;
    }
    const r = parseLspResult(method, raw);
    if (!r.ok) {
      client.warn(`${method}: the server's answer is malformed: ${r.error}`);
      return undefined;
    }
    return r.msg as Results[M];
  }

  /** Stops the server (VS Code waits for this on deactivate). */
  async stop(): Promise<void> {
    const c = this.current;
    this.current = undefined;
    if (c?.isRunning()) await c.stop().catch(() => {});
  }

  dispose(): void {
    this.analyzed.dispose();
    void this.stop();
  }
}
