// The training-memory estimate for the most-loaded rank: weights, gradients, optimizer, activations,
// transient peaks and runtime overheads, for every pipeline stage.
import { checkpointInput, hfLayer, megatronLayer, type ActivationTerm } from './activations.js';
import { derived, type TrainingConfig } from './config.js';
import { GIB, trainingOverheads } from './overheads.js';
import type { Assumption, GpuSpec, ModelShape } from './types.js';
import { paddedVocab, shardGroups, stageParams, stateBytes } from './weights.js';

export type Category = 'weights' | 'gradients' | 'optimizer' | 'activations' | 'transient' | 'overhead';

export interface BreakdownLine {
  label: string;
  category: Category;
  bytes: number;
  formula: string;
  source: string;
}

export interface StageEstimate {
  stage: number;
  layers: number;
  weights: number;
  gradients: number;
  optimizer: number;
  activations: number;
  transient: number;
  overhead: number;
  total: number;
}

export interface TrainingEstimate {
  model: { name: string; paramsPerGpu: number; paddedVocab: number };
  gpu: { name: string; bytes: number };
  parallel: {
    tp: number;
    pp: number;
    vpp: number | null;
    cp: number;
    ep: number;
    dp: number | null;
    worldSize: number | null;
    sp: boolean;
  };
  perGpu: {
    weights: number;
    gradients: number;
    optimizer: number;
    activations: number;
    transient: number;
    overhead: number;
    total: number;
  };
  /** The most-loaded stage. */
  stage: number;
  stages: StageEstimate[];
  breakdown: BreakdownLine[];
  /** Per-layer activation inventory (one micro-batch, one dense layer) behind the activation line. */
  layerTerms: ActivationTerm[];
  fit: { verdict: 'fits' | 'tight' | 'does-not-fit'; fraction: number };
  assumptions: Assumption[];
}

/** A plan fits when it leaves 10% of the GPU free; up to 100% it is "tight". */
export const TIGHT_FRACTION = 0.9;

export function fitVerdict(total: number, capacity: number): TrainingEstimate['fit'] {
  const fraction = total / capacity;
  return { verdict: fraction <= TIGHT_FRACTION ? 'fits' : fraction <= 1 ? 'tight' : 'does-not-fit', fraction };
}

export function estimateTraining(m: ModelShape, c: TrainingConfig, gpu: GpuSpec, inherited: Assumption[] = []): TrainingEstimate {
  const assumptions = [...inherited];
  const { dp, microbatches } = derived(c);
  const b = c.microBatch;
  const s = c.seq / c.cp;
  // Optimizer shard groups: DP×CP for dense parameters, world/(ETP·EP·PP) for routed experts (Megatron intra_dp_cp_group; Bridge).
  const dpEff = dp ?? 1;
  if (dp === undefined && c.distributedOptimizer)
    assumptions.push({
      what: 'data-parallel size 1 for the optimizer shard',
      source: 'the file gives no world size (set recipeLens.worldSize or --gpus)',
      provenance: 'default',
    });
  const { dense: denseShard, experts: expertShard } = shardGroups(dpEff, c.cp, c.tp, c.ep, c.etp);
  const params = stageParams(m, c);
  const V = paddedVocab(m.vocab, c.tp);

  // Activations per micro-batch of one layer.
  const layer = c.profile === 'hf' ? hfLayer(m, c, b, s) : megatronLayer(m, c, b, s);
  if (c.profile === 'hf' && (c.tp > 1 || c.sp))
    assumptions.push({
      what: 'activations not sharded by TP/SP',
      source: 'hf profile: Hugging Face layers as measured (hf-activations.md)',
      provenance: 'default',
    });
  const ckpt = checkpointInput(m, c, b, s);
  const full = c.recompute.granularity === 'full';
  // Micro-batches in flight on the first stage: PP with 1F1B, ×(1 + (PP−1)/(PP·VPP)) interleaved (Korthikanti §3; Megatron theoretical_memory_usage.py).
  const interleave = c.vpp && c.vpp > 1 ? 1 + (c.pp - 1) / (c.pp * c.vpp) : 1;
  let inflightFirst = c.pp * interleave;
  if (microbatches !== undefined && microbatches < c.pp) inflightFirst = microbatches * interleave;
  if (microbatches === undefined && c.pp > 1)
    assumptions.push({
      what: `${c.pp} micro-batches in flight on the first stage`,
      source: 'the number of micro-batches is unknown (global batch or world size missing); assumed ≥ PP',
      provenance: 'default',
    });

  const stages: StageEstimate[] = [];
  const lines: BreakdownLine[][] = [];
  for (const p of params) {
    const st = stateBytes(p, c, denseShard, expertShard);
    const inflight = c.pp === 1 ? 1 : p.stage === 0 ? inflightFirst : Math.max(1, (c.pp - p.stage) * interleave);
    const perMb = (n: number, moe: number) => (n - moe) * layer.dense + moe * layer.moe;
    let stored: number;
    let remat = 0;
    let recomputeNote = '';
    if (full) {
      const n = Math.max(1, c.recompute.numLayers ?? 1);
      if (c.recompute.method === 'block') {
        const k = Math.min(n, p.layers);
        // First k layers of the stage keep only their input; the rest keep everything (Megatron recompute_method=block).
        stored = k * ckpt + perMb(p.layers - k, Math.max(0, p.moeLayers - k));
        remat = layer.moe > layer.dense && p.moeLayers ? layer.moe : layer.dense;
        recomputeNote = `full/block ${k}: ${k} layer inputs + ${p.layers - k} full layers`;
      } else {
        const chunks = Math.ceil(p.layers / n);
        stored = chunks * ckpt; // one checkpointed input per chunk of n layers (recompute_method=uniform)
        remat = Math.min(n, p.layers) * Math.max(layer.dense, p.moeLayers ? layer.moe : 0);
        recomputeNote = `full/uniform ${n}: ${chunks} chunk inputs`;
      }
    } else {
      const off = c.pp === 1 ? Math.min(c.offloadLayers, p.layers) : 0;
      // CPU offload keeps (L − n) layers on the GPU (TransformerEngine CPU offloading docs).
      stored = perMb(p.layers - off, Math.max(0, p.moeLayers - off));
      if (off) recomputeNote = `${off} layers offloaded to CPU`;
    }
    let activations = stored * inflight;
    const act: BreakdownLine[] = [
      {
        label: `transformer layers (${p.layers} layers × ${+inflight.toFixed(3)} micro-batch${inflight === 1 ? '' : 'es'} in flight${recomputeNote ? `; ${recomputeNote}` : ''})`,
        category: 'activations',
        bytes: activations,
        formula: `per layer ${fmtGiB(layer.dense)} (dense)${p.moeLayers ? ` / ${fmtGiB(layer.moe)} (MoE)` : ''} at s = ${s}, b = ${b}`,
        source: c.profile === 'hf' ? 'hf-activations.md (measured inventory)' : 'memory.md §2.4 inventory; Korthikanti et al. 2022 Table 2',
      },
    ];
    if (p.stage === 0) {
      const ids = 8 * s * b * inflight; // int64 token ids kept by the embedding backward (Megatron: 8·s·b·PP)
      const drop = c.hiddenDropout > 0 ? s * b * m.hidden * (c.sp ? 1 / c.tp : 1) * inflight : 0;
      activations += ids + drop;
      act.push({
        label: 'embedding (token ids, dropout mask)',
        category: 'activations',
        bytes: ids + drop,
        formula: '8·s·b (+ sbh mask with dropout) per micro-batch',
        source: 'Megatron theoretical_memory_usage.py',
      });
    }
    let transient = 0;
    const trans: BreakdownLine[] = [];
    if (p.stage === c.pp - 1) {
      const logits = (4 * s * b * V) / c.tp; // fp32 softmax of the vocab-parallel cross entropy
      const head = 2 * s * b * m.hidden * (c.sp ? 1 / c.tp : 1) * 2; // final norm input + output-layer input
      activations += logits + head;
      act.push({
        label: 'output layer and loss (fp32 logits)',
        category: 'activations',
        bytes: logits + head,
        formula: '4·s·b·V/t + 2·2·sbh',
        source: 'Megatron theoretical_memory_usage.py (4·sbh·(1 + V/h)/t)',
      });
      const grad = (4 * s * b * V) / c.tp;
      transient += grad;
      trans.push({
        label: 'logits gradient (fp32)',
        category: 'transient',
        bytes: grad,
        formula: '4·s·b·V/t during the loss backward',
        source: 'memory.md §7',
      });
    }
    if (remat) {
      transient += remat;
      trans.push({
        label: 'recompute: layers rematerialised in backward',
        category: 'transient',
        bytes: remat,
        formula: 'one recompute chunk of full per-layer activations',
        source: 'Megatron recompute_method docs; memory.md §2.4',
      });
    }
    if (c.cp > 1 && c.profile === 'megatron') {
      const kv = 2 * c.seq * b * Math.ceil(m.kvHeads / c.tp) * m.headDim * 2; // full-sequence K and V of the local heads
      transient += kv;
      trans.push({
        label: 'CP ring: K/V receive buffers (one layer)',
        category: 'transient',
        bytes: kv,
        formula: '2·s·b·⌈g/t⌉·d·2 B (p2p keeps every step until attention returns)',
        source: 'TransformerEngine context_parallel p2p; memory.md §2.5',
      });
    }
    const modelled = st.weights + st.gradients + st.optimizer + activations + transient;
    const ov = trainingOverheads(c, modelled);
    const overhead = ov.reduce((a, o) => a + o.bytes, 0);
    const pc = (x: number) => x;
    stages.push({
      stage: p.stage,
      layers: p.layers,
      weights: st.weights,
      gradients: st.gradients,
      optimizer: st.optimizer,
      activations,
      transient,
      overhead,
      total: pc(modelled + overhead),
    });
    const bpp = st.bytesPerParam;
    lines.push([
      {
        label: `weights (${fmtCount(p.dense + p.experts)} parameters)`,
        category: 'weights',
        bytes: st.weights - st.quantizedCopies,
        formula: `${bpp.weights} B/param`,
        source: 'Megatron dist_optimizer docs',
      },
      ...(st.quantizedCopies
        ? [
            {
              label: 'low-precision weight copies',
              category: 'weights' as const,
              bytes: st.quantizedCopies,
              formula: 'rowwise + columnwise quantized copies of GEMM weights',
              source: 'TransformerEngine docs; memory.md §1.2',
            },
          ]
        : []),
      {
        label: 'gradients',
        category: 'gradients',
        bytes: st.gradients,
        formula: `${bpp.gradients} B/param${c.gradReduceInFp32 ? ' (fp32 main_grad)' : ''}`,
        source: 'Megatron dist_optimizer docs',
      },
      {
        label: c.distributedOptimizer ? `optimizer (sharded over DP×CP = ${denseShard})` : 'optimizer',
        category: 'optimizer',
        bytes: st.optimizer,
        formula: c.distributedOptimizer ? `${+(bpp.optimizer * denseShard).toFixed(2)}/${denseShard} B/param` : `${bpp.optimizer} B/param`,
        source: 'Megatron dist_optimizer docs; Megatron-Bridge theoretical_memory_utils.py (DP×CP)',
      },
      ...act,
      ...trans,
      ...ov.map((o) => ({ label: o.label, category: 'overhead' as const, bytes: o.bytes, formula: o.formula, source: o.source })),
    ]);
  }
  let worst = 0;
  stages.forEach((st, i) => {
    if (st.total > stages[worst]!.total) worst = i;
  });
  const w = stages[worst]!;
  const p = params[worst]!;
  return {
    model: { name: m.name, paramsPerGpu: p.dense + p.experts, paddedVocab: V },
    gpu: { name: gpu.name, bytes: gpu.bytes },
    parallel: { tp: c.tp, pp: c.pp, vpp: c.vpp, cp: c.cp, ep: c.ep, dp: dp ?? null, worldSize: c.worldSize ?? null, sp: c.sp },
    perGpu: {
      weights: w.weights,
      gradients: w.gradients,
      optimizer: w.optimizer,
      activations: w.activations,
      transient: w.transient,
      overhead: w.overhead,
      total: w.total,
    },
    stage: worst,
    stages,
    breakdown: lines[worst]!,
    layerTerms: layer.terms,
    fit: fitVerdict(w.total, gpu.bytes),
    assumptions,
  };
}

export function fmtGiB(bytes: number): string {
  return `${(bytes / GIB).toFixed(2)} GiB`;
}
function fmtCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  return String(Math.round(n));
}
