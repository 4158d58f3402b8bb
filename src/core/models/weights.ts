// Checkpoint weight formats: the catalogue's constructors, and reading a checkpoint's quantization config
// (config.json `quantization_config`, NVIDIA ModelOpt `hf_quant_config.json`) or, failing that, its name.
import { baseName } from './files.js';
import type { WeightDtype, WeightFormat, WeightScope } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Granularity of each quantized format (OCP MX v1.0 for MXFP4; NVIDIA ModelOpt / NVFP4 for NVFP4; DeepSeek-V3 report §3.3 for FP8 blocks). */
const BLOCK = {
  fp8Blocks: '128×128 weight blocks with FP32 scales (weight_block_size [128, 128])',
  fp8Tensor: 'one FP32 scale per tensor',
  nvfp4: '16-value blocks with an FP8 E4M3 scale, plus one FP32 scale per tensor',
  mxfp4: '32-value blocks with an E8M0 scale (OCP MX v1.0)',
} as const;

export const bf16Weights = (source: string): WeightFormat => ({ dtype: 'bf16', scope: 'all', other: 'bf16', source });
export const fp16Weights = (source: string): WeightFormat => ({ dtype: 'fp16', scope: 'all', other: 'fp16', source });
export const fp32Weights = (source: string): WeightFormat => ({ dtype: 'fp32', scope: 'all', other: 'fp32', source });

/** DeepSeek-V3-style FP8: every linear layer of the blocks in E4M3 with 128×128 block scales; embeddings, norms, router in BF16. */
export const fp8BlockWeights = (source: string, excluded?: string[]): WeightFormat => ({
  dtype: 'fp8',
  scope: 'linear',
  other: 'bf16',
  block: BLOCK.fp8Blocks,
  ...(excluded?.length ? { excluded } : {}),
  source,
});

/** NVIDIA ModelOpt FP8 (`quant_algo: FP8`): linear layers in FP8 with per-tensor scales. */
export const modeloptFp8Weights = (source: string, excluded: string[], kvCache?: 'fp8'): WeightFormat => ({
  dtype: 'fp8',
  scope: scopeFromExclusions(excluded),
  other: 'bf16',
  block: BLOCK.fp8Tensor,
  excluded,
  ...(kvCache ? { kvCache } : {}),
  source,
});

/** NVIDIA ModelOpt NVFP4 (`quant_algo: NVFP4`, group_size 16). */
export const nvfp4Weights = (source: string, excluded: string[], kvCache?: 'fp8' | 'nvfp4', scope?: WeightScope): WeightFormat => ({
  dtype: 'nvfp4',
  scope: scope ?? scopeFromExclusions(excluded),
  other: 'bf16',
  block: BLOCK.nvfp4,
  excluded,
  ...(kvCache ? { kvCache } : {}),
  source,
});

/** gpt-oss: routed experts in MXFP4, attention, router, embeddings and head in BF16 (config.json quantization_config). */
export const mxfp4ExpertWeights = (source: string, excluded: string[]): WeightFormat => ({
  dtype: 'mxfp4',
  scope: 'experts',
  other: 'bf16',
  block: BLOCK.mxfp4,
  excluded,
  source,
});

/**
 * Which tensors a quantized checkpoint stores in its quantized format, from the modules it excludes: attention excluded
 * in every layer (a wildcard, or two or more layers) leaves the MLPs, and with the shared experts excluded too, the routed
 * experts; otherwise all linear layers (the excluded head, routers or single layers are listed in `excluded`).
 */
export function scopeFromExclusions(excluded: readonly string[]): WeightScope {
  const everyLayer = (re: RegExp) => {
    const layers = new Set<string>();
    for (const p of excluded) if (re.test(p)) layers.add(/layers\.(\d+)\./.exec(p)?.[1] ?? '*');
    return layers.has('*') || layers.size >= 2;
  };
  if (!everyLayer(/self_attn|linear_attn|\.attn(\b|\.|\*)|\.attention\b|mixer\.[qkvo]_proj/)) return 'linear';
  // Attention kept in BF16; with the shared experts kept too, only the routed experts are quantized.
  return everyLayer(/shared_expert/) ? 'experts' : 'mlp';
}

export interface ReadWeights {
  weights: WeightFormat;
  /** Set when the format was assumed rather than read. */
  assumed?: string;
}

/** `dir/name`, or `name` alone when the checkpoint has no place to name. */
export const checkpointFile = (where: string, name: string) => (where ? `${where.replace(/[\\/]+$/, '')}/${name}` : name);

/**
 * The weight format of a checkpoint from its config.json and, when present, hf_quant_config.json.
 * `where` names the checkpoint (a directory or an HF id) for the source text. Never throws.
 */
export function weightFormatFromConfig(config: Obj, hfQuant: unknown, where: string): ReadWeights {
  const modelopt = isObj(hfQuant) && isObj(hfQuant.quantization) ? hfQuant.quantization : undefined;
  if (modelopt) {
    const read = fromModelopt(modelopt, checkpointFile(where, 'hf_quant_config.json'));
    if (read) return read;
  }
  const qc = config.quantization_config;
  if (isObj(qc)) {
    const read = fromQuantizationConfig(qc, `${checkpointFile(where, 'config.json')} quantization_config`);
    if (read) return read;
  }
  const text = isObj(config.text_config) ? config.text_config : {};
  const dtype = str(config.torch_dtype) ?? str(config.dtype) ?? str(text.torch_dtype) ?? str(text.dtype);
  const src = `${checkpointFile(where, 'config.json')} torch_dtype "${dtype}"`;
  if (dtype === 'bfloat16') return { weights: bf16Weights(src) };
  if (dtype === 'float16') return { weights: fp16Weights(src) };
  if (dtype === 'float32') return { weights: fp32Weights(src) };
  const why = dtype
    ? `${checkpointFile(where, 'config.json')} torch_dtype "${dtype}" is not a weight format Recipe Lens knows; BF16 assumed`
    : `${checkpointFile(where, 'config.json')} names no torch_dtype and no quantization; BF16 assumed (the storage of most current checkpoints)`;
  return { weights: bf16Weights(why), assumed: why };
}

function fromModelopt(q: Obj, src: string): ReadWeights | undefined {
  const algo = str(q.quant_algo)?.toUpperCase();
  const excluded = strings(q.exclude_modules ?? q.ignore);
  const kvAlgo = str(q.kv_cache_quant_algo)?.toUpperCase();
  const kv = kvAlgo === 'FP8' ? 'fp8' : kvAlgo === 'NVFP4' ? 'nvfp4' : undefined;
  const source = `${src} quant_algo ${algo}${kv ? `, kv_cache_quant_algo ${kvAlgo}` : ''}`;
  // W4A16_NVFP4: NVFP4 weights with 16-bit activations (ModelOpt's weight-only variant); the storage is NVFP4's.
  if (algo === 'NVFP4' || algo === 'W4A16_NVFP4') return { weights: nvfp4Weights(source, excluded, kv) };
  if (algo === 'FP8') return { weights: modeloptFp8Weights(source, excluded, kv === 'fp8' ? 'fp8' : undefined) };
  if (algo === 'FP8_PB_WO' || algo === 'FP8_BLOCK_SCALES') return { weights: fp8BlockWeights(source, excluded) };
  if (algo === 'W4A16_AWQ' || algo === 'W4A8_AWQ' || algo === 'NVFP4_AWQ')
    return {
      weights: { dtype: algo === 'NVFP4_AWQ' ? 'nvfp4' : 'int4', scope: scopeFromExclusions(excluded), other: 'bf16', excluded, source },
    };
  if (algo === 'W8A16' || algo === 'W8A8_SQ_PER_CHANNEL')
    return { weights: { dtype: 'int8', scope: scopeFromExclusions(excluded), other: 'bf16', excluded, source } };
  if (algo === 'MIXED_PRECISION' && isObj(q.quantized_layers)) return mixedPrecision(q.quantized_layers, excluded, kv, source);
  return undefined;
}

/** ModelOpt MIXED_PRECISION: `quantized_layers` maps module names to their own quant_algo. */
function mixedPrecision(layers: Obj, excluded: string[], kv: 'fp8' | 'nvfp4' | undefined, source: string): ReadWeights {
  const byAlgo = new Map<string, string[]>();
  for (const [name, v] of Object.entries(layers)) {
    const a = isObj(v) ? str(v.quant_algo)?.toUpperCase() : undefined;
    if (a) byAlgo.set(a, [...(byAlgo.get(a) ?? []), name]);
  }
  const nv = [...(byAlgo.get('NVFP4') ?? []), ...(byAlgo.get('W4A16_NVFP4') ?? [])];
  const fp8 = [...(byAlgo.get('FP8') ?? []), ...(byAlgo.get('FP8_PB_WO') ?? [])];
  if (nv.length) {
    const expertsOnly = nv.every((n) => /experts/.test(n) && !/shared_expert/.test(n));
    const assumed = expertsOnly ? undefined : `${source}: NVFP4 layers mix experts and other modules; their MLP share is taken as NVFP4`;
    return {
      weights: { ...nvfp4Weights(source, excluded, kv, expertsOnly ? 'experts' : 'mlp'), other: fp8.length ? 'fp8' : 'bf16' },
      ...(assumed ? { assumed } : {}),
    };
  }
  if (fp8.length) return { weights: modeloptFp8Weights(source, excluded, kv === 'fp8' ? 'fp8' : undefined) };
  const why = `${source}: no NVFP4 or FP8 layer listed in quantized_layers; BF16 assumed`;
  return { weights: bf16Weights(why), assumed: why };
}

function fromQuantizationConfig(qc: Obj, src: string): ReadWeights | undefined {
  const method = str(qc.quant_method)?.toLowerCase();
  const excluded = strings(qc.modules_to_not_convert ?? qc.ignored_layers ?? qc.ignore ?? qc.exclude_modules);
  if (method === 'fp8') {
    const block = Array.isArray(qc.weight_block_size) ? qc.weight_block_size.map(String).join('×') : undefined;
    const fmt = str(qc.fmt);
    const source = `${src} quant_method fp8${fmt ? ` (${fmt})` : ''}${block ? `, weight_block_size ${block}` : ''}`;
    return block
      ? { weights: fp8BlockWeights(source, excluded) }
      : { weights: { dtype: 'fp8', scope: 'linear', other: 'bf16', ...(excluded.length ? { excluded } : {}), source } };
  }
  if (method === 'mxfp4') return { weights: mxfp4ExpertWeights(`${src} quant_method mxfp4`, excluded) };
  if (method === 'fbgemm_fp8')
    return {
      weights: {
        dtype: 'fp8',
        scope: 'linear',
        other: 'bf16',
        ...(excluded.length ? { excluded } : {}),
        source: `${src} quant_method fbgemm_fp8`,
      },
    };
  if (method === 'modelopt') return fromModelopt(qc, src);
  if (method === 'compressed-tensors') return fromCompressedTensors(qc, excluded, src);
  if (method === 'gptq' || method === 'awq') {
    const bits = num(qc.bits) ?? num(qc.w_bit);
    const dtype: WeightDtype | undefined = bits === 4 ? 'int4' : bits === 8 ? 'int8' : undefined;
    if (dtype) return { weights: { dtype, scope: 'linear', other: 'fp16', source: `${src} quant_method ${method}, ${bits} bits` } };
  }
  if (method === 'bitsandbytes') {
    const dtype: WeightDtype | undefined = qc.load_in_4bit === true ? 'int4' : qc.load_in_8bit === true ? 'int8' : undefined;
    if (dtype) return { weights: { dtype, scope: 'linear', other: 'bf16', source: `${src} quant_method bitsandbytes (${dtype})` } };
  }
  return undefined;
}

/** compressed-tensors (llm-compressor): `config_groups.*.weights` {num_bits, type}; `ignore` lists the excluded modules. */
function fromCompressedTensors(qc: Obj, excluded: string[], src: string): ReadWeights | undefined {
  const groups = isObj(qc.config_groups) ? Object.values(qc.config_groups) : [];
  for (const g of groups) {
    if (!isObj(g) || !isObj(g.weights)) continue;
    const bits = num(g.weights.num_bits);
    const type = str(g.weights.type);
    const groupSize = num(g.weights.group_size);
    const source = `${src} compressed-tensors weights ${bits}-bit ${type}${groupSize ? `, group ${groupSize}` : ''}`;
    const scope = scopeFromExclusions(excluded);
    if (bits === 8 && type === 'float') return { weights: { dtype: 'fp8', scope, other: 'bf16', excluded, source } };
    if (bits === 4 && type === 'float') return { weights: nvfp4Weights(source, excluded, undefined, scope) };
    if (bits === 4 && type === 'int')
      return { weights: { dtype: 'int4', scope, other: 'bf16', excluded, source, ...(groupSize ? { block: `group ${groupSize}` } : {}) } };
    if (bits === 8 && type === 'int') return { weights: { dtype: 'int8', scope, other: 'bf16', excluded, source } };
  }
  return undefined;
}

/**
 * The weight format a checkpoint's name announces (`…-FP8`, `…-FP4`, `…-NVFP4`, `…-MXFP4`, `…-AWQ`), for checkpoints the
 * catalogue does not list and whose files are not at hand. The exact exclusions live in the checkpoint's quantization
 * config, so the source says this is read from the name.
 */
export function weightFormatFromName(name: string): WeightFormat | undefined {
  const base = baseName(name);
  const q = (re: RegExp) => re.test(base);
  const why = (what: string) =>
    `checkpoint name "${base}" says ${what}; assumed for the linear layers (the exact exclusions are in its hf_quant_config.json / quantization_config — point the model setting at the checkpoint directory to read them)`;
  if (q(/(^|[-_.])mxfp4([-_.]|$)/i)) return { dtype: 'mxfp4', scope: 'linear', other: 'bf16', block: BLOCK.mxfp4, source: why('MXFP4') };
  if (q(/(^|[-_.])(nv)?fp4([-_.]|$)/i)) return { dtype: 'nvfp4', scope: 'linear', other: 'bf16', block: BLOCK.nvfp4, source: why('NVFP4') };
  if (q(/(^|[-_.])fp8([-_.]|$)/i)) return { dtype: 'fp8', scope: 'linear', other: 'bf16', source: why('FP8') };
  if (q(/(^|[-_.])(awq|gptq|int4|w4a16)([-_.]|$)/i))
    return { dtype: 'int4', scope: 'linear', other: 'fp16', source: why('4-bit integer weights') };
  return undefined;
}

/**
 * BF16 for a checkpoint whose config.json the catalogue has not read: a fine-tune or re-release of a BF16 model.
 * The source says so; reading the checkpoint's own files replaces it.
 */
export const assumedBf16Weights = (basis: string): WeightFormat =>
  bf16Weights(`BF16 assumed: ${basis} (this checkpoint's config.json was not read; point the model setting at its files to read them)`);
