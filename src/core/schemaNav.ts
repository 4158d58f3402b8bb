// Walks the shipped JSON Schemas (schemas/*.schema.json) by YAML path: hover, completion and the
// error messages all read descriptions, types and enums from here, so each fact lives once.
import type { FormatId, KeyPath } from './types.js';
import nemo1 from '../../schemas/nemo1.schema.json';
import nemoLauncher from '../../schemas/nemo-launcher.schema.json';
import nemoLauncherMain from '../../schemas/nemo-launcher-main.schema.json';
import nemo2 from '../../schemas/nemo2.schema.json';
import megatronBridge from '../../schemas/megatron-bridge.schema.json';
import megatronLm from '../../schemas/megatron-lm.schema.json';
import nemoRl from '../../schemas/nemo-rl.schema.json';
import automodel from '../../schemas/automodel.schema.json';
import trtllmOptions from '../../schemas/trtllm-options.schema.json';
import trtllmDisagg from '../../schemas/trtllm-disagg.schema.json';
import trtllmPerf from '../../schemas/trtllm-perf.schema.json';
import kvRetention from '../../schemas/kv-retention.schema.json';

export type JsonSchema = {
  $id?: string;
  $ref?: string;
  type?: string | string[];
  description?: string;
  markdownDescription?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | boolean;
  prefixItems?: JsonSchema[];
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  deprecated?: boolean;
  'x-deprecatedMessage'?: string;
  'x-aliases'?: Record<string, string>;
  [k: string]: unknown;
};

export const SCHEMAS: Record<FormatId, JsonSchema> = {
  nemo1: nemo1 as JsonSchema,
  'nemo-launcher': nemoLauncher as JsonSchema,
  'nemo-launcher-main': nemoLauncherMain as JsonSchema,
  nemo2: nemo2 as JsonSchema,
  'megatron-bridge': megatronBridge as JsonSchema,
  'megatron-lm': megatronLm as JsonSchema,
  'nemo-rl': nemoRl as JsonSchema,
  automodel: automodel as JsonSchema,
  'trtllm-options': trtllmOptions as JsonSchema,
  'trtllm-disagg': trtllmDisagg as JsonSchema,
  'trtllm-perf': trtllmPerf as JsonSchema,
  'kv-retention': kvRetention as JsonSchema,
};

const byId = new Map<string, JsonSchema>();
for (const s of Object.values(SCHEMAS)) if (s.$id) byId.set(s.$id, s);

/** A subschema together with the `$id` of the file it sits in (for relative `$ref`s). */
export interface Located {
  schema: JsonSchema;
  base: string;
}

function pointer(doc: JsonSchema, ptr: string): JsonSchema | undefined {
  let cur: unknown = doc;
  for (const raw of ptr.split('/').slice(1)) {
    const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[seg];
    else return undefined;
  }
  return cur && typeof cur === 'object' ? (cur as JsonSchema) : undefined;
}

function deref(loc: Located, depth = 0): Located | undefined {
  const ref = loc.schema.$ref;
  if (!ref || depth > 16) return loc;
  const [file, frag = ''] = ref.split('#');
  const base = file ? new URL(file, loc.base).href : loc.base;
  const doc = byId.get(base);
  if (!doc) return undefined;
  const target = frag ? pointer(doc, frag) : doc;
  return target ? deref({ schema: target, base }, depth + 1) : undefined;
}

/**
 * Flatten $ref / allOf / anyOf / oneOf into the list of schemas that apply at one place. A definition reached twice
 * (a base class under many subclasses' `allOf`) is listed once.
 */
function expand(loc: Located, out: Located[] = [], depth = 0, seen = new Set<JsonSchema>(out.map((l) => l.schema))): Located[] {
  // A `$ref` with keywords of its own beside it (the field's description and default over a shared type) applies too.
  if (loc.schema.$ref !== undefined && Object.keys(loc.schema).length > 1 && !seen.has(loc.schema)) {
    seen.add(loc.schema);
    out.push(loc);
  }
  const d = deref(loc);
  if (!d || depth > 16 || seen.has(d.schema)) return out;
  seen.add(d.schema);
  // JSON Schema 2020-12 applies a `$ref`'s sibling keywords too (`{"type": ["object", "null"], "$ref": …, "description"}`):
  // the use site's own type and description come first.
  if (d !== loc && Object.keys(loc.schema).length > 1) out.push(loc);
  out.push(d);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const)
    for (const s of d.schema[k] ?? []) expand({ schema: s, base: d.base }, out, depth + 1, seen);
  return out;
}

/** `patternProperties` regexes, compiled once each. */
const patterns = new Map<string, RegExp>();
const pattern = (re: string) => {
  let r = patterns.get(re);
  if (!r) patterns.set(re, (r = new RegExp(re, 'u')));
  return r;
};

/** Whether a key is named by a `patternProperties` regex of one of the schemas that apply (a known key, not a typo). */
export function matchesPatternKey(locs: readonly Located[], key: string): boolean {
  return locs.some((l) => Object.keys(l.schema.patternProperties ?? {}).some((re) => pattern(re).test(key)));
}

function childOf(loc: Located, seg: string | number): Located[] {
  const s = loc.schema;
  const out: Located[] = [];
  if (typeof seg === 'number') {
    if (s.prefixItems?.[seg]) out.push({ schema: s.prefixItems[seg]!, base: loc.base });
    else if (s.items && typeof s.items === 'object') out.push({ schema: s.items, base: loc.base });
    return out;
  }
  const p = s.properties?.[seg];
  if (p) return [{ schema: p, base: loc.base }];
  for (const [re, ps] of Object.entries(s.patternProperties ?? {})) if (pattern(re).test(seg)) out.push({ schema: ps, base: loc.base });
  if (!out.length && s.additionalProperties && typeof s.additionalProperties === 'object')
    out.push({ schema: s.additionalProperties, base: loc.base });
  return out;
}

// The schemas never change, so each step of a walk is computed once: the root list per format, and the child list
// per (parent list, segment). Lists are shared between callers: treat them as read-only. The walks of every
// validation (schema messages, typo and deprecation checks) and of hover and completion then cost a map lookup per
// step instead of $ref resolution and allOf/anyOf expansion (a third of a typical recipe's validation before).
const rootCache = new Map<FormatId, Located[]>();
const childCache = new WeakMap<readonly Located[], Map<string | number, Located[]>>();
/** Children remembered per parent list; past this (a file full of distinct unknown keys) they are computed each time. */
const MAX_CHILDREN = 512;
const NO_SCHEMA: Located[] = Object.freeze([]) as unknown as Located[];

/** The schemas that apply at a document's root. */
export function locateRoot(format: FormatId): Located[] {
  let r = rootCache.get(format);
  if (!r) {
    const root = SCHEMAS[format];
    r = expand({ schema: root, base: root.$id ?? '' });
    rootCache.set(format, r);
  }
  return r;
}

/** The schemas that apply one step down (a key or an index). */
export function locateChild(cur: readonly Located[], seg: string | number): Located[] {
  let m = childCache.get(cur);
  const hit = m?.get(seg);
  if (hit) return hit;
  if (!cur.length) return NO_SCHEMA;
  const next: Located[] = [];
  const seen = new Set<JsonSchema>();
  for (const c of cur) for (const ch of childOf(c, seg)) expand(ch, next, 0, seen);
  // Below a key the schema does not describe there is nothing: one shared empty list.
  if (!next.length) return NO_SCHEMA;
  // Lists are interned by the schemas they hold, so a recursive schema (nemo2's `_target_` node, open sections)
  // maps every depth to the same list: the cache stays as small as the set of schema combinations.
  const list = intern(next);
  if (!m) childCache.set(cur, (m = new Map()));
  if (m.size < MAX_CHILDREN) m.set(seg, list);
  return list;
}

const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 0;
const interned = new Map<string, Located[]>();
function intern(list: Located[]): Located[] {
  const sig = list
    .map((l) => {
      let id = schemaIds.get(l.schema);
      if (id === undefined) schemaIds.set(l.schema, (id = nextSchemaId++));
      return `${id}@${l.base}`;
    })
    .join(',');
  const hit = interned.get(sig);
  if (hit) return hit;
  interned.set(sig, list);
  return list;
}

const infoCache = new WeakMap<readonly Located[], PropertyInfo | undefined>();
/** `mergeInfo` of a location list, remembered per list (read-only result). */
export function infoOf(locs: readonly Located[]): PropertyInfo | undefined {
  if (infoCache.has(locs)) return infoCache.get(locs);
  const info = mergeInfo(locs.map((l) => l.schema));
  infoCache.set(locs, info);
  return info;
}

function locate(format: FormatId, path: KeyPath): Located[] {
  let cur = locateRoot(format);
  for (const seg of path) {
    cur = locateChild(cur, seg);
    if (!cur.length) return [];
  }
  return cur;
}

/** All schemas that apply at `path` ($ref, allOf, anyOf, oneOf flattened). */
export function schemasAt(format: FormatId, path: KeyPath): JsonSchema[] {
  return locate(format, path).map((l) => l.schema);
}

/** Merged facts about the property at `path`, for hover, completion and messages. */
export interface PropertyInfo {
  description?: string;
  types: string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  deprecated?: string;
  /** Rule id of formats.md (K1, RT1…) when the field's range is one of the cross-field rules. */
  rule?: string;
}

export function propertyInfo(format: FormatId, path: KeyPath): PropertyInfo | undefined {
  return mergeInfo(schemasAt(format, path));
}

export function mergeInfo(list: readonly JsonSchema[]): PropertyInfo | undefined {
  if (!list.length) return undefined;
  const info: PropertyInfo = { types: [] };
  for (const s of list) {
    info.description ??= s.markdownDescription ?? s.description;
    if (s.type) for (const t of Array.isArray(s.type) ? s.type : [s.type]) if (!info.types.includes(t)) info.types.push(t);
    if (s.enum) info.enum = [...(info.enum ?? []), ...s.enum.filter((v) => !(info.enum ?? []).includes(v))];
    if (s.const !== undefined) info.enum = [...(info.enum ?? []), s.const];
    if (s.default !== undefined && info.default === undefined) info.default = s.default;
    info.minimum ??= s.minimum;
    info.maximum ??= s.maximum;
    info.exclusiveMinimum ??= s.exclusiveMinimum;
    info.exclusiveMaximum ??= s.exclusiveMaximum;
    if (typeof s['x-rule'] === 'string') info.rule ??= s['x-rule'];
    if (s.deprecated) info.deprecated ??= s['x-deprecatedMessage'] ?? 'deprecated';
  }
  return info;
}

/** Known property names at `path` (for completion and did-you-mean), with whether unknown keys are rejected. */
export function knownKeys(format: FormatId, path: KeyPath): { keys: Map<string, JsonSchema>; closed: boolean } {
  return keysOf(schemasAt(format, path));
}

export function keysOf(list: readonly JsonSchema[]): { keys: Map<string, JsonSchema>; closed: boolean } {
  const keys = new Map<string, JsonSchema>();
  let closed = false;
  let any = false;
  for (const s of list) {
    if (s.properties) {
      any = true;
      for (const [k, v] of Object.entries(s.properties)) if (!keys.has(k)) keys.set(k, v);
    }
    if (s.additionalProperties === false) closed = true;
  }
  return { keys, closed: closed && any };
}

export function rootAliases(format: FormatId): Record<string, string> {
  return SCHEMAS[format]['x-aliases'] ?? {};
}
