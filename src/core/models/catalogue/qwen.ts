// Alibaba Qwen: Qwen2, Qwen2.5, Qwen3 dense and MoE, Qwen3-Coder, Qwen3-Next, Qwen3.5, Qwen3.6.
// Architectures (config.json architectures[0]): Qwen2ForCausalLM for Qwen2 / Qwen2.5 (mlc-llm model_preset.py@79d603f
// qwen2_0_5b, qwen2_1_5b, qwen2_7b, qwen2.5_3b; Megatron-Bridge qwen/qwen2_bridge.py@067f987; trymirai/lalamo
// model_configs/huggingface/qwen2.py@cef960b HFQwen2Config, architectures Literal["Qwen2ForCausalLM"], applied to
// deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B). Qwen3, Qwen3-MoE, Qwen3.5, Qwen3.6: the aiconfigurator copies and Megatron-Bridge
// examples/model_verification_cards (qwen3-8b, qwen3-30b-a3b, qwen3-235b-a22b, qwen3.6-35b-a3b, qwen3.8-27b); Qwen3-4B and 14B
// per Automodel docs/model-coverage/llm/qwen/qwen3.mdx@36044ad and lalamo model_specs/qwen.py (HFQwen3Config); Qwen3-Next per
// the aiconfigurator copy of Qwen3-Next-80B-A3B-Thinking and Automodel docs/model-coverage/llm/qwen/qwen3-next.mdx (Instruct);
// Qwen3.5 0.8B-9B per Megatron-Bridge docs/models/qwen/qwen35-vl.md and qwen_vl/qwen35_vl_bridge.py@067f987
// (_QWEN3_5_DENSE_HF_CLASS_NAME "Qwen3_5ForConditionalGeneration").
import { exactParams, roundedParams } from '../published.js';
import type { CatalogueEntry, TokenizerFacts, WeightFormat } from '../types.js';
import { assumedBf16Weights, bf16Weights, fp8BlockWeights, modeloptFp8Weights, nvfp4Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';

const QWEN = { gatedMlp: true, norm: 'rmsnorm', activation: 'swiglu' } as const;
/** Qwen2 / Qwen2.5: biases on q, k and v (NeMo Qwen2Config add_qkv_bias). */
const QWEN2 = { ...QWEN, ...DENSE, attentionBias: 'qkv' } as const;
/** Qwen3: per-head RMSNorm on q and k, no biases, head_dim 128 (NeMo Qwen3Config qk_layernorm, kv_channels 128). */
const QWEN3 = { ...QWEN, qkNorm: true, headDim: 128, vocab: 151936 } as const;

const tokenizer = (vocab: number, hfId: string, source: string): TokenizerFacts => ({ hfId, kind: 'bpe', vocab, source });
const bf16 = (id: string, copy: 'aic' | 'mlc') => bf16Weights(`${SRC.hf(id, copy)} torch_dtype bfloat16`);
/** Megatron-Bridge's verification card of Qwen3.8-27B, a Qwen3.5-27B architecture. */
const QWEN38_CARD = 'Megatron-Bridge examples/model_verification_cards/qwen3.8-27b/card.yaml';
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

export function qwen2(
  id: string,
  title: string,
  s: { layers: number; hidden: number; ffn: number; heads: number; kvHeads: number; vocab: number; tied: boolean },
  more: Omit<Parameters<typeof entry>[0], 'id' | 'title' | 'family' | 'shape' | 'tokenizer'>,
  /** config.json architectures[0]: every Qwen2 / Qwen2.5 language model (and its R1 distillation) is Qwen2ForCausalLM. */
  architecture = 'Qwen2ForCausalLM',
): CatalogueEntry {
  const { tied, ...dims } = s;
  return entry({
    id,
    title,
    family: 'qwen',
    shape: { architecture, ...QWEN2, ...dims, headDim: s.hidden / s.heads, tiedEmbeddings: tied },
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

/**
 * Qwen3-Next / Qwen3.5 / Qwen3.6: 3 Gated DeltaNet layers then 1 gated-attention layer, repeated (full_attention_interval 4);
 * 16 key heads of 128 and value heads of 128 in the GDN layers, a 4-tap conv (every Qwen3-Next/3.5/3.6 config.json read).
 */
const gdn = (valueHeads: number) =>
  ({ fullAttentionInterval: 4, keyHeads: 16, valueHeads, keyHeadDim: 128, valueHeadDim: 128, convKernel: 4 }) as const;
/** Qwen3.5 / Qwen3.6 text_config: head_dim 256, vocab 248320, attn_output_gate, 262144 positions. */
const QWEN35 = { ...QWEN3, headDim: 256, vocab: 248320, attentionOutputGate: true, maxPositionEmbeddings: 262144 } as const;
/** One shared expert with a sigmoid gate (shared_expert_gate), every layer MoE (mlp_only_layers []). */
const QWEN35_MOE = { sharedExperts: 1, sharedExpertGate: true, denseLayersBeforeMoe: 0, tiedEmbeddings: false } as const;
/** Qwen3.5-35B-A3B's language model; Qwen3.6-35B-A3B's text_config is the same. */
const QWEN35_35B_A3B_SHAPE = {
  ...QWEN35,
  ...QWEN35_MOE,
  layers: 40,
  hidden: 2048,
  ffn: 512,
  heads: 16,
  kvHeads: 2,
  experts: 256,
  topK: 8,
  moeFfn: 512,
  sharedExpertFfn: 512,
  mtpLayers: 1,
  linearAttention: gdn(32),
} as const;
/** Qwen3.5-27B's language model; Qwen3.6-27B's text_config is the same. */
const QWEN35_27B_SHAPE = {
  ...QWEN35,
  ...DENSE,
  layers: 64,
  hidden: 5120,
  ffn: 17408,
  heads: 24,
  kvHeads: 4,
  tiedEmbeddings: false,
  mtpLayers: 1,
  linearAttention: gdn(48),
} as const;
const aicText = (id: string, what: string) => `${SRC.hf(id, 'aic')} text_config (${what})`;
/** vision_config.depth and hidden_size of the checkpoint read (Qwen3.5 has no DeepStack mergers: deepstack_visual_indexes []). */
const qwen35Vision = (depth: number, width: number) =>
  `A multimodal checkpoint (Qwen3_5*ForConditionalGeneration): the vision encoder (vision_config: ${depth} ViT blocks of width ${width}) is not in the shape.`;
const qwen35Published = (size: string, what = 'Model name') =>
  roundedParams(size, what, { nominal: true, scope: 'the multimodal checkpoint (vision encoder and MTP layer included)' });
const BRIDGE_QWEN35 = 'Megatron-Bridge src/megatron/bridge/recipes/qwen_vl/qwen35_vl.py@067f987 recipe names';
/** ModelOpt MIXED_PRECISION of NVIDIA's Qwen3.6 NVFP4 checkpoints: W4A16_NVFP4 MLPs / experts and lm_head, FP8 attention and GDN projections. */
const qwen36Nvfp4 = (id: string): WeightFormat => ({
  ...nvfp4Weights(
    `HF ${id} hf_quant_config.json (copy in ai-dynamo/aiconfigurator model_configs/): quant_algo MIXED_PRECISION, kv_cache_quant_algo FP8; quantized_layers W4A16_NVFP4 for the MLPs, experts and lm_head (kept at FP8 here: the scope is the MLPs), FP8 for self_attn q/k/v/o_proj and linear_attn in_proj_qkv/in_proj_z/out_proj; mtp excluded`,
    ['mtp*'],
    'fp8',
    'mlp',
  ),
  other: 'fp8',
});
/** ModelOpt NVFP4 of NVIDIA's Qwen3.5 MoE checkpoints: only the routed experts (attention, GDN, shared experts, lm_head, vision, MTP excluded). */
const QWEN35_NVFP4_EXCLUDED = [
  'lm_head',
  'model.language_model.layers.*.self_attn*',
  'model.language_model.layers.*.linear_attn*',
  'model.language_model.layers.*.mlp.shared_expert*',
  'model.language_model.layers.*.mlp.shared_expert_gate',
  'model.visual*',
  'mtp*',
];
const OMEGALAX = 'p-doom/omegalax omegalax/models/qwen3_5/config.py@6f3854e _QWEN3_5_SPECS';
/**
 * The small dense Qwen3.5 releases, whose config.json was not read: their text_config and vision_config dimensions as a
 * public registry of the HF checkpoints transcribes them (OMEGALAX); head_dim, the GDN key heads and head dims, the conv
 * kernel and full_attention_interval take the family's values, which every Qwen3.5 config.json read shares.
 */
function qwen35Small(
  size: string,
  label: string,
  s: { layers: number; hidden: number; ffn: number; heads: number; kvHeads: number; valueHeads: number; tied: boolean },
  vision: [number, number],
  aliases: string[],
): CatalogueEntry {
  const id = `Qwen/Qwen3.5-${label}`;
  const dims = `${s.layers} layers, hidden ${s.hidden}, intermediate ${s.ffn}, ${s.heads} heads, ${s.kvHeads} KV heads, linear_num_value_heads ${s.valueHeads}, tie_word_embeddings ${s.tied}`;
  return entry({
    id: `qwen3.5-${size}`,
    family: 'qwen',
    title: `Qwen3.5 ${label}`,
    shape: {
      architecture: 'Qwen3_5ForConditionalGeneration',
      ...QWEN35,
      ...DENSE,
      layers: s.layers,
      hidden: s.hidden,
      ffn: s.ffn,
      heads: s.heads,
      kvHeads: s.kvHeads,
      tiedEmbeddings: s.tied,
      linearAttention: gdn(s.valueHeads),
    },
    checkpoints: ckpts(
      assumedBf16Weights(`the Qwen3.5 releases read here store BF16 (${SRC.hf('Qwen/Qwen3.5-27B', 'aic')} text_config.dtype bfloat16)`),
      id,
      ...(size === '9b' ? [`${id}-Base`] : []), // Megatron-Bridge recipes/qwen/gb200/qwen35.py _QWEN35_9B_BASE
    ),
    aliases,
    tokenizer: tokenizer(248320, id, `vocab_size 248320 of every Qwen3.5 config.json read (${SRC.hf('Qwen/Qwen3.5-27B', 'aic')})`),
    published: qwen35Published(label),
    sources: [
      `${OMEGALAX}["qwen3.5-${size}"] (hf_repo_id ${id}: ${dims}; HF config.json not read)`,
      `head_dim 256, linear_num_key_heads 16, linear key/value head dims 128, linear_conv_kernel_dim 4, full_attention_interval 4, vocab 248320: the values of every Qwen3.5 config.json read (${SRC.hf('Qwen/Qwen3.5-27B', 'aic')}, 35B-A3B, 122B-A10B, 397B-A17B)`,
      ...(size === '9b'
        ? [
            `${SRC.transformers('Qwen3_5TextConfig')} ("Qwen3.5-9B style configuration": hidden 4096, intermediate 12288, 32 layers, 16 heads, 4 KV heads, linear_num_value_heads 32, tie_word_embeddings false)`,
          ]
        : []),
      BRIDGE_QWEN35,
    ],
    notes: [
      qwen35Vision(vision[0], vision[1]),
      'config.json not read: mtp_num_hidden_layers unknown, so no MTP layer is counted (the larger Qwen3.5 releases have one).',
    ],
  });
}

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
      checkpoints: [
        ...ckpts(bf16('Qwen/Qwen2.5-1.5B', 'aic'), 'Qwen/Qwen2.5-1.5B', 'Qwen/Qwen2.5-1.5B-Instruct'),
        // HF Qwen/Qwen2.5-Coder-1.5B model card: 28 layers, 12 Q / 2 KV heads, tied word embeddings, 1.54B parameters.
        ...ckpts(QWEN_BF16, 'Qwen/Qwen2.5-Coder-1.5B', 'Qwen/Qwen2.5-Coder-1.5B-Instruct'),
        // HF Qwen/Qwen2.5-Math-1.5B model card: base_model Qwen/Qwen2.5-1.5B (a continued pre-training of it, the same
        // shape); Qwen2.5-Math-1.5B-Instruct's card: base_model Qwen/Qwen2.5-Math-1.5B. NeMo-RL's math GRPO recipes train it.
        ...ckpts(QWEN_BF16, 'Qwen/Qwen2.5-Math-1.5B', 'Qwen/Qwen2.5-Math-1.5B-Instruct'),
      ],
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
        // HF Qwen/Qwen2.5-Math-7B model card: base_model Qwen/Qwen2.5-7B (a continued pre-training of it, the same shape).
        ...ckpts(QWEN_BF16, 'Qwen/Qwen2.5-Math-7B', 'Qwen/Qwen2.5-Math-7B-Instruct'),
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
    shape: {
      architecture: 'Qwen3ForCausalLM',
      ...QWEN3,
      ...DENSE,
      layers: 28,
      hidden: 1024,
      ffn: 3072,
      heads: 16,
      kvHeads: 8,
      tiedEmbeddings: true,
    },
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
    shape: {
      architecture: 'Qwen3ForCausalLM',
      ...QWEN3,
      ...DENSE,
      layers: 28,
      hidden: 2048,
      ffn: 6144,
      heads: 16,
      kvHeads: 8,
      tiedEmbeddings: true,
    },
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
    shape: {
      architecture: 'Qwen3ForCausalLM',
      ...QWEN3,
      ...DENSE,
      layers: 36,
      hidden: 2560,
      ffn: 9728,
      heads: 32,
      kvHeads: 8,
      tiedEmbeddings: true,
    },
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
    shape: {
      architecture: 'Qwen3ForCausalLM',
      ...QWEN3,
      ...DENSE,
      layers: 36,
      hidden: 4096,
      ffn: 12288,
      heads: 32,
      kvHeads: 8,
      tiedEmbeddings: false,
    },
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
    shape: {
      architecture: 'Qwen3ForCausalLM',
      ...QWEN3,
      ...DENSE,
      layers: 40,
      hidden: 5120,
      ffn: 17408,
      heads: 40,
      kvHeads: 8,
      tiedEmbeddings: false,
    },
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
    shape: {
      architecture: 'Qwen3ForCausalLM',
      ...QWEN3,
      ...DENSE,
      layers: 64,
      hidden: 5120,
      ffn: 25600,
      heads: 64,
      kvHeads: 8,
      tiedEmbeddings: false,
    },
    checkpoints: [
      ...ckpts(bf16('Qwen/Qwen3-32B', 'aic'), 'Qwen/Qwen3-32B', 'Qwen/Qwen3-32B-Base'),
      ckpt('Qwen/Qwen3-32B-FP8', qwenFp8('Qwen/Qwen3-32B-FP8')),
      ckpt(
        'Qwen/Qwen3-32B-FP8-Static-PerTensor',
        modeloptFp8Weights(
          `${SRC.hf('Qwen/Qwen3-32B-FP8-Static-PerTensor', 'aic')} and hf_quant_config.json: ModelOpt quant_algo FP8 (static per-tensor scales), kv_cache_quant_algo FP8, exclude_modules [lm_head]`,
          ['lm_head'],
          'fp8',
        ),
      ),
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
    shape: { ...QWEN3_30B_A3B_SHAPE, architecture: 'Qwen3MoeForCausalLM' },
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
    shape: { ...QWEN3_235B_A22B_SHAPE, architecture: 'Qwen3MoeForCausalLM' },
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
      architecture: 'Qwen3MoeForCausalLM',
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
      architecture: 'Qwen3NextForCausalLM',
      ...QWEN3,
      ...QWEN35_MOE,
      headDim: 256,
      layers: 48,
      hidden: 2048,
      ffn: 5120,
      heads: 16,
      kvHeads: 2,
      experts: 512,
      topK: 10,
      moeFfn: 512,
      sharedExpertFfn: 512,
      attentionOutputGate: true,
      linearAttention: gdn(32),
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
      SRC.bridge(
        'qwen/qwen_provider.py',
        'Qwen3NextModelProvider80B_A3B (attention_output_gate True, kv_channels 256, moe_shared_expert_gate True)',
      ),
    ],
    notes: [
      'Hybrid layout 12 × (3 Gated DeltaNet + 1 gated attention), every layer MoE; the shared expert has a sigmoid gate.',
      'The checkpoint also ships one multi-token-prediction layer (mtp.*, mapped by Megatron-Bridge qwen3_next_bridge.py) that config.json does not declare; it is not in the shape (Qwen3NextModelProvider80B_A3B mtp_num_layers None).',
    ],
  }),
  qwen35Small(
    '0.8b',
    '0.8B',
    { layers: 24, hidden: 1024, ffn: 3584, heads: 8, kvHeads: 2, valueHeads: 16, tied: true },
    [12, 768],
    ['qwen35_vl_800m'],
  ),
  qwen35Small(
    '2b',
    '2B',
    { layers: 24, hidden: 2048, ffn: 6144, heads: 8, kvHeads: 2, valueHeads: 16, tied: true },
    [24, 1024],
    ['qwen35_vl_2b'],
  ),
  qwen35Small(
    '4b',
    '4B',
    { layers: 32, hidden: 2560, ffn: 9216, heads: 16, kvHeads: 4, valueHeads: 32, tied: true },
    [24, 1024],
    ['qwen35_vl_4b'],
  ),
  qwen35Small(
    '9b',
    '9B',
    { layers: 32, hidden: 4096, ffn: 12288, heads: 16, kvHeads: 4, valueHeads: 32, tied: false },
    [27, 1152],
    ['qwen35_vl_9b', 'qwen35_text_9b'],
  ),
  entry({
    id: 'qwen3.5-27b',
    family: 'qwen',
    title: 'Qwen3.5 27B',
    shape: { ...QWEN35_27B_SHAPE, architecture: 'Qwen3_5ForConditionalGeneration' },
    checkpoints: [
      ckpt('Qwen/Qwen3.5-27B', bf16Weights(`${SRC.hf('Qwen/Qwen3.5-27B', 'aic')} text_config.dtype bfloat16`)),
      ckpt(
        'Qwen/Qwen3.8-27B',
        bf16Weights(`${QWEN38_CARD} (precision bf16; 55,562,855,904 BF16 tensor bytes exported, 2 per parameter)`),
        `Qwen3.8-27B is read as Qwen3.5-27B: ${QWEN38_CARD} imports it with Qwen35VLBridge (Qwen3_5ForConditionalGeneration) and counts 27,781,427,952 parameters, exactly Qwen3.5-27B's text model (26,895,998,464) + vision tower (460,730,096) + MTP layer (424,699,392).`,
      ),
    ],
    aliases: ['qwen35_vl_27b'],
    tokenizer: tokenizer(248320, 'Qwen/Qwen3.5-27B', SRC.hf('Qwen/Qwen3.5-27B', 'aic') + ' text_config.vocab_size'),
    published: qwen35Published('27B'),
    sources: [
      aicText(
        'Qwen/Qwen3.5-27B',
        '64 layers, hidden 5120, intermediate 17408, 24 heads, 4 KV heads, head_dim 256, attn_output_gate, full_attention_interval 4, linear_num_value_heads 48, mtp_num_hidden_layers 1, tie_word_embeddings false',
      ),
      BRIDGE_QWEN35,
    ],
    notes: [qwen35Vision(27, 1152), 'Hybrid layout 16 × (3 Gated DeltaNet + 1 gated attention), each with a dense SwiGLU MLP.'],
  }),
  entry({
    id: 'qwen3.5-35b-a3b',
    family: 'qwen',
    title: 'Qwen3.5 35B-A3B',
    shape: { ...QWEN35_35B_A3B_SHAPE, architecture: 'Qwen3_5MoeForConditionalGeneration' },
    checkpoints: ckpts(bf16('Qwen/Qwen3.5-35B-A3B', 'aic'), 'Qwen/Qwen3.5-35B-A3B', 'Qwen/Qwen3.5-35B-A3B-Base'),
    aliases: ['qwen35_vl_35b_a3b', 'qwen35_text_35b_a3b'],
    tokenizer: tokenizer(248320, 'Qwen/Qwen3.5-35B-A3B', SRC.hf('Qwen/Qwen3.5-35B-A3B', 'aic') + ' text_config.vocab_size'),
    published: qwen35Published('35B', 'Model name (35B total, 3B activated)'),
    sources: [
      aicText(
        'Qwen/Qwen3.5-35B-A3B',
        'full_attention_interval 4, linear_* Gated DeltaNet dims, attn_output_gate, 256 experts of 512 top-8, one shared expert of 512, mtp_num_hidden_layers 1, no dense intermediate_size',
      ),
      BRIDGE_QWEN35,
    ],
    notes: [
      qwen35Vision(27, 1152),
      'The config has no dense intermediate_size (every layer is MoE); ffn repeats the expert width.',
      'Hybrid layout 10 × (3 Gated DeltaNet + 1 gated attention), every layer MoE; the shared expert has a sigmoid gate.',
    ],
  }),
  entry({
    id: 'qwen3.5-122b-a10b',
    family: 'qwen',
    title: 'Qwen3.5 122B-A10B',
    shape: {
      architecture: 'Qwen3_5MoeForConditionalGeneration',
      ...QWEN35,
      ...QWEN35_MOE,
      layers: 48,
      hidden: 3072,
      ffn: 1024,
      heads: 32,
      kvHeads: 2,
      experts: 256,
      topK: 8,
      moeFfn: 1024,
      sharedExpertFfn: 1024,
      mtpLayers: 1,
      linearAttention: gdn(64),
    },
    checkpoints: [
      ckpt('Qwen/Qwen3.5-122B-A10B', bf16Weights(`${SRC.hf('Qwen/Qwen3.5-122B-A10B', 'aic')} text_config.dtype bfloat16`)),
      ckpt('nvidia/Qwen3.5-122B-A10B-NVFP4', nvfp4('nvidia/Qwen3.5-122B-A10B-NVFP4', QWEN35_NVFP4_EXCLUDED)),
    ],
    aliases: ['qwen35_vl_122b_a10b'],
    tokenizer: tokenizer(248320, 'Qwen/Qwen3.5-122B-A10B', SRC.hf('Qwen/Qwen3.5-122B-A10B', 'aic') + ' text_config.vocab_size'),
    published: qwen35Published('122B', 'Model name (122B total, 10B activated)'),
    sources: [
      aicText(
        'Qwen/Qwen3.5-122B-A10B',
        '48 layers, hidden 3072, 32 heads, 2 KV heads, head_dim 256, 256 experts of 1024 top-8, one shared expert of 1024, linear_num_value_heads 64, mtp_num_hidden_layers 1, no dense intermediate_size',
      ),
      BRIDGE_QWEN35,
    ],
    notes: [
      qwen35Vision(27, 1152),
      'The config has no dense intermediate_size (every layer is MoE); ffn repeats the expert width.',
      'Hybrid layout 12 × (3 Gated DeltaNet + 1 gated attention), every layer MoE; the shared expert has a sigmoid gate.',
    ],
  }),
  entry({
    id: 'qwen3.5-397b-a17b',
    family: 'qwen',
    title: 'Qwen3.5 397B-A17B',
    shape: {
      architecture: 'Qwen3_5MoeForConditionalGeneration',
      ...QWEN35,
      ...QWEN35_MOE,
      layers: 60,
      hidden: 4096,
      ffn: 1024,
      heads: 32,
      kvHeads: 2,
      experts: 512,
      topK: 10,
      moeFfn: 1024,
      sharedExpertFfn: 1024,
      mtpLayers: 1,
      linearAttention: gdn(64),
    },
    checkpoints: [
      ckpt('Qwen/Qwen3.5-397B-A17B', bf16Weights(`${SRC.hf('Qwen/Qwen3.5-397B-A17B', 'aic')} text_config.dtype bfloat16`)),
      ckpt('nvidia/Qwen3.5-397B-A17B-NVFP4', nvfp4('nvidia/Qwen3.5-397B-A17B-NVFP4', QWEN35_NVFP4_EXCLUDED)),
    ],
    aliases: ['qwen3.5_moe_400b', 'qwen35_vl_397b_a17b'],
    tokenizer: tokenizer(248320, 'Qwen/Qwen3.5-397B-A17B', SRC.hf('Qwen/Qwen3.5-397B-A17B', 'aic') + ' text_config.vocab_size'),
    published: qwen35Published('397B', 'Model name (397B total, 17B activated)'),
    sources: [
      aicText(
        'Qwen/Qwen3.5-397B-A17B',
        '60 layers, full_attention_interval 4, 512 experts of 1024 top-10, 1 shared expert of 1024, linear_num_value_heads 64, head_dim 256, 2 KV heads, mtp_num_hidden_layers 1, max_position_embeddings 262144',
      ),
      BRIDGE_QWEN35,
    ],
    notes: [
      qwen35Vision(27, 1152),
      'The config has no dense intermediate_size (every layer is MoE); ffn repeats the expert width.',
      'Hybrid layout 15 × (3 Gated DeltaNet + 1 gated attention), every layer MoE; the shared expert has a sigmoid gate.',
    ],
  }),
  // Qwen3.6 keeps Qwen3.5's architecture and shapes (Megatron-Bridge docs/models/qwen/qwen35-vl.md@067f987: "Qwen3.6 shares
  // the same architecture as Qwen3.5 VL MoE"); its own entries keep `Qwen3.6-…` names from resolving to a Qwen3.5 release.
  entry({
    id: 'qwen3.6-27b',
    family: 'qwen',
    title: 'Qwen3.6 27B',
    shape: { ...QWEN35_27B_SHAPE, architecture: 'Qwen3_5ForConditionalGeneration' },
    checkpoints: [
      ckpt(
        'Qwen/Qwen3.6-27B',
        assumedBf16Weights(`its NVFP4 quantization ${SRC.hf('nvidia/Qwen3.6-27B-NVFP4', 'aic')} records dtype bfloat16`),
      ),
      ckpt('nvidia/Qwen3.6-27B-NVFP4', qwen36Nvfp4('nvidia/Qwen3.6-27B-NVFP4')),
    ],
    aliases: [],
    tokenizer: tokenizer(248320, 'Qwen/Qwen3.6-27B', SRC.hf('nvidia/Qwen3.6-27B-NVFP4', 'aic') + ' text_config.vocab_size'),
    published: qwen35Published('27B'),
    sources: [
      aicText(
        'nvidia/Qwen3.6-27B-NVFP4',
        'Qwen3_5ForConditionalGeneration; 64 layers, hidden 5120, intermediate 17408, 24 heads, 4 KV heads, head_dim 256, linear_num_value_heads 48, mtp_num_hidden_layers 1: the text_config of Qwen3.5-27B',
      ),
    ],
    notes: [qwen35Vision(27, 1152), 'The shape of Qwen3.5 27B: 16 × (3 Gated DeltaNet + 1 gated attention), each with a dense SwiGLU MLP.'],
  }),
  entry({
    id: 'qwen3.6-35b-a3b',
    family: 'qwen',
    title: 'Qwen3.6 35B-A3B',
    shape: { ...QWEN35_35B_A3B_SHAPE, architecture: 'Qwen3_5MoeForConditionalGeneration' },
    checkpoints: [
      ckpt(
        'Qwen/Qwen3.6-35B-A3B',
        assumedBf16Weights(`its NVFP4 quantization ${SRC.hf('nvidia/Qwen3.6-35B-A3B-NVFP4', 'aic')} records dtype bfloat16`),
      ),
      ckpt('nvidia/Qwen3.6-35B-A3B-NVFP4', qwen36Nvfp4('nvidia/Qwen3.6-35B-A3B-NVFP4')),
    ],
    aliases: [],
    tokenizer: tokenizer(248320, 'Qwen/Qwen3.6-35B-A3B', SRC.hf('nvidia/Qwen3.6-35B-A3B-NVFP4', 'aic') + ' text_config.vocab_size'),
    published: qwen35Published('35B', 'Model name (35B total, 3B activated)'),
    sources: [
      aicText(
        'nvidia/Qwen3.6-35B-A3B-NVFP4',
        'Qwen3_5MoeForConditionalGeneration; 40 layers, hidden 2048, 16 heads, 2 KV heads, 256 experts of 512 top-8, one shared expert of 512, linear_num_value_heads 32, mtp_num_hidden_layers 1: the text_config of Qwen3.5-35B-A3B',
      ),
      'Megatron-Bridge docs/models/qwen/qwen35-vl.md@067f987 (Qwen/Qwen3.6-35B-A3B: 40 layers, 10 × (3 GDN + 1 attention), 256 experts top-8)',
    ],
    notes: [
      qwen35Vision(27, 1152),
      'The shape of Qwen3.5 35B-A3B: 10 × (3 Gated DeltaNet + 1 gated attention), every layer MoE; the shared expert has a sigmoid gate.',
    ],
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
