// Google Gemma, Gemma 2, Gemma 3 and Gemma 4 (text decoders): GeGLU MLPs, tied embeddings, local/global attention.
// Architectures (config.json architectures[0]): Gemma 2B, Gemma 2 and Gemma 3 1B from mlc-llm model_preset.py@79d603f; Gemma 7B
// per NVIDIA-NeMo/Automodel docs/model-coverage/llm/google/gemma-1.mdx@36044ad and NeMo gemma.py@8cfedd7 HFGemmaImporter; Gemma 3
// 4B/12B/27B it are Gemma3ForConditionalGeneration (Megatron-Bridge examples/model_verification_cards/gemma-3-4b-it,
// docs/models/gemma/gemma3-vl.md with gemma_vl/gemma3_vl_bridge.py@067f987; trymirai/lalamo HFGemma3Config@cef960b for
// gemma-3-4b-it and gemma-3-27b-it); Gemma 4 from the aiconfigurator copies, Megatron-Bridge model_verification_cards/
// gemma-4-26b-a4b-it and Automodel docs/model-coverage/vlm/google/gemma4.mdx (E2B-it, E4B-it, 31B-it).
import { exactParams, roundedParams } from '../published.js';
import type { CatalogueEntry, TokenizerFacts } from '../types.js';
import { assumedBf16Weights, bf16Weights, nvfp4Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';

const GEMMA = { ...DENSE, gatedMlp: true, norm: 'rmsnorm', activation: 'geglu', tiedEmbeddings: true } as const;
/** Gemma 2: a 4096-token window on every other layer, norms before and after attention and MLP (NeMo Gemma2Config window_size (4096, 0)). */
const GEMMA2 = {
  ...GEMMA,
  vocab: 256000,
  slidingWindow: { window: 4096, everyOther: true },
  postNorms: true,
  finalLogitSoftcap: 30,
} as const;
/** Gemma 3: five local layers per global one (NeMo Gemma3Config interleaved_attn_pattern (5, 1)), q/k norms, sandwich norms. */
const GEMMA3 = { ...GEMMA, qkNorm: true, postNorms: true, slidingWindowPattern: 6 } as const;

const gemmaTokenizer = (vocab: number, hfId: string, source: string): TokenizerFacts => ({ hfId, kind: 'sentencepiece', vocab, source });
const bf16 = (id: string) => bf16Weights(`${SRC.hf(id, 'mlc')} torch_dtype bfloat16`);
const GEMMA_BF16 = assumedBf16Weights('the Gemma releases read here store BF16 (e.g. google/gemma-2-9b config.json torch_dtype bfloat16)');
const TEXT_ONLY = 'The text decoder only: the multimodal checkpoint adds a SigLIP vision encoder the shape does not describe.';

/**
 * Gemma 4 (transformers models/gemma4: Gemma4TextConfig, modeling_gemma4.py): q/k norms (v_norm has no weights), sandwich
 * norms, five windowed layers per global one whose heads are global_head_dim 512 wide (E2B: four per global one).
 */
const GEMMA4 = { ...GEMMA, qkNorm: true, postNorms: true, slidingWindowPattern: 6, vocab: 262144, finalLogitSoftcap: 30 } as const;
/** Where the E2B and E4B numbers come from: the conversion script's variants over the Gemma4TextConfig defaults. */
const G4_VARIANTS = (variant: string, what: string) =>
  `transformers src/transformers/models/gemma4/convert_gemma4_weights.py@ca5ff0b _VARIANTS["${variant}"] (${what}), over the Gemma4TextConfig defaults of configuration_gemma4.py@351f643 (head_dim 256, global_head_dim 512, sliding_window 512, vocab_size and vocab_size_per_layer_input 262144, max_position_embeddings 131072, tie_word_embeddings true)`;
/** Megatron-Bridge's Gemma 4 files, read at a later commit than SRC.bridge's (which predates them). */
const G4_BRIDGE = 'Megatron-Bridge src/megatron/bridge';
const G4_TOKENIZER = (hfId: string, source: string): TokenizerFacts => gemmaTokenizer(262144, hfId, source);
const G4_BF16 = (read: string) =>
  assumedBf16Weights(`${read} stores BF16, and convert_gemma4_weights.py writes --text_dtype bfloat16 by default`);
const g4Published = (size: string, preset: string, scope: string, nominal = false) =>
  roundedParams(size, `${SRC.keras(preset)} (${scope})`, { ...(nominal ? { nominal } : {}), scope: `the multimodal checkpoint: ${scope}` });
/** Per-layer embeddings of E2B and E4B, and how the shape places them. */
const PLE_NOTE = (layers: number) =>
  `Per-layer embeddings (PLE): a 262144 × (${layers} · 256) lookup table with a hidden → ${layers} · 256 projection; each layer's slice is counted with that layer, so with pipeline parallelism the table is spread over the stages, where Megatron-Bridge keeps it whole with the embedding (its Gemma4DenseProvider supports PP 1 only).`;
const KV_SHARED_NOTE = (shared: number, first: number, sliding: number, global: number) =>
  `The last ${shared} layers (${first}–${first + shared - 1}) reuse the keys and values of layers ${sliding} (windowed) and ${global} (global): they have no k_proj, v_proj or k_norm (transformers ignores them on load) and keep no KV cache.`;
const LARGE_VISION = 'The vision encoder of the multimodal checkpoint (vision_config: 27 layers of width 1152) is not in the shape.';
const SMALL_TOWERS =
  'The vision encoder (16 layers of width 768) and the audio encoder (12 conformer layers of width 1024) of the multimodal checkpoint are not in the shape.';

export const GEMMA_MODELS: CatalogueEntry[] = [
  entry({
    id: 'gemma-2b',
    family: 'gemma',
    title: 'Gemma 2B',
    shape: {
      architecture: 'GemmaForCausalLM',
      ...GEMMA,
      layers: 18,
      hidden: 2048,
      ffn: 16384,
      heads: 8,
      kvHeads: 1,
      headDim: 256,
      vocab: 256000,
    },
    checkpoints: [ckpt('google/gemma-2b', bf16('google/gemma-2b')), ckpt('google/gemma-2b-it', GEMMA_BF16)],
    aliases: ['GemmaConfig2B', 'GemmaModelProvider2B', 'gemma_2b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-2b', SRC.hf('google/gemma-2b', 'mlc') + ' vocab_size'),
    published: exactParams('2506172416', SRC.keras('gemma_2b_en')),
    sources: [SRC.hf('google/gemma-2b', 'mlc'), SRC.nemo('gemma', 'GemmaConfig2B (kv_channels 256, tied)')],
  }),
  entry({
    id: 'gemma-7b',
    family: 'gemma',
    title: 'Gemma 7B',
    shape: {
      architecture: 'GemmaForCausalLM',
      ...GEMMA,
      layers: 28,
      hidden: 3072,
      ffn: 24576,
      heads: 16,
      kvHeads: 16,
      headDim: 256,
      vocab: 256000,
    },
    checkpoints: ckpts(GEMMA_BF16, 'google/gemma-7b', 'google/gemma-7b-it'),
    aliases: ['GemmaConfig7B', 'GemmaModelProvider7B', 'gemma_7b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-7b', SRC.hf('google/gemma-2b', 'mlc') + ' vocab_size (one Gemma tokenizer)'),
    published: exactParams('8537680896', SRC.keras('gemma_7b_en')),
    sources: [SRC.nemo('gemma', 'GemmaConfig7B (kv_channels 256, tied)')],
  }),
  entry({
    id: 'gemma2-2b',
    family: 'gemma',
    title: 'Gemma 2 2B',
    shape: { architecture: 'Gemma2ForCausalLM', ...GEMMA2, layers: 26, hidden: 2304, ffn: 9216, heads: 8, kvHeads: 4, headDim: 256 },
    checkpoints: [ckpt('google/gemma-2-2b', bf16('google/gemma-2-2b')), ckpt('google/gemma-2-2b-it', GEMMA_BF16)],
    aliases: ['Gemma2Config2B', 'Gemma2ModelProvider2B', 'gemma2_2b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-2-2b', SRC.hf('google/gemma-2-2b', 'mlc') + ' vocab_size'),
    published: exactParams('2614341888', SRC.keras('gemma2_2b_en')),
    sources: [SRC.hf('google/gemma-2-2b', 'mlc'), SRC.nemo('gemma2', 'Gemma2Config2B')],
  }),
  entry({
    id: 'gemma2-9b',
    family: 'gemma',
    title: 'Gemma 2 9B',
    shape: { architecture: 'Gemma2ForCausalLM', ...GEMMA2, layers: 42, hidden: 3584, ffn: 14336, heads: 16, kvHeads: 8, headDim: 256 },
    checkpoints: [ckpt('google/gemma-2-9b', bf16('google/gemma-2-9b')), ckpt('google/gemma-2-9b-it', GEMMA_BF16)],
    aliases: ['Gemma2Config9B', 'Gemma2ModelProvider9B', 'gemma2_9b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-2-9b', SRC.hf('google/gemma-2-9b', 'mlc') + ' vocab_size'),
    published: exactParams('9241705984', SRC.keras('gemma2_9b_en')),
    sources: [SRC.hf('google/gemma-2-9b', 'mlc'), SRC.nemo('gemma2', 'Gemma2Config9B')],
  }),
  entry({
    id: 'gemma2-27b',
    family: 'gemma',
    title: 'Gemma 2 27B',
    shape: { architecture: 'Gemma2ForCausalLM', ...GEMMA2, layers: 46, hidden: 4608, ffn: 36864, heads: 32, kvHeads: 16, headDim: 128 },
    checkpoints: [ckpt('google/gemma-2-27b', bf16('google/gemma-2-27b')), ckpt('google/gemma-2-27b-it', GEMMA_BF16)],
    aliases: ['Gemma2Config27B', 'Gemma2ModelProvider27B', 'gemma2_27b'],
    tokenizer: gemmaTokenizer(256000, 'google/gemma-2-27b', SRC.hf('google/gemma-2-27b', 'mlc') + ' vocab_size'),
    published: exactParams('27227128320', SRC.keras('gemma2_27b_en')),
    sources: [SRC.hf('google/gemma-2-27b', 'mlc'), SRC.nemo('gemma2', 'Gemma2Config27B (kv_channels 128)')],
  }),
  entry({
    id: 'gemma3-1b',
    family: 'gemma',
    title: 'Gemma 3 1B',
    shape: {
      architecture: 'Gemma3ForCausalLM',
      ...GEMMA3,
      layers: 26,
      hidden: 1152,
      ffn: 6912,
      heads: 4,
      kvHeads: 1,
      headDim: 256,
      vocab: 262144,
      slidingWindow: { window: 512, everyOther: false },
    },
    checkpoints: [ckpt('google/gemma-3-1b-it', bf16('google/gemma-3-1b-it')), ckpt('google/gemma-3-1b-pt', GEMMA_BF16)],
    aliases: ['Gemma3Config1B', 'Gemma3ModelProvider1B', 'gemma3_1b'],
    tokenizer: gemmaTokenizer(262144, 'google/gemma-3-1b-it', SRC.hf('google/gemma-3-1b-it', 'mlc') + ' vocab_size'),
    published: exactParams('999885952', SRC.keras('gemma3_1b')),
    sources: [
      SRC.hf('google/gemma-3-1b-it', 'mlc') + ' (sliding_window 512, sliding_window_pattern 6)',
      SRC.nemo('gemma3', 'Gemma3Config1B'),
    ],
  }),
  entry({
    id: 'gemma3-4b',
    family: 'gemma',
    title: 'Gemma 3 4B',
    shape: {
      architecture: 'Gemma3ForConditionalGeneration',
      ...GEMMA3,
      layers: 34,
      hidden: 2560,
      ffn: 10240,
      heads: 8,
      kvHeads: 4,
      headDim: 256,
      vocab: 262208,
      slidingWindow: { window: 1024, everyOther: false },
    },
    checkpoints: ckpts(GEMMA_BF16, 'google/gemma-3-4b-it', 'google/gemma-3-4b-pt'),
    aliases: ['Gemma3Config4B', 'Gemma3ModelProvider4B'],
    tokenizer: gemmaTokenizer(262208, 'google/gemma-3-4b-it', SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider4B vocab_size')),
    published: exactParams('3880099328', SRC.keras('gemma3_4b_text')),
    sources: [SRC.nemo('gemma3', 'Gemma3Config4B (window_size 1024)'), SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider4B')],
    notes: [TEXT_ONLY],
  }),
  entry({
    id: 'gemma3-12b',
    family: 'gemma',
    title: 'Gemma 3 12B',
    shape: {
      architecture: 'Gemma3ForConditionalGeneration',
      ...GEMMA3,
      layers: 48,
      hidden: 3840,
      ffn: 15360,
      heads: 16,
      kvHeads: 8,
      headDim: 256,
      vocab: 262208,
      slidingWindow: { window: 1024, everyOther: false },
    },
    checkpoints: ckpts(GEMMA_BF16, 'google/gemma-3-12b-it', 'google/gemma-3-12b-pt'),
    aliases: ['Gemma3Config12B', 'Gemma3ModelProvider12B'],
    tokenizer: gemmaTokenizer(262208, 'google/gemma-3-12b-it', SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider12B vocab_size')),
    published: exactParams('11765788416', SRC.keras('gemma3_12b_text')),
    sources: [SRC.nemo('gemma3', 'Gemma3Config12B (window_size 1024)'), SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider12B')],
    notes: [TEXT_ONLY],
  }),
  entry({
    id: 'gemma3-27b',
    family: 'gemma',
    title: 'Gemma 3 27B',
    shape: {
      architecture: 'Gemma3ForConditionalGeneration',
      ...GEMMA3,
      layers: 62,
      hidden: 5376,
      ffn: 21504,
      heads: 32,
      kvHeads: 16,
      headDim: 128,
      vocab: 262208,
      slidingWindow: { window: 1024, everyOther: false },
    },
    checkpoints: ckpts(GEMMA_BF16, 'google/gemma-3-27b-it', 'google/gemma-3-27b-pt'),
    aliases: ['Gemma3Config27B', 'Gemma3ModelProvider27B'],
    tokenizer: gemmaTokenizer(262208, 'google/gemma-3-27b-it', SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider27B vocab_size')),
    published: exactParams('27009002240', SRC.keras('gemma3_27b_text')),
    sources: [
      SRC.nemo('gemma3', 'Gemma3Config27B (kv_channels 128, window_size 1024)'),
      SRC.bridge('gemma/gemma3_provider.py', 'Gemma3ModelProvider27B'),
    ],
    notes: [TEXT_ONLY],
  }),
  entry({
    id: 'gemma4-e2b',
    family: 'gemma',
    title: 'Gemma 4 E2B',
    shape: {
      architecture: 'Gemma4ForConditionalGeneration',
      ...GEMMA4,
      layers: 35,
      hidden: 1536,
      ffn: 6144,
      heads: 8,
      kvHeads: 1,
      headDim: 256,
      slidingWindow: { window: 512, everyOther: false },
      slidingWindowPattern: 5,
      globalAttention: { headDim: 512, kvHeads: 1, kEqV: false },
      kvSharedLayers: 20,
      doubleWideSharedMlp: true,
      perLayerEmbedding: { width: 256, vocab: 262144 },
      maxPositionEmbeddings: 131072,
    },
    checkpoints: ckpts(G4_BF16('google/gemma-4-26B-A4B config.json'), 'google/gemma-4-E2B-it', 'google/gemma-4-E2B'),
    aliases: ['gemma4_2b', 'gemma4_instruct_2b'],
    tokenizer: G4_TOKENIZER('google/gemma-4-E2B-it', G4_VARIANTS('gemma-4-e2b', 'vocab_size default 262144; gemma4_cleaned_262144.model')),
    published: g4Published('5.1B', 'gemma4_instruct_2b', 'vision and audio encoders included; 2.3B effective without the PLE table'),
    sources: [
      G4_VARIANTS(
        'gemma-4-e2b',
        'hidden 1536, hidden_size_per_layer_input 256, intermediate 4 · 1536, 35 layers of (4 sliding + 1 full) × 7, 8 heads, 1 KV head, num_kv_shared_layers 20, use_double_wide_mlp',
      ),
      'KerasHub tools/checkpoint_conversion/convert_gemma4_hf_checkpoints.py@71453d0 (gemma4_2b → google/gemma-4-E2B, gemma4_instruct_2b → google/gemma-4-E2B-it)',
    ],
    notes: [
      'Every fifth layer attends globally with 512-wide heads; the others over 512-token windows.',
      KV_SHARED_NOTE(20, 15, 13, 14),
      'The 20 KV-shared layers have 12288-wide MLPs (use_double_wide_mlp): the shape averages the MLP width over the layers, exact over the model.',
      PLE_NOTE(35),
      SMALL_TOWERS,
    ],
  }),
  entry({
    id: 'gemma4-e4b',
    family: 'gemma',
    title: 'Gemma 4 E4B',
    shape: {
      architecture: 'Gemma4ForConditionalGeneration',
      ...GEMMA4,
      layers: 42,
      hidden: 2560,
      ffn: 10240,
      heads: 8,
      kvHeads: 2,
      headDim: 256,
      slidingWindow: { window: 512, everyOther: false },
      globalAttention: { headDim: 512, kvHeads: 2, kEqV: false },
      kvSharedLayers: 18,
      perLayerEmbedding: { width: 256, vocab: 262144 },
      maxPositionEmbeddings: 131072,
    },
    checkpoints: ckpts(G4_BF16('google/gemma-4-26B-A4B config.json'), 'google/gemma-4-E4B-it', 'google/gemma-4-E4B'),
    aliases: ['gemma4_4b', 'gemma4_instruct_4b', 'gemma4_e4b'],
    tokenizer: G4_TOKENIZER('google/gemma-4-E4B-it', G4_VARIANTS('gemma-4-e4b', 'vocab_size default 262144; gemma4_cleaned_262144.model')),
    published: g4Published('7.9B', 'gemma4_instruct_4b', 'vision and audio encoders included; 4.5B effective without the PLE table'),
    sources: [
      G4_VARIANTS(
        'gemma-4-e4b',
        'hidden 2560, hidden_size_per_layer_input 256, intermediate 4 · 2560, 42 layers of (5 sliding + 1 full) × 7, 8 heads, 2 KV heads, global_head_dim 512, num_kv_shared_layers 18',
      ),
      `${G4_BRIDGE}/models/gemma/gemma4_provider.py@067f987 Gemma4DenseProvider (its defaults are E4B: 42 layers, hidden 2560, 2 query groups, 18 KV-shared layers)`,
      `${G4_BRIDGE}/recipes/gemma/h100/gemma4.py@067f987 gemma4_e4b_pretrain_2gpu_h100_bf16_config (google/gemma-4-E4B-it)`,
    ],
    notes: [
      'Every sixth layer attends globally with 512-wide heads; the others over 512-token windows.',
      KV_SHARED_NOTE(18, 24, 22, 23),
      PLE_NOTE(42),
      SMALL_TOWERS,
    ],
  }),
  entry({
    id: 'gemma4-26b-a4b',
    family: 'gemma',
    title: 'Gemma 4 26B-A4B',
    shape: {
      architecture: 'Gemma4ForConditionalGeneration',
      ...GEMMA4,
      layers: 30,
      hidden: 2816,
      ffn: 2112,
      heads: 16,
      kvHeads: 8,
      headDim: 256,
      experts: 128,
      topK: 8,
      moeFfn: 704,
      sharedExpertFfn: 2112,
      sharedExperts: 1,
      denseLayersBeforeMoe: 0,
      moeBranchNorms: true,
      slidingWindow: { window: 1024, everyOther: false },
      globalAttention: { headDim: 512, kvHeads: 2, kEqV: true },
      maxPositionEmbeddings: 262144,
    },
    checkpoints: [
      ckpt('google/gemma-4-26B-A4B-it', G4_BF16('google/gemma-4-26B-A4B config.json')),
      ckpt('google/gemma-4-26B-A4B', bf16Weights(`${SRC.hf('google/gemma-4-26B-A4B', 'aic')} dtype bfloat16`)),
      ckpt(
        'nvidia/Gemma-4-26B-A4B-NVFP4',
        nvfp4Weights(
          `${SRC.hf('nvidia/Gemma-4-26B-A4B-NVFP4', 'aic')} and its hf_quant_config.json (modelopt NVFP4, group 16; lm_head, the vision tower and every layer's self_attn, mlp and router excluded: the routed experts alone in NVFP4; kv_cache_quant_algo FP8)`,
          [
            'lm_head',
            'model.embed_vision*',
            'model.vision_tower*',
            'model.language_model.layers.*.self_attn*',
            'model.language_model.layers.*.mlp*',
            'model.language_model.layers.*.router*',
          ],
          'fp8',
          'experts',
        ),
      ),
    ],
    // gemma4_moe: TensorRT-LLM AutoDeploy model_registry/models.yaml runs google/gemma-4-26B-A4B-it with configs/gemma4_moe.yaml.
    aliases: ['gemma4_26b_a4b', 'gemma4_instruct_26b_a4b', 'gemma4_vl_26b', 'gemma4_moe'],
    tokenizer: G4_TOKENIZER('google/gemma-4-26B-A4B-it', `${SRC.hf('google/gemma-4-26B-A4B', 'aic')} text_config.vocab_size`),
    published: g4Published('26B', 'gemma4_instruct_26b_a4b', 'vision encoder included; 4B active', true),
    sources: [
      `${SRC.hf('google/gemma-4-26B-A4B', 'aic')} text_config (30 layers, hidden 2816, 16 heads, 8 KV heads, global_head_dim 512, num_global_key_value_heads 2, attention_k_eq_v, sliding_window 1024, enable_moe_block, num_experts 128, top_k_experts 8, moe_intermediate_size 704, intermediate_size 2112)`,
      `${G4_BRIDGE}/models/gemma/gemma4_bridge.py@067f987 Gemma4Bridge._build_moe_provider (moe_shared_expert_intermediate_size = intermediate_size)`,
    ],
    notes: [
      'Every sixth layer attends globally with 512-wide heads over 2 KV heads whose V is the K projection (attention_k_eq_v: no v_proj; K and V are both cached); the others over 1024-token windows.',
      'The dense MLP beside the experts (intermediate_size 2112) runs on every token: modelled as one shared expert, as Megatron-Bridge maps it.',
      'The router has an input scale and a per-expert scale, and the experts and the dense MLP are normed apart (three more norms per layer).',
      LARGE_VISION,
    ],
  }),
  entry({
    id: 'gemma4-31b',
    family: 'gemma',
    title: 'Gemma 4 31B',
    shape: {
      architecture: 'Gemma4ForConditionalGeneration',
      ...GEMMA4,
      layers: 60,
      hidden: 5376,
      ffn: 21504,
      heads: 32,
      kvHeads: 16,
      headDim: 256,
      slidingWindow: { window: 1024, everyOther: false },
      globalAttention: { headDim: 512, kvHeads: 4, kEqV: true },
      maxPositionEmbeddings: 262144,
    },
    checkpoints: [
      ckpt('google/gemma-4-31B-it', G4_BF16('nvidia/Gemma-4-31B-IT-NVFP4 config.json (text_config.dtype bfloat16, its source)')),
      ckpt('google/gemma-4-31B', G4_BF16('nvidia/Gemma-4-31B-IT-NVFP4 config.json (text_config.dtype bfloat16, its source)')),
      ckpt(
        'nvidia/Gemma-4-31B-IT-NVFP4',
        nvfp4Weights(
          `${SRC.hf('nvidia/Gemma-4-31B-IT-NVFP4', 'aic')} and its hf_quant_config.json (modelopt NVFP4, group 16; lm_head, the vision tower and every layer's self_attn excluded; kv_cache_quant_algo FP8)`,
          ['lm_head', 'model.embed_vision*', 'model.vision_tower*', 'model.language_model.layers.*.self_attn*'],
          'fp8',
          'mlp',
        ),
      ),
    ],
    // gemma4_dense: TensorRT-LLM AutoDeploy model_registry/models.yaml runs nvidia/Gemma-4-31B-IT-NVFP4 with configs/gemma4_dense.yaml.
    aliases: ['gemma4_31b', 'gemma4_instruct_31b', 'gemma4_dense'],
    tokenizer: G4_TOKENIZER('google/gemma-4-31B-it', `${SRC.hf('nvidia/Gemma-4-31B-IT-NVFP4', 'aic')} text_config.vocab_size`),
    published: g4Published('31B', 'gemma4_instruct_31b', 'vision encoder included', true),
    sources: [
      `${SRC.hf('nvidia/Gemma-4-31B-IT-NVFP4', 'aic')} text_config (60 layers, hidden 5376, intermediate 21504, 32 heads, 16 KV heads, global_head_dim 512, num_global_key_value_heads 4, attention_k_eq_v, sliding_window 1024)`,
      G4_VARIANTS('gemma-4-31b', 'the same numbers'),
    ],
    notes: [
      'Every sixth layer attends globally with 512-wide heads over 4 KV heads whose V is the K projection (attention_k_eq_v: no v_proj; K and V are both cached); the others over 1024-token windows.',
      LARGE_VISION,
    ],
  }),
];
