// Megatron-Bridge ConfigContainer override YAML (src/megatron/bridge/training/config.py; formats.md §4). An
// override is merged onto a recipe the file does not show: a key it leaves out is unknown, so no defaults.
import type { PrecisionId } from '../memory/precision.js';
import type { TrainingField, TrainingValues } from './fields.js';
import type { FieldLoc } from './table.js';
import type { PrecisionWrite, TrainingTable } from './training.js';

/** Megatron-Bridge mixed-precision recipes by name (src/megatron/bridge/training/mixed_precision.py). */
export const BRIDGE_PRECISION_RECIPES: Partial<Record<PrecisionId, string>> = {
  bf16: 'bf16_mixed',
  fp16: 'fp16_mixed',
  'fp8-delayed': 'bf16_with_fp8_delayed_scaling_mixed',
  'fp8-tensorwise': 'bf16_with_fp8_current_scaling_mixed',
  'fp8-blockwise': 'bf16_with_fp8_subchannel_scaling_mixed',
  'fp8-mxfp8': 'bf16_with_mxfp8_mixed',
  nvfp4: 'bf16_with_nvfp4_mixed',
};

/** An override selects precision by recipe name (`mixed_precision: bf16_with_fp8_delayed_scaling_mixed`) unless it sets fields. */
function writePrecision(p: PrecisionId, _file: TrainingValues, loc: Partial<Record<TrainingField, FieldLoc>>): PrecisionWrite {
  const name = BRIDGE_PRECISION_RECIPES[p];
  // By name where the key is absent or a scalar (whatever it says now, even an unresolvable string); a mapping sets fields.
  const byName = !loc.mixedPrecision || loc.mixedPrecision.node === 'scalar';
  if (name && byName && !loc.fp8 && !loc.fp4) return { changes: { mixedPrecision: name } };
  return { unwritable: `this override sets precision field by field; set it by hand (or use mixed_precision: ${name ?? 'a recipe name'})` };
}

export const BRIDGE: TrainingTable = {
  family: 'bridge',
  defaults: {},
  writePrecision,
  paths: {
    tp: ['model.tensor_model_parallel_size'],
    pp: ['model.pipeline_model_parallel_size'],
    vpp: ['model.virtual_pipeline_model_parallel_size'],
    cp: ['model.context_parallel_size'],
    ep: ['model.expert_model_parallel_size'],
    etp: ['model.expert_tensor_parallel_size'],
    sp: ['model.sequence_parallel'],
    hcp: ['model.hierarchical_context_parallel_sizes'],
    cpCommType: ['model.cp_comm_type'],
    useTpPpDpMapping: ['dist.use_tp_pp_dp_mapping'],
    overlapP2p: ['model.overlap_p2p_comm'],
    pipelineDtype: ['model.pipeline_dtype', 'mixed_precision.pipeline_dtype'],
    embedInSplit: ['model.account_for_embedding_in_pipeline_split'],
    lossInSplit: ['model.account_for_loss_in_pipeline_split'],
    firstStageLayers: ['model.num_layers_in_first_pipeline_stage'],
    lastStageLayers: ['model.num_layers_in_last_pipeline_stage'],
    ppLayout: ['model.pipeline_model_parallel_layout'],
    seq: ['model.seq_length'],
    dataSeq: ['dataset.seq_length'],
    mbs: ['train.micro_batch_size'],
    gbs: ['train.global_batch_size'],
    trainIters: ['train.train_iters'],
    trainSamples: ['train.train_samples'],
    numEpochs: ['train.num_epochs'],
    layers: ['model.num_layers'],
    hidden: ['model.hidden_size'],
    ffn: ['model.ffn_hidden_size'],
    heads: ['model.num_attention_heads'],
    groups: ['model.num_query_groups'],
    headDim: ['model.kv_channels'],
    vocab: ['model.vocab_size'],
    vocabDivisible: ['model.make_vocab_size_divisible_by'],
    tied: ['model.share_embeddings_and_output_weights'],
    gated: ['model.gated_linear_unit'],
    norm: ['model.normalization'],
    experts: ['model.num_moe_experts'],
    topK: ['model.moe_router_topk'],
    moeFfn: ['model.moe_ffn_hidden_size'],
    sharedFfn: ['model.moe_shared_expert_intermediate_size'],
    hiddenDropout: ['model.hidden_dropout'],
    attnDropout: ['model.attention_dropout'],
    tokType: ['tokenizer.tokenizer_model', 'tokenizer.hf_tokenizer_path'],
    checkpoint: ['checkpoint.pretrained_checkpoint'],
    recomputeGranularity: ['model.recompute_granularity'],
    recomputeMethod: ['model.recompute_method'],
    recomputeLayers: ['model.recompute_num_layers'],
    recomputeModules: ['model.recompute_modules'],
    cpuOffloading: ['model.cpu_offloading'],
    offloadLayers: ['model.cpu_offloading_num_layers'],
    offloadActivations: ['model.cpu_offloading_activations'],
    fgOffload: ['model.fine_grained_activation_offloading'],
    mixedPrecision: ['mixed_precision'],
    fp16: ['model.fp16', 'mixed_precision.fp16'],
    bf16: ['model.bf16', 'mixed_precision.bf16'],
    fp8: ['model.fp8', 'mixed_precision.fp8'],
    fp8Recipe: ['model.fp8_recipe', 'mixed_precision.fp8_recipe'],
    fp8Param: ['model.fp8_param', 'mixed_precision.fp8_param'],
    fp4: ['model.fp4', 'mixed_precision.fp4'],
    fp4Recipe: ['model.fp4_recipe', 'mixed_precision.fp4_recipe'],
    fp4Param: ['model.fp4_param', 'mixed_precision.fp4_param'],
    distOpt: ['ddp.use_distributed_optimizer', 'optimizer.use_distributed_optimizer'],
    gradFp32: ['ddp.grad_reduce_in_fp32'],
    tpCommOverlap: ['comm_overlap.tp_comm_overlap', 'model.tp_comm_overlap'],
    avgInCollective: ['ddp.average_in_collective'],
    perTokenLoss: ['model.calculate_per_token_loss'],
    finetune: ['checkpoint.finetune'],
    peft: ['peft'],
  },
};
