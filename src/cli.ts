// recipe-lens: the command-line front end over the same core the extension uses.
import { readFileSync } from 'node:fs';
import { gpuArg, intArg, modelArg, UsageError, walkArgs } from './cli/argv.js';
import { expandArg } from './cli/files.js';
import { compareCommand } from './cli/compareCommand.js';
import { planCommand } from './cli/planCommand.js';
import { toSarif, type FileReport } from './cli/sarif.js';
import { parseFile } from './core/document.js';
import { layoutFromDoc, layoutText } from './core/layout.js';
import type { Attention, Profile } from './core/memory/config.js';
import { estimateDoc, estimateJson } from './core/memory/estimate.js';
import { estimateText } from './core/memory/report.js';
import { isFormatId, type FormatId } from './core/types.js';
import { sortFindings, toDiagnostics, validateText } from './core/validate.js';

const VERSION = '0.1.0';

const USAGE = `usage: recipe-lens check [--format text|json|sarif] [--as FORMAT] [--world-size N] [--gpu NAME] FILE...
       recipe-lens estimate [--gpu NAME] [--model PRESET] [--profile megatron|hf] [--attention flash|eager]
                            [--world-size N] [--format text|json] FILE
       recipe-lens layout [--gpus N] [--as FORMAT] [--format text|json] FILE
       recipe-lens plan [--gpus N] [--gpu NAME] [--model PRESET] [--top K] [--format text|json] FILE

  check         validate NeMo / Megatron-Bridge / TensorRT-LLM YAML files (globs allowed)
  estimate      per-GPU memory of the most-loaded rank (training) or the KV cache pool (TensorRT-LLM)
  layout        Megatron's rank layout: the global ranks of every TP, CP, DP, PP and EP group, and CP's chunks
  plan          the parallel layouts that fit the GPUs, cheapest first (recipe-lens plan --help)
  --format      text (default), json, or sarif (SARIF 2.1.0 for code scanning; check only)
  --gpu         GPU preset (h100, h200, b200, gb200, gb300, b300, a100-40gb, a100-80gb, l40s, h20, h100-nvl) or custom:<GiB>
  --model       model preset for files that carry no shape (llama3-8b, llama3-70b, mixtral-8x7b, deepseek-v3, …)
  --profile     megatron (Megatron-Core + Transformer Engine, default) or hf (Hugging Face transformers)
  --attention   flash (default) or eager (materialised attention scores)
  --as          force the format of every file (${['nemo1', 'nemo-launcher', 'nemo-launcher-main', 'nemo2', 'megatron-bridge', 'trtllm-options', 'trtllm-disagg', 'kv-retention'].join(', ')})
  --world-size  GPU count for files that do not state one (Megatron-Bridge overrides); --gpus is the same

exit status: 0 no errors, 1 errors found, 2 usage error or unreadable file`;

interface Args {
  format: 'text' | 'json' | 'sarif';
  as?: FormatId;
  worldSize?: number;
  gpu?: string;
  model?: string;
  profile?: Profile;
  attention?: Attention;
  files: string[];
}

function parseArgs(argv: string[], command: 'check' | 'estimate' | 'layout'): Args {
  const out: Args = { format: 'text', files: [] };
  out.files = walkArgs(argv, (flag, value) => {
    if (flag === '--format') {
      const v = value();
      if (v !== 'text' && v !== 'json' && (v !== 'sarif' || command !== 'check'))
        throw new UsageError(`unknown --format ${v} (${command === 'check' ? 'text, json or sarif' : 'text or json'})`);
      out.format = v;
    } else if (flag === '--as') {
      const v = value();
      if (!isFormatId(v)) throw new UsageError(`unknown format ${v}`);
      out.as = v;
    } else if (flag === '--world-size' || flag === '--gpus') out.worldSize = intArg(flag, value(), 1);
    else if (flag === '--gpu') out.gpu = gpuArg(value());
    else if (flag === '--model') out.model = modelArg(value());
    else if (flag === '--profile') {
      const v = value();
      if (v !== 'megatron' && v !== 'hf') throw new UsageError('--profile is megatron or hf');
      out.profile = v;
    } else if (flag === '--attention') {
      const v = value();
      if (v !== 'flash' && v !== 'eager') throw new UsageError('--attention is flash or eager');
      out.attention = v;
    } else return false;
    return true;
  });
  if (!out.files.length) throw new UsageError('no files given');
  return out;
}

function readOrWarn(path: string, warn: (s: string) => void): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    warn(`recipe-lens: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    return undefined;
  }
}

function check(args: Args, write: (s: string) => void, warn: (s: string) => void): number {
  const reports: FileReport[] = [];
  let unreadable = false;
  for (const arg of args.files) {
    const paths = expandArg(arg);
    if (!paths.length) {
      warn(`recipe-lens: no file matches ${arg}`);
      unreadable = true;
    }
    for (const path of paths) {
      const text = readOrWarn(path, warn);
      if (text === undefined) {
        unreadable = true;
        continue;
      }
      const res = validateText(text, {
        forcedFormat: args.as,
        worldSize: args.worldSize,
        memory: args.gpu ? { gpu: args.gpu, model: args.model, profile: args.profile, attention: args.attention } : undefined,
      });
      reports.push({ path, format: res.format, diagnostics: toDiagnostics(res.parsed, sortFindings(res.findings)) });
    }
  }
  if (args.format === 'json') write(JSON.stringify({ files: reports }, null, 2));
  else if (args.format === 'sarif') write(JSON.stringify(toSarif(reports, VERSION), null, 2));
  else {
    for (const r of reports) {
      for (const d of r.diagnostics)
        write(`${r.path}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`);
    }
    const n = (s: string) => reports.reduce((k, r) => k + r.diagnostics.filter((d) => d.severity === s).length, 0);
    write(
      `${reports.length} file${reports.length === 1 ? '' : 's'} checked (${reports.filter((r) => r.format).length} recipes): ${n('error')} errors, ${n('warning')} warnings, ${n('info')} infos`,
    );
  }
  if (unreadable) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

function layout(args: Args, write: (s: string) => void, warn: (s: string) => void): number {
  if (args.files.length !== 1) throw new UsageError('layout takes exactly one FILE');
  const path = args.files[0]!;
  const text = readOrWarn(path, warn);
  if (text === undefined) return 2;
  const parsed = parseFile(text, { forcedFormat: args.as });
  const doc = parsed.docs.find((d) => d.format);
  if (!doc?.format) {
    warn(`recipe-lens: ${path} is not a recognised recipe format`);
    return 2;
  }
  const r = layoutFromDoc(doc, doc.format, { worldSize: args.worldSize });
  if (!r.layout) {
    const hint = r.kind === 'world' ? ' (pass the GPU count with --gpus N)' : '';
    warn(`recipe-lens: no rank layout for ${path}: ${r.reason}${hint}`);
    return r.kind === 'invalid' ? 1 : 2;
  }
  const { worldSize, order, sizes, groups, cpChunks } = r.layout;
  if (args.format === 'json') write(JSON.stringify({ worldSize, order, sizes, groups, cpChunks }));
  else write(layoutText(r.layout));
  return 0;
}

function estimate(args: Args, write: (s: string) => void, warn: (s: string) => void): number {
  if (args.files.length !== 1) throw new UsageError('estimate takes exactly one FILE');
  const path = args.files[0]!;
  const text = readOrWarn(path, warn);
  if (text === undefined) return 2;
  const parsed = parseFile(text, { forcedFormat: args.as });
  const doc = parsed.docs.find((d) => d.format);
  if (!doc) {
    warn(`recipe-lens: ${path} is not a recognised recipe format`);
    return 2;
  }
  const e = estimateDoc(doc, parsed.modeline?.values ?? {}, {
    gpu: args.gpu,
    model: args.model,
    profile: args.profile,
    attention: args.attention,
    worldSize: args.worldSize,
  });
  if (e.kind === 'none') {
    warn(`recipe-lens: no estimate for ${path}: ${e.reason}`);
    return 2;
  }
  if (args.format === 'json') write(JSON.stringify(estimateJson(e), null, 2));
  else write(estimateText(e));
  return 0;
}

export function main(
  argv: string[],
  write = (s: string) => void process.stdout.write(s + '\n'),
  warn = (s: string) => void process.stderr.write(s + '\n'),
): number {
  try {
    const [cmd, ...rest] = argv;
    if (cmd === '--version' || cmd === '-v') {
      write(VERSION);
      return 0;
    }
    if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      write(USAGE);
      return cmd ? 0 : 2;
    }
    if (cmd === 'check') return check(parseArgs(rest, 'check'), write, warn);
    if (cmd === 'estimate') return estimate(parseArgs(rest, 'estimate'), write, warn);
    if (cmd === 'plan') return planCommand(rest, write, warn);
    if (cmd === 'compare') return compareCommand(rest, write, warn);
    if (cmd === 'layout') return layout(parseArgs(rest, 'layout'), write, warn);
    throw new UsageError(`unknown command ${cmd}`);
  } catch (e) {
    if (e instanceof UsageError) {
      warn(`recipe-lens: ${e.message}\n${USAGE}`);
      return 2;
    }
    // Never a stack trace for the user; the message says what went wrong.
    warn(`recipe-lens: internal error: ${(e as Error).message}`);
    return 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
