#!/usr/bin/env node
// `npm run bench`: speed, size and latency of Recipe Lens, measured against yaml-language-server (the engine of
// Red Hat's YAML extension) in the same process on the same text and the same JSON Schemas. Prints a table and
// writes bench/RESULTS.md (committed) and bench/tmp/results.json (raw samples, git-ignored).
//
//   node bench/run.mjs            everything (about 5–10 minutes; the 10 MB runs dominate)
//   node bench/run.mjs --quick    fewer runs, no 10 MB file, no packaging; for development (does not write RESULTS.md)
//   node bench/run.mjs --no-package   skip the production bundles and the VSIX
//
// Timings are medians of ≥ 20 runs after ≥ 5 warm-up runs, with the 10th–90th percentile as the spread.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { compileSchemas } from '../scripts/compile-schemas.mjs';
import { generateRecipe } from './generate.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, 'bench', 'tmp');
const corpusDir = join(root, '..', 'shared', 'corpus');
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const PACKAGE = !QUICK && !args.includes('--no-package');
const WARMUP = QUICK ? 2 : 10;
const RUNS = QUICK ? 5 : 30;
mkdirSync(tmp, { recursive: true });

// ---------------------------------------------------------------------------------------------- statistics

function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, median: quantile(s, 0.5), p10: quantile(s, 0.1), p90: quantile(s, 0.9), min: s[0], max: s[s.length - 1], samples };
}

/**
 * Median and spread of `fn` in milliseconds. `inner` calls are timed together and divided (for sub-0.1 ms work,
 * where one call is below the timer's resolution). `fn` may be async; its own awaiting is part of the figure.
 */
async function measure(fn, { warmup = WARMUP, runs = RUNS, inner = 1, setup } = {}) {
  for (let i = 0; i < warmup; i++) {
    const arg = setup ? setup(i) : i;
    for (let j = 0; j < inner; j++) await fn(arg);
  }
  const samples = [];
  for (let i = 0; i < runs; i++) {
    // `setup` prepares each run's input outside the timed part (e.g. a freshly parsed document).
    const arg = setup ? setup(warmup + i) : warmup + i;
    const t0 = performance.now();
    for (let j = 0; j < inner; j++) await fn(arg);
    samples.push((performance.now() - t0) / inner);
  }
  return stats(samples);
}

const fmtMs = (ms) =>
  ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms >= 0.1 ? ms.toFixed(3) : ms.toFixed(4);
const fmtStat = (st) =>
  !st
    ? '—'
    : st.p10 === undefined || st.p90 === undefined
      ? `${fmtMs(st.median)} ms (one run)`
      : `${fmtMs(st.median)} ms (${fmtMs(st.p10)}–${fmtMs(st.p90)})`;
const fmtBytes = (b) => (b >= 1048576 ? `${(b / 1048576).toFixed(2)} MiB` : `${(b / 1024).toFixed(1)} KiB`);
const log = (...a) => console.error('#', ...a);

// ---------------------------------------------------------------------------------------------- our core

compileSchemas();
const harnessFile = join(tmp, 'harness.cjs');
await esbuild.build({
  entryPoints: [join(root, 'bench', 'harness.ts')],
  outfile: harnessFile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'es2022',
  logLevel: 'warning',
  absWorkingDir: root,
});
const require = createRequire(import.meta.url);
const core = require(harnessFile);

// ---------------------------------------------------------------------------------------------- the peer

const { getLanguageService } = await import('yaml-language-server');
const { TextDocument } = await import('vscode-languageserver-textdocument');
const ylsVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'yaml-language-server', 'package.json'), 'utf8')).version;

const schemaFiles = readdirSync(join(root, 'schemas'))
  .filter((f) => f.endsWith('.schema.json'))
  .sort();
const schemasById = new Map();
const formatToId = new Map();
for (const f of schemaFiles) {
  const s = JSON.parse(readFileSync(join(root, 'schemas', f), 'utf8'));
  schemasById.set(s.$id, s);
  formatToId.set(f.replace(/\.schema\.json$/, ''), s.$id);
}
const yls = getLanguageService({
  // All eight schemas are served by $id, so cross-file $refs (nemo-launcher → nemo1, trtllm-disagg → trtllm-options) resolve.
  schemaRequestService: async (uri) => {
    const s = schemasById.get(uri);
    if (!s) throw new Error(`no schema ${uri}`);
    return JSON.stringify(s);
  },
  workspaceContext: { resolveRelativePath: (rel, resource) => new URL(rel, resource).href },
});
yls.configure({
  validate: true,
  hover: false,
  completion: false,
  format: false,
  // A file named x.<format>.yaml is validated against that format's schema (the one our detection picked).
  schemas: [...formatToId].map(([format, uri]) => ({ uri, fileMatch: [`*.${format}.yaml`], schema: schemasById.get(uri) })),
});
let ylsVersionCounter = 1;
/** A fresh document version each call, so yaml-language-server parses again (it caches the parse per version, as we do not). */
const ylsDoc = (name, format, text) => TextDocument.create(`file:///bench/${name}.${format}.yaml`, 'yaml', ylsVersionCounter++, text);

// ---------------------------------------------------------------------------------------------- inputs

const read = (p) => readFileSync(p, 'utf8');
const TYPICAL = 'NeMo/megatron_gpt_config.yaml';
const typicalText = read(join(corpusDir, TYPICAL));

function corpusFiles() {
  const out = [];
  const walk = (d) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(n)) out.push(p);
    }
  };
  if (existsSync(corpusDir)) walk(corpusDir);
  return out;
}

const gen10k = generateRecipe(typicalText, { lines: 10_000 });
const gen1m = generateRecipe(typicalText, { bytes: 1 << 20 });
const gen10m = QUICK ? undefined : generateRecipe(typicalText, { bytes: 10 << 20 });
for (const [n, t] of [
  ['recipe-10k-lines.yaml', gen10k],
  ['recipe-1mb.yaml', gen1m],
  ['recipe-10mb.yaml', gen10m],
])
  if (t) writeFileSync(join(tmp, n), t);

const lineCount = (t) => t.split('\n').length - (t.endsWith('\n') ? 1 : 0);

// ---------------------------------------------------------------------------------------------- 1. validation

const results = { validation: [], corpus: [], incremental: [], estimate: [], hover: [], planner: [], lsp: null, sizes: [], e2e: {} };

async function compare(label, name, text, { ours: oursOpts, runs = RUNS, warmup = WARMUP, budget } = {}) {
  const first = core.fullValidate(text, oursOpts);
  const format = first.format ?? 'nemo1';
  log(
    `validate ${label}: ${lineCount(text)} lines, ${fmtBytes(text.length)}, format ${first.format}${first.tooLarge ? ' (over the size limit: not validated)' : ''}`,
  );
  const ours = await measure(() => core.fullValidate(text, oursOpts), { runs, warmup });
  let theirs;
  let theirDiags = 0;
  if (first.format || first.tooLarge) {
    theirDiags = (await yls.doValidation(ylsDoc(name, format, text), false)).length;
    theirs = await measure(() => yls.doValidation(ylsDoc(name, format, text), false), { runs, warmup });
  }
  const row = {
    label,
    name,
    lines: lineCount(text),
    bytes: Buffer.byteLength(text),
    format: first.format,
    tooLarge: first.tooLarge,
    ourDiagnostics: first.diagnostics.length,
    theirDiagnostics: theirDiags,
    ours,
    theirs,
    ratio: theirs ? ours.median / theirs.median : undefined,
    budget,
  };
  log(`  ours ${fmtStat(ours)}, yaml-language-server ${fmtStat(theirs)}, ratio ${row.ratio?.toFixed(3)}`);
  return row;
}

// Warm both engines up on everything first, so that the first series measured is not the one that pays for the JIT.
const warmInputs = [typicalText, gen10k, ...corpusFiles().map(read)];
for (let round = 0; round < (QUICK ? 1 : 3); round++)
  for (const t of warmInputs) {
    const f = core.fullValidate(t).format;
    if (f) await yls.doValidation(ylsDoc('warmup', f, t), false);
  }

const RAISED = { ...core.EXTENSION_DEFAULTS, maxLength: 64 << 20 };
results.validation.push(await compare(`(a) typical recipe (${TYPICAL})`, 'typical', typicalText, { budget: { ms: 2, ratio: 0.1 } }));
results.validation.push(await compare('(c) generated 10,000-line recipe', 'gen10k', gen10k, { budget: { ms: 50, ratio: 0.1 } }));
results.validation.push(await compare('(d) generated 1 MB recipe', 'gen1m', gen1m, { budget: { ratio: 0.1 } }));
if (gen10m) {
  // 20 runs after 5 here: yaml-language-server takes seconds per run on 10 MB.
  results.validation.push(
    await compare('(d) generated 10 MB recipe, default 5 MB limit (not validated: one RL-SIZE info)', 'gen10m', gen10m, {
      budget: {},
      runs: 20,
      warmup: 5,
    }),
  );
  results.validation.push(
    await compare('(d) generated 10 MB recipe, limit raised to 64 MB', 'gen10m', gen10m, {
      ours: RAISED,
      budget: { ratio: 0.1 },
      runs: 20,
      warmup: 5,
    }),
  );
}
for (const p of corpusFiles()) {
  const rel = relative(corpusDir, p);
  results.corpus.push(await compare(`(b) ${rel}`, basename(p).replace(/\.ya?ml$/, ''), read(p), { budget: { ratio: 0.1 } }));
}

// ---------------------------------------------------------------------------------------------- 2. incremental edit

/** One-character edit → fresh diagnostics: flip one digit of a value back and forth, re-validate the whole text. */
async function incremental(label, name, text, budget) {
  const m = /micro_batch_size: (\d)/.exec(text);
  if (!m) throw new Error(`no micro_batch_size in ${label}`);
  const at = m.index + m[0].length - 1;
  const digits = [m[1], m[1] === '1' ? '2' : '1'];
  const format = core.fullValidate(text).format;
  let cur = text;
  const ours = await measure((i) => {
    // The edit itself (VS Code hands the extension the new full text) is part of the figure.
    cur = cur.slice(0, at) + digits[(i + 1) % 2] + cur.slice(at + 1);
    return core.fullValidate(cur);
  });
  // yaml-language-server receives the incremental change (TextDocument.update), then validates the new version.
  let doc = TextDocument.create(`file:///bench/inc-${name}.${format}.yaml`, 'yaml', 1, text);
  let version = 1;
  const pos = doc.positionAt(at);
  const range = { start: pos, end: { line: pos.line, character: pos.character + 1 } };
  const theirs = await measure((i) => {
    doc = TextDocument.update(doc, [{ range, text: digits[(i + 1) % 2] }], ++version);
    return yls.doValidation(doc, false);
  });
  const row = { label, ours, theirs, ratio: ours.median / theirs.median, budget };
  log(`incremental ${label}: ours ${fmtStat(ours)}, yaml-language-server ${fmtStat(theirs)}`);
  return row;
}
results.incremental.push(await incremental('(a) typical recipe', 'typical', typicalText, { ms: 2, ratio: 0.1 }));
results.incremental.push(await incremental('(c) generated 10,000-line recipe', 'gen10k', gen10k, { ms: 50, ratio: 0.1 }));

// ---------------------------------------------------------------------------------------------- 3. estimate and hover

const estimateInputs = [
  [`(a) ${TYPICAL}`, typicalText],
  ['examples/llama3_70b_64k.yaml', read(join(root, 'examples', 'llama3_70b_64k.yaml'))],
  ['examples/bridge_llama3_70b_64k.yaml', read(join(root, 'examples', 'bridge_llama3_70b_64k.yaml'))],
  ['examples/trtllm_llama3_70b_serve.yaml', read(join(root, 'examples', 'trtllm_llama3_70b_serve.yaml'))],
  ['(c) generated 10,000-line recipe', gen10k],
];
// Each timed call gets a document parsed just before (as after an edit), so nothing is cached on the document.
const ESTIMATE_RUNS = Math.max(RUNS, QUICK ? 20 : 200);
for (const [label, text] of estimateInputs) {
  const p = core.prepare(text);
  const e = core.estimate(p);
  const st = await measure((doc) => core.estimate(doc), { setup: () => core.prepare(text), runs: ESTIMATE_RUNS, warmup: 20 });
  results.estimate.push({ label, kind: e.kind, reason: e.kind === 'none' ? e.reason : undefined, stat: st, budget: { ms: 0.1 } });
  log(`estimate ${label}: ${e.kind}${e.kind === 'none' ? ` (${e.reason})` : ''} ${fmtStat(st)}`);
}

const hoverInputs = [
  [`(a) ${TYPICAL}`, typicalText, 'tensor_model_parallel_size', 'memory + schema'],
  [`(a) ${TYPICAL}`, typicalText, 'hidden_dropout', 'schema only'],
  [
    'examples/trtllm_llama3_70b_serve.yaml',
    read(join(root, 'examples', 'trtllm_llama3_70b_serve.yaml')),
    'free_gpu_memory_fraction',
    'KV cache + schema',
  ],
  ['(c) generated 10,000-line recipe', gen10k, 'tensor_model_parallel_size', 'memory + schema'],
];
for (const [label, text, key, what] of hoverInputs) {
  const p = core.prepare(text);
  const off = core.keyOffset(text, key);
  const parts = core.hover(p, off);
  const st = await measure((doc) => core.hover(doc, off), { setup: () => core.prepare(text), runs: ESTIMATE_RUNS, warmup: 20 });
  results.hover.push({ label: `${label} — \`${key}\` (${what})`, parts: parts.length, stat: st, budget: { ms: 5 } });
  log(`hover ${label} ${key}: ${parts.length} part(s), ${fmtStat(st)}`);
}

// ---------------------------------------------------------------------------------------------- 4. planner

// Timed only where the planner exists (src/core/plan/plan.ts); bench/planner.ts holds the calls.
const PLANNER_RECIPE = 'examples/llama3_70b_64k.yaml';
results.planner = null;
if (existsSync(join(root, 'src', 'core', 'plan', 'plan.ts'))) {
  try {
    const plannerFile = join(tmp, 'planner.cjs');
    await esbuild.build({
      entryPoints: [join(root, 'bench', 'planner.ts')],
      outfile: plannerFile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'es2022',
      logLevel: 'silent',
      absWorkingDir: root,
    });
    const planner = require(plannerFile);
    const ex = planner.prepare(read(join(root, PLANNER_RECIPE)));
    results.planner = [];
    for (const gpus of [8, 64, 1024, 16384]) {
      const r = planner.search(ex, gpus);
      const big = gpus >= 1024;
      // Large worlds take seconds per search: 5 runs after 1 there (the spread is then min–max-like).
      const st = await measure(() => planner.search(ex, gpus), { runs: big ? 5 : RUNS, warmup: big ? 1 : WARMUP });
      results.planner.push({ gpus, ...r, stat: st });
      log(`planner ${gpus} GPUs: ${r.space} points, ${r.estimated} estimates, ${r.candidates} candidates, ${fmtStat(st)}`);
    }
  } catch (e) {
    results.planner = { error: String(e.message ?? e).split('\n')[0] };
    log(`planner: ${results.planner.error}`);
  }
}

// ---------------------------------------------------------------------------------------------- 4b. language server

// The server as it ships: the production CLI bundle, spawned as `node dist/cli.js lsp --stdio` (bench/lsp.mjs).
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production', '--only=cli'], { cwd: root, stdio: 'inherit' });
{
  const { measureLsp } = await import('./lsp.mjs');
  results.lsp = await measureLsp({
    cli: join(root, 'dist', 'cli.js'),
    measure,
    stats,
    log,
    typicalText,
    gen10k,
    gen10m,
    core,
    runs: RUNS,
    warmup: WARMUP,
  });
}

// ---------------------------------------------------------------------------------------------- 5. sizes

function sizes() {
  const out = [];
  const node = process.execPath;
  for (const only of ['extension', 'cli', 'webview']) {
    execFileSync(node, [join(root, 'scripts', 'build.mjs'), '--production', `--only=${only}`], { cwd: root, stdio: 'inherit' });
    const f = join(root, 'dist', `${only}.js`);
    out.push({ label: `dist/${only}.js (production)`, bytes: statSync(f).size, budget: undefined });
  }
  const vsix = join(os.tmpdir(), 'bench.vsix');
  try {
    execFileSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['vsce', 'package', '--no-dependencies', '--out', vsix], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    out.push({ label: 'recipe-lens.vsix', bytes: statSync(vsix).size, budget: { bytes: 1 << 20 } });
  } catch (e) {
    out.push({ label: 'recipe-lens.vsix', error: `vsce package failed: ${e.message.split('\n')[0]}`, budget: { bytes: 1 << 20 } });
  }
  return out;
}
if (PACKAGE) results.sizes = sizes();

// ---------------------------------------------------------------------------------------------- 5–7. from the e2e run

/**
 * test-results/e2e-metrics.json, written by `npm run test:e2e`. Read tolerantly: each figure may be a number, a list of
 * samples, or { median, p10, p90 } (or min/max); the names below are the ones looked for.
 */
function e2eMetrics() {
  const file = join(root, 'test-results', 'e2e-metrics.json');
  if (!existsSync(file)) return { file: null };
  let data;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return { file, error: `unreadable: ${e.message}` };
  }
  const find = (names) => {
    const want = names.map((n) => n.toLowerCase());
    let hit;
    const rec = (o, path) => {
      if (hit || !o || typeof o !== 'object' || Array.isArray(o)) return;
      for (const [k, v] of Object.entries(o)) if (!hit && want.includes(k.toLowerCase())) hit = { key: [...path, k].join('.'), value: v };
      for (const [k, v] of Object.entries(o)) rec(v, [...path, k]);
    };
    rec(data, []);
    return hit;
  };
  const asStat = (v, scale = 1) => {
    if (typeof v === 'number') return { median: v * scale, n: 1 };
    if (Array.isArray(v) && v.every((x) => typeof x === 'number')) {
      const s = stats(v.map((x) => x * scale));
      return s;
    }
    if (v && typeof v === 'object') {
      if (Array.isArray(v.samples)) return asStat(v.samples, scale);
      if (typeof v.median === 'number')
        return { median: v.median * scale, p10: (v.p10 ?? v.min) * scale, p90: (v.p90 ?? v.max) * scale, n: v.n ?? v.runs };
      if (typeof v.ms === 'number') return { median: v.ms * scale, n: 1 };
      if (typeof v.value === 'number') return { median: v.value * scale, n: 1 };
    }
    return undefined;
  };
  const activate = find(['activateMs', 'activationMs', 'activate', 'activation']);
  const panel = find(['panelRefreshMs', 'panelRefresh', 'keystrokeToDomMs', 'keystrokeToWebviewMs', 'panelLatencyMs']);
  const rssB = find(['extensionHostRssBytes', 'rssBytes', 'memoryRssBytes', 'rss']);
  const serverRss = find(['languageServerRssBytes']);
  const rssMB = find(['extensionHostRssMB', 'extensionHostRssMiB', 'rssMB', 'rssMiB']);
  let memory;
  if (rssMB) memory = { key: rssMB.key, stat: asStat(rssMB.value, 1048576) };
  else if (rssB) memory = { key: rssB.key, stat: asStat(rssB.value) };
  return {
    file,
    date: statSync(file).mtime.toISOString(),
    activate: activate && { key: activate.key, stat: asStat(activate.value) },
    panel: panel && { key: panel.key, stat: asStat(panel.value) },
    memory,
    serverMemory: serverRss && { key: serverRss.key, stat: asStat(serverRss.value) },
  };
}
results.e2e = e2eMetrics();

// ---------------------------------------------------------------------------------------------- report

const verdict = (ok) => (ok ? 'OK' : 'MISSED');
function judge(st, budget, ratio) {
  if (!budget) return '';
  const parts = [];
  if (budget.ms !== undefined && st) parts.push(st.median <= budget.ms ? 'OK' : `MISSED (${fmtMs(st.median)} ms > ${budget.ms} ms)`);
  if (budget.ratio !== undefined && ratio !== undefined)
    parts.push(ratio <= budget.ratio ? 'OK' : `MISSED (ratio ${ratio.toFixed(3)} > ${budget.ratio})`);
  if (!parts.length) return '';
  return parts.every((p) => p === 'OK') ? 'OK' : parts.filter((p) => p !== 'OK').join('; ');
}
const budgetText = (b) =>
  !b
    ? '—'
    : [
        b.ms !== undefined ? `≤ ${b.ms} ms` : '',
        b.ratio !== undefined ? `ratio ≤ ${b.ratio}` : '',
        b.bytes !== undefined ? `≤ ${fmtBytes(b.bytes)}` : '',
      ]
        .filter(Boolean)
        .join(', ') || '—';

const cpu = os.cpus();
const machine = `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} logical cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()} ${os.arch()}`;
const lines = [];
const md = (s = '') => lines.push(s);
md('# Recipe Lens benchmark results');
md();
md(`Generated by \`npm run bench\` (bench/run.mjs). Do not edit by hand.`);
md();
md(`- Machine: ${machine}`);
md(`- Node: ${process.version}; yaml-language-server ${ylsVersion} (same process, same text, same JSON Schemas)`);
md(`- Date: ${new Date().toISOString()}`);
md(`- Method: both engines are first warmed up on every input; then the median of ${RUNS} runs after ${WARMUP} warm-up runs`);
md(`  (10 MB: 20 after 5; estimate and hover: ${ESTIMATE_RUNS} runs, each on a document parsed just before it); the spread in`);
md('  parentheses is the 10th–90th percentile. "ours" is the full validation the extension does per document version');
md('  (`validateText`: YAML parse, format detection, interpolation, Ajv schema check, typo/deprecation walk, cross-field');
md('  rules, memory check; then `sortFindings` + `toDiagnostics`). "theirs" is `doValidation` of yaml-language-server\'s');
md('  language service on a new document version (so it parses again: it caches the parse per version) with our schema');
md("  for the file's format. Ratio = ours / theirs (medians).");
md(`- Generated inputs: the model section of ${TYPICAL} repeated under unique keys in \`model\` (an open mapping), see`);
md('  bench/generate.mjs; written to bench/tmp/ (git-ignored).');
md();

md('## 1. Validation latency');
md();
md('| file | lines | size | diagnostics ours / theirs | ours | yaml-language-server | ratio | budget | verdict |');
md('|---|---:|---:|---:|---:|---:|---:|---|---|');
const vrow = (r) =>
  md(
    `| ${r.label} | ${r.lines.toLocaleString('en-US')} | ${fmtBytes(r.bytes)} | ${r.ourDiagnostics} / ${r.theirs ? r.theirDiagnostics : '—'} | ${fmtStat(r.ours)} | ${fmtStat(r.theirs)} | ${r.ratio?.toFixed(3) ?? '—'} | ${budgetText(r.budget)} | ${judge(r.ours, r.budget, r.ratio) || '—'} |`,
  );
results.validation.forEach(vrow);
md();
md('### (b) every corpus file (../shared/corpus)');
md();
md('| file | lines | size | diagnostics ours / theirs | ours | yaml-language-server | ratio | budget | verdict |');
md('|---|---:|---:|---:|---:|---:|---:|---|---|');
results.corpus.forEach(vrow);
if (results.corpus.length) {
  const ratios = results.corpus.map((r) => r.ratio).filter((x) => x !== undefined);
  const st = stats(ratios);
  md();
  md(
    `Corpus: ${results.corpus.length} files, ratio median ${st.median.toFixed(3)} (min ${st.min.toFixed(3)}, max ${st.max.toFixed(3)}); ${ratios.filter((r) => r > 0.1).length} over 0.1.`,
  );
}
md();
md('Diagnostics differ by design: yaml-language-server reports unresolved `${…}` interpolations as type errors and');
md('knows no cross-field rules; Recipe Lens resolves interpolations and adds rules, typo hints and the memory check.');
md();

md('## 2. Incremental edit (one-character edit → fresh diagnostics)');
md();
md('Recipe Lens re-validates the whole text per document version (VS Code hands it the full text); the figure includes');
md('applying the edit to the string. yaml-language-server gets the change through `TextDocument.update` and validates the new version.');
md();
md('| file | ours | yaml-language-server | ratio | budget | verdict |');
md('|---|---:|---:|---:|---|---|');
for (const r of results.incremental)
  md(
    `| ${r.label} | ${fmtStat(r.ours)} | ${fmtStat(r.theirs)} | ${r.ratio.toFixed(3)} | ${budgetText(r.budget)} | ${judge(r.ours, r.budget, r.ratio)} |`,
  );
md();

md('## 3. Estimate and hover');
md();
md('| what | result | time | budget | verdict |');
md('|---|---|---:|---|---|');
for (const r of results.estimate)
  md(
    `| estimate: ${r.label} | ${r.kind}${r.reason ? ` (${r.reason.slice(0, 60)})` : ''} | ${fmtStat(r.stat)} | ${budgetText(r.budget)} | ${judge(r.stat, r.budget)} |`,
  );
for (const r of results.hover)
  md(`| hover: ${r.label} | ${r.parts} part(s) | ${fmtStat(r.stat)} | ${budgetText(r.budget)} | ${judge(r.stat, r.budget)} |`);
md();
md('Hover = cursor → key path, the memory estimate (uncached, as on the first hover after an edit), the markdown; on the');
md('cached analysis of the current version, as the extension does.');
md();

md('## 4. Planner');
md();
if (!results.planner) md('not measured (no planner in src/core/plan yet)');
else if (!Array.isArray(results.planner)) md(`not measured (the planner did not run: ${results.planner.error})`);
else {
  md(
    `Full search (\`plan()\`, H100) for the model and configuration of ${PLANNER_RECIPE}; ${RUNS} runs up to 64 GPUs, 5 runs after 1 from 1,024. No budget is set for it.`,
  );
  md();
  md('| GPUs | points in the space | memory estimates run | time |');
  md('|---:|---:|---:|---:|');
  for (const r of results.planner)
    md(
      `| ${r.gpus.toLocaleString('en-US')} | ${r.space.toLocaleString('en-US')} | ${r.estimated.toLocaleString('en-US')} | ${fmtStat(r.stat)} |`,
    );
}
md();

md('## 5. Activation and size');
md();
md('| what | figure | budget | verdict |');
md('|---|---:|---|---|');
const e2e = results.e2e;
const notMeasured = 'not measured (run npm run test:e2e first)';
const e2eRow = (label, m, budgetMs) => {
  if (!e2e.file) md(`| ${label} | ${notMeasured} | ${budgetMs ? `≤ ${budgetMs} ms` : '—'} | — |`);
  else if (!m?.stat)
    md(
      `| ${label} | not in ${relative(root, e2e.file)}${e2e.error ? ` (${e2e.error})` : ''} | ${budgetMs ? `≤ ${budgetMs} ms` : '—'} | — |`,
    );
  else
    md(
      `| ${label} | ${fmtStat(m.stat)} (\`${m.key}\`, e2e run of ${e2e.date}) | ${budgetMs ? `≤ ${budgetMs} ms` : '—'} | ${budgetMs ? verdict(m.stat.median <= budgetMs) + (m.stat.median > budgetMs ? ` (${fmtMs(m.stat.median)} ms)` : '') : '—'} |`,
    );
};
e2eRow('activate() in the extension host', e2e.activate, 50);
if (!results.sizes.length) md('| bundles and VSIX | not measured (--quick / --no-package) | ≤ 1 MiB (VSIX) | — |');
for (const s of results.sizes)
  md(
    `| ${s.label} | ${s.error ?? `${fmtBytes(s.bytes)} (${s.bytes.toLocaleString('en-US')} B)`} | ${budgetText(s.budget)} | ${s.budget && !s.error ? verdict(s.bytes <= s.budget.bytes) + (s.bytes > s.budget.bytes ? ` (${fmtBytes(s.bytes)})` : '') : '—'} |`,
  );
md();
md('## 6. Panel refresh (keystroke → updated webview DOM)');
md();
md('| what | figure | budget | verdict |');
md('|---|---:|---|---|');
e2eRow('keystroke → panel DOM updated', e2e.panel, 100);
md();
md('## 7. Memory');
md();
md('| what | figure | budget |');
md('|---|---:|---|');
if (!e2e.file) md(`| extension host RSS, panel open on the 10,000-line file | ${notMeasured} | — |`);
else if (!e2e.memory?.stat) md(`| extension host RSS, panel open on the 10,000-line file | not in ${relative(root, e2e.file)} | — |`);
else
  md(
    `| extension host RSS, panel open on the 10,000-line file | ${fmtBytes(e2e.memory.stat.median)} (\`${e2e.memory.key}\`, e2e run of ${e2e.date}) | — |`,
  );
if (e2e.serverMemory?.stat)
  md(
    `| language server RSS in VS Code (dist/cli.js lsp --node-ipc), 10,000-line file open, panel on it | ${fmtBytes(e2e.serverMemory.stat.median)} (\`${e2e.serverMemory.key}\`, e2e run of ${e2e.date}) | ≤ 150 MiB |`,
  );
md();

md('## 8. Language server (`node dist/cli.js lsp --stdio`, production bundle, driven over JSON-RPC)');
md();
md('Measured against the built server in a child process, as an editor drives it (bench/lsp.mjs). "Keystroke" = a');
md('one-character `didChange` (micro_batch_size 1 ↔ 2, incremental) until the `publishDiagnostics` of that version arrives,');
md('with `debounceMs: 0` (the setting\'s 150 ms default is a deliberate delay, added on top in an editor). "Analyses per');
md('keystroke" comes from the server\'s own counter (recipeLens/debug/stats): 1.00 means nothing is computed twice.');
md();
md('| what | figure | budget | verdict |');
md('|---|---:|---|---|');
const L = results.lsp;
const lrow = (label, st, budgetMs, extra = '') =>
  md(`| ${label} | ${fmtStat(st)}${extra} | ${budgetMs ? `≤ ${budgetMs} ms` : '—'} | ${budgetMs ? judge(st, { ms: budgetMs }) : '—'} |`);
if (L) {
  lrow(
    'keystroke → diagnostics, 320-line recipe (pushed)',
    L.keystroke320.stat,
    30,
    `; ${L.keystroke320.analysesPerKeystroke.toFixed(2)} analyses per keystroke`,
  );
  lrow('keystroke → diagnostics, 320-line recipe (pulled: didChange + textDocument/diagnostic)', L.pull320.stat, 30);
  lrow(
    'keystroke → diagnostics, 10,000-line recipe (pushed)',
    L.keystroke10k.stat,
    undefined,
    `; ${L.keystroke10k.analysesPerKeystroke.toFixed(2)} analyses per keystroke`,
  );
  lrow("hover, server-side (the server's code path on the cached analysis), 320-line recipe", L.hoverServer.stat, 5);
  lrow('hover, server-side, 10,000-line recipe', L.hoverServer10k.stat, 5);
  lrow('hover, round trip over stdio', L.hoverRoundTrip.stat);
  lrow("panel refresh, server part (didChange + recipeLens/analysis with the panel's sections)", L.panel.stat, 100);
  md(
    `| server RSS with the 10,000-line file open (diagnostics, hover, symbols, panel served) | ${fmtBytes(L.rss10k.bytes)} | ≤ 150 MiB | ${verdict(L.rss10k.bytes <= 150 * 2 ** 20)} |`,
  );
  if (L.busy10m) {
    const b = L.busy10m;
    const worst = b.stat.max;
    md(
      `| hover on a 320-line document while a 10 MB recipe is analysed (worker thread; ${b.stat.n} hovers during ${fmtMs(b.analysedMs)} ms) | worst ${fmtMs(worst)} ms, median ${fmtMs(b.stat.median)} ms; the first ${fmtMs(b.first)} ms (it also waits for the 10 MB didOpen to be read) | ≤ 100 ms | ${verdict(worst <= 100)} |`,
    );
  }
} else md('| language server | not measured | — | — |');
md();

const missed = lines.filter((l) => l.includes('MISSED')).length;
md(`**${missed ? `${missed} row(s) MISSED a budget` : 'All measured budgets met'}.**`);
const report = lines.join('\n') + '\n';
process.stdout.write(report);
writeFileSync(
  join(tmp, 'results.json'),
  JSON.stringify({ machine, node: process.version, ylsVersion, date: new Date().toISOString(), quick: QUICK, results }, null, 1),
);
if (!QUICK) {
  writeFileSync(join(root, 'bench', 'RESULTS.md'), report);
  log('wrote bench/RESULTS.md');
} else log('--quick: bench/RESULTS.md not written');
// The KV reuse simulator's budgets: a separate script with its own table (bench/kvsim.mjs).
execFileSync(process.execPath, [join(root, 'bench', 'kvsim.mjs'), ...(QUICK ? ['--quick'] : [])], { stdio: 'inherit' });
