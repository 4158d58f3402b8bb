// The analysis worker: a worker thread (node:worker_threads) that owns the large documents, so that analysing a
// 10 MB file never holds the main thread, which keeps answering hovers, completions and panels of the others.
// It runs the same Engine as the main thread over its own copy of those documents, fed with the main thread's checked
// notifications in order. The worker is the CLI bundle itself (`recipe-lens lsp --analysis-worker`): the core and
// its schema validators are bundled once. Started on the first large document; restarted (documents re-sent) if it
// stops.
import { parentPort, Worker } from 'node:worker_threads';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { cachedSourceReader } from '../host/sourceFiles.js';
import { DocumentStore, type ChangeEvent } from './documents.js';
import { Engine, type EngineReply, type EngineRequest, type FeatureName } from './engine.js';

/** Documents of at least this many UTF-16 code units go to the worker (about 15 ms of analysis on the main thread). */
export const WORKER_MIN_CHARS = 1 << 20;
/** ... and come back to the main thread below this (hysteresis: an edit near the line does not move it back and forth). */
export const WORKER_MAX_BACK = 1 << 19;

type ToWorker =
  | { type: 'open'; uri: string; languageId: string; version: number; text: string }
  | { type: 'change'; uri: string; version: number; changes: ChangeEvent[] }
  | { type: 'close'; uri: string }
  | { type: 'clear' }
  | { type: 'run'; id: number; req: EngineRequest }
  | { type: 'stats'; id: number }
  | { type: 'dependents'; id: number; path: string };
type FromWorker = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** The worker side: answers the main thread's messages in the order they were sent. */
export function runAnalysisWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('--analysis-worker runs only as the language server’s worker thread');
  const docs = new DocumentStore();
  // The worker's reader: its own documents' text first, then the disk.
  const engine = new Engine(
    docs,
    cachedSourceReader((path) => docs.byPath(path)?.getText()),
  );
  const reply = (m: FromWorker) => port.postMessage(m);
  port.on('message', (m: ToWorker) => {
    switch (m.type) {
      case 'open':
        docs.set(m.uri, m.languageId, m.version, m.text);
        engine.forget(m.uri);
        return;
      case 'change':
        docs.apply(m.uri, m.version, m.changes);
        return;
      case 'close':
        docs.delete(m.uri);
        engine.forget(m.uri);
        return;
      case 'clear':
        engine.clear();
        return;
      case 'stats':
        reply({ id: m.id, ok: true, value: engine.computed });
        return;
      case 'dependents':
        reply({ id: m.id, ok: true, value: engine.dependents(m.path) });
        return;
      case 'run':
        try {
          reply({ id: m.id, ok: true, value: engine.run(m.req) });
        } catch (e) {
          reply({ id: m.id, ok: false, error: (e as Error).stack ?? String(e) });
        }
        return;
    }
  });
}

/** The main thread's side: which documents the worker owns, and requests to it. */
export class AnalysisWorker {
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly owned = new Set<string>();
  private exits = 0;

  constructor(
    /** The script to run (the CLI bundle). */
    private readonly entry: string,
    /** The main thread's documents (re-sent to a restarted worker). */
    private readonly docs: { get(uri: string): TextDocument | undefined },
    private readonly log: (msg: string) => void,
  ) {}

  owns(uri: string): boolean {
    return this.owned.has(uri);
  }

  get size(): number {
    return this.owned.size;
  }

  get started(): boolean {
    return this.worker !== undefined;
  }

  /** Restarts after an unexpected stop (counted, for the log). */
  get restarts(): number {
    return this.exits;
  }

  private post(m: ToWorker): void {
    this.ensure().postMessage(m);
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.entry, { argv: ['lsp', '--analysis-worker'], stdout: false, stderr: false });
    this.worker = w;
    w.on('message', (m: FromWorker) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.error));
    });
    const gone = (why: string) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.exits++;
      for (const p of this.pending.values()) p.reject(new Error(`the analysis worker stopped (${why})`));
      this.pending.clear();
      this.log(`analysis worker stopped (${why}); it restarts on the next request`);
    };
    w.on('error', (e) => gone(e.message));
    w.on('exit', (code) => gone(`exit code ${code}`));
    // The worker must not keep the server alive after the client has gone.
    w.unref();
    for (const uri of this.owned) {
      const d = this.docs.get(uri);
      if (d) w.postMessage({ type: 'open', uri, languageId: d.languageId, version: d.version, text: d.getText() } satisfies ToWorker);
    }
    return w;
  }

  open(doc: TextDocument): void {
    this.owned.add(doc.uri);
    this.post({ type: 'open', uri: doc.uri, languageId: doc.languageId, version: doc.version, text: doc.getText() });
  }

  change(uri: string, version: number, changes: ChangeEvent[]): void {
    if (this.owned.has(uri)) this.post({ type: 'change', uri, version, changes });
  }

  close(uri: string): void {
    if (!this.owned.delete(uri)) return;
    if (this.worker) this.post({ type: 'close', uri });
  }

  clear(): void {
    if (this.worker) this.post({ type: 'clear' });
  }

  private request(m: { type: 'run'; req: EngineRequest } | { type: 'stats' } | { type: 'dependents'; path: string }): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.post({ ...m, id } as ToWorker);
      } catch (e) {
        this.pending.delete(id);
        reject(e as Error);
      }
    });
  }

  run<K extends FeatureName>(req: EngineRequest<K>): Promise<EngineReply<K>> {
    return this.request({ type: 'run', req }) as Promise<EngineReply<K>>;
  }

  /** The worker's documents whose analysis read the file at `path`. */
  async dependents(path: string): Promise<string[]> {
    return this.worker && this.owned.size ? ((await this.request({ type: 'dependents', path })) as string[]) : [];
  }

  /** Analyses the worker computed (0 when it never started). */
  async computed(): Promise<number> {
    return this.worker ? ((await this.request({ type: 'stats' })) as number) : 0;
  }

  async dispose(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}
