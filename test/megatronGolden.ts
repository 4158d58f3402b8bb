// The Megatron-LM functional-test dataset (test/data/megatron-lm-golden.json): each case's arguments as Megatron-LM reads
// them (snake_case, defaults applied by the dataset builder) and the ModelShape / TrainingConfig they describe, built by
// hand. memory-megatron-lm.test.ts compares the estimate with the measured peaks; memory-roundtrip.test.ts writes the
// same arguments as a model_config.yaml and checks that reading the file gives the same estimate.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OffloadModule, TrainingConfig } from '../src/core/memory/config.js';
import { estimateTraining, type StageEstimate } from '../src/core/memory/training.js';
import type { GpuSpec, ModelShape } from '../src/core/memory/types.js';
import { REPO } from './helpers.js';

/** Arguments of one case as Megatron-LM reads them (snake_case, defaults applied by the dataset builder). */
export interface Megatron {
  num_layers: number;
  hidden_size: number;
  ffn_hidden_size: number;
  num_attention_heads: number;
  num_query_groups: number;
  kv_channels: number;
  seq_length: number;
  max_position_embeddings?: number;
  micro_batch_size: number;
  global_batch_size: number;
  tensor_model_parallel_size: number;
  pipeline_model_parallel_size: number;
  virtual_pipeline_model_parallel_size?: number;
  context_parallel_size: number;
  expert_model_parallel_size: number;
  expert_tensor_parallel_size: number;
  sequence_parallel: boolean;
  world_size: number;
  vocab_size: number;
  make_vocab_size_divisible_by: number;
  padded_vocab_size: number;
  position_embedding_type: 'learned_absolute' | 'rope' | 'none';
  untie_embeddings_and_output_weights: boolean;
  normalization: 'LayerNorm' | 'RMSNorm';
  add_bias_linear: boolean;
  swiglu: boolean;
  squared_relu: boolean;
  qk_layernorm: boolean;
  bias_activation_fusion: boolean;
  hidden_dropout: number;
  attention_dropout: number;
  attention_backend: string;
  transformer_impl: 'transformer_engine' | 'local';
  params_dtype: 'bf16' | 'fp16' | 'fp32';
  accumulate_allreduce_grads_in_fp32: boolean;
  use_distributed_optimizer: boolean;
  num_distributed_optimizer_instances: number;
  /** --optimizer when not adam (arguments.py turns dist_muon into muon with the layer-wise distributed optimizer). */
  optimizer?: 'muon' | 'lion' | 'sgd';
  /** Emerging optimizers: --use-distributed-optimizer becomes the layer-wise one (arguments.py validate_args). */
  use_layer_wise_distributed_optimizer?: boolean;
  /** False: the legacy ping-pong assignment (before #4771, or --no-use-layer-wise-param-layout). */
  use_layer_wise_param_layout?: boolean;
  use_megatron_fsdp: boolean;
  gradient_accumulation_fusion: boolean;
  recompute_granularity?: 'full' | 'selective';
  recompute_method?: 'uniform' | 'block';
  recompute_num_layers?: number;
  recompute_modules?: string[];
  fp8?: string;
  fp8_recipe?: 'delayed' | 'tensorwise' | 'blockwise' | 'mxfp8';
  fp8_param_gather: boolean;
  first_last_layers_bf16: boolean;
  num_layers_at_start_in_bf16: number;
  num_layers_at_end_in_bf16: number;
  cross_entropy_loss_fusion: boolean;
  cross_entropy_fusion_impl: 'native' | 'te';
  num_experts?: number;
  moe_ffn_hidden_size?: number;
  moe_router_topk?: number;
  moe_token_dispatcher_type?: 'allgather' | 'alltoall' | 'flex';
  moe_grouped_gemm?: boolean;
  moe_shared_expert_intermediate_size?: number;
  moe_layer_freq?: number | number[];
  moe_router_dtype?: 'fp32' | 'fp64';
  moe_permute_fusion?: boolean;
  moe_router_enable_expert_bias?: boolean;
  overlap_moe_expert_parallel_comm: boolean;
  /** --defer-embedding-wgrad-compute with --wgrad-deferral-limit (0: every micro-batch). */
  defer_embedding_wgrad_compute?: boolean;
  wgrad_deferral_limit?: number;
  mtp_num_layers?: number;
  multi_latent_attention: boolean;
  q_lora_rank?: number;
  kv_lora_rank?: number;
  qk_head_dim?: number;
  qk_pos_emb_head_dim?: number;
  v_head_dim?: number;
  decoder_first_pipeline_num_layers?: number;
  decoder_last_pipeline_num_layers?: number;
  account_for_embedding_in_pipeline_split: boolean;
  account_for_loss_in_pipeline_split: boolean;
  pipeline_model_parallel_layout?: string;
  microbatch_group_size_per_vp_stage?: number;
  cuda_graph_impl: string;
  cuda_graph_scope?: string[];
  cuda_graph_warmup_steps?: number;
  tp_comm_overlap: boolean;
  expandable_segments: boolean;
  cublas_workspace_config?: string;
  fine_grained_activation_offloading?: boolean;
  offload_modules?: string[];
  activation_offload_fraction?: number;
  /** Hybrid stacks (pretrain_mamba.py / pretrain_hybrid.py): --hybrid-layer-pattern (formerly --hybrid-override-pattern). */
  hybrid_layer_pattern?: string;
  /** TransformerConfig defaults 128, 64, 8; mamba_num_heads None means expand 2 · hidden / head_dim (mamba_mixer.py). */
  mamba_state_dim?: number;
  mamba_head_dim?: number;
  mamba_num_groups?: number;
  mamba_num_heads?: number;
}

/** What one golden-values file recorded, and where: the run's recipe, the measured rank and the iterations. */
export interface Recorded {
  golden: { path: string; commit: string };
  harness: { path: string; commit: string; nodes: number; gpus: number };
  measuredRank: number;
  iteration: number;
  steadyFrom: number;
  memMaxAllocatedBytes: number;
  memAllocatedBytes: number;
  /** The same values at iteration 1 of the first (fresh) run. */
  firstIteration: { memMaxAllocatedBytes: number; memAllocatedBytes: number };
}

export interface Case extends Recorded {
  id: string;
  family: string;
  testType: string;
  config: { path: string; commit: string; memoryArgsChangedSince: string[] };
  gpu: string;
  megatron: Megatron;
}

export interface Dataset {
  source: { repo: string; head: string };
  cases: Case[];
  excluded: { id: string; reason: string; golden: { path: string; commit: string } }[];
}

export const DATA: Dataset = JSON.parse(readFileSync(join(REPO, 'test', 'data', 'megatron-lm-golden.json'), 'utf8')) as Dataset;

/** The model Megatron-LM builds from the arguments (GPTModel with the TE or local layer spec). */
export function shapeOf(a: Megatron): ModelShape {
  const experts = a.num_experts ?? 0;
  return {
    name: 'megatron-lm-functional-test',
    layers: a.num_layers,
    hidden: a.hidden_size,
    ffn: a.ffn_hidden_size,
    heads: a.num_attention_heads,
    kvHeads: a.num_query_groups,
    headDim: a.kv_channels,
    vocab: a.vocab_size,
    tiedEmbeddings: !a.untie_embeddings_and_output_weights,
    gatedMlp: a.swiglu,
    norm: a.normalization === 'RMSNorm' ? 'rmsnorm' : 'layernorm',
    experts,
    topK: a.moe_router_topk ?? 0,
    moeFfn: a.moe_ffn_hidden_size ?? a.ffn_hidden_size,
    sharedExpertFfn: a.moe_shared_expert_intermediate_size ?? 0,
    denseLayersBeforeMoe: 0,
    linearBias: a.add_bias_linear,
    positionEmbedding: a.position_embedding_type,
    maxPositionEmbeddings: a.max_position_embeddings,
    qkNorm: a.qk_layernorm,
    mtpLayers: a.mtp_num_layers ?? 0,
    moeLayerFreq: a.moe_layer_freq,
    routerBias: a.moe_router_enable_expert_bias === true,
    activation: a.swiglu ? 'swiglu' : a.squared_relu ? 'squared-relu' : 'gelu',
    ...(a.hybrid_layer_pattern
      ? {
          hybridPattern: a.hybrid_layer_pattern,
          mamba: {
            stateDim: a.mamba_state_dim ?? 128,
            headDim: a.mamba_head_dim ?? 64,
            numHeads: a.mamba_num_heads ?? (2 * a.hidden_size) / (a.mamba_head_dim ?? 64),
            groups: a.mamba_num_groups ?? 8,
            convKernel: 4,
          },
        }
      : {}),
    ...(a.multi_latent_attention
      ? {
          mla: {
            kvLoraRank: a.kv_lora_rank!,
            qkRopeHeadDim: a.qk_pos_emb_head_dim!,
            qLoraRank: a.q_lora_rank,
            qkNopeHeadDim: a.qk_head_dim!,
            vHeadDim: a.v_head_dim!,
          },
        }
      : {}),
  };
}

/** The training configuration the arguments describe. */
export function configOf(a: Megatron): TrainingConfig {
  const granularity = a.recompute_granularity ?? null;
  return {
    seq: a.seq_length,
    microBatch: a.micro_batch_size,
    globalBatch: a.global_batch_size,
    tp: a.tensor_model_parallel_size,
    pp: a.pipeline_model_parallel_size,
    vpp: a.virtual_pipeline_model_parallel_size ?? null,
    cp: a.context_parallel_size,
    ep: a.expert_model_parallel_size,
    etp: a.expert_tensor_parallel_size,
    sp: a.sequence_parallel,
    worldSize: a.world_size,
    recompute: {
      granularity,
      method: a.recompute_method ?? (granularity === 'full' ? 'uniform' : null),
      numLayers: a.recompute_num_layers ?? (granularity === 'full' ? 1 : null),
      modules: a.recompute_modules ?? [],
    },
    offloadLayers: 0,
    params: a.params_dtype,
    fp8: a.fp8 ? (a.fp8_recipe ?? 'delayed') : null,
    fp4: null,
    quantizedParams: a.fp8_param_gather,
    distributedOptimizer: a.use_distributed_optimizer || a.use_layer_wise_distributed_optimizer === true,
    ...(a.optimizer === 'sgd'
      ? { optimizer: { rule: 'sgd', momentum: true } }
      : a.optimizer
        ? { optimizer: { rule: a.optimizer, scalar: 'adam' } }
        : {}),
    layerWisePingPong: a.use_layer_wise_distributed_optimizer === true && a.use_layer_wise_param_layout === false,
    distOptInstances: a.num_distributed_optimizer_instances,
    gradReduceInFp32: a.accumulate_allreduce_grads_in_fp32,
    hiddenDropout: a.hidden_dropout,
    attentionDropout: a.attention_dropout,
    profile: 'megatron',
    // Megatron's local layers always run the unfused DotProductAttention; TE's backend follows --attention-backend.
    attention: a.attention_backend === 'unfused' || a.transformer_impl === 'local' ? 'eager' : 'flash',
    transformerImpl: a.transformer_impl,
    gradAccumFusion: a.gradient_accumulation_fusion,
    layersInFirstStage: a.decoder_first_pipeline_num_layers,
    layersInLastStage: a.decoder_last_pipeline_num_layers,
    embeddingInPipelineSplit: a.account_for_embedding_in_pipeline_split,
    lossInPipelineSplit: a.account_for_loss_in_pipeline_split,
    pipelineLayout: a.pipeline_model_parallel_layout,
    microbatchGroupSize: a.microbatch_group_size_per_vp_stage,
    overlapMoeComm: a.overlap_moe_expert_parallel_comm,
    ...(a.defer_embedding_wgrad_compute ? { deferEmbeddingWgrad: a.wgrad_deferral_limit ?? 0 } : {}),
    crossEntropyFusion: a.cross_entropy_loss_fusion ? a.cross_entropy_fusion_impl : 'none',
    expandableSegments: a.expandable_segments,
    cublasWorkspaceConfig: a.cublas_workspace_config,
    vocabDivisibleBy: a.make_vocab_size_divisible_by,
    tpCommOverlap: a.tp_comm_overlap,
    fsdp: a.use_megatron_fsdp ? 'megatron-fsdp' : null,
    bf16Layers: a.first_last_layers_bf16 ? { start: a.num_layers_at_start_in_bf16, end: a.num_layers_at_end_in_bf16 } : undefined,
    cudaGraph:
      a.cuda_graph_impl !== 'none'
        ? {
            impl: a.cuda_graph_impl as 'local' | 'transformer_engine',
            scope: a.cuda_graph_scope ?? [],
            ...(a.cuda_graph_warmup_steps !== undefined ? { warmupSteps: a.cuda_graph_warmup_steps } : {}),
          }
        : null,
    ...(a.fine_grained_activation_offloading
      ? { activationOffload: { modules: (a.offload_modules ?? []) as OffloadModule[], fraction: a.activation_offload_fraction ?? 1 } }
      : {}),
    moe: a.num_experts
      ? {
          dispatcher: a.moe_token_dispatcher_type,
          routerDtype: a.moe_router_dtype ?? null,
          permuteFusion: a.moe_permute_fusion,
          groupedGemm: a.moe_grouped_gemm,
          activationFusion: a.bias_activation_fusion,
        }
      : undefined,
  };
}

/** The pipeline stage of a global rank: Megatron's default order tp-cp-ep-dp-pp puts PP outermost. */
export const stageOfRank = (a: Megatron, rank: number) => Math.floor(rank / (a.world_size / a.pipeline_model_parallel_size));

/** The estimate of the pipeline stage a global rank holds, from the hand-built shape and configuration. */
export const estimateStage = (a: Megatron, rank: number, gpu: GpuSpec): StageEstimate =>
  estimateTraining(shapeOf(a), configOf(a), gpu).stages[stageOfRank(a, rank)]!;

/** A golden-values file of another GPU for a test case whose memory arguments equal an H100 case's (held-out datasets). */
export interface HeldOutCase extends Recorded {
  id: string;
  /** The H100 case whose arguments it shares. */
  h100: string;
}

export interface HeldOutDataset {
  source: { repo: string; head: string };
  /** The GPU catalogue id the runs used. */
  gpu: string;
  cases: HeldOutCase[];
  excluded: { id: string; reason: string; golden: { path: string; commit: string } }[];
}

const heldOut = (platform: string) =>
  JSON.parse(readFileSync(join(REPO, 'test', 'data', `megatron-lm-golden-${platform}.json`), 'utf8')) as HeldOutDataset;

/** Megatron-LM's functional tests on GB200 (2 × 4 GPUs, or 1 × 4 for *_1node) and on A100 (1 × 8), paired with H100 cases. */
export const HELD_OUT: Record<'gb200' | 'a100', HeldOutDataset> = { gb200: heldOut('gb200'), a100: heldOut('a100') };

/** The H100 case's arguments with the held-out run's world size (and the data-parallel size it implies). */
export function heldOutArgs(g: HeldOutCase): Megatron {
  const h = DATA.cases.find((c) => c.id === g.h100);
  if (!h) throw new Error(`${g.id}: no H100 case ${g.h100}`);
  const a = h.megatron;
  const world = g.harness.nodes * g.harness.gpus;
  const dp = world / (a.tensor_model_parallel_size * a.pipeline_model_parallel_size * a.context_parallel_size);
  // The dataset's informational data_parallel_size and num_microbatches (not read by the model) follow the world size.
  const info = { data_parallel_size: dp, num_microbatches: a.global_batch_size / (a.micro_batch_size * dp) };
  return { ...a, ...info, world_size: world };
}
