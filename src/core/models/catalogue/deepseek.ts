// DeepSeek V2, V2-Lite, V3, R1, V3.2 (multi-head latent attention, MoE, MTP; V3.2 adds the DSA lightning indexer) and
// the DeepSeek-V3-architecture Moonshot models.
// Architectures (config.json architectures[0]): the aiconfigurator copies (DeepSeek-V3, R1, V3.2, Kimi-K2-Instruct, Kimi-K2.5)
// and mlc-llm model_preset.py@79d603f deepseek_v2_lite; DeepSeek-V2 per Megatron-Bridge deepseek/deepseek_v2_bridge.py@067f987
// (source=DeepseekV2ForCausalLM, docs/models/deepseek/deepseek-v2.md); Moonlight per Megatron-Bridge
// examples/model_verification_cards/moonlight-16b-a3b/card.yaml (architecture DeepseekV3ForCausalLM).
import { roundedParams } from '../published.js';
import type { CatalogueEntry, WeightFormat } from '../types.js';
import { assumedBf16Weights, bf16Weights, fp8BlockWeights, nvfp4Weights } from '../weights.js';
import { ckpt, entry, SRC } from './common.js';

const DS = { gatedMlp: true, norm: 'rmsnorm', activation: 'swiglu', tiedEmbeddings: false } as const;
const MLA_V3 = { kvLoraRank: 512, qkRopeHeadDim: 64, qLoraRank: 1536, qkNopeHeadDim: 128, vHeadDim: 128 } as const;

const v3Shape = {
  ...DS,
  layers: 61,
  hidden: 7168,
  ffn: 18432,
  heads: 128,
  kvHeads: 128,
  headDim: 192,
  vocab: 129280,
  experts: 256,
  topK: 8,
  moeFfn: 2048,
  sharedExpertFfn: 2048,
  sharedExperts: 1,
  denseLayersBeforeMoe: 3,
  mla: MLA_V3,
  routerBias: true,
  mtpLayers: 1,
};
/**
 * DeepSeek-V3.2: the DeepSeek-V3 shape with DeepSeek Sparse Attention's lightning indexer on every layer (HF
 * deepseek-ai/DeepSeek-V3.2 config.json DeepseekV32ForCausalLM: index_n_heads 64, index_head_dim 128, index_topk 2048).
 */
const V32_SHAPE = { ...v3Shape, dsa: { heads: 64, headDim: 128, topK: 2048 }, maxPositionEmbeddings: 163840 };
/** Kimi K2's language model (HF moonshotai/Kimi-K2-Instruct config.json: DeepseekV3 keys, 64 heads, 384 experts, first_k_dense_replace 1); Kimi K2.5 holds the same. */
const KIMI_K2_SHAPE = { ...v3Shape, heads: 64, kvHeads: 64, vocab: 163840, experts: 384, denseLayersBeforeMoe: 1, mtpLayers: 0 };

/** Kimi K2.5's native INT4 experts: compressed-tensors pack-quantized int4, symmetric, group 32; attention, shared experts, the dense MLP and lm_head ignored. */
const KIMI_INT4: WeightFormat = {
  dtype: 'int4',
  scope: 'experts',
  other: 'bf16',
  block: 'group 32, BF16 scales',
  excluded: ['lm_head', 're:.*self_attn.*', 're:.*shared_experts.*', 're:.*mlp\\.(gate|up|gate_up|down)_proj.*'],
  source: '',
};
/**
 * NVIDIA's NVFP4 Kimi K2.6 / K2.7-Code (config.json quantization_config and hf_quant_config.json: modelopt NVFP4, group 16,
 * FP8 KV cache): only the routed experts are NVFP4 — lm_head, layer 0 (the dense layer), every self_attn and every
 * shared_experts excluded, with the vision tower and projector.
 */
const KIMI_NVFP4_EXPERTS = (id: string) =>
  nvfp4Weights(
    `${SRC.hf(id, 'aic')} quantization_config and hf_quant_config.json (modelopt NVFP4, group 16, kv_cache_quant_algo FP8; lm_head, layers.0, self_attn and shared_experts excluded)`,
    [
      'language_model.lm_head',
      'language_model.model.layers.0*',
      'language_model.model.layers.*.self_attn*',
      'language_model.model.layers.*.mlp.shared_experts*',
      'vision_tower*',
      'mm_projector*',
    ],
    'fp8',
    'experts',
  );
const dsFp8 = (id: string) =>
  fp8BlockWeights(`${SRC.hf(id, 'aic')} quantization_config: quant_method fp8, fmt e4m3, weight_block_size [128, 128]`);
/** A release of the same family whose config.json was not read: the family's FP8 block format is assumed. */
const assumedFp8 = (basis: string): WeightFormat => ({
  ...fp8BlockWeights(''),
  source: `FP8 128×128 blocks assumed: ${basis} (this checkpoint's config.json was not read; point the model setting at its files to read them)`,
});
/**
 * nvidia/DeepSeek-R1-FP4: NVFP4 MLPs (dense, shared and routed experts); the attention projections stay BF16
 * (NVIDIA/Model-Optimizer issue #150) and the MTP layer 61 is excluded (hf_quant_config.json `model.layers.61*`, vllm-project/vllm#25987).
 */
const R1_FP4 = nvfp4Weights(
  'HF nvidia/DeepSeek-R1-FP4 hf_quant_config.json quant_algo NVFP4 (attention BF16 per NVIDIA/Model-Optimizer#150; MTP layer excluded per vllm-project/vllm#25987)',
  ['lm_head', 'model.layers.*.self_attn*', 'model.layers.61*'],
  undefined,
  'mlp',
);
/** Later NVIDIA FP4 releases of R1 whose hf_quant_config.json was not read: R1-FP4's exclusions assumed (the larger, BF16 attention). */
const R1_FP4_ASSUMED = (hfId: string): WeightFormat => ({
  ...R1_FP4,
  source: `NVFP4 MLPs with BF16 attention and a BF16 MTP layer assumed for ${hfId}, as nvidia/DeepSeek-R1-FP4 ships them (its hf_quant_config.json; NVIDIA/Model-Optimizer#150); this checkpoint's own files were not read (point the model setting at them to read them)`,
});
/**
 * nvidia/DeepSeek-V3.2-NVFP4 hf_quant_config.json: NVFP4 (group 16) with an FP8 KV cache; lm_head, the MTP layer 61 and
 * every layer's q_a/q_b/kv_a/kv_b projections and indexer excluded. o_proj is NVFP4, but the weights estimate keeps a
 * layer's attention in one storage: it is counted in BF16 (an upper bound of 7.2B parameters at 2 B instead of 0.5625 B).
 */
const V32_FP4 = nvfp4Weights(
  `${SRC.hf('nvidia/DeepSeek-V3.2-NVFP4', 'aic')} and hf_quant_config.json: quant_algo NVFP4, group_size 16, kv_cache_quant_algo FP8 (o_proj NVFP4, counted as BF16 attention)`,
  [
    'lm_head',
    'model.layers.*.self_attn.indexer*',
    'model.layers.*.self_attn.kv_a_proj_with_mqa',
    'model.layers.*.self_attn.kv_b_proj',
    'model.layers.*.self_attn.q_a_proj',
    'model.layers.*.self_attn.q_b_proj',
    'model.layers.61*',
  ],
  'fp8',
  'mlp',
);
const V3_0324_FP4 = nvfp4Weights(
  'HF nvidia/DeepSeek-V3-0324-NVFP4 hf_quant_config.json (copy in ai-dynamo/aiconfigurator model_configs/): quant_algo NVFP4, group_size 16',
  [
    'lm_head',
    'model.embed_tokens',
    'model.norm',
    'model.layers.*.self_attn*',
    'model.layers.*.mlp.gate',
    'model.layers.*.input_layernorm',
    'model.layers.*.post_attention_layernorm',
    'model.layers.61*',
  ],
);

const V3_SOURCES = [
  SRC.hf('deepseek-ai/DeepSeek-V3', 'aic') +
    ' (q_lora_rank 1536, kv_lora_rank 512, qk_nope/rope 128/64, v_head_dim 128, 256 routed + 1 shared expert of 2048, first_k_dense_replace 3, num_nextn_predict_layers 1, topk_method noaux_tc)',
  SRC.nemo('deepseek', 'DeepSeekV3Config'),
];
const V3_PUBLISHED = roundedParams('671B', 'DeepSeek-V3 technical report (arXiv:2412.19437): "671B total parameters with 37B activated"', {
  scope: 'the main model without the 14B multi-token-prediction module (the HF checkpoint holds 685B with it)',
});
const V3_TOKENIZER = {
  hfId: 'deepseek-ai/DeepSeek-V3',
  kind: 'bpe',
  vocab: 129280,
  source: SRC.hf('deepseek-ai/DeepSeek-V3', 'aic') + ' vocab_size',
} as const;

export const DEEPSEEK_MODELS: CatalogueEntry[] = [
  entry({
    id: 'deepseek-v2-lite',
    family: 'deepseek',
    title: 'DeepSeek-V2-Lite',
    shape: {
      architecture: 'DeepseekV2ForCausalLM',
      ...DS,
      layers: 27,
      hidden: 2048,
      ffn: 10944,
      heads: 16,
      kvHeads: 16,
      headDim: 192,
      vocab: 102400,
      experts: 64,
      topK: 6,
      moeFfn: 1408,
      sharedExpertFfn: 2816,
      sharedExperts: 2,
      denseLayersBeforeMoe: 1,
      mla: { kvLoraRank: 512, qkRopeHeadDim: 64, qkNopeHeadDim: 128, vHeadDim: 128 },
    },
    checkpoints: [
      ckpt('deepseek-ai/DeepSeek-V2-Lite', bf16Weights(`${SRC.hf('deepseek-ai/DeepSeek-V2-Lite', 'mlc')} torch_dtype bfloat16`)),
      ckpt('deepseek-ai/DeepSeek-V2-Lite-Chat', assumedBf16Weights('the BF16 DeepSeek-V2-Lite release')),
    ],
    aliases: ['DeepSeekV2LiteConfig', 'DeepSeekV2LiteModelProvider', 'deepseek_v2_lite'],
    tokenizer: {
      hfId: 'deepseek-ai/DeepSeek-V2-Lite',
      kind: 'bpe',
      vocab: 102400,
      source: SRC.hf('deepseek-ai/DeepSeek-V2-Lite', 'mlc') + ' vocab_size',
    },
    published: roundedParams('15.7B', 'DeepSeek-V2 README: DeepSeek-V2-Lite "15.7B total parameters, 2.4B activated"'),
    sources: [
      SRC.hf('deepseek-ai/DeepSeek-V2-Lite', 'mlc') + ' (no q LoRA, 2 shared experts)',
      SRC.nemo('deepseek', 'DeepSeekV2LiteConfig'),
    ],
  }),
  entry({
    id: 'deepseek-v2',
    family: 'deepseek',
    title: 'DeepSeek-V2',
    shape: {
      architecture: 'DeepseekV2ForCausalLM',
      ...DS,
      layers: 60,
      hidden: 5120,
      ffn: 12288,
      heads: 128,
      kvHeads: 128,
      headDim: 192,
      vocab: 102400,
      experts: 160,
      topK: 6,
      moeFfn: 1536,
      sharedExpertFfn: 3072,
      sharedExperts: 2,
      denseLayersBeforeMoe: 1,
      mla: MLA_V3,
    },
    checkpoints: [
      ckpt('deepseek-ai/DeepSeek-V2', assumedBf16Weights('the BF16 DeepSeek-V2-Lite release of the same family')),
      ckpt('deepseek-ai/DeepSeek-V2-Chat', assumedBf16Weights('the BF16 DeepSeek-V2-Lite release of the same family')),
    ],
    aliases: ['DeepSeekV2Config', 'DeepSeekV2ModelProvider', 'deepseek_v2'],
    tokenizer: {
      hfId: 'deepseek-ai/DeepSeek-V2',
      kind: 'bpe',
      vocab: 102400,
      source: SRC.bridge('deepseek/deepseek_provider.py', 'DeepSeekV2ModelProvider vocab_size'),
    },
    published: roundedParams('236B', 'DeepSeek-V2 paper (arXiv:2405.04434): "236B total parameters, of which 21B are activated"'),
    sources: [
      SRC.bridge('deepseek/deepseek_provider.py', 'DeepSeekV2ModelProvider (160 experts of 1536, 2 shared, first layer dense)'),
      SRC.nemo('deepseek', 'DeepSeekV2Config (q_lora_rank 1536, kv_lora_rank 512, heads 128)'),
    ],
  }),
  entry({
    id: 'deepseek-v3',
    family: 'deepseek',
    title: 'DeepSeek-V3',
    shape: { ...v3Shape, architecture: 'DeepseekV3ForCausalLM' },
    checkpoints: [
      ckpt('deepseek-ai/DeepSeek-V3', dsFp8('deepseek-ai/DeepSeek-V3')),
      ckpt('deepseek-ai/DeepSeek-V3-Base', assumedFp8('the deepseek-ai/DeepSeek-V3 release format')),
      ckpt('deepseek-ai/DeepSeek-V3-0324', assumedFp8('the deepseek-ai/DeepSeek-V3 release format')),
      ckpt('deepseek-ai/DeepSeek-V3.1', dsFp8('deepseek-ai/DeepSeek-V3.1')),
      ckpt('nvidia/DeepSeek-V3-0324-NVFP4', V3_0324_FP4),
    ],
    aliases: ['DeepSeekV3Config', 'DeepSeekV3ModelProvider', 'deepseek_v3'],
    tokenizer: V3_TOKENIZER,
    published: V3_PUBLISHED,
    sources: V3_SOURCES,
    notes: ['The checkpoint ships in FP8 (E4M3, 128×128 blocks); the MTP layer is loaded for MTP speculative decoding only.'],
  }),
  entry({
    id: 'deepseek-r1',
    family: 'deepseek',
    title: 'DeepSeek-R1',
    shape: { ...v3Shape, architecture: 'DeepseekV3ForCausalLM' },
    checkpoints: [
      ckpt('deepseek-ai/DeepSeek-R1', dsFp8('deepseek-ai/DeepSeek-R1')),
      ckpt('deepseek-ai/DeepSeek-R1-0528', assumedFp8('the deepseek-ai/DeepSeek-R1 release format')),
      ckpt('nvidia/DeepSeek-R1-FP4', R1_FP4),
      ckpt('nvidia/DeepSeek-R1-FP4-v2', R1_FP4_ASSUMED('nvidia/DeepSeek-R1-FP4-v2')),
      ckpt('nvidia/DeepSeek-R1-0528-FP4', R1_FP4_ASSUMED('nvidia/DeepSeek-R1-0528-FP4')),
      ckpt('nvidia/DeepSeek-R1-0528-FP4-v2', R1_FP4_ASSUMED('nvidia/DeepSeek-R1-0528-FP4-v2')),
    ],
    aliases: [],
    tokenizer: { ...V3_TOKENIZER, hfId: 'deepseek-ai/DeepSeek-R1', source: SRC.hf('deepseek-ai/DeepSeek-R1', 'aic') + ' vocab_size' },
    published: roundedParams('671B', 'DeepSeek-R1 model card: "671B total, 37B activated" (the DeepSeek-V3 architecture)', {
      scope: V3_PUBLISHED.scope,
    }),
    sources: [SRC.hf('deepseek-ai/DeepSeek-R1', 'aic') + ' (identical architecture keys to DeepSeek-V3)', ...V3_SOURCES.slice(1)],
    notes: ['The checkpoint ships in FP8 (E4M3, 128×128 blocks); NVIDIA publishes NVFP4 variants (-FP4).'],
  }),
  entry({
    id: 'deepseek-v3.2',
    family: 'deepseek',
    title: 'DeepSeek-V3.2',
    shape: { ...V32_SHAPE, architecture: 'DeepseekV32ForCausalLM' },
    checkpoints: [
      ckpt('deepseek-ai/DeepSeek-V3.2', dsFp8('deepseek-ai/DeepSeek-V3.2')),
      ckpt(
        'deepseek-ai/DeepSeek-V3.2-Exp',
        assumedFp8('the deepseek-ai/DeepSeek-V3.2 release format'),
        'the experimental release of the same architecture (Megatron-LM dsa.py cites its inference/model.py Indexer); its config.json was not read',
      ),
      ckpt(
        'deepseek-ai/DeepSeek-V3.2-Speciale',
        assumedFp8('the deepseek-ai/DeepSeek-V3.2 release format'),
        'the reasoning-focused release of DeepSeek-V3.2; its config.json was not read',
      ),
      ckpt('nvidia/DeepSeek-V3.2-NVFP4', V32_FP4),
    ],
    aliases: ['deepseek_v32'],
    tokenizer: { ...V3_TOKENIZER, hfId: 'deepseek-ai/DeepSeek-V3.2', source: SRC.hf('deepseek-ai/DeepSeek-V3.2', 'aic') + ' vocab_size' },
    published: roundedParams('685B', 'HF deepseek-ai/DeepSeek-V3.2 model card (685B)', {
      nominal: true,
      scope:
        'the HF checkpoint: the main model, the MTP layer and the copies of the embedding and head the MTP layer stores (2 · 129280 · 7168)',
    }),
    sources: [
      SRC.hf('deepseek-ai/DeepSeek-V3.2', 'aic') +
        ' (DeepseekV32ForCausalLM: the DeepSeek-V3 keys plus index_n_heads 64, index_head_dim 128, index_topk 2048; max_position_embeddings 163840)',
      'Megatron-LM megatron/core/transformer/experimental_attention_variant/dsa.py@d98e8a64 DSAIndexer (wq_b, wk, LayerNorm k_norm, weights_proj; duplicated over TP)',
    ],
    notes: [
      'DeepSeek Sparse Attention: each layer adds a lightning indexer (13.96M weights) and caches 132 B of FP8 indexer keys per token beside the MLA latent.',
      'The checkpoint ships in FP8 (E4M3, 128×128 blocks); the MTP layer is loaded for MTP speculative decoding only.',
    ],
  }),
  entry({
    id: 'kimi-k2',
    family: 'kimi',
    title: 'Kimi K2',
    shape: { ...KIMI_K2_SHAPE, architecture: 'DeepseekV3ForCausalLM' },
    checkpoints: [
      ckpt('moonshotai/Kimi-K2-Instruct', dsFp8('moonshotai/Kimi-K2-Instruct')),
      ckpt('moonshotai/Kimi-K2-Base', assumedFp8('the moonshotai/Kimi-K2-Instruct release format')),
      // Kimi-K2-Thinking model card: "native INT4 quantization … INT4 weight-only quantization to the MoE components"
      // (quantization-aware training); config.json quantization_config: compressed-tensors pack-quantized, int4,
      // symmetric, group 32, attention, shared experts, the dense MLP and lm_head ignored.
      ckpt('moonshotai/Kimi-K2-Thinking', {
        ...KIMI_INT4,
        source:
          'moonshotai/Kimi-K2-Thinking model card (native INT4 weight-only quantization of the MoE components) and config.json quantization_config (compressed-tensors int4, group 32)',
      }),
      // TensorRT-LLM docs/source/deployment-guide/deployment-guide-for-kimi-k2-thinking-on-trtllm.md: "NVFP4 model:
      // nvidia/Kimi-K2-Thinking-NVFP4"; the DeepSeek-V3 architecture of Kimi K2 (config.json architectures).
      ckpt('nvidia/Kimi-K2-Thinking-NVFP4', {
        ...R1_FP4,
        excluded: ['lm_head', 'model.layers.*.self_attn*'],
        source:
          "NVFP4 MLPs with BF16 attention assumed, as NVIDIA's NVFP4 releases of the DeepSeek-V3 architecture ship them (nvidia/DeepSeek-R1-FP4 hf_quant_config.json; NVIDIA/Model-Optimizer#150); this checkpoint's own hf_quant_config.json was not read",
      }),
    ],
    aliases: ['KimiK2Provider'],
    tokenizer: {
      hfId: 'moonshotai/Kimi-K2-Instruct',
      kind: 'tiktoken',
      vocab: 163840,
      source: SRC.hf('moonshotai/Kimi-K2-Instruct', 'aic') + ' vocab_size',
    },
    published: roundedParams('1T', 'Kimi K2 README: "1 trillion total parameters, 32 billion activated"', { nominal: true }),
    sources: [
      SRC.hf('moonshotai/Kimi-K2-Instruct', 'aic') +
        ' (DeepseekV3ForCausalLM: 64 heads, 384 experts, first_k_dense_replace 1, num_nextn_predict_layers 0)',
      SRC.bridge('kimi/kimi_provider.py', 'KimiK2Provider'),
    ],
  }),
  entry({
    id: 'kimi-k2.5',
    family: 'kimi',
    title: 'Kimi K2.5',
    // text_config: the Kimi K2 language model (DeepseekV3 keys, 61 layers, 64 heads, 384 experts, first_k_dense_replace 1).
    shape: { architecture: 'KimiK25ForConditionalGeneration', ...KIMI_K2_SHAPE, maxPositionEmbeddings: 262144 },
    checkpoints: [
      // text_config.quantization_config: compressed-tensors pack-quantized int4, symmetric, group 32; attention, shared
      // experts, the dense MLP and lm_head ignored (the Kimi-K2-Thinking scheme).
      ckpt('moonshotai/Kimi-K2.5', {
        ...KIMI_INT4,
        source: `${SRC.hf('moonshotai/Kimi-K2.5', 'aic')} text_config.quantization_config (compressed-tensors int4, group 32)`,
      }),
      // quantization_config: modelopt NVFP4 (group 16) on every Linear but lm_head, each layer's self_attn, the projector
      // and the vision tower; FP8 KV cache.
      ckpt(
        'nvidia/Kimi-K2.5-NVFP4',
        nvfp4Weights(
          `${SRC.hf('nvidia/Kimi-K2.5-NVFP4', 'aic')} quantization_config (modelopt NVFP4, group 16; lm_head and self_attn ignored; kv_cache_scheme 8-bit float)`,
          ['lm_head', 'model.layers.*.self_attn*'],
          'fp8',
          'mlp',
        ),
      ),
      // Kimi K2.6 and K2.7-Code: the same KimiK25ForConditionalGeneration text_config (every architecture key equal to
      // Kimi-K2.5's; only eos_token_id and the rope_scaling spelling differ).
      ckpt('moonshotai/Kimi-K2.6', {
        ...KIMI_INT4,
        source:
          "INT4 MoE experts (compressed-tensors, group 32) assumed, as moonshotai/Kimi-K2.5 ships them (its config.json text_config.quantization_config); this checkpoint's config.json was not read",
      }),
      ckpt('nvidia/Kimi-K2.6-NVFP4', KIMI_NVFP4_EXPERTS('nvidia/Kimi-K2.6-NVFP4')),
      ckpt('nvidia/Kimi-K2.7-Code-NVFP4', KIMI_NVFP4_EXPERTS('nvidia/Kimi-K2.7-Code-NVFP4')),
    ],
    aliases: [],
    tokenizer: {
      hfId: 'moonshotai/Kimi-K2.5',
      kind: 'tiktoken',
      vocab: 163840,
      source: SRC.hf('moonshotai/Kimi-K2.5', 'aic') + ' text_config.vocab_size',
    },
    published: roundedParams('1T', 'Kimi K2.5 is the Kimi K2 language model ("1 trillion total parameters") with a vision encoder', {
      nominal: true,
      scope: 'the language model',
    }),
    sources: [
      SRC.hf('moonshotai/Kimi-K2.5', 'aic') +
        ' (KimiK25ForConditionalGeneration; text_config: DeepseekV3 keys, 61 layers, hidden 7168, 64 heads, 384 experts top-8, first_k_dense_replace 1, max_position_embeddings 262144)',
    ],
    notes: ['A multimodal checkpoint: the vision tower (MoonViT) and its projector are not in the shape.'],
  }),
  entry({
    id: 'moonlight-16b-a3b',
    family: 'kimi',
    title: 'Moonlight 16B-A3B',
    shape: {
      architecture: 'DeepseekV3ForCausalLM',
      ...DS,
      layers: 27,
      hidden: 2048,
      ffn: 11264,
      heads: 16,
      kvHeads: 16,
      headDim: 192,
      // HF moonshotai/Moonlight-16B-A3B config.json vocab_size (Kimi's tokenizer); Megatron-Bridge's provider writes 163842.
      vocab: 163840,
      experts: 64,
      topK: 6,
      moeFfn: 1408,
      sharedExpertFfn: 2816,
      sharedExperts: 2,
      denseLayersBeforeMoe: 1,
      mla: { kvLoraRank: 512, qkRopeHeadDim: 64, qkNopeHeadDim: 128, vHeadDim: 128 },
      routerBias: true,
    },
    checkpoints: [
      ckpt('moonshotai/Moonlight-16B-A3B', assumedBf16Weights('Megatron-Bridge MoonlightModelProvider16B trains and converts it in BF16')),
      ckpt('moonshotai/Moonlight-16B-A3B-Instruct', assumedBf16Weights('the Moonlight-16B-A3B release')),
    ],
    aliases: ['MoonlightModelProvider16B', 'moonlight_16b'],
    tokenizer: {
      hfId: 'moonshotai/Moonlight-16B-A3B',
      kind: 'tiktoken',
      vocab: 163840,
      source:
        'HF moonshotai/Moonlight-16B-A3B config.json vocab_size (the Kimi tokenizer); Megatron-Bridge MoonlightModelProvider16B pads to 163842',
    },
    published: roundedParams('16B', 'NeMo AutoModel model coverage: Moonlight-16B-A3B "16B total / 3B active"', { nominal: true }),
    sources: [
      SRC.bridge(
        'deepseek/deepseek_provider.py',
        'MoonlightModelProvider16B (no q LoRA, MLA defaults kv_lora_rank 512, qk_head_dim 128, qk_pos_emb_head_dim 64, v_head_dim 128; sigmoid router with expert bias)',
      ),
    ],
  }),
];
