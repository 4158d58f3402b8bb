// The parts of src/core the benchmark drives, bundled by bench/run.mjs into bench/tmp/harness.cjs.
// Each function does what the editor does for one request, nothing more and nothing less.
import { analyze, AnalysisStore, type Analysis, type AnalysisSettings } from '../src/core/analysis.js';
import { hoverAt } from '../src/core/hover.js';
import { estimateRecipe, type DocEstimate } from '../src/core/memory/estimate.js';
import type { Recipe } from '../src/core/recipe.js';
import type { Diagnostic } from '../src/core/types.js';
import { DocumentStore } from '../src/server/documents.js';
import { Engine } from '../src/server/engine.js';

/** The extension's defaults (src/vscode/settings.ts): memory warnings on, H100, Megatron profile, flash attention. */
export const EXTENSION_DEFAULTS: AnalysisSettings = {
  maxLength: 5120 * 1024,
  gpu: 'h100',
  profile: 'megatron',
  attention: 'flash',
  memoryWarnings: true,
};

/** The whole analysis of one version (parse, detect, normalize, schema, rules, estimate, RL-MEM), then LSP diagnostics. */
export function fullValidate(
  text: string,
  opts: AnalysisSettings = EXTENSION_DEFAULTS,
): { format: string | null; diagnostics: Diagnostic[]; tooLarge: boolean } {
  const a = analyze(text, opts);
  return { format: a.format, diagnostics: a.diagnostics, tooLarge: !!a.parsed.tooLarge };
}

/** A keystroke as the editor sees it: a new version; the store computes it once, every consumer gets the same. */
export function keystroke(store: AnalysisStore, version: number, text: string): number {
  const a = store.get('file:///bench.yaml', version, () => text, EXTENSION_DEFAULTS);
  // Diagnostics, the status bar and the panel all read the same analysis: a second ask costs a map lookup.
  store.get('file:///bench.yaml', version, () => text, EXTENSION_DEFAULTS);
  return a.diagnostics.length;
}

export const newStore = () => new AnalysisStore();

export interface Prepared {
  analysis: Analysis;
  recipe: Recipe | undefined;
  modeline: Record<string, string>;
}

/** The analysis once (hover and the estimate run on the cached analysis in the editor). */
export function prepare(text: string): Prepared | undefined {
  const analysis = analyze(text, EXTENSION_DEFAULTS);
  const main = analysis.main;
  return main ? { analysis, recipe: main.recipe, modeline: analysis.modeline } : undefined;
}

/** The estimate itself: the memory model on the normalized recipe (what the analysis computes once per version). */
export function estimate(p: Prepared): DocEstimate {
  return estimateRecipe(p.recipe, p.modeline, EXTENSION_DEFAULTS);
}

/** Offset of the first occurrence of `key:` as a mapping key (for placing the hover cursor). */
export function keyOffset(text: string, key: string): number {
  const m = new RegExp(`^[ \\t]*${key}:`, 'm').exec(text);
  return m ? m.index + m[0].indexOf(key) + 1 : -1;
}

/** Hover content at `offset` on a cached analysis: cursor → path → field, the memory and schema markdown. */
export function hover(p: Prepared, offset: number): string[] {
  return hoverAt(p.analysis, offset)?.contents ?? [];
}

// ---------------------------------------------------------------------------------------------- the language server

export interface ServerDoc {
  engine: Engine;
  uri: string;
  version: number;
}

/** One document in the server's engine (src/server/engine.ts), its analysis computed (as after the first request). */
export function serverDoc(text: string): ServerDoc {
  const docs = new DocumentStore();
  const uri = 'file:///bench/server.yaml';
  docs.set(uri, 'yaml', 1, text);
  const engine = new Engine(docs);
  engine.run({ feature: 'diagnostics', uri, version: 1, settings: EXTENSION_DEFAULTS, params: {} });
  return { engine, uri, version: 1 };
}

/** textDocument/hover as the server computes it (cached analysis → hover → LSP Hover), without the transport. */
export function serverHover(d: ServerDoc, line: number, character: number): unknown {
  const r = d.engine.run({
    feature: 'hover',
    uri: d.uri,
    version: d.version,
    settings: EXTENSION_DEFAULTS,
    params: { position: { line, character } },
  });
  return r.ok ? r.value : undefined;
}
