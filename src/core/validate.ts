// The validation pipeline: text → documents → format → schema findings + cross-field rule findings.
import { parseFile, type ParsedFile, type ParseOptions, type RecipeDoc } from './document.js';
import { Facts } from './rules/facts.js';
import { kvCacheRules } from './rules/kvcache.js';
import { retentionRules } from './rules/retention.js';
import { trainingRules } from './rules/training.js';
import type { RuleContext } from './rules/emit.js';
import { memoryFindings } from './memory/diagnostics.js';
import type { EstimateOptions } from './memory/estimate.js';
import { schemaFindings } from './schemaCheck.js';
import { FORMAT_IDS, type Diagnostic, type Finding, type FormatId } from './types.js';

export interface ValidateOptions extends ParseOptions, RuleContext {
  /** When set, training files also get the memory-fit check (RL-MEM) against this GPU and model setting. */
  memory?: EstimateOptions;
}

export interface ValidationResult {
  /** Format of the first recipe document, or null when the file is not a recipe. */
  format: FormatId | null;
  parsed: ParsedFile;
  findings: Finding[];
}

const TRAINING = new Set<FormatId>(['nemo1', 'nemo-launcher', 'nemo2', 'megatron-bridge']);

export function validateText(text: string, opts: ValidateOptions = {}): ValidationResult {
  const parsed = parseFile(text, opts);
  const findings: Finding[] = [];
  const ml = parsed.modeline;
  if (ml?.badFormat)
    findings.push({
      code: 'RL-MODELINE',
      severity: 'warning',
      message: `unknown format "${ml.badFormat}" in the recipe-lens modeline; use one of ${FORMAT_IDS.join(', ')}, none`,
      path: '',
      span: ml.span,
    });
  if (ml?.unknown.length)
    findings.push({
      code: 'RL-MODELINE',
      severity: 'warning',
      message: `unknown recipe-lens modeline setting ${ml.unknown.map((k) => `"${k}"`).join(', ')}`,
      path: '',
      span: ml.span,
    });
  if (parsed.tooLarge) {
    const forced = ml?.format ?? opts.forcedFormat;
    // Only say something about files that look like recipes: the head is enough to tell.
    const head = parseFile(text.slice(0, 64 * 1024).replace(/\n[^\n]*$/, ''), { ...opts, maxLength: 64 * 1024 });
    const format = forced && forced !== 'none' ? forced : (head.docs.find((d) => d.format)?.format ?? null);
    if (format)
      findings.push({
        code: 'RL-SIZE',
        severity: 'info',
        message: `file is ${(text.length / 1048576).toFixed(1)} MB, over the ${((opts.maxLength ?? 5 * 1048576) / 1048576).toFixed(1)} MB limit: not validated (recipeLens.maxFileSizeKb)`,
        path: '',
        span: [0, Math.min(text.length, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'))],
      });
    return { format, parsed, findings };
  }
  const recipeDocs = parsed.docs.filter((d) => d.format);
  for (const doc of parsed.docs) {
    // YAML syntax errors matter in any file Recipe Lens validates; in other files it stays silent.
    if (!doc.format && !looksForced(opts, parsed)) continue;
    findings.push(...docFindings(doc, opts, parsed.modeline?.values ?? {}));
  }
  // A file that does not parse at all cannot be detected: report its syntax errors when forced only.
  return { format: recipeDocs[0]?.format ?? null, parsed, findings };
}

function looksForced(opts: ValidateOptions, parsed: ParsedFile): boolean {
  const f = parsed.modeline?.format ?? opts.forcedFormat;
  return !!f && f !== 'none';
}

function docFindings(doc: RecipeDoc, opts: ValidateOptions, modeline: Record<string, string>): Finding[] {
  const out: Finding[] = [];
  for (const p of doc.problems) out.push({ code: p.code, severity: p.severity, message: p.message, path: '', span: p.span });
  if (doc.truncated)
    out.push({
      code: 'RL-LIMIT',
      severity: 'error',
      message:
        doc.truncated.reason === 'aliases'
          ? 'too many alias expansions (possible "billion laughs" alias bomb); the rest of the document is not read'
          : 'nesting is too deep; the rest of the document is not read',
      path: '',
      span: doc.truncated.span,
    });
  for (const d of doc.duplicateKeys)
    out.push({
      code: 'RL-DUPLICATE-KEY',
      severity: 'warning',
      message: `duplicate key \`${d.key}\`: the later value wins in PyYAML, OmegaConf rejects the file`,
      path: '',
      span: d.span,
      related: [{ path: '', span: d.first, message: `first \`${d.key}\`` }],
    });
  const format = doc.format;
  if (!format || !doc.root) return out;
  // A document with syntax errors is partial: schema and rule findings on it would be noise until it parses.
  if (doc.problems.some((p) => p.severity === 'error')) return out;
  out.push(...schemaFindings(doc, format));
  if (TRAINING.has(format)) {
    // A `world_size=` modeline speaks for this file and wins over the setting.
    const mlWorld = Number(modeline.world_size);
    const worldSize = Number.isInteger(mlWorld) && mlWorld >= 1 ? mlWorld : opts.worldSize;
    out.push(...trainingRules(new Facts(doc, format), { ...opts, worldSize }));
    // The memory check only makes sense on a configuration the launcher would accept.
    if (opts.memory && !out.some((f) => f.severity === 'error')) out.push(...memoryFindings(doc, modeline, { worldSize, ...opts.memory }));
  }
  if (format === 'trtllm-options' || format === 'trtllm-disagg') {
    out.push(...kvCacheRules(doc, format === 'trtllm-disagg'));
    if (opts.memory && !out.some((f) => f.severity === 'error'))
      out.push(...memoryFindings(doc, modeline, { worldSize: opts.worldSize, ...opts.memory }));
  }
  if (format === 'kv-retention') out.push(...retentionRules(doc));
  return out;
}

export function toDiagnostics(parsed: ParsedFile, findings: readonly Finding[]): Diagnostic[] {
  const r = (s: readonly [number, number]) => parsed.lines.rangeOf(s);
  return findings.map((f) => ({
    code: f.code,
    severity: f.severity,
    message: f.message,
    path: f.path,
    range: r(f.span),
    ...(f.related?.length ? { related: f.related.map((x) => ({ path: x.path, range: r(x.span), message: x.message })) } : {}),
    ...(f.fixes?.length
      ? { fixes: f.fixes.map((x) => ({ title: x.title, edits: x.edits.map((e) => ({ range: r(e.span), newText: e.newText })) })) }
      : {}),
  }));
}

/** Stable order: by position, then code. */
export function sortFindings(f: Finding[]): Finding[] {
  return f.sort((a, b) => a.span[0] - b.span[0] || a.code.localeCompare(b.code));
}
