// Megatron-Bridge performance configs (scripts/performance/configs/<family>/<model>_llm_pretrain.yaml): a ConfigContainer
// override plus `perf_matrix.<gpu>.num_gpus_<N>`, each with `common` settings and per-precision blocks (`bf16`, `fp8_cs`,
// …) that the launcher deep-merges over `common` for the run it starts (scripts/performance/utils/helpers.py
// apply_perf_matrix_overrides, utils/common.py get_perf_matrix_overrides). One file, several runs.
import type { PrecisionId } from '../memory/precision.js';
import { childNode as child, isMapNode, type MapNode, type TreeNode } from '../tree.js';
import type { KeyPath } from '../types.js';
import { BRIDGE_PRECISION_RECIPES } from './bridge.js';
import type { TrainingValues } from './fields.js';

export interface PerfMatrixRun {
  /** The GPU key as written (`h100`, `b200`, `gb200`: the launcher's --gpu). */
  gpu: string;
  /** The `num_gpus_<N>` key's N (the launcher's --num_gpus). */
  numGpus: number;
  /** The precision block (`bf16`, `fp8_cs`, …: --compute_dtype and --fp8_recipe). */
  precision: string;
  /** The run's settings as training fields. */
  values: TrainingValues;
  /** Where the run's `num_gpus_<N>` block is. */
  path: KeyPath;
}

/** The precision blocks by name: get_precision_config (helpers.py) picks the mixed-precision recipe of each. */
export const PERF_PRECISIONS: Record<string, PrecisionId> = {
  bf16: 'bf16',
  fp8_ds: 'fp8-delayed',
  fp8_cs: 'fp8-tensorwise',
  fp8_mx: 'fp8-mxfp8',
  fp8_ss: 'fp8-blockwise',
  fp8_sc: 'fp8-blockwise',
  nvfp4: 'nvfp4',
};

const NUM_GPUS = /^num_gpus_(\d+)$/;

const mapping = (n: TreeNode | undefined): MapNode | undefined => (isMapNode(n) ? n : undefined);

function scalars(n: TreeNode | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const m = mapping(n);
  if (!m) return out;
  for (const e of m.entries) if (e.value.kind === 'scalar') out[e.key] = e.value.value;
  return out;
}

const int = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x >= 1 ? x : undefined);

/** A run's merged settings as the launcher applies them (apply_perf_matrix_overrides and its set_*_overrides). */
function runValues(p: Record<string, unknown>, precision: string): TrainingValues {
  const v: Record<string, unknown> = {};
  if (int(p.seq_length)) v.seq = p.seq_length;
  if (int(p.mbs)) v.mbs = p.mbs;
  if (int(p.gbs)) v.gbs = p.gbs;
  // Parallel sizes: absent means 1 (etp and vp: None); sequence parallelism follows TP > 1.
  const tp = int(p.tp) ?? 1;
  v.tp = tp;
  v.pp = int(p.pp) ?? 1;
  if (int(p.vp)) v.vpp = p.vp;
  v.cp = int(p.cp) ?? 1;
  v.ep = int(p.ep) ?? 1;
  if (int(p.etp)) v.etp = p.etp;
  v.sp = tp > 1;
  const id = PERF_PRECISIONS[precision];
  if (id && BRIDGE_PRECISION_RECIPES[id]) v.mixedPrecision = BRIDGE_PRECISION_RECIPES[id];
  // fp8 current scaling: "Disable BF16 Transformer layers in the performance config" (get_precision_config).
  if (precision === 'fp8_cs') v.bf16Layers = false;
  // set_megatron_fsdp_overrides: Megatron FSDP sharding parameters, gradients and optimizer states.
  if (p.use_megatron_fsdp === true) {
    v.megatronFsdp = true;
    v.fsdpSharding = 'optim_grads_params';
    v.gradAccFusion = true;
  }
  // set_cuda_graph_overrides: model.enable_cuda_graph.
  if (typeof p.cuda_graphs === 'boolean') v.enableCudaGraph = p.cuda_graphs;
  // set_recompute_overrides: full block recompute of recompute_num_layers.
  if (int(p.recompute_num_layers)) {
    v.recomputeGranularity = 'full';
    v.recomputeMethod = 'block';
    v.recomputeLayers = p.recompute_num_layers;
  }
  if (int(p.cpu_offloading_num_layers)) {
    v.cpuOffloading = true;
    v.offloadLayers = p.cpu_offloading_num_layers;
  }
  return v as TrainingValues;
}

/** Every run of the file's perf_matrix, in file order; [] when it has none. */
export function perfMatrixRuns(root: TreeNode | undefined): PerfMatrixRun[] {
  const matrix = mapping(child(root, 'perf_matrix'));
  if (!matrix) return [];
  const runs: PerfMatrixRun[] = [];
  for (const g of matrix.entries) {
    const byCount = mapping(g.value);
    if (!byCount) continue;
    for (const c of byCount.entries) {
      const n = NUM_GPUS.exec(c.key);
      const block = mapping(c.value);
      if (!n || !block) continue;
      const common = scalars(child(block, 'common'));
      for (const d of block.entries) {
        if (d.key === 'common') continue;
        // A precision block is a mapping of overrides or empty (null: `common` alone).
        if (d.value.kind !== 'map' && !(d.value.kind === 'scalar' && d.value.value === null)) continue;
        runs.push({
          gpu: g.key,
          numGpus: Number(n[1]),
          precision: d.key,
          values: runValues({ ...common, ...scalars(d.value) }, d.key),
          path: ['perf_matrix', g.key, c.key, d.key],
        });
      }
    }
  }
  return runs;
}
