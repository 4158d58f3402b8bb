// `recipe-lens plan`: the parallel layouts that fit N GPUs for the file's model, sequence length and global batch,
// ranked; `--apply K` prints the file with layout K written in (the panel's Apply: the same minimal edits).
import { analyzeWithModelFiles } from '../host/modelFiles.js';
import { applyEdits } from '../core/edit.js';
import { GPUS } from '../core/memory/gpus.js';
import { candidateValues } from '../core/panel/planner.js';
import { writeCheck } from '../core/panel/whatIf.js';
import { plan } from '../core/plan/plan.js';
import { planJson, planText } from '../core/plan/report.js';
import { gpuArg, intArg, modelArg, modelSettings, oneOf, parse, UsageError } from './args.js';
import { readOrWarn } from './files.js';
import { documentPathOf, readSourceFile } from '../host/sourceFiles.js';

export const PLAN_USAGE = `usage: recipe-lens plan [--gpus N] [--gpu NAME] [--model MODEL] [--top K] [--apply K] [--format text|json] FILE

  plan          the TP / PP / VPP / CP / EP / micro-batch / recompute / offload / precision layouts that fit
                N GPUs for FILE's model, sequence length and global batch, cheapest first
  --gpus        GPU count to plan for (default: the file's world size)
  --gpu         GPU preset (${GPUS.map((g) => g.id).join(', ')}) or custom:<GiB>; a gpu= modeline wins; default h100
  --model       the model: a catalogue name (llama3-70b, …), an HF id or a path to a config.json (docs/models.md)
  --top         candidates to list (default 10; 0 lists every fitting one)
  --apply K     print FILE with the K-th layout of the list written in (comments and formatting kept)
  --format      text (default) or json

exit status: 0 candidates found (or layout applied), 1 no layout fits (or layout K cannot be written), 2 usage
error, unreadable file or no model shape`;

const OPTIONS = {
  gpus: { type: 'string' },
  'world-size': { type: 'string' },
  gpu: { type: 'string' },
  model: { type: 'string' },
  top: { type: 'string' },
  apply: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs `recipe-lens plan` with the arguments after the command name; returns the exit status. */
export function planCommand(argv: string[], write: (s: string) => void, warn: (s: string) => void): number {
  let args;
  try {
    const { values: o, positionals } = parse(argv, OPTIONS);
    if (o.help) {
      write(PLAN_USAGE);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(positionals.length ? 'plan takes exactly one FILE' : 'no file given');
    args = {
      file: positionals[0]!,
      gpus: intArg('gpus', o.gpus, 1) ?? intArg('world-size', o['world-size'], 1),
      gpu: gpuArg(o.gpu),
      model: modelArg(o.model),
      top: intArg('top', o.top, 0) ?? 10,
      apply: intArg('apply', o.apply, 1),
      format: oneOf('format', o.format, ['text', 'json'] as const) ?? 'text',
    };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    warn(`recipe-lens: ${e.message}\n${PLAN_USAGE}`);
    return 2;
  }
  const text = readOrWarn(args.file, warn);
  if (text === undefined) return 2;
  const a = analyzeWithModelFiles(text, {
    ...Object.fromEntries(Object.entries({ explicitGpu: args.gpu, worldSize: args.gpus }).filter(([, v]) => v !== undefined)),
    ...modelSettings(args.model),
    documentPath: documentPathOf(args.file),
    readFile: readSourceFile,
  });
  const main = a.main;
  if (!main) {
    warn(`recipe-lens: ${args.file} is not a recognised recipe format`);
    return 2;
  }
  const e = main.estimate;
  const recipe = main.recipe;
  if (e?.kind !== 'training' || recipe?.kind !== 'training') {
    warn(`recipe-lens: no plan for ${args.file}: ${e?.kind === 'none' ? e.reason : 'not a training recipe'}`);
    return 2;
  }
  const c = e.config;
  const gpus = args.gpus ?? c.worldSize;
  if (!gpus) {
    warn(`recipe-lens: no plan for ${args.file}: the file gives no world size; pass the GPU count with --gpus N`);
    return 2;
  }
  if (!c.globalBatch) {
    warn(
      `recipe-lens: no plan for ${args.file}: the file gives no global batch size (the planner keeps it and splits it into micro-batches)`,
    );
    return 2;
  }
  const top = args.apply ? Math.max(args.top === 0 ? 0 : args.top, args.apply) : args.top;
  const result = plan(e.shape, c, e.gpu, {
    gpus,
    top,
    base: recipe.values,
    family: recipe.family,
    overlapP2p: recipe.values.overlapP2p === true,
  });
  if (!args.apply) {
    write(args.format === 'json' ? JSON.stringify(planJson(result), null, 2) : planText(result));
    return result.candidates.length ? 0 : 1;
  }
  const cand = result.candidates[args.apply - 1];
  if (!cand) {
    warn(`recipe-lens: no layout ${args.apply}: the planner lists ${result.candidates.length} for ${gpus} × ${e.gpu.name}`);
    return 1;
  }
  const fileWorld = recipe.world?.source === 'file' ? recipe.world.size : undefined;
  if (fileWorld !== undefined && fileWorld !== gpus) {
    warn(
      `recipe-lens: planned for ${gpus} GPUs, but ${args.file} runs on ${fileWorld} (trainer.num_nodes × trainer.devices); --apply does not change the world size`,
    );
    return 1;
  }
  const values = candidateValues(c, cand);
  const w = writeCheck({ recipe, doc: main.doc, text }, c, values);
  if (!Object.keys(values).length) {
    write(text.replace(/\n$/, ''));
    return 0;
  }
  if (!w.canApply || !w.edits) {
    warn(
      `recipe-lens: layout ${args.apply} cannot be written into ${args.file}: ${w.conflicts.map((x) => `${x.code}: ${x.message}`).join('; ') || 'nothing to write'}`,
    );
    return 1;
  }
  write(applyEdits(text, w.edits).replace(/\n$/, ''));
  return 0;
}
