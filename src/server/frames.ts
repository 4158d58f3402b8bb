// The base protocol's framing (`Content-Length: N\r\n\r\n` + N bytes), checked before vscode-jsonrpc reads it: a frame
// with a missing or malformed header, or a body over MAX_BODY bytes, is reported and skipped, and reading resumes at
// the next `Content-Length:` header. vscode-jsonrpc's own reader stops making sense of the stream after one bad header;
// with this guard in front, a misbehaving client costs one message, not the session. Well-formed frames pass unchanged.
import { Transform, type TransformCallback } from 'node:stream';

/** Larger bodies are skipped unread (a JavaScript string cannot hold much more than this anyway). */
export const MAX_BODY = 256 * 1024 * 1024;
/** A header block longer than this without its blank line is garbage. */
const MAX_HEADER = 64 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');

export class FrameGuard extends Transform {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Header + body length of the frame being received; -1 while its header is not complete. */
  private expect = -1;
  /** Bytes of an oversized body still to drop. */
  private skip = 0;
  private reported = false;

  constructor(
    private readonly bad: (why: string) => void,
    private readonly maxBody = MAX_BODY,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    try {
      this.drain();
      done();
    } catch (e) {
      done(e as Error);
    }
  }

  /** The received bytes as one buffer (one copy, only when a frame is complete or a header must be read). */
  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private discard(n: number): void {
    const all = this.joined();
    const rest = all.subarray(Math.min(n, all.length));
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
  }

  /** One report per run of bad bytes (until a good frame passes). */
  private report(why: string): void {
    if (!this.reported) this.bad(why);
    this.reported = true;
  }

  /** Drops bytes up to the next `Content-Length` header, or all but a possible partial one at the end. */
  private resync(): void {
    const all = this.joined();
    const at = all.toString('latin1').toLowerCase().indexOf('content-length', 1);
    this.discard(at > 0 ? at : Math.max(1, all.length - 15));
  }

  private drain(): void {
    for (;;) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, this.size);
        this.discard(n);
        this.skip -= n;
        if (this.skip > 0) return;
      }
      if (this.expect < 0) {
        if (!this.size) return;
        const all = this.joined();
        const head = all.subarray(0, 32).toString('latin1');
        // Bytes that cannot start a header (the rest of a skipped frame, noise): skip to the next header.
        if (!/^[A-Za-z-]+:/.test(head) && !(head.length < 32 && /^[A-Za-z-]*$/.test(head))) {
          this.report(`bytes outside a frame (${JSON.stringify(head.slice(0, 20))}…); skipped to the next Content-Length header`);
          this.resync();
          continue;
        }
        const end = all.indexOf(HEADER_END);
        if (end < 0) {
          if (all.length > MAX_HEADER) {
            this.report(`no end of header in ${all.length} bytes; skipped to the next Content-Length header`);
            this.resync();
            continue;
          }
          return;
        }
        const lines = all.subarray(0, end).toString('latin1').split('\r\n');
        const lengths = lines.map((l) => /^content-length:\s*(.*?)\s*$/i.exec(l)?.[1]).filter((x) => x !== undefined);
        const headerOk = lines.every((l) => /^[A-Za-z-]+:/.test(l));
        const len = lengths.length === 1 && /^\d{1,12}$/.test(lengths[0]!) ? Number(lengths[0]) : NaN;
        if (!headerOk || Number.isNaN(len)) {
          this.report(`malformed header ${JSON.stringify(lines.join(' | ').slice(0, 120))}; skipped to the next Content-Length header`);
          this.discard(end + 4);
          continue;
        }
        if (len > this.maxBody) {
          this.report(`a ${len}-byte message is over the ${this.maxBody}-byte limit; skipped`);
          this.discard(end + 4);
          this.skip = len;
          continue;
        }
        this.expect = end + 4 + len;
      }
      if (this.size < this.expect) return;
      const all = this.joined();
      this.push(all.subarray(0, this.expect));
      this.discard(this.expect);
      this.expect = -1;
      this.reported = false;
    }
  }
}
