// Schema validation (Ajv validators compiled at build time, or a generated schema read at run time), and the mapping of every
// error to the YAML node it is about, rewritten as a message a person can act on.
import * as V from '../../gen/validators.js';
import type { AjvError, ValidateFn } from '../../gen/validators.js';
import { translateData } from './automodelLoader.js';
import { toData, type RecipeDoc } from './document.js';
import { hasInterpolation, resolveNode, UNRESOLVED } from './interpolate.js';
import { interpretSchema } from './schemaInterpret.js';
import {
  infoOf,
  keysOf,
  locateChild,
  locateRoot,
  matchesPatternKey,
  mergeInfo,
  rootAliases,
  SCHEMAS,
  type Located,
  type PropertyInfo,
} from './schemaNav.js';
import { closest, closestAcross, KeyIndex } from './suggest.js';
import { isLlmArgsTop, isTrtllm, legacyValueVerdict, releaseVerdict, shipped, unknownKeyVerdict } from './trtllmCheck.js';
import { coerceLax } from './trtllmLax.js';
import { lookup, pathToString, type MapEntry, type MapNode, type TreeNode } from './tree.js';
import type { Finding, FormatId, PathSeg, Severity } from './types.js';
import type { TargetRelease } from './versions.js';

// Ajv's compiled validators (gen/validators.js), for every schema but those read at run time: a schema generated from
// hundreds of upstream fields says `"x-interpreted": true` (src/core/schemaInterpret.ts, built on first use).
const COMPILED: Partial<Record<FormatId, ValidateFn>> = {
  nemo1: V.nemo1,
  'nemo-launcher': V.nemoLauncher,
  'nemo-launcher-main': V.nemoLauncherMain,
  nemo2: V.nemo2,
  'nemo-rl': V.nemoRl,
  automodel: V.automodel,
  'trtllm-options': V.trtllmOptions,
  'trtllm-disagg': V.trtllmDisagg,
  'trtllm-perf': V.trtllmPerf,
  'kv-retention': V.kvRetention,
};

const interpreted = new Map<FormatId, ValidateFn>();
function validatorFor(format: FormatId): ValidateFn {
  if (SCHEMAS[format]['x-interpreted'] !== true) {
    const v = COMPILED[format];
    if (!v) throw new Error(`no compiled validator for ${format}`);
    return v;
  }
  let fn = interpreted.get(format);
  if (!fn) interpreted.set(format, (fn = interpretSchema(SCHEMAS[format])));
  return fn;
}

function pointerToPath(ptr: string): PathSeg[] {
  if (!ptr) return [];
  return ptr
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** A scalar OmegaConf fills in later (`${…}` it could not resolve here, or `???`): never judged. */
export function isDeferred(n: TreeNode | undefined): boolean {
  if (!n || n.kind !== 'scalar' || typeof n.value !== 'string') return false;
  return hasInterpolation(n.value) || n.value.trim() === '???';
}

const keyName = (path: readonly PathSeg[]) => {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return pathToString(path.slice(i));
  return pathToString(path) || 'the document';
};

export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return String(v);
}

function typePhrase(types: readonly string[]): string {
  const word: Record<string, string> = {
    integer: 'an integer',
    number: 'a number',
    string: 'a string',
    boolean: 'a boolean (true/false)',
    object: 'a mapping',
    array: 'a list',
    null: 'null',
  };
  return types.map((t) => word[t] ?? t).join(' or ');
}

function valueKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'number') return Number.isInteger(v) ? `the integer ${v}` : `the number ${v}`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  return `${typeof v} ${String(v)}`;
}

function boundPhrase(info: PropertyInfo | undefined, types: string[]): string {
  const parts: string[] = [];
  if (info?.minimum !== undefined) parts.push(`≥ ${info.minimum}`);
  if (info?.exclusiveMinimum !== undefined) parts.push(`> ${info.exclusiveMinimum}`);
  if (info?.maximum !== undefined) parts.push(`≤ ${info.maximum}`);
  if (info?.exclusiveMaximum !== undefined) parts.push(`< ${info.exclusiveMaximum}`);
  const t = types.filter((x) => x !== 'null');
  return `${t.length ? typePhrase(t) + ' ' : ''}${parts.join(' and ')}`.trim();
}

/** Unknown-key findings listed per document; past this, one information line counts the rest. */
export const MAX_UNKNOWN_KEYS = 200;

const entryIndex = new WeakMap<MapNode, Map<string, MapEntry>>();
function entryOf(node: MapNode, key: string): MapEntry | undefined {
  let m = entryIndex.get(node);
  if (!m) {
    m = new Map();
    for (const e of node.entries) m.set(e.key, e);
    entryIndex.set(node, m);
  }
  return m.get(key);
}

/**
 * Known keys at a schema location, indexed for did-you-mean lookups: one index per schema object (one model) that
 * applies there, so a suggestion always comes from the model the key sits in, never from another model merged at the
 * same place. Remembered per location list: schemaNav hands out one list per location, so the indexes are built once
 * per location, not once per mapping of every validation.
 */
interface KeyIndexes {
  all: KeyIndex;
  models: KeyIndex[];
  closed: boolean;
}
const keyIndexCache = new WeakMap<readonly Located[], KeyIndexes>();
function keyIndexOf(locs: readonly Located[]): KeyIndexes {
  let hit = keyIndexCache.get(locs);
  if (!hit) {
    const { keys, closed } = keysOf(locs.map((l) => l.schema));
    const models = locs
      .map((l) => l.schema.properties)
      .filter((p): p is NonNullable<typeof p> => !!p && Object.keys(p).length > 0)
      .map((p) => new KeyIndex(Object.keys(p)));
    hit = { all: new KeyIndex(keys.keys()), models, closed };
    keyIndexCache.set(locs, hit);
  }
  return hit;
}

/**
 * What a document is validated as when it is not its own whole config: NeMo-RL's merged `defaults:` chain. Errors are
 * still reported only at the document's own keys; `partial` (a parent could not be read) drops missing-key errors,
 * since the parent may set them.
 */
export interface SchemaView {
  data: unknown;
  partial: boolean;
}

export interface SchemaOptions {
  /** The release checked against (versions.ts): what it makes of each TensorRT-LLM key. */
  target?: TargetRelease;
  /** The merged view a NeMo-RL document is validated as. */
  view?: SchemaView;
}

/**
 * Schema findings for one document: Ajv errors, typo'd keys in open sections, deprecated keys; for the TensorRT-LLM
 * formats also what the target release makes of each key.
 */
export function schemaFindings(doc: RecipeDoc, format: FormatId, opts: SchemaOptions = {}): Finding[] {
  const { target, view } = opts;
  const validate = validatorFor(format);
  const findings: Finding[] = [];
  // The recipe body may sit below the root (a Bridge performance config's `ConfigContainer:`); paths stay file paths.
  const base = doc.detection.base;
  const body = base.length ? lookup(doc.root, base)?.node : doc.root;
  if (!body) return findings;
  const data = view ? view.data : toData(doc, body, base);
  // TensorRT-LLM validates with pydantic's lax mode: '9e-1' is a float there, 'yes' a bool (trtllmLax.ts).
  validate(isTrtllm(format) ? coerceLax(data, locateRoot(format)) : format === 'automodel' ? translateData(data) : data);
  const errors: AjvError[] = validate.errors ?? [];
  const seen = new Set<string>();
  const infoCache = new Map<string, PropertyInfo | undefined>();
  const infoAt = (path: PathSeg[]) => {
    const k = JSON.stringify(path);
    if (!infoCache.has(k)) {
      let cur: Located[] = locateRoot(format);
      for (const seg of path) cur = locateChild(cur, seg);
      infoCache.set(k, mergeInfo(cur.map((l) => l.schema)));
    }
    return infoCache.get(k);
  };
  let unknownCount = 0;
  const locsAt = (path: PathSeg[]) => {
    let cur: Located[] = locateRoot(format);
    for (const seg of path) cur = locateChild(cur, seg);
    return cur;
  };
  const byPath = new Map<string, AjvError[]>();
  for (const e of errors) {
    const list = byPath.get(e.instancePath);
    if (list) list.push(e);
    else byPath.set(e.instancePath, [e]);
  }

  for (const e of errors) {
    const rel = pointerToPath(e.instancePath);
    const path = [...base, ...rel];
    const hit = lookup(doc.root, path);
    if (!hit) continue;
    const { node, entry } = hit;
    const dotted = pathToString(path);
    if (e.keyword === 'additionalProperties') {
      const key = String(e.params.additionalProperty);
      const child = node.kind === 'map' ? entryOf(node, key) : undefined;
      if (!child) continue;
      const id = `unknown:${dotted}:${key}`;
      if (seen.has(id)) continue;
      seen.add(id);
      if (++unknownCount > MAX_UNKNOWN_KEYS) continue;
      const parent = locsAt(rel);
      const verdict = isTrtllm(format) ? unknownKeyVerdict(parent, target, shipped(format)) : undefined;
      findings.push(unknownKey(format, path, child, true, (k) => closestAcross(k, keyIndexOf(parent).models), verdict));
      continue;
    }
    if (e.keyword === 'required') {
      if (view?.partial) continue;
      const missing = String(e.params.missingProperty);
      const id = `required:${dotted}:${missing}`;
      if (seen.has(id)) continue;
      seen.add(id);
      findings.push({
        code: 'RL-SCHEMA',
        severity: 'error',
        message: path.length
          ? `\`${keyName(path)}\` is missing the required key \`${missing}\``
          : `the required top-level key \`${missing}\` is missing`,
        path: dotted,
        span: entry ? entry.keySpan : [node.span[0], node.span[0]],
      });
      continue;
    }
    // Umbrella errors add nothing a person can act on when a specific error sits at the same place or below it
    // (an `if`/`then` on `config` whose failing key is `config.fp8_recipe`).
    if (
      ['anyOf', 'oneOf', 'if', 'allOf'].includes(e.keyword) &&
      ((byPath.get(e.instancePath)?.length ?? 0) > 1 || errors.some((o) => o.instancePath.startsWith(`${e.instancePath}/`)))
    )
      continue;
    // An interpolation is judged by what it resolves to (toData gave Ajv that value); one that cannot be
    // resolved here, or `???`, is filled in at launch and never reported.
    const resolved =
      isDeferred(node) && node.kind === 'scalar' && String(node.value).trim() !== '???' ? resolveNode(doc.resolve, node, path) : UNRESOLVED;
    if (isDeferred(node) && resolved === UNRESOLVED) continue;
    const interpolated = resolved !== UNRESOLVED;
    const id = `${e.keyword}:${dotted}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const value = interpolated ? resolved : node.kind === 'scalar' ? node.value : node.kind === 'seq' ? [] : {};
    // Say where a value the file does not spell out came from; never offer an edit that would overwrite the `${…}`.
    const from = interpolated && node.kind === 'scalar' ? ` (resolved from \`${String(node.value)}\`)` : '';
    const info = infoAt(rel);
    const name = keyName(path);
    const span = node.span;
    // A field range that formats.md lists as a rule (K1, RT1…) reports under that rule's code.
    const code = info?.rule ? `RL-${info.rule}` : 'RL-SCHEMA';
    if (e.keyword === 'type') {
      const allowed = ([] as string[]).concat(e.params.type as string | string[]).flatMap((t) => t.split(','));
      if (typeof value === 'string' && /^(none|null|nil)$/i.test(value.trim()) && allowed.includes('null')) {
        findings.push({
          code: 'RL-NONE-STRING',
          severity: 'warning',
          message: `\`${name}: ${value}\` is the string ${JSON.stringify(value)} in YAML, not null; write \`null\` (or leave the key out) for "not set"${from}`,
          path: dotted,
          span,
          fixes: interpolated ? undefined : [{ title: `Replace ${value} with null`, edits: [{ span, newText: 'null' }] }],
        });
        continue;
      }
      // NeMo-RL and the Launcher's main config are untyped Hydra/OmegaConf YAML read as plain dicts (NeMo-RL's TypedDicts
      // are not checked at load; settings are read with `.get()`): a null is "not set", filled in on the command line
      // where the run needs it (`policy.model_name=…`, `launcher_scripts_path=…`). Said, not failed.
      if ((format === 'nemo-rl' || format === 'nemo-launcher-main') && value === null) {
        findings.push({
          code,
          severity: 'info',
          message: `\`${name}\` is null: ${format === 'nemo-rl' ? 'NeMo-RL' : 'the launcher'} reads it as not set (an untyped config read as a plain dict); where the run needs ${typePhrase(allowed)} here, pass it on the command line (${dotted}=…)${from}`,
          path: dotted,
          span,
        });
        continue;
      }
      findings.push({
        code,
        severity: 'error',
        message: `\`${name}\` must be ${typePhrase(allowed)}, got ${valueKind(value)}${from}`,
        path: dotted,
        span,
      });
      continue;
    }
    if (e.keyword === 'enum') {
      const allowed = (e.params.allowedValues as unknown[]) ?? info?.enum ?? [];
      const ci =
        typeof value === 'string' ? allowed.find((a) => typeof a === 'string' && a.toLowerCase() === value.toLowerCase()) : undefined;
      if (typeof ci === 'string') {
        findings.push({
          code: 'RL-ENUM-CASE',
          severity: 'warning',
          message: `\`${name}: ${String(value)}\` differs in case from the listed value \`${ci}\`; current TensorRT-LLM / NeMo spell it \`${ci}\`${from}`,
          path: dotted,
          span,
          fixes: interpolated ? undefined : [{ title: `Change to ${ci}`, edits: [{ span, newText: ci }] }],
        });
        continue;
      }
      const fix =
        typeof value === 'string' && !interpolated
          ? closest(
              value,
              allowed.filter((a): a is string => typeof a === 'string'),
            )
          : undefined;
      findings.push({
        code,
        severity: 'error',
        message: `\`${name}\` must be one of ${allowed.map((a) => show(a)).join(', ')}; got ${show(value)}${from}${fix ? ` (did you mean ${show(fix)}?)` : ''}`,
        path: dotted,
        span,
        fixes: fix ? [{ title: `Change to ${fix}`, edits: [{ span, newText: fix }] }] : undefined,
      });
      continue;
    }
    if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].includes(e.keyword)) {
      // A value outside a closed scale (priority 0–100, a fraction 0–1) has one obvious repair: clamp to the bound.
      const limit = e.params.limit;
      const scale = info?.minimum !== undefined && info?.maximum !== undefined;
      const clamp =
        scale && !from && typeof value === 'number' && typeof limit === 'number' && (e.keyword === 'minimum' || e.keyword === 'maximum')
          ? [{ title: `Clamp to ${limit}`, edits: [{ span, newText: String(limit) }] }]
          : undefined;
      findings.push({
        code,
        severity: 'error',
        message: `\`${name}\` must be ${boundPhrase(info, info?.types ?? [])}, got ${show(value)}${from}`,
        path: dotted,
        span,
        fixes: clamp,
      });
      continue;
    }
    if (e.keyword === 'minItems' && node.kind === 'seq') {
      const limit = Number(e.params.limit);
      findings.push({
        code,
        severity: 'error',
        message: `\`${name}\` must list at least ${limit} ${limit === 1 ? 'entry' : 'entries'}, got ${node.items.length}`,
        path: dotted,
        span,
      });
      continue;
    }
    findings.push({
      code,
      severity: 'error',
      message: `\`${name}\` ${e.message ?? 'is not valid'}, got ${show(value)}${from}`,
      path: dotted,
      span,
    });
  }

  unknownCount += typosAndDeprecations(doc, format, findings, seen, MAX_UNKNOWN_KEYS - unknownCount, target);
  if (unknownCount > MAX_UNKNOWN_KEYS)
    findings.push({
      code: 'RL-UNKNOWN-KEY',
      severity: 'info',
      message: `${unknownCount - MAX_UNKNOWN_KEYS} more unknown keys are not listed (the first ${MAX_UNKNOWN_KEYS} are)`,
      path: '',
      span: [doc.span[0], doc.span[0]],
    });
  return findings;
}

function unknownKey(
  format: FormatId,
  parentPath: PathSeg[],
  entry: MapEntry,
  closed: boolean,
  suggest: (key: string) => string | undefined,
  verdict?: { severity: Severity; note: string },
): Finding {
  const full = [...parentPath, entry.key];
  const dotted = pathToString(full);
  const alias = rootAliases(format)[dotted];
  let hint = '';
  let fixes: Finding['fixes'];
  if (alias) hint = `; did you mean \`${alias}\`?`;
  else {
    const s = suggest(entry.key);
    if (s) {
      hint = `; did you mean \`${s}\`?`;
      fixes = [{ title: `Rename to ${s}`, edits: [{ span: entry.keySpan, newText: s }] }];
    }
  }
  const where = parentPath.length ? ` in \`${pathToString(parentPath)}\`` : '';
  const consequence = closed ? ' (the loader rejects unknown keys here)' : ' (it is ignored)';
  return {
    code: 'RL-UNKNOWN-KEY',
    severity: verdict?.severity ?? 'warning',
    message: `unknown key \`${entry.key}\`${where}${hint}${verdict?.note ? verdict.note : hint ? '' : consequence}`,
    path: dotted,
    span: entry.keySpan,
    fixes,
  };
}

/** In open sections (NeMo model, Bridge sections) unknown keys are legal, but a near-miss of a known key is a typo. */
function typosAndDeprecations(
  doc: RecipeDoc,
  format: FormatId,
  findings: Finding[],
  seen: Set<string>,
  budget: number,
  target: TargetRelease | undefined,
): number {
  let count = 0;
  const trt = isTrtllm(format);
  const base = doc.detection.base;
  const rec = (n: TreeNode, path: PathSeg[], locs: Located[]) => {
    if (!locs.length) return;
    if (n.kind === 'seq') {
      n.items.forEach((it, i) => rec(it, [...path, i], locateChild(locs, i)));
      return;
    }
    if (n.kind !== 'map') return;
    const { all, models, closed } = keyIndexOf(locs);
    // A fully serialized config (ConfigContainer.to_yaml: `_target_` on every object) writes every field, deprecated
    // ones included; only a deprecated field set to something other than its default was chosen by someone.
    const serialized = n.entries.some((e) => e.key === '_target_');
    for (const e of n.entries) {
      const childPath = [...path, e.key];
      const child = locateChild(locs, e.key);
      if (!all.has(e.key) && !closed && all.size && !matchesPatternKey(locs, e.key)) {
        const s = closestAcross(e.key, models);
        // `_validation_dataset` beside the known `validation_dataset` is a section switched off by name, not a typo.
        if (s && e.key !== `_${s}` && !seen.has(`unknown:${pathToString(path)}:${e.key}`) && ++count <= budget)
          findings.push(unknownKey(format, path, e, false, () => s));
      }
      const info = child.length ? infoOf(child) : undefined;
      // TensorRT-LLM: what the named release makes of the key (added later, removed), in place of a plain deprecation.
      const verdict =
        trt && child.length
          ? releaseVerdict(
              childPath.slice(base.length),
              child.map((l) => l.schema),
              target,
              !isLlmArgsTop(locs),
              shipped(format),
            )
          : undefined;
      if (verdict) findings.push({ code: 'RL-RELEASE', ...verdict, path: pathToString(childPath), span: e.keySpan });
      else if (info?.deprecated && !(serialized && holdsDefault(doc, e.value, defaultsOf(child))))
        findings.push({
          code: 'RL-DEPRECATED',
          severity: 'warning',
          message: deprecationMessage(e.key, info.deprecated),
          path: pathToString(childPath),
          span: e.keySpan,
        });
      const v = e.value;
      const legacy =
        trt && v.kind === 'scalar'
          ? legacyValueVerdict(
              child.map((l) => l.schema),
              v.value,
              target,
              shipped(format),
            )
          : undefined;
      if (legacy && v.kind === 'scalar')
        findings.push({
          code: 'RL-RELEASE',
          severity: legacy.severity,
          message: `\`${e.key}: ${String(v.value)}\` ${legacy.message}`,
          path: pathToString(childPath),
          span: e.value.span,
        });
      rec(e.value, childPath, child);
    }
  };
  const body = base.length ? lookup(doc.root, base)?.node : doc.root;
  if (body) rec(body, [...base], locateRoot(format));
  return count;
}

/** A field's defaults: the schema's, and those of older releases (`x-releaseNotes`) that a serialized file may hold. */
function defaultsOf(locs: readonly Located[]): unknown[] {
  const out: unknown[] = [];
  for (const { schema } of locs) {
    if (schema.default !== undefined) out.push(schema.default);
    const notes = schema['x-releaseNotes'];
    if (notes && typeof notes === 'object')
      for (const n of Object.values(notes as Record<string, { default?: unknown }>)) if (n && 'default' in n) out.push(n.default);
  }
  return out;
}

/** Whether a value is one of the field's defaults (null counts as the default of a field without a known one). */
function holdsDefault(doc: RecipeDoc, node: TreeNode, defaults: unknown[]): boolean {
  const v = toData(doc, node);
  if (v === null && defaults.length === 0) return true;
  const text = JSON.stringify(v);
  return defaults.some((d) => JSON.stringify(d) === text);
}

/**
 * Most schema notes already name the key ("kv_cache_dtype was replaced by kv_cache_config.dtype."):
 * quote it rather than repeat it after "`kv_cache_dtype` is deprecated:".
 */
export function deprecationMessage(key: string, note: string): string {
  const text = note.trim().replace(/\.$/, '');
  if (!text || text === 'deprecated') return `\`${key}\` is deprecated`;
  const first = /^[A-Za-z0-9_.]+/.exec(text)?.[0];
  if (first && (first === key || first.endsWith(`.${key}`))) return `\`${first}\`${text.slice(first.length)}`;
  return `\`${key}\` is deprecated: ${text}`;
}
