// Entry of the webview bundle (dist/webview.js): the planning panel. It says `ready` (with the UI state it
// kept through setState), then draws whatever sections the host sends; it never computes an estimate.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import {
  DEFAULT_UI,
  isHostMessage,
  PRECISION_CHOICES,
  PROTOCOL_VERSION,
  RECOMPUTE_CHOICES,
  SECTION_IDS,
  type FromWebview,
  type LayoutViewState,
  type SectionId,
  type Sections,
  type UiState,
  type WhatIfField,
  type WhatIfValues,
} from '../src/protocol.js';
import { h } from './dom.js';
import {
  renderHeader,
  renderKv,
  renderLayout,
  renderMemory,
  renderPlanner,
  renderQuant,
  section,
  WhatIfView,
  type Actions,
} from './render.js';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** What survives hide/show: the UI state, the open/closed sections and the last sections for an instant first paint. */
interface Saved {
  v: typeof PROTOCOL_VERSION;
  ui: UiState;
  open: Record<string, boolean>;
  sections: Partial<Sections>;
}

const api = acquireVsCodeApi();
const saved = api.getState() as Saved | undefined;
const state: Saved =
  saved && saved.v === PROTOCOL_VERSION && saved.ui
    ? saved
    : { v: PROTOCOL_VERSION, ui: structuredClone(DEFAULT_UI), open: {}, sections: {} };
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
  isOpen: (id, dflt) => state.open[id] ?? dflt,
  setOpen(id, open) {
    state.open[id] = open;
    persist();
  },
};

// ---- layout of the page: one slot per section, in a fixed order ---------------------------------------

const app = document.getElementById('app')!;
const notice = document.getElementById('notice')!;
const TITLES: Record<Exclude<SectionId, 'header'>, string> = {
  memory: 'Memory',
  whatIf: 'What if',
  planner: 'Layouts',
  layout: 'Parallel layout',
  quant: 'Quantization',
  kv: 'KV cache',
};
const ORDER: SectionId[] = ['header', 'memory', 'whatIf', 'planner', 'layout', 'quant', 'kv'];
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
    const sec = section(id, TITLES[id as Exclude<SectionId, 'header'>], actions);
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
      const hadFocus =
        slot.contains(document.activeElement) && (document.activeElement as HTMLElement | null)?.classList.contains('cell') === true;
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
      if (key) queueMicrotask(() => (slot.querySelector(`[data-key="${CSS.escape(key)}"]`) as HTMLElement | null)?.focus());
      break;
    }
    case 'quant':
      wrap().append(renderQuant(sections.quant!));
      break;
    case 'kv':
      wrap().append(renderKv(sections.kv!));
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
function showNotice(level: string, text: string): void {
  if (noticeTimer) clearTimeout(noticeTimer);
  notice.className = `notice notice-${level}`;
  notice.setAttribute('role', level === 'info' ? 'status' : 'alert');
  notice.textContent = text;
  noticeTimer = setTimeout(() => {
    notice.textContent = '';
    notice.className = '';
  }, 10_000);
}

window.addEventListener('message', (ev: MessageEvent) => {
  const msg = ev.data;
  if (!isHostMessage(msg)) return;
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
});

// Instant first paint from the saved sections, then the handshake: the host sends nothing before `ready`.
if (saved) renderAll(SECTION_IDS);
send({ v: PROTOCOL_VERSION, type: 'ready', ui: saved ? state.ui : null });
