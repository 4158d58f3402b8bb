// Quantization section: the file's precision recipe with its facts (PRECISIONS), and what it saves or costs
// in this file's estimate (the host re-estimates the same file under BF16 and the alternatives).
import type { FactRow, QuantVM } from './viewModels.js';
import { reestimate, type DocEstimate } from '../memory/estimate.js';
import { kvPerToken } from '../memory/kvcache.js';
import { servingWeights } from '../memory/servingWeights.js';
import { dtypeBytes } from '../memory/weightFormat.js';
import type { WeightDtype } from '../models/types.js';
import { bf16Weights } from '../models/weights.js';
import { describeWeights } from '../models/resolve.js';
import { NVFP4_BF16_LAYER_FRACTION, PRECISIONS, precisionIdOf, withPrecision, type PrecisionId } from '../memory/precision.js';
import type { TrainingEstimate } from '../memory/training.js';
import { bytes, count, deltaGib, gib } from './format.js';
import { mainRole, type ServingDoc, type TrainingDoc } from './memory.js';

/** Short names for the comparison table. */
const SHORT: Record<PrecisionId, string> = {
  bf16: 'BF16',
  fp16: 'FP16',
  fp32: 'FP32',
  'fp8-delayed': 'FP8 delayed',
  'fp8-tensorwise': 'FP8 current',
  'fp8-blockwise': 'FP8 blockwise',
  'fp8-mxfp8': 'MXFP8',
  nvfp4: 'NVFP4',
  mxfp4: 'MXFP4',
};

const states = (t: TrainingEstimate) => t.perGpu.weights + t.perGpu.gradients + t.perGpu.optimizer;

function alternatives(current: PrecisionId): PrecisionId[] {
  if (current === 'bf16' || current === 'fp16' || current === 'fp32')
    return ['bf16', 'fp8-delayed', 'fp8-mxfp8', 'nvfp4'].filter((p) => p !== current) as PrecisionId[];
  return (['bf16', 'fp8-delayed', 'nvfp4'] as PrecisionId[]).filter((p) => p !== current);
}

function recipeFacts(id: PrecisionId): FactRow[] {
  const f = PRECISIONS[id];
  return [
    { label: 'element format', value: f.element },
    { label: 'block', value: f.block },
    { label: 'scale', value: f.scale },
    { label: 'bits per value', value: `${+f.bitsPerValue.toFixed(3)} (scales included)` },
    { label: 'saved linear-layer input', value: `${+f.savedInputBytes.toFixed(4)} B per element` },
  ];
}

export function trainingQuant(e: TrainingDoc): QuantVM {
  const c = e.config;
  const id = precisionIdOf(c);
  const f = PRECISIONS[id];
  const t = e.estimate;
  const quantized = !!(c.fp8 || c.fp4);
  const facts = recipeFacts(id);
  facts.push({
    label: 'weights held',
    value: c.quantizedParams
      ? 'the quantized copy only (fp8_param / fp4_param)'
      : quantized
        ? 'BF16 weights plus rowwise and columnwise quantized copies'
        : `${c.params.toUpperCase()} weights, FP32 master copy in the optimizer`,
  });
  const notes = [...f.notes];
  if (id === 'nvfp4') {
    const layers = Math.round(NVFP4_BF16_LAYER_FRACTION * e.shape.layers);
    notes.push(
      `In this model: about ${layers} of ${e.shape.layers} layers' linears stay BF16; the estimate counts ${NVFP4_BF16_LAYER_FRACTION * 100}% of the linear bytes at BF16.`,
    );
  }
  const rows = [id, ...alternatives(id)].map((p) => {
    const est = p === id ? t : reestimate(e, withPrecision(c, p));
    return {
      label: p === id ? `${SHORT[p]} (file)` : SHORT[p],
      cells: [
        gib(est.perGpu.total),
        gib(states(est)),
        gib(est.perGpu.activations),
        p === id ? '—' : deltaGib(est.perGpu.total - t.perGpu.total),
      ],
      current: p === id,
      total: est.perGpu.total,
    };
  });
  const bf16 = rows.find((r) => r.label === SHORT.bf16);
  let summary: string;
  if (quantized && bf16) {
    const d = bf16.total - t.perGpu.total;
    summary = `${f.label} ${d >= 0 ? 'saves' : 'costs'} ${gib(Math.abs(d))} on the most-loaded rank against BF16 (${gib(bf16.total)} → ${gib(t.perGpu.total)}).`;
  } else {
    const alt = rows.filter((r) => !r.current).map((r) => `${r.label} ${deltaGib(r.total - t.perGpu.total)}`);
    summary = `This file trains in ${f.label}. On the most-loaded rank the alternatives would change the total by: ${alt.join(', ')}.`;
  }
  return {
    kind: 'training',
    title: f.label,
    facts,
    notes,
    source: f.source,
    comparisonHead: ['recipe', 'total', 'states', 'activations', 'Δ total'],
    comparisonNote: 'Most-loaded rank, this file re-estimated under each recipe; states = weights + gradients + optimizer.',
    comparison: rows.map(({ label, cells, current }) => ({ label, cells, current })),
    summary,
    kv: [],
  };
}

const WEIGHT_PRECISION: Partial<Record<WeightDtype, PrecisionId>> = {
  bf16: 'bf16',
  fp16: 'fp16',
  fp8: 'fp8-tensorwise',
  nvfp4: 'nvfp4',
  mxfp4: 'mxfp4',
};

export function servingQuant(e: ServingDoc): QuantVM {
  const r = mainRole(e);
  const k = r.kv;
  const w = e.weights;
  const wd = w.dtype;
  const pid = WEIGHT_PRECISION[wd];
  const per = dtypeBytes(wd, w.block);
  const facts: FactRow[] = [
    { label: 'weights', value: `${describeWeights(w)}: ${+per.bytes.toFixed(4)} B per weight (${per.label})` },
    { label: 'source', value: w.source },
  ];
  if (w.excluded?.length) facts.push({ label: 'kept in 16 bits', value: w.excluded.join(', ') });
  const quantized = wd !== 'bf16' && wd !== 'fp16' && wd !== 'fp32';
  if (pid && quantized) facts.push(...recipeFacts(pid).slice(0, 4));
  const layout = { tp: r.tp, pp: r.pp, cp: r.cp, attentionDp: r.attentionDp };
  const w16 = servingWeights(e.shape, bf16Weights('all BF16, for comparison'), layout).bytes;
  const bpt16 = kvPerToken(e.shape, { tp: r.tp, pp: r.pp, attentionDp: r.attentionDp, dtype: 'bf16' }).bytes;
  const dtype = k.perToken.dtype;
  const kv: FactRow[] = [
    {
      label: 'KV cache dtype',
      value: k.assumptions.some((a) => a.what.startsWith('KV cache dtype')) ? `${dtype} (auto: follows the model)` : dtype,
    },
    { label: 'bytes per token', value: `${count(k.bytesPerToken)} B (${bytes(k.bytesPerToken)}) per GPU` },
  ];
  if (dtype !== 'bf16')
    kv.push({
      label: 'in BF16',
      value: `${count(bpt16)} B per token: the same pool would hold ${count(Math.floor(k.allocatedBytes / bpt16))} tokens instead of ${count(k.poolTokens)}`,
    });
  const comparison = [
    { label: 'this file', cells: [gib(k.weightBytes), `${count(k.bytesPerToken)} B`, count(k.poolTokens)], current: true },
  ];
  // Pool tokens for BF16 at the same pool bytes (the pool would grow by what smaller weights free: not modelled here).
  if (quantized || dtype !== 'bf16')
    comparison.push({
      label: 'all BF16',
      cells: [gib(w16), `${count(bpt16)} B`, count(Math.floor(k.allocatedBytes / bpt16))],
      current: false,
    });
  return {
    kind: 'serving',
    title: `${describeWeights(w)} weights · ${dtype} KV cache`,
    facts,
    notes: quantized
      ? [`Stored as the checkpoint ships: ${describeWeights(w)}; embeddings, the LM head, norms and routers stay 16-bit.`]
      : [],
    source: pid && quantized ? PRECISIONS[pid].source : '',
    comparisonHead: ['', 'weights / GPU', 'KV / token', 'pool tokens'],
    comparisonNote: 'Per GPU of the main server role; BF16 pool tokens at the same pool size.',
    comparison,
    summary:
      !quantized && dtype === 'bf16'
        ? 'BF16 weights and KV cache; an FP8 KV cache (kv_cache_config.dtype: fp8) would halve the bytes per token.'
        : `Against BF16: weights ${deltaGib(k.weightBytes - w16)} per GPU, KV cache ${count(k.bytesPerToken)} instead of ${count(bpt16)} B per token.`,
    kv,
  };
}

export function quantSection(e: DocEstimate): QuantVM | null {
  if (e.kind === 'training') return trainingQuant(e);
  if (e.kind === 'serving') return servingQuant(e);
  return null;
}
