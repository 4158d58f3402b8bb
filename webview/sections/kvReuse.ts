// The KV reuse section: pick a built-in workload or a trace, then the hit-rate curves against pool size (one path per
// policy, the options file's pool marked), the pool's occupancy by priority over the run, and which retention ranges
// earned their pinning. Every number is the host's; the points table is the plot's text alternative.
import type { KvReuseResultVM, KvReuseSectionVM } from '../../src/protocol.js';
import { button, runMessage, select, type Actions } from '../controls.js';
import { h, s, title } from '../dom.js';
import { colHead, notes, thead } from '../tables.js';

type Curve = KvReuseResultVM['curve'];
type Occupancy = NonNullable<KvReuseResultVM['occupancy']>;
type Pinning = NonNullable<KvReuseResultVM['pinning']>;

/** The y axis is the hit rate from 0 to 100%. */
const Y_TICKS = [0, 25, 50, 75, 100];

/** SVG y runs down: a hit rate of y% is drawn 100 − y from the top (to the host's thousandth of a percent). */
const down = (y: number) => Math.round((100 - y) * 1000) / 1000;

function curvePath(points: { x: number; y: number }[]): string {
  return points.map((p, i) => `${i ? 'L' : 'M'}${p.x},${down(p.y)}`).join(' ');
}

function curvePlot(c: Curve): HTMLElement {
  const retention = c.points.filter((p) => p.retention !== null);
  const policies = [
    { cls: 'lru', name: 'LRU', pts: c.points.map((p) => ({ x: p.x, y: p.lru.y, text: p.lru.text, label: p.label })) },
    ...(retention.length
      ? [
          {
            cls: 'retention',
            name: 'retention',
            pts: retention.map((p) => ({ x: p.x, y: p.retention!.y, text: p.retention!.text, label: p.label })),
          },
        ]
      : []),
  ];
  const desc = `${c.yLabel} against ${c.xLabel}: ${policies
    .map((p) => `${p.name}: ${p.pts.map((q) => `${q.text} at ${q.label}`).join(', ')}`)
    .join('; ')}${c.marker ? `; ${c.marker.label}` : ''}`;
  const svg = s(
    'svg',
    { class: 'kv-curve', viewBox: '0 0 100 100', preserveAspectRatio: 'none', role: 'img', 'aria-label': desc },
    ...Y_TICKS.map((y) => s('line', { class: 'grid', x1: 0, x2: 100, y1: down(y), y2: down(y), 'vector-effect': 'non-scaling-stroke' })),
    ...c.ticks.map((t) => s('line', { class: 'grid', x1: t.x, x2: t.x, y1: 0, y2: 100, 'vector-effect': 'non-scaling-stroke' })),
    c.marker
      ? s(
          'line',
          { class: 'pool-marker', x1: c.marker.x, x2: c.marker.x, y1: 0, y2: 100, 'vector-effect': 'non-scaling-stroke' },
          title(c.marker.label),
        )
      : null,
    ...policies.map((p) =>
      s(
        'path',
        { class: `curve curve-${p.cls}`, d: curvePath(p.pts), 'vector-effect': 'non-scaling-stroke' },
        title(`${p.name}: ${p.pts.map((q) => `${q.text} at ${q.label}`).join('; ')}`),
      ),
    ),
  );
  const yAxis = s(
    'svg',
    { class: 'axis kv-y', 'aria-hidden': 'true' },
    ...Y_TICKS.map((y) => s('text', { class: 'tick', x: `${y}%`, y: '1em', 'text-anchor': y === 0 ? 'start' : 'middle' }, `${y}%`)),
  );
  const xAxis = s(
    'svg',
    { class: 'axis', 'aria-hidden': 'true' },
    ...c.ticks.map((t, i) => s('text', { class: 'tick', x: `${t.x}%`, y: '1em', 'text-anchor': i === 0 ? 'start' : 'middle' }, t.label)),
  );
  const legend = h(
    'ul',
    { class: 'legend' },
    ...policies.map((p) => h('li', {}, h('span', { class: `swatch curve-swatch-${p.cls}`, 'aria-hidden': 'true' }), p.name)),
    c.marker ? h('li', {}, h('span', { class: 'swatch marker-swatch', 'aria-hidden': 'true' }), c.marker.label) : null,
  );
  const table = h(
    'table',
    { class: 'kv-points' },
    h('caption', {}, `${c.yLabel} by pool size`),
    thead(colHead('pool'), colHead('LRU', true), ...(retention.length ? [colHead('retention', true)] : [])),
    h(
      'tbody',
      {},
      ...c.points.map((p) =>
        h(
          'tr',
          { class: c.marker && p.x === c.marker.x ? 'file-pool' : null },
          h('th', { scope: 'row' }, p.label),
          h('td', { class: 'num' }, p.lru.text),
          retention.length ? h('td', { class: 'num' }, p.retention?.text ?? '') : null,
        ),
      ),
    ),
  );
  return h(
    'div',
    { class: 'kv-curve-block' },
    h('p', { class: 'muted' }, `${c.yLabel}, 0–100% (axis below the plot)`),
    yAxis,
    svg,
    xAxis,
    h('p', { class: 'muted' }, c.xLabel),
    legend,
    table,
  );
}

function occupancyChart(o: Occupancy): HTMLElement {
  const gpu = o.series.filter((x) => x.tier === 'GPU');
  const n = o.x.length;
  const w = n > 1 ? 100 / n : 100;
  const rects: SVGElement[] = [];
  for (let i = 0; i < n; i++) {
    let y = 100;
    gpu.forEach((series, k) => {
      const v = series.values[i] ?? 0;
      if (v <= 0) return;
      y -= v;
      rects.push(
        s(
          'rect',
          { class: `occ prio-${Math.min(k, 5)}`, x: (i * 100) / Math.max(1, n), y: Math.max(0, y), width: w, height: v },
          title(`${o.xLabels[i] ?? ''}: ${series.label} ${v}% of the GPU pool`),
        ),
      );
    });
  }
  const last = n - 1;
  const desc = `${o.title}: at ${o.xLabels[last] ?? 'the end'}, ${o.series.map((x) => `${x.label} ${x.values[last] ?? 0}%`).join(', ')}`;
  const held = o.held;
  return h(
    'div',
    { class: 'kv-occupancy' },
    h('h3', {}, 'Occupancy by priority'),
    h('p', { class: 'muted' }, o.title),
    s(
      'svg',
      { class: 'kv-occ', viewBox: '0 0 100 100', preserveAspectRatio: 'none', role: 'img', 'aria-label': desc },
      ...rects,
      held
        ? s(
            'path',
            {
              class: 'held',
              d: held.map((v, i) => `${i ? 'L' : 'M'}${(i * 100) / Math.max(1, n) + w / 2},${down(v)}`).join(' '),
              'vector-effect': 'non-scaling-stroke',
            },
            title('blocks held by running requests'),
          )
        : null,
    ),
    s(
      'svg',
      { class: 'axis', 'aria-hidden': 'true' },
      s('text', { class: 'tick', x: '0%', y: '1em', 'text-anchor': 'start' }, o.xLabels[0] ?? ''),
      s('text', { class: 'tick', x: '100%', y: '1em', 'text-anchor': 'end' }, o.xLabels[last] ?? ''),
    ),
    h(
      'ul',
      { class: 'legend' },
      ...gpu.map((x, k) => h('li', {}, h('span', { class: `swatch prio-${Math.min(k, 5)}`, 'aria-hidden': 'true' }), x.label)),
      held ? h('li', {}, h('span', { class: 'swatch held-swatch', 'aria-hidden': 'true' }), 'held by running requests') : null,
      ...o.series
        .filter((x) => x.tier === 'host')
        .map((x) => h('li', {}, `${x.label}: up to ${Math.max(0, ...x.values)}% of the most the host tier held`)),
    ),
  );
}

function pinningTable(p: Pinning): HTMLElement {
  return h(
    'div',
    { class: 'kv-pinning' },
    h('h3', {}, 'Which ranges earned their pinning'),
    h('p', {}, p.summary),
    h(
      'table',
      { class: 'pinning' },
      thead(
        colHead('blocks'),
        colHead('priority'),
        colHead('pinned', true),
        colHead('hits, retention', true),
        colHead('hits, LRU', true),
        colHead('earned', true),
        colHead('verdict'),
      ),
      h(
        'tbody',
        {},
        ...p.rows.map((r) =>
          h(
            'tr',
            { class: `verdict-${r.verdict.replace(' ', '-')}` },
            h('th', { scope: 'row' }, r.label),
            h('td', {}, r.priority),
            h('td', { class: 'num' }, r.pinned),
            h('td', { class: 'num' }, r.hitsRetention),
            h('td', { class: 'num' }, r.hitsLru),
            h('td', { class: 'num' }, r.earned),
            h('td', {}, r.verdict),
          ),
        ),
      ),
    ),
  );
}

export function renderKvReuse(vm: KvReuseSectionVM, a: Actions): HTMLElement {
  const running = vm.state === 'running';
  const chosen = vm.workloads.some((w) => w.value === vm.workload) ? vm.workload : (vm.workloads[0]?.value ?? '');
  let picked = chosen;
  const picker = select('Built-in workload', vm.workloads, chosen, (v) => (picked = v));
  picker.disabled = running;
  const r = vm.result;
  return h(
    'div',
    { class: 'kv-reuse', 'aria-busy': running ? 'true' : 'false' },
    h('p', { class: 'muted' }, vm.intro),
    h(
      'div',
      { class: 'actions' },
      picker,
      button(running ? 'Simulating…' : 'Simulate', () => a.kvReuse(vm.uri, picked), { disabled: running || !picked, key: 'kv-simulate' }),
      button('Pick a trace…', () => a.pickTrace(vm.uri), {
        secondary: true,
        disabled: running,
        label: 'Pick a trace (.jsonl: Mooncake, token trace or KV cache events) and simulate it',
        key: 'kv-trace',
      }),
    ),
    runMessage(vm.state, vm.message),
    r ? h('h3', {}, r.subtitle) : null,
    r && r.curve.points.length ? curvePlot(r.curve) : null,
    r?.occupancy ? occupancyChart(r.occupancy) : null,
    r?.pinning ? pinningTable(r.pinning) : null,
    r ? notes(r.notes) : null,
  );
}
