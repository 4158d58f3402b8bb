// UI end-to-end tests: a real VS Code (code-server) with the packaged recipe-lens.vsix installed, driven like a user
// through headless Chromium (playwright-core). They read what the user sees: Problems panel rows, the hover widget.
// Run through `npm run test:e2e` (which runs setup and packages the VSIX first), or alone:
//   node --test test/e2e/ui.test.mjs
// Screenshots go to test-results/; a missing element fails the test with the screenshot's path.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { RESULTS, ROOT, VSIX, launchChromium, makeWorkspace, startCodeServer } from '../../scripts/e2e/server.mjs';

let server, browser, page, ws;
const t0 = Date.now();
const log = (...a) => console.log(`# [${((Date.now() - t0) / 1000).toFixed(1)} s]`, ...a);

async function shot(name) {
  const path = join(RESULTS, `ui-${name}.png`);
  await page.screenshot({ path }).catch(() => {});
  return relative(ROOT, path);
}

/** Waits for `locator`; if it never shows, fails with a screenshot of what was on screen instead. */
async function expectVisible(locator, what, timeout = 30_000) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch {
    const path = await shot(`missing-${what.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
    assert.fail(`${what} did not appear within ${timeout / 1000} s; screenshot: ${path}`);
  }
  return locator.first();
}

/** Opens a file by clicking through the Explorer tree like a user (folders expand on click, the file opens on double-click). */
async function openFromExplorer(relPath) {
  const parts = relPath.split('/');
  for (const [i, name] of parts.entries()) {
    const row = page.locator('.explorer-folders-view .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace(/\./g, '\\.')}$`) }) });
    await expectVisible(row, `Explorer row ${parts.slice(0, i + 1).join('/')}`);
    if (i < parts.length - 1) {
      if ((await row.first().getAttribute('aria-expanded')) !== 'true') await row.first().click();
    } else await row.first().dblclick();
  }
  await expectVisible(page.locator('.tabs-container .tab.active', { hasText: parts.at(-1) }), `editor tab ${parts.at(-1)}`);
}

/** Opens a file with Quick Open (Ctrl+P). */
async function quickOpen(relPath) {
  await page.keyboard.press('Control+P');
  const input = await expectVisible(page.locator('.quick-input-widget input'), 'Quick Open input');
  await input.fill(relPath);
  await expectVisible(page.locator('.quick-input-widget .monaco-list-row', { hasText: relPath.split('/').at(-1) }), `Quick Open result ${relPath}`);
  await page.keyboard.press('Enter');
  await expectVisible(page.locator('.tabs-container .tab.active', { hasText: relPath.split('/').at(-1) }), `editor tab ${relPath}`);
}

async function goTo(line, column) {
  await page.keyboard.press('Control+G');
  const input = await expectVisible(page.locator('.quick-input-widget input'), 'Go to Line input');
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
}

/** The Problems panel (on the right, full height, so its virtualised list renders many rows), filtered to one file. */
async function showProblems(relPath) {
  if (!(await page.locator('.markers-panel').isVisible())) await page.keyboard.press('Control+Shift+M');
  await expectVisible(page.locator('.markers-panel'), 'Problems panel');
  const filter = await expectVisible(page.getByPlaceholder(/^Filter \(e\.g\. text/), 'Problems filter box');
  await filter.fill(`**/${relPath}`); // a glob filters by file
}

/** Problems panel rows: each problem with its file, severity, message, source, code and line (related-information rows skipped). */
function problemRows() {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('.markers-panel .monaco-list-row')].sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
    const out = [];
    let file = '';
    for (const r of rows) {
      const label = r.querySelector('.resource-label-container .monaco-icon-label');
      if (label) file = label.getAttribute('aria-label') ?? '';
      const icon = r.querySelector('.marker-icon');
      if (!icon) continue;
      const text = (sel) => r.querySelector(sel)?.textContent?.trim() ?? '';
      out.push({
        file,
        severity: ['error', 'warning', 'info'].find((s) => icon.classList.contains(s)) ?? '?',
        message: text('.marker-message'),
        source: text('.marker-source'),
        code: text('.marker-code'),
        line: text('.marker-line'),
      });
    }
    return out;
  });
}

/** Problems rows of one file (absolute path) once `done(rows)` holds; the test asserts on what it got either way. */
async function problemsOf(file, done, timeout = 20_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const rows = (await problemRows()).filter((r) => r.file === file);
    if (done(rows) || Date.now() > end) return rows;
    await page.waitForTimeout(100);
  }
}

before(async () => {
  assert.ok(existsSync(VSIX), `${relative(ROOT, VSIX)} is missing: run \`npm run package\` (npm run test:e2e does)`);
  ws = makeWorkspace();
  server = await startCodeServer({ folder: ws, name: 'ui-code-server', settings: { 'workbench.panel.defaultLocation': 'right' } });
  log(`code-server at ${server.url}`);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(30_000);
  await page.goto(server.openUrl());
  await expectVisible(page.locator('.monaco-workbench'), 'workbench', 60_000);
  await expectVisible(page.locator('.explorer-folders-view .monaco-list-row'), 'Explorer', 60_000);
  log('workbench visible');
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (ws) rmSync(dirname(ws), { recursive: true, force: true });
});

test('broken example opened from the Explorer: the RL-R3 rows in the Problems panel', async () => {
  await openFromExplorer('examples/broken/llama3_8b_cp3.yaml');
  await showProblems('examples/broken/llama3_8b_cp3.yaml');
  const file = join(ws, 'examples/broken/llama3_8b_cp3.yaml');
  const rows = await problemsOf(file, (rs) => rs.length >= 5);
  log('problems:', rows.map((r) => `${r.severity} ${r.source}(${r.code}) ${r.line} ${r.message}`).join('\n#   '));
  const shotPath = await shot('broken-problems');
  const r3 = 'seq 131072 is not a multiple of 2·CP = 6 (context parallelism splits the sequence into 2·CP load-balanced chunks)';
  assert.deepEqual(
    rows.filter((r) => r.code === 'RL-R3').map(({ severity, source, code, line, message }) => ({ severity, source, code, line, message })),
    [
      { severity: 'error', source: 'recipe-lens', code: 'RL-R3', line: '[Ln 54, Col 26]', message: r3 },
      { severity: 'error', source: 'recipe-lens', code: 'RL-R3', line: '[Ln 58, Col 23]', message: r3 },
    ],
    `RL-R3 rows (screenshot: ${shotPath})`,
  );
  assert.deepEqual(rows.map((r) => r.code), ['RL-R1', 'RL-R1', 'RL-R1', 'RL-R3', 'RL-R3'], 'all five problems of the file');
  await goTo(54, 26); // reveal the context_parallel_size line: its value carries a red squiggle
  await expectVisible(page.locator('.monaco-editor .squiggly-error'), 'error squiggle in the editor');
  await shot('broken-squiggle');
});

test('corpus file: warnings only, no error rows in the Problems panel', async () => {
  await quickOpen('corpus/NeMo-Framework-Launcher/mixtral_8x7b.yaml');
  await showProblems('corpus/NeMo-Framework-Launcher/mixtral_8x7b.yaml');
  const file = join(ws, 'corpus/NeMo-Framework-Launcher/mixtral_8x7b.yaml');
  const rows = await problemsOf(file, (rs) => rs.filter((r) => r.code === 'RL-R6').length >= 2);
  const shotPath = await shot('corpus-problems');
  assert.deepEqual(rows.filter((r) => r.severity === 'error'), [], `no error rows (screenshot: ${shotPath})`);
  assert.deepEqual(
    rows.map((r) => `${r.severity} ${r.code} ${r.line}`),
    ['warning RL-R6 [Ln 57, Col 31]', 'warning RL-R6 [Ln 128, Col 22]'],
    `the known R6 warnings of mixtral_8x7b.yaml (screenshot: ${shotPath})`,
  );
});

test('hover on context_parallel_size shows the schema description', async () => {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/nemo1.schema.json'), 'utf8'));
  const description = schema.$defs.model.properties.context_parallel_size.description;
  await quickOpen('corpus/NeMo-Framework-Launcher/llama3_8b.yaml');
  const text = readFileSync(join(ws, 'corpus/NeMo-Framework-Launcher/llama3_8b.yaml'), 'utf8').split('\n');
  const line = text.findIndex((l) => /^\s*context_parallel_size:/.test(l)) + 1;
  await goTo(line, 3);
  const key = await expectVisible(page.locator('.monaco-editor .view-line span span', { hasText: /^context_parallel_size$/ }), 'context_parallel_size in the editor');
  await key.hover();
  const hover = await expectVisible(page.locator('.monaco-hover', { hasText: 'model.context_parallel_size' }), 'hover widget');
  const hoverText = (await hover.innerText()).replace(/\s+/g, ' ');
  log('hover:', hoverText);
  const shotPath = await shot('hover');
  assert.ok(hoverText.includes(description.replace(/\s+/g, ' ')), `hover shows the schema description (screenshot: ${shotPath}); got: ${hoverText}`);
  await page.keyboard.press('Escape');
});

test('keystroke to diagnostic: making CP invalid shows RL-R3 in the Problems panel', async () => {
  const rel = 'examples/llama3_8b_128k.yaml';
  await quickOpen(rel);
  await showProblems(rel);
  const file = join(ws, rel);
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((l) => /^\s*context_parallel_size: 8\b/.test(l)) + 1;
  assert.ok(line > 0, `${rel} sets context_parallel_size: 8`);
  assert.deepEqual(await problemsOf(file, () => true, 0), [], `${rel} starts clean`);
  const column = lines[line - 1].indexOf('8') + 1;
  await goTo(line, column);
  await page.keyboard.press('Shift+ArrowRight'); // select the 8
  await page.locator('.monaco-editor.focused').waitFor();
  // Timestamps in the page: the keydown of "3" and the first Problems row with RL-R3 (a DOM mutation observer).
  await page.evaluate(() => {
    const t = (window.__latency = {});
    document.addEventListener('keydown', (e) => e.key === '3' && (t.key ??= performance.now()), true);
    new MutationObserver(() => {
      if (t.key && !t.row && [...document.querySelectorAll('.markers-panel .marker-code')].some((c) => c.textContent === 'RL-R3')) t.row = performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const wall = Date.now();
  await page.keyboard.press('3'); // CP 8 -> 3: 131072 is not a multiple of 2·3
  const rows = await problemsOf(file, (rs) => rs.some((r) => r.code === 'RL-R3'), 10_000);
  const wallMs = Date.now() - wall;
  const { key, row } = await page.evaluate(() => window.__latency);
  const shotPath = await shot('latency');
  assert.ok(rows.some((r) => r.code === 'RL-R3' && r.severity === 'error'), `RL-R3 row after typing (screenshot: ${shotPath})`);
  const ms = row && key ? Math.round(row - key) : wallMs;
  console.log(`# keystroke -> RL-R3 row in the Problems panel: ${ms} ms (in-page timestamps; ${wallMs} ms as seen by the test, including polling; debounce 150 ms)`);
  assert.ok(ms < 5000, `diagnostic latency ${ms} ms`);
});
