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
  // What names the model: a tokenizer, a run or model name, an HF id.
  tokLibrary: 'str',
  tokType: 'str',
  tokModel: 'str',
  modelName: 'str',
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
  // Optimizer and data-parallel settings.
  optimName: 'str',
  distOpt: 'bool',
  gradFp32: 'bool',
  gradAccFusion: 'bool',
  fsdp: 'bool',
  tpCommOverlap: 'bool',
  avgInCollective: 'bool',
  perTokenLoss: 'bool',
  finetune: 'bool',
  peft: 'any',
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
