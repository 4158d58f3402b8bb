// Resolving a model reference — `--model`, the `recipeLens.model` setting, a `# recipe-lens: model=…` modeline, or the
// model a file names (`policy.model_name`, a checkpoint path) — to a shape: a config.json at a path or in the Hugging
// Face cache, or a catalogue entry by id, alias, HF id or checkpoint name. A name that fits several entries yields the
// choices, never a guess. Reads only through the injected file system; without one, only the catalogue is searched.
import type { Assumption, ModelShape } from '../memory/types.js';
import { matchModelName } from './catalogue.js';
import {
  dirName,
  expandHome,
  hfIdFromRepoFolder,
  isAbsolutePath,
  joinPath,
  pathSegments,
  repoFolderName,
  type ModelFileSystem,
} from './files.js';
import { fromHfConfig, parseJsonText } from './hfConfig.js';
import { hasQuantQualifier, isGenericSegment, isHfId } from './names.js';
import { unmodelledByName, unmodelledReason } from './unmodelled.js';
import type { CatalogueEntry, Checkpoint, WeightFormat } from './types.js';
import { bf16Weights, weightFormatFromName } from './weights.js';

export type ModelResolution =
  | {
      kind: 'catalogue';
      query: string;
      entry: CatalogueEntry;
      /** The checkpoint the reference names, when it names one. */
      checkpoint?: Checkpoint;
      shape: ModelShape;
      weights: WeightFormat;
      /** How the reference matched: a catalogue id, alias, HF id, checkpoint name, model name, or its words. */
      matchedBy: 'id' | 'hf-id' | 'checkpoint-name' | 'alias' | 'name' | 'name-tokens';
      assumptions: Assumption[];
      notes: string[];
    }
  | {
      kind: 'config';
      query: string;
      /** The config.json read. */
      path: string;
      origin: 'path' | 'hf-cache';
      shape: ModelShape;
      weights: WeightFormat;
      architecture: string;
      /** The catalogue entry the checkpoint's name matches, for its published size and sources (the file wins). */
      entry?: CatalogueEntry;
      assumptions: Assumption[];
      notes: string[];
    }
  | { kind: 'ambiguous'; query: string; choices: { id: string; title: string }[]; message: string }
  | { kind: 'not-found'; query: string; message: string; searched: string[]; suggestions: string[] }
  | { kind: 'invalid'; query: string; path: string; message: string };

/** Where a reference came from, for the assumption texts. */
export type ModelRefOrigin = 'cli' | 'setting' | 'modeline' | 'file' | 'path';

const ORIGIN_TEXT: Record<ModelRefOrigin, string> = {
  cli: 'the --model option',
  setting: 'the recipeLens.model setting',
  modeline: 'the recipe-lens modeline',
  file: 'the model the file names',
  path: "the document's path",
};
const PROVENANCE = { cli: 'setting', setting: 'setting', modeline: 'modeline', file: 'file', path: 'default' } as const;

const LOOKS_LIKE_PATH = /^(\/|\\\\|\.{1,2}[\\/]|~([\\/]|$)|[A-Za-z]:[\\/])/;

/**
 * Resolve a model reference. Order: an explicit path (`/…`, `./…`, `~/…`, `C:\…`, `…/config.json`) read from disk; a
 * catalogue id, alias or HF id; an HF id found in the local Hugging Face cache; a relative path that exists; then the
 * path's names (its last folder first) matched against the catalogue.
 */
export function resolveModelRef(ref: string, fs?: ModelFileSystem, origin: ModelRefOrigin = 'setting'): ModelResolution {
  const query = ref.trim().replace(/^(['"])(.*)\1$/, '$2');
  const searched: string[] = [];
  const notes: string[] = [];
  if (!query) return { kind: 'not-found', query, message: 'no model named', searched, suggestions: [] };

  const pathLike = LOOKS_LIKE_PATH.test(query) || query.includes('\\') || /\.json$/i.test(query);
  if (fs && pathLike) {
    const p = expandHome(isAbsolutePath(query) || /^~/.test(query) ? query : joinPath(fs.cwd ?? '', query), fs.home);
    const read = readConfigAt(fs, p, query);
    if (read.kind !== 'missing') return read.kind === 'found' ? withEntry(read.result, query) : read.result;
    searched.push(...read.searched);
    notes.push(`${p}: ${read.why}; matched by name instead`);
  }

  // Catalogue ids, aliases and HF ids resolve the same on every machine.
  const direct = matchModelName(query);
  if (direct.kind === 'found' && direct.via !== 'name-tokens' && (direct.via === 'hf-id' || !query.includes('/')))
    return catalogueResult(query, direct.entry, direct.checkpoint, direct.via, origin, notes);

  if (fs && isHfId(query) && !pathLike) {
    const cached = findInHubCache(fs, query);
    if (cached.kind === 'found') return withEntry(cached.result, query);
    if (cached.kind === 'invalid') return cached.result;
    searched.push(...cached.searched);
  }
  if (fs && !pathLike && fs.cwd) {
    const p = joinPath(fs.cwd, query);
    if (fs.isDirectory(p) || /\.json$/i.test(p)) {
      const read = readConfigAt(fs, p, query);
      if (read.kind !== 'missing') return read.kind === 'found' ? withEntry(read.result, query) : read.result;
      searched.push(...read.searched);
    }
  }
  return byName(query, origin, searched, notes);
}

/** Match the reference's names: the whole reference, `org/name` pairs, then single path components from the last. */
function byName(query: string, origin: ModelRefOrigin, searched: string[], notes: string[]): ModelResolution {
  const segs = pathSegments(query)
    .map((s) => hfIdFromRepoFolder(s) ?? s)
    .filter((s) => !isGenericSegment(s));
  const hfShaped = segs.length === 2 && isHfId(query.trim());
  const candidates: string[] = [];
  if (segs.length >= 2) candidates.push(`${segs[segs.length - 2]}/${segs[segs.length - 1]}`);
  for (let i = segs.length - 1; i >= Math.max(0, segs.length - 3); i--) candidates.push(segs[i]!);
  for (const name of candidates) {
    const m = matchModelName(name);
    if (m.kind === 'found') {
      if (name !== segs[segs.length - 1] && !name.includes('/')) notes.push(`matched by the folder "${name}" of "${query}"`);
      return catalogueResult(query, m.entry, m.checkpoint, m.via, origin, notes, name);
    }
    // The organisation of an HF id (`Qwen` of `Qwen/Qwen2.5-Math-1.5B-Instruct`) names no model: the id is not found,
    // rather than "fits 36 catalogue models".
    if (m.kind === 'ambiguous' && !(hfShaped && name === segs[0]))
      return {
        kind: 'ambiguous',
        query,
        choices: m.entries.map((e) => ({ id: e.id, title: e.title })),
        message: `"${query}" fits ${m.entries.length} catalogue models (${m.entries.map((e) => e.id).join(', ')}); name one of them, e.g. \`# recipe-lens: model=${m.entries[0]!.id}\``,
      };
  }
  const unmodelled = candidates.map(unmodelledByName).find((m) => m);
  if (unmodelled)
    return {
      kind: 'not-found',
      query,
      searched,
      suggestions: [],
      message: `"${query}" names ${unmodelled.title}, ${unmodelledReason(unmodelled)}`,
    };
  const last = segs[segs.length - 1] ?? query;
  const near = matchModelName(last);
  const suggestions = near.kind === 'none' ? near.near.map((e) => e.id) : [];
  return {
    kind: 'not-found',
    query,
    searched,
    suggestions,
    message: `"${query}" is no catalogue model${searched.length ? ' and no config.json was found locally' : ''}${
      suggestions.length ? ` (did you mean ${suggestions.slice(0, 4).join(', ')}?)` : ''
    }; point the model setting at a checkpoint directory holding config.json, or name a catalogue model`,
  };
}

function catalogueResult(
  query: string,
  entry: CatalogueEntry,
  checkpoint: Checkpoint | undefined,
  via: Extract<ModelResolution, { kind: 'catalogue' }>['matchedBy'],
  origin: ModelRefOrigin,
  notes: string[],
  matchedName = query,
): ModelResolution {
  const reference = entry.checkpoints[0];
  let weights: WeightFormat;
  let weightsProvenance: Assumption['provenance'] = 'preset';
  const named = hasQuantQualifier(matchedName) ? weightFormatFromName(matchedName) : undefined;
  if (checkpoint) weights = checkpoint.weights;
  else if (named && reference && namesOwnFormat(matchedName, named, reference.weights))
    // `gpt_oss_120b_fp4`, `deepseek_r1_0528_fp8`: the name says the format the model is released in, so its reference
    // checkpoint's exact format (MXFP4 experts, block-scaled FP8 and its exclusions) applies.
    weights = {
      ...reference.weights,
      source: `the name's ${BARE_FP4.test(matchedName) ? 'FP4' : named.dtype.toUpperCase()} is the released format of ${reference.hfId}: ${reference.weights.source}`,
    };
  else if (named) {
    weights = named;
    weightsProvenance = 'default';
  } else if (reference)
    weights = { ...reference.weights, source: `as the reference checkpoint ${reference.hfId}: ${reference.weights.source}` };
  else {
    weights = bf16Weights(`${entry.title} has no public checkpoint in the catalogue; BF16 assumed`);
    weightsProvenance = 'default';
  }
  const assumptions: Assumption[] = [
    {
      what: `model shape of ${entry.id} (${entry.title})`,
      source: `${ORIGIN_TEXT[origin]} "${query}" → catalogue by ${via}; ${entry.sources[0]}`,
      provenance: PROVENANCE[origin],
    },
    { what: `weights stored as ${describeWeights(weights)}`, source: weights.source, provenance: weightsProvenance },
  ];
  return {
    kind: 'catalogue',
    query,
    entry,
    ...(checkpoint ? { checkpoint } : {}),
    shape: entry.shape,
    weights,
    matchedBy: via,
    assumptions,
    notes: [...notes, ...(checkpoint?.note ? [checkpoint.note] : []), ...entry.notes],
  };
}

/** "NVFP4 (MLP / MoE layers; the rest BF16)". */
export function describeWeights(w: WeightFormat): string {
  const scope = { all: 'all tensors', linear: 'linear layers', mlp: 'MLP / MoE layers', experts: 'routed experts' }[w.scope];
  return w.scope === 'all' ? w.dtype.toUpperCase() : `${w.dtype.toUpperCase()} (${scope}; the rest ${w.other.toUpperCase()})`;
}

type ConfigResult = Extract<ModelResolution, { kind: 'config' }>;
type Read =
  | { kind: 'found'; result: ConfigResult }
  | { kind: 'invalid'; result: Extract<ModelResolution, { kind: 'invalid' }> }
  | { kind: 'missing'; searched: string[]; why: string };

/** A config.json at `p` (a file, a checkpoint directory, or an HF cache repository folder with snapshots). */
function readConfigAt(fs: ModelFileSystem, p: string, query: string, origin: ConfigResult['origin'] = 'path'): Read {
  let dir: string;
  let file: string;
  const assumptions: Assumption[] = [];
  if (/\.json$/i.test(p)) {
    file = p;
    dir = dirName(p);
  } else if (fs.isDirectory(p)) {
    dir = p;
    file = joinPath(p, 'config.json');
    if (fs.readText(file) === undefined && fs.isDirectory(joinPath(p, 'snapshots'))) {
      const snap = pickSnapshot(fs, p);
      if (snap.dir) {
        dir = snap.dir;
        file = joinPath(snap.dir, 'config.json');
        if (snap.assumed) assumptions.push({ what: `snapshot ${snap.name}`, source: snap.assumed, provenance: 'default' });
      }
    }
  } else return { kind: 'missing', searched: [p], why: 'no such file or directory' };
  const text = fs.readText(file);
  if (text === undefined) return { kind: 'missing', searched: [file], why: 'no readable config.json' };
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { kind: 'invalid', result: { kind: 'invalid', query, path: file, message: `${file}: ${parsed.reason}` } };
  let quant: unknown;
  const quantText = fs.readText(joinPath(dir, 'hf_quant_config.json'));
  const notes: string[] = [];
  if (quantText !== undefined) {
    const q = parseJsonText(quantText);
    if (q.ok) quant = q.value;
    else notes.push(`${joinPath(dir, 'hf_quant_config.json')}: ${q.reason}; ignored`);
  }
  const shape = fromHfConfig(parsed.value, quant, dir);
  if (!shape.ok) return { kind: 'invalid', result: { kind: 'invalid', query, path: file, message: shape.reason } };
  const named = checkpointName(dir);
  if (named) shape.shape.name = named;
  return {
    kind: 'found',
    result: {
      kind: 'config',
      query,
      path: file,
      origin,
      shape: shape.shape,
      weights: shape.weights,
      architecture: shape.architecture,
      assumptions: [
        { what: `model shape from ${file}`, source: `${shape.architecture} config.json`, provenance: 'file' },
        ...assumptions,
        ...shape.assumptions,
      ],
      notes: [...notes, ...shape.notes],
    },
  };
}

/** A checkpoint directory's name: the HF id of a cache folder (`models--org--name/snapshots/<commit>`), else its last meaningful folder. */
function checkpointName(dir: string): string | undefined {
  const segs = pathSegments(dir);
  const snap = segs.lastIndexOf('snapshots');
  const repo = snap > 0 ? hfIdFromRepoFolder(segs[snap - 1]!) : undefined;
  return repo ?? segs.filter((seg) => !isGenericSegment(seg)).pop();
}

/** The snapshot `refs/main` names, else the first snapshot (sorted) holding a config.json. */
function pickSnapshot(fs: ModelFileSystem, repoDir: string): { dir?: string; name?: string; assumed?: string } {
  const ref = fs.readText(joinPath(repoDir, 'refs', 'main'))?.trim();
  if (ref && /^[\w.-]+$/.test(ref) && fs.readText(joinPath(repoDir, 'snapshots', ref, 'config.json')) !== undefined)
    return { dir: joinPath(repoDir, 'snapshots', ref), name: ref };
  const snaps = (fs.listDir(joinPath(repoDir, 'snapshots')) ?? []).sort();
  const name = snaps.find((s) => fs.readText(joinPath(repoDir, 'snapshots', s, 'config.json')) !== undefined);
  if (!name) return {};
  return {
    dir: joinPath(repoDir, 'snapshots', name),
    name,
    assumed: `${repoDir} has no usable refs/main; snapshot ${name} read (${snaps.length} snapshot${snaps.length === 1 ? '' : 's'})`,
  };
}

/** `org/name` in the Hugging Face hub caches (exact folder name, then case-insensitive). */
function findInHubCache(fs: ModelFileSystem, hfId: string): Read {
  const searched: string[] = [];
  const folder = repoFolderName(hfId);
  for (const cache of fs.hubCacheDirs) {
    let repo = joinPath(cache, folder);
    if (!fs.isDirectory(repo)) {
      const other = fs.listDir(cache)?.find((n) => n.toLowerCase() === folder.toLowerCase());
      if (!other) {
        searched.push(repo);
        continue;
      }
      repo = joinPath(cache, other);
    }
    const read = readConfigAt(fs, repo, hfId, 'hf-cache');
    if (read.kind !== 'missing') return read;
    searched.push(...read.searched);
  }
  return { kind: 'missing', searched, why: 'not in the Hugging Face cache' };
}

/** Attach the catalogue entry the checkpoint's name matches (informational: the file's shape is used). */
function withEntry(r: ConfigResult, query: string): ConfigResult {
  const names = [query, ...pathSegments(r.path).map((s) => hfIdFromRepoFolder(s) ?? s)].filter(
    (s) => !isGenericSegment(s) && s !== 'config.json',
  );
  for (const n of [query, ...names.reverse()]) {
    const m = matchModelName(n);
    if (m.kind === 'found' && m.via !== 'name-tokens') return { ...r, entry: m.entry };
  }
  return r;
}

/** A name's format qualifier is the model's own released format: the same dtype, or a bare `fp4` for a 4-bit float release. */
function namesOwnFormat(name: string, named: WeightFormat, released: WeightFormat): boolean {
  if (named.dtype === released.dtype) return true;
  return BARE_FP4.test(name) && (released.dtype === 'mxfp4' || released.dtype === 'nvfp4');
}

/** `fp4` with no NV / MX: a 4-bit float of whichever block format the release uses. */
const BARE_FP4 = /(^|[-_.])fp4([-_.]|$)/i;
