// The settings of one document, as any LSP client can give them: the `recipeLens` section of workspace/configuration
// (scoped to the document), over the settings of workspace/didChangeConfiguration, over initializationOptions, over
// the defaults (package.json's recipeLens.* defaults). Each layer is read key by key: a value of the wrong type is
// dropped with a warning and the layer below applies.
import { fileURLToPath } from 'node:url';
import { minimatch } from 'minimatch';
import type { AnalysisSettings } from '../core/analysis.js';
import { FORMAT_IDS, isFormatId, type FormatId } from '../core/types.js';
import { FRAMEWORKS, isFramework, isRelease, type Versions } from '../core/versions.js';

export interface ServerSettings {
  enable: boolean;
  /** Glob → format (or 'none'); the first glob that matches the document's path wins. */
  formatAssociations: Record<string, FormatId | 'none'>;
  worldSize: number | null;
  debounceMs: number;
  maxFileSizeKb: number;
  gpu: string;
  model: string;
  profile: 'megatron' | 'hf';
  attention: 'flash' | 'eager';
  memoryWarnings: boolean;
  /** Target release per framework (`{ "nemo": "2.3", "trtllm": "1.0" }`); a file's modeline wins. */
  versions: Versions;
}

/** package.json's defaults (contributes.configuration), so every editor starts where VS Code does. */
export const DEFAULT_SETTINGS: ServerSettings = {
  enable: true,
  formatAssociations: {},
  worldSize: null,
  debounceMs: 150,
  maxFileSizeKb: 5120,
  // No GPU chosen: the core's default (H100) unless the file's path names one (upstream config databases do).
  gpu: '',
  model: '',
  profile: 'megatron',
  attention: 'flash',
  memoryWarnings: true,
  versions: {},
};

export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof ServerSettings)[];

const isInt = (x: unknown, min: number, max: number): x is number => typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;
const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Each key's check; the message says what the key must be. */
const CHECKS: { [K in keyof ServerSettings]: [(x: unknown) => boolean, string] } = {
  enable: [(x) => typeof x === 'boolean', 'true or false'],
  formatAssociations: [
    (x) =>
      isPlain(x) &&
      Object.keys(x).length <= 256 &&
      Object.entries(x).every(([g, f]) => g.length <= 1024 && (f === 'none' || isFormatId(f))),
    `an object of glob → ${FORMAT_IDS.join(' | ')} | none (at most 256 globs)`,
  ],
  worldSize: [(x) => x === null || isInt(x, 1, 1 << 20), 'an integer ≥ 1, or null'],
  debounceMs: [(x) => isInt(x, 0, 2000), 'an integer in 0…2000'],
  maxFileSizeKb: [(x) => isInt(x, 16, 1 << 20), 'an integer in 16…1048576'],
  gpu: [(x) => typeof x === 'string' && x.length <= 64, 'a GPU id such as h100 or custom:96'],
  model: [(x) => typeof x === 'string' && x.length <= 256, 'a model preset id such as llama3-70b'],
  profile: [(x) => x === 'megatron' || x === 'hf', 'megatron or hf'],
  attention: [(x) => x === 'flash' || x === 'eager', 'flash or eager'],
  memoryWarnings: [(x) => typeof x === 'boolean', 'true or false'],
  versions: [
    (x) => isPlain(x) && Object.entries(x).every(([k, v]) => isFramework(k) && typeof v === 'string' && isRelease(v)),
    `an object of framework (${FRAMEWORKS.join(', ')}) → release such as "2.3"`,
  ],
};

/**
 * `raw` over `base`: every key of `raw` that is a setting and passes its check replaces base's. Unknown keys are
 * ignored (clients send whole sections); a known key with a bad value is reported through `warn`.
 */
export function overlay(base: ServerSettings, raw: unknown, where: string, warn: (msg: string) => void): ServerSettings {
  if (raw === null || raw === undefined) return base;
  if (!isPlain(raw)) {
    warn(`${where}: recipeLens settings must be an object; ignored`);
    return base;
  }
  const out: ServerSettings = { ...base };
  for (const key of SETTING_KEYS) {
    if (!(key in raw) || raw[key] === undefined) continue;
    const [ok, what] = CHECKS[key];
    if (ok(raw[key])) (out as unknown as Record<string, unknown>)[key] = raw[key];
    else warn(`${where}: recipeLens.${key} must be ${what}; ${JSON.stringify(raw[key])?.slice(0, 60)} ignored`);
  }
  return out;
}

/**
 * The recipeLens settings inside a settings object as clients send them: `{ recipeLens: {...} }` (VS Code, Helix,
 * didChangeConfiguration) or the settings themselves (initializationOptions written flat in an editor's config).
 */
export function recipeLensSection(raw: unknown): unknown {
  if (!isPlain(raw)) return raw;
  if (isPlain(raw.recipeLens)) return raw.recipeLens;
  if (isPlain(raw.settings)) return recipeLensSection(raw.settings);
  return raw;
}

/** A document URI as a path for glob matching: the file system path of file: URIs, the URI's path otherwise. */
export function uriPath(uri: string): string {
  try {
    if (uri.startsWith('file:')) return fileURLToPath(uri).replace(/\\/g, '/');
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

/**
 * The format a glob association forces on `uri`: a glob is matched against the document's absolute path (as VS Code
 * matches a glob that starts with two stars), then against its path relative to each workspace folder (`serve/*.yaml`).
 */
export function forcedFormatFor(
  uri: string,
  associations: ServerSettings['formatAssociations'],
  folders: readonly string[],
): FormatId | 'none' | undefined {
  const path = uriPath(uri);
  const relative = folders
    .map((f) => uriPath(f).replace(/\/?$/, '/'))
    .filter((f) => path.startsWith(f))
    .map((f) => path.slice(f.length));
  for (const [glob, format] of Object.entries(associations)) {
    try {
      if (minimatch(path, glob, { dot: true }) || relative.some((r) => minimatch(r, glob, { dot: true }))) return format;
    } catch {
      // An unreadable glob matches nothing.
    }
  }
  return undefined;
}

/** What the analysis of a document depends on (src/vscode/settings.ts made the same object: equal fingerprints). */
export function analysisSettingsOf(s: ServerSettings, uri: string, folders: readonly string[]): AnalysisSettings {
  return {
    gpu: s.gpu || undefined,
    model: s.model || undefined,
    profile: s.profile,
    attention: s.attention,
    forcedFormat: forcedFormatFor(uri, s.formatAssociations, folders),
    worldSize: s.worldSize ?? undefined,
    maxLength: s.maxFileSizeKb * 1024,
    memoryWarnings: s.memoryWarnings,
    versions: Object.keys(s.versions).length ? s.versions : undefined,
    // NeMo-RL `defaults:` parents resolve against the document's own path (the engine adds the file reader); model
    // and GPU names in the path count too.
    documentPath: uriPath(uri),
  };
}
