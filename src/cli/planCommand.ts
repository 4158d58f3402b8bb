// `recipe-lens plan`: the parallel layouts that fit N GPUs for the file's model, sequence length and global batch, ranked.
import { readFileSync } from 'node:fs';
import { parseFile } from '../core/document.js';
import { resolveGpu } from '../core/memory/estimate.js';
import { extractTraining } from '../core/memory/extract.js';
import { GPUS } from '../core/memory/gpus.js';
import { MODEL_PRESETS } from '../core/memory/presets.js';
import { gpuArg, intArg, modelArg, UsageError, walkArgs } from './argv.js';
import { plan } from '../core/plan/plan.js';
import { planJson, planText } from '../core/plan/report.js';

export const PLAN_USAGE = `usage: recipe-lens plan [--gpus N] [--gpu NAME] [--model PRESET] [--top K] [--format text|json] FILE

  plan          the TP / PP / VPP / CP / EP / micro-batch / recompute / offload / precision layouts that fit
                N GPUs for FILE's model, sequence length and global batch, cheapest first
  --gpus        GPU count to plan for (default: the file's world size)
  --gpu         GPU preset (${GPUS.map((g) => g.id).join(', ')}) or custom:<GiB>; a gpu= modeline wins; default h100
  --model       model preset for files that carry no shape (${Object.keys(MODEL_PRESETS).slice(0, 4).join(', ')}, …)
  --top         candidates to list (default 10; 0 lists every fitting one)
  --format      text (default) or json

exit status: 0 candidates found, 1 no layout fits, 2 usage error, unreadable file or no model shape`;

interface PlanArgs {
  gpus?: number;
  gpu?: string;
  model?: string;
  top: number;
  format: 'text' | 'json';
  file: string;
}

function parsePlanArgs(argv: string[]): PlanArgs | 'help' {
  const out: Omit<PlanArgs, 'file'> = { top: 10, format: 'text' };
  let help = false;
  const files = walkArgs(argv, (flag, value) => {
    if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--gpus' || flag === '--world-size') out.gpus = intArg(flag, value(), 1);
    else if (flag === '--top') out.top = intArg(flag, value(), 0);
    else if (flag === '--gpu') out.gpu = gpuArg(value());
    else if (flag === '--model') out.model = modelArg(value());
    else if (flag === '--format') {
      const v = value();
      if (v !== 'text' && v !== 'json') throw new UsageError(`unknown --format ${v} (text or json)`);
      out.format = v;
    } else return false;
    return true;
  });
  if (help) return 'help';
  if (files.length !== 1) throw new UsageError(files.length ? 'plan takes exactly one FILE' : 'no file given');
  return { ...out, file: files[0]! };
}

/** Runs `recipe-lens plan` with the arguments after the command name; returns the exit status. */
export function planCommand(argv: string[], write: (s: string) => void, warn: (s: string) => void): number {
  let args: PlanArgs | 'help';
  try {
    args = parsePlanArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    warn(`recipe-lens: ${e.message}\n${PLAN_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    write(PLAN_USAGE);
    return 0;
  }
  let text: string;
  try {
    text = readFileSync(args.file, 'utf8');
  } catch (e) {
    warn(`recipe-lens: cannot read ${args.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    return 2;
  }
  const parsed = parseFile(text);
  const doc = parsed.docs.find((d) => d.format);
  if (!doc?.format) {
    warn(`recipe-lens: ${args.file} is not a recognised recipe format`);
    return 2;
  }
  const modeline = parsed.modeline?.values ?? {};
  const ex = extractTraining(doc, doc.format, modeline, { model: args.model, worldSize: args.gpus });
  if (!ex.ok) {
    warn(`recipe-lens: no plan for ${args.file}: ${ex.reason}`);
    return 2;
  }
  const gpus = args.gpus ?? ex.config.worldSize;
  if (!gpus) {
    warn(`recipe-lens: no plan for ${args.file}: the file gives no world size; pass the GPU count with --gpus N`);
    return 2;
  }
  if (!ex.config.globalBatch) {
    warn(
      `recipe-lens: no plan for ${args.file}: the file gives no global batch size (the planner keeps it and splits it into micro-batches)`,
    );
    return 2;
  }
  const gpu = resolveGpu(modeline, { gpu: args.gpu });
  if ('error' in gpu) {
    warn(`recipe-lens: ${gpu.error}`);
    return 2;
  }
  const result = plan(ex.shape, ex.config, gpu, { gpus, top: args.top });
  write(args.format === 'json' ? JSON.stringify(planJson(result), null, 2) : planText(result));
  return result.candidates.length ? 0 : 1;
}
