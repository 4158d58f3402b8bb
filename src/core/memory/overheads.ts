// The three levels PyTorch reports, and what lies between them (memory.md §7):
//   allocated — torch.cuda.max_memory_allocated(): tensors (weights, gradients, optimizer state, activations, transients);
//   reserved  — torch.cuda.max_memory_reserved(): allocated plus the caching allocator's cached, fragmented blocks;
//   device    — what nvidia-smi shows: reserved plus memory outside PyTorch's allocator (CUDA context, NCCL buffers).
// The fit verdict uses device. All overheads are budgets from the cited measurements, listed as assumptions.
import type { TrainingConfig } from './config.js';
import type { GpuSpec } from './types.js';

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

// ---------------------------------------------------------------------------------------------------------------
// GEMM workspaces: allocated once through the caching allocator, so they count in torch.cuda.max_memory_allocated().

const MIB = 2 ** 20;

/** Compute capability of a catalogued GPU (CUDA C++ Programming Guide, compute capabilities); Hopper when unknown. */
export function computeCapability(gpu: Pick<GpuSpec, 'id'>): number {
  const id = gpu.id.toLowerCase();
  if (id.startsWith('a100')) return 8.0;
  if (id.startsWith('l40')) return 8.9;
  if (/^(gb|b)300/.test(id)) return 10.3;
  if (/^(gb|b)200/.test(id)) return 10.0;
  return 9.0;
}

/**
 * Bytes of one PyTorch cuBLAS workspace: CUBLAS_WORKSPACE_CONFIG (":SIZE_KiB:COUNT" pairs, summed) when set, else 32 MiB on
 * Hopper and Blackwell (compute capability 9.x–12.x) and 4096·2 + 16·8 KiB elsewhere (pytorch aten/src/ATen/cuda/
 * CublasHandlePool.cpp parseChosenWorkspaceSize, "32MiB for Hopper and Blackwell"). Older releases gave the 32 MiB to
 * sm90 only: Megatron-LM's GB200 functional tests show both, the recent runs allocating what the H100 runs do and older
 * ones 48 MiB less (two workspaces); the current rule is the one users run.
 */
export function torchCublasWorkspaceBytes(config: string | undefined, cc: number): number {
  const pairs = config ? [...config.matchAll(/:(\d+):(\d+)/g)] : [];
  if (pairs.length) return pairs.reduce((a, p) => a + Number(p[1]) * 1024 * Number(p[2]), 0);
  const major = Math.floor(cc);
  return major >= 9 && major <= 12 ? 4096 * 8 * 1024 : 4096 * 1024 * 2 + 16 * 1024 * 8;
}

/** TE's cuBLAS workspace: 32 MiB from compute capability 9, else 4 MiB (TransformerEngine pytorch/module/base.py get_cublas_workspace_size_bytes). */
export const teCublasWorkspaceBytes = (cc: number) => (cc >= 9 ? 32 * MIB : 4 * MIB);
/** TE's grouped-GEMM streams, one workspace each (TransformerEngine get_multi_stream_cublas_workspace, num_cublas_streams = 4). */
export const TE_CUBLAS_STREAMS = 4;
/** With tp_comm_overlap TE's userbuffer GEMMs share one workspace of 3 (TransformerEngine cpp_extensions/gemm.py _NUM_MAX_UB_STREAMS). */
export const TE_UB_STREAMS = 3;

export interface WorkspaceLine {
  label: string;
  bytes: number;
  formula: string;
  source: string;
}

/**
 * The GEMM workspaces of a Megatron-Core training process. PyTorch keeps one cuBLAS workspace per (handle, stream) and its
 * handles are thread-local: the forward runs on the main thread and the backward on the autograd engine's device thread, so
 * the output layer's torch.matmul (forward and backward) allocates two. Transformer Engine adds its own workspace, four
 * more for grouped GEMM (MoE experts) and a threefold one for userbuffer GEMMs (tp_comm_overlap).
 */
export function gemmWorkspaces(
  c: Pick<TrainingConfig, 'cublasWorkspaceConfig' | 'transformerImpl' | 'tpCommOverlap'>,
  gpu: Pick<GpuSpec, 'id'>,
  groupedGemm: boolean,
): WorkspaceLine[] {
  const cc = computeCapability(gpu);
  const pt = torchCublasWorkspaceBytes(c.cublasWorkspaceConfig, cc);
  const out: WorkspaceLine[] = [
    {
      label: 'PyTorch cuBLAS workspaces (forward thread, autograd thread)',
      bytes: 2 * pt,
      formula: `2 × ${+(pt / MIB).toFixed(3)} MiB`,
      source: 'pytorch CublasHandlePool.cpp (per handle and stream; thread-local handles)',
    },
  ];
  if (c.transformerImpl !== 'local') {
    const te = teCublasWorkspaceBytes(cc);
    out.push({
      label: groupedGemm ? 'TE cuBLAS workspaces (main + grouped-GEMM streams)' : 'TE cuBLAS workspace',
      bytes: te * (groupedGemm ? 1 + TE_CUBLAS_STREAMS : 1),
      formula: groupedGemm ? `${te / MIB} MiB × (1 + ${TE_CUBLAS_STREAMS})` : `${te / MIB} MiB`,
      source: 'TransformerEngine get_cublas_workspace_size_bytes, get_multi_stream_cublas_workspace',
    });
    if (c.tpCommOverlap)
      out.push({
        label: 'TE userbuffer GEMM workspace (tp_comm_overlap)',
        bytes: te * TE_UB_STREAMS,
        formula: `${te / MIB} MiB × ${TE_UB_STREAMS}`,
        source: 'TransformerEngine cpp_extensions/gemm.py get_cublas_workspace(ub=True)',
      });
  }
  return out;
}
