// NeMo-RL `defaults:` chains: a config names parent files (a string or a list) relative to its own directory; the
// parents load first (each with its own chain), merge in order, and the child's keys override them; mappings merge key
// by key, lists and scalars replace, `???` keeps the parent's value, `_override_: true` on a top-level section drops
// the parent's section. Interpolations are resolved afterwards, on the merged config (so a parent's
// `${policy.model_name}` sees the child's value). Source: nemo_rl/utils/config.py load_config_with_inheritance,
// merge_with_override and register_omegaconf_resolvers at NVIDIA-NeMo/RL 7ea279a; OmegaConf 2.3 BaseContainer._map_merge.
// The core reads no file: the host passes a reader; every file the chain tried is recorded so a host can tell a stale
// merge (a parent changed on disk) from a current one.
import { parseFile } from './document.js';
import { LineIndex } from './lines.js';
import { lookup, mapGet, visit, type MapEntry, type MapNode, type TreeNode } from './tree.js';
import type { Finding, KeyPath, Range, RelatedInfo, Span } from './types.js';

/** What the host gives the chain: the document's path and a way to read another file (undefined: missing or unreadable). */
export interface ChainHost {
  path?: string;
  readFile?: (path: string) => string | undefined;
  parser?: 'auto' | 'yaml';
}

/** A file the chain tried to read, and what it read (undefined: missing or unreadable). */
export interface ChainSource {
  path: string;
  text: string | undefined;
}

export interface ChainFile {
  /** Normalized path ('' for a document the host gave no path). */
  path: string;
  /** The path relative to the document's directory, as messages and hovers show it. */
  name: string;
  root: TreeNode | undefined;
  lines: LineIndex;
}

/** A document merged with its parents: the view NeMo-RL runs with. */
export interface DocChain {
  /** files[0] is the document; the others are the parents read, in the order they were loaded. */
  files: ChainFile[];
  /** Every parent tried (read or not), in load order. */
  sources: ChainSource[];
  /** The merged config (`defaults` removed, as load_config pops it). */
  root: TreeNode | undefined;
  /** The parents merged without the document: what the document's own keys override. */
  base: TreeNode | undefined;
  /** The `defaults:` value in the document: findings about inherited values are placed here. */
  anchor: Span;
  /** Every parent was read and merged: a key the merged view lacks is really absent. */
  complete: boolean;
  findings: Finding[];
  /** File index (into `files`) of each node and entry of the merged tree. */
  origin: WeakMap<object, number>;
}

/** Where an inherited node was written: its file, spans in that file, and the range of its key. */
export interface Inherited {
  file: string;
  name: string;
  keySpan: Span;
  valueSpan: Span;
  range: Range;
}

/** Parent files deeper than this are not followed (NeMo-RL has no bound; real chains are 1–3 deep). */
export const MAX_CHAIN_DEPTH = 16;
/** Files loaded for one document at most (a diamond loads a file twice, as NeMo-RL does). */
export const MAX_CHAIN_FILES = 64;

// ---------------------------------------------------------------------------------------------------------------
// Paths (pure: the host's paths, `/` or `\` separated, absolute or not)

const slashes = (p: string) => p.replace(/\\/g, '/');
const isAbsolute = (p: string) => /^(\/|[A-Za-z]:\/)/.test(slashes(p));

/** `a/b/../c/./d` → `a/c/d`, keeping a leading `/` or drive. */
export function normalizePath(p: string): string {
  const s = slashes(p);
  const root = /^([A-Za-z]:)?\//.exec(s)?.[0] ?? '';
  const out: string[] = [];
  for (const seg of s.slice(root.length).split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (seg !== '..' || !root) out.push(seg);
  }
  return root + out.join('/');
}

export const dirOf = (p: string) => {
  const s = normalizePath(p);
  const i = s.lastIndexOf('/');
  return i < 0 ? '' : i === 0 ? '/' : s.slice(0, i);
};

/** nemo_rl/utils/config.py resolve_path: an absolute parent as it is, else relative to the naming file's directory. */
export const resolveParent = (dir: string, name: string) => normalizePath(isAbsolute(name) || !dir ? name : `${dir}/${name}`);

/** `to` relative to the directory `from` (both normalized), for messages. */
export function relativePath(from: string, to: string): string {
  if (!from) return to;
  const a = from.split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === 0 && isAbsolute(to)) return to;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/') || '.';
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing parents (cached by path and text: a parent is re-read on every keystroke of its child)

interface ParsedParent {
  root: TreeNode | undefined;
  lines: LineIndex;
  problem?: string;
}
const PARSED = new Map<string, ParsedParent>();
const PARSED_MAX = 32;

function parseParent(path: string, text: string, parser: ChainHost['parser']): ParsedParent {
  const key = `${path}\0${text}`;
  const hit = PARSED.get(key);
  if (hit) return hit;
  const parsed = parseFile(text, { forcedFormat: 'nemo-rl', parser });
  const doc = parsed.docs[0];
  const lines = parsed.lines;
  let out: ParsedParent;
  if (parsed.tooLarge) out = { root: undefined, lines, problem: 'it is too large to read' };
  else if (!doc) out = { root: undefined, lines, problem: 'it is empty' };
  else {
    const err = doc.problems.find((p) => p.severity === 'error');
    if (err)
      out = { root: undefined, lines, problem: `it has a YAML error at line ${lines.positionAt(err.span[0]).line + 1}: ${err.message}` };
    else if (doc.truncated) out = { root: undefined, lines, problem: 'it hits a nesting or alias limit' };
    else if (doc.root?.kind !== 'map') out = { root: undefined, lines, problem: 'it is not a mapping (NeMo-RL asserts a DictConfig)' };
    else out = { root: doc.root, lines };
  }
  if (PARSED.size >= PARSED_MAX) PARSED.delete(PARSED.keys().next().value!);
  PARSED.set(key, out);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Merging (OmegaConf.merge as merge_with_override calls it)

const isMissingValue = (n: TreeNode) => n.kind === 'scalar' && n.value === '???';

/** The mapping without `key` (a new node; the entries are shared). */
function without(map: MapNode, key: string, origin: WeakMap<object, number>): MapNode {
  const out: MapNode = { kind: 'map', entries: map.entries.filter((e) => e.key !== key), span: map.span };
  origin.set(out, origin.get(map) ?? 0);
  return out;
}

/** OmegaConf._map_merge: `over` merged onto `base`; new nodes only where both sides hold a mapping. */
function mergeNodes(base: TreeNode | undefined, over: TreeNode, origin: WeakMap<object, number>): TreeNode {
  if (!base || base.kind !== 'map' || over.kind !== 'map') return over;
  // A key the child adds goes after the parent's keys; one it overrides keeps the parent's position (a Python dict).
  const entries = base.entries.slice();
  const index = new Map(entries.map((e, i) => [e.key, i]));
  for (const e of over.entries) {
    const i = index.get(e.key);
    if (i === undefined) {
      index.set(e.key, entries.push(e) - 1);
      continue;
    }
    const before = entries[i]!;
    // A `???` (mandatory missing) value keeps the value it is merged onto.
    if (isMissingValue(e.value)) continue;
    if (before.value.kind === 'map' && e.value.kind === 'map') {
      const merged: MapEntry = { ...e, value: mergeNodes(before.value, e.value, origin) };
      origin.set(merged, origin.get(e) ?? 0);
      entries[i] = merged;
    } else entries[i] = e;
  }
  const out: MapNode = { kind: 'map', entries, span: over.span };
  origin.set(out, origin.get(over) ?? 0);
  return out;
}

/** merge_with_override: a top-level section of `over` with `_override_: true` replaces the base's section. */
function mergeWithOverride(base: TreeNode | undefined, over: TreeNode, origin: WeakMap<object, number>): TreeNode {
  if (over.kind !== 'map' || !base || base.kind !== 'map') return mergeNodes(base, over, origin);
  let b: MapNode = base;
  let o: MapNode = over;
  for (const e of over.entries) {
    const marker = e.value.kind === 'map' ? mapGet(e.value, '_override_') : undefined;
    if (!marker || marker.value.kind !== 'scalar' || !marker.value.value) continue;
    b = without(b, e.key, origin);
    const section = without(e.value as MapNode, '_override_', origin);
    const entry: MapEntry = { ...e, value: section };
    origin.set(entry, origin.get(e) ?? 0);
    o = { ...o, entries: o.entries.map((x) => (x === e ? entry : x)) };
    origin.set(o, origin.get(over) ?? 0);
  }
  return mergeNodes(b, o, origin);
}

// ---------------------------------------------------------------------------------------------------------------
// Loading

/** The `defaults:` value of a document: the names it lists, each with its span. */
function defaultsOf(root: TreeNode | undefined): { entry: MapEntry; names: { name: string; span: Span }[]; bad?: string } | undefined {
  const entry = mapGet(root, 'defaults');
  if (!entry) return undefined;
  const v = entry.value;
  // load_config_with_inheritance: a string is one parent, a list is str() of each item.
  if (v.kind === 'scalar' && typeof v.value === 'string') return { entry, names: [{ name: v.value, span: v.span }] };
  if (v.kind === 'seq') {
    const names: { name: string; span: Span }[] = [];
    for (const it of v.items) {
      if (it.kind !== 'scalar' || it.value === null) return { entry, names: [], bad: 'a list item that is not a file name' };
      names.push({ name: String(it.value), span: it.span });
    }
    return { entry, names };
  }
  return {
    entry,
    names: [],
    bad: `${v.kind === 'map' ? 'a mapping' : v.kind === 'scalar' && v.value === null ? 'null' : 'not a file name'}`,
  };
}

/** Mark every node and entry of a file's tree with the file's index. */
function markOrigin(root: TreeNode | undefined, index: number, origin: WeakMap<object, number>): void {
  visit(root, (n, _p, e) => {
    if (!origin.has(n)) origin.set(n, index);
    if (e && !origin.has(e)) origin.set(e, index);
  });
}

/**
 * The document merged with its `defaults:` parents, or undefined when it names none. Parents come from `host.readFile`;
 * without a path or a reader nothing is read and the chain is incomplete (an information on the `defaults:` value).
 */
export function loadChain(root: TreeNode | undefined, docLines: LineIndex, host: ChainHost): DocChain | undefined {
  const own = defaultsOf(root);
  if (!own) return undefined;
  const selfPath = host.path ? normalizePath(host.path) : '';
  const selfDir = selfPath ? dirOf(selfPath) : '';
  const origin = new WeakMap<object, number>();
  const files: ChainFile[] = [{ path: selfPath, name: selfPath ? relativePath(selfDir, selfPath) : '(this file)', root, lines: docLines }];
  const sources: ChainSource[] = [];
  const findings: Finding[] = [];
  const anchor: Span = own.entry.value.span;
  let complete = true;
  let chainBase: TreeNode | undefined;
  let bounded = false;
  let tried = 0;
  markOrigin(root, 0, origin);
  const related = (file: number, span: Span, message: string): RelatedInfo => ({
    path: 'defaults',
    span,
    file: files[file]!.path,
    range: files[file]!.lines.rangeOf(span),
    message,
  });
  const report = (severity: Finding['severity'], message: string, at: Span, via?: RelatedInfo) => {
    findings.push({ code: 'RL-DEFAULTS', severity, message, path: 'defaults', span: at, ...(via ? { related: [via] } : {}) });
  };

  /** A file's config with its parents merged under it (`defaults` popped), as load_config_with_inheritance returns it. */
  const load = (index: number, fileRoot: TreeNode | undefined, dir: string, stack: string[]): TreeNode | undefined => {
    const d = defaultsOf(fileRoot);
    if (!d || fileRoot?.kind !== 'map') return fileRoot;
    const body = without(fileRoot, 'defaults', origin);
    const at = (span: Span) => (index === 0 ? span : anchor);
    const via = (span: Span) => (index === 0 ? undefined : related(index, span, `\`defaults:\` of ${files[index]!.name}`));
    const whose = index === 0 ? '' : ` (named by ${files[index]!.name})`;
    if (d.bad) {
      complete = false;
      report(
        'warning',
        `\`defaults:\` must be a file name or a list of file names, got ${d.bad}${whose}; no parent is merged`,
        at(d.entry.value.span),
        via(d.entry.value.span),
      );
      return body;
    }
    let base: TreeNode | undefined;
    for (const { name, span } of d.names) {
      // A hostile list of thousands of names: past the bound, one warning and nothing more.
      if (++tried > MAX_CHAIN_FILES) {
        complete = false;
        if (!bounded)
          report('warning', `\`defaults:\` names more than ${MAX_CHAIN_FILES} parents; the rest are not followed`, at(span), via(span));
        bounded = true;
        continue;
      }
      if (!selfPath && !isAbsolute(name)) {
        complete = false;
        report(
          'info',
          `parent \`${name}\` is not read: this file has no path here (unsaved?), so values it would set are unknown and the rules that need them say nothing`,
          at(span),
          via(span),
        );
        continue;
      }
      if (!host.readFile) {
        complete = false;
        report(
          'info',
          `parent \`${name}\` is not read (this host gives no file access): values it would set are unknown and the rules that need them say nothing`,
          at(span),
          via(span),
        );
        continue;
      }
      const path = resolveParent(dir, name);
      const shown = relativePath(selfDir, path);
      if (stack.includes(path)) {
        complete = false;
        const cycle = [...stack.slice(stack.indexOf(path)), path].map((p) => relativePath(selfDir, p) || p).join(' → ');
        report('error', `\`defaults:\` cycle ${cycle}: NeMo-RL's load_config recurses without end (RecursionError)`, at(span), via(span));
        continue;
      }
      if (stack.length > MAX_CHAIN_DEPTH || sources.length >= MAX_CHAIN_FILES) {
        complete = false;
        // One finding for every parent past the bound, so a hostile list costs nothing more.
        if (bounded) continue;
        bounded = true;
        report(
          'warning',
          `parent \`${shown}\` is not followed: the chain is deeper than ${MAX_CHAIN_DEPTH} files or reads more than ${MAX_CHAIN_FILES}; values it would set are unknown`,
          at(span),
          via(span),
        );
        continue;
      }
      const text = host.readFile(path);
      sources.push({ path, text });
      if (text === undefined) {
        complete = false;
        report(
          'info',
          `parent \`${name}\`${whose} could not be read (${shown}): values it would set are unknown here and the rules that need them say nothing`,
          at(span),
          via(span),
        );
        continue;
      }
      const parsed = parseParent(path, text, host.parser);
      if (!parsed.root) {
        complete = false;
        report('warning', `parent \`${shown}\`${whose} is not merged: ${parsed.problem}`, at(span), via(span));
        continue;
      }
      const fileIndex = files.push({ path, name: shown, root: parsed.root, lines: parsed.lines }) - 1;
      markOrigin(parsed.root, fileIndex, origin);
      const merged = load(fileIndex, parsed.root, dirOf(path), [...stack, path]);
      if (merged) base = base ? mergeWithOverride(base, merged, origin) : merged;
    }
    if (index === 0) chainBase = base;
    return base ? mergeWithOverride(base, body, origin) : body;
  };
  const merged = load(0, root, selfDir, selfPath ? [selfPath] : []);
  return { files, sources, root: merged, base: chainBase, anchor, complete, findings, origin };
}

/** Where a node or entry of the merged tree was written, when that is a parent file (undefined: the document itself). */
export function inheritedFrom(chain: DocChain, entry: MapEntry | undefined, node: TreeNode): Inherited | undefined {
  const i = chain.origin.get(entry ?? node) ?? 0;
  if (i === 0) return undefined;
  const f = chain.files[i]!;
  const keySpan = entry?.keySpan ?? node.span;
  return { file: f.path, name: f.name, keySpan, valueSpan: node.span, range: f.lines.rangeOf(keySpan) };
}

/** The value the document's key at `path` overrides, and where the parent wrote it (for hovers). */
export function overridden(chain: DocChain, path: KeyPath): { node: TreeNode; at: Inherited } | undefined {
  const hit = lookup(chain.base, path);
  if (!hit) return undefined;
  const at = inheritedFrom(chain, hit.entry, hit.node);
  return at ? { node: hit.node, at } : undefined;
}
