// The language server over JSON-RPC, as any editor drives it: `node dist/cli.js lsp --stdio`, initialize, didOpen,
// incremental didChange, published and pulled diagnostics, hover, completion, a quick fix applied until the
// diagnostics clear, document symbols, the estimate's code lens and inlay hint, the custom requests, a settings
// change, shutdown and exit. Expected figures come from the core on the same text and settings (what the CLI prints):
// the server's job is to carry them exactly, on the right lines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, type AnalysisSettings } from '../../src/core/analysis.js';
import { describeDetection } from '../../src/core/detect.js';
import { GIB } from '../../src/core/memory/overheads.js';
import { parseLspResult, type LspResultMethod } from '../../src/protocol.js';
import { EXAMPLES, REPO, SHARED } from '../helpers.js';
import { fileUri, PULL_CAPABILITIES, TestClient, type LspDiagnostic } from './client.js';

const BROKEN = join(EXAMPLES, 'broken', 'llama3_8b_cp3.yaml');
const BROKEN_TEXT = readFileSync(BROKEN, 'utf8');
const BROKEN_URI = fileUri(BROKEN);
/** The server's defaults (package.json's recipeLens.* defaults) as analysis settings. */
const DEFAULTS: AnalysisSettings = { gpu: 'h100', profile: 'megatron', attention: 'flash', maxLength: 5120 * 1024, memoryWarnings: true };
const R1 = 'world size 64 is not divisible by TP·PP·CP = 4·2·3 = 24';
const R3 = 'seq 131072 is not a multiple of 2·CP = 6 (context parallelism splits the sequence into 2·CP load-balanced chunks)';
const gib = (b: number) => `${(b / GIB).toFixed(2)} GiB`;
const at = (d: LspDiagnostic) => [
  d.code,
  d.severity,
  d.range.start.line,
  d.range.start.character,
  d.range.end.line,
  d.range.end.character,
  d.message,
];

/** Offset → position in a text (for edits computed here). */
function position(text: string, offset: number) {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before.at(-1)!.length };
}

test('initialize: the capabilities of a push client; shutdown then exit ends the process with code 0', async () => {
  const c = new TestClient();
  const { capabilities } = await c.initialize();
  assert.deepEqual(capabilities, {
    positionEncoding: 'utf-16',
    textDocumentSync: { openClose: true, change: 2 },
    hoverProvider: true,
    completionProvider: { triggerCharacters: [':', ' '], resolveProvider: false },
    codeActionProvider: { codeActionKinds: ['quickfix'] },
    documentSymbolProvider: { label: 'Recipe Lens' },
    codeLensProvider: { resolveProvider: false },
    inlayHintProvider: { resolveProvider: false },
  });
  // didChangeConfiguration is registered for the recipeLens section (the client advertised dynamic registration)
  await c.waitFor(() => (c.serverRequests.includes('client/registerCapability') ? true : undefined), 'client/registerCapability');
  assert.equal(await c.stop(), 0);
});

test('exit without shutdown ends the process with code 1 (LSP: exit before shutdown is an error)', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.notify('exit');
  assert.equal(await c.exited, 1);
});

test('broken example: published diagnostics with rule ids on line 54, related keys, then a quick fix clears them', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(BROKEN_URI, BROKEN_TEXT);
  const ds = await c.diagnosticsOf(BROKEN_URI, 1);
  assert.deepEqual(ds.map(at), [
    ['RL-R1', 1, 53, 25, 53, 26, R1],
    ['RL-R3', 1, 53, 25, 53, 26, R3],
  ]);
  assert.deepEqual(
    ds.map((d) => d.source),
    ['recipe-lens', 'recipe-lens'],
  );
  assert.deepEqual(
    ds[1]!.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line, r.message]),
    [[BROKEN_URI, 57, 'model.encoder_seq_length = 131072']],
  );

  // The fixes the R3 diagnostic carries, as the client asks for them (its diagnostic in the context).
  const actions = await c.request<
    {
      title: string;
      kind: string;
      isPreferred: boolean;
      edit: {
        documentChanges: { textDocument: { uri: string; version: number }; edits: { range: LspDiagnostic['range']; newText: string }[] }[];
      };
    }[]
  >('textDocument/codeAction', { textDocument: { uri: BROKEN_URI }, range: ds[1]!.range, context: { diagnostics: [ds[1]] } });
  assert.deepEqual(
    actions.map((a) => [a.title, a.kind, a.isPreferred]),
    [
      ['Set model.context_parallel_size: 2', 'quickfix', false],
      ['Set model.context_parallel_size: 4', 'quickfix', false],
    ],
  );
  // Both findings in the context (as VS Code's light bulb sends them) carry the same two fixes: one action each, for both.
  const both = await c.request<{ title: string; diagnostics: LspDiagnostic[] }[]>('textDocument/codeAction', {
    textDocument: { uri: BROKEN_URI },
    range: ds[0]!.range,
    context: { diagnostics: ds },
  });
  assert.deepEqual(
    both.map((a) => [a.title, a.diagnostics.map((d) => d.code)]),
    [
      ['Set model.context_parallel_size: 2', ['RL-R1', 'RL-R3']],
      ['Set model.context_parallel_size: 4', ['RL-R1', 'RL-R3']],
    ],
  );
  const change = actions[1]!.edit.documentChanges[0]!;
  assert.deepEqual(change.textDocument, { uri: BROKEN_URI, version: 1 });
  assert.deepEqual(change.edits, [{ range: { start: { line: 53, character: 25 }, end: { line: 53, character: 26 } }, newText: '4' }]);
  // The client applies the edit and sends it as an incremental change: version 2 has no diagnostic.
  await c.change(
    BROKEN_URI,
    2,
    change.edits.map((e) => ({ range: e.range, text: e.newText })),
  );
  assert.deepEqual(await c.diagnosticsOf(BROKEN_URI, 2), []);
  // Code actions of a range without diagnostics, and of another kind: none.
  const none = await c.request<unknown[]>('textDocument/codeAction', {
    textDocument: { uri: BROKEN_URI },
    range: ds[1]!.range,
    context: { diagnostics: [], only: ['refactor'] },
  });
  assert.deepEqual(none, []);
  await c.stop();
});

test('incremental didChange: two edits in one notification, and a range past the end (clamped)', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(BROKEN_URI, BROKEN_TEXT);
  await c.diagnosticsOf(BROKEN_URI, 1);
  // CP 3 → 8 (both rules hold), and a comment appended past the last line (clamped to the end).
  const cp = BROKEN_TEXT.indexOf('context_parallel_size: 3') + 'context_parallel_size: '.length;
  await c.change(BROKEN_URI, 2, [
    { range: { start: position(BROKEN_TEXT, cp), end: position(BROKEN_TEXT, cp + 1) }, text: '8' },
    { range: { start: { line: 10_000, character: 0 }, end: { line: 10_000, character: 5 } }, text: '# end\n' },
  ]);
  assert.deepEqual(await c.diagnosticsOf(BROKEN_URI, 2), []);
  // Now CP 8 → 5 through a full-text change: R1 and R3 again, with 5 in the messages.
  const text = BROKEN_TEXT.replace('context_parallel_size: 3', 'context_parallel_size: 5') + '# end\n';
  await c.change(BROKEN_URI, 3, [{ text }]);
  assert.deepEqual(
    (await c.diagnosticsOf(BROKEN_URI, 3)).map((d) => [d.code, d.range.start.line, d.message]),
    [
      ['RL-R1', 53, 'world size 64 is not divisible by TP·PP·CP = 4·2·5 = 40'],
      ['RL-R3', 53, 'seq 131072 is not a multiple of 2·CP = 10 (context parallelism splits the sequence into 2·CP load-balanced chunks)'],
    ],
  );
  await c.stop();
});

test('hover on context_parallel_size: the memory view and the schema description, on the key', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(BROKEN_URI, BROKEN_TEXT);
  const h = await c.request<{ contents: { kind: string; value: string }; range: LspDiagnostic['range'] }>('textDocument/hover', {
    textDocument: { uri: BROKEN_URI },
    position: { line: 53, character: 8 },
  });
  const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'nemo1.schema.json'), 'utf8'));
  const description: string = schema.$defs.model.properties.context_parallel_size.description;
  const e = analyze(BROKEN_TEXT, DEFAULTS).main!.estimate!;
  assert.equal(e.kind, 'training');
  assert.equal(h.contents.kind, 'markdown');
  assert.ok(h.contents.value.startsWith('**Per-GPU memory**'), h.contents.value.slice(0, 80));
  assert.ok(h.contents.value.includes(`**${(e.kind === 'training' ? e.estimate.perGpu.total / GIB : 0).toFixed(1)} GiB**`));
  assert.ok(h.contents.value.includes(description), 'the schema description');
  assert.ok(h.contents.value.includes('model.context_parallel_size'), 'the key path');
  assert.deepEqual(h.range, { start: { line: 53, character: 2 }, end: { line: 53, character: 23 } });
  // On a comment line: no hover.
  assert.equal(await c.request('textDocument/hover', { textDocument: { uri: BROKEN_URI }, position: { line: 0, character: 3 } }), null);
  await c.stop();
});

test('completion: keys of the mapping at the cursor (not those already there) and enum values', async () => {
  const c = new TestClient();
  await c.initialize();
  const path = join(SHARED, 'corpus', 'TensorRT-LLM', 'ctx_config.yaml');
  const text = readFileSync(path, 'utf8');
  const uri = fileUri(path);
  await c.open(uri, text);
  const line = text.split('\n').findIndex((l) => l.startsWith('kv_cache_config:'));
  assert.ok(line >= 0);
  await c.change(uri, 2, [{ range: { start: { line: line + 1, character: 0 }, end: { line: line + 1, character: 0 } }, text: '  \n' }]);
  type Item = { label: string; kind: number; textEdit: { range: LspDiagnostic['range']; newText: string } };
  const keys = await c.request<Item[]>('textDocument/completion', { textDocument: { uri }, position: { line: line + 1, character: 2 } });
  const free = keys.find((i) => i.label === 'free_gpu_memory_fraction');
  assert.deepEqual(free && [free.kind, free.textEdit], [
    10,
    { range: { start: { line: line + 1, character: 2 }, end: { line: line + 1, character: 2 } }, newText: 'free_gpu_memory_fraction: ' },
  ]);
  assert.equal(
    keys.some((i) => i.label === 'enable_block_reuse'),
    false,
    'a key already in the mapping is not offered',
  );

  // An enum: activations_checkpoint_granularity in a NeMo 1.x model section.
  const cpLine = BROKEN_TEXT.split('\n').findIndex((l) => l.startsWith('  context_parallel_size:'));
  await c.open(BROKEN_URI, BROKEN_TEXT);
  await c.change(BROKEN_URI, 2, [
    {
      range: { start: { line: cpLine + 1, character: 0 }, end: { line: cpLine + 1, character: 0 } },
      text: '  activations_checkpoint_granularity: \n',
    },
  ]);
  const values = await c.request<Item[]>('textDocument/completion', {
    textDocument: { uri: BROKEN_URI },
    position: { line: cpLine + 1, character: '  activations_checkpoint_granularity: '.length },
  });
  assert.deepEqual(
    values.map((i) => [i.label, i.kind]),
    [
      ['selective', 12],
      ['full', 12],
      ['null', 12],
    ],
  );
  await c.stop();
});

test('a ConfigMap-embedded engine config (Dynamo deploy.yaml): completion and hover inside the block, nothing in the manifest', async () => {
  const c = new TestClient();
  await c.initialize();
  const text = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: engine-config',
    'data:',
    '  agg.yaml: |',
    '    tensor_parallel_size: 2',
    '    kv_cache_config:',
    '      enable_block_reuse: true',
    '      ',
    '---',
    'kind: DynamoGraphDeployment',
    'spec:',
    '  ',
    '',
  ].join('\n');
  const uri = 'file:///work/deploy.yaml';
  await c.open(uri, text);
  type Item = { label: string; textEdit: { range: LspDiagnostic['range']; newText: string } };
  const keys = await c.request<Item[]>('textDocument/completion', { textDocument: { uri }, position: { line: 9, character: 6 } });
  const free = keys.find((i) => i.label === 'free_gpu_memory_fraction');
  assert.deepEqual(free?.textEdit, {
    range: { start: { line: 9, character: 6 }, end: { line: 9, character: 6 } },
    newText: 'free_gpu_memory_fraction: ',
  });
  assert.equal(
    keys.some((i) => i.label === 'enable_block_reuse'),
    false,
  );
  // In the DynamoGraphDeployment: no TensorRT-LLM keys.
  assert.deepEqual(await c.request<Item[]>('textDocument/completion', { textDocument: { uri }, position: { line: 13, character: 2 } }), []);
  const h = await c.request<{ contents: { value: string }; range: LspDiagnostic['range'] }>('textDocument/hover', {
    textDocument: { uri },
    position: { line: 6, character: 6 },
  });
  assert.ok(h.contents.value.includes('tensor_parallel_size'));
  assert.deepEqual(h.range, { start: { line: 6, character: 4 }, end: { line: 6, character: 24 } });
  await c.stop();
});

test('document symbols: the sections, nested as written', async () => {
  const c = new TestClient();
  await c.initialize();
  await c.open(BROKEN_URI, BROKEN_TEXT);
  type Sym = {
    name: string;
    kind: number;
    detail: string;
    range: LspDiagnostic['range'];
    selectionRange: LspDiagnostic['range'];
    children: Sym[];
  };
  const symbols = await c.request<Sym[]>('textDocument/documentSymbol', { textDocument: { uri: BROKEN_URI } });
  assert.deepEqual(
    symbols.map((s) => [s.name, s.kind, s.selectionRange.start.line]),
    [
      ['trainer', 3, 10],
      ['exp_manager', 3, 27],
      ['model', 3, 43],
    ],
  );
  const model = symbols[2]!;
  assert.ok(model.detail.endsWith(' keys'), model.detail);
  assert.ok(
    model.children.some((s) => s.name === 'optim' && s.kind === 3),
    `model's sections: ${model.children.map((s) => s.name).join(', ')}`,
  );
  await c.stop();
});

test('the per-GPU estimate as a code lens above the parallelism block and an inlay hint after its first key', async () => {
  const c = new TestClient({ initializationOptions: { codeLensCommand: 'recipeLens.openPanel' } });
  await c.initialize();
  await c.open(BROKEN_URI, BROKEN_TEXT);
  const e = analyze(BROKEN_TEXT, DEFAULTS).main!.estimate!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  const text = `${gib(e.estimate.perGpu.total)} per GPU of ${gib(e.gpu.bytes)} (h100) — ${e.estimate.fit.verdict.replace(/-/g, ' ')} · TP 4 · PP 2 · CP 3`;
  const lenses = await c.request<{ range: LspDiagnostic['range']; command: { title: string; command: string } }[]>(
    'textDocument/codeLens',
    {
      textDocument: { uri: BROKEN_URI },
    },
  );
  // line 51 (0-based 50) is tensor_model_parallel_size, the first parallelism key of the file
  assert.deepEqual(lenses, [
    {
      range: { start: { line: 50, character: 0 }, end: { line: 50, character: 0 } },
      command: {
        title: text,
        command: 'recipeLens.openPanel',
        tooltip: `Recipe Lens: the most-loaded rank (PP stage ${e.estimate.stage}) needs ${gib(e.estimate.perGpu.total)} on NVIDIA H100 80GB HBM3 (SXM), ${(e.estimate.fit.fraction * 100).toFixed(1)}% of its memory (llama3-8b, seq 131072, micro-batch 1).`,
      },
    },
  ]);
  const hints = await c.request<{ position: { line: number; character: number }; label: string }[]>('textDocument/inlayHint', {
    textDocument: { uri: BROKEN_URI },
    range: { start: { line: 40, character: 0 }, end: { line: 60, character: 0 } },
  });
  assert.deepEqual(
    hints.map((h) => [h.position, h.label]),
    [[{ line: 50, character: '  tensor_model_parallel_size: 4'.length }, text]],
  );
  const outside = await c.request('textDocument/inlayHint', {
    textDocument: { uri: BROKEN_URI },
    range: { start: { line: 0, character: 0 }, end: { line: 10, character: 0 } },
  });
  assert.deepEqual(outside, []);
  await c.stop();
});

test('pull diagnostics: a full report with a result id, then "unchanged" for the same version; nothing is pushed', async () => {
  const c = new TestClient({ capabilities: PULL_CAPABILITIES });
  const { capabilities } = await c.initialize();
  assert.deepEqual(capabilities.diagnosticProvider, {
    identifier: 'recipe-lens',
    interFileDependencies: false,
    workspaceDiagnostics: false,
  });
  await c.open(BROKEN_URI, BROKEN_TEXT);
  type Report = { kind: string; resultId?: string; items?: LspDiagnostic[] };
  const full = await c.request<Report>('textDocument/diagnostic', { textDocument: { uri: BROKEN_URI } });
  assert.equal(full.kind, 'full');
  assert.deepEqual(full.items!.map(at), [
    ['RL-R1', 1, 53, 25, 53, 26, R1],
    ['RL-R3', 1, 53, 25, 53, 26, R3],
  ]);
  assert.match(full.resultId!, /^1:/);
  const again = await c.request<Report>('textDocument/diagnostic', { textDocument: { uri: BROKEN_URI }, previousResultId: full.resultId });
  assert.deepEqual(again, { kind: 'unchanged', resultId: full.resultId });
  const cp = BROKEN_TEXT.indexOf('context_parallel_size: 3') + 'context_parallel_size: '.length;
  await c.change(BROKEN_URI, 2, [{ range: { start: position(BROKEN_TEXT, cp), end: position(BROKEN_TEXT, cp + 1) }, text: '8' }]);
  const after = await c.request<Report>('textDocument/diagnostic', { textDocument: { uri: BROKEN_URI }, previousResultId: full.resultId });
  assert.deepEqual([after.kind, after.items, after.resultId?.split(':')[0]], ['full', [], '2']);
  assert.deepEqual(c.published(BROKEN_URI), [], 'a pulling client gets no publishDiagnostics');
  await c.stop();
});

/** A custom request's result, checked against the protocol's schema as the VS Code client checks it. */
async function custom<T>(c: TestClient, method: LspResultMethod, params: unknown): Promise<T> {
  const r = await c.request<T>(method, params);
  const parsed = parseLspResult(method, r);
  assert.ok(parsed.ok, `${method}: the result does not match src/protocol.ts: ${parsed.ok ? '' : parsed.error}`);
  return r;
}

test('custom requests: analysis (status, estimate, panel sections), whatIf, plan and apply', async () => {
  const c = new TestClient();
  await c.initialize();
  const req = <T = unknown>(method: LspResultMethod, params: unknown) => custom<T>(c, method, params);
  const path = join(EXAMPLES, 'llama3_8b_128k.yaml');
  const text = readFileSync(path, 'utf8');
  const uri = fileUri(path);
  await c.open(uri, text);
  const e = analyze(text, DEFAULTS).main!.estimate!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  const ui = { uri, gpu: null, whatIf: {}, rank: 0, layout: { worldSize: null, mode: 'all', page: 0 } };
  type Panel = {
    sections: {
      header: { title: string; docVersion: number };
      whatIf: { changes: { path: string; from: string; to: string }[] } | null;
      planner: { state: string; planId: number; rows: unknown[] } | null;
    };
    ui: typeof ui;
    layoutPage: number | 'rank';
  };
  const a = await req<{
    version: number;
    format: string;
    formatLabel: string;
    detected: string;
    status: { text: string; verdict: string };
    estimate: { kind: string; totalBytes: number; report: string };
    panel: Panel;
  }>('recipeLens/analysis', { textDocument: { uri }, panel: { ui, layoutPage: 'rank' } });
  assert.deepEqual([a.version, a.format, a.formatLabel], [1, 'nemo1', 'NeMo 1.x Hydra config']);
  // The status bar's format tooltip: the same sentence as the CLI's JSON "detected" (describeDetection).
  assert.equal(a.detected, describeDetection(analyze(text, DEFAULTS).main!.doc.detection));
  assert.match(a.detected, /^NeMo 1\.x Hydra config \(keys model\./);
  assert.deepEqual(a.status, {
    verdict: e.estimate.fit.verdict,
    text: `${(e.estimate.perGpu.total / GIB).toFixed(1)} / ${(e.gpu.bytes / GIB).toFixed(1)} GiB`,
    tooltip: `Recipe Lens: most-loaded rank needs ${gib(e.estimate.perGpu.total)} on ${e.gpu.name} (${e.estimate.fit.verdict}).`,
  });
  assert.equal(a.estimate.kind, 'training');
  assert.equal(a.estimate.totalBytes, e.estimate.perGpu.total);
  assert.ok(a.estimate.report.includes(`most-loaded rank`), a.estimate.report.slice(0, 200));
  assert.deepEqual([a.panel.sections.header.title, a.panel.sections.header.docVersion], ['llama3_8b_128k.yaml', 1]);

  // what-if CP 8 → 4: one change, applicable; apply returns the versioned edit of exactly that value.
  const w = await req<{ version: number; changes: number; applicable: boolean; panel: Panel }>('recipeLens/whatIf', {
    textDocument: { uri },
    panel: { ui, layoutPage: 'rank' },
    values: { cp: 4 },
  });
  assert.deepEqual([w.version, w.changes, w.applicable], [1, 1, true]);
  assert.deepEqual(
    w.panel.sections.whatIf?.changes.map((ch) => [ch.path, ch.from, ch.to]),
    [['model.context_parallel_size', '8', '4']],
  );
  const view = { ui: { ...ui, whatIf: { cp: 4 } }, layoutPage: 'rank' };
  const cpAt = text.indexOf('context_parallel_size: 8') + 'context_parallel_size: '.length;
  const applied = await req('recipeLens/apply', { textDocument: { uri, version: 1 }, panel: view, target: { kind: 'whatIf' } });
  assert.deepEqual(applied, {
    ok: true,
    keys: 1,
    edit: {
      documentChanges: [
        {
          textDocument: { uri, version: 1 },
          edits: [{ range: { start: position(text, cpAt), end: position(text, cpAt + 1) }, newText: '4' }],
        },
      ],
    },
  });
  // Another version: refused, nothing to write.
  const stale = await req<{ ok: boolean; reason: string }>('recipeLens/apply', {
    textDocument: { uri, version: 7 },
    panel: view,
    target: { kind: 'whatIf' },
  });
  assert.deepEqual(stale, {
    ok: false,
    reason: 'the file changed since the preview was computed (version 7, now 1); check the new preview and apply again.',
  });

  // The planner for 64 GPUs, then row 1 applied against its planId.
  const p = await req<{ rows: number | null; message: string; panel: Panel }>('recipeLens/plan', {
    textDocument: { uri },
    panel: { ui, layoutPage: 'rank' },
    gpus: 64,
  });
  assert.equal(p.message, '');
  assert.ok(p.rows !== null && p.rows > 0, `layouts listed: ${p.rows}`);
  assert.equal(p.panel.sections.planner?.state, 'ready');
  assert.equal(p.panel.ui.layout.worldSize, 64, 'the planner GPU count is the layout section’s from now on');
  const planId = p.panel.sections.planner!.planId;
  const row = await req<{ ok: boolean }>('recipeLens/apply', {
    textDocument: { uri, version: 1 },
    panel: { ui: p.panel.ui, layoutPage: p.panel.layoutPage },
    target: { kind: 'candidate', planId: planId + 1, index: 0 },
  });
  assert.deepEqual(row, {
    ok: false,
    reason: 'the layout list changed since (another search, GPU or GPU count); check the new list and apply again.',
  });

  // A document the server does not have: nulls, and the panel's empty state.
  const unknown = await req<{ version: null; format: null; panel: Panel }>('recipeLens/analysis', {
    textDocument: { uri: 'file:///nowhere.ts' },
    panel: { ui, layoutPage: 'rank' },
  });
  assert.deepEqual([unknown.version, unknown.format, unknown.panel.sections.header.title], [null, null, 'Recipe Lens']);
  await c.stop();
});

test('custom requests validate their params at the boundary: InvalidParams with the reason', async () => {
  const c = new TestClient();
  await c.initialize();
  const err = async (method: string, params: unknown) => {
    try {
      await c.request(method, params);
      return 'no error';
    } catch (e) {
      return `${(e as { code: number }).code} ${(e as Error).message}`;
    }
  };
  assert.equal(
    await err('recipeLens/analysis', { textDocument: { uri: 42 } }),
    '-32602 recipeLens/analysis: textDocument.uri must be a string of at most 4096 characters',
  );
  assert.equal(
    await err('recipeLens/whatIf', { textDocument: { uri: 'file:///x.yaml' }, values: {} }),
    '-32602 recipeLens/whatIf: message: missing "panel"',
  );
  assert.equal(
    await err('recipeLens/apply', {
      textDocument: { uri: 'file:///x.yaml', version: 1 },
      panel: { ui: { uri: null, gpu: null, whatIf: {}, rank: 0, layout: { worldSize: null, mode: 'all', page: 0 } }, layoutPage: 'rank' },
      target: { kind: 'everything' },
    }),
    '-32602 recipeLens/apply: Invalid type: Expected ("whatIf" | "candidate") but received "everything"',
  );
  assert.equal(
    await err('textDocument/hover', { textDocument: { uri: 'file:///x.yaml' }, position: { line: -1, character: 0 } }),
    '-32602 textDocument/hover: position.line Invalid value: Expected >=0 but received -1',
  );
  await c.stop();
});

test('settings: initializationOptions, then workspace/configuration after didChangeConfiguration re-analyse (GPU h200)', async () => {
  let gpu = 'h100';
  const c = new TestClient({ initializationOptions: { gpu: 'b200', memoryWarnings: 'yes' }, configuration: () => ({ gpu }) });
  await c.initialize();
  const path = join(EXAMPLES, 'llama3_8b_128k.yaml');
  const uri = fileUri(path);
  const text = readFileSync(path, 'utf8');
  await c.open(uri, text);
  type Note = { uri: string; version: number; format: string | null; detected: string | null; status: { text: string } | null };
  const notes = () => c.notifications.filter((n) => n.method === 'recipeLens/didAnalyze').map((n) => n.params as Note);
  const first = await c.waitFor(() => notes()[0], 'didAnalyze');
  const status = (g: string) => {
    const e = analyze(text, { ...DEFAULTS, gpu: g }).main!.estimate!;
    return e.kind === 'training' ? `${(e.estimate.perGpu.total / GIB).toFixed(1)} / ${(e.gpu.bytes / GIB).toFixed(1)} GiB` : '';
  };
  assert.deepEqual([first.format, first.detected], ['nemo1', describeDetection(analyze(text, DEFAULTS).main!.doc.detection)]);
  // workspace/configuration (h100) wins over initializationOptions (b200)
  assert.equal(first.status?.text, status('h100'));
  assert.ok(
    c.logs().some((l) => l.includes('initializationOptions: recipeLens.memoryWarnings must be true or false; "yes" ignored')),
    c.logs().join('\n'),
  );
  gpu = 'h200';
  await c.notify('workspace/didChangeConfiguration', { settings: null });
  const second = await c.waitFor(() => notes()[1], 'didAnalyze after the settings change');
  assert.deepEqual([second.version, second.status?.text], [1, status('h200')]);
  assert.notEqual(status('h200'), status('h100'));
  assert.ok(c.serverRequests.includes('workspace/codeLens/refresh'), 'the code lenses are refreshed');
  await c.stop();
});
