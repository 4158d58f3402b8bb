// The planning panel's view models: one pure function from a validated file, its estimate and the panel's
// UI state to the JSON of every section (src/protocol.ts). The host sends it; the webview draws it.
import type { HeaderVM, Sections, UiState } from './viewModels.js';
import { estimateOptionsFrom, type Analysis } from '../analysis.js';
import { estimateRecipe, reestimate, type DocEstimate, type EstimateOptions } from '../memory/estimate.js';
import { findGpu } from '../memory/gpus.js';
import type { Recipe } from '../recipe.js';
import { FORMAT_LABELS, type TextEdit } from '../types.js';
import { compareSection } from './compareLog.js';
import { kvSection } from './kv.js';
import { kvReuseSection } from './kvReuse.js';
import { plannerSection, type PlanCache, type PlanState } from './planner.js';
import { memorySection } from './memory.js';
import { quantSection } from './quant.js';
import { layoutSection } from './rankGrid.js';
import { whatIfSection } from './whatIf.js';

export interface PanelInput {
  uri: string;
  /** Shown in the header (the file's base name). */
  fileName: string;
  docVersion: number;
  /** The file's analysis (the one every view shares); undefined when Recipe Lens does not handle the file. */
  analysis: Analysis | undefined;
  ui: UiState;
  /** Page of the rank grid; 'rank' = the page holding the selected rank. */
  layoutPage: number | 'rank';
  /** The planner: its last search, and whether to run one now (never per keystroke: the host asks). */
  plan?: PlanState;
}

export interface PanelOutput {
  sections: Sections;
  /** The edits Apply would write (only when the what-if change can be applied). */
  edits?: TextEdit[];
  /** A search run for this call (input.plan.run), for the host to keep. */
  plan?: PlanCache;
  /** Per row of sections.planner.rows: the edits its Apply writes, or undefined where Apply is off. */
  planEdits?: (TextEdit[] | undefined)[];
}

export const EMPTY_MESSAGE = 'Open a NeMo, Megatron-Bridge or TensorRT-LLM YAML file (or a KV retention config) to plan it here.';

const nothing = (header: HeaderVM): Sections => ({
  header,
  memory: null,
  layout: null,
  quant: null,
  kv: null,
  whatIf: null,
  planner: null,
  kvReuse: null,
  compare: null,
});

export function emptySections(message = EMPTY_MESSAGE): Sections {
  return nothing({ state: 'empty', title: 'Recipe Lens', subtitle: '', message, uri: null, docVersion: null });
}

/** The estimate against another GPU: training re-estimates (reestimate), serving re-sizes its pool. */
export function withGpu(
  e: DocEstimate,
  recipe: Recipe | undefined,
  modeline: Record<string, string>,
  opts: EstimateOptions,
  gpuId: string | null,
): DocEstimate {
  if (!gpuId || e.kind === 'none' || e.kind === 'retention') return e;
  const gpu = findGpu(gpuId);
  if (!gpu || gpu.id === e.gpu.id) return e;
  if (e.kind === 'training') return { ...e, gpu, estimate: reestimate(e, e.config, gpu) };
  return estimateRecipe(recipe, { ...modeline, gpu: gpu.id }, opts);
}

/** The estimate options an analysis was computed with. */
export const estimateOptionsOf = (a: Analysis): EstimateOptions => estimateOptionsFrom(a.settings);

export function buildSections(input: PanelInput): PanelOutput {
  const a = input.analysis;
  const main = a?.main;
  const doc = main?.doc;
  if (!a || !main || !doc?.format) return { sections: emptySections() };
  const format = doc.format;
  const modeline = a.modeline;
  const recipe = main.recipe;
  const fileEstimate: DocEstimate = main.estimate ?? { kind: 'none', format, reason: 'the file has syntax errors' };
  const e = withGpu(fileEstimate, recipe, modeline, estimateOptionsOf(a), input.ui.gpu);
  const header: HeaderVM = {
    state: e.kind === 'none' ? 'no-estimate' : 'recipe',
    title: input.fileName,
    subtitle: `${FORMAT_LABELS[format]}${e.kind === 'training' || e.kind === 'serving' ? ` · ${e.shape.name}` : ''}${e.kind === 'training' || e.kind === 'serving' ? ` · ${e.gpu.name}` : ''}`,
    message: e.kind === 'none' ? `No memory estimate: ${e.reason}.` : '',
    uri: input.uri,
    docVersion: input.docVersion,
  };
  const sameDoc = input.ui.uri === input.uri;
  let whatIf: Sections['whatIf'] = null;
  let edits: TextEdit[] | undefined;
  let config = e.kind === 'training' ? e.config : undefined;
  let planner: Sections['planner'] = null;
  let plan: PlanCache | undefined;
  let planEdits: (TextEdit[] | undefined)[] | undefined;
  if (e.kind === 'training' && recipe?.kind === 'training') {
    // The document both sections write into: the same recipe, text and version.
    const target = { e, recipe, doc, text: a.text, uri: input.uri, docVersion: input.docVersion };
    const p = plannerSection({
      ...target,
      chosenWorld: sameDoc ? input.ui.layout.worldSize : null,
      modeline,
      whatIf: sameDoc ? input.ui.whatIf : {},
      state: input.plan ?? {},
    });
    planner = p.vm;
    plan = p.cache;
    planEdits = p.edits;
    const w = whatIfSection({ ...target, values: sameDoc ? input.ui.whatIf : {} });
    whatIf = w.vm;
    edits = w.edits;
    config = w.config;
  }
  const layout = layoutSection({
    recipe,
    settingsWorldSize: a.settings.worldSize,
    shape: e.kind === 'training' ? e.shape : undefined,
    config,
    worldSize: sameDoc ? input.ui.layout.worldSize : null,
    mode: input.ui.layout.mode,
    page: sameDoc ? input.layoutPage : 'rank',
    rank: sameDoc ? input.ui.rank : 0,
  });
  return {
    sections: {
      header,
      memory: memorySection(e),
      layout,
      quant: quantSection(e),
      kv: kvSection(e, recipe),
      whatIf,
      planner,
      kvReuse: kvReuseSection(e, recipe, input.uri, input.docVersion),
      compare: compareSection(e, input.uri, input.docVersion),
    },
    edits,
    plan,
    planEdits,
  };
}
