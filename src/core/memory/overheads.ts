// The three levels PyTorch reports, and what lies between them (memory.md §7):
//   allocated — torch.cuda.max_memory_allocated(): tensors (weights, gradients, optimizer state, activations, transients);
//   reserved  — torch.cuda.max_memory_reserved(): allocated plus the caching allocator's cached, fragmented blocks;
//   device    — what nvidia-smi shows: reserved plus memory outside PyTorch's allocator (CUDA context, NCCL buffers).
// The fit verdict uses device. All overheads are budgets from the cited measurements, listed as assumptions.
import type { TrainingConfig } from './config.js';

export { GIB } from '../units.js';
import { GIB } from '../units.js';

export interface OverheadLine {
  label: string;
  bytes: number;
  formula: string;
  source: string;
  level: 'reserved' | 'device';
}

/** CUDA context with lazy module loading: 0.3–0.45 GB measured (pytorch#86509, #109888); we budget 0.5 GiB. */
export const CUDA_CONTEXT_BYTES = 0.5 * GIB;
/** NCCL buffers: 0.5–2 GiB for dense TP/DP/CP, 2–5 GiB with EP all-to-all (nccl#864, #1685); we budget 1 and 3 GiB. */
export const NCCL_DENSE_BYTES = 1 * GIB;
export const NCCL_EP_BYTES = 3 * GIB;
/**
 * Caching-allocator fragmentation, reserved − allocated over allocated: 5–15% at long sequence (Megatron-LM#188, Memo
 * arXiv 2407.12117); Megatron-Bridge's Moonlight 16B study measured 36.6 GB allocated against about 40 GB reserved (9%).
 * We budget the middle of the range.
 */
export const FRAGMENTATION = 0.1;
/**
 * With PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True segments grow in place instead of being split, which "can avoid
 * fragmentation" (PyTorch CUDA semantics docs, "Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF"); the Bridge
 * memory-tuning study fixed a fragmentation OOM at 58.8 GB allocated with it. We budget 3% [assumption: no published ratio].
 */
export const FRAGMENTATION_EXPANDABLE = 0.03;

/** reserved − allocated, as a share of allocated. */
export function reservedFraction(c: Pick<TrainingConfig, 'expandableSegments'>): number {
  return c.expandableSegments ? FRAGMENTATION_EXPANDABLE : FRAGMENTATION;
}

/** NCCL communicator buffers: none on a single GPU (no communicator is created), else the budget above. */
export function ncclBytes(c: Pick<TrainingConfig, 'ep' | 'worldSize'>): number {
  if (c.worldSize === 1) return 0;
  return c.ep > 1 ? NCCL_EP_BYTES : NCCL_DENSE_BYTES;
}

/** Memory outside the caching allocator: CUDA context and NCCL communicator buffers. */
export function outsideAllocatorBytes(c: Pick<TrainingConfig, 'ep' | 'worldSize'>): number {
  return CUDA_CONTEXT_BYTES + ncclBytes(c);
}

/** device = allocated · (1 + fragmentation) + context + NCCL: the smallest device figure a given allocated figure can have. */
export function deviceBytes(allocated: number, c: Pick<TrainingConfig, 'expandableSegments' | 'ep' | 'worldSize'>): number {
  return allocated * (1 + reservedFraction(c)) + outsideAllocatorBytes(c);
}

export function trainingOverheads(c: TrainingConfig, allocated: number): OverheadLine[] {
  const f = reservedFraction(c);
  return [
    {
      label: c.expandableSegments ? 'allocator fragmentation (expandable segments)' : 'allocator fragmentation',
      bytes: f * allocated,
      formula: `${f * 100}% of allocated (reserved − allocated)`,
      source: c.expandableSegments
        ? 'PyTorch CUDA semantics (expandable_segments); budget, no published ratio'
        : 'Megatron-LM#188; Memo (arXiv 2407.12117); Bridge Moonlight study (9%)',
      level: 'reserved',
    },
    {
      label: 'CUDA context',
      bytes: CUDA_CONTEXT_BYTES,
      formula: '0.5 GiB per process',
      source: 'pytorch#86509 (0.29–0.67 GB measured, lazy loading)',
      level: 'device',
    },
    ...(ncclBytes(c)
      ? [
          {
            label: c.ep > 1 ? 'NCCL buffers (with EP all-to-all)' : 'NCCL buffers',
            bytes: ncclBytes(c),
            formula: c.ep > 1 ? '3 GiB' : '1 GiB',
            source: 'NCCL_BUFFSIZE 4 MiB per channel and peer; nccl#864, #1685',
            level: 'device' as const,
          },
        ]
      : []),
  ];
}
