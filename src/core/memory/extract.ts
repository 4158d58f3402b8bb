// Reads the model shape and training settings the memory model needs from a parsed recipe.
// Values in the file always win; a preset, the tokenizer table or a modeline fill the gaps, and every
// filled value is listed as an assumption.
import { valueAt, type RecipeDoc } from '../document.js';
import { UNRESOLVED } from '../interpolate.js';
import { Facts } from '../rules/facts.js';
import { worldSize } from '../rules/training.js';
import { findKeyPath, lookup, parsePath, plainValue, type TreeNode } from '../tree.js';
import type { FormatId } from '../types.js';
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

type Field =
  | 'layers'
  | 'hidden'
  | 'ffn'
  | 'heads'
  | 'kvHeads'
  | 'headDim'
  | 'vocab'
  | 'tied'
  | 'activation'
  | 'gated'
  | 'norm'
  | 'experts'
  | 'topK'
  | 'moeFfn'
  | 'sharedFfn'
  | 'tokLibrary'
  | 'tokType'
  | 'tokModel'
  | 'modelName'
  | 'recomputeModules'
  | 'offloadActivations'
  | 'fp8Recipe'
  | 'fp4'
  | 'fp4Recipe'
  | 'fp8Param'
  | 'fp4Param'
  | 'mixedPrecision'
  | 'distOpt'
  | 'gradFp32'
  | 'hiddenDropout'
  | 'attnDropout'
  | 'vocabDivisible';

const NEMO1: Partial<Record<Field, string[]>> = {
  layers: ['model.num_layers'],
  hidden: ['model.hidden_size'],
  ffn: ['model.ffn_hidden_size'],
  heads: ['model.num_attention_heads'],
  kvHeads: ['model.num_query_groups'],
  headDim: ['model.kv_channels'],
  tied: ['model.share_embeddings_and_output_weights'],
  activation: ['model.activation'],
  norm: ['model.normalization'],
  experts: ['model.num_moe_experts'],
  topK: ['model.moe_router_topk'],
  moeFfn: ['model.moe_ffn_hidden_size'],
  sharedFfn: ['model.moe_shared_expert_intermediate_size'],
  tokLibrary: ['model.tokenizer.library'],
  tokType: ['model.tokenizer.type'],
  tokModel: ['model.tokenizer.model'],
  modelName: ['run.name', 'name'],
  offloadActivations: ['model.cpu_offloading_activations'],
  fp8Param: ['model.fp8_params'],
  hiddenDropout: ['model.hidden_dropout'],
  attnDropout: ['model.attention_dropout'],
  vocabDivisible: ['model.make_vocab_size_divisible_by'],
};

const BRIDGE: Partial<Record<Field, string[]>> = {
  layers: ['model.num_layers'],
  hidden: ['model.hidden_size'],
  ffn: ['model.ffn_hidden_size'],
  heads: ['model.num_attention_heads'],
  kvHeads: ['model.num_query_groups'],
  headDim: ['model.kv_channels'],
  vocab: ['model.vocab_size'],
  tied: ['model.share_embeddings_and_output_weights'],
  gated: ['model.gated_linear_unit'],
  norm: ['model.normalization'],
  experts: ['model.num_moe_experts'],
  topK: ['model.moe_router_topk'],
  moeFfn: ['model.moe_ffn_hidden_size'],
  sharedFfn: ['model.moe_shared_expert_intermediate_size'],
  tokType: ['tokenizer.tokenizer_model', 'tokenizer.hf_tokenizer_path'],
  recomputeModules: ['model.recompute_modules'],
  offloadActivations: ['model.cpu_offloading_activations'],
  fp8Recipe: ['model.fp8_recipe', 'mixed_precision.fp8_recipe'],
  fp4: ['model.fp4', 'mixed_precision.fp4'],
  fp4Recipe: ['model.fp4_recipe', 'mixed_precision.fp4_recipe'],
  fp8Param: ['model.fp8_param', 'mixed_precision.fp8_param'],
  fp4Param: ['model.fp4_param', 'mixed_precision.fp4_param'],
  mixedPrecision: ['mixed_precision'],
  distOpt: ['ddp.use_distributed_optimizer', 'optimizer.use_distributed_optimizer'],
  gradFp32: ['ddp.grad_reduce_in_fp32'],
  hiddenDropout: ['model.hidden_dropout'],
  attnDropout: ['model.attention_dropout'],
  vocabDivisible: ['model.make_vocab_size_divisible_by'],
};

const NEMO2: Partial<Record<Field, string>> = {
  layers: 'num_layers',
  hidden: 'hidden_size',
  ffn: 'ffn_hidden_size',
  heads: 'num_attention_heads',
  kvHeads: 'num_query_groups',
  headDim: 'kv_channels',
  vocab: 'vocab_size',
  tied: 'share_embeddings_and_output_weights',
  gated: 'gated_linear_unit',
  norm: 'normalization',
  experts: 'num_moe_experts',
  topK: 'moe_router_topk',
  moeFfn: 'moe_ffn_hidden_size',
  recomputeModules: 'recompute_modules',
  fp8Recipe: 'fp8_recipe',
  fp4: 'fp4',
  fp4Recipe: 'fp4_recipe',
  fp8Param: 'fp8_param',
  distOpt: 'use_distributed_optimizer',
  gradFp32: 'grad_reduce_in_fp32',
  hiddenDropout: 'hidden_dropout',
  attnDropout: 'attention_dropout',
};

class Reader {
  constructor(
    readonly doc: RecipeDoc,
    readonly format: FormatId,
  ) {}
  raw(f: Field): unknown {
    const paths =
      this.format === 'nemo2'
        ? [NEMO2[f] ? findKeyPath(this.doc.root, NEMO2[f]!) : undefined]
        : ((this.format === 'megatron-bridge' ? BRIDGE : NEMO1)[f] ?? []).map(parsePath);
    for (const p of paths) {
      if (!p) continue;
      const hit = lookup(this.doc.root, p);
      if (!hit) continue;
      if (hit.node.kind !== 'scalar') return plainValue(hit.node);
      const v = valueAt(this.doc, p);
      if (v === UNRESOLVED || (typeof v === 'string' && v.trim() === '???')) continue;
      return v;
    }
    return undefined;
  }
  num(f: Field): number | undefined {
    const v = this.raw(f);
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }
  str(f: Field): string | undefined {
    const v = this.raw(f);
    return typeof v === 'string' ? v : undefined;
  }
  bool(f: Field): boolean | undefined {
    const v = this.raw(f);
    return typeof v === 'boolean' ? v : undefined;
  }
}

const GATED = /swiglu|geglu|reglu|glu$/i;

export type Extracted = { ok: true; shape: ModelShape; config: TrainingConfig; assumptions: Assumption[] } | { ok: false; reason: string };

/** Everything the training estimate needs, or why it cannot be made. */
export function extractTraining(doc: RecipeDoc, format: FormatId, modeline: Record<string, string>, opts: ExtractOptions = {}): Extracted {
  if (!['nemo1', 'nemo-launcher', 'nemo2', 'megatron-bridge'].includes(format))
    return { ok: false, reason: `${format} files carry no training configuration` };
  const r = new Reader(doc, format);
  const facts = new Facts(doc, format);
  const assumptions: Assumption[] = [];
  const presetId =
    modeline.model ??
    opts.model ??
    findPreset(r.str('tokType') ?? '') ??
    findPreset(r.str('modelName') ?? '') ??
    (format === 'nemo2' ? findTargetPreset(doc) : undefined); // only NeMo 2.0 trees have `_target_` (detect.ts)
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
  const layers = fill('num_layers', r.num('layers'), preset?.layers);
  const hidden = fill('hidden_size', r.num('hidden'), preset?.hidden);
  const heads = fill('num_attention_heads', r.num('heads'), preset?.heads);
  const seq = facts.int('seq');
  if (!layers || !hidden || !heads)
    return {
      ok: false,
      reason:
        'the model shape (num_layers, hidden_size, num_attention_heads) is not in the file; name a preset with a `# recipe-lens: model=llama3-8b` modeline',
    };
  if (!seq) return { ok: false, reason: 'the sequence length is not in the file (or not resolvable here)' };
  let ffn = r.num('ffn') ?? preset?.ffn;
  if (ffn === undefined) {
    ffn = 4 * hidden;
    assumptions.push({ what: `ffn_hidden_size = ${ffn}`, source: 'megatron-core default 4 × hidden_size', provenance: 'default' });
  } else if (r.num('ffn') === undefined)
    assumptions.push({ what: `ffn_hidden_size = ${ffn}`, source: `model preset ${preset!.name}`, provenance: 'preset' });
  const kvRaw = r.raw('kvHeads');
  const kvHeads =
    typeof kvRaw === 'number' ? kvRaw : kvRaw === null ? heads : (fill('num_query_groups', undefined, preset?.kvHeads) ?? heads);
  const headDim = r.num('headDim') ?? preset?.headDim ?? hidden / heads;
  // Vocabulary: the file, else the tokenizer table, else a modeline, else the preset.
  let vocab = r.num('vocab');
  if (vocab === undefined) {
    const tok = vocabFromTokenizer(r.str('tokLibrary'), r.str('tokModel') ?? r.str('tokType'));
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
  const activation = r.str('activation');
  const gated =
    r.bool('gated') ?? (activation !== undefined ? GATED.test(activation) : (fill('gated MLP', undefined, preset?.gatedMlp) ?? false));
  const normRaw = r.str('norm');
  const norm = normRaw ? (/rms/i.test(normRaw) ? 'rmsnorm' : 'layernorm') : (preset?.norm ?? 'layernorm');
  const tiedRaw = r.bool('tied');
  const tied = tiedRaw ?? (format === 'nemo1' || format === 'nemo-launcher' ? true : (preset?.tiedEmbeddings ?? false));
  if (tiedRaw === undefined)
    assumptions.push({
      what: `share_embeddings_and_output_weights = ${tied}`,
      source: preset && format !== 'nemo1' && format !== 'nemo-launcher' ? `model preset ${preset.name}` : 'NeMo default (True)',
      provenance: preset ? 'preset' : 'default',
    });
  const experts = r.num('experts') ?? preset?.experts ?? 0;
  const shape: ModelShape = {
    name: preset?.name ?? r.str('modelName') ?? 'model',
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
    topK: experts ? (r.num('topK') ?? preset?.topK ?? 2) : 0,
    moeFfn: r.num('moeFfn') ?? preset?.moeFfn ?? ffn,
    sharedExpertFfn: r.num('sharedFfn') ?? preset?.sharedExpertFfn ?? 0,
    denseLayersBeforeMoe: preset?.denseLayersBeforeMoe ?? 0,
  };

  const tp = facts.intOr('tp', 1) ?? 1;
  const mlWorld = Number(modeline.world_size);
  const world = worldSize(facts, { worldSize: Number.isInteger(mlWorld) && mlWorld >= 1 ? mlWorld : opts.worldSize });
  const recomputeGranularity = facts.str('recomputeGranularity');
  const method = facts.str('recomputeMethod');
  const modules = r.raw('recomputeModules');
  const precision = precisionOf(r, facts, format);
  for (const a of precision.assumptions) assumptions.push(a);
  let distOpt = r.bool('distOpt');
  if (distOpt === undefined && (format === 'nemo1' || format === 'nemo-launcher')) {
    const name = valueAt(doc, 'model.optim.name');
    distOpt = typeof name === 'string' ? /distributed/.test(name) : undefined;
  }
  if (distOpt === undefined) {
    distOpt = format === 'megatron-bridge';
    assumptions.push({
      what: `distributed optimizer ${distOpt ? 'on' : 'off'}`,
      source: distOpt ? 'Megatron-Bridge recipes enable ddp.use_distributed_optimizer' : 'no optimizer setting in the file',
      provenance: 'default',
    });
  }
  const hiddenDropout = r.num('hiddenDropout');
  if (hiddenDropout === undefined && format !== 'megatron-bridge')
    assumptions.push({
      what: 'hidden_dropout = 0',
      source: 'not in the file; current long-context recipes train without dropout',
      provenance: 'default',
    });
  const offloadOn = facts.bool('cpuOffloading') === true && r.bool('offloadActivations') !== false;
  const config: TrainingConfig = {
    seq,
    microBatch: facts.int('mbs') ?? 1,
    globalBatch: facts.int('gbs'),
    tp,
    pp: facts.intOr('pp', 1) ?? 1,
    vpp: facts.int('vpp') ?? null,
    cp: facts.intOr('cp', 1) ?? 1,
    ep: facts.intOr('ep', 1) ?? 1,
    etp: facts.intOr('etp', tp) ?? tp, // megatron-core: expert_tensor_parallel_size defaults to TP
    sp: facts.bool('sp') === true && tp > 1,
    worldSize: world?.ws,
    recompute: {
      granularity: recomputeGranularity === 'full' || recomputeGranularity === 'selective' ? recomputeGranularity : null,
      method: method === 'uniform' || method === 'block' ? method : null,
      numLayers: facts.int('recomputeLayers') ?? null,
      modules: Array.isArray(modules) ? modules.filter((m): m is string => typeof m === 'string') : ['core_attn'],
    },
    offloadLayers: offloadOn ? (facts.int('offloadLayers') ?? 0) : 0,
    params: precision.params,
    fp8: precision.fp8,
    fp4: precision.fp4,
    quantizedParams: precision.quantizedParams,
    distributedOptimizer: distOpt,
    gradReduceInFp32: r.bool('gradFp32') ?? true,
    hiddenDropout: hiddenDropout ?? 0,
    attentionDropout: r.num('attnDropout') ?? 0,
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
  if (config.microBatch === 1 && facts.int('mbs') === undefined)
    assumptions.push({ what: 'micro_batch_size = 1', source: 'not in the file', provenance: 'default' });
  return { ok: true, shape, config, assumptions };
}

/** findTargetPreset per document tree: validation (RL-MEM), hover, the status bar and the panel estimate one tree. */
const targetPresets = new WeakMap<TreeNode, string | undefined>();

function findTargetPreset(doc: RecipeDoc): string | undefined {
  if (!doc.root) return undefined;
  if (targetPresets.has(doc.root)) return targetPresets.get(doc.root);
  // Depth-first like `visit`, without building a path per node: on files with no `_target_` (NeMo 1.x, launcher,
  // most Bridge files) this walks the whole tree, the largest part of an estimate on a long file.
  const rec = (n: TreeNode): string | undefined => {
    if (n.kind === 'seq') {
      for (const it of n.items) {
        const f = rec(it);
        if (f) return f;
      }
    } else if (n.kind === 'map') {
      for (const e of n.entries) {
        if (e.key === '_target_' && e.value.kind === 'scalar' && typeof e.value.value === 'string') {
          const f = findPreset(e.value.value.split('.').pop() ?? '');
          if (f) return f;
        }
        const f = rec(e.value);
        if (f) return f;
      }
    }
    return undefined;
  };
  const found = rec(doc.root);
  targetPresets.set(doc.root, found);
  return found;
}

function precisionOf(
  r: Reader,
  facts: Facts,
  format: FormatId,
): { params: TrainingConfig['params']; fp8: Fp8Recipe | null; fp4: Fp4Recipe | null; quantizedParams: boolean; assumptions: Assumption[] } {
  const assumptions: Assumption[] = [];
  let params: TrainingConfig['params'] = 'bf16';
  let fp8: Fp8Recipe | null = null;
  let fp4: Fp4Recipe | null = null;
  const p = facts.get('precision')?.value;
  if (p === 16 || p === '16' || p === '16-mixed') params = 'fp16';
  else if (p === 32 || p === '32' || p === '32-true') params = 'fp32';
  if (facts.bool('fp16') === true) params = 'fp16';
  const mp = r.raw('mixedPrecision');
  if (typeof mp === 'string') {
    // Megatron-Bridge mixed-precision recipe names, e.g. bf16_with_fp8_delayed_scaling_mixed, bf16_with_mxfp8_mixed.
    if (/fp16/.test(mp) && !/bf16/.test(mp)) params = 'fp16';
    if (/mxfp8/.test(mp)) fp8 = 'mxfp8';
    else if (/fp8_delayed/.test(mp)) fp8 = 'delayed';
    else if (/fp8_current/.test(mp)) fp8 = 'tensorwise';
    else if (/fp8_(subchannel|block)/.test(mp)) fp8 = 'blockwise';
    if (/nvfp4/.test(mp)) fp4 = 'nvfp4';
  }
  const f8 = facts.get('fp8')?.value;
  if (f8 === true || f8 === 'e4m3' || f8 === 'hybrid') {
    const recipe = r.str('fp8Recipe');
    fp8 = recipe === 'mxfp8' || recipe === 'blockwise' || recipe === 'tensorwise' ? recipe : 'delayed';
    if (!recipe && format !== 'nemo1' && format !== 'nemo-launcher')
      assumptions.push({ what: 'fp8_recipe = delayed', source: 'megatron-core default', provenance: 'default' });
  }
  const f4 = r.raw('fp4');
  if (f4 === 'e2m1' || f4 === true) fp4 = r.str('fp4Recipe') === 'mxfp4' ? 'mxfp4' : 'nvfp4';
  const quantizedParams = r.bool('fp4Param') === true || r.bool('fp8Param') === true;
  return { params, fp8, fp4, quantizedParams, assumptions };
}
