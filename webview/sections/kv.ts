// The KV cache section: pool and block facts, the retention timeline (prompt tokens by priority, blocks, what is
// dropped without a host copy) and the eviction order.
import type { KvVM, TimelineVM } from '../../src/protocol.js';
import { h, s, title } from '../dom.js';
import { factTable, notes } from '../tables.js';

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
  // Tick labels at the host's percentages of the width: SVG text (not stretched by the bar's viewBox), no inline style.
  const axis = s(
    'svg',
    { class: 'axis', 'aria-hidden': 'true' },
    ...t.axis.map((tick, i) =>
      s('text', { class: 'tick', x: `${tick.x}%`, y: '1em', 'text-anchor': i === 0 ? 'start' : 'middle' }, tick.label),
    ),
  );
  const legend = h(
    'ul',
    { class: 'legend ranges' },
    ...t.ranges.map((r) =>
      h(
        'li',
        { class: r.dropped ? 'dropped-item' : null },
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
          h('ol', { class: 'eviction' }, ...vm.eviction.map((e) => h('li', { class: e.dropped ? 'dropped-item' : null }, e.text))),
        )
      : null,
    notes(vm.notes),
  );
}
