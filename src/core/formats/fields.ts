// The logical fields of a recipe, independent of the file format that holds them. Each format's table
// (src/core/formats/<format>.ts) says where a field lives in that format; everything else in the core reads
// fields, never paths.

/** How a field's value is read: anything else written there is unusable (the schema reports it) and reads as unknown. */
export type FieldKind = 'int' | 'num' | 'bool' | 'str' | 'list' | 'any';

interface KindType {
  int: number;
  num: number;
  bool: boolean;
  str: string;
  list: unknown[];
  any: unknown;
}

/** Fields of a training recipe (NeMo 1.x, the Launcher, NeMo 2, Megatron-Bridge, NeMo-RL's Megatron policy). */
export const TRAINING_FIELDS = {
  // Parallelism (formats.md §1.2, §4).
  tp: 'int',
  pp: 'int',
  vpp: 'int',
  cp: 'int',
  ep: 'int',
  etp: 'int',
  sp: 'bool',
  hcp: 'list',
  cpCommType: 'any',
  useTpPpDpMapping: 'bool',
  overlapP2p: 'bool',
  pipelineDtype: 'any',
  splitRank: 'int',
  embedInSplit: 'bool',
  lossInSplit: 'bool',
  firstStageLayers: 'int',
  lastStageLayers: 'int',
  ppLayout: 'any',
  /** microbatch_group_size_per_vp_stage: micro-batches run per virtual stage at a time (default PP). */
  mbGroupSize: 'int',
  /** overlap_moe_expert_parallel_comm: EP all-to-all overlapped with another micro-batch's compute. */
  overlapMoeComm: 'bool',
  /** defer_embedding_wgrad_compute and wgrad_deferral_limit: the last stage defers the output layer's weight gradients to the drain. */
  deferEmbeddingWgrad: 'bool',
  wgradDeferralLimit: 'int',
  /** Megatron-LM --num-virtual-stages-per-pipeline-rank and --num-layers-per-virtual-pipeline-stage (VPP in other words). */
  vStagesPerRank: 'int',
  layersPerVStage: 'int',
  // World size.
  devices: 'int',
  nodes: 'int',
  // Sequence and batch.
  seq: 'int',
  dataSeq: 'int',
  mbs: 'int',
  gbs: 'int',
  trainIters: 'int',
  trainSamples: 'int',
  numEpochs: 'num',
  // Model shape (formats.md §8).
  layers: 'int',
  hidden: 'int',
  ffn: 'int',
  heads: 'int',
  groups: 'int',
  headDim: 'int',
  vocab: 'int',
  vocabDivisible: 'int',
  tied: 'bool',
  activation: 'str',
  gated: 'bool',
  norm: 'str',
  experts: 'int',
  topK: 'int',
  moeFfn: 'int',
  sharedFfn: 'int',
  hiddenDropout: 'num',
  attnDropout: 'num',
  // Model structure beyond the sizes (ModelShape; megatron-core TransformerConfig / MLATransformerConfig names).
  /** add_bias_linear: biases on every linear layer. */
  linearBias: 'bool',
  /** add_qkv_bias: biases on the QKV projection only. */
  qkvBias: 'bool',
  positionEmbedding: 'str',
  maxPositions: 'int',
  /** qk_layernorm: per-head norms on Q and K. */
  qkNorm: 'bool',
  /** moe_layer_freq: an int (every k-th layer is MoE), a 0/1 list, or a Python list expression ("([0]*3+[1]*13)"). */
  moeLayerFreq: 'any',
  /** moe_router_enable_expert_bias: a per-expert router bias. */
  routerBias: 'bool',
  mtpLayers: 'int',
  /** mtp_use_repeated_layer: one MTP block for every depth; mtp_hybrid_override_pattern: the layers of one depth. */
  mtpRepeated: 'bool',
  mtpPattern: 'str',
  /** multi_latent_attention and its ranks and head sizes. */
  mla: 'bool',
  qLoraRank: 'int',
  kvLoraRank: 'int',
  qkHeadDim: 'int',
  qkPosHeadDim: 'int',
  vHeadDim: 'int',
  /** hybrid_layer_pattern (Mamba / attention / MLP / MoE per layer) and the Mamba mixer's sizes. */
  hybridPattern: 'str',
  mambaStateDim: 'int',
  mambaHeadDim: 'int',
  mambaGroups: 'int',
  mambaHeads: 'int',
  // What names the model: a tokenizer, a run or model name, an HF id.
  tokLibrary: 'str',
  tokType: 'str',
  tokModel: 'str',
  modelName: 'str',
  /** The Hugging Face id or path the run loads its model from (Automodel model.pretrained_model_name_or_path). */
  loadsModel: 'str',
  /** Class names a NeMo 2 tree instantiates (`_target_` last segments), e.g. Llama3Config8B. */
  modelClasses: 'list',
  /** A checkpoint the recipe starts from (NeMo `restore_from_path`, Megatron-Bridge `checkpoint.pretrained_checkpoint`). */
  checkpoint: 'str',
  /** A multimodal recipe that freezes its language model (NeMo `mm_cfg.llm.freeze`). */
  llmFrozen: 'bool',
  // Recompute and offload (formats.md §1.4, §4).
  recomputeGranularity: 'str',
  recomputeMethod: 'str',
  recomputeLayers: 'int',
  recomputeModules: 'list',
  cpuOffloading: 'bool',
  offloadLayers: 'int',
  offloadActivations: 'bool',
  fgOffload: 'bool',
  /** offload_modules: the modules whose saved tensors fine-grained activation offloading moves to the host. */
  offloadModules: 'list',
  /** activation_offload_fraction: the first share of the eligible offload groups, in forward order. */
  offloadFraction: 'num',
  // Precision (formats.md §1.5, §4).
  precision: 'any',
  mixedPrecision: 'any',
  fp16: 'bool',
  bf16: 'bool',
  fp8: 'any',
  fp8Recipe: 'str',
  fp8Param: 'bool',
  fp4: 'any',
  fp4Recipe: 'str',
  fp4Param: 'bool',
  ampO2: 'bool',
  /** first_last_layers_bf16 with num_layers_at_start_in_bf16 / num_layers_at_end_in_bf16 under FP8 / FP4. */
  bf16Layers: 'bool',
  bf16LayersStart: 'int',
  bf16LayersEnd: 'int',
  // Optimizer and data-parallel settings.
  /** The optimizer: Megatron OptimizerConfig.optimizer (adam, sgd, muon, dist_muon, lion, …) or NeMo 1.x optim.name. */
  optimName: 'str',
  /** muon_scalar_optimizer (adam, lion), use_layer_wise_distributed_optimizer, sgd_momentum (Megatron OptimizerConfig). */
  muonScalarOptim: 'str',
  layerWiseOptim: 'bool',
  /** Megatron-LM's precomputed layer-wise parameter layout (--no-use-layer-wise-param-layout turns it off). */
  layerWiseLayout: 'bool',
  sgdMomentum: 'num',
  distOpt: 'bool',
  /** num_distributed_optimizer_instances: optimizer replicas over the data-parallel domain. */
  distOptInstances: 'int',
  /** use_precision_aware_optimizer and the dtypes it keeps (a name, or a torch dtype as a Bridge dump writes it). */
  precisionAwareOptim: 'bool',
  mainParamsDtype: 'any',
  expAvgDtype: 'any',
  expAvgSqDtype: 'any',
  /** optimizer_cpu_offload and optimizer_offload_fraction: megatron-core's HybridDeviceOptimizer keeps that share of the optimizer on the host. */
  optimizerCpuOffload: 'bool',
  optimizerOffloadFraction: 'num',
  gradFp32: 'bool',
  gradAccFusion: 'bool',
  /** NeMo 1.x model.fsdp: PyTorch FSDP over data parallel. */
  fsdp: 'bool',
  /** use_megatron_fsdp with data_parallel_sharding_strategy; use_torch_fsdp2. */
  megatronFsdp: 'bool',
  fsdpSharding: 'str',
  torchFsdp2: 'bool',
  tpCommOverlap: 'bool',
  // Kernels and runtime that change what is allocated.
  transformerImpl: 'str',
  /** attention_backend (AttnBackend: flash, fused, unfused, local, auto). */
  attnBackend: 'any',
  /** cross_entropy_loss_fusion and cross_entropy_fusion_impl ('native' or 'te'). */
  ceFusion: 'bool',
  ceFusionImpl: 'str',
  /** bias_activation_fusion (gated experts fuse the routing weights into the activation). */
  biasActFusion: 'bool',
  /** use_fused_weighted_squared_relu (MoE squared-ReLU experts). */
  squaredReluFusion: 'bool',
  cudaGraphImpl: 'str',
  /** enable_cuda_graph (per-layer graphs, impl "local") and external_cuda_graph (impl "transformer_engine"), the older switches. */
  enableCudaGraph: 'bool',
  externalCudaGraph: 'bool',
  /** cuda_graph_scope / cuda_graph_modules: a list, or one string. */
  cudaGraphScope: 'any',
  /** cuda_graph_warmup_steps: eager iterations before capture. */
  cudaGraphWarmup: 'num',
  /** Environment variables the launcher exports (PYTORCH_CUDA_ALLOC_CONF, CUBLAS_WORKSPACE_CONFIG): a mapping. */
  envVars: 'any',
  // MoE runtime (TransformerConfig moe_*).
  moeDispatcher: 'str',
  moeCapacity: 'num',
  moePadToCapacity: 'bool',
  moeRouterDtype: 'str',
  moePermuteFusion: 'bool',
  moeGroupedGemm: 'bool',
  avgInCollective: 'bool',
  perTokenLoss: 'bool',
  finetune: 'bool',
  peft: 'any',
  /** LoRA adapter rank and target modules (Bridge / NeMo 2 `dim`, NeMo 1.x `adapter_dim`). */
  loraRank: 'int',
  loraTargets: 'any',
  /** Bridge LoRA sequence_parallel_input_regather. */
  loraRegather: 'bool',
  /** Bridge LoRA share_expert_adapters. */
  loraShareExperts: 'bool',
} as const satisfies Record<string, FieldKind>;

export type TrainingField = keyof typeof TRAINING_FIELDS;

/** Fields of a TensorRT-LLM serving configuration (one per server role of a disaggregated file). */
export const SERVING_FIELDS = {
  model: 'str',
  backend: 'str',
  tp: 'int',
  pp: 'int',
  cp: 'int',
  ep: 'int',
  attentionDp: 'bool',
  maxSeqLen: 'int',
  maxNumTokens: 'int',
  maxBatchSize: 'int',
  maxBeamWidth: 'int',
  kvConfig: 'any',
  kvDtype: 'str',
  tokensPerBlock: 'int',
  freeGpuMemoryFraction: 'num',
  topLevelFreeFraction: 'num',
  maxTokens: 'int',
  maxGpuTotalBytes: 'int',
  hostCacheSize: 'int',
  diskCacheSize: 'int',
  diskCachePath: 'str',
  enableBlockReuse: 'bool',
  enablePartialReuse: 'bool',
  copyOnPartialReuse: 'bool',
  onboardBlocks: 'bool',
  crossKvFraction: 'num',
  rebalance: 'bool',
  kvManagerV2: 'any',
  snapshotsFromStart: 'list',
  snapshotsFromEnd: 'list',
  branchSnapshot: 'bool',
  mambaInterval: 'int',
  mambaPeriodic: 'int',
  maxAttentionWindow: 'list',
  poolRatio: 'list',
  eventBufferMaxSize: 'int',
  secondaryOffloadMinPriority: 'int',
  kvEventsConfig: 'any',
  oldBlockReusePolicy: 'any',
  // What the memory a role holds depends on beyond the KV cache (estimate.ts, servingWeights.ts).
  lmHeadTpInAdp: 'bool',
  moeSlots: 'int',
  specType: 'str',
  specLayers: 'int',
  mambaSsmDtype: 'str',
  instances: 'int',
  worldSize: 'int',
  // A multimodal encoder worker (TorchLlmArgs mm_encoder_only): the vision encoder only, no KV cache.
  mmEncoderOnly: 'bool',
  // A perf-sanity server's AutoDeploy config, merged under its keys (formats/trtllmPerf.ts).
  extraConfig: 'str',
} as const satisfies Record<string, FieldKind>;

export type ServingField = keyof typeof SERVING_FIELDS;

/** Fields of a KvCacheRetentionConfig (formats.md §7); the ranges are read item by item (RETENTION_RANGE_FIELDS). */
export const RETENTION_FIELDS = {
  ranges: 'list',
  decodePriority: 'int',
  decodeDurationMs: 'int',
} as const satisfies Record<string, FieldKind>;
export type RetentionField = keyof typeof RETENTION_FIELDS;

export const RETENTION_RANGE_FIELDS = {
  start: 'int',
  end: 'int',
  priority: 'int',
  durationMs: 'int',
} as const satisfies Record<string, FieldKind>;
export type RetentionRangeField = keyof typeof RETENTION_RANGE_FIELDS;

/** The value type of each field: the kind's type, or null where the file writes null. */
export type ValuesOf<F extends Record<string, FieldKind>> = { -readonly [K in keyof F]?: KindType[F[K]] | null };

export type TrainingValues = ValuesOf<typeof TRAINING_FIELDS>;
export type ServingValues = ValuesOf<typeof SERVING_FIELDS>;
export type RetentionValues = ValuesOf<typeof RETENTION_FIELDS>;
export type RetentionRangeValues = ValuesOf<typeof RETENTION_RANGE_FIELDS>;

/** The value of `v` if it is of `kind`; null stays null; anything else is unusable (undefined). */
export function ofKind(kind: FieldKind, v: unknown): unknown {
  if (v === null) return null;
  switch (kind) {
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
    case 'num':
      return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
    case 'bool':
      return typeof v === 'boolean' ? v : undefined;
    case 'str':
      return typeof v === 'string' ? v : undefined;
    case 'list':
      return Array.isArray(v) ? v : undefined;
    default:
      return v;
  }
}
