// Which implementation of a Hugging Face architecture NeMo Automodel builds, and so which kernels its layers run.
// Sources at NVIDIA-NeMo/Automodel 36044ad: _transformers/registry.py MODEL_ARCH_MAPPING, _transformers/model_init.py
// __init_model (force_hf, then the custom class, then Hugging Face), _transformers/kernel_patches.py _patch_liger_kernel,
// components/models/common/utils.py (BackendConfig, initialize_rms_norm_module); Liger at the commit Automodel pins
// (pyproject.toml, linkedin/Liger-Kernel 1f1a4b8): transformers/monkey_patch.py MODEL_TYPE_TO_APPLY_LIGER_FN.

/**
 * Architectures Automodel builds with its own model class whose RMSNorms come from initialize_rms_norm_module
 * (`model.backend.rms_norm`, default torch_fp32): components/models/{llama,qwen2,deepseek_v3,…}.
 */
export const AUTOMODEL_BACKEND_NORM = new Set([
  'BagelForUnifiedMultimodal',
  'BagelForConditionalGeneration',
  'BailingMoeV2ForCausalLM',
  'DeepseekV3ForCausalLM',
  'DeepseekV32ForCausalLM',
  'DeepseekV4ForCausalLM',
  'Ernie4_5_MoeForCausalLM',
  'Glm4MoeForCausalLM',
  'Glm4MoeLiteForCausalLM',
  'GlmMoeDsaForCausalLM',
  'GptOssForCausalLM',
  'LlamaForCausalLM',
  'MiniMaxM2ForCausalLM',
  'Mistral4ForCausalLM',
  'Mistral3ForConditionalGeneration',
  'NemotronHForCausalLM',
  'HYV3ForCausalLM',
  'HyMT2ForCausalLM',
  'Qwen2ForCausalLM',
  'Qwen3MoeForCausalLM',
  'Qwen3NextForCausalLM',
  'Qwen3OmniMoeForConditionalGeneration',
  'Qwen3VLMoeForConditionalGeneration',
]);

/**
 * The rest of the registry: Automodel's own model class with norms of its own or Hugging Face's (components/models/
 * qwen3 imports Qwen3RMSNorm, mistral3 defines Ministral3RMSNorm, …). Liger is never applied to a custom model.
 */
export const AUTOMODEL_OWN_NORM = new Set([
  'BaichuanForCausalLM',
  'DiffusionGemmaForBlockDiffusion',
  'Gemma4ForConditionalGeneration',
  'Gemma4UnifiedForConditionalGeneration',
  'Gemma4AssistantForCausalLM',
  'KimiK25ForConditionalGeneration',
  'KimiK25VLForConditionalGeneration',
  'KimiK3ForConditionalGeneration',
  'KimiK3ForCausalLM',
  'KimiVLForConditionalGeneration',
  'KimiLinear48BForCausalLM',
  'LlamaBidirectionalForSequenceClassification',
  'LlamaBidirectionalModel',
  'LlamaNemotronVLModel',
  'MiniMaxM3SparseForConditionalGeneration',
  'MiMoV2FlashForCausalLM',
  'LagunaForCausalLM',
  'Ministral3ForCausalLM',
  'Ministral3BidirectionalModel',
  'Mistral3FP8VLMForConditionalGeneration',
  'NemotronH_Nano_Omni_Reasoning_V3',
  'NemotronParseForConditionalGeneration',
  'MuseGlimmerForConditionalGeneration',
  'LLaVAOneVision1_5_ForConditionalGeneration',
  'Qwen3ForCausalLM',
  'Qwen2_5OmniModel',
  'Qwen2_5OmniForConditionalGeneration',
  'Qwen2_5OmniThinkerForConditionalGeneration',
  'Qwen3_5ForCausalLM',
  'Qwen3_5ForConditionalGeneration',
  'Qwen3VLForConditionalGeneration',
  'Qwen3_5MoeForCausalLM',
  'Qwen3_5MoeForConditionalGeneration',
  'Step3p6ForConditionalGeneration',
  'Step3p5ForCausalLM',
  'InklingForConditionalGeneration',
  'Step3p7ForConditionalGeneration',
]);

/**
 * Registry classes that keep Hugging Face's decoder layers (transformers GradientCheckpointingLayer classes): Gemma 4's
 * dense variants keep "vanilla HF model" (components/models/gemma4_moe/model.py Gemma4ForConditionalGeneration.__init__
 * returns before replacing the text model unless enable_moe_block), and its layer-group spec lists only the language
 * model (parallelizer.py _get_model_layer_group_specs).
 */
export const AUTOMODEL_HF_LAYERS = new Set(['Gemma4ForConditionalGeneration']);

/**
 * Hugging Face classes whose `model_type` Liger patches on an instance (MODEL_TYPE_TO_APPLY_LIGER_FN: llama, mistral,
 * mixtral, gemma, gemma2, gemma3(_text), phi3, qwen2, qwen3(_moe), granite, olmo2, olmo3, glm4, smollm3, llama4): RMSNorm
 * by LigerRMSNorm and the gated MLP by LigerSwiGLUMLP / LigerGEGLUMLP / LigerPhi3SwiGLUMLP.
 */
export const LIGER_PATCHED = new Set([
  'LlamaForCausalLM',
  'MistralForCausalLM',
  'MixtralForCausalLM',
  'GemmaForCausalLM',
  'Gemma2ForCausalLM',
  'Gemma3ForCausalLM',
  'Gemma3ForConditionalGeneration',
  'Phi3ForCausalLM',
  'Qwen2ForCausalLM',
  'Qwen3ForCausalLM',
  'Qwen3MoeForCausalLM',
  'GraniteForCausalLM',
  'Olmo2ForCausalLM',
  'Olmo3ForCausalLM',
  'Glm4ForCausalLM',
  'SmolLM3ForCausalLM',
  'Llama4ForConditionalGeneration',
  'Llama4ForCausalLM',
]);

/** `model.backend.rms_norm` values whose module saves only its input and fp32 rstd (utils.py initialize_rms_norm_module). */
export const FUSED_NORM_BACKENDS = new Set(['torch_fp32', 'te']);

/**
 * Architectures whose own class builds its linears with initialize_linear_module (`model.backend.linear`: attention
 * projections, dense MLPs, shared experts and lm_head) and its routed experts with `model.backend.experts`
 * (components/models/{deepseek_v3,gpt_oss,qwen3_moe,…}); the other own classes (Llama, Qwen2, Qwen3, …) use nn.Linear.
 */
export const AUTOMODEL_BACKEND_LINEAR = new Set([
  'BagelForUnifiedMultimodal',
  'BagelForConditionalGeneration',
  'BailingMoeV2ForCausalLM',
  'DeepseekV3ForCausalLM',
  'DeepseekV32ForCausalLM',
  'DeepseekV4ForCausalLM',
  'Ernie4_5_MoeForCausalLM',
  'Glm4MoeForCausalLM',
  'Glm4MoeLiteForCausalLM',
  'GlmMoeDsaForCausalLM',
  'GptOssForCausalLM',
  'HyMT2ForCausalLM',
  'HYV3ForCausalLM',
  'KimiK25ForConditionalGeneration',
  'KimiK25VLForConditionalGeneration',
  'KimiK3ForConditionalGeneration',
  'KimiK3ForCausalLM',
  'KimiLinear48BForCausalLM',
  'KimiVLForConditionalGeneration',
  'LagunaForCausalLM',
  'MiMoV2FlashForCausalLM',
  'MiniMaxM2ForCausalLM',
  'MiniMaxM3SparseForConditionalGeneration',
  'Mistral4ForCausalLM',
  'Mistral3ForConditionalGeneration',
  'NemotronHForCausalLM',
  'Qwen3_5MoeForCausalLM',
  'Qwen3_5MoeForConditionalGeneration',
  'Qwen3MoeForCausalLM',
  'Qwen3NextForCausalLM',
  'Qwen3OmniMoeForConditionalGeneration',
  'Qwen3VLMoeForConditionalGeneration',
  'Step3p5ForCausalLM',
  'Step3p6ForConditionalGeneration',
  'Step3p7ForConditionalGeneration',
]);
