// NeMo-RL's GPU memory per phase of a step. The policy's training memory is estimateTraining's (megatron_cfg layout,
// or FSDP2 sharding for dtensor_cfg); around it NeMo-RL moves state between GPU and CPU (NVIDIA-NeMo/RL 7ea279a):
// - refit (colocated): offload_before_refit frees gradients and optimizer, vLLM wakes its weights, the policy streams
//   its weights through a buffer of NRL_REFIT_BUFFER_MEMORY_RATIO (0.3) × free memory (algorithms/grpo.py
//   refit_policy_generation); then offload_after_refit moves the policy's weights to CPU;
// - generation: vLLM holds gpu_memory_utilization × GPU (weights, activations, KV cache; vllm_worker.py); colocated,
//   the offloaded policy keeps only its CUDA context and NCCL buffers; non-colocated, generation has its own GPUs;
// - logprobs (and the reference model's): prepare_for_lp_inference brings the weights back, frees the gradient buffers
//   and leaves the optimizer where it is (on CPU after a colocated refit, on GPU otherwise unless
//   offload_optimizer_for_logprob); the reference model's weights are swapped into the same GPU tensors from a pinned
//   CPU copy (megatron_policy_worker.py / dtensor_policy_worker_v2.py use_reference_model): no extra GPU memory;
// - teacher (distillation): the teacher policy, kept on CPU between steps, is loaded for top-k logits with its own
//   parallel layout (distillation.py), the student's optimizer offloaded first;
// - training: prepare_for_training reloads everything; vLLM sleeps (level 1: weights to CPU, KV cache dropped).
import { fileAttention, optionalSettings } from './recipeSettings.js';
import type { NemoRlRead } from '../formats/nemoRl.js';
import { resolveModelRef } from '../models/resolve.js';
import { chooseModel, type ModelChoice, type ModelRef, type ResolvedModels } from '../models/select.js';
import type { TrainingRecipe } from '../recipe.js';
import { gib } from '../units.js';
import type { TrainingConfig } from './config.js';
import { hfKind, megatronKind } from './activations.js';
import { servingWeights } from './servingWeights.js';
import { bf16Weights } from '../models/weights.js';
import { enginePhaseLines, generationMemory, type RlGeneration } from './rlGeneration.js';
import { CUDA_CONTEXT_BYTES, deviceBytes, outsideAllocatorBytes } from './overheads.js';
import { countParams, kindsPresent, type LayerKind } from './params.js';
import { estimateTraining, fitVerdict, type TrainingEstimate } from './training.js';
import { torchAdamKernel } from './torchOptim.js';
import type { Assumption, GpuSpec, ModelShape } from './types.js';
import { modelVocab } from './weights.js';

export type RlPhaseId = 'refit' | 'generation' | 'logprob' | 'reference' | 'teacher' | 'training';

export interface RlLine {
  label: string;
  bytes: number;
  formula: string;
  source: string;
}

export interface RlPhase {
  id: RlPhaseId;
  label: string;
  /** The GPUs the phase runs on: the training cluster (colocated generation included) or generation's own. */
  gpus: 'training' | 'generation';
  /** Device bytes per GPU at the phase's peak; the lines sum to it. */
  bytes: number;
  lines: RlLine[];
  fit: TrainingEstimate['fit'];
}

export interface RlMemory {
  algorithm: string;
  backend: 'megatron' | 'dtensor';
  colocated: boolean;
  phases: RlPhase[];
  /** The most-loaded phase on the training GPUs, and on generation's own GPUs when it has them. */
  peak: { training: RlPhaseId; generation?: RlPhaseId };
  generation?: RlGeneration;
  /** The reference model for the KL term: loaded or not, and its pinned CPU copy per GPU. */
  reference: { loaded: boolean; why: string; hostBytes: number };
  teacher?: { model: string; tp: number; pp: number; cp: number; weightBytes: number };
  assumptions: Assumption[];
}

/** NRL_REFIT_BUFFER_MEMORY_RATIO default (algorithms/grpo.py refit_policy_generation). */
export const REFIT_BUFFER_RATIO = 0.3;

export type RlEstimate =
  | { ok: true; shape: ModelShape; config: TrainingConfig; estimate: TrainingEstimate; rl: RlMemory }
  /** `modelRefs`: references a host with file access may resolve (a local policy.model_name). */
  | { ok: false; reason: string; modelRefs?: string[] };

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const pos = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 1;

/** The model a NeMo-RL file trains: a modeline or setting wins, else policy.model_name through the model catalogue. */
/** Who may name the policy's model, in models/select.ts's order: modeline, --model, policy.model_name, the setting. */
export interface PolicyModelOptions {
  /** recipeLens.model. */
  model?: string;
  /** The CLI's --model. */
  explicitModel?: string;
  /** References the host resolved against local files (a local model_name path, the HF cache). */
  models?: ResolvedModels;
}

function policyModel(r: TrainingRecipe, modeline: Record<string, string>, opts: PolicyModelOptions): ModelChoice {
  const name = r.values.modelName;
  const refs: ModelRef[] = [
    ...(modeline.model ? [{ ref: modeline.model, source: 'modeline' as const, where: 'the modeline' }] : []),
    ...(opts.explicitModel ? [{ ref: opts.explicitModel, source: 'cli' as const, where: '--model' }] : []),
    // The policy NeMo-RL loads: when it does not resolve there is no estimate, never one of a model the setting names.
    ...(typeof name === 'string' ? [{ ref: name, source: 'file' as const, where: 'policy.model_name', authoritative: true }] : []),
    ...(opts.model ? [{ ref: opts.model, source: 'setting' as const, where: 'recipeLens.model' }] : []),
  ];
  return chooseModel(refs, opts.models);
}

/** The training settings NeMo-RL gives megatron-core or FSDP2, from the merged config. */
function trainingConfig(
  r: TrainingRecipe,
  rl: NemoRlRead,
  experts: number,
  assumptions: Assumption[],
): TrainingConfig | { reason: string } {
  const v = r.values;
  const x = rl.values;
  const dtensor = rl.backend === 'dtensor';
  const seq = num(v.seq);
  if (!pos(seq)) return { reason: 'policy.max_total_sequence_length is not known' };
  const mbs = pos(v.mbs) ? v.mbs : 1;
  let tokens = seq;
  let microBatch = mbs;
  if (x.packing === true || x.dynamicBatching === true) {
    // Packing and dynamic batching fill a micro-batch with up to train_mb_tokens tokens (lm_policy.py _shard_for_train).
    tokens = pos(x.trainMbTokens) ? x.trainMbTokens : seq * mbs;
    microBatch = 1;
    assumptions.push({
      what: `a micro-batch packs ${tokens} tokens (${x.packing === true ? 'sequence_packing' : 'dynamic_batching'}.train_mb_tokens), counted as one sequence of ${tokens}`,
      source:
        'flash attention over packed sequences (cu_seqlens) costs what one sequence of the same tokens costs; lm_policy.py _shard_for_train',
      provenance: pos(x.trainMbTokens) ? 'file' : 'default',
    });
  } else
    assumptions.push({
      what: `every sample padded to max_total_sequence_length ${seq} (an upper bound: NeMo-RL pads to the longest of the batch)`,
      source: 'no sequence packing or dynamic batching in the file',
      provenance: 'default',
    });
  const tp = pos(v.tp) ? v.tp : 1;
  const p = v.precision;
  const params: TrainingConfig['params'] = p === 'float32' ? 'fp32' : p === 'float16' ? 'fp16' : 'bf16';
  if (p !== 'bfloat16' && p !== 'float16' && p !== 'float32')
    assumptions.push({ what: 'policy.precision = bfloat16', source: 'not a known value in the file', provenance: 'default' });
  const gran = v.recomputeGranularity;
  const fp8 = !dtensor && (v.fp8 === 'e4m3' || v.fp8 === 'hybrid');
  const fp8Recipe = v.fp8Recipe;
  const peft = v.peft as { enabled?: unknown; dim?: unknown; target_modules?: unknown } | null | undefined;
  const lora = !dtensor && peft && typeof peft === 'object' && peft.enabled === true && pos(peft.dim);
  if (dtensor && x.dtensorLora === true)
    assumptions.push({
      what: 'LoRA adapters of dtensor_cfg.lora_cfg not counted (full-model gradients and optimizer)',
      source: 'an upper bound',
      provenance: 'default',
    });
  if (dtensor)
    assumptions.push({
      what: 'DTensor layers counted as Hugging Face layers (hf profile), FSDP2 over data parallel × context parallel',
      source: 'dtensor_cfg trains the HF / Automodel model under fully_shard (models/automodel/setup.py)',
      provenance: 'default',
    });
  assumptions.push({
    what: 'no dropout',
    source: 'NeMo-RL models come from Hugging Face checkpoints, whose RL and SFT configs train without dropout',
    provenance: 'default',
  });
  return {
    seq: tokens,
    microBatch,
    globalBatch: pos(v.gbs) ? v.gbs : undefined,
    tp,
    pp: pos(v.pp) ? v.pp : 1,
    vpp: null,
    cp: pos(v.cp) ? v.cp : 1,
    ep: pos(v.ep) ? v.ep : 1,
    etp: pos(v.etp) ? v.etp : tp,
    sp: v.sp === true && tp > 1,
    worldSize: r.world?.size,
    recompute: {
      granularity: gran === 'full' || gran === 'selective' ? gran : null,
      method: gran === 'full' ? 'uniform' : null,
      numLayers: gran === 'full' ? 1 : null,
      modules: Array.isArray(v.recomputeModules) ? v.recomputeModules.filter((m): m is string => typeof m === 'string') : ['core_attn'],
    },
    offloadLayers: 0,
    params,
    fp8: fp8 ? (fp8Recipe === 'blockwise' || fp8Recipe === 'tensorwise' || fp8Recipe === 'mxfp8' ? fp8Recipe : 'delayed') : null,
    fp4: null,
    quantizedParams: fp8 && v.fp8Param === true,
    distributedOptimizer: !dtensor && v.distOpt === true,
    gradReduceInFp32: !dtensor && v.gradFp32 === true,
    hiddenDropout: 0,
    attentionDropout: 0,
    profile: dtensor ? 'hf' : 'megatron',
    attention: (dtensor ? undefined : fileAttention(v)) ?? 'flash',
    // The settings megatron_cfg states (env_vars, MoE runtime, kernels, optimizer dtypes); LoRA and FSDP2 are read above.
    ...(dtensor
      ? environmentOnly(optionalSettings(v, r.family, fp8, experts, assumptions))
      : withoutPeft(optionalSettings(v, r.family, fp8, experts, assumptions))),
    ...(dtensor
      ? {
          fsdp: 'fsdp2' as const,
          // dtensor_policy_worker(_v2).py train() calls optimizer.zero_grad() (set_to_none) before each global batch.
          gradsFreedEachStep: true,
          ...torchAdamKernel(x.torchOptimizer, x.torchOptimizerForeach, x.torchOptimizerFused, 'policy.optimizer.kwargs', assumptions),
        }
      : {}),
    ...(lora
      ? {
          peft: {
            rank: peft.dim as number,
            targets:
              Array.isArray(peft.target_modules) && peft.target_modules.length
                ? peft.target_modules.filter((t): t is string => typeof t === 'string')
                : ['linear_qkv', 'linear_proj', 'linear_fc1', 'linear_fc2'],
          },
        }
      : {}),
  };
}

const withoutPeft = ({ peft: _peft, ...rest }: ReturnType<typeof optionalSettings>) => rest;
const environmentOnly = (o: ReturnType<typeof optionalSettings>) => ({
  ...(o.expandableSegments !== undefined ? { expandableSegments: o.expandableSegments } : {}),
  ...(o.cublasWorkspaceConfig !== undefined ? { cublasWorkspaceConfig: o.cublasWorkspaceConfig } : {}),
});

/** Bytes per vocab-parallel logit element in a no-grad logprob pass (distributed/model_utils.py DistributedLogprob). */
function logitBytes(dtensor: boolean): { bytes: number; formula: string } {
  // Megatron: bf16 logits, their fp32 copy, the max-shifted logits and exp / log-softmax (fp32) live together;
  // DTensor's FSDP2 MixedPrecisionPolicy outputs fp32 logits (output_dtype float32), so no separate copy.
  return dtensor
    ? { bytes: 12, formula: 'fp32 logits (4) + shifted (4) + exp / log-softmax (4) = 12 B per element' }
    : { bytes: 14, formula: 'bf16 logits (2) + fp32 copy (4) + shifted (4) + exp / log-softmax (4) = 14 B per element' };
}

/** The working set of a no-grad forward: one layer's tensors at a time plus the logits of the micro-batch. */
function forwardWorkingSet(shape: ModelShape, c: TrainingConfig, tokens: number, what: string): { lines: RlLine[]; bytes: number } {
  const s = tokens / c.cp;
  // The largest layer kind the model holds (a hybrid stack's Mamba layer can exceed its attention and MoE layers).
  const kindBytes = (k: LayerKind) => (c.profile === 'hf' ? hfKind(shape, c, 1, s, k) : megatronKind(shape, c, 1, s, k, false)).stored;
  const layerBytes = Math.max(0, ...kindsPresent(shape).map(kindBytes));
  const V = modelVocab(shape, c);
  const lb = logitBytes(c.profile === 'hf');
  // Both backends shard the output layer over TP (DTensor: lm_head ColwiseParallel(output_layouts=Shard(-1)), dtensor/parallelize.py).
  const logits = ((s * V) / c.tp) * lb.bytes;
  const lines: RlLine[] = [
    {
      label: `${what}: one layer's activations (no-grad forward of ${tokens} tokens${c.cp > 1 ? ` / CP ${c.cp}` : ''})`,
      bytes: layerBytes,
      formula: `per-layer inventory of the training profile at b = 1, s = ${s}`,
      source: 'memory/activations.ts; a forward without autograd frees each layer before the next',
    },
    {
      label: `${what}: logits and log-softmax`,
      bytes: logits,
      formula: `${s} tokens × V/TP ${V}/${c.tp} × ${lb.formula}`,
      source: 'nemo_rl/distributed/model_utils.py DistributedLogprob; models/dtensor/parallelize.py lm_head Shard(-1)',
    },
  ];
  return { lines, bytes: layerBytes + logits };
}

/** The whole estimate of a NeMo-RL file: the training estimate of the policy and the memory of every phase. */
export function estimateNemoRl(
  r: TrainingRecipe,
  rl: NemoRlRead,
  modeline: Record<string, string>,
  gpu: GpuSpec,
  opts: PolicyModelOptions = {},
): RlEstimate {
  const backend = rl.backend;
  const modelRefs = typeof r.values.modelName === 'string' ? [r.values.modelName] : [];
  if (!backend) return { ok: false, reason: 'neither policy.megatron_cfg nor policy.dtensor_cfg is enabled', modelRefs };
  const choice = policyModel(r, modeline, opts);
  if (choice.kind !== 'chosen') return { ok: false, reason: `no model shape for the policy: ${choice.reason}`, modelRefs };
  const shape = choice.model.shape;
  const assumptions: Assumption[] = [...choice.model.assumptions];
  const config = trainingConfig(r, rl, shape.experts, assumptions);
  if ('reason' in config) return { ok: false, reason: config.reason, modelRefs };
  if (config.pp > shape.layers) return { ok: false, reason: `pipeline size ${config.pp} exceeds the model's ${shape.layers} layers` };
  if (r.world === undefined)
    assumptions.push({
      what: 'data-parallel size 1 for the optimizer shard',
      source: 'world' in rl && 'unknown' in rl.world ? rl.world.unknown : 'the training GPUs are not known',
      provenance: 'default',
    });
  const estimate = estimateTraining(shape, config, gpu, assumptions);
  const rlMemory = phases(r, rl, shape, config, estimate, gpu);
  return { ok: true, shape, config, estimate, rl: rlMemory };
}

function phases(r: TrainingRecipe, rl: NemoRlRead, shape: ModelShape, c: TrainingConfig, t: TrainingEstimate, gpu: GpuSpec): RlMemory {
  const x = rl.values;
  const assumptions: Assumption[] = [];
  const backend = rl.backend!;
  const generates = rl.algorithm === 'grpo' || rl.algorithm === 'distillation';
  const colocated = generates && x.colocated !== false;
  const out: RlPhase[] = [];
  const W = t.perGpu.weights;
  const O = t.perGpu.optimizer;
  const outside = outsideAllocatorBytes(c);
  // A colocated vLLM process asleep keeps its CUDA context on the GPU (sleep level 1 frees weights and KV cache).
  const sleeping: RlLine[] = colocated
    ? [
        {
          label: 'the sleeping vLLM worker’s CUDA context',
          bytes: CUDA_CONTEXT_BYTES,
          formula: `${gib(CUDA_CONTEXT_BYTES)} per process`,
          source: 'memory/overheads.ts CUDA context; vllm_worker.py sleep(level=1)',
        },
      ]
    : [];
  const policyPhase = (id: RlPhaseId, label: string, allocatedLines: RlLine[]): RlPhase => {
    const allocated = allocatedLines.reduce((a, l) => a + l.bytes, 0);
    const device = deviceBytes(allocated, c);
    const lines = [
      ...allocatedLines,
      {
        label: 'fragmentation, CUDA context and NCCL buffers of the policy worker',
        bytes: device - allocated,
        formula: 'as the training estimate’s overheads',
        source: 'memory/overheads.ts',
      },
      ...sleeping,
    ];
    const bytes = lines.reduce((a, l) => a + l.bytes, 0);
    return { id, label, gpus: 'training', bytes, lines, fit: fitVerdict(bytes, gpu.bytes) };
  };
  const weightsLine: RlLine = {
    label: 'policy weights',
    bytes: W,
    formula: t.breakdown.find((b) => b.category === 'weights')?.formula ?? 'as in training',
    source: 'the training estimate’s weights line',
  };

  // Generation engine.
  let generation: RlGeneration | undefined;
  if (generates) generation = generationMemory(rl, shape, gpu, assumptions, r);
  if (colocated && generation) {
    // refit: policy weights (gradients and optimizer offloaded) + the engine's weights + the transfer buffer.
    const fixed: RlLine[] = [
      weightsLine,
      {
        label: `${generation.backend} weights (woken for the refit)`,
        bytes: generation.weightBytes,
        formula: `weights / (TP·PP = ${generation.tp}·${generation.pp})`,
        source: 'memory/servingWeights.ts; prepare_for_generation(tags=["weights"])',
      },
      {
        label: 'policy worker CUDA context and NCCL buffers',
        bytes: outside,
        formula: 'context + NCCL budget',
        source: 'memory/overheads.ts outsideAllocatorBytes',
      },
      {
        label: 'generation worker CUDA context',
        bytes: CUDA_CONTEXT_BYTES,
        formula: `${gib(CUDA_CONTEXT_BYTES)} per process`,
        source: 'memory/overheads.ts',
      },
    ];
    const used = fixed.reduce((a, l) => a + l.bytes, 0);
    const buffer = REFIT_BUFFER_RATIO * Math.max(0, gpu.bytes - used);
    const lines: RlLine[] = [
      ...fixed,
      {
        label: 'refit buffer',
        bytes: buffer,
        formula: `${REFIT_BUFFER_RATIO} × free memory (${gib(Math.max(0, gpu.bytes - used))})`,
        source: 'algorithms/grpo.py refit_policy_generation (NRL_REFIT_BUFFER_MEMORY_RATIO)',
      },
    ];
    const bytes = used + buffer;
    out.push({ id: 'refit', label: 'weight refit (colocated)', gpus: 'training', bytes, lines, fit: fitVerdict(bytes, gpu.bytes) });
  }
  if (generation) {
    const engine = enginePhaseLines(generation, gpu);
    const lines = colocated
      ? [
          ...engine,
          {
            label: 'offloaded policy worker: CUDA context and NCCL buffers',
            bytes: outside,
            formula: 'memory/overheads.ts',
            source: 'offload_after_refit moves weights, gradients and optimizer to CPU',
          },
        ]
      : engine;
    const bytes = lines.reduce((a, l) => a + l.bytes, 0);
    out.push({
      id: 'generation',
      label: colocated ? 'generation (colocated)' : 'generation (own GPUs)',
      gpus: colocated ? 'training' : 'generation',
      bytes,
      lines,
      fit: fitVerdict(bytes, gpu.bytes),
    });
  }

  // Logprobs of the policy (and of the reference model, swapped into the same tensors).
  const lpTokens =
    x.packing === true || x.dynamicBatching === true
      ? pos(x.logprobMbTokens)
        ? x.logprobMbTokens
        : c.seq
      : (pos(x.logprobBatch) ? x.logprobBatch : c.microBatch) * c.seq;
  const optimizerOnGpu = !colocated && x.offloadOptimizerForLogprob !== true;
  const lp = forwardWorkingSet(shape, c, lpTokens, 'logprob pass');
  const lpLines: RlLine[] = [
    weightsLine,
    ...(optimizerOnGpu
      ? [
          {
            label: 'optimizer state (stays on GPU)',
            bytes: O,
            formula: 'as in training',
            source: 'prepare_for_lp_inference: offload_optimizer_for_logprob false',
          },
        ]
      : []),
    ...lp.lines,
  ];
  const refLoaded = referenceLoaded(rl);
  if (rl.algorithm !== 'sft' && rl.algorithm !== 'rm') out.push(policyPhase('logprob', 'policy logprobs', lpLines));
  if (refLoaded.loaded) out.push(policyPhase('reference', 'reference-model logprobs (weights swapped in place)', lpLines));

  // Teacher (distillation).
  let teacher: RlMemory['teacher'];
  if (rl.algorithm === 'distillation') {
    const tp = teacherPhase(rl, c, W, colocated, assumptions, r.world?.size);
    if (tp) {
      teacher = tp.teacher;
      out.push(policyPhase('teacher', `teacher top-k logits (${tp.teacher.model})`, tp.lines));
    }
  }

  // Training: the training estimate, plus a sleeping colocated engine's context.
  const trainLines: RlLine[] = [
    ...t.breakdown.map((b) => ({ label: b.label, bytes: b.bytes, formula: b.formula, source: b.source })),
    ...sleeping,
  ];
  const trainBytes = t.perGpu.total + sleeping.reduce((a, l) => a + l.bytes, 0);
  out.push({
    id: 'training',
    label: 'policy training',
    gpus: 'training',
    bytes: trainBytes,
    lines: trainLines,
    fit: fitVerdict(trainBytes, gpu.bytes),
  });

  const top = (g: 'training' | 'generation') =>
    out.filter((p) => p.gpus === g).reduce<RlPhase | undefined>((a, p) => (!a || p.bytes > a.bytes ? p : a), undefined)?.id;
  const genPeak = top('generation');
  return {
    algorithm: rl.algorithm ?? 'unknown',
    backend,
    colocated,
    phases: out,
    peak: { training: top('training')!, ...(genPeak ? { generation: genPeak } : {}) },
    ...(generation ? { generation } : {}),
    reference: { ...refLoaded, hostBytes: refLoaded.loaded ? W : 0 },
    ...(teacher ? { teacher } : {}),
    assumptions,
  };
}

/** Whether the policy keeps a reference model: GRPO when the KL penalty is > 0 (grpo.py init_reference_model), DPO always. */
function referenceLoaded(rl: NemoRlRead): { loaded: boolean; why: string } {
  if (rl.algorithm === 'dpo') return { loaded: true, why: 'DPO compares with the reference policy (dpo.py init_reference_model=True)' };
  if (rl.algorithm === 'grpo') {
    const kl = rl.values.klPenalty;
    if (typeof kl === 'number')
      return kl > 0
        ? { loaded: true, why: `loss_fn.reference_policy_kl_penalty ${kl} > 0 (grpo.py init_reference_model)` }
        : { loaded: false, why: 'loss_fn.reference_policy_kl_penalty is 0: no reference model (grpo.py)' };
    return { loaded: false, why: 'loss_fn.reference_policy_kl_penalty is not known' };
  }
  return { loaded: false, why: `${rl.algorithm ?? 'this algorithm'} loads no reference model` };
}

/** Distillation's teacher: weights in its own layout plus its top-k forward (distillation.py, teacher_policy). */
function teacherPhase(
  rl: NemoRlRead,
  student: TrainingConfig,
  studentWeights: number,
  colocated: boolean,
  assumptions: Assumption[],
  world: number | undefined,
): { teacher: NonNullable<RlMemory['teacher']>; lines: RlLine[] } | undefined {
  const x = rl.values;
  const name = x.teacherModel;
  if (typeof name !== 'string') return undefined;
  const ref = resolveModelRef(name, undefined, 'file');
  if (ref.kind !== 'catalogue' && ref.kind !== 'config') {
    assumptions.push({ what: `teacher ${name} not estimated`, source: ref.message, provenance: 'default' });
    return undefined;
  }
  const shape = ref.shape;
  const megatron = x.teacherMegatron === true;
  const tp = megatron ? (pos(x.teacherTp) ? x.teacherTp : 1) : pos(x.teacherDtTp) ? x.teacherDtTp : 1;
  const pp = megatron && pos(x.teacherPp) ? x.teacherPp : 1;
  const cp = megatron ? (pos(x.teacherCp) ? x.teacherCp : 1) : pos(x.teacherDtCp) ? x.teacherDtCp : 1;
  const params = countParams(shape).total;
  const w = world ?? tp * pp * cp;
  // Megatron: bf16 weights over TP·PP (experts over EP within); DTensor: fp32 master weights sharded over the whole mesh (FSDP2).
  const weightBytes = megatron
    ? servingWeights(shape, bf16Weights('Megatron inference weights in BF16'), { tp, pp }).bytes
    : (params * 4) / w;
  const tc: TrainingConfig = {
    ...student,
    tp,
    pp,
    cp,
    sp: student.sp && tp > 1,
    profile: megatron ? 'megatron' : 'hf',
    fsdp: megatron ? null : 'fsdp2',
  };
  const seq = num(x.teacherSeq) ?? student.seq;
  const batch = pos(x.teacherLogprobBatch) ? x.teacherLogprobBatch : 1;
  const fwd = forwardWorkingSet(shape, tc, batch * seq, 'teacher forward');
  const lines: RlLine[] = [
    {
      label: `teacher weights (${ref.kind === 'catalogue' ? ref.entry.title : name})`,
      bytes: weightBytes,
      formula: megatron ? `bf16 weights / (TP·PP = ${tp}·${pp})` : `${params} parameters × 4 B (fp32) / ${w} GPUs (FSDP2)`,
      source: megatron ? 'memory/servingWeights.ts' : 'models/automodel/setup.py torch_dtype=float32, fully_shard',
    },
    ...fwd.lines,
    ...(colocated
      ? []
      : [
          {
            label: 'student weights (non-colocated: stay on GPU; optimizer offloaded first)',
            bytes: studentWeights,
            formula: 'as in training',
            source: 'distillation.py: student_policy.offload_before_refit() before the teacher pass',
          },
        ]),
  ];
  return { teacher: { model: name, tp, pp, cp, weightBytes }, lines };
}
