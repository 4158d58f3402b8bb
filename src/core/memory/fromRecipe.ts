// The memory model's inputs from a normalized training recipe: the model shape and the training settings.
// Values in the file always win; a preset, the tokenizer table or a modeline fill the gaps, and every filled
// value is listed as an assumption. Where a value lives in a file is the format tables' business (src/core/formats).
import type { TrainingRecipe } from '../recipe.js';
import type { Attention, Profile, TrainingConfig } from './config.js';
import type { Fp4Recipe, Fp8Recipe } from './precision.js';
import { findPreset, MODEL_PRESETS } from './presets.js';
import { vocabFromTokenizer } from './tokenizers.js';
import type { Assumption, ModelShape } from './types.js';

export interface ExtractOptions {
  /** Preset id from a setting or the CLI (`--model`); a modeline `model=` wins over it. */
  model?: string;
  worldSize?: number;
  profile?: Profile;
  attention?: Attention;
}

const GATED = /swiglu|geglu|reglu|glu$/i;

export type Extracted = { ok: true; shape: ModelShape; config: TrainingConfig; assumptions: Assumption[] } | { ok: false; reason: string };

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
const bool = (x: unknown) => (typeof x === 'boolean' ? x : undefined);

/** Everything the training estimate needs, or why it cannot be made. */
export function trainingInputs(recipe: TrainingRecipe, modeline: Record<string, string>, opts: ExtractOptions = {}): Extracted {
  const v = recipe.values;
  const f = recipe.file;
  const nemo1 = recipe.family === 'nemo1';
  const assumptions: Assumption[] = [];
  const classes = Array.isArray(v.modelClasses) ? v.modelClasses.filter((x): x is string => typeof x === 'string') : [];
  const presetId =
    modeline.model ??
    opts.model ??
    findPreset(str(v.tokType) ?? '') ??
    findPreset(str(v.modelName) ?? '') ??
    classes.map((c) => findPreset(c)).find((x) => x);
  const preset = presetId ? MODEL_PRESETS[findPreset(presetId) ?? presetId] : undefined;
  if ((modeline.model || opts.model) && !preset) return { ok: false, reason: `unknown model preset "${modeline.model ?? opts.model}"` };
  const fill = <T>(what: string, fromFile: T | undefined, fromPreset: T | undefined): T | undefined => {
    if (fromFile !== undefined && fromFile !== null) return fromFile;
    if (fromPreset !== undefined && preset) {
      assumptions.push({ what: `${what} = ${String(fromPreset)}`, source: `model preset ${preset.name}`, provenance: 'preset' });
      return fromPreset;
    }
    return undefined;
  };
  const layers = fill('num_layers', num(f.layers), preset?.layers);
  const hidden = fill('hidden_size', num(f.hidden), preset?.hidden);
  const heads = fill('num_attention_heads', num(f.heads), preset?.heads);
  const seq = num(v.seq);
  if (!layers || !hidden || !heads)
    return {
      ok: false,
      reason:
        'the model shape (num_layers, hidden_size, num_attention_heads) is not in the file; name a preset with a `# recipe-lens: model=llama3-8b` modeline',
    };
  if (!seq) return { ok: false, reason: 'the sequence length is not in the file (or not resolvable here)' };
  let ffn = num(f.ffn) ?? preset?.ffn;
  if (ffn === undefined) {
    ffn = 4 * hidden;
    assumptions.push({ what: `ffn_hidden_size = ${ffn}`, source: 'megatron-core default 4 × hidden_size', provenance: 'default' });
  } else if (num(f.ffn) === undefined)
    assumptions.push({ what: `ffn_hidden_size = ${ffn}`, source: `model preset ${preset!.name}`, provenance: 'preset' });
  const kvRaw = f.groups;
  const kvHeads =
    typeof kvRaw === 'number' ? kvRaw : kvRaw === null ? heads : (fill('num_query_groups', undefined, preset?.kvHeads) ?? heads);
  const headDim = num(f.headDim) ?? preset?.headDim ?? hidden / heads;
  // Vocabulary: the file, else the tokenizer table, else a modeline, else the preset.
  let vocab = num(f.vocab);
  if (vocab === undefined) {
    const tok = vocabFromTokenizer(str(v.tokLibrary), str(v.tokModel) ?? str(v.tokType));
    if (tok) {
      vocab = tok.vocab;
      assumptions.push({ what: `vocab = ${vocab}`, source: `tokenizer ${tok.name} (${tok.source})`, provenance: 'tokenizer' });
    } else if (modeline.vocab && /^\d+$/.test(modeline.vocab)) {
      vocab = Number(modeline.vocab);
      assumptions.push({ what: `vocab = ${vocab}`, source: 'recipe-lens modeline', provenance: 'modeline' });
    } else vocab = fill('vocab', undefined, preset?.vocab);
  }
  if (!vocab)
    return {
      ok: false,
      reason: 'the vocabulary size is unknown (the tokenizer is a path Recipe Lens does not know); add `# recipe-lens: vocab=N`',
    };
  const activation = str(v.activation);
  const gated =
    bool(f.gated) ?? (activation !== undefined ? GATED.test(activation) : (fill('gated MLP', undefined, preset?.gatedMlp) ?? false));
  const normRaw = str(v.norm);
  const norm = normRaw ? (/rms/i.test(normRaw) ? 'rmsnorm' : 'layernorm') : (preset?.norm ?? 'layernorm');
  const tiedRaw = bool(f.tied);
  const tied = tiedRaw ?? (nemo1 ? true : (preset?.tiedEmbeddings ?? false));
  if (tiedRaw === undefined)
    assumptions.push({
      what: `share_embeddings_and_output_weights = ${tied}`,
      source: preset && !nemo1 ? `model preset ${preset.name}` : 'NeMo default (True)',
      provenance: preset ? 'preset' : 'default',
    });
  const experts = num(f.experts) ?? preset?.experts ?? 0;
  const shape: ModelShape = {
    name: preset?.name ?? str(v.modelName) ?? 'model',
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
    topK: experts ? (num(f.topK) ?? preset?.topK ?? 2) : 0,
    moeFfn: num(f.moeFfn) ?? preset?.moeFfn ?? ffn,
    sharedExpertFfn: num(f.sharedFfn) ?? preset?.sharedExpertFfn ?? 0,
    denseLayersBeforeMoe: preset?.denseLayersBeforeMoe ?? 0,
  };

  const tp = num(v.tp) ?? 1;
  const recomputeGranularity = str(v.recomputeGranularity);
  const method = str(v.recomputeMethod);
  const modules = v.recomputeModules;
  const precision = precisionOf(recipe);
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
    attention: opts.attention ?? (modeline.attention === 'eager' ? 'eager' : 'flash'),
  };
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
    if (v !== null && !(Number.isInteger(v) && v >= 1)) return { ok: false, reason: `${name} ${v} is not a positive integer` };
  if (config.offloadLayers < 0 || (config.recompute.numLayers !== null && config.recompute.numLayers < 0))
    return { ok: false, reason: 'a negative layer count' };
  // The estimate walks pipeline stages: more stages than layers is a typo, not a plan (R4), and must not cost memory.
  if (config.pp > shape.layers) return { ok: false, reason: `pipeline size ${config.pp} exceeds num_layers ${shape.layers}` };
  if (config.vpp !== null && config.vpp > shape.layers)
    return { ok: false, reason: `virtual pipeline size ${config.vpp} exceeds num_layers ${shape.layers}` };
  if (config.microBatch === 1 && num(v.mbs) === undefined)
    assumptions.push({ what: 'micro_batch_size = 1', source: 'not in the file', provenance: 'default' });
  return { ok: true, shape, config, assumptions };
}

function precisionOf(recipe: TrainingRecipe): {
  params: TrainingConfig['params'];
  fp8: Fp8Recipe | null;
  fp4: Fp4Recipe | null;
  quantizedParams: boolean;
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
  const mp = v.mixedPrecision;
  if (typeof mp === 'string') {
    // Megatron-Bridge mixed-precision recipe names, e.g. bf16_with_fp8_delayed_scaling_mixed, bf16_with_mxfp8_mixed.
    if (/fp16/.test(mp) && !/bf16/.test(mp)) params = 'fp16';
    if (/mxfp8/.test(mp)) fp8 = 'mxfp8';
    else if (/fp8_delayed/.test(mp)) fp8 = 'delayed';
    else if (/fp8_current/.test(mp)) fp8 = 'tensorwise';
    else if (/fp8_(subchannel|block)/.test(mp)) fp8 = 'blockwise';
    if (/nvfp4/.test(mp)) fp4 = 'nvfp4';
  }
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
