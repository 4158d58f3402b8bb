// Tables and lists the sections share: label/value facts, headed tables, conflicts, notes.
import type { FactRow, PlanConflict } from '../src/protocol.js';
import { h } from './dom.js';

/** A two-column table of label/value rows. */
export function factTable(rows: FactRow[], cls = 'facts'): HTMLTableElement {
  return h(
    'table',
    { class: cls },
    h('tbody', {}, ...rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.label), h('td', {}, r.value)))),
  );
}

/** A column header; `num` right-aligns it like the numbers below it. */
export const colHead = (text: string, num = false) => h('th', { scope: 'col', class: num ? 'num' : null }, text);

/** The header row of a table. */
export const thead = (...cells: HTMLTableCellElement[]) => h('thead', {}, h('tr', {}, ...cells));

/** Launch-rule conflicts: the rule id (RL-…) as code, then the message. */
export function conflictList(conflicts: PlanConflict[], label: string): HTMLUListElement {
  return h(
    'ul',
    { class: 'conflicts', 'aria-label': label },
    ...conflicts.map((c) =>
      h(
        'li',
        { class: `sev-${c.severity}` },
        c.code.startsWith('RL-') ? h('code', {}, c.code) : null,
        c.code.startsWith('RL-') ? ' ' : null,
        c.message,
      ),
    ),
  );
}

/** Notes under a section, or nothing when there are none. */
export const notes = (items: string[]) => (items.length ? h('ul', { class: 'notes' }, ...items.map((n) => h('li', {}, n))) : null);
