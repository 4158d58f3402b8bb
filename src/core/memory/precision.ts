// Precision recipes: what is stored in which format, and the bytes per value including scales.
// Sources: memory.md §1.2–1.4 (TransformerEngine docs, OCP MX v1.0, NVFP4 paper), DESIGN.md.

import type { TrainingConfig } from './config.js';

export type Fp8Recipe = 'delayed' | 'tensorwise' | 'blockwise' | 'mxfp8';
export type Fp4Recipe = 'nvfp4' | 'mxfp4';
export type PrecisionId = 'bf16' | 'fp16' | 'fp32' | `fp8-${Fp8Recipe}` | Fp4Recipe;

export interface PrecisionFacts {
  id: PrecisionId;
  label: string;
  /** Element format of the quantized values. */
  element: string;
  /** Values sharing one scale, as "1×16" / "16×16" / "per tensor". */
  block: string;
  scale: string;
  /** Bits per value including the block scales (rowwise activations/gradients). */
  bitsPerValue: number;
  /** Bytes per element of a saved linear-layer input (what the memory model uses). */
  savedInputBytes: number;
  notes: string[];
  source: string;
}

const PER_TENSOR = 'one FP32 scale per tensor';

export const PRECISIONS: Record<PrecisionId, PrecisionFacts> = {
  bf16: {
    id: 'bf16',
    label: 'BF16 mixed precision',
    element: 'BF16 (E8M7)',
    block: '—',
    scale: '—',
    bitsPerValue: 16,
    savedInputBytes: 2,
    notes: ['FP32 master weights, gradients and Adam moments (Megatron default).'],
    source: 'Megatron-LM distributed optimizer docs (18 B/param)',
  },
  fp16: {
    id: 'fp16',
    label: 'FP16 mixed precision',
    element: 'FP16 (E5M10)',
    block: '—',
    scale: 'dynamic loss scale',
    bitsPerValue: 16,
    savedInputBytes: 2,
    notes: ['FP16 gradients plus FP32 master copies: 20 B/param without the distributed optimizer.'],
    source: 'Megatron-LM distributed optimizer docs',
  },
  fp32: {
    id: 'fp32',
    label: 'FP32',
    element: 'FP32',
    block: '—',
    scale: '—',
    bitsPerValue: 32,
    savedInputBytes: 4,
    notes: ['No separate master copy: 16 B/param with Adam.'],
    source: 'Megatron-LM distributed optimizer docs',
  },
  'fp8-delayed': {
    id: 'fp8-delayed',
    label: 'FP8 delayed scaling',
    element: 'E4M3 forward / E5M2 gradients (hybrid)',
    block: 'per tensor',
    scale: `${PER_TENSOR} from an amax history`,
    bitsPerValue: 8,
    savedInputBytes: 1,
    notes: ['Weights stay in BF16; TE adds an FP8 copy (+1 B/param, +1 B for the transposed copy on Hopper) unless fp8_param is set.'],
    source: 'TransformerEngine performance guide; memory.md §1.2',
  },
  'fp8-tensorwise': {
    id: 'fp8-tensorwise',
    label: 'FP8 current (tensorwise) scaling',
    element: 'E4M3 / E5M2',
    block: 'per tensor',
    scale: `${PER_TENSOR} from the current amax`,
    bitsPerValue: 8,
    savedInputBytes: 1,
    notes: ['Weights stay in BF16 plus an FP8 copy unless fp8_param is set.'],
    source: 'TransformerEngine Float8CurrentScaling; memory.md §1.2',
  },
  'fp8-blockwise': {
    id: 'fp8-blockwise',
    label: 'FP8 blockwise scaling',
    element: 'E4M3',
    block: '1×128 activations, 128×128 weights',
    scale: 'FP32 per block',
    bitsPerValue: 8 + 32 / 128,
    savedInputBytes: 1 + 4 / 128,
    notes: ['Block sizes as in TE Float8BlockScaling (memory.md marks them unverified).'],
    source: 'TransformerEngine Float8BlockScaling; memory.md §1.3',
  },
  'fp8-mxfp8': {
    id: 'fp8-mxfp8',
    label: 'MXFP8',
    element: 'E4M3 / E5M2',
    block: '1×32',
    scale: 'E8M0 (power of two) per 32 values',
    bitsPerValue: 8 + 8 / 32,
    savedInputBytes: 1 + 1 / 32,
    notes: ['Blackwell: rowwise and columnwise copies differ (+2 × 1.03 B/param for weights).'],
    source: 'OCP MX v1.0; TransformerEngine MXFP8 docs',
  },
  nvfp4: {
    id: 'nvfp4',
    label: 'NVFP4',
    element: 'E2M1 (±6)',
    block: '1×16 activations and gradients, 16×16 weights',
    scale: 'E4M3 per block + one FP32 per tensor',
    bitsPerValue: 4 + 8 / 16,
    savedInputBytes: 0.5625,
    notes: [
      'Random Hadamard transforms (16×16) on the weight-gradient GEMM inputs.',
      'Stochastic rounding on gradients only; round-to-nearest-even for weights and activations.',
      'About 15% of linear layers, mostly the last blocks, stay in BF16; embeddings, head, norms, attention BMMs and optimizer state stay high precision.',
    ],
    source: 'NVFP4 training paper (arXiv 2509.25149); TransformerEngine NVFP4 docs; memory.md §1.4',
  },
  mxfp4: {
    id: 'mxfp4',
    label: 'MXFP4',
    element: 'E2M1',
    block: '1×32',
    scale: 'E8M0 (power of two) per 32 values',
    bitsPerValue: 4 + 8 / 32,
    savedInputBytes: 4.25 / 8,
    notes: [
      'No Megatron / TE training recipe exists for MXFP4; it matters for inference weights (gpt-oss).',
      "NVIDIA's 8B comparison needed ~36% more tokens with MXFP4 to match NVFP4's loss.",
    ],
    source: 'OCP MX v1.0; NVFP4 paper baseline; memory.md §1.2',
  },
};

/** Share of linear layers the NVFP4 recipe keeps in BF16 (NVFP4 paper: "~15% … at the end"). */
export const NVFP4_BF16_LAYER_FRACTION = 0.15;

export function isFp8(p: PrecisionId): boolean {
  return p.startsWith('fp8-');
}

/** The precision recipe a training configuration runs. */
export function precisionIdOf(c: TrainingConfig): PrecisionId {
  if (c.fp4) return c.fp4;
  if (c.fp8) return `fp8-${c.fp8}`;
  return c.params;
}

/** The configuration with another precision recipe; BF16/FP16 drop the quantized weight copies. */
export function withPrecision(c: TrainingConfig, id: PrecisionId): TrainingConfig {
  const params = c.params === 'fp32' ? 'bf16' : c.params;
  if (id === 'bf16' || id === 'fp16' || id === 'fp32') return { ...c, params: id, fp8: null, fp4: null, quantizedParams: false };
  if (id === 'nvfp4' || id === 'mxfp4') return { ...c, params, fp8: null, fp4: id };
  return { ...c, params, fp4: null, fp8: id.slice(4) as NonNullable<TrainingConfig['fp8']> };
}

// ---------------------------------------------------------------------------------------------------------------
// Mixed-precision recipes by name

/** The flags a mixed-precision recipe function sets (Megatron-Bridge MixedPrecisionConfig field names). */
export interface MixedPrecisionFlags {
  /** The recipe function, as registered (underscores). */
  recipe: string;
  bf16: boolean;
  fp16: boolean;
  grad_reduce_in_fp32: boolean;
  fp8: 'hybrid' | 'e4m3' | null;
  fp8_recipe: 'delayed' | 'tensorwise' | 'mxfp8' | 'blockwise';
  fp8_param_gather: boolean;
  fp8_margin: number;
  fp8_amax_history_len: number;
  fp8_amax_compute_algo: 'most_recent' | 'max';
  first_last_layers_bf16: boolean;
  num_layers_at_start_in_bf16: number;
  num_layers_at_end_in_bf16: number;
  fp4: 'e2m1' | null;
  fp4_recipe: 'nvfp4';
  fp4_param_gather: boolean;
  reuse_grad_buf_for_mxfp8_param_ag: boolean;
  /** Where the function is defined. */
  source: string;
}

/** Megatron-Bridge src/megatron/bridge/training/mixed_precision.py at 067f987df03b (last changed in 9f69b72de). */
export const BRIDGE_MIXED_PRECISION_SOURCE =
  'NVIDIA-NeMo/Megatron-Bridge@067f987df03b8355b03192d88d70f1709fedf51a src/megatron/bridge/training/mixed_precision.py';
/** NeMo 2.0 nemo/collections/llm/recipes/precision/mixed_precision.py (run.Config factories of MegatronMixedPrecision). */
export const NEMO2_MIXED_PRECISION_SOURCE = 'NVIDIA/NeMo@0a07447c2962 nemo/collections/llm/recipes/precision/mixed_precision.py';

// MixedPrecisionConfig dataclass defaults (fp8_recipe "tensorwise", amax history 1 "most_recent", no BF16 layers).
const DEFAULTS: Omit<MixedPrecisionFlags, 'recipe' | 'source'> = {
  bf16: false,
  fp16: false,
  grad_reduce_in_fp32: true,
  fp8: null,
  fp8_recipe: 'tensorwise',
  fp8_param_gather: false,
  fp8_margin: 0,
  fp8_amax_history_len: 1,
  fp8_amax_compute_algo: 'most_recent',
  first_last_layers_bf16: false,
  num_layers_at_start_in_bf16: 0,
  num_layers_at_end_in_bf16: 0,
  fp4: null,
  fp4_recipe: 'nvfp4',
  fp4_param_gather: false,
  reuse_grad_buf_for_mxfp8_param_ag: false,
};
type Patch = Partial<Omit<MixedPrecisionFlags, 'recipe' | 'source'>>;
const BF16: Patch = { bf16: true, grad_reduce_in_fp32: true }; // bf16_mixed()
const FP16: Patch = { fp16: true, grad_reduce_in_fp32: false }; // fp16_mixed()
const DELAYED: Patch = {
  fp8: 'hybrid',
  fp8_recipe: 'delayed',
  fp8_margin: 0,
  fp8_amax_history_len: 1024,
  fp8_amax_compute_algo: 'max',
  fp8_param_gather: true,
};
const CURRENT = (bf16Layers: number, recipe: 'tensorwise' | 'blockwise' = 'tensorwise'): Patch => ({
  fp8: 'hybrid',
  fp8_recipe: recipe,
  first_last_layers_bf16: true,
  num_layers_at_start_in_bf16: bf16Layers,
  num_layers_at_end_in_bf16: bf16Layers,
  fp8_param_gather: true,
});
const MXFP8: Patch = { fp8: 'e4m3', fp8_recipe: 'mxfp8', fp8_param_gather: true, reuse_grad_buf_for_mxfp8_param_ag: true };
const SUBCHANNEL: Patch = { fp8: 'hybrid', fp8_recipe: 'blockwise', fp8_param_gather: false };
const NVFP4: Patch = { fp8: null, fp4: 'e2m1', fp4_recipe: 'nvfp4', fp8_param_gather: false, fp4_param_gather: true };

/** Every recipe function registered in Megatron-Bridge's MIXED_PRECISION_RECIPES, as its body sets the fields. */
const BRIDGE_RECIPES: Record<string, Patch[]> = {
  bf16_mixed: [BF16],
  fp16_mixed: [FP16],
  bf16_with_fp8_delayed_scaling_mixed: [BF16, DELAYED],
  fp16_with_fp8_delayed_scaling_mixed: [FP16, DELAYED],
  bf16_with_mxfp8_mixed: [BF16, MXFP8],
  fp16_with_mxfp8_mixed: [FP16, MXFP8],
  bf16_with_fp8_current_scaling_mixed: [BF16, CURRENT(1)],
  nemotron_h_bf16_with_fp8_current_scaling_mixed: [BF16, CURRENT(2)],
  nanov2_bf16_with_fp8_current_scaling_mixed: [BF16, CURRENT(2, 'blockwise')],
  fp16_with_fp8_current_scaling_mixed: [FP16, CURRENT(1)],
  bf16_with_fp8_subchannel_scaling_mixed: [BF16, SUBCHANNEL],
  fp16_with_fp8_subchannel_scaling_mixed: [FP16, SUBCHANNEL],
  bf16_with_nvfp4_mixed: [BF16, NVFP4],
  // bf16_with_nvfp4_mixed() then first_last_layers_bf16 = True, num_layers_at_end_in_bf16 = 14 (start keeps the dataclass 0).
  nemotron_3_super_bf16_with_nvfp4_mixed: [BF16, NVFP4, { first_last_layers_bf16: true, num_layers_at_end_in_bf16: 14 }],
};

/** NeMo 2.0's factories (same names, some different flags: its MXFP8 recipe is 'hybrid' without fp8_param_gather). */
const NEMO2_RECIPES: Record<string, Patch[]> = {
  bf16_mixed: [BF16],
  fp16_mixed: [FP16],
  bf16_with_fp8_mixed: [BF16, DELAYED],
  fp16_with_fp8_mixed: [FP16, DELAYED],
  bf16_with_mxfp8_mixed: [BF16, { fp8: 'hybrid', fp8_recipe: 'mxfp8', fp8_param_gather: false }],
  fp16_with_mxfp8_mixed: [FP16, { fp8: 'hybrid', fp8_recipe: 'mxfp8', fp8_param_gather: false }],
  bf16_with_fp8_current_scaling_mixed: [BF16, CURRENT(1)],
  fp16_with_fp8_current_scaling_mixed: [FP16, CURRENT(1)],
};

/**
 * The flags a mixed-precision recipe name stands for, exactly as the recipe function sets them; `null` for a name the
 * framework does not register. Hyphens are read as underscores (Bridge registers both; get_mixed_precision_config
 * replaces "-" with "_").
 */
export function mixedPrecisionRecipe(name: string, framework: 'megatron-bridge' | 'nemo2' = 'megatron-bridge'): MixedPrecisionFlags | null {
  const key = name.trim().replace(/-/g, '_');
  const table = framework === 'nemo2' ? NEMO2_RECIPES : BRIDGE_RECIPES;
  if (!Object.hasOwn(table, key)) return null;
  return Object.assign(
    { recipe: key, source: framework === 'nemo2' ? NEMO2_MIXED_PRECISION_SOURCE : BRIDGE_MIXED_PRECISION_SOURCE },
    DEFAULTS,
    ...table[key]!,
  ) as MixedPrecisionFlags;
}

/** The names a framework registers, for completion and messages. */
export function mixedPrecisionRecipeNames(framework: 'megatron-bridge' | 'nemo2' = 'megatron-bridge'): string[] {
  return Object.keys(framework === 'nemo2' ? NEMO2_RECIPES : BRIDGE_RECIPES);
}

/** A training configuration with a recipe's flags applied (params dtype, FP8/FP4 recipe, quantized params, BF16 layers, fp32 grads). */
export function withMixedPrecision(c: TrainingConfig, f: MixedPrecisionFlags): TrainingConfig {
  const fp8: Fp8Recipe | null = f.fp8 ? f.fp8_recipe : null;
  const fp4: Fp4Recipe | null = f.fp4 ? 'nvfp4' : null;
  const bf16Layers =
    f.first_last_layers_bf16 && (fp8 || fp4) ? { start: f.num_layers_at_start_in_bf16, end: f.num_layers_at_end_in_bf16 } : undefined;
  return {
    ...c,
    params: f.fp16 ? 'fp16' : 'bf16',
    gradReduceInFp32: f.grad_reduce_in_fp32,
    fp8,
    fp4,
    quantizedParams: (fp8 !== null && f.fp8_param_gather) || (fp4 !== null && f.fp4_param_gather),
    bf16Layers,
  };
}
