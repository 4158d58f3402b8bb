// The Memory section: the most-loaded rank against the GPU (verdict, bar, breakdown table, per-stage bars) and,
// folded, the formulas, assumptions and GPU behind every number.
import type { MemoryVM } from '../../src/protocol.js';
import { bar, verdictLine } from '../bars.js';
import { labelled, section, select, type Actions } from '../controls.js';
import { h } from '../dom.js';
import { colHead, thead } from '../tables.js';

export function renderMemory(vm: MemoryVM, a: Actions): HTMLElement {
  const gpu = select('GPU', vm.gpuOptions, vm.gpu.id, (id) => a.selectGpu(id));
  const table = h(
    'table',
    { class: 'breakdown' },
    thead(colHead('component'), colHead('GiB', true), colHead('share', true)),
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
  // allocated: torch.cuda.max_memory_allocated; reserved: + the caching allocator; device: + CUDA context and NCCL.
  const levels = vm.levels.length
    ? h(
        'table',
        { class: 'levels', 'aria-label': 'memory per pipeline stage at three levels' },
        h('caption', {}, 'Peak per stage: allocated (max_memory_allocated), reserved (max_memory_reserved), device (the fit)'),
        thead(
          colHead('stage'),
          colHead('layers'),
          colHead('in flight at the peak'),
          colHead('allocated', true),
          colHead('reserved', true),
          colHead('device', true),
        ),
        h(
          'tbody',
          {},
          ...vm.levels.map((r) =>
            h(
              'tr',
              { class: r.peak ? 'peak' : null },
              h('th', { scope: 'row' }, r.stage, r.peak && vm.levels.length > 1 ? ' (most loaded)' : ''),
              h('td', {}, r.layers),
              h('td', {}, r.inFlight),
              h('td', { class: 'num' }, r.allocated),
              h('td', { class: 'num' }, r.reserved),
              h('td', { class: `num verdict-text-${r.verdict}` }, r.device),
            ),
          ),
        ),
      )
    : null;
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
    labelled('GPU', gpu),
    h('p', { class: 'muted' }, vm.caption),
    verdictLine(vm.verdict, vm.verdictText),
    bar(vm.bar, { legend: true }),
    table,
    levels,
    vm.stages.length
      ? h('div', { class: 'stages' }, h('h3', {}, 'Pipeline stages'), ...vm.stages.map((st) => bar(st, { compact: true })))
      : null,
    details.root,
  );
}
