// Real analyses for the DOM tests: an example file validated and estimated by the core, its panel sections built
// by buildSections exactly as the extension host builds them, and the messages the host would post.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSections, type PanelInput } from '../../src/core/panel/index.js';
import type { PlanState } from '../../src/core/panel/planner.js';
import { analyze } from '../../src/core/analysis.js';
import { DEFAULT_UI, PROTOCOL_VERSION, type Sections, type ToWebview, type UiState } from '../../src/protocol.js';
import { EXAMPLES } from '../helpers.js';

export const example = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');

export interface Analysis {
  uri: string;
  sections: Sections;
  ui: UiState;
}

/** The sections of `text` as the host builds them for the file `fileName` (UI state `ui`, planner state `plan`). */
export function analyse(
  fileName: string,
  text: string,
  opts: { ui?: Partial<UiState>; plan?: PlanState; uri?: string; docVersion?: number; worldSize?: number } = {},
): Analysis {
  const uri = opts.uri ?? `file:///work/${fileName}`;
  const ui: UiState = { ...structuredClone(DEFAULT_UI), uri, ...opts.ui };
  const input: PanelInput = {
    uri,
    fileName,
    docVersion: opts.docVersion ?? 5,
    analysis: analyze(text, opts.worldSize ? { worldSize: opts.worldSize } : {}),
    ui,
    layoutPage: 'rank',
    plan: opts.plan,
  };
  return { uri, sections: buildSections(input).sections, ui };
}

/** An example file's analysis. */
export const analyseExample = (name: string, opts: Parameters<typeof analyse>[2] = {}) => analyse(name, example(name), opts);

export const init = (a: Analysis): ToWebview => ({ v: PROTOCOL_VERSION, type: 'init', sections: a.sections, ui: a.ui });

/** An update carrying the sections of `next` whose JSON differs from `prev` (what src/vscode/panel.ts sends). */
export function update(prev: Analysis, next: Analysis): ToWebview {
  const sections: Partial<Record<keyof Sections, unknown>> = {};
  for (const [k, vm] of Object.entries(next.sections) as [keyof Sections, unknown][])
    if (JSON.stringify(vm) !== JSON.stringify(prev.sections[k])) sections[k] = vm;
  return { v: PROTOCOL_VERSION, type: 'update', sections: sections as Partial<Sections>, ui: next.ui };
}
