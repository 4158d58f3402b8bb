// The outline of a recipe for an editor's document symbols: its sections, i.e. the mapping keys whose values are
// mappings or sequences, nested as written (scalar keys are values, not structure). One entry per YAML document
// when the file holds several. Bounded: a generated or hostile file never yields more than SYMBOL_LIMITS.
import type { Analysis } from './analysis.js';
import type { TreeNode } from './tree.js';
import { FORMAT_LABELS, type Span } from './types.js';

export interface RecipeSymbol {
  name: string;
  /** 'section': a mapping; 'list': a sequence; 'document': one YAML document of a multi-document file. */
  kind: 'section' | 'list' | 'document';
  /** "12 keys", "3 items", or the document's format. */
  detail: string;
  /** The whole entry: key and value. */
  span: Span;
  /** What the editor selects: the key (the document's first line for a document). */
  selection: Span;
  children: RecipeSymbol[];
}

/** Nesting levels shown and symbols in all: the outline of a 10 MB file stays a few kilobytes. */
export const SYMBOL_LIMITS = { depth: 8, count: 2000 };

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function sectionDetail(n: TreeNode): string {
  return n.kind === 'map' ? plural(n.entries.length, 'key') : n.kind === 'seq' ? plural(n.items.length, 'item') : '';
}

/** The sections of the recipe documents of an analysis (documents Recipe Lens does not handle have none). */
export function recipeSymbols(a: Analysis): RecipeSymbol[] {
  let budget = SYMBOL_LIMITS.count;
  const walk = (node: TreeNode | undefined, depth: number): RecipeSymbol[] => {
    const out: RecipeSymbol[] = [];
    if (!node || depth > SYMBOL_LIMITS.depth) return out;
    if (node.kind === 'map') {
      for (const e of node.entries) {
        if (budget <= 0) break;
        const v = e.value;
        if (v.kind === 'scalar') continue;
        budget--;
        out.push({
          name: e.key,
          kind: v.kind === 'map' ? 'section' : 'list',
          detail: sectionDetail(v),
          span: [e.keySpan[0], Math.max(e.keySpan[1], v.span[1])],
          selection: e.keySpan,
          children: walk(v, depth + 1),
        });
      }
    } else if (node.kind === 'seq') {
      node.items.forEach((it, i) => {
        if (budget <= 0 || it.kind !== 'map') return;
        budget--;
        out.push({
          name: `[${i}]`,
          kind: 'section',
          detail: sectionDetail(it),
          span: it.span,
          selection: it.span,
          children: walk(it, depth + 1),
        });
      });
    }
    return out;
  };
  const docs = a.docs.filter((d) => d.doc.root);
  if (docs.length === 1) return walk(docs[0]!.doc.root, 1);
  return docs.map((d) => {
    budget--;
    const s = d.doc.span;
    return {
      name: d.doc.embedded
        ? `${d.doc.embedded.name} (ConfigMap ${d.doc.embedded.configMap ?? 'without a name'})`
        : `document ${d.doc.index + 1}`,
      kind: 'document' as const,
      detail: d.doc.format ? FORMAT_LABELS[d.doc.format] : '',
      span: s,
      selection: [s[0], s[0]] as const,
      children: walk(d.doc.root, 1),
    };
  });
}
