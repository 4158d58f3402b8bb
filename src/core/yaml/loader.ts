// Re-reading a tree with the loader its format's program uses. Trees are built with PyYAML's reading (what format
// detection sees); after detection, formats read with OmegaConf (NeMo 1.x, the Launcher, NeMo 2, Megatron-Bridge,
// NeMo-RL) switch to it here. Only the scalars and mappings the builders marked as reading differently are touched.
import type { MapNode, ScalarNode, TreeNode } from '../tree.js';
import type { PathSeg, Span } from '../types.js';
import { dictEntries, LOADER_SENSITIVE, type Duplicate } from './build.js';
import { base64Bytes, timestampIso, type Loader, type PyType } from './scalars.js';

/**
 * Give every scalar and mapping key of the tree the reading of `loader`, in place (and back: it may be called again
 * with the other loader). Cost: the number of scalars and keys whose reading differs, which is none in most files.
 */
export function applyLoader(root: TreeNode | undefined, loader: Loader): void {
  if (!root) return;
  let list = LOADER_SENSITIVE.get(root);
  if (!list) {
    list = collect(root);
    LOADER_SENSITIVE.set(root, list);
  }
  for (const n of list) {
    if (n.kind === 'scalar') {
      const r = n.loaders![loader];
      n.value = r.value;
      n.type = r.type;
      if (r.error !== undefined) n.error = r.error;
      else delete n.error;
    } else n.entries = dictEntries(n.raw!, loader);
  }
}

/** The marked nodes of a tree that did not come from the builders' registration (a copy, say). */
function collect(root: TreeNode): (ScalarNode | MapNode)[] {
  const out: (ScalarNode | MapNode)[] = [];
  const seen = new Set<TreeNode>();
  const rec = (n: TreeNode) => {
    if (seen.has(n)) return;
    seen.add(n);
    if (n.kind === 'scalar') {
      if (n.loaders) out.push(n);
    } else if (n.kind === 'seq') n.items.forEach(rec);
    else {
      if (n.raw) {
        out.push(n);
        for (const e of n.raw) rec(e.value);
      }
      for (const e of n.entries) rec(e.value);
    }
  };
  rec(root);
  return out;
}

/** One node as the loader yields it: path (keys as the tree names them, indices), Python type name, JSON value. */
export type PyNode = [PathSeg[], PyType | 'dict' | 'list', unknown];

/**
 * Every node of the tree as the Python loader's result would list it (scripts/yaml-truth/dump.py writes the same
 * list from the real loaders): collections as their length, non-finite floats as 'inf', '-inf', 'nan', dates and
 * datetimes as Python's isoformat(), bytes as latin-1 text. For OmegaConf, the document as OmegaConf.load returns
 * it: nothing is an empty DictConfig, a string is a key with no value (omegaconf/omegaconf.py OmegaConf.load).
 */
export function toPyNodes(root: TreeNode | undefined, loader: Loader = 'pyyaml'): PyNode[] {
  const out: PyNode[] = [];
  const rec = (n: TreeNode, path: PathSeg[]) => {
    if (n.kind === 'map') {
      out.push([path, 'dict', n.entries.length]);
      for (const e of n.entries) rec(e.value, [...path, e.key]);
    } else if (n.kind === 'seq') {
      out.push([path, 'list', n.items.length]);
      n.items.forEach((it, i) => rec(it, [...path, i]));
    } else out.push([path, n.type, pyValue(n)]);
  };
  if (loader === 'omegaconf' && (!root || (root.kind === 'scalar' && root.type === 'NoneType'))) out.push([[], 'dict', 0]);
  else if (loader === 'omegaconf' && root?.kind === 'scalar' && root.type === 'str')
    out.push([[], 'dict', 1], [[root.value as string], 'NoneType', null]);
  else if (root) rec(root, []);
  else out.push([[], 'NoneType', null]);
  return out;
}

function pyValue(n: ScalarNode): unknown {
  const v = n.value;
  if (n.type === 'float' && typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  if ((n.type === 'date' || n.type === 'datetime') && typeof v === 'string') return timestampIso(v) ?? v;
  if (n.type === 'bytes' && typeof v === 'string') return base64Bytes(v);
  return v;
}

export interface LoadError {
  /** 'ExceptionClass: message', as Python reports it. */
  message: string;
  span: Span;
}

/**
 * Why `loader` would refuse this document (the program stops before it starts), from the tree after applyLoader:
 * scalars and keys its constructors raise on, a `<<` that merges no mapping, a key of a type it refuses, a collection
 * used as a key; and for OmegaConf, a key written twice in one mapping (its loader's duplicate-key check) and a
 * document that is a number, bool or date rather than a mapping, list, string or nothing (OmegaConf.load).
 */
export function loadErrors(root: TreeNode | undefined, duplicates: readonly Duplicate[], loader: Loader): LoadError[] {
  const out: LoadError[] = [];
  const rec = (n: TreeNode) => {
    if (n.kind === 'scalar') {
      if (n.error !== undefined) out.push({ message: n.error, span: n.span });
    } else if (n.kind === 'seq') n.items.forEach(rec);
    else {
      if (n.error !== undefined) out.push({ message: `ConstructorError: while constructing a mapping: ${n.error}`, span: n.span });
      for (const e of n.entries) {
        const err = e.keyLoaders ? e.keyLoaders[loader].error : e.keyRead?.error;
        if (err !== undefined) out.push({ message: err, span: e.keySpan });
        rec(e.value);
      }
    }
  };
  if (root) rec(root);
  if (loader === 'omegaconf') {
    for (const d of duplicates)
      if (!d.nonString) out.push({ message: `ConstructorError: while constructing a mapping: found duplicate key ${d.key}`, span: d.span });
    if (root?.kind === 'scalar' && root.type !== 'str' && root.type !== 'NoneType' && root.error === undefined)
      out.push({ message: `AssertionError: a document that is a ${root.type} is no configuration`, span: root.span });
  }
  return out.sort((a, b) => a.span[0] - b.span[0]);
}

/**
 * The loader each format's program reads its YAML with: OmegaConf for NeMo (1.x and 2.0), the Launcher, Megatron-Bridge
 * and NeMo-RL (Hydra / OmegaConf.load); `yaml.safe_load` for TensorRT-LLM's options, disaggregated and KV-retention
 * files; PyYAML too for a file that is no recipe (what detection saw).
 */
export function loaderFor(format: string | null): Loader {
  return format !== null && OMEGACONF_FORMATS.has(format) ? 'omegaconf' : 'pyyaml';
}
const OMEGACONF_FORMATS = new Set(['nemo1', 'nemo-launcher', 'nemo-launcher-main', 'nemo2', 'megatron-bridge', 'nemo-rl']);
