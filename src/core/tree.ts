// The document model: a small, alias-expanded tree over the `yaml` AST that keeps every node's span. Scalars and
// mapping keys read as the consuming Python program reads them (src/core/yaml/: PyYAML's safe_load as built,
// OmegaConf's loader after applyLoader), not as the `yaml` library's YAML 1.1 schema would.
import { isAlias, isMap, isScalar, isSeq, type Document, type Node as YNode } from 'yaml';
import {
  mappingNode,
  mapEntry,
  mergeSources,
  nullNode,
  readPlain,
  readPlainKey,
  keyEntry,
  readTagged,
  scalarNode,
  stringNode,
  strEntry,
  LOADER_SENSITIVE,
  type Duplicate,
} from './yaml/build.js';
import type { Loader, PyType, Resolution } from './yaml/scalars.js';
import type { KeyPath, PathSeg, Span } from './types.js';

export interface ScalarNode {
  kind: 'scalar';
  /**
   * The loader's value in JS form: string, number (Python int or float, see `type`), boolean or null. A date or
   * datetime (PyYAML's timestamps) keeps its text: JSON has no date type, and a schema that expects a string must
   * accept what the program reads without complaint.
   */
  value: string | number | boolean | null;
  /** The Python type the loader yields: 'int' and 'float' tell `1` from `1.0`; 'date'/'datetime' mark timestamps. */
  type: PyType;
  /** Source text as written (quotes included), for interpolation and messages. */
  source: string;
  /** Whether the scalar was quoted: a quoted `'16'` is a string for every loader. */
  quoted: boolean;
  span: Span;
  /** Set when the loader raises on this scalar (e.g. PyYAML on `2024-02-30`): the file does not load at all. */
  error?: string;
  /** Both loaders' readings, present only where they differ (`1e5`: a string to PyYAML, a float to OmegaConf). */
  loaders?: Record<Loader, Resolution>;
}
export interface MapEntry {
  /** The key's name: the string itself, or for a key of another type as json.dumps names it (`1`, `true`, `null`). */
  key: string;
  keySpan: Span;
  value: TreeNode;
  /** The key's reading when it is not a plain string (an int, bool, None, float or date key, or one that fails). */
  keyRead?: Resolution;
  /** Both loaders' readings of the key, present only where they differ. */
  keyLoaders?: Record<Loader, Resolution>;
}
export interface MapNode {
  kind: 'map';
  entries: MapEntry[];
  span: Span;
  /** Every entry before Python's dict merged equal keys (merged `<<` entries first), kept when keys read per loader. */
  raw?: MapEntry[];
  /** Set when the loader raises on this mapping (a `<<` whose value is not a mapping or a list of mappings). */
  error?: string;
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
  /** Keys that occur twice in one mapping (equal as Python dict keys; the later value wins, like PyYAML). */
  duplicateKeys: Duplicate[];
}

function spanOf(n: YNode | null | undefined, fallback: Span): Span {
  const r = n?.range;
  return r ? [r[0], r[1]] : fallback;
}

const isQuoted = (n: { type?: string }) => n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE';
const isPlain = (n: { type?: string }) => n.type === 'PLAIN';

/** Convert one parsed `yaml` document into a TreeNode tree, read with PyYAML's semantics (see yaml/loader.ts). */
export function buildTree(doc: Document, limits: TreeLimits = DEFAULT_TREE_LIMITS, fileText?: string): TreeBuild {
  const out: TreeBuild = { root: undefined, duplicateKeys: [] };
  let aliasBudget = limits.maxAliasExpansion;
  const sensitive: (ScalarNode | MapNode)[] = [];

  /** A scalar of the `yaml` library, read from its text (the library's own YAML 1.1 typing is not PyYAML's). */
  const scalar = (n: YNode & { source?: unknown; type?: string; value: unknown }, span: Span): ScalarNode => {
    const text = typeof n.source === 'string' ? n.source : String(n.value ?? '');
    const tag = n.tag;
    if (tag) {
      return scalarNode(readTagged(tag, text), text, isQuoted(n), span, sensitive);
    }
    if (isPlain(n)) {
      return scalarNode(readPlain(text), text, false, span, sensitive);
    }
    // Quoted and block scalars are strings for every loader.
    let v = String(n.value);
    // A block scalar that ends the file without a line break has none to keep: PyYAML's `|` / `|+` give "x" where the
    // `yaml` library gives "x\n" (scanner.py scan_block_scalar: chomping keeps only line breaks that are there).
    const r = n.range;
    if (fileText !== undefined && r && !isQuoted(n) && v.endsWith('\n') && r[1] >= fileText.length && !/[\n\r]$/.test(fileText))
      v = v.slice(0, -1);
    return stringNode(v, isQuoted(n) ? v : text, isQuoted(n), span, sensitive);
  };

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
      if (!target) return nullNode(span);
      const t = walk(target, depth + 1, true, span);
      // The alias stands where it is written: report its own span, not the anchor's (the node is this walk's own).
      if (t) t.span = span;
      return t;
    }
    if (isScalar(n)) return scalar(n, spanOf(n, at));
    if (isSeq(n)) {
      const span = spanOf(n, at);
      const items: TreeNode[] = [];
      for (const it of n.items) {
        const c = walk(it, depth + 1, viaAlias, span);
        if (c) items.push(c);
        else if (out.truncated) break;
        // A null item (`-` alone) is None to the loaders.
        else items.push(nullNode(spanOf(it as YNode | null, [span[1], span[1]])));
      }
      return { kind: 'seq', items, span };
    }
    if (isMap(n)) {
      const span = spanOf(n, at);
      const own: MapEntry[] = [];
      const merged: MapEntry[] = [];
      let error: string | undefined;
      for (const pair of n.items) {
        let k = pair.key as YNode | null;
        const keySpan = spanOf(k, span);
        if (isAlias(k)) k = (k.resolve(doc) as YNode | undefined) ?? null;
        if (isScalar(k) && !k.tag && isPlain(k) && k.source === '<<') {
          // YAML 1.1 merge key, flattened as SafeConstructor.flatten_mapping does (mergeSources).
          const m = mergeSources(walk(pair.value, depth + 1, viaAlias, keySpan));
          merged.push(...m.entries);
          if (m.invalid) error ??= m.invalid;
          if (out.truncated) break;
          continue;
        }
        const value = walk(pair.value, depth + 1, viaAlias, keySpan) ?? nullNode([keySpan[1], keySpan[1]]);
        if (k && !isScalar(k)) {
          // A collection used as a key (`? [a, b]: x`) is named by its offset (PyYAML refuses it: unhashable key).
          const unhashable: Resolution = {
            value: `<complex key at ${keySpan[0]}>`,
            type: 'str',
            error: 'ConstructorError: while constructing a mapping: found unhashable key',
          };
          own.push(mapEntry({ py: unhashable }, keySpan, value));
        } else if (!k || (isPlain(k) && !k.tag)) {
          own.push(keyEntry(readPlainKey(k ? String(k.source ?? k.value ?? '') : ''), keySpan, value));
        } else if (k.tag) {
          own.push(keyEntry(readTagged(k.tag, String(k.source ?? k.value)), keySpan, value));
        } else {
          // Quoted and block scalar keys are strings.
          own.push(strEntry(String(k.value), keySpan, value));
        }
        if (out.truncated) break;
      }
      const node = mappingNode(merged, own, span, viaAlias ? undefined : out.duplicateKeys, sensitive);
      if (error) node.error = error;
      return node;
    }
    // Null node (empty value).
    return undefined;
  };

  const contents = doc.contents as unknown;
  out.root = contents == null ? undefined : walk(contents, 0, false, [0, 0]);
  if (out.root) LOADER_SENSITIVE.set(out.root, sensitive);
  // Mappings report their duplicates when they close (inner ones first): list them in text order.
  if (out.duplicateKeys.length > 1) out.duplicateKeys.sort((a, b) => a.span[0] - b.span[0]);
  return out;
}

/** Key index of large mappings, built on first lookup (a 10,000-key model section is scanned once, not per key). */
// Keyed by the entries array: applyLoader gives a mapping a new one, which drops a stale index with it.
const entryIndexes = new WeakMap<MapEntry[], Map<string, MapEntry>>();
const INDEX_FROM = 32;

/** Whether a node is a mapping. */
export const isMapNode = (n: TreeNode | undefined): n is MapNode => n?.kind === 'map';

/** The value under `key` of a mapping (undefined for anything else). */
export const childNode = (n: TreeNode | undefined, key: string): TreeNode | undefined => mapGet(n, key)?.value;

export function mapGet(n: TreeNode | undefined, key: string): MapEntry | undefined {
  if (!n || n.kind !== 'map') return undefined;
  if (n.entries.length < INDEX_FROM) {
    for (const e of n.entries) if (e.key === key) return e;
    return undefined;
  }
  let index = entryIndexes.get(n.entries);
  if (!index) {
    index = new Map();
    for (const e of n.entries) index.set(e.key, e); // later duplicates win, as in the tree itself
    entryIndexes.set(n.entries, index);
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
