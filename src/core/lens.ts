// Where the editor shows the per-GPU estimate, and what it says: one line on each document's parallelism block
// (a code lens above it, or an inlay hint after its first key). The place comes from the recipe's field locations
// (the first parallelism key written in the file), never from paths; the figures are the analysis's estimate.
import type { Analysis } from './analysis.js';
import type { ServingField, TrainingField } from './formats/fields.js';
import type { FieldLoc } from './formats/table.js';
import type { Span } from './types.js';
import { count, gib } from './units.js';

export interface EstimateLens {
  /** The key the line sits on: the first parallelism key of the block. */
  span: Span;
  /** One line: the most-loaded rank against the GPU (training) or the KV pool (serving). */
  text: string;
  /** Longer explanation (hover of the lens or hint). */
  tooltip: string;
  verdict: 'fits' | 'tight' | 'does-not-fit' | 'kv-pool';
}

/** The fields that make up the parallelism block, in the order Megatron lists them (formats.md §1.2). */
const TRAINING_ANCHORS: readonly TrainingField[] = ['tp', 'pp', 'vpp', 'cp', 'ep', 'etp', 'sp'];
/** Without a parallelism key in the file, the line goes on the sequence and batch keys the estimate reads. */
const TRAINING_FALLBACK: readonly TrainingField[] = ['seq', 'mbs', 'gbs'];
// AutoDeploy's world_size shards the model when no tensor_parallel_size is written (estimate.ts).
const SERVING_ANCHORS: readonly ServingField[] = ['tp', 'pp', 'cp', 'ep', 'worldSize', 'kvConfig'];

/** The written key of `fields` that comes first in the text. */
function firstKey<F extends string>(loc: Partial<Record<F, FieldLoc>>, fields: readonly F[]): Span | undefined {
  let best: Span | undefined;
  for (const f of fields) {
    const l = loc[f];
    if (l && (!best || l.keySpan[0] < best[0])) best = l.keySpan;
  }
  return best;
}

export function estimateLenses(a: Analysis): EstimateLens[] {
  const out: EstimateLens[] = [];
  for (const d of a.docs) {
    const e = d.estimate;
    const r = d.recipe;
    if (e?.kind === 'training' && r?.kind === 'training') {
      const span = firstKey(r.loc, TRAINING_ANCHORS) ?? firstKey(r.loc, TRAINING_FALLBACK);
      if (!span) continue;
      const t = e.estimate;
      const p = t.parallel;
      const layout = `TP ${p.tp} · PP ${p.pp}${p.vpp ? ` · VPP ${p.vpp}` : ''} · CP ${p.cp}${p.ep > 1 ? ` · EP ${p.ep}` : ''}${p.dp !== null ? ` · DP ${p.dp}` : ''}`;
      out.push({
        span,
        text: `${gib(t.perGpu.total)} per GPU of ${gib(e.gpu.bytes)} (${e.gpu.id}) — ${t.fit.verdict.replace(/-/g, ' ')} · ${layout}`,
        tooltip: `Recipe Lens: the most-loaded rank${t.stages.length > 1 ? ` (PP stage ${t.stage})` : ''} needs ${gib(t.perGpu.total)} on ${e.gpu.name}, ${(t.fit.fraction * 100).toFixed(1)}% of its memory (${e.shape.name}, seq ${e.config.seq}, micro-batch ${e.config.microBatch}).`,
        verdict: t.fit.verdict,
      });
    } else if (e?.kind === 'serving' && r?.kind === 'serving') {
      for (const role of e.roles) {
        const read = r.roles.find((x) => x.role === role.role);
        const span = read && firstKey(read.loc, SERVING_ANCHORS);
        if (!span) continue;
        const k = role.kv;
        out.push({
          span,
          text: `KV pool ${gib(k.allocatedBytes)} per GPU = ${count(k.poolTokens)} tokens (${e.gpu.id}, TP ${role.tp}${role.pp > 1 ? ` · PP ${role.pp}` : ''})${role.role ? ` · ${role.role}` : ''}`,
          tooltip: `Recipe Lens: ${e.shape.name} on ${e.gpu.name}: ${count(k.bytesPerToken)} B per token (${k.perToken.dtype}); the pool is set by ${k.limit}; ${k.requestsAtMaxSeqLen} requests of ${count(role.maxSeqLen)} tokens fit.`,
          verdict: 'kv-pool',
        });
      }
    }
  }
  return out;
}
