// Hover text for NeMo-RL `defaults:` chains: on `defaults:` the parents read and the recipe values they set (with the
// file and line of each), on a key the parent value it overrides, on a `${…}` the file its target is written in.
import { inheritedFrom, overridden, type DocChain } from './defaultsChain.js';
import type { FieldLoc } from './formats/table.js';
import { splitInterpolations } from './interpolate.js';
import type { Recipe } from './recipe.js';
import { lookup, parsePath, pathToString, plainValue, type TreeNode } from './tree.js';
import type { KeyPath } from './types.js';

const code = (v: unknown) => '`' + (typeof v === 'string' ? v : JSON.stringify(v)).replace(/`/g, "'") + '`';
const shown = (n: TreeNode) => {
  const v = plainValue(n);
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
};

/** Inherited recipe values listed on the `defaults:` hover at most (the rest are counted). */
const MAX_LISTED = 24;

export function chainHoverMarkdown(chain: DocChain, path: KeyPath, recipe: Recipe | undefined): string | undefined {
  if (path[0] === 'defaults') return defaultsHover(chain, recipe);
  const lines: string[] = [];
  const over = overridden(chain, path);
  if (over) lines.push(`Overrides ${code(shown(over.node))} from \`${over.at.name}\` line ${over.at.range.start.line + 1}.`);
  const own = lookup(chain.files[0]!.root, path)?.node;
  if (own?.kind === 'scalar' && typeof own.value === 'string') {
    const parts = splitInterpolations(own.value) ?? [];
    for (const p of parts) {
      if (!('interp' in p) || p.interp.includes(':') || p.interp.startsWith('.')) continue;
      const hit = lookup(chain.root, parsePath(p.interp.trim()));
      const from = hit && inheritedFrom(chain, hit.entry, hit.node);
      if (from) lines.push(`\`\${${p.interp}}\` is set in \`${from.name}\` line ${from.range.start.line + 1} (${code(shown(hit.node))}).`);
    }
  }
  return lines.length ? lines.join('\n\n') : undefined;
}

function defaultsHover(chain: DocChain, recipe: Recipe | undefined): string {
  const lines: string[] = ['**`defaults:` chain** (nemo_rl/utils/config.py load_config: parents first, this file overrides)', ''];
  for (const s of chain.sources) {
    const f = chain.files.find((x) => x.path === s.path);
    lines.push(
      `- \`${f?.name ?? s.path}\` — ${s.text === undefined ? 'not read (missing or unreadable)' : f ? 'read and merged' : 'read, not merged'}`,
    );
  }
  if (!chain.sources.length) lines.push('- no parent read here (see the information on this line)');
  const inherited: [string, FieldLoc, unknown][] = [];
  if (recipe?.kind === 'training') {
    for (const [k, l] of Object.entries(recipe.loc) as [string, FieldLoc][])
      if (l.inherited) inherited.push([k, l, (recipe.values as Record<string, unknown>)[k]]);
    for (const [k, l] of Object.entries(recipe.rl?.loc ?? {}) as [string, FieldLoc][])
      if (l.inherited) inherited.push([k, l, (recipe.rl!.values as Record<string, unknown>)[k]]);
  }
  // A key two tables read (cluster.gpus_per_node) is listed once.
  const seen = new Set<string>();
  const unique = inherited.filter(([, l]) => {
    const k = pathToString(l.path);
    return !seen.has(k) && !!seen.add(k);
  });
  inherited.length = 0;
  inherited.push(...unique);
  if (inherited.length) {
    inherited.sort((a, b) => pathToString(a[1].path).localeCompare(pathToString(b[1].path)));
    lines.push('', `**Values this file inherits** (${inherited.length}):`, '');
    for (const [, l, v] of inherited.slice(0, MAX_LISTED))
      lines.push(
        `- \`${pathToString(l.path)}\` = ${code(v === undefined ? '(unresolved)' : v)} — \`${l.inherited!.name}\` line ${l.inherited!.range.start.line + 1}`,
      );
    if (inherited.length > MAX_LISTED) lines.push(`- … and ${inherited.length - MAX_LISTED} more`);
  }
  if (!chain.complete)
    lines.push('', '_Some parents were not read: values they would set are unknown, and the rules that need them say nothing._');
  return lines.join('\n');
}
