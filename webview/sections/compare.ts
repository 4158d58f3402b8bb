// The Compare section: a training log's measured peaks per rank and level against the estimate of the rank's pipeline
// stage, the error, and the estimate's terms that could carry the difference.
import type { CompareSectionVM } from '../../src/protocol.js';
import { button, runMessage, type Actions } from '../controls.js';
import { h } from '../dom.js';
import { colHead, notes, thead } from '../tables.js';

const NUMERIC = new Set(['measured', 'estimated', 'error']);

export function renderCompare(vm: CompareSectionVM, a: Actions): HTMLElement {
  const running = vm.state === 'running';
  const r = vm.result;
  return h(
    'div',
    { class: 'compare', 'aria-busy': running ? 'true' : 'false' },
    h('p', { class: 'muted' }, vm.intro),
    h(
      'div',
      { class: 'actions' },
      button(running ? 'Comparing…' : 'Compare with a training log…', () => a.compareLog(vm.uri), {
        disabled: running,
        key: 'compare-log',
      }),
    ),
    runMessage(vm.state, vm.message),
    r ? h('h3', {}, r.title) : null,
    r ? h('p', { class: 'muted' }, r.caption) : null,
    r && r.rows.length
      ? h(
          'table',
          { class: 'compare-table' },
          thead(...r.head.map((c) => colHead(c, NUMERIC.has(c)))),
          h(
            'tbody',
            {},
            ...r.rows.map((row) =>
              h(
                'tr',
                { class: row.worst ? 'worst' : null },
                ...row.cells.map((c, i) =>
                  i === 0 ? h('th', { scope: 'row' }, c) : h('td', { class: NUMERIC.has(r.head[i] ?? '') ? 'num' : null }, c),
                ),
              ),
            ),
          ),
        )
      : null,
    r?.worst ? h('p', { class: 'worst-line' }, r.worst) : null,
    r?.suspects.length
      ? h(
          'div',
          {},
          h('p', {}, r.suspectsCaption),
          h(
            'table',
            { class: 'suspects' },
            thead(colHead('term'), colHead('estimate', true), colHead('gap as a share', true)),
            h(
              'tbody',
              {},
              ...r.suspects.map((x) =>
                h('tr', {}, h('th', { scope: 'row' }, x.label), h('td', { class: 'num' }, x.bytes), h('td', { class: 'num' }, x.share)),
              ),
            ),
          ),
        )
      : null,
    r ? notes(r.notes) : null,
  );
}
