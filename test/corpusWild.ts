// What the product says about every real upstream file of ../shared/corpus-wild, the way the CLI computes it
// (analyzeWithModelFiles), with each file's upstream path as its document path so that models and GPUs named by the
// path count, and NeMo-RL `defaults:` parents read from the same folder. test/core/corpusWild.test.ts compares these
// rows with test/data/corpus-wild-expected.tsv; scripts/corpus-wild-expectations.mjs writes a draft of that file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis, AnalysisSettings } from '../src/core/analysis.js';
import type { ModelFileSystem } from '../src/core/models/files.js';
import { analyzeWithModelFiles } from '../src/host/modelFiles.js';
import { readSources, REPO, WILD, wildSources, type WildSource } from './helpers.js';

export const EXPECTED_TSV = join(REPO, 'test', 'data', 'corpus-wild-expected.tsv');

/** The columns the product computes; `why` is written by the reviewer. */
export interface WildRow {
  file: string;
  format: string;
  /** NeMo-RL: the `defaults:` parents the file read, as corpus-wild files, comma-separated; '-' when none. */
  base: string;
  /** Every error and warning as severity:code@line (1-based), sorted; '-' when none. */
  diagnostics: string;
  estimate: 'yes' | 'no';
  /** The model the estimate chose (catalogue id or config name), or `none: <reason>`; '-' for no recipe. */
  model: string;
  /** Serving: whether weights and runtime fit the GPU on every role, on which GPU and where it came from (`yes@h200:default`); '-' otherwise. */
  fits: string;
  why: string;
}

export const COLUMNS: readonly (keyof WildRow)[] = ['file', 'format', 'base', 'diagnostics', 'estimate', 'model', 'fits', 'why'];

/** The upstream location of a corpus file, as the document path the analysis sees. */
const upstream = (s: WildSource) => `/${s.repo}/${s.path}`;

/** No local model files: the rows must not depend on the machine's Hugging Face cache. */
const NO_FILES: ModelFileSystem = {
  readText: () => undefined,
  isDirectory: () => false,
  listDir: () => undefined,
  hubCacheDirs: [],
  cwd: '/',
  home: '/',
};

/** The analysis of one corpus-wild file, read as the CLI reads it (no settings beyond its path). */
export function analyzeWild(s: WildSource, sources = wildSources(), root = WILD): Analysis {
  const byUpstream = new Map(sources.map((x) => [upstream(x), x]));
  const settings: AnalysisSettings = {
    documentPath: upstream(s),
    // `defaults:` parents resolve against the upstream path; the corpus holds them under the same names.
    readFile: (p) => {
      const hit = byUpstream.get(p.split('\\').join('/'));
      return hit ? readFileSync(join(root, hit.file), 'utf8') : undefined;
    },
  };
  return analyzeWithModelFiles(readFileSync(join(root, s.file), 'utf8'), settings, NO_FILES);
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').replace(/\t/g, ' ').trim();

/** The row the product computes for one file. */
export function wildRow(s: WildSource, sources = wildSources(), root = WILD): WildRow {
  const a = analyzeWild(s, sources, root);
  const diags = a.diagnostics
    .filter((d) => d.severity === 'error' || d.severity === 'warning')
    .map((d) => `${d.severity}:${d.code}@${d.range.start.line + 1}`)
    .sort();
  const files = new Map(sources.map((x) => [upstream(x), x.file]));
  const base = a.sources.filter((x) => x.text !== undefined).map((x) => files.get(x.path.split('\\').join('/')) ?? x.path);
  const e = a.main?.estimate;
  let estimate: WildRow['estimate'] = 'no';
  let model = '-';
  let fits = '-';
  if (e && e.kind === 'none') model = `none: ${oneLine(e.reason)}`;
  else if (e && (e.kind === 'training' || e.kind === 'serving')) {
    estimate = 'yes';
    model = e.shape.name;
    if (e.kind === 'serving') fits = `${e.roles.every((r) => r.fits) ? 'yes' : 'no'}@${e.gpu.id}:${e.gpuSource}`;
  } else if (e) estimate = 'yes';
  return {
    file: s.file,
    format: a.format ?? 'none',
    base: base.length ? base.join(',') : '-',
    diagnostics: diags.length ? diags.join(' ') : '-',
    estimate,
    model,
    fits,
    why: '',
  };
}

export const wildRows = (): WildRow[] => {
  const sources = wildSources();
  return sources.map((s) => wildRow(s, sources));
};

/** The project's own corpus of upstream files (test/data/upstream: whole repositories' recipes at pinned commits). */
export const UPSTREAM = join(REPO, 'test', 'data', 'upstream');
export const UPSTREAM_TSV = join(UPSTREAM, 'EXPECTED.tsv');

export const upstreamSources = (): WildSource[] => readSources(join(UPSTREAM, 'SOURCES.tsv'));

export const upstreamRows = (): WildRow[] => {
  const sources = upstreamSources();
  return sources.map((s) => wildRow(s, sources, UPSTREAM));
};

export function readExpected(path = EXPECTED_TSV): WildRow[] {
  const [head, ...lines] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const cols = head!.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i], v])) as unknown as WildRow);
}

export const toTsv = (rows: readonly WildRow[]): string =>
  [COLUMNS.join('\t'), ...rows.map((r) => COLUMNS.map((c) => oneLine(String(r[c] ?? ''))).join('\t'))].join('\n') + '\n';

/**
 * A regenerated expectation table: each row keeps the reviewer's `why`; a row whose computed columns changed is marked
 * "REVIEW:" (in the project's corpus only a row with an error asks a reason), and a mark stays on every later run until
 * the reviewer deletes it, even where the row no longer changes.
 */
export function mergeReviewed(
  rows: readonly WildRow[],
  before: readonly WildRow[],
  upstream: boolean,
): { rows: WildRow[]; toReview: number } {
  const old = new Map(before.map((r) => [r.file, r]));
  let toReview = 0;
  const merged = rows.map((r) => {
    const prev = old.get(r.file);
    const same = prev !== undefined && COLUMNS.every((c) => c === 'why' || prev[c] === r[c]);
    const pending = /^REVIEW/.test(prev?.why ?? '');
    const why = (prev?.why ?? '').replace(/^REVIEW: ?/, '');
    const review = pending || (!same && (!upstream || r.diagnostics.includes('error:')));
    if (review) toReview++;
    return { ...r, why: review ? `REVIEW: ${why}` : why };
  });
  return { rows: merged, toReview };
}

/** The computed columns a test compares; a missing estimate is compared by the start of its reason. */
const CHECKED = COLUMNS.filter((c) => c !== 'why');
const modelKey = (m: string) => (m.startsWith('none:') ? m.slice(0, 120) : m);
const cell = (r: WildRow, c: keyof WildRow) => (c === 'model' ? modelKey(r[c]) : r[c]);

/** Every cell where the rows the product computes differ from the recorded ones, one readable entry each. */
export function rowDifferences(got: readonly WildRow[], expected: readonly WildRow[]): string[] {
  const want = new Map(expected.map((r) => [r.file, r]));
  const diff: string[] = [];
  for (const g of got) {
    const w = want.get(g.file);
    if (!w) continue;
    for (const c of CHECKED)
      if (cell(g, c) !== cell(w, c)) diff.push(`${g.file}\n    ${c}: expected ${w[c]}\n    ${' '.repeat(c.length)}  got      ${g[c]}`);
  }
  return diff;
}
