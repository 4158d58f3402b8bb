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
