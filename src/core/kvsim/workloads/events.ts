// TensorRT-LLM's KV cache event stream replayed into a pool view: what a real deployment's pool held, by cache level
// and priority, event by event. The JSON is what LLM.get_kv_cache_events() returns (a list of events), dumped as one
// JSON array, one event per line, or one list of events per line; each event is
// {"event_id", "data": {...}, "window_size", "attention_dp_rank"?} with data one of
//   {"type": "created", "num_blocks_per_cache_level": [primary, secondary]}
//   {"type": "stored", "parent_hash", "blocks": [{"type": "stored_block", "block_hash", "tokens": [...], "cache_level", "priority"}]}
//   {"type": "removed", "block_hashes": [...]}
//   {"type": "updated", "block_hash", "cache_level": {"old_value", "new_value"} | null, "priority": {…} | null}
// [TensorRT-LLM tensorrt_llm/_utils.py @ed53795b33fc139493f762a1c6c53f691cf52d38 KVCacheEventSerializer; the events
// are enqueued by kvCacheManager.cpp @b35ac1b6: stored in storeBlocks, removed in freeChildren, updated on offload,
// onboard and priority change]. Block hashes are 64-bit: digits beyond double precision are read as text.
import { MAX_PRIORITY } from '../retention.js';
import type { OccupancySample } from '../types.js';
import type { LineError } from './lines.js';

export interface EventPool {
  attentionDpRank: number | null;
  windowSize: number | null;
  /** From the "created" event. */
  capacity: { primary: number; secondary: number } | null;
  /** Largest token count of a stored block (the pool's tokens_per_block when any block was full). */
  tokensPerBlock: number | null;
  stored: number;
  removed: number;
  offloads: number;
  onboards: number;
  priorityChanges: number;
  /** Removed or updated hashes that were never stored (events lost before the dump started). */
  unknown: number;
  final: { primary: [number, number][]; secondary: [number, number][] };
  samples: OccupancySample[];
}

export interface EventReplay {
  events: number;
  pools: EventPool[];
}

const BIG = /([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g;

/** JSON.parse with integers of 16+ digits kept as strings (64-bit block hashes). */
export function parseEventJson(text: string): unknown {
  return JSON.parse(text.replace(BIG, '$1"$2"'));
}

/** Whether a parsed JSON value looks like a KV cache event (or a list of them). */
export function isKvEvent(v: unknown): boolean {
  const e = Array.isArray(v) ? v[0] : v;
  return typeof e === 'object' && e !== null && 'event_id' in e && 'data' in e;
}

interface State {
  pool: EventPool;
  blocks: Map<string, { level: number; prio: number }>;
  counts: Float64Array[];
}

const key = (h: unknown) => (typeof h === 'string' || typeof h === 'number' ? String(h) : '');

/** Replays the events of a text (JSON array, or JSON Lines of events or of event lists), sampling occupancy. */
export function replayKvEvents(text: string, samples = 100): EventReplay | LineError {
  const events: unknown[] = [];
  const trimmed = text.trimStart();
  let whole: unknown;
  if (trimmed.startsWith('[')) {
    try {
      whole = parseEventJson(trimmed);
    } catch {
      whole = undefined; // JSON Lines of event lists
    }
  }
  if (Array.isArray(whole))
    for (const e of whole) {
      if (Array.isArray(e)) events.push(...(e as unknown[]));
      else events.push(e);
    }
  else {
    let line = 0;
    for (const raw of text.split('\n')) {
      line++;
      if (!raw.trim()) continue;
      try {
        const v = parseEventJson(raw);
        if (Array.isArray(v)) events.push(...(v as unknown[]));
        else events.push(v);
      } catch (e) {
        return { error: `line ${line}: not JSON (${(e as Error).message})` };
      }
    }
  }
  const states = new Map<string, State>();
  const every = Math.max(1, Math.ceil(events.length / Math.max(1, samples)));
  const stateOf = (rank: number | null, win: number | null): State => {
    const k = `${rank}/${win}`;
    let s = states.get(k);
    if (!s) {
      s = {
        pool: {
          attentionDpRank: rank,
          windowSize: win,
          capacity: null,
          tokensPerBlock: null,
          stored: 0,
          removed: 0,
          offloads: 0,
          onboards: 0,
          priorityChanges: 0,
          unknown: 0,
          final: { primary: [], secondary: [] },
          samples: [],
        },
        blocks: new Map(),
        counts: [new Float64Array(MAX_PRIORITY + 1), new Float64Array(MAX_PRIORITY + 1)],
      };
      states.set(k, s);
    }
    return s;
  };
  const level = (v: unknown) => (v === 1 ? 1 : 0);
  const prio = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= MAX_PRIORITY ? Math.round(v) : 35);
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (typeof e !== 'object' || e === null) return { error: `event ${i + 1}: not an object` };
    const ev = e as Record<string, unknown>;
    const data = ev.data as Record<string, unknown> | undefined;
    if (typeof data !== 'object' || data === null || typeof data.type !== 'string')
      return { error: `event ${i + 1}: no "data" with a "type" (is this a KV cache event stream?)` };
    const rank = typeof ev.attention_dp_rank === 'number' ? ev.attention_dp_rank : null;
    const win = typeof ev.window_size === 'number' ? ev.window_size : null;
    const s = stateOf(rank, win);
    const p = s.pool;
    if (data.type === 'created') {
      const n = data.num_blocks_per_cache_level;
      if (Array.isArray(n)) p.capacity = { primary: Number(n[0]) || 0, secondary: Number(n[1]) || 0 };
    } else if (data.type === 'stored') {
      for (const b of Array.isArray(data.blocks) ? data.blocks : []) {
        const blk = b as Record<string, unknown>;
        const h = key(blk.block_hash);
        const old = s.blocks.get(h);
        if (old) s.counts[old.level]![old.prio]!--;
        const rec = { level: level(blk.cache_level), prio: prio(blk.priority) };
        s.blocks.set(h, rec);
        s.counts[rec.level]![rec.prio]!++;
        p.stored++;
        const nt = Array.isArray(blk.tokens) ? blk.tokens.length : 0;
        if (nt > (p.tokensPerBlock ?? 0)) p.tokensPerBlock = nt;
      }
    } else if (data.type === 'removed') {
      for (const h of Array.isArray(data.block_hashes) ? data.block_hashes : []) {
        const k = key(h);
        const old = s.blocks.get(k);
        if (!old) {
          p.unknown++;
          continue;
        }
        s.counts[old.level]![old.prio]!--;
        s.blocks.delete(k);
        p.removed++;
      }
    } else if (data.type === 'updated') {
      const rec = s.blocks.get(key(data.block_hash));
      if (!rec) p.unknown++;
      else {
        s.counts[rec.level]![rec.prio]!--;
        const cl = data.cache_level as Record<string, unknown> | null | undefined;
        if (cl && typeof cl === 'object' && 'new_value' in cl) {
          const nl = level(cl.new_value);
          if (nl !== rec.level) {
            if (nl === 1) p.offloads++;
            else p.onboards++;
          }
          rec.level = nl;
        }
        const pr = data.priority as Record<string, unknown> | null | undefined;
        if (pr && typeof pr === 'object' && 'new_value' in pr) {
          const np = prio(pr.new_value);
          if (np !== rec.prio) p.priorityChanges++;
          rec.prio = np;
        }
        s.counts[rec.level]![rec.prio]!++;
      }
    }
    if (i % every === 0 || i === events.length - 1)
      for (const st of states.values()) st.pool.samples.push(sampleOf(st, typeof ev.event_id === 'number' ? ev.event_id : i));
  }
  const pools = [...states.values()].map((st) => {
    st.pool.final = { primary: sparse(st.counts[0]!), secondary: sparse(st.counts[1]!) };
    return st.pool;
  });
  return { events: events.length, pools };
}

function sparse(a: Float64Array): [number, number][] {
  const out: [number, number][] = [];
  for (let p = 0; p < a.length; p++) if (a[p]) out.push([p, a[p]!]);
  return out;
}

function sampleOf(st: State, at: number): OccupancySample {
  const primary = sparse(st.counts[0]!);
  const used = primary.reduce((s, [, n]) => s + n, 0);
  return {
    at,
    timeMs: null,
    primary,
    secondary: sparse(st.counts[1]!),
    held: null,
    emptyPrimary: st.pool.capacity ? Math.max(0, st.pool.capacity.primary - used) : 0,
  };
}
