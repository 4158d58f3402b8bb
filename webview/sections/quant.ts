// The Quantization section: the file's recipe (formats, block scaling, what stays in higher precision), the file
// re-estimated under the other recipes, and the KV cache's precision.
import type { QuantVM } from '../../src/protocol.js';
import { h } from '../dom.js';
import { colHead, factTable, notes, thead } from '../tables.js';

export function renderQuant(vm: QuantVM): HTMLElement {
  return h(
    'div',
    {},
    h('h3', {}, vm.title),
    factTable(vm.facts),
    notes(vm.notes),
    vm.source ? h('p', { class: 'source' }, `Source: ${vm.source}`) : null,
    h('p', {}, vm.summary),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'comparison' },
        h('caption', { class: 'muted' }, vm.comparisonNote),
        thead(...vm.comparisonHead.map((c, i) => colHead(c, i > 0))),
        h(
          'tbody',
          {},
          ...vm.comparison.map((r) =>
            h(
              'tr',
              { class: r.current ? 'current' : null },
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
