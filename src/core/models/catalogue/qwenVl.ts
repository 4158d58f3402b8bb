// Qwen2-VL, Qwen2.5-VL and Qwen3-VL: Qwen's language models under a vision tower (HF Qwen2VLForConditionalGeneration,
// Qwen2_5_VLForConditionalGeneration, Qwen3VLForConditionalGeneration / Qwen3VLMoeForConditionalGeneration). The shape is
// the language model; the vision encoder is not in it.
// Architectures (config.json architectures[0]): Qwen2-VL per NeMo nemo/collections/vlm/qwen2vl/model/qwen2vl.py@8cfedd7
// HFQwen2VLImporter (Qwen2VLForConditionalGeneration); Qwen2.5-VL per Megatron-Bridge qwen_vl/qwen25_vl_bridge.py@067f987
// (source=Qwen2_5_VLForConditionalGeneration) and docs/models/qwen/qwen2.5-vl.md (3B, 7B, 32B, 72B Instruct); Qwen3-VL from the
// aiconfigurator copies.
import { roundedParams } from '../published.js';
import type { CatalogueEntry } from '../types.js';
import { assumedBf16Weights, bf16Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';
import { QWEN3_235B_A22B_SHAPE, QWEN3_30B_A3B_SHAPE, QWEN_MODELS, qwen2 } from './qwen.js';

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

/** NeMo's Qwen2-VL / Qwen2.5-VL configs, "copied from the corresponding HF model" (the file's own note). */
const nemoVl = (cls: string, language: string) =>
  `NeMo nemo/collections/vlm/qwen2vl/model/qwen2vl.py@8cfedd7 ${cls} (language_transformer_config ${language})`;
const NEMO_VISION = 'NeMo nemo/collections/vlm/qwen2vl/model/base.py@8cfedd7';
/** The Qwen2-VL / Qwen2.5-VL vision towers (NeMo Qwen2VLVisionConfig, Qwen25VLVisionConfig: 32 ViT layers of width 1280). */
const vision2 = (what: string) =>
  `A multimodal checkpoint: the vision encoder (${what}: 32 ViT layers of width 1280, ${NEMO_VISION}) and its projector are not in the shape.`;
/** No Qwen2-VL / Qwen2.5-VL config.json was read: their language models' releases store BF16. */
const QWEN25_VL_BF16 = assumedBf16Weights(
  'the Qwen2/Qwen2.5 language models read here store BF16 (e.g. Qwen/Qwen2.5-7B config.json torch_dtype bfloat16)',
);

/**
 * One Qwen2-VL / Qwen2.5-VL release: NeMo builds its language model from a Qwen2 / Qwen2.5 config
 * (`language_transformer_config`), so its shape is that catalogue entry's, under the vision tower noted.
 */
function qwen2Vl(
  id: string,
  title: string,
  hfIds: string[],
  nemo: [cls: string, languageCls: string],
  languageId: string,
  aliases: string[],
  visionWhat: string,
  architecture: 'Qwen2VLForConditionalGeneration' | 'Qwen2_5_VLForConditionalGeneration',
): CatalogueEntry {
  const lm = QWEN_MODELS.find((e) => e.id === languageId)?.shape;
  if (!lm) throw new Error(`${id}: no catalogue entry ${languageId}`);
  const [cls, languageCls] = nemo;
  const { layers, hidden, ffn, heads, kvHeads, vocab, tiedEmbeddings: tied } = lm;
  const language = `${languageCls}: vocab ${vocab}, ${tied ? 'tied' : 'untied'}`;
  return qwen2(
    id,
    title,
    { layers, hidden, ffn, heads, kvHeads, vocab, tied },
    {
      checkpoints: ckpts(QWEN25_VL_BF16, ...hfIds),
      aliases,
      published: published(/(\d+B)/.exec(title)![1]!),
      sources: [nemoVl(cls, language)],
      notes: [vision2(visionWhat)],
    },
    architecture,
  );
}

export const QWEN_VL_MODELS: CatalogueEntry[] = [
  qwen2Vl(
    'qwen2-vl-2b',
    'Qwen2-VL 2B',
    ['Qwen/Qwen2-VL-2B-Instruct', 'Qwen/Qwen2-VL-2B'],
    ['Qwen2VLConfig2B', 'Qwen2Config1P5B(share_embeddings_and_output_weights=True)'],
    'qwen2-1.5b',
    ['Qwen2VLConfig2B', 'qwen2vl_2b', 'qwen2_vl_2b'],
    'Qwen2VLVisionConfig',
    'Qwen2VLForConditionalGeneration',
  ),
  qwen2Vl(
    'qwen2-vl-7b',
    'Qwen2-VL 7B',
    ['Qwen/Qwen2-VL-7B-Instruct', 'Qwen/Qwen2-VL-7B'],
    ['Qwen2VLConfig7B', 'Qwen2Config7B'],
    'qwen2-7b',
    ['Qwen2VLConfig7B', 'qwen2vl_7b', 'qwen2_vl_7b'],
    'Qwen2VLVisionConfig',
    'Qwen2VLForConditionalGeneration',
  ),
  qwen2Vl(
    'qwen2-vl-72b',
    'Qwen2-VL 72B',
    ['Qwen/Qwen2-VL-72B-Instruct', 'Qwen/Qwen2-VL-72B'],
    ['Qwen2VLConfig72B', 'Qwen2Config72B'],
    'qwen2-72b',
    ['Qwen2VLConfig72B', 'qwen2vl_72b', 'qwen2_vl_72b'],
    'Qwen2VLVisionConfig',
    'Qwen2VLForConditionalGeneration',
  ),
  qwen2Vl(
    'qwen2.5-vl-3b',
    'Qwen2.5-VL 3B',
    ['Qwen/Qwen2.5-VL-3B-Instruct'],
    ['Qwen25VLConfig3B', 'Qwen25Config3B'],
    'qwen2.5-3b',
    ['Qwen25VLConfig3B', 'qwen25vl_3b', 'qwen25_vl_3b'],
    'Qwen25VLVisionConfig',
    'Qwen2_5_VLForConditionalGeneration',
  ),
  qwen2Vl(
    'qwen2.5-vl-7b',
    'Qwen2.5-VL 7B',
    ['Qwen/Qwen2.5-VL-7B-Instruct'],
    ['Qwen25VLConfig7B', 'Qwen25Config7B'],
    'qwen2.5-7b',
    ['Qwen25VLConfig7B', 'qwen25vl_7b', 'qwen25_vl_7b'],
    'Qwen25VLVisionConfig',
    'Qwen2_5_VLForConditionalGeneration',
  ),
  qwen2Vl(
    'qwen2.5-vl-32b',
    'Qwen2.5-VL 32B',
    ['Qwen/Qwen2.5-VL-32B-Instruct'],
    ['Qwen25VLConfig32B', 'Qwen25Config32B'],
    'qwen2.5-32b',
    ['Qwen25VLConfig32B', 'qwen25vl_32b', 'qwen25_vl_32b'],
    'Qwen25VLVisionConfig with ffn_hidden_size 3456',
    'Qwen2_5_VLForConditionalGeneration',
  ),
  qwen2Vl(
    'qwen2.5-vl-72b',
    'Qwen2.5-VL 72B',
    ['Qwen/Qwen2.5-VL-72B-Instruct'],
    ['Qwen25VLConfig72B', 'Qwen25Config72B'],
    'qwen2.5-72b',
    ['Qwen25VLConfig72B', 'qwen25vl_72b', 'qwen25_vl_72b'],
    'Qwen25VLVisionConfig with ffn_hidden_size 3456',
    'Qwen2_5_VLForConditionalGeneration',
  ),
  entry({
    id: 'qwen3-vl-2b',
    family: 'qwen',
    title: 'Qwen3-VL 2B',
    shape: {
      architecture: 'Qwen3VLForConditionalGeneration',
      ...QWEN3_TEXT,
      ...DENSE,
      layers: 28,
      hidden: 2048,
      ffn: 6144,
      heads: 16,
      kvHeads: 8,
      tiedEmbeddings: true,
    },
    checkpoints: [
      ckpt('Qwen/Qwen3-VL-2B-Instruct', bf16('Qwen/Qwen3-VL-2B-Instruct')),
      ckpt('Qwen/Qwen3-VL-2B-Thinking', sibling('Qwen/Qwen3-VL-2B-Instruct')),
    ],
    aliases: ['qwen3_vl_2b'],
    tokenizer: tokenizer('Qwen/Qwen3-VL-2B-Instruct'),
    published: published('2B'),
    sources: [
      textSource(
        'Qwen/Qwen3-VL-2B-Instruct',
        '28 layers, hidden 2048, intermediate 6144, 16 heads, 8 KV heads, head_dim 128, tie_word_embeddings true',
      ),
    ],
    notes: [vision(24, 1024)],
  }),
  entry({
    id: 'qwen3-vl-4b',
    family: 'qwen',
    title: 'Qwen3-VL 4B',
    shape: {
      architecture: 'Qwen3VLForConditionalGeneration',
      ...QWEN3_TEXT,
      ...DENSE,
      layers: 36,
      hidden: 2560,
      ffn: 9728,
      heads: 32,
      kvHeads: 8,
      tiedEmbeddings: true,
    },
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
    shape: {
      architecture: 'Qwen3VLForConditionalGeneration',
      ...QWEN3_TEXT,
      ...DENSE,
      layers: 36,
      hidden: 4096,
      ffn: 12288,
      heads: 32,
      kvHeads: 8,
      tiedEmbeddings: false,
    },
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
    shape: {
      architecture: 'Qwen3VLForConditionalGeneration',
      ...QWEN3_TEXT,
      ...DENSE,
      layers: 64,
      hidden: 5120,
      ffn: 25600,
      heads: 64,
      kvHeads: 8,
      tiedEmbeddings: false,
    },
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
    shape: { architecture: 'Qwen3VLMoeForConditionalGeneration', ...QWEN3_30B_A3B_SHAPE, maxPositionEmbeddings: 262144 },
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
    shape: { architecture: 'Qwen3VLMoeForConditionalGeneration', ...QWEN3_235B_A22B_SHAPE, maxPositionEmbeddings: 262144 },
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
