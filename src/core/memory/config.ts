// The training settings the memory model reads, independent of the file format they came from.
import type { Fp4Recipe, Fp8Recipe } from './precision.js';

export type RecomputeGranularity = 'full' | 'selective' | null;
export type Profile = 'megatron' | 'hf';
export type Attention = 'flash' | 'eager';

export interface TrainingConfig {
  /** Full sequence length (before CP). */
  seq: number;
  microBatch: number;
  globalBatch?: number;
  tp: number;
  pp: number;
  /** Virtual pipeline size; null/1 = not interleaved. */
  vpp: number | null;
  cp: number;
  ep: number;
  etp: number;
  sp: boolean;
  /** World size when the file (or a setting) gives one. */
  worldSize?: number;
  recompute: { granularity: RecomputeGranularity; method: 'uniform' | 'block' | null; numLayers: number | null; modules: string[] };
  /** Layers whose activations are offloaded to CPU (0 = off). */
  offloadLayers: number;
  params: 'bf16' | 'fp16' | 'fp32';
  fp8: Fp8Recipe | null;
  fp4: Fp4Recipe | null;
  /** fp8_param / fp4_param: the model keeps only the quantized weight copy. */
  quantizedParams: boolean;
  distributedOptimizer: boolean;
  /** num_distributed_optimizer_instances: optimizer replicas over the data-parallel domain (each shards over DP·CP / n); default 1. */
  distOptInstances?: number;
  gradReduceInFp32: boolean;
  hiddenDropout: number;
  attentionDropout: number;
  profile: Profile;
  attention: Attention;

  // Optional settings: absent means the documented Megatron-Core / PyTorch default.

  /** microbatch_group_size_per_vp_stage (Megatron ModelParallelConfig); default PP. */
  microbatchGroupSize?: number;
  /** num_layers_in_first_pipeline_stage (Megatron-LM --decoder-first-pipeline-num-layers); default: even split. */
  layersInFirstStage?: number;
  /** num_layers_in_last_pipeline_stage (--decoder-last-pipeline-num-layers); default: even split. */
  layersInLastStage?: number;
  /** account_for_embedding_in_pipeline_split: the embedding takes one layer's slot on the first stage; default false. */
  embeddingInPipelineSplit?: boolean;
  /** account_for_loss_in_pipeline_split: the loss takes one layer's slot on the last stage; default false. */
  lossInPipelineSplit?: boolean;
  /** pipeline_model_parallel_layout, e.g. "Ettt|(tt|)*29,m|L"; default none. */
  pipelineLayout?: string;
  /** overlap_moe_expert_parallel_comm: one more warm-up micro-batch (interleaved) / co-scheduled 1F1B (PP 1); default false. */
  overlapMoeComm?: boolean;
  /** cross_entropy_loss_fusion + cross_entropy_fusion_impl: 'none' (Megatron default), 'native', 'te'. */
  crossEntropyFusion?: 'none' | 'native' | 'te';
  /** PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (launcher env_vars); default false. */
  expandableSegments?: boolean;
  /** MoE token dispatch and routing; defaults in MoeSettings. */
  moe?: MoeSettings;
  /** first_last_layers_bf16 with num_layers_at_start/end_in_bf16 under FP8/FP4; default none (all layers quantized). */
  bf16Layers?: { start: number; end: number };
  /**
   * Fully sharded data parallelism: 'megatron-fsdp' (use_megatron_fsdp, data_parallel_sharding_strategy optim_grads_params)
   * or 'fsdp2' (PyTorch fully_shard: NeMo-RL dtensor_cfg, NeMo Automodel, torchtitan). Default null: DDP (+ distributed optimizer).
   */
  fsdp?: 'megatron-fsdp' | 'fsdp2' | null;
  /**
   * FSDP2: the dtype of the resident sharded parameters (Automodel model.torch_dtype; NeMo-RL's DTensor policy loads
   * fp32). torch optimizers keep their moments in it (Automodel docs/guides/mixed-precision-training.mdx); TE FusedAdam
   * keeps its own (optimizerDtypes). Default fp32.
   */
  fsdpStorage?: 'bf16' | 'fp32';
  /**
   * hf profile: fused kernels in place of Hugging Face's eager modules. Default: eager, as hf-activations.md measured.
   */
  hfKernels?: HfKernels;
  /**
   * hf profile: the training loop keeps the model's output (the bf16 logits) referenced until backward ends, so they sit
   * beside the loss gradients (NeMo Automodel recipes/llm/train_ft.py holds `out` across `.backward()`). Default false.
   */
  heldLogits?: boolean;
  /**
   * hf profile: the loss; default PyTorch's cross entropy over the fp32 upcast of the logits (hf-activations.md). `bf16`:
   * the same without the upcast; `cut-cross-entropy`: no logits at all (apple/ml-cross-entropy).
   */
  hfLoss?: 'bf16' | 'cut-cross-entropy';
  /**
   * hf profile: the loop holds the model output with every layer's hidden states (output_hidden_states) through backward,
   * so each layer's bf16 output stays alive even where no kernel saves it (Automodel FusedLinearCrossEntropy runs).
   */
  heldHiddenStates?: boolean;
  /**
   * The GEMMs a low-precision recipe covers and how TE keeps their weights, where that is not Megatron's layout (every
   * decoder GEMM, copies sharded with FSDP). NeMo Automodel's model.backend.te_fp8 quantizes only the modules TE builds
   * (model.backend.linear te: attention, dense MLPs and lm_head; model.backend.experts te: the routed experts), and TE,
   * called with is_first_microbatch (components/training/utils.py prepare_for_grad_accumulation), keeps each module's
   * rowwise and columnwise quantized weight in its _fp8_workspaces across micro-batches, made from the all-gathered
   * weight, so FSDP does not shard the copies (TransformerEngine module/linear.py, module/grouped_linear.py).
   */
  teModules?: { dense: boolean; experts: boolean; output: boolean };
  /**
   * What a fully checkpointed layer keeps (hf profile). 'layer' (the default): its input, as Megatron and Hugging Face's
   * gradient checkpointing wrap the whole layer. 'submodule': NeMo Automodel's own classes on its dense path wrap
   * input_layernorm, self_attn, post_attention_layernorm and mlp one by one, so the layer keeps those four inputs
   * (components/distributed/activation_checkpointing.py apply_submodule_checkpointing). 'moe-block': Automodel's expert-
   * parallel path wraps the whole block and saves the router projection and top-k outputs too (moe/parallelizer.py apply_ac).
   */
  checkpointUnit?: 'layer' | 'submodule' | 'moe-block';
  /**
   * With checkpointUnit 'submodule', what besides mlp is wrapped. Default both: apply_submodule_checkpointing wraps
   * self_attn, input_layernorm and post_attention_layernorm, except self_attn in a model whose layers share K/V (Gemma 4
   * E2B/E4B: has_kv_sharing); under enable_compile only self_attn and mlp are wrapped (components/distributed/parallelizer.py).
   */
  checkpointWraps?: { attention: boolean; layerNorms: boolean };
  /**
   * FSDP2 fully_shard(reshard_after_forward=False): every unit keeps its all-gathered parameters from its forward to its
   * backward, so at the start of backward the rank holds the unsharded parameters of all its FSDP-managed modules (NeMo
   * Automodel's default under expert parallelism: components/distributed/config.py MoEParallelizerConfig). Default false:
   * one unit gathered at a time, with the prefetched next one.
   */
  fsdpKeepsGathered?: boolean;
  /**
   * The loop frees the gradients after each optimizer step (torch Optimizer.zero_grad, set_to_none by default) and
   * FSDP2 allocates them anew in backward: with one micro-batch per step the forward and the start of backward run
   * without gradients (NeMo Automodel recipes/llm/train_ft.py `opt.zero_grad()`; NeMo-RL dtensor_policy_worker.py before
   * each global batch; torchtitan train.py before each step). Default false: gradient buffers that
   * stay allocated (Megatron's main_grad buffers), or gradients accumulated over several micro-batches.
   */
  gradsFreedEachStep?: boolean;
  /**
   * FSDP2 set_requires_gradient_sync(False) on every micro-batch of a step but the last (NeMo Automodel
   * distributed.defer_fsdp_grad_sync, default true: components/distributed/utils.py get_sync_ctx; the pipeline's
   * reduce_grad_per_microbatch false): FSDP2 reduce-scatters nothing until then and keeps each parameter's unsharded
   * gradient, upcast to the reduce dtype (fp32), across the step's micro-batches (torch fsdp _fsdp_param_group.py
   * post_backward, _fsdp_param.py to_accumulated_grad_if_needed). Default false: gradients reduce-scattered per micro-batch.
   */
  fsdpDeferredGradSync?: boolean;
  /** LoRA: the base model is frozen; default null (full training). */
  peft?: LoraSettings | null;
  /**
   * use_precision_aware_optimizer with main_params_dtype / exp_avg_dtype / exp_avg_sq_dtype (Megatron OptimizerConfig);
   * default fp32 for all three (12 B per parameter, sharded with the distributed optimizer). Present exactly when
   * use_precision_aware_optimizer is on.
   */
  optimizerDtypes?: { mainParams?: StateDtype; expAvg?: StateDtype; expAvgSq?: StateDtype };
  /**
   * optimizer_cpu_offload with optimizer_offload_fraction (0–1): megatron-core's HybridDeviceOptimizer steps that share of
   * the optimizer's parameters on the host. Default absent: no HybridDeviceOptimizer.
   */
  optimizerCpuOffload?: number;
  /**
   * Which Adam kernel steps the parameters. 'fused' (default): TransformerEngine's or Apex's FusedAdam, which Megatron
   * imports when either is installed (megatron/core/optimizer/__init__.py), or torch AdamW(fused=True): in place.
   * 'foreach': torch.optim.AdamW's multi-tensor path (Megatron's fallback with neither installed; torch's default on
   * CUDA), whose step allocates one fp32 temporary per stepped element (torch/optim/adam.py _multi_tensor_adam,
   * `exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)`). 'for-loop': torch's per-parameter path
   * (foreach=False, fused=False: NeMo-RL's DTensor configs), whose temporaries are one parameter's.
   */
  adamKernel?: 'fused' | 'foreach' | 'for-loop';
  /**
   * The update rule (Megatron OptimizerConfig.optimizer) when it is not Adam: Muon (with muon_scalar_optimizer, Adam or
   * Lion, for the rest) or Lion (Adam for the rest) on the 2-D weights, or SGD (a momentum buffer when sgd_momentum > 0).
   * Sharded over the data-parallel group when `distributedOptimizer` is on (Muon, Lion: the layer-wise distributed
   * optimizer). Default absent: Adam.
   */
  optimizer?: OptimizerRule;
  /**
   * The layer-wise distributed optimizer (Muon, Lion) assigns whole parameters to data-parallel ranks, ping-pong by size
   * (layer_wise_optimizer.py _shard_params_ping_pong): Megatron-Bridge, Megatron-LM with --no-use-layer-wise-param-layout
   * or before its parameter layout (May 2026). Default false: Megatron-LM's layout, sharded evenly.
   */
  layerWisePingPong?: boolean;
  /**
   * fine_grained_activation_offloading with offload_modules (attn_norm, qkv_linear, core_attn, attn_proj, mlp_norm,
   * expert_fc1, moe_act) and activation_offload_fraction: what those modules save moves to the host. Default absent.
   */
  activationOffload?: { modules: OffloadModule[]; fraction: number };
  /**
   * defer_embedding_wgrad_compute with wgrad_deferral_limit (0: every micro-batch of the step): the last stage keeps that
   * many output-layer inputs and logits gradients until the drain. Default absent (off).
   */
  deferEmbeddingWgrad?: number;
  /** gradient_accumulation_fusion (Megatron-LM and Bridge default on; --no-gradient-accumulation-fusion): TE keeps dummy weight gradients. */
  gradAccumFusion?: boolean;
  /** transformer_impl: 'transformer_engine' (Megatron-Core default) or 'local' (Megatron's own layers, no TE workspace). */
  transformerImpl?: 'transformer_engine' | 'local';
  /** tp_comm_overlap (TE userbuffers): the userbuffers live outside the caching allocator, their GEMM workspace inside; default false. */
  tpCommOverlap?: boolean;
  /** CUBLAS_WORKSPACE_CONFIG (":SIZE_KiB:COUNT"), the size of each PyTorch cuBLAS workspace; default PyTorch's. */
  cublasWorkspaceConfig?: string;
  /** make_vocab_size_divisible_by (Megatron-LM --make-vocab-size-divisible-by); default 128. */
  vocabDivisibleBy?: number;
  /** CUDA graphs (cuda_graph_impl, cuda_graph_scope / cuda_graph_modules, cuda_graph_warmup_steps); default null (eager). */
  cudaGraph?: { impl: 'local' | 'transformer_engine' | 'full_iteration'; scope: string[]; warmupSteps?: number } | null;
}

/** cuda_graph_warmup_steps: eager iterations before the graphs are captured (Megatron TransformerConfig default). */
export const CUDA_GRAPH_WARMUP_STEPS = 3;

export type StateDtype = 'fp32' | 'bf16' | 'fp16' | 'fp8';
/** Muon or Lion for the 2-D weights and `scalar` for the rest (emerging_optimizers.py default_param_overrides), or SGD. */
export type OptimizerRule = { rule: 'muon' | 'lion'; scalar: 'adam' | 'lion' } | { rule: 'sgd'; momentum: boolean };
export const STATE_BYTES: Record<StateDtype, number> = { fp32: 4, bf16: 2, fp16: 2, fp8: 1 };

/** MoE runtime settings (Megatron TransformerConfig moe_*). */
export interface MoeSettings {
  /** moe_token_dispatcher_type; default 'allgather' (Megatron), Bridge recipes use 'alltoall' or 'flex'. */
  dispatcher?: 'alltoall' | 'allgather' | 'flex';
  /** moe_expert_capacity_factor; default null (dropless). */
  capacityFactor?: number | null;
  /** moe_pad_expert_input_to_capacity; default false. */
  padToCapacity?: boolean;
  /** moe_router_dtype; default null (the activation dtype). */
  routerDtype?: 'fp32' | 'fp64' | null;
  /** moe_permute_fusion (TE fused permute: int32 row-id maps instead of int64 indices); default false. */
  permuteFusion?: boolean;
  /** bias_activation_fusion for gated experts (weighted_bias_swiglu, Megatron default on); GELU experts never fuse the weighting. */
  activationFusion?: boolean;
  /**
   * use_fused_weighted_squared_relu: squared-ReLU experts weight by the probabilities in one function that saves only its
   * input and the probabilities (Megatron fusions/fused_weighted_squared_relu.py); default false.
   */
  squaredReluFusion?: boolean;
  /** moe_grouped_gemm (TE GroupedLinear over the local experts, with its multi-stream workspaces); default true here (Bridge recipes), false in Megatron-LM. */
  groupedGemm?: boolean;
}

/** LoRA (Megatron-Bridge peft/lora.py; NeMo 2 llm.peft.LoRA). */
export interface LoraSettings {
  /** Adapter rank `dim`; Bridge default 32. */
  rank: number;
  /** target_modules; Bridge default linear_qkv, linear_proj, linear_fc1, linear_fc2. */
  targets: string[];
  /** sequence_parallel_input_regather (Bridge); default false. */
  inputRegather?: boolean;
  /**
   * share_expert_adapters (Bridge peft/lora.py, default true): a grouped-GEMM expert linear gets one adapter shared by the
   * rank's local experts (NeMo 2's LoRA wraps the TE grouped linear the same way); false: one per local expert.
   */
  shareExpertAdapters?: boolean;
}

/** Recompute modules Megatron-Core accepts (TransformerConfig.recompute_modules). */
export const RECOMPUTE_MODULES = [
  'core_attn',
  'mlp',
  'moe_act',
  'layernorm',
  'mla_up_proj',
  'moe',
  'shared_experts',
  'gdn_norm_out',
] as const;

/** Bridge's LoRA default targets (peft/lora.py). */
export const LORA_DEFAULT_TARGETS = ['linear_qkv', 'linear_proj', 'linear_fc1', 'linear_fc2'];

/** The offload_modules of fine-grained activation offloading the memory model places (megatron-core transformer_config.py). */
export const OFFLOAD_MODULES = ['attn_norm', 'qkv_linear', 'core_attn', 'attn_proj', 'mlp_norm', 'expert_fc1', 'moe_act'] as const;
export type OffloadModule = (typeof OFFLOAD_MODULES)[number];

/** Derived sizes: data-parallel size and micro-batches per step. */
export function derived(c: TrainingConfig): { dp: number | undefined; microbatches: number | undefined } {
  const model = c.tp * c.pp * c.cp;
  const dp = c.worldSize && c.worldSize % model === 0 ? c.worldSize / model : undefined;
  const microbatches = dp && c.globalBatch && c.globalBatch % (c.microBatch * dp) === 0 ? c.globalBatch / (c.microBatch * dp) : undefined;
  return { dp, microbatches };
}

/**
 * Fused kernels in a Hugging Face-style layer. `norm`: each RMSNorm saves only its 16-bit input and fp32 rstd (Liger
 * ops/rms_norm.py LigerRMSNormFunction; NeMo Automodel's compiled Float32RMSNorm and TE RMSNorm) instead of the fp32
 * upcast and the normalized copy. `glu`: the gated MLP's activation saves only the gate and up outputs (Liger
 * ops/swiglu.py LigerSiLUMulFunction, ops/geglu.py) instead of also the activation's output.
 */
export interface HfKernels {
  norm: boolean;
  glu: boolean;
  /** Which implementation provides them, for the labels. */
  what: string;
}
