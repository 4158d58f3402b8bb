// Reads the values the cross-field rules need, per format, with the spans of every key involved.
import { valueAt, type RecipeDoc } from '../document.js';
import { UNRESOLVED } from '../interpolate.js';
import { findKeyPath, lookup, parsePath, pathToString, plainValue } from '../tree.js';
import type { FormatId, PathSeg, Span } from '../types.js';

export interface Fact<T = unknown> {
  value: T;
  path: string;
  keySpan: Span;
  valueSpan: Span;
}

/** Logical fields of a training config, and where each format keeps them. */
export type TrainingField =
  | 'tp'
  | 'pp'
  | 'vpp'
  | 'cp'
  | 'ep'
  | 'etp'
  | 'sp'
  | 'seq'
  | 'dataSeq'
  | 'layers'
  | 'heads'
  | 'groups'
  | 'mbs'
  | 'gbs'
  | 'devices'
  | 'nodes'
  | 'overlapP2p'
  | 'recomputeGranularity'
  | 'recomputeMethod'
  | 'recomputeLayers'
  | 'cpuOffloading'
  | 'offloadLayers'
  | 'fgOffload'
  | 'tpCommOverlap'
  | 'fsdp'
  | 'fp8'
  | 'precision'
  | 'ampO2'
  | 'gradAccFusion'
  | 'splitRank'
  | 'hcp'
  | 'cpCommType'
  | 'pipelineDtype'
  | 'fp16'
  | 'bf16'
  | 'trainIters'
  | 'trainSamples'
  | 'numEpochs'
  | 'perTokenLoss'
  | 'avgInCollective'
  | 'finetune'
  | 'peft'
  | 'useTpPpDpMapping'
  | 'embedInSplit'
  | 'lossInSplit'
  | 'firstStageLayers'
  | 'lastStageLayers'
  | 'ppLayout'
  | 'optimName';

const NEMO1: Partial<Record<TrainingField, string[]>> = {
  tp: ['model.tensor_model_parallel_size'],
  pp: ['model.pipeline_model_parallel_size'],
  vpp: ['model.virtual_pipeline_model_parallel_size'],
  cp: ['model.context_parallel_size'],
  ep: ['model.expert_model_parallel_size'],
  etp: ['model.expert_tensor_parallel_size'],
  sp: ['model.sequence_parallel'],
  seq: ['model.encoder_seq_length'],
  dataSeq: ['model.data.seq_length'],
  layers: ['model.num_layers'],
  heads: ['model.num_attention_heads'],
  groups: ['model.num_query_groups'],
  mbs: ['model.micro_batch_size'],
  gbs: ['model.global_batch_size'],
  devices: ['trainer.devices'],
  nodes: ['trainer.num_nodes'],
  overlapP2p: ['model.overlap_p2p_comm'],
  recomputeGranularity: ['model.activations_checkpoint_granularity'],
  recomputeMethod: ['model.activations_checkpoint_method'],
  recomputeLayers: ['model.activations_checkpoint_num_layers'],
  cpuOffloading: ['model.cpu_offloading'],
  offloadLayers: ['model.cpu_offloading_num_layers'],
  fgOffload: ['model.fine_grained_activation_offloading'],
  tpCommOverlap: ['model.ub_tp_comm_overlap'],
  fsdp: ['model.fsdp'],
  fp8: ['model.fp8'],
  precision: ['trainer.precision'],
  ampO2: ['model.megatron_amp_O2'],
  gradAccFusion: ['model.gradient_accumulation_fusion'],
  splitRank: ['model.pipeline_model_parallel_split_rank'],
  hcp: ['model.hierarchical_context_parallel_sizes'],
  cpCommType: ['model.cp_comm_type'],
  useTpPpDpMapping: ['model.use_tp_pp_dp_mapping'],
  optimName: ['model.optim.name'],
  embedInSplit: ['model.account_for_embedding_in_pipeline_split'],
  lossInSplit: ['model.account_for_loss_in_pipeline_split'],
  firstStageLayers: ['model.num_layers_in_first_pipeline_stage'],
  lastStageLayers: ['model.num_layers_in_last_pipeline_stage'],
  ppLayout: ['model.pipeline_model_parallel_layout'],
};

const BRIDGE: Partial<Record<TrainingField, string[]>> = {
  tp: ['model.tensor_model_parallel_size'],
  pp: ['model.pipeline_model_parallel_size'],
  vpp: ['model.virtual_pipeline_model_parallel_size'],
  cp: ['model.context_parallel_size'],
  ep: ['model.expert_model_parallel_size'],
  etp: ['model.expert_tensor_parallel_size'],
  sp: ['model.sequence_parallel'],
  seq: ['model.seq_length'],
  dataSeq: ['dataset.seq_length'],
  layers: ['model.num_layers'],
  heads: ['model.num_attention_heads'],
  groups: ['model.num_query_groups'],
  mbs: ['train.micro_batch_size'],
  gbs: ['train.global_batch_size'],
  overlapP2p: ['model.overlap_p2p_comm'],
  recomputeGranularity: ['model.recompute_granularity'],
  recomputeMethod: ['model.recompute_method'],
  recomputeLayers: ['model.recompute_num_layers'],
  cpuOffloading: ['model.cpu_offloading'],
  offloadLayers: ['model.cpu_offloading_num_layers'],
  fgOffload: ['model.fine_grained_activation_offloading'],
  tpCommOverlap: ['comm_overlap.tp_comm_overlap', 'model.tp_comm_overlap'],
  fp8: ['model.fp8', 'mixed_precision.fp8'],
  pipelineDtype: ['model.pipeline_dtype', 'mixed_precision.pipeline_dtype'],
  fp16: ['model.fp16', 'mixed_precision.fp16'],
  bf16: ['model.bf16', 'mixed_precision.bf16'],
  hcp: ['model.hierarchical_context_parallel_sizes'],
  cpCommType: ['model.cp_comm_type'],
  trainIters: ['train.train_iters'],
  trainSamples: ['train.train_samples'],
  numEpochs: ['train.num_epochs'],
  perTokenLoss: ['model.calculate_per_token_loss'],
  avgInCollective: ['ddp.average_in_collective'],
  finetune: ['checkpoint.finetune'],
  peft: ['peft'],
  embedInSplit: ['model.account_for_embedding_in_pipeline_split'],
  lossInSplit: ['model.account_for_loss_in_pipeline_split'],
  firstStageLayers: ['model.num_layers_in_first_pipeline_stage'],
  lastStageLayers: ['model.num_layers_in_last_pipeline_stage'],
  ppLayout: ['model.pipeline_model_parallel_layout'],
};

/** NeMo 2.0 serializations nest kwargs under `_target_` nodes: look the key up anywhere. */
const NEMO2_KEYS: Partial<Record<TrainingField, string>> = {
  tp: 'tensor_model_parallel_size',
  pp: 'pipeline_model_parallel_size',
  vpp: 'virtual_pipeline_model_parallel_size',
  cp: 'context_parallel_size',
  ep: 'expert_model_parallel_size',
  etp: 'expert_tensor_parallel_size',
  sp: 'sequence_parallel',
  seq: 'seq_length',
  layers: 'num_layers',
  heads: 'num_attention_heads',
  groups: 'num_query_groups',
  mbs: 'micro_batch_size',
  gbs: 'global_batch_size',
  devices: 'devices',
  nodes: 'num_nodes',
  recomputeGranularity: 'recompute_granularity',
  recomputeMethod: 'recompute_method',
  recomputeLayers: 'recompute_num_layers',
  cpuOffloading: 'cpu_offloading',
  offloadLayers: 'cpu_offloading_num_layers',
  fgOffload: 'fine_grained_activation_offloading',
  pipelineDtype: 'pipeline_dtype',
  fp16: 'fp16',
  bf16: 'bf16',
  hcp: 'hierarchical_context_parallel_sizes',
  cpCommType: 'cp_comm_type',
  overlapP2p: 'overlap_p2p_comm',
  fp8: 'fp8',
  embedInSplit: 'account_for_embedding_in_pipeline_split',
  lossInSplit: 'account_for_loss_in_pipeline_split',
  firstStageLayers: 'num_layers_in_first_pipeline_stage',
  lastStageLayers: 'num_layers_in_last_pipeline_stage',
  ppLayout: 'pipeline_model_parallel_layout',
};

export function factAt(doc: RecipeDoc, path: readonly PathSeg[]): Fact | undefined {
  const hit = lookup(doc.root, path);
  if (!hit) return undefined;
  const value = hit.node.kind === 'scalar' ? valueAt(doc, path) : plainValue(hit.node);
  if (value === UNRESOLVED || value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() === '???') return undefined;
  return {
    value,
    path: pathToString(path),
    keySpan: hit.entry?.keySpan ?? hit.node.span,
    valueSpan: hit.node.span,
  };
}

export class Facts {
  private cache = new Map<TrainingField, Fact | undefined>();
  constructor(
    readonly doc: RecipeDoc,
    readonly format: FormatId,
  ) {}

  get(field: TrainingField): Fact | undefined {
    if (this.cache.has(field)) return this.cache.get(field);
    let f: Fact | undefined;
    if (this.format === 'nemo2') {
      const key = NEMO2_KEYS[field];
      const p = key ? findKeyPath(this.doc.root, key) : undefined;
      f = p ? factAt(this.doc, p) : undefined;
    } else {
      const table = this.format === 'megatron-bridge' ? BRIDGE : NEMO1;
      for (const p of table[field] ?? []) {
        f = factAt(this.doc, parsePath(p));
        if (f) break;
      }
    }
    this.cache.set(field, f);
    return f;
  }

  /** An integer value, or undefined when absent, null, unresolved or not an integer. */
  int(field: TrainingField): number | undefined {
    const v = this.get(field)?.value;
    return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
  }
  bool(field: TrainingField): boolean | undefined {
    const v = this.get(field)?.value;
    return typeof v === 'boolean' ? v : undefined;
  }
  str(field: TrainingField): string | undefined {
    const v = this.get(field)?.value;
    return typeof v === 'string' ? v : undefined;
  }
  /** Integer with the upstream default when the key is absent (never when it is present but unusable). */
  intOr(field: TrainingField, dflt: number): number | undefined {
    const f = this.get(field);
    if (!f) return this.present(field) ? undefined : dflt;
    if (f.value === null) return dflt;
    return typeof f.value === 'number' && Number.isInteger(f.value) ? f.value : undefined;
  }
  /** Whether the key is written in the file at all (even if unresolvable). */
  present(field: TrainingField): boolean {
    if (this.format === 'nemo2') {
      const key = NEMO2_KEYS[field];
      return !!key && !!findKeyPath(this.doc.root, key);
    }
    const table = this.format === 'megatron-bridge' ? BRIDGE : NEMO1;
    return (table[field] ?? []).some((p) => !!lookup(this.doc.root, parsePath(p)));
  }
}
