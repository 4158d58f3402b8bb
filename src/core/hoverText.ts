// Hover content for a key: the schema description, type, range, default, and the resolved value.
import { valueAt, type RecipeDoc } from './document.js';
import { UNRESOLVED } from './interpolate.js';
import { RULES } from './ruleCatalog.js';
import { propertyInfo } from './schemaNav.js';
import { pathToString, type TreeNode } from './tree.js';
import { FORMAT_LABELS, type FormatId, type PathSeg } from './types.js';

function constraint(info: NonNullable<ReturnType<typeof propertyInfo>>): string {
  const parts: string[] = [];
  if (info.types.length) parts.push(info.types.join(' | '));
  if (info.minimum !== undefined) parts.push(`≥ ${info.minimum}`);
  if (info.exclusiveMinimum !== undefined) parts.push(`> ${info.exclusiveMinimum}`);
  if (info.maximum !== undefined) parts.push(`≤ ${info.maximum}`);
  if (info.exclusiveMaximum !== undefined) parts.push(`< ${info.exclusiveMaximum}`);
  return parts.join(' ');
}

const code = (v: unknown) => '`' + (typeof v === 'string' ? v : JSON.stringify(v)).replace(/`/g, "'") + '`';

/** Markdown for the key at `path`, or undefined when the schema knows nothing about it. */
export function hoverMarkdown(doc: RecipeDoc, format: FormatId, path: readonly PathSeg[]): string | undefined {
  const info = propertyInfo(format, path);
  if (!info?.description) return undefined;
  const lines: string[] = [];
  const c = constraint(info);
  lines.push(`**${code(pathToString(path))}**${c ? ` — ${c}` : ''}`);
  lines.push('');
  lines.push(info.description);
  const facts: string[] = [];
  if (info.enum?.length) facts.push(`one of ${info.enum.map(code).join(', ')}`);
  if (info.default !== undefined) facts.push(`default ${code(info.default)}`);
  if (info.rule) facts.push(`rule ${info.rule}: ${RULES[`RL-${info.rule}`]?.title ?? ''}`.trim());
  if (facts.length) lines.push('', facts.join(' · '));
  if (info.deprecated) lines.push('', `**Deprecated:** ${info.deprecated}`);
  const raw = lookupScalar(doc.root, path);
  if (raw !== undefined && typeof raw === 'string' && raw.includes('${')) {
    const v = valueAt(doc, path);
    lines.push('', v === UNRESOLVED ? `Interpolation ${code(raw)} is resolved at launch (not in this file).` : `Resolves to ${code(v)}.`);
  }
  lines.push('', `_${FORMAT_LABELS[format]} · Recipe Lens_`);
  return lines.join('\n');
}

function lookupScalar(root: TreeNode | undefined, path: readonly PathSeg[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (!cur) return undefined;
    if (typeof seg === 'number') cur = cur.kind === 'seq' ? cur.items[seg] : undefined;
    else cur = cur.kind === 'map' ? cur.entries.find((e) => e.key === seg)?.value : undefined;
  }
  return cur?.kind === 'scalar' ? cur.value : undefined;
}
