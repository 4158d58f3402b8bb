// Regenerates the catalogue table of docs/models.md from the model catalogue (test/modelsTable.ts renders it; the
// catalogue test fails while the doc differs). Usage: node scripts/models-table.mjs
import { runTs } from './run-ts.mjs';

const contents = `
import { readFileSync, writeFileSync } from 'node:fs';
import { withTable } from './test/modelsTable.ts';
const path = 'docs/models.md';
const doc = withTable(readFileSync(path, 'utf8'));
if (doc === undefined) throw new Error(path + ' lacks the models-table markers');
writeFileSync(path, doc);
console.log('wrote the catalogue table of ' + path);
`;
process.exit(await runTs({ name: 'models-table', contents }));
