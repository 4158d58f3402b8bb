// Zhipu GLM: ChatGLM3 6B, GLM-4 9B, GLM-4.5 / 4.6 / 4.7 and GLM-4.5-Air (MoE with MTP), GLM-4.7-Flash (MLA + MoE),
// GLM-5 / 5.1 / 5.2 (MLA + DeepSeek Sparse Attention + MoE).
// Architectures (config.json architectures[0]): ChatGLM3 from mlc-llm model_preset.py@79d603f ("chatglm": ChatGLMModel);
// glm-4-9b-chat-hf, GLM-4.5-Air and GLM-4.7-Flash per NVIDIA-NeMo/Automodel docs/model-coverage/llm/thudm/glm4.mdx and
// glm4-moe.mdx@36044ad; GLM-4.5 per Megatron-Bridge docs/models/glm/glm45.md with glm/glm45_bridge.py@067f987
// (source=Glm4MoeForCausalLM); GLM-5 / 5.2 from the aiconfigurator copies.
import { roundedParams } from '../published.js';
import type { CatalogueEntry, WeightFormat } from '../types.js';
import { assumedBf16Weights, bf16Weights, fp16Weights, fp8BlockWeights, nvfp4Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';

const GLM = { gatedMlp: true, norm: 'rmsnorm', activation: 'swiglu', tiedEmbeddings: false, attentionBias: 'qkv' } as const;
const GLM45 = {
  ...GLM,
  heads: 96,
  kvHeads: 8,
  headDim: 128,
  vocab: 151552,
  topK: 8,
  sharedExperts: 1,
  routerBias: true,
  mtpLayers: 1,
} as const;
const GLM45_TOKENIZER = (hfId: string) =>
  ({ hfId, kind: 'bpe', vocab: 151552, source: SRC.bridge('glm/glm45_provider.py', 'GLMMoEModelProvider vocab_size') }) as const;
const GLM_BF16 = assumedBf16Weights('Megatron-Bridge converts the GLM-4.5 checkpoints as BF16');
/** Megatron-Bridge docs/models/glm/glm47.md at NVIDIA-NeMo/Megatron-Bridge@067f987. */
const BRIDGE_GLM47 = 'Megatron-Bridge docs/models/glm/glm47.md and examples/models/glm47/README.md@067f987';

/**
 * GLM-5 (HF zai-org/GLM-5 config.json GlmMoeDsaForCausalLM): 78 layers of MLA (q_lora_rank 2048, kv_lora_rank 512,
 * qk_nope/rope 192/64, v_head_dim 256, 64 heads) with the DSA lightning indexer (index_n_heads 32, index_head_dim 128,
 * index_topk 2048), the first 3 dense (intermediate_size 12288), then 256 routed experts of 2048 top-8 with one shared
 * expert and a sigmoid router with e_score_correction_bias (noaux_tc); one MTP layer; untied vocabulary of 154880.
 */
const GLM5_SHAPE = {
  gatedMlp: true,
  norm: 'rmsnorm',
  activation: 'swiglu',
  tiedEmbeddings: false,
  layers: 78,
  hidden: 6144,
  ffn: 12288,
  heads: 64,
  kvHeads: 64,
  headDim: 256,
  vocab: 154880,
  experts: 256,
  topK: 8,
  moeFfn: 2048,
  sharedExpertFfn: 2048,
  sharedExperts: 1,
  denseLayersBeforeMoe: 3,
  mla: { kvLoraRank: 512, qkRopeHeadDim: 64, qLoraRank: 2048, qkNopeHeadDim: 192, vHeadDim: 256 },
  dsa: { heads: 32, headDim: 128, topK: 2048 },
  routerBias: true,
  mtpLayers: 1,
  maxPositionEmbeddings: 202752,
} as const;
const GLM5_TOKENIZER = (hfId: string) => ({ hfId, kind: 'bpe', vocab: 154880, source: SRC.hf(hfId, 'aic') + ' vocab_size' }) as const;
const GLM5_PUBLISHED = roundedParams('744B', 'GLM-5 technical report (arXiv:2602.15763) architecture table: 744B total, 40B activated', {
  nominal: true,
  scope: 'the main model without the MTP layer (the shape counts 743.9B, 753.9B with it)',
});
const glm5Bf16 = (id: string) => bf16Weights(`${SRC.hf(id, 'aic')} dtype bfloat16`);
/**
 * zai-org FP8 releases (config.json quantization_config): quant_method fp8, e4m3, 128×128 blocks; modules_to_not_convert
 * keeps lm_head, the embedding, the norms, the routers and their bias, the indexer's k_norm and weights_proj
 * (`indexers_proj`) and the MTP eh_proj in BF16.
 */
const glm5Fp8 = (id: string): WeightFormat =>
  fp8BlockWeights(`${SRC.hf(id, 'aic')} quantization_config: quant_method fp8, fmt e4m3, weight_block_size [128, 128]`, [
    'lm_head',
    'model.embed_tokens',
    'model.layers.*.mlp.gate',
    'model.layers.*.self_attn.indexer.k_norm',
    'model.layers.*.self_attn.indexers_proj',
    'model.layers.78.eh_proj',
  ]);
/**
 * nvidia/GLM-5.1-NVFP4 and GLM-5.2-NVFP4 (hf_quant_config.json, the config.json quantization_config alike): NVFP4 group 16
 * with an FP8 KV cache on the routed experts only — lm_head, layers 0–2 (the dense layers), every self_attn, every
 * shared_experts and the MTP layer 78 excluded (GLM-5.2 also its embedding).
 */
const glm5ExpertsFp4 = (id: string, excluded: string[] = []): WeightFormat =>
  nvfp4Weights(
    `${SRC.hf(id, 'aic')} and hf_quant_config.json: quant_algo NVFP4, group_size 16, kv_cache_quant_algo FP8 (dense layers, attention, shared experts and the MTP layer excluded)`,
    [
      'lm_head',
      ...excluded,
      'model.layers.0*',
      'model.layers.1.*',
      'model.layers.2.*',
      'model.layers.*.self_attn*',
      'model.layers.*.mlp.shared_experts*',
      'model.layers.78*',
    ],
    'fp8',
    'experts',
  );

export const GLM_MODELS: CatalogueEntry[] = [
  entry({
    id: 'chatglm3-6b',
    family: 'glm',
    title: 'ChatGLM3 6B',
    shape: {
      architecture: 'ChatGLMModel',
      ...GLM,
      ...DENSE,
      layers: 28,
      hidden: 4096,
      ffn: 13696,
      heads: 32,
      kvHeads: 2,
      headDim: 128,
      vocab: 65024,
    },
    checkpoints: [ckpt('THUDM/chatglm3-6b', fp16Weights(`${SRC.hf('THUDM/chatglm3-6b', 'mlc')} torch_dtype float16`))],
    aliases: ['ChatGLM3Config6B', 'ChatGLM2Config6B', 'chatglm3_6b', 'chatglm2-6b'],
    tokenizer: {
      hfId: 'THUDM/chatglm3-6b',
      kind: 'sentencepiece',
      vocab: 65024,
      source: SRC.hf('THUDM/chatglm3-6b', 'mlc') + ' padded_vocab_size',
    },
    published: roundedParams('6B', 'Model name (THUDM/chatglm3-6b)', { nominal: true }),
    sources: [
      SRC.hf('THUDM/chatglm3-6b', 'mlc') +
        ' (num_layers 28, ffn_hidden_size 13696, multi_query_group_num 2, kv_channels 128, add_qkv_bias)',
      SRC.nemo('chatglm', 'ChatGLM3Config6B, ChatGLM2Config6B (same shape)'),
    ],
  }),
  entry({
    id: 'glm4-9b',
    family: 'glm',
    title: 'GLM-4 9B',
    shape: {
      architecture: 'GlmForCausalLM',
      ...GLM,
      ...DENSE,
      layers: 40,
      hidden: 4096,
      ffn: 13696,
      heads: 32,
      kvHeads: 2,
      headDim: 128,
      vocab: 151552,
    },
    checkpoints: ckpts(
      assumedBf16Weights('the GLM-4 releases are BF16'),
      'THUDM/glm-4-9b-chat-hf',
      'THUDM/glm-4-9b-chat',
      'THUDM/glm-4-9b',
    ),
    aliases: ['glm-4-9b'],
    tokenizer: {
      hfId: 'THUDM/glm-4-9b-chat',
      kind: 'tiktoken',
      vocab: 151552,
      source: SRC.transformers('GlmConfig') + ' vocab_size ("glm-4-9b-chat style")',
    },
    published: roundedParams('9B', 'Model name (THUDM/glm-4-9b)', { nominal: true }),
    sources: [
      SRC.transformers('GlmConfig') +
        ' ("glm-4-9b-chat style": 40 layers, 4096 hidden, 13696 intermediate, 32 heads, 2 KV heads, attention_bias)',
    ],
    notes: ['Half of each head is rotated (partial_rotary_factor 0.5); it does not change the memory shape.'],
  }),
  entry({
    id: 'glm4.5-355b-a32b',
    family: 'glm',
    title: 'GLM-4.5 355B-A32B',
    shape: {
      architecture: 'Glm4MoeForCausalLM',
      ...GLM45,
      layers: 92,
      hidden: 5120,
      ffn: 12288,
      experts: 160,
      moeFfn: 1536,
      sharedExpertFfn: 1536,
      denseLayersBeforeMoe: 3,
      qkNorm: true,
    },
    checkpoints: [
      ...ckpts(GLM_BF16, 'zai-org/GLM-4.5', 'zai-org/GLM-4.5-Base'),
      // GLM-4.6 and GLM-4.7: the glm4_moe architecture of GLM-4.5 (Megatron-Bridge converts GLM-4.7 with the GLM-4.5
      // bridge: 92 layers, the first 3 dense, 160 routed experts top-8, one shared).
      ckpt(
        'zai-org/GLM-4.7',
        assumedBf16Weights('the BF16 GLM-4.5 releases'),
        `the GLM-4.5 355B architecture per ${BRIDGE_GLM47} (GLM45Bridge, glm4_moe, 92 layers, first 3 dense, 160 experts top-8, 1 shared; "about 358B"); its config.json was not read`,
      ),
      ckpt(
        'zai-org/GLM-4.6',
        assumedBf16Weights('the BF16 GLM-4.5 releases'),
        'the release between GLM-4.5 and GLM-4.7 in the same zai-org/GLM-4.5 repository ("GLM-4.7 & GLM-4.6 & GLM-4.5"); the GLM-4.5 shape is assumed: its config.json was not read',
      ),
    ],
    aliases: ['GLM45ModelProvider355B', 'glm-4.5', 'glm4.5'],
    tokenizer: GLM45_TOKENIZER('zai-org/GLM-4.5'),
    published: roundedParams('355B', 'Megatron-Bridge GLM45ModelProvider355B docstring "GLM 4.5 355B-A32B"', { nominal: true }),
    sources: [
      SRC.bridge(
        'glm/glm45_provider.py',
        'GLMMoEModelProvider, GLM45ModelProvider355B (first three layers dense, qk_layernorm, mtp_num_layers 1)',
      ),
    ],
  }),
  entry({
    id: 'glm4.5-air-106b-a12b',
    family: 'glm',
    title: 'GLM-4.5-Air 106B-A12B',
    shape: {
      architecture: 'Glm4MoeForCausalLM',
      ...GLM45,
      layers: 46,
      hidden: 4096,
      ffn: 10944,
      experts: 128,
      moeFfn: 1408,
      sharedExpertFfn: 1408,
      denseLayersBeforeMoe: 1,
    },
    checkpoints: ckpts(GLM_BF16, 'zai-org/GLM-4.5-Air', 'zai-org/GLM-4.5-Air-Base'),
    aliases: ['GLM45AirModelProvider106B', 'glm-4.5-air', 'glm4.5-air'],
    tokenizer: GLM45_TOKENIZER('zai-org/GLM-4.5-Air'),
    published: roundedParams('106B', 'Megatron-Bridge GLM45AirModelProvider106B docstring "GLM 4.5 Air 106B-A12B"', { nominal: true }),
    sources: [SRC.bridge('glm/glm45_provider.py', 'GLMMoEModelProvider, GLM45AirModelProvider106B (first layer dense, no qk_layernorm)')],
  }),
  entry({
    id: 'glm4.7-flash',
    family: 'glm',
    title: 'GLM-4.7-Flash',
    shape: {
      architecture: 'Glm4MoeLiteForCausalLM',
      gatedMlp: true,
      norm: 'rmsnorm',
      activation: 'swiglu',
      tiedEmbeddings: false,
      layers: 47,
      hidden: 2048,
      ffn: 10240,
      heads: 20,
      kvHeads: 20,
      headDim: 256,
      vocab: 154880,
      experts: 64,
      topK: 4,
      moeFfn: 1536,
      sharedExpertFfn: 1536,
      sharedExperts: 1,
      denseLayersBeforeMoe: 1,
      mla: { kvLoraRank: 512, qkRopeHeadDim: 64, qLoraRank: 768, qkNopeHeadDim: 192, vHeadDim: 256 },
      routerBias: true,
      mtpLayers: 1,
      maxPositionEmbeddings: 202752,
    },
    checkpoints: [ckpt('zai-org/GLM-4.7-Flash', assumedBf16Weights('the GLM-4.7 releases are BF16'))],
    aliases: ['GLM47FlashBridge', 'glm-4.7-flash', 'glm47-flash'],
    tokenizer: {
      hfId: 'zai-org/GLM-4.7-Flash',
      kind: 'bpe',
      vocab: 154880,
      source: SRC.transformers('Glm4MoeLiteConfig') + ' vocab_size',
    },
    published: roundedParams('30B', `${BRIDGE_GLM47}: "about 30B total parameters and 3B active"`, { nominal: true }),
    sources: [
      SRC.transformers('Glm4MoeLiteConfig') +
        ' (the GLM-4.7-Flash defaults: 47 layers, hidden 2048, intermediate 10240, 20 heads, q_lora_rank 768, kv_lora_rank 512, qk_nope/rope 192/64, v_head_dim 256, 64 routed experts of 1536 top-4, 1 shared, first layer dense, vocab 154880, untied)',
      'transformers modular_glm4_moe_lite.py@008e574 Glm4MoeLitePreTrainedModel._keys_to_ignore_on_load_unexpected model.layers.47 (one MTP layer after the 47 decoder layers); Glm4MoeTopkRouter e_score_correction_bias',
      `${BRIDGE_GLM47} (GLM47FlashBridge, glm4_moe_lite: MLA + MoE, 64 routed experts top-4, 1 shared, 47 layers, first layer dense)`,
    ],
    notes: [
      "The shape is transformers' Glm4MoeLiteConfig defaults, which are GLM-4.7-Flash's; the checkpoint's own config.json was not read.",
    ],
  }),
  entry({
    id: 'glm-5',
    family: 'glm',
    title: 'GLM-5',
    shape: { ...GLM5_SHAPE, architecture: 'GlmMoeDsaForCausalLM' },
    checkpoints: [
      ckpt('zai-org/GLM-5', glm5Bf16('zai-org/GLM-5')),
      ckpt('zai-org/GLM-5-FP8', glm5Fp8('zai-org/GLM-5-FP8')),
      // hf_quant_config.json: NVFP4 on every MLP (dense, shared, routed); each layer's attention and indexer, lm_head and the MTP layer 78 excluded.
      ckpt(
        'nvidia/GLM-5-NVFP4',
        nvfp4Weights(
          `${SRC.hf('nvidia/GLM-5-NVFP4', 'aic')} and hf_quant_config.json: quant_algo NVFP4, group_size 16, kv_cache_quant_algo FP8 (q_a/q_b/kv_a/kv_b/o_proj and the indexer of every layer, lm_head and layer 78 excluded)`,
          ['lm_head', 'model.layers.*.self_attn*', 'model.layers.78*'],
          'fp8',
          'mlp',
        ),
      ),
      // GLM-5.1: config.json equal to GLM-5's but for transformers_version (Megatron-Bridge docs/models/glm/glm5.md: "Same architecture and mapping shape as GLM-5").
      ckpt('zai-org/GLM-5.1', glm5Bf16('zai-org/GLM-5.1')),
      ckpt('zai-org/GLM-5.1-FP8', glm5Fp8('zai-org/GLM-5.1-FP8')),
      ckpt('nvidia/GLM-5.1-NVFP4', glm5ExpertsFp4('nvidia/GLM-5.1-NVFP4')),
    ],
    aliases: ['GLM5Bridge', 'glm5', 'glm-5.1', 'glm5.1'],
    tokenizer: GLM5_TOKENIZER('zai-org/GLM-5'),
    published: GLM5_PUBLISHED,
    sources: [
      SRC.hf('zai-org/GLM-5', 'aic') +
        ' (GlmMoeDsaForCausalLM: 78 layers, hidden 6144, 64 heads, q_lora_rank 2048, kv_lora_rank 512, qk_nope/rope 192/64, v_head_dim 256, index_n_heads 32, index_head_dim 128, index_topk 2048, first_k_dense_replace 3, 256 experts of 2048 top-8 + 1 shared, noaux_tc, num_nextn_predict_layers 1, vocab 154880, untied)',
      SRC.hf('zai-org/GLM-5.1', 'aic') + ' (identical architecture keys)',
      'Megatron-LM megatron/core/transformer/experimental_attention_variant/dsa.py@d98e8a64 DSAIndexer',
    ],
    notes: [
      'DeepSeek Sparse Attention: every layer adds a lightning indexer (9.37M weights) and caches 132 B of FP8 indexer keys per token beside the MLA latent.',
    ],
  }),
  entry({
    id: 'glm-5.2',
    family: 'glm',
    title: 'GLM-5.2',
    // GLM-5 with cross-layer top-k sharing (index_topk_freq 4, index_skip_topk_offset 3: indexer_types lists 21 full layers,
    // 0–2 and every 4th from 6) and a 1048576-token context.
    shape: {
      architecture: 'GlmMoeDsaForCausalLM',
      ...GLM5_SHAPE,
      dsa: { ...GLM5_SHAPE.dsa, topKFreq: 4, skipTopKOffset: 3 },
      maxPositionEmbeddings: 1048576,
    },
    checkpoints: [
      ckpt('zai-org/GLM-5.2', glm5Bf16('zai-org/GLM-5.2')),
      ckpt('zai-org/GLM-5.2-FP8', glm5Fp8('zai-org/GLM-5.2-FP8')),
      ckpt('nvidia/GLM-5.2-NVFP4', glm5ExpertsFp4('nvidia/GLM-5.2-NVFP4', ['model.embed_tokens'])),
    ],
    aliases: ['glm5.2'],
    tokenizer: GLM5_TOKENIZER('zai-org/GLM-5.2'),
    published: roundedParams(
      '744B',
      'GLM-5 technical report (arXiv:2602.15763): 744B total; GLM-5.2 is GLM-5 with 57 of 78 indexers shared away',
      {
        nominal: true,
        scope: 'GLM-5’s count: the main model without the MTP layer (the shape counts 743.4B, 753.3B with it)',
      },
    ),
    sources: [
      SRC.hf('zai-org/GLM-5.2', 'aic') +
        ' (GLM-5 keys plus index_topk_freq 4, index_skip_topk_offset 3, indexer_types: 21 "full" and 57 "shared" layers; max_position_embeddings 1048576)',
      SRC.hf('zai-org/GLM-5.2-FP8', 'aic') +
        ' (modules_to_not_convert lists indexer tensors of the 21 full layers and the MTP layer 78 only)',
      'Megatron-LM megatron/core/transformer/experimental_attention_variant/dsa.py@d98e8a64 is_dsa_skip_topk_layer (skip layers build no DSAIndexer)',
    ],
    notes: [
      'Only 21 of the 78 layers (and the MTP layer) run a lightning indexer; the others reuse its top-k and hold no indexer weights or indexer keys. Per pipeline stage the indexer weights are averaged over the layers of a kind.',
    ],
  }),
];
