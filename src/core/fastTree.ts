// A fast path for the YAML that recipes are made of: one document of block mappings and block sequences with
// single-line plain or quoted scalars, single-line flow sequences of scalars, `{}`/`[]`, and comments.
//
// Why: the `yaml` library's lexer → CST → composer → Document pipeline (and then buildTree over its nodes) was about
// 70% of a full validation (node --cpu-prof of `npm run bench`: 8 of 13 ms on a 320-line recipe, 120 of 177 ms on
// 10,000 lines). For the plain block YAML of recipes this builds the same TreeNode tree straight from the text,
// ten to twenty times faster.
//
// Contract: `fastBuildTree` returns exactly what `buildTree(parseAllDocuments(text)[0])` would (same values, same
// spans, same duplicate keys, no YAML problems), or `undefined` whenever the text uses anything outside the subset
// (anchors, aliases, tags, block scalars, multi-line scalars, flow mappings, `---`, tabs, CR, errors of any kind...).
// Then the caller takes the `yaml` library path, so the result never depends on which path ran. Scalars and keys are
// read by the same functions as there (yaml/build.ts: PyYAML's reading, OmegaConf's where it differs).
// test/core/fastTree.test.ts holds both paths equal on the corpus, the examples and generated variants.
import type { MapEntry, MapNode, ScalarNode, SeqNode, TreeNode } from './tree.js';
import type { Span } from './types.js';
import {
  LOADER_SENSITIVE,
  keyEntry,
  mappingNode,
  nullNode,
  readPlain,
  readPlainKey,
  scalarNode,
  stringNode,
  strEntry,
} from './yaml/build.js';

/** Thrown (a plain object: no stack trace to capture) when the text leaves the subset; caught in fastBuildTree. */
const BAIL = { bail: true };
const bail = (): never => {
  throw BAIL;
};

export interface FastTree {
  root: TreeNode;
  span: Span;
  duplicateKeys: { key: string; span: Span; first: Span }[];
}

// Per-line facts, filled once.
const BLANK = 0;
const COMMENT = 1;
const CONTENT = 2;

/** Nodes carry yaml's third range value (the end including trailing comment and line break) while being built. */
type Built = { node: TreeNode; end: number };

export function fastBuildTree(text: string, maxDepth: number): FastTree | undefined {
  // Anything a recipe does not need goes to the full parser: CR, tabs, BOM, directives, document markers.
  if (!text || /[\r\t\ufeff]|^(?:---|\.\.\.|%)/m.test(text)) return undefined;
  try {
    return new FastParser(text, maxDepth).run();
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

class FastParser {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly indents: number[] = [];
  private readonly kinds: number[] = [];
  private line = 0;
  private readonly dups: FastTree['duplicateKeys'] = [];
  /** Nodes whose reading depends on the loader (yaml/loader.ts applyLoader). */
  private readonly sensitive: (ScalarNode | MapNode)[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {
    const n = text.length;
    let s = 0;
    while (s <= n) {
      let e = text.indexOf('\n', s);
      if (e < 0) e = n;
      let i = s;
      while (i < e && text.charCodeAt(i) === 32) i++;
      this.starts.push(s);
      this.ends.push(e);
      this.indents.push(i - s);
      this.kinds.push(i === e ? BLANK : text.charCodeAt(i) === 35 /* # */ ? COMMENT : CONTENT);
      if (e === n) break;
      s = e + 1;
    }
  }

  run(): FastTree {
    const first = this.nextContent(0);
    if (first < 0) bail();
    this.line = first;
    const ind = this.indents[first]!;
    const built = this.block(ind, -1, 0);
    // Everything must have been consumed: a later line with less indentation is an error for yaml.
    if (this.nextContent(this.line) >= 0) bail();
    LOADER_SENSITIVE.set(built.node, this.sensitive);
    // Mappings report their duplicates when they close (inner ones first): list them in text order, as tree.ts does.
    if (this.dups.length > 1) this.dups.sort((x, y) => x.span[0] - y.span[0]);
    // The document starts where its first content line does (indentation included), and ends with its root's value.
    return { root: built.node, span: [this.starts[first]!, built.node.span[1]], duplicateKeys: this.dups };
  }

  /** First CONTENT line at or after `from`, or -1. */
  private nextContent(from: number): number {
    for (let i = from; i < this.kinds.length; i++) if (this.kinds[i] === CONTENT) return i;
    return -1;
  }

  /** Where the content of line `i` starts (its indentation skipped); the end of the text for -1. */
  private contentStart(i: number): number {
    return i < 0 ? this.text.length : this.starts[i]! + this.indents[i]!;
  }

  /** Offset just past line `i` (its line break included), or the end of the text. */
  private lineEnd(i: number): number {
    return Math.min(this.ends[i]! + 1, this.text.length);
  }

  private isSeqItem(i: number): boolean {
    const p = this.starts[i]! + this.indents[i]!;
    const c = this.text.charCodeAt(p + 1);
    return this.text.charCodeAt(p) === 45 /* - */ && (p + 1 === this.ends[i] || c === 32);
  }

  /** A block collection whose first line is the current line, at indentation `ind`; `parentInd` is the enclosing one. */
  private block(ind: number, parentInd: number, depth: number): Built {
    if (depth > this.maxDepth - 2) bail();
    return this.isSeqItem(this.line) ? this.seq(ind, parentInd, depth) : this.map(ind, depth, this.starts[this.line]! + ind);
  }

  /**
   * Comment lines after a value that are indented deeper than `parentInd` belong to that value's range in yaml
   * (blank lines only when such a comment follows them).
   */
  private trailing(end: number, fromLine: number, parentInd: number): number {
    let e = end;
    for (let i = fromLine; i < this.kinds.length; i++) {
      const k = this.kinds[i];
      if (k === CONTENT) break;
      if (k === COMMENT) {
        if (this.indents[i]! <= parentInd) break;
        e = this.lineEnd(i);
      }
    }
    return e;
  }

  /**
   * Comment lines after a collection's last value that the value did not take (see `trailing`) form a pending item
   * in yaml's parser, which runs to the next content token (its indentation included). When the collection closes,
   * that item moves up to the parent collection if the collection is at indentation 0 or every one of those comments
   * is indented less than it; else it stays and the collection's range (and so its parent value's) ends there.
   */
  private leftover(end: number, ind: number): number {
    for (let i = this.line; i < this.kinds.length && this.kinds[i] !== CONTENT; i++) {
      if (this.lineEnd(i) <= end || this.kinds[i] !== COMMENT) continue;
      if (this.indents[i]! >= ind && ind > 0) return this.contentStart(this.nextContent(i));
    }
    return end;
  }

  private seq(ind: number, parentInd: number, depth: number): Built {
    const items: TreeNode[] = [];
    const start = this.starts[this.line]! + ind;
    let end: number;
    for (;;) {
      const i = this.line;
      const dash = this.starts[i]! + ind;
      // `- ` then the item: a compact mapping, a scalar or a flow sequence on the same line.
      let p = dash + 1;
      while (p < this.ends[i]! && this.text.charCodeAt(p) === 32) p++;
      if (p >= this.ends[i]! || this.text.charCodeAt(p) === 35) bail(); // `-` alone: nested block or null item
      const col = p - this.starts[i]!;
      let item: Built;
      if (this.keyAt(i, p)) item = this.map(col, depth + 1, p);
      else {
        if (this.text.charCodeAt(p) === 45 && this.isSeqItemAt(i, p)) bail(); // `- - x`
        item = this.inline(i, p, ind);
        this.line = i + 1;
        // A deeper content line after a scalar item would continue it (or be an error): full parser.
        const next = this.nextContent(this.line);
        if (next >= 0 && this.indents[next]! > ind) bail();
      }
      items.push(item.node);
      end = item.end;
      const next = this.nextContent(this.line);
      if (next < 0 || this.indents[next]! < ind) break;
      // A sequence written at its key's indentation (`key:\n- a`) ends at the next key of that mapping.
      if (this.indents[next] === ind && !this.isSeqItem(next) && parentInd === ind) break;
      if (this.indents[next]! > ind || !this.isSeqItem(next)) bail();
      this.line = next;
    }
    return { node: { kind: 'seq', items, span: [start, end] } as SeqNode, end: this.leftover(end, ind) };
  }

  private isSeqItemAt(i: number, p: number): boolean {
    const c = this.text.charCodeAt(p + 1);
    return p + 1 === this.ends[i] || c === 32;
  }

  /** Whether line `i` holds a `key:` starting at `p`. */
  private keyAt(i: number, p: number): boolean {
    return this.keyEnd(i, p) >= 0;
  }

  /** Where the key on line `i` starting at `p` ends (its `:`), or -1 when the line is no `key:` line. */
  private keyEnd(i: number, p: number): number {
    const t = this.text;
    const e = this.ends[i]!;
    const c = t.charCodeAt(p);
    if (c === 34 || c === 39) {
      // Quoted key: closing quote, then `:`.
      const q = this.quotedEnd(i, p);
      if (q < 0) return -1;
      if (t.charCodeAt(q) === 58 && (q + 1 === e || t.charCodeAt(q + 1) === 32)) return q;
      return -1;
    }
    for (let j = p; j < e; j++) {
      const d = t.charCodeAt(j);
      if (d === 58 /* : */ && (j + 1 === e || t.charCodeAt(j + 1) === 32)) return j;
      if (d === 35 /* # */ && t.charCodeAt(j - 1) === 32) return -1;
    }
    return -1;
  }

  /** Offset after the closing quote of the quoted scalar at `p` on line `i`, or -1 (not closed on this line). */
  private quotedEnd(i: number, p: number): number {
    const t = this.text;
    const e = this.ends[i]!;
    const q = t.charCodeAt(p);
    for (let j = p + 1; j < e; j++) {
      const d = t.charCodeAt(j);
      if (q === 34 && d === 92 /* \ */) bail(); // escapes: full parser
      if (d === q) {
        if (q === 39 && t.charCodeAt(j + 1) === 39) {
          j++;
          continue;
        }
        return j + 1;
      }
    }
    return -1;
  }

  private map(ind: number, depth: number, firstKey: number): Built {
    if (depth > this.maxDepth - 2) bail();
    const own: MapEntry[] = [];
    let end: number;
    let p = firstKey;
    for (;;) {
      const i = this.line;
      const colon = this.keyEnd(i, p);
      if (colon < 0) bail();
      // `key :` is legal; the key's range stops at its last non-space character.
      const keyStop = this.prevNonSpace(colon - 1) + 1;
      const keySpan: Span = [p, keyStop];
      let value: Built;
      // After `key:`: a value on the same line, or (nothing / a comment) a block on the following lines.
      let v = colon + 1;
      while (v < this.ends[i]! && this.text.charCodeAt(v) === 32) v++;
      const eol = v >= this.ends[i]! || this.text.charCodeAt(v) === 35;
      if (!eol) {
        value = this.inline(i, v, ind);
        this.line = i + 1;
        const next = this.nextContent(this.line);
        if (next >= 0 && this.indents[next]! > ind) bail(); // continuation of a plain scalar, or an error
      } else {
        const next = this.nextContent(i + 1);
        const nind = next < 0 ? -1 : this.indents[next]!;
        if (next >= 0 && (nind > ind || (nind === ind && this.isSeqItem(next)))) {
          // A nested block; a sequence may sit at the key's own indentation.
          this.line = next;
          value = this.block(nind, ind, depth + 1);
        } else {
          // Empty value: null at the end of the `key:` (after its spaces). yaml gives the empty node every comment,
          // blank line and indentation up to the next content token, when there is a comment among them.
          let comment = v < this.ends[i]!;
          for (let j = i + 1; !comment && j < this.kinds.length && this.kinds[j] !== CONTENT; j++) comment = this.kinds[j] === COMMENT;
          value = { node: nullNode([v, v]), end: comment ? this.contentStart(next) : v };
          this.line = i + 1;
        }
      }
      own.push(this.entry(p, keyStop, keySpan, value.node));
      end = value.end;
      const next = this.nextContent(this.line);
      if (next < 0 || this.indents[next]! < ind) break;
      if (this.indents[next]! > ind || this.isSeqItem(next)) bail();
      this.line = next;
      p = this.starts[next]! + ind;
    }
    const node = mappingNode([], own, [firstKey, end], this.dups, this.sensitive);
    return { node, end: this.leftover(end, ind) };
  }

  /** The entry for the key from `p` to `colon`, named as tree.ts names it (a Python dict key, see yaml/build.ts). */
  private entry(p: number, colon: number, keySpan: Span, value: TreeNode): MapEntry {
    const t = this.text;
    const c = t.charCodeAt(p);
    if (c === 34 || c === 39) return strEntry(this.unquote(p, colon), keySpan, value);
    const raw = t.slice(p, colon);
    // Plain keys: no indicators, no `: ` inside, no trailing space, no merge key, not overlong.
    if (colon - p > 1000 || /^[-?:,[\]{}#&*!|>'"%@`]|:|^<<$/.test(raw) || raw === '') bail();
    return keyEntry(readPlainKey(raw), keySpan, value);
  }

  private unquote(p: number, end: number): string {
    const t = this.text;
    const body = t.slice(p + 1, end - 1);
    return t.charCodeAt(p) === 39 ? body.replace(/''/g, "'") : body;
  }

  /**
   * A value that starts at `p` on line `i` and ends on it: plain or quoted scalar, a flow sequence of scalars, `{}`.
   * `parentInd` is the indentation of the collection it belongs to (for the trailing-comment rule).
   */
  private inline(i: number, p: number, parentInd: number): Built {
    const t = this.text;
    const e = this.ends[i]!;
    const c = t.charCodeAt(p);
    let node: TreeNode;
    let valueEnd: number;
    if (c === 91 /* [ */) {
      const r = this.flowSeq(i, p);
      node = r.node;
      valueEnd = r.valueEnd;
    } else if (c === 123 /* { */) {
      let j = p + 1;
      while (j < e && t.charCodeAt(j) === 32) j++;
      if (t.charCodeAt(j) !== 125) bail();
      valueEnd = j + 1;
      node = { kind: 'map', entries: [], span: [p, valueEnd] };
    } else if (c === 34 || c === 39) {
      valueEnd = this.quotedEnd(i, p);
      if (valueEnd < 0) bail();
      const v = this.unquote(p, valueEnd);
      node = stringNode(v, v, true, [p, valueEnd], this.sensitive);
    } else {
      // Plain scalar: up to ` #` or the end of the line, trailing spaces not included.
      // `-`, `?` and `:` may start a plain scalar when a non-space follows (`-1`, `???`); other indicators may not.
      if (/[-?:,[\]{}#&*!|>%@`]/.test(t[p]!) && !(/[-?:]/.test(t[p]!) && p + 1 < e && t.charCodeAt(p + 1) !== 32)) bail();
      let j = p;
      let last = p;
      for (; j < e; j++) {
        const d = t.charCodeAt(j);
        if (d === 35 && t.charCodeAt(j - 1) === 32) break;
        if (d === 58 && (j + 1 === e || t.charCodeAt(j + 1) === 32)) bail(); // `a: b: c`, `a: b:`
        if (d !== 32) last = j + 1;
      }
      valueEnd = last;
      const src = t.slice(p, valueEnd);
      node = scalarNode(readPlain(src), src, false, [p, valueEnd], this.sensitive);
    }
    // After the value: spaces, then a comment or the end of the line.
    let j = valueEnd;
    while (j < e && t.charCodeAt(j) === 32) j++;
    if (j < e && !(t.charCodeAt(j) === 35 && j > valueEnd)) bail();
    return { node, end: this.trailing(this.lineEnd(i), i + 1, parentInd) };
  }

  /** `[a, b, "c"]` on one line: scalar items only. */
  private flowSeq(i: number, p: number): { node: SeqNode; valueEnd: number } {
    const t = this.text;
    const e = this.ends[i]!;
    const items: TreeNode[] = [];
    let j = p + 1;
    for (;;) {
      while (j < e && t.charCodeAt(j) === 32) j++;
      if (j >= e) bail();
      const c = t.charCodeAt(j);
      if (c === 93 /* ] */) {
        if (items.length && t.charCodeAt(this.prevNonSpace(j - 1)) === 44) bail(); // trailing comma
        j++;
        break;
      }
      let itemEnd: number;
      if (c === 34 || c === 39) {
        itemEnd = this.quotedEnd(i, j);
        if (itemEnd < 0) bail();
        const v = this.unquote(j, itemEnd);
        items.push(stringNode(v, v, true, [j, itemEnd], this.sensitive));
      } else {
        if (/[-?:,[\]{}#&*!|>'"%@`]/.test(t[j]!) && !(c === 45 && /[0-9.]/.test(t[j + 1] ?? ''))) bail();
        let k = j;
        let last = j;
        for (; k < e; k++) {
          const d = t.charCodeAt(k);
          if (d === 44 || d === 93) break;
          if (d === 58 || d === 35 || d === 91 || d === 123 || d === 125) bail();
          if (d !== 32) last = k + 1;
        }
        itemEnd = last;
        const src = t.slice(j, itemEnd);
        items.push(scalarNode(readPlain(src), src, false, [j, itemEnd], this.sensitive));
      }
      j = itemEnd;
      while (j < e && t.charCodeAt(j) === 32) j++;
      if (t.charCodeAt(j) === 44) {
        j++;
        continue;
      }
      if (t.charCodeAt(j) !== 93) bail();
    }
    return { node: { kind: 'seq', items, span: [p, j] }, valueEnd: j };
  }

  private prevNonSpace(j: number): number {
    while (j > 0 && this.text.charCodeAt(j) === 32) j--;
    return j;
  }
}
