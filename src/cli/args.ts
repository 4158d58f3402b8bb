// Command-line options shared by every recipe-lens command, parsed with Node's util.parseArgs.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { AnalysisSettings } from '../core/analysis.js';
import { findGpu, GPUS } from '../core/memory/gpus.js';
import type { ModelResolution } from '../core/models/resolve.js';
import { resolveModelOnDisk } from '../host/modelFiles.js';
import { FRAMEWORKS, parseVersions, type Versions } from '../core/versions.js';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses `argv` against `options`; unknown options, missing values and stray values are usage errors. */
export function parse<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
      throw new UsageError((e as Error).message.replace(/\.? To specify.*$/s, ''));
    throw e;
  }
}

export function intArg(flag: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(v) || v < min)
    throw new UsageError(`--${flag} must be an integer ≥ ${min}, got ${raw}`);
  return v;
}

export function gpuArg(v: string | undefined): string | undefined {
  if (v !== undefined && !findGpu(v)) throw new UsageError(`unknown GPU ${v} (${GPUS.map((g) => g.id).join(', ')}, or custom:<GiB>)`);
  return v;
}

/** `--model`: a catalogue name, an HF id, or a path to a config.json or its folder, resolved here against local files. */
export interface ModelArg {
  ref: string;
  resolution: Extract<ModelResolution, { kind: 'catalogue' | 'config' }>;
}

/** Resolves `--model`; a name that fits several models, one that nothing matches, or a broken config.json is a usage error. */
export function modelArg(v: string | undefined): ModelArg | undefined {
  if (v === undefined) return undefined;
  const r = resolveModelOnDisk(v, 'cli');
  if (r.kind === 'catalogue' || r.kind === 'config') return { ref: v.trim(), resolution: r };
  throw new UsageError(`--model ${v}: ${r.message}`);
}

/** The analysis settings a resolved --model gives: it beats what the file names, and the host's reading travels with it. */
export function modelSettings(m: ModelArg | undefined): Pick<AnalysisSettings, 'explicitModel' | 'models'> {
  return m ? { explicitModel: m.ref, models: { [m.ref]: m.resolution } } : {};
}

/** `--versions nemo=2.3,trtllm=1.1`: the releases files are checked against. */
export function versionsArg(v: string | undefined): Versions | undefined {
  if (v === undefined) return undefined;
  const { versions, bad } = parseVersions(v);
  if (bad.length)
    throw new UsageError(
      `--versions takes FRAMEWORK=RELEASE pairs (${FRAMEWORKS.join(', ')}), e.g. nemo=2.3,trtllm=1.1; got ${bad.join(', ')}`,
    );
  return versions;
}

export function oneOf<T extends string>(flag: string, v: string | undefined, allowed: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${flag} is ${allowed.join(', ')}; got ${v}`);
  return v as T;
}
