// Bytes per stored parameter of a checkpoint's weight format (models/types.ts WeightFormat), scale factors included.
import type { WeightDtype, WeightFormat } from '../models/types.js';

export interface QuantBytes {
  /** Bytes per parameter, scale factors included. */
  bytes: number;
  /** How it is stored, for the report: `FP8 (128×128 blocks, FP32 scales)`. */
  label: string;
}

/** The parts of a model a format's scope quantizes (models/types.ts WeightScope). */
const SCOPE_PARTS: Record<WeightFormat['scope'], readonly string[] | 'all'> = {
  all: 'all',
  linear: ['attention', 'dense MLP', 'shared experts', 'routed experts', 'Mamba', 'MTP'],
  mlp: ['dense MLP', 'shared experts', 'routed experts'],
  experts: ['routed experts'],
};

/** Whether a part's weight matrices are stored in the format's (quantized) dtype. */
export function parentCategoryQuantized(format: WeightFormat, part: string): boolean {
  const parts = SCOPE_PARTS[format.scope];
  return parts === 'all' || parts.includes(part);
}

/**
 * Bytes of one parameter of `dtype`:
 * - FP8 E4M3 1 B; with 128×128 weight blocks one FP32 scale per 16,384 weights (DeepSeek-V3 report §3.3, config.json
 *   `weight_block_size`); ModelOpt FP8 has one FP32 scale per tensor (negligible, not counted);
 * - NVFP4 half a byte + one E4M3 scale per 16 values (NVIDIA ModelOpt NVFP4, group_size 16; the per-tensor FP32 scale is negligible);
 * - MXFP4 half a byte + one E8M0 scale per 32 values (OCP Microscaling Formats v1.0);
 * - INT4 (AWQ/GPTQ, compressed-tensors) half a byte + one 16-bit scale per group: the checkpoint's group size, else 128 (assumed);
 * - INT8 1 B (per-channel scales negligible); BF16/FP16 2 B; FP32 4 B.
 */
export function dtypeBytes(dtype: WeightDtype, block?: string): QuantBytes {
  switch (dtype) {
    case 'fp8':
      return block && /128×128/.test(block)
        ? { bytes: 1 + 4 / (128 * 128), label: 'FP8 (128×128 blocks, FP32 scales)' }
        : { bytes: 1, label: 'FP8 (per-tensor scale)' };
    case 'nvfp4':
      return { bytes: 0.5 + 1 / 16, label: 'NVFP4 (E4M3 scale per 16)' };
    case 'mxfp4':
      return { bytes: 0.5 + 1 / 32, label: 'MXFP4 (E8M0 scale per 32)' };
    case 'int4': {
      // A group size the checkpoint states (compressed-tensors `group_size`), else the common 128.
      const group = Number(/group (\d+)/.exec(block ?? '')?.[1]);
      return group > 0
        ? { bytes: 0.5 + 2 / group, label: `INT4 (16-bit scale per ${group})` }
        : { bytes: 0.5 + 2 / 128, label: 'INT4 (FP16 scale per 128, assumed)' };
    }
    case 'int8':
      return { bytes: 1, label: 'INT8' };
    case 'fp32':
      return { bytes: 4, label: 'FP32' };
    case 'fp16':
      return { bytes: 2, label: 'FP16' };
    case 'bf16':
      return { bytes: 2, label: 'BF16' };
  }
}

/**
 * Bytes of a parameter of the checkpoint: `quantized` weight matrices in the format's dtype; other weight matrices
 * (`matrix`: embeddings, the LM head, excluded modules) in its `other` storage — never FP8 for the embedding and head,
 * which quantization tools keep in 16 bits; vectors (norms, routers, biases) in 16 bits, or the checkpoint's own dtype
 * when every tensor has one.
 */
export function quantBytes(format: WeightFormat, quantized: boolean, matrix: boolean): QuantBytes {
  if (quantized) return dtypeBytes(format.dtype, format.block);
  if (format.scope === 'all') return dtypeBytes(format.dtype === 'fp32' || format.dtype === 'fp16' ? format.dtype : 'bf16');
  const other = format.other === 'fp8' && !matrix ? 'bf16' : format.other;
  return dtypeBytes(other);
}
