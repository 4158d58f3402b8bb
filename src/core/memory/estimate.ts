// The estimate for one document: training memory for NeMo / Megatron files, KV cache for TensorRT-LLM files.
import type { Recipe, RetentionRecipe, ServingRecipe } from '../recipe.js';
import { retentionRanges } from '../rules/retention.js';
import type { FormatId } from '../types.js';
import type { TrainingConfig } from './config.js';
import { trainingInputs, type ExtractOptions } from './fromRecipe.js';
import { findGpu } from './gpus.js';
import { estimateKvCache, retentionCoverage, type KvCacheEstimate, type RetentionCoverage, type WeightDtype } from './kvcache.js';
import { estimateNemoRl, type RlMemory } from './nemoRl.js';
import { findPreset, MODEL_PRESETS } from './presets.js';
import { estimateTraining, type TrainingEstimate } from './training.js';
import type { Assumption, GpuSpec, ModelShape } from './types.js';

export interface EstimateOptions extends ExtractOptions {
  /** GPU preset id or `custom:<GiB>` from a setting or `--gpu`; a modeline `gpu=` wins. */
  gpu?: string;
}

export const DEFAULT_GPU = 'h100';

export interface ServingRole {
  /** '' for a plain options file, else context_servers / generation_servers. */
  role: '' | 'context_servers' | 'generation_servers';
  tp: number;
  pp: number;
  attentionDp: boolean;
  maxSeqLen: number;
  kv: KvCacheEstimate;
}

export type DocEstimate =
  | {
      kind: 'training';
      format: FormatId;
      shape: ModelShape;
      config: TrainingConfig;
      gpu: GpuSpec;
      estimate: TrainingEstimate;
      /** NeMo-RL: every phase of a step (generation, refit, logprobs, reference, teacher, training); `estimate` is the training phase. */
      rl?: RlMemory;
    }
  | {
      kind: 'serving';
      format: FormatId;
      shape: ModelShape;
      gpu: GpuSpec;
      roles: ServingRole[];
      assumptions: Assumption[];
      weightDtype: WeightDtype;
    }
  | { kind: 'retention'; format: FormatId; coverage: RetentionCoverage; assumptions: Assumption[] }
  | { kind: 'none'; format: FormatId | null; reason: string };

export function resolveGpu(modeline: Record<string, string>, opts: EstimateOptions): GpuSpec | { error: string } {
  const name = modeline.gpu ?? opts.gpu ?? DEFAULT_GPU;
  return findGpu(name) ?? { error: `unknown GPU "${name}"` };
}

/** The estimate of one recipe document: training memory, the TensorRT-LLM KV pool, or a retention config's coverage. */
export function estimateRecipe(recipe: Recipe | undefined, modeline: Record<string, string>, opts: EstimateOptions = {}): DocEstimate {
  if (!recipe) return { kind: 'none', format: null, reason: 'not a recipe' };
  const format = recipe.format;
  const gpu = resolveGpu(modeline, opts);
  if ('error' in gpu) return { kind: 'none', format, reason: gpu.error };
  if (recipe.kind === 'retention') return retentionEstimate(recipe, modeline);
  if (recipe.kind === 'serving') {
    try {
      return servingEstimate(recipe, modeline, opts, gpu);
    } catch (err) {
      // kvPerToken rejects a KV dtype it cannot size (RL-K3 reports it); no estimate then.
      return { kind: 'none', format, reason: (err as Error).message };
    }
  }
  if (recipe.rl) {
    // NeMo-RL: the model is policy.model_name, and a step has more phases than training (memory/nemoRl.ts).
    const e = estimateNemoRl(recipe, recipe.rl, modeline, gpu, opts.model);
    if (!e.ok) return { kind: 'none', format, reason: e.reason };
    return { kind: 'training', format, shape: e.shape, config: e.config, gpu, estimate: e.estimate, rl: e.rl };
  }
  const ex = trainingInputs(recipe, modeline, opts);
  if (!ex.ok) return { kind: 'none', format, reason: ex.reason };
  return {
    kind: 'training',
    format,
    shape: ex.shape,
    config: ex.config,
    gpu,
    estimate: estimateTraining(ex.shape, ex.config, gpu, ex.assumptions),
  };
}

/** Re-run the estimate with another configuration (what-if). */
export function reestimate(e: Extract<DocEstimate, { kind: 'training' }>, config: TrainingConfig, gpu: GpuSpec = e.gpu): TrainingEstimate {
  return estimateTraining(e.shape, config, gpu, e.estimate.assumptions);
}

/** The JSON the CLI prints (`recipe-lens estimate --format json`). */
export function estimateJson(e: Exclude<DocEstimate, { kind: 'none' }>): object {
  if (e.kind === 'serving') {
    const main = e.roles.find((r) => r.role === 'generation_servers') ?? e.roles[0]!;
    const k = main.kv;
    return {
      format: e.format,
      model: { name: e.shape.name, layers: e.shape.layers, kvHeads: e.shape.kvHeads, headDim: e.shape.headDim },
      gpu: { name: e.gpu.name, bytes: e.gpu.bytes },
      parallel: { tp: main.tp, pp: main.pp, attentionDp: main.attentionDp },
      perGpu: {
        weights: k.weightBytes,
        kvCache: k.allocatedBytes,
        overhead: k.runtimeBytes,
        total: k.weightBytes + k.allocatedBytes + k.runtimeBytes,
      },
      kvCache: kvJson(main),
      ...(e.roles.length > 1 ? { roles: e.roles.map((r) => ({ role: r.role, ...kvJson(r) })) } : {}),
      assumptions: [...e.assumptions, ...k.assumptions].map((a) => ({ what: a.what, source: a.source, provenance: a.provenance })),
    };
  }
  if (e.kind === 'retention') return { format: e.format, retention: e.coverage, assumptions: e.assumptions };
  const t = e.estimate;
  return {
    format: e.format,
    model: {
      name: e.shape.name,
      layers: e.shape.layers,
      hidden: e.shape.hidden,
      heads: e.shape.heads,
      kvHeads: e.shape.kvHeads,
      vocab: e.shape.vocab,
      paddedVocab: t.model.paddedVocab,
      paramsPerGpu: t.model.paramsPerGpu,
    },
    gpu: { name: e.gpu.name, bytes: e.gpu.bytes },
    profile: e.config.profile,
    attention: e.config.attention,
    parallel: t.parallel,
    perGpu: t.perGpu,
    // The three PyTorch levels per pipeline rank: allocated (max_memory_allocated), reserved (max_memory_reserved), device.
    stage: t.stage,
    mostLoadedRank: { stage: t.stage, allocated: t.perGpu.allocated, reserved: t.perGpu.reserved, device: t.perGpu.device },
    stages: t.stages.map((s) => ({
      stage: s.stage,
      layers: s.layers,
      allocated: s.allocated,
      reserved: s.reserved,
      device: s.device,
      weights: s.weights,
      gradients: s.gradients,
      optimizer: s.optimizer,
      activations: s.activations,
      transient: s.transient,
      overhead: s.overhead,
      total: s.total,
      inFlight: s.inFlight,
    })),
    pipeline: t.pipeline,
    fit: t.fit,
    breakdown: t.breakdown,
    ...(e.rl ? { rl: e.rl } : {}),
    assumptions: t.assumptions.map((a: Assumption) => ({ what: a.what, source: a.source, provenance: a.provenance })),
  };
}

/** Weight dtype from the checkpoint name (FP8 / NVFP4 / gpt-oss MXFP4), else BF16. */
function weightDtypeOf(name: string): { dtype: WeightDtype; why: string } {
  if (/nvfp4|fp4/i.test(name)) return { dtype: 'nvfp4', why: `checkpoint name "${name}" says FP4` };
  if (/fp8/i.test(name)) return { dtype: 'fp8', why: `checkpoint name "${name}" says FP8` };
  if (/gpt-oss/i.test(name)) return { dtype: 'mxfp4', why: 'gpt-oss checkpoints ship MXFP4 experts' };
  return { dtype: 'bf16', why: 'no quantization in the model name' };
}

function servingEstimate(recipe: ServingRecipe, modeline: Record<string, string>, opts: EstimateOptions, gpu: GpuSpec): DocEstimate {
  const format = recipe.format;
  const fileModel = recipe.roles.map((r) => r.values.model).find((m): m is string => typeof m === 'string');
  const modelName = fileModel;
  const presetId = findPreset(modeline.model ?? '') ?? findPreset(opts.model ?? '') ?? findPreset(modelName ?? '');
  if (!presetId)
    return {
      kind: 'none',
      format,
      reason:
        modeline.model || opts.model
          ? `unknown model preset "${modeline.model ?? opts.model}"`
          : `TensorRT-LLM options carry no model shape${modelName ? ` and "${modelName}" is no known preset` : ''}; name one with \`# recipe-lens: model=llama3-70b\` or the recipeLens.model setting`,
    };
  const shape = MODEL_PRESETS[presetId]!;
  const assumptions: Assumption[] = [
    {
      what: `model shape of ${shape.name}`,
      source: modeline.model ? 'recipe-lens modeline' : opts.model ? 'recipeLens.model setting' : `the file's model "${modelName}"`,
      provenance: modeline.model ? 'modeline' : opts.model ? 'setting' : 'file',
    },
  ];
  const wd = weightDtypeOf(modeline.model ?? modelName ?? opts.model ?? '');
  assumptions.push({ what: `weights stored as ${wd.dtype}`, source: wd.why, provenance: 'default' });
  const roles: ServingRole[] = [];
  for (const r of recipe.roles) {
    const v = r.values;
    const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
    const tp = n(v.tp) ?? 1;
    const pp = n(v.pp) ?? 1;
    const maxNumTokens = n(v.maxNumTokens);
    let maxSeqLen = n(v.maxSeqLen);
    if (maxSeqLen === undefined) {
      maxSeqLen = maxNumTokens ?? 8192;
      assumptions.push({
        what: `max_seq_len = ${maxSeqLen}${r.role ? ` (${r.role})` : ''}`,
        source: maxNumTokens ? 'max_num_tokens (no max_seq_len in the file)' : 'no max_seq_len or max_num_tokens in the file',
        provenance: 'default',
      });
    }
    const fraction = v.freeGpuMemoryFraction;
    const kv = estimateKvCache({
      shape,
      gpu,
      tp,
      pp,
      attentionDp: v.attentionDp === true,
      kvDtype: typeof v.kvDtype === 'string' ? v.kvDtype : undefined,
      weightDtype: wd.dtype,
      maxNumTokens,
      maxSeqLen,
      maxBeamWidth: n(v.maxBeamWidth),
      tokensPerBlock: n(v.tokensPerBlock),
      freeGpuMemoryFraction: typeof fraction === 'number' ? fraction : fraction === null ? null : (n(v.topLevelFreeFraction) ?? undefined),
      maxTokens: n(v.maxTokens),
      maxGpuTotalBytes: n(v.maxGpuTotalBytes) || undefined,
      hostCacheSize: n(v.hostCacheSize),
    });
    roles.push({ role: r.role, tp, pp, attentionDp: v.attentionDp === true, maxSeqLen, kv });
  }
  return { kind: 'serving', format, shape, gpu, roles, assumptions, weightDtype: wd.dtype };
}

function retentionEstimate(recipe: RetentionRecipe, modeline: Record<string, string>): DocEstimate {
  const ranges = retentionRanges(recipe).map((r) => ({
    tokenStart: r.start,
    tokenEnd: r.end,
    priority: r.priority ?? 35,
    durationMs: r.durationMs ?? null,
  }));
  const assumptions: Assumption[] = [];
  const tpb = Number(modeline.tokens_per_block) || 32;
  if (!modeline.tokens_per_block)
    assumptions.push({
      what: 'tokens_per_block = 32',
      source: "TensorRT-LLM KvCacheConfig default (set the serving file's value with a `tokens_per_block=` modeline)",
      provenance: 'default',
    });
  const v = recipe.values;
  const coverage = retentionCoverage(ranges, tpb, undefined, {
    decodeRetentionPriority: typeof v.decodePriority === 'number' ? v.decodePriority : undefined,
    decodeDurationMs: typeof v.decodeDurationMs === 'number' ? v.decodeDurationMs : null,
  });
  return { kind: 'retention', format: 'kv-retention', coverage, assumptions };
}

function kvJson(r: ServingRole): object {
  const k = r.kv;
  return {
    bytesPerToken: k.bytesPerToken,
    dtype: k.perToken.dtype,
    tokensPerBlock: k.tokensPerBlock,
    bytesPerBlock: k.bytesPerBlock,
    maxSeqLen: r.maxSeqLen,
    blocksPerSequence: k.blocksPerSequence,
    limit: k.limit,
    budgets: k.budgets,
    poolBytes: k.allocatedBytes,
    poolTokens: k.poolTokens,
    poolBlocks: k.poolBlocks,
    requestsAtMaxSeqLen: k.requestsAtMaxSeqLen,
    host: k.host,
    ...(k.windowPools ? { windowPools: k.windowPools } : {}),
  };
}
