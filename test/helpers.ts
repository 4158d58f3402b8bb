// Shared helpers of the unit tests.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { analyze, type Analysis, type AnalysisSettings } from '../src/core/analysis.js';
import type { TrainingConfig } from '../src/core/memory/config.js';
import type { ModelShape } from '../src/core/memory/types.js';
import { catalogueEntry } from '../src/core/models/catalogue.js';
import { fromHfConfig } from '../src/core/models/hfConfig.js';
import type { ConfigShape } from '../src/core/models/types.js';
import type { Diagnostic } from '../src/core/types.js';

export const REPO = process.cwd();
/** CI and developers have the shared material beside the checkout. */
export const SHARED = resolve(REPO, '..', 'shared');
export const CORPUS = join(SHARED, 'corpus');
export const EXAMPLES = join(REPO, 'examples');
/** Real upstream files the project never edits, with their source and kind (../shared/corpus-wild/SOURCES.tsv). */
export const WILD = join(SHARED, 'corpus-wild');

export interface WildSource {
  file: string;
  repo: string;
  path: string;
  commit: string;
  kind: string;
  license: string;
}

/** The rows of a SOURCES.tsv (file, repo, path, commit, kind, license; a missing kind reads as ''). */
export function readSources(path: string): WildSource[] {
  const [head, ...rows] = readFileSync(path, 'utf8').trim().split('\n');
  const cols = head!.split('\t');
  return rows.map((r) => ({ kind: '', ...Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v])) }) as unknown as WildSource);
}

/** The rows of corpus-wild's SOURCES.tsv. */
export const wildSources = (): WildSource[] => readSources(join(WILD, 'SOURCES.tsv'));

export function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(n)) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

export const rel = (base: string, p: string) => relative(base, p).split('\\').join('/');

/** The analysis of a text; the memory check (RL-MEM) only where a test asks for it, so rule tests stay about rules. */
export function analyzeText(text: string, s: AnalysisSettings = {}): Analysis {
  return analyze(text, { memoryWarnings: false, ...s });
}

export function diagnose(text: string, opts: AnalysisSettings = {}): Diagnostic[] {
  return analyzeText(text, opts).diagnostics;
}

/** The estimate of a text's first recipe document (with the memory check's settings). */
export const estimateOf = (text: string, s: AnalysisSettings = {}) => analyze(text, s).main?.estimate;
/** The normalized recipe of a text's first recipe document. */
export const recipeOf = (text: string, s: AnalysisSettings = {}) => analyze(text, s).main?.recipe;

export function diagnoseFile(path: string, opts: AnalysisSettings = {}): Diagnostic[] {
  return diagnose(readFileSync(path, 'utf8'), opts);
}

export const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);
export const bySeverity = (ds: Diagnostic[], s: Diagnostic['severity']) => ds.filter((d) => d.severity === s);

/** Position helper: the 0-based line and character of the first occurrence of `needle` in `text`. */
export function posOf(text: string, needle: string, nth = 0): { line: number; character: number } {
  let idx = -1;
  for (let i = 0; i <= nth; i++) idx = text.indexOf(needle, idx + 1);
  if (idx < 0) throw new Error(`${needle} not in text`);
  const before = text.slice(0, idx);
  const line = before.split('\n').length - 1;
  return { line, character: idx - (before.lastIndexOf('\n') + 1) };
}

/** Range of the `nth` occurrence of `needle`. */
export function rangeOf(text: string, needle: string, nth = 0) {
  const start = posOf(text, needle, nth);
  return { start, end: { line: start.line, character: start.character + needle.length } };
}

/** Recompute off: the TrainingConfig value of a recipe that recomputes nothing. */
export const NO_RECOMPUTE: TrainingConfig['recompute'] = { granularity: null, method: null, numLayers: null, modules: [] };

/**
 * A TrainingConfig with Megatron-Core's training defaults (bf16 mixed, distributed optimizer with fp32 gradient
 * reduction, flash attention, no recompute, no dropout, one GPU of everything, 4K tokens) and the test's own values.
 */
export const trainingConfig = (patch: Partial<TrainingConfig> = {}): TrainingConfig => ({
  seq: 4096,
  microBatch: 1,
  tp: 1,
  pp: 1,
  vpp: null,
  cp: 1,
  ep: 1,
  etp: 1,
  sp: false,
  recompute: NO_RECOMPUTE,
  offloadLayers: 0,
  params: 'bf16',
  fp8: null,
  fp4: null,
  quantizedParams: false,
  distributedOptimizer: true,
  gradReduceInFp32: true,
  hiddenDropout: 0,
  attentionDropout: 0,
  profile: 'megatron',
  attention: 'flash',
  ...patch,
});

/**
 * A catalogue model's shape as a training estimate takes it: multi-token-prediction layers only when a recipe trains
 * them (fromRecipe.ts), so they are left out here.
 */
export function modelShape(id: string): ModelShape {
  const e = catalogueEntry(id);
  if (!e) throw new Error(`no catalogue model ${id}`);
  const { mtpLayers: _mtp, ...shape } = e.shape;
  return shape;
}

/** Mean and largest absolute value of relative errors (the accuracy summaries of the measured-peak tests). */
export const meanAbs = (xs: number[]) => xs.reduce((a, x) => a + Math.abs(x), 0) / xs.length;
export const worstAbs = (xs: number[]) => Math.max(...xs.map(Math.abs));

/** A fixture checkpoint under test/fixtures/hf/<org>--<name>/ read by fromHfConfig (config.json and, when present, hf_quant_config.json). */
export function readHfFixture(name: string): ConfigShape {
  const dir = join(REPO, 'test', 'fixtures', 'hf', name);
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as unknown;
  const q = join(dir, 'hf_quant_config.json');
  const quant = existsSync(q) ? (JSON.parse(readFileSync(q, 'utf8')) as unknown) : undefined;
  const r = fromHfConfig(config, quant, name);
  if (!r.ok) throw new Error(`${name}: ${r.reason}`);
  return r;
}
