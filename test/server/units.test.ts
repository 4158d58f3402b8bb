// The server's pure parts: the framing guard (src/server/frames.ts) and the settings layers (src/server/settings.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameGuard } from '../../src/server/frames.js';
import { analysisSettingsOf, DEFAULT_SETTINGS, forcedFormatFor, overlay, recipeLensSection } from '../../src/server/settings.js';
import { frame } from './client.js';

/** What the guard passes on, and what it reports, for input written in these pieces. */
async function guard(pieces: (string | Buffer)[], maxBody?: number): Promise<{ out: string; bad: string[] }> {
  const bad: string[] = [];
  const g = new FrameGuard((why) => bad.push(why), maxBody);
  const chunks: Buffer[] = [];
  g.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => g.on('end', r));
  for (const p of pieces) g.write(p);
  g.end();
  await done;
  return { out: Buffer.concat(chunks).toString('utf8'), bad };
}

test('frames: well-formed frames pass unchanged, split anywhere (one byte at a time), multi-byte characters counted in bytes', async () => {
  const a = frame('{"jsonrpc":"2.0","method":"a","params":{"t":"CP · 8 — ✓"}}');
  const b = frame('{"jsonrpc":"2.0","id":1,"method":"b"}');
  const whole = await guard([a + b]);
  assert.deepEqual(whole, { out: a + b, bad: [] });
  const bytes = Buffer.from(a + b);
  const split = await guard([...bytes].map((x) => Buffer.from([x])));
  assert.deepEqual(split, { out: a + b, bad: [] });
});

test('frames: garbage, a malformed header and a missing Content-Length are skipped, one report each run; the next frame passes', async () => {
  const good = frame('{"jsonrpc":"2.0","id":2,"method":"ok"}');
  const r = await guard(['noise\r\n', good, 'Content-Length: x\r\n\r\n{"id":3}', good, 'Content-Type: a\r\n\r\n', good]);
  assert.equal(r.out, good + good + good);
  assert.deepEqual(r.bad, [
    'bytes outside a frame ("noise\\r\\n"…); skipped to the next Content-Length header',
    'malformed header "Content-Length: x"; skipped to the next Content-Length header',
    'malformed header "Content-Type: a"; skipped to the next Content-Length header',
  ]);
});

test('frames: a body over the limit is dropped unread (in pieces), the frame after it passes', async () => {
  const good = frame('{"id":4}');
  const r = await guard(['Content-Length: 100\r\n\r\n', 'x'.repeat(60), 'y'.repeat(40), good], 50);
  assert.deepEqual(r, { out: good, bad: ['a 100-byte message is over the 50-byte limit; skipped'] });
});

test('settings: layers key by key, wrong types dropped with a warning; the { recipeLens } section or flat', () => {
  const warnings: string[] = [];
  const init = overlay(DEFAULT_SETTINGS, recipeLensSection({ gpu: 'b200', debounceMs: -1, unknown: 1 }), 'init', (w) => warnings.push(w));
  const s = overlay(init, recipeLensSection({ recipeLens: { model: 'llama3-70b', worldSize: 0, profile: 'hf' } }), 'config', (w) =>
    warnings.push(w),
  );
  assert.deepEqual([s.gpu, s.debounceMs, s.model, s.worldSize, s.profile], ['b200', 150, 'llama3-70b', null, 'hf']);
  assert.deepEqual(warnings, [
    'init: recipeLens.debounceMs must be an integer in 0…2000; -1 ignored',
    'config: recipeLens.worldSize must be an integer ≥ 1, or null; 0 ignored',
  ]);
  assert.deepEqual(analysisSettingsOf({ ...s, maxFileSizeKb: 16 }, 'file:///w/a.yaml', []), {
    gpu: 'b200',
    model: 'llama3-70b',
    profile: 'hf',
    attention: 'flash',
    forcedFormat: undefined,
    worldSize: undefined,
    maxLength: 16384,
    memoryWarnings: true,
    versions: undefined,
    documentPath: '/w/a.yaml',
  });
  const v = overlay(DEFAULT_SETTINGS, { versions: { nemo: '2.3', trtllm: '1.0' } }, 'config', (w) => warnings.push(w));
  assert.deepEqual(analysisSettingsOf(v, 'file:///w/a.yaml', []).versions, { nemo: '2.3', trtllm: '1.0' });
  assert.equal(
    overlay(DEFAULT_SETTINGS, { versions: { pytorch: '2.3' } }, 'config', (w) => warnings.push(w)).versions,
    DEFAULT_SETTINGS.versions,
  );
  assert.equal(
    warnings.at(-1),
    'config: recipeLens.versions must be an object of framework (nemo, bridge, mcore, trtllm, nemo_rl, automodel) → release such as "2.3"; {"pytorch":"2.3"} ignored',
  );
});

test('settings: formatAssociations globs match the absolute path, or the path relative to a workspace folder', () => {
  const assoc = { '**/serve/*.yaml': 'trtllm-options', 'train/*.yaml': 'nemo2', 'skip.yaml': 'none' } as const;
  const folders = ['file:///home/u/proj'];
  assert.equal(forcedFormatFor('file:///home/u/proj/deploy/serve/a.yaml', assoc, folders), 'trtllm-options');
  assert.equal(forcedFormatFor('file:///home/u/proj/train/b.yaml', assoc, folders), 'nemo2');
  assert.equal(forcedFormatFor('file:///elsewhere/train/b.yaml', assoc, folders), undefined);
  assert.equal(forcedFormatFor('file:///home/u/proj/skip.yaml', assoc, folders), 'none');
  assert.equal(forcedFormatFor('untitled:Untitled-1', assoc, folders), undefined);
});
