// The Layouts section (the planner): the Suggest button, then the file's own layout as the reference row and the
// cheapest layouts that fit, each with its memory bar, relative costs, conflicts, the keys Apply writes, and
// Preview / Apply buttons.
import type { PlannerVM, PlanRowVM } from '../../src/protocol.js';
import { bar } from '../bars.js';
import { button, type Actions } from '../controls.js';
import { h } from '../dom.js';
import { conflictList, notes } from '../tables.js';

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
  const index = r.index;
  const values = r.values;
  const actions =
    index === null || !values
      ? null
      : h(
          'div',
          { class: 'actions' },
          button('Preview', () => a.previewCandidate(values), {
            secondary: true,
            disabled: r.current,
            label: `Preview ${name} in What if`,
            key: `preview-${index}`,
          }),
          button('Apply', () => a.applyCandidate(vm.uri, vm.planId, index, vm.docVersion), {
            disabled: !r.canApply,
            label: `Apply ${name} to the file`,
            key: `apply-${index}`,
          }),
        );
  return h(
    'li',
    {
      class: `plan-row${index === null ? ' reference' : ''}${r.current ? ' current' : ''}${r.previewed ? ' previewed' : ''}`,
      'aria-label': summary,
    },
    h(
      'div',
      { class: 'plan-head' },
      h('span', { class: 'plan-rank' }, index === null ? 'file' : `#${r.label}`),
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
    r.conflicts.length ? conflictList(r.conflicts, `${name}: conflicts`) : null,
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
    notes(vm.notes),
  );
}
