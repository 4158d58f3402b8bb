// The file access model resolution needs, as an interface the host implements (src/host/modelFiles.ts does it with
// node:fs), plus the pure path and Hugging Face cache rules. Local files only: nothing here reaches the network.

/** What model resolution may read. Every method answers `undefined`/`false` for a missing or unreadable path; none throws. */
export interface ModelFileSystem {
  /** A file's text, or undefined when it is missing, unreadable or too large. */
  readText(path: string): string | undefined;
  isDirectory(path: string): boolean;
  /** The names in a directory, or undefined when it is not one. */
  listDir(path: string): string[] | undefined;
  /** Hugging Face hub cache directories, in search order (see `hubCacheDirs`). */
  hubCacheDirs: readonly string[];
  /** Directory relative references resolve against (the document's folder, or the working directory). */
  cwd?: string;
  /** Home directory, for `~/…`. */
  home?: string;
}

/**
 * The Hugging Face hub cache directories, as huggingface_hub computes them (src/huggingface_hub/constants.py):
 * `HF_HUB_CACHE`, else the legacy `HUGGINGFACE_HUB_CACHE`, else `HF_HOME/hub`, with `HF_HOME` defaulting to
 * `$XDG_CACHE_HOME/huggingface` and that to `~/.cache/huggingface`. The default `~/.cache/huggingface/hub` follows when
 * a variable points elsewhere, so a cache filled before the variable was set is still found. `~` is expanded.
 */
export function hubCacheDirs(env: Readonly<Record<string, string | undefined>>, home: string): string[] {
  const v = (k: string) => (env[k]?.trim() ? expandHome(env[k]!.trim(), home) : undefined);
  const hfHome = v('HF_HOME') ?? joinPath(v('XDG_CACHE_HOME') ?? joinPath(home, '.cache'), 'huggingface');
  const effective = v('HF_HUB_CACHE') ?? v('HUGGINGFACE_HUB_CACHE') ?? joinPath(hfHome, 'hub');
  const fallback = joinPath(home, '.cache', 'huggingface', 'hub');
  return effective === fallback ? [effective] : [effective, fallback];
}

/** `org/name` → the cache folder `models--org--name` (huggingface_hub `repo_folder_name`). */
export const repoFolderName = (hfId: string) => `models--${hfId.split('/').join('--')}`;

/** A cache folder name back to its HF id (`models--Qwen--Qwen3-8B` → `Qwen/Qwen3-8B`), or undefined. */
export function hfIdFromRepoFolder(name: string): string | undefined {
  const m = /^models--(.+)$/.exec(name);
  return m ? m[1]!.split('--').join('/') : undefined;
}

export const isAbsolutePath = (p: string) => /^(\/|\\\\|[A-Za-z]:[\\/])/.test(p);

/** `~` and `~/x` under `home`. */
export function expandHome(p: string, home: string | undefined): string {
  if (!home) return p;
  if (p === '~') return home;
  return /^~[\\/]/.test(p) ? joinPath(home, p.slice(2)) : p;
}

/** Join path parts with `/` (Node accepts it on Windows too); an absolute part restarts the path; `.` and `..` fold. */
export function joinPath(...parts: string[]): string {
  let out = '';
  for (const part of parts) {
    if (!part) continue;
    if (isAbsolutePath(part) || !out) out = part;
    else out = `${out.replace(/[\\/]+$/, '')}/${part.replace(/^[\\/]+/, '')}`;
  }
  return normalizePath(out);
}

/** Fold `.` and `name/..` components; a leading `..` of a relative path stays. */
export function normalizePath(p: string): string {
  const root = /^(\/|\\\\|[A-Za-z]:[\\/])/.exec(p)?.[0] ?? '';
  const out: string[] = [];
  for (const seg of p.slice(root.length).split(/[\\/]+/)) {
    if (!seg || seg === '.') continue;
    if (seg === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (seg !== '..' || !root) out.push(seg);
  }
  return root + out.join('/') || '.';
}

/** The last component of a path, `/` or `\\` separated. */
export function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}

/** The path without its last component. */
export function dirName(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i <= 0 ? (i === 0 ? p.slice(0, 1) : '.') : p.slice(0, i);
}

/** Path components, ignoring empty ones. */
export const pathSegments = (p: string) => p.split(/[\\/]+/).filter(Boolean);
