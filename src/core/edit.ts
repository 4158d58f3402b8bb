// Minimal text edits that set one scalar (or add one key), keeping comments, key order and quoting.
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parse,
  parseAllDocuments,
  visit as yamlVisit,
  type Document,
  type Node as YNode,
  type Pair,
  type YAMLMap,
} from 'yaml';
import { pathToString } from './tree.js';
import type { KeyPath, TextEdit } from './types.js';

export type ScalarValue = string | number | boolean | null;
export type EditResult = { edit: TextEdit; error?: undefined } | { edit?: undefined; error: string };
export type EditsResult = { edits: TextEdit[]; error?: undefined } | { edits?: undefined; error: string };
export interface EditOptions {
  /** Index of the YAML document in a multi-document file (default 0). */
  doc?: number;
}

// Same parser settings as document.ts, so ranges and duplicate-key handling agree with the model.
const PARSE = { version: '1.1', uniqueKeys: false, strict: false, prettyErrors: false } as const;

/** The pair a loader keeps for `key`: the last one (PyYAML and OmegaConf let a later duplicate win). */
function pairOf(map: YAMLMap, key: string): Pair | undefined {
  for (let i = map.items.length - 1; i >= 0; i--) {
    const p = map.items[i]!;
    if (isScalar(p.key) && String(p.key.value) === key) return p;
  }
  return undefined;
}

/** Plain if both YAML 1.1 (PyYAML, OmegaConf) and 1.2 read it back as this same string. */
function plainSafe(s: string, inFlow: boolean): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must be quoted
  if (!/^[A-Za-z0-9_$/.(~+][^\n\r\t\0-\x1f\x7f-\x9f\u2028\u2029\ufeff]*$/.test(s) || s !== s.trim()) return false;
  if (/: |:$| #|^[-?:](?:\s|$)/.test(s) || s === '<<' || s === '=') return false;
  if (inFlow && /[,[\]{}]/.test(s)) return false;
  try {
    for (const version of ['1.1', '1.2'] as const) if (parse(`k: ${s}\n`, { version })?.k !== s) return false;
  } catch {
    return false;
  }
  return true;
}

// eslint-disable-next-line no-control-regex -- control characters are what this detects
const printable = (s: string) => !/[\0-\x1f\x7f-\x9f\u2028\u2029\ufeff]/.test(s);

function doubleQuoted(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are escaped here
  const esc = s.replace(/[\\"\0-\x1f\x7f-\x9f\u2028\u2029\ufeff]/g, (c) => {
    const named: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\0': '\\0' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${esc}"`;
}

/** A number as both YAML 1.1 and 1.2 read it: 1.1 floats need a dot before the exponent. */
function numberText(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (!Number.isFinite(n)) return n > 0 ? '.inf' : '-.inf';
  if (Number.isInteger(n) && Math.abs(n) >= 1e21) return BigInt(n).toString();
  const s = String(n);
  return /e/.test(s) && !/\./.test(s) ? s.replace('e', '.0e') : s;
}

interface Style {
  /** Quote type of the value being replaced, if it was quoted. */
  quote?: 'QUOTE_SINGLE' | 'QUOTE_DOUBLE';
  /** Source of the value being replaced, for boolean capitalisation. */
  source?: string;
  inFlow: boolean;
}

/** YAML text for a value; strings keep the old quote style, plain when that reads back the same. */
export function scalarText(value: ScalarValue, style: Style = { inFlow: false }): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') {
    // NeMo files write True/False: keep the file's capitalisation, both read back as booleans.
    const cap = style.source !== undefined && /^(True|False)$/.test(style.source);
    return cap ? (value ? 'True' : 'False') : String(value);
  }
  if (typeof value === 'number') return numberText(value);
  if (style.quote === 'QUOTE_SINGLE' && printable(value)) return `'${value.replace(/'/g, "''")}'`;
  if (style.quote === 'QUOTE_DOUBLE') return doubleQuoted(value);
  if (plainSafe(value, style.inFlow)) return value;
  return printable(value) ? `'${value.replace(/'/g, "''")}'` : doubleQuoted(value);
}

/** The last stream parsed: several changes (and the planner's rows) edit one text; its documents are only read here. */
const parseStream = (text: string) => parseAllDocuments(text, PARSE);
let lastParse: { text: string; docs: ReturnType<typeof parseStream> } | undefined;

function docAt(text: string, opts: EditOptions): Document.Parsed | string {
  const docs = lastParse?.text === text ? lastParse.docs : parseStream(text);
  lastParse = { text, docs };
  if (!Array.isArray(docs)) return 'not a YAML stream';
  const d = docs[opts.doc ?? 0];
  if (!d) return `no YAML document ${opts.doc ?? 0}`;
  if (d.errors.length) return 'the YAML has syntax errors; fix them first';
  return d;
}

function isReferenced(doc: Document, anchor: string): boolean {
  let hit = false;
  yamlVisit(doc, { Alias: (_k, a) => (a.source === anchor ? ((hit = true), yamlVisit.BREAK) : undefined) });
  return hit;
}

/**
 * One TextEdit that sets the scalar at `path` to `value`: it replaces exactly the old value's bytes, or,
 * when only the last key is missing from a block mapping, inserts `key: value` after its last entry
 * with the siblings' indentation. Refuses aliases, anchors in use, tags, block scalars, flow inserts.
 */
export function setScalarEdit(text: string, path: KeyPath, value: ScalarValue, opts: EditOptions = {}): EditResult {
  const at = pathToString(path);
  const doc = docAt(text, opts);
  if (typeof doc === 'string') return { error: doc };
  if (!path.length) return { error: 'empty path' };
  let node: unknown = doc.contents;
  for (let i = 0; i < path.length - 1; i++) {
    const seg = path[i]!;
    const here = pathToString(path.slice(0, i)) || 'the document root';
    if (isAlias(node)) return { error: `${here} is an alias; edit its anchor instead` };
    if (typeof seg === 'string' && isMap(node)) node = pairOf(node, seg)?.value;
    else if (typeof seg === 'number' && isSeq(node)) node = node.items[seg];
    else node = undefined;
    if (node === undefined || node === null) return { error: `${pathToString(path.slice(0, i + 1))} does not exist` };
  }
  const parent = node as YNode | null;
  const last = path[path.length - 1]!;
  const parentName = pathToString(path.slice(0, -1)) || 'the document root';
  if (isAlias(parent)) return { error: `${parentName} is an alias; edit its anchor instead` };
  let target: unknown;
  if (typeof last === 'string' && isMap(parent)) {
    const pair = pairOf(parent, last);
    if (!pair) return insertKey(text, parent, last, value, parentName);
    target = pair.value;
  } else if (typeof last === 'number' && isSeq(parent)) {
    target = parent.items[last];
    if (target === undefined) return { error: `${at}: index out of range (appending to a sequence is not supported)` };
  } else return { error: `${parentName} is not a ${typeof last === 'number' ? 'sequence' : 'mapping'}` };

  if (isAlias(target)) return { error: `${at} is an alias; edit its anchor instead` };
  if (!isScalar(target) || !target.range) return { error: `${at} is not a scalar` };
  if (target.type === 'BLOCK_LITERAL' || target.type === 'BLOCK_FOLDED') return { error: `${at} is a block scalar; edit it by hand` };
  if (target.tag) return { error: `${at} has an explicit tag (${target.tag}); edit it by hand` };
  if (target.anchor && isReferenced(doc, target.anchor))
    return { error: `${at} is anchored (&${target.anchor}) and aliased elsewhere; edit it by hand` };
  const [start, end] = target.range;
  const quote = target.type === 'QUOTE_SINGLE' || target.type === 'QUOTE_DOUBLE' ? target.type : undefined;
  let newText = scalarText(value, {
    quote,
    source: quote ? undefined : text.slice(start, end),
    inFlow: !!(parent as { flow?: boolean }).flow,
  });
  // An empty value (`key:` or `key:  # note`) needs a space after the colon and before a comment.
  if (start === end && start > 0 && !/\s/.test(text[start - 1]!)) newText = ` ${newText}`;
  if (start === end && text[end] === '#') newText = `${newText} `;
  return { edit: { span: [start, end], newText } };
}

function insertKey(text: string, map: YAMLMap, key: string, value: ScalarValue, parentName: string): EditResult {
  if (map.flow) return { error: `${parentName} is a flow mapping; add ${key} by hand` };
  const lastPair = map.items[map.items.length - 1];
  const keyNode = lastPair?.key;
  if (!lastPair || !isScalar(keyNode) || !keyNode.range) return { error: `${parentName} has no entry to align a new key with` };
  const col = keyNode.range[0] - (text.lastIndexOf('\n', keyNode.range[0] - 1) + 1);
  const valueEnd = (lastPair.value as YNode | null)?.range?.[1] ?? keyNode.range[1];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const line = `${' '.repeat(col)}${scalarText(key)}: ${scalarText(value)}`;
  // After the line that holds the end of the last entry (its trailing comment stays with it).
  if (valueEnd > 0 && text[valueEnd - 1] === '\n') return { edit: { span: [valueEnd, valueEnd], newText: line + eol } };
  const nl = text.indexOf('\n', valueEnd);
  if (nl < 0) return { edit: { span: [text.length, text.length], newText: eol + line } };
  return { edit: { span: [nl + 1, nl + 1], newText: line + eol } };
}

/** Edits for several keys at once, against the same original text, sorted and non-overlapping. */
export function editsForChanges(
  text: string,
  changes: readonly { path: KeyPath; value: ScalarValue }[],
  opts: EditOptions = {},
): EditsResult {
  const seen = new Set<string>();
  const edits: TextEdit[] = [];
  for (const c of changes) {
    const name = pathToString(c.path);
    if (seen.has(name)) return { error: `${name} is changed twice` };
    seen.add(name);
    const r = setScalarEdit(text, c.path, c.value, opts);
    if (r.error !== undefined) return { error: r.error.startsWith(name) ? r.error : `${name}: ${r.error}` };
    edits.push(r.edit);
  }
  // Stable sort keeps same-offset inserts in the order given; merge them into one edit.
  edits.sort((a, b) => a.span[0] - b.span[0] || +(a.span[1] > a.span[0]) - +(b.span[1] > b.span[0]));
  const out: TextEdit[] = [];
  for (const e of edits) {
    const prev = out[out.length - 1];
    if (prev && prev.span[0] === prev.span[1] && e.span[0] === e.span[1] && prev.span[0] === e.span[0]) {
      out[out.length - 1] = { span: prev.span, newText: prev.newText + e.newText };
      continue;
    }
    if (prev && e.span[0] < prev.span[1]) return { error: 'changes overlap' };
    out.push(e);
  }
  return { edits: out };
}

/** Apply non-overlapping edits (offsets into `text`); same-offset inserts land in the order given. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const len = (e: TextEdit) => e.span[1] - e.span[0];
  // By offset; at one offset inserts go before a replacement, and in the order given.
  const sorted = edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.span[0] - b.e.span[0] || +(len(a.e) > 0) - +(len(b.e) > 0) || a.i - b.i);
  let out = '';
  let pos = 0;
  for (const { e } of sorted) {
    if (e.span[0] < pos || e.span[1] < e.span[0] || e.span[1] > text.length) throw new RangeError('edits overlap or fall outside the text');
    out += text.slice(pos, e.span[0]) + e.newText;
    pos = e.span[1];
  }
  return out + text.slice(pos);
}
