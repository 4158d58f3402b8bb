// Types of the memory model (issue: per-GPU training memory and TensorRT-LLM KV cache).

/** Architecture of a decoder-only transformer, as the memory model needs it. */
export interface ModelShape {
  /** Preset id or the file's own model name, for display. */
  name: string;
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
  /** Attention sliding window (gpt-oss alternates full and windowed layers). */
  slidingWindow?: { window: number; everyOther: boolean };
  /** Per-head RMSNorm on Q and K (Qwen3 `q_norm`/`k_norm`): 2 · headDim weights per layer. */
  qkNorm?: boolean;
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
  /** Multi-token prediction layers after the last decoder layer (DeepSeek-V3 num_nextn_predict_layers, Megatron mtp_num_layers). */
  mtpLayers?: number;
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
  /** Sandwich norms (Gemma 2/3): RMSNorm also after attention and after the MLP, 4 norms per layer instead of 2. */
  postNorms?: boolean;
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
}
