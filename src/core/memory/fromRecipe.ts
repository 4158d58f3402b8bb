// The memory model's inputs from a normalized training recipe: the model shape and the training settings.
// Values in the file always win; the model the file (or a modeline, --model, the document's path or the setting) names
// fills the gaps from the model catalogue or a local config.json (src/core/models/select.ts), the tokenizer table the
// vocabulary; every filled value is listed as an assumption. Where a value lives in a file is the format tables'
// business (src/core/formats).
import { isHfId } from '../models/names.js';
import { pathHints } from '../models/pathHints.js';
import { chooseModel, runNameRef, type ChosenModel, type ModelRef, type ResolvedModels } from '../models/select.js';
import { assumeVocab, resolveTokenizerVocab } from '../models/tokenizers.js';
import type { TrainingRecipe } from '../recipe.js';
import { pathToString } from '../tree.js';
import type { Attention, Profile, TrainingConfig } from './config.js';
import { hybridLayers } from './params.js';
import { mixedPrecisionRecipe, withMixedPrecision, type Fp4Recipe, type Fp8Recipe, type MixedPrecisionFlags } from './precision.js';
import { applyFileStructure, fileAttention, optionalSettings } from './recipeSettings.js';
import type { Assumption, ModelShape } from './types.js';

export interface ExtractOptions {
  /** The recipeLens.model setting: the model when neither the file nor its path names one. */
  model?: string;
  /** The CLI's --model: beats what the file names (a modeline beats it). */
  explicitModel?: string;
  /** Model references the host resolved against local files (config.json, the HF cache), keyed as written. */
  models?: ResolvedModels;
  /** The document's path, for the model and GPU it names (upstream config databases put them there). */
  documentPath?: string;
  worldSize?: number;
  profile?: Profile;
  attention?: Attention;
}

const GATED = /swiglu|geglu|reglu|glu$/i;
/** The sequence length most Megatron-Bridge recipes set (src/megatron/bridge/recipes at 067f987: 227 of 420). */
export const BRIDGE_TYPICAL_SEQ = 4096;

export type Extracted =
  | {
      ok: true;
      shape: ModelShape;
      config: TrainingConfig;
      assumptions: Assumption[];
      model?: ChosenModel;
      modelRefs: string[];
      /** No file value, modeline, tokenizer or model gave the vocabulary: assumeVocab's stated guess is in use. */
      vocabAssumed: boolean;
      /** The sequence length is a stated guess (a Megatron-Bridge override that leaves it to its recipe's code). */
      seqAssumed?: boolean;
    }
  | { ok: false; reason: string; modelRefs: string[] };

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
const bool = (x: unknown) => (typeof x === 'boolean' ? x : undefined);

/**
 * A recipe that fine-tunes adapters only: a NeMo `peft_scheme` other than none, a Megatron-Bridge `peft:` section, a
 * NeMo-RL `megatron_cfg.peft` whose `enabled` is not false (policy/__init__.py MegatronPeftConfig).
 */
export const peftOn = (peft: unknown) =>
  peft !== undefined &&
  peft !== null &&
  peft !== 'none' &&
  peft !== false &&
  !(typeof peft === 'object' && !Array.isArray(peft) && (peft as { enabled?: unknown }).enabled === false);

/** The explicit, path and setting candidates every format shares (select.ts gives the order). */
export function commonModelRefs(modeline: Record<string, string>, opts: ExtractOptions): { refs: ModelRef[]; notes: string[] } {
  const refs: ModelRef[] = [];
  const notes: string[] = [];
  if (modeline.model) refs.push({ ref: modeline.model, source: 'modeline', where: 'the recipe-lens modeline' });
  if (opts.explicitModel) refs.push({ ref: opts.explicitModel, source: 'cli', where: 'the --model option' });
  const hint = pathHints(opts.documentPath);
  if (hint.model) refs.push({ ref: hint.model.ref, source: 'path', where: `the path segment "${hint.model.segment}"` });
  else if (hint.ambiguous)
    notes.push(`the path segment "${hint.ambiguous.segment}" fits several models (${hint.ambiguous.choices.slice(0, 6).join(', ')})`);
  if (opts.model) refs.push({ ref: opts.model, source: 'setting', where: 'the recipeLens.model setting' });
  return { refs, notes };
}

/** What a training recipe names as its model: a run or model name, NeMo 2 / Megatron-Bridge classes, an HF tokenizer id. */
function fileModelRefs(recipe: TrainingRecipe): ModelRef[] {
  const v = recipe.values;
  const at = (k: 'modelName' | 'loadsModel' | 'modelClasses' | 'tokType' | 'tokModel' | 'checkpoint', fallback: string) => {
    const loc = recipe.loc[k];
    return loc ? pathToString(loc.path) || fallback : fallback;
  };
  const refs: ModelRef[] = [];
  // The model the run loads (Automodel's from_pretrained id or path): when it does not resolve there is no estimate.
  const loads = str(v.loadsModel)?.trim();
  if (loads && !/\$\{/.test(loads))
    refs.push({ ref: loads, source: 'file', where: at('loadsModel', 'the model path'), authoritative: true });
  const run = runNameRef(str(v.modelName));
  if (run) refs.push({ ref: run, source: 'file', where: at('modelName', 'the run name') });
  // A checkpoint path names its model in its last folders (`./checkpoints/llama32_1b`, `…/megatron_qwen2.nemo`).
  const ckpt = str(v.checkpoint)
    ?.split(/[\\/]+/)
    .filter((seg) => seg && !/\$\{/.test(seg))
    .slice(-2)
    .reverse()
    .map((seg) => runNameRef(seg.replace(/\.nemo$/, '')))
    .find((r) => r);
  if (ckpt) refs.push({ ref: ckpt, source: 'file', where: at('checkpoint', 'the checkpoint path') });
  const classes = Array.isArray(v.modelClasses) ? v.modelClasses.filter((x): x is string => typeof x === 'string') : [];
  for (const c of classes) refs.push({ ref: c, source: 'file', where: at('modelClasses', '_target_') });
  // A tokenizer names a model only as an HF id (`meta-llama/Meta-Llama-3-8B`); Megatron types and files name none.
  for (const k of ['tokModel', 'tokType'] as const) {
    const t = str(v[k])?.trim();
    if (t && isHfId(t)) refs.push({ ref: t, source: 'file', where: at(k, 'the tokenizer'), tokenizer: true });
  }
  return refs;
}

/** Everything the training estimate needs, or why it cannot be made. */
export function trainingInputs(recipe: TrainingRecipe, modeline: Record<string, string>, opts: ExtractOptions = {}): Extracted {
  const v = recipe.values;
  const f = recipe.file;
  const nemo1 = recipe.family === 'nemo1';
  const assumptions: Assumption[] = [];
  const common = commonModelRefs(modeline, opts);
  const refs = [...common.refs, ...fileModelRefs(recipe)];
  const modelRefs = refs.map((r) => r.ref);
  // A named model fills gaps only if it agrees with the shape the file states (a 405B recipe may name the 8B tokenizer).
  // A hybrid layer pattern is the layer count when the file gives no num_layers (Megatron-LM arguments.py, NeMo MambaModel).
  const pattern = str(v.hybridPattern)?.trim();
  const fileLayers = num(f.layers) ?? (pattern ? hybridLayers(pattern).length || undefined : undefined);
  const stated: [string, number | undefined, (s: ModelShape) => number][] = [
    ['num_layers', fileLayers, (s) => s.layers],
    ['hidden_size', num(f.hidden), (s) => s.hidden],
    ['num_attention_heads', num(f.heads), (s) => s.heads],
  ];
  // The file states fewer layers than the model: a shortened proxy of it (or another model).
  const fewerLayers = (s: ModelShape) => fileLayers !== undefined && fileLayers < s.layers;
  const accept = (s: ModelShape, r: ModelRef) => {
    const bad = stated.filter(([, x, get]) => x !== undefined && x !== get(s));
    // A shortened proxy of the model the recipe is for (Bridge `kimi_k2_pretrain_l8`, perf overrides with num_layers 3):
    // the recipe's provider keeps its width and the file's num_layers replaces its depth. A tokenizer names only a
    // vocabulary, never the recipe, so it is not read this way.
    if (bad.length === 1 && bad[0]![0] === 'num_layers' && !r.tokenizer && !s.hybridPattern && fewerLayers(s)) return undefined;
    return bad.length ? bad.map(([k, x, get]) => `${k} ${get(s)}, the file ${x}`).join(', ') : undefined;
  };
  const choice = chooseModel(refs, opts.models, accept);
  // A model named explicitly (modeline, --model) that does not resolve is the answer, not something to fill around.
  if (choice.kind === 'none' && (modeline.model || opts.explicitModel)) return { ok: false, reason: choice.reason, modelRefs };
  const model = choice.kind === 'chosen' ? choice.model : undefined;
  const m = model?.shape;
  if (model) assumptions.push(model.assumptions[0]!, ...model.assumptions.slice(1).filter((a) => !/^weights stored as/.test(a.what)));
  const fill = <T>(what: string, fromFile: T | undefined, fromModel: T | undefined): T | undefined => {
    if (fromFile !== undefined && fromFile !== null) return fromFile;
    if (fromModel !== undefined && model) {
      assumptions.push({ what: `${what} = ${String(fromModel)}`, source: `model ${model.name}`, provenance: 'preset' });
      return fromModel;
    }
    return undefined;
  };
  const layers = fill('num_layers', fileLayers, m?.layers);
  if (model && m && fewerLayers(m))
    assumptions.push({
      what: `a ${fileLayers}-layer proxy of ${model.name}: its width and layer kinds, the file's num_layers (${m.layers} in the model)`,
      source: `${model.where} names "${model.ref}"; the file overrides num_layers`,
      provenance: 'file',
    });
  const hidden = fill('hidden_size', num(f.hidden), m?.hidden);
  const heads = fill('num_attention_heads', num(f.heads), m?.heads);
  // NeMo 1.x builds samples of model.data.seq_length (megatron_gpt_model.py build_train_valid_test_datasets
  // `seq_length=self.cfg.data.seq_length`); model.encoder_seq_length then only sizes positions.
  const dataSeq = nemo1 ? num(v.dataSeq) : undefined;
  let seq = dataSeq ?? num(v.seq);
  let seqAssumed = false;
  if (dataSeq !== undefined && num(v.seq) !== undefined && dataSeq !== num(v.seq))
    assumptions.push({
      what: `sequence length ${dataSeq} (model.data.seq_length)`,
      source: `NeMo builds training samples of model.data.seq_length; model.encoder_seq_length ${num(v.seq)} sizes the positions (megatron_gpt_model.py)`,
      provenance: 'file',
    });
  if (!layers || !hidden || !heads) {
    // The model the run loads is named but does not resolve: that is the reason, not a missing name.
    const named = choice.kind === 'none' && refs.some((r) => r.authoritative) ? choice.reason : undefined;
    const why =
      choice.kind === 'none' && choice.passedOver.length
        ? ` (${choice.reason})`
        : common.notes.length
          ? ` (${common.notes.join('; ')})`
          : '';
    return {
      ok: false,
      reason: `the model shape (num_layers, hidden_size, num_attention_heads) is not in the file and ${named ?? `no model is named${why}`}; name one with a \`# recipe-lens: model=ORG/NAME\` modeline (a catalogue name, an HF id or a path to a config.json)`,
      modelRefs,
    };
  }
  const seqModeline = Number(modeline.seq);
  if (!seq && Number.isInteger(seqModeline) && seqModeline >= 1) {
    seq = seqModeline;
    assumptions.push({ what: `sequence length ${seq}`, source: 'recipe-lens modeline seq=', provenance: 'modeline' });
  } else if (!seq && recipe.family === 'bridge' && model) {
    // A Megatron-Bridge override is merged onto a recipe that sets the length in code; the model is named, so the estimate
    // is shown at the length most of Bridge's recipes use, stated and editable, and no finding rests on it.
    seq = BRIDGE_TYPICAL_SEQ;
    seqAssumed = true;
    assumptions.push({
      what: `sequence length ${seq} (assumed)`,
      source:
        'not in the file: the recipe it overrides sets it in code; 4096 is the length of most Megatron-Bridge recipes (227 of 420 seq_length settings in src/megatron/bridge/recipes at 067f987; 8192 in 53, 2048 in 114); set `# recipe-lens: seq=N` for yours',
      provenance: 'default',
    });
  }
  if (!seq)
    return {
      ok: false,
      reason: `the sequence length is not in the file (or not resolvable here)${seqKeys(recipe)}${model ? `; the model is ${model.name} (${model.where} names "${model.ref}")` : ''}; set \`# recipe-lens: seq=N\``,
      modelRefs,
    };
  // The training model counts gradients and optimizer states of every weight: a frozen language model has neither.
  if (v.llmFrozen === true)
    return {
      ok: false,
      reason:
        'the language model is frozen (mm_cfg.llm.freeze) and only the multimodal projector trains: Recipe Lens models full training, not this',
      modelRefs,
    };
  let ffn = num(f.ffn) ?? m?.ffn;
  if (ffn === undefined) {
    ffn = 4 * hidden;
    assumptions.push({ what: `ffn_hidden_size = ${ffn}`, source: 'megatron-core default 4 × hidden_size', provenance: 'default' });
  } else if (num(f.ffn) === undefined)
    assumptions.push({ what: `ffn_hidden_size = ${ffn}`, source: `model ${model!.name}`, provenance: 'preset' });
  const kvRaw = f.groups;
  const kvHeads = typeof kvRaw === 'number' ? kvRaw : kvRaw === null ? heads : (fill('num_query_groups', undefined, m?.kvHeads) ?? heads);
  const headDim = num(f.headDim) ?? m?.headDim ?? hidden / heads;
  // Vocabulary: the file, else a modeline, else the tokenizer table, else the model, else a stated assumption.
  let vocab = num(f.vocab);
  let vocabAssumed = false;
  if (vocab === undefined) {
    const tok = resolveTokenizerVocab({ library: str(v.tokLibrary), type: str(v.tokType), model: str(v.tokModel) });
    if (modeline.vocab && /^\d+$/.test(modeline.vocab) && Number(modeline.vocab) > 0) {
      vocab = Number(modeline.vocab);
      assumptions.push({ what: `vocab = ${vocab}`, source: 'recipe-lens modeline', provenance: 'modeline' });
    } else if (tok) {
      vocab = tok.vocab;
      assumptions.push({ what: `vocab = ${vocab}`, source: `tokenizer ${tok.name} (${tok.source})`, provenance: 'tokenizer' });
    } else vocab = fill('vocab', undefined, m?.vocab);
    if (vocab === undefined) {
      const hint = str(v.tokModel) ?? str(v.tokType) ?? str(v.modelName);
      const a = assumeVocab(hint);
      vocab = a.vocab;
      vocabAssumed = true;
      assumptions.push(a.assumption);
    }
  }
  const precision = precisionOf(recipe);
  const quantized = precision.fp8 !== null || precision.fp4 !== null;
  const experts = num(f.experts) ?? m?.experts ?? 0;
  const optional = optionalSettings(v, recipe.family, quantized, experts, assumptions);
  if (peftOn(v.peft) && !optional.peft)
    assumptions.push({
      what: 'every weight counted as trained (an upper bound)',
      source: `parameter-efficient fine-tuning (${typeof v.peft === 'string' ? v.peft : 'peft'}) is not modelled: a frozen base keeps no gradients or optimizer states`,
      provenance: 'default',
    });
  const activation = str(v.activation);
  const gated = bool(f.gated) ?? (activation !== undefined ? GATED.test(activation) : (fill('gated MLP', undefined, m?.gatedMlp) ?? false));
  const normRaw = str(v.norm);
  const norm = normRaw ? (/rms/i.test(normRaw) ? 'rmsnorm' : 'layernorm') : (m?.norm ?? 'layernorm');
  const tiedRaw = bool(f.tied);
  const tied = tiedRaw ?? (nemo1 ? true : (m?.tiedEmbeddings ?? false));
  if (tiedRaw === undefined)
    assumptions.push({
      what: `share_embeddings_and_output_weights = ${tied}`,
      source: m && !nemo1 ? `model ${model!.name}` : 'NeMo default (True)',
      provenance: m ? 'preset' : 'default',
    });
  // Structure the file does not state (MLA, hybrid and MoE placement, windows, biases) comes with the named model; MTP
  // layers only when the recipe trains them (mtp_num_layers, read below).
  const { mtpLayers: _mtp, name: _name, ...structure } = m ?? ({} as Partial<ModelShape>);
  if (m?.mtpLayers && v.mtpLayers === undefined)
    assumptions.push({
      what: `multi-token prediction layers not counted (${model!.name} has ${m.mtpLayers})`,
      source: 'the recipe sets no mtp_num_layers; MTP trains only when the recipe asks for it',
      provenance: 'default',
    });
  const shape: ModelShape = {
    ...(m ? structure : {}),
    name: model?.name ?? str(v.modelName) ?? 'model',
    layers,
    hidden,
    ffn,
    heads,
    kvHeads,
    headDim,
    vocab,
    tiedEmbeddings: tied,
    gatedMlp: gated,
    norm,
    experts,
    topK: experts ? (num(f.topK) ?? m?.topK ?? 2) : 0,
    moeFfn: num(f.moeFfn) ?? m?.moeFfn ?? ffn,
    sharedExpertFfn: num(f.sharedFfn) ?? m?.sharedExpertFfn ?? 0,
    denseLayersBeforeMoe: m?.denseLayersBeforeMoe ?? 0,
  } as ModelShape;
  applyFileStructure(shape, v, assumptions);
  if (!experts) {
    Object.assign(shape, { topK: 0, sharedExpertFfn: 0, denseLayersBeforeMoe: 0 });
    delete shape.moeLayerFreq;
    delete shape.sharedExperts;
  }

  const tp = num(v.tp) ?? 1;
  const recomputeGranularity = str(v.recomputeGranularity);
  const method = str(v.recomputeMethod);
  const modules = v.recomputeModules;
  for (const a of precision.assumptions) assumptions.push(a);
  let distOpt = bool(v.distOpt);
  if (distOpt === undefined) {
    distOpt = recipe.family === 'bridge';
    assumptions.push({
      what: `distributed optimizer ${distOpt ? 'on' : 'off'}`,
      source: distOpt ? 'Megatron-Bridge recipes enable ddp.use_distributed_optimizer' : 'no optimizer setting in the file',
      provenance: 'default',
    });
  }
  const hiddenDropout = num(v.hiddenDropout);
  if (hiddenDropout === undefined && recipe.family !== 'bridge')
    assumptions.push({
      what: 'hidden_dropout = 0',
      source: 'not in the file; current long-context recipes train without dropout',
      provenance: 'default',
    });
  const offloadOn = v.cpuOffloading === true && v.offloadActivations !== false;
  const config: TrainingConfig = {
    seq,
    microBatch: num(v.mbs) ?? 1,
    globalBatch: num(v.gbs),
    tp,
    pp: num(v.pp) ?? 1,
    vpp: num(v.vpp) ?? null,
    cp: num(v.cp) ?? 1,
    ep: num(v.ep) ?? 1,
    etp: num(v.etp) ?? tp, // megatron-core: expert_tensor_parallel_size defaults to TP
    sp: v.sp === true && tp > 1,
    worldSize: recipe.world?.size,
    recompute: {
      granularity: recomputeGranularity === 'full' || recomputeGranularity === 'selective' ? recomputeGranularity : null,
      method: method === 'uniform' || method === 'block' ? method : null,
      numLayers: num(v.recomputeLayers) ?? null,
      modules: Array.isArray(modules) ? modules.filter((m): m is string => typeof m === 'string') : ['core_attn'],
    },
    offloadLayers: offloadOn ? (num(v.offloadLayers) ?? 0) : 0,
    params: precision.params,
    fp8: precision.fp8,
    fp4: precision.fp4,
    quantizedParams: precision.quantizedParams,
    distributedOptimizer: distOpt,
    gradReduceInFp32: bool(v.gradFp32) ?? true,
    hiddenDropout: hiddenDropout ?? 0,
    attentionDropout: num(v.attnDropout) ?? 0,
    profile: opts.profile ?? (modeline.profile === 'hf' ? 'hf' : 'megatron'),
    // The kernel the file selects (--attention-backend, --transformer-impl local) is what runs; else the setting or modeline.
    attention: fileAttention(v) ?? opts.attention ?? (modeline.attention === 'eager' ? 'eager' : 'flash'),
    ...optional,
  };
  // A Megatron-Bridge recipe name sets the precision flags as its function does (MixedPrecisionConfig.setup then writes
  // grad_reduce_in_fp32 into the DDP config).
  if (precision.named) Object.assign(config, withMixedPrecision(config, precision.named));
  // Sizes the schema rejects (0, negative, fractional) give no estimate: the schema error says what to fix.
  const sizes: [string, number | null][] = [
    ['sequence length', config.seq],
    ['micro_batch_size', config.microBatch],
    ['TP', config.tp],
    ['PP', config.pp],
    ['CP', config.cp],
    ['EP', config.ep],
    ['ETP', config.etp],
    ['VPP', config.vpp],
    ['num_layers', shape.layers],
    ['hidden_size', shape.hidden],
    ['num_attention_heads', shape.heads],
    ['num_query_groups', shape.kvHeads],
    ['kv_channels', shape.headDim],
    ['vocab', shape.vocab],
    ['ffn_hidden_size', shape.ffn],
  ];
  for (const [name, v] of sizes)
    if (v !== null && !(Number.isInteger(v) && v >= 1)) return { ok: false, reason: `${name} ${v} is not a positive integer`, modelRefs };
  if (config.offloadLayers < 0 || (config.recompute.numLayers !== null && config.recompute.numLayers < 0))
    return { ok: false, reason: 'a negative layer count', modelRefs };
  // The estimate walks pipeline stages: more stages than layers is a typo, not a plan (R4), and must not cost memory.
  if (config.pp > shape.layers) return { ok: false, reason: `pipeline size ${config.pp} exceeds num_layers ${shape.layers}`, modelRefs };
  if (config.vpp !== null && config.vpp > shape.layers)
    return { ok: false, reason: `virtual pipeline size ${config.vpp} exceeds num_layers ${shape.layers}`, modelRefs };
  if (config.microBatch === 1 && num(v.mbs) === undefined)
    assumptions.push({ what: 'micro_batch_size = 1', source: 'not in the file', provenance: 'default' });
  return {
    ok: true,
    shape,
    config,
    assumptions,
    ...(model ? { model } : {}),
    modelRefs,
    vocabAssumed,
    ...(seqAssumed ? { seqAssumed } : {}),
  };
}

function precisionOf(recipe: TrainingRecipe): {
  params: TrainingConfig['params'];
  fp8: Fp8Recipe | null;
  fp4: Fp4Recipe | null;
  quantizedParams: boolean;
  /** The flags of a Megatron-Bridge mixed-precision recipe the file names (applied with withMixedPrecision). */
  named?: MixedPrecisionFlags;
  assumptions: Assumption[];
} {
  const v = recipe.values;
  const assumptions: Assumption[] = [];
  let params: TrainingConfig['params'] = 'bf16';
  let fp8: Fp8Recipe | null = null;
  let fp4: Fp4Recipe | null = null;
  const p = v.precision;
  if (p === 16 || p === '16' || p === '16-mixed') params = 'fp16';
  else if (p === 32 || p === '32' || p === '32-true') params = 'fp32';
  if (v.fp16 === true) params = 'fp16';
  // Megatron-LM: params_dtype is fp32 unless --bf16 or --fp16 (arguments.py validate_args).
  else if (recipe.family === 'megatron-lm' && v.bf16 !== true) params = 'fp32';
  const mp = v.mixedPrecision;
  // Megatron-Bridge mixed-precision recipes by name (bf16_with_fp8_current_scaling_mixed, …): the flags the recipe function sets.
  const recipeFlags = typeof mp === 'string' ? mixedPrecisionRecipe(mp) : null;
  // A recipe chosen outside the file (a performance config's run) is the base that the file's own `mixed_precision.*`
  // fields override, as the launcher merges the YAML over the recipe (scripts/performance/run_script.py).
  const over = (k: 'gradFp32' | 'fp8Param' | 'bf16Layers') => {
    const at = recipe.loc[k];
    const x = v[k];
    return typeof x === 'boolean' && (!at || at.path.includes('mixed_precision')) ? x : undefined;
  };
  const named: MixedPrecisionFlags | null = recipeFlags && {
    ...recipeFlags,
    ...(over('gradFp32') !== undefined ? { grad_reduce_in_fp32: over('gradFp32')! } : {}),
    ...(over('fp8Param') !== undefined ? { fp8_param_gather: over('fp8Param')! } : {}),
    ...(over('bf16Layers') !== undefined ? { first_last_layers_bf16: over('bf16Layers')! } : {}),
  };
  if (named) {
    const fp8Named: Fp8Recipe | null = named.fp8 ? named.fp8_recipe : null;
    const fp4Named: Fp4Recipe | null = named.fp4 ? 'nvfp4' : null;
    return {
      params: named.fp16 ? 'fp16' : 'bf16',
      fp8: fp8Named,
      fp4: fp4Named,
      quantizedParams: (fp8Named !== null && named.fp8_param_gather) || (fp4Named !== null && named.fp4_param_gather),
      named,
      assumptions: [{ what: `mixed precision ${named.recipe}`, source: named.source, provenance: 'file' }],
    };
  }
  if (typeof mp === 'string')
    assumptions.push({
      what: `mixed_precision "${mp}" read as BF16`,
      source: 'not a recipe name Megatron-Bridge registers (mixed_precision.py MIXED_PRECISION_RECIPES)',
      provenance: 'default',
    });
  const f8 = v.fp8;
  if (f8 === true || f8 === 'e4m3' || f8 === 'hybrid') {
    const fp8Recipe = str(v.fp8Recipe);
    fp8 = fp8Recipe === 'mxfp8' || fp8Recipe === 'blockwise' || fp8Recipe === 'tensorwise' ? fp8Recipe : 'delayed';
    if (!fp8Recipe && recipe.family !== 'nemo1')
      assumptions.push({ what: 'fp8_recipe = delayed', source: 'megatron-core default', provenance: 'default' });
  }
  const f4 = v.fp4;
  if (f4 === 'e2m1' || f4 === true) fp4 = str(v.fp4Recipe) === 'mxfp4' ? 'mxfp4' : 'nvfp4';
  const quantizedParams = v.fp4Param === true || v.fp8Param === true;
  return { params, fp8, fp4, quantizedParams, assumptions };
}

/** Where this file's format keeps the sequence length (the table's key paths), for the reason no estimate is shown. */
function seqKeys(recipe: TrainingRecipe): string {
  // NeMo 1.x builds its samples of model.data.seq_length before model.encoder_seq_length (see above).
  const paths = [...(recipe.family === 'nemo1' ? (recipe.table.paths.dataSeq ?? []) : []), ...(recipe.table.paths.seq ?? [])];
  return paths.length ? ` (looked for ${paths.join(', ')})` : '';
}
