// Types of the memory model (issue: per-GPU training memory and TensorRT-LLM KV cache).

/** Architecture of a decoder-only transformer, as the memory model needs it. */
export interface ModelShape {
  /** Preset id or the file's own model name, for display. */
  name: string;
  /**
   * The Hugging Face model class (config.json `architectures[0]`, e.g. `LlamaForCausalLM`): which implementation a
   * framework that dispatches on it builds (NeMo Automodel's registry, Liger's patches). Undefined when not known.
   */
  architecture?: string;
  layers: number;
  hidden: number;
  /** Dense MLP width (per expert width is `moeFfn`). */
  ffn: number;
  heads: number;
  /** KV heads (num_query_groups); equals `heads` for MHA. */
  kvHeads: number;
  /** Per-head dimension (kv_channels), default hidden / heads. */
  headDim: number;
  /** Vocabulary size before Megatron's padding. */
  vocab: number;
  tiedEmbeddings: boolean;
  /** SwiGLU / GEGLU: the MLP has gate and up projections. */
  gatedMlp: boolean;
  norm: 'rmsnorm' | 'layernorm';
  /** MoE: experts per MoE layer (0 = dense). */
  experts: number;
  topK: number;
  moeFfn: number;
  /** Shared-expert MLP width per MoE layer (0 = none). */
  sharedExpertFfn: number;
  /** Leading dense layers before the MoE layers start (DeepSeek-V3: 3). */
  denseLayersBeforeMoe: number;
  /** Multi-head latent attention (DeepSeek): cache holds kv_lora_rank + qk_rope_head_dim per token and layer. */
  mla?: { kvLoraRank: number; qkRopeHeadDim: number; qLoraRank?: number; qkNopeHeadDim: number; vHeadDim: number };
  /**
   * DeepSeek Sparse Attention (DSA) lightning indexer on the MLA layers (HF DeepSeek-V3.2 / GLM-5 `index_n_heads`,
   * `index_head_dim`, `index_topk`; Megatron `dsa_indexer_*`): each query keeps its `topK` best keys by the indexer's score.
   * With `topKFreq` > 1 (HF `index_topk_freq`, GLM-5.2) only every topKFreq-th layer from `skipTopKOffset` on runs an
   * indexer; the others reuse its top-k and hold no indexer weights or indexer keys (Megatron dsa.py is_dsa_skip_topk_layer).
   */
  dsa?: { heads: number; headDim: number; topK: number; topKFreq?: number; skipTopKOffset?: number };
  /** Attention sliding window (gpt-oss alternates full and windowed layers). */
  slidingWindow?: { window: number; everyOther: boolean };
  /**
   * RMSNorm on Q and K: `true` per head (Qwen3 `q_norm`/`k_norm`, 2 · headDim weights per layer); `'full'` one norm over
   * all query heads and one over all key heads (MiniMax-M2 `qk_norm_type: per_layer`, (heads + kvHeads) · headDim weights).
   */
  qkNorm?: boolean | 'full';
  /** Attention projection biases: 'qkv' (Qwen2-style) or 'all' (q, k, v and o; gpt-oss `attention_bias`). */
  attentionBias?: 'qkv' | 'all';
  /** Learned per-head attention-sink logits (gpt-oss `sinks`): `heads` weights per layer, no KV cost. */
  attentionSinks?: boolean;
  /** MoE router bias (gpt-oss router bias, DeepSeek-V3 `e_score_correction_bias`): `experts` weights per MoE layer. */
  routerBias?: boolean;
  /** Biases on each routed expert's projections (gpt-oss `gate_up_proj_bias`, `down_proj_bias`). */
  expertBias?: boolean;
  /** Biases on every linear layer (Megatron `add_bias_linear`; GPT-3, StarCoder2, Falcon-style models). */
  linearBias?: boolean;
  /** Position embedding; `learned_absolute` adds maxPositionEmbeddings × hidden weights on the first stage. Default rope. */
  positionEmbedding?: 'rope' | 'learned_absolute' | 'alibi' | 'none';
  maxPositionEmbeddings?: number;
  /** MoE layer placement (Megatron `moe_layer_freq`): every k-th layer is MoE, or an explicit 0/1 per layer. Default: every layer from denseLayersBeforeMoe on. */
  moeLayerFreq?: number | number[];
  /** Shared experts per MoE layer (DeepSeek n_shared_experts); sharedExpertFfn is their total width. */
  sharedExperts?: number;
  /**
   * A sigmoid gate on the shared experts' output (HF Qwen2-MoE / Qwen3-Next / Qwen3.5 `shared_expert_gate`, Megatron
   * moe_shared_expert_gate): one 1 × hidden weight per MoE layer.
   */
  sharedExpertGate?: boolean;
  /** Multi-token prediction layers after the last decoder layer (DeepSeek-V3 num_nextn_predict_layers, Megatron mtp_num_layers). */
  mtpLayers?: number;
  /**
   * The layers of one MTP depth as hybrid characters (`*` attention, `E` MoE, `M` Mamba, `-` MLP): Megatron
   * hybrid_layer_pattern after `/` (hybrid_layer_allocation.py parse_hybrid_pattern), HF Nemotron-H
   * `mtp_hybrid_override_pattern` / `mtp_layers_block_type`. Unset: one layer of the last decoder layer's kind.
   */
  mtpPattern?: string;
  /**
   * One MTP block applied at every depth (Megatron mtp_use_repeated_layer, multi_token_prediction.py _build_layers): its
   * weights exist once, its activations once per depth.
   */
  mtpRepeated?: boolean;
  /**
   * Hybrid Mamba / attention stacks (Nemotron-H, Megatron `hybrid_override_pattern`): one character per layer,
   * `M` Mamba-2 mixer, `*` self-attention, `-` MLP, `E` MoE. `layers` is then the pattern's length.
   */
  hybridPattern?: string;
  /** Mamba-2 mixer shape (Megatron mamba_* / HF ssm_state_size, mamba_num_heads, mamba_head_dim, n_groups, conv_kernel). */
  mamba?: { stateDim: number; numHeads: number; headDim: number; groups: number; convKernel: number };
  /** MLP activation, where it matters beyond gatedMlp (squared-ReLU for Nemotron-4, GELU for GPT/StarCoder). */
  activation?: 'swiglu' | 'geglu' | 'gelu' | 'relu' | 'squared-relu' | 'silu';
  /**
   * Period of the local/global attention pattern when it is not simply alternating: of every N consecutive layers the
   * first N − 1 use `slidingWindow.window` and the N-th attends fully (HF Gemma 3 `sliding_window_pattern` 6; Llama 4
   * chunked attention with a NoPE global layer every 4th, `nope_layer_interval` 4). With `slidingWindow` it replaces
   * `everyOther` (which is the period 2).
   */
  slidingWindowPattern?: number;
  /**
   * Linear-attention (Gated DeltaNet) layers of hybrid stacks (HF Qwen3-Next / Qwen3.5 `full_attention_interval`,
   * `linear_*`): of every `fullAttentionInterval` layers the last is full attention, the others Gated DeltaNet with a
   * fixed-size recurrent state (no KV cache).
   */
  linearAttention?: {
    fullAttentionInterval: number;
    keyHeads: number;
    valueHeads: number;
    keyHeadDim: number;
    valueHeadDim: number;
    convKernel: number;
  };
  /** Gated attention (HF Qwen3-Next `attn_output_gate`): q_proj also emits a per-head output gate, doubling its width. */
  attentionOutputGate?: boolean;
  /**
   * Latent MoE (HF Nemotron 3 Super `moe_latent_size`): routed experts work in a latent space of this width, entered
   * through a hidden → latent projection and left through latent → hidden, so each expert is latent × moeFfn.
   */
  moeLatentSize?: number;
  /**
   * Final logit soft-capping (HF `final_logit_softcapping`, Gemma 2 and 4): the model returns cap · tanh(logits / cap), and
   * tanh saves its bf16 output for backward (modeling_gemma2.py, modeling_gemma4.py forward). Counted in the hf profile.
   */
  finalLogitSoftcap?: number;
  /** Sandwich norms (Gemma 2/3): RMSNorm also after attention and after the MLP, 4 norms per layer instead of 2. */
  postNorms?: boolean;
  /**
   * Global (full-attention) layers with their own geometry (HF Gemma 4 `global_head_dim`; `num_global_key_value_heads`
   * with `attention_k_eq_v`): which layers are global follows `slidingWindow` / `slidingWindowPattern`. With `kEqV` the
   * layer has no v_proj (V is the K projection before its norm), yet K and V are both cached.
   */
  globalAttention?: { headDim: number; kvHeads: number; kEqV: boolean };
  /**
   * KV-shared layers (HF Gemma 4 `num_kv_shared_layers`): the last N layers reuse the keys and values of the last earlier
   * layer of their attention type, so they have no k_proj / v_proj / k_norm and keep no KV cache of their own.
   */
  kvSharedLayers?: number;
  /** The KV-shared layers' MLP is twice `ffn` wide (HF Gemma 4 `use_double_wide_mlp`). */
  doubleWideSharedMlp?: boolean;
  /**
   * Per-layer embeddings (HF Gemma 4 PLE, `hidden_size_per_layer_input`, `vocab_size_per_layer_input`): a
   * vocab × (layers · width) lookup table with a hidden → layers · width projection on the first stage, and in each
   * layer a hidden → width gate and a width → hidden projection.
   */
  perLayerEmbedding?: { width: number; vocab: number };
  /**
   * Gemma 4 MoE layers (HF Gemma4TextDecoderLayer with `enable_moe_block`): the router has a hidden-wide input scale and a
   * per-expert scale, and the dense MLP beside the experts (`sharedExpertFfn`) and the experts are normed apart
   * (pre_feedforward_layernorm_2, post_feedforward_layernorm_1 and _2): 3 more hidden-wide norms.
   */
  moeBranchNorms?: boolean;
}

/** Where a value of the estimate came from. */
export type Provenance = 'file' | 'preset' | 'tokenizer' | 'modeline' | 'setting' | 'default';

export interface Assumption {
  /** What was assumed, e.g. "vocab = 128256". */
  what: string;
  /** Why / from where, e.g. "tokenizer meta-llama/Meta-Llama-3-8B". */
  source: string;
  provenance: Provenance;
}

export interface GpuSpec {
  id: string;
  name: string;
  /** Device memory in bytes as the CUDA runtime reports it (total_memory). */
  bytes: number;
  source: string;
  /** The host CPU's architecture where it is not x86_64 (Grace superchips are Arm): what Python wheels exist for it. */
  hostArch?: 'aarch64';
}
