// Runtime memory outside the model, as separate labelled lines (memory.md §7). All heuristic.
import type { TrainingConfig } from './config.js';

export const GIB = 2 ** 30;

export interface OverheadLine {
  label: string;
  bytes: number;
  formula: string;
  source: string;
}

/** CUDA context with lazy module loading: 0.3–0.45 GB measured (pytorch#86509, #109888); we budget 0.5 GiB. */
export const CUDA_CONTEXT_BYTES = 0.5 * GIB;
/** NCCL buffers: 0.5–2 GiB for dense TP/DP/CP, 2–5 GiB with EP all-to-all (nccl#864, #1685); we budget 1 and 3 GiB. */
export const NCCL_DENSE_BYTES = 1 * GIB;
export const NCCL_EP_BYTES = 3 * GIB;
/** Caching-allocator fragmentation: reserved − allocated is often 5–15% at long sequence (Megatron#188, Memo arXiv 2407.12117); we budget 5%. */
export const FRAGMENTATION = 0.05;

export function trainingOverheads(c: TrainingConfig, modelled: number): OverheadLine[] {
  return [
    {
      label: 'CUDA context',
      bytes: CUDA_CONTEXT_BYTES,
      formula: '0.5 GiB per process',
      source: 'pytorch#86509 (0.29–0.67 GB measured, lazy loading)',
    },
    {
      label: c.ep > 1 ? 'NCCL buffers (with EP all-to-all)' : 'NCCL buffers',
      bytes: c.ep > 1 ? NCCL_EP_BYTES : NCCL_DENSE_BYTES,
      formula: c.ep > 1 ? '3 GiB' : '1 GiB',
      source: 'NCCL_BUFFSIZE 4 MiB per channel and peer; nccl#864, #1685',
    },
    {
      label: 'allocator fragmentation',
      bytes: FRAGMENTATION * modelled,
      formula: '5% of the modelled bytes',
      source: 'Megatron-LM#188; Memo (arXiv 2407.12117)',
    },
  ];
}
