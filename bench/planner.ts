// The planner calls the benchmark times, bundled by bench/run.mjs into bench/tmp/planner.cjs.
// A real recipe gives the model and the base configuration; the search runs for each world size.
import { analyze } from '../src/core/analysis.js';
import { findGpu } from '../src/core/memory/gpus.js';
import { plan } from '../src/core/plan/plan.js';

export function prepare(text: string) {
  const e = analyze(text).main?.estimate;
  if (e?.kind !== 'training') throw new Error(e?.kind === 'none' ? e.reason : 'not a training recipe');
  return e;
}

/** One full search on H100s, as the planning panel and `recipe-lens plan` run it. */
export function search(ex: ReturnType<typeof prepare>, gpus: number) {
  const r = plan(ex.shape, { ...ex.config, worldSize: gpus }, findGpu('h100')!, { gpus });
  return { space: r.space, searched: r.searched, estimated: r.estimated, candidates: r.candidates.length, model: r.model, seq: r.seq };
}
