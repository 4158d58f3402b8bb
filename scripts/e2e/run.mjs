// `npm run test:e2e`: the end-to-end tests in a real VS Code (code-server 4.139.1 = VS Code 1.139.1), offline.
//   1. setup: Node 24 + code-server into .cache/e2e/ (reused), Chromium from apt if missing
//   2. npm run package: the production bundle and recipe-lens.vsix
//   3. the in-extension-host suite (test/e2e/inhost/, the real vscode API)
//   4. the UI suite (test/e2e/ui.test.mjs, Chromium driving the workbench with the VSIX installed)
// Both suites always run; the exit status is non-zero if either fails. Logs and screenshots: test-results/.
import { spawnSync } from 'node:child_process';
import { runInHost } from './inhost.mjs';
import { ROOT } from './server.mjs';
import { setup } from './setup.mjs';

const times = [];
async function timed(name, fn) {
  const t = Date.now();
  console.log(`\n=== ${name}`);
  const code = await fn();
  times.push([name, (Date.now() - t) / 1000, code]);
  return code;
}
const run = (cmd, args) => spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

const t0 = Date.now();
await timed('setup', async () => (await setup(), 0));
if ((await timed('package (npm run package)', () => run('npm', ['run', '--silent', 'package']))) !== 0) process.exit(1);
const inhost = await timed('in-host suite', () => runInHost());
const ui = await timed('UI suite', () => run(process.execPath, ['--test', '--test-reporter=spec', 'test/e2e/ui.test.mjs']));

console.log('\n=== e2e summary');
for (const [name, s, code] of times)
  console.log(`${name.padEnd(28)} ${s.toFixed(1).padStart(6)} s${code ? `  FAILED (exit ${code})` : ''}`);
console.log(`${'total'.padEnd(28)} ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s`);
process.exitCode = inhost || ui ? 1 : 0;
