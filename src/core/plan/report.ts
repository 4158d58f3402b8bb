// The planner's result as the CLI prints it: JSON with a fixed shape, or a text table of the cost terms.
import { MFU } from './cost.js';
import type { Candidate, PlanResult } from './plan.js';
import { gib, gibNumber } from '../units.js';

/** `recipe-lens plan --format json`: exactly {gpus, gpu, candidates, searched, valid}. */
export function planJson(r: PlanResult): object {
  return {
    gpus: r.gpus,
    gpu: r.gpu,
    candidates: r.candidates.map((c) => ({
      tp: c.tp,
      pp: c.pp,
      vpp: c.vpp,
      cp: c.cp,
      ep: c.ep,
      sp: c.sp,
      microBatchSize: c.microBatchSize,
      recompute: c.recompute,
      offloadLayers: c.offloadLayers,
      precision: c.precision,
      perGpu: {
        total: c.perGpu.total,
        weights: c.perGpu.weights,
        gradients: c.perGpu.gradients,
        optimizer: c.perGpu.optimizer,
        activations: c.perGpu.activations,
        transient: c.perGpu.transient,
        overhead: c.perGpu.overhead,
      },
      fits: c.fits,
      cost: c.cost,
    })),
    searched: r.searched,
    valid: r.valid,
  };
}

const pct = (x: number) => (100 * x).toFixed(1);
const COST_COLUMNS: [keyof Candidate['cost'], string][] = [
  ['bubble', 'bubble'],
  ['recompute', 'recomp'],
  ['tpComm', 'TP'],
  ['cpComm', 'CP'],
  ['epComm', 'EP'],
  ['ppComm', 'PP'],
  ['offload', 'offl'],
  ['dpComm', 'DP'],
  ['total', 'total'],
];

/** One row per candidate: layout, levers, memory of the most-loaded rank, and each cost term in % of T0. */
export function planTable(cs: readonly Candidate[], first = 1): string[] {
  const head = [
    '#',
    'TP',
    'PP',
    'VPP',
    'CP',
    'EP',
    'DP',
    'MBS',
    'm',
    'recompute',
    'offload',
    'precision',
    'GiB/GPU',
    'use',
    ...COST_COLUMNS.map(([, h]) => h),
  ];
  const rows = cs.map((c, i) => [
    String(first + i),
    String(c.tp),
    String(c.pp),
    c.vpp ? String(c.vpp) : '-',
    String(c.cp),
    String(c.ep),
    String(c.dp),
    String(c.microBatchSize),
    String(c.microbatches),
    c.recompute,
    String(c.offloadLayers),
    c.precision,
    gibNumber(c.perGpu.total, 1),
    `${Math.round(100 * c.fraction)}%`,
    ...COST_COLUMNS.map(([k]) => pct(c.cost[k])),
  ]);
  const width = head.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j]!.length)));
  const left = new Set([9, 11]);
  const line = (r: string[]) =>
    r
      .map((x, j) => (left.has(j) ? x.padEnd(width[j]!) : x.padStart(width[j]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

export function planText(r: PlanResult): string {
  const out: string[] = [];
  out.push(`${r.model} · seq ${r.seq} · global batch ${r.globalBatch} · ${r.gpus} × ${r.gpu.name} (${gib(r.gpu.bytes)})`);
  out.push(
    `${r.space} combinations pass the launch rules; ${r.searched} searched (${r.estimated} memory estimates, the rest settled by bounds), ${r.dominated} skipped as costlier variants of a layout that already fits; ${r.valid} fit within 90% of the GPU`,
  );
  if (!r.candidates.length) {
    out.push('', 'no layout fits: more GPUs, a larger GPU, or a shorter sequence');
  } else {
    out.push('', ...planTable(r.candidates));
    if (r.valid > r.candidates.length) out.push(`… ${r.valid - r.candidates.length} more (--top 0 lists all)`);
  }
  out.push(
    '',
    `cost columns: extra step time in % of T0, the step's compute time (the step's FLOPs over all GPUs at ${Math.round(MFU * 100)}% of the dense BF16 peak);`,
    'they rank candidates and are not a throughput. bubble (PP−1)/(m·VPP); recomp one extra forward (full) or attention scores (selective);',
    'TP/CP/EP/PP/DP: communication time not hidden behind compute, from datasheet bandwidths; offl: PCIe copies not hidden.',
    `hardware: ${r.hardware.source}`,
  );
  for (const n of r.notes) out.push(`note: ${n}`);
  return out.join('\n');
}
