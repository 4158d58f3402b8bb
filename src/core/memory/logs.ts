// Measured memory from training logs, and its comparison with the estimate. Pure: text in, numbers out.
// Formats read:
//   Megatron-LM / NeMo (megatron/training/utils/common_utils.py report_memory, MiB = 2^20 bytes):
//     [Rank N] (after K iterations) memory (MB) | allocated: … | max allocated: … | reserved: … | max reserved: …
//     [ | total device memory used: … ]
//   Megatron-Bridge (src/megatron/bridge/training/utils/train_utils.py report_memory, GB = 1e9 bytes):
//     [Rank N] (after K iterations) memory (GB) | mem-allocated-gigabytes: … | mem-max-allocated-gigabytes: … | …
//   TensorBoard scalars Megatron and Bridge log (training.py: mem-reserved-bytes, mem-allocated-bytes,
//   mem-max-allocated-bytes, mem-max-reserved-bytes …): exported CSV ("Wall time,Step,Value"; the tag from the file
//   name), exported JSON ([[wall time, step, value], …]), or "tag step value" / "tag: value" text lines.
import type { TrainingEstimate } from './training.js';
import { gib, MIB } from '../units.js';

export type MemoryLevel = 'allocated' | 'reserved' | 'device';

export interface MemorySample {
  /** Global rank, when the line names it. */
  rank: number | null;
  iteration: number | null;
  /** Peak bytes per level (max_memory_allocated, max_memory_reserved, device memory used). */
  peak: Partial<Record<MemoryLevel, number>>;
  /** Bytes at the time of logging. */
  current: Partial<Record<'allocated' | 'reserved', number>>;
  format: 'megatron' | 'megatron-bridge' | 'tensorboard';
  /** 1-based line of the log. */
  line: number;
}

export interface ParsedMemoryLog {
  samples: MemorySample[];
  warnings: string[];
}

const GB = 1e9;
const MAX_LINES = 2_000_000;

const REPORT = /\[Rank (\d+)\]\s*\(after (\d+) iterations?\) memory \((MB|GB)\)/g;
/** One "| name: value" field (names are words joined by single spaces or hyphens). */
const FIELD = /^\s*([A-Za-z][\w-]*(?: [\w-]+)*)\s*:\s*([-+0-9.eE]+)\s*$/;

/** Megatron (MB) and Bridge (GB) field names → level. */
const FIELDS: Record<string, { level: MemoryLevel; peak: boolean } | undefined> = {
  allocated: { level: 'allocated', peak: false },
  'max allocated': { level: 'allocated', peak: true },
  reserved: { level: 'reserved', peak: false },
  'max reserved': { level: 'reserved', peak: true },
  'total device memory used': { level: 'device', peak: true },
  'mem-allocated-gigabytes': { level: 'allocated', peak: false },
  'mem-max-allocated-gigabytes': { level: 'allocated', peak: true },
  'mem-reserved-gigabytes': { level: 'reserved', peak: false },
  'mem-max-reserved-gigabytes': { level: 'reserved', peak: true },
};

/** TensorBoard scalar tags (bytes) → level. */
const TAGS: Record<string, { level: MemoryLevel; peak: boolean } | undefined> = {
  'mem-allocated-bytes': { level: 'allocated', peak: false },
  'mem-max-allocated-bytes': { level: 'allocated', peak: true },
  'mem-reserved-bytes': { level: 'reserved', peak: false },
  'mem-max-reserved-bytes': { level: 'reserved', peak: true },
  'mem-max-allocated-gigabytes': { level: 'allocated', peak: true },
  'mem-max-reserved-gigabytes': { level: 'reserved', peak: true },
};
const tagScale = (tag: string) => (tag.endsWith('gigabytes') ? GB : 1);

function finite(x: string): number | undefined {
  const v = Number(x);
  return Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** The TensorBoard tag a file name carries (TensorBoard's CSV/JSON download names end in "tag-<tag>.csv"). */
export function tagFromFileName(name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.keys(TAGS).find((t) => lower.includes(t));
}

/** Every memory sample in a log text; `tag` names the scalar of a TensorBoard CSV/JSON export. */
export function parseMemoryLog(text: string, opts: { tag?: string } = {}): ParsedMemoryLog {
  const warnings: string[] = [];
  const samples: MemorySample[] = [];
  const trimmed = text.trimStart();
  // TensorBoard JSON export: [[wall time, step, value], …]
  if (trimmed.startsWith('[') && !trimmed.startsWith('[Rank')) {
    try {
      const rows = JSON.parse(trimmed) as unknown;
      if (Array.isArray(rows) && rows.every((r) => Array.isArray(r) && r.length >= 3)) {
        const tag = opts.tag && TAGS[opts.tag] ? opts.tag : undefined;
        if (!tag) return { samples, warnings: ['a TensorBoard JSON export: name its scalar with --tag (e.g. mem-max-allocated-bytes)'] };
        const t = TAGS[tag]!;
        (rows as unknown[][]).forEach((r, i) => {
          const v = typeof r[2] === 'number' && Number.isFinite(r[2]) && r[2] >= 0 ? r[2] * tagScale(tag) : undefined;
          const step = typeof r[1] === 'number' ? r[1] : null;
          if (v !== undefined) samples.push(sample(null, step, t, v, 'tensorboard', i + 1));
        });
        return { samples, warnings };
      }
    } catch {
      // Not JSON: read it as text lines.
    }
  }
  const lines = text.split(/\r?\n/);
  if (lines.length > MAX_LINES) warnings.push(`only the first ${MAX_LINES} lines were read`);
  const csvTag = opts.tag && TAGS[opts.tag] ? opts.tag : undefined;
  let csv = false;
  for (let n = 0; n < Math.min(lines.length, MAX_LINES); n++) {
    const line = lines[n]!;
    if (line.length > 100_000) continue; // not a log line
    if (/^\s*wall time\s*,\s*step\s*,\s*value\s*$/i.test(line)) {
      csv = true;
      if (!csvTag) warnings.push('a TensorBoard CSV export: name its scalar with --tag or keep the tag in the file name');
      continue;
    }
    if (csv && csvTag) {
      const m = /^\s*[-+0-9.eE]+\s*,\s*(\d+)\s*,\s*([-+0-9.eE]+)\s*$/.exec(line);
      const v = m ? finite(m[2]!) : undefined;
      if (m && v !== undefined) {
        samples.push(sample(null, Number(m[1]), TAGS[csvTag]!, v * tagScale(csvTag), 'tensorboard', n + 1));
        continue;
      }
    }
    let found = false;
    const heads = [...line.matchAll(REPORT)];
    heads.forEach((r, k) => {
      found = true;
      const unit = r[3] === 'MB' ? MIB : GB;
      const s: MemorySample = {
        rank: Number(r[1]),
        iteration: Number(r[2]),
        peak: {},
        current: {},
        format: r[3] === 'MB' ? 'megatron' : 'megatron-bridge',
        line: n + 1,
      };
      // The fields run to the next report on the same line (logs from several ranks can interleave on one line).
      const end = k + 1 < heads.length ? heads[k + 1]!.index : line.length;
      for (const part of line.slice(r.index + r[0].length, end).split('|')) {
        const f = FIELD.exec(part);
        if (!f) continue;
        const at = FIELDS[f[1]!.toLowerCase()];
        const v = finite(f[2]!);
        if (!at || v === undefined) continue;
        if (at.peak) s.peak[at.level] = v * unit;
        else if (at.level !== 'device') s.current[at.level] = v * unit;
      }
      if (Object.keys(s.peak).length || Object.keys(s.current).length) samples.push(s);
    });
    if (found) continue;
    // "mem-max-allocated-bytes 120 6.1e10", "mem-max-allocated-bytes: 6.1e10", "step=120 mem-max-allocated-bytes=6.1e10".
    for (const [tag, t] of Object.entries(TAGS)) {
      const at = line.indexOf(tag);
      if (at < 0 || !t) continue;
      const rest = line.slice(at + tag.length);
      const m = /^["']?\s*[:=,\s]\s*(?:(\d+)\s*[,\s]\s*)?([-+0-9.eE]+)/.exec(rest);
      const v = m ? finite(m[2]!) : undefined;
      if (m && v !== undefined) {
        const step = m[1] !== undefined ? Number(m[1]) : Number(/step\s*[=:]\s*(\d+)/i.exec(line)?.[1] ?? NaN);
        samples.push(sample(null, Number.isFinite(step) ? step : null, t, v * tagScale(tag), 'tensorboard', n + 1));
      }
    }
  }
  if (!samples.length)
    warnings.push(
      'no memory lines found (Megatron "[Rank N] (after K iterations) memory (MB) | …", Bridge "memory (GB)", or TensorBoard mem-* scalars)',
    );
  return { samples, warnings };
}

function sample(
  rank: number | null,
  iteration: number | null,
  t: { level: MemoryLevel; peak: boolean },
  bytes: number,
  format: MemorySample['format'],
  line: number,
): MemorySample {
  return {
    rank,
    iteration,
    peak: t.peak ? { [t.level]: bytes } : {},
    current: !t.peak && t.level !== 'device' ? { [t.level]: bytes } : {},
    format,
    line,
  };
}

/**
 * Per rank, the allocated bytes its latest memory line reports as printed (`allocated`, `mem-allocated-gigabytes`,
 * TensorBoard mem-allocated-bytes): Megatron and Bridge log after the optimizer step (training_log), so the states and
 * persistent buffers without activations. Lines from later iterations win (the first step creates the optimizer states).
 */
export function afterStepByRank(samples: readonly MemorySample[]): Map<number | null, number> {
  const latest = new Map<number | null, MemorySample>();
  for (const s of samples) {
    if (s.current.allocated === undefined) continue;
    const cur = latest.get(s.rank);
    if (!cur || (s.iteration ?? -1) > (cur.iteration ?? -1) || ((s.iteration ?? -1) === (cur.iteration ?? -1) && s.line > cur.line))
      latest.set(s.rank, s);
  }
  return new Map([...latest].map(([rank, s]) => [rank, s.current.allocated!]));
}

/** Per rank (null = the rank is not named), the highest peak per level over all its samples. */
export function peaksByRank(samples: readonly MemorySample[]): Map<number | null, Partial<Record<MemoryLevel, number>>> {
  const out = new Map<number | null, Partial<Record<MemoryLevel, number>>>();
  for (const s of samples) {
    const cur = out.get(s.rank) ?? {};
    for (const level of ['allocated', 'reserved', 'device'] as const) {
      const v = s.peak[level] ?? (level === 'device' ? undefined : s.current[level]);
      if (v !== undefined) cur[level] = Math.max(cur[level] ?? 0, v);
    }
    out.set(s.rank, cur);
  }
  return out;
}

/**
 * A compared level: a peak (max allocated, max reserved, device used) or `after-step`, the allocated bytes a memory line
 * reports as it is printed, after the optimizer step (the states and persistent buffers, no activations).
 */
export type CompareLevel = MemoryLevel | 'after-step';

export interface RankComparison {
  rank: number | null;
  /** Pipeline stage of the rank (Megatron's default rank order: TP fastest, then CP, DP, PP), when it can be told. */
  stage: number | null;
  levels: { level: CompareLevel; measured: number; estimated: number; error: number }[];
}

export interface Comparison {
  ranks: RankComparison[];
  /** Largest |error| over every rank and peak level, with where. */
  worst: { rank: number | null; level: MemoryLevel; error: number } | null;
  /** The estimate minus the measurement at the compared rank and level (bytes). */
  gap: number;
  /**
   * The largest terms of that stage's estimate, largest first: `gapShare` is the gap as a share of the term — how wrong
   * that term alone would have to be to explain the difference (the smallest share is the likeliest single culprit).
   */
  suspects: { label: string; bytes: number; gapShare: number }[];
  notes: string[];
}

/**
 * The pipeline stage a global rank belongs to under Megatron's default order (tp-cp-ep-dp-pp: TP fastest, PP slowest,
 * megatron/core/parallel_state.py order="tp-cp-ep-dp-pp"): stage = ⌊rank / (world / PP)⌋.
 */
export function stageOfRank(rank: number, pp: number, world: number | null): number | null {
  if (pp <= 1) return 0;
  if (!world || world % pp) return null;
  const s = Math.floor(rank / (world / pp));
  return s < pp ? s : null;
}

/**
 * The states after the step count as matching within this share: half of Megatron-LM's 95 H100 functional tests match
 * within 1.2% (test/core/memory-megatron-lm.test.ts), the rest by the pipeline and MoE buffers the model leaves out.
 */
const AFTER_STEP_MATCH = 0.02;
const pctAbs = (x: number) => `${Math.abs(100 * x).toFixed(1)}%`;

/** Measured peaks against the estimate, rank by rank and level by level; which estimate terms are the likely culprits. */
export function compareMemory(samples: readonly MemorySample[], e: TrainingEstimate): Comparison {
  const notes: string[] = [];
  const ranks: RankComparison[] = [];
  const world = e.parallel.worldSize;
  // A rank seen only after iteration 1 (Megatron's one memory report with log_interval 1) is compared with the first
  // iteration, before the first optimizer step's states took part; any other sample (a later or unknown iteration) rules it out.
  const notFirst = new Set(samples.filter((s) => s.iteration !== 1).map((s) => s.rank));
  const afterStep = afterStepByRank(samples);
  const firstOnly: (number | null)[] = [];
  for (const [rank, peak] of [...peaksByRank(samples)].sort((a, b) => (a[0] ?? -1) - (b[0] ?? -1))) {
    let stage = rank === null ? null : stageOfRank(rank, e.parallel.pp, world);
    if (rank !== null && stage === null && e.parallel.pp > 1)
      notes.push(`rank ${rank}: the world size does not tell its pipeline stage; compared with the most-loaded one`);
    if (rank === null) notes.push('the log names no rank: compared with the most-loaded stage');
    stage ??= e.stage;
    const st = e.stages[stage] ?? e.stages[e.stage]!;
    const levels: RankComparison['levels'] = [];
    const first = !notFirst.has(rank);
    if (first && peak.allocated !== undefined) firstOnly.push(rank);
    for (const level of ['allocated', 'reserved', 'device'] as const) {
      const measured = peak[level];
      if (measured === undefined || measured <= 0) continue;
      const estimated = level === 'allocated' && first ? st.firstIteration : st[level];
      levels.push({ level, measured, estimated, error: estimated / measured - 1 });
    }
    const after = afterStep.get(rank);
    if (after !== undefined && after > 0)
      levels.push({ level: 'after-step', measured: after, estimated: st.afterStep, error: st.afterStep / after - 1 });
    if (levels.length) ranks.push({ rank, stage, levels });
  }
  if (firstOnly.length) {
    const who =
      firstOnly.length === ranks.length ? 'every rank' : firstOnly.map((r) => (r === null ? 'the unnamed rank' : `rank ${r}`)).join(', ');
    notes.push(
      `logged only after iteration 1 (${who}): allocated is compared with the first iteration of a fresh run, whose forward/backward ran before the first optimizer step created the optimizer states (a run that loaded them from a checkpoint has them from the start)`,
    );
    // From iteration 2 every forward/backward runs beside those states: a first iteration that fits does not show that the
    // run does (Megatron-Bridge printed memory after iteration 1 only until #3169, training/utils/train_utils.py).
    const steady = e.stages[e.stage]!;
    if (steady.allocated > steady.firstIteration)
      notes.push(
        `from iteration 2 the optimizer states sit beside every forward/backward: the steady peak is estimated at ${gib(steady.allocated)} allocated on stage ${e.stage} (first iteration ${gib(steady.firstIteration)}), so a first iteration that fits does not show that the run does`,
      );
  }
  let worst: Comparison['worst'] = null;
  for (const r of ranks)
    for (const l of r.levels)
      if (l.level !== 'after-step' && (!worst || Math.abs(l.error) > Math.abs(worst.error)))
        worst = { rank: r.rank, level: l.level, error: l.error };
  // The gap at the worst rank's allocated level (else its worst level), and the modelled terms that could carry it.
  const suspects: Comparison['suspects'] = [];
  let gapOut = 0;
  const focus = worst ? ranks.find((r) => r.rank === worst!.rank) : undefined;
  const lvl = focus?.levels.find((l) => l.level === 'allocated') ?? focus?.levels[0];
  if (focus && lvl) {
    const gap = lvl.estimated - lvl.measured;
    gapOut = gap;
    const lines = focus.stage === e.stage ? e.breakdown : [];
    if (!lines.length) notes.push(`stage ${focus.stage} is not the most-loaded one: its terms are not itemised; see the stage table`);
    const candidates = lines.filter((l) => (lvl.level === 'allocated' ? l.level === 'allocated' : true) && l.bytes > 0);
    for (const l of candidates.sort((a, b) => b.bytes - a.bytes).slice(0, 5))
      suspects.push({ label: l.label, bytes: l.bytes, gapShare: Math.abs(gap) / l.bytes });
  }
  // The states after the step split the peak's difference: where they match, the activations and transients carry it.
  const settled = focus?.levels.find((l) => l.level === 'after-step');
  if (focus && settled) {
    const who = focus.rank === null ? 'the unnamed rank' : `rank ${focus.rank}`;
    notes.push(
      Math.abs(settled.error) <= AFTER_STEP_MATCH
        ? `${who}: allocated after the step is within ${pctAbs(settled.error)} of the estimate's weights, gradients, optimizer states and buffers, so the difference at the peak lies in the activations and transients`
        : `${who}: allocated after the step is ${gib(settled.measured)} against the estimate's ${gib(settled.estimated)} for the weights, gradients, optimizer states and buffers (${settled.error > 0 ? '+' : '−'}${pctAbs(settled.error)}): check precision, sharding and the optimizer's settings before the activations`,
    );
  }
  if (!ranks.length) notes.push('no peak the estimate can be compared with');
  return { ranks, worst, gap: gapOut, suspects, notes };
}

export interface LogComparison {
  /** Memory samples read from the log. */
  samples: number;
  warnings: string[];
  /** Null when the log holds no memory line. */
  comparison: Comparison | null;
}

/**
 * A training log's text against a training estimate: what `recipe-lens compare` and the panel's "Compare with a
 * training log" both run. `fileName` names a TensorBoard export's scalar when `tag` does not.
 */
export function compareLog(text: string, fileName: string, e: TrainingEstimate, tag?: string): LogComparison {
  const log = parseMemoryLog(text, { tag: tag ?? tagFromFileName(fileName) });
  return {
    samples: log.samples.length,
    warnings: log.warnings,
    comparison: log.samples.length ? compareMemory(log.samples, e) : null,
  };
}
