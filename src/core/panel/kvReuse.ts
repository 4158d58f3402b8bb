// The "KV reuse" panel section's view model: the hit-rate curve against pool size for LRU and the retention config
// (with the options file's own pool marked), the pool's occupancy by priority over time (a simulation's samples or
// a KV event stream's replay), and which ranges of the retention config earned their pinning. Plain JSON for the
// webview: coordinates are percentages of the plot, every text is final.
import { DEFAULT_RETENTION_PRIORITY } from '../memory/kvcache.js';
import type { RetentionSpec } from '../kvsim/retention.js';
import type { SweepPoint } from '../kvsim/simulate.js';
import type { OccupancySample, PolicyStats } from '../kvsim/types.js';
import { count } from './format.js';
import { SYNTHETIC } from '../kvsim/workloads/synthetic.js';
import { poolFromEstimate } from '../kvsim/fromAnalysis.js';
import type { DocEstimate } from '../memory/estimate.js';
import type { Recipe } from '../recipe.js';
import type { KvReuseResultVM, KvReuseSectionVM } from './viewModels.js';

export interface KvReuseInput {
  workload: string;
  tokensPerBlock: number;
  /** Pool sizes (any order) with LRU and, when a retention config is given, retention. */
  sweep: SweepPoint[];
  /** The options file's own pool in blocks, marked on the curve; null without an options file. */
  filePool: number | null;
  /** The retention config whose ranges the pinning rows name; null = none. */
  retention: RetentionSpec | null;
  /** Occupancy over time: a run's samples (`capacity` = its GPU blocks) or a KV event stream's replayed pool. */
  occupancy?: { source: 'simulation' | 'events'; label: string; capacity: number; samples: OccupancySample[] };
  /** LRU and retention at one pool size, for the pinning table (hits by the origin of the hit block's priority). */
  detail?: { poolBlocks: number; lru: PolicyStats; retention: PolicyStats };
}

export interface KvCurvePoint {
  poolBlocks: number;
  /** "4,096 blocks (131,072 tokens)". */
  label: string;
  /** Position on the log-scaled pool axis, 0..100. */
  x: number;
  lru: { y: number; text: string };
  retention: { y: number; text: string } | null;
}

export interface KvCurveVM {
  xLabel: string;
  yLabel: string;
  points: KvCurvePoint[];
  /** Axis ticks at the smallest and largest pool and powers of two between them. */
  ticks: { x: number; label: string }[];
  /** The options file's pool, when it lies on the axis. */
  marker: { x: number; label: string } | null;
}

export interface KvOccupancySeries {
  tier: 'GPU' | 'host';
  priority: number;
  label: string;
  /** Blocks at this priority per sample, as a percentage of the tier's capacity (stack them lowest priority first). */
  values: number[];
}

export interface KvOccupancyVM {
  source: 'simulation' | 'events';
  title: string;
  /** Sample positions along the time axis, 0..100, and their labels ("request 1,200", "event 52"). */
  x: number[];
  xLabels: string[];
  series: KvOccupancySeries[];
  /** Blocks held by running requests, % of the GPU pool (simulation only). */
  held: number[] | null;
}

export type PinVerdict = 'earned' | 'no effect' | 'cost';

export interface KvPinRow {
  label: string;
  priority: string;
  /** Blocks that got this priority when allocated. */
  pinned: string;
  hitsRetention: string;
  hitsLru: string;
  /** Retention hits minus LRU hits on blocks of this origin, signed ("+1,024", "−96", "±0"). */
  earned: string;
  earnedBlocks: number;
  verdict: PinVerdict;
}

export interface KvPinningVM {
  /** "At 4,096 blocks: retention 41.2% vs LRU 33.0% (+8.2 points)". */
  summary: string;
  rows: KvPinRow[];
}

export interface KvReuseVM {
  title: string;
  subtitle: string;
  curve: KvCurveVM;
  occupancy: KvOccupancyVM | null;
  pinning: KvPinningVM | null;
  notes: string[];
}

const pct1 = (x: number) => `${(100 * x).toFixed(1)}%`;
/** Plot coordinates to a thousandth of a percent. */
const r3 = (v: number) => Math.round(v * 1000) / 1000;
const signed = (n: number) => (n > 0 ? `+${count(n)}` : n < 0 ? `−${count(-n)}` : '±0');

function logAxis(sizes: number[]): (p: number) => number {
  const lo = Math.log(Math.min(...sizes));
  const hi = Math.log(Math.max(...sizes));
  return (p) => (hi > lo ? r3((100 * (Math.log(p) - lo)) / (hi - lo)) : 50);
}

function curve(input: KvReuseInput): KvCurveVM {
  const pts = [...input.sweep].sort((a, b) => a.poolBlocks - b.poolBlocks);
  const sizes = pts.map((p) => p.poolBlocks);
  const x = logAxis(sizes.length ? sizes : [1]);
  const tpb = input.tokensPerBlock;
  const points = pts.map((p) => ({
    poolBlocks: p.poolBlocks,
    label: `${count(p.poolBlocks)} blocks (${count(p.poolBlocks * tpb)} tokens)`,
    x: x(p.poolBlocks),
    lru: { y: r3(100 * p.lru.hitRate), text: `LRU ${pct1(p.lru.hitRate)}` },
    retention: p.retention ? { y: r3(100 * p.retention.hitRate), text: `retention ${pct1(p.retention.hitRate)}` } : null,
  }));
  const ticks: { x: number; label: string }[] = [];
  if (sizes.length) {
    const lo = sizes[0]!;
    const hi = sizes[sizes.length - 1]!;
    ticks.push({ x: x(lo), label: count(lo) });
    for (let p = 2 ** Math.ceil(Math.log2(lo) + 1e-9); p < hi; p *= 2) if (p > lo) ticks.push({ x: x(p), label: count(p) });
    if (hi > lo) ticks.push({ x: x(hi), label: count(hi) });
  }
  const f = input.filePool;
  const onAxis = f !== null && sizes.length > 0 && f >= sizes[0]! && f <= sizes[sizes.length - 1]!;
  return {
    xLabel: `GPU pool (blocks of ${tpb} tokens, log scale)`,
    yLabel: 'hit rate (full prompt blocks reused)',
    points,
    ticks: ticks.length > 12 ? ticks.filter((_, i) => i % Math.ceil(ticks.length / 12) === 0 || i === ticks.length - 1) : ticks,
    marker: onAxis ? { x: x(f!), label: `options file: ${count(f!)} blocks` } : null,
  };
}

function occupancy(o: NonNullable<KvReuseInput['occupancy']>): KvOccupancyVM {
  const n = o.samples.length;
  const gpu = new Set<number>();
  const host = new Set<number>();
  for (const s of o.samples) {
    for (const [p] of s.primary) gpu.add(p);
    for (const [p] of s.secondary) host.add(p);
  }
  const hostCapacity = Math.max(1, ...o.samples.map((s) => s.secondary.reduce((t, [, b]) => t + b, 0)));
  const label = (p: number) => `priority ${p}${p === DEFAULT_RETENTION_PRIORITY ? ' (default)' : ''}`;
  const series: KvOccupancySeries[] = [];
  for (const p of [...gpu].sort((a, b) => a - b))
    series.push({
      tier: 'GPU',
      priority: p,
      label: label(p),
      values: o.samples.map((s) => r3((100 * (s.primary.find(([q]) => q === p)?.[1] ?? 0)) / Math.max(1, o.capacity))),
    });
  for (const p of [...host].sort((a, b) => a - b))
    series.push({
      tier: 'host',
      priority: p,
      label: `host, ${label(p)}`,
      // Host occupancy relative to the most the host tier held in this run (its capacity is not in the samples).
      values: o.samples.map((s) => r3((100 * (s.secondary.find(([q]) => q === p)?.[1] ?? 0)) / hostCapacity)),
    });
  return {
    source: o.source,
    title: o.label,
    x: o.samples.map((_, i) => (n > 1 ? r3((100 * i) / (n - 1)) : 50)),
    xLabels: o.samples.map((s) => (o.source === 'events' ? `event ${count(s.at)}` : `request ${count(s.at + 1)}`)),
    series,
    held: o.source === 'simulation' ? o.samples.map((s) => r3((100 * (s.held ?? 0)) / Math.max(1, o.capacity))) : null,
  };
}

function pinning(d: NonNullable<KvReuseInput['detail']>, spec: RetentionSpec | null): KvPinningVM {
  const ranges = spec?.ranges ?? [];
  const names = [
    ...ranges.map((r) => ({
      label: `tokens [${count(r.tokenStart)}, ${r.tokenEnd === null ? 'end' : count(r.tokenEnd)})`,
      priority: `${r.priority}${r.durationMs !== null ? ` for ${count(r.durationMs)} ms` : ''}`,
    })),
    { label: 'outside every range', priority: `${DEFAULT_RETENTION_PRIORITY} (default)` },
    {
      label: 'generated tokens',
      priority: `${spec?.decodePriority ?? DEFAULT_RETENTION_PRIORITY}${spec?.decodeDurationMs != null ? ` for ${count(spec.decodeDurationMs)} ms` : ''}`,
    },
    { label: "requests' own configs", priority: 'per request' },
  ];
  const rows: KvPinRow[] = [];
  names.forEach((n, i) => {
    const pinned = d.retention.pinnedByOrigin[i] ?? 0;
    const hr = d.retention.hitsByOrigin[i] ?? 0;
    const hl = d.lru.hitsByOrigin[i] ?? 0;
    if (i >= ranges.length && pinned === 0 && hr === 0 && hl === 0) return;
    const earned = hr - hl;
    rows.push({
      ...n,
      pinned: count(pinned),
      hitsRetention: count(hr),
      hitsLru: count(hl),
      earned: signed(earned),
      earnedBlocks: earned,
      verdict: earned > 0 ? 'earned' : earned < 0 ? 'cost' : 'no effect',
    });
  });
  const diff = 100 * (d.retention.hitRate - d.lru.hitRate);
  const points = `${diff >= 0 ? '+' : '−'}${Math.abs(diff).toFixed(1)} points`;
  return {
    summary: `At ${count(d.poolBlocks)} blocks: retention ${pct1(d.retention.hitRate)} vs LRU ${pct1(d.lru.hitRate)} (${points})`,
    rows,
  };
}

export function buildKvReuseVM(input: KvReuseInput): KvReuseVM {
  const notes = [
    'Hit rate: full prompt blocks matched whole from the cache ÷ full prompt blocks requested (TensorRT-LLM block reuse, simulated).',
    'Pinning: hits on blocks whose priority came from each range, under the retention config and under LRU at the same pool; "earned" is the difference.',
  ];
  if (input.occupancy?.source === 'events')
    notes.push(
      'Occupancy from KV cache events: stored blocks by cache level and priority; events do not say which blocks running requests hold.',
    );
  return {
    title: 'KV reuse',
    subtitle: `${input.workload} · ${input.tokensPerBlock} tokens per block`,
    curve: curve(input),
    occupancy: input.occupancy && input.occupancy.samples.length ? occupancy(input.occupancy) : null,
    pinning: input.detail ? pinning(input.detail, input.retention) : null,
    notes,
  };
}

/** The built-in workloads the section offers (`recipe-lens simulate --workload NAME`, its default parameters). */
export const BUILTIN_WORKLOADS = Object.entries(SYNTHETIC).map(([value, w]) => ({ value, label: `${value}: ${w.help}` }));

/**
 * The section before a run: shown for TensorRT-LLM options files (their pool marked on the curve) and KV retention
 * files (their config against LRU); null for any other file.
 */
export function kvReuseSection(e: DocEstimate, recipe: Recipe | undefined, uri: string, docVersion: number): KvReuseSectionVM | null {
  let intro: string;
  if (e.kind === 'retention')
    intro = `This retention config against plain LRU, at pool sizes spread over the workload (${e.coverage.tokensPerBlock} tokens per block).`;
  else if (e.kind === 'serving') {
    const p = poolFromEstimate(recipe, e);
    if ('error' in p) return null;
    intro = `Pool sizes around this file's GPU pool (${p.role}): ${count(p.poolBlocks)} blocks of ${p.tokensPerBlock} tokens${p.hostBlocks ? `, ${count(p.hostBlocks)} host blocks` : ''}; plain LRU (open a retention config's file to simulate its priorities).`;
  } else return null;
  return { uri, docVersion, state: 'idle', intro, workloads: BUILTIN_WORKLOADS, workload: '', message: '', result: null };
}

// The view model's interfaces and the protocol's schema describe the same JSON.
const toSchema = (vm: KvReuseVM): KvReuseResultVM => vm;
const fromSchema = (vm: KvReuseResultVM): KvReuseVM => vm;
void toSchema;
void fromSchema;
