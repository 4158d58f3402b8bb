// The KV reuse and Compare sections as the panel draws them: their idle state from the server's sections, then the
// results the host lays over them (a simulation's curves, a log comparison's rows). Trace and log names are the
// user's files: shown as text, never markup.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { readTokenTrace, retentionFromObject, Simulator, sweep, tokenTraceWorkload, type SimOptions } from '../../src/core/kvsim/index.js';
import { compareLog } from '../../src/core/memory/logs.js';
import { compareLogVM } from '../../src/core/panel/compareLog.js';
import { buildKvReuseVM } from '../../src/core/panel/kvReuse.js';
import { PROTOCOL_VERSION } from '../../src/protocol.js';
import { REPO } from '../helpers.js';
import { analyseExample, example, init } from './fixtures.js';
import { all, one, openPanel, rows, text, texts } from './page.js';
import { simOptions } from '../kvsimOptions.js';

const HOSTILE = '<img src=x onerror=alert(1)>"&amp;.jsonl';

/** The hand-computed trace of test/core/kvsimPanel.test.ts: LRU loses the pinned system prompt at 14 blocks only. */
function kvResult() {
  const seq = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  const t = readTokenTrace(
    [
      { tokens: [...seq(1000, 8), ...seq(2000, 4)], output_len: 1 },
      { tokens: seq(10_000, 40), output_len: 1 },
      { tokens: seq(10_100, 40), output_len: 1 },
      { tokens: [...seq(1000, 8), ...seq(2010, 4)], output_len: 1 },
    ].map((l) => JSON.stringify(l)),
  );
  if ('error' in t) throw new Error(t.error);
  const workload = tokenTraceWorkload(t, HOSTILE);
  const r = retentionFromObject({ token_range_retention_configs: [{ token_start: 0, token_end: 8, priority: 100 }] });
  if ('error' in r) throw new Error(r.error);
  const cfg: SimOptions = simOptions({ primaryBlocks: 14, tokensPerBlock: 4, retention: r.spec });
  const ret = new Simulator({ ...cfg, policy: 'retention', samples: 4, expectedRequests: 4 }).run(workload.requests());
  return buildKvReuseVM({
    workload: workload.name,
    tokensPerBlock: 4,
    sweep: sweep(workload, [14, 28, 56], cfg),
    filePool: 28,
    retention: r.spec,
    occupancy: { source: 'simulation', label: 'retention at 14 blocks', capacity: 14, samples: ret.samples },
    detail: { poolBlocks: 14, lru: new Simulator(cfg).run(workload.requests()), retention: ret },
  });
}

test('KV reuse: idle on a retention file (built-in workloads, Simulate, Pick a trace); absent on a training recipe', async () => {
  const a = analyseExample('retention_system_prompt.yaml');
  const p = await openPanel();
  try {
    p.host(init(a));
    const sec = one(p.app, '#sec-kvReuse');
    assert.equal(
      text(one(sec, 'p.muted')),
      'This retention config against plain LRU, at pool sizes spread over the workload (32 tokens per block).',
    );
    assert.deepEqual(
      a.sections.kvReuse!.workloads.map((w) => w.value),
      ['chat', 'multiturn', 'agentic', 'rag', 'mix'],
    );
    assert.equal(all(sec, 'svg').length, 0);
    (one(sec, 'vscode-button[data-key="kv-simulate"]') as HTMLElement).click();
    (one(sec, 'vscode-button[data-key="kv-trace"]') as HTMLElement).click();
    assert.deepEqual(p.posted.slice(-2), [
      { v: PROTOCOL_VERSION, type: 'kvReuse', uri: a.uri, workload: 'chat' },
      { v: PROTOCOL_VERSION, type: 'pickTrace', uri: a.uri },
    ]);
  } finally {
    await p.close();
  }
  const t = analyseExample('llama3_8b_128k.yaml');
  assert.equal(t.sections.kvReuse, null);
});

test('KV reuse result: one path per policy, the file pool marker, the points table, pinning rows; a hostile trace name is text', async () => {
  const a = analyseExample('retention_system_prompt.yaml');
  const vm = kvResult();
  a.sections.kvReuse = { ...a.sections.kvReuse!, state: 'ready', workload: HOSTILE, message: '4 requests read', result: vm };
  const p = await openPanel();
  try {
    p.host(init(a));
    assert.deepEqual(p.logs, []);
    const sec = one(p.app, '#sec-kvReuse');
    assert.equal(all(p.document, 'img').length, 0);
    assert.equal(text(one(sec, 'h3')), `${HOSTILE} (4 requests) · 4 tokens per block`);
    const svg = one(sec, 'svg.kv-curve');
    const paths = all(svg, 'path.curve');
    assert.deepEqual(
      paths.map((x) => [x.getAttribute('class'), x.getAttribute('d')]),
      [
        // Log axis over 14..56 blocks: 28 half way; y = 100 − hit rate in % (7.692% = 2 of 26 prompt blocks).
        ['curve curve-lru', 'M0,100 L50,92.308 L100,92.308'],
        ['curve curve-retention', 'M0,92.308 L50,92.308 L100,92.308'],
      ],
    );
    const marker = one(svg, 'line.pool-marker');
    assert.deepEqual([marker.getAttribute('x1'), marker.getAttribute('x2'), text(marker)], ['50', '50', 'options file: 28 blocks']);
    assert.deepEqual(rows(sec, 'table.kv-points tbody tr'), [
      ['14 blocks (56 tokens)', 'LRU 0.0%', 'retention 7.7%'],
      ['28 blocks (112 tokens)', 'LRU 7.7%', 'retention 7.7%'],
      ['56 blocks (224 tokens)', 'LRU 7.7%', 'retention 7.7%'],
    ]);
    assert.equal(one(sec, 'table.kv-points tr.file-pool th').textContent, '28 blocks (112 tokens)');
    assert.deepEqual(texts(sec, 'svg.kv-curve + svg.axis text'), ['14', '16', '32', '56']);
    assert.deepEqual(rows(sec, 'table.pinning tbody tr'), [
      ['tokens [0, 8)', '100', '6', '2', '0', '+2', 'earned'],
      ['outside every range', '35 (default)', '18', '0', '0', '±0', 'no effect'],
    ]);
    // Occupancy: the GPU tier stacked per request (4 samples × 2 priorities, empty cells left out), the held line.
    assert.equal(all(sec, 'svg.kv-occ rect.occ').length, 7);
    assert.equal(all(sec, 'svg.kv-occ path.held').length, 1);
    assert.match(one(sec, 'svg.kv-curve').getAttribute('aria-label')!, /^hit rate \(full prompt blocks reused\) against GPU pool/);
  } finally {
    await p.close();
  }
});

test('Compare with a training log: the button, then per rank and level measured against estimated, the worst row marked', async () => {
  const a = analyseExample('llama3_8b_128k.yaml');
  const p = await openPanel();
  try {
    p.host(init(a));
    const sec = one(p.app, '#sec-compare');
    (one(sec, 'vscode-button[data-key="compare-log"]') as HTMLElement).click();
    assert.deepEqual(p.posted.at(-1), { v: PROTOCOL_VERSION, type: 'compareLog', uri: a.uri });
  } finally {
    await p.close();
  }
  const e = analyze(example('llama3_8b_128k.yaml')).main!.estimate!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  const log = readFileSync(join(REPO, 'test', 'fixtures', 'logs', 'train_pp2.log'), 'utf8');
  const name = '<b>train</b>.log';
  a.sections.compare = {
    ...a.sections.compare!,
    state: 'ready',
    result: compareLogVM(compareLog(log, name, e.estimate), e, name, 'llama3_8b_128k.yaml'),
  };
  const q = await openPanel();
  try {
    q.host(init(a));
    const sec = one(q.app, '#sec-compare');
    assert.equal(all(q.document, 'b').length, 0);
    assert.equal(text(one(sec, 'h3')), '<b>train</b>.log against llama3_8b_128k.yaml');
    const got = rows(sec, 'table.compare-table tbody tr');
    assert.deepEqual(
      got.map((r) => r.slice(0, 4)),
      [
        ['0', '0', 'max allocated', '50.00 GiB'],
        ['0', '0', 'max reserved', '56.00 GiB'],
        ['0', '0', 'allocated after the step', '29.30 GiB'],
        ['32', '1', 'max allocated', '40.00 GiB'],
        ['32', '1', 'max reserved', '45.00 GiB'],
        ['32', '1', 'allocated after the step', '24.41 GiB'],
      ],
    );
    const vm = a.sections.compare.result!;
    assert.deepEqual(
      got,
      vm.rows.map((r) => r.cells),
    );
    assert.equal(all(sec, 'table.compare-table tr.worst').length, 1);
    assert.equal(text(one(sec, 'p.worst-line')), vm.worst);
    assert.deepEqual(
      rows(sec, 'table.suspects tbody tr'),
      vm.suspects.map((s) => [s.label, s.bytes, s.share]),
    );
  } finally {
    await q.close();
  }
});
