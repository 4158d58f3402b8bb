// Completion items from the schema: keys of the mapping at the cursor, or values of the key being typed.
import type { CompletionContext } from './cursor.js';
import { keysOf, locateChild, locateRoot, mergeInfo, type JsonSchema, type Located } from './schemaNav.js';
import type { FormatId, PathSeg } from './types.js';

export interface CompletionItem {
  label: string;
  kind: 'key' | 'value';
  detail?: string;
  documentation?: string;
  /** Text to insert (a key gets `: `). */
  insertText: string;
  deprecated?: boolean;
}

/** Follow a path that may skip sequence indices (the text scanner does not count list items). */
function locateLoose(format: FormatId, path: readonly PathSeg[]): Located[] {
  let cur = locateRoot(format);
  for (const seg of path) {
    let next = locateChild(cur, seg);
    if (!next.length && typeof seg === 'string') next = locateChild(locateChild(cur, 0), seg);
    cur = next;
    if (!cur.length) return [];
  }
  return cur;
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

const typeText = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.join(' | ') : s.type);

export function completions(format: FormatId, ctx: CompletionContext, existingKeys: ReadonlySet<string> = new Set()): CompletionItem[] {
  const locs = locateLoose(format, ctx.path);
  if (ctx.mode === 'key') {
    let { keys } = keysOf(locs.map((l) => l.schema));
    if (!keys.size) ({ keys } = keysOf(locateChild(locs, 0).map((l) => l.schema)));
    const items: CompletionItem[] = [];
    for (const [k, s] of keys) {
      if (existingKeys.has(k)) continue;
      const info = mergeInfo([s]);
      items.push({
        label: k,
        kind: 'key',
        detail: typeText(s) ?? info?.types.join(' | '),
        documentation: s.markdownDescription ?? s.description,
        insertText: `${k}: `,
        deprecated: !!s.deprecated,
      });
    }
    return items;
  }
  const info = mergeInfo(locs.map((l) => l.schema));
  if (!info) return [];
  const values: unknown[] = info.enum ? [...info.enum] : [];
  // An open string field (TRT-LLM `dtype`, `backend`…) has no enum, but the schema lists typical values.
  if (!info.enum)
    for (const l of locs)
      for (const x of Array.isArray(l.schema.examples) ? l.schema.examples : []) if (isScalar(x) && !values.includes(x)) values.push(x);
  if (!info.enum && info.types.includes('boolean')) values.push(true, false);
  if (info.types.includes('null') && !values.includes(null)) values.push(null);
  return values.map((v) => ({
    label: v === null ? 'null' : String(v),
    kind: 'value' as const,
    detail: v === info.default ? 'default' : undefined,
    documentation: info.description,
    insertText: v === null ? 'null' : String(v),
  }));
}
