// Alibaba Qwen: Qwen2, Qwen2.5, Qwen3 dense and MoE, Qwen3-Coder, Qwen3-Next, Qwen3.5.
import { exactParams, roundedParams } from '../published.js';
import type { CatalogueEntry, TokenizerFacts } from '../types.js';
import { assumedBf16Weights, bf16Weights, fp8BlockWeights, nvfp4Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';

const QWEN = { gatedMlp: true, norm: 'rmsnorm', activation: 'swiglu' } as const;
/** Qwen2 / Qwen2.5: biases on q, k and v (NeMo Qwen2Config add_qkv_bias). */
const QWEN2 = { ...QWEN, ...DENSE, attentionBias: 'qkv' } as const;
/** Qwen3: per-head RMSNorm on q and k, no biases, head_dim 128 (NeMo Qwen3Config qk_layernorm, kv_channels 128). */
const QWEN3 = { ...QWEN, qkNorm: true, headDim: 128, vocab: 151936 } as const;

const tokenizer = (vocab: number, hfId: string, source: string): TokenizerFacts => ({ hfId, kind: 'bpe', vocab, source });
const bf16 = (id: string, copy: 'aic' | 'mlc') => bf16Weights(`${SRC.hf(id, copy)} torch_dtype bfloat16`);
const qwenFp8 = (id: string, excluded?: string[]) =>
  fp8BlockWeights(`${SRC.hf(id, 'aic')} quantization_config: quant_method fp8 (e4m3), weight_block_size [128, 128]`, excluded);
/** Checkpoints whose config.json was not read: the family's other releases store BF16. */
const QWEN_BF16 = assumedBf16Weights(
  'the Qwen2/Qwen2.5/Qwen3 releases read here store BF16 (e.g. Qwen/Qwen2.5-7B config.json torch_dtype bfloat16)',
);
const FP8_MOE_EXCLUDED = [
  'lm_head',
  'model.layers.*.input_layernorm',
  'model.layers.*.post_attention_layernorm',
  'model.layers.*.mlp.gate',
];
const nvfp4 = (id: string, excluded: string[]) =>
  nvfp4Weights(
    `HF ${id} hf_quant_config.json (copy in ai-dynamo/aiconfigurator model_configs/): quant_algo NVFP4, group_size 16, kv_cache_quant_algo FP8`,
    excluded,
    'fp8',
  );

function qwen2(
  id: string,
  title: string,
  s: { layers: number; hidden: number; ffn: number; heads: number; kvHeads: number; vocab: number; tied: boolean },
  more: Omit<Parameters<typeof entry>[0], 'id' | 'title' | 'family' | 'shape' | 'tokenizer'>,
): CatalogueEntry {
  const { tied, ...dims } = s;
  return entry({
    id,
    title,
    family: 'qwen',
    shape: { ...QWEN2, ...dims, headDim: s.hidden / s.heads, tiedEmbeddings: tied },
    tokenizer: tokenizer(s.vocab, more.checkpoints[0]!.hfId, `${more.sources[0]} vocab_size`),
    ...more,
  });
}

/** The Qwen3 MoE language models (their Qwen3-VL releases hold the same, qwenVl.ts). */
export const QWEN3_30B_A3B_SHAPE = {
  ...QWEN3,
  layers: 48,
  hidden: 2048,
  ffn: 6144,
  heads: 32,
  kvHeads: 4,
  tiedEmbeddings: false,
  experts: 128,
  topK: 8,
  moeFfn: 768,
  sharedExpertFfn: 0,
  denseLayersBeforeMoe: 0,
} as const;
export const QWEN3_235B_A22B_SHAPE = {
  ...QWEN3,
  layers: 94,
  hidden: 4096,
  ffn: 12288,
  heads: 64,
  kvHeads: 4,
  tiedEmbeddings: false,
  experts: 128,
  topK: 8,
  moeFfn: 1536,
  sharedExpertFfn: 0,
  denseLayersBeforeMoe: 0,
} as const;

export const QWEN_MODELS: CatalogueEntry[] = [
  qwen2(
    'qwen2-0.5b',
    'Qwen2 0.5B',
    { layers: 24, hidden: 896, ffn: 4864, heads: 14, kvHeads: 2, vocab: 151936, tied: true },
    {
      checkpoints: ckpts(QWEN_BF16, 'Qwen/Qwen2-0.5B', 'Qwen/Qwen2-0.5B-Instruct'),
      aliases: ['Qwen2Config500M', 'Qwen2ModelProvider500M', 'qwen2_500m'],
      published: roundedParams('0.5B', 'Model name (Qwen/Qwen2-0.5B)', { nominal: true }),
      sources: [SRC.bridge('qwen/qwen_provider.py', 'Qwen2ModelProvider500M (vocab 151936, tied)'), SRC.nemo('qwen2', 'Qwen2Config500M')],
    },
  ),
  qwen2(
    'qwen2-1.5b',
    'Qwen2 1.5B',
    { layers: 28, hidden: 1536, ffn: 8960, heads: 12, kvHeads: 2, vocab: 151936, tied: true },
    {
      checkpoints: ckpts(QWEN_BF16, 'Qwen/Qwen2-1.5B', 'Qwen/Qwen2-1.5B-Instruct'),
      aliases: ['Qwen2Config1P5B', 'Qwen2ModelProvider1P5B', 'qwen2_1p5b'],
      published: roundedParams('1.5B', 'Model name (Qwen/Qwen2-1.5B)', { nominal: true }),
      sources: [SRC.bridge('qwen/qwen_provider.py', 'Qwen2ModelProvider1P5B (vocab 151936, tied)'), SRC.nemo('qwen2', 'Qwen2Config1P5B')],
    },
  ),
  qwen2(
    'qwen2-7b',
    'Qwen2 7B',
    { layers: 28, hidden: 3584, ffn: 18944, heads: 28, kvHeads: 4, vocab: 152064, tied: false },
    {
      checkpoints: ckpts(bf16('Qwen/Qwen2-7B', 'mlc'), 'Qwen/Qwen2-7B', 'Qwen/Qwen2-7B-Instruct'),
      aliases: ['Qwen2Config7B', 'Qwen2ModelProvider7B', 'qwen2_7b'],
      published: roundedParams('7B', 'Model name (Qwen/Qwen2-7B)', { nominal: true }),
      sources: [SRC.hf('Qwen/Qwen2-7B', 'mlc') + ' (use_sliding_window false)', SRC.nemo('qwen2', 'Qwen2Config7B')],
    },
  ),
  qwen2(
    'qwen2-72b',
    'Qwen2 72B',
    { layers: 80, hidden: 8192, ffn: 29568, heads: 64, kvHeads: 8, vocab: 152064, tied: false },
    {
      checkpoints: ckpts(QWEN_BF16, 'Qwen/Qwen2-72B', 'Qwen/Qwen2-72B-Instruct'),
      aliases: ['Qwen2Config72B', 'Qwen2ModelProvider72B', 'qwen2_72b'],
      published: roundedParams('72B', 'Model name (Qwen/Qwen2-72B)', { nominal: true }),
      sources: [SRC.bridge('qwen/qwen_provider.py', 'Qwen2ModelProvider72B'), SRC.nemo('qwen2', 'Qwen2Config72B')],
    },
  ),
  qwen2(
    'qwen2.5-0.5b',
    'Qwen2.5 0.5B',
    { layers: 24, hidden: 896, ffn: 4864, heads: 14, kvHeads: 2, vocab: 151936, tied: true },
    {
      checkpoints: ckpts(QWEN_BF16, 'Qwen/Qwen2.5-0.5B', 'Qwen/Qwen2.5-0.5B-Instruct'),
      aliases: ['Qwen25Config500M', 'Qwen25ModelProvider500M', 'qwen25_500m'],
      published: exactParams('494032768', SRC.keras('qwen2.5_0.5b_en')),
      sources: [SRC.bridge('qwen/qwen_provider.py', 'Qwen25ModelProvider500M (vocab 151936, tied)'), SRC.nemo('qwen2', 'Qwen25Config500M')],
    },
  ),
  qwen2(
    'qwen2.5-1.5b',
    'Qwen2.5 1.5B',
    { layers: 28, hidden: 1536, ffn: 8960, heads: 12, kvHeads: 2, vocab: 151936, tied: true },
    {
      checkpoints: ckpts(bf16('Qwen/Qwen2.5-1.5B', 'aic'), 'Qwen/Qwen2.5-1.5B', 'Qwen/Qwen2.5-1.5B-Instruct'),
      aliases: ['Qwen25Config1P5B', 'Qwen25ModelProvider1P5B', 'qwen25_1p5b'],
      published: roundedParams('1.54B', 'Qwen2.5-1.5B model card "Number of Parameters: 1.54B"', { truncated: true }),
      sources: [SRC.hf('Qwen/Qwen2.5-1.5B', 'aic') + ' (use_sliding_window false)', SRC.nemo('qwen2', 'Qwen25Config1P5B')],
    },
  ),
  qwen2(
    'qwen2.5-3b',
    'Qwen2.5 3B',
    { layers: 36, hidden: 2048, ffn: 11008, heads: 16, kvHeads: 2, vocab: 151936, tied: true },
    {
      checkpoints: ckpts(bf16('Qwen/Qwen2.5-3B', 'mlc'), 'Qwen/Qwen2.5-3B', 'Qwen/Qwen2.5-3B-Instruct'),
      aliases: ['Qwen25Config3B', 'Qwen25ModelProvider3B'],
      published: exactParams('3085938688', SRC.keras('qwen2.5_3b_en')),
      sources: [SRC.hf('Qwen/Qwen2.5-3B', 'mlc'), SRC.nemo('qwen2', 'Qwen25Config3B (vocab 151936, tied)')],
    },
  ),
  qwen2(
    'qwen2.5-7b',
    'Qwen2.5 7B',
    { layers: 28, hidden: 3584, ffn: 18944, heads: 28, kvHeads: 4, vocab: 152064, tied: false },
    {
      checkpoints: [
        ...ckpts(bf16('Qwen/Qwen2.5-7B', 'aic'), 'Qwen/Qwen2.5-7B', 'Qwen/Qwen2.5-7B-Instruct'),
        // Qwen2.5-Math-7B's shape, which is Qwen2.5-7B's (vocab 152064, untied).
        ckpt(
          'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B',
          bf16Weights(`${SRC.hub('deepseek-ai/DeepSeek-R1-Distill-Qwen-7B')} torch_dtype bfloat16`),
        ),
      ],
      aliases: ['Qwen25Config7B', 'Qwen25ModelProvider7B', 'qwen25_7b'],
      published: roundedParams('7.61B', 'Qwen2.5-7B model card "Number of Parameters: 7.61B"', { truncated: true }),
      sources: [
        SRC.hf('Qwen/Qwen2.5-7B', 'aic') + ' (use_sliding_window false)',
        SRC.nemo('qwen2', 'Qwen25Config7B'),
        `${SRC.hub('deepseek-ai/DeepSeek-R1-Distill-Qwen-7B')} (28 layers, hidden 3584, intermediate 18944, 28 heads, 4 KV heads, vocab 152064, untied)`,
      ],
    },
  ),
  qwen2(
    'qwen2.5-14b',
    'Qwen2.5 14B',
    { layers: 48, hidden: 5120, ffn: 13824, heads: 40, kvHeads: 8, vocab: 152064, tied: false },
    {
      checkpoints: ckpts(QWEN_BF16, 'Qwen/Qwen2.5-14B', 'Qwen/Qwen2.5-14B-Instruct'),
      aliases: ['Qwen25Config14B', 'Qwen25ModelProvider14B', 'qwen25_14b'],
      published: roundedParams('14.7B', 'Qwen2.5-14B-Instruct model card "Number of Parameters: 14.7B"', { truncated: true }),
      sources: [SRC.bridge('qwen/qwen_provider.py', 'Qwen25ModelProvider14B'), SRC.nemo('qwen2', 'Qwen25Config14B')],
    },
  ),
  qwen2(
    'qwen2.5-32b',
    'Qwen2.5 32B',
    { layers: 64, hidden: 5120, ffn: 27648, heads: 40, kvHeads: 8, vocab: 152064, tied: false },
    {
      checkpoints: [
        ...ckpts(bf16('Qwen/Qwen2.5-32B', 'aic'), 'Qwen/Qwen2.5-32B', 'Qwen/Qwen2.5-32B-Instruct'),
        ckpt('deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', bf16('deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', 'aic')),
      ],
      aliases: ['Qwen25Config32B', 'Qwen25ModelProvider32B', 'qwen25_32b'],
      published: exactParams('32763876352', SRC.keras('qwen2.5_instruct_32b_en')),
      sources: [
        SRC.hf('Qwen/Qwen2.5-32B', 'aic'),
        SRC.hf('deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', 'aic'),
        SRC.nemo('qwen2', 'Qwen25Config32B'),
      ],
    },
  ),
  qwen2(
    'qwen2.5-72b',
    'Qwen2.5 72B',
    { layers: 80, hidden: 8192, ffn: 29568, heads: 64, kvHeads: 8, vocab: 152064, tied: false },
    {
      checkpoints: ckpts(bf16('Qwen/Qwen2.5-72B', 'aic'), 'Qwen/Qwen2.5-72B', 'Qwen/Qwen2.5-72B-Instruct'),
      aliases: ['Qwen25Config72B', 'Qwen25ModelProvider72B', 'qwen25_72b'],
      published: exactParams('72706203648', SRC.keras('qwen2.5_instruct_72b_en')),
      sources: [SRC.hf('Qwen/Qwen2.5-72B', 'aic'), SRC.nemo('qwen2', 'Qwen25Config72B')],
    },
  ),
  entry({
    id: 'qwen3-0.6b',
    family: 'qwen',
    title: 'Qwen3 0.6B',
    shape: { ...QWEN3, ...DENSE, layers: 28, hidden: 1024, ffn: 3072, heads: 16, kvHeads: 8, tiedEmbeddings: true },
    checkpoints: ckpts(bf16('Qwen/Qwen3-0.6B', 'aic'), 'Qwen/Qwen3-0.6B', 'Qwen/Qwen3-0.6B-Base'),
    aliases: ['Qwen3Config600M', 'Qwen3ModelProvider600M', 'qwen3_600m'],
    tokenizer: tokenizer(
      151936,
      'Qwen/Qwen3-0.6B',
      SRC.hf('Qwen/Qwen3-0.6B', 'aic') + ' vocab_size (embedding rows; the tokenizer holds 151,669 tokens)',
    ),
    published: exactParams('596049920', SRC.keras('qwen3_0.6b_en')),
    sources: [SRC.hf('Qwen/Qwen3-0.6B', 'aic'), SRC.nemo('qwen3', 'Qwen3Config600M')],
  }),
  entry({
    id: 'qwen3-1.7b',
    family: 'qwen',
    title: 'Qwen3 1.7B',
    shape: { ...QWEN3, ...DENSE, layers: 28, hidden: 2048, ffn: 6144, heads: 16, kvHeads: 8, tiedEmbeddings: true },
    checkpoints: ckpts(bf16('Qwen/Qwen3-1.7B', 'aic'), 'Qwen/Qwen3-1.7B', 'Qwen/Qwen3-1.7B-Base'),
    aliases: ['Qwen3Config1P7B', 'Qwen3ModelProvider1P7B', 'qwen3_1p7b'],
    tokenizer: tokenizer(151936, 'Qwen/Qwen3-1.7B', SRC.hf('Qwen/Qwen3-1.7B', 'aic') + ' vocab_size'),
    published: exactParams('1720574976', SRC.keras('qwen3_1.7b_en')),
    sources: [SRC.hf('Qwen/Qwen3-1.7B', 'aic'), SRC.nemo('qwen3', 'Qwen3Config1P7B')],
  }),
  entry({
    id: 'qwen3-4b',
    family: 'qwen',
    title: 'Qwen3 4B',
    shape: { ...QWEN3, ...DENSE, layers: 36, hidden: 2560, ffn: 9728, heads: 32, kvHeads: 8, tiedEmbeddings: true },
    checkpoints: ckpts(QWEN_BF16, 'Qwen/Qwen3-4B', 'Qwen/Qwen3-4B-Base', 'Qwen/Qwen3-4B-Instruct-2507', 'Qwen/Qwen3-4B-Thinking-2507'),
    aliases: ['Qwen3Config4B', 'Qwen3ModelProvider4B', 'qwen3_4b'],
    tokenizer: tokenizer(151936, 'Qwen/Qwen3-4B', SRC.bridge('qwen/qwen_provider.py', 'Qwen3ModelProvider vocab_size')),
    published: exactParams('4022468096', SRC.keras('qwen3_4b_en')),
    sources: [SRC.bridge('qwen/qwen_provider.py', 'Qwen3ModelProvider4B (tied)'), SRC.nemo('qwen3', 'Qwen3Config4B')],
  }),
  entry({
    id: 'qwen3-8b',
    family: 'qwen',
    title: 'Qwen3 8B',
    shape: { ...QWEN3, ...DENSE, layers: 36, hidden: 4096, ffn: 12288, heads: 32, kvHeads: 8, tiedEmbeddings: false },
    checkpoints: ckpts(bf16('Qwen/Qwen3-8B', 'aic'), 'Qwen/Qwen3-8B', 'Qwen/Qwen3-8B-Base'),
    aliases: ['Qwen3Config8B', 'Qwen3ModelProvider8B', 'qwen3_8b'],
    tokenizer: tokenizer(151936, 'Qwen/Qwen3-8B', SRC.hf('Qwen/Qwen3-8B', 'aic') + ' vocab_size'),
    published: exactParams('8190735360', SRC.keras('qwen3_8b_en')),
    sources: [SRC.hf('Qwen/Qwen3-8B', 'aic'), SRC.nemo('qwen3', 'Qwen3Config8B')],
  }),
  entry({
    id: 'qwen3-14b',
    family: 'qwen',
    title: 'Qwen3 14B',
    shape: { ...QWEN3, ...DENSE, layers: 40, hidden: 5120, ffn: 17408, heads: 40, kvHeads: 8, tiedEmbeddings: false },
    checkpoints: ckpts(QWEN_BF16, 'Qwen/Qwen3-14B', 'Qwen/Qwen3-14B-Base'),
    aliases: ['Qwen3Config14B', 'Qwen3ModelProvider14B', 'qwen3_14b'],
    tokenizer: tokenizer(151936, 'Qwen/Qwen3-14B', SRC.bridge('qwen/qwen_provider.py', 'Qwen3ModelProvider vocab_size')),
    published: exactParams('14768307200', SRC.keras('qwen3_14b_en')),
    sources: [SRC.bridge('qwen/qwen_provider.py', 'Qwen3ModelProvider14B (untied)'), SRC.nemo('qwen3', 'Qwen3Config14B')],
  }),
  entry({
    id: 'qwen3-32b',
    family: 'qwen',
    title: 'Qwen3 32B',
    shape: { ...QWEN3, ...DENSE, layers: 64, hidden: 5120, ffn: 25600, heads: 64, kvHeads: 8, tiedEmbeddings: false },
    checkpoints: [
      ...ckpts(bf16('Qwen/Qwen3-32B', 'aic'), 'Qwen/Qwen3-32B', 'Qwen/Qwen3-32B-Base'),
      ckpt('Qwen/Qwen3-32B-FP8', qwenFp8('Qwen/Qwen3-32B-FP8')),
      ckpt('nvidia/Qwen3-32B-NVFP4', nvfp4('nvidia/Qwen3-32B-NVFP4', ['lm_head'])),
    ],
    aliases: ['Qwen3Config32B', 'Qwen3ModelProvider32B', 'qwen3_32b'],
    tokenizer: tokenizer(151936, 'Qwen/Qwen3-32B', SRC.hf('Qwen/Qwen3-32B', 'aic') + ' vocab_size'),
    published: exactParams('32762123264', SRC.keras('qwen3_32b_en')),
    sources: [SRC.hf('Qwen/Qwen3-32B', 'aic'), SRC.nemo('qwen3', 'Qwen3Config32B')],
  }),
  entry({
    id: 'qwen3-30b-a3b',
    family: 'qwen',
    title: 'Qwen3 30B-A3B',
    shape: QWEN3_30B_A3B_SHAPE,
    checkpoints: [
      ...ckpts(bf16('Qwen/Qwen3-30B-A3B', 'aic'), 'Qwen/Qwen3-30B-A3B', 'Qwen/Qwen3-30B-A3B-Base'),
      ...ckpts(QWEN_BF16, 'Qwen/Qwen3-30B-A3B-Instruct-2507', 'Qwen/Qwen3-30B-A3B-Thinking-2507', 'Qwen/Qwen3-Coder-30B-A3B-Instruct'),
      ckpt('Qwen/Qwen3-30B-A3B-FP8', qwenFp8('Qwen/Qwen3-30B-A3B-FP8', FP8_MOE_EXCLUDED)),
      ckpt('nvidia/Qwen3-30B-A3B-NVFP4', nvfp4('nvidia/Qwen3-30B-A3B-NVFP4', ['lm_head', 'model.layers.*.mlp.gate'])),
    ],
    aliases: ['Qwen3Config30B_A3B', 'Qwen3MoEModelProvider30B_A3B', 'qwen3_30b_a3b'],
    tokenizer: tokenizer(151936, 'Qwen/Qwen3-30B-A3B', SRC.hf('Qwen/Qwen3-30B-A3B', 'aic') + ' vocab_size'),
    published: exactParams('30532122624', SRC.keras('qwen3_moe_30b_a3b_en')),
    sources: [
      SRC.hf('Qwen/Qwen3-30B-A3B', 'aic') + ' (decoder_sparse_step 1, mlp_only_layers []: every layer MoE)',
      SRC.keras('qwen3_coder_instruct_30b_a3b_en') + ': the same 30,532,122,624 parameters for Qwen3-Coder-30B-A3B-Instruct',
      SRC.nemo('qwen3', 'Qwen3Config30B_A3B'),
    ],
    notes: ['intermediate_size 6144 (ffn) is unused: every layer is MoE.'],
  }),
  entry({
    id: 'qwen3-235b-a22b',
    family: 'qwen',
    title: 'Qwen3 235B-A22B',
    shape: QWEN3_235B_A22B_SHAPE,
    checkpoints: [
      ckpt('Qwen/Qwen3-235B-A22B', bf16('Qwen/Qwen3-235B-A22B', 'aic')),
      ...ckpts(QWEN_BF16, 'Qwen/Qwen3-235B-A22B-Instruct-2507', 'Qwen/Qwen3-235B-A22B-Thinking-2507'),
      ckpt('Qwen/Qwen3-235B-A22B-FP8', qwenFp8('Qwen/Qwen3-235B-A22B-FP8', FP8_MOE_EXCLUDED)),
      ckpt('nvidia/Qwen3-235B-A22B-NVFP4', nvfp4('nvidia/Qwen3-235B-A22B-NVFP4', ['lm_head', 'model.layers.*.mlp.gate'])),
    ],
    aliases: ['Qwen3Config235B_A22B', 'Qwen3MoEModelProvider235B_A22B', 'qwen3_235b_a22b'],
    tokenizer: tokenizer(151936, 'Qwen/Qwen3-235B-A22B', SRC.hf('Qwen/Qwen3-235B-A22B', 'aic') + ' vocab_size'),
    published: exactParams('235093634560', SRC.keras('qwen3_moe_235b_a22b_en')),
    sources: [SRC.hf('Qwen/Qwen3-235B-A22B', 'aic') + ' (every layer MoE)', SRC.nemo('qwen3', 'Qwen3Config235B_A22B')],
    notes: ['intermediate_size 12288 (ffn) is unused: every layer is MoE.'],
  }),
  entry({
    id: 'qwen3-coder-480b-a35b',
    family: 'qwen',
    title: 'Qwen3-Coder 480B-A35B',
    shape: {
      ...QWEN3,
      layers: 62,
      hidden: 6144,
      ffn: 8192,
      heads: 96,
      kvHeads: 8,
      tiedEmbeddings: false,
      experts: 160,
      topK: 8,
      moeFfn: 2560,
      sharedExpertFfn: 0,
      denseLayersBeforeMoe: 0,
    },
    checkpoints: ckpts(bf16('Qwen/Qwen3-Coder-480B-A35B-Instruct', 'aic'), 'Qwen/Qwen3-Coder-480B-A35B-Instruct'),
    aliases: [],
    tokenizer: tokenizer(
      151936,
      'Qwen/Qwen3-Coder-480B-A35B-Instruct',
      SRC.hf('Qwen/Qwen3-Coder-480B-A35B-Instruct', 'aic') + ' vocab_size',
    ),
    published: roundedParams('480B', 'Model name (480B total, 35B activated)', { nominal: true }),
    sources: [SRC.hf('Qwen/Qwen3-Coder-480B-A35B-Instruct', 'aic') + ' (every layer MoE, shared_expert_intermediate_size 0)'],
  }),
  entry({
    id: 'qwen3-next-80b-a3b',
    family: 'qwen',
    title: 'Qwen3-Next 80B-A3B',
    shape: {
      ...QWEN3,
      headDim: 256,
      layers: 48,
      hidden: 2048,
      ffn: 5120,
      heads: 16,
      kvHeads: 2,
      tiedEmbeddings: false,
      experts: 512,
      topK: 10,
      moeFfn: 512,
      sharedExpertFfn: 512,
      sharedExperts: 1,
      denseLayersBeforeMoe: 0,
      attentionOutputGate: true,
      linearAttention: { fullAttentionInterval: 4, keyHeads: 16, valueHeads: 32, keyHeadDim: 128, valueHeadDim: 128, convKernel: 4 },
    },
    checkpoints: ckpts(
      bf16('Qwen/Qwen3-Next-80B-A3B-Thinking', 'aic'),
      'Qwen/Qwen3-Next-80B-A3B-Instruct',
      'Qwen/Qwen3-Next-80B-A3B-Thinking',
    ),
    aliases: ['Qwen3NextModelProvider80B_A3B'],
    tokenizer: tokenizer(151936, 'Qwen/Qwen3-Next-80B-A3B-Instruct', SRC.hf('Qwen/Qwen3-Next-80B-A3B-Thinking', 'aic') + ' vocab_size'),
    published: roundedParams('80B', 'Qwen3-Next-80B-A3B-Instruct model card "Number of Parameters: 80B in total and 3B activated"', {
      nominal: true,
    }),
    sources: [
      SRC.hf('Qwen/Qwen3-Next-80B-A3B-Thinking', 'aic') + ' (full_attention_interval 4, linear_* Gated DeltaNet dims, one shared expert)',
      SRC.bridge('qwen/qwen_provider.py', 'Qwen3NextModelProvider80B_A3B (attention_output_gate True, kv_channels 256)'),
    ],
    notes: ['Hybrid layout 12 × (3 Gated DeltaNet + 1 gated attention), every layer MoE; the shared expert has a sigmoid gate.'],
  }),
  entry({
    id: 'qwen3.5-35b-a3b',
    family: 'qwen',
    title: 'Qwen3.5 35B-A3B',
    shape: {
      ...QWEN3,
      headDim: 256,
      vocab: 248320,
      layers: 40,
      hidden: 2048,
      ffn: 512,
      heads: 16,
      kvHeads: 2,
      tiedEmbeddings: false,
      experts: 256,
      topK: 8,
      moeFfn: 512,
      sharedExpertFfn: 512,
      sharedExperts: 1,
      denseLayersBeforeMoe: 0,
      mtpLayers: 1,
      attentionOutputGate: true,
      linearAttention: { fullAttentionInterval: 4, keyHeads: 16, valueHeads: 32, keyHeadDim: 128, valueHeadDim: 128, convKernel: 4 },
    },
    checkpoints: ckpts(bf16('Qwen/Qwen3.5-35B-A3B', 'aic'), 'Qwen/Qwen3.5-35B-A3B', 'Qwen/Qwen3.5-35B-A3B-Base'),
    aliases: [],
    tokenizer: tokenizer(248320, 'Qwen/Qwen3.5-35B-A3B', SRC.hf('Qwen/Qwen3.5-35B-A3B', 'aic') + ' text_config.vocab_size'),
    published: roundedParams('35B', 'Model name (35B total, 3B activated)', { nominal: true, scope: 'the multimodal checkpoint' }),
    sources: [
      SRC.hf('Qwen/Qwen3.5-35B-A3B', 'aic') +
        ' text_config (full_attention_interval 4, linear_* Gated DeltaNet dims, attn_output_gate, mtp_num_hidden_layers 1, no dense intermediate_size)',
    ],
    notes: [
      'A multimodal checkpoint: the vision encoder is not in the shape.',
      'The config has no dense intermediate_size (every layer is MoE); ffn repeats the expert width.',
    ],
  }),
  entry({
    id: 'qwen3.5-397b-a17b',
    family: 'qwen',
    title: 'Qwen3.5 397B-A17B',
    shape: {
      ...QWEN3,
      headDim: 256,
      vocab: 248320,
      layers: 60,
      hidden: 4096,
      ffn: 1024,
      heads: 32,
      kvHeads: 2,
      tiedEmbeddings: false,
      experts: 512,
      topK: 10,
      moeFfn: 1024,
      sharedExpertFfn: 1024,
      sharedExperts: 1,
      denseLayersBeforeMoe: 0,
      mtpLayers: 1,
      attentionOutputGate: true,
      maxPositionEmbeddings: 262144,
      linearAttention: { fullAttentionInterval: 4, keyHeads: 16, valueHeads: 64, keyHeadDim: 128, valueHeadDim: 128, convKernel: 4 },
    },
    checkpoints: [
      ckpt('Qwen/Qwen3.5-397B-A17B', bf16Weights(`${SRC.hf('Qwen/Qwen3.5-397B-A17B', 'aic')} text_config.dtype bfloat16`)),
      ckpt('nvidia/Qwen3.5-397B-A17B-NVFP4', {
        ...nvfp4Weights('', ['lm_head', 'model.layers.*.mlp.gate'], undefined, 'linear'),
        source:
          'NVFP4 assumed for the linear layers, as nvidia/Qwen3-235B-A22B-NVFP4 ships them; the checkpoint is listed in TensorRT-LLM examples/auto_deploy/model_registry/models.yaml but its hf_quant_config.json was not read (point the model setting at its files to read them)',
      }),
    ],
    aliases: ['qwen3.5_moe_400b'],
    tokenizer: tokenizer(248320, 'Qwen/Qwen3.5-397B-A17B', SRC.hf('Qwen/Qwen3.5-397B-A17B', 'aic') + ' text_config.vocab_size'),
    published: roundedParams('397B', 'Model name (397B total, 17B activated)', { nominal: true, scope: 'the multimodal checkpoint' }),
    sources: [
      SRC.hf('Qwen/Qwen3.5-397B-A17B', 'aic') +
        ' text_config (60 layers, full_attention_interval 4, 512 experts of 1024 top-10, 1 shared expert of 1024, linear_num_value_heads 64, head_dim 256, 2 KV heads, mtp_num_hidden_layers 1, max_position_embeddings 262144)',
    ],
    notes: ['A multimodal checkpoint: the vision encoder is not in the shape.'],
  }),
];

/** DeepSeek's distillations onto Qwen2.5 shapes that differ from every Qwen release (listed after the DeepSeek models). */
export const QWEN_DISTILL_MODELS: CatalogueEntry[] = [
  // DeepSeek-R1-Distill-Qwen-1.5B: Qwen2.5-Math-1.5B's shape with untied embeddings (config.json tie_word_embeddings false).
  qwen2(
    'deepseek-r1-distill-qwen-1.5b',
    'DeepSeek-R1-Distill-Qwen 1.5B',
    { layers: 28, hidden: 1536, ffn: 8960, heads: 12, kvHeads: 2, vocab: 151936, tied: false },
    {
      checkpoints: [
        ckpt(
          'deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B',
          bf16Weights(`${SRC.hub('deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B')} torch_dtype bfloat16`),
        ),
      ],
      aliases: ['r1-distill-qwen-1.5b'],
      published: roundedParams('1.78B', 'HF deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B safetensors "1.78B params"'),
      sources: [
        `${SRC.hub('deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B')} (num_hidden_layers 28, hidden_size 1536, intermediate_size 8960, num_attention_heads 12, num_key_value_heads 2, vocab_size 151936, tie_word_embeddings false)`,
      ],
    },
  ),
];
