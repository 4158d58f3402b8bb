// The planning panel's data for one document, computed next to the analysis (in the server, never in the extension
// host): the sections (core/panel buildSections), the what-if preview, the planner's search and the edits Apply
// writes. The client keeps the UI state and sends it with each request; the server keeps the planner's searches.
import type { Analysis } from '../core/analysis.js';
import { buildSections, emptySections, type PanelOutput } from '../core/panel/index.js';
import type { PlanCache } from '../core/panel/planner.js';
import type { TextEdit } from '../core/types.js';
import type { ApplyParams, ApplyResult, PanelResult, PanelView, PlanResultMsg, WhatIfResult, WhatIfValues } from '../protocol.js';
import { spanRange } from './convert.js';

/** Searches kept (one per document, the most recent documents). */
const PLANS_KEPT = 8;

export interface PanelDoc {
  uri: string;
  version: number;
  analysis: Analysis | undefined;
}

/** The file's base name, as the header shows it. */
export const fileNameOf = (uri: string): string => {
  const last = uri.split(/[/\\]/).pop() || uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};

export class PanelState {
  private readonly plans = new Map<string, PlanCache>();
  private planCount = 0;

  /** The sections for `view`; `run` starts a planner search first. */
  private build(doc: PanelDoc | undefined, view: PanelView, run: boolean): { result: PanelResult; out?: PanelOutput } {
    const ui = structuredClone(view.ui);
    let layoutPage = view.layoutPage;
    if (!doc) return { result: { sections: emptySections(), ui, layoutPage } };
    const out = buildSections({
      uri: doc.uri,
      fileName: fileNameOf(doc.uri),
      docVersion: doc.version,
      analysis: doc.analysis,
      ui,
      layoutPage,
      plan: { cache: this.plans.get(doc.uri), run: run ? { id: ++this.planCount } : undefined, running: !run && !!view.planRunning },
    });
    if (out.plan) {
      this.plans.delete(doc.uri);
      this.plans.set(doc.uri, out.plan);
      while (this.plans.size > PLANS_KEPT) this.plans.delete(this.plans.keys().next().value!);
    }
    const s = out.sections;
    // Keep the grid where the view model put it (a page number from now on, clamped to the grid).
    if (s.layout?.reason === null) {
      ui.layout = { ...ui.layout, mode: s.layout.view.mode, page: s.layout.view.page };
      ui.rank = s.layout.selected?.rank ?? 0;
      layoutPage = s.layout.view.page;
    }
    return { result: { sections: s, ui, layoutPage }, out };
  }

  panel(doc: PanelDoc | undefined, view: PanelView): PanelResult {
    return this.build(doc, view, false).result;
  }

  whatIf(doc: PanelDoc | undefined, view: PanelView, values: WhatIfValues): WhatIfResult {
    const { result, out } = this.build(doc, { ...view, ui: { ...view.ui, whatIf: values } }, false);
    return {
      version: doc?.version ?? null,
      panel: result,
      changes: result.sections.whatIf?.changes.length ?? 0,
      applicable: !!out?.edits?.length,
    };
  }

  plan(doc: PanelDoc | undefined, view: PanelView, gpus: number | undefined): PlanResultMsg {
    let v = view;
    if (gpus !== undefined && gpus !== view.ui.layout.worldSize)
      // The planner's GPU count is the layout section's: both show the same world from now on.
      v = { ...view, ui: { ...view.ui, layout: { ...view.ui.layout, worldSize: gpus, page: 0 } }, layoutPage: 'rank' };
    const { result } = this.build(doc, v, true);
    const p = result.sections.planner;
    const ready = p?.state === 'ready';
    return {
      version: doc?.version ?? null,
      panel: result,
      rows: ready ? p.rows.length : null,
      message: ready ? '' : !p ? 'this file has no training layout to plan' : p.message || 'the planner could not run',
    };
  }

  /** The edits of the preview or of planner row `index`, for exactly the document version the client saw. */
  apply(doc: PanelDoc | undefined, params: ApplyParams): ApplyResult {
    const { version } = params.textDocument;
    const candidate = params.target.kind === 'candidate';
    if (!doc?.analysis) return { ok: false, reason: 'Recipe Lens does not handle this file now; nothing was written.' };
    if (doc.version !== version)
      return {
        ok: false,
        reason: candidate
          ? `the file changed since the layouts were listed (version ${version}, now ${doc.version}); check the list and apply again.`
          : `the file changed since the preview was computed (version ${version}, now ${doc.version}); check the new preview and apply again.`,
      };
    const { result, out } = this.build(doc, params.panel, false);
    let edits: TextEdit[] | undefined;
    let keys: number;
    if (params.target.kind === 'candidate') {
      const { planId, index } = params.target;
      const p = result.sections.planner;
      if (p?.state !== 'ready' || p.planId !== planId)
        return {
          ok: false,
          reason: 'the layout list changed since (another search, GPU or GPU count); check the new list and apply again.',
        };
      edits = out?.planEdits?.[index];
      if (!edits?.length) return { ok: false, reason: `layout ${index + 1} cannot be applied (see its conflicts in the Layouts section).` };
      keys = p.rows[index]?.changes.length ?? edits.length;
    } else {
      edits = out?.edits;
      if (!edits?.length) return { ok: false, reason: 'this change cannot be applied (see the conflicts in the what-if section).' };
      keys = result.sections.whatIf?.changes.length ?? edits.length;
    }
    const a = doc.analysis;
    return {
      ok: true,
      keys,
      edit: {
        documentChanges: [
          { textDocument: { uri: doc.uri, version }, edits: edits.map((e) => ({ range: spanRange(a, e.span), newText: e.newText })) },
        ],
      },
    };
  }

  forget(uri: string): void {
    this.plans.delete(uri);
  }
}
