// `npm run fuzz [N] [SEED]`: bundles test/fuzz/fuzz.ts and runs N (default 100,000) inputs through the core.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { compileSchemas } from './compile-schemas.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
compileSchemas();
const out = join(root, '.cache', 'fuzz', 'fuzz.js');
await esbuild.build({
  entryPoints: [join(root, 'test', 'fuzz', 'fuzz.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: out,
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, [out, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
