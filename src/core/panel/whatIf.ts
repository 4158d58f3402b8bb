// What-if section: the preview configuration for the panel's controls, its estimate (reestimate, never a
// formula here), the conflicts the launcher would raise (the rules run on the edited text), and the edits
// that write the change into the YAML (core/edit.ts: comments and formatting kept).
import type { Choice, PrecisionChoice, RecomputeChoice, WhatIfField, WhatIfKey, WhatIfValues, WhatIfVM } from './viewModels.js';
import { PRECISION_CHOICES } from './viewModels.js';
import type { RecipeDoc } from '../document.js';
import { applyEdits, editsForChanges, type ScalarValue } from '../edit.js';
import type { TrainingConfig } from '../memory/config.js';
import { reestimate } from '../memory/estimate.js';
import { PRECISIONS, type PrecisionId } from '../memory/precision.js';
import { Facts, type TrainingField } from '../rules/facts.js';
import { lookup, parsePath, pathToString } from '../tree.js';
import type { Finding, FormatId, PathSeg, TextEdit } from '../types.js';
import { validateText, type ValidateOptions } from '../validate.js';
import { GIB } from '../memory/overheads.js';
import { count, deltaGib, gib, VERDICT_TEXT } from './format.js';
import { trainingBar, type TrainingDoc } from './memory.js';
import { precisionIdOf, withPrecision } from '../memory/precision.js';

/** GiB with two decimals, no unit (the table head carries it). */
const num2 = (b: number) => (b / GIB).toFixed(2);

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

// Where each format keeps a key (the first path of core/rules/facts.ts's tables); a key already in the file wins.
const NEMO1_PATHS: Partial<Record<TrainingField, string>> = {
  tp: 'model.tensor_model_parallel_size',
  pp: 'model.pipeline_model_parallel_size',
  vpp: 'model.virtual_pipeline_model_parallel_size',
  cp: 'model.context_parallel_size',
  ep: 'model.expert_model_parallel_size',
  etp: 'model.expert_tensor_parallel_size',
  sp: 'model.sequence_parallel',
  mbs: 'model.micro_batch_size',
  seq: 'model.encoder_seq_length',
  dataSeq: 'model.data.seq_length',
  recomputeGranularity: 'model.activations_checkpoint_granularity',
  recomputeMethod: 'model.activations_checkpoint_method',
  recomputeLayers: 'model.activations_checkpoint_num_layers',
  cpuOffloading: 'model.cpu_offloading',
  offloadLayers: 'model.cpu_offloading_num_layers',
  fp8: 'model.fp8',
};
const BRIDGE_PATHS: Partial<Record<TrainingField, string>> = {
  tp: 'model.tensor_model_parallel_size',
  pp: 'model.pipeline_model_parallel_size',
  vpp: 'model.virtual_pipeline_model_parallel_size',
  cp: 'model.context_parallel_size',
  ep: 'model.expert_model_parallel_size',
  etp: 'model.expert_tensor_parallel_size',
  sp: 'model.sequence_parallel',
  mbs: 'train.micro_batch_size',
  seq: 'model.seq_length',
  dataSeq: 'dataset.seq_length',
  recomputeGranularity: 'model.recompute_granularity',
  recomputeMethod: 'model.recompute_method',
  recomputeLayers: 'model.recompute_num_layers',
  cpuOffloading: 'model.cpu_offloading',
  offloadLayers: 'model.cpu_offloading_num_layers',
};
/** Megatron-Bridge mixed-precision recipes by name (megatron/bridge/training/mixed_precision.py). */
const BRIDGE_RECIPES: Partial<Record<PrecisionChoice, string>> = {
  bf16: 'bf16_mixed',
  fp16: 'fp16_mixed',
  'fp8-delayed': 'bf16_with_fp8_delayed_scaling_mixed',
  'fp8-tensorwise': 'bf16_with_fp8_current_scaling_mixed',
  'fp8-blockwise': 'bf16_with_fp8_subchannel_scaling_mixed',
  'fp8-mxfp8': 'bf16_with_mxfp8_mixed',
  nvfp4: 'bf16_with_nvfp4_mixed',
};

export interface FileChange {
  path: PathSeg[];
  value: ScalarValue;
  /** The value written in the file now, as text ('(absent)' for an inserted key). */
  from: string;
}

const show = (v: unknown) => (v === undefined ? '(absent)' : v === null ? 'null' : String(v));

/** The key edits that write the what-if values into the file, and the values that cannot be written. */
export function fileChanges(
  doc: RecipeDoc,
  format: FormatId,
  c: TrainingConfig,
  v: WhatIfValues,
): { changes: FileChange[]; unwritable: string[] } {
  const facts = new Facts(doc, format);
  const table = format === 'megatron-bridge' ? BRIDGE_PATHS : format === 'nemo1' || format === 'nemo-launcher' ? NEMO1_PATHS : {};
  const changes: FileChange[] = [];
  const unwritable: string[] = [];
  const raw = (p: PathSeg[]) => {
    const hit = lookup(doc.root, p);
    return hit?.node.kind === 'scalar' ? hit.node.value : hit ? '(mapping)' : undefined;
  };
  const pathOf = (f: TrainingField): PathSeg[] | undefined => {
    const fact = facts.get(f);
    if (fact) return parsePath(fact.path);
    const p = table[f];
    return p ? parsePath(p) : undefined;
  };
  const set = (f: TrainingField, value: ScalarValue, what: string) => {
    const p = pathOf(f);
    if (!p) return void unwritable.push(`${what}: this ${format} file has no key for it; change it by hand`);
    if (raw(p) === value) return;
    changes.push({ path: p, value, from: show(raw(p)) });
  };
  /** Clears a key only where the file writes it. */
  const clear = (f: TrainingField) => {
    const p = pathOf(f);
    if (p && lookup(doc.root, p) && raw(p) !== null) changes.push({ path: p, value: null, from: show(raw(p)) });
  };
  if (v.tp !== undefined) set('tp', v.tp, 'TP');
  // SP as previewConfig has it: an explicit value, else switched off where TP drops to 1 (RL-R6).
  if (v.sp !== undefined) set('sp', v.sp, 'sequence parallelism');
  else if (v.tp === 1 && c.sp) set('sp', false, 'sequence parallelism');
  if (v.cp !== undefined) set('cp', v.cp, 'CP');
  if (v.pp !== undefined) set('pp', v.pp, 'PP');
  if (v.vpp !== undefined) set('vpp', v.vpp > 1 ? v.vpp : null, 'VPP');
  if (v.ep !== undefined) set('ep', v.ep, 'EP');
  if (v.etp !== undefined) set('etp', v.etp, 'ETP');
  if (v.microBatch !== undefined) set('mbs', v.microBatch, 'micro-batch');
  if (v.seq !== undefined) {
    set('seq', v.seq, 'sequence length');
    // A data.seq_length written as the same literal number moves along (an interpolation follows by itself).
    const d = pathOf('dataSeq');
    if (d && raw(d) === c.seq) changes.push({ path: d, value: v.seq, from: show(c.seq) });
  }
  if (v.recompute !== undefined) {
    if (v.recompute === 'off') {
      set('recomputeGranularity', null, 'recompute');
      clear('recomputeMethod');
      clear('recomputeLayers');
    } else {
      set('recomputeGranularity', v.recompute, 'recompute');
      if (v.recompute === 'full') {
        if (!c.recompute.method) set('recomputeMethod', 'uniform', 'recompute method');
        if (!c.recompute.numLayers) set('recomputeLayers', 1, 'recompute layers');
      } else {
        clear('recomputeMethod');
        clear('recomputeLayers');
      }
    }
  }
  if (v.offloadLayers !== undefined) {
    set('cpuOffloading', v.offloadLayers > 0, 'CPU offloading');
    if (v.offloadLayers > 0) set('offloadLayers', v.offloadLayers, 'offloaded layers');
  }
  if (v.precision !== undefined) precisionChange(doc, format, facts, c, v.precision, changes, unwritable, raw);
  return { changes, unwritable };
}

function precisionChange(
  doc: RecipeDoc,
  format: FormatId,
  facts: Facts,
  c: TrainingConfig,
  p: PrecisionChoice,
  changes: FileChange[],
  unwritable: string[],
  raw: (p: PathSeg[]) => unknown,
): void {
  const label = PRECISIONS[p].label;
  if (format === 'nemo1' || format === 'nemo-launcher') {
    // NeMo 1.x selects FP8 with model.fp8 (delayed scaling); other recipes have no key there.
    if ((p === 'bf16' || p === 'fp8-delayed') && c.params === 'bf16') {
      const path = facts.get('fp8') ? parsePath(facts.get('fp8')!.path) : parsePath(NEMO1_PATHS.fp8!);
      const value = p === 'fp8-delayed';
      if (raw(path) !== value) changes.push({ path, value, from: show(raw(path)) });
      return;
    }
    unwritable.push(`${label}: a NeMo 1.x config switches only between BF16 and FP8 (model.fp8); set it by hand`);
    return;
  }
  if (format === 'megatron-bridge') {
    const mp = lookup(doc.root, ['mixed_precision']);
    const name = BRIDGE_RECIPES[p];
    if (name && (!mp || mp.node.kind === 'scalar') && !facts.present('fp8') && !lookup(doc.root, ['model', 'fp4'])) {
      changes.push({ path: ['mixed_precision'], value: name, from: show(raw(['mixed_precision'])) });
      return;
    }
    unwritable.push(
      `${label}: this override sets precision field by field; set it by hand (or use mixed_precision: ${name ?? 'a recipe name'})`,
    );
    return;
  }
  unwritable.push(`${label}: precision is not written into ${format} files; set it by hand`);
}

export interface WhatIfInput {
  /** The file's estimate against the panel's GPU. */
  e: TrainingDoc;
  doc: RecipeDoc;
  format: FormatId;
  text: string;
  uri: string;
  docVersion: number;
  values: WhatIfValues;
  /** The options the file was validated with, and its findings, to report only conflicts the change adds. */
  validate: ValidateOptions;
  findings: readonly Finding[];
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

export interface WriteInput {
  doc: RecipeDoc;
  format: FormatId;
  text: string;
  validate: ValidateOptions;
  findings: readonly Finding[];
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
 * What writing values `v` into the file takes (the same path for the what-if and the planner's Apply): the key edits
 * (fileChanges → editsForChanges, comments and formatting kept), the values the format cannot express, and the launch
 * rules (RL-R…) the edited file breaks that the file did not already break. Apply only when there is no error.
 */
export function writeCheck(input: WriteInput, c: TrainingConfig, v: WhatIfValues): WriteCheck {
  const { changes, unwritable } = fileChanges(input.doc, input.format, c, v);
  const conflicts: WhatIfVM['conflicts'] = unwritable.map((m) => ({ code: 'write', severity: 'error' as const, message: m }));
  let edits: TextEdit[] | undefined;
  if (changes.length) {
    const r = editsForChanges(input.text, changes, { doc: input.doc.index });
    if (r.error !== undefined) conflicts.push({ code: 'write', severity: 'error', message: `cannot write the change: ${r.error}` });
    else {
      edits = r.edits;
      // The launcher's own checks, run on the edited file: report what the change adds.
      // A rule places one finding on each key involved: one conflict per message.
      const seen = new Set(input.findings.map((f) => `${f.code}\n${f.message}`));
      const after = validateText(applyEdits(input.text, r.edits), { ...input.validate, memory: undefined });
      for (const f of after.findings) {
        const key = `${f.code}\n${f.message}`;
        if (!/^RL-R/.test(f.code) || f.severity === 'info' || seen.has(key)) continue;
        seen.add(key);
        conflicts.push({ code: f.code, severity: f.severity, message: f.message });
      }
    }
  }
  const errors = conflicts.filter((x) => x.severity === 'error').length;
  const canApply = !!edits && errors === 0 && unwritable.length === 0;
  return { changes, conflicts, edits: canApply ? edits : undefined, canApply, errors };
}

export const changeRows = (changes: readonly FileChange[]) =>
  changes.map((ch) => ({ path: pathToString(ch.path), from: ch.from, to: show(ch.value) }));
