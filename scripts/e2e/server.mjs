// Starts and stops a real VS Code for the end-to-end tests, fully isolated from the user's own setup:
//  - startCodeServer(): code-server (VS Code server + web workbench) with the packaged VSIX installed; the UI tests and
//    `npm start` open it in a browser.
//  - startVsCodeServer(): the plain VS Code server inside code-server with the smoke-test driver on, so the workbench
//    accepts extensionDevelopmentPath / extensionTestsPath (the in-extension-host suite).
// Every server gets a fresh user-data / extensions / XDG folder under a temporary run folder, listens on a free loopback
// port, and leads its own process group, so stop() ends it together with its extension host, file watcher and pty host.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM, CODE_SERVER_ENTRY, NODE24, ROOT, VSCODE_SERVER_MAIN } from './setup.mjs';

export { ROOT };
export const VSIX = join(ROOT, 'recipe-lens.vsix');
export const RESULTS = join(ROOT, 'test-results');
/** The corpus of real NVIDIA files lives beside the checkout. */
export const CORPUS = resolve(ROOT, '..', 'shared', 'corpus');

const groups = new Set(); // process group ids of running servers
const runDirs = new Set(); // temporary folders not yet removed (removed on exit, whatever happens)

const SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
  // The web workbench saves after 1 s by default (desktop VS Code does not): tests that type and then revert or undo
  // must not find their edits already written to disk.
  'files.autoSave': 'off',
};

/** A free TCP port on loopback: bind port 0, read what the kernel picked, release it. */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/** A fresh, isolated profile: user data (with our settings.json), extensions, XDG config/data/cache, temp. */
function newRun(name, settings = {}) {
  const dir = mkdtempSync(join(tmpdir(), `recipe-lens-${name}-`));
  runDirs.add(dir);
  hookExit();
  const p = { dir, userData: join(dir, 'data'), extensions: join(dir, 'ext'), serverData: join(dir, 'server') };
  for (const sub of ['data/User', 'ext', 'server/data/Machine', 'xdg/config', 'xdg/data', 'xdg/cache', 'tmp'])
    mkdirSync(join(dir, sub), { recursive: true });
  const json = JSON.stringify({ ...SETTINGS, ...settings }, null, 2);
  writeFileSync(join(p.userData, 'User', 'settings.json'), json);
  writeFileSync(join(p.serverData, 'data', 'Machine', 'settings.json'), json); // plain VS Code server: remote settings
  p.env = {
    ...process.env,
    // code-server writes config.yaml (with a password) and logs under XDG dirs, VS Code its device id under ~/.cache
    XDG_CONFIG_HOME: join(dir, 'xdg/config'),
    XDG_DATA_HOME: join(dir, 'xdg/data'),
    XDG_CACHE_HOME: join(dir, 'xdg/cache'),
    TMPDIR: join(dir, 'tmp'), // VS Code's IPC sockets (vscode-ipc-*.sock) go away with the run folder
    EXTENSIONS_GALLERY: '{}', // no marketplace (default open-vsx.org): the servers make no network request
  };
  return p;
}

/** A workspace folder with copies of examples/ and ../shared/corpus (tests may edit them freely). */
export function makeWorkspace(parent = mkdtempSync(join(tmpdir(), 'recipe-lens-ws-'))) {
  runDirs.add(parent);
  hookExit();
  const ws = join(parent, 'workspace');
  cpSync(join(ROOT, 'examples'), join(ws, 'examples'), { recursive: true });
  cpSync(CORPUS, join(ws, 'corpus'), { recursive: true });
  return ws;
}

let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  // a crashed or interrupted run must not leave servers behind (they do not get the terminal's Ctrl+C: own session)
  process.on('exit', () => {
    for (const g of groups) {
      try {
        process.kill(-g, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
    for (const dir of runDirs) rmSync(dir, { recursive: true, force: true });
  });
  // Callers with their own SIGINT/SIGTERM handling (npm start) stop their servers themselves.
  for (const sig of ['SIGINT', 'SIGTERM']) if (process.listenerCount(sig) === 0) process.once(sig, () => process.exit(130));
}

/** Spawns `cmd` as the leader of a new process group (detached = setsid), output to `logFile`. */
function spawnGroup(cmd, args, env, logFile) {
  mkdirSync(RESULTS, { recursive: true });
  const fd = openSync(logFile, 'w');
  const child = spawn(cmd, args, { env, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  groups.add(child.pid);
  return child;
}

const alive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** SIGTERM to the whole process group, SIGKILL after 5 s; then the run folder goes. */
async function stopGroup(pgid, runDir) {
  if (groups.delete(pgid) && alive(pgid)) {
    process.kill(-pgid, 'SIGTERM');
    for (let i = 0; i < 50 && alive(pgid); i++) await sleep(100);
    if (alive(pgid)) process.kill(-pgid, 'SIGKILL');
    for (let i = 0; i < 20 && alive(pgid); i++) await sleep(50);
  }
  rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  runDirs.delete(runDir);
}

async function waitForHttp(url, child, logFile, timeoutMs = 60000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering; log: ${logFile}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`no answer from ${url} in ${timeoutMs / 1000} s; log: ${logFile}`);
}

/**
 * code-server on loopback (`port`, or a free one) with the VSIX installed, opened on `folder`; `settings` add to the defaults.
 * Returns { url, port, folder, logFile, pid, exited, openUrl(file?), stop() }.
 */
export async function startCodeServer({ folder, vsix = VSIX, name = 'code-server', settings, port }) {
  const run = newRun(name, settings);
  const cs = (args) => [CODE_SERVER_ENTRY, '--extensions-dir', run.extensions, '--user-data-dir', run.userData, ...args];
  if (vsix) {
    const r = spawnSync(NODE24, cs(['--install-extension', vsix]), { env: run.env, encoding: 'utf8' });
    if (r.status !== 0) {
      rmSync(run.dir, { recursive: true, force: true });
      throw new Error(`installing ${vsix} failed:\n${r.stdout}${r.stderr}`);
    }
  }
  port ||= await freePort();
  const logFile = join(RESULTS, `${name}.log`);
  const child = spawnGroup(
    NODE24,
    cs([
      ...['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none'], // loopback only, so no password is needed
      ...['--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
      folder,
    ]),
    run.env,
    logFile,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child, logFile).catch(async (e) => {
    await stopGroup(child.pid, run.dir);
    throw e;
  });
  return {
    url,
    port,
    folder,
    logFile,
    /** code-server's pid, which is also its process group id: the extension host is in that group. */
    pid: child.pid,
    /** Resolves with the exit code when code-server ends. */
    exited: new Promise((res) => child.once('exit', (code, signal) => res(code ?? signal))),
    /** The workbench URL for `folder`, optionally opening `file` (absolute path) in an editor. */
    openUrl(file) {
      // code-server's remote authority is the host:port the browser used
      const payload = file
        ? `&payload=${encodeURIComponent(JSON.stringify([['openFile', `vscode-remote://127.0.0.1:${port}${file}`]]))}`
        : '';
      return `${url}/?folder=${encodeURIComponent(folder).replace(/%2F/g, '/')}${payload}`;
    },
    stop: () => stopGroup(child.pid, run.dir),
  };
}

/**
 * The plain VS Code server with the smoke-test driver, for the in-extension-host suite.
 * Returns { url, authority, stop() }; load `${url}/?folder=…&payload=[["extensionDevelopmentPath",…],["extensionTestsPath",…]]`.
 */
export async function startVsCodeServer({ name = 'vscode-server' } = {}) {
  const run = newRun(name);
  const port = await freePort();
  const logFile = join(RESULTS, `${name}.log`);
  const child = spawnGroup(
    NODE24,
    [
      VSCODE_SERVER_MAIN,
      ...['--host', '127.0.0.1', '--port', String(port)],
      ...['--without-connection-token', '--accept-server-license-terms'], // loopback only; no interactive prompt
      '--enable-smoke-test-driver', // the web workbench then honours extensionTestsPath and exposes codeAutomationExit
      '--disable-telemetry',
      ...['--extensions-dir', run.extensions, '--user-data-dir', run.userData, '--server-data-dir', run.serverData],
    ],
    run.env,
    logFile,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url, child, logFile).catch(async (e) => {
    await stopGroup(child.pid, run.dir);
    throw e;
  });
  return { url, authority: 'remote', logFile, stop: () => stopGroup(child.pid, run.dir) };
}

/** Headless Debian Chromium for playwright-core, with its own profile, XDG and temp folders (nothing in $HOME). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-chromium-'));
  runDirs.add(dir);
  hookExit();
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_CACHE_HOME: dir, TMPDIR: dir };
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, env });
  browser.on('disconnected', () => {
    rmSync(dir, { recursive: true, force: true });
    runDirs.delete(dir);
  });
  return browser;
}

/** Chromium flags: headless, no sandbox (root in CI), no network beyond loopback. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1', // every host name except loopback fails to resolve
];
