// Compute and interconnect figures the planner's cost model divides by. Only ratios of these enter a cost
// (bytes ÷ bandwidth against FLOPs ÷ peak), and no candidate is ever shown a throughput.
import type { GpuSpec } from '../memory/types.js';

export interface Hardware {
  /** GPU preset id this row describes. */
  id: string;
  /** Dense BF16 tensor-core peak, FLOP/s (datasheets quote sparse figures: half of those). */
  peakBf16: number;
  /** Scale-up (NVLink) bandwidth per GPU and direction, B/s (datasheets quote both directions together). */
  scaleUp: number;
  /** GPUs one scale-up domain joins (HGX baseboard 8, NVL72 rack 72, H100 NVL bridge pair 2). */
  scaleUpDomain: number;
  /** Host link per GPU and direction, B/s (what CPU activation offloading moves over). */
  host: number;
  /** Scale-out network per GPU and direction, B/s (one NIC per GPU). */
  scaleOut: number;
  /** FP8 tensor cores (compute capability ≥ 8.9) and FP4 tensor cores (Blackwell, ≥ 10.0). */
  fp8: boolean;
  fp4: boolean;
  source: string;
}

const GB = 1e9;
const TFLOPS = 1e12;

/** H100 SXM5: BF16 1,979 TFLOP/s with sparsity → 989 dense; NVLink 900 GB/s; PCIe Gen5 128 GB/s (NVIDIA H100 datasheet). */
export const H100_PEAK_BF16 = 989 * TFLOPS;
/** NVLink 4 on H100/H200 SXM: 900 GB/s bidirectional = 450 GB/s each way (NVIDIA H100 datasheet). */
export const H100_NVLINK = (900 * GB) / 2;
/** PCIe Gen5 x16: 128 GB/s bidirectional = 64 GB/s each way (NVIDIA H100 datasheet; PCIe 5.0 spec). */
export const PCIE_GEN5_X16 = 64 * GB;
/** DGX H100 / B200: eight ConnectX-7 400 Gb/s InfiniBand ports, one per GPU = 50 GB/s each way (NVIDIA DGX H100 datasheet). */
export const NDR_400G = 400e9 / 8;

const HOPPER_NOTE =
  'NVIDIA H100 datasheet (BF16 1,979 TFLOP/s sparse, NVLink 900 GB/s, PCIe Gen5 128 GB/s); DGX H100 datasheet (8× ConnectX-7 400 Gb/s)';

export const HARDWARE: Hardware[] = [
  {
    id: 'h100',
    peakBf16: H100_PEAK_BF16,
    scaleUp: H100_NVLINK,
    scaleUpDomain: 8,
    host: PCIE_GEN5_X16,
    scaleOut: NDR_400G,
    fp8: true,
    fp4: false,
    source: HOPPER_NOTE,
  },
  {
    id: 'h200',
    peakBf16: H100_PEAK_BF16,
    scaleUp: H100_NVLINK,
    scaleUpDomain: 8,
    host: PCIE_GEN5_X16,
    scaleOut: NDR_400G,
    fp8: true,
    fp4: false,
    source: 'NVIDIA H200 datasheet (same GH100 compute and NVLink 900 GB/s as H100 SXM); DGX H200 8× ConnectX-7 400 Gb/s',
  },
  {
    id: 'h100-nvl',
    peakBf16: 835 * TFLOPS,
    scaleUp: (600 * GB) / 2,
    scaleUpDomain: 2,
    host: PCIE_GEN5_X16,
    scaleOut: NDR_400G,
    fp8: true,
    fp4: false,
    source:
      'NVIDIA H100 datasheet, H100 NVL column (BF16 1,671 TFLOP/s sparse, NVLink bridge 600 GB/s between a pair); NIC assumed 400 Gb/s',
  },
  {
    id: 'h20',
    peakBf16: 148 * TFLOPS,
    scaleUp: H100_NVLINK,
    scaleUpDomain: 8,
    host: PCIE_GEN5_X16,
    scaleOut: NDR_400G,
    fp8: true,
    fp4: false,
    source: 'NVIDIA H20 product brief (BF16 148 TFLOP/s, NVLink 900 GB/s, PCIe Gen5) [UNVERIFIED: secondary sources]',
  },
  {
    id: 'a100-80gb',
    peakBf16: 312 * TFLOPS,
    scaleUp: (600 * GB) / 2,
    scaleUpDomain: 8,
    host: 32 * GB,
    scaleOut: 200e9 / 8,
    fp8: false,
    fp4: false,
    source: 'NVIDIA A100 datasheet (BF16 312 TFLOP/s, NVLink 600 GB/s, PCIe Gen4 64 GB/s); DGX A100 8× 200 Gb/s HDR',
  },
  {
    id: 'a100-40gb',
    peakBf16: 312 * TFLOPS,
    scaleUp: (600 * GB) / 2,
    scaleUpDomain: 8,
    host: 32 * GB,
    scaleOut: 200e9 / 8,
    fp8: false,
    fp4: false,
    source: 'NVIDIA A100 datasheet (BF16 312 TFLOP/s, NVLink 600 GB/s, PCIe Gen4 64 GB/s); DGX A100 8× 200 Gb/s HDR',
  },
  {
    id: 'l40s',
    peakBf16: 362 * TFLOPS,
    scaleUp: 32 * GB,
    scaleUpDomain: 8,
    host: 32 * GB,
    scaleOut: 200e9 / 8,
    fp8: true,
    fp4: false,
    source:
      'NVIDIA L40S datasheet (BF16 362 TFLOP/s dense; no NVLink: GPUs talk over PCIe Gen4 x16, 64 GB/s both ways); NIC assumed 200 Gb/s [UNVERIFIED]',
  },
  {
    id: 'b200',
    peakBf16: 2250 * TFLOPS,
    scaleUp: (1800 * GB) / 2,
    scaleUpDomain: 8,
    host: PCIE_GEN5_X16,
    scaleOut: NDR_400G,
    fp8: true,
    fp4: true,
    source: 'NVIDIA HGX B200 datasheet (BF16 36 PFLOP/s sparse for 8 GPUs, NVLink 5 1.8 TB/s per GPU); DGX B200 8× ConnectX-7 400 Gb/s',
  },
  {
    id: 'gb200',
    peakBf16: 2500 * TFLOPS,
    scaleUp: (1800 * GB) / 2,
    scaleUpDomain: 72,
    host: (900 * GB) / 2,
    scaleOut: NDR_400G,
    fp8: true,
    fp4: true,
    source:
      'NVIDIA GB200 NVL72 datasheet (BF16 360 PFLOP/s sparse for 72 GPUs, NVLink 1.8 TB/s, NVLink-C2C 900 GB/s to Grace) [host link shared by two GPUs: UNVERIFIED per-GPU share]',
  },
  {
    id: 'b300',
    peakBf16: 2250 * TFLOPS,
    scaleUp: (1800 * GB) / 2,
    scaleUpDomain: 8,
    host: 2 * PCIE_GEN5_X16,
    scaleOut: 800e9 / 8,
    fp8: true,
    fp4: true,
    source: 'NVIDIA HGX B300 datasheet (NVLink 1.8 TB/s, PCIe Gen6, ConnectX-8 800 Gb/s); BF16 taken equal to B200 [UNVERIFIED]',
  },
  {
    id: 'gb300',
    peakBf16: 2500 * TFLOPS,
    scaleUp: (1800 * GB) / 2,
    scaleUpDomain: 72,
    host: (900 * GB) / 2,
    scaleOut: 800e9 / 8,
    fp8: true,
    fp4: true,
    source: 'NVIDIA GB300 NVL72 datasheet (NVLink 1.8 TB/s, NVLink-C2C, ConnectX-8 800 Gb/s); BF16 taken equal to GB200 [UNVERIFIED]',
  },
];

/** The hardware row of a GPU; a custom-sized GPU is costed like an H100 SXM (and says so). */
export function hardwareFor(gpu: GpuSpec): { hw: Hardware; assumed: boolean } {
  const hw = HARDWARE.find((h) => h.id === gpu.id);
  if (hw) return { hw, assumed: false };
  return {
    hw: {
      ...HARDWARE[0]!,
      id: gpu.id,
      source: `${gpu.name}: no compute/interconnect figures known; costed as an H100 SXM (${HOPPER_NOTE})`,
    },
    assumed: true,
  };
}
