// Vocabulary sizes of the tokenizers NeMo / Megatron / launcher recipes name (model embedding rows, unpadded).
import { findPreset, MODEL_PRESETS } from './presets.js';

export interface TokenizerVocab {
  vocab: number;
  source: string;
}

const LLAMA3 = { vocab: 128256, source: 'HF config.json vocab_size (128,000 BPE tokens + 256 special)' };
const LLAMA2 = { vocab: 32000, source: 'HF meta-llama/Llama-2-7b-hf config.json vocab_size (SentencePiece)' };
const MISTRAL_V1 = { vocab: 32000, source: 'HF mistralai config.json vocab_size (SentencePiece v1)' };
const MISTRAL_V3 = { vocab: 32768, source: 'mistralai/mistral-inference README: v3 tokenizer, "extended vocabulary of 32768 tokens"' };
const QWEN3 = { vocab: 151936, source: 'HF Qwen3 config.json vocab_size (embedding rows; the tokenizer itself holds 151,669 tokens)' };
const GPT2 = { vocab: 50257, source: 'HF gpt2 config.json vocab_size; Megatron GPT2BPETokenizer reads gpt2-vocab.json' };

/** Keys: lower-cased HF ids, Megatron tokenizer types, or file basenames. */
export const KNOWN_TOKENIZERS: Record<string, TokenizerVocab> = {
  'meta-llama/meta-llama-3-8b': LLAMA3,
  'meta-llama/meta-llama-3-8b-instruct': LLAMA3,
  'meta-llama/meta-llama-3-70b': LLAMA3,
  'meta-llama/meta-llama-3-70b-instruct': LLAMA3,
  'meta-llama/meta-llama-3.1-8b': LLAMA3,
  'meta-llama/meta-llama-3.1-70b': LLAMA3,
  'meta-llama/meta-llama-3.1-405b': LLAMA3,
  'meta-llama/llama-3.1-8b': LLAMA3,
  'meta-llama/llama-3.1-70b': LLAMA3,
  'meta-llama/llama-3.1-405b': LLAMA3,
  'meta-llama/llama-3.1-8b-instruct': LLAMA3,
  'meta-llama/llama-3.1-70b-instruct': LLAMA3,
  'meta-llama/llama-3.1-405b-instruct': LLAMA3,
  'meta-llama/llama-3.2-1b': LLAMA3,
  'meta-llama/llama-3.2-3b': LLAMA3,
  'meta-llama/llama-3.3-70b-instruct': LLAMA3,
  'meta-llama/llama-2-7b-hf': LLAMA2,
  'meta-llama/llama-2-13b-hf': LLAMA2,
  'meta-llama/llama-2-70b-hf': LLAMA2,
  'mistralai/mistral-7b-v0.1': MISTRAL_V1,
  'mistralai/mixtral-8x7b-v0.1': MISTRAL_V1,
  'mistralai/mixtral-8x7b-instruct-v0.1': MISTRAL_V1,
  'mistralai/mixtral-8x22b-v0.1': MISTRAL_V1,
  'mistralai/mixtral-8x22b-instruct-v0.1': MISTRAL_V3,
  'mistralai/mistral-7b-v0.3': MISTRAL_V3,
  'deepseek-ai/deepseek-v3': { vocab: 129280, source: 'HF deepseek-ai/DeepSeek-V3 config.json vocab_size' },
  'deepseek-ai/deepseek-r1': { vocab: 129280, source: 'HF deepseek-ai/DeepSeek-R1 config.json vocab_size' },
  'deepseek-ai/deepseek-v2-lite': { vocab: 102400, source: 'HF deepseek-ai/DeepSeek-V2-Lite config.json vocab_size' },
  'qwen/qwen3-8b': QWEN3,
  'qwen/qwen3-32b': QWEN3,
  'qwen/qwen3-235b-a22b': QWEN3,
  'openai/gpt-oss-20b': { vocab: 201088, source: 'HF openai/gpt-oss-20b config.json vocab_size (o200k_harmony)' },
  'openai/gpt-oss-120b': { vocab: 201088, source: 'HF openai/gpt-oss-120b config.json vocab_size (o200k_harmony)' },
  gpt2: GPT2,
  gpt2bpetokenizer: GPT2,
  'gpt2-vocab.json': GPT2,
  'megatron-gpt-345m_vocab': GPT2,
  'bert-base-uncased': { vocab: 30522, source: 'HF bert-base-uncased config.json vocab_size' },
  bertwordpiecelowercase: { vocab: 30522, source: 'Megatron BertWordPieceLowerCase = bert-base-uncased vocab (HF config.json vocab_size)' },
  'bert-base-cased': { vocab: 28996, source: 'HF bert-base-cased config.json vocab_size' },
  bertwordpiececase: { vocab: 28996, source: 'Megatron BertWordPieceCase = bert-base-cased vocab (HF config.json vocab_size)' },
  'nemotron_2_256k.model': {
    vocab: 256000,
    source: 'Nemotron-4 SentencePiece tokenizer, vocabulary 256,000 (arXiv:2402.16819; shipped in HF nvidia/Nemotron-4-340B-Base)',
  },
};

/** File basenames that are only meaningful with their library (`${data_dir}/bpe/vocab.json` is the GPT-2 BPE vocab in launcher GPT-3 recipes). */
const MEGATRON_BPE_FILES = new Set(['vocab.json']);

/**
 * The vocabulary a recipe's tokenizer implies. `typeOrModelPath` is `tokenizer.type` (an HF id or a Megatron type),
 * `tokenizer.model` (a SentencePiece file) or `tokenizer.vocab_file`; matched by id, then by file basename
 * (hash-prefixed copies such as `29e0…_nemotron_2_256k.model` match too), then through the model presets.
 */
export function vocabFromTokenizer(
  library: string | undefined,
  typeOrModelPath: string | undefined,
): (TokenizerVocab & { name: string }) | undefined {
  const raw = typeOrModelPath?.trim();
  if (!raw) return undefined;
  const id = raw.toLowerCase();
  const hit = (name: string, v: TokenizerVocab | undefined) => (v ? { ...v, name } : undefined);
  if (Object.hasOwn(KNOWN_TOKENIZERS, id)) return hit(raw, KNOWN_TOKENIZERS[id]);
  const base = id.slice(Math.max(id.lastIndexOf('/'), id.lastIndexOf('\\')) + 1);
  if (Object.hasOwn(KNOWN_TOKENIZERS, base)) return hit(raw, KNOWN_TOKENIZERS[base]);
  const suffixed = Object.keys(KNOWN_TOKENIZERS).find((k) => k.includes('.') && !k.includes('/') && base.endsWith(`_${k}`));
  if (suffixed) return hit(raw, KNOWN_TOKENIZERS[suffixed]);
  if (library?.toLowerCase() === 'megatron' && MEGATRON_BPE_FILES.has(base)) return hit(raw, GPT2);
  // An HF id naming a model we have a preset for carries that model's vocabulary.
  if (library?.toLowerCase() !== 'sentencepiece' && raw.includes('/')) {
    const preset = findPreset(raw);
    const p = preset ? MODEL_PRESETS[preset] : undefined;
    if (p) return { vocab: p.vocab, name: raw, source: `model preset ${p.name} (${p.source})` };
  }
  return undefined;
}
