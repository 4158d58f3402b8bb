// Parse a YAML text into documents with spans, detect each document's format, resolve interpolations.
import { parseAllDocuments, type Document } from 'yaml';
import type { DocChain } from './defaultsChain.js';
import { detect, type Detection } from './detect.js';
import { embeddedBlocks, MAX_EMBEDDED } from './embedded.js';
import { hasInterpolation, NEMO_RL_RESOLVERS, resolveNode, UNRESOLVED, type ResolveContext, type Resolved } from './interpolate.js';
import { readModeline, type Modeline } from './modeline.js';
import { fastBuildTree } from './fastTree.js';
import { workerLaunch, type WorkerLaunch } from './formats/dynamoDeploy.js';
import { LAUNCHER_MOUNTS } from './formats/nemoLauncher.js';
import { buildTree, DEFAULT_TREE_LIMITS, lookup, parsePath, type TreeLimits, type TreeNode } from './tree.js';
import { LineIndex } from './lines.js';
import { applyLoader, loaderFor } from './yaml/loader.js';
import type { FormatId, KeyPath, Span } from './types.js';

export interface ParseOptions {
  /** Files longer than this (in UTF-16 code units) are not parsed. */
  maxLength?: number;
  limits?: TreeLimits;
  /** Format forced by a setting (glob association); a modeline wins over it. */
  forcedFormat?: FormatId | 'none';
  /** 'yaml' skips the fast path (fastTree.ts) and always uses the `yaml` library; for tests that compare the two. */
  parser?: 'auto' | 'yaml';
  /** false: do not read files embedded in ConfigMaps (set when parsing one, so that nothing nests). */
  embedded?: boolean;
}
export const DEFAULT_MAX_LENGTH = 5 * 1024 * 1024;

export interface YamlProblem {
  code: string;
  message: string;
  span: Span;
  severity: 'error' | 'warning';
}

export interface RecipeDoc {
  index: number;
  format: FormatId | null;
  /** Why the document has its format (or none), and where the recipe body starts. */
  detection: Detection;
  root: TreeNode | undefined;
  span: Span;
  problems: YamlProblem[];
  truncated?: { reason: 'aliases' | 'depth'; span: Span };
  duplicateKeys: { key: string; span: Span; first: Span }[];
  resolve: ResolveContext;
  /**
   * A NeMo-RL document read through its `defaults:` parents: `root` is then the merged config (nodes from parent files
   * carry spans in those files) and the chain says which file wrote each node (src/core/defaultsChain.ts).
   */
  chain?: DocChain;
  /**
   * A file embedded in a Kubernetes ConfigMap of this file (src/core/embedded.ts): its name, its ConfigMap, and the
   * text it was parsed from (the real file blanked outside the block: same offsets), which edits of it are made against.
   */
  embedded?: { name: string; configMap?: string; text: string; launch?: WorkerLaunch };
}

export interface ParsedFile {
  text: string;
  lines: LineIndex;
  modeline?: Modeline;
  docs: RecipeDoc[];
  /** Set when the file was too large to parse. */
  tooLarge?: boolean;
}

export function parseFile(text: string, opts: ParseOptions = {}): ParsedFile {
  const modeline = readModeline(text);
  const maxLength = opts.maxLength ?? DEFAULT_MAX_LENGTH;
  if (text.length > maxLength) {
    return parsedFile(text, modeline, [], true);
  }
  const forced = modeline?.format ?? opts.forcedFormat;
  const limits = opts.limits ?? DEFAULT_TREE_LIMITS;
  // Fast path: plain block YAML (what recipes are) straight to the tree, several times faster than the `yaml`
  // library's Document; it declines anything else (then the library parses) and yields the same tree when it does not.
  const fast = opts.parser === 'yaml' ? undefined : fastBuildTree(text, limits.maxDepth);
  if (fast) {
    const detection = detectWith(fast.root, forced, modeline?.format !== undefined);
    const format = detection.format;
    applyLoader(fast.root, loaderFor(format));
    const doc: RecipeDoc = {
      index: 0,
      format,
      detection,
      root: fast.root,
      span: fast.span,
      problems: [],
      duplicateKeys: fast.duplicateKeys,
      resolve: resolveContext(fast.root, format),
    };
    return parsedFile(text, modeline, withEmbedded(text, [doc], opts, forced));
  }
  let yamlDocs: Document.Parsed[];
  try {
    const parsed = parseAllDocuments(text, { version: '1.1', prettyErrors: false, uniqueKeys: false, strict: false });
    yamlDocs = Array.isArray(parsed) ? parsed : [];
  } catch (e) {
    // The parser should never throw; if it does, report it where the file starts.
    return parsedFile(text, modeline, [
      {
        index: 0,
        format: null,
        detection: detectWith(undefined, 'none', false),
        root: undefined,
        span: [0, 0],
        problems: [{ code: 'RL-YAML', severity: 'error', message: `YAML parser failed: ${(e as Error).message}`, span: [0, 0] }],
        duplicateKeys: [],
        resolve: { root: undefined, rootAliases: [] },
      },
    ]);
  }
  const docs = yamlDocs.map((d, index) => {
    const problems: YamlProblem[] = [];
    let built: ReturnType<typeof buildTree>;
    try {
      built = buildTree(d, limits, text);
    } catch (e) {
      // The yaml library should not throw while we walk its nodes; if it does, the document is reported, not the editor.
      const at = d.range?.[0] ?? 0;
      problems.push({
        code: 'RL-YAML',
        severity: 'error',
        message: `YAML document could not be read: ${(e as Error).message}`,
        span: [at, at],
      });
      built = { root: undefined, duplicateKeys: [] };
    }
    const detection = detectWith(built.root, forced, modeline?.format !== undefined);
    const format = detection.format;
    applyLoader(built.root, loaderFor(format));
    let overflowed = false;
    for (const e of d.errors) {
      // The parser ran out of stack on hostile nesting and reports it at every token after: one limit finding instead.
      if (/Maximum call stack size exceeded/.test(e.message)) {
        if (!overflowed && !built.truncated) built.truncated = { reason: 'depth', span: [e.pos[0], Math.max(e.pos[1], e.pos[0])] };
        overflowed = true;
        continue;
      }
      problems.push({
        code: 'RL-YAML',
        severity: 'error',
        message: yamlMessage(e.message),
        span: [e.pos[0], Math.max(e.pos[1], e.pos[0])],
      });
    }
    for (const w of d.warnings)
      problems.push({ code: 'RL-YAML', severity: 'warning', message: yamlMessage(w.message), span: [w.pos[0], w.pos[1]] });
    const range = d.range ?? [0, 0, 0];
    return {
      index,
      format,
      detection,
      root: built.root,
      span: [range[0], range[1]] as Span,
      problems,
      truncated: built.truncated,
      duplicateKeys: built.duplicateKeys,
      resolve: resolveContext(built.root, format),
    } satisfies RecipeDoc;
  });
  return parsedFile(text, modeline, withEmbedded(text, docs, opts, forced));
}

/**
 * The documents, then the recognised files embedded in their ConfigMaps (Dynamo's deploy.yaml: each worker's
 * TensorRT-LLM options under `data:`), each a document of its own; none when a modeline or a setting forces a format.
 */
function withEmbedded(text: string, docs: RecipeDoc[], opts: ParseOptions, forced: FormatId | 'none' | undefined): RecipeDoc[] {
  if (opts.embedded === false || forced !== undefined) return docs;
  const out = [...docs];
  let left = MAX_EMBEDDED;
  for (const d of docs) {
    if (left <= 0) break;
    if (d.format || !d.root || d.truncated) continue;
    const blocks = embeddedBlocks(text, d.root, left);
    left -= blocks.length;
    for (const b of blocks) {
      const inner = parseFile(b.text, { ...opts, forcedFormat: undefined, embedded: false }).docs;
      const e = inner.length === 1 ? inner[0]! : undefined;
      if (!e?.format) continue;
      const where = `${b.name} of ConfigMap ${b.configMap ?? '(unnamed)'}`;
      const launch = workerLaunch(
        docs.map((x) => x.root),
        b.name,
      );
      out.push({
        ...e,
        index: out.length,
        span: b.span,
        detection: { ...e.detection, evidence: [`a file embedded in a ConfigMap: ${where}`, ...e.detection.evidence] },
        embedded: { name: b.name, ...(b.configMap ? { configMap: b.configMap } : {}), text: b.text, ...(launch ? { launch } : {}) },
      });
    }
  }
  return out;
}

/** Where edits of a document are computed: its own parsed text and index (a ConfigMap's embedded file is document 0 of its text). */
export function editTarget(text: string, doc: RecipeDoc): { text: string; doc: number } {
  return doc.embedded ? { text: doc.embedded.text, doc: 0 } : { text, doc: doc.index };
}

/** How a format's loader resolves `${…}`: launcher recipes are mounted under `training`; NeMo-RL registers its own resolvers. */
function resolveContext(root: TreeNode | undefined, format: FormatId | null): ResolveContext {
  return {
    root,
    rootAliases: format === 'nemo-launcher' ? LAUNCHER_MOUNTS : [],
    ...(format === 'nemo-rl' ? { resolvers: NEMO_RL_RESOLVERS } : {}),
  };
}

/** Detection, unless a modeline or a setting names the format (then the content's reading still gives the body's base). */
function detectWith(root: TreeNode | undefined, forced: FormatId | 'none' | undefined, byModeline: boolean): Detection {
  if (forced === 'none')
    return { format: null, base: [], evidence: [byModeline ? 'modeline format=none' : 'setting: no format'], others: [], score: 0 };
  const read = detect(root);
  if (!forced) return read;
  const evidence = [byModeline ? `modeline format=${forced}` : `recipeLens.formatAssociations: ${forced}`];
  return { format: forced, base: read.format === forced ? read.base : [], evidence, others: [], score: read.score };
}

/** The line index is built on first use: a file without findings never needs one (8% of a 10,000-line validation). */
function parsedFile(text: string, modeline: Modeline | undefined, docs: RecipeDoc[], tooLarge?: boolean): ParsedFile {
  let index: LineIndex | undefined;
  const f: ParsedFile = {
    text,
    get lines() {
      return (index ??= new LineIndex(text));
    },
    modeline,
    docs,
  };
  if (tooLarge) f.tooLarge = true;
  return f;
}

function yamlMessage(m: string): string {
  // The yaml library appends a source excerpt after a blank line; keep the first line.
  return m.split('\n')[0]!.trim();
}

/** The resolved value at a path: interpolations evaluated, `UNRESOLVED` where that is impossible. */
export function valueAt(doc: RecipeDoc, path: KeyPath | string): Resolved | undefined {
  const p = typeof path === 'string' ? parsePath(path) : path;
  const hit = lookup(doc.root, p);
  if (!hit) return undefined;
  if (hit.node.kind !== 'scalar') return UNRESOLVED;
  return resolveNode(doc.resolve, hit.node, p);
}

/** Plain JSON data for schema validation; interpolations resolved where possible, else left as text. */
export function toData(doc: RecipeDoc, from: TreeNode | undefined = doc.root, at: KeyPath = []): unknown {
  // One path stack for the whole walk (copied only for a scalar that has an interpolation to resolve), and plain
  // property writes: a fresh path array per node and defineProperty per key were most of this walk's cost.
  const path: (string | number)[] = [...at];
  const rec = (n: TreeNode): unknown => {
    if (n.kind === 'scalar') {
      if (typeof n.value !== 'string' || !hasInterpolation(n.value)) return n.value;
      const v = resolveNode(doc.resolve, n, path.slice());
      return v === UNRESOLVED ? n.value : v;
    }
    if (n.kind === 'seq') {
      const out = new Array<unknown>(n.items.length);
      for (let i = 0; i < n.items.length; i++) {
        path.push(i);
        out[i] = rec(n.items[i]!);
        path.pop();
      }
      return out;
    }
    const o: Record<string, unknown> = {};
    for (const e of n.entries) {
      path.push(e.key);
      const v = rec(e.value);
      path.pop();
      // A key named `__proto__` must stay data, never reach the prototype: defineProperty for that one.
      if (e.key === '__proto__') Object.defineProperty(o, e.key, { value: v, enumerable: true, writable: true, configurable: true });
      else o[e.key] = v;
    }
    return o;
  };
  return from ? rec(from) : null;
}
