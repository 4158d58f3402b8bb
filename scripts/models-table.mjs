// Regenerates the catalogue table of docs/models.md from the model catalogue (test/modelsTable.ts renders it; the
// catalogue test fails while the doc differs). Usage: node scripts/models-table.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(mkdtempSync(join(tmpdir(), 'models-table-')), 'models-table.js');
const entry = `
import { readFileSync, writeFileSync } from 'node:fs';
import { withTable } from './test/modelsTable.ts';
const path = 'docs/models.md';
const doc = withTable(readFileSync(path, 'utf8'));
if (doc === undefined) throw new Error(path + ' lacks the models-table markers');
writeFileSync(path, doc);
console.log('wrote the catalogue table of ' + path);
`;
await esbuild.build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'models-table.ts', loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: bundle,
  logLevel: 'warning',
  absWorkingDir: root,
});
const r = spawnSync(process.execPath, [bundle], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
