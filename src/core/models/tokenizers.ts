// Vocabulary sizes of the tokenizers recipes name — HF ids, Megatron tokenizer types, SentencePiece / vocab files — and
// the stated default when a vocabulary is truly unknown. A vocabulary here is the embedding rows of the model that ships
// the tokenizer (config.json `vocab_size`), before Megatron pads it; the tokenizer itself may hold a few hundred fewer.
import type { Assumption } from '../memory/types.js';
import { CATALOGUE, matchModelName } from './catalogue.js';
import { baseName } from './files.js';
import { fuzzyTokens } from './names.js';

export interface TokenizerVocab {
  vocab: number;
  source: string;
}

const GPT2: TokenizerVocab = { vocab: 50257, source: 'HF gpt2 config.json vocab_size; Megatron GPT2BPETokenizer reads gpt2-vocab.json' };
/** Megatron's Llama2Tokenizer and the Launcher's llama_tokenizer.model are Llama 2's SentencePiece model. */
const LLAMA2_SP: TokenizerVocab = {
  vocab: 32000,
  source: "Llama 2's SentencePiece model (HF meta-llama/Llama-2-7b-hf config.json vocab_size 32000); a different model file would differ",
};

/** Tokenizers that are no model checkpoint of the catalogue: Megatron types, vocab files, tokenizer-only repositories. Keys lower case. */
const TOKENIZER_ONLY: Record<string, TokenizerVocab> = {
  gpt2: GPT2,
  gpt2bpetokenizer: GPT2,
  'gpt2-vocab.json': GPT2,
  'megatron-gpt-345m_vocab': GPT2,
  'bert-base-uncased': { vocab: 30522, source: 'HF bert-base-uncased config.json vocab_size' },
  bertwordpiecelowercase: {
    vocab: 30522,
    source: 'Megatron BertWordPieceLowerCase = bert-base-uncased vocabulary (HF config.json vocab_size)',
  },
  'bert-base-cased': { vocab: 28996, source: 'HF bert-base-cased config.json vocab_size' },
  bertwordpiececase: { vocab: 28996, source: 'Megatron BertWordPieceCase = bert-base-cased vocabulary (HF config.json vocab_size)' },
  llama2tokenizer: LLAMA2_SP,
  'llama_tokenizer.model': LLAMA2_SP,
  'nemotron_2_256k.model': {
    vocab: 256000,
    source: 'Nemotron-4 SentencePiece tokenizer, vocabulary 256,000 (arXiv:2402.16819; shipped in HF nvidia/Nemotron-4-340B-Base)',
  },
  'eleutherai/gpt-neox-20b': {
    vocab: 50432,
    source: 'transformers GPTNeoXConfig defaults vocab_size ("gpt-neox-20b" style)',
  },
  'google/recurrentgemma-2b': { vocab: 256000, source: 'transformers RecurrentGemmaConfig defaults vocab_size (google/recurrentgemma-2b)' },
  'bigcode/starcoder2-tokenizer': { vocab: 49152, source: 'transformers Starcoder2Config defaults@008e574 vocab_size' },
  // The instruct release of Mixtral 8x22B ships the v3 tokenizer, unlike the base checkpoint the catalogue entry reads.
  'mistralai/mixtral-8x22b-instruct-v0.1': {
    vocab: 32768,
    source: 'mistralai/mistral-inference README: the v3 tokenizer, "extended vocabulary of 32768 tokens" (Mixtral-8x22B-Instruct-v0.1)',
  },
};

/** Tokenizer families named by an HF id pattern: one tokenizer shipped with every size. */
const TOKENIZER_FAMILIES: [RegExp, TokenizerVocab][] = [
  [
    /^qwen\/qwen1\.5-/,
    {
      vocab: 151936,
      source:
        'the Qwen1.5 tokenizer: HF Qwen/Qwen1.5-1.8B-Chat config.json vocab_size 151936 (copy in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py@79d603f); larger Qwen1.5 sizes may pad their embedding further',
    },
  ],
];

/** File basenames that mean something only with their library (`${data_dir}/bpe/vocab.json` is the GPT-2 BPE vocabulary in Launcher GPT-3 recipes). */
const MEGATRON_BPE_FILES = new Set(['vocab.json', 'gpt2-vocab.json']);

/** Neutral vocabulary for a truly unknown tokenizer: Llama 3's, the most common in the catalogue's NVIDIA recipes' models. */
export const DEFAULT_VOCAB = 128256;

/** `${data_dir}/x.model` keeps its literal tail; a value that is only an interpolation names nothing. */
const usable = (s: string | undefined) => (s && !/^\$\{[^}]*\}$/.test(s.trim()) ? s.trim() : undefined);

/**
 * The vocabulary a recipe's tokenizer implies. `typeOrModelPath` is `tokenizer.type` / `tokenizer_type` (an HF id or a
 * Megatron type), `tokenizer.model` / `tokenizer_model` (an HF id or a SentencePiece file) or `tokenizer.vocab_file`.
 * Matched as a known tokenizer, then as a catalogue model (HF id, checkpoint or model name), then by file basename
 * (hash-prefixed copies such as `29e0…_nemotron_2_256k.model` match too).
 */
export function vocabFromTokenizer(
  library: string | undefined,
  typeOrModelPath: string | undefined,
): (TokenizerVocab & { name: string }) | undefined {
  const raw = usable(typeOrModelPath);
  if (!raw) return undefined;
  const lib = library?.toLowerCase();
  const id = raw.toLowerCase();
  const hit = (v: TokenizerVocab | undefined) => (v ? { ...v, name: raw } : undefined);
  if (Object.hasOwn(TOKENIZER_ONLY, id)) return hit(TOKENIZER_ONLY[id]);
  const family = TOKENIZER_FAMILIES.find(([re]) => re.test(id));
  if (family) return hit(family[1]);
  const base = baseName(id);
  if (Object.hasOwn(TOKENIZER_ONLY, base)) return hit(TOKENIZER_ONLY[base]);
  const suffixed = Object.keys(TOKENIZER_ONLY).find((k) => k.includes('.') && !k.includes('/') && base.endsWith(`_${k}`));
  if (suffixed) return hit(TOKENIZER_ONLY[suffixed]);
  if (lib === 'megatron' && MEGATRON_BPE_FILES.has(base)) return hit(GPT2);
  // A tokenizer file names a model only through its name or its folders (`/tok/Llama-2-7b-hf/tokenizer.model`).
  if (lib === 'sentencepiece' || lib === 'tiktoken' || /\.(model|json|tiktoken|txt)$/.test(base)) return fromFilePath(raw);
  const m = matchModelName(raw);
  if (m.kind === 'found')
    return { vocab: m.entry.tokenizer.vocab, name: raw, source: `${m.entry.title} tokenizer (${m.entry.tokenizer.source})` };
  // Several models share one tokenizer: the same vocabulary is no guess.
  if (m.kind === 'ambiguous') {
    const vocabs = new Set(m.entries.map((e) => e.tokenizer.vocab));
    if (vocabs.size === 1) {
      const v = m.entries[0]!.tokenizer;
      return {
        vocab: v.vocab,
        name: raw,
        source: `every catalogue model "${raw}" may name (${m.entries.map((e) => e.id).join(', ')}) has ${v.vocab} (${v.source})`,
      };
    }
  }
  return undefined;
}

/** Words of tokenizer file names that name no model. */
const FILE_WORDS = /(^|[-_.])(tokenizer|vocab|spm|sp|bpe|sentencepiece|merges|tiktoken|model|json|txt)(?=$|[-_.])/g;

/** A tokenizer file's vocabulary from the model its file name or its folders name, when unambiguous. */
function fromFilePath(raw: string): (TokenizerVocab & { name: string }) | undefined {
  const parts = raw.split(/[\\/]+/).filter((p) => p && !/\$\{|^\.{1,2}$/.test(p));
  const file = (parts.pop() ?? '').replace(FILE_WORDS, '').replace(/^[-_.]+|[-_.]+$/g, '');
  for (const name of [file, ...parts.slice(-2).reverse()]) {
    if (!name) continue;
    const m = matchModelName(name);
    if (m.kind === 'found')
      return {
        vocab: m.entry.tokenizer.vocab,
        name: raw,
        source: `${m.entry.title} tokenizer, named by "${name}" in the path (${m.entry.tokenizer.source})`,
      };
    if (m.kind === 'ambiguous') return undefined;
  }
  return undefined;
}

/** The tokenizer fields of a recipe, in the order they are tried. */
export interface TokenizerRef {
  library?: string;
  type?: string;
  model?: string;
  vocabFile?: string;
}

/** The first of `model`, `type`, `vocabFile` whose vocabulary is known. */
export function resolveTokenizerVocab(t: TokenizerRef): (TokenizerVocab & { name: string }) | undefined {
  for (const v of [t.model, t.type, t.vocabFile]) {
    const hit = vocabFromTokenizer(t.library, v);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The vocabulary to assume when the tokenizer is truly unknown, stated as an assumption:
 * - `override` (the user's `# recipe-lens: vocab=N` or setting) wins;
 * - else the most common vocabulary of the model family the hint names (a tokenizer or model name such as
 *   `Qwen/Qwen1.5-7B` → the Qwen models' 151,936), counted over the catalogue;
 * - else `DEFAULT_VOCAB` (128,256, Llama 3's): mid-way between the 32k SentencePiece and the 256k vocabularies, so the
 *   embedding error stays within (256,000 − 128,256) · hidden parameters either way.
 */
export function assumeVocab(hint?: string, override?: number): { vocab: number; assumption: Assumption } {
  const how = 'set `# recipe-lens: vocab=N` (or the model: `# recipe-lens: model=ORG/NAME`) to replace it';
  if (override !== undefined && Number.isInteger(override) && override > 0)
    return { vocab: override, assumption: { what: `vocab = ${override}`, source: 'the user-supplied vocabulary', provenance: 'setting' } };
  const family = hint ? familyOf(hint) : undefined;
  if (family) {
    const counts = new Map<number, number>();
    const members = CATALOGUE.filter((e) => e.family === family);
    for (const e of members) counts.set(e.tokenizer.vocab, (counts.get(e.tokenizer.vocab) ?? 0) + 1);
    const [vocab, n] = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    return {
      vocab,
      assumption: {
        what: `vocab = ${vocab}`,
        source: `"${hint}" names no known tokenizer; the most common vocabulary of the catalogue's ${family} models (${n} of ${members.length}); ${how}`,
        provenance: 'default',
      },
    };
  }
  return {
    vocab: DEFAULT_VOCAB,
    assumption: {
      what: `vocab = ${DEFAULT_VOCAB}`,
      source: `${hint ? `"${hint}" names no known tokenizer` : 'no tokenizer named'}; Llama 3's 128,256-token vocabulary assumed as a neutral middle between 32k and 256k vocabularies; ${how}`,
      provenance: 'default',
    },
  };
}

/** The catalogue family a name belongs to: every word of the family name appears in the name. */
function familyOf(name: string): string | undefined {
  const words = new Set(fuzzyTokens(name.slice(name.lastIndexOf('/') + 1)).concat(fuzzyTokens(name)));
  const families = [...new Set(CATALOGUE.map((e) => e.family))];
  return families.find((f) => f.split('-').every((w) => words.has(w)));
}
