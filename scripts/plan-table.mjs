// Regenerates bench/plan-vs-nemo.md: the planner's top pick next to each NeMo 2.0 long-context recipe's own layout.
// The table is written by test/core/plan.test.ts (PLAN_TABLE_OUT), so it shows exactly what the tests check.
// Usage: node scripts/plan-table.mjs [OUT]   (default bench/plan-vs-nemo.md)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'bench', 'plan-vs-nemo.md'));
const bundle = join(mkdtempSync(join(tmpdir(), 'plan-table-')), 'plan.test.js');
await esbuild.build({
  entryPoints: [join(root, 'test/core/plan.test.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: bundle,
  logLevel: 'warning',
  absWorkingDir: root,
});
const r = spawnSync(process.execPath, ['--test', '--test-reporter=dot', bundle], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAN_TABLE_OUT: out },
});
if (r.status !== 0) process.exit(r.status ?? 1);
console.log(`wrote ${out}`);
