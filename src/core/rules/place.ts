// The checker's half of a rule: a hit (fields) becomes one finding (a span) on the key a person most likely has to
// change — the one edited last, else the rule's primary key — with the other keys as related locations, and one
// quick fix per repair choice, written through the format's table as a minimal edit (comments kept).
import { scalarText, setScalarEdit } from '../edit.js';
import type { FieldLoc } from '../formats/table.js';
import { pathToString } from '../tree.js';
import type { Finding, Fix, KeyPath, RelatedInfo, TextEdit } from '../types.js';
import { fmt, refField, type FixChoice, type Ref, type RuleHit } from './hit.js';

export interface Placement<F extends string> {
  text: string;
  /** Index of the YAML document in the file (for edits). */
  docIndex: number;
  /** Where a field is written (undefined: the file does not write it). */
  locate: (ref: Ref<F>) => FieldLoc | undefined;
  /** Where Apply writes a field the file does not have (undefined: nowhere fixed). */
  writePath: (ref: Ref<F>) => KeyPath | undefined;
  /** The group a fix's `set` fields belong to (a disaggregated role); default the primary ref's group. */
  value: (ref: Ref<F>) => unknown;
  /** Fields changed by the last edit, most recent first: the primary key among them wins. */
  lastEdited?: readonly F[];
}

const groupOf = <F extends string>(r: Ref<F>) => (typeof r === 'string' ? undefined : r.group);

export function placeHits<F extends string>(hits: readonly RuleHit<F>[], p: Placement<F>): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    const located = h.fields.filter((r) => p.locate(r));
    const recent = p.lastEdited?.length ? located.find((r) => p.lastEdited!.includes(refField(r))) : undefined;
    const primary = recent ?? located[0] ?? (h.context ?? []).find((r) => p.locate(r));
    const at = primary ? p.locate(primary) : undefined;
    const span = at
      ? typeof primary === 'object' && primary.item !== undefined
        ? (at.items?.[primary.item] ?? at.valueSpan)
        : at.valueSpan
      : ([0, 0] as const);
    const path = at ? pathToString(at.path) + (typeof primary === 'object' && primary.item !== undefined ? `[${primary.item}]` : '') : '';
    const key = `${h.code}\n${h.message}\n${span[0]}`;
    if (seen.has(key)) continue; // a top-level key read by both disaggregated roles
    seen.add(key);
    const related: RelatedInfo[] = [];
    // A finding on a value a `defaults:` parent sets sits on the `defaults:` line; the parent's key is where it is written.
    if (at?.inherited) related.push(relatedAt(at, `${pathToString(at.path)} = ${fmt(p.value(primary!))} (set in ${at.inherited.name})`));
    for (const r of [...h.fields, ...(h.context ?? [])]) {
      const l = p.locate(r);
      if (!l || l === at || related.some((x) => x.file === l.inherited?.file && x.span[0] === (l.inherited?.keySpan ?? l.keySpan)[0]))
        continue;
      const value = `${pathToString(l.path)} = ${fmt(p.value(r))}`;
      related.push(
        l.inherited
          ? relatedAt(l, `${value} (set in ${l.inherited.name})`)
          : { path: pathToString(l.path), span: l.keySpan, message: value },
      );
    }
    const fixes = (h.fixes ?? []).map((f) => fixEdits(f, p, primary)).filter((f): f is Fix => !!f);
    out.push({
      code: h.code,
      severity: h.severity,
      message: h.message,
      path,
      span: [span[0], span[1]],
      ...(related.length ? { related } : {}),
      ...(fixes.length ? { fixes } : {}),
    });
  }
  return out;
}

/** A related location in the `defaults:` parent that writes the field. */
function relatedAt(l: FieldLoc, message: string): RelatedInfo {
  const i = l.inherited!;
  return { path: pathToString(l.path), span: i.keySpan, file: i.file, range: i.range, message };
}

function fixEdits<F extends string>(f: FixChoice<F>, p: Placement<F>, primary: Ref<F> | undefined): Fix | undefined {
  const edits: TextEdit[] = [];
  const words: string[] = [];
  const group = primary ? groupOf(primary) : undefined;
  for (const [field, value] of Object.entries(f.set ?? {}) as [F, string | number | boolean | null][]) {
    const ref: Ref<F> = group === undefined ? field : { field, group };
    const path = p.writePath(ref);
    if (!path) return undefined;
    const r = setScalarEdit(p.text, path, value, { doc: p.docIndex });
    if (r.error !== undefined) return undefined;
    edits.push(r.edit);
    words.push(`${pathToString(path)}: ${scalarText(value)}`);
  }
  if (f.rename) {
    const l = p.locate(f.rename.ref);
    if (!l || l.inherited) return undefined; // a key a parent file writes is not renamed here
    edits.push({ span: l.keySpan, newText: f.rename.to });
  }
  if (!edits.length) return undefined;
  return { title: f.title ?? `Set ${words.join(', ')}`, edits };
}
