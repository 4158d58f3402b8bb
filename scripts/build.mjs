// Builds the three bundles (extension host, CLI, webview) and the unit-test bundles with esbuild.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { compileSchemas } from './compile-schemas.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
// --only=cli,test builds those bundles only (the protocol tests under test/server spawn dist/cli.js, so test:unit builds it too).
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  target: 'es2022',
  logLevel: 'warning',
  absWorkingDir: root,
};

function testEntries() {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'e2e') walk(p);
      } else if (name.endsWith('.test.ts')) out.push(relative(root, p));
    }
  };
  walk(join(root, 'test'));
  return out;
}

// Node bundles are CommonJS, where `import.meta.url` is empty: ESM-only dependencies that call
// createRequire(import.meta.url) (tinyglobby's fdir) get the bundle's own file URL instead.
const nodeBundle = {
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

compileSchemas();
const jobs = [];
if (!only || only.includes('extension'))
  jobs.push(
    esbuild.build({
      ...common,
      ...nodeBundle,
      entryPoints: ['src/vscode/extension.ts'],
      outfile: 'dist/extension.js',
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
    }),
  );
if (!only || only.includes('cli'))
  jobs.push(
    esbuild.build({
      ...common,
      entryPoints: ['src/cli.ts'],
      outfile: 'dist/cli.js',
      platform: 'node',
      format: 'cjs',
      define: nodeBundle.define,
      banner: { js: `#!/usr/bin/env node\n${nodeBundle.banner.js}` },
    }),
  );
if (!only || only.includes('webview'))
  jobs.push(
    esbuild.build({ ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife' }),
  );
if ((!only && !production) || only?.includes('test')) {
  rmSync(join(root, 'dist-test'), { recursive: true, force: true });
  jobs.push(
    esbuild.build({
      ...common,
      sourcemap: 'inline',
      minify: false,
      entryPoints: testEntries(),
      outdir: 'dist-test',
      outbase: 'test',
      platform: 'node',
      format: 'cjs',
      ...nodeBundle,
      // happy-dom (the webview's DOM tests) is ESM-only and large: loaded from node_modules, not bundled into each test.
      external: ['vscode', 'happy-dom'],
    }),
  );
}
await Promise.all(jobs);
