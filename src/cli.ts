// recipe-lens: the command-line front end over the same core the extension uses.
import { readFileSync } from 'node:fs';
import { expandArg } from './cli/files.js';
import { toSarif, type FileReport } from './cli/sarif.js';
import { isFormatId, type FormatId } from './core/types.js';
import { sortFindings, toDiagnostics, validateText } from './core/validate.js';

const VERSION = '0.1.0';

const USAGE = `usage: recipe-lens check [--format text|json|sarif] [--as FORMAT] [--world-size N] FILE...

  check         validate NeMo / Megatron-Bridge / TensorRT-LLM YAML files (globs allowed)
  --format      text (default), json, or sarif (SARIF 2.1.0 for code scanning)
  --as          force the format of every file (${['nemo1', 'nemo-launcher', 'nemo-launcher-main', 'nemo2', 'megatron-bridge', 'trtllm-options', 'trtllm-disagg', 'kv-retention'].join(', ')})
  --world-size  GPU count for files that do not state one (Megatron-Bridge overrides)

exit status: 0 no errors, 1 errors found, 2 usage error or unreadable file`;

class UsageError extends Error {}

interface CheckArgs {
  format: 'text' | 'json' | 'sarif';
  as?: FormatId;
  worldSize?: number;
  files: string[];
}

function parseCheckArgs(argv: string[]): CheckArgs {
  const out: CheckArgs = { format: 'text', files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--format') {
      const v = value();
      if (v !== 'text' && v !== 'json' && v !== 'sarif') throw new UsageError(`unknown --format ${v} (text, json or sarif)`);
      out.format = v;
    } else if (flag === '--as') {
      const v = value();
      if (!isFormatId(v)) throw new UsageError(`unknown format ${v}`);
      out.as = v;
    } else if (flag === '--world-size') {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 1) throw new UsageError('--world-size must be a positive integer');
      out.worldSize = v;
    } else if (flag === '--') {
      out.files.push(...argv.slice(i + 1));
      break;
    } else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else out.files.push(a);
  }
  if (!out.files.length) throw new UsageError('no files given');
  return out;
}

function check(args: CheckArgs, write: (s: string) => void, warn: (s: string) => void): number {
  const reports: FileReport[] = [];
  let unreadable = false;
  for (const arg of args.files) {
    const paths = expandArg(arg);
    if (!paths.length) {
      warn(`recipe-lens: no file matches ${arg}`);
      unreadable = true;
    }
    for (const path of paths) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (e) {
        warn(`recipe-lens: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        unreadable = true;
        continue;
      }
      const res = validateText(text, { forcedFormat: args.as, worldSize: args.worldSize });
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
    write(`${reports.length} file${reports.length === 1 ? '' : 's'} checked (${reports.filter((r) => r.format).length} recipes): ${n('error')} errors, ${n('warning')} warnings, ${n('info')} infos`);
  }
  if (unreadable) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

export function main(argv: string[], write = (s: string) => void process.stdout.write(s + '\n'), warn = (s: string) => void process.stderr.write(s + '\n')): number {
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
    if (cmd === 'check') return check(parseCheckArgs(rest), write, warn);
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
