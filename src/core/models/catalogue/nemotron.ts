// NVIDIA Nemotron-4, Nemotron-H (hybrid Mamba-2 / attention), Nemotron Nano v2 and Nemotron 3 (hybrid MoE).
// Architectures (config.json architectures[0]): NemotronHForCausalLM from the aiconfigurator copies (Nemotron-H-56B, Nemotron 3
// Nano/Super/Ultra, 3.5 Lightning), Megatron-Bridge examples/model_verification_cards (nemotron-3-super-120b-a12b and
// nemotron-3.5-lightning BF16; nemotron-3-nano-omni-30b-a3b-reasoning: NemotronH_Nano_Omni_Reasoning_V3), Megatron-Bridge
// docs/models/nemotron/nemotronh.md (AutoBridge on Nemotron-H 4B/8B/47B, nemotron_h_bridge.py@067f987) and Automodel
// docs/model-coverage/llm/nvidia/nemotron-h.mdx@36044ad (Nano 9B/12B v2). Nemotron-4 has none: no HF config.json.
import { roundedParams } from '../published.js';
import type { CatalogueEntry, TokenizerFacts } from '../types.js';
import { assumedBf16Weights, bf16Weights, modeloptFp8Weights, nvfp4Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';

/** Nemotron-4: LayerNorm (1p), squared-ReLU MLP without gate, no biases, untied (NeMo NemotronConfig). */
const NEMOTRON4 = {
  ...DENSE,
  gatedMlp: false,
  norm: 'layernorm',
  activation: 'squared-relu',
  tiedEmbeddings: false,
  vocab: 256000,
} as const;
/** Nemotron-H: RMSNorm, squared-ReLU MLP, no position embedding, 8 KV groups, Mamba-2 head dim 64 and 8 groups (NeMo NemotronHConfigBase). */
const NEMOTRON_H = {
  ...DENSE,
  gatedMlp: false,
  norm: 'rmsnorm',
  activation: 'squared-relu',
  tiedEmbeddings: false,
  vocab: 131072,
  kvHeads: 8,
  headDim: 128,
  positionEmbedding: 'none',
} as const;
const NEMOTRON4_TOKENIZER: TokenizerFacts = {
  hfId: 'nvidia/Nemotron-4-340B-Base',
  kind: 'sentencepiece',
  vocab: 256000,
  source: 'Nemotron-4 15B technical report (arXiv:2402.16819): 256,000-token SentencePiece vocabulary (nemotron_2_256k.model)',
};
const NEMOTRON_H_TOKENIZER: TokenizerFacts = {
  kind: 'tiktoken',
  vocab: 131072,
  source: SRC.nemo('ssm', 'NemotronHConfigBase vocab_size (TiktokenTokenizer)'),
};
const NH_BF16 = assumedBf16Weights('the BF16 nvidia/Nemotron-H-56B-Base-8K release of the same family');
/** Mamba-2 mixer: d_conv 4 (Megatron-Core MambaMixer default; HF Nemotron-H conv_kernel 4). */
const mamba = (numHeads: number, stateDim: number, headDim = 64) => ({ stateDim, numHeads, headDim, groups: 8, convKernel: 4 });

/** Nemotron 3 Nano's stack (HF config.json hybrid_override_pattern and dims), shared by Nemotron 3.5 Lightning. */
const NEMOTRON3_NANO_SHAPE = {
  ...NEMOTRON_H,
  kvHeads: 2,
  layers: 52,
  hidden: 2688,
  ffn: 1856,
  heads: 32,
  experts: 128,
  topK: 6,
  moeFfn: 1856,
  sharedExpertFfn: 3712,
  sharedExperts: 1,
  routerBias: true,
  hybridPattern: 'MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME',
  mamba: mamba(64, 128),
} as const;

const NEMOTRON3_NANO_CONFIG = SRC.hf('nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16', 'aic');
/**
 * The MTP block of the Nemotron 3 checkpoints: attention + MoE (config.json mtp_hybrid_override_pattern "*E" /
 * mtp_layers_block_type [attention, moe]), one block repeated over the training depths (Megatron-Bridge
 * nemotronh/nemotron_h_bridge.py sets mtp_use_repeated_layer, default True).
 */
const NEMOTRON_H_MTP = { mtpPattern: '*E', mtpRepeated: true } as const;
const NEMOTRON3_SUPER_CONFIG = SRC.hf('nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8', 'aic');
const NEMOTRON35_LIGHTNING_CONFIG = SRC.hf('nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4', 'aic');
const NEMOTRON3_ULTRA_CONFIG = SRC.hf('nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16', 'aic');

export const NEMOTRON_MODELS: CatalogueEntry[] = [
  entry({
    id: 'nemotron4-15b',
    family: 'nemotron',
    title: 'Nemotron-4 15B',
    shape: { ...NEMOTRON4, layers: 32, hidden: 6144, ffn: 24576, heads: 48, kvHeads: 8, headDim: 128 },
    checkpoints: [],
    aliases: ['Nemotron4Config15B', 'Nemotron4ModelProvider15B', 'nemotron4_15b'],
    tokenizer: NEMOTRON4_TOKENIZER,
    published: roundedParams(
      '15B',
      'Nemotron-4 15B technical report (arXiv:2402.16819): "3.2 billion embedding and 12.5 billion non-embedding parameters"',
      {
        nominal: true,
      },
    ),
    sources: [SRC.nemo('nemotron', 'Nemotron4Config15B (squared-ReLU, LayerNorm1p, untied)')],
    notes: ['No public Hugging Face checkpoint; BF16 is assumed for the weights.'],
  }),
  entry({
    id: 'nemotron4-340b',
    family: 'nemotron',
    title: 'Nemotron-4 340B',
    shape: { ...NEMOTRON4, layers: 96, hidden: 18432, ffn: 73728, heads: 96, kvHeads: 8, headDim: 192 },
    checkpoints: ckpts(
      assumedBf16Weights('NeMo trains and exports Nemotron-4 in BF16'),
      'nvidia/Nemotron-4-340B-Base',
      'nvidia/Nemotron-4-340B-Instruct',
    ),
    aliases: ['Nemotron4Config340B', 'Nemotron4ModelProvider340B', 'nemotron4_340b'],
    tokenizer: NEMOTRON4_TOKENIZER,
    published: roundedParams(
      '340B',
      'Nemotron-4 340B technical report (arXiv:2406.11704): "9.4 billion embedding and 331.6 billion non-embedding parameters"',
      {
        nominal: true,
      },
    ),
    sources: [SRC.nemo('nemotron', 'Nemotron4Config340B (head_dim = 18432 / 96)')],
    notes: ['The Hugging Face repositories hold NeMo checkpoints, not config.json.'],
  }),
  entry({
    id: 'nemotron-h-4b',
    family: 'nemotron',
    title: 'Nemotron-H 4B',
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON_H,
      layers: 52,
      hidden: 3072,
      ffn: 12288,
      heads: 32,
      hybridPattern: 'M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-',
      mamba: mamba(112, 128),
    },
    checkpoints: ckpts(NH_BF16, 'nvidia/Nemotron-H-4B-Base-8K'),
    aliases: ['NemotronHConfig4B', 'NemotronHModelProvider4B', 'nemotronh_4b'],
    tokenizer: { ...NEMOTRON_H_TOKENIZER, hfId: 'nvidia/Nemotron-H-4B-Base-8K' },
    published: roundedParams('4B', 'Model name (NeMo NemotronHConfig4B)', { nominal: true }),
    sources: [SRC.nemo('ssm', 'NemotronHConfig4B (mamba_num_heads 112, mamba_state_dim 128, kv_channels 128)')],
  }),
  entry({
    id: 'nemotron-h-8b',
    family: 'nemotron',
    title: 'Nemotron-H 8B',
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON_H,
      layers: 52,
      hidden: 4096,
      ffn: 21504,
      heads: 32,
      hybridPattern: 'M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-',
      mamba: mamba(128, 128),
    },
    checkpoints: ckpts(NH_BF16, 'nvidia/Nemotron-H-8B-Base-8K'),
    aliases: ['NemotronHConfig8B', 'NemotronHModelProvider8B', 'nemotronh_8b'],
    tokenizer: { ...NEMOTRON_H_TOKENIZER, hfId: 'nvidia/Nemotron-H-8B-Base-8K' },
    published: roundedParams('8B', 'Model name (NeMo NemotronHConfig8B)', { nominal: true }),
    sources: [
      SRC.nemo('ssm', 'NemotronHConfig8B'),
      SRC.bridge('nemotronh/nemotron_h_provider.py', 'NemotronHModelProvider8B (mamba_num_heads 128)'),
    ],
  }),
  entry({
    id: 'nemotron-h-47b',
    family: 'nemotron',
    title: 'Nemotron-H 47B',
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON_H,
      layers: 98,
      hidden: 8192,
      ffn: 30720,
      heads: 64,
      hybridPattern: 'M-M-M-M-M-M-M-M-M*-M-M-M-M-M-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-M-M---MM---M-M*-M-M-M-M-M-',
      mamba: mamba(256, 256),
    },
    checkpoints: ckpts(NH_BF16, 'nvidia/Nemotron-H-47B-Base-8K'),
    aliases: ['NemotronHConfig47B', 'NemotronHModelProvider47B', 'nemotronh_47b'],
    tokenizer: { ...NEMOTRON_H_TOKENIZER, hfId: 'nvidia/Nemotron-H-47B-Base-8K' },
    published: roundedParams('47B', 'Model name (NeMo NemotronHConfig47B)', { nominal: true }),
    sources: [
      SRC.nemo('ssm', 'NemotronHConfig47B'),
      SRC.bridge('nemotronh/nemotron_h_provider.py', 'NemotronHModelProvider47B (mamba_num_heads 256)'),
    ],
  }),
  entry({
    id: 'nemotron-h-56b',
    family: 'nemotron',
    title: 'Nemotron-H 56B',
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON_H,
      layers: 118,
      hidden: 8192,
      ffn: 32768,
      heads: 64,
      hybridPattern:
        'M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-',
      mamba: mamba(256, 256),
    },
    checkpoints: [
      ckpt('nvidia/Nemotron-H-56B-Base-8K', bf16Weights(`${SRC.hf('nvidia/Nemotron-H-56B-Base-8K', 'aic')} torch_dtype bfloat16`)),
    ],
    aliases: ['NemotronHConfig56B', 'NemotronHModelProvider56B', 'nemotronh_56b'],
    tokenizer: {
      ...NEMOTRON_H_TOKENIZER,
      hfId: 'nvidia/Nemotron-H-56B-Base-8K',
      source: SRC.hf('nvidia/Nemotron-H-56B-Base-8K', 'aic') + ' vocab_size',
    },
    published: roundedParams('56B', 'Model name (nvidia/Nemotron-H-56B-Base-8K)', { nominal: true }),
    sources: [
      SRC.hf('nvidia/Nemotron-H-56B-Base-8K', 'aic') +
        ' (hybrid_override_pattern, mamba_num_heads 256, ssm_state_size 256, n_groups 8, conv_kernel 4)',
      SRC.nemo('ssm', 'NemotronHConfig56B'),
    ],
  }),
  entry({
    id: 'nemotron-nano-9b-v2',
    family: 'nemotron',
    title: 'Nemotron Nano 9B v2',
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON_H,
      layers: 56,
      hidden: 4480,
      ffn: 15680,
      heads: 40,
      hybridPattern: 'M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-',
      mamba: mamba(128, 128, 80),
    },
    checkpoints: ckpts(NH_BF16, 'nvidia/NVIDIA-Nemotron-Nano-9B-v2', 'nvidia/NVIDIA-Nemotron-Nano-9B-v2-Base'),
    aliases: ['NemotronNano9Bv2', 'NemotronNanoModelProvider9Bv2', 'nemotron_nano_9b_v2'],
    tokenizer: { ...NEMOTRON_H_TOKENIZER, hfId: 'nvidia/NVIDIA-Nemotron-Nano-9B-v2' },
    published: roundedParams('9B', 'Model name (nvidia/NVIDIA-Nemotron-Nano-9B-v2)', { nominal: true }),
    sources: [SRC.nemo('ssm', 'NemotronNano9Bv2 (mamba_num_heads 128, mamba_head_dim 80, kv_channels 128)')],
  }),
  entry({
    id: 'nemotron-nano-12b-v2',
    family: 'nemotron',
    title: 'Nemotron Nano 12B v2',
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON_H,
      layers: 62,
      hidden: 5120,
      ffn: 20480,
      heads: 40,
      hybridPattern: 'M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M-',
      mamba: mamba(128, 128, 80),
    },
    checkpoints: ckpts(NH_BF16, 'nvidia/NVIDIA-Nemotron-Nano-12B-v2', 'nvidia/NVIDIA-Nemotron-Nano-12B-v2-Base'),
    aliases: ['NemotronNano12Bv2', 'NemotronNanoModelProvider12Bv2', 'nemotron_nano_12b_v2'],
    tokenizer: { ...NEMOTRON_H_TOKENIZER, hfId: 'nvidia/NVIDIA-Nemotron-Nano-12B-v2' },
    published: roundedParams('12B', 'Model name (nvidia/NVIDIA-Nemotron-Nano-12B-v2)', { nominal: true }),
    sources: [SRC.nemo('ssm', 'NemotronNano12Bv2 (mamba_num_heads 128, mamba_head_dim 80, kv_channels 128)')],
  }),
  entry({
    id: 'nemotron3-nano-30b-a3b',
    family: 'nemotron',
    title: 'Nemotron 3 Nano 30B-A3B',
    shape: { ...NEMOTRON3_NANO_SHAPE, architecture: 'NemotronHForCausalLM' },
    checkpoints: [
      ckpt('nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16', bf16Weights(`${NEMOTRON3_NANO_CONFIG} torch_dtype bfloat16`)),
      ckpt(
        'nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4',
        nvfp4Weights(
          'HF nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 hf_quant_config.json (copy in ai-dynamo/aiconfigurator model_configs/): quant_algo NVFP4, kv_cache_quant_algo FP8',
          [
            'lm_head',
            'backbone.layers.*.mixer.q_proj',
            'backbone.layers.*.mixer.k_proj',
            'backbone.layers.*.mixer.v_proj',
            'backbone.layers.*.mixer.o_proj',
            'backbone.layers.*.mixer.in_proj',
            'backbone.layers.*.mixer.out_proj',
            'backbone.layers.*.mixer.conv1d',
          ],
          'fp8',
          'mlp',
        ),
      ),
    ],
    // nano_v3: TensorRT-LLM AutoDeploy model_registry/models.yaml runs this model with configs/nano_v3.yaml.
    aliases: ['Nemotron3NanoProvider', 'nemotron-3-nano', 'nemotron3-nano', 'nano_v3', 'nemotron-v3-nano'],
    tokenizer: {
      ...NEMOTRON_H_TOKENIZER,
      hfId: 'nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16',
      source: `${NEMOTRON3_NANO_CONFIG} vocab_size`,
    },
    published: roundedParams('30B', 'Megatron-Bridge docs, Nemotron 3 Nano: "3.5B active parameters and 30B parameters in total"', {
      nominal: true,
    }),
    sources: [
      NEMOTRON3_NANO_CONFIG +
        ' (hybrid_override_pattern, 128 routed experts of 1856, 1 shared of 3712, top-6, 2 KV heads, mamba_num_heads 64, ssm_state_size 128)',
      SRC.bridge('nemotronh/nemotron_h_provider.py', 'Nemotron3NanoProvider (sigmoid router with expert bias)'),
    ],
  }),
  entry({
    id: 'nemotron3-super-120b-a12b',
    family: 'nemotron',
    title: 'Nemotron 3 Super 120B-A12B',
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON_H,
      kvHeads: 2,
      layers: 88,
      hidden: 4096,
      ffn: 2688,
      heads: 32,
      experts: 512,
      topK: 22,
      moeFfn: 2688,
      sharedExpertFfn: 5376,
      sharedExperts: 1,
      moeLatentSize: 1024,
      routerBias: true,
      mtpLayers: 1,
      ...NEMOTRON_H_MTP,
      hybridPattern: 'MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME',
      mamba: mamba(128, 128),
    },
    checkpoints: [
      ckpt('nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16', assumedBf16Weights('the BF16 release named by its -BF16 suffix')),
      ckpt(
        'nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8',
        modeloptFp8Weights(
          'HF nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8 hf_quant_config.json (copy in ai-dynamo/aiconfigurator model_configs/): quant_algo FP8, kv_cache_quant_algo FP8',
          [],
          'fp8',
        ),
      ),
      ckpt(
        'nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4',
        nvfp4Weights(
          'HF nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4 hf_quant_config.json (copy in ai-dynamo/aiconfigurator model_configs/): quant_algo NVFP4, kv_cache_quant_algo FP8',
          [],
          'fp8',
        ),
      ),
    ],
    // super_v3: TensorRT-LLM AutoDeploy model_registry/models.yaml runs this model with configs/super_v3_mtp.yaml.
    aliases: ['nemotron-3-super', 'nemotron3-super', 'super_v3', 'nemotron-v3-super'],
    tokenizer: {
      ...NEMOTRON_H_TOKENIZER,
      hfId: 'nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16',
      source: `${NEMOTRON3_SUPER_CONFIG} vocab_size`,
    },
    published: roundedParams('120B', 'Model name (120B total, 12B active)', { nominal: true }),
    sources: [
      NEMOTRON3_SUPER_CONFIG +
        ' (hybrid_override_pattern, 512 routed experts of 2688 in a 1024-wide latent space, 1 shared of 5376, top-22, 2 KV heads, num_nextn_predict_layers 1)',
    ],
    notes: ['The MTP layer is an attention + MoE block (mtp_hybrid_override_pattern "*E").'],
  }),
  entry({
    id: 'nemotron3.5-lightning-30b-a3b',
    family: 'nemotron',
    title: 'Nemotron 3.5 Lightning 30B-A3B',
    // Nemotron 3 Nano's stack (the same layers_block_type, dims and experts) with one MTP layer.
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON3_NANO_SHAPE,
      mtpLayers: 1,
      ...NEMOTRON_H_MTP,
      maxPositionEmbeddings: 1048576,
    },
    checkpoints: [
      ckpt('nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-BF16', assumedBf16Weights('the BF16 release named by its -BF16 suffix')),
      ckpt('nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4', {
        ...nvfp4Weights(
          `${NEMOTRON35_LIGHTNING_CONFIG.replace('config.json', 'hf_quant_config.json')}: quant_algo MIXED_PRECISION (routed and shared experts and lm_head W4A16_NVFP4, Mamba in_proj/out_proj FP8), kv_cache_quant_algo FP8`,
          [
            'backbone.embeddings',
            'backbone.layers.*.mixer.q_proj',
            'backbone.layers.*.mixer.k_proj',
            'backbone.layers.*.mixer.v_proj',
            'backbone.layers.*.mixer.o_proj',
            'backbone.layers.*.mixer.conv1d',
            'backbone.layers.*.mixer.gate',
            'mtp*',
          ],
          'fp8',
          'mlp',
        ),
        other: 'fp8',
      }),
    ],
    aliases: ['nemotron-3.5-lightning'],
    tokenizer: {
      ...NEMOTRON_H_TOKENIZER,
      hfId: 'nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-BF16',
      source: `${NEMOTRON35_LIGHTNING_CONFIG} vocab_size`,
    },
    published: roundedParams('30B', 'Model name (30B total, 3B active)', { nominal: true }),
    sources: [
      NEMOTRON35_LIGHTNING_CONFIG +
        ' (layers_block_type: the Nemotron 3 Nano pattern; 128 routed experts of 1856, 1 shared of 3712, top-6, 2 KV heads, mamba_num_heads 64, num_nextn_predict_layers 1, mtp_layers_block_type [attention, moe])',
    ],
    notes: ['The MTP layer is an attention + MoE block (mtp_layers_block_type [attention, moe]).'],
  }),
  entry({
    id: 'nemotron3-nano-omni-30b-a3b',
    family: 'nemotron',
    title: 'Nemotron 3 Nano Omni 30B-A3B',
    // The language backbone is taken to be Nemotron 3 Nano's (Megatron-Bridge docs/models/nemotron/nemotron-3-omni.md:
    // "a MoE Mamba/attention hybrid language backbone", 30B-A3B); the checkpoint's own config.json was not read.
    shape: { ...NEMOTRON3_NANO_SHAPE, architecture: 'NemotronH_Nano_Omni_Reasoning_V3' },
    checkpoints: [
      ckpt('nvidia/Nemotron-3-Nano-Omni-30B-A3B-Reasoning-BF16', assumedBf16Weights('the BF16 release named by its -BF16 suffix')),
    ],
    // nano_omni: TensorRT-LLM AutoDeploy model_registry/configs/nano_omni.yaml (model_factory NemotronNanoOmniForConditionalGeneration).
    aliases: ['nemotron-3-nano-omni', 'NemotronH_Nano_Omni_Reasoning_V3', 'nano_omni'],
    tokenizer: {
      ...NEMOTRON_H_TOKENIZER,
      hfId: 'nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16',
      source: `${NEMOTRON3_NANO_CONFIG} vocab_size`,
    },
    published: roundedParams('30B', 'Model name (30B total, 3B active)', {
      nominal: true,
      scope: 'the language backbone (the name gives its size class)',
    }),
    sources: [
      'Megatron-Bridge docs/models/nemotron/nemotron-3-omni.md (30B-A3B MoE Mamba/attention hybrid language backbone, RADIO vision tower, Parakeet sound encoder)',
      'Megatron-Bridge examples/model_verification_cards/nemotron-3-nano-omni-30b-a3b-reasoning/card.yaml (architecture NemotronH_Nano_Omni_Reasoning_V3; 33,015,546,816 parameters in the imported checkpoint)',
    ],
    notes: [
      "The language backbone is assumed to be Nemotron 3 Nano's stack (this checkpoint's config.json was not read; point the model setting at it to read it).",
      'A multimodal checkpoint: the RADIO vision tower, the Parakeet sound encoder and their projectors (about 1.4B of the 33.0B parameters Megatron-Bridge imports, if the backbone is Nano 3) are not in the shape.',
    ],
  }),
  entry({
    id: 'nemotron3-ultra-550b-a55b',
    family: 'nemotron',
    title: 'Nemotron 3 Ultra 550B-A55B',
    shape: {
      architecture: 'NemotronHForCausalLM',
      ...NEMOTRON_H,
      kvHeads: 2,
      layers: 108,
      hidden: 8192,
      ffn: 5120,
      heads: 64,
      experts: 512,
      topK: 22,
      moeFfn: 5120,
      sharedExpertFfn: 10240,
      sharedExperts: 1,
      moeLatentSize: 2048,
      routerBias: true,
      mtpLayers: 1,
      ...NEMOTRON_H_MTP,
      maxPositionEmbeddings: 262144,
      hybridPattern: 'MEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME',
      mamba: mamba(256, 128),
    },
    checkpoints: [
      ckpt('nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16', bf16Weights(`${NEMOTRON3_ULTRA_CONFIG} dtype bfloat16`)),
      // TensorRT-LLM docs/source/deployment-guide/deployment-guide-for-nemotron-3-on-trtllm.md names the pre-training release.
      ckpt('nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-Base-BF16', bf16Weights(`${NEMOTRON3_ULTRA_CONFIG} dtype bfloat16`)),
      ckpt(
        'nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-FP8',
        modeloptFp8Weights(
          `${SRC.hf('nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-FP8', 'aic').replace('config.json', 'hf_quant_config.json')}: quant_algo FP8, kv_cache_quant_algo FP8`,
          [],
          'fp8',
        ),
      ),
      ckpt(
        'nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4',
        nvfp4Weights(
          `${SRC.hf('nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4', 'aic').replace('config.json', 'hf_quant_config.json')}: quant_algo NVFP4, kv_cache_quant_algo FP8`,
          [],
          'fp8',
        ),
      ),
    ],
    // ultra_v3: TensorRT-LLM AutoDeploy model_registry/configs/ultra_v3.yaml (the latent MoE projections fc1/fc2_latent_proj);
    // NeMo AutoModel's performance summary names the model "Nemotron V3 Ultra 550B".
    aliases: ['nemotron-3-ultra', 'nemotron3-ultra', 'ultra_v3', 'nemotron-v3-ultra'],
    tokenizer: {
      ...NEMOTRON_H_TOKENIZER,
      hfId: 'nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16',
      source: `${NEMOTRON3_ULTRA_CONFIG} vocab_size`,
    },
    published: roundedParams('550B', 'Model name (550B total, 55B active)', { nominal: true }),
    sources: [
      NEMOTRON3_ULTRA_CONFIG +
        ' (layers_block_type of 108 layers, no num_hidden_layers; 512 routed experts of 5120 in a 2048-wide latent space, 1 shared of 10240, top-22, 64 heads, 2 KV heads, mamba_num_heads 256, num_nextn_predict_layers 1)',
    ],
    notes: ['The MTP layer is an attention + MoE block (mtp_layers_block_type [attention, moe]).'],
  }),
];
