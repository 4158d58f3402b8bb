// Long fuzz run (`npm run fuzz`): random YAML and mutations of every corpus file through the whole pipeline
// (validate, estimate, hover text, completion context). Counts inputs, exceptions, out-of-range diagnostics and
// the slowest input, and writes them to test-results/fuzz.json for the README's "Reliability" section.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { completionContext, pathAtOffset } from '../../src/core/cursor.js';
import { analyze } from '../../src/core/analysis.js';
import { hoverAt } from '../../src/core/hover.js';
import { CORPUS, REPO, yamlFiles } from '../helpers.js';
import { mutate, mutationOps } from '../mutate.js';

mkdirSync(join(REPO, 'test-results'), { recursive: true });
const total = Number(process.argv[2] ?? 100_000);
const seed = Number(process.argv[3] ?? 20261122);
const corpus = yamlFiles(CORPUS).map((f) => readFileSync(f, 'utf8'));
const stats = {
  inputs: 0,
  exceptions: 0,
  rangeViolations: 0,
  parserMismatches: 0,
  slowestMs: 0,
  slowestSample: '',
  diagnostics: 0,
  seed,
  corpusFiles: corpus.length,
};
const failures: string[] = [];
let slowestText = '';

const CURRENT = join(REPO, 'test-results', 'fuzz-current.yaml');
function exercise(text: string): void {
  // The input under test is on disk while it runs: if the process dies (out of memory), it is the culprit.
  if (process.env.FUZZ_TRACE) writeFileSync(CURRENT, text);
  const t0 = performance.now();
  if (++stats.inputs % 2000 === 0 && process.env.FUZZ_HEAP)
    console.log(`${stats.inputs} inputs, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
  try {
    // The whole analysis, as the editor runs it: parse, detect, normalize, schema, rules, estimate, RL-MEM.
    const r = analyze(text, { gpu: 'h100' });
    // Differential check: the fast block-YAML path (fastTree.ts) must give exactly what the yaml library gives.
    const viaLibrary = analyze(text, { gpu: 'h100', parser: 'yaml' });
    if (JSON.stringify(r.findings) !== JSON.stringify(viaLibrary.findings) || r.format !== viaLibrary.format) {
      stats.parserMismatches++;
      if (failures.length < 20) failures.push(`parser mismatch :: ${JSON.stringify(text.slice(0, 200))}`);
    }
    const lines = text.split(/\r\n|\r|\n/);
    const ds = r.diagnostics;
    stats.diagnostics += ds.length;
    for (const d of ds)
      for (const p of [d.range.start, d.range.end])
        if (p.line < 0 || p.line >= lines.length + 1 || p.character < 0 || p.character > (lines[p.line]?.length ?? 0))
          stats.rangeViolations++;
    const mid = Math.floor(text.length / 2);
    hoverAt(r, mid);
    for (const doc of r.parsed.docs) pathAtOffset(doc.root, mid);
    completionContext(text, mid);
  } catch (e) {
    stats.exceptions++;
    if (failures.length < 20)
      failures.push(`${(e as Error).stack?.split('\n').slice(0, 3).join(' | ')} :: ${JSON.stringify(text.slice(0, 200))}`);
  }
  const ms = performance.now() - t0;
  if (ms > stats.slowestMs) {
    stats.slowestMs = ms;
    stats.slowestSample = text.slice(0, 120);
    slowestText = text;
  }
}

const mutation = fc.record({ file: fc.nat({ max: corpus.length - 1 }), eol: fc.constantFrom('\n', '\r\n'), ops: mutationOps(8) });

const perKind = Math.floor(total / 2);
fc.assert(
  fc.property(mutation, ({ file, eol, ops }) => {
    const lines = mutate(corpus[file]!, ops);
    exercise(lines.join(eol));
    return true;
  }),
  { seed, numRuns: perKind },
);
fc.assert(
  fc.property(
    fc.oneof(
      fc.string({ maxLength: 600, unit: 'binary' }),
      fc.string({ maxLength: 600, unit: fc.constantFrom(...'kv_cache_config:\n -[]{}&*!|>"\'#${}.0123456789 model') }),
    ),
    (s) => {
      exercise(s);
      return true;
    },
  ),
  { seed: seed + 1, numRuns: total - perKind },
);

mkdirSync(join(REPO, 'test-results'), { recursive: true });
writeFileSync(join(REPO, 'test-results', 'fuzz.json'), JSON.stringify({ ...stats, failures }, null, 2));
writeFileSync(join(REPO, 'test-results', 'fuzz-slowest.yaml'), slowestText);
console.log(`heap after the run: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
console.log(
  `fuzz: ${stats.inputs} inputs, ${stats.exceptions} exceptions, ${stats.rangeViolations} out-of-range diagnostics, ${stats.parserMismatches} fast-parser mismatches, ${stats.diagnostics} diagnostics, slowest ${stats.slowestMs.toFixed(1)} ms (seed ${seed})`,
);
for (const f of failures) console.log('  ' + f);
process.exitCode = stats.exceptions || stats.rangeViolations || stats.parserMismatches ? 1 : 0;
