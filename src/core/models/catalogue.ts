// The model catalogue and name lookup: catalogue ids, aliases (NeMo / Megatron-Bridge config classes, recipe names),
// Hugging Face ids and checkpoint names map to entries; a name that fits several entries is ambiguous, never guessed.
import { DEEPSEEK_MODELS } from './catalogue/deepseek.js';
import { GEMMA_MODELS } from './catalogue/gemma.js';
import { GLM_MODELS } from './catalogue/glm.js';
import { GPT_OSS_MODELS } from './catalogue/gptOss.js';
import { LLAMA_MODELS } from './catalogue/llama.js';
import { MINIMAX_MODELS } from './catalogue/minimax.js';
import { MISTRAL_MODELS } from './catalogue/mistral.js';
import { NEMOTRON_MODELS } from './catalogue/nemotron.js';
import { OTHER_MODELS } from './catalogue/others.js';
import { PHI_MODELS } from './catalogue/phi.js';
import { QWEN_DISTILL_MODELS, QWEN_MODELS } from './catalogue/qwen.js';
import { QWEN_VL_MODELS } from './catalogue/qwenVl.js';
import { exactKey, fuzzyKey, fuzzyTokens } from './names.js';
import type { CatalogueEntry, Checkpoint } from './types.js';

export const CATALOGUE: readonly CatalogueEntry[] = [
  ...LLAMA_MODELS,
  ...MISTRAL_MODELS,
  ...QWEN_MODELS,
  ...QWEN_VL_MODELS,
  ...DEEPSEEK_MODELS,
  ...QWEN_DISTILL_MODELS,
  ...GPT_OSS_MODELS,
  ...GEMMA_MODELS,
  ...PHI_MODELS,
  ...NEMOTRON_MODELS,
  ...GLM_MODELS,
  ...MINIMAX_MODELS,
  ...OTHER_MODELS,
];

const BY_ID = new Map(CATALOGUE.map((e) => [e.id, e]));

/** The entry with this canonical id. */
export function catalogueEntry(id: string): CatalogueEntry | undefined {
  return BY_ID.get(id);
}

export type NameMatch =
  | {
      kind: 'found';
      entry: CatalogueEntry;
      checkpoint?: Checkpoint;
      via: 'id' | 'hf-id' | 'checkpoint-name' | 'alias' | 'name' | 'name-tokens';
    }
  | { kind: 'ambiguous'; entries: CatalogueEntry[] }
  | { kind: 'none'; near: CatalogueEntry[] };

interface Index {
  hfIds: Map<string, { entry: CatalogueEntry; checkpoint: Checkpoint }>;
  exact: Map<string, { entry: CatalogueEntry; checkpoint?: Checkpoint; via: 'id' | 'checkpoint-name' | 'alias' }[]>;
  fuzzy: Map<string, Set<CatalogueEntry>>;
  /** Fuzzy token sets of every name of every entry, for the token-subset fallback. */
  tokenSets: { entry: CatalogueEntry; tokens: Set<string> }[];
}

let INDEX: Index | undefined;

function buildIndex(): Index {
  const ix: Index = { hfIds: new Map(), exact: new Map(), fuzzy: new Map(), tokenSets: [] };
  const addExact = (name: string, v: { entry: CatalogueEntry; checkpoint?: Checkpoint; via: 'id' | 'checkpoint-name' | 'alias' }) => {
    const k = exactKey(name);
    if (!k) return;
    const list = ix.exact.get(k) ?? [];
    if (!list.some((x) => x.entry === v.entry && x.checkpoint === v.checkpoint)) list.push(v);
    ix.exact.set(k, list);
  };
  const addFuzzy = (name: string, entry: CatalogueEntry) => {
    const k = fuzzyKey(name);
    if (!k) return;
    ix.fuzzy.set(k, (ix.fuzzy.get(k) ?? new Set()).add(entry));
    ix.tokenSets.push({ entry, tokens: new Set(fuzzyTokens(name)) });
  };
  for (const entry of CATALOGUE) {
    addExact(entry.id, { entry, via: 'id' });
    addFuzzy(entry.id, entry);
    for (const a of entry.aliases) {
      addExact(a, { entry, via: 'alias' });
      addFuzzy(a, entry);
    }
    for (const c of entry.checkpoints) {
      ix.hfIds.set(c.hfId.toLowerCase(), { entry, checkpoint: c });
      const base = c.hfId.slice(c.hfId.indexOf('/') + 1);
      addExact(base, { entry, checkpoint: c, via: 'checkpoint-name' });
      addFuzzy(base, entry);
    }
  }
  return ix;
}

const index = () => (INDEX ??= buildIndex());

/**
 * Entries of the name's model families, for "did you mean" lists (at most 8), closest first: a family word the name
 * holds anywhere (`Skywork-Reward-V2-Qwen3-0.6B` is a Qwen), then the most size, version and other words shared with
 * any of the entry's names (`Qwen3-Nemotron-235B-A22B-GenRM` → qwen3-235b-a22b first); catalogue order breaks ties.
 */
function nearEntries(name: string): CatalogueEntry[] {
  const tokens = new Set(fuzzyTokens(name));
  if (!tokens.size) return [];
  // A size or active-size word says more than a version or a family word.
  const weight = (t: string) => (SIZE_PART.test(t) ? 3 : /\d/.test(t) ? 2 : 1);
  const scored: { entry: CatalogueEntry; score: number; order: number }[] = [];
  CATALOGUE.forEach((entry, order) => {
    if (!tokens.has(fuzzyTokens(entry.id)[0] ?? '')) return;
    let score = 0;
    for (const s of index().tokenSets) {
      if (s.entry !== entry) continue;
      let shared = 0;
      for (const t of s.tokens) if (tokens.has(t)) shared += weight(t);
      score = Math.max(score, shared);
    }
    scored.push({ entry, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, 8).map((x) => x.entry);
}

/** A size part of a name token (`8b`, `0.6b`, `22b` of `a22b`, `1t`, `125m`). */
const SIZE_PART = /^\d+(\.\d+)?[bmt]$/;

/** Name words that mark a multimodal release of a language model. */
const MODALITY = new Set(['vl', 'vision', 'omni', 'audio']);

/**
 * The catalogue entry a single name stands for (an id, alias, HF id `org/name`, or a checkpoint name): exact forms
 * first, then the name without qualifiers (`-Instruct`, `-FP8`, dates), then — only when exactly one entry has every
 * remaining word — a token match. Several candidates are returned as ambiguous.
 */
export function matchModelName(name: string): NameMatch {
  const raw = name.trim();
  if (!raw) return { kind: 'none', near: [] };
  const ix = index();
  const hf = ix.hfIds.get(raw.toLowerCase());
  if (hf) return { kind: 'found', entry: hf.entry, checkpoint: hf.checkpoint, via: 'hf-id' };
  const base = raw.includes('/') ? raw.slice(raw.lastIndexOf('/') + 1) : raw;
  const exact = ix.exact.get(exactKey(base));
  if (exact?.length) {
    const entries = unique(exact.map((x) => x.entry));
    if (entries.length === 1) {
      const hit = exact.find((x) => x.via === 'id') ?? exact.find((x) => x.via === 'checkpoint-name') ?? exact[0]!;
      return { kind: 'found', entry: hit.entry, ...(hit.checkpoint ? { checkpoint: hit.checkpoint } : {}), via: hit.via };
    }
    return { kind: 'ambiguous', entries };
  }
  const fuzzy = ix.fuzzy.get(fuzzyKey(base));
  if (fuzzy?.size)
    return fuzzy.size === 1 ? { kind: 'found', entry: [...fuzzy][0]!, via: 'name' } : { kind: 'ambiguous', entries: [...fuzzy] };
  const tokens = fuzzyTokens(base);
  // A lone word ("llama") or a lone number names no model; two words at least, one of them a size or version.
  if (tokens.length >= 2 && tokens.some((t) => /\d/.test(t))) {
    // A multimodal release (Qwen3-VL) is meant only when the name says so: `qwen3-30b` is the language model.
    const modalOnly = (s: { tokens: ReadonlySet<string> }) => [...s.tokens].some((t) => MODALITY.has(t) && !tokens.includes(t));
    const hits = unique(ix.tokenSets.filter((s) => tokens.every((t) => s.tokens.has(t)) && !modalOnly(s)).map((s) => s.entry));
    if (hits.length === 1) return { kind: 'found', entry: hits[0]!, via: 'name-tokens' };
    if (hits.length > 1) return { kind: 'ambiguous', entries: hits };
  } else if (tokens.length >= 1) {
    // A family name without a size (`llama4`, `gpt_oss`): the models whose id starts with its words, none chosen.
    const family = CATALOGUE.filter((e) => {
      const id = fuzzyTokens(e.id);
      return tokens.every((t, i) => id[i] === t);
    });
    if (family.length) return { kind: 'ambiguous', entries: family };
  }
  return { kind: 'none', near: nearEntries(base) };
}

/**
 * `findPreset`-style lookup: the catalogue id a name stands for when it is unambiguous, else undefined.
 * Old preset ids (`llama3-70b`, `qwen3-235b-a22b`, …) are catalogue ids.
 */
export function findCatalogueId(name: string): string | undefined {
  const m = matchModelName(name);
  return m.kind === 'found' ? m.entry.id : undefined;
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
