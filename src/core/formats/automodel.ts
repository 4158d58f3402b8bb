// NeMo Automodel recipes (examples/llm_finetune, llm_benchmark, llm_pretrain, vlm_finetune, …): a recipe class, the
// Hugging Face model it loads, the distributed strategy with its parallel sizes, and the step scheduler. Automodel reads
// the file with yaml.safe_load (nemo_automodel/components/config/loader.py load_yaml_config) and parses `distributed:`
// in nemo_automodel/recipes/_dist_utils.py parse_distributed_section; keys and defaults at NVIDIA-NeMo/Automodel 36044ad.
import type { RecipeDoc } from '../document.js';
import type { FieldKind, TrainingValues, ValuesOf } from './fields.js';
import { readTable, scalarAt, type FieldLoc, type Table } from './table.js';
import type { TrainingTable } from './training.js';

/** Automodel settings beyond the training fields: strategy, data-parallel sizes, optimizer, LoRA matching, packing. */
export const AUTOMODEL_FIELDS = {
  recipeClass: 'any',
  modelTarget: 'str',
  strategy: 'str',
  /** The pre-0.5 spelling: `distributed._target_: …FSDP2Manager / MegatronFSDPManager / DDPManager`. */
  distTarget: 'str',
  dpSize: 'int',
  dpReplicate: 'int',
  activationCheckpointing: 'any',
  enableCompile: 'bool',
  reshardAfterForward: 'bool',
  moeReshardAfterForward: 'bool',
  deferGradSync: 'bool',
  pipeline: 'any',
  offloadPolicy: 'any',
  optimizerTarget: 'str',
  optimizerForeach: 'bool',
  optimizerFused: 'bool',
  masterWeights: 'bool',
  storeParamRemainders: 'bool',
  expAvgDtype: 'str',
  expAvgSqDtype: 'str',
  peftDim: 'int',
  peftTargets: 'any',
  peftExclude: 'any',
  peftMatchAll: 'bool',
  packedSize: 'int',
  fp8Enabled: 'bool',
  useLiger: 'bool',
  forceHf: 'bool',
  rmsNormBackend: 'str',
  linearBackend: 'str',
  expertsBackend: 'str',
  dispatcher: 'str',
  teFp8: 'any',
  lossTarget: 'str',
  lossUpcast: 'bool',
  freezeVisionTower: 'bool',
  freezeAudioTower: 'bool',
  freezeLanguageModel: 'bool',
  datasetTarget: 'str',
} as const satisfies Record<string, FieldKind>;
export type AutomodelField = keyof typeof AUTOMODEL_FIELDS;
export type AutomodelValues = ValuesOf<typeof AUTOMODEL_FIELDS>;

export const AUTOMODEL_TABLE: Table<AutomodelField> = {
  paths: {
    recipeClass: ['recipe'],
    modelTarget: ['model._target_'],
    strategy: ['distributed.strategy'],
    distTarget: ['distributed._target_'],
    dpSize: ['distributed.dp_size'],
    dpReplicate: ['distributed.dp_replicate_size'],
    activationCheckpointing: ['distributed.activation_checkpointing'],
    enableCompile: ['distributed.enable_compile'],
    reshardAfterForward: ['distributed.reshard_after_forward'],
    moeReshardAfterForward: ['distributed.moe.reshard_after_forward'],
    deferGradSync: ['distributed.defer_fsdp_grad_sync'],
    pipeline: ['distributed.pipeline'],
    offloadPolicy: ['distributed.offload_policy'],
    optimizerTarget: ['optimizer._target_'],
    optimizerForeach: ['optimizer.foreach'],
    optimizerFused: ['optimizer.fused'],
    masterWeights: ['optimizer.master_weights'],
    storeParamRemainders: ['optimizer.store_param_remainders'],
    expAvgDtype: ['optimizer.exp_avg_dtype'],
    expAvgSqDtype: ['optimizer.exp_avg_sq_dtype'],
    peftDim: ['peft.dim'],
    peftTargets: ['peft.target_modules'],
    peftExclude: ['peft.exclude_modules'],
    peftMatchAll: ['peft.match_all_linear'],
    packedSize: ['packed_sequence.packed_sequence_size'],
    fp8Enabled: ['fp8.enabled'],
    useLiger: ['model.use_liger_kernel'],
    forceHf: ['model.force_hf'],
    rmsNormBackend: ['model.backend.rms_norm'],
    linearBackend: ['model.backend.linear'],
    expertsBackend: ['model.backend.experts'],
    dispatcher: ['model.backend.dispatcher'],
    teFp8: ['model.backend.te_fp8'],
    lossTarget: ['loss_fn._target_'],
    lossUpcast: ['loss_fn.fp32_upcast'],
    freezeVisionTower: ['freeze_config.freeze_vision_tower'],
    freezeAudioTower: ['freeze_config.freeze_audio_tower'],
    freezeLanguageModel: ['freeze_config.freeze_language_model'],
    datasetTarget: ['dataset._target_'],
  },
};

export interface AutomodelRead {
  values: AutomodelValues;
  loc: Partial<Record<AutomodelField, FieldLoc>>;
  /** The strategy that runs, lower-cased: `strategy:`, else the pre-0.5 manager class, else fsdp2 (parse_distributed_section). */
  strategy: string;
  /** The recipe class by its last name, or undefined when the file names none (the LLM fine-tuning recipe runs). */
  recipe?: string;
}

const LEGACY_MANAGERS: [RegExp, string][] = [
  [/MegatronFSDPManager$/, 'megatron_fsdp'],
  [/FSDP2Manager$/, 'fsdp2'],
  [/DDPManager$/, 'ddp'],
];

/** The recipe class by its last name: `recipe: Name` or `recipe: {_target_: module.Name}`. */
function recipeName(r: unknown): string | undefined {
  const name =
    typeof r === 'string'
      ? r
      : r && typeof r === 'object' && typeof (r as { _target_?: unknown })._target_ === 'string'
        ? (r as { _target_: string })._target_
        : undefined;
  return name?.split('.').pop();
}

export function readAutomodel(doc: RecipeDoc): AutomodelRead {
  const { values, loc } = readTable(doc, AUTOMODEL_TABLE, AUTOMODEL_FIELDS);
  const s = values.strategy;
  const legacy = typeof values.distTarget === 'string' ? LEGACY_MANAGERS.find(([re]) => re.test(values.distTarget as string)) : undefined;
  const strategy = typeof s === 'string' ? s.toLowerCase() : (legacy?.[1] ?? 'fsdp2');
  const name = recipeName(values.recipeClass);
  return { values, loc, strategy, ...(name ? { recipe: name } : {}) };
}

/** The vision-language fine-tuning recipe (recipes/vlm/finetune.py), which reads its sample length from other keys. */
export const VLM_RECIPE = 'FinetuneRecipeForVLM';

const pos = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1;

/** distributed.activation_checkpointing as _dist_utils.py _normalize_activation_checkpointing reads it. */
export function checkpointingMode(v: unknown): 'full' | 'selective' | 'off' | 'invalid' {
  if (v === undefined || v === null || v === false) return 'off';
  if (v === true) return 'full';
  if (typeof v !== 'string') return 'invalid';
  const name = v.toLowerCase().replace(/-/g, '_');
  if (['false', 'off', 'none', 'disabled', 'no'].includes(name)) return 'off';
  if (['true', 'on', 'full', 'enabled', 'yes'].includes(name)) return 'full';
  return name === 'selective' ? 'selective' : 'invalid';
}

/**
 * Megatron FSDP on more than one GPU logs "Activation checkpointing is not yet supported with MegatronFSDP. Skipping."
 * and trains without it (components/distributed/megatron_fsdp.py MegatronFSDPManager.parallelize); `world` undefined
 * counts as more than one.
 */
export const checkpointingSkipped = (am: AutomodelRead, world: number | undefined): boolean =>
  am.strategy === 'megatron_fsdp' && checkpointingMode(am.values.activationCheckpointing) === 'full' && world !== 1;

/**
 * Sizes Automodel takes as 1 when the key is null or not positive (mesh_utils.py _degree), recompute from
 * activation_checkpointing (true / "full": every block is wrapped in a checkpoint, _dist_utils.py
 * _normalize_activation_checkpointing).
 */
function derive(doc: RecipeDoc): TrainingValues {
  const out: TrainingValues = { vpp: null };
  for (const [f, key] of [
    ['tp', 'tp_size'],
    ['pp', 'pp_size'],
    ['cp', 'cp_size'],
    ['ep', 'ep_size'],
  ] as const) {
    const x = scalarAt(doc, ['distributed', key]);
    if (x === undefined || x === null || (typeof x === 'number' && Number.isInteger(x) && x <= 0)) out[f] = 1;
  }
  const ac = checkpointingMode(scalarAt(doc, ['distributed', 'activation_checkpointing']));
  if (ac === 'full') Object.assign(out, { recomputeGranularity: 'full', recomputeMethod: 'uniform', recomputeLayers: 1 });
  else if (ac === 'off') out.recomputeGranularity = null;
  return out;
}

/** The world the mesh spans when the file fixes it: dp_size × tp × cp × pp (mesh_utils.py _create_fsdp2_device_mesh). */
function world(doc: RecipeDoc, file: TrainingValues): { size: number; note?: string } | undefined {
  const dp = scalarAt(doc, ['distributed', 'dp_size']);
  if (!pos(dp)) return undefined;
  const size = (x: unknown) => (pos(x) ? x : 1);
  const [tp, cp, pp] = [size(file.tp), size(file.cp), size(file.pp)];
  return { size: dp * tp * cp * pp, note: `dp_size ${dp} × tp ${tp} × cp ${cp} × pp ${pp}` };
}

/**
 * Rules of rules/training.ts Automodel runs: the world size against tp·cp·pp when dp_size is inferred
 * (mesh_utils.py _infer_dp_size) and the global batch against local_batch_size × dp_size (step_scheduler.py).
 */
const AUTOMODEL_BASE: TrainingTable = {
  family: 'automodel',
  select: packedOrNot,
  derive,
  world,
  onlyRules: ['RL-R1', 'RL-R2'],
  paths: {
    tp: ['distributed.tp_size'],
    pp: ['distributed.pp_size'],
    cp: ['distributed.cp_size'],
    ep: ['distributed.ep_size'],
    sp: ['distributed.sequence_parallel'],
    // The tokens of a sample: the dataset's fixed length (mock and pretraining datasets); packing overrides it below.
    seq: ['dataset.seq_len', 'dataset.seq_length'],
    mbs: ['step_scheduler.local_batch_size'],
    gbs: ['step_scheduler.global_batch_size'],
    trainIters: ['step_scheduler.max_steps'],
    numEpochs: ['step_scheduler.num_epochs'],
    loadsModel: ['model.pretrained_model_name_or_path', 'model.config.pretrained_model_name_or_path'],
    precision: ['model.torch_dtype'],
    // A config written inline (from_config with a config class, or AutoConfig.from_pretrained keyword overrides):
    // transformers PretrainedConfig names; they win over the named checkpoint's.
    layers: ['model.config.num_hidden_layers'],
    hidden: ['model.config.hidden_size'],
    heads: ['model.config.num_attention_heads'],
    groups: ['model.config.num_key_value_heads'],
    ffn: ['model.config.intermediate_size'],
    vocab: ['model.config.vocab_size'],
    experts: ['model.config.n_routed_experts', 'model.config.num_experts', 'model.config.num_local_experts'],
    topK: ['model.config.num_experts_per_tok'],
    moeFfn: ['model.config.moe_intermediate_size'],
  },
  // parse_distributed_section: sizes default to 1; Automodel has no virtual pipeline stages of Megatron's kind.
  defaults: { tp: 1, pp: 1, cp: 1, ep: 1, vpp: null, sp: false },
};

/** With packing on (packed_sequence_size > 0) a sample is a pack of that many tokens (datasets/llm/packed_sequence.py). */
const AUTOMODEL_PACKED: TrainingTable = {
  ...AUTOMODEL_BASE,
  paths: { ...AUTOMODEL_BASE.paths, seq: ['packed_sequence.packed_sequence_size'] },
};

/**
 * The VLM recipe's tokens per sample (recipes/_typed_config.py resolve_vlm_dataloader): with neat packing on
 * (packed_sequence.pack_size > 0) a pack of pack_size tokens, padded to collate_max_length when set
 * (datasets/vlm/neat_packing_vlm.py, collate_fns.py neat_packed_vlm_collater); otherwise the collate function's
 * max_length, to which default_collate_fn, gemma4_prefix_collate_fn, pad_collate_fn, kimi_vl_collate_fn and
 * nemotron_omni_collate_fn pad every sample (collate_fns.py: padding "max_length"), else the dataset's max_length, the
 * most tokens a (truncated) sample has. Image tokens are part of these sequences.
 */
const VLM_SEQ = {
  collate: 'dataloader.collate_fn.max_length',
  dataset: 'dataset.max_length',
  packCollate: 'packed_sequence.collate_max_length',
  pack: 'packed_sequence.pack_size',
} as const;
const AUTOMODEL_VLM: TrainingTable = {
  ...AUTOMODEL_BASE,
  paths: { ...AUTOMODEL_BASE.paths, seq: [VLM_SEQ.collate, VLM_SEQ.dataset] },
};
const AUTOMODEL_VLM_PACKED: TrainingTable = {
  ...AUTOMODEL_BASE,
  paths: { ...AUTOMODEL_BASE.paths, seq: [VLM_SEQ.packCollate, VLM_SEQ.pack] },
};

/** Which of the VLM recipe's length keys a sequence length was read from (its key path), or undefined. */
export function vlmSeqSource(path: string | undefined): 'collate' | 'dataset' | 'pack' | undefined {
  if (path === VLM_SEQ.collate) return 'collate';
  if (path === VLM_SEQ.dataset) return 'dataset';
  return path === VLM_SEQ.pack || path === VLM_SEQ.packCollate ? 'pack' : undefined;
}

function packedOrNot(doc: RecipeDoc): TrainingTable {
  if (recipeName(scalarAt(doc, ['recipe']) ?? scalarAt(doc, ['recipe', '_target_'])) === VLM_RECIPE)
    return pos(scalarAt(doc, ['packed_sequence', 'pack_size'])) ? AUTOMODEL_VLM_PACKED : AUTOMODEL_VLM;
  return pos(scalarAt(doc, ['packed_sequence', 'packed_sequence_size'])) ? AUTOMODEL_PACKED : AUTOMODEL_BASE;
}

/** The table formats/index.ts registers: it selects the packed or the fixed-length reading per document. */
export const AUTOMODEL = AUTOMODEL_BASE;
