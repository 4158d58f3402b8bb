// Command-line argument walking shared by every recipe-lens command.
import { findGpu, GPUS } from '../core/memory/gpus.js';
import { findPreset, MODEL_PRESETS } from '../core/memory/presets.js';

export class UsageError extends Error {}

/**
 * Walks `--flag value`, `--flag=value` and positional arguments (everything after `--` is positional).
 * `onFlag` handles one option and returns false when it does not know it; the positionals are returned.
 */
export function walkArgs(argv: readonly string[], onFlag: (flag: string, value: () => string) => boolean): string[] {
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : undefined;
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (!onFlag(flag, value)) throw new UsageError(`unknown option ${a}`);
  }
  return positional;
}

export function intArg(flag: string, raw: string, min: number): number {
  const v = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(v) || v < min)
    throw new UsageError(`${flag} must be an integer ≥ ${min}, got ${raw}`);
  return v;
}

export function gpuArg(v: string): string {
  if (!findGpu(v)) throw new UsageError(`unknown GPU ${v} (${GPUS.map((g) => g.id).join(', ')}, or custom:<GiB>)`);
  return v;
}

export function modelArg(v: string): string {
  const id = findPreset(v);
  if (!id) throw new UsageError(`unknown model preset ${v} (${Object.keys(MODEL_PRESETS).join(', ')})`);
  return id;
}
