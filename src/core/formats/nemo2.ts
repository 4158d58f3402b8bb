// NeMo 2.0 / NeMo-Run serialized configs (`_target_` trees; formats.md §3): kwargs of megatron-core's
// TransformerConfig / ModelParallelConfig, MegatronStrategy and the trainer, nested at varying depths, so each
// key is looked up anywhere in the tree. The values reach megatron-core as written (its defaults apply).
import type { RecipeDoc } from '../document.js';
import type { TreeNode } from '../tree.js';
import { MCORE_PARALLEL_DEFAULTS, type TrainingTable } from './training.js';

const MAX_CLASSES = 64;

/** The class names the tree instantiates, in document order (`_target_: nemo.collections.llm.Llama3Config8B` → Llama3Config8B). */
function targetClasses(doc: RecipeDoc): { modelClasses?: string[] } {
  const out: string[] = [];
  const rec = (n: TreeNode): void => {
    if (out.length >= MAX_CLASSES) return;
    if (n.kind === 'seq') for (const it of n.items) rec(it);
    else if (n.kind === 'map')
      for (const e of n.entries) {
        if (e.key === '_target_' && e.value.kind === 'scalar' && typeof e.value.value === 'string')
          out.push(e.value.value.split('.').pop() ?? '');
        rec(e.value);
      }
  };
  if (doc.root) rec(doc.root);
  return out.length ? { modelClasses: out } : {};
}

export const NEMO2: TrainingTable = {
  family: 'nemo2',
  paths: {},
  derive: targetClasses,
  anywhere: {
    tp: 'tensor_model_parallel_size',
    pp: 'pipeline_model_parallel_size',
    vpp: 'virtual_pipeline_model_parallel_size',
    cp: 'context_parallel_size',
    ep: 'expert_model_parallel_size',
    etp: 'expert_tensor_parallel_size',
    sp: 'sequence_parallel',
    hcp: 'hierarchical_context_parallel_sizes',
    cpCommType: 'cp_comm_type',
    useTpPpDpMapping: 'use_tp_pp_dp_mapping',
    overlapP2p: 'overlap_p2p_comm',
    pipelineDtype: 'pipeline_dtype',
    embedInSplit: 'account_for_embedding_in_pipeline_split',
    lossInSplit: 'account_for_loss_in_pipeline_split',
    firstStageLayers: 'num_layers_in_first_pipeline_stage',
    lastStageLayers: 'num_layers_in_last_pipeline_stage',
    ppLayout: 'pipeline_model_parallel_layout',
    devices: 'devices',
    nodes: 'num_nodes',
    seq: 'seq_length',
    mbs: 'micro_batch_size',
    gbs: 'global_batch_size',
    layers: 'num_layers',
    hidden: 'hidden_size',
    ffn: 'ffn_hidden_size',
    heads: 'num_attention_heads',
    groups: 'num_query_groups',
    headDim: 'kv_channels',
    vocab: 'vocab_size',
    tied: 'share_embeddings_and_output_weights',
    gated: 'gated_linear_unit',
    norm: 'normalization',
    experts: 'num_moe_experts',
    topK: 'moe_router_topk',
    moeFfn: 'moe_ffn_hidden_size',
    hiddenDropout: 'hidden_dropout',
    attnDropout: 'attention_dropout',
    recomputeGranularity: 'recompute_granularity',
    recomputeMethod: 'recompute_method',
    recomputeLayers: 'recompute_num_layers',
    recomputeModules: 'recompute_modules',
    cpuOffloading: 'cpu_offloading',
    offloadLayers: 'cpu_offloading_num_layers',
    fgOffload: 'fine_grained_activation_offloading',
    offloadModules: 'offload_modules',
    offloadFraction: 'activation_offload_fraction',
    fp16: 'fp16',
    bf16: 'bf16',
    fp8: 'fp8',
    fp8Recipe: 'fp8_recipe',
    fp8Param: 'fp8_param',
    fp4: 'fp4',
    fp4Recipe: 'fp4_recipe',
    fp4Param: 'fp4_param',
    distOpt: 'use_distributed_optimizer',
    gradFp32: 'grad_reduce_in_fp32',
    // The memory settings under their megatron-core names (TransformerConfig, OptimizerConfig,
    // DistributedDataParallelConfig), wherever the serialization nests them; peft is NeMo 2's llm.peft.LoRA node.
    sharedFfn: 'moe_shared_expert_intermediate_size',
    vocabDivisible: 'make_vocab_size_divisible_by',
    mbGroupSize: 'microbatch_group_size_per_vp_stage',
    overlapMoeComm: 'overlap_moe_expert_parallel_comm',
    deferEmbeddingWgrad: 'defer_embedding_wgrad_compute',
    wgradDeferralLimit: 'wgrad_deferral_limit',
    linearBias: 'add_bias_linear',
    qkvBias: 'add_qkv_bias',
    positionEmbedding: 'position_embedding_type',
    qkNorm: 'qk_layernorm',
    moeLayerFreq: 'moe_layer_freq',
    routerBias: 'moe_router_enable_expert_bias',
    mtpLayers: 'mtp_num_layers',
    mtpRepeated: 'mtp_use_repeated_layer',
    mtpPattern: 'mtp_hybrid_override_pattern',
    mla: 'multi_latent_attention',
    qLoraRank: 'q_lora_rank',
    kvLoraRank: 'kv_lora_rank',
    qkHeadDim: 'qk_head_dim',
    qkPosHeadDim: 'qk_pos_emb_head_dim',
    vHeadDim: 'v_head_dim',
    hybridPattern: 'hybrid_override_pattern',
    mambaStateDim: 'mamba_state_dim',
    mambaHeadDim: 'mamba_head_dim',
    mambaGroups: 'mamba_num_groups',
    mambaHeads: 'mamba_num_heads',
    bf16Layers: 'first_last_layers_bf16',
    bf16LayersStart: 'num_layers_at_start_in_bf16',
    bf16LayersEnd: 'num_layers_at_end_in_bf16',
    distOptInstances: 'num_distributed_optimizer_instances',
    precisionAwareOptim: 'use_precision_aware_optimizer',
    mainParamsDtype: 'main_params_dtype',
    expAvgDtype: 'exp_avg_dtype',
    expAvgSqDtype: 'exp_avg_sq_dtype',
    optimizerCpuOffload: 'optimizer_cpu_offload',
    optimName: 'optimizer',
    muonScalarOptim: 'muon_scalar_optimizer',
    layerWiseOptim: 'use_layer_wise_distributed_optimizer',
    sgdMomentum: 'sgd_momentum',
    optimizerOffloadFraction: 'optimizer_offload_fraction',
    fsdpSharding: 'data_parallel_sharding_strategy',
    gradAccFusion: 'gradient_accumulation_fusion',
    attnBackend: 'attention_backend',
    ceFusion: 'cross_entropy_loss_fusion',
    ceFusionImpl: 'cross_entropy_fusion_impl',
    biasActFusion: 'bias_activation_fusion',
    squaredReluFusion: 'use_fused_weighted_squared_relu',
    cudaGraphImpl: 'cuda_graph_impl',
    cudaGraphScope: 'cuda_graph_scope',
    cudaGraphWarmup: 'cuda_graph_warmup_steps',
    enableCudaGraph: 'enable_cuda_graph',
    externalCudaGraph: 'external_cuda_graph',
    tpCommOverlap: 'tp_comm_overlap',
    moeDispatcher: 'moe_token_dispatcher_type',
    moeCapacity: 'moe_expert_capacity_factor',
    moePadToCapacity: 'moe_pad_expert_input_to_capacity',
    moeRouterDtype: 'moe_router_dtype',
    moePermuteFusion: 'moe_permute_fusion',
    moeGroupedGemm: 'moe_grouped_gemm',
    peft: 'peft',
  },
  // megatron/core/model_parallel_config.py and transformer_config.py dataclass defaults.
  defaults: {
    ...MCORE_PARALLEL_DEFAULTS,
    nodes: 1,
    cpuOffloading: false,
    fgOffload: false,
  },
};
