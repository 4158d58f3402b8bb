// What the named TensorRT-LLM release makes of a key, for the schema findings of the TensorRT-LLM formats. The schemas
// (scripts/trtllm-schema/generate.py) list the releases they were read from on the root (`x-releases`) and on each
// key the releases that have it; keys and values that only older releases accept come from the overlay with
// `x-releases: []` and `x-legacyValues`. pydantic's `extra="forbid"` models reject every other key at launch.
//
// Severity (versions.ts): with a release named that the schema was read from, what that release rejects inside a
// strict nested model is an error. With none named, a key every release the schema knows rejects is an error only
// when the schema knows more than one release: read from a single release, it says nothing of the others users run
// (an older model may have ignored the key), so the finding is a warning that names the release it was checked
// against. Anything that hinges on a release the schema was not read from is a warning that says so. The top level of an LlmArgs (an options
// file, a disaggregated pool, a benchmark's worker_config.gen/ctx) also takes trtllm-serve's CLI option names
// (`x-aliases` there), so an unknown key at that level stays a warning.
import { isServingFormat } from './formats/index.js';
import { SCHEMAS, type JsonSchema, type Located } from './schemaNav.js';
import { compareReleases, keyRelease, schemaReleases } from './trtllmReleases.js';
import type { FormatId, KeyPath, Severity } from './types.js';
import type { TargetRelease } from './versions.js';

/** The formats these findings apply to: every file whose keys are LlmArgs (formats/index.ts). */
export const isTrtllm = (format: FormatId) => isServingFormat(format);

/** The schema a check reads (the shipped one of the format; a test passes one generated from its fixtures). */
export interface TrtllmSchemas {
  root: JsonSchema;
  /** Sibling schema files by name, for `trtllm-options.schema.json#…` references. */
  others: Record<string, JsonSchema>;
}

export const shipped = (format: FormatId): TrtllmSchemas => ({
  root: SCHEMAS[format],
  others: { 'trtllm-options.schema.json': SCHEMAS['trtllm-options'] },
});

/** The top level of an LlmArgs, where trtllm-serve's CLI option names are taken too (the schema lists them there). */
export const isLlmArgsTop = (locs: readonly Located[]) => locs.some((l) => l.schema['x-aliases'] !== undefined);

/** How the target stands to the releases the schema knows. */
type Standing = 'known' | 'between' | 'outside';
function standing(known: readonly string[], release: string): Standing {
  if (known.includes(release)) return 'known';
  if (known.length >= 2 && compareReleases(release, known[0]!) > 0 && compareReleases(release, known[known.length - 1]!) < 0)
    return 'between';
  return 'outside';
}

const label = (rs: readonly string[]) => rs.map((r) => `TensorRT-LLM ${r}`).join(', ');

/** Severity and closing sentence of an unknown key inside a strict model (`closedNested`) or at an LlmArgs top level. */
export function unknownKeyVerdict(
  parent: readonly Located[],
  target: TargetRelease | undefined,
  schemas: TrtllmSchemas,
): { severity: Severity; note: string } {
  const known = schemaReleases(schemas.root);
  if (isLlmArgsTop(parent)) return { severity: 'warning', note: '' };
  const release = target?.source !== 'default' ? target?.release : undefined;
  if (release !== undefined && standing(known, release) === 'known')
    return { severity: 'error', note: ` (TensorRT-LLM ${release} rejects unknown keys here at launch)` };
  if (release === undefined && known.length >= 2)
    return { severity: 'error', note: ` (${label(known)} reject unknown keys here at launch)` };
  // Read from one release only: the plain warning (the loader rejects unknown keys here).
  if (release === undefined) return { severity: 'warning', note: '' };
  return {
    severity: 'warning',
    note: ` (${label(known)} rejects it at launch; TensorRT-LLM ${release} was not read, so this is a warning)`,
  };
}

export interface ReleaseVerdict {
  severity: Severity;
  message: string;
}

/**
 * What the named target release makes of the key at `path` (a key the schema describes): nothing when the release
 * has it, else a finding that says when it was added or removed. `strictParent`: the key sits in a strict nested
 * model (error) rather than at an LlmArgs top level (warning). No target named: nothing (deprecations report as such).
 */
export function releaseVerdict(
  path: KeyPath,
  keySchemas: readonly JsonSchema[],
  target: TargetRelease | undefined,
  strictParent: boolean,
  schemas: TrtllmSchemas,
): ReleaseVerdict | undefined {
  const release = target?.source !== 'default' ? target?.release : undefined;
  if (release === undefined) return undefined;
  const known = schemaReleases(schemas.root);
  const where = standing(known, release);
  if (where === 'outside') return undefined;
  const key = String(path[path.length - 1]);
  const severity: Severity = strictParent && where === 'known' ? 'error' : 'warning';
  const unread = where === 'known' ? '' : ` (TensorRT-LLM ${release} was not read; ${label(known)} were)`;
  // A legacy key (the overlay's `x-releases: []`): no release the schema was read from has it.
  const legacy = keySchemas.find((s) => Array.isArray(s['x-releases']) && (s['x-releases'] as unknown[]).length === 0);
  if (legacy) {
    const note = typeof legacy['x-deprecatedMessage'] === 'string' ? `: ${legacy['x-deprecatedMessage']}` : '';
    return { severity, message: `\`${key}\` is not accepted by TensorRT-LLM ${release}${note}${unread}` };
  }
  const r = keyRelease(schemas.root, path, release, schemas.others);
  if (r.status === 'added-in')
    return { severity, message: `\`${key}\` is not in TensorRT-LLM ${release}: it was added in TensorRT-LLM ${r.release}${unread}` };
  if (r.status === 'removed-in') {
    const when = r.release ? `removed in TensorRT-LLM ${r.release}` : `last in TensorRT-LLM ${r.lastRelease}`;
    return { severity, message: `\`${key}\` is not in TensorRT-LLM ${release}: it was ${when} (last in ${r.lastRelease})${unread}` };
  }
  return undefined;
}

/** The note of a value only older releases accept (`x-legacyValues` of the schemas at the value), if any. */
export function legacyValueNote(valueSchemas: readonly JsonSchema[], value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  for (const s of valueSchemas) {
    const m = s['x-legacyValues'];
    if (m && typeof m === 'object' && typeof (m as Record<string, unknown>)[value] === 'string')
      return (m as Record<string, string>)[value];
  }
  return undefined;
}

/**
 * A value only older releases accept: with no release named it is accepted (a release accepts it, and nothing deprecated
 * it); with one named, an error where the schema was read from that release, a warning where it falls between two.
 */
export function legacyValueVerdict(
  valueSchemas: readonly JsonSchema[],
  value: unknown,
  target: TargetRelease | undefined,
  schemas: TrtllmSchemas,
): ReleaseVerdict | undefined {
  const note = legacyValueNote(valueSchemas, value);
  const release = target?.source !== 'default' ? target?.release : undefined;
  if (note === undefined || release === undefined) return undefined;
  const where = standing(schemaReleases(schemas.root), release);
  if (where === 'outside') return undefined;
  return { severity: where === 'known' ? 'error' : 'warning', message: `is not accepted by TensorRT-LLM ${release}: ${note}` };
}
