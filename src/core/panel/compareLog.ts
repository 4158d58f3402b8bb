// The "Compare with a training log" section: the button's idle state on training recipes, and the view model of a
// comparison (core/memory/logs.ts compareLog, the function `recipe-lens compare` runs) — per rank and level the peak
// the log measured against the estimate of that rank's pipeline stage, the error, and the terms that could carry it.
import type { DocEstimate } from '../memory/estimate.js';
import type { LogComparison } from '../memory/logs.js';
import { count, gib } from '../units.js';
import type { CompareLogVM, CompareSectionVM } from './viewModels.js';

/** An error as the estimate's deviation from the measurement: estimated / measured − 1, signed ("+4.2%", "−12.0%"). */
export const signedPct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}%`;

export const COMPARE_INTRO =
  'Pick a training log (Megatron / NeMo "memory (MB)" lines, Megatron-Bridge "memory (GB)" lines, or TensorBoard mem-* scalars) to set its measured peaks against this estimate, rank by rank.';

/** The section before any comparison: shown for files with a training estimate. */
export function compareSection(e: DocEstimate, uri: string, docVersion: number): CompareSectionVM | null {
  if (e.kind !== 'training') return null;
  return { uri, docVersion, state: 'idle', intro: COMPARE_INTRO, message: '', result: null };
}

const LEVEL_NAMES = {
  allocated: 'max allocated',
  reserved: 'max reserved',
  device: 'device used',
  'after-step': 'allocated after the step',
} as const;

/** The comparison's view model; `logName` and `recipeName` are file names (shown as text). */
export function compareLogVM(
  c: LogComparison,
  e: Extract<DocEstimate, { kind: 'training' }>,
  logName: string,
  recipeName: string,
): CompareLogVM {
  const t = e.estimate.parallel;
  const cmp = c.comparison;
  const rows: CompareLogVM['rows'] = [];
  for (const r of cmp?.ranks ?? [])
    for (const l of r.levels)
      rows.push({
        cells: [String(r.rank ?? '?'), String(r.stage ?? '?'), LEVEL_NAMES[l.level], gib(l.measured), gib(l.estimated), signedPct(l.error)],
        worst: !!cmp?.worst && cmp.worst.rank === r.rank && cmp.worst.level === l.level,
      });
  const w = cmp?.worst;
  return {
    title: `${logName} against ${recipeName}`,
    caption: `${e.shape.name}; TP ${t.tp} PP ${t.pp}${t.vpp ? ` VPP ${t.vpp}` : ''} CP ${t.cp} EP ${t.ep} DP ${t.dp ?? '?'}; ${e.gpu.name} · ${count(c.samples)} memory sample${c.samples === 1 ? '' : 's'}`,
    head: ['rank', 'stage', 'level', 'measured', 'estimated', 'error'],
    rows,
    worst: w ? `largest difference: rank ${w.rank ?? '?'} ${LEVEL_NAMES[w.level]} ${signedPct(w.error)}` : '',
    suspectsCaption:
      cmp && cmp.suspects.length
        ? `The estimate is ${gib(Math.abs(cmp.gap))} ${cmp.gap > 0 ? 'above' : 'below'} the measurement there; its largest terms, with the gap as a share of each (how wrong that term alone would have to be):`
        : '',
    suspects: (cmp?.suspects ?? []).map((s) => ({ label: s.label, bytes: gib(s.bytes), share: `${(100 * s.gapShare).toFixed(0)}%` })),
    notes: [...c.warnings, ...(cmp?.notes ?? [])],
  };
}
