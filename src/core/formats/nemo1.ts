// NeMo 1.x Hydra model configs (examples/nlp/language_modeling/conf/megatron_*_config.yaml; formats.md §1).
// megatron_base_model.py build_transformer_config fills megatron-core's TransformerConfig from NeMo's own keys first
// (bias → add_bias_linear, activation → gated_linear_unit, …), then from any `model.<field>` named as the dataclass
// field: the memory settings below are read under those megatron-core names.
import type { RecipeDoc } from '../document.js';
import type { PrecisionId } from '../memory/precision.js';
import { lookup } from '../tree.js';
import type { TrainingField, TrainingValues } from './fields.js';
import { MCORE_PARALLEL_DEFAULTS, type PrecisionWrite, type TrainingTable } from './training.js';

/** NeMo 1.x selects FP8 with model.fp8 (delayed scaling, TE); other recipes have no key there. */
function writePrecision(p: PrecisionId, file: TrainingValues): PrecisionWrite {
  const bf16 = file.precision === undefined || file.precision === 'bf16' || file.precision === 'bf16-mixed';
  if ((p === 'bf16' || p === 'fp8-delayed') && bf16) return { changes: { fp8: p === 'fp8-delayed' } };
  return { unwritable: 'a NeMo 1.x config switches only between BF16 and FP8 (model.fp8); set it by hand' };
}

export const NEMO1_PATHS: TrainingTable['paths'] = {
  tp: ['model.tensor_model_parallel_size'],
  pp: ['model.pipeline_model_parallel_size'],
  vpp: ['model.virtual_pipeline_model_parallel_size'],
  cp: ['model.context_parallel_size'],
  ep: ['model.expert_model_parallel_size'],
  etp: ['model.expert_tensor_parallel_size'],
  sp: ['model.sequence_parallel'],
  hcp: ['model.hierarchical_context_parallel_sizes'],
  cpCommType: ['model.cp_comm_type'],
  useTpPpDpMapping: ['model.use_tp_pp_dp_mapping'],
  overlapP2p: ['model.overlap_p2p_comm'],
  splitRank: ['model.pipeline_model_parallel_split_rank'],
  embedInSplit: ['model.account_for_embedding_in_pipeline_split'],
  lossInSplit: ['model.account_for_loss_in_pipeline_split'],
  firstStageLayers: ['model.num_layers_in_first_pipeline_stage'],
  lastStageLayers: ['model.num_layers_in_last_pipeline_stage'],
  ppLayout: ['model.pipeline_model_parallel_layout'],
  devices: ['trainer.devices'],
  nodes: ['trainer.num_nodes'],
  seq: ['model.encoder_seq_length'],
  // SFT and PEFT recipes (megatron_gpt_sft_model.py) build samples up to data.train_ds.max_seq_length.
  dataSeq: ['model.data.seq_length', 'model.data.train_ds.max_seq_length'],
  mbs: ['model.micro_batch_size'],
  gbs: ['model.global_batch_size'],
  layers: ['model.num_layers'],
  hidden: ['model.hidden_size'],
  ffn: ['model.ffn_hidden_size'],
  heads: ['model.num_attention_heads'],
  groups: ['model.num_query_groups'],
  headDim: ['model.kv_channels'],
  vocabDivisible: ['model.make_vocab_size_divisible_by'],
  tied: ['model.share_embeddings_and_output_weights'],
  activation: ['model.activation'],
  norm: ['model.normalization'],
  experts: ['model.num_moe_experts'],
  topK: ['model.moe_router_topk'],
  moeFfn: ['model.moe_ffn_hidden_size'],
  sharedFfn: ['model.moe_shared_expert_intermediate_size'],
  hiddenDropout: ['model.hidden_dropout'],
  attnDropout: ['model.attention_dropout'],
  tokLibrary: ['model.tokenizer.library'],
  tokType: ['model.tokenizer.type'],
  tokModel: ['model.tokenizer.model'],
  modelName: ['run.name', 'name'],
  checkpoint: ['model.restore_from_path'],
  // NeMo 1.x PEFT recipes (megatron_gpt_finetuning_config.yaml `peft.peft_scheme`: lora, ptuning, adapter, …).
  peft: ['model.peft.peft_scheme'],
  // NeVA and other NeMo multimodal configs: the language model is frozen while the projector trains.
  llmFrozen: ['model.mm_cfg.llm.freeze'],
  recomputeGranularity: ['model.activations_checkpoint_granularity'],
  recomputeMethod: ['model.activations_checkpoint_method'],
  recomputeLayers: ['model.activations_checkpoint_num_layers'],
  cpuOffloading: ['model.cpu_offloading'],
  offloadLayers: ['model.cpu_offloading_num_layers'],
  offloadActivations: ['model.cpu_offloading_activations'],
  fgOffload: ['model.fine_grained_activation_offloading'],
  precision: ['trainer.precision'],
  fp8: ['model.fp8'],
  fp8Param: ['model.fp8_params'],
  ampO2: ['model.megatron_amp_O2'],
  optimName: ['model.optim.name'],
  gradAccFusion: ['model.gradient_accumulation_fusion'],
  fsdp: ['model.fsdp'],
  tpCommOverlap: ['model.ub_tp_comm_overlap'],
  // megatron_base_model.py build_model_parallel_config copies every ModelParallelConfig field the model section holds.
  deferEmbeddingWgrad: ['model.defer_embedding_wgrad_compute'],
  wgradDeferralLimit: ['model.wgrad_deferral_limit'],
  // megatron_base_model.py config_mapping: add_bias_linear ← model.bias.
  linearBias: ['model.bias'],
  positionEmbedding: ['model.position_embedding_type'],
  maxPositions: ['model.max_position_embeddings'],
  qkNorm: ['model.qk_layernorm'],
  biasActFusion: ['model.bias_activation_fusion'],
  moeLayerFreq: ['model.moe_layer_freq'],
  routerBias: ['model.moe_router_enable_expert_bias'],
  moeDispatcher: ['model.moe_token_dispatcher_type'],
  moeCapacity: ['model.moe_expert_capacity_factor'],
  moePadToCapacity: ['model.moe_pad_expert_input_to_capacity'],
  moeRouterDtype: ['model.moe_router_dtype'],
  moePermuteFusion: ['model.moe_permute_fusion'],
  moeGroupedGemm: ['model.moe_grouped_gemm'],
  recomputeModules: ['model.recompute_modules'],
  ceFusion: ['model.cross_entropy_loss_fusion'],
  ceFusionImpl: ['model.cross_entropy_fusion_impl'],
  enableCudaGraph: ['model.enable_cuda_graph'],
  fp8Recipe: ['model.fp8_recipe'],
  bf16Layers: ['model.first_last_layers_bf16'],
  bf16LayersStart: ['model.num_layers_at_start_in_bf16'],
  bf16LayersEnd: ['model.num_layers_at_end_in_bf16'],
  mbGroupSize: ['model.microbatch_group_size_per_vp_stage'],
  // NeMo 1.x LoRA (megatron_gpt_finetuning_config.yaml peft.lora_tuning).
  loraRank: ['model.peft.lora_tuning.adapter_dim'],
  loraTargets: ['model.peft.lora_tuning.target_modules'],
  // The launcher's environment for the job (launcher_scripts/conf/config.yaml env_vars).
  envVars: ['env_vars'],
} satisfies Partial<Record<TrainingField, readonly string[]>>;

const scalarAt = (doc: RecipeDoc, path: string[]): unknown => {
  const n = lookup(doc.root, [...doc.detection.base, ...path])?.node;
  return n?.kind === 'scalar' ? n.value : undefined;
};

/**
 * NeMo 1.x Mamba models (megatron_mamba_config.yaml, megatron_mamba_model.py at NVIDIA/NeMo@022622e): MambaModel gets
 * hybrid_override_pattern (a null one allocates every layer as Mamba: hybrid_attention_ratio and hybrid_mlp_ratio 0),
 * vocab_size (default 65536), add_bias_linear (default False) and no share_embeddings_and_output_weights (False) nor
 * position_embedding_type ('none'). mamba_ssm_ngroups is not passed there (a TODO), so megatron-core's 8 applies.
 */
function deriveMamba(doc: RecipeDoc): TrainingValues {
  const hasKey = lookup(doc.root, [...doc.detection.base, 'model', 'hybrid_override_pattern']) !== undefined;
  const name = scalarAt(doc, ['name']);
  if (!hasKey && !(typeof name === 'string' && /^megatron_mamba/.test(name))) return {};
  const pattern = scalarAt(doc, ['model', 'hybrid_override_pattern']);
  const layers = scalarAt(doc, ['model', 'num_layers']);
  const vocab = scalarAt(doc, ['model', 'vocab_size']);
  const bias = scalarAt(doc, ['model', 'add_bias_linear']);
  const hybridPattern =
    typeof pattern === 'string' && pattern.trim()
      ? pattern.trim()
      : typeof layers === 'number' && Number.isInteger(layers) && layers >= 1 && layers <= 100_000
        ? 'M'.repeat(layers)
        : undefined;
  return {
    ...(hybridPattern ? { hybridPattern } : {}),
    vocab: typeof vocab === 'number' && Number.isInteger(vocab) ? vocab : 65536,
    tied: false,
    linearBias: typeof bias === 'boolean' ? bias : false,
    positionEmbedding: 'none',
  };
}

export const NEMO1: TrainingTable = {
  family: 'nemo1',
  paths: NEMO1_PATHS,
  derive: deriveMamba,
  writePrecision,
  // megatron_base_model.py / megatron_init.py read these with cfg.get(key, default).
  defaults: {
    ...MCORE_PARALLEL_DEFAULTS,
    nodes: 1,
    splitRank: null,
    cpuOffloading: false,
    fgOffload: false,
    tpCommOverlap: false,
    fsdp: false,
    fp8: false,
    tied: true,
  },
};
