// Draws each section's view model (src/protocol.ts). No arithmetic beyond placing what the host computed.
import type {
  CpRingVM,
  HeaderVM,
  KvVM,
  LayoutViewState,
  LayoutVM,
  MemoryBar,
  MemoryVM,
  PlannerVM,
  PlanRowVM,
  QuantVM,
  TimelineVM,
  WhatIfField,
  WhatIfKey,
  WhatIfValues,
  WhatIfVM,
} from '../src/protocol.js';
import { custom, factTable, h, s, title } from './dom.js';

export interface Actions {
  selectGpu(id: string): void;
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
  isOpen(id: string, dflt: boolean): boolean;
  setOpen(id: string, open: boolean): void;
}

type Select = HTMLElement & {
  value: string;
  options: { label: string; value: string; selected?: boolean }[];
  label: string;
  disabled: boolean;
};
type TextField = HTMLElement & {
  value: string;
  invalid: boolean;
  label: string;
  min: number | undefined;
  max: number | undefined;
  type: string;
};
type Button = HTMLElement & { disabled: boolean; secondary: boolean };
type Collapsible = HTMLElement & { open: boolean; heading: string; description: string };

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

export function select(label: string, options: { value: string; label: string }[], value: string, onChange: (v: string) => void): Select {
  const el = custom<Select>('vscode-single-select', { 'aria-label': label });
  el.options = options.map((o) => ({ label: o.label, value: o.value, selected: o.value === value }));
  el.value = value;
  el.label = label;
  el.addEventListener('change', () => onChange(el.value));
  return el;
}

function button(
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

// ---- header -------------------------------------------------------------------------------------------

export function renderHeader(vm: HeaderVM): HTMLElement {
  if (vm.state === 'empty')
    return h(
      'div',
      { class: 'welcome' },
      h('h1', {}, 'Recipe Lens'),
      h('p', {}, vm.message),
      h(
        'p',
        { class: 'muted' },
        'The panel follows the active editor: memory against your GPU, the rank layout, quantization and KV cache, with what-if previews.',
      ),
    );
  return h(
    'header',
    { class: 'file-header' },
    h('h1', { title: vm.uri ?? '' }, vm.title),
    h('p', { class: 'muted' }, vm.subtitle),
    vm.message ? h('p', { class: 'message' }, vm.message) : null,
  );
}

// ---- bars ---------------------------------------------------------------------------------------------

/** A stacked bar: SVG rectangles at the host's percentages, the capacity as a line, a text legend. */
export function bar(b: MemoryBar, opts: { legend?: boolean; compact?: boolean } = {}): HTMLElement {
  const desc = `${b.label}: ${b.text}, ${b.verdict.replace(/-/g, ' ')}. ${b.segments.map((g) => `${g.label} ${g.text}`).join('; ')}`;
  const svg = s(
    'svg',
    { class: `bar${opts.compact ? ' compact' : ''}`, viewBox: '0 0 100 10', preserveAspectRatio: 'none', role: 'img', 'aria-label': desc },
    s('rect', { class: 'bar-bg', x: 0, y: 0, width: 100, height: 10 }),
    ...b.segments.map((g) =>
      s('rect', { class: `seg cat-${g.category}`, x: g.x, y: 0, width: g.w, height: 10 }, title(`${g.label}: ${g.text}`)),
    ),
    s(
      'line',
      { class: `capacity verdict-${b.verdict}`, x1: b.capacityX, x2: b.capacityX, y1: 0, y2: 10, 'vector-effect': 'non-scaling-stroke' },
      title('GPU capacity'),
    ),
  );
  const head = h(
    'div',
    { class: 'bar-head' },
    h('span', { class: 'bar-label' }, b.label),
    h('span', { class: `bar-text verdict-text-${b.verdict}` }, b.text),
    b.peak ? h('span', { class: 'chip' }, 'most loaded') : null,
  );
  const legend = opts.legend
    ? h(
        'ul',
        { class: 'legend' },
        ...b.segments.map((g) =>
          h('li', {}, h('span', { class: `swatch cat-${g.category}`, 'aria-hidden': 'true' }), `${g.label} ${g.text}`),
        ),
      )
    : null;
  return h('div', { class: 'bar-block' }, head, svg, legend);
}

function verdictChip(verdict: string, text: string): HTMLElement {
  return h('p', { class: 'verdict-line' }, h('span', { class: `verdict verdict-${verdict}` }, verdict.replace(/-/g, ' ')), ' ', text);
}

// ---- memory -------------------------------------------------------------------------------------------

export function renderMemory(vm: MemoryVM, a: Actions): HTMLElement {
  const gpu = select('GPU', vm.gpuOptions, vm.gpu.id, (v) => a.selectGpu(v));
  const table = h(
    'table',
    { class: 'breakdown' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'component'),
        h('th', { scope: 'col', class: 'num' }, 'GiB'),
        h('th', { scope: 'col', class: 'num' }, 'share'),
      ),
    ),
    h(
      'tbody',
      {},
      ...vm.rows.map((r) =>
        h(
          'tr',
          { title: `${r.formula} — ${r.source}` },
          h('td', {}, h('span', { class: `swatch cat-${r.category}`, 'aria-hidden': 'true' }), r.label),
          h('td', { class: 'num' }, r.gib),
          h('td', { class: 'num' }, r.pct),
        ),
      ),
    ),
    h(
      'tfoot',
      {},
      h('tr', {}, h('th', { scope: 'row' }, 'total'), h('td', { class: 'num' }, vm.total.gib), h('td', { class: 'num' }, vm.total.pct)),
    ),
  );
  const details = section('memory-assumptions', 'Assumptions and formulas', a, false);
  details.root.classList.add('nested');
  details.body.append(
    h('h3', {}, 'Formulas'),
    h(
      'ul',
      { class: 'plain' },
      ...vm.rows.map((r) => h('li', {}, h('strong', {}, r.label), ': ', r.formula, h('span', { class: 'source' }, ` — ${r.source}`))),
    ),
    h('h3', {}, 'Assumptions'),
    vm.assumptions.length
      ? h(
          'ul',
          { class: 'plain' },
          ...vm.assumptions.map((x) => h('li', {}, x.what, h('span', { class: 'source' }, ` — ${x.source} [${x.provenance}]`))),
        )
      : h('p', { class: 'muted' }, 'None: every value came from the file.'),
    h('h3', {}, 'GPU'),
    h('p', {}, `${vm.gpu.name}: ${vm.gpu.capacity}`, h('span', { class: 'source' }, ` — ${vm.gpu.source}`)),
  );
  return h(
    'div',
    {},
    h('div', { class: 'row' }, h('label', { class: 'field-label' }, 'GPU'), gpu),
    h('p', { class: 'muted' }, vm.caption),
    verdictChip(vm.verdict, vm.verdictText),
    bar(vm.bar, { legend: true }),
    table,
    vm.stages.length
      ? h('div', { class: 'stages' }, h('h3', {}, 'Pipeline stages'), ...vm.stages.map((st) => bar(st, { compact: true })))
      : null,
    details.root,
  );
}

// ---- what-if ------------------------------------------------------------------------------------------

/** Controls persist across updates so typing is never interrupted; only their values and marks change. */
export class WhatIfView {
  readonly root = h('div', { class: 'whatif' });
  private readonly controls = h('div', { class: 'controls' });
  private readonly result = h('div', { class: 'whatif-result', 'aria-live': 'polite' });
  private fields = new Map<WhatIfKey, { row: HTMLElement; el: TextField | Select; hint: HTMLElement; kind: string }>();
  private signature = '';
  private gpuRow = h('div', { class: 'control' });

  constructor(private readonly a: Actions) {
    this.root.append(this.controls, this.result);
  }

  update(vm: WhatIfVM, gpuOptions: { value: string; label: string }[] | null, gpuId: string | null): void {
    const sig = `${vm.uri}|${vm.fields.map((f) => `${f.key}:${f.kind}:${f.options.map((o) => o.value).join(',')}`).join(';')}`;
    if (sig !== this.signature) this.build(vm);
    this.signature = sig;
    for (const f of vm.fields) {
      const c = this.fields.get(f.key)!;
      const focused = c.el === document.activeElement || c.el.contains(document.activeElement);
      if (!focused && c.el.value !== f.value) c.el.value = f.value;
      if (c.kind === 'int') (c.el as TextField).invalid = false;
      c.row.classList.toggle('changed', f.changed);
      c.hint.textContent = f.changed ? `file: ${f.file}` : '';
    }
    this.gpuRow.replaceChildren();
    if (gpuOptions && gpuId)
      this.gpuRow.append(
        h('label', { class: 'field-label' }, 'GPU'),
        select('GPU', gpuOptions, gpuId, (v) => this.a.selectGpu(v)),
      );
    this.result.replaceChildren(...this.resultNodes(vm));
  }

  private build(vm: WhatIfVM): void {
    this.fields.clear();
    const rows: HTMLElement[] = [];
    for (const f of vm.fields) {
      const hint = h('span', { class: 'hint' });
      let el: TextField | Select;
      if (f.kind === 'int') {
        const t = custom<TextField>('vscode-textfield', {
          'aria-label': f.label,
          type: 'number',
          min: f.min,
          max: f.max,
          step: 1,
          class: 'num-field',
        });
        t.value = f.value;
        let timer: ReturnType<typeof setTimeout> | undefined;
        t.addEventListener('input', () => {
          if (timer) clearTimeout(timer);
          timer = setTimeout(() => (t.invalid = !this.a.setWhatIf(f, t.value)), 80);
        });
        t.addEventListener('change', () => {
          if (timer) clearTimeout(timer);
          t.invalid = !this.a.setWhatIf(f, t.value);
        });
        el = t;
      } else el = select(f.label, f.options, f.value, (v) => this.a.setWhatIf(f, v));
      const row = h('div', { class: 'control' }, h('label', { class: 'field-label' }, f.label), el, hint);
      this.fields.set(f.key, { row, el, hint, kind: f.kind });
      rows.push(row);
    }
    this.controls.replaceChildren(...rows, this.gpuRow);
  }

  private resultNodes(vm: WhatIfVM): Node[] {
    const out: Node[] = [];
    if (vm.preview) {
      out.push(
        bar(vm.preview.bar, { legend: false }),
        h(
          'p',
          { class: 'verdict-line' },
          h('span', { class: `verdict verdict-${vm.preview.bar.verdict}` }, vm.preview.bar.verdict.replace(/-/g, ' ')),
          ' ',
          vm.preview.verdictText,
        ),
      );
      out.push(
        h(
          'table',
          { class: 'deltas' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, ''),
              h('th', { scope: 'col', class: 'num' }, 'file GiB'),
              h('th', { scope: 'col', class: 'num' }, 'what-if'),
              h('th', { scope: 'col', class: 'num' }, 'change'),
            ),
          ),
          h(
            'tbody',
            {},
            ...vm.preview.deltas.map((d) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, d.label),
                h('td', { class: 'num' }, d.from),
                h('td', { class: 'num' }, d.to),
                h('td', { class: 'num' }, d.delta),
              ),
            ),
          ),
        ),
      );
    }
    if (vm.conflicts.length)
      out.push(
        h(
          'ul',
          { class: 'conflicts', 'aria-label': 'conflicts' },
          ...vm.conflicts.map((c) =>
            h(
              'li',
              { class: `sev-${c.severity}` },
              c.code.startsWith('RL-') ? h('code', {}, c.code) : null,
              c.code.startsWith('RL-') ? ' ' : null,
              c.message,
            ),
          ),
        ),
      );
    if (vm.changes.length)
      out.push(
        h(
          'ul',
          { class: 'changes', 'aria-label': 'keys Apply writes' },
          ...vm.changes.map((c) => h('li', {}, h('code', {}, c.path), `: ${c.from} → ${c.to}`)),
        ),
      );
    out.push(
      h(
        'div',
        { class: 'actions' },
        button('Apply to file', () => this.a.apply(vm.uri, vm.docVersion), { disabled: !vm.canApply }),
        button('Reset', () => this.a.resetWhatIf(), {
          secondary: true,
          disabled: !vm.preview,
          label: 'Reset the what-if values to the file',
        }),
      ),
      h('p', { class: 'muted' }, vm.applyNote),
    );
    return out;
  }
}

// ---- layouts (planner) --------------------------------------------------------------------------------

/** Label/value cells in a grid (layout dimensions, cost terms): one definition list, one cell per pair. */
function cells(cls: string, head: { label: string; title?: string }[], values: string[]): HTMLElement {
  return h(
    'dl',
    { class: `plan-grid ${cls}` },
    ...head.map((c, i) =>
      h(
        'div',
        { class: `${c.label === 'total' ? 'total' : ''}${values[i] === '0.0%' ? ' zero' : ''}`.trim() || null, title: c.title ?? null },
        h('dt', {}, c.label),
        h('dd', {}, values[i] ?? ''),
      ),
    ),
  );
}

function planRow(vm: PlannerVM, r: PlanRowVM, a: Actions): HTMLElement {
  const name = r.index === null ? "the file's layout" : `layout ${r.label}`;
  const chips = [
    r.index === null ? 'reference' : r.current ? "the file's layout" : null,
    r.previewed ? 'previewing in What if' : null,
  ].filter((c): c is string => !!c);
  const summary = `${name}: ${vm.layoutHead.map((l, i) => `${l} ${r.layout[i]}`).join(', ')}; ${r.levers}; ${r.memory}; total cost ${r.costs[r.costs.length - 1]}`;
  const actions =
    r.index === null || !r.values
      ? null
      : h(
          'div',
          { class: 'actions' },
          button('Preview', () => a.previewCandidate(r.values!), {
            secondary: true,
            disabled: r.current,
            label: `Preview ${name} in What if`,
            key: `preview-${r.index}`,
          }),
          button('Apply', () => a.applyCandidate(vm.uri, vm.planId, r.index!, vm.docVersion), {
            disabled: !r.canApply,
            label: `Apply ${name} to the file`,
            key: `apply-${r.index}`,
          }),
        );
  return h(
    'li',
    {
      class: `plan-row${r.index === null ? ' reference' : ''}${r.current ? ' current' : ''}${r.previewed ? ' previewed' : ''}`,
      'aria-label': summary,
    },
    h(
      'div',
      { class: 'plan-head' },
      h('span', { class: 'plan-rank' }, r.index === null ? 'file' : `#${r.label}`),
      h('span', { class: 'plan-levers' }, r.levers),
      ...chips.map((c) => h('span', { class: 'chip' }, c)),
    ),
    cells(
      'plan-layout',
      vm.layoutHead.map((label) => ({ label })),
      r.layout,
    ),
    bar({ ...r.bar, label: 'memory', text: r.memory }, { compact: true }),
    cells('plan-costs', vm.costHead, r.costs),
    r.conflicts.length
      ? h(
          'ul',
          { class: 'conflicts', 'aria-label': `${name}: conflicts` },
          ...r.conflicts.map((c) =>
            h(
              'li',
              { class: `sev-${c.severity}` },
              c.code.startsWith('RL-') ? h('code', {}, c.code) : null,
              c.code.startsWith('RL-') ? ' ' : null,
              c.message,
            ),
          ),
        )
      : null,
    r.changes.length
      ? h(
          'p',
          { class: 'plan-changes' },
          'writes ',
          ...r.changes.flatMap((c, i) => [
            i ? ', ' : null,
            h('code', { title: `${c.path}: ${c.from} → ${c.to}` }, c.path.split('.').pop()!),
            ` ${c.from} → ${c.to}`,
          ]),
        )
      : null,
    actions,
    h('p', { class: 'muted' }, r.applyNote),
  );
}

export function renderPlanner(vm: PlannerVM, a: Actions): HTMLElement {
  const running = vm.state === 'running';
  const rows = [...(vm.reference ? [vm.reference] : []), ...vm.rows];
  return h(
    'div',
    { class: 'planner', 'aria-busy': running ? 'true' : 'false' },
    h('p', { class: 'muted' }, vm.caption),
    h(
      'div',
      { class: 'row' },
      button(running ? 'Searching…' : vm.state === 'ready' ? 'Suggest again' : 'Suggest layouts', () => a.plan(), {
        disabled: running || vm.state === 'unavailable',
        label: `Suggest layouts for ${vm.gpusText || 'this file'}`,
        key: 'suggest',
      }),
      vm.gpusText ? h('span', { class: 'muted' }, `for ${vm.gpusText}`) : null,
    ),
    vm.message ? h('p', { class: 'message', role: running ? 'status' : null }, vm.message) : null,
    vm.summary ? h('p', {}, vm.summary) : null,
    rows.length
      ? h(
          'ol',
          { class: 'plan-rows', 'aria-label': "suggested layouts, cheapest first, after the file's own" },
          ...rows.map((r) => planRow(vm, r, a)),
        )
      : null,
    h('p', { class: 'muted plan-legend' }, vm.legend),
    h('p', { class: 'source' }, vm.hardware),
    vm.notes.length ? h('ul', { class: 'notes' }, ...vm.notes.map((n) => h('li', {}, n))) : null,
  );
}

// ---- layout -------------------------------------------------------------------------------------------

const REL_TEXT: Record<string, string> = {
  self: 'selected rank',
  tp: "in the selected rank's TP group",
  cp: 'in its CP group',
  dp: 'in its DP group',
  pp: 'in its PP group',
  '': '',
};

export function renderLayout(vm: LayoutVM, a: Actions, restoreFocus: boolean): HTMLElement {
  const view = (patch: Partial<LayoutViewState>) =>
    a.layoutView({
      worldSize: vm.fileWorldSize === (patch.worldSize ?? vm.worldSize) ? null : (patch.worldSize ?? vm.worldSize),
      mode: vm.view.mode,
      page: vm.view.page,
      ...patch,
    });
  const world = select('world size', vm.worldSizeChoices, String(vm.worldSize || ''), (v) => view({ worldSize: Number(v), page: 0 }));
  const top = h('div', { class: 'row' }, h('label', { class: 'field-label' }, 'GPUs'), world);
  if (vm.reason) return h('div', {}, top, h('p', { class: 'message' }, vm.reason));

  const summary = h(
    'table',
    { class: 'summary' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'dimension'),
        h('th', { scope: 'col', class: 'num' }, 'size'),
        h('th', { scope: 'col' }, 'groups'),
      ),
    ),
    h(
      'tbody',
      {},
      ...vm.summary.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.dim), h('td', { class: 'num' }, r.size), h('td', {}, r.text))),
    ),
  );
  const pager =
    vm.view.pages > 1 || vm.view.modes.length > 1
      ? h(
          'div',
          {},
          vm.view.modes.length > 1
            ? h(
                'div',
                { class: 'row' },
                h('label', { class: 'field-label' }, 'show'),
                select('show', vm.view.modes, vm.view.mode, (m) => view({ mode: m as LayoutViewState['mode'], page: 0 })),
              )
            : null,
          h(
            'div',
            { class: 'row pager' },
            button('‹', () => view({ page: vm.view.page - 1 }), { secondary: true, disabled: vm.view.page <= 0, label: 'previous page' }),
            h('span', { class: 'page' }, `${vm.view.page + 1} / ${vm.view.pages}`),
            button('›', () => view({ page: vm.view.page + 1 }), {
              secondary: true,
              disabled: vm.view.page >= vm.view.pages - 1,
              label: 'next page',
            }),
          ),
        )
      : null;

  const grid = h('div', {
    class: 'grid',
    role: 'group',
    'aria-label': `ranks: ${vm.view.caption}. Arrow keys move, Enter or Space selects.`,
  });
  const cells: HTMLButtonElement[] = [];
  for (const box of vm.boxes) {
    const row = h('div', { class: 'cells' });
    for (const c of box.cells) {
      const rel = REL_TEXT[c.rel] ?? '';
      const btn = h(
        'button',
        {
          class: `cell rel-${c.rel || 'none'}${c.ep ? ' in-ep' : ''}`,
          type: 'button',
          'data-rank': c.rank,
          tabindex: c.rel === 'self' ? 0 : -1,
          'aria-pressed': c.rel === 'self' ? 'true' : 'false',
          'aria-label': `rank ${c.rank}, ${c.coords}${rel ? `, ${rel}` : ''}${c.ep ? ', in its EP group' : ''}`,
          title: `rank ${c.rank}: ${c.coords}`,
        },
        String(c.rank),
      );
      btn.addEventListener('click', () => a.selectRank(c.rank));
      cells.push(btn);
      row.append(btn);
    }
    grid.append(h('div', { class: 'node', role: 'group', 'aria-label': box.label }, h('div', { class: 'node-label' }, box.label), row));
  }
  if (!cells.some((c) => c.tabIndex === 0) && cells[0]) cells[0].tabIndex = 0;
  grid.addEventListener('keydown', (e) => {
    const i = cells.indexOf(e.target as HTMLButtonElement);
    if (i < 0) return;
    const perRow = Math.max(1, Math.round(grid.clientWidth / Math.max(1, cells[0]!.offsetWidth + 4)));
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, ArrowDown: i + perRow, ArrowUp: i - perRow, Home: 0, End: cells.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = cells[Math.min(cells.length - 1, Math.max(0, to))]!;
    for (const c of cells) c.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  if (restoreFocus) queueMicrotask(() => cells.find((c) => c.tabIndex === 0)?.focus());

  const legend = h(
    'ul',
    { class: 'legend rel-legend' },
    ...(['self', 'tp', 'cp', 'dp', 'pp'] as const).map((r) =>
      h('li', {}, h('span', { class: `swatch rel-${r}`, 'aria-hidden': 'true' }), r === 'self' ? 'selected' : `${r.toUpperCase()} group`),
    ),
  );
  return h(
    'div',
    {},
    top,
    h('p', {}, vm.caption),
    summary,
    pager,
    h('p', { class: 'muted' }, vm.view.caption),
    legend,
    grid,
    vm.selected
      ? h(
          'div',
          { class: 'selected' },
          h('h3', {}, vm.selected.text),
          h('ul', { class: 'plain' }, ...vm.selected.groups.map((g) => h('li', { class: `grp-${g.dim}` }, g.text))),
        )
      : null,
    vm.cp ? renderCp(vm.cp) : null,
    vm.notes.length ? h('ul', { class: 'notes' }, ...vm.notes.map((n) => h('li', {}, n))) : null,
  );
}

/** The CP ring (members on a circle, arrows to the next) and the 2·CP chunk strip coloured by owner. */
function renderCp(cp: CpRingVM): HTMLElement {
  const n = cp.members.length;
  const R = 70;
  const at = (i: number) => {
    const t = (2 * Math.PI * i) / n - Math.PI / 2;
    return { x: 100 + R * Math.cos(t), y: 100 + R * Math.sin(t) };
  };
  const ring = s(
    'svg',
    { class: 'ring', viewBox: '0 0 200 200', role: 'img', 'aria-label': `CP ring of ${n}: ${cp.members.map((m) => m.text).join('; ')}` },
    s(
      'defs',
      {},
      s(
        'marker',
        { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' },
        s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }),
      ),
    ),
    ...cp.members.map((_, i) => {
      const p = at(i);
      const q = at((i + 1) % n);
      const k = 12 / Math.hypot(q.x - p.x, q.y - p.y);
      return s('line', {
        class: 'ring-edge',
        x1: p.x + (q.x - p.x) * k,
        y1: p.y + (q.y - p.y) * k,
        x2: q.x - (q.x - p.x) * k,
        y2: q.y - (q.y - p.y) * k,
        'marker-end': 'url(#arrow)',
      });
    }),
    ...cp.members.map((m, i) => {
      const p = at(i);
      return s(
        'g',
        {},
        s('circle', { class: `ring-node owner-${i % 8}${m.self ? ' self' : ''}`, cx: p.x, cy: p.y, r: 11 }, title(m.text)),
        s('text', { class: 'ring-label', x: p.x, y: p.y + 3.5, 'text-anchor': 'middle' }, String(m.rank)),
      );
    }),
  );
  const strip = h(
    'ol',
    { class: 'chunks', start: 0, 'aria-label': 'sequence chunks in order, with the CP rank holding each' },
    ...cp.chunks.map((c) =>
      h(
        'li',
        { class: `chunk owner-${c.owner % 8}${cp.members[c.owner]?.self ? ' self' : ''}`, title: c.text },
        h('span', { class: 'chunk-index' }, String(c.index)),
        h('span', { class: 'chunk-owner' }, String(cp.members[c.owner]?.rank ?? '')),
      ),
    ),
  );
  return h(
    'div',
    { class: 'cp' },
    h('h3', {}, `Context parallelism: ring of ${cp.size}, ${2 * cp.size} chunks`),
    h(
      'div',
      { class: 'cp-row' },
      ring,
      h('ul', { class: 'plain cp-members' }, ...cp.members.map((m) => h('li', { class: m.self ? 'self' : '' }, m.text))),
    ),
    h(
      'p',
      { class: 'muted' },
      'Sequence chunks (index, then the rank holding it): rank i holds chunks i and 2·CP−1−i, so causal attention work is balanced.',
    ),
    strip,
    h('p', {}, cp.exchange),
    cp.exchangeDetail ? h('p', { class: 'muted' }, cp.exchangeDetail) : null,
  );
}

// ---- quantization -------------------------------------------------------------------------------------

export function renderQuant(vm: QuantVM): HTMLElement {
  return h(
    'div',
    {},
    h('h3', {}, vm.title),
    factTable(vm.facts),
    vm.notes.length ? h('ul', { class: 'notes' }, ...vm.notes.map((n) => h('li', {}, n))) : null,
    vm.source ? h('p', { class: 'source' }, `Source: ${vm.source}`) : null,
    h('p', {}, vm.summary),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'comparison' },
        h('caption', { class: 'muted' }, vm.comparisonNote),
        h('thead', {}, h('tr', {}, ...vm.comparisonHead.map((c, i) => h('th', { scope: 'col', class: i ? 'num' : '' }, c)))),
        h(
          'tbody',
          {},
          ...vm.comparison.map((r) =>
            h(
              'tr',
              { class: r.current ? 'current' : '' },
              h('th', { scope: 'row' }, r.label),
              ...r.cells.map((c) => h('td', { class: 'num' }, c)),
            ),
          ),
        ),
      ),
    ),
    vm.kv.length ? h('div', {}, h('h3', {}, 'KV cache'), factTable(vm.kv)) : null,
  );
}

// ---- KV cache -----------------------------------------------------------------------------------------

function timeline(t: TimelineVM): HTMLElement {
  const svg = s(
    'svg',
    {
      class: 'timeline',
      viewBox: '0 0 100 12',
      preserveAspectRatio: 'none',
      role: 'img',
      'aria-label': `${t.caption}: ${t.ranges.map((r) => `${r.label} (${r.detail})`).join('; ')}`,
    },
    s(
      'defs',
      {},
      s(
        'pattern',
        { id: 'hatch', width: 1.2, height: 1.2, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        s('line', { class: 'hatch-line', x1: 0, y1: 0, x2: 0, y2: 1.2, 'vector-effect': 'non-scaling-stroke' }),
      ),
    ),
    ...t.ranges.flatMap((r) => [
      s(
        'rect',
        { class: `range prio-${r.level}${r.open ? ' open' : ''}`, x: r.x, y: 1, width: Math.max(0.2, r.w), height: 10 },
        title(`${r.label}: ${r.detail}`),
      ),
      r.dropped
        ? s(
            'rect',
            { class: 'dropped', x: r.x, y: 1, width: Math.max(0.2, r.w), height: 10, fill: 'url(#hatch)' },
            title(`${r.label}: ${r.detail}`),
          )
        : null,
    ]),
    ...t.blocks.map((x) => s('line', { class: 'block-tick', x1: x, x2: x, y1: 1, y2: 11, 'vector-effect': 'non-scaling-stroke' })),
  );
  const axis = h('div', { class: 'axis', 'aria-hidden': 'true' });
  for (const tick of t.axis) {
    const label = h('span', { class: 'tick' }, tick.label);
    // Positioned through the CSSOM (the CSP allows no inline style attributes).
    label.style.left = `${tick.x}%`;
    axis.append(label);
  }
  const legend = h(
    'ul',
    { class: 'legend ranges' },
    ...t.ranges.map((r) =>
      h(
        'li',
        { class: r.dropped ? 'dropped-item' : '' },
        h('span', { class: `swatch prio-${r.level}${r.dropped ? ' hatched' : ''}`, 'aria-hidden': 'true' }),
        h('strong', {}, r.label),
        ` — ${r.detail}`,
      ),
    ),
  );
  return h('div', { class: 'timeline-block' }, h('p', { class: 'muted' }, t.caption), svg, axis, legend);
}

export function renderKv(vm: KvVM): HTMLElement {
  return h(
    'div',
    {},
    ...vm.groups.map((g) => h('div', {}, h('h3', {}, g.title), factTable(g.rows))),
    vm.timeline ? timeline(vm.timeline) : null,
    vm.eviction.length
      ? h(
          'div',
          {},
          h('h3', {}, 'Eviction order (first evicted first)'),
          h('ol', { class: 'eviction' }, ...vm.eviction.map((e) => h('li', { class: e.dropped ? 'dropped-item' : '' }, e.text))),
        )
      : null,
    vm.notes.length ? h('ul', { class: 'notes' }, ...vm.notes.map((n) => h('li', {}, n))) : null,
  );
}
