// Node-side file access for model resolution: reads config.json files from local paths and the Hugging Face cache.
// Local files only — never the network. Every failure (missing, unreadable, too large) reads as "absent".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
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

/** Resolve `--model`, the `recipeLens.model` setting or a modeline value against the catalogue and the local files. */
export function resolveModelOnDisk(ref: string, origin: ModelRefOrigin = 'setting', opts: NodeModelFilesOptions = {}): ModelResolution {
  return resolveModelRef(ref, nodeModelFiles(opts), origin);
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
