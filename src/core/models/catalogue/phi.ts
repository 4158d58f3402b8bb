// Microsoft Phi-3-mini, Phi-3.5-mini, Phi-4-mini and Phi-4 (Phi3ForCausalLM: fused qkv and gate/up projections).
// Architecture: Phi3ForCausalLM (mlc-llm model_preset.py@79d603f phi-3_5 and phi-4 (Phi-4-mini-instruct); NVIDIA-NeMo/Automodel
// docs/model-coverage/llm/microsoft/phi3.mdx@36044ad for Phi-3-mini-4k-instruct and Phi-4; NeMo phi3mini.py@8cfedd7).
import { exactParams, roundedParams } from '../published.js';
import type { CatalogueEntry } from '../types.js';
import { assumedBf16Weights, bf16Weights } from '../weights.js';
import { ckpt, DENSE, entry, SRC } from './common.js';

const PHI = { ...DENSE, gatedMlp: true, norm: 'rmsnorm', activation: 'swiglu' } as const;
const PHI4_CONFIG = 'HF microsoft/phi-4 config.json (as quoted in public write-ups of the checkpoint)';

export const PHI_MODELS: CatalogueEntry[] = [
  entry({
    id: 'phi3-mini',
    family: 'phi',
    title: 'Phi-3-mini',
    shape: {
      architecture: 'Phi3ForCausalLM',
      ...PHI,
      layers: 32,
      hidden: 3072,
      ffn: 8192,
      heads: 32,
      kvHeads: 32,
      headDim: 96,
      vocab: 32064,
      tiedEmbeddings: false,
    },
    checkpoints: [
      ckpt('microsoft/Phi-3-mini-4k-instruct', assumedBf16Weights('the BF16 Phi-3.5-mini release of the same architecture')),
      ckpt('microsoft/Phi-3-mini-128k-instruct', assumedBf16Weights('the BF16 Phi-3.5-mini release of the same architecture')),
    ],
    aliases: ['Phi3ConfigMini', 'phi3_mini_4k_instruct', 'phi-3-mini'],
    tokenizer: {
      hfId: 'microsoft/Phi-3-mini-4k-instruct',
      kind: 'sentencepiece',
      vocab: 32064,
      source: SRC.nemo('phi3mini', 'Phi3ConfigMini vocab_size'),
    },
    published: exactParams('3821079552', SRC.keras('phi3_mini_4k_instruct_en')),
    sources: [SRC.nemo('phi3mini', 'Phi3ConfigMini (untied)')],
    notes: ['The HF configs may set a sliding window (Phi3 sliding_window); read the checkpoint config.json for it.'],
  }),
  entry({
    id: 'phi3.5-mini',
    family: 'phi',
    title: 'Phi-3.5-mini',
    shape: {
      architecture: 'Phi3ForCausalLM',
      ...PHI,
      layers: 32,
      hidden: 3072,
      ffn: 8192,
      heads: 32,
      kvHeads: 32,
      headDim: 96,
      vocab: 32064,
      tiedEmbeddings: false,
    },
    checkpoints: [
      ckpt('microsoft/Phi-3.5-mini-instruct', bf16Weights(`${SRC.hf('microsoft/Phi-3.5-mini-instruct', 'mlc')} torch_dtype bfloat16`)),
    ],
    aliases: ['phi-3.5-mini'],
    tokenizer: {
      hfId: 'microsoft/Phi-3.5-mini-instruct',
      kind: 'sentencepiece',
      vocab: 32064,
      source: SRC.hf('microsoft/Phi-3.5-mini-instruct', 'mlc') + ' vocab_size',
    },
    published: exactParams('3821079552', `${SRC.keras('phi3_mini_4k_instruct_en')}: the Phi-3-mini architecture Phi-3.5-mini keeps`),
    sources: [SRC.hf('microsoft/Phi-3.5-mini-instruct', 'mlc') + ' (sliding_window 262144 exceeds the 131072 positions: no window)'],
  }),
  entry({
    id: 'phi4-mini',
    family: 'phi',
    title: 'Phi-4-mini',
    shape: {
      architecture: 'Phi3ForCausalLM',
      ...PHI,
      layers: 32,
      hidden: 3072,
      ffn: 8192,
      heads: 24,
      kvHeads: 8,
      headDim: 128,
      vocab: 200064,
      tiedEmbeddings: true,
    },
    checkpoints: [
      ckpt('microsoft/Phi-4-mini-instruct', bf16Weights(`${SRC.hf('microsoft/Phi-4-mini-instruct', 'mlc')} torch_dtype bfloat16`)),
    ],
    aliases: ['phi-4-mini'],
    tokenizer: {
      hfId: 'microsoft/Phi-4-mini-instruct',
      kind: 'tiktoken',
      vocab: 200064,
      source: SRC.hf('microsoft/Phi-4-mini-instruct', 'mlc') + ' vocab_size',
    },
    published: roundedParams('3.8B', 'Phi-4-mini-instruct model card ("3.8B parameters")', { nominal: true }),
    sources: [SRC.hf('microsoft/Phi-4-mini-instruct', 'mlc') + ' (tie_word_embeddings true)'],
    notes: ['Phi-4-mini applies RoPE to part of each head (partial_rotary_factor); it does not change the memory shape.'],
  }),
  entry({
    id: 'phi4',
    family: 'phi',
    title: 'Phi-4 14B',
    shape: {
      architecture: 'Phi3ForCausalLM',
      ...PHI,
      layers: 40,
      hidden: 5120,
      ffn: 17920,
      heads: 40,
      kvHeads: 10,
      headDim: 128,
      vocab: 100352,
      tiedEmbeddings: false,
    },
    checkpoints: [ckpt('microsoft/phi-4', bf16Weights(`${PHI4_CONFIG} torch_dtype bfloat16`))],
    aliases: ['phi-4-14b'],
    tokenizer: { hfId: 'microsoft/phi-4', kind: 'tiktoken', vocab: 100352, source: `${PHI4_CONFIG} vocab_size` },
    published: roundedParams('14B', 'Phi-4 technical report (arXiv:2412.08905): "phi-4, a 14-billion parameter language model"', {
      nominal: true,
    }),
    sources: [`${PHI4_CONFIG}: hidden_size 5120, intermediate_size 17920, 40 layers, 40 heads, 10 KV heads, untied`],
  }),
];
