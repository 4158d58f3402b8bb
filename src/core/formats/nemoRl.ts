// NeMo-RL run configs (examples/configs/*.yaml), read on the merged view of their `defaults:` chain
// (src/core/defaultsChain.ts). The policy trains with one of two backends: megatron_cfg (Megatron-Core through
// Megatron-Bridge: nemo_rl/models/megatron/setup.py copies the sizes into the model provider and runs its
// __post_init__, so megatron-core's own checks apply — family `mcore`) or dtensor_cfg (PyTorch FSDP2 over Hugging Face
// or Automodel layers). Keys and types: nemo_rl/models/policy/__init__.py PolicyConfig at NVIDIA-NeMo/RL 7ea279a.
import type { RecipeDoc } from '../document.js';
import { resolveModelRef } from '../models/resolve.js';
import { childNode, isMapNode } from '../tree.js';
import type { FieldKind, TrainingValues, ValuesOf } from './fields.js';
import { readTable, scalarAt, type FieldLoc, type Table } from './table.js';
import type { TrainingTable } from './training.js';

/** NeMo-RL settings beyond the training fields: backends, batching, generation, reference model, teacher, cluster split. */
export const NEMO_RL_FIELDS = {
  megatronEnabled: 'bool',
  dtensorEnabled: 'bool',
  dtensorV2: 'bool',
  dpReplicate: 'int',
  dtensorLora: 'bool',
  dtensorCpuOffload: 'bool',
  torchOptimizer: 'str',
  torchOptimizerForeach: 'bool',
  torchOptimizerFused: 'bool',
  draftEnabled: 'bool',
  packing: 'bool',
  dynamicBatching: 'bool',
  trainMbTokens: 'int',
  logprobMbTokens: 'int',
  logprobBatch: 'int',
  logprobChunk: 'int',
  deferFp32Logits: 'bool',
  fusedLinearLogprobs: 'bool',
  offloadOptimizerForLogprob: 'bool',
  genBackend: 'str',
  colocated: 'bool',
  genGpusPerNode: 'int',
  genNodes: 'int',
  vllmTp: 'int',
  vllmPp: 'int',
  vllmEp: 'int',
  vllmUtil: 'num',
  vllmMaxLen: 'int',
  vllmPrecision: 'str',
  vllmKvDtype: 'str',
  vllmAsync: 'bool',
  trtllmTp: 'int',
  trtllmPp: 'int',
  trtllmUtil: 'num',
  trtllmMaxLen: 'int',
  trtllmPrecision: 'str',
  trtllmAsync: 'bool',
  klPenalty: 'num',
  forceOnPolicy: 'bool',
  importanceSampling: 'bool',
  numPrompts: 'int',
  numGenerations: 'int',
  dynamicSampling: 'bool',
  asyncGrpo: 'bool',
  teacherModel: 'str',
  teacherPrecision: 'str',
  teacherMegatron: 'bool',
  teacherDtensor: 'bool',
  teacherTp: 'int',
  teacherPp: 'int',
  teacherCp: 'int',
  teacherEp: 'int',
  teacherDtTp: 'int',
  teacherDtCp: 'int',
  teacherSeq: 'int',
  teacherLogprobBatch: 'int',
  topkLogits: 'int',
  gpusPerNode: 'int',
  numNodes: 'int',
  rewardModelEnv: 'any',
  /** On-policy distillation (algorithms/opd.py OnPolicyDistillationConfig): teachers on GPUs of their own. */
  segmentSize: 'int',
  opdEnabled: 'bool',
  opdTeachers: 'any',
  opdDedup: 'bool',
  opdNonColocated: 'bool',
  opdDefaultTeacherNodes: 'int',
  opdTeacherOverrides: 'any',
} as const satisfies Record<string, FieldKind>;
export type NemoRlField = keyof typeof NEMO_RL_FIELDS;
export type NemoRlValues = ValuesOf<typeof NEMO_RL_FIELDS>;

/** Where each NeMo-RL setting lives (policy/__init__.py, generation/vllm/config.py, generation/trtllm/config.py, algorithms/*.py). */
export const NEMO_RL_TABLE: Table<NemoRlField> = {
  paths: {
    megatronEnabled: ['policy.megatron_cfg.enabled'],
    dtensorEnabled: ['policy.dtensor_cfg.enabled'],
    dtensorV2: ['policy.dtensor_cfg._v2'],
    dpReplicate: ['policy.dtensor_cfg.dp_replicate_size'],
    dtensorLora: ['policy.dtensor_cfg.lora_cfg.enabled'],
    dtensorCpuOffload: ['policy.dtensor_cfg.cpu_offload'],
    // The DTensor backend's torch optimizer: get_class(optimizer.name)(params, **optimizer.kwargs) (dtensor_policy_worker.py).
    torchOptimizer: ['policy.optimizer.name'],
    torchOptimizerForeach: ['policy.optimizer.kwargs.foreach'],
    torchOptimizerFused: ['policy.optimizer.kwargs.fused'],
    draftEnabled: ['policy.draft.enabled'],
    packing: ['policy.sequence_packing.enabled'],
    dynamicBatching: ['policy.dynamic_batching.enabled'],
    trainMbTokens: ['policy.sequence_packing.train_mb_tokens', 'policy.dynamic_batching.train_mb_tokens'],
    logprobMbTokens: ['policy.sequence_packing.logprob_mb_tokens', 'policy.dynamic_batching.logprob_mb_tokens'],
    logprobBatch: ['policy.logprob_batch_size'],
    logprobChunk: ['policy.logprob_chunk_size'],
    deferFp32Logits: ['policy.megatron_cfg.defer_fp32_logits'],
    fusedLinearLogprobs: ['policy.megatron_cfg.use_fused_linear_logprobs'],
    offloadOptimizerForLogprob: ['policy.offload_optimizer_for_logprob'],
    genBackend: ['policy.generation.backend'],
    colocated: ['policy.generation.colocated.enabled'],
    genGpusPerNode: ['policy.generation.colocated.resources.gpus_per_node'],
    genNodes: ['policy.generation.colocated.resources.num_nodes'],
    vllmTp: ['policy.generation.vllm_cfg.tensor_parallel_size'],
    vllmPp: ['policy.generation.vllm_cfg.pipeline_parallel_size'],
    vllmEp: ['policy.generation.vllm_cfg.expert_parallel_size'],
    vllmUtil: ['policy.generation.vllm_cfg.gpu_memory_utilization'],
    vllmMaxLen: ['policy.generation.vllm_cfg.max_model_len'],
    vllmPrecision: ['policy.generation.vllm_cfg.precision'],
    vllmKvDtype: ['policy.generation.vllm_cfg.kv_cache_dtype'],
    vllmAsync: ['policy.generation.vllm_cfg.async_engine'],
    trtllmTp: ['policy.generation.trtllm_cfg.tensor_parallel_size'],
    trtllmPp: ['policy.generation.trtllm_cfg.pipeline_parallel_size'],
    trtllmUtil: ['policy.generation.trtllm_cfg.gpu_memory_utilization'],
    trtllmMaxLen: ['policy.generation.trtllm_cfg.max_model_len'],
    trtllmPrecision: ['policy.generation.trtllm_cfg.precision'],
    trtllmAsync: ['policy.generation.trtllm_cfg.async_engine'],
    klPenalty: ['loss_fn.reference_policy_kl_penalty'],
    forceOnPolicy: ['loss_fn.force_on_policy_ratio'],
    importanceSampling: ['loss_fn.use_importance_sampling_correction'],
    numPrompts: ['grpo.num_prompts_per_step', 'distillation.num_prompts_per_step'],
    numGenerations: ['grpo.num_generations_per_prompt', 'distillation.num_generations_per_prompt'],
    dynamicSampling: ['grpo.use_dynamic_sampling'],
    asyncGrpo: ['grpo.async_grpo.enabled'],
    teacherModel: ['teacher.model_name'],
    teacherPrecision: ['teacher.precision'],
    teacherMegatron: ['teacher.megatron_cfg.enabled'],
    teacherDtensor: ['teacher.dtensor_cfg.enabled'],
    teacherTp: ['teacher.megatron_cfg.tensor_model_parallel_size'],
    teacherPp: ['teacher.megatron_cfg.pipeline_model_parallel_size'],
    teacherCp: ['teacher.megatron_cfg.context_parallel_size'],
    teacherEp: ['teacher.megatron_cfg.expert_model_parallel_size'],
    teacherDtTp: ['teacher.dtensor_cfg.tensor_parallel_size'],
    teacherDtCp: ['teacher.dtensor_cfg.context_parallel_size'],
    teacherSeq: ['teacher.max_total_sequence_length'],
    teacherLogprobBatch: ['teacher.logprob_batch_size', 'teacher.train_micro_batch_size'],
    topkLogits: ['distillation.topk_logits_k'],
    gpusPerNode: ['cluster.gpus_per_node'],
    numNodes: ['cluster.num_nodes'],
    rewardModelEnv: ['env.reward_model'],
    segmentSize: ['cluster.segment_size'],
    opdEnabled: ['on_policy_distillation.enabled'],
    opdTeachers: ['on_policy_distillation.teacher_model_by_agent_name'],
    opdDedup: ['on_policy_distillation.deduplicate_shared_teacher_checkpoints'],
    opdNonColocated: ['on_policy_distillation.non_colocated_teachers.enabled'],
    opdDefaultTeacherNodes: ['on_policy_distillation.non_colocated_teachers.default_teacher_cfg.num_nodes'],
    opdTeacherOverrides: ['on_policy_distillation.non_colocated_teachers.teacher_overrides'],
  },
};

/** The algorithm a config runs, by its section (examples/run_<algorithm>.py reads master_config.<algorithm>). */
export type RlAlgorithm = 'grpo' | 'distillation' | 'dpo' | 'rm' | 'sft';
const ALGORITHMS: readonly RlAlgorithm[] = ['distillation', 'grpo', 'dpo', 'rm', 'sft'];

export interface NemoRlRead {
  values: NemoRlValues;
  loc: Partial<Record<NemoRlField, FieldLoc>>;
  algorithm?: RlAlgorithm;
  /** Which training backend the policy uses: megatron_cfg wins when both are enabled (lm_policy.py raises then, RL-N1). */
  backend?: 'megatron' | 'dtensor';
  /** The training world and how it follows from the cluster and the generation placement (undefined: unknown, with why). */
  world: { size: number; note?: string } | { unknown: string };
  /** The generation cluster: the training GPUs when colocated, else its own. */
  genWorld: { size: number; gpusPerNode: number } | { unknown: string };
  /** Every `defaults:` parent was read: a key the merged view lacks is really absent. */
  complete: boolean;
}

export function readNemoRl(doc: RecipeDoc): NemoRlRead {
  const { values: v, loc } = readTable(doc, NEMO_RL_TABLE, NEMO_RL_FIELDS);
  const algorithm = ALGORITHMS.find((a) => isMapNode(childNode(doc.root, a)));
  const backend = v.megatronEnabled === true ? 'megatron' : v.dtensorEnabled === true ? 'dtensor' : undefined;
  const split = clusterSplit(v, algorithm);
  return { values: v, loc, algorithm, backend, ...split, complete: doc.chain?.complete ?? true };
}

const pos = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1;

/**
 * The GPUs training and generation run on. SFT, DPO and RM train on the whole cluster (sft.py, dpo.py, rm.py setup);
 * GRPO and distillation share it with colocated generation, or give non-colocated generation its own GPUs: on one
 * node `resources.gpus_per_node` of them, else `resources.num_nodes` whole nodes (grpo.py and distillation.py setup).
 */
function clusterSplit(v: NemoRlValues, algorithm: RlAlgorithm | undefined): Pick<NemoRlRead, 'world' | 'genWorld'> {
  const gpn = v.gpusPerNode;
  const nodes = v.numNodes;
  if (!pos(gpn) || !pos(nodes))
    return { world: { unknown: 'cluster.gpus_per_node × num_nodes is not known' }, genWorld: { unknown: 'no cluster size' } };
  const whole = gpn * nodes;
  // Topology-aware placement picks the training nodes at run time in whole NVLink segments and drops bundles of
  // incomplete ones (distributed/virtual_cluster.py prepare_segment_topology, _sort_bundle_indices_by_topology).
  if (pos(v.segmentSize))
    return {
      world: {
        unknown: `cluster.segment_size ${v.segmentSize}: the training nodes are chosen at run time in whole NVLink segments (virtual_cluster.py), so the file does not fix the world size`,
      },
      genWorld: { unknown: 'placed by NVLink segment at run time' },
    };
  const generates = algorithm === 'grpo' || algorithm === 'distillation';
  if (!generates) return { world: { size: whole }, genWorld: { unknown: `${algorithm ?? 'this algorithm'} does not generate` } };
  // A reward-model environment takes GPUs of its own (grpo.py: rm_gpus_per_node / rm_nodes) when the data uses it.
  if (v.rewardModelEnv !== undefined && v.rewardModelEnv !== null && algorithm === 'grpo')
    return {
      world: { unknown: 'a reward-model environment (env.reward_model) takes GPUs of the cluster when the data uses it' },
      genWorld: { unknown: 'a reward-model environment shares the cluster' },
    };
  // Non-colocated on-policy-distillation teachers take whole nodes before training and generation split the rest.
  const teacherNodes = opdTeacherNodes(v);
  if (teacherNodes === null)
    return {
      world: { unknown: 'the non-colocated distillation teachers’ node counts are not known' },
      genWorld: { unknown: 'the teachers’ share of the cluster is not known' },
    };
  if (teacherNodes > 0) {
    const left = nodes - teacherNodes;
    if (left < 1) return { world: { unknown: 'the distillation teachers take every node' }, genWorld: { unknown: 'no nodes left' } };
    const teachers = `${nodes} nodes − ${teacherNodes} for non-colocated distillation teachers`;
    if (v.colocated !== false)
      return { world: { size: left * gpn, note: `${teachers}, × ${gpn} GPUs` }, genWorld: { size: left * gpn, gpusPerNode: gpn } };
    const gn = v.genNodes;
    if (left === 1 || !pos(gn) || gn >= left || v.genGpusPerNode !== gpn)
      return {
        world: { unknown: 'the non-colocated generation resources do not fit the nodes the teachers leave' },
        genWorld: { unknown: 'invalid resources' },
      };
    return {
      world: { size: (left - gn) * gpn, note: `${teachers} − ${gn} for non-colocated generation, × ${gpn} GPUs` },
      genWorld: { size: gn * gpn, gpusPerNode: gpn },
    };
  }
  if (v.colocated !== false) return { world: { size: whole }, genWorld: { size: whole, gpusPerNode: gpn } };
  const g = v.genGpusPerNode;
  const gn = v.genNodes;
  if (nodes === 1) {
    // grpo.py: the generation GPUs come out of the one node; num_nodes must be null or 1 (RL-N11 reports the rest).
    if (!pos(g) || g >= gpn || (gn !== null && gn !== undefined && gn !== 1))
      return {
        world: { unknown: 'the non-colocated generation resources do not fit the node' },
        genWorld: { unknown: 'invalid resources' },
      };
    return {
      world: { size: gpn - g, note: `${gpn} GPUs of the node − ${g} for non-colocated generation` },
      genWorld: { size: g, gpusPerNode: g },
    };
  }
  if (!pos(gn) || gn >= nodes || g !== gpn)
    return {
      world: { unknown: 'the non-colocated generation resources do not fit the cluster' },
      genWorld: { unknown: 'invalid resources' },
    };
  return {
    world: { size: (nodes - gn) * gpn, note: `${nodes} nodes − ${gn} for non-colocated generation, × ${gpn} GPUs` },
    genWorld: { size: gn * gpn, gpusPerNode: gpn },
  };
}

/**
 * Nodes the non-colocated on-policy-distillation teachers reserve (grpo.py setup: `policy_nodes -= opd_teacher_nodes`):
 * one teacher per checkpoint of teacher_model_by_agent_name (shared checkpoints once unless
 * deduplicate_shared_teacher_checkpoints is false), each default_teacher_cfg.num_nodes (1) unless teacher_overrides
 * names its own (teacher_worker_group.py create_teacher_configs_from_opd_config). 0 when off; null when not readable.
 */
function opdTeacherNodes(v: NemoRlValues): number | null {
  if (v.opdEnabled !== true || v.opdNonColocated !== true) return 0;
  const teachers = v.opdTeachers;
  if (!teachers || typeof teachers !== 'object' || Array.isArray(teachers)) return null;
  const overrides =
    v.opdTeacherOverrides && typeof v.opdTeacherOverrides === 'object' ? (v.opdTeacherOverrides as Record<string, unknown>) : {};
  const seen = new Set<unknown>();
  let total = 0;
  for (const [alias, model] of Object.entries(teachers as Record<string, unknown>)) {
    if (v.opdDedup !== false && seen.has(model)) continue;
    seen.add(model);
    const own = overrides[alias];
    const n =
      own && typeof own === 'object' && 'num_nodes' in own ? (own as { num_nodes: unknown }).num_nodes : (v.opdDefaultTeacherNodes ?? 1);
    if (!pos(n)) return null;
    total += n;
  }
  return total;
}

/** The model shape a rule can use, from the catalogue by an exact name (never a fuzzy match): layers, heads, groups, experts. */
function catalogueShape(name: unknown): TrainingValues {
  if (typeof name !== 'string' || !name.trim()) return {};
  const r = resolveModelRef(name, undefined, 'file');
  if (r.kind !== 'catalogue' || r.matchedBy === 'name-tokens' || r.matchedBy === 'name') return {};
  const s = r.shape;
  return { layers: s.layers, heads: s.heads, groups: s.kvHeads, ...(s.experts > 0 ? { experts: s.experts } : {}) };
}

/** policy.precision → the bf16/fp16 flags megatron/setup.py _apply_precision_config derives. */
function precisionFlags(doc: RecipeDoc): TrainingValues {
  const p = scalarAt(doc, ['policy', 'precision']);
  if (p === 'bfloat16') return { bf16: true, fp16: false };
  if (p === 'float16') return { bf16: false, fp16: true };
  if (p === 'float32') return { bf16: false, fp16: false };
  return {};
}

/** Values the Megatron backend derives: recompute from activation_checkpointing, FP8 from fp8_cfg, the model shape. */
function deriveMegatron(doc: RecipeDoc): TrainingValues {
  const out: TrainingValues = { ...precisionFlags(doc), ...catalogueShape(scalarAt(doc, ['policy', 'model_name'])) };
  // megatron/setup.py _apply_performance_config: activation_checkpointing turns recompute on, "full" uniform 1 layer by default.
  const ckpt = scalarAt(doc, ['policy', 'megatron_cfg', 'activation_checkpointing']);
  if (ckpt === true) {
    const g = scalarAt(doc, ['policy', 'megatron_cfg', 'recompute_granularity']);
    const gran = g === undefined || g === null ? 'full' : g;
    if (gran === 'full') Object.assign(out, { recomputeGranularity: 'full', recomputeMethod: 'uniform', recomputeLayers: 1 });
    else if (gran === 'selective') Object.assign(out, { recomputeGranularity: 'selective', recomputeMethod: null, recomputeLayers: null });
  } else if (ckpt === false) Object.assign(out, { recomputeGranularity: null });
  // megatron/setup.py: fp8_cfg is applied only when enabled.
  if (scalarAt(doc, ['policy', 'megatron_cfg', 'fp8_cfg', 'enabled']) === true) {
    const fp8 = scalarAt(doc, ['policy', 'megatron_cfg', 'fp8_cfg', 'fp8']);
    const recipe = scalarAt(doc, ['policy', 'megatron_cfg', 'fp8_cfg', 'fp8_recipe']);
    const param = scalarAt(doc, ['policy', 'megatron_cfg', 'fp8_cfg', 'fp8_param']);
    if (typeof fp8 === 'string') out.fp8 = fp8;
    if (typeof recipe === 'string') out.fp8Recipe = recipe;
    if (typeof param === 'boolean') out.fp8Param = param;
  } else out.fp8 = null;
  return out;
}

/** Values the DTensor backend derives: activation_checkpointing is a full recompute of every layer (FSDP2 checkpoint wrappers). */
function deriveDtensor(doc: RecipeDoc): TrainingValues {
  const out: TrainingValues = { ...precisionFlags(doc), pp: 1 };
  const ckpt = scalarAt(doc, ['policy', 'dtensor_cfg', 'activation_checkpointing']);
  if (ckpt === true) Object.assign(out, { recomputeGranularity: 'full', recomputeMethod: 'uniform', recomputeLayers: 1 });
  else if (ckpt === false) out.recomputeGranularity = null;
  return out;
}

/** The backend a policy trains with: megatron_cfg.enabled, else dtensor_cfg.enabled (lm_policy.py Policy.__init__). */
function selectBackend(doc: RecipeDoc): TrainingTable {
  const m = scalarAt(doc, ['policy', 'megatron_cfg', 'enabled']);
  const d = scalarAt(doc, ['policy', 'dtensor_cfg', 'enabled']);
  return m !== true && d === true ? NEMO_RL_DTENSOR : NEMO_RL_MEGATRON;
}

function trainingWorld(doc: RecipeDoc): { size: number; note?: string } | null {
  const w = readNemoRl(doc).world;
  return 'size' in w ? w : null;
}

const SHARED_PATHS: TrainingTable['paths'] = {
  devices: ['cluster.gpus_per_node'],
  nodes: ['cluster.num_nodes'],
  seq: ['policy.max_total_sequence_length'],
  mbs: ['policy.train_micro_batch_size'],
  gbs: ['policy.train_global_batch_size'],
  modelName: ['policy.model_name'],
  precision: ['policy.precision'],
};

/** Rules of rules/training.ts that NeMo-RL does not run, and why. */
const NEMO_RL_SKIPS: Readonly<Record<string, string>> = {
  'RL-R2':
    'NeMo-RL shards the global batch over data-parallel ranks itself and packs micro-batches by tokens (batched_data_dict.py shard_by_batch_size); RL-N7 and RL-N8 check it',
  'RL-R3':
    'NeMo-RL pads packed sequences to a multiple of 2·CP (models/megatron/data.py), so max_total_sequence_length needs no such multiple',
};

/** The Megatron-Core backend (policy.megatron_cfg; models/megatron/setup.py). */
export const NEMO_RL_MEGATRON: TrainingTable = {
  family: 'mcore',
  select: selectBackend,
  world: trainingWorld,
  derive: deriveMegatron,
  skipRules: NEMO_RL_SKIPS,
  paths: {
    ...SHARED_PATHS,
    tp: ['policy.megatron_cfg.tensor_model_parallel_size'],
    pp: ['policy.megatron_cfg.pipeline_model_parallel_size'],
    cp: ['policy.megatron_cfg.context_parallel_size'],
    ep: ['policy.megatron_cfg.expert_model_parallel_size'],
    etp: ['policy.megatron_cfg.expert_tensor_parallel_size'],
    sp: ['policy.megatron_cfg.sequence_parallel'],
    pipelineDtype: ['policy.megatron_cfg.pipeline_dtype'],
    firstStageLayers: ['policy.megatron_cfg.num_layers_in_first_pipeline_stage'],
    lastStageLayers: ['policy.megatron_cfg.num_layers_in_last_pipeline_stage'],
    recomputeModules: ['policy.megatron_cfg.recompute_modules'],
    fgOffload: ['policy.megatron_cfg.fine_grained_activation_offloading'],
    offloadModules: ['policy.megatron_cfg.offload_modules'],
    offloadFraction: ['policy.megatron_cfg.activation_offload_fraction'],
    distOpt: ['policy.megatron_cfg.optimizer.use_distributed_optimizer'],
    gradFp32: ['policy.megatron_cfg.distributed_data_parallel_config.grad_reduce_in_fp32'],
    gradAccFusion: ['policy.megatron_cfg.gradient_accumulation_fusion'],
    peft: ['policy.megatron_cfg.peft'],
    // MegatronConfig keys (policy/__init__.py) and the TransformerConfig fields model_overrides sets on the provider.
    envVars: ['policy.megatron_cfg.env_vars'],
    biasActFusion: ['policy.megatron_cfg.bias_activation_fusion'],
    attnBackend: ['policy.megatron_cfg.attention_backend'],
    transformerImpl: ['policy.megatron_cfg.transformer_impl'],
    cudaGraphImpl: ['policy.megatron_cfg.cuda_graph_impl'],
    cudaGraphScope: ['policy.megatron_cfg.cuda_graph_modules'],
    cudaGraphWarmup: ['policy.megatron_cfg.cuda_graph_warmup_steps'],
    moeDispatcher: ['policy.megatron_cfg.moe_token_dispatcher_type'],
    moeRouterDtype: ['policy.megatron_cfg.moe_router_dtype'],
    moePermuteFusion: ['policy.megatron_cfg.moe_permute_fusion'],
    precisionAwareOptim: ['policy.megatron_cfg.optimizer.use_precision_aware_optimizer'],
    mainParamsDtype: ['policy.megatron_cfg.optimizer.main_params_dtype'],
    expAvgDtype: ['policy.megatron_cfg.optimizer.exp_avg_dtype'],
    expAvgSqDtype: ['policy.megatron_cfg.optimizer.exp_avg_sq_dtype'],
    optimizerCpuOffload: ['policy.megatron_cfg.optimizer.optimizer_cpu_offload'],
    optimName: ['policy.megatron_cfg.optimizer.optimizer'],
    muonScalarOptim: ['policy.megatron_cfg.optimizer.muon_scalar_optimizer'],
    layerWiseOptim: ['policy.megatron_cfg.optimizer.use_layer_wise_distributed_optimizer'],
    sgdMomentum: ['policy.megatron_cfg.optimizer.sgd_momentum'],
    optimizerOffloadFraction: ['policy.megatron_cfg.optimizer.optimizer_offload_fraction'],
    // use_custom_fsdp: Megatron FSDP under its earlier DDP-config name.
    megatronFsdp: ['policy.megatron_cfg.distributed_data_parallel_config.use_custom_fsdp'],
    fsdpSharding: ['policy.megatron_cfg.distributed_data_parallel_config.data_parallel_sharding_strategy'],
    mtpLayers: ['policy.megatron_cfg.model_overrides.mtp_num_layers'],
    ceFusion: ['policy.megatron_cfg.model_overrides.cross_entropy_loss_fusion'],
    moeGroupedGemm: ['policy.megatron_cfg.model_overrides.moe_grouped_gemm'],
  },
  // NeMo-RL reads every megatron_cfg key it needs from the config (a KeyError otherwise): absent = unknown, except
  // what it never sets (VPP) and what megatron-core derives.
  defaults: { vpp: null, cpuOffloading: false },
};

/** The DTensor / FSDP2 backend (policy.dtensor_cfg): lm_policy.py checks only the world size against TP·CP. */
export const NEMO_RL_DTENSOR: TrainingTable = {
  family: 'mcore',
  select: selectBackend,
  world: trainingWorld,
  derive: deriveDtensor,
  onlyRules: ['RL-R1'],
  paths: {
    ...SHARED_PATHS,
    tp: ['policy.dtensor_cfg.tensor_parallel_size'],
    cp: ['policy.dtensor_cfg.context_parallel_size'],
    ep: ['policy.dtensor_cfg.expert_parallel_size'],
    sp: ['policy.dtensor_cfg.sequence_parallel'],
    envVars: ['policy.dtensor_cfg.env_vars'],
  },
  defaults: { pp: 1, vpp: null, ep: 1 },
};

/** The table formats/index.ts registers: it selects the backend's table per document. */
export const NEMO_RL = NEMO_RL_MEGATRON;
