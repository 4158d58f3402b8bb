// What is under the cursor: the key path for hover, the mapping path and mode for completion.
import type { MapEntry, TreeNode } from './tree.js';
import type { PathSeg } from './types.js';

export interface CursorHit {
  path: PathSeg[];
  entry?: MapEntry;
  onKey: boolean;
}

const inside = (s: readonly [number, number], o: number) => o >= s[0] && o <= s[1];

/** The deepest mapping key or value that contains `offset`. */
export function pathAtOffset(root: TreeNode | undefined, offset: number): CursorHit | undefined {
  let best: CursorHit | undefined;
  const rec = (n: TreeNode, path: PathSeg[]) => {
    if (n.kind === 'map') {
      for (const e of n.entries) {
        if (inside(e.keySpan, offset)) {
          best = { path: [...path, e.key], entry: e, onKey: true };
          return;
        }
        if (inside(e.value.span, offset)) {
          best = { path: [...path, e.key], entry: e, onKey: false };
          rec(e.value, [...path, e.key]);
          return;
        }
      }
    } else if (n.kind === 'seq') {
      n.items.forEach((it, i) => {
        if (inside(it.span, offset)) rec(it, [...path, i]);
      });
    }
  };
  if (root) rec(root, []);
  return best;
}

export interface CompletionContext {
  /** Path of the mapping the cursor is in (key mode) or of the key whose value is typed (value mode). */
  path: PathSeg[];
  mode: 'key' | 'value';
  /** Text typed so far at the cursor (the partial key or value). */
  prefix: string;
  /** Offset where the partial word starts. */
  wordStart: number;
}

interface Line {
  start: number;
  text: string;
}

function lineAt(text: string, offset: number): Line {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', offset);
  if (end < 0) end = text.length;
  return { start, text: text.slice(start, end).replace(/\r$/, '') };
}

const indentOf = (s: string) => /^[ \t]*(?:- )*/.exec(s)![0].length;

/**
 * Works on the text alone, so it also works while the line being typed does not parse yet:
 * walks up to the lines with smaller indentation to find the enclosing keys.
 */
export function completionContext(text: string, offset: number): CompletionContext | undefined {
  const line = lineAt(text, offset);
  const before = line.text.slice(0, offset - line.start);
  if (/^\s*#/.test(before)) return undefined;
  const valueMatch = /^([ \t]*(?:- )*)([A-Za-z0-9_.-]+):[ \t]+(\S*)$/.exec(before);
  const keyMatch = /^([ \t]*(?:- )*)([A-Za-z0-9_-]*)$/.exec(before);
  let indent: number;
  let mode: 'key' | 'value';
  let prefix: string;
  let own: string | undefined;
  if (valueMatch) {
    indent = valueMatch[1]!.length;
    mode = 'value';
    own = valueMatch[2]!;
    prefix = valueMatch[3]!;
  } else if (keyMatch) {
    indent = keyMatch[1]!.length;
    mode = 'key';
    prefix = keyMatch[2]!;
  } else return undefined;
  const path: PathSeg[] = [];
  let want = indent;
  let pos = line.start - 1;
  while (pos > 0 && want > 0) {
    const l = lineAt(text, pos);
    pos = l.start - 1;
    if (!l.text.trim() || /^\s*#/.test(l.text)) continue;
    const ind = indentOf(l.text);
    if (ind < want) {
      const m = /^[ \t]*(?:- )*([A-Za-z0-9_.\-"']+):/.exec(l.text);
      if (!m) return undefined;
      path.unshift(m[1]!.replace(/^["']|["']$/g, ''));
      want = ind;
    }
  }
  if (mode === 'value') path.push(own!);
  return { path, mode, prefix, wordStart: offset - prefix.length };
}

/**
 * The node for a completion path, which the text scanner builds without sequence indices:
 * inside a list, the item that contains `offset` (or the last one before it) is taken.
 */
export function lookupLoose(root: TreeNode | undefined, path: readonly PathSeg[], offset: number): TreeNode | undefined {
  let cur = root;
  const into = (n: TreeNode | undefined): TreeNode | undefined => {
    if (n?.kind !== 'seq') return n;
    let pick: TreeNode | undefined;
    for (const it of n.items) if (it.span[0] <= offset) pick = it;
    return pick;
  };
  for (const seg of path) {
    cur = into(cur);
    if (!cur || cur.kind !== 'map') return undefined;
    cur = cur.entries.find((e) => e.key === seg)?.value;
  }
  return into(cur);
}
