// `npm start`: Recipe Lens in a real VS Code. Packages the extension, runs the e2e setup (Node 24 + code-server into
// .cache/e2e/, reused), starts code-server on loopback with recipe-lens.vsix installed, opened on examples/ with
// examples/llama3_8b_128k.yaml in an editor, and prints the URL to open in a browser. Ctrl+C stops it.
//   npm start                  PORT=8080 npm start (fixed port, e.g. for `ssh -L 8080:127.0.0.1:8080`)
//   npm start -- --cli         the command-line checker on the examples instead (no VS Code)
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { ROOT, startCodeServer } from './e2e/server.mjs';
import { setup } from './e2e/setup.mjs';

const run = (cmd, args) => spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });

if (process.argv.includes('--cli')) {
  if (run(process.execPath, ['scripts/build.mjs']).status !== 0) process.exit(1);
  const cli = join('dist', 'cli.js');
  console.log(
    '\n$ recipe-lens check examples/llama3_8b_128k.yaml examples/trtllm_llama3_70b_serve.yaml examples/retention_system_prompt.yaml',
  );
  run(process.execPath, [
    cli,
    'check',
    'examples/llama3_8b_128k.yaml',
    'examples/trtllm_llama3_70b_serve.yaml',
    'examples/retention_system_prompt.yaml',
  ]);
  console.log('\n$ recipe-lens check examples/broken/llama3_8b_cp3.yaml examples/broken/retention_overlap.yaml');
  const broken = run(process.execPath, [cli, 'check', 'examples/broken/llama3_8b_cp3.yaml', 'examples/broken/retention_overlap.yaml']);
  console.log(`(exit status ${broken.status}: errors found, as these files are meant to show)`);
  process.exit(0);
}

// Ctrl+C / SIGTERM: stop code-server and everything it started (its process group), then exit.
let server;
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping code-server …');
    await server?.stop();
    console.log('stopped.');
    process.exit(0);
  });

if (run('npm', ['run', '--silent', 'package']).status !== 0) process.exit(1); // production build + recipe-lens.vsix
await setup({ chromium: false });
const folder = join(ROOT, 'examples');
server = await startCodeServer({ folder, name: 'start-code-server', port: Number(process.env.PORT) || undefined });
if (stopping) process.exit(0);
console.log(`
Recipe Lens is running in VS Code (code-server; log: ${relative(ROOT, server.logFile)}). Open this URL in a browser on this machine:

  ${server.openUrl(join(folder, 'llama3_8b_128k.yaml'))}

Try examples/broken/llama3_8b_cp3.yaml (Problems panel: Ctrl+Shift+M), hover a key, or change context_parallel_size.
Ctrl+C stops the server.`);
const code = await server.exited; // runs until Ctrl+C, unless code-server stops by itself
if (stopping) await new Promise(() => {}); // the signal handler finishes the stop and exits
console.log(`code-server exited (${code}); log: ${relative(ROOT, server.logFile)}`);
process.exit(1);
