// KV cache section: TensorRT-LLM pool sizing per server role, and for KV retention configs the token-range
// timeline coloured by priority with the eviction order and what falls below secondary_offload_min_priority.
import type { FactRow, KvVM, TimelineRange, TimelineVM } from './viewModels.js';
import type { Recipe, RetentionRecipe } from '../recipe.js';
import type { DocEstimate, ServingRole } from '../memory/estimate.js';
import { DEFAULT_RETENTION_PRIORITY, kvTokenFormula } from '../memory/kvcache.js';
import { retentionRanges } from '../rules/retention.js';
import { bytes, count, gib } from './format.js';
import { roleName, type ServingDoc } from './memory.js';

type RetentionDoc = Extract<DocEstimate, { kind: 'retention' }>;

function roleRows(r: ServingRole): FactRow[] {
  const k = r.kv;
  const p = k.perToken;
  const rows: FactRow[] = [
    {
      label: 'bytes per token',
      value: `${count(k.bytesPerToken)} B = ${kvTokenFormula(p)}`,
    },
    { label: 'block', value: `${k.tokensPerBlock} tokens = ${bytes(k.bytesPerBlock)}` },
    {
      label: 'free after weights and runtime',
      value: `${gib(k.freeBytes)}${k.fraction !== null ? ` × free_gpu_memory_fraction ${k.fraction}` : ''}`,
    },
    {
      label: 'pool',
      value: `${gib(k.allocatedBytes)} = ${count(k.poolTokens)} tokens = ${count(k.poolBlocks)} blocks (limited by ${k.limit})`,
    },
    {
      label: `requests of max_seq_len ${count(r.maxSeqLen)}`,
      value: `${count(k.requestsAtMaxSeqLen)} (${count(k.blocksPerSequence)} blocks each)`,
    },
  ];
  if (k.host.bytes)
    rows.push({ label: 'host tier', value: `${gib(k.host.bytes)} = ${count(k.host.tokens)} tokens = ${count(k.host.blocks)} blocks` });
  for (const w of k.windowPools ?? [])
    rows.push({
      label: `window ${count(w.window)} (${w.layers} layers)`,
      value: `${gib(w.bytes)} = ${count(w.tokens)} tokens; ${count(w.requests)} requests`,
    });
  return rows;
}

export function servingKv(e: ServingDoc): KvVM {
  return {
    kind: 'serving',
    groups: e.roles.map((r) => ({ title: roleName(r), rows: roleRows(r) })),
    timeline: null,
    eviction: [],
    notes: e.roles.flatMap((r) => r.kv.assumptions.map((a) => `${a.what} (${a.source})`)),
  };
}

/** Share of the axis the prompt takes; the decode tokens take the rest after a gap. */
const PROMPT_SHARE = 86;
const DECODE_X = 88;
const MAX_LEVEL = 5;
const MAX_BLOCK_TICKS = 64;

interface Segment {
  start: number;
  end: number | null;
  priority: number;
  durationMs: number | null;
  range: number | null;
}

const span = (s: Segment) => `[${count(s.start)}, ${s.end === null ? 'end' : count(s.end)})`;

export function retentionKv(e: RetentionDoc, recipe: RetentionRecipe): KvVM {
  const c = e.coverage;
  const tpb = c.tokensPerBlock;
  const threshold = c.secondaryOffloadMinPriority;
  const ranges = retentionRanges(recipe)
    .map((r) => ({
      start: r.start,
      end: r.end,
      priority: r.priority ?? DEFAULT_RETENTION_PRIORITY,
      durationMs: r.durationMs ?? null,
      range: r.index,
    }))
    .sort((a, b) => a.start - b.start);
  // Tokens no range covers keep the default priority 35.
  const segments: Segment[] = [];
  let at = 0;
  for (const r of ranges) {
    if (r.start > at) segments.push({ start: at, end: r.start, priority: DEFAULT_RETENTION_PRIORITY, durationMs: null, range: null });
    segments.push(r);
    at = r.end === null ? Infinity : Math.max(at, r.end);
  }
  const open = segments.some((s) => s.end === null);
  const known = Math.max(tpb, ...segments.map((s) => s.end ?? s.start));
  // An open-ended range runs to the end of the prompt, which the config does not know: draw a quarter more.
  const axisEnd = open ? known + Math.max(Math.ceil(known / 4), 4 * tpb) : known;
  const priorities = [...new Set([...segments.map((s) => s.priority), c.decodePriority])].sort((a, b) => a - b);
  // Spread over the palette, lowest priority (evicted first) at 0, highest at MAX_LEVEL.
  const level = (p: number) => (priorities.length === 1 ? 3 : Math.round((priorities.indexOf(p) * MAX_LEVEL) / (priorities.length - 1)));
  const px = (t: number) => Math.round((PROMPT_SHARE * 1000 * t) / axisEnd) / 1000;
  const fate = (p: number) =>
    p < threshold ? `dropped when evicted (below secondary_offload_min_priority ${threshold})` : 'copied to the host tier when evicted';
  const expiry = (d: number | null) => (d === null ? 'no expiry' : `priority for ${count(d)} ms, then ${DEFAULT_RETENTION_PRIORITY}`);
  const blocksOf = (s: Segment) => {
    const first = Math.ceil(s.start / tpb);
    if (s.end === null) return `blocks ${first}–end`;
    const end = Math.ceil(s.end / tpb);
    return end > first
      ? `${end - first} blocks (${first}–${end - 1})`
      : 'no block of its own (a block belongs to the range holding its first token)';
  };
  const timelineRanges: TimelineRange[] = segments.map((s) => ({
    x: px(s.start),
    w: px((s.end ?? axisEnd) - s.start),
    level: level(s.priority),
    priority: s.priority,
    label: `${span(s)} priority ${s.priority}`,
    detail: `${s.range === null ? 'no range (default priority)' : `range ${s.range}`}: ${blocksOf(s)}; ${expiry(s.durationMs)}; ${fate(s.priority)}`,
    open: s.end === null,
    dropped: s.priority < threshold,
  }));
  timelineRanges.push({
    x: DECODE_X,
    w: 100 - DECODE_X,
    level: level(c.decodePriority),
    priority: c.decodePriority,
    label: `decode priority ${c.decodePriority}`,
    detail: `generated tokens: ${expiry(c.decodeDurationMs)}; ${fate(c.decodePriority)}`,
    open: false,
    dropped: c.decodePriority < threshold,
  });
  const boundaries = [...new Set([0, ...segments.flatMap((s) => (s.end === null ? [s.start] : [s.start, s.end]))])].sort((a, b) => a - b);
  const ticks = boundaries.length <= 8 ? boundaries : [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * known));
  const blockCount = Math.ceil(axisEnd / tpb);
  const timeline: TimelineVM = {
    axis: ticks.map((t) => ({ x: px(t), label: count(t) })),
    ranges: timelineRanges,
    blocks: blockCount <= MAX_BLOCK_TICKS ? Array.from({ length: blockCount - 1 }, (_, i) => px((i + 1) * tpb)) : [],
    caption: `prompt tokens by priority (${tpb}-token blocks)${open ? '; the last range runs to the end of the prompt (faded)' : ''}, then the generated tokens (right)`,
  };
  // Eviction: lowest priority first; within a level, least recently used first.
  const levels = new Map<string, { priority: number; parts: string[]; dropped: boolean; durationMs: number | null }>();
  const add = (priority: number, durationMs: number | null, part: string) => {
    const key = `${priority}/${durationMs}`;
    if (!levels.has(key)) levels.set(key, { priority, parts: [], dropped: priority < threshold, durationMs });
    levels.get(key)!.parts.push(part);
  };
  add(c.decodePriority, c.decodeDurationMs, 'generated (decode) tokens');
  for (const s of segments) add(s.priority, s.durationMs, `prompt ${span(s)}: ${blocksOf(s)}`);
  const eviction = [...levels.values()]
    .sort((a, b) => a.priority - b.priority)
    .map((l, i) => ({
      order: i + 1,
      text: `priority ${l.priority}${l.durationMs !== null ? ` (for ${count(l.durationMs)} ms, then ${DEFAULT_RETENTION_PRIORITY})` : ''}: ${l.parts.join('; ')}${l.dropped ? ' — dropped, not offloaded' : ''}`,
      dropped: l.dropped,
    }));
  return {
    kind: 'retention',
    groups: [
      {
        title: 'retention',
        rows: [
          { label: 'tokens per block', value: String(tpb) },
          { label: 'token ranges', value: String(ranges.length) },
          {
            label: 'decode priority',
            value: `${c.decodePriority}${c.decodeDurationMs !== null ? ` for ${count(c.decodeDurationMs)} ms, then ${DEFAULT_RETENTION_PRIORITY}` : ''}`,
          },
          { label: 'secondary_offload_min_priority', value: `${threshold} (TensorRT-LLM default; set in the serving file)` },
        ],
      },
    ],
    timeline,
    eviction,
    notes: e.assumptions.map((a) => `${a.what} (${a.source})`),
  };
}

export function kvSection(e: DocEstimate, recipe: Recipe | undefined): KvVM | null {
  if (e.kind === 'serving') return servingKv(e);
  if (e.kind === 'retention' && recipe?.kind === 'retention') return retentionKv(e, recipe);
  return null;
}
