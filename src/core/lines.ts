// Offsets ↔ LSP positions. Own index (not the parser's) so positions are right even where the YAML
// parser gives up mid-file; line breaks are \n, \r\n and a lone \r, as in VS Code.
import type { Position, Range, Span } from './types.js';

export class LineIndex {
  private readonly starts: number[] = [0];
  /** End of each line's content (before its line break). */
  private readonly ends: number[] = [];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) {
        this.ends.push(i);
        if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
    this.ends.push(text.length);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    // An offset inside a \r\n pair (or past the content) sits at the end of the line's content.
    return { line: lo, character: Math.min(o, this.ends[lo]!) - this.starts[lo]! };
  }

  offsetAt(p: Position): number {
    const line = Math.max(0, Math.min(p.line, this.starts.length - 1));
    return Math.min(this.starts[line]! + Math.max(0, p.character), this.ends[line]!);
  }

  rangeOf(span: Span): Range {
    return { start: this.positionAt(span[0]), end: this.positionAt(Math.max(span[0], span[1])) };
  }
}
