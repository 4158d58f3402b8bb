// The document model: a small, alias-expanded tree over the `yaml` AST that keeps every node's span.
import { isAlias, isMap, isScalar, isSeq, type Document, type Node as YNode } from 'yaml';
import type { KeyPath, PathSeg, Span } from './types.js';

export interface ScalarNode {
  kind: 'scalar';
  value: unknown;
  /** Source text as written (quotes included), for interpolation and messages. */
  source: string;
  /** Whether the scalar was quoted: a quoted `'16'` is a string for every loader. */
  quoted: boolean;
  span: Span;
}
export interface MapEntry {
  key: string;
  keySpan: Span;
  value: TreeNode;
}
export interface MapNode {
  kind: 'map';
  entries: MapEntry[];
  span: Span;
}
export interface SeqNode {
  kind: 'seq';
  items: TreeNode[];
  span: Span;
}
export type TreeNode = ScalarNode | MapNode | SeqNode;

/** Limits that keep a hostile file from costing more than a bounded amount of work. */
export interface TreeLimits {
  /** Total nodes visited through aliases (expansion budget against "billion laughs"). */
  maxAliasExpansion: number;
  /** Nesting depth past which content is dropped. */
  maxDepth: number;
}
export const DEFAULT_TREE_LIMITS: TreeLimits = { maxAliasExpansion: 10_000, maxDepth: 256 };

export interface TreeBuild {
  root: TreeNode | undefined;
  /** Set when a limit was hit; the tree is then partial. */
  truncated?: { reason: 'aliases' | 'depth'; span: Span };
  /** Keys that occur twice in one mapping (the later one wins, like PyYAML). */
  duplicateKeys: { key: string; span: Span; first: Span }[];
}

function spanOf(n: YNode | null | undefined, fallback: Span): Span {
  const r = n?.range;
  return r ? [r[0], r[1]] : fallback;
}

/** Convert one parsed `yaml` document into a TreeNode tree. */
export function buildTree(doc: Document, limits: TreeLimits = DEFAULT_TREE_LIMITS): TreeBuild {
  const out: TreeBuild = { root: undefined, duplicateKeys: [] };
  let aliasBudget = limits.maxAliasExpansion;

  const walk = (n: unknown, depth: number, viaAlias: boolean, at: Span): TreeNode | undefined => {
    if (out.truncated) return undefined;
    if (depth > limits.maxDepth) {
      out.truncated = { reason: 'depth', span: at };
      return undefined;
    }
    if (viaAlias && --aliasBudget < 0) {
      out.truncated = { reason: 'aliases', span: at };
      return undefined;
    }
    if (isAlias(n)) {
      const target = n.resolve(doc);
      const span = spanOf(n, at);
      if (!target) return { kind: 'scalar', value: null, source: n.source ?? '', quoted: false, span };
      const t = walk(target, depth + 1, true, span);
      // The alias stands where it is written: report its own span, not the anchor's.
      return t ? { ...t, span } : undefined;
    }
    if (isScalar(n)) {
      const span = spanOf(n, at);
      const type = n.type;
      const quoted = type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE';
      return { kind: 'scalar', value: n.value, source: n.source !== undefined ? String(n.source) : String(n.value), quoted, span };
    }
    if (isSeq(n)) {
      const span = spanOf(n, at);
      const items: TreeNode[] = [];
      for (const it of n.items) {
        const c = walk(it, depth + 1, viaAlias, span);
        if (c) items.push(c);
        else if (out.truncated) break;
      }
      return { kind: 'seq', items, span };
    }
    if (isMap(n)) {
      const span = spanOf(n, at);
      const entries: MapEntry[] = [];
      const index = new Map<string, number>();
      const merged: MapEntry[] = [];
      for (const pair of n.items) {
        const k = pair.key as YNode | null;
        const keySpan = spanOf(k, span);
        // A collection used as a key (`? [a, b]: x`) is named by its offset: stringifying it makes the yaml library
        // convert the whole collection to JS, which can throw (merge keys) or blow up (aliases).
        const keyText = isScalar(k) ? String(k.value) : k ? `<complex key at ${keySpan[0]}>` : '';
        if (keyText === '<<' && isScalar(k) && !(k.type === 'QUOTE_DOUBLE' || k.type === 'QUOTE_SINGLE')) {
          // YAML 1.1 merge key: earlier sources win, explicit keys of this map win over all.
          const src = walk(pair.value, depth + 1, viaAlias, keySpan);
          const srcs = src?.kind === 'seq' ? src.items : src ? [src] : [];
          for (const s of srcs) if (s.kind === 'map') for (const e of s.entries) merged.push(e);
          continue;
        }
        const value = walk(pair.value, depth + 1, viaAlias, keySpan) ?? {
          kind: 'scalar',
          value: null,
          source: '',
          quoted: false,
          span: [keySpan[1], keySpan[1]],
        };
        const prev = index.get(keyText);
        if (prev !== undefined) {
          if (!viaAlias) out.duplicateKeys.push({ key: keyText, span: keySpan, first: entries[prev]!.keySpan });
          entries[prev] = { key: keyText, keySpan, value };
        } else {
          index.set(keyText, entries.length);
          entries.push({ key: keyText, keySpan, value });
        }
        if (out.truncated) break;
      }
      for (const e of merged) {
        if (!index.has(e.key)) {
          index.set(e.key, entries.length);
          entries.push(e);
        }
      }
      return { kind: 'map', entries, span };
    }
    // Null node (empty value).
    return undefined;
  };

  const contents = doc.contents as unknown;
  out.root = contents == null ? undefined : walk(contents, 0, false, [0, 0]);
  return out;
}

/** Key index of large mappings, built on first lookup (a 10,000-key model section is scanned once, not per key). */
const entryIndexes = new WeakMap<MapNode, Map<string, MapEntry>>();
const INDEX_FROM = 32;

export function mapGet(n: TreeNode | undefined, key: string): MapEntry | undefined {
  if (!n || n.kind !== 'map') return undefined;
  if (n.entries.length < INDEX_FROM) {
    for (const e of n.entries) if (e.key === key) return e;
    return undefined;
  }
  let index = entryIndexes.get(n);
  if (!index) {
    index = new Map();
    for (const e of n.entries) index.set(e.key, e); // later duplicates win, as in the tree itself
    entryIndexes.set(n, index);
  }
  return index.get(key);
}

/** Find a node by path. Returns the node and, for a mapping value, its entry (for the key span). */
export function lookup(root: TreeNode | undefined, path: KeyPath): { node: TreeNode; entry?: MapEntry } | undefined {
  let cur: TreeNode | undefined = root;
  let entry: MapEntry | undefined;
  for (const seg of path) {
    if (!cur) return undefined;
    if (typeof seg === 'number') {
      if (cur.kind !== 'seq') return undefined;
      cur = cur.items[seg];
      entry = undefined;
    } else {
      entry = mapGet(cur, seg);
      cur = entry?.value;
    }
  }
  return cur ? { node: cur, entry } : undefined;
}

export function pathToString(path: KeyPath): string {
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else s += s ? `.${seg}` : seg;
  }
  return s;
}

export function parsePath(dotted: string): PathSeg[] {
  // The rules and the estimate look up the same few dozen dotted paths on every validation: parse each once.
  // Callers get their own copy, so they may change it.
  const hit = PATH_CACHE.get(dotted);
  if (hit) return hit.slice();
  const out = parsePathUncached(dotted);
  if (PATH_CACHE.size >= 1024) PATH_CACHE.clear();
  PATH_CACHE.set(dotted, out.slice());
  return out;
}
const PATH_CACHE = new Map<string, PathSeg[]>();

function parsePathUncached(dotted: string): PathSeg[] {
  const out: PathSeg[] = [];
  for (const part of dotted.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** Depth-first visit of every node with its path. Return false from `fn` to skip children. */
export function visit(root: TreeNode | undefined, fn: (node: TreeNode, path: PathSeg[], entry?: MapEntry) => boolean | void): void {
  const rec = (n: TreeNode, path: PathSeg[], entry?: MapEntry) => {
    if (fn(n, path, entry) === false) return;
    if (n.kind === 'map') for (const e of n.entries) rec(e.value, [...path, e.key], e);
    else if (n.kind === 'seq') n.items.forEach((it, i) => rec(it, [...path, i]));
  };
  if (root) rec(root, []);
}

/** Path of the first mapping key named `key` anywhere in the tree (depth-first), e.g. in NeMo 2.0 `_target_` trees. */
export function findKeyPath(root: TreeNode | undefined, key: string): PathSeg[] | undefined {
  let found: PathSeg[] | undefined;
  visit(root, (_n, path, e) => {
    if (found) return false;
    if (e?.key === key) {
      found = path;
      return false;
    }
    return undefined;
  });
  return found;
}

/** The plain JS value of a node as written (no interpolation). */
export function plainValue(n: TreeNode): unknown {
  if (n.kind === 'scalar') return n.value;
  if (n.kind === 'seq') return n.items.map(plainValue);
  return Object.fromEntries(n.entries.map((e) => [e.key, plainValue(e.value)]));
}
