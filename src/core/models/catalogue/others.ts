// StarCoder2, Falcon, Baichuan 2, TinyLlama and MiMo-7B.
// Architectures (config.json architectures[0]): mlc-llm model_preset.py@79d603f (starcoder2 = StarCoder2 7B, baichuan,
// tinyllama_1b_chat_v1.0); NVIDIA-NeMo/Automodel docs/model-coverage/llm/bigcode/starcoder2.mdx (3B, 15B) and
// tiiuae/falcon.mdx@36044ad (falcon-7b); the aiconfigurator copy of MiMo-7B-Base.
import { roundedParams } from '../published.js';
import type { CatalogueEntry } from '../types.js';
import { assumedBf16Weights, bf16Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';

/**
 * StarCoder2: LayerNorm, GELU MLP without gate, biases on every linear layer, a 4096-token sliding window in every layer
 * (transformers docs/source/en/model_doc/starcoder2.md: "sliding window attention of 4,096 tokens"); tied embeddings
 * (transformers Starcoder2Config tie_word_embeddings default True; the published configs do not override it).
 */
const STARCODER2 = {
  ...DENSE,
  gatedMlp: false,
  norm: 'layernorm',
  activation: 'gelu',
  linearBias: true,
  tiedEmbeddings: true,
  vocab: 49152,
  headDim: 128,
  slidingWindow: { window: 4096, everyOther: false },
} as const;
const STARCODER2_TOKENIZER = (hfId: string) =>
  ({
    hfId,
    kind: 'bpe',
    vocab: 49152,
    source: SRC.hf('bigcode/starcoder2-7b', 'mlc') + ' vocab_size (bigcode/starcoder2-tokenizer)',
  }) as const;
const STARCODER2_SOURCES = [
  'transformers docs/source/en/model_doc/starcoder2.md (3B, 7B, 15B; GQA; 4,096-token sliding window)',
  SRC.transformers('Starcoder2Config') + ' (tie_word_embeddings True, use_bias True)',
];
const SC2_BF16 = assumedBf16Weights('the BF16 bigcode/starcoder2-7b release');

export const OTHER_MODELS: CatalogueEntry[] = [
  entry({
    id: 'starcoder2-3b',
    family: 'starcoder',
    title: 'StarCoder2 3B',
    shape: { architecture: 'Starcoder2ForCausalLM', ...STARCODER2, layers: 30, hidden: 3072, ffn: 12288, heads: 24, kvHeads: 2 },
    checkpoints: [ckpt('bigcode/starcoder2-3b', SC2_BF16)],
    aliases: ['Starcoder2Config3B', 'starcoder2_3b'],
    tokenizer: STARCODER2_TOKENIZER('bigcode/starcoder2-3b'),
    published: roundedParams('3B', 'Model name (bigcode/starcoder2-3b)', { nominal: true }),
    sources: [SRC.nemo('starcoder2', 'Starcoder2Config3B'), ...STARCODER2_SOURCES],
  }),
  entry({
    id: 'starcoder2-7b',
    family: 'starcoder',
    title: 'StarCoder2 7B',
    shape: { architecture: 'Starcoder2ForCausalLM', ...STARCODER2, layers: 32, hidden: 4608, ffn: 18432, heads: 36, kvHeads: 4 },
    checkpoints: [ckpt('bigcode/starcoder2-7b', bf16Weights(`${SRC.hf('bigcode/starcoder2-7b', 'mlc')} torch_dtype bfloat16`))],
    aliases: ['Starcoder2Config7B', 'starcoder2_7b'],
    tokenizer: STARCODER2_TOKENIZER('bigcode/starcoder2-7b'),
    published: roundedParams('7B', 'Model name (bigcode/starcoder2-7b)', { nominal: true }),
    sources: [
      SRC.hf('bigcode/starcoder2-7b', 'mlc') + ' (sliding_window 4096, use_bias, norm_type layer_norm)',
      SRC.nemo('starcoder2', 'Starcoder2Config7B'),
    ],
  }),
  entry({
    id: 'starcoder2-15b',
    family: 'starcoder',
    title: 'StarCoder2 15B',
    shape: { architecture: 'Starcoder2ForCausalLM', ...STARCODER2, layers: 40, hidden: 6144, ffn: 24576, heads: 48, kvHeads: 4 },
    checkpoints: [ckpt('bigcode/starcoder2-15b', SC2_BF16)],
    aliases: ['Starcoder2Config15B', 'starcoder2_15b'],
    tokenizer: STARCODER2_TOKENIZER('bigcode/starcoder2-15b'),
    published: roundedParams('15B', 'Model name (bigcode/starcoder2-15b)', { nominal: true }),
    sources: [SRC.nemo('starcoder2', 'Starcoder2Config15B'), ...STARCODER2_SOURCES],
  }),
  entry({
    id: 'falcon-7b',
    family: 'falcon',
    title: 'Falcon 7B',
    shape: {
      architecture: 'FalconForCausalLM',
      ...DENSE,
      layers: 32,
      hidden: 4544,
      ffn: 18176,
      heads: 71,
      kvHeads: 1,
      headDim: 64,
      vocab: 65024,
      tiedEmbeddings: true,
      gatedMlp: false,
      norm: 'layernorm',
      activation: 'gelu',
    },
    checkpoints: [
      ckpt('tiiuae/falcon-7b', assumedBf16Weights('the Falcon release format')),
      ckpt('tiiuae/falcon-7b-instruct', assumedBf16Weights('the Falcon release format')),
    ],
    aliases: [],
    tokenizer: {
      hfId: 'tiiuae/falcon-7b',
      kind: 'bpe',
      vocab: 65024,
      source: SRC.transformers('FalconConfig') + ' vocab_size ("tiiuae/falcon-7b architecture")',
    },
    published: roundedParams('7B', 'Model name (tiiuae/falcon-7b)', { nominal: true }),
    sources: [
      SRC.transformers('FalconConfig') +
        ' (tiiuae/falcon-7b: hidden 4544, 32 layers, 71 heads, multi_query (one KV head), parallel_attn, no bias; MLP 4 × hidden)',
    ],
    notes: ['Parallel attention and MLP share one LayerNorm per layer; the shape counts two norms.'],
  }),
  entry({
    id: 'baichuan2-7b',
    family: 'baichuan',
    title: 'Baichuan 2 7B',
    shape: {
      architecture: 'BaichuanForCausalLM',
      ...DENSE,
      layers: 32,
      hidden: 4096,
      ffn: 11008,
      heads: 32,
      kvHeads: 32,
      headDim: 128,
      vocab: 125696,
      tiedEmbeddings: false,
      gatedMlp: true,
      norm: 'rmsnorm',
      activation: 'swiglu',
    },
    checkpoints: [
      ckpt('baichuan-inc/Baichuan2-7B-Base', bf16Weights(`${SRC.hf('baichuan-inc/Baichuan2-7B-Base', 'mlc')} torch_dtype bfloat16`)),
      ckpt('baichuan-inc/Baichuan2-7B-Chat', assumedBf16Weights('the BF16 Baichuan2-7B-Base release')),
    ],
    aliases: ['Baichuan2Config7B', 'baichuan2_7b'],
    tokenizer: {
      hfId: 'baichuan-inc/Baichuan2-7B-Base',
      kind: 'sentencepiece',
      vocab: 125696,
      source: SRC.hf('baichuan-inc/Baichuan2-7B-Base', 'mlc') + ' vocab_size',
    },
    published: roundedParams('7B', 'Model name (baichuan-inc/Baichuan2-7B-Base)', { nominal: true }),
    sources: [SRC.hf('baichuan-inc/Baichuan2-7B-Base', 'mlc'), SRC.nemo('baichuan', 'Baichuan2Config7B (RoPE for the 32-layer 7B)')],
  }),
  entry({
    id: 'tinyllama-1.1b',
    family: 'llama',
    title: 'TinyLlama 1.1B',
    shape: {
      architecture: 'LlamaForCausalLM',
      ...DENSE,
      layers: 22,
      hidden: 2048,
      ffn: 5632,
      heads: 32,
      kvHeads: 4,
      headDim: 64,
      vocab: 32000,
      tiedEmbeddings: false,
      gatedMlp: true,
      norm: 'rmsnorm',
      activation: 'swiglu',
    },
    checkpoints: [
      ckpt(
        'TinyLlama/TinyLlama-1.1B-Chat-v1.0',
        bf16Weights(`${SRC.hf('TinyLlama/TinyLlama-1.1B-Chat-v1.0', 'mlc')} torch_dtype bfloat16`),
      ),
    ],
    aliases: ['tinyllama'],
    tokenizer: {
      hfId: 'TinyLlama/TinyLlama-1.1B-Chat-v1.0',
      kind: 'sentencepiece',
      vocab: 32000,
      source: SRC.hf('TinyLlama/TinyLlama-1.1B-Chat-v1.0', 'mlc') + ' vocab_size (the Llama 2 tokenizer)',
    },
    published: roundedParams('1.1B', 'Model name (TinyLlama/TinyLlama-1.1B-Chat-v1.0)', { nominal: true }),
    sources: [SRC.hf('TinyLlama/TinyLlama-1.1B-Chat-v1.0', 'mlc')],
  }),
  // MiMo-7B (HF MiMoForCausalLM, model_type mimo): Qwen2's layer (q/k/v biases, SwiGLU, RMSNorm) with one multi-token
  // prediction layer (num_nextn_predict_layers 1).
  entry({
    id: 'mimo-7b',
    family: 'mimo',
    title: 'MiMo 7B',
    shape: {
      architecture: 'MiMoForCausalLM',
      ...DENSE,
      gatedMlp: true,
      norm: 'rmsnorm',
      activation: 'swiglu',
      attentionBias: 'qkv',
      layers: 36,
      hidden: 4096,
      ffn: 11008,
      heads: 32,
      kvHeads: 8,
      headDim: 128,
      vocab: 151680,
      tiedEmbeddings: false,
      mtpLayers: 1,
      maxPositionEmbeddings: 32768,
    },
    checkpoints: [
      ckpt('XiaomiMiMo/MiMo-7B-Base', bf16Weights(`${SRC.hf('XiaomiMiMo/MiMo-7B-Base', 'aic')} torch_dtype bfloat16`)),
      ...ckpts(
        assumedBf16Weights('the BF16 XiaomiMiMo/MiMo-7B-Base release they are tuned from'),
        'XiaomiMiMo/MiMo-7B-SFT',
        'XiaomiMiMo/MiMo-7B-RL',
        'XiaomiMiMo/MiMo-7B-RL-Zero',
      ),
    ],
    aliases: ['mimo_7b'],
    tokenizer: {
      hfId: 'XiaomiMiMo/MiMo-7B-Base',
      kind: 'bpe',
      vocab: 151680,
      source: SRC.hf('XiaomiMiMo/MiMo-7B-Base', 'aic') + ' vocab_size',
    },
    published: roundedParams('7B', 'Model name (XiaomiMiMo/MiMo-7B-Base)', { nominal: true }),
    sources: [
      SRC.hf('XiaomiMiMo/MiMo-7B-Base', 'aic') +
        ' (36 layers, hidden 4096, intermediate 11008, 32 heads, 8 KV heads, head_dim 128, attention_bias true, num_nextn_predict_layers 1, use_sliding_window false, tie_word_embeddings false)',
    ],
  }),
];
