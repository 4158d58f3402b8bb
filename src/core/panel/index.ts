// The planning panel's view models: one pure function from a validated file, its estimate and the panel's
// UI state to the JSON of every section (src/protocol.ts). The host sends it; the webview draws it.
import type { HeaderVM, Sections, UiState } from './viewModels.js';
import type { RecipeDoc } from '../document.js';
import { estimateDoc, reestimate, type DocEstimate, type EstimateOptions } from '../memory/estimate.js';
import { findGpu } from '../memory/gpus.js';
import { FORMAT_LABELS, type TextEdit } from '../types.js';
import type { ValidateOptions, ValidationResult } from '../validate.js';
import { kvSection } from './kv.js';
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
  text: string;
  /** The file's validation; undefined when Recipe Lens does not handle the file (not YAML, disabled). */
  result: ValidationResult | undefined;
  /** The estimate of the recipe document, when the caller has it cached. */
  estimate?: DocEstimate;
  estimateOptions: EstimateOptions;
  validateOptions: ValidateOptions;
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
});

export function emptySections(message = EMPTY_MESSAGE): Sections {
  return nothing({ state: 'empty', title: 'Recipe Lens', subtitle: '', message, uri: null, docVersion: null });
}

/** The estimate against another GPU: training re-estimates (reestimate), serving re-sizes its pool. */
export function withGpu(
  e: DocEstimate,
  doc: RecipeDoc,
  modeline: Record<string, string>,
  opts: EstimateOptions,
  gpuId: string | null,
): DocEstimate {
  if (!gpuId || e.kind === 'none' || e.kind === 'retention') return e;
  const gpu = findGpu(gpuId);
  if (!gpu || gpu.id === e.gpu.id) return e;
  if (e.kind === 'training') return { ...e, gpu, estimate: reestimate(e, e.config, gpu) };
  return estimateDoc(doc, { ...modeline, gpu: gpu.id }, opts);
}

export function buildSections(input: PanelInput): PanelOutput {
  const r = input.result;
  const doc = r?.parsed.docs.find((d) => d.format);
  if (!r || !doc?.format) return { sections: emptySections() };
  const format = doc.format;
  const modeline = r.parsed.modeline?.values ?? {};
  const fileEstimate = input.estimate ?? estimateDoc(doc, modeline, input.estimateOptions);
  const e = withGpu(fileEstimate, doc, modeline, input.estimateOptions, input.ui.gpu);
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
  if (e.kind === 'training') {
    // The document both sections write into: the same file, version, findings and validation options.
    const target = {
      e,
      doc,
      format,
      text: input.text,
      uri: input.uri,
      docVersion: input.docVersion,
      validate: input.validateOptions,
      findings: r.findings,
    };
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
    doc,
    format,
    settingsWorldSize: input.validateOptions.worldSize,
    shape: e.kind === 'training' ? e.shape : undefined,
    config,
    worldSize: sameDoc ? input.ui.layout.worldSize : null,
    mode: input.ui.layout.mode,
    page: sameDoc ? input.layoutPage : 'rank',
    rank: sameDoc ? input.ui.rank : 0,
  });
  return {
    sections: { header, memory: memorySection(e), layout, quant: quantSection(e), kv: kvSection(e, doc), whatIf, planner },
    edits,
    plan,
    planEdits,
  };
}
