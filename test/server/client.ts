// A language client for the protocol tests: spawns `node dist/cli.js lsp --stdio` (the built server, as an editor
// would) and speaks JSON-RPC to it with vscode-jsonrpc. It answers the server's own requests (workspace/configuration,
// client/registerCapability, the refresh requests) and records every notification, so a test can wait for a state
// (the diagnostics of a version, a didAnalyze) instead of sleeping. `raw()` writes bytes as they are, for the fuzz tests.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { after } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { REPO } from '../helpers.js';

export const CLI = join(REPO, 'dist', 'cli.js');
export const fileUri = (path: string) => pathToFileURL(path).href;

export interface Notification {
  method: string;
  params: unknown;
}
export interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  source: string;
  message: string;
  relatedInformation?: { location: { uri: string; range: LspDiagnostic['range'] }; message: string }[];
}
export interface Published {
  uri: string;
  version?: number;
  diagnostics: LspDiagnostic[];
}

export interface ClientOptions {
  /** capabilities sent in initialize (default: a push-only client with workspace/configuration). */
  capabilities?: Record<string, unknown>;
  initializationOptions?: unknown;
  /** What workspace/configuration answers for the recipeLens section (null: the client has none). */
  configuration?: () => unknown;
  workspaceFolders?: { uri: string; name: string }[] | null;
}

export const PUSH_CAPABILITIES = {
  workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, codeLens: { refreshSupport: true } },
  textDocument: {
    publishDiagnostics: { relatedInformation: true, versionSupport: true },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
  },
};
export const PULL_CAPABILITIES = {
  ...PUSH_CAPABILITIES,
  workspace: { ...PUSH_CAPABILITIES.workspace, diagnostics: { refreshSupport: true } },
  textDocument: { ...PUSH_CAPABILITIES.textDocument, diagnostic: { dynamicRegistration: false } },
};

/** Every server a test started: killed after the file's tests, so a failed assertion never leaves one running. */
const started = new Set<ChildProcessWithoutNullStreams>();
after(() => {
  for (const c of started) if (c.exitCode === null) c.kill();
});

export class TestClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly rpc: MessageConnection;
  readonly notifications: Notification[] = [];
  /** Requests the server sent to the client (method names, in order). */
  readonly serverRequests: string[] = [];
  stderr = '';
  private readonly listeners = new Set<() => void>();
  readonly exited: Promise<number | null>;

  constructor(private readonly options: ClientOptions = {}) {
    this.child = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { stdio: 'pipe' });
    started.add(this.child);
    this.child.stderr.on('data', (d) => (this.stderr += String(d)));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.rpc = createMessageConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.rpc.onNotification((method, params) => {
      this.notifications.push({ method, params });
      for (const l of this.listeners) l();
    });
    this.rpc.onRequest((method, params) => {
      this.serverRequests.push(method);
      for (const l of this.listeners) l();
      if (method === 'workspace/configuration') {
        const items = (params as { items: unknown[] }).items;
        return items.map(() => (this.options.configuration ? this.options.configuration() : null));
      }
      return null;
    });
    // A closed pipe after `exit` is expected; it must not crash the test process.
    this.rpc.onError(() => {});
    this.child.stdin.on('error', () => {});
    this.rpc.listen();
  }

  async initialize(): Promise<{ capabilities: Record<string, unknown> }> {
    const r = await this.rpc.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: this.options.capabilities ?? PUSH_CAPABILITIES,
      initializationOptions: this.options.initializationOptions,
      workspaceFolders: this.options.workspaceFolders ?? null,
    });
    await this.rpc.sendNotification('initialized', {});
    return r;
  }

  request<T = unknown>(method: string, params?: unknown): Promise<T> {
    return this.rpc.sendRequest<T>(method, params);
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.rpc.sendNotification(method, params);
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
  }

  change(uri: string, version: number, contentChanges: unknown[]): Promise<void> {
    return this.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
  }

  /** Resolves with the first value `probe` returns that is not undefined, re-checked on every message (or rejects after `timeoutMs`). */
  waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const v = probe();
        if (v === undefined) return false;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(v);
        return true;
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`timed out waiting for ${what}; stderr: ${this.stderr.slice(-500)}`));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  published(uri: string): Published[] {
    return this.notifications
      .filter((n) => n.method === 'textDocument/publishDiagnostics' && (n.params as Published).uri === uri)
      .map((n) => n.params as Published);
  }

  /** The diagnostics published for `uri` at `version` (waits for them). */
  diagnosticsOf(uri: string, version: number): Promise<LspDiagnostic[]> {
    return this.waitFor(() => this.published(uri).find((p) => p.version === version)?.diagnostics, `diagnostics of ${uri} v${version}`);
  }

  logs(): string[] {
    return this.notifications.filter((n) => n.method === 'window/logMessage').map((n) => (n.params as { message: string }).message);
  }

  /** shutdown, exit, and the process's exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) {
      await this.request('shutdown').catch(() => {});
      await this.notify('exit').catch(() => {});
    }
    const code = await this.exited;
    this.rpc.dispose();
    return code;
  }

  /** Writes bytes straight to the server's stdin (framing included or not: the fuzz tests decide). */
  raw(bytes: string | Buffer): void {
    this.child.stdin.write(bytes);
  }

  kill(): void {
    this.child.kill();
  }
}

/** A JSON-RPC frame as the base protocol writes it. */
export const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`;
