// The planner calls the benchmark times (item 4), bundled by bench/run.mjs into bench/tmp/planner.cjs when
// src/core/plan/ exists. A real recipe gives the model and the base configuration; the search runs for each world size.
import { parseFile } from '../src/core/document.js';
import { extractTraining } from '../src/core/memory/extract.js';
import { findGpu } from '../src/core/memory/gpus.js';
import { plan } from '../src/core/plan/plan.js';

export function prepare(text: string) {
  const parsed = parseFile(text);
  const doc = parsed.docs.find((d) => d.format);
  if (!doc?.format) throw new Error('not a recipe');
  const ex = extractTraining(doc, doc.format, parsed.modeline?.values ?? {}, {});
  if (!ex.ok) throw new Error(ex.reason);
  return ex;
}

/** One full search on H100s, as the planning panel and `recipe-lens plan` run it. */
export function search(ex: ReturnType<typeof prepare>, gpus: number) {
  const r = plan(ex.shape, { ...ex.config, worldSize: gpus }, findGpu('h100')!, { gpus });
  return { space: r.space, searched: r.searched, estimated: r.estimated, candidates: r.candidates.length, model: r.model, seq: r.seq };
}
