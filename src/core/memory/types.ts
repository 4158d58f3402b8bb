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
