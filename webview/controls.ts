// The panel's controls (vscode-elements custom elements, registered by main.ts) and what a section can ask the
// panel to do (Actions: the message loop in app.ts implements them).
import type { LayoutViewState, WhatIfField, WhatIfValues } from '../src/protocol.js';
import { custom, h } from './dom.js';

export interface Actions {
  selectGpu(id: string): void;
  /** A what-if control changed; false when the text is not a value the field takes. */
  setWhatIf(field: WhatIfField, raw: string): boolean;
  resetWhatIf(): void;
  apply(uri: string, docVersion: number): void;
  selectRank(rank: number): void;
  layoutView(view: LayoutViewState): void;
  /** Run the planner (the host picks the GPU count unless `gpus` is given). */
  plan(gpus?: number): void;
  /** Put a planner row's values into the what-if controls. */
  previewCandidate(values: WhatIfValues): void;
  applyCandidate(uri: string, planId: number, index: number, docVersion: number): void;
  /** Simulate KV reuse for `uri` on a built-in workload. */
  kvReuse(uri: string, workload: string): void;
  /** Ask the editor for a trace file, then simulate it. */
  pickTrace(uri: string): void;
  /** Ask the editor for a training log, then compare it. */
  compareLog(uri: string): void;
  isOpen(id: string, dflt: boolean): boolean;
  setOpen(id: string, open: boolean): void;
}

export type Select = HTMLElement & {
  value: string;
  options: { label: string; value: string; selected?: boolean }[];
  label: string;
  disabled: boolean;
};
export type TextField = HTMLElement & {
  value: string;
  invalid: boolean;
  label: string;
  min: number | undefined;
  max: number | undefined;
  type: string;
};
export type Button = HTMLElement & { disabled: boolean; secondary: boolean };
export type Collapsible = HTMLElement & { open: boolean; heading: string; description: string };

/** A section wrapper: a collapsible with a heading, open state remembered across reloads. */
export function section(id: string, heading: string, a: Actions, dflt = true): { root: Collapsible; body: HTMLElement } {
  const root = custom<Collapsible>('vscode-collapsible', { id: `sec-${id}`, class: 'section' });
  root.heading = heading;
  root.open = a.isOpen(id, dflt);
  root.addEventListener('vsc-collapsible-toggle', (e) => {
    if (e.target === root) a.setOpen(id, root.open);
  });
  const body = h('div', { class: 'section-body' });
  root.append(body);
  return { root, body };
}

/** A drop-down; the options are data (Lit renders their labels as text). */
export function select(label: string, options: { value: string; label: string }[], value: string, onChange: (v: string) => void): Select {
  const el = custom<Select>('vscode-single-select', { 'aria-label': label });
  el.options = options.map((o) => ({ label: o.label, value: o.value, selected: o.value === value }));
  el.value = value;
  el.label = label;
  el.addEventListener('change', () => onChange(el.value));
  return el;
}

export function button(
  text: string,
  onClick: () => void,
  opts: { secondary?: boolean; disabled?: boolean; label?: string; key?: string } = {},
): Button {
  const b = custom<Button>('vscode-button', { 'aria-label': opts.label ?? text, 'data-key': opts.key }, text);
  b.secondary = !!opts.secondary;
  b.disabled = !!opts.disabled;
  b.addEventListener('click', () => {
    if (!b.disabled) onClick();
  });
  return b;
}

/** A label and its control on one row. */
export const labelled = (label: string, control: HTMLElement) =>
  h('div', { class: 'row' }, h('label', { class: 'field-label' }, label), control);

/**
 * The status line of a section that runs a job (KV reuse simulation, log comparison): announced politely while it runs
 * (`status`), as an alert when it failed; nothing when there is nothing to say.
 */
export function runMessage(state: 'idle' | 'running' | 'ready' | 'error', message: string): HTMLElement | null {
  if (!message) return null;
  const error = state === 'error';
  return h('p', { class: error ? 'message error' : 'message', role: state === 'running' ? 'status' : error ? 'alert' : null }, message);
}
