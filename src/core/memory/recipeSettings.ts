// The memory-relevant settings of a training recipe beyond sizes and parallelism: the optional TrainingConfig fields
// (schedule, kernels, MoE runtime, sharding, optimizer dtypes, LoRA, CUDA graphs, allocator) and the model structure the
// file states (biases, positions, MoE placement, MLA, MTP, hybrid Mamba stacks). Every value comes from a format table's
// field (src/core/formats); the upstream name and default of each is in the table that reads it.
import type { TrainingValues } from '../formats/fields.js';
import type { TrainingFamily } from '../formats/training.js';
import {
  LORA_DEFAULT_TARGETS,
  OFFLOAD_MODULES,
  type LoraSettings,
  type MoeSettings,
  type OffloadModule,
  type OptimizerRule,
  type StateDtype,
  type TrainingConfig,
} from './config.js';
import { mtpDepthPattern } from './params.js';
import type { Assumption, ModelShape } from './types.js';

type Optional = Partial<
  Pick<
    TrainingConfig,
    | 'microbatchGroupSize'
    | 'layersInFirstStage'
    | 'layersInLastStage'
    | 'embeddingInPipelineSplit'
    | 'lossInPipelineSplit'
    | 'pipelineLayout'
    | 'overlapMoeComm'
    | 'deferEmbeddingWgrad'
    | 'crossEntropyFusion'
    | 'expandableSegments'
    | 'cublasWorkspaceConfig'
    | 'moe'
    | 'fsdp'
    | 'peft'
    | 'optimizerDtypes'
    | 'optimizerCpuOffload'
    | 'optimizer'
    | 'distributedOptimizer'
    | 'layerWisePingPong'
    | 'activationOffload'
    | 'gradAccumFusion'
    | 'transformerImpl'
    | 'tpCommOverlap'
    | 'vocabDivisibleBy'
    | 'cudaGraph'
    | 'distOptInstances'
    | 'bf16Layers'
  >
>;

const int = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) ? x : undefined);
const pos = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x >= 1 ? x : undefined);
const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
const bool = (x: unknown) => (typeof x === 'boolean' ? x : undefined);
/** A share between 0 and 1 (offload fractions). */
const share = (x: unknown) => (typeof x === 'number' && x >= 0 && x <= 1 ? x : undefined);

/**
 * An offload fraction: `absent` (Megatron's default) when the file leaves it out, the file's share when it lies in 0–1,
 * else 0 — nothing leaves the GPU, the upper bound — with the assumption listed.
 */
function offloadShare(x: unknown, absent: number, field: string, onGpu: string, assumptions: Assumption[]): number {
  if (x === undefined) return absent;
  const f = share(x);
  if (f !== undefined) return f;
  assumptions.push({
    what: `${field} counted as 0 (${onGpu})`,
    source: `${JSON.stringify(x)} is not a fraction between 0 and 1: an upper bound`,
    provenance: 'default',
  });
  return 0;
}

/** A dtype as a file writes it: Megatron names (fp32, bf16), torch names (torch.bfloat16, as a Bridge dump writes them). */
export function stateDtype(x: unknown): StateDtype | undefined {
  const s = str(x)
    ?.trim()
    .replace(/^torch\./, '');
  if (s === undefined) return undefined;
  if (s === 'fp32' || s === 'float32' || s === 'float') return 'fp32';
  if (s === 'bf16' || s === 'bfloat16') return 'bf16';
  if (s === 'fp16' || s === 'float16' || s === 'half') return 'fp16';
  // The precision-aware optimizer keeps FP8 moments as uint8 storage (Megatron OptimizerConfig exp_avg_dtype torch.uint8).
  if (s === 'fp8' || s === 'uint8') return 'fp8';
  return undefined;
}

/**
 * A Megatron list expression for moe_layer_freq ("([0]*3+[1]*11)", "[1,1,0]*3"): list literals of integers joined by `+`,
 * repeated by `*n`, in parentheses (arguments.py moe_freq_type evaluates them with Python's eval). Anything else: undefined.
 */
export function parseLayerList(expr: string): number[] | undefined {
  const s = expr.replace(/\s/g, '');
  let i = 0;
  const MAX = 1 << 16;
  const sum = (): number[] | undefined => {
    let out = term();
    while (out && s[i] === '+') {
      i++;
      const next = term();
      out = next && out.length + next.length <= MAX ? [...out, ...next] : undefined;
    }
    return out;
  };
  const term = (): number[] | undefined => {
    let out = atom();
    while (out && s[i] === '*') {
      i++;
      const m = /^\d+/.exec(s.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      const n = Number(m[0]);
      if (out.length * n > MAX) return undefined;
      out = Array.from({ length: n }, () => out!).flat();
    }
    return out;
  };
  const atom = (): number[] | undefined => {
    if (s[i] === '(') {
      i++;
      const inner = sum();
      if (s[i] !== ')') return undefined;
      i++;
      return inner;
    }
    if (s[i] === '[') {
      const end = s.indexOf(']', i);
      if (end < 0) return undefined;
      const body = s.slice(i + 1, end);
      i = end + 1;
      if (body === '') return [];
      const items = body.split(',').map((x) => (/^[01]$/.test(x) ? Number(x) : NaN));
      return items.some(Number.isNaN) ? undefined : items;
    }
    return undefined;
  };
  const out = sum();
  return out && i === s.length ? out : undefined;
}

/** moe_layer_freq as the memory model takes it: an int k (every k-th layer), or a 0/1 per layer. */
export function moeLayerFreqOf(x: unknown): number | number[] | undefined {
  if (pos(x) !== undefined) return x as number;
  if (Array.isArray(x)) return x.every((e) => e === 0 || e === 1) ? (x as number[]) : undefined;
  if (typeof x === 'string') return /^\d+$/.test(x.trim()) ? Number(x.trim()) : parseLayerList(x);
  return undefined;
}

/** A pipeline layout as Megatron's string ("Et|(tt|)*3,m|L"); Bridge may write the list form ([["embedding", "decoder"], …]). */
function layoutString(x: unknown): string | undefined {
  if (typeof x === 'string') return x;
  if (!Array.isArray(x)) return undefined;
  const CODE: Record<string, string> = { embedding: 'E', decoder: 't', mtp: 'm', loss: 'L', E: 'E', t: 't', m: 'm', L: 'L' };
  const stages: string[] = [];
  for (const stage of x) {
    if (!Array.isArray(stage)) return undefined;
    const codes = stage.map((l) => (typeof l === 'string' ? CODE[l] : undefined));
    if (codes.some((c) => c === undefined)) return undefined;
    stages.push(codes.join(''));
  }
  return stages.join('|');
}

/** PYTORCH_CUDA_ALLOC_CONF and CUBLAS_WORKSPACE_CONFIG of a launcher's environment mapping (env_vars / ENV_VARS). */
function environment(env: unknown): Pick<Optional, 'expandableSegments' | 'cublasWorkspaceConfig'> {
  if (!env || typeof env !== 'object' || Array.isArray(env)) return {};
  const e = env as Record<string, unknown>;
  const alloc = e.PYTORCH_CUDA_ALLOC_CONF ?? e.PYTORCH_ALLOC_CONF;
  const cublas = e.CUBLAS_WORKSPACE_CONFIG;
  return {
    ...(typeof alloc === 'string' ? { expandableSegments: /expandable_segments\s*:\s*true/i.test(alloc) } : {}),
    ...(typeof cublas === 'string' && /^:\d+:\d+/.test(cublas.trim()) ? { cublasWorkspaceConfig: cublas.trim() } : {}),
  };
}

/** CUDA graphs: cuda_graph_impl + cuda_graph_scope / cuda_graph_modules, or the older enable_cuda_graph / external_cuda_graph. */
function cudaGraphOf(v: TrainingValues): TrainingConfig['cudaGraph'] | undefined {
  const rawScope = v.cudaGraphScope;
  const scope = Array.isArray(rawScope)
    ? rawScope.filter((x): x is string => typeof x === 'string')
    : typeof rawScope === 'string'
      ? rawScope.split(/[\s,]+/).filter(Boolean)
      : [];
  const impl = str(v.cudaGraphImpl);
  const warm = int(v.cudaGraphWarmup);
  const warmup = warm !== undefined && warm >= 0 ? { warmupSteps: warm } : {};
  if (impl === 'none') return null;
  if (impl === 'local' || impl === 'transformer_engine' || impl === 'full_iteration') return { impl, scope, ...warmup };
  if (v.enableCudaGraph === true) return { impl: 'local', scope, ...warmup };
  if (v.externalCudaGraph === true) return { impl: 'transformer_engine', scope, ...warmup };
  if (v.enableCudaGraph === false || v.externalCudaGraph === false) return null;
  return undefined;
}

/** LoRA from a PEFT setting: a scheme name (`lora`) or a Bridge / NeMo 2 LoRA mapping (`_target_: …LoRA`, `dim`, `target_modules`). */
function loraOf(v: TrainingValues): LoraSettings | null | undefined {
  const p = v.peft;
  if (p === undefined) return undefined;
  if (p === null || p === 'none' || p === false) return null;
  let lora = false;
  let rank = pos(v.loraRank);
  let targets: unknown = v.loraTargets;
  let regather = bool(v.loraRegather);
  let shareExperts = bool(v.loraShareExperts);
  if (typeof p === 'string') lora = /^lora$/i.test(p.trim());
  else if (typeof p === 'object' && !Array.isArray(p)) {
    const o = p as Record<string, unknown>;
    // NeMo-RL's megatron_cfg.peft is a mapping with `enabled`.
    if (o.enabled === false) return null;
    const target = str(o._target_) ?? '';
    lora = /(^|\.)LoRA$/.test(target) || (target === '' && pos(o.dim) !== undefined);
    rank ??= pos(o.dim);
    targets ??= o.target_modules;
    regather ??= bool(o.sequence_parallel_input_regather);
    shareExperts ??= bool(o.share_expert_adapters);
  }
  if (!lora) return undefined;
  const list = Array.isArray(targets) ? targets.filter((t): t is string => typeof t === 'string') : [];
  return {
    // Bridge peft/lora.py LoRA.dim and NeMo 1.x lora_tuning.adapter_dim both default to 32.
    rank: rank ?? 32,
    targets: list.length ? list : LORA_DEFAULT_TARGETS,
    ...(regather !== undefined ? { inputRegather: regather } : {}),
    ...(shareExperts !== undefined ? { shareExpertAdapters: shareExperts } : {}),
  };
}

/**
 * The update rule and how it shards. Megatron-Core builds every optimizer but Adam and SGD through
 * _get_megatron_emerging_optimizer (optimizer/__init__.py): Muon for the 2-D weights and muon_scalar_optimizer for the
 * rest, Lion alone; the layer-wise distributed optimizer shards them over DP×CP when the name has the legacy dist_
 * prefix or use_layer_wise_distributed_optimizer is on. Megatron-LM turns --use-distributed-optimizer into the
 * layer-wise one for them (arguments.py); elsewhere use_distributed_optimizer does not shard them. NeMo 1.x names
 * (optim.name: fused_adam, distributed_fused_adam, adamw, sgd, …) keep Adam's layout except SGD.
 */
function optimizerOf(
  v: TrainingValues,
  family: TrainingFamily,
  assumptions: Assumption[],
): Pick<Optional, 'optimizer' | 'distributedOptimizer' | 'layerWisePingPong'> {
  const name = str(v.optimName)?.trim().toLowerCase();
  if (name === undefined) return {};
  const momentum = typeof v.sgdMomentum === 'number' ? v.sgdMomentum > 0 : true; // sgd_momentum default 0.9
  if (family === 'nemo1') {
    if (name === 'sgd') return { optimizer: { rule: 'sgd', momentum } };
    if (!/adam/.test(name))
      assumptions.push({
        what: `optim.name ${name} counted as Adam (fp32 main copy + two fp32 moments)`,
        source: 'the memory model knows Adam, Muon, Lion and SGD states',
        provenance: 'default',
      });
    return {};
  }
  const bare = name.replace(/^dist_/, '');
  if (bare === 'adam') return {};
  if (bare === 'sgd') return { optimizer: { rule: 'sgd', momentum } };
  const scalar = str(v.muonScalarOptim)?.trim().toLowerCase() === 'lion' ? 'lion' : 'adam';
  const rule: OptimizerRule | undefined =
    bare === 'muon' ? { rule: 'muon', scalar } : bare === 'lion' ? { rule: 'lion', scalar: 'adam' } : undefined;
  if (!rule) {
    assumptions.push({
      what: `optimizer ${name} counted as Adam (fp32 main copy + two fp32 moments)`,
      source: 'the memory model knows Adam, Muon, Lion and SGD states (SOAP and adaptive Muon keep more)',
      provenance: 'default',
    });
    return {};
  }
  const layerWise = name.startsWith('dist_') || v.layerWiseOptim === true || (family === 'megatron-lm' && v.distOpt === true);
  if (!layerWise && v.distOpt === true)
    assumptions.push({
      what: `${name} optimizer state counted unsharded`,
      source:
        'use_distributed_optimizer does not shard an emerging optimizer: the layer-wise one needs the dist_ prefix or use_layer_wise_distributed_optimizer (megatron/core/optimizer/__init__.py)',
      provenance: 'file',
    });
  if (!layerWise) return { optimizer: rule, distributedOptimizer: false };
  // Megatron-LM builds the parameter layout (since May 2026) unless told not to; Bridge and NeMo never build one.
  const pingPong = family === 'megatron-lm' ? v.layerWiseLayout === false : true;
  if (family === 'megatron-lm' && !pingPong)
    assumptions.push({
      what: `${name} state sharded evenly over DP×CP (the layer-wise parameter layout)`,
      source:
        'Megatron-LM builds the layout since May 2026 (#4771); before it, or with --no-use-layer-wise-param-layout, whole parameters are dealt ping-pong by size',
      provenance: 'default',
    });
  return { optimizer: rule, distributedOptimizer: true, layerWisePingPong: pingPong };
}

/**
 * The optional TrainingConfig fields the recipe states (absent: the memory model's documented default). `fp8` / `fp4`
 * decide whether first_last_layers_bf16 matters; `assumptions` receives what is read approximately.
 */
export function optionalSettings(
  v: TrainingValues,
  family: TrainingFamily,
  quantized: boolean,
  experts: number,
  assumptions: Assumption[],
): Optional {
  const out: Optional = {};
  const set = <K extends keyof Optional>(k: K, x: Optional[K] | undefined) => {
    if (x !== undefined) out[k] = x;
  };
  set('microbatchGroupSize', pos(v.mbGroupSize));
  set('layersInFirstStage', int(v.firstStageLayers));
  set('layersInLastStage', int(v.lastStageLayers));
  set('embeddingInPipelineSplit', bool(v.embedInSplit));
  set('lossInPipelineSplit', bool(v.lossInSplit));
  set('pipelineLayout', layoutString(v.ppLayout));
  set('overlapMoeComm', bool(v.overlapMoeComm));
  if (v.deferEmbeddingWgrad === true) {
    // wgrad_deferral_limit: Megatron's default 0 defers every micro-batch (the upper bound); a negative limit is refused
    // by model_parallel_config.py, so the run never starts and the output layer is counted as usual.
    const limit = int(v.wgradDeferralLimit) ?? 0;
    if (limit >= 0) out.deferEmbeddingWgrad = limit;
    else
      assumptions.push({
        what: `defer_embedding_wgrad_compute not counted: wgrad_deferral_limit ${limit} is negative`,
        source: 'Megatron-Core model_parallel_config.py refuses a negative limit',
        provenance: 'file',
      });
  }
  if (v.ceFusion === true) out.crossEntropyFusion = v.ceFusionImpl === 'te' ? 'te' : 'native';
  else if (v.ceFusion === false) out.crossEntropyFusion = 'none';
  Object.assign(out, environment(v.envVars));
  set('gradAccumFusion', bool(v.gradAccFusion));
  const impl = str(v.transformerImpl);
  if (impl === 'local' || impl === 'transformer_engine') out.transformerImpl = impl;
  set('tpCommOverlap', bool(v.tpCommOverlap));
  set('vocabDivisibleBy', pos(v.vocabDivisible));
  set('cudaGraph', cudaGraphOf(v));
  set('distOptInstances', pos(v.distOptInstances));
  if (v.bf16Layers === true && quantized) {
    // megatron-core TransformerConfig num_layers_at_start_in_bf16 / num_layers_at_end_in_bf16 default 1.
    out.bf16Layers = { start: int(v.bf16LayersStart) ?? 1, end: int(v.bf16LayersEnd) ?? 1 };
  }
  // Sharded data parallelism.
  const sharding = str(v.fsdpSharding) ?? 'optim_grads_params';
  if (v.megatronFsdp === true) {
    if (sharding === 'optim_grads_params') out.fsdp = 'megatron-fsdp';
    else if (sharding === 'optim' || sharding === 'optim_grads')
      assumptions.push({
        what: `Megatron FSDP ${sharding} counted as the distributed optimizer (parameters${sharding === 'optim' ? ' and gradients' : ''} replicated)`,
        source: 'data_parallel_sharding_strategy shards only the optimizer state (and gradients for optim_grads): an upper bound',
        provenance: 'file',
      });
  } else if (v.torchFsdp2 === true) out.fsdp = 'fsdp2';
  else if (v.fsdp === true && family === 'nemo1') {
    out.fsdp = 'fsdp2';
    assumptions.push({
      what: 'PyTorch FSDP (model.fsdp) counted as fully sharded parameters, gradients and optimizer state',
      source: 'NeMo 1.x fsdp_sharding_strategy full (megatron_base_model.py); the FSDP2 layout of the memory model',
      provenance: 'file',
    });
  }
  // Optimizer state dtypes of the precision-aware optimizer.
  if (v.precisionAwareOptim === true) {
    const mainParams = stateDtype(v.mainParamsDtype);
    const expAvg = stateDtype(v.expAvgDtype);
    const expAvgSq = stateDtype(v.expAvgSqDtype);
    out.optimizerDtypes = {
      ...(mainParams ? { mainParams } : {}),
      ...(expAvg ? { expAvg } : {}),
      ...(expAvgSq ? { expAvgSq } : {}),
    };
  }
  // optimizer_cpu_offload / optimizer_offload_fraction (megatron-core OptimizerConfig; fraction default 0.0, range 0–1).
  if (v.optimizerCpuOffload === true)
    out.optimizerCpuOffload = offloadShare(
      v.optimizerOffloadFraction,
      0,
      'optimizer_offload_fraction',
      'all of the optimizer on the GPU',
      assumptions,
    );
  Object.assign(out, optimizerOf(v, family, assumptions));
  // fine_grained_activation_offloading (megatron-core TransformerConfig; offload_modules default [], fraction default 1.0).
  if (v.fgOffload === true) {
    const listed = Array.isArray(v.offloadModules) ? v.offloadModules.filter((x): x is string => typeof x === 'string') : [];
    const modules = listed.filter((x): x is OffloadModule => (OFFLOAD_MODULES as readonly string[]).includes(x));
    const fraction = offloadShare(v.offloadFraction, 1, 'activation_offload_fraction', 'every activation on the GPU', assumptions);
    if (modules.length) out.activationOffload = { modules, fraction };
    const unknown = listed.filter((x) => !modules.includes(x as OffloadModule));
    if (unknown.length)
      assumptions.push({
        what: `offload_modules ${unknown.join(', ')} counted on the GPU`,
        source: 'the memory model knows attn_norm, qkv_linear, core_attn, attn_proj, mlp_norm, expert_fc1 and moe_act: an upper bound',
        provenance: 'default',
      });
  }
  const lora = loraOf(v);
  if (lora !== undefined) out.peft = lora;
  if (experts > 0) {
    const moe: MoeSettings = {};
    const d = str(v.moeDispatcher);
    if (d === 'alltoall' || d === 'allgather' || d === 'flex') moe.dispatcher = d;
    if (v.moeCapacity === null || typeof v.moeCapacity === 'number') moe.capacityFactor = v.moeCapacity;
    if (typeof v.moePadToCapacity === 'boolean') moe.padToCapacity = v.moePadToCapacity;
    const rd = str(v.moeRouterDtype);
    if (rd === 'fp32' || rd === 'fp64') moe.routerDtype = rd;
    else if (v.moeRouterDtype === null) moe.routerDtype = null;
    if (typeof v.moePermuteFusion === 'boolean') moe.permuteFusion = v.moePermuteFusion;
    if (typeof v.moeGroupedGemm === 'boolean') moe.groupedGemm = v.moeGroupedGemm;
    if (typeof v.biasActFusion === 'boolean') moe.activationFusion = v.biasActFusion;
    if (typeof v.squaredReluFusion === 'boolean') moe.squaredReluFusion = v.squaredReluFusion;
    if (Object.keys(moe).length) out.moe = moe;
  }
  return out;
}

/**
 * The attention kernel the file selects: Megatron's local layers and the unfused backend materialize the scores. With the
 * automatic backend, TransformerEngine's DotProductAttention falls back to its unfused path when the environment turns
 * both kernels off (NVTE_FLASH_ATTN=0 and NVTE_FUSED_ATTN=0; transformer_engine/pytorch/attention get_attention_backend).
 */
export function fileAttention(v: TrainingValues): TrainingConfig['attention'] | undefined {
  const backend = str(v.attnBackend);
  if (v.transformerImpl === 'local' || backend === 'unfused' || backend === 'local') return 'eager';
  if (backend === 'flash' || backend === 'fused') return 'flash';
  const env = v.envVars && typeof v.envVars === 'object' && !Array.isArray(v.envVars) ? (v.envVars as Record<string, unknown>) : {};
  const off = (k: string) => env[k] === 0 || env[k] === '0';
  if ((backend === undefined || backend === 'auto') && off('NVTE_FLASH_ATTN') && off('NVTE_FUSED_ATTN')) return 'eager';
  return undefined;
}

/** The MLP activation a file names (NeMo `activation: fast-swiglu`, Megatron-LM --swiglu / --squared-relu as read). */
function activationOf(x: unknown): ModelShape['activation'] | undefined {
  const a = str(x)?.trim().toLowerCase().replace(/_/g, '-');
  if (!a) return undefined;
  if (/swiglu/.test(a)) return 'swiglu';
  if (/geglu/.test(a)) return 'geglu';
  if (a === 'squared-relu') return 'squared-relu';
  if (/gelu/.test(a)) return 'gelu';
  if (a === 'relu') return 'relu';
  if (a === 'silu') return 'silu';
  return undefined;
}

// megatron-core MLATransformerConfig defaults (transformer_config.py): q_lora_rank 512, kv_lora_rank 512, qk_head_dim 128,
// qk_pos_emb_head_dim 64, v_head_dim 128.
const MLA_DEFAULTS = { qLoraRank: 512, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 };
// megatron-core TransformerConfig mamba_state_dim 128, mamba_head_dim 64, mamba_num_groups 8; MambaMixer expand 2, d_conv 4.
const MAMBA_DEFAULTS = { stateDim: 128, headDim: 64, groups: 8, expand: 2, convKernel: 4 };

/**
 * The model structure the file states, over the named model's: biases, positions, QK norm, MoE placement and router bias,
 * MLA ranks, MTP layers, the hybrid pattern and the Mamba mixer. Changes `shape` in place.
 */
export function applyFileStructure(shape: ModelShape, v: TrainingValues, assumptions: Assumption[]): void {
  const act = activationOf(v.activation);
  if (act) shape.activation = act;
  if (typeof v.linearBias === 'boolean') shape.linearBias = v.linearBias;
  if (v.linearBias !== true && typeof v.qkvBias === 'boolean') {
    if (v.qkvBias) shape.attentionBias = 'qkv';
    else if (shape.attentionBias === 'qkv') delete shape.attentionBias;
  }
  const pe = str(v.positionEmbedding);
  if (pe === 'learned_absolute' || pe === 'rope' || pe === 'alibi' || pe === 'none') shape.positionEmbedding = pe;
  else if (pe === 'yarn' || pe === 'mrope') shape.positionEmbedding = 'rope';
  if (pos(v.maxPositions)) shape.maxPositionEmbeddings = v.maxPositions as number;
  // qk_layernorm True keeps a model's full-width Q/K norm (MiniMax-M2's Bridge layer spec turns the flag into it).
  if (typeof v.qkNorm === 'boolean') shape.qkNorm = v.qkNorm && shape.qkNorm === 'full' ? 'full' : v.qkNorm;
  if (typeof v.routerBias === 'boolean') shape.routerBias = v.routerBias;
  if (v.moeLayerFreq !== undefined && v.moeLayerFreq !== null) {
    const f = moeLayerFreqOf(v.moeLayerFreq);
    if (f !== undefined) {
      shape.moeLayerFreq = f;
      // An explicit placement replaces the catalogue's leading dense layers (Megatron: first_k_dense is part of the list).
      shape.denseLayersBeforeMoe = 0;
    } else
      assumptions.push({
        what: `moe_layer_freq ${JSON.stringify(v.moeLayerFreq)} not read: every layer counted as MoE`,
        source: 'not an integer, a 0/1 list or a list expression of them',
        provenance: 'default',
      });
  }
  if (int(v.mtpLayers) !== undefined) shape.mtpLayers = v.mtpLayers as number;
  else if (v.mtpLayers === null) shape.mtpLayers = 0;
  if (typeof v.mtpRepeated === 'boolean') shape.mtpRepeated = v.mtpRepeated;
  const mtpPattern = mtpDepthPattern(v.mtpPattern);
  if (mtpPattern) shape.mtpPattern = mtpPattern;
  if (v.mla === false) delete shape.mla;
  else if (v.mla === true) {
    const base = shape.mla;
    const qLora = v.qLoraRank === null ? undefined : (pos(v.qLoraRank) ?? (base ? base.qLoraRank : MLA_DEFAULTS.qLoraRank));
    shape.mla = {
      kvLoraRank: pos(v.kvLoraRank) ?? base?.kvLoraRank ?? MLA_DEFAULTS.kvLoraRank,
      qkRopeHeadDim: pos(v.qkPosHeadDim) ?? base?.qkRopeHeadDim ?? MLA_DEFAULTS.qkRopeHeadDim,
      ...(qLora !== undefined ? { qLoraRank: qLora } : {}),
      qkNopeHeadDim: pos(v.qkHeadDim) ?? base?.qkNopeHeadDim ?? MLA_DEFAULTS.qkNopeHeadDim,
      vHeadDim: pos(v.vHeadDim) ?? base?.vHeadDim ?? MLA_DEFAULTS.vHeadDim,
    };
  }
  const pattern = str(v.hybridPattern)?.trim();
  if (pattern) shape.hybridPattern = pattern;
  // The unified pattern "<main>/<mtp>/<mtp>…" names one depth's layers after each `/` (hybrid_layer_allocation.py).
  const depth = mtpDepthPattern(pattern?.split('/')[1]);
  if (depth) shape.mtpPattern = depth;
  if (shape.hybridPattern && /M/.test(shape.hybridPattern)) {
    const stated = [v.mambaStateDim, v.mambaHeadDim, v.mambaGroups, v.mambaHeads].some((x) => pos(x) !== undefined);
    const base = shape.mamba;
    const headDim = pos(v.mambaHeadDim) ?? base?.headDim ?? MAMBA_DEFAULTS.headDim;
    const numHeads = pos(v.mambaHeads) ?? (stated || !base ? (MAMBA_DEFAULTS.expand * shape.hidden) / headDim : base.numHeads);
    shape.mamba = {
      stateDim: pos(v.mambaStateDim) ?? base?.stateDim ?? MAMBA_DEFAULTS.stateDim,
      numHeads,
      headDim,
      groups: pos(v.mambaGroups) ?? base?.groups ?? MAMBA_DEFAULTS.groups,
      convKernel: base?.convKernel ?? MAMBA_DEFAULTS.convKernel,
    };
    if (!base && !stated)
      assumptions.push({
        what: `Mamba-2 mixer state ${shape.mamba.stateDim}, ${numHeads} heads × ${headDim}, ${shape.mamba.groups} groups, conv ${shape.mamba.convKernel}`,
        source: 'megatron-core defaults (mamba_state_dim 128, mamba_head_dim 64, mamba_num_groups 8; MambaMixer expand 2, d_conv 4)',
        provenance: 'default',
      });
  }
}
