// `recipe-lens compare LOG RECIPE`: the memory a training log measured, per rank, against the recipe's estimate.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeWithModelFiles } from '../host/modelFiles.js';
import { compareLog, type Comparison } from '../core/memory/logs.js';
import { gpuArg, intArg, modelArg, modelSettings, UsageError, type ModelArg } from './args.js';
import { gib } from '../core/units.js';
import { signedPct } from '../core/panel/compareLog.js';
import { documentPathOf, readSourceFile } from '../host/sourceFiles.js';

export const COMPARE_USAGE = `usage: recipe-lens compare [--gpu NAME] [--model PRESET] [--world-size N] [--profile megatron|hf]
                         [--attention flash|eager] [--tag TAG] [--format text|json] LOG RECIPE

  compare       the peaks a training log measured (Megatron / NeMo "[Rank N] (after K iterations) memory (MB) | …",
                Megatron-Bridge "memory (GB) | mem-max-allocated-gigabytes: …", TensorBoard mem-* scalars) per
                rank and level (allocated, reserved, device; allocated after the step) against RECIPE's estimate, and the
                terms that differ most
  --tag         the TensorBoard scalar of a CSV/JSON export (mem-max-allocated-bytes, …) when its file name lacks it
  --world-size  GPU count when the recipe does not state one (maps ranks to pipeline stages); --gpus is the same
  other options as for estimate

exit status: 0 compared, 1 no memory lines in LOG or no training estimate for RECIPE, 2 usage error or unreadable file`;

interface CompareArgs {
  log: string;
  recipe: string;
  gpu?: string;
  model?: ModelArg;
  worldSize?: number;
  profile?: 'megatron' | 'hf';
  attention?: 'flash' | 'eager';
  tag?: string;
  format: 'text' | 'json';
}

function parseCompareArgs(argv: string[]): CompareArgs | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        gpu: { type: 'string' },
        model: { type: 'string' },
        'world-size': { type: 'string' },
        gpus: { type: 'string' },
        profile: { type: 'string' },
        attention: { type: 'string' },
        tag: { type: 'string' },
        format: { type: 'string' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  if (parsed.positionals.length !== 2) throw new UsageError('compare takes LOG and RECIPE');
  const format = v.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`unknown --format ${format} (text or json)`);
  if (v.profile !== undefined && v.profile !== 'megatron' && v.profile !== 'hf') throw new UsageError('--profile is megatron or hf');
  if (v.attention !== undefined && v.attention !== 'flash' && v.attention !== 'eager')
    throw new UsageError('--attention is flash or eager');
  const ws = v['world-size'] ?? v.gpus;
  return {
    log: parsed.positionals[0]!,
    recipe: parsed.positionals[1]!,
    gpu: v.gpu === undefined ? undefined : gpuArg(v.gpu),
    model: v.model === undefined ? undefined : modelArg(v.model),
    worldSize: ws === undefined ? undefined : intArg('world-size', ws, 1),
    profile: v.profile as CompareArgs['profile'],
    attention: v.attention as CompareArgs['attention'],
    tag: v.tag,
    format,
  };
}

const pct = signedPct;

export function comparisonText(c: Comparison, title: string): string {
  const out = [title, '', 'rank  stage  level         measured    estimated    error'];
  for (const r of c.ranks)
    for (const l of r.levels)
      out.push(
        `${String(r.rank ?? '?').padStart(4)}  ${String(r.stage ?? '?').padStart(5)}  ${l.level.padEnd(10)}  ${gib(l.measured).padStart(11)}  ${gib(l.estimated).padStart(11)}  ${pct(l.error).padStart(7)}`,
      );
  if (c.worst) out.push('', `largest difference: rank ${c.worst.rank ?? '?'} ${c.worst.level} ${pct(c.worst.error)}`);
  if (c.suspects.length) {
    out.push(
      `the estimate is ${gib(Math.abs(c.gap))} ${c.gap > 0 ? 'above' : 'below'} the measurement there; its largest terms (the gap as a share of each):`,
    );
    for (const s of c.suspects) out.push(`  ${s.label}: ${gib(s.bytes)} (${(100 * s.gapShare).toFixed(0)}%)`);
  }
  if (c.notes.length) out.push('', ...c.notes.map((n) => `note: ${n}`));
  return out.join('\n');
}

/** Runs `recipe-lens compare` with the arguments after the command name; returns the exit status. */
export function compareCommand(argv: string[], write: (s: string) => void, warn: (s: string) => void): number {
  let args: CompareArgs | 'help';
  try {
    args = parseCompareArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    warn(`recipe-lens: ${e.message}\n${COMPARE_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    write(COMPARE_USAGE);
    return 0;
  }
  const read = (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch (e) {
      warn(`recipe-lens: cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return undefined;
    }
  };
  const logText = read(args.log);
  const recipeText = read(args.recipe);
  if (logText === undefined || recipeText === undefined) return 2;
  const settings = {
    ...Object.fromEntries(
      Object.entries({
        explicitGpu: args.gpu,
        worldSize: args.worldSize,
        profile: args.profile,
        attention: args.attention,
      }).filter(([, x]) => x !== undefined),
    ),
    ...modelSettings(args.model),
    documentPath: documentPathOf(args.recipe),
    readFile: readSourceFile,
  };
  const main = analyzeWithModelFiles(recipeText, settings).main;
  if (!main) {
    warn(`recipe-lens: ${args.recipe} is not a recognised recipe format`);
    return 2;
  }
  const est = main.estimate ?? { kind: 'none' as const, format: main.doc.format, reason: 'the file has syntax errors' };
  if (est.kind !== 'training') {
    warn(`recipe-lens: no training estimate for ${args.recipe}${est.kind === 'none' ? `: ${est.reason}` : ''}`);
    return 1;
  }
  const log = compareLog(logText, basename(args.log), est.estimate, args.tag);
  for (const w of log.warnings) warn(`recipe-lens: ${args.log}: ${w}`);
  const cmp = log.comparison;
  if (!cmp) return 1;
  const t = est.estimate.parallel;
  const title = `${args.log} against ${args.recipe} (${est.shape.name}; TP ${t.tp} PP ${t.pp}${t.vpp ? ` VPP ${t.vpp}` : ''} CP ${t.cp} EP ${t.ep} DP ${t.dp ?? '?'}; ${est.gpu.name})`;
  write(
    args.format === 'json'
      ? JSON.stringify({ log: args.log, recipe: args.recipe, samples: log.samples, ...cmp }, null, 2)
      : comparisonText(cmp, title),
  );
  return cmp.ranks.length ? 0 : 1;
}
