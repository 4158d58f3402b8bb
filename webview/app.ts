// The planning panel's message loop and state: it says `ready` (with the UI state it kept through setState), then
// draws whatever sections the host sends, each into its slot; it never computes an estimate. Every host message is
// validated (parseHostMessage) before anything is drawn: a malformed one is refused with its reason, and the panel
// keeps what it showed.
import {
  DEFAULT_UI,
  parseHostMessage,
  parseWebviewState,
  PRECISION_CHOICES,
  PROTOCOL_VERSION,
  RECOMPUTE_CHOICES,
  SECTION_IDS,
  type FromWebview,
  type LayoutViewState,
  type SectionId,
  type Sections,
  type WebviewState,
  type WhatIfField,
  type WhatIfValues,
} from '../src/protocol.js';
import { section, type Actions } from './controls.js';
import { h } from './dom.js';
import { renderHeader } from './sections/header.js';
import { renderCompare } from './sections/compare.js';
import { renderKv } from './sections/kv.js';
import { renderKvReuse } from './sections/kvReuse.js';
import { renderLayout } from './sections/layout.js';
import { renderMemory } from './sections/memory.js';
import { renderPlanner } from './sections/planner.js';
import { renderQuant } from './sections/quant.js';
import { WhatIfView } from './sections/whatIf.js';

/** The part of acquireVsCodeApi() the panel uses. */
export interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

const TITLES: Record<Exclude<SectionId, 'header'>, string> = {
  memory: 'Memory',
  whatIf: 'What if',
  planner: 'Layouts',
  layout: 'Parallel layout',
  quant: 'Quantization',
  kv: 'KV cache',
  kvReuse: 'KV reuse',
  compare: 'Compare with a training log',
};
/** The order of the sections on the page. */
const ORDER: SectionId[] = ['header', 'memory', 'compare', 'whatIf', 'planner', 'layout', 'quant', 'kv', 'kvReuse'];

/** Starts the panel in the page's `#app` and `#notice` (src/core/panel/html.ts); `dispose` stops it. */
export function startPanel(api: VsCodeApi): { dispose(): void } {
  // What survives hide/show: the UI state, the open/closed sections and the last sections for an instant first paint.
  const kept = api.getState();
  const restored = kept == null ? undefined : parseWebviewState(kept);
  if (restored && !restored.ok) console.warn(`Recipe Lens: dropped the saved panel state: ${restored.error}`);
  const saved = restored?.ok ? restored.msg : undefined;
  const state: WebviewState = saved ?? { v: PROTOCOL_VERSION, ui: structuredClone(DEFAULT_UI), open: {}, sections: {} };
  const rendered = new Map<SectionId, string>();

  const send = (msg: FromWebview) => api.postMessage(msg);
  const persist = () => api.setState(state);

  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  function sendPreview(): void {
    if (previewTimer) clearTimeout(previewTimer);
    previewTimer = setTimeout(() => {
      previewTimer = undefined;
      send({ v: PROTOCOL_VERSION, type: 'preview', values: state.ui.whatIf });
    }, 30);
  }

  const actions: Actions = {
    selectGpu(id) {
      state.ui.gpu = id;
      persist();
      send({ v: PROTOCOL_VERSION, type: 'selectGpu', gpu: id });
    },
    setWhatIf(f: WhatIfField, raw: string) {
      const values: WhatIfValues = { ...state.ui.whatIf };
      const key = f.key;
      if (f.kind === 'int') {
        const n = Number(raw.trim());
        if (raw.trim() === '' || !Number.isInteger(n) || n < f.min || n > f.max) return false;
        if (String(n) === f.file) delete values[key];
        else (values as Record<string, number>)[key] = n;
      } else {
        const ok =
          key === 'recompute'
            ? (RECOMPUTE_CHOICES as readonly string[]).includes(raw)
            : (PRECISION_CHOICES as readonly string[]).includes(raw);
        if (raw === f.file || !ok) delete values[key];
        else (values as Record<string, string>)[key] = raw;
      }
      if (JSON.stringify(values) === JSON.stringify(state.ui.whatIf)) return true;
      state.ui.whatIf = values;
      persist();
      sendPreview();
      return true;
    },
    resetWhatIf() {
      state.ui.whatIf = {};
      persist();
      sendPreview();
    },
    apply(uri, docVersion) {
      send({ v: PROTOCOL_VERSION, type: 'apply', uri, docVersion });
    },
    selectRank(rank) {
      state.ui.rank = rank;
      persist();
      send({ v: PROTOCOL_VERSION, type: 'selectRank', rank });
    },
    layoutView(view: LayoutViewState) {
      state.ui.layout = view;
      persist();
      send({ v: PROTOCOL_VERSION, type: 'layoutView', view });
    },
    plan(gpus) {
      send(gpus === undefined ? { v: PROTOCOL_VERSION, type: 'plan' } : { v: PROTOCOL_VERSION, type: 'plan', gpus });
    },
    previewCandidate(values) {
      state.ui.whatIf = { ...values };
      persist();
      sendPreview();
    },
    applyCandidate(uri, planId, index, docVersion) {
      send({ v: PROTOCOL_VERSION, type: 'applyCandidate', uri, planId, index, docVersion });
    },
    kvReuse(uri, workload) {
      send({ v: PROTOCOL_VERSION, type: 'kvReuse', uri, workload });
    },
    pickTrace(uri) {
      send({ v: PROTOCOL_VERSION, type: 'pickTrace', uri });
    },
    compareLog(uri) {
      send({ v: PROTOCOL_VERSION, type: 'compareLog', uri });
    },
    isOpen: (id, dflt) => state.open[id] ?? dflt,
    setOpen(id, open) {
      state.open[id] = open;
      persist();
    },
  };

  // ---- the page: one slot per section, in a fixed order ----------------------------------------------

  const app = document.getElementById('app')!;
  const notice = document.getElementById('notice')!;
  const slots = new Map<SectionId, HTMLElement>();
  for (const id of ORDER) {
    const slot = h('div', { class: `slot slot-${id}` });
    slots.set(id, slot);
    app.append(slot);
  }
  const whatIf = new WhatIfView(actions);
  let plannerRunning = false;
  /** The newest search drawn (a newer one that arrives without "Searching…" first came from the Suggest Layouts command). */
  let plannerSeen = state.sections.planner?.planId ?? 0;
  let plannerFocus: string | null | undefined = null;

  function render(id: SectionId, sections: Partial<Sections>): void {
    const slot = slots.get(id)!;
    const vm = sections[id];
    const json = JSON.stringify(vm ?? null);
    // The host sends only changed sections; this check also covers the first paint from saved state.
    if (rendered.get(id) === json) return;
    rendered.set(id, json);
    if (!vm) {
      slot.replaceChildren();
      return;
    }
    if (id === 'header') {
      slot.replaceChildren(renderHeader(sections.header!));
      return;
    }
    const wrap = () => {
      const sec = section(id, TITLES[id], actions);
      slot.replaceChildren(sec.root);
      return sec.body;
    };
    switch (id) {
      case 'memory':
        wrap().append(renderMemory(sections.memory!, actions));
        break;
      case 'whatIf': {
        // Keep the controls (and the focus in them): build the collapsible once.
        if (!slot.firstChild) wrap().append(whatIf.root);
        const mem = state.sections.memory;
        whatIf.update(sections.whatIf!, mem?.gpuOptions ?? null, mem?.gpu.id ?? null);
        break;
      }
      case 'layout': {
        const active = document.activeElement;
        const hadFocus = !!active && slot.contains(active) && active.classList.contains('cell');
        wrap().append(renderLayout(sections.layout!, actions, hadFocus));
        break;
      }
      case 'planner': {
        const vm = sections.planner!;
        // Keep the keyboard where it was (a row's Preview or Apply, the Suggest button) across the redraw.
        // (A search disables the button and so drops the focus: it goes back there when the list arrives.)
        const active = document.activeElement as HTMLElement | null;
        const inSlot = active && slot.contains(active) ? active.closest('[data-key]')?.getAttribute('data-key') : null;
        const key = inSlot ?? (!active || active === document.body ? plannerFocus : null);
        const wasRunning = plannerRunning;
        plannerRunning = vm.state === 'running';
        plannerFocus = plannerRunning ? key : null;
        const fresh = vm.state === 'ready' && vm.planId > plannerSeen;
        if (vm.state === 'ready') plannerSeen = Math.max(plannerSeen, vm.planId);
        // A search just started or arrived unasked (the Suggest Layouts command): open the section and bring it into view.
        const reveal = !wasRunning && (plannerRunning || fresh);
        if (reveal) state.open.planner = true;
        wrap().append(renderPlanner(vm, actions));
        // After the collapsible has drawn (Lit renders in a microtask) and the sections below it are in place.
        if (reveal) requestAnimationFrame(() => slot.scrollIntoView({ block: 'start' }));
        if (key)
          queueMicrotask(() =>
            Array.from(slot.querySelectorAll<HTMLElement>('[data-key]'))
              .find((el) => el.getAttribute('data-key') === key)
              ?.focus(),
          );
        break;
      }
      case 'quant':
        wrap().append(renderQuant(sections.quant!));
        break;
      case 'kv':
        wrap().append(renderKv(sections.kv!));
        break;
      case 'kvReuse':
        wrap().append(renderKvReuse(sections.kvReuse!, actions));
        break;
      case 'compare':
        wrap().append(renderCompare(sections.compare!, actions));
        break;
    }
  }

  function renderAll(changed: readonly SectionId[]): void {
    for (const id of ORDER) if (changed.includes(id)) render(id, state.sections);
    // The what-if GPU picker mirrors the memory section's.
    if (changed.includes('memory') && !changed.includes('whatIf') && state.sections.whatIf) {
      rendered.delete('whatIf');
      render('whatIf', state.sections);
    }
  }

  let noticeTimer: ReturnType<typeof setTimeout> | undefined;
  function showNotice(level: 'info' | 'warning' | 'error', text: string): void {
    if (noticeTimer) clearTimeout(noticeTimer);
    notice.className = `notice notice-${level}`;
    notice.setAttribute('role', level === 'info' ? 'status' : 'alert');
    notice.textContent = text;
    noticeTimer = setTimeout(() => {
      notice.textContent = '';
      notice.className = '';
    }, 10_000);
  }

  function receive(ev: MessageEvent): void {
    const parsed = parseHostMessage(ev.data);
    if (!parsed.ok) {
      // Nothing of it is drawn or kept: the panel goes on showing the last good sections.
      console.error(`Recipe Lens: the planning panel refused a message from the extension: ${parsed.error}`);
      showNotice('error', `The panel refused an update it could not read (${parsed.error}); it still shows the previous one.`);
      return;
    }
    const msg = parsed.msg;
    switch (msg.type) {
      case 'init':
        state.sections = msg.sections;
        state.ui = msg.ui;
        rendered.clear();
        renderAll(SECTION_IDS);
        break;
      case 'update': {
        const ids = SECTION_IDS.filter((id) => Object.hasOwn(msg.sections, id));
        state.sections = { ...state.sections, ...msg.sections };
        state.ui = { ...msg.ui, whatIf: previewTimer ? state.ui.whatIf : msg.ui.whatIf };
        renderAll(ids);
        break;
      }
      case 'notice':
        showNotice(msg.level, msg.text);
        break;
      case 'error':
        showNotice('error', msg.message);
        break;
    }
    persist();
  }
  window.addEventListener('message', receive);

  // Instant first paint from the saved sections, then the handshake: the host sends nothing before `ready`.
  if (saved) renderAll(SECTION_IDS);
  send({ v: PROTOCOL_VERSION, type: 'ready', ui: saved ? state.ui : null });

  return {
    dispose() {
      window.removeEventListener('message', receive);
      for (const t of [previewTimer, noticeTimer]) if (t) clearTimeout(t);
      whatIf.dispose();
    },
  };
}
