// What-if section: the preview configuration for the panel's controls, its estimate (reestimate, never a
// formula here), the conflicts the launcher would raise (the rules run on the edited text), and the edits
// that write the change into the YAML (core/edit.ts: comments and formatting kept).
import type { Choice, RecomputeChoice, WhatIfField, WhatIfKey, WhatIfValues, WhatIfVM } from './viewModels.js';
import { PRECISION_CHOICES } from './viewModels.js';
import { editTarget, type RecipeDoc } from '../document.js';
import { editsForChanges, type ScalarValue } from '../edit.js';
import type { TrainingField, TrainingValues } from '../formats/fields.js';
import { writePath } from '../formats/table.js';
import type { TrainingConfig } from '../memory/config.js';
import { reestimate } from '../memory/estimate.js';
import { PRECISIONS, type PrecisionId } from '../memory/precision.js';
import { withChanges, type TrainingRecipe } from '../recipe.js';
import { trainingInput } from '../rules/check.js';
import { trainingRules } from '../rules/training.js';
import { lookup, pathToString } from '../tree.js';
import type { PathSeg, TextEdit } from '../types.js';
import { count, deltaGib, gib, VERDICT_TEXT } from './format.js';
import { trainingBar, type TrainingDoc } from './memory.js';
import { precisionIdOf, withPrecision } from '../memory/precision.js';
import { gibNumber } from '../units.js';

/** GiB with two decimals, no unit (the table head carries it). */
const num2 = (b: number) => gibNumber(b);

const recomputeOf = (c: TrainingConfig): RecomputeChoice => c.recompute.granularity ?? 'off';

/** The file's value of every control. */
export function fileValues(c: TrainingConfig): Required<Omit<WhatIfValues, 'precision'>> & { precision: PrecisionId } {
  return {
    cp: c.cp,
    tp: c.tp,
    pp: c.pp,
    vpp: c.vpp ?? 1,
    ep: c.ep,
    etp: c.etp,
    sp: c.sp,
    microBatch: c.microBatch,
    seq: c.seq,
    recompute: recomputeOf(c),
    offloadLayers: c.offloadLayers,
    precision: precisionIdOf(c),
  };
}

/** The values that differ from the file (a control set back to the file's value is no change). */
export function effectiveChanges(c: TrainingConfig, v: WhatIfValues): WhatIfValues {
  const f = fileValues(c);
  const out: WhatIfValues = {};
  for (const k of Object.keys(v) as WhatIfKey[]) if (v[k] !== undefined && v[k] !== f[k]) (out as Record<string, unknown>)[k] = v[k];
  return out;
}

/** The configuration the what-if values describe (TP moves ETP along when they were equal, as Megatron's default does). */
export function previewConfig(c: TrainingConfig, v: WhatIfValues): TrainingConfig {
  let out: TrainingConfig = { ...c };
  if (v.tp !== undefined) out = { ...out, tp: v.tp, etp: c.etp === c.tp ? v.tp : c.etp, sp: c.sp && v.tp > 1 };
  if (v.ep !== undefined) out.ep = v.ep;
  if (v.etp !== undefined) out.etp = v.etp;
  if (v.sp !== undefined) out.sp = v.sp;
  if (v.cp !== undefined) out.cp = v.cp;
  if (v.pp !== undefined) out.pp = v.pp;
  if (v.vpp !== undefined) out.vpp = v.vpp > 1 ? v.vpp : null;
  if (v.microBatch !== undefined) out.microBatch = v.microBatch;
  if (v.seq !== undefined) out.seq = v.seq;
  if (v.offloadLayers !== undefined) out.offloadLayers = v.offloadLayers;
  if (v.recompute !== undefined) {
    const r = v.recompute;
    out.recompute =
      r === 'full'
        ? { granularity: 'full', method: c.recompute.method ?? 'uniform', numLayers: c.recompute.numLayers ?? 1, modules: [] }
        : r === 'selective'
          ? {
              granularity: 'selective',
              method: null,
              numLayers: null,
              modules: c.recompute.modules.length ? c.recompute.modules : ['core_attn'],
            }
          : { granularity: null, method: null, numLayers: null, modules: [] };
  }
  if (v.precision !== undefined) out = withPrecision(out, v.precision);
  return out;
}

export interface FileChange {
  path: PathSeg[];
  value: ScalarValue;
  /** The value written in the file now, as text ('(absent)' for an inserted key). */
  from: string;
}

const show = (v: unknown) => (v === undefined ? '(absent)' : v === null ? 'null' : String(v));

/** What each field is called in a conflict message. */
const FIELD_LABEL: Partial<Record<TrainingField, string>> = {
  tp: 'TP',
  pp: 'PP',
  cp: 'CP',
  vpp: 'VPP',
  ep: 'EP',
  etp: 'ETP',
  sp: 'sequence parallelism',
  mbs: 'micro-batch',
  seq: 'sequence length',
  dataSeq: 'data sequence length',
  recomputeGranularity: 'recompute',
  recomputeMethod: 'recompute method',
  recomputeLayers: 'recompute layers',
  cpuOffloading: 'CPU offloading',
  offloadLayers: 'offloaded layers',
};

/**
 * The field values the what-if values mean for this file, in field order, and what the format cannot express. The
 * estimate previews the same change on the memory configuration (previewConfig); TP moves ETP along where they were equal.
 */
export function fieldChanges(
  recipe: TrainingRecipe,
  c: TrainingConfig,
  v: WhatIfValues,
): { changes: TrainingValues; unwritable: string[] } {
  const changes: TrainingValues = {};
  const unwritable: string[] = [];
  if (v.tp !== undefined) {
    changes.tp = v.tp;
    if (v.etp === undefined && c.etp === c.tp && 'etp' in recipe.loc) changes.etp = v.tp;
  }
  // SP as previewConfig has it: an explicit value, else switched off where TP drops to 1 (RL-R6).
  if (v.sp !== undefined) changes.sp = v.sp;
  else if (v.tp === 1 && c.sp) changes.sp = false;
  if (v.cp !== undefined) changes.cp = v.cp;
  if (v.pp !== undefined) changes.pp = v.pp;
  if (v.vpp !== undefined) changes.vpp = v.vpp > 1 ? v.vpp : null;
  if (v.ep !== undefined) changes.ep = v.ep;
  if (v.etp !== undefined) changes.etp = v.etp;
  if (v.microBatch !== undefined) changes.mbs = v.microBatch;
  if (v.seq !== undefined) {
    changes.seq = v.seq;
    // A data sequence length written as the same literal number moves along (an interpolation follows by itself).
    if (recipe.loc.dataSeq && !recipe.loc.dataSeq.interpolated && recipe.file.dataSeq === c.seq) changes.dataSeq = v.seq;
  }
  if (v.recompute !== undefined) {
    const written = (f: TrainingField) => f in recipe.loc && recipe.file[f] !== null;
    if (v.recompute === 'off') {
      changes.recomputeGranularity = null;
      if (written('recomputeMethod')) changes.recomputeMethod = null;
      if (written('recomputeLayers')) changes.recomputeLayers = null;
    } else {
      changes.recomputeGranularity = v.recompute;
      if (v.recompute === 'full') {
        if (!c.recompute.method) changes.recomputeMethod = 'uniform';
        if (!c.recompute.numLayers) changes.recomputeLayers = 1;
      } else {
        if (written('recomputeMethod')) changes.recomputeMethod = null;
        if (written('recomputeLayers')) changes.recomputeLayers = null;
      }
    }
  }
  if (v.offloadLayers !== undefined) {
    changes.cpuOffloading = v.offloadLayers > 0;
    if (v.offloadLayers > 0) changes.offloadLayers = v.offloadLayers;
  }
  if (v.precision !== undefined) {
    const label = PRECISIONS[v.precision].label;
    const w = recipe.table.writePrecision?.(v.precision, recipe.file, recipe.loc);
    if (!w) unwritable.push(`${label}: precision is not written into ${recipe.format} files; set it by hand`);
    else if ('unwritable' in w) unwritable.push(`${label}: ${w.unwritable}`);
    else Object.assign(changes, w.changes);
  }
  return { changes, unwritable };
}

export interface WriteInput {
  recipe: TrainingRecipe;
  doc: RecipeDoc;
  text: string;
}

export interface WriteCheck {
  changes: FileChange[];
  conflicts: WhatIfVM['conflicts'];
  /** The edits against the text; undefined when nothing changes or a key cannot be written. */
  edits?: TextEdit[];
  canApply: boolean;
  errors: number;
}

/**
 * What writing values `v` into the file takes (the same path for the what-if and the planner's Apply): the field
 * changes written through the format's table (minimal edits, comments kept), what the format cannot express, and the
 * launch rules the changed configuration breaks that the file did not already break — the same rule functions the
 * checker runs, on the normalized values: nothing is re-parsed. Apply only when there is no error.
 */
export function writeCheck(input: WriteInput, c: TrainingConfig, v: WhatIfValues): WriteCheck {
  const { recipe, doc } = input;
  const { changes: fields, unwritable } = fieldChanges(recipe, c, v);
  const conflicts: WhatIfVM['conflicts'] = unwritable.map((m) => ({ code: 'write', severity: 'error' as const, message: m }));
  const raw = (p: PathSeg[]) => {
    const hit = lookup(doc.root, p);
    return hit?.node.kind === 'scalar' ? hit.node.value : hit ? '(mapping)' : undefined;
  };
  const changes: FileChange[] = [];
  for (const [f, value] of Object.entries(fields) as [TrainingField, ScalarValue][]) {
    const p = writePath(recipe.table, recipe.loc, f, recipe.base);
    if (!p) {
      conflicts.push({
        code: 'write',
        severity: 'error',
        message: `${FIELD_LABEL[f] ?? 'precision'}: this ${recipe.format} file has no key for it; change it by hand`,
      });
      continue;
    }
    if (raw(p) === value) continue;
    changes.push({ path: p, value, from: show(raw(p)) });
  }
  let edits: TextEdit[] | undefined;
  if (changes.length) {
    const target = editTarget(input.text, doc);
    const r = editsForChanges(target.text, changes, { doc: target.doc });
    if (r.error !== undefined) conflicts.push({ code: 'write', severity: 'error', message: `cannot write the change: ${r.error}` });
    else edits = r.edits;
  }
  // The launcher's own checks on the changed configuration: report what the change adds.
  const seen = new Set(trainingRules(trainingInput(recipe)).map((h) => `${h.code}\n${h.message}`));
  for (const h of trainingRules(trainingInput(withChanges(recipe, fields)))) {
    const key = `${h.code}\n${h.message}`;
    if (h.severity === 'info' || seen.has(key)) continue;
    seen.add(key);
    conflicts.push({ code: h.code, severity: h.severity, message: h.message });
  }
  const errors = conflicts.filter((x) => x.severity === 'error').length;
  const canApply = !!edits && errors === 0 && unwritable.length === 0;
  return { changes, conflicts, edits: canApply ? edits : undefined, canApply, errors };
}

export interface WhatIfInput extends WriteInput {
  /** The file's estimate against the panel's GPU. */
  e: TrainingDoc;
  uri: string;
  docVersion: number;
  values: WhatIfValues;
}

export interface WhatIfResult {
  vm: WhatIfVM;
  /** The preview configuration (for the layout section). */
  config: TrainingConfig;
  /** The edits Apply writes, against `text`; undefined when Apply is refused. */
  edits?: TextEdit[];
}

const PRECISION_LABELS: Choice[] = PRECISION_CHOICES.map((p) => ({ value: p, label: PRECISIONS[p].label }));
const RECOMPUTE_LABELS: Choice[] = [
  { value: 'off', label: 'off' },
  { value: 'selective', label: 'selective (core attention)' },
  { value: 'full', label: 'full (uniform)' },
];

export function whatIfSection(input: WhatIfInput): WhatIfResult {
  const { e, values } = input;
  const c = e.config;
  const file = fileValues(c);
  const v = effectiveChanges(c, values);
  const config = previewConfig(c, v);
  const shown = { ...file, ...v };
  const layers = e.shape.layers;
  const intField = (key: WhatIfKey, label: string, min: number, max: number): WhatIfField => ({
    key,
    label,
    kind: 'int',
    file: String(file[key]),
    value: String(shown[key]),
    changed: v[key] !== undefined,
    options: [],
    min,
    max,
  });
  const selField = (key: WhatIfKey, label: string, options: Choice[]): WhatIfField => ({
    key,
    label,
    kind: 'select',
    file: String(file[key]),
    value: String(shown[key]),
    changed: v[key] !== undefined,
    options: options.some((o) => o.value === file[key])
      ? options
      : [...options, { value: String(file[key]), label: key === 'precision' ? PRECISIONS[file.precision].label : String(file[key]) }],
    min: 0,
    max: 0,
  });
  const fields: WhatIfField[] = [
    intField('cp', 'CP', 1, 1 << 16),
    intField('tp', 'TP', 1, 1 << 16),
    intField('pp', 'PP', 1, layers),
    intField('vpp', 'VPP', 1, layers),
    ...(e.shape.experts > 0 ? [intField('ep', 'EP', 1, e.shape.experts)] : []),
    intField('microBatch', 'micro-batch', 1, 1 << 12),
    intField('seq', 'sequence length', 1, 1 << 26),
    selField('recompute', 'recompute', RECOMPUTE_LABELS),
    intField('offloadLayers', 'offload layers', 0, Math.max(0, layers - 1)),
    selField('precision', 'precision', PRECISION_LABELS),
  ];
  const base = { uri: input.uri, docVersion: input.docVersion, fields };
  if (!Object.keys(v).length)
    return {
      config,
      vm: {
        ...base,
        preview: null,
        conflicts: [],
        changes: [],
        canApply: false,
        applyNote: 'Change a value to preview it; Apply writes it into the file.',
      },
    };

  const t0 = e.estimate;
  const t1 = reestimate(e, config);
  const cap = e.gpu.bytes;
  const cats = ['weights', 'gradients', 'optimizer', 'activations', 'transient', 'overhead', 'total'] as const;
  const deltas = cats
    .map((k) => ({
      label: k,
      from: num2(t0.perGpu[k]),
      to: num2(t1.perGpu[k]),
      delta: deltaGib(t1.perGpu[k] - t0.perGpu[k]).replace(' GiB', ''),
    }))
    .filter((d) => d.label === 'total' || d.delta !== '±0.00');

  const { changes, conflicts, edits, canApply, errors } = writeCheck(input, c, v);
  // What the estimate does with settings the launcher would reject (memory model: offload only applies with PP 1 and no recompute).
  if (config.offloadLayers > 0 && (config.pp > 1 || config.recompute.granularity))
    conflicts.push({
      code: 'estimate',
      severity: 'info',
      message: `the estimate ignores the ${config.offloadLayers} offloaded layers: CPU offloading works only with PP 1 and without recompute (RL-R11)`,
    });
  return {
    config,
    edits,
    vm: {
      ...base,
      preview: {
        bar: trainingBar(t1, cap, 'what-if'),
        verdictText: `${VERDICT_TEXT[t1.fit.verdict]}: ${gib(t1.perGpu.total)} of ${gib(cap)} (${t0.perGpu.total === t1.perGpu.total ? 'unchanged' : `${deltaGib(t1.perGpu.total - t0.perGpu.total)} against the file`})`,
        deltas,
      },
      conflicts,
      changes: changeRows(changes),
      canApply,
      applyNote: applyNote(canApply, changes.length, errors),
    },
  };
}

export function applyNote(canApply: boolean, keys: number, errors: number): string {
  return canApply
    ? `Apply writes ${keys} key${keys === 1 ? '' : 's'} into the file (one undo step).`
    : errors
      ? `Apply is off: ${count(errors)} conflict${errors === 1 ? '' : 's'} to resolve first.`
      : 'Nothing to write.';
}

export const changeRows = (changes: readonly FileChange[]) =>
  changes.map((ch) => ({ path: pathToString(ch.path), from: ch.from, to: show(ch.value) }));
