// The hover for a position: the memory view for keys that move memory (training levers, KV-cache keys, retention
// ranges) and the schema's documentation of the key. The editor adapters only convert it.
import type { Analysis } from './analysis.js';
import { chainHoverMarkdown } from './chainHover.js';
import { pathAtOffset } from './cursor.js';
import type { ServingField } from './formats/fields.js';
import { hoverMarkdown } from './hoverText.js';
import { KV_FIELDS, memoryHoverMarkdown, retentionHoverMarkdown, servingHoverMarkdown } from './memory/hover.js';
import { FIELD_LEVERS } from './memory/whatIf.js';
import { fieldAtPath } from './recipe.js';
import type { TrainingField } from './formats/fields.js';
import type { Span } from './types.js';

export interface Hover {
  /** Markdown blocks, most specific first. */
  contents: string[];
  /** The key the hover is about. */
  span: Span;
}

export function hoverAt(a: Analysis, offset: number): Hover | undefined {
  const d = a.docs.find((x) => offset >= x.doc.span[0] && offset <= x.doc.span[1] && x.doc.format) ?? a.main;
  const doc = d?.doc;
  if (!d || !doc?.format) return undefined;
  const where = pathAtOffset(doc.root, offset);
  if (!where?.entry) return undefined;
  const parts: string[] = [];
  const e = d.estimate;
  const at = fieldAtPath(d.recipe, where.path);
  if (e?.kind === 'training' && at) {
    const lever = FIELD_LEVERS[at.field as TrainingField];
    if (lever) parts.push(memoryHoverMarkdown(e, lever));
  }
  if (e?.kind === 'serving' && d.recipe?.kind === 'serving') {
    const underKv = d.recipe.roles.find((r) => {
      const kv = r.loc.kvConfig?.path;
      return kv && where.path.length > kv.length && kv.every((s, i) => s === where.path[i]);
    });
    const role = at && KV_FIELDS.has(at.field as ServingField) ? at.role : underKv?.role;
    if (role !== undefined) parts.push(servingHoverMarkdown(e, role || undefined));
  }
  if (e?.kind === 'retention') parts.push(retentionHoverMarkdown(e));
  const md = hoverMarkdown(doc, doc.format, where.path);
  if (md) parts.push(md);
  // NeMo-RL: which file a value comes from (the `defaults:` chain).
  const chain = d.chain && chainHoverMarkdown(d.chain, where.path, d.recipe);
  if (chain) parts.push(chain);
  return parts.length ? { contents: parts, span: where.entry.keySpan } : undefined;
}
