// Which model an estimate uses. Candidates come from five places, in this order (docs/models.md "Resolution order"):
//   1. a `# recipe-lens: model=…` modeline, 2. the CLI's --model, 3. what the file itself names (a `model:` path, an HF
//   id in a tokenizer field, a run name, a NeMo 2 / Megatron-Bridge config class), 4. a hint in the document's path,
//   5. the recipeLens.model setting.
// The first candidate that resolves wins. An explicit choice (1, 2) that does not resolve is an error with its reason,
// never silently replaced; the others are passed over with a note. A candidate whose shape contradicts values the file
// states (a tokenizer of a smaller sibling model) is passed over too.
import type { Assumption, ModelShape } from '../memory/types.js';
import { matchModelName } from './catalogue.js';
import { modelInName } from './pathHints.js';
import { resolveModelRef, type ModelRefOrigin, type ModelResolution } from './resolve.js';
import type { CatalogueEntry, Checkpoint, WeightFormat } from './types.js';

export type ModelSource = 'modeline' | 'cli' | 'file' | 'path' | 'setting';

export interface ModelRef {
  ref: string;
  source: ModelSource;
  /** What names it, for people: `the modeline`, `model`, `tokenizer.type`, `path segment "B200"`. */
  where: string;
  /**
   * The file says this is the model it runs (a serving file's `model:`): when it does not resolve there is no estimate,
   * rather than one of a model a weaker hint (the path, the setting) names.
   */
  authoritative?: boolean;
  /** A tokenizer id: it names a vocabulary (which a recipe may share with a smaller sibling), not the recipe's model. */
  tokenizer?: boolean;
}

export interface ChosenModel extends ModelRef {
  /** The catalogue id, else the checkpoint's name. */
  name: string;
  shape: ModelShape;
  weights: WeightFormat;
  entry?: CatalogueEntry;
  checkpoint?: Checkpoint;
  /** The config.json read, when the model came from a file on disk. */
  configPath?: string;
  assumptions: Assumption[];
  notes: string[];
}

export type ModelChoice =
  { kind: 'chosen'; model: ChosenModel; passedOver: string[] } | { kind: 'none'; reason: string; passedOver: string[] };

const ORIGIN: Record<ModelSource, ModelRefOrigin> = { modeline: 'modeline', cli: 'cli', file: 'file', path: 'path', setting: 'setting' };
const PROVENANCE: Record<ModelSource, Assumption['provenance']> = {
  modeline: 'modeline',
  cli: 'setting',
  file: 'file',
  path: 'default',
  setting: 'setting',
};
const ORDER: Record<ModelSource, number> = { modeline: 0, cli: 1, file: 2, path: 3, setting: 4 };
const explicit = (s: ModelSource) => s === 'modeline' || s === 'cli';

/** Host-resolved references (local config.json files, the HF cache) keyed by the reference as written. */
export type ResolvedModels = Readonly<Record<string, ModelResolution>>;

/** A reference resolved by the host when it read files for it, else against the catalogue (the core reads no files). */
export function lookupModel(r: ModelRef, resolved?: ResolvedModels): ModelResolution {
  const key = r.ref.trim();
  return (resolved && Object.hasOwn(resolved, key) ? resolved[key] : undefined) ?? resolveModelRef(key, undefined, ORIGIN[r.source]);
}

/**
 * The model to estimate with. `refs` may come in any order; they are tried by source (modeline, --model, file, path,
 * setting) and, within a source, as given. `accept` returns why a resolved shape cannot be this file's model.
 */
export function chooseModel(
  refs: readonly ModelRef[],
  resolved?: ResolvedModels,
  accept?: (shape: ModelShape, ref: ModelRef) => string | undefined,
): ModelChoice {
  const passedOver: string[] = [];
  const ordered = refs
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.ref.trim())
    .sort((a, b) => ORDER[a.r.source] - ORDER[b.r.source] || a.i - b.i)
    .map(({ r }) => r);
  const seen = new Set<string>();
  for (const r of ordered) {
    const key = `${r.source}\u0000${r.ref.trim()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const res = lookupModel(r, resolved);
    if (res.kind === 'catalogue' || res.kind === 'config') {
      const why = explicit(r.source) ? undefined : accept?.(res.shape, r);
      if (why) {
        passedOver.push(`${r.where} "${r.ref}" (${res.kind === 'catalogue' ? res.entry.id : res.shape.name}): ${why}`);
        continue;
      }
      return { kind: 'chosen', model: chosen(r, res, passedOver), passedOver };
    }
    const message = res.message;
    if (explicit(r.source) || r.authoritative) return { kind: 'none', reason: `${r.where}: ${message}`, passedOver };
    // A message that opens with the reference already names it.
    passedOver.push(message.startsWith(`"${r.ref}"`) ? `${r.where}: ${message}` : `${r.where} "${r.ref}": ${message}`);
  }
  return {
    kind: 'none',
    reason: passedOver.length ? `no model resolves: ${passedOver.join('; ')}` : 'the file names no model',
    passedOver,
  };
}

function chosen(r: ModelRef, res: Extract<ModelResolution, { kind: 'catalogue' | 'config' }>, passedOver: string[]): ChosenModel {
  const name = res.kind === 'catalogue' ? res.entry.id : res.shape.name;
  const first: Assumption = {
    what: `model ${name}`,
    source: `${r.where} names "${r.ref}"${passedOver.length ? ` (passed over: ${passedOver.join('; ')})` : ''}`,
    provenance: PROVENANCE[r.source],
  };
  return {
    ...r,
    name,
    shape: res.shape,
    weights: res.weights,
    ...(res.entry ? { entry: res.entry } : {}),
    ...(res.kind === 'catalogue' && res.checkpoint ? { checkpoint: res.checkpoint } : {}),
    ...(res.kind === 'config' ? { configPath: res.path } : {}),
    assumptions: [first, ...res.assumptions],
    notes: res.notes,
  };
}

/** References as written that a host with file access might resolve differently: paths and `org/name` ids the catalogue lacks. */
export function needsFiles(ref: string): boolean {
  const q = ref.trim();
  if (!q || /\$\{/.test(q)) return false;
  if (/^(\/|\.{1,2}[\\/]|~|[A-Za-z]:[\\/])|\\|\.json$/i.test(q)) return true;
  if (!/^[\w.-]+\/[\w.-]+$/.test(q)) return false;
  const m = matchModelName(q);
  return !(m.kind === 'found' && m.via === 'hf-id');
}

/** `llama3_1_405b`, `squad_qwen2_7b`: the catalogue model a run or recipe name names, as a reference (undefined: none). */
export function runNameRef(name: string | undefined): string | undefined {
  const n = name?.trim();
  if (!n || /\$\{/.test(n)) return undefined;
  const m = modelInName(n);
  return m.kind === 'found' ? m.ref : undefined;
}
