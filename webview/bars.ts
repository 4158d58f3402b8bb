// Memory bars: SVG rectangles at the percentages the host computed, the GPU capacity as a line, a text legend.
import type { MemoryBar, Verdict } from '../src/protocol.js';
import { h, s, title, words } from './dom.js';

/** A stacked bar; its accessible name says everything the picture shows. */
export function bar(b: MemoryBar, opts: { legend?: boolean; compact?: boolean } = {}): HTMLElement {
  const desc = `${b.label}: ${b.text}, ${words(b.verdict)}. ${b.segments.map((g) => `${g.label} ${g.text}`).join('; ')}`;
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

/** "does not fit" as a coloured chip, then the host's sentence. */
export function verdictLine(verdict: Verdict, text: string): HTMLElement {
  return h('p', { class: 'verdict-line' }, h('span', { class: `verdict verdict-${verdict}` }, words(verdict)), ' ', text);
}
