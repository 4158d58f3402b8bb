// GPU device memory as the CUDA runtime reports it where a figure was measured or published, else the datasheet.
import { GIB, MIB } from '../units.js';
import type { GpuSpec } from './types.js';

/** A capacity PyTorch printed to 0.01 GiB ("GPU 0 has a total capacity of X GiB"): exact to ±5 MiB. */
const gib2 = (x: number) => Math.round(x * GIB);

export const GPUS: GpuSpec[] = [
  {
    id: 'h100',
    name: 'NVIDIA H100 80GB HBM3 (SXM)',
    bytes: 85_017_493_504,
    source:
      'torch.cuda.get_device_properties(0).total_memory measured on an H100 80GB HBM3 (driver 580.159.04): nvidia-smi total 81559 MiB − 480 MiB reserved',
  },
  {
    id: 'h100-nvl',
    name: 'NVIDIA H100 NVL 94GB',
    bytes: 94e9,
    source:
      'NVIDIA H100 datasheet: H100 NVL 94GB, read as 10^9 bytes (no published CUDA figure found; the runtime figure is likely higher)',
  },
  {
    id: 'h200',
    name: 'NVIDIA H200 141GB',
    bytes: 150_109_880_320,
    source:
      'torch.cuda.get_device_properties(0).total_memory measured on an H200 (driver 580.159.04, torch 2.11): nvidia-smi total 143771 MiB − 616 MiB reserved',
  },
  {
    id: 'b200',
    name: 'NVIDIA B200 192GB',
    bytes: gib2(178.35),
    source:
      'CUDA deviceQuery on a B200: "Total Global Memory: 178.35" GiB (pytorch/ao#4002); nvidia-smi shows 183359 MiB total (NVIDIA/TensorRT-LLM#10278)',
  },
  {
    id: 'gb200',
    name: 'NVIDIA GB200 (per Blackwell GPU)',
    bytes: gib2(184.3),
    source:
      'Megatron-Bridge model verification card qwen3.8-27b (examples/model_verification_cards/qwen3.8-27b/card.yaml): runs "OOMed near the approximately 184.3-GiB per-GPU device limit" of GB200; the same share of the HBM as GB300 (276.5 GiB of 288 GB) for 192 GB',
    // Grace Blackwell superchip: the GPU's host is a Grace CPU (Arm Neoverse V2).
    hostArch: 'aarch64',
  },
  {
    id: 'gb300',
    name: 'NVIDIA GB300 (per Blackwell Ultra GPU)',
    bytes: gib2(276.5),
    source:
      'PyTorch OOM message on GB300: "GPU 3 has a total capacity of 276.50 GiB" (NVIDIA-NeMo/Megatron-Bridge#2221); datasheet 288 GB HBM3e',
    // Grace Blackwell superchip: the GPU's host is a Grace CPU (Arm Neoverse V2).
    hostArch: 'aarch64',
  },
  {
    id: 'b300',
    name: 'NVIDIA B300 288GB',
    bytes: 288e9,
    source: 'HGX B300 datasheet: 288 GB HBM3e per GPU, read as 10^9 bytes (GB300, same memory, reports 276.50 GiB = 296.9e9 B to CUDA)',
  },
  {
    id: 'a100-40gb',
    name: 'NVIDIA A100-SXM4-40GB',
    bytes: 42_298_834_944,
    source:
      'CUDA deviceQuery on A100-SXM4-40GB: "Total amount of global memory: 40339 MBytes (42298834944 bytes)" (bottlerocket-os/bottlerocket#3873)',
  },
  {
    id: 'a100-80gb',
    name: 'NVIDIA A100 80GB',
    bytes: gib2(79.14),
    source:
      'PyTorch OOM message on an A100 80GB: "GPU 0 has a total capacity of 79.14 GiB" (lianqi1008/Control-GIC#6); nvidia-smi total 81920 MiB (modal-labs/modal-client#2797)',
  },
  {
    id: 'l40s',
    name: 'NVIDIA L40S 48GB',
    bytes: 46068 * MIB,
    source:
      'nvidia-smi total 46068 MiB (modal-labs/modal-client#2797); includes driver-reserved memory, so the CUDA figure is a few hundred MiB lower',
  },
  {
    id: 'h20',
    name: 'NVIDIA H20 96GB',
    bytes: 96e9,
    source: 'NVIDIA H20 datasheet: 96 GB HBM3, read as 10^9 bytes (no published CUDA figure found)',
  },
];

/** Names a file, setting or modeline may use, as compact keys (lower case, only [a-z0-9]). */
const ALIASES: Record<string, string> = {
  h100: 'h100',
  h10080gb: 'h100',
  h100sxm: 'h100',
  h100sxm5: 'h100',
  h100sxm80gb: 'h100',
  h10080gbhbm3: 'h100',
  h100nvl: 'h100-nvl',
  h100nvl94gb: 'h100-nvl',
  h10094gb: 'h100-nvl',
  h200: 'h200',
  h200141gb: 'h200',
  h200sxm: 'h200',
  b200: 'b200',
  b200192gb: 'b200',
  b200180gb: 'b200',
  gb200: 'gb200',
  gb200nvl72: 'gb200',
  gb300: 'gb300',
  gb300nvl72: 'gb300',
  b300: 'b300',
  b300288gb: 'b300',
  b300sxm6ac: 'b300',
  a10040gb: 'a100-40gb',
  a100sxm440gb: 'a100-40gb',
  a10040g: 'a100-40gb',
  a100: 'a100-80gb',
  a10080gb: 'a100-80gb',
  a100sxm480gb: 'a100-80gb',
  a10080g: 'a100-80gb',
  l40s: 'l40s',
  l40s48gb: 'l40s',
  h20: 'h20',
  h2096gb: 'h20',
};

const compact = (s: string) =>
  s
    .toLowerCase()
    .replace(/^\s*nvidia[\s_-]*/, '')
    .replace(/[^a-z0-9]/g, '');

/** A user-sized GPU (`custom:96` = 96 GiB). */
export function customGpu(gib: number): GpuSpec {
  return {
    id: `custom:${gib}`,
    name: `Custom ${gib} GiB`,
    bytes: Math.round(gib * GIB),
    source: `user-specified capacity: ${gib} GiB (2^30 bytes)`,
  };
}

/** The GPU a name stands for (`h100`, `H100-80GB`, `a100-40gb`, `NVIDIA H200`, `custom:96`); case-insensitive. */
export function findGpu(nameOrAlias: string): GpuSpec | undefined {
  const custom = /^\s*custom\s*:\s*(\d+(?:\.\d+)?)\s*(?:gib)?\s*$/i.exec(nameOrAlias);
  if (custom) {
    const gib = Number(custom[1]);
    return gib > 0 ? customGpu(gib) : undefined;
  }
  const key = compact(nameOrAlias);
  const id = Object.hasOwn(ALIASES, key) ? ALIASES[key] : key;
  return GPUS.find((g) => g.id === id || compact(g.id) === id);
}
