// `npm run test:vscode`: the in-extension-host suite (test/e2e/inhost/) in desktop VS Code through @vscode/test-electron,
// the standard way. It downloads VS Code from update.code.visualstudio.com on first use (into .vscode-test/), so it
// needs that host to be reachable, and a display on Linux (e.g. `xvfb-run -a npm run test:vscode`). Where only the npm
// registry is reachable, `npm run test:e2e` runs the same suite in code-server's VS Code instead.
// VSCODE_EXECUTABLE_PATH=/path/to/code uses an installed VS Code instead of downloading one.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildInHostSuite } from './inhost.mjs';
import { ROOT, makeWorkspace } from './server.mjs';

if (spawnSync(process.execPath, ['scripts/build.mjs', '--only=extension'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) process.exit(1);
const extensionTestsPath = await buildInHostSuite();
const ws = makeWorkspace(); // copies of examples/ and ../shared/corpus
try {
  await runTests({
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH || undefined,
    extensionDevelopmentPath: ROOT, // loads package.json → dist/extension.js from the repository
    extensionTestsPath, // dist-e2e/inhost.js, exports run()
    launchArgs: [ws, '--disable-extensions'], // the workspace folder; no other installed extension
  });
} catch (e) {
  console.error(`in-host suite failed: ${e instanceof Error ? e.message : e}`);
  process.exitCode = 1;
} finally {
  rmSync(dirname(ws), { recursive: true, force: true });
}
