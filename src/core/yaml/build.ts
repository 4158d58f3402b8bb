// The pieces both tree builders (tree.ts over the `yaml` library, fastTree.ts straight from the text) make nodes
// with, so that the two give identical trees: scalar nodes read with PyYAML semantics (what format detection sees)
// plus OmegaConf's reading where it differs, mapping keys as Python dict keys, and PyYAML's merge-key flattening.
import type { MapEntry, MapNode, ScalarNode, TreeNode } from '../tree.js';
import type { Span } from '../types.js';
import {
  interpolationRefusal,
  keyIdentity,
  keyText,
  omegaconfDiffers,
  resolvePlain,
  resolveTagged,
  type Loader,
  type Resolution,
} from './scalars.js';

/** Scalar nodes and mappings whose reading depends on the loader, per tree root (see loader.ts applyLoader). */
export const LOADER_SENSITIVE = new WeakMap<TreeNode, (ScalarNode | MapNode)[]>();

/** PyYAML's reading of a scalar, and OmegaConf's where it differs (absent when it does not). */
export interface Reading {
  readonly py: Resolution;
  readonly oc?: Resolution;
}

/** A plain scalar's reading (cached: recipes repeat their keys and values, and a hit allocates nothing). */
export function readPlain(source: string): Reading {
  const hit = READINGS.get(source);
  if (hit) return hit;
  const py = resolvePlain(source, 'pyyaml');
  const bad = py.type === 'str' && py.error === undefined ? interpolationRefusal(source) : undefined;
  const r: Reading = bad ? { py, oc: bad } : omegaconfDiffers(source, py) ? { py, oc: resolvePlain(source, 'omegaconf') } : { py };
  if (READINGS.size >= 8192) READINGS.clear();
  READINGS.set(source, r);
  return r;
}
const READINGS = new Map<string, Reading>();

/** An explicitly tagged scalar's reading, per loader. */
export function readTagged(tag: string, text: string): Reading {
  const py = resolveTagged(tag, text, 'pyyaml');
  const oc = resolveTagged(tag, text, 'omegaconf');
  return sameResolution(py, oc) ? { py } : { py, oc };
}

const STR = (s: string): Resolution => ({ value: s, type: 'str' });

function sameResolution(a: Resolution, b: Resolution): boolean {
  return a.type === b.type && Object.is(a.value, b.value) && a.error === b.error;
}

/** A scalar node: the PyYAML reading in `value`/`type`/`error`, both readings in `loaders` when they differ. */
export function scalarNode(
  { py, oc }: Reading,
  source: string,
  quoted: boolean,
  span: Span,
  sensitive?: (ScalarNode | MapNode)[],
): ScalarNode {
  const n: ScalarNode = { kind: 'scalar', value: py.value, type: py.type, source, quoted, span };
  if (py.error !== undefined) n.error = py.error;
  if (oc) {
    n.loaders = { pyyaml: py, omegaconf: oc };
    sensitive?.push(n);
  }
  return n;
}

/** A quoted or block scalar: a string for every loader (OmegaConf refuses it when it holds a malformed interpolation). */
export function stringNode(value: string, source: string, quoted: boolean, span: Span, sensitive?: (ScalarNode | MapNode)[]): ScalarNode {
  const n: ScalarNode = { kind: 'scalar', value, type: 'str', source, quoted, span };
  const oc = interpolationRefusal(value);
  if (oc) {
    n.loaders = { pyyaml: STR(value), omegaconf: oc };
    sensitive?.push(n);
  }
  return n;
}

/** The null a missing value stands for (`key:` with nothing after it). */
export function nullNode(span: Span): ScalarNode {
  return { kind: 'scalar', value: null, type: 'NoneType', source: '', quoted: false, span };
}

// omegaconf/basecontainer.py: DictConfig keys must be str, bytes, int, Enum, float or bool (DictKeyType).
const OC_KEY_TYPES = new Set(['str', 'bytes', 'int', 'float', 'bool']);

/**
 * A mapping entry for a key with the given readings (PyYAML's, and OmegaConf's where it differs). A key that is a
 * plain string carries nothing more; any other carries its reading in `keyRead`.
 */
export function mapEntry({ py, oc }: Reading, keySpan: Span, value: TreeNode): MapEntry {
  const e: MapEntry = { key: keyText(py), keySpan, value };
  if (py.type !== 'str' || py.error !== undefined) e.keyRead = py;
  const ocKey = oc ?? py;
  // OmegaConf refuses a key of another type (a None key, a date from an explicit tag) when it builds the DictConfig.
  const ocRead =
    OC_KEY_TYPES.has(ocKey.type) || ocKey.error !== undefined
      ? oc
      : { value: ocKey.value, type: ocKey.type, error: `KeyValidationError: Incompatible key type '${ocKey.type}'` };
  if (ocRead) e.keyLoaders = { pyyaml: py, omegaconf: ocRead };
  return e;
}

/** The reading of a plain key (`=` is a string key: SafeConstructor.flatten_mapping retags it). */
export function readPlainKey(source: string): Reading {
  return source === '=' ? { py: STR(source) } : readPlain(source);
}

/** A string key (quoted, or a plain key that reads as a string for both loaders). */
export function strEntry(key: string, keySpan: Span, value: TreeNode): MapEntry {
  return { key, keySpan, value };
}

/** The entry for a key with this reading: a plain string key carries nothing more. */
export function keyEntry(r: Reading, keySpan: Span, value: TreeNode): MapEntry {
  return r.py.type === 'str' && r.py.error === undefined && !r.oc
    ? { key: r.py.value as string, keySpan, value }
    : mapEntry(r, keySpan, value);
}

/** The entry as `loader` names its key. */
function entryFor(e: MapEntry, loader: Loader): MapEntry {
  if (!e.keyLoaders) return e;
  const r = e.keyLoaders[loader];
  const out: MapEntry = { key: keyText(r), keySpan: e.keySpan, value: e.value };
  if (r.type !== 'str' || r.error !== undefined) out.keyRead = r;
  out.keyLoaders = e.keyLoaders;
  return out;
}

/** Python keeps the first key object and takes the later value: the later entry under the first one's key. */
function replaced(first: MapEntry, later: MapEntry): MapEntry {
  const out: MapEntry = { key: first.key, keySpan: later.keySpan, value: later.value };
  if (first.keyRead) out.keyRead = first.keyRead;
  if (first.keyLoaders) out.keyLoaders = first.keyLoaders;
  return out;
}

export interface Duplicate {
  key: string;
  span: Span;
  first: Span;
  /** Set when either key is not a string (`1:` and `true:`): PyYAML merges them, OmegaConf's duplicate check does not see them. */
  nonString?: true;
}

/**
 * A dict built from `list` in order, as SafeConstructor.construct_mapping builds it: a key equal to an earlier one
 * (Python equality: 1 == 1.0 == True) keeps the earlier key and its position and takes the later value.
 * Collisions between two entries at or after `ownFrom` (written in this mapping, not merged) go to `duplicates`.
 */
export function dictEntries(list: MapEntry[], loader: Loader, ownFrom = 0, duplicates?: Duplicate[]): MapEntry[] {
  // `out` stays undefined while the result is `list` itself (no equal keys, no key renamed by the loader): the
  // common case allocates no second array.
  let out: MapEntry[] | undefined;
  // Which list index holds each position now (a duplicate is reported only between two entries of this mapping).
  const holder: number[] = [];
  const byText = new Map<string, number>();
  let byIdentity: Map<string, number> | undefined;
  for (let i = 0; i < list.length; i++) {
    let e = list[i]!;
    if (e.keyLoaders) {
      e = entryFor(e, loader);
      if (e !== list[i]) out ??= list.slice(0, i);
    }
    const r = e.keyRead;
    // String keys by their text; other keys by Python equality (some keys equal no other: no identity).
    const id = !r || r.type === 'str' ? e.key : keyIdentity(r);
    const table = !r || r.type === 'str' ? byText : id === undefined ? undefined : (byIdentity ??= new Map());
    const pos = table?.get(id!);
    if (pos === undefined) {
      table?.set(id!, out ? out.length : i);
      if (ownFrom > 0) holder.push(i);
      out?.push(e);
      continue;
    }
    out ??= list.slice(0, i);
    if (duplicates && i >= ownFrom && (ownFrom === 0 || holder[pos]! >= ownFrom)) {
      const d: Duplicate = { key: e.key, span: e.keySpan, first: out[pos]!.keySpan };
      if (table !== byText) d.nonString = true;
      duplicates.push(d);
    }
    out[pos] = replaced(out[pos]!, e);
    if (ownFrom > 0) holder[pos] = i;
  }
  return out ?? list;
}

/**
 * A mapping node from the entries merged into it (`<<`, already in SafeConstructor.flatten_mapping's order) and its
 * own entries. Keeps the undeduplicated list when a key reads differently per loader, for applyLoader.
 */
export function mappingNode(
  merged: MapEntry[],
  own: MapEntry[],
  span: Span,
  duplicates: Duplicate[] | undefined,
  sensitive: (ScalarNode | MapNode)[] | undefined,
): MapNode {
  const list = merged.length ? merged.concat(own) : own;
  // The entries may be `list` itself: `raw` below is then the same array, which applyLoader only reads.
  const node: MapNode = { kind: 'map', entries: dictEntries(list, 'pyyaml', merged.length, duplicates), span };
  for (const e of list)
    if (e.keyLoaders) {
      node.raw = list;
      sensitive?.push(node);
      break;
    }
  return node;
}

/**
 * The entries a `<<` value contributes, in flatten_mapping's order: a mapping's entries; for a sequence of mappings,
 * the last mapping's first (so that, deduplicated in order, the earliest mapping wins). PyYAML raises on anything
 * else; that is returned as `invalid`.
 */
export function mergeSources(v: TreeNode | undefined): { entries: MapEntry[]; invalid?: string } {
  if (v?.kind === 'map') return { entries: v.raw ?? v.entries };
  if (v?.kind === 'seq') {
    const entries: MapEntry[] = [];
    for (let i = v.items.length - 1; i >= 0; i--) {
      const m = v.items[i]!;
      if (m.kind !== 'map') return { entries: [], invalid: 'expected a mapping for merging' };
      entries.push(...(m.raw ?? m.entries));
    }
    return { entries };
  }
  return { entries: [], invalid: 'expected a mapping or list of mappings for merging' };
}
