// recipe-lens: the command-line front end over the same core the extension uses. Every command reads its file,
// computes the one analysis (src/core/analysis.ts) and prints a view of it.
import { gpuArg, intArg, modelArg, modelSettings, oneOf, parse, UsageError, versionsArg } from './cli/args.js';
import { compareCommand } from './cli/compareCommand.js';
import { expandArg, readOrWarn } from './cli/files.js';
import { planCommand } from './cli/planCommand.js';
import { simulateCommand } from './cli/simulateCommand.js';
import { toSarif, type FileReport } from './cli/sarif.js';
import type { Analysis, AnalysisSettings } from './core/analysis.js';
import { describeDetection } from './core/detect.js';
import { analyzeWithModelFiles } from './host/modelFiles.js';
import { layoutFromRecipe, layoutText } from './core/layout.js';
import { estimateJson } from './core/memory/estimate.js';
import { estimateText } from './core/memory/report.js';
import { FORMAT_IDS, type FormatId } from './core/types.js';
import { FRAMEWORKS } from './core/versions.js';
import { documentPathOf, readSourceFile } from './host/sourceFiles.js';
import { LSP_USAGE, lspCommand } from './server/main.js';

const VERSION = '0.1.0';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const USAGE = `usage: recipe-lens check [--format text|json|sarif] [--as FORMAT] [--world-size N] [--gpu NAME] [--model MODEL]
                         [--versions FW=REL,…] [--no-memory] FILE...
       recipe-lens estimate [--gpu NAME] [--model MODEL] [--profile megatron|hf] [--attention flash|eager]
                            [--world-size N] [--format text|json] FILE
       recipe-lens layout [--gpus N] [--as FORMAT] [--format text|json] FILE
       recipe-lens plan [--gpus N] [--gpu NAME] [--model MODEL] [--top K] [--apply K] [--format text|json] FILE
       recipe-lens compare [--gpu NAME] [--model MODEL] [--format text|json] LOG RECIPE
       recipe-lens simulate [--options FILE] [--pool-blocks N[,N…]] [--workload NAME|TRACE.jsonl] … [RETENTION.yaml]
       recipe-lens lsp --stdio | --node-ipc | --socket=PORT | --pipe=NAME

  check         validate NeMo / Megatron-Bridge / TensorRT-LLM YAML files (globs allowed), with the memory check
                the editor runs (GPU from --gpu or a gpu= modeline, else H100; --no-memory turns it off)
  estimate      per-GPU memory of the most-loaded rank (training) or the KV cache pool (TensorRT-LLM)
  layout        Megatron's rank layout: the global ranks of every TP, CP, DP, PP and EP group, and CP's chunks
  plan          the parallel layouts that fit the GPUs, cheapest first; --apply K prints FILE with layout K written in
  simulate      KV-cache reuse (hit rate, evictions) under LRU and a retention config (recipe-lens simulate --help)
  compare       a training log's measured memory per rank against the estimate (recipe-lens compare --help)
  lsp           the language server for any LSP client (Neovim, Helix, Emacs, Zed, JetBrains, VS Code)
  --format      text (default), json, or sarif (SARIF 2.1.0 for code scanning; check only)
  --gpu         GPU preset (h100, h200, b200, gb200, gb300, b300, a100-40gb, a100-80gb, l40s, h20, h100-nvl) or custom:<GiB>
  --model       the model, for files that name none or to override the one they name: a catalogue name
                (llama3-70b, deepseek-r1, gpt-oss-120b, …), an HF id (deepseek-ai/DeepSeek-R1-0528, read from the
                local Hugging Face cache when the catalogue lacks it) or a path to a config.json or its folder;
                a \`# recipe-lens: model=…\` modeline wins (docs/models.md)
  --profile     megatron (Megatron-Core + Transformer Engine, default) or hf (Hugging Face transformers)
  --attention   flash (default) or eager (materialised attention scores)
  --as          force the format of every file (${FORMAT_IDS.join(', ')})
  --world-size  GPU count for files that do not state one (Megatron-Bridge overrides); --gpus is the same
  --versions    the releases to check against, e.g. nemo=2.3,trtllm=1.1 (${FRAMEWORKS.join(', ')}); a file's
                \`# recipe-lens: nemo=2.3\` modeline wins; none named: the latest, and rules releases disagree on warn

exit status: 0 no errors (or no estimate, with its reason), 1 errors found, 2 usage error or unreadable file`;

const OPTIONS = {
  format: { type: 'string' },
  as: { type: 'string' },
  'world-size': { type: 'string' },
  gpus: { type: 'string' },
  gpu: { type: 'string' },
  model: { type: 'string' },
  profile: { type: 'string' },
  attention: { type: 'string' },
  'no-memory': { type: 'boolean' },
  versions: { type: 'string' },
} as const;

interface Args {
  format: 'text' | 'json' | 'sarif';
  settings: AnalysisSettings;
  files: string[];
}

function parseCommand(argv: string[], command: 'check' | 'estimate' | 'layout'): Args {
  const { values: o, positionals } = parse(argv, OPTIONS);
  const format =
    oneOf('format', o.format, command === 'check' ? (['text', 'json', 'sarif'] as const) : (['text', 'json'] as const)) ?? 'text';
  const as = oneOf<FormatId | 'none'>('as', o.as, [...FORMAT_IDS, 'none']);
  if (!positionals.length) throw new UsageError('no files given');
  const settings: AnalysisSettings = {
    forcedFormat: as,
    worldSize: intArg('world-size', o['world-size'], 1) ?? intArg('gpus', o.gpus, 1),
    explicitGpu: gpuArg(o.gpu),
    ...modelSettings(modelArg(o.model)),
    profile: oneOf('profile', o.profile, ['megatron', 'hf'] as const),
    attention: oneOf('attention', o.attention, ['flash', 'eager'] as const),
    memoryWarnings: !o['no-memory'],
    versions: versionsArg(o.versions),
  };
  return { format, settings: clean(settings), files: positionals };
}

/** The settings for one file: its path and a disk reader, so NeMo-RL `defaults:` parents resolve from disk. */
const fileSettings = (s: AnalysisSettings, path: string): AnalysisSettings => ({
  ...s,
  documentPath: documentPathOf(path),
  readFile: readSourceFile,
});

/** Settings without undefined entries, so the CLI and the editor fingerprint the same settings alike. */
const clean = (s: AnalysisSettings): AnalysisSettings => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));

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
      const a = analyzeWithModelFiles(text, fileSettings(args.settings, path));
      const detection = a.parsed.docs.find((d) => d.format)?.detection ?? a.parsed.docs[0]?.detection;
      reports.push({ path, format: a.format, detected: detection ? describeDetection(detection) : undefined, diagnostics: a.diagnostics });
    }
  }
  if (args.format === 'json') write(JSON.stringify({ files: reports }, null, 2));
  else if (args.format === 'sarif') write(JSON.stringify(toSarif(reports, VERSION), null, 2));
  else {
    for (const r of reports) {
      if (!r.format && r.detected) write(`${r.path}: not checked: ${r.detected}`);
      for (const d of r.diagnostics)
        write(`${r.path}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`);
    }
    const n = (s: string) => reports.reduce((k, r) => k + r.diagnostics.filter((d) => d.severity === s).length, 0);
    write(
      `${plural(reports.length, 'file')} checked (${plural(reports.filter((r) => r.format).length, 'recipe')}): ${n('error')} errors, ${n('warning')} warnings, ${n('info')} infos`,
    );
  }
  if (unreadable) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

/** The one FILE of estimate / layout, analysed; undefined (exit 2) when unreadable or no recipe. */
function oneRecipe(args: Args, command: string, warn: (s: string) => void): { path: string; a: Analysis } | undefined {
  if (args.files.length !== 1) throw new UsageError(`${command} takes exactly one FILE`);
  const path = args.files[0]!;
  const text = readOrWarn(path, warn);
  if (text === undefined) return undefined;
  const a = analyzeWithModelFiles(text, fileSettings(args.settings, path));
  if (!a.main) {
    const d = a.parsed.docs[0]?.detection;
    warn(`recipe-lens: ${path} is not a recognised recipe format${d ? `: ${describeDetection(d)}` : ''}`);
    return undefined;
  }
  return { path, a };
}

function layout(args: Args, write: (s: string) => void, warn: (s: string) => void): number {
  const got = oneRecipe(args, 'layout', warn);
  if (!got) return 2;
  const r = layoutFromRecipe(got.a.main!.recipe, { worldSize: args.settings.worldSize });
  if (!r.layout) {
    const hint = r.kind === 'world' ? ' (pass the GPU count with --gpus N)' : '';
    warn(`recipe-lens: no rank layout for ${got.path}: ${r.reason}${hint}`);
    return r.kind === 'invalid' ? 1 : 2;
  }
  const { worldSize, order, sizes, groups, cpChunks } = r.layout;
  if (args.format === 'json') write(JSON.stringify({ worldSize, order, sizes, groups, cpChunks }));
  else write(layoutText(r.layout));
  return 0;
}

function estimate(args: Args, write: (s: string) => void, warn: (s: string) => void): number {
  const got = oneRecipe(args, 'estimate', warn);
  if (!got) return 2;
  const e = got.a.main!.estimate ?? { kind: 'none' as const, format: got.a.format, reason: 'the file has syntax errors' };
  // No estimate is a normal outcome with its reason, not a failure of the command.
  if (e.kind === 'none') {
    if (args.format === 'json') write(JSON.stringify({ format: e.format, estimate: null, reason: e.reason }, null, 2));
    else write(`no estimate for ${got.path}: ${e.reason}`);
    return 0;
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
    if (cmd === 'check') return check(parseCommand(rest, 'check'), write, warn);
    if (cmd === 'estimate') return estimate(parseCommand(rest, 'estimate'), write, warn);
    if (cmd === 'plan') return planCommand(rest, write, warn);
    if (cmd === 'simulate') return simulateCommand(rest, write, warn);
    if (cmd === 'compare') return compareCommand(rest, write, warn);
    if (cmd === 'layout') return layout(parseCommand(rest, 'layout'), write, warn);
    if (cmd === 'lsp') {
      // Long-running: the server keeps the process alive; the exit notification (or the client's end) ends it.
      const error = lspCommand(rest, __filename);
      if (error) warn(`recipe-lens: ${error}\n${LSP_USAGE}`);
      return error ? 2 : 0;
    }
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
