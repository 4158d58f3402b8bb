// A key-path table says where each logical field lives in one file format; readTable reads a document through
// it. This is the only mechanism in the core that turns paths into values: rules, the estimate, hovers, the
// panel and Apply all go through a table (src/core/formats/<format>.ts).
import { inheritedFrom, type Inherited } from '../defaultsChain.js';
import { valueAt, type RecipeDoc } from '../document.js';
import { hasInterpolation, UNRESOLVED } from '../interpolate.js';
import { findKeyPath, lookup, parsePath, plainValue, type TreeNode } from '../tree.js';
import type { KeyPath, PathSeg, Span } from '../types.js';
import { ofKind, type FieldKind, type ValuesOf } from './fields.js';

export interface Table<F extends string> {
  /** Dotted paths per field, tried in order; the first is where Apply writes a key the file does not have. */
  paths: Partial<Record<F, readonly string[]>>;
  /** Keys found anywhere in the tree, depth-first (NeMo 2 serializations nest kwargs under `_target_` nodes). */
  anywhere?: Partial<Record<F, string>>;
}

/** Where a field is written: its path, the key's span and the value's span (items: each list item's span). */
export interface FieldLoc {
  path: PathSeg[];
  keySpan: Span;
  valueSpan: Span;
  /** What is written there: a scalar, a mapping or a sequence. */
  node: TreeNode['kind'];
  items?: Span[];
  /** The value is an OmegaConf interpolation (`${…}`): it follows its source by itself. */
  interpolated?: boolean;
  /**
   * The value comes from a `defaults:` parent (NeMo-RL): `keySpan` and `valueSpan` are then the document's `defaults:`
   * value (where findings about it go) and this says where the parent wrote it.
   */
  inherited?: Inherited;
}

export interface ReadFields<F extends string, V> {
  /** Values as written (interpolations resolved); unusable or unresolvable values are absent. */
  values: V;
  /** Every field whose key is in the file, usable or not. */
  loc: Partial<Record<F, FieldLoc>>;
}

/** Where a field's key is in `doc`, trying `bases` (path prefixes) in order: a disaggregated role, then the top level. */
export function locate<F extends string>(
  doc: RecipeDoc,
  table: Table<F>,
  field: F,
  bases: readonly KeyPath[] = [[]],
): PathSeg[] | undefined {
  const key = table.anywhere?.[field];
  if (key) return findKeyPath(doc.root, key);
  for (const base of bases)
    for (const p of table.paths[field] ?? []) {
      const path = [...base, ...parsePath(p)];
      if (lookup(doc.root, path)) return path;
    }
  return undefined;
}

/** Reads every field of `kinds` through `table`. */
export function readTable<F extends string, K extends Record<F, FieldKind>>(
  doc: RecipeDoc,
  table: Table<F>,
  kinds: K,
  bases: readonly KeyPath[] = [[]],
): ReadFields<F, ValuesOf<K>> {
  const values: Record<string, unknown> = {};
  const loc: Partial<Record<F, FieldLoc>> = {};
  for (const field of Object.keys(kinds) as F[]) {
    const path = locate(doc, table, field, bases);
    if (!path) continue;
    const hit = lookup(doc.root, path)!;
    const inherited = doc.chain && inheritedFrom(doc.chain, hit.entry, hit.node);
    loc[field] = {
      path,
      keySpan: inherited ? doc.chain!.anchor : (hit.entry?.keySpan ?? hit.node.span),
      valueSpan: inherited ? doc.chain!.anchor : hit.node.span,
      ...(inherited ? { inherited } : {}),
      node: hit.node.kind,
      ...(hit.node.kind === 'seq' && !inherited ? { items: hit.node.items.map((n) => n.span) } : {}),
      ...(hit.node.kind === 'scalar' && typeof hit.node.value === 'string' && hasInterpolation(hit.node.value)
        ? { interpolated: true }
        : {}),
    };
    const raw = hit.node.kind === 'scalar' ? valueAt(doc, path) : plainValue(hit.node);
    if (raw === UNRESOLVED || raw === undefined || (typeof raw === 'string' && raw.trim() === '???')) continue;
    const v = ofKind(kinds[field], raw);
    if (v !== undefined) values[field] = v;
  }
  return { values: values as ValuesOf<K>, loc };
}

/** The path Apply writes `field` at: where the file has it, else the table's first path under `base`. */
export function writePath<F extends string>(
  table: Table<F>,
  loc: Partial<Record<F, FieldLoc>>,
  field: F,
  base: KeyPath = [],
): PathSeg[] | undefined {
  const at = loc[field];
  if (at) return at.path;
  if (table.anywhere?.[field]) return undefined; // no fixed place to insert it
  const first = table.paths[field]?.[0];
  return first ? [...base, ...parsePath(first)] : undefined;
}

/** The field a path holds, for hovers: the reverse of the table (exact path match). */
export function fieldAt<F extends string>(table: Table<F>, loc: Partial<Record<F, FieldLoc>>, path: KeyPath): F | undefined {
  for (const [field, at] of Object.entries(loc) as [F, FieldLoc][])
    if (at.path.length === path.length && at.path.every((s, i) => s === path[i])) return field;
  return undefined;
}

/** The scalar at a path from the document's root (undefined where it is absent or not a scalar). */
export function scalarAt(doc: RecipeDoc, path: string[]): unknown {
  const n = lookup(doc.root, path)?.node;
  return n?.kind === 'scalar' ? n.value : undefined;
}
