// One analysis per document version and settings: text → parse → detect → normalize → schema → rules →
// estimate, computed once and shared by diagnostics, hover, completion, the status bar, the panel and the CLI.
// Nothing else parses or validates; views read an Analysis and never recompute it.
import { loadChain, normalizePath, type ChainSource, type DocChain } from './defaultsChain.js';
import { editTarget, parseFile, toData, type ParsedFile, type RecipeDoc } from './document.js';
import type { TrainingField } from './formats/fields.js';
import type { Attention, Profile } from './memory/config.js';
import { memoryFindings } from './memory/diagnostics.js';
import { estimateRecipe, type DocEstimate, type EstimateOptions } from './memory/estimate.js';
import { readRecipe, type Recipe } from './recipe.js';
import { checkRecipe } from './rules/check.js';
import { schemaFindings } from './schemaCheck.js';
import { mapGet, plainValue } from './tree.js';
import { FORMAT_IDS, type Diagnostic, type Finding, type FormatId } from './types.js';
import { sortFindings, toDiagnostics } from './diagnostics.js';
import { targetRelease, type Versions } from './versions.js';
import { needsFiles, type ResolvedModels } from './models/select.js';

/** Everything outside the text that changes an analysis. Two analyses with equal settings and text are equal. */
export interface AnalysisSettings {
  /** Format forced by a setting (glob association); a modeline wins over it. */
  forcedFormat?: FormatId | 'none';
  /** World size for files that state none (setting, --world-size). */
  worldSize?: number;
  /** Files longer than this (UTF-16 code units) are not parsed. */
  maxLength?: number;
  /** The recipeLens.gpu setting: the GPU when no modeline, --gpu or path names one. */
  gpu?: string;
  /** The recipeLens.model setting: the model when neither the file nor its path names one. */
  model?: string;
  /** The CLI's --model and --gpu: they beat what the file and its path name; a modeline beats them. */
  explicitModel?: string;
  explicitGpu?: string;
  /**
   * Model references the host resolved against local files (a config.json, the Hugging Face cache), keyed by the
   * reference as written; the core reads no files (src/host/modelFiles.ts fills this). Fingerprinted by content.
   */
  models?: ResolvedModels;
  profile?: Profile;
  attention?: Attention;
  /** RL-MEM findings (the estimate is computed either way). Default true. */
  memoryWarnings?: boolean;
  /** Target release per framework (recipeLens.versions, --versions); a file's modeline wins. */
  versions?: Versions;
  /** 'yaml' skips the fast block-YAML path (tests comparing the two parsers). */
  parser?: 'auto' | 'yaml';
  /**
   * The document's own path (absolute, `/` or `\\` separated; hosts pass the file's path): NeMo-RL `defaults:` parents
   * resolve relative to it, and upstream config databases name model and GPU in it.
   */
  documentPath?: string;
  /**
   * Reads another file for the core (a NeMo-RL `defaults:` parent): its text, or undefined when it is missing or
   * unreadable. The host does the I/O; the analysis records what it read (Analysis.sources) and the store re-analyses
   * when a read file changes.
   */
  readFile?: (path: string) => string | undefined;
}

/** A stable key of the settings: an analysis is reused only for the same text version and this key. */
export function settingsFingerprint(s: AnalysisSettings): string {
  const keys = (Object.keys(s) as (keyof AnalysisSettings)[]).filter((k) => s[k] !== undefined).sort();
  // A reader is a function: its presence counts, what it reads is checked against Analysis.sources.
  return JSON.stringify(keys.map((k) => [k, k === 'models' ? modelsDigest(s.models!) : typeof s[k] === 'function' ? true : s[k]]));
}

/** A short digest of the resolved models: the same references and contents give the same key. */
function modelsDigest(models: ResolvedModels): string[] {
  return Object.keys(models)
    .sort()
    .map((k) => `${k}#${fnv1a(JSON.stringify(models[k]))}`);
}

/** FNV-1a, 32 bits, hex: a stable content key (not a security hash). */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

export interface DocAnalysis {
  doc: RecipeDoc;
  /** The normalized recipe (recognised formats that carry values). */
  recipe?: Recipe;
  /** The memory estimate (training), KV pool (serving) or retention coverage; why not, otherwise. */
  estimate?: DocEstimate;
  findings: Finding[];
  /** NeMo-RL: the document merged with its `defaults:` parents (the recipe is read from the merged view). */
  chain?: DocChain;
}

export interface Analysis {
  text: string;
  fingerprint: string;
  settings: AnalysisSettings;
  parsed: ParsedFile;
  modeline: Record<string, string>;
  /** Format of the first recipe document, or null when the file is not a recipe. */
  format: FormatId | null;
  /**
   * Model references the estimate tried that a host with file access could resolve differently (paths, HF ids the
   * catalogue lacks) and that `settings.models` does not hold yet: the host may read them and analyze again.
   */
  modelRequests: string[];
  docs: DocAnalysis[];
  /** Every finding of the file, sorted by position. */
  findings: Finding[];
  /** Other files the analysis read (NeMo-RL `defaults:` parents) and what it read; a change in one makes it stale. */
  sources: ChainSource[];
  /** The findings with LSP positions. */
  readonly diagnostics: Diagnostic[];
  /** The first recipe document (what the status bar, the panel and `estimate` show). */
  readonly main: DocAnalysis | undefined;
}

/** Formats with a memory estimate: every recipe format but the Launcher's main config and KV retention configs. */
const TRAINING_OR_SERVING = new Set<FormatId>(FORMAT_IDS.filter((f) => f !== 'nemo-launcher-main' && f !== 'kv-retention'));

/** Counts analyses, for tests that prove one keystroke computes one analysis whatever listens. */
export const analysisStats = { computed: 0 };

export function analyze(text: string, settings: AnalysisSettings = {}, previous?: Analysis): Analysis {
  analysisStats.computed++;
  const parsed = parseFile(text, { maxLength: settings.maxLength, forcedFormat: settings.forcedFormat, parser: settings.parser });
  const modeline = parsed.modeline?.values ?? {};
  const findings: Finding[] = modelineFindings(parsed);
  const docs: DocAnalysis[] = [];
  let format: FormatId | null;
  if (parsed.tooLarge) {
    format = tooLargeFormat(text, settings, parsed);
    if (format) findings.push(sizeFinding(text, settings));
  } else {
    const forced =
      (parsed.modeline?.format ?? settings.forcedFormat) !== undefined && (parsed.modeline?.format ?? settings.forcedFormat) !== 'none';
    const estimateOptions = estimateOptionsFrom(settings);
    for (const doc of parsed.docs) {
      // YAML syntax errors matter in any file Recipe Lens validates; in other files it stays silent.
      if (!doc.format && !forced) continue;
      const d = analyzeDoc(doc, parsed, modeline, settings, estimateOptions, previous);
      docs.push(d);
      findings.push(...d.findings);
    }
    format = parsed.docs.find((d) => d.format)?.format ?? null;
  }
  sortFindings(findings);
  let diagnostics: Diagnostic[] | undefined;
  const known = settings.models ?? {};
  const modelRequests = [
    ...new Set(docs.flatMap((d) => (d.estimate && 'modelRefs' in d.estimate ? (d.estimate.modelRefs ?? []) : []))),
  ].filter((r) => needsFiles(r) && !Object.hasOwn(known, r.trim()));
  return {
    text,
    fingerprint: settingsFingerprint(settings),
    settings,
    parsed,
    modeline,
    format,
    modelRequests,
    docs,
    findings,
    sources: docs.flatMap((d) => d.chain?.sources ?? []),
    get diagnostics() {
      return (diagnostics ??= toDiagnostics(parsed, findings));
    },
    get main() {
      return docs.find((d) => d.doc.format);
    },
  };
}

/** The estimate options an analysis's settings give. */
export function estimateOptionsFrom(settings: AnalysisSettings): EstimateOptions {
  const out: EstimateOptions = {
    gpu: settings.gpu,
    model: settings.model,
    explicitModel: settings.explicitModel,
    explicitGpu: settings.explicitGpu,
    documentPath: settings.documentPath,
    models: settings.models,
    profile: settings.profile,
    attention: settings.attention,
    worldSize: settings.worldSize,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as EstimateOptions;
}

function analyzeDoc(
  doc: RecipeDoc,
  parsed: ParsedFile,
  modeline: Record<string, string>,
  settings: AnalysisSettings,
  opts: EstimateOptions,
  previous?: Analysis,
): DocAnalysis {
  const text = parsed.text;
  const findings = syntaxFindings(doc);
  const format = doc.format;
  // A document with syntax errors, or cut at a limit, is partial: schema and rule findings on it would be noise.
  if (!format || !doc.root || doc.truncated || doc.problems.some((p) => p.severity === 'error')) return { doc, findings };
  // NeMo-RL runs the document merged with its `defaults:` parents: the recipe and the schema read that view, and
  // interpolations in the document resolve against it; findings stay on the document's own keys.
  const chain =
    format === 'nemo-rl'
      ? loadChain(doc.root, parsed.lines, { path: settings.documentPath, readFile: settings.readFile, parser: settings.parser })
      : undefined;
  let view = doc;
  if (chain) {
    findings.push(...chain.findings);
    doc.resolve = { ...doc.resolve, root: chain.root };
    view = { ...doc, root: chain.root, resolve: doc.resolve, chain };
  }
  findings.push(
    ...schemaFindings(doc, format, {
      target: targetRelease(format, modeline, settings.versions),
      ...(chain ? { view: { data: mergedData(doc, view), partial: !chain.complete } } : {}),
    }),
  );
  const recipe = readRecipe(view, { worldSize: settings.worldSize, modeline, versions: settings.versions });
  if (!recipe) return { doc, findings, ...(chain ? { chain } : {}) };
  const before = previous?.docs.find((d) => d.doc.index === doc.index)?.recipe;
  const target = editTarget(text, doc);
  findings.push(...checkRecipe(recipe, { text: target.text, docIndex: target.doc, lastEdited: lastEdited(before, recipe) }));
  const estimate = estimateRecipe(recipe, modeline, opts);
  // The memory check only makes sense on a configuration the launcher would accept.
  if (settings.memoryWarnings !== false && TRAINING_OR_SERVING.has(format) && !findings.some((f) => f.severity === 'error'))
    findings.push(...memoryFindings(recipe, estimate));
  return { doc, recipe, estimate, findings, ...(chain ? { chain } : {}) };
}

/** The merged config as the schema sees it, with the document's own `defaults:` (which load_config pops after reading). */
function mergedData(doc: RecipeDoc, view: RecipeDoc): unknown {
  const data = toData(view);
  const own = mapGet(doc.root, 'defaults');
  return own && data && typeof data === 'object' && !Array.isArray(data) ? { defaults: plainValue(own.value), ...data } : data;
}

/** Training fields whose value differs from the previous version's: what the user just edited. */
function lastEdited(before: Recipe | undefined, after: Recipe): TrainingField[] | undefined {
  if (before?.kind !== 'training' || after.kind !== 'training') return undefined;
  const out: TrainingField[] = [];
  for (const k of new Set([...Object.keys(before.file), ...Object.keys(after.file)]) as Set<TrainingField>)
    if (JSON.stringify(before.file[k]) !== JSON.stringify(after.file[k])) out.push(k);
  return out.length ? out : undefined;
}

function syntaxFindings(doc: RecipeDoc): Finding[] {
  const out: Finding[] = doc.problems.map((p) => ({ code: p.code, severity: p.severity, message: p.message, path: '', span: p.span }));
  if (doc.truncated)
    out.push({
      code: 'RL-LIMIT',
      severity: 'error',
      message:
        doc.truncated.reason === 'aliases'
          ? 'too many alias expansions (possible "billion laughs" alias bomb); the rest of the document is not read'
          : 'nesting is too deep; the rest of the document is not read',
      path: '',
      span: doc.truncated.span,
    });
  for (const d of doc.duplicateKeys)
    out.push({
      code: 'RL-DUPLICATE-KEY',
      severity: 'warning',
      message: `duplicate key \`${d.key}\`: the later value wins in PyYAML, OmegaConf rejects the file`,
      path: '',
      span: d.span,
      related: [{ path: '', span: d.first, message: `first \`${d.key}\`` }],
    });
  return out;
}

function modelineFindings(parsed: ParsedFile): Finding[] {
  const ml = parsed.modeline;
  const out: Finding[] = [];
  if (ml?.badFormat)
    out.push({
      code: 'RL-MODELINE',
      severity: 'warning',
      message: `unknown format "${ml.badFormat}" in the recipe-lens modeline; use one of ${FORMAT_IDS.join(', ')}, none`,
      path: '',
      span: ml.span,
    });
  if (ml?.unknown.length)
    out.push({
      code: 'RL-MODELINE',
      severity: 'warning',
      message: `unknown recipe-lens modeline setting ${ml.unknown.map((k) => `"${k}"`).join(', ')}`,
      path: '',
      span: ml.span,
    });
  return out;
}

const HEAD = 64 * 1024;

/** A file over the size limit: only files whose head looks like a recipe get a word about it. */
function tooLargeFormat(text: string, settings: AnalysisSettings, parsed: ParsedFile): FormatId | null {
  const forced = parsed.modeline?.format ?? settings.forcedFormat;
  if (forced && forced !== 'none') return forced;
  if (forced === 'none') return null;
  const head = parseFile(text.slice(0, HEAD).replace(/\n[^\n]*$/, ''), { maxLength: HEAD });
  return head.docs.find((d) => d.format)?.format ?? null;
}

function sizeFinding(text: string, settings: AnalysisSettings): Finding {
  const mb = (n: number) => (n / 1048576).toFixed(1);
  const nl = text.indexOf('\n');
  return {
    code: 'RL-SIZE',
    severity: 'info',
    message: `file is ${mb(text.length)} MB, over the ${mb(settings.maxLength ?? 5 * 1048576)} MB limit: not validated (recipeLens.maxFileSizeKb)`,
    path: '',
    span: [0, Math.min(text.length, nl < 0 ? text.length : nl)],
  };
}

/** Whether every file an analysis read still reads the same (a `defaults:` parent edited or saved makes it stale). */
export function sourcesCurrent(a: Analysis, settings: AnalysisSettings): boolean {
  return a.sources.every((src) => (settings.readFile ? settings.readFile(src.path) : undefined) === src.text);
}

/** Whether an analysis read `path` (hosts re-validate the documents whose parent changed). */
export function readsFile(a: Analysis, path: string): boolean {
  const p = normalizePath(path);
  return a.sources.some((s) => s.path === p);
}

/**
 * Analyses by document, reused while the version and the settings fingerprint are the same. Every consumer asks
 * the store; the first to ask for a version computes it, the others get the same object.
 */
export class AnalysisStore {
  private readonly byUri = new Map<string, { version: number; analysis: Analysis }>();

  get(uri: string, version: number, text: () => string, settings: AnalysisSettings): Analysis {
    const fp = settingsFingerprint(settings);
    const hit = this.byUri.get(uri);
    if (hit && hit.version === version && hit.analysis.fingerprint === fp && sourcesCurrent(hit.analysis, settings)) return hit.analysis;
    const analysis = analyze(text(), settings, hit?.analysis);
    this.byUri.set(uri, { version, analysis });
    return analysis;
  }

  /** The analysis of `uri` if one is current for `version` (never computes). */
  peek(uri: string, version?: number): Analysis | undefined {
    const hit = this.byUri.get(uri);
    return hit && (version === undefined || hit.version === version) ? hit.analysis : undefined;
  }

  delete(uri: string): void {
    this.byUri.delete(uri);
  }

  clear(): void {
    this.byUri.clear();
  }
}
