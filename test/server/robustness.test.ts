// A misbehaving client: out-of-order and malformed notifications, unknown methods, garbage bytes, huge payloads, a
// flood of changes, random requests. The server answers each request with a result or an error, logs what it drops,
// and keeps serving: every test ends with a real request answered correctly. Counts and sizes are bounded, and every
// wait is for a state (a message), never a fixed time.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { EXAMPLES } from '../helpers.js';
import { fileUri, frame, TestClient } from './client.js';

const BROKEN = join(EXAMPLES, 'broken', 'llama3_8b_cp3.yaml');
const TEXT = readFileSync(BROKEN, 'utf8');
const URI = fileUri(BROKEN);
const CP_LINE = 53;
const HOVER = { textDocument: { uri: URI }, position: { line: CP_LINE, character: 8 } };

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return `${(e as { code: number }).code} ${(e as Error).message}`;
  }
}

/** The server still answers: the hover of the CP key of the broken example names its key path. */
async function stillServing(c: TestClient): Promise<void> {
  const h = await c.request<{ contents: { value: string } } | null>('textDocument/hover', HOVER);
  assert.ok(h?.contents.value.includes('model.context_parallel_size'), 'a hover is still answered');
}

test('requests before initialize get ServerNotInitialized; notifications before it are dropped', async () => {
  const c = new TestClient();
  assert.equal(await errorOf(c.request('textDocument/hover', HOVER)), '-32002 textDocument/hover before initialize');
  assert.equal(await errorOf(c.request('recipeLens/debug/stats')), '-32002 recipeLens/debug/stats before initialize');
  await c.open(URI, TEXT);
  await c.initialize();
  const stats = await c.request<{ documents: number }>('recipeLens/debug/stats');
  assert.equal(stats.documents, 0, 'the early didOpen was dropped');
  assert.ok(c.logs().includes('recipe-lens: textDocument/didOpen before initialize: dropped'), c.logs().join('\n'));
  await c.open(URI, TEXT);
  await stillServing(c);
  await c.stop();
});

test('a change before the open, an old version, a malformed range, a bad didOpen: refused and logged, the document unchanged', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.change(URI, 1, [{ text: 'model: {}\n' }]); // before didOpen
  await c.open(URI, TEXT, 5);
  await c.diagnosticsOf(URI, 5);
  const at = { line: CP_LINE, character: 25 };
  await c.change(URI, 4, [{ range: { start: at, end: { ...at, character: 26 } }, text: '8' }]); // older version
  await c.change(URI, 6, [{ range: { start: { line: 'x', character: 0 }, end: at }, text: '8' }]); // malformed range
  await c.notify('textDocument/didOpen', { textDocument: { uri: 'file:///bad.yaml', languageId: 'yaml', version: 1, text: 5 } });
  await c.notify('textDocument/didClose', { textDocument: { uri: 'file:///never-opened.yaml' } });
  const logs = await c.waitFor(() => (c.logs().length >= 5 ? c.logs() : undefined), 'five log lines');
  assert.deepEqual(logs, [
    `recipe-lens: didChange for ${URI}, which is not open: ignored`,
    `recipe-lens: didChange for ${URI} with version 4 after version 5: out of order, ignored`,
    'recipe-lens: didChange refused (contentChanges.0.range.start.line: Invalid type: Expected number but received "x")',
    'recipe-lens: didOpen refused (textDocument.text: Invalid type: Expected string but received 5)',
    'recipe-lens: didClose for file:///never-opened.yaml, which is not open: ignored',
  ]);
  // Still CP 3: the refused changes did not touch the text; a good change (version 6) does.
  await c.change(URI, 6, [{ range: { start: at, end: { ...at, character: 26 } }, text: '8' }]);
  assert.deepEqual(await c.diagnosticsOf(URI, 6), []);
  await stillServing(c);
  await c.stop();
});

test('unknown methods: MethodNotFound for a request (even with a 5 MB payload), an unknown notification is ignored', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(URI, TEXT);
  assert.equal(await errorOf(c.request('recipeLens/nothing', {})), '-32601 Unhandled method recipeLens/nothing');
  assert.equal(
    await errorOf(c.request('textDocument/unknown', { blob: 'x'.repeat(5 << 20) })),
    '-32601 Unhandled method textDocument/unknown',
  );
  await c.notify('$/somethingElse', { x: 1 });
  await c.notify('custom/notification', [1, 2, 3]);
  await stillServing(c);
  await c.stop();
});

test('garbage bytes, a malformed header, invalid JSON and non-JSON-RPC values cost one message each; the session goes on', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(URI, TEXT);
  c.raw('garbage before any header\r\n');
  await stillServing(c);
  c.raw('Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","id":1000,"method":"shutdown"}');
  c.raw(frame('{not json'));
  c.raw(frame('[1, 2, 3]'));
  c.raw(frame('{"jsonrpc":"2.0","id":77}'));
  c.raw(frame('"just a string"'));
  c.raw('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n'); // no Content-Length
  await stillServing(c);
  const logs = c.logs();
  assert.ok(
    logs.some((l) => l.startsWith('recipe-lens: bytes outside a frame ("garbage before any h"…)')),
    logs.join('\n'),
  );
  assert.ok(
    logs.includes('recipe-lens: malformed header "Content-Length: abc"; skipped to the next Content-Length header'),
    logs.join('\n'),
  );
  assert.ok(
    logs.some((l) => l.startsWith('recipe-lens: malformed message ignored:')),
    logs.join('\n'),
  );
  assert.ok(
    logs.some((l) => l.startsWith('Received message which is neither a response nor a notification message')),
    logs.join('\n'),
  );
  // The shutdown hidden in the body of the malformed frame was not executed: the server exits with 0 only after ours.
  assert.equal(await c.stop(), 0);
});

test('huge payloads: a 30 MB document (analysed in the worker thread) and a 200,000-line change; hovers elsewhere go on', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(URI, TEXT);
  const huge = 'kv_cache_config:\n' + 'x'.repeat(30 << 20) + '\n';
  await c.open('file:///huge.yaml', huge);
  await stillServing(c);
  // Over the 5 MB default limit: one RL-SIZE information, not parsed.
  const ds = await c.diagnosticsOf('file:///huge.yaml', 1);
  assert.deepEqual(
    ds.map((d) => [d.code, d.severity, d.range.start.line]),
    [['RL-SIZE', 3, 0]],
  );
  assert.equal(ds[0]!.message, 'file is 30.0 MB, over the 5.0 MB limit: not validated (recipeLens.maxFileSizeKb)');
  const lines = Array.from({ length: 200_000 }, (_, i) => `# line ${i}`).join('\n');
  await c.change(URI, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: lines + '\n' }]);
  const after = await c.diagnosticsOf(URI, 2);
  assert.deepEqual(
    after.map((d) => [d.code, d.range.start.line]),
    [
      ['RL-R1', CP_LINE + 200_000],
      ['RL-R3', CP_LINE + 200_000],
    ],
  );
  const stats = await c.request<{ documents: number; workerDocuments: number; workerAnalyses: number }>('recipeLens/debug/stats');
  // the 200,000 comment lines took the example past 1 MiB: both documents now live in the worker
  assert.deepEqual([stats.documents, stats.workerDocuments], [2, 2]);
  assert.ok(stats.workerAnalyses >= 2, `worker analyses: ${stats.workerAnalyses}`);
  await c.stop();
});

test('a flood of 2,000 changes: applied in order, diagnostics for the last version, a bounded number of analyses', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(URI, TEXT);
  await c.diagnosticsOf(URI, 1);
  const before = await c.request<{ analyses: number }>('recipeLens/debug/stats');
  const at = { line: CP_LINE, character: 25 };
  // CP cycles 3 → 4 → 5 → … ; the last of 2,000 edits writes 8 (valid): no diagnostic.
  const flood: Promise<void>[] = [];
  for (let v = 2; v <= 2001; v++) {
    const digit = v === 2001 ? '8' : String(3 + (v % 6));
    flood.push(c.change(URI, v, [{ range: { start: at, end: { ...at, character: 26 } }, text: digit }]));
  }
  await Promise.all(flood);
  assert.deepEqual(await c.diagnosticsOf(URI, 2001), []);
  const after = await c.request<{ analyses: number }>('recipeLens/debug/stats');
  // Debounced (150 ms): not one analysis per change. Bounded, not timed: a slow machine may run a few more.
  assert.ok(after.analyses - before.analyses <= 50, `analyses for 2,000 changes: ${after.analyses - before.analyses}`);
  const versions = c.published(URI).map((p) => p.version!);
  assert.deepEqual(
    versions,
    [...versions].sort((a, b) => a - b),
    'a newer version supersedes an older one: never published out of order',
  );
  await stillServing(c);
  await c.stop();
});

test('random requests (fast-check, 300 of them): each gets a result or an error, and the server keeps serving', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(URI, TEXT);
  const methods = [
    'textDocument/hover',
    'textDocument/completion',
    'textDocument/codeAction',
    'textDocument/documentSymbol',
    'textDocument/codeLens',
    'textDocument/inlayHint',
    'recipeLens/analysis',
    'recipeLens/whatIf',
    'recipeLens/plan',
    'recipeLens/apply',
  ];
  // Params: random JSON, or a real request's params with one random value planted somewhere.
  const position = fc.record({
    line: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.jsonValue()),
    character: fc.oneof(fc.nat(400), fc.jsonValue()),
  });
  const params = fc.oneof(
    fc.jsonValue(),
    fc.record({ textDocument: fc.record({ uri: fc.oneof(fc.constant(URI), fc.string(), fc.jsonValue()) }), position }),
    fc.record({
      textDocument: fc.record({ uri: fc.constant(URI) }),
      range: fc.record({ start: position, end: position }),
      context: fc.record({ diagnostics: fc.array(fc.jsonValue(), { maxLength: 3 }) }),
    }),
    fc.record({ textDocument: fc.record({ uri: fc.constant(URI) }), panel: fc.jsonValue(), values: fc.jsonValue() }),
  );
  const cases = fc.sample(fc.tuple(fc.constantFrom(...methods), params), { seed: 20261124, numRuns: 300 });
  const outcomes = await Promise.all(
    cases.map(([m, p]) =>
      c.request(m, p).then(
        () => 'result',
        (e: { code: number }) => `error ${e.code}`,
      ),
    ),
  );
  assert.equal(outcomes.length, 300);
  const kinds = new Set(outcomes);
  assert.ok(
    [...kinds].every((k) => ['result', 'error -32602'].includes(k)),
    `outcomes: ${[...kinds].join(', ')}`,
  );
  assert.ok(kinds.has('result') && kinds.has('error -32602'), `both results and InvalidParams: ${[...kinds].join(', ')}`);
  await stillServing(c);
  assert.equal(await c.stop(), 0);
});
