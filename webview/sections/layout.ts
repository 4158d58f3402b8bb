// The Parallel layout section: the GPU count, the per-dimension summary, the rank grid by node (the selected rank
// and its TP / CP / DP / PP groups marked, arrow keys to move), the selected rank's groups, and the CP ring with
// its 2·CP sequence chunks.
import type { CpRingVM, LayoutMode, LayoutViewState, LayoutVM } from '../../src/protocol.js';
import { button, labelled, select, type Actions } from '../controls.js';
import { h, s, title } from '../dom.js';
import { colHead, notes, thead } from '../tables.js';

const REL_TEXT: Record<string, string> = {
  self: 'selected rank',
  tp: "in the selected rank's TP group",
  cp: 'in its CP group',
  dp: 'in its DP group',
  pp: 'in its PP group',
  '': '',
};

/** The grid of rank buttons: one roving tab stop (the selected rank), arrow keys, Home and End move it. */
function rankGrid(vm: LayoutVM, a: Actions, restoreFocus: boolean): HTMLElement {
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
  return grid;
}

export function renderLayout(vm: LayoutVM, a: Actions, restoreFocus: boolean): HTMLElement {
  const view = (patch: Partial<LayoutViewState>) =>
    a.layoutView({
      worldSize: vm.fileWorldSize === (patch.worldSize ?? vm.worldSize) ? null : (patch.worldSize ?? vm.worldSize),
      mode: vm.view.mode,
      page: vm.view.page,
      ...patch,
    });
  const world = select('world size', vm.worldSizeChoices, String(vm.worldSize || ''), (n) => view({ worldSize: Number(n), page: 0 }));
  const top = labelled('GPUs', world);
  if (vm.reason) return h('div', {}, top, h('p', { class: 'message' }, vm.reason));

  const summary = h(
    'table',
    { class: 'summary' },
    thead(colHead('dimension'), colHead('size', true), colHead('groups')),
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
            ? labelled(
                'show',
                select('show', vm.view.modes, vm.view.mode, (m) => view({ mode: m as LayoutMode, page: 0 })),
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
    rankGrid(vm, a, restoreFocus),
    vm.selected
      ? h(
          'div',
          { class: 'selected' },
          h('h3', {}, vm.selected.text),
          h('ul', { class: 'plain' }, ...vm.selected.groups.map((g) => h('li', { class: `grp-${g.dim}` }, g.text))),
        )
      : null,
    vm.cp ? renderCp(vm.cp) : null,
    notes(vm.notes),
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
