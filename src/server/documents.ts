// The open documents, kept in sync from didOpen / didChange / didClose, and checked at the boundary: a change for a
// document that is not open, a version that does not increase, a malformed range or text is refused (the caller logs
// the reason) and leaves the document as it was. Ranges past the end are clamped, as the LSP specification asks.
import * as v from 'valibot';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { uriPath } from './settings.js';

const MAX_URI = 8192;
const whole = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const version = v.pipe(v.number(), v.integer(), v.minValue(-(2 ** 31)), v.maxValue(Number.MAX_SAFE_INTEGER));
const uri = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_URI));
export const PositionSchema = v.object({ line: whole, character: whole });
export const RangeSchema = v.object({ start: PositionSchema, end: PositionSchema });

const OpenSchema = v.object({ textDocument: v.object({ uri, languageId: v.string(), version, text: v.string() }) });
const ChangeSchema = v.object({
  textDocument: v.object({ uri, version }),
  // A change with a range edits that range; one without replaces the text (a present but malformed range is refused).
  contentChanges: v.array(v.object({ range: v.optional(RangeSchema), text: v.string() })),
});
const CloseSchema = v.object({ textDocument: v.object({ uri }) });

export type ChangeEvent =
  { range: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string } | { text: string };

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

const issue = (r: v.SafeParseResult<v.GenericSchema>) =>
  r.success ? '' : `${v.getDotPath(r.issues[0]) ?? 'params'}: ${r.issues[0].message.slice(0, 120)}`;

export class DocumentStore {
  private readonly docs = new Map<string, TextDocument>();

  get(uri: string): TextDocument | undefined {
    return this.docs.get(uri);
  }

  get size(): number {
    return this.docs.size;
  }

  uris(): IterableIterator<string> {
    return this.docs.keys();
  }

  /** The open document at a file system path (how the core names a NeMo-RL `defaults:` parent). */
  byPath(path: string): TextDocument | undefined {
    const want = path.replace(/\\/g, '/');
    for (const [uri, doc] of this.docs) if (uri.startsWith('file:') && uriPath(uri) === want) return doc;
    return undefined;
  }

  open(raw: unknown): Outcome<TextDocument> {
    const r = v.safeParse(OpenSchema, raw);
    if (!r.success) return { ok: false, reason: `didOpen refused (${issue(r)})` };
    const { uri: u, languageId, version: ver, text } = r.output.textDocument;
    const doc = TextDocument.create(u, languageId, ver, text);
    this.docs.set(u, doc);
    return { ok: true, value: doc };
  }

  /** Applies the changes in order; the document's version becomes the notification's. */
  change(raw: unknown): Outcome<{ doc: TextDocument; changes: ChangeEvent[] }> {
    const r = v.safeParse(ChangeSchema, raw);
    if (!r.success) return { ok: false, reason: `didChange refused (${issue(r)})` };
    const { textDocument, contentChanges } = r.output;
    const doc = this.docs.get(textDocument.uri);
    if (!doc) return { ok: false, reason: `didChange for ${textDocument.uri.slice(0, 200)}, which is not open: ignored` };
    if (textDocument.version <= doc.version)
      return {
        ok: false,
        reason: `didChange for ${textDocument.uri.slice(0, 200)} with version ${textDocument.version} after version ${doc.version}: out of order, ignored`,
      };
    const next = TextDocument.update(doc, contentChanges, textDocument.version);
    this.docs.set(textDocument.uri, next);
    return { ok: true, value: { doc: next, changes: contentChanges } };
  }

  close(raw: unknown): Outcome<string> {
    const r = v.safeParse(CloseSchema, raw);
    if (!r.success) return { ok: false, reason: `didClose refused (${issue(r)})` };
    const u = r.output.textDocument.uri;
    if (!this.docs.delete(u)) return { ok: false, reason: `didClose for ${u.slice(0, 200)}, which is not open: ignored` };
    return { ok: true, value: u };
  }

  /** A document as the worker thread receives it (already checked by the main thread's store). */
  set(uri: string, languageId: string, ver: number, text: string): void {
    this.docs.set(uri, TextDocument.create(uri, languageId, ver, text));
  }

  /** Checked changes, replayed in the worker thread. */
  apply(uri: string, ver: number, changes: ChangeEvent[]): void {
    const doc = this.docs.get(uri);
    if (doc) this.docs.set(uri, TextDocument.update(doc, changes, ver));
  }

  delete(uri: string): void {
    this.docs.delete(uri);
  }
}
