// The webview's side of the protocol: a malformed host message (wrong version, extra key, wrong type, a NaN that
// JSON turned into null, an unknown type) is refused with its reason shown and logged, and the panel keeps the DOM
// it had; and every real file's sections pass the check, so the check never blanks the panel of a real recipe.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseHostMessage, PROTOCOL_VERSION } from '../../src/protocol.js';
import { CORPUS, EXAMPLES, SHARED, yamlFiles } from '../helpers.js';
import { analyse, analyseExample, init, update } from './fixtures.js';
import { one, openPanel, text } from './page.js';

const good = analyseExample('llama3_8b_128k.yaml');
const DELETE = Symbol('delete');
/** `msg` (the good init message) with the value at `path` replaced, or deleted. */
function mutate(path: (string | number)[], value: unknown, msg: unknown = init(good)): unknown {
  const m = structuredClone(msg);
  let o = m as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  if (value === DELETE) delete o[path.at(-1)!];
  else o[path.at(-1)!] = value;
  return m;
}

const MALFORMED: [string, unknown, string][] = [
  ['not an object', 'init', 'message is not an object'],
  ['an array', [init(good)], 'message is not an object'],
  ['an older protocol', mutate(['v'], 1), 'unsupported protocol version 1 (expected 3)'],
  ['no version', mutate(['v'], DELETE), 'unsupported protocol version undefined (expected 3)'],
  ['an unknown type', { v: PROTOCOL_VERSION, type: 'eval', code: 'alert(1)' }, 'unknown message type "eval"'],
  ['an extra key', mutate(['html'], '<img src=x onerror=alert(1)>'), 'init: unexpected key "html"'],
  ['a missing section', mutate(['sections', 'kv'], DELETE), 'sections: missing "kv"'],
  [
    'a number where text goes',
    mutate(['sections', 'memory', 'total', 'gib'], 26.86),
    'sections.memory.total.gib must be a string of at most 1048576 characters',
  ],
  [
    'a NaN that JSON made null',
    mutate(['sections', 'memory', 'bar', 'segments', 2, 'w'], null),
    'sections.memory.bar.segments[2].w must be a finite number',
  ],
  [
    'an unknown verdict',
    mutate(['sections', 'memory', 'verdict'], 'maybe'),
    'sections.memory.verdict must be one of fits, tight, does-not-fit',
  ],
  [
    'an extra key deep down',
    mutate(['sections', 'layout', 'boxes', 1, 'cells', 3, 'html'], '<b>x</b>'),
    'sections.layout.boxes[1].cells[3]: unexpected key "html"',
  ],
  [
    'a rank that is not an integer',
    mutate(['sections', 'layout', 'boxes', 0, 'cells', 0, 'rank'], 0.5),
    'sections.layout.boxes[0].cells[0].rank must be an integer in 0…9007199254740991',
  ],
  [
    'a class name from elsewhere',
    mutate(['sections', 'memory', 'rows', 0, 'category'], 'x onclick'),
    'sections.memory.rows[0].category must be one of weights, gradients, optimizer, activations, transient, kv, overhead',
  ],
  ['a UI state out of range', mutate(['ui', 'whatIf', 'cp'], 0), 'ui.whatIf.cp must be an integer in 1…1048576'],
  [
    'a candidate index Apply could not send',
    mutate(['sections', 'planner', 'reference', 'index'], 64),
    'sections.planner.reference.index must be an integer in 0…63',
  ],
];

test('a malformed host message is refused: its reason shown and logged, the DOM and the kept state untouched', async () => {
  const p = await openPanel();
  try {
    p.host(init(good));
    const before = p.app.outerHTML;
    const kept = p.keptCount();
    const posted = p.posted.length;
    for (const [what, msg, reason] of MALFORMED) {
      assert.deepEqual(parseHostMessage(msg), { ok: false, error: reason }, what);
      p.host(msg);
      assert.equal(p.app.outerHTML, before, what);
      assert.equal(
        p.notice.textContent,
        `The panel refused an update it could not read (${reason}); it still shows the previous one.`,
        what,
      );
      assert.equal(p.notice.className, 'notice notice-error', what);
      assert.equal(p.logs.at(-1), `Recipe Lens: the planning panel refused a message from the extension: ${reason}`, what);
    }
    assert.equal(p.logs.length, MALFORMED.length);
    assert.equal(p.keptCount(), kept, 'nothing of a refused message is kept');
    assert.equal(p.posted.length, posted, 'and nothing is sent back');
    // The panel is not stuck: the next good update is drawn.
    const next = analyseExample('llama3_8b_128k.yaml', { ui: { rank: 9 } });
    p.host(update(good, next));
    assert.equal(text(one(p.app, '#sec-layout .cell.rel-self')), '9');
  } finally {
    await p.close();
  }
});

test('a refused update leaves every section as it was, even one the update carried in good shape', async () => {
  const p = await openPanel();
  try {
    p.host(init(good));
    const next = analyseExample('llama3_8b_128k.yaml', { ui: { whatIf: { cp: 16 } } });
    const msg = mutate(['sections', 'whatIf', 'canApply'], 'yes', update(good, next));
    const before = p.app.outerHTML;
    p.host(msg);
    assert.equal(p.app.outerHTML, before);
    assert.equal(
      p.notice.textContent,
      'The panel refused an update it could not read (sections.whatIf.canApply must be true or false); it still shows the previous one.',
    );
  } finally {
    await p.close();
  }
});

test('every example, corpus and wild file builds sections the webview accepts (with and without what-if values)', () => {
  const files = [...yamlFiles(EXAMPLES), ...yamlFiles(CORPUS), ...yamlFiles(join(SHARED, 'corpus-wild'))];
  assert.ok(files.length >= 160, `found ${files.length} files`);
  let training = 0;
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const name = f.split('/').pop()!;
    const plain = analyse(name, text);
    const r = parseHostMessage(init(plain));
    assert.equal(r.ok, true, `${f}: ${!r.ok && r.error}`);
    assert.deepEqual((r as { msg: unknown }).msg, init(plain), f);
    if (!plain.sections.whatIf) continue;
    training++;
    const what = analyse(name, text, { ui: { whatIf: { cp: 2, tp: 2, recompute: 'full', precision: 'nvfp4', microBatch: 2 }, rank: 3 } });
    const u = parseHostMessage(update(plain, what));
    assert.equal(u.ok, true, `${f} (what-if): ${!u.ok && u.error}`);
  }
  assert.ok(training >= 30, `${training} training files`);
});

test("the planner's rows for every example training recipe pass the check (EP, ETP and SP values included)", () => {
  let planned = 0;
  for (const f of yamlFiles(EXAMPLES)) {
    const name = f.split('/').pop()!;
    const text = readFileSync(f, 'utf8');
    const idle = analyse(name, text);
    if (idle.sections.planner?.state !== 'idle') continue;
    const ran = analyse(name, text, { plan: { run: { id: 7 } } });
    const planner = ran.sections.planner!;
    if (planner.state !== 'ready') continue;
    planned++;
    const r = parseHostMessage(update(idle, ran));
    assert.equal(r.ok, true, `${f}: ${!r.ok && r.error}`);
    assert.equal(planner.rows.length, 8, f);
  }
  assert.ok(planned >= 8, `${planned} planned`);
});
