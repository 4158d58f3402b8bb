// In-extension-host integration tests: they run inside a real VS Code's extension host with the real `vscode` API,
// against the extension loaded from the repository. Entry point in @vscode/test-electron's extensionTestsPath format
// (a CommonJS module exporting run()); driven by scripts/e2e/inhost.mjs (code-server's VS Code server, used by
// `npm run test:e2e`) or scripts/e2e/run-vscode.mjs (desktop VS Code, `npm run test:vscode`).
// The workspace folder holds copies of examples/ (as examples/) and ../shared/corpus (as corpus/).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXPECTED_FORMAT, EXPECTED_WARNINGS } from '../../expected.js';
import { poll, runAll, test } from './harness.js';

const EXTENSION_ID = 'recipe-lens.recipe-lens';
const { Error: E, Warning: W } = vscode.DiagnosticSeverity;

const R1 = 'world size 64 is not divisible by TP·PP·CP = 4·2·3 = 24';
const R3 = 'seq 131072 is not a multiple of 2·CP = 6 (context parallelism splits the sequence into 2·CP load-balanced chunks)';
/** examples/broken/llama3_8b_cp3.yaml: code, severity, 0-based line and character, message. Two mistakes, two problems,
 *  both on context_parallel_size (the key to change); TP, PP, the world size and the sequence length are related. */
const BROKEN_EXPECTED = [
  ['RL-R1', E, 53, 25, R1],
  ['RL-R3', E, 53, 25, R3],
];

const ws = () => {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'a workspace folder is open');
  return f.uri;
};
const corpusUri = (name: string) => vscode.Uri.joinPath(ws(), 'corpus', ...name.split('/'));
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'recipe-lens');
const byPosition = (a: vscode.Diagnostic, b: vscode.Diagnostic) => a.range.start.compareTo(b.range.start);

async function open(uri: vscode.Uri): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  assert.equal(doc.languageId, 'yaml', `${uri.path} opens as YAML`);
  return vscode.window.showTextDocument(doc);
}

/** Diagnostics of `uri` once `n` of them with `severity` are there (or after the timeout: the caller asserts). */
const diagnosticsWhen = (uri: vscode.Uri, done: (ds: vscode.Diagnostic[]) => boolean, timeoutMs?: number) =>
  poll(() => ours(uri).sort(byPosition), done, timeoutMs);

async function yamlFilesUnder(dir: vscode.Uri, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const [name, type] of (await vscode.workspace.fs.readDirectory(dir)).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (type === vscode.FileType.Directory) out.push(...(await yamlFilesUnder(vscode.Uri.joinPath(dir, name), `${prefix}${name}/`)));
    else if (/\.ya?ml$/.test(name)) out.push(`${prefix}${name}`);
  }
  return out;
}

/** The key a diagnostic sits on, read from the document line (`  key: value` or `- key: value`). */
function keyOnLine(doc: vscode.TextDocument, d: vscode.Diagnostic): string {
  return /^\s*(?:-\s+)?([^\s:#][^:#]*?)\s*:/.exec(doc.lineAt(d.range.start.line).text)?.[1] ?? '?';
}
const lastKey = (path: string) =>
  path
    .split('.')
    .pop()!
    .replace(/\[\d+\]$/, '');

/**
 * Asks the workbench driver (scripts/e2e/inhost.mjs) what the UI shows of a view, once its text contains `waitFor`:
 * the extension host has no DOM. Undefined where no driver answers probes (desktop VS Code through @vscode/test-electron).
 */
async function uiProbe(what: {
  view: string;
  waitFor?: string;
}): Promise<{ title: string; visible: boolean; text: string; error?: string } | undefined> {
  const dir = vscode.Uri.joinPath(ws(), '.ui-probe');
  try {
    await vscode.workspace.fs.stat(dir);
  } catch {
    return undefined;
  }
  const id = `p${Date.now()}`;
  console.log(`# ui-probe ${id} ${JSON.stringify(what)}`);
  const file = vscode.Uri.joinPath(dir, `${id}.json`);
  const read = async () => {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    } catch {
      return '';
    }
  };
  const text = await poll(read, (t) => t !== '', 30_000);
  assert.ok(text, `the workbench driver answered ui-probe ${JSON.stringify(what)}`);
  return JSON.parse(text);
}

async function revert(editor: vscode.TextEditor): Promise<void> {
  await vscode.window.showTextDocument(editor.document);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(editor.document.isDirty, false, 'reverted');
}

test('the extension is installed and activates in a Node extension host', async () => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is loaded`);
  await open(vscode.Uri.joinPath(ws(), 'examples', 'llama3_8b_128k.yaml')); // onLanguage:yaml
  await poll(() => ext.isActive, Boolean);
  assert.ok(ext.isActive, 'active after opening a YAML file');
  console.log(`# VS Code ${vscode.version}, extension host Node ${process.versions.node} on ${process.platform}`);
  const cmds = await vscode.commands.getCommands(true);
  for (const c of ['recipeLens.revalidate', 'recipeLens.showFormat']) assert.ok(cmds.includes(c), `${c} registered`);
});

test('corpus: every real NVIDIA file has no error and exactly the expected warnings', async () => {
  const files = await yamlFilesUnder(vscode.Uri.joinPath(ws(), 'corpus'));
  assert.equal(files.length, 25, 'the 25 corpus files are in the workspace');
  const tsv = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(ws(), 'corpus', 'EXPECTED.tsv')));
  const rows = tsv
    .trim()
    .split('\n')
    .slice(2)
    .map((l) => l.split('\t')[0]);
  assert.deepEqual(rows.sort(), Object.keys(EXPECTED_WARNINGS).sort(), 'EXPECTED.tsv names the files expected to warn');
  for (const name of files) {
    const uri = corpusUri(name);
    const editor = await open(uri);
    const format = await vscode.commands.executeCommand<string | null>('recipeLens.showFormat');
    assert.equal(typeof format, 'string', `${name}: detected as a recipe (showFormat returned ${format})`);
    if (EXPECTED_FORMAT[name]) assert.equal(format, EXPECTED_FORMAT[name], `${name}: format`);
    const want = (EXPECTED_WARNINGS[name] ?? []).map((w) => `${w.code} ${lastKey(w.path)}`);
    const ds = await diagnosticsWhen(uri, (ds) => ds.filter((d) => d.severity === W).length >= want.length);
    const errors = ds.filter((d) => d.severity === E).map((d) => `${d.code} line ${d.range.start.line + 1}: ${d.message}`);
    assert.deepEqual(errors, [], `${name}: no errors`);
    const warnings = ds.filter((d) => d.severity === W).map((d) => `${d.code} ${keyOnLine(editor.document, d)}`);
    assert.deepEqual(warnings, want, `${name}: warnings`);
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
});

test('broken example: the exact diagnostics (code, severity, line, character, message)', async () => {
  const uri = vscode.Uri.joinPath(ws(), 'examples', 'broken', 'llama3_8b_cp3.yaml');
  await open(uri);
  const ds = await diagnosticsWhen(uri, (ds) => ds.length >= BROKEN_EXPECTED.length);
  assert.deepEqual(
    ds.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character, d.message]),
    BROKEN_EXPECTED,
  );
  // a rule finding points at the other keys it involves
  const related = (ds[0]?.relatedInformation ?? []).map((r) => `${r.location.range.start.line + 1} ${r.message}`);
  assert.deepEqual(
    related,
    [
      '51 model.tensor_model_parallel_size = 4',
      '52 model.pipeline_model_parallel_size = 2',
      '13 trainer.devices = 8',
      '12 trainer.num_nodes = 8',
    ],
    'related information of R1',
  );
  assert.equal(await vscode.commands.executeCommand('recipeLens.showFormat'), 'nemo1');
  await vscode.commands.executeCommand('recipeLens.revalidate');
  assert.equal(ours(uri).length, BROKEN_EXPECTED.length, 'recipeLens.revalidate keeps the same diagnostics');
});

test('hover on context_parallel_size shows the schema description', async () => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  const schema = JSON.parse(
    new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(ext.extensionUri, 'schemas', 'nemo1.schema.json'))),
  );
  const description: string = schema.$defs.model.properties.context_parallel_size.description;
  assert.ok(description.length > 20, 'the schema describes context_parallel_size');
  const uri = corpusUri('NeMo-Framework-Launcher/llama3_8b.yaml');
  const { document } = await open(uri);
  const m = /^( *)context_parallel_size:/m.exec(document.getText());
  assert.ok(m, 'the launcher recipe sets context_parallel_size');
  const pos = document.positionAt(m.index + m[1]!.length + 3); // inside the key
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos);
  const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
  assert.ok(text.includes(description), `hover text contains the description; got:\n${text}`);
  assert.ok(text.includes('model.context_parallel_size'), 'hover names the key path');
});

test('completion inside kv_cache_config: offers free_gpu_memory_fraction', async () => {
  const uri = corpusUri('TensorRT-LLM/ctx_config.yaml');
  const editor = await open(uri);
  const line = editor.document
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith('kv_cache_config:'));
  assert.ok(line >= 0, 'ctx_config.yaml has kv_cache_config');
  // a new, indented empty line as the first entry of the mapping
  assert.ok(await editor.edit((e) => e.insert(new vscode.Position(line + 1, 0), '  \n')));
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    uri,
    new vscode.Position(line + 1, 2),
  );
  const keys = list.items
    .filter((i) => i.kind === vscode.CompletionItemKind.Property)
    .map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  assert.ok(keys.includes('free_gpu_memory_fraction'), `free_gpu_memory_fraction offered; got ${keys.join(', ')}`);
  assert.ok(!keys.includes('enable_block_reuse'), 'keys already in the mapping are not offered again');
  await revert(editor);
});

test('quick fix for the mixtral R6 warning: "Set model.sequence_parallel: false", applied', async () => {
  const uri = corpusUri('NeMo-Framework-Launcher/mixtral_8x7b.yaml');
  const editor = await open(uri);
  const doc = editor.document;
  const r6 = (await diagnosticsWhen(uri, (ds) => ds.some((d) => d.code === 'RL-R6'))).filter((d) => d.code === 'RL-R6');
  const onSp = r6.find((d) => keyOnLine(doc, d) === 'sequence_parallel');
  assert.ok(onSp, `an R6 warning on sequence_parallel; got ${r6.map((d) => keyOnLine(doc, d))}`);
  // the workbench passes the diagnostics it knows at that range; they reach it shortly after the extension sets them
  const actions = await poll(
    () =>
      vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        onSp.range,
        vscode.CodeActionKind.QuickFix.value,
      ),
    (as) => as.some((a) => a.title === 'Set model.sequence_parallel: false'),
  );
  const fix = actions.find((a) => a.title === 'Set model.sequence_parallel: false');
  assert.ok(fix?.edit, `quick fix offered; got ${actions.map((a) => a.title).join(', ')}`);
  assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);

  const before = doc.getText();
  const [start, end] = [doc.offsetAt(onSp.range.start), doc.offsetAt(onSp.range.end)];
  assert.equal(before.slice(start, end), 'true', 'the R6 warning sits on the value of sequence_parallel');
  assert.ok(await vscode.workspace.applyEdit(fix.edit), 'edit applied');
  // exactly one change, exactly there: `true` became `false`, every other character is unchanged
  assert.equal(doc.getText(), before.slice(0, start) + 'false' + before.slice(end));

  const left = await diagnosticsWhen(uri, (ds) => !ds.some((d) => d.code === 'RL-R6'), 5000);
  assert.deepEqual(
    left.map((d) => d.code),
    [],
    'the R6 warning is gone (and nothing new)',
  );
  await revert(editor);
  const back = await diagnosticsWhen(uri, (ds) => ds.filter((d) => d.code === 'RL-R6').length === 1, 5000);
  assert.equal(back.filter((d) => d.code === 'RL-R6').length, 1, 'reverting brings R6 back');
});

test('recipeLens.showFormat returns the detected format id', async () => {
  await open(vscode.Uri.joinPath(ws(), 'examples', 'trtllm_llama3_70b_serve.yaml'));
  assert.equal(await vscode.commands.executeCommand('recipeLens.showFormat'), 'trtllm-options');
  await open(vscode.Uri.joinPath(ws(), 'examples', 'retention_system_prompt.yaml'));
  assert.equal(await vscode.commands.executeCommand('recipeLens.showFormat'), 'kv-retention');
});

test('recipeLens.openPanel shows the planning view; the status-bar estimate commands are registered', async () => {
  const cmds = await vscode.commands.getCommands(true);
  // the status-bar item runs recipeLens.openPanel; recipeLens.showEstimate is the estimate as a report
  for (const c of ['recipeLens.openPanel', 'recipeLens.showEstimate']) assert.ok(cmds.includes(c), `${c} registered`);
  await open(vscode.Uri.joinPath(ws(), 'examples', 'llama3_8b_128k.yaml'));
  await vscode.commands.executeCommand('recipeLens.openPanel'); // rejects if the command fails
  const total = await vscode.commands.executeCommand<number | undefined>('recipeLens.showEstimate');
  assert.equal(typeof total, 'number', 'recipeLens.showEstimate returns the most-loaded rank in bytes');
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor'); // the report (untitled, would ask to save)
  const gib = `${(total! / 2 ** 30).toFixed(2)} GiB`;
  const ui = await uiProbe({ view: 'recipeLens.planning', waitFor: gib });
  if (!ui) {
    console.log('# no workbench driver here (desktop VS Code): the view was opened, its visibility not checked');
    return;
  }
  assert.equal(ui.error, undefined, `probe failed: ${ui.error}`);
  assert.ok(ui.visible, `the planning view's webview is visible; side bar title "${ui.title}"`);
  assert.match(ui.title, /Planning/i, 'the side bar shows the planning view');
  assert.ok(ui.text.includes('llama3_8b_128k.yaml'), `the view shows the active file; got: ${ui.text.slice(0, 300)}`);
  assert.ok(ui.text.includes(gib), `the view shows the total of recipeLens.showEstimate (${gib}); got: ${ui.text.slice(0, 300)}`);
});

test('hostile files (alias bomb, 50,000 keys, 10,000-deep nesting) get their diagnostic and the extension keeps working', async () => {
  const dir = vscode.Uri.joinPath(ws(), 'hostile');
  await vscode.workspace.fs.createDirectory(dir);
  const lines = ['kv_cache_config:', '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 0; i < 9; i++)
    lines.push(
      `  ${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
        .fill('*' + String.fromCharCode(97 + i))
        .join(',')}]`,
    );
  const files: [string, string, (ds: vscode.Diagnostic[]) => boolean][] = [
    ['bomb.yaml', lines.join('\n') + '\n', (ds) => ds.some((d) => d.code === 'RL-LIMIT')],
    [
      'wide.yaml',
      'kv_cache_config:\n' + Array.from({ length: 50_000 }, (_, i) => `  key_${i}: ${i}`).join('\n') + '\n',
      (ds) => ds.length === 201,
    ],
    ['deep.yaml', 'kv_cache_config:\n  x: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n', (ds) => ds.length > 0],
  ];
  for (const [name, text, ok] of files) {
    const uri = vscode.Uri.joinPath(dir, name);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await open(uri);
    const ds = await diagnosticsWhen(uri, ok, 20_000);
    assert.ok(
      ok(ds),
      `${name}: ${ds.length} diagnostics (${ds
        .slice(0, 2)
        .map((d) => d.code)
        .join(', ')})`,
    );
  }
  // Afterwards an edit to a normal recipe still gets a fresh result.
  const uri = vscode.Uri.joinPath(ws(), 'examples', 'llama3_8b_16k.yaml');
  const editor = await open(uri);
  const line = editor.document
    .getText()
    .split('\n')
    .findIndex((l) => /^\s*context_parallel_size:/.test(l));
  const text = editor.document.lineAt(line).text;
  const col = text.indexOf(':') + 2;
  await editor.edit((e) => e.replace(new vscode.Range(line, col, line, text.length), '3'));
  const ds = await diagnosticsWhen(uri, (d) => d.some((x) => x.code === 'RL-R3'), 10_000);
  assert.ok(
    ds.some((x) => x.code === 'RL-R3'),
    'a fresh RL-R3 after the hostile files',
  );
  await revert(editor);
});

export function run(): Promise<void> {
  return runAll();
}
