// What `recipe-lens simulate` prints: the JSON object of the issue's shape, and the same as text.
import type { SweepPoint } from './simulate.js';
import type { PolicyStats } from './types.js';
import type { EventReplay } from './workloads/events.js';

export interface RunInfo {
  workload: string;
  tokensPerBlock: number;
  hostBlocks: number;
  requests: number;
}

export function policyJson(s: PolicyStats): Record<string, number> {
  return {
    hitRate: s.hitRate,
    reusedBlocks: s.reusedBlocks,
    promptBlocks: s.promptBlocks,
    evictions: s.evictions,
    offloads: s.offloads,
    onboards: s.onboards,
    prefillTokensSaved: s.prefillTokensSaved,
    partialReuses: s.partialReuses,
    skippedRequests: s.skipped,
  };
}

function pointJson(p: SweepPoint, info: RunInfo): object {
  return {
    poolBlocks: p.poolBlocks,
    tokensPerBlock: info.tokensPerBlock,
    requests: info.requests,
    policies: { lru: policyJson(p.lru), ...(p.retention ? { retention: policyJson(p.retention) } : {}) },
  };
}

/** One pool size: the point's object; several: {…, "sweep": [one per size]}. */
export function simulationJson(points: SweepPoint[], info: RunInfo): object {
  const head = { workload: info.workload, hostBlocks: info.hostBlocks };
  if (points.length === 1) return { ...pointJson(points[0]!, info), ...head };
  return { tokensPerBlock: info.tokensPerBlock, requests: info.requests, ...head, sweep: points.map((p) => pointJson(p, info)) };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

export function simulationText(points: SweepPoint[], info: RunInfo): string {
  const lines = [
    `workload: ${info.workload}`,
    `blocks of ${info.tokensPerBlock} tokens${info.hostBlocks ? `, host tier ${int(info.hostBlocks)} blocks` : ''}; hit rate = full prompt blocks reused / full prompt blocks requested`,
  ];
  const rows: string[][] = [
    ['pool blocks', 'pool tokens', 'policy', 'hit rate', 'reused / requested', 'prefill saved', 'evictions', 'offloads', 'skipped'],
  ];
  for (const p of points)
    for (const [name, s] of [
      ['lru', p.lru],
      ['retention', p.retention],
    ] as const)
      if (s)
        rows.push([
          int(p.poolBlocks),
          int(p.poolBlocks * info.tokensPerBlock),
          name,
          pct(s.hitRate),
          `${int(s.reusedBlocks)} / ${int(s.promptBlocks)}`,
          `${int(s.prefillTokensSaved)} tokens`,
          int(s.evictions),
          int(s.offloads),
          int(s.skipped),
        ]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) lines.push(r.map((v, c) => (c < 3 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join('  '));
  const skipped = points.some((p) => p.lru.skipped);
  if (skipped) lines.push('skipped: requests larger than the whole pool (never admitted; counted as requested, not reused)');
  return lines.join('\n');
}

export function eventsJson(r: EventReplay): object {
  return { source: 'kv-cache-events', events: r.events, pools: r.pools };
}

export function eventsText(r: EventReplay): string {
  const lines = [`KV cache events: ${int(r.events)}`];
  for (const p of r.pools) {
    const where = [
      p.attentionDpRank !== null ? `attention DP rank ${p.attentionDpRank}` : '',
      p.windowSize !== null ? `window ${p.windowSize}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const total = (l: [number, number][]) => l.reduce((s, [, n]) => s + n, 0);
    const byPrio = (l: [number, number][]) => l.map(([pr, n]) => `${int(n)} at ${pr}`).join(', ') || 'none';
    lines.push(
      `pool${where ? ` (${where})` : ''}: ${p.capacity ? `${int(p.capacity.primary)} GPU + ${int(p.capacity.secondary)} host blocks` : 'capacity unknown (no created event)'}${p.tokensPerBlock ? `, ${p.tokensPerBlock} tokens per block` : ''}`,
      `  stored ${int(p.stored)}, removed ${int(p.removed)}, offloaded ${int(p.offloads)}, onboarded ${int(p.onboards)}, priority changes ${int(p.priorityChanges)}${p.unknown ? `, ${int(p.unknown)} events about blocks stored before the dump` : ''}`,
      `  at the end: GPU ${int(total(p.final.primary))} blocks (${byPrio(p.final.primary)}); host ${int(total(p.final.secondary))} blocks (${byPrio(p.final.secondary)})`,
    );
  }
  return lines.join('\n');
}
