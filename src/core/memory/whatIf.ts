// What-if variants of a training configuration: the deltas hovers and the panel show for one key.
import type { TrainingField } from '../formats/fields.js';
import type { TrainingConfig } from './config.js';

export interface Variant {
  /** e.g. "CP 4 → 8". */
  label: string;
  config: TrainingConfig;
}

/** Which memory lever a key is. */
export type Lever = 'cp' | 'tp' | 'pp' | 'vpp' | 'mbs' | 'seq' | 'recompute' | 'offload' | 'precision' | 'sp';

/** The fields that move memory, per lever (a hover on the key that holds one shows its what-if deltas). */
export const FIELD_LEVERS: Partial<Record<TrainingField, Lever>> = {
  cp: 'cp',
  tp: 'tp',
  ep: 'tp',
  hidden: 'tp',
  pp: 'pp',
  layers: 'pp',
  vpp: 'vpp',
  mbs: 'mbs',
  gbs: 'mbs',
  seq: 'seq',
  recomputeGranularity: 'recompute',
  recomputeMethod: 'recompute',
  recomputeLayers: 'recompute',
  recomputeModules: 'recompute',
  cpuOffloading: 'offload',
  offloadLayers: 'offload',
  offloadActivations: 'offload',
  fp8: 'precision',
  fp8Recipe: 'precision',
  fp4: 'precision',
  fp4Recipe: 'precision',
  precision: 'precision',
  mixedPrecision: 'precision',
  ampO2: 'precision',
  sp: 'sp',
};

export function variantsFor(lever: Lever, c: TrainingConfig, layers: number): Variant[] {
  const v = (label: string, patch: Partial<TrainingConfig>): Variant => ({ label, config: { ...c, ...patch } });
  switch (lever) {
    case 'cp':
      return [v(`CP ${c.cp} → ${c.cp * 2}`, { cp: c.cp * 2 }), ...(c.cp > 1 ? [v(`CP ${c.cp} → ${c.cp / 2}`, { cp: c.cp / 2 })] : [])];
    case 'tp':
      return [v(`TP ${c.tp} → ${c.tp * 2}`, { tp: c.tp * 2, etp: c.etp === c.tp ? c.tp * 2 : c.etp, sp: c.sp || c.tp * 2 > 1 })];
    case 'pp':
      return [v(`PP ${c.pp} → ${c.pp * 2}`, { pp: c.pp * 2, offloadLayers: 0 })];
    case 'vpp':
      return [v(`VPP ${c.vpp ?? 1} → ${(c.vpp ?? 1) * 2}`, { vpp: (c.vpp ?? 1) * 2 })];
    case 'mbs':
      return c.microBatch > 1
        ? [v(`micro-batch ${c.microBatch} → ${c.microBatch / 2}`, { microBatch: c.microBatch / 2 })]
        : [v(`micro-batch 1 → 2`, { microBatch: 2 })];
    case 'seq':
      return [v(`seq ${c.seq} → ${c.seq * 2}`, { seq: c.seq * 2 }), v(`seq ${c.seq} → ${c.seq / 2}`, { seq: c.seq / 2 })];
    case 'recompute':
      return [
        ...(c.recompute.granularity !== 'full'
          ? [
              v('recompute full (uniform, 1 layer)', {
                recompute: { granularity: 'full', method: 'uniform', numLayers: 1, modules: [] },
                offloadLayers: 0,
              }),
            ]
          : []),
        ...(c.recompute.granularity !== 'selective'
          ? [
              v('recompute selective (core_attn)', {
                recompute: { granularity: 'selective', method: null, numLayers: null, modules: ['core_attn'] },
              }),
            ]
          : []),
        ...(c.recompute.granularity
          ? [v('recompute off', { recompute: { granularity: null, method: null, numLayers: null, modules: [] } })]
          : []),
      ];
    case 'offload': {
      const n = Math.min(layers - 1, c.offloadLayers + 4);
      return c.pp === 1 && !c.recompute.granularity ? [v(`offload ${c.offloadLayers} → ${n} layers`, { offloadLayers: n })] : [];
    }
    case 'precision':
      return [
        ...(c.fp4 !== 'nvfp4' ? [v('NVFP4', { fp4: 'nvfp4', fp8: null })] : []),
        ...(!c.fp8 && !c.fp4 ? [v('FP8 (delayed)', { fp8: 'delayed' })] : []),
        ...(c.fp8 || c.fp4 ? [v('BF16', { fp8: null, fp4: null, quantizedParams: false })] : []),
      ];
    case 'sp':
      return c.tp > 1 ? [v(`sequence parallel ${c.sp ? 'off' : 'on'}`, { sp: !c.sp })] : [];
  }
}
