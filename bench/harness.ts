// The parts of src/core the benchmark drives, bundled by bench/run.mjs into bench/tmp/harness.cjs.
// Each function does what the extension host does for one request, nothing more and nothing less.
import { pathAtOffset } from '../src/core/cursor.js';
import { parseFile, type RecipeDoc } from '../src/core/document.js';
import { hoverMarkdown } from '../src/core/hoverText.js';
import { estimateDoc, type DocEstimate } from '../src/core/memory/estimate.js';
import { KV_KEYS, memoryHoverMarkdown, retentionHoverMarkdown, servingHoverMarkdown } from '../src/core/memory/hover.js';
import { LEVER_KEYS } from '../src/core/memory/whatIf.js';
import { sortFindings, toDiagnostics, validateText, type ValidateOptions } from '../src/core/validate.js';
import type { Diagnostic } from '../src/core/types.js';

/** The extension's defaults (src/vscode/settings.ts): memory warnings on, H100, Megatron profile, flash attention. */
export const EXTENSION_DEFAULTS: ValidateOptions = {
  maxLength: 5120 * 1024,
  memory: { gpu: 'h100', profile: 'megatron', attention: 'flash' },
};

/** Full validation as AnalysisCache.get does it: parse, schema, rules, memory check, then LSP-style diagnostics. */
export function fullValidate(
  text: string,
  opts: ValidateOptions = EXTENSION_DEFAULTS,
): { format: string | null; diagnostics: Diagnostic[]; tooLarge: boolean } {
  const r = validateText(text, opts);
  return { format: r.format, diagnostics: toDiagnostics(r.parsed, sortFindings(r.findings)), tooLarge: !!r.parsed.tooLarge };
}

export interface Prepared {
  doc: RecipeDoc;
  modeline: Record<string, string>;
}

/** Parse once, keep the first recipe document (hover and estimate run on the cached analysis in the extension). */
export function prepare(text: string): Prepared | undefined {
  const parsed = parseFile(text);
  const doc = parsed.docs.find((d) => d.format);
  return doc ? { doc, modeline: parsed.modeline?.values ?? {} } : undefined;
}

export function estimate(p: Prepared): DocEstimate {
  return estimateDoc(p.doc, p.modeline, EXTENSION_DEFAULTS.memory);
}

/** Offset of the first occurrence of `key:` as a mapping key (for placing the hover cursor). */
export function keyOffset(text: string, key: string): number {
  const m = new RegExp(`^[ \\t]*${key}:`, 'm').exec(text);
  return m ? m.index + m[0].indexOf(key) + 1 : -1;
}

/**
 * Hover content at `offset`, the work of RecipeHoverProvider.provideHover on a cached analysis:
 * cursor → path, the memory estimate (not cached: the first hover after an edit pays for it), the markdown.
 */
export function hover(p: Prepared, offset: number): string[] {
  const where = pathAtOffset(p.doc.root, offset);
  if (!where?.entry || !p.doc.format) return [];
  const key = where.path[where.path.length - 1];
  const lever = typeof key === 'string' ? LEVER_KEYS[key] : undefined;
  const parts: string[] = [];
  if (typeof key === 'string') {
    const e = estimate(p);
    if (e.kind === 'training' && lever) parts.push(memoryHoverMarkdown(e, lever));
    if (e.kind === 'serving' && (KV_KEYS.has(key) || where.path[0] === 'kv_cache_config' || where.path[1] === 'kv_cache_config'))
      parts.push(
        servingHoverMarkdown(e, typeof where.path[0] === 'string' && where.path[0].endsWith('_servers') ? where.path[0] : undefined),
      );
    if (e.kind === 'retention') parts.push(retentionHoverMarkdown(e));
  }
  const md = hoverMarkdown(p.doc, p.doc.format, where.path);
  if (md) parts.push(md);
  return parts;
}
