// MiniMax: MiniMax-M2 and the releases that keep its architecture (M2.1, M2.5, M2.7).
// Architecture: MiniMaxM2ForCausalLM (aiconfigurator copies of M2.5 and M2.7; Megatron-Bridge docs/models/minimax/minimax-m2.md
// and minimax_m2/minimax_m2_bridge.py@067f987 for MiniMax-M2 itself).
import { roundedParams } from '../published.js';
import type { CatalogueEntry } from '../types.js';
import { fp8BlockWeights, nvfp4Weights } from '../weights.js';
import { ckpt, entry, SRC } from './common.js';

/** MiniMax-M2's FP8 release: 128×128 blocks on every linear layer but the router and lm_head (config.json quantization_config). */
const M2_FP8 = (id: string, read = true) =>
  fp8BlockWeights(
    read
      ? `${SRC.hf(id, 'aic')} quantization_config: quant_method fp8, e4m3, weight_block_size [128, 128]`
      : `FP8 128×128 blocks assumed for ${id}, as MiniMax-M2.5 ships them (${SRC.hf('MiniMaxAI/MiniMax-M2.5', 'aic')}); this checkpoint's own config.json was not read`,
    ['gate', 'e_score_correction_bias', 'lm_head'],
  );
/** NVIDIA's NVFP4 releases: NVFP4 experts; every layer's self_attn, router and lm_head excluded; FP8 KV cache. */
const M2_NVFP4 = (id: string) =>
  nvfp4Weights(
    `${SRC.hf(id, 'aic')} hf_quant_config.json (modelopt NVFP4, group 16; lm_head, each layer's self_attn and router excluded; kv_cache_quant_algo FP8)`,
    ['lm_head', 'model.layers.*.self_attn*', 'model.layers.*.block_sparse_moe.gate'],
    'fp8',
    'mlp',
  );

export const MINIMAX_MODELS: CatalogueEntry[] = [
  entry({
    id: 'minimax-m2',
    family: 'minimax',
    title: 'MiniMax-M2 230B-A10B',
    shape: {
      architecture: 'MiniMaxM2ForCausalLM',
      layers: 62,
      hidden: 3072,
      ffn: 1536,
      heads: 48,
      kvHeads: 8,
      headDim: 128,
      vocab: 200064,
      tiedEmbeddings: false,
      gatedMlp: true,
      activation: 'swiglu',
      norm: 'rmsnorm',
      experts: 256,
      topK: 8,
      moeFfn: 1536,
      sharedExpertFfn: 0,
      denseLayersBeforeMoe: 0,
      routerBias: true,
      qkNorm: 'full',
      maxPositionEmbeddings: 196608,
    },
    checkpoints: [
      ckpt('MiniMaxAI/MiniMax-M2', M2_FP8('MiniMaxAI/MiniMax-M2', false)),
      ckpt('MiniMaxAI/MiniMax-M2.1', M2_FP8('MiniMaxAI/MiniMax-M2.1', false)),
      ckpt('MiniMaxAI/MiniMax-M2.5', M2_FP8('MiniMaxAI/MiniMax-M2.5')),
      ckpt('MiniMaxAI/MiniMax-M2.7', M2_FP8('MiniMaxAI/MiniMax-M2.7')),
      ckpt('nvidia/MiniMax-M2.5-NVFP4', M2_NVFP4('nvidia/MiniMax-M2.5-NVFP4')),
      ckpt('nvidia/MiniMax-M2.7-NVFP4', M2_NVFP4('nvidia/MiniMax-M2.7-NVFP4')),
    ],
    aliases: ['MiniMaxM2ForCausalLM'],
    tokenizer: {
      hfId: 'MiniMaxAI/MiniMax-M2.5',
      kind: 'bpe',
      vocab: 200064,
      source: SRC.hf('MiniMaxAI/MiniMax-M2.5', 'aic') + ' vocab_size',
    },
    published: roundedParams('230B', 'MiniMax-M2 model card ("230 billion total parameters with 10 billion active")', { nominal: true }),
    sources: [
      SRC.hf('MiniMaxAI/MiniMax-M2.5', 'aic') +
        ' (62 layers, hidden 3072, 48 heads, 8 KV heads, head_dim 128, 256 experts top-8 of width 1536, no shared expert, use_routing_bias, use_qk_norm with qk_norm_type per_layer)',
      SRC.hf('MiniMaxAI/MiniMax-M2.7', 'aic') + ' (the same keys; max_position_embeddings 204800)',
      'Megatron-Bridge docs/models/minimax/minimax-m2.md (M2.5 and M2.7 share the MiniMaxM2ForCausalLM architecture; full-dimension QK RMSNorm)',
    ],
    notes: [
      'The config declares 3 multi-token-prediction modules (use_mtp); the published weights do not hold them and Megatron-Bridge does not map them, so they are not counted.',
      'Q/K RMSNorm spans all heads (one weight per query and key channel), not one head.',
    ],
  }),
];
