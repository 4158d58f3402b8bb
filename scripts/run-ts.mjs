// Bundles a TypeScript entry of the repository with esbuild (a file, or source text importing from it) into a temporary
// CommonJS file and runs it in a child Node process: how the regeneration scripts run code of src/ and test/ without a
// build. Returns the child's exit status.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {{ name: string, file?: string, contents?: string, nodeArgs?: string[], args?: string[], env?: Record<string, string> }} job
 *   `file` (relative to the repository) or `contents` (TypeScript resolved from the repository root); `nodeArgs` go
 *   before the bundle (`--test`), `args` after it.
 */
export async function runTs({ name, file, contents, nodeArgs = [], args = [], env = {} }) {
  const bundle = join(mkdtempSync(join(tmpdir(), `${name}-`)), `${name}.js`);
  await esbuild.build({
    ...(file ? { entryPoints: [join(ROOT, file)] } : { stdin: { contents, resolveDir: ROOT, sourcefile: `${name}.ts`, loader: 'ts' } }),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundle,
    logLevel: 'warning',
    absWorkingDir: ROOT,
  });
  const r = spawnSync(process.execPath, [...nodeArgs, bundle, ...args], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}
