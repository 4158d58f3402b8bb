// Node-side file access for model resolution: reads config.json files from local paths and the Hugging Face cache.
// Local files only — never the network. Every failure (missing, unreadable, too large) reads as "absent".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { analyze, type Analysis, type AnalysisSettings } from '../core/analysis.js';
import { readModeline } from '../core/modeline.js';
import { hubCacheDirs, type ModelFileSystem } from '../core/models/files.js';
import { resolveModelRef, type ModelRefOrigin, type ModelResolution } from '../core/models/resolve.js';

/** config.json and hf_quant_config.json are kilobytes; anything larger is not one (bounded reads). */
const MAX_BYTES = 8 * 1024 * 1024;

export interface NodeModelFilesOptions {
  /** Environment for HF_HUB_CACHE / HUGGINGFACE_HUB_CACHE / HF_HOME / XDG_CACHE_HOME (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home directory (default: os.homedir()). */
  home?: string;
  /** Directory relative references resolve against (default: process.cwd()). */
  cwd?: string;
  maxBytes?: number;
}

/** The model file system backed by node:fs. */
export function nodeModelFiles(opts: NodeModelFilesOptions = {}): ModelFileSystem {
  const home = opts.home ?? safe(() => homedir(), '');
  const maxBytes = opts.maxBytes ?? MAX_BYTES;
  return {
    readText(path) {
      return safe(() => (statSync(path).isFile() && statSync(path).size <= maxBytes ? readFileSync(path, 'utf8') : undefined), undefined);
    },
    isDirectory(path) {
      return safe(() => statSync(path).isDirectory(), false);
    },
    listDir(path) {
      return safe(() => readdirSync(path), undefined);
    },
    hubCacheDirs: hubCacheDirs(opts.env ?? process.env, home),
    cwd: opts.cwd ?? process.cwd(),
    home,
  };
}

/**
 * A file system whose answers are kept for `ttlMs`: an editor asks for the same config.json on every keystroke, and a
 * checkpoint written meanwhile is seen after at most `ttlMs`.
 */
export function memoModelFiles(fs: ModelFileSystem, ttlMs = 5000, now: () => number = Date.now): ModelFileSystem {
  const cache = new Map<string, { at: number; value: unknown }>();
  const memo =
    <T>(kind: string, f: (p: string) => T) =>
    (p: string): T => {
      const key = `${kind}\u0000${p}`;
      const hit = cache.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.value as T;
      const value = f(p);
      if (cache.size > 512) cache.clear();
      cache.set(key, { at: now(), value });
      return value;
    };
  return {
    ...fs,
    readText: memo('read', (p) => fs.readText(p)),
    isDirectory: memo('dir', (p) => fs.isDirectory(p)),
    listDir: memo('list', (p) => fs.listDir(p)),
  };
}

/** Resolve `--model`, the `recipeLens.model` setting or a modeline value against the catalogue and the local files. */
export function resolveModelOnDisk(ref: string, origin: ModelRefOrigin = 'setting', opts: NodeModelFilesOptions = {}): ModelResolution {
  return resolveModelRef(ref, nodeModelFiles(opts), origin);
}

/**
 * Reads what the model references need from local files and returns the settings with them (`settings.models`), so
 * that the pure analysis sees them. Only readings that differ from the catalogue's answer are kept (a config.json on
 * disk, a file that is there but broken, the paths searched for an explicit choice): the rest the core resolves itself,
 * and the settings fingerprint stays the same.
 */
export function withModelFiles(
  settings: AnalysisSettings,
  refs: readonly { ref: string; origin: ModelRefOrigin }[],
  fs: ModelFileSystem,
): AnalysisSettings {
  const models: Record<string, ModelResolution> = { ...(settings.models ?? {}) };
  for (const { ref, origin } of refs) {
    const key = ref.trim();
    if (!key || Object.hasOwn(models, key)) continue;
    const local = resolveModelRef(key, fs, origin);
    const keep =
      local.kind === 'config' ||
      local.kind === 'invalid' ||
      (local.kind === 'not-found' && local.searched.length > 0 && (origin === 'cli' || origin === 'modeline' || origin === 'setting'));
    if (keep) models[key] = local;
  }
  return Object.keys(models).length ? { ...settings, models } : settings;
}

/** The model references a text's settings and modeline name explicitly (read before any analysis). */
export function explicitModelRefs(text: string, settings: AnalysisSettings): { ref: string; origin: ModelRefOrigin }[] {
  const out: { ref: string; origin: ModelRefOrigin }[] = [];
  const ml = readModeline(text)?.values.model;
  if (ml) out.push({ ref: ml, origin: 'modeline' });
  if (settings.explicitModel) out.push({ ref: settings.explicitModel, origin: 'cli' });
  if (settings.model) out.push({ ref: settings.model, origin: 'setting' });
  return out;
}

/**
 * The analysis of a text with its model references read from local files: the explicit ones first; then, if the
 * analysis asks for references a local file could answer (`Analysis.modelRequests`: a `model:` path, an HF id the
 * catalogue lacks) and one of them is found on disk, the text is analysed again with it. The CLI, the extension and the
 * language server call this one function, so they agree.
 */
export function analyzeWithModelFiles(text: string, settings: AnalysisSettings, fs: ModelFileSystem = nodeModelFiles()): Analysis {
  const first = withModelFiles(settings, explicitModelRefs(text, settings), fs);
  const a = analyze(text, first);
  if (!a.modelRequests.length) return a;
  const second = withModelFiles(
    first,
    a.modelRequests.map((ref) => ({ ref, origin: 'file' as const })),
    fs,
  );
  return second === first || Object.keys(second.models ?? {}).length === Object.keys(first.models ?? {}).length ? a : analyze(text, second);
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
