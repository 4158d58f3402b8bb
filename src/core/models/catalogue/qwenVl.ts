// Qwen3-VL: Qwen3's language models under a vision tower (HF Qwen3VLForConditionalGeneration /
// Qwen3VLMoeForConditionalGeneration). The shape is the text_config; the vision encoder is not in it.
import { roundedParams } from '../published.js';
import type { CatalogueEntry } from '../types.js';
import { assumedBf16Weights, bf16Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';
import { QWEN3_235B_A22B_SHAPE, QWEN3_30B_A3B_SHAPE } from './qwen.js';

const QWEN3_TEXT = {
  gatedMlp: true,
  norm: 'rmsnorm',
  activation: 'swiglu',
  qkNorm: true,
  headDim: 128,
  vocab: 151936,
  maxPositionEmbeddings: 262144,
} as const;

/** vision_config.depth and hidden_size of the checkpoint read. */
const vision = (depth: number, width: number) =>
  `A multimodal checkpoint: the vision encoder (vision_config: ${depth} ViT blocks of width ${width}, DeepStack mergers) is not in the shape.`;
const aic = (id: string) => SRC.hf(id, 'aic');
const bf16 = (id: string) => bf16Weights(`${aic(id)} text_config.dtype bfloat16`);
/** The Thinking releases beside an Instruct one whose config.json was read. */
const sibling = (id: string) => assumedBf16Weights(`the Instruct release beside it stores BF16 (${aic(id)} text_config.dtype bfloat16)`);
const tokenizer = (hfId: string) => ({
  hfId,
  kind: 'bpe' as const,
  vocab: 151936,
  source: `${aic(hfId)} text_config.vocab_size`,
});
const published = (size: string) =>
  roundedParams(size, 'Model name', { nominal: true, scope: 'the multimodal checkpoint (vision encoder included)' });
const textSource = (id: string, what: string) => `${aic(id)} text_config (${what})`;

export const QWEN_VL_MODELS: CatalogueEntry[] = [
  entry({
    id: 'qwen3-vl-4b',
    family: 'qwen',
    title: 'Qwen3-VL 4B',
    shape: { ...QWEN3_TEXT, ...DENSE, layers: 36, hidden: 2560, ffn: 9728, heads: 32, kvHeads: 8, tiedEmbeddings: true },
    checkpoints: [
      ckpt('Qwen/Qwen3-VL-4B-Instruct', bf16('Qwen/Qwen3-VL-4B-Instruct')),
      ckpt('Qwen/Qwen3-VL-4B-Thinking', sibling('Qwen/Qwen3-VL-4B-Instruct')),
    ],
    aliases: ['qwen3_vl_4b'],
    tokenizer: tokenizer('Qwen/Qwen3-VL-4B-Instruct'),
    published: published('4B'),
    sources: [
      textSource(
        'Qwen/Qwen3-VL-4B-Instruct',
        '36 layers, hidden 2560, intermediate 9728, 32 heads, 8 KV heads, head_dim 128, tie_word_embeddings true',
      ),
    ],
    notes: [vision(24, 1024)],
  }),
  entry({
    id: 'qwen3-vl-8b',
    family: 'qwen',
    title: 'Qwen3-VL 8B',
    shape: { ...QWEN3_TEXT, ...DENSE, layers: 36, hidden: 4096, ffn: 12288, heads: 32, kvHeads: 8, tiedEmbeddings: false },
    checkpoints: [
      ckpt('Qwen/Qwen3-VL-8B-Instruct', bf16('Qwen/Qwen3-VL-8B-Instruct')),
      ckpt('Qwen/Qwen3-VL-8B-Thinking', sibling('Qwen/Qwen3-VL-8B-Instruct')),
    ],
    aliases: ['qwen3_vl_8b'],
    tokenizer: tokenizer('Qwen/Qwen3-VL-8B-Instruct'),
    published: published('8B'),
    sources: [
      textSource(
        'Qwen/Qwen3-VL-8B-Instruct',
        '36 layers, hidden 4096, intermediate 12288, 32 heads, 8 KV heads, head_dim 128, tie_word_embeddings false',
      ),
    ],
    notes: [vision(27, 1152)],
  }),
  entry({
    id: 'qwen3-vl-32b',
    family: 'qwen',
    title: 'Qwen3-VL 32B',
    shape: { ...QWEN3_TEXT, ...DENSE, layers: 64, hidden: 5120, ffn: 25600, heads: 64, kvHeads: 8, tiedEmbeddings: false },
    checkpoints: [
      ckpt('Qwen/Qwen3-VL-32B-Instruct', bf16('Qwen/Qwen3-VL-32B-Instruct')),
      ckpt('Qwen/Qwen3-VL-32B-Thinking', bf16('Qwen/Qwen3-VL-32B-Thinking')),
    ],
    aliases: ['qwen3_vl_32b'],
    tokenizer: tokenizer('Qwen/Qwen3-VL-32B-Instruct'),
    published: published('32B'),
    sources: [
      textSource(
        'Qwen/Qwen3-VL-32B-Instruct',
        '64 layers, hidden 5120, intermediate 25600, 64 heads, 8 KV heads, head_dim 128, tie_word_embeddings false',
      ),
    ],
    notes: [vision(27, 1152)],
  }),
  entry({
    id: 'qwen3-vl-30b-a3b',
    family: 'qwen',
    title: 'Qwen3-VL 30B-A3B',
    shape: { ...QWEN3_30B_A3B_SHAPE, maxPositionEmbeddings: 262144 },
    checkpoints: [
      ckpt('Qwen/Qwen3-VL-30B-A3B-Instruct', bf16('Qwen/Qwen3-VL-30B-A3B-Instruct')),
      ...ckpts(sibling('Qwen/Qwen3-VL-30B-A3B-Instruct'), 'Qwen/Qwen3-VL-30B-A3B-Thinking'),
    ],
    aliases: ['qwen3_vl_30b_a3b'],
    tokenizer: tokenizer('Qwen/Qwen3-VL-30B-A3B-Instruct'),
    published: published('30B'),
    sources: [
      textSource(
        'Qwen/Qwen3-VL-30B-A3B-Instruct',
        '48 layers, hidden 2048, 32 heads, 4 KV heads, 128 experts of 768 top-8, decoder_sparse_step 1, mlp_only_layers []: every layer MoE',
      ),
    ],
    notes: [vision(27, 1152), 'intermediate_size 6144 (ffn) is unused: every layer is MoE.'],
  }),
  entry({
    id: 'qwen3-vl-235b-a22b',
    family: 'qwen',
    title: 'Qwen3-VL 235B-A22B',
    shape: { ...QWEN3_235B_A22B_SHAPE, maxPositionEmbeddings: 262144 },
    checkpoints: [
      ckpt('Qwen/Qwen3-VL-235B-A22B-Instruct', bf16('Qwen/Qwen3-VL-235B-A22B-Instruct')),
      ...ckpts(sibling('Qwen/Qwen3-VL-235B-A22B-Instruct'), 'Qwen/Qwen3-VL-235B-A22B-Thinking'),
    ],
    aliases: ['qwen3_vl_235b_a22b'],
    tokenizer: tokenizer('Qwen/Qwen3-VL-235B-A22B-Instruct'),
    published: published('235B'),
    sources: [
      textSource(
        'Qwen/Qwen3-VL-235B-A22B-Instruct',
        '94 layers, hidden 4096, 64 heads, 4 KV heads, 128 experts of 1536 top-8: every layer MoE',
      ),
    ],
    notes: [vision(27, 1152), 'intermediate_size 12288 (ffn) is unused: every layer is MoE.'],
  }),
];
