// Runs the in-extension-host suite (test/e2e/inhost/) inside a real VS Code: the VS Code server from code-server with
// the smoke-test driver, its web workbench in headless Chromium. This is what @vscode/test-electron does with a desktop
// VS Code: the extension is loaded from its folder (extensionDevelopmentPath = the repository, so run
// `npm run build` or `npm run package` first), and the suite's run() executes in the extension host with the real
// `vscode` API. The exit code is the suite's result.
//   node scripts/e2e/inhost.mjs
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { RESULTS, ROOT, launchChromium, makeWorkspace, startVsCodeServer } from './server.mjs';

export const SUITE = join(ROOT, 'dist-e2e', 'inhost.js');
const TIMEOUT_MS = 180_000;

/** Bundles test/e2e/inhost/index.ts to CommonJS with `vscode` external (the extensionTestsPath format). */
export async function buildInHostSuite() {
  await esbuild.build({
    entryPoints: [join(ROOT, 'test/e2e/inhost/index.ts')],
    outfile: SUITE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return SUITE;
}

/**
 * UI probes: the suite (in the extension host, without a DOM) prints `# ui-probe <id> <JSON request>` and waits for
 * <workspace>/.ui-probe/<id>.json; this driver answers from the workbench's DOM. The folder exists only under this
 * driver, so the suite skips its UI checks in desktop VS Code (npm run test:vscode).
 */
const PROBE_DIR = '.ui-probe';

/**
 * { view, waitFor }: what the workbench shows of the side bar's webview view (the only webview open): the side bar
 * title, whether the view's iframe is visible, and its document's text once it contains `waitFor` (or after 10 s).
 */
async function viewProbe(page, { waitFor = '' }) {
  const iframe = page.locator('iframe.webview.ready').first();
  await iframe.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => {});
  const doc = page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
  await doc
    .locator('#app', { hasText: waitFor })
    .waitFor({ timeout: 10_000 })
    .catch(() => {});
  return {
    title: (
      (await page
        .locator('.part.sidebar .composite.title')
        .first()
        .textContent({ timeout: 2000 })
        .catch(() => '')) ?? ''
    ).trim(),
    visible: await iframe.isVisible(),
    text: (
      (await doc
        .locator('#app')
        .innerText({ timeout: 2000 })
        .catch(() => '')) ?? ''
    ).slice(0, 2000),
  };
}

async function answerProbe(page, ws, id, request) {
  let answer;
  try {
    const req = JSON.parse(request);
    answer = req.view ? await viewProbe(page, req) : { error: `unknown probe ${request}` };
  } catch (e) {
    answer = { error: String(e) };
  }
  const file = join(ws, PROBE_DIR, `${id}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(answer));
  renameSync(`${file}.tmp`, file); // the suite never reads a half-written answer
}

export async function runInHost() {
  await buildInHostSuite();
  const ws = makeWorkspace();
  mkdirSync(join(ws, PROBE_DIR));
  const server = await startVsCodeServer({ name: 'inhost-server' });
  let browser;
  try {
    const remote = (p) => `vscode-remote://${server.authority}${p}`; // the authority the server advertises to the workbench
    const payload = [
      ['extensionDevelopmentPath', remote(ROOT)],
      ['extensionTestsPath', remote(SUITE)],
    ];
    const url = `${server.url}/?${new URLSearchParams({ folder: ws, payload: JSON.stringify(payload) })}`;
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // VS Code's smoke-test driver calls these two window functions: the suite's console output and its exit code.
    const exited = new Promise((res) => page.exposeFunction('codeAutomationExit', (code) => res(code)));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      if (type === 'trace' || type === 'debug') return;
      // only the extension host's output (the suite and the extension), not the workbench's own chatter
      const line = args.map(String).join(' ');
      const probe = /^# ui-probe (\S+) (.+)$/.exec(line);
      if (probe) void answerProbe(page, ws, probe[1], probe[2]);
      else if (/^(ok|not ok|#|recipe-lens)/.test(line)) console.log(line);
      else if (type === 'error' && !line.includes('[Service Worker]')) console.log(`[error] ${line}`); // code-server-only worker path: harmless 404
    });
    await page.goto(url);
    let timer;
    const timeout = new Promise((res) => (timer = setTimeout(() => res('timeout'), TIMEOUT_MS)));
    const code = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    if (code === 'timeout') {
      const shot = join(RESULTS, 'inhost-timeout.png');
      await page.screenshot({ path: shot }).catch(() => {});
      console.log(`# in-host suite did not finish in ${TIMEOUT_MS / 1000} s; screenshot: ${shot}; server log: ${server.logFile}`);
      return 1;
    }
    return code;
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(dirname(ws), { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await runInHost();
