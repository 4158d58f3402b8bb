// When diagnostics are computed and sent: at once on open, `debounceMs` after the last change, again after a settings
// change. A result for a version that is no longer current is dropped (the newer version's run follows). In push mode
// the result goes out as textDocument/publishDiagnostics; in pull mode the client's textDocument/diagnostic waits for
// the same run (so debounceMs means the same in both). Either way, each new analysis is announced once with
// recipeLens/didAnalyze (the status bar's summary).
import { LSPErrorCodes, ResponseError, type CancellationToken, type DocumentDiagnosticReport } from 'vscode-languageserver/node';
import { LSP_METHODS, type DidAnalyze } from '../protocol.js';
import type { RecipeLensServer } from './server.js';

export class DiagnosticsScheduler {
  published = 0;
  pulled = 0;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly waiters = new Map<string, (() => void)[]>();
  /** The result id last announced with didAnalyze, per document. */
  private readonly announced = new Map<string, string>();

  constructor(private readonly server: RecipeLensServer) {}

  schedule(uri: string, delayMs: number): void {
    const t = this.timers.get(uri);
    if (t) clearTimeout(t);
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        this.fire(uri);
      }, delayMs),
    );
  }

  private fire(uri: string): void {
    const p: Promise<void> = this.compute(uri)
      .catch((e) => this.server.warn(`diagnostics of ${uri} failed: ${(e as Error).message}`))
      .finally(() => {
        if (this.inFlight.get(uri) === p) this.inFlight.delete(uri);
        this.wake(uri);
      });
    this.inFlight.set(uri, p);
  }

  private wake(uri: string): void {
    if (this.timers.has(uri) || this.inFlight.has(uri)) return;
    const w = this.waiters.get(uri);
    this.waiters.delete(uri);
    for (const f of w ?? []) f();
  }

  /** Resolves once no run is pending or running for `uri` (the debounce has passed and the analysis is done). */
  settled(uri: string): Promise<void> {
    if (!this.timers.has(uri) && !this.inFlight.has(uri)) return Promise.resolve();
    return new Promise((resolve) => {
      const w = this.waiters.get(uri) ?? [];
      w.push(resolve);
      this.waiters.set(uri, w);
    });
  }

  private async compute(uri: string): Promise<void> {
    const got = await this.server.run('diagnostics', uri, {});
    const current = () => this.server.docs.get(uri)?.version === got?.version;
    if (!got || !current()) return; // closed, or a newer version supersedes this one
    const { resultId, items } = got.value;
    if (!this.server.pullMode) {
      await this.server.connection.sendDiagnostics({ uri, version: got.version, diagnostics: items });
      this.published++;
    }
    if (this.announced.get(uri) === resultId) return;
    this.announced.set(uri, resultId);
    const summary = await this.server.run('summary', uri, {});
    if (!summary || !current()) return;
    const { format, formatLabel, detected, status } = summary.value;
    const note: DidAnalyze = { uri, version: got.version, format, formatLabel, detected, status };
    await this.server.connection.sendNotification(LSP_METHODS.didAnalyze, note);
  }

  /** textDocument/diagnostic: the report of the current version once its run is done ("unchanged" for the same id). */
  async pullReport(uri: string, previousResultId: string | undefined, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    await this.settled(uri);
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
    const got = await this.server.run('diagnostics', uri, {}, token);
    this.pulled++;
    if (!got) return { kind: 'full', items: [] };
    const { resultId, items } = got.value;
    if (previousResultId === resultId) return { kind: 'unchanged', resultId };
    return { kind: 'full', resultId, items };
  }

  /** A closed document: no run, its diagnostics cleared (push mode; a pulling client drops them itself). */
  forget(uri: string): void {
    const t = this.timers.get(uri);
    if (t) clearTimeout(t);
    this.timers.delete(uri);
    this.announced.delete(uri);
    if (!this.server.pullMode) void this.server.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => {});
    this.wake(uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const uri of [...this.waiters.keys()]) this.wake(uri);
  }
}
