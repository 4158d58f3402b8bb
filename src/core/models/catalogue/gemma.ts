// Google Gemma, Gemma 2 and Gemma 3 (text decoders): GeGLU MLPs, tied embeddings, local/global attention.
import { exactParams } from '../published.js';
import type { CatalogueEntry, TokenizerFacts } from '../types.js';
import { assumedBf16Weights, bf16Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';

const GEMMA = { ...DENSE, gatedMlp: true, norm: 'rmsnorm', activation: 'geglu', tiedEmbeddings: true } as const;
/** Gemma 2: a 4096-token window on every other layer, norms before and after attention and MLP (NeMo Gemma2Config window_size (4096, 0)). */
const GEMMA2 = { ...GEMMA, vocab: 256000, slidingWindow: { window: 4096, everyOther: true }, postNorms: true } as const;
/** Gemma 3: five local layers per global one (NeMo Gemma3Config interleaved_attn_pattern (5, 1)), q/k norms, sandwich norms. */
const GEMMA3 = { ...GEMMA, qkNorm: true, postNorms: true, slidingWindowPattern: 6 } as const;

const gemmaTokenizer = (vocab: number, hfId: string, source: string): TokenizerFacts => ({ hfId, kind: 'sentencepiece', vocab, source });
const bf16 = (id: string) => bf16Weights(`${SRC.hf(id, 'mlc')} torch_dtype bfloat16`);
const GEMMA_BF16 = assumedBf16Weights('the Gemma releases read here store BF16 (e.g. google/gemma-2-9b config.json torch_dtype bfloat16)');
const TEXT_ONLY = 'The text decoder only: the multimodal checkpoint adds a SigLIP vision encoder the shape does not describe.';

export const GEMMA_MODELS: CatalogueEntry[] = [
  entry({
    id: 'gemma-2b',
    family: 'gemma',
    title: 'Gemma 2B',
    shape: { ...GEMMA, layers: 18, hidden: 2048, ffn: 16384, heads: 8, kvHeads: 1, headDim: 256, vocab: 256000 },
    checkpoints: [ckpt('google/gemma-2b', bf16('google/gemma-2b')), ckpt('google/gemma-2b-it', GEMMA_BF16)],
    aliases: ['GemmaConfig2B', 'GemmaModelProvider2B', 'gemma_2b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-2b', SRC.hf('google/gemma-2b', 'mlc') + ' vocab_size'),
    published: exactParams('2506172416', SRC.keras('gemma_2b_en')),
    sources: [SRC.hf('google/gemma-2b', 'mlc'), SRC.nemo('gemma', 'GemmaConfig2B (kv_channels 256, tied)')],
  }),
  entry({
    id: 'gemma-7b',
    family: 'gemma',
    title: 'Gemma 7B',
    shape: { ...GEMMA, layers: 28, hidden: 3072, ffn: 24576, heads: 16, kvHeads: 16, headDim: 256, vocab: 256000 },
    checkpoints: ckpts(GEMMA_BF16, 'google/gemma-7b', 'google/gemma-7b-it'),
    aliases: ['GemmaConfig7B', 'GemmaModelProvider7B', 'gemma_7b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-7b', SRC.hf('google/gemma-2b', 'mlc') + ' vocab_size (one Gemma tokenizer)'),
    published: exactParams('8537680896', SRC.keras('gemma_7b_en')),
    sources: [SRC.nemo('gemma', 'GemmaConfig7B (kv_channels 256, tied)')],
  }),
  entry({
    id: 'gemma2-2b',
    family: 'gemma',
    title: 'Gemma 2 2B',
    shape: { ...GEMMA2, layers: 26, hidden: 2304, ffn: 9216, heads: 8, kvHeads: 4, headDim: 256 },
    checkpoints: [ckpt('google/gemma-2-2b', bf16('google/gemma-2-2b')), ckpt('google/gemma-2-2b-it', GEMMA_BF16)],
    aliases: ['Gemma2Config2B', 'Gemma2ModelProvider2B', 'gemma2_2b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-2-2b', SRC.hf('google/gemma-2-2b', 'mlc') + ' vocab_size'),
    published: exactParams('2614341888', SRC.keras('gemma2_2b_en')),
    sources: [SRC.hf('google/gemma-2-2b', 'mlc'), SRC.nemo('gemma2', 'Gemma2Config2B')],
  }),
  entry({
    id: 'gemma2-9b',
    family: 'gemma',
    title: 'Gemma 2 9B',
    shape: { ...GEMMA2, layers: 42, hidden: 3584, ffn: 14336, heads: 16, kvHeads: 8, headDim: 256 },
    checkpoints: [ckpt('google/gemma-2-9b', bf16('google/gemma-2-9b')), ckpt('google/gemma-2-9b-it', GEMMA_BF16)],
    aliases: ['Gemma2Config9B', 'Gemma2ModelProvider9B', 'gemma2_9b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-2-9b', SRC.hf('google/gemma-2-9b', 'mlc') + ' vocab_size'),
    published: exactParams('9241705984', SRC.keras('gemma2_9b_en')),
    sources: [SRC.hf('google/gemma-2-9b', 'mlc'), SRC.nemo('gemma2', 'Gemma2Config9B')],
  }),
  entry({
    id: 'gemma2-27b',
    family: 'gemma',
    title: 'Gemma 2 27B',
    shape: { ...GEMMA2, layers: 46, hidden: 4608, ffn: 36864, heads: 32, kvHeads: 16, headDim: 128 },
    checkpoints: [ckpt('google/gemma-2-27b', bf16('google/gemma-2-27b')), ckpt('google/gemma-2-27b-it', GEMMA_BF16)],
    aliases: ['Gemma2Config27B', 'Gemma2ModelProvider27B', 'gemma2_27b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-2-27b', SRC.hf('google/gemma-2-27b', 'mlc') + ' vocab_size'),
    published: exactParams('27227128320', SRC.keras('gemma2_27b_en')),
    sources: [SRC.hf('google/gemma-2-27b', 'mlc'), SRC.nemo('gemma2', 'Gemma2Config27B (kv_channels 128)')],
  }),
  entry({
    id: 'gemma3-1b',
    family: 'gemma',
    title: 'Gemma 3 1B',
    shape: {
      ...GEMMA3,
      layers: 26,
      hidden: 1152,
      ffn: 6912,
      heads: 4,
      kvHeads: 1,
      headDim: 256,
      vocab: 262144,
      slidingWindow: { window: 512, everyOther: false },
    },
    checkpoints: [ckpt('google/gemma-3-1b-it', bf16('google/gemma-3-1b-it')), ckpt('google/gemma-3-1b-pt', GEMMA_BF16)],
    aliases: ['Gemma3Config1B', 'Gemma3ModelProvider1B', 'gemma3_1b'],
    tokenizer: gemmaTokenizer(262144, 'google/gemma-3-1b-it', SRC.hf('google/gemma-3-1b-it', 'mlc') + ' vocab_size'),
    published: exactParams('999885952', SRC.keras('gemma3_1b')),
    sources: [
      SRC.hf('google/gemma-3-1b-it', 'mlc') + ' (sliding_window 512, sliding_window_pattern 6)',
      SRC.nemo('gemma3', 'Gemma3Config1B'),
    ],
  }),
  entry({
    id: 'gemma3-4b',
    family: 'gemma',
    title: 'Gemma 3 4B',
    shape: {
      ...GEMMA3,
      layers: 34,
      hidden: 2560,
      ffn: 10240,
      heads: 8,
      kvHeads: 4,
      headDim: 256,
      vocab: 262208,
      slidingWindow: { window: 1024, everyOther: false },
    },
    checkpoints: ckpts(GEMMA_BF16, 'google/gemma-3-4b-it', 'google/gemma-3-4b-pt'),
    aliases: ['Gemma3Config4B', 'Gemma3ModelProvider4B'],
    tokenizer: gemmaTokenizer(262208, 'google/gemma-3-4b-it', SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider4B vocab_size')),
    published: exactParams('3880099328', SRC.keras('gemma3_4b_text')),
    sources: [SRC.nemo('gemma3', 'Gemma3Config4B (window_size 1024)'), SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider4B')],
    notes: [TEXT_ONLY],
  }),
  entry({
    id: 'gemma3-12b',
    family: 'gemma',
    title: 'Gemma 3 12B',
    shape: {
      ...GEMMA3,
      layers: 48,
      hidden: 3840,
      ffn: 15360,
      heads: 16,
      kvHeads: 8,
      headDim: 256,
      vocab: 262208,
      slidingWindow: { window: 1024, everyOther: false },
    },
    checkpoints: ckpts(GEMMA_BF16, 'google/gemma-3-12b-it', 'google/gemma-3-12b-pt'),
    aliases: ['Gemma3Config12B', 'Gemma3ModelProvider12B'],
    tokenizer: gemmaTokenizer(262208, 'google/gemma-3-12b-it', SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider12B vocab_size')),
    published: exactParams('11765788416', SRC.keras('gemma3_12b_text')),
    sources: [SRC.nemo('gemma3', 'Gemma3Config12B (window_size 1024)'), SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider12B')],
    notes: [TEXT_ONLY],
  }),
  entry({
    id: 'gemma3-27b',
    family: 'gemma',
    title: 'Gemma 3 27B',
    shape: {
      ...GEMMA3,
      layers: 62,
      hidden: 5376,
      ffn: 21504,
      heads: 32,
      kvHeads: 16,
      headDim: 128,
      vocab: 262208,
      slidingWindow: { window: 1024, everyOther: false },
    },
    checkpoints: ckpts(GEMMA_BF16, 'google/gemma-3-27b-it', 'google/gemma-3-27b-pt'),
    aliases: ['Gemma3Config27B', 'Gemma3ModelProvider27B'],
    tokenizer: gemmaTokenizer(262208, 'google/gemma-3-27b-it', SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider27B vocab_size')),
    published: exactParams('27009002240', SRC.keras('gemma3_27b_text')),
    sources: [
      SRC.nemo('gemma3', 'Gemma3Config27B (kv_channels 128, window_size 1024)'),
      SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider27B'),
    ],
    notes: [TEXT_ONLY],
  }),
];
