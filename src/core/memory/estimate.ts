// The estimate for one document: training memory for NeMo / Megatron files, KV cache for TensorRT-LLM files.
import { baseName } from '../models/files.js';
import { pathHints } from '../models/pathHints.js';
import { chooseModel, type ChosenModel, type ModelRef } from '../models/select.js';
import type { WeightFormat } from '../models/types.js';
import type { PerfMatrixRun } from '../formats/bridgePerfMatrix.js';
import { TRTLLM_OPTIONS } from '../formats/trtllmOptions.js';
import {
  withChanges,
  type Recipe,
  type RetentionRecipe,
  type ServingRecipe,
  type ServingRoleName,
  type TrainingRecipe,
} from '../recipe.js';
import { retentionRanges } from '../rules/retention.js';
import type { FormatId } from '../types.js';
import type { TrainingConfig } from './config.js';
import { commonModelRefs, trainingInputs, type ExtractOptions } from './fromRecipe.js';
import { findGpu } from './gpus.js';
import { estimateKvCache, retentionCoverage, type KvCacheEstimate, type RetentionCoverage } from './kvcache.js';
import { automodelConfig, unmodelledRecipe } from './automodel.js';
import { estimateNemoRl, type RlMemory } from './nemoRl.js';
import { recurrentState } from './recurrentState.js';
import { servingWeights, type ServingWeights } from './servingWeights.js';
import { estimateTraining, type TrainingEstimate } from './training.js';
import type { Assumption, GpuSpec, ModelShape } from './types.js';

export interface EstimateOptions extends ExtractOptions {
  /** GPU id or `custom:<GiB>` of the recipeLens.gpu setting: the GPU when neither a modeline, --gpu nor the path names one. */
  gpu?: string;
  /** The CLI's --gpu: beats a GPU the path names (a modeline beats it). */
  explicitGpu?: string;
}

export const DEFAULT_GPU = 'h100';
/**
 * The data-centre GPUs a serving estimate tries, smallest first, when no GPU is named: a serving config is deployed on a
 * GPU it fits, so the estimate is shown on the first of these where every role fits (and says so), never as a failure
 * on an assumed H100. NVFP4 checkpoints start at Blackwell (TensorRT-LLM docs/source/features/quantization.md: NVFP4
 * GEMMs need SM100+).
 */
export const SERVING_GPU_LADDER = ['h100', 'h200', 'b200', 'gb200', 'b300', 'gb300'] as const;
const BLACKWELL = new Set(['b200', 'gb200', 'b300', 'gb300']);

export interface ServingRole {
  /** '' for a plain options file, else context_servers / generation_servers, or a perf-sanity server's name. */
  role: ServingRoleName;
  tp: number;
  pp: number;
  /** Context parallelism (Helix in generation servers): the KV cache of a sequence is split over CP ranks. */
  cp: number;
  /** moe_expert_parallel_size (the rest of TP splits each expert). */
  ep: number;
  attentionDp: boolean;
  /** GPUs of one instance of the role: TP · PP · CP. */
  gpus: number;
  /** Instances of the role (num_instances, or the wide-EP `hardware` counts). */
  instances?: number;
  maxSeqLen: number;
  weights: ServingWeights;
  /** Recurrent state of hybrid models (0 when none). */
  stateBytes: number;
  kv: KvCacheEstimate;
  /** What one GPU of the role holds: weights, non-KV runtime, recurrent state and the KV pool, and what stays free. */
  holds: { weights: number; runtime: number; state: number; kvPool: number; free: number };
  /** Weights, runtime and state fit the GPU (the pool then takes its fraction of the rest). */
  fits: boolean;
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
      modelRefs?: string[];
      /** The vocabulary is a stated guess (no tokenizer, model or modeline named it). */
      vocabAssumed?: boolean;
      /** The sequence length is a stated guess (a Megatron-Bridge override that leaves it to its recipe). */
      seqAssumed?: boolean;
      /** No GPU was named: the estimate is on the default GPU (findings say so). */
      gpuAssumed?: boolean;
    }
  | {
      kind: 'serving';
      format: FormatId;
      shape: ModelShape;
      model: ChosenModel;
      /** The checkpoint's weight format. */
      weights: WeightFormat;
      gpu: GpuSpec;
      /** Where the GPU came from: named (modeline, --gpu, the path, the setting) or the silent default. */
      gpuSource: GpuSource;
      roles: ServingRole[];
      assumptions: Assumption[];
      modelRefs?: string[];
    }
  | { kind: 'retention'; format: FormatId; coverage: RetentionCoverage; assumptions: Assumption[] }
  | { kind: 'none'; format: FormatId | null; reason: string; modelRefs?: string[] };

/**
 * The GPU: a `gpu=` modeline, else --gpu, else the one GPU the document's path names (an upstream config database's
 * `…/B200/…`), else the recipeLens.gpu setting, else H100. Anything but an explicit choice is stated.
 */
export type GpuSource = 'modeline' | 'cli' | 'path' | 'setting' | 'file' | 'default';

export function resolveGpu(
  modeline: Record<string, string>,
  opts: EstimateOptions,
): { gpu: GpuSpec; source: GpuSource; assumption?: Assumption } | { error: string } {
  const pick = (name: string, source: GpuSource) => {
    const g = findGpu(name);
    return g ? { gpu: g, source } : { error: `unknown GPU "${name}"` };
  };
  if (modeline.gpu) return pick(modeline.gpu, 'modeline');
  if (opts.explicitGpu) return pick(opts.explicitGpu, 'cli');
  const hint = pathHints(opts.documentPath).gpu;
  if (hint) {
    const g = findGpu(hint.id)!;
    return {
      gpu: g,
      source: 'path',
      assumption: {
        what: `GPU ${g.name}`,
        source: `the path segment "${hint.segment}" names it; set \`# recipe-lens: gpu=…\` or --gpu to choose another`,
        provenance: 'default',
      },
    };
  }
  if (opts.gpu) return pick(opts.gpu, 'setting');
  return {
    gpu: findGpu(DEFAULT_GPU)!,
    source: 'default',
    assumption: {
      what: `GPU ${findGpu(DEFAULT_GPU)!.name}`,
      source: 'no GPU named (modeline gpu=, --gpu, the path, the recipeLens.gpu setting): the default',
      provenance: 'default',
    },
  };
}

/**
 * The GPU a perf-sanity file lists first in `metadata.supported_gpus` (the harness runs it on each listed GPU:
 * tests/integration/defs/perf/test_perf_sanity.py SUPPORTED_GPU_MAPPING), when nobody named one.
 */
function supportedGpu(recipe: ServingRecipe): { gpu: GpuSpec; assumption: Assumption } | undefined {
  const listed = recipe.supportedGpus ?? [];
  const known = listed.map((name) => ({ name, gpu: findGpu(name) })).find((x) => x.gpu);
  if (!known) return undefined;
  const others = listed.filter((x) => x !== known.name);
  return {
    gpu: known.gpu!,
    assumption: {
      what: `GPU ${known.gpu!.name}`,
      source: `the first GPU of the file's metadata.supported_gpus${others.length ? ` (it also lists ${others.join(', ')})` : ''}; set \`# recipe-lens: gpu=…\` or --gpu to choose another`,
      provenance: 'file',
    },
  };
}

/** The estimate of one recipe document: training memory, the TensorRT-LLM KV pool, or a retention config's coverage. */
export function estimateRecipe(recipe: Recipe | undefined, modeline: Record<string, string>, opts: EstimateOptions = {}): DocEstimate {
  if (!recipe) return { kind: 'none', format: null, reason: 'not a recipe' };
  const format = recipe.format;
  const g = resolveGpu(modeline, opts);
  if ('error' in g) return { kind: 'none', format, reason: g.error };
  if (recipe.kind === 'retention') return retentionEstimate(recipe, modeline);
  if (recipe.kind === 'serving') {
    const encoder = encoderOnly(recipe, opts.documentPath);
    if (encoder) return { kind: 'none', format, reason: encoder };
    const listed = g.source === 'default' || g.source === 'path' ? supportedGpu(recipe) : undefined;
    try {
      if (listed) return servingEstimate(recipe, modeline, opts, listed.gpu, 'file', listed.assumption);
      return servingEstimate(recipe, modeline, opts, g.gpu, g.source, g.assumption);
    } catch (err) {
      // kvPerToken rejects a KV dtype it cannot size (RL-K3 reports it); no estimate then.
      return { kind: 'none', format, reason: (err as Error).message };
    }
  }
  if (recipe.rl) {
    // NeMo-RL: the model is policy.model_name, and a step has more phases than training (memory/nemoRl.ts).
    const e = estimateNemoRl(recipe, recipe.rl, modeline, g.gpu, opts);
    if (!e.ok) return { kind: 'none', format, reason: e.reason, modelRefs: e.modelRefs };
    return {
      kind: 'training',
      format,
      shape: e.shape,
      config: e.config,
      gpu: g.gpu,
      estimate: e.estimate,
      rl: e.rl,
      ...(g.source === 'default' ? { gpuAssumed: true } : {}),
    };
  }
  let training = recipe;
  let gpu = g.gpu;
  const stated: Assumption[] = g.assumption ? [g.assumption] : [];
  if (recipe.perfMatrix) {
    const run = perfMatrixRun(recipe, recipe.perfMatrix, g);
    if ('reason' in run) return { kind: 'none', format, reason: run.reason };
    training = run.recipe;
    gpu = run.gpu;
    stated.splice(0, stated.length, ...run.assumptions);
  }
  // NeMo Automodel: only next-token training of a causal LM is modelled; its settings follow memory/automodel.ts.
  const unmodelled = recipe.automodel && unmodelledRecipe(recipe.automodel);
  if (unmodelled) return { kind: 'none', format, reason: unmodelled };
  const ex = trainingInputs(training, modeline, opts);
  if (!ex.ok) return { kind: 'none', format, reason: ex.reason, modelRefs: ex.modelRefs };
  const assumptions = [...ex.assumptions, ...stated];
  const config = recipe.automodel ? automodelConfig(training, recipe.automodel, ex.config, ex.shape, gpu, assumptions) : ex.config;
  return {
    kind: 'training',
    format,
    shape: ex.shape,
    config,
    gpu,
    estimate: estimateTraining(ex.shape, config, gpu, assumptions),
    modelRefs: ex.modelRefs,
    ...(ex.vocabAssumed ? { vocabAssumed: true } : {}),
    ...(ex.seqAssumed ? { seqAssumed: true } : {}),
    ...(g.source === 'default' && !recipe.perfMatrix ? { gpuAssumed: true } : {}),
  };
}

/**
 * The run of a Megatron-Bridge performance config the estimate shows: the launcher's --gpu (the GPU named, else the
 * matrix's H100 run, else its first GPU), --num_gpus (the world size named, else the GPU's first count) and
 * --compute_dtype (bf16, the launcher's default, else the first block) — scripts/performance/utils/helpers.py
 * apply_perf_matrix_overrides. The choice and the other runs are stated.
 */
function perfMatrixRun(
  recipe: TrainingRecipe,
  runs: PerfMatrixRun[],
  g: { gpu: GpuSpec; source: GpuSource },
): { recipe: TrainingRecipe; gpu: GpuSpec; assumptions: Assumption[] } | { reason: string } {
  const list = (xs: string[]) => [...new Set(xs)].join(', ');
  const named = g.source !== 'default';
  const gpuKey = named
    ? runs.find((r) => findGpu(r.gpu)?.id === g.gpu.id)?.gpu
    : (runs.find((r) => findGpu(r.gpu)?.id === DEFAULT_GPU) ?? runs[0]!).gpu;
  if (!gpuKey) return { reason: `the perf_matrix has no run for the ${g.gpu.name} (it has ${list(runs.map((r) => r.gpu))})` };
  const onGpu = runs.filter((r) => r.gpu === gpuKey);
  const world = recipe.world?.size;
  const count = world !== undefined ? world : onGpu[0]!.numGpus;
  const counted = onGpu.filter((r) => r.numGpus === count);
  if (!counted.length)
    return {
      reason: `the perf_matrix has no ${gpuKey} run on ${count} GPUs (it has num_gpus ${list(onGpu.map((r) => String(r.numGpus)))})`,
    };
  const run = counted.find((r) => r.precision === 'bf16') ?? counted[0]!;
  const gpu = findGpu(run.gpu) ?? g.gpu;
  const others = runs.filter((r) => r !== run).map((r) => `${r.gpu}/${r.numGpus}/${r.precision}`);
  const assumptions: Assumption[] = [
    {
      what: `perf_matrix run ${run.gpu} · num_gpus_${run.numGpus} · ${run.precision}`,
      source:
        `the run the performance launcher starts with --gpu ${run.gpu} --num_gpus ${run.numGpus}${run.precision === 'bf16' ? '' : ` (${run.precision})`}` +
        ` (Megatron-Bridge scripts/performance/utils/helpers.py apply_perf_matrix_overrides: common merged with the precision block)` +
        (others.length
          ? `; the file also holds ${others.length} other run${others.length === 1 ? '' : 's'} (${others.slice(0, 8).join(', ')}${others.length > 8 ? ', …' : ''}): a gpu= or world_size= modeline picks another`
          : ''),
      provenance: 'file',
    },
  ];
  assumptions.push({
    what: 'settings the launcher sets in code are not counted',
    source:
      'the performance launcher builds the run from the model’s recipe function and model-specific code (scripts/performance/run_script.py: recompute modules, MoE token dropping, pipeline layouts), which the file does not show; the model’s defaults are assumed for them',
    provenance: 'default',
  });
  if (!named && findGpu(run.gpu))
    assumptions.push({
      what: `GPU ${gpu.name}`,
      source: `the perf_matrix run's GPU (${run.gpu}); set \`# recipe-lens: gpu=…\` to choose another of its GPUs`,
      provenance: 'file',
    });
  else if (named)
    assumptions.push({ what: `GPU ${gpu.name}`, source: `named (${g.source}); the perf_matrix has a ${run.gpu} run`, provenance: 'file' });
  const changed = withChanges(recipe, run.values);
  return { recipe: { ...changed, world: { size: run.numGpus, source: 'file' } }, gpu, assumptions };
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
      model: {
        name: e.shape.name,
        layers: e.shape.layers,
        kvHeads: e.shape.kvHeads,
        headDim: e.shape.headDim,
        source: { from: e.model.source, where: e.model.where, ref: e.model.ref },
        ...(e.model.checkpoint ? { checkpoint: e.model.checkpoint.hfId } : {}),
        ...(e.model.configPath ? { config: e.model.configPath } : {}),
        weights: { dtype: e.weights.dtype, scope: e.weights.scope, other: e.weights.other, source: e.weights.source },
      },
      gpu: { name: e.gpu.name, bytes: e.gpu.bytes },
      parallel: { tp: main.tp, pp: main.pp, cp: main.cp, ep: main.ep, attentionDp: main.attentionDp },
      perGpu: {
        weights: k.weightBytes,
        kvCache: k.allocatedBytes,
        overhead: k.runtimeBytes,
        state: main.stateBytes,
        total: k.weightBytes + k.allocatedBytes + k.runtimeBytes + main.stateBytes,
      },
      fits: e.roles.every((r) => r.fits),
      kvCache: kvJson(main),
      roles: e.roles.map((r) => ({
        role: r.role,
        tp: r.tp,
        pp: r.pp,
        cp: r.cp,
        ep: r.ep,
        attentionDp: r.attentionDp,
        gpus: r.gpus,
        ...(r.instances !== undefined ? { instances: r.instances } : {}),
        fits: r.fits,
        holds: r.holds,
        weights: r.weights.lines,
        ...kvJson(r),
      })),
      assumptions: [...e.assumptions, ...e.roles.flatMap((r) => r.kv.assumptions)].map((a) => ({
        what: a.what,
        source: a.source,
        provenance: a.provenance,
      })),
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
      // Allocated of a fresh run's first iteration (before the first step creates the optimizer states) and at the step.
      firstIteration: s.firstIteration,
      optimizerStep: s.optimizerStep,
      // Allocated once the step is done (the states and persistent buffers): what a log's "allocated" reports.
      afterStep: s.afterStep,
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

const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

/** Dynamo's launch scripts pass the encode worker's engine args as `encode.yaml` (ENCODE_ENGINE_ARGS). */
const DYNAMO_ENCODE_FILE = /^encode(?:[-_][\w-]*)?\.ya?ml$/i;

/**
 * Why a serving file sizes no LLM server: a multimodal encoder worker loads the vision encoder only and holds no KV cache.
 * TensorRT-LLM's MultimodalEncoder sets mm_encoder_only (tensorrt_llm/llmapi/mm_encoder.py), and Dynamo's encode worker
 * (DisaggregationMode.ENCODE) builds one from model, max_batch_size, trust_remote_code, tensor_parallel_size and
 * model_kwargs only (ai-dynamo/dynamo components/src/dynamo/trtllm/tests/test_trtllm_multimodal_encoder.py).
 */
function encoderOnly(recipe: ServingRecipe, documentPath: string | undefined): string | undefined {
  const none = 'Recipe Lens sizes the language model and its KV cache, and has no memory model for a vision encoder';
  if (recipe.roles.length && recipe.roles.every((r) => r.values.mmEncoderOnly === true))
    return `mm_encoder_only: true runs the multimodal encoder only (TensorRT-LLM MultimodalEncoder: no language model, no KV cache); ${none}`;
  const name = documentPath ? baseName(documentPath) : '';
  if (recipe.layout === '' && DYNAMO_ENCODE_FILE.test(name))
    return (
      `"${name}" is the engine args of Dynamo's encode worker, which runs TensorRT-LLM's MultimodalEncoder (the vision ` +
      `encoder only; of these options it passes model, max_batch_size, trust_remote_code, tensor_parallel_size and ` +
      `model_kwargs, so kv_cache_config and the rest are not used); ${none}`
    );
  return undefined;
}

function servingEstimate(
  recipe: ServingRecipe,
  modeline: Record<string, string>,
  opts: EstimateOptions,
  gpu: GpuSpec,
  gpuSource: GpuSource,
  gpuAssumption: Assumption | undefined,
): DocEstimate {
  const format = recipe.format;
  const common = commonModelRefs(modeline, opts);
  const fileRefs: ModelRef[] = [];
  for (const r of recipe.roles) {
    const m = r.values.model;
    const path = r.loc.model ? r.loc.model.path.join('.') : 'model';
    const where = r.launched?.model ?? (r.modelAlias ? `${path} ("${r.modelAlias}" in the perf harness's model table)` : path);
    if (typeof m === 'string' && !fileRefs.some((x) => x.ref === m)) fileRefs.push({ ref: m, source: 'file', where, authoritative: true });
  }
  // A perf-sanity list may run several models: the first that resolves sizes the servers that name it.
  const perModel = recipe.layout === 'server_configs' && fileRefs.length > 1;
  if (perModel) for (const r of fileRefs) r.authoritative = false;
  const refs = [...common.refs, ...fileRefs];
  const modelRefs = refs.map((r) => r.ref);
  const choice = chooseModel(refs, opts.models);
  if (choice.kind === 'none') {
    const named = refs.length > 0;
    return {
      kind: 'none',
      format,
      reason: named
        ? `${choice.reason}${common.notes.length ? `; ${common.notes.join('; ')}` : ''}`
        : `TensorRT-LLM options carry no model shape and neither the file nor its path names a model${common.notes.length ? ` (${common.notes.join('; ')})` : ''}; name one with \`# recipe-lens: model=ORG/NAME\` (a catalogue name, an HF id or a path to a config.json) or the recipeLens.model setting`,
      modelRefs,
    };
  }
  const model = choice.model;
  const shape = model.shape;
  // The servers whose own model_name is the chosen model (by the file, a modeline or the setting), else all of them.
  const resolvesTo = new Map<string, boolean>();
  const same = (ref: unknown) => {
    if (typeof ref !== 'string') return false;
    let hit = resolvesTo.get(ref);
    if (hit === undefined) {
      const c = chooseModel([{ ref, source: 'file', where: '', authoritative: false }], opts.models);
      resolvesTo.set(ref, (hit = ref === model.ref || (c.kind === 'chosen' && c.model.name === model.name)));
    }
    return hit;
  };
  const matching = perModel ? recipe.roles.filter((r) => same(r.values.model)) : recipe.roles;
  const sized = matching.length ? matching : recipe.roles;
  const left = recipe.roles.filter((r) => !sized.includes(r));
  const modelNote: Assumption[] = left.length
    ? [
        {
          what: `the servers of ${model.name} only`,
          source: `the file's servers run ${fileRefs.length} models; ${left.length} server${left.length === 1 ? '' : 's'} of ${[
            ...new Set(left.map((r) => String(r.values.model))),
          ].join(', ')} ${left.length === 1 ? 'is' : 'are'} not sized here: name one with \`# recipe-lens: model=…\` to size its servers`,
          provenance: 'file',
        },
      ]
    : [];
  // Each role adds its assumptions (max_seq_len, MTP, KV dtype) while it is sized, so every GPU tried gets its own list.
  // An embedded engine-args file: the settings its Dynamo worker's command line gives where the file is silent.
  const launched: Assumption[] = sized.flatMap((r) =>
    Object.entries(r.launched ?? {})
      .filter(([f]) => f !== 'model')
      .map(([f, where]) => ({
        what: `${TRTLLM_OPTIONS.paths[f as keyof typeof TRTLLM_OPTIONS.paths]?.[0] ?? f} = ${String((r.values as Record<string, unknown>)[f])}`,
        source: where,
        provenance: 'file' as const,
      })),
  );
  const build = (on: GpuSpec) => {
    const stated: Assumption[] = [...model.assumptions, ...modelNote, ...launched];
    return { gpu: on, roles: sized.map((r) => servingRole(r, recipe, shape, model, on, stated)), stated };
  };
  let chosen = build(gpu);
  if (gpuSource === 'default') {
    // No GPU named: the first GPU of the ladder where every role fits (NVFP4 from Blackwell on), stated as an assumption.
    const nvfp4 = model.weights.dtype === 'nvfp4';
    const ladder = SERVING_GPU_LADDER.filter((id) => !nvfp4 || BLACKWELL.has(id)).map((id) => findGpu(id)!);
    const tried: ReturnType<typeof build>[] = [];
    let pick: ReturnType<typeof build> | undefined;
    for (const candidate of ladder) {
      const built = candidate.id === chosen.gpu.id ? chosen : build(candidate);
      if (built.roles.every((r) => r.fits)) {
        pick = built;
        break;
      }
      tried.push(built);
    }
    const why = nvfp4 ? 'the checkpoint is NVFP4, which TensorRT-LLM runs on Blackwell GPUs only' : '';
    const setGpu = (built: ReturnType<typeof build>, source: string) => {
      chosen = built;
      gpuAssumption = { what: `GPU ${built.gpu.name}`, source, provenance: 'default' };
    };
    const choose = 'set `# recipe-lens: gpu=…` or --gpu to choose another';
    if (pick && (pick.gpu.id !== gpu.id || nvfp4))
      setGpu(
        pick,
        `no GPU named${why ? `, and ${why}` : ''}: ${tried.length ? `the weights and runtime do not fit the ${tried.map((t) => t.gpu.name).join(' or the ')}, so ` : ''}` +
          `estimated on the ${pick.gpu.name}, the smallest data-centre GPU where every role fits; ${choose}`,
      );
    else if (!pick && nvfp4)
      setGpu(
        tried[0]!,
        `no GPU named, and ${why}: estimated on the ${ladder[0]!.name} (it fits no data-centre GPU at this layout); ${choose}`,
      );
  }
  gpu = chosen.gpu;
  const roles = chosen.roles;
  const assumptions = gpuAssumption ? [...chosen.stated, gpuAssumption] : chosen.stated;
  return { kind: 'serving', format, shape, model, weights: model.weights, gpu, gpuSource, roles, assumptions, modelRefs };
}

function servingRole(
  r: ServingRecipe['roles'][number],
  recipe: ServingRecipe,
  shape: ModelShape,
  model: ChosenModel,
  gpu: GpuSpec,
  assumptions: Assumption[],
): ServingRole {
  const v = r.values;
  const tag = r.role ? ` (${r.role})` : '';
  // AutoDeploy shards over world_size when no tensor_parallel_size is given (examples/auto_deploy).
  const tp = n(v.tp) ?? n(v.worldSize) ?? 1;
  const pp = n(v.pp) ?? 1;
  const cp = n(v.cp) ?? 1;
  // moe_expert_parallel_size unset: every rank holds a TP slice of every expert (Mapping: moe_tp_size = tp_size, moe_ep_size = 1).
  const ep = n(v.ep) ?? 1;
  const attentionDp = v.attentionDp === true;
  if (typeof v.extraConfig === 'string')
    assumptions.push({
      what: `only this file's keys${tag}`,
      source: `the perf harness merges ${v.extraConfig} under this server's keys (test_perf_sanity.py generate_extra_llm_api_config; the server's keys win), and that file is not read here: a parallel size, max_seq_len or KV setting it sets is not counted`,
      provenance: 'default',
    });
  const maxNumTokens = n(v.maxNumTokens);
  let maxSeqLen = n(v.maxSeqLen);
  if (maxSeqLen === undefined) {
    // TorchLlmArgs leaves max_seq_len to the model's max_position_embeddings (llm_args.py / model config).
    maxSeqLen = shape.maxPositionEmbeddings ?? maxNumTokens ?? 8192;
    assumptions.push({
      what: `max_seq_len = ${maxSeqLen}${tag}`,
      source: shape.maxPositionEmbeddings
        ? `no max_seq_len in the file: TensorRT-LLM takes the model's max_position_embeddings`
        : maxNumTokens
          ? 'max_num_tokens (no max_seq_len in the file, and the model states no max_position_embeddings)'
          : 'no max_seq_len or max_num_tokens in the file',
      provenance: 'default',
    });
  }
  // MTP speculative decoding loads the model's MTP layers and caches KV for them (_util.py `_get_num_draft_layers`);
  // extra draft steps reuse them (MTP Eagle) [assumed: the model's num_nextn_predict_layers].
  const mtp = typeof v.specType === 'string' && /^mtp$/i.test(v.specType) ? (shape.mtpLayers ?? n(v.specLayers) ?? 1) : 0;
  if (mtp)
    assumptions.push({
      what: `${mtp} MTP layer${mtp === 1 ? '' : 's'} loaded and cached${tag}`,
      source: `speculative_config.decoding_type MTP; the model's ${shape.mtpLayers ? `num_nextn_predict_layers ${shape.mtpLayers}` : 'MTP layer count is unknown: num_nextn_predict_layers'} (TensorRT-LLM _util.py draft layers on the last PP rank)`,
      provenance: 'default',
    });
  const weights = servingWeights(shape, model.weights, {
    tp,
    pp,
    cp,
    attentionDp,
    lmHeadTpInAdp: v.lmHeadTpInAdp === true,
    ...(n(v.moeSlots) ? { expertSlots: n(v.moeSlots) } : {}),
    mtpLayers: mtp,
  });
  const state = recurrentState(shape, {
    tp,
    attentionDp,
    ...(n(v.maxBatchSize) ? { maxBatchSize: n(v.maxBatchSize) } : {}),
    ...(typeof v.mambaSsmDtype === 'string' ? { ssmDtype: v.mambaSsmDtype } : {}),
  });
  if (state) assumptions.push(...state.assumptions.map((a) => ({ ...a, what: a.what + tag })));
  // kv_cache_config.dtype 'auto' takes the checkpoint's KV format (hf_quant_config.json kv_cache_quant_algo), else the model dtype.
  let kvDtype = typeof v.kvDtype === 'string' ? v.kvDtype : undefined;
  if ((kvDtype === undefined || kvDtype.toLowerCase() === 'auto') && model.weights.kvCache) {
    kvDtype = model.weights.kvCache;
    assumptions.push({
      what: `KV cache dtype = ${kvDtype}${tag}`,
      source: `kv_cache_config.dtype auto: the checkpoint's kv_cache_quant_algo (${model.weights.source})`,
      provenance: 'preset',
    });
  }
  const fraction = v.freeGpuMemoryFraction;
  const kv = estimateKvCache({
    shape,
    gpu,
    tp,
    pp,
    cp,
    attentionDp,
    kvDtype,
    modelDtype:
      model.weights.scope === 'all' && (model.weights.dtype === 'fp16' || model.weights.dtype === 'fp32') ? model.weights.dtype : 'bf16',
    weightBytes: weights.bytes,
    stateBytes: state?.bytes ?? 0,
    draftLayers: mtp,
    maxNumTokens,
    maxSeqLen,
    maxBeamWidth: n(v.maxBeamWidth),
    tokensPerBlock: n(v.tokensPerBlock),
    freeGpuMemoryFraction: typeof fraction === 'number' ? fraction : fraction === null ? null : (n(v.topLevelFreeFraction) ?? undefined),
    maxTokens: n(v.maxTokens),
    maxGpuTotalBytes: n(v.maxGpuTotalBytes) || undefined,
    hostCacheSize: n(v.hostCacheSize),
  });
  const stateBytes = state?.bytes ?? 0;
  const used = kv.weightBytes + kv.runtimeBytes + stateBytes;
  const instances = n(v.instances);
  return {
    role: r.role,
    tp,
    pp,
    cp,
    ep,
    attentionDp,
    gpus: tp * pp * cp,
    ...(instances !== undefined ? { instances } : {}),
    maxSeqLen,
    weights,
    stateBytes,
    kv,
    holds: {
      weights: kv.weightBytes,
      runtime: kv.runtimeBytes,
      state: stateBytes,
      kvPool: kv.allocatedBytes,
      free: Math.max(0, gpu.bytes - used - kv.allocatedBytes),
    },
    fits: used <= gpu.bytes,
  };
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
