// Megatron's rank layout: which global ranks form each TP, CP, DP, PP and EP group, and CP's chunks.
import type { ModelShape } from './memory/types.js';
import type { Recipe } from './recipe.js';

/** Megatron's default order and the one `use_tp_pp_dp_mapping` selects (megatron/training/initialize.py). */
export type RankOrder = 'tp-cp-ep-dp-pp' | 'tp-cp-ep-pp-dp';
export const RANK_ORDERS: readonly RankOrder[] = ['tp-cp-ep-dp-pp', 'tp-cp-ep-pp-dp'];

export type LayoutDim = 'tp' | 'cp' | 'dp' | 'pp' | 'ep';
export const LAYOUT_DIMS: readonly LayoutDim[] = ['tp', 'cp', 'dp', 'pp', 'ep'];

export interface LayoutInput {
  tp: number;
  cp: number;
  ep: number;
  dp: number;
  pp: number;
  /** Expert tensor parallelism; Megatron defaults it to TP. */
  etp?: number;
  order?: RankOrder;
}

export interface RankLayout {
  worldSize: number;
  order: RankOrder;
  sizes: { tp: number; cp: number; ep: number; dp: number; pp: number };
  /** Global ranks of every group, in Megatron's group order; each list in rank order within the group. */
  groups: Record<LayoutDim, number[][]>;
  /** CP index → the two of the 2·CP sequence chunks it holds. */
  cpChunks: Record<string, [number, number]>;
  /** The expert grid: ETP × EP × expert-DP × PP over the same ranks. */
  expert: { etp: number; edp: number };
}

/**
 * The groups of one dimension of a grid whose dimensions are listed fastest-varying first: Megatron's
 * `generate_masked_orthogonal_rank_groups` with one dimension masked (megatron/core/parallel_state.py).
 * Group g has the ranks that differ only in that coordinate; g enumerates the other coordinates in order.
 */
function dimGroups(sizes: readonly number[], dim: number, world: number): number[][] {
  let stride = 1;
  for (let i = 0; i < dim; i++) stride *= sizes[i]!;
  const n = sizes[dim]!;
  const out: number[][] = [];
  for (let g = 0, count = world / n; g < count; g++) {
    // Coordinates before `dim` fill the low part of g, those after it the high part.
    const base = (g % stride) + Math.floor(g / stride) * stride * n;
    const ranks = [base];
    for (let k = 1; k < n; k++) ranks.push(base + k * stride);
    out.push(ranks);
  }
  return out;
}

/** Causal load balancing: with 2·CP chunks, CP rank i holds chunks i and 2·CP−1−i (megatron/core/utils.py get_batch_on_this_cp_rank). */
export function cpChunkPair(cpRank: number, cp: number): [number, number] {
  return [cpRank, 2 * cp - 1 - cpRank];
}

const positiveInt = (n: number) => Number.isInteger(n) && n >= 1;

/**
 * Megatron's `RankGenerator` groups for a decoder grid (ep = 1 there) and the expert grid
 * (cp = 1, tp = ETP, dp = world / (ETP·EP·PP)), both with the same order string — parallel_state.py
 * `initialize_model_parallel`. Throws a RangeError where Megatron would refuse the sizes.
 */
/** The largest world size a layout is built for. */
export const MAX_RANKS = 1 << 20;

export function rankLayout(input: LayoutInput): RankLayout {
  const { tp, cp, ep, dp, pp } = input;
  const etp = input.etp ?? tp;
  const order = input.order ?? 'tp-cp-ep-dp-pp';
  for (const [k, v] of Object.entries({ tp, cp, ep, dp, pp, etp }))
    if (!positiveInt(v)) throw new RangeError(`${k} must be a positive integer, got ${v}`);
  if (!RANK_ORDERS.includes(order)) throw new RangeError(`unknown rank order ${order}`);
  const world = tp * cp * dp * pp;
  // A layout lists every rank: past MAX_RANKS (a million GPUs) a typo such as PP 63479766 would exhaust memory.
  if (world > MAX_RANKS) throw new RangeError(`world size ${world} is over ${MAX_RANKS.toLocaleString('en-US')} ranks; no layout is drawn`);
  // Expert grid: world must divide by ETP·EP·PP — parallel_state.py initialize_model_parallel.
  if (world % (etp * ep * pp) !== 0)
    throw new RangeError(`world size ${world} is not divisible by ETP·EP·PP = ${etp}·${ep}·${pp} = ${etp * ep * pp}`);
  const edp = world / (etp * ep * pp);
  const ppLast = order === 'tp-cp-ep-dp-pp';
  // Megatron asserts both grids agree on PP groups; with PP before DP that needs ETP·EP = TP·CP (parallel_state.py).
  if (!ppLast && pp > 1 && etp * ep !== tp * cp)
    throw new RangeError(
      `with use_tp_pp_dp_mapping and PP > 1, Megatron needs ETP·EP = TP·CP (here ${etp}·${ep} vs ${tp}·${cp}) so attention and MoE layers share PP groups`,
    );
  // Decoder grid, fastest first: tp, cp, (ep = 1), then dp and pp in the order's sequence.
  const dense = ppLast ? [tp, cp, dp, pp] : [tp, cp, pp, dp];
  const dIdx = ppLast ? { dp: 2, pp: 3 } : { dp: 3, pp: 2 };
  // Expert grid: etp, (cp = 1), ep, then expert-DP and pp.
  const moe = ppLast ? [etp, ep, edp, pp] : [etp, ep, pp, edp];
  const cpChunks: Record<string, [number, number]> = {};
  for (let i = 0; i < cp; i++) cpChunks[String(i)] = cpChunkPair(i, cp);
  return {
    worldSize: world,
    order,
    sizes: { tp, cp, ep, dp, pp },
    groups: {
      tp: dimGroups(dense, 0, world),
      cp: dimGroups(dense, 1, world),
      dp: dimGroups(dense, dIdx.dp, world),
      pp: dimGroups(dense, dIdx.pp, world),
      ep: dimGroups(moe, 1, world),
    },
    cpChunks,
    expert: { etp, edp },
  };
}

/** Node index of every rank when ranks fill nodes in order, `devicesPerNode` at a time (torchrun / SLURM). */
export function nodesOf(world: number, devicesPerNode: number): number[] {
  if (!positiveInt(world) || !positiveInt(devicesPerNode))
    throw new RangeError('world size and devices per node must be positive integers');
  const out: number[] = new Array(world);
  for (let r = 0; r < world; r++) out[r] = Math.floor(r / devicesPerNode);
  return out;
}

export interface KvExchange {
  /** K and V bytes one rank sends to its ring neighbour per CP step. */
  bytes: number;
  /** The same with one KV head per query head (MHA), for comparison. */
  mhaBytes: number;
  /** mhaBytes / bytes: how much GQA/MQA shrinks the exchange. */
  shrink: number;
}

/**
 * Ring attention passes each rank's K and V block (its s/CP tokens, its TP share of the KV heads) to the
 * next CP rank every step: 2 · (s/CP) · b · ⌈g/TP⌉ · d · bytes (Transformer Engine AttnFuncWithCPAndKVP2P).
 */
export function kvExchangePerCpStep(
  shape: Pick<ModelShape, 'kvHeads' | 'headDim' | 'heads'>,
  seq: number,
  microBatch: number,
  tp: number,
  cp: number,
  bytesPerElement = 2,
): KvExchange {
  const per = (heads: number) => 2 * (seq / cp) * microBatch * Math.ceil(heads / tp) * shape.headDim * bytesPerElement;
  const bytes = per(shape.kvHeads);
  const mhaBytes = per(shape.heads);
  return { bytes, mhaBytes, shrink: bytes > 0 ? mhaBytes / bytes : 1 };
}

export type LayoutResult =
  | { layout: RankLayout; reason?: undefined; defaulted: string[] }
  /** `world`: no world size; `unknown`: an unresolved size or not a training file; `invalid`: the sizes cannot work. */
  | { layout: undefined; reason: string; kind: 'world' | 'unknown' | 'invalid' };

/** The rank layout a training recipe asks for: sizes from the file, world from trainer.devices × num_nodes or the option. */
export function layoutFromRecipe(recipe: Recipe | undefined, opts: { worldSize?: number } = {}): LayoutResult {
  if (recipe?.kind !== 'training')
    return {
      layout: undefined,
      kind: 'unknown',
      reason: `no training rank layout for ${recipe ? `a ${recipe.format} file` : 'this file'}`,
    };
  const v = recipe.values;
  // A Bridge override leaves out what its recipe sets: those sizes are shown as 1 and listed as defaulted.
  const size = (x: unknown) => (recipe.family === 'bridge' && x === undefined ? 1 : x);
  const sizes = { tp: size(v.tp), pp: size(v.pp), cp: size(v.cp), ep: size(v.ep) };
  for (const [k, x] of Object.entries(sizes))
    if (typeof x !== 'number' || x < 1)
      return {
        layout: undefined,
        kind: typeof x !== 'number' ? 'unknown' : 'invalid',
        reason: `the ${k.toUpperCase()} size is ${typeof x !== 'number' ? 'not an integer the file resolves' : `${x}, not a positive integer`}`,
      };
  const { tp, pp, cp, ep } = sizes as Record<keyof typeof sizes, number>;
  const etp = v.etp === undefined && recipe.family === 'bridge' ? tp : v.etp;
  if (typeof etp !== 'number' || etp < 1)
    return {
      layout: undefined,
      kind: typeof etp !== 'number' ? 'unknown' : 'invalid',
      reason: `the ETP size is ${typeof etp !== 'number' ? 'not an integer the file resolves' : `${etp}, not a positive integer`}`,
    };
  const ws = recipe.world?.source === 'setting' && opts.worldSize ? opts.worldSize : (recipe.world?.size ?? opts.worldSize);
  if (!ws)
    return {
      layout: undefined,
      kind: 'world',
      reason: 'world size unknown: the file states no GPU count (trainer.devices × trainer.num_nodes)',
    };
  // DP = world / (TP·PP·CP) — Megatron parallel_state.py initialize_model_parallel.
  if (ws % (tp * pp * cp) !== 0)
    return {
      layout: undefined,
      kind: 'invalid',
      reason: `world size ${ws} is not divisible by TP·PP·CP = ${tp}·${pp}·${cp} = ${tp * pp * cp}`,
    };
  const order: RankOrder = v.useTpPpDpMapping === true ? 'tp-cp-ep-pp-dp' : 'tp-cp-ep-dp-pp';
  try {
    const layout = rankLayout({ tp, cp, ep, pp, etp, dp: ws / (tp * pp * cp), order });
    const defaulted = (['tp', 'pp', 'cp', 'ep'] as const).filter((k) => !(k in recipe.loc));
    return { layout, defaulted };
  } catch (e) {
    return { layout: undefined, kind: 'invalid', reason: (e as Error).message };
  }
}

/** A group as text: every rank when short, else its ends and stride (every group is an arithmetic run). */
function groupText(g: readonly number[]): string {
  if (g.length <= 8) return `[${g.join(', ')}]`;
  return `[${g.slice(0, 3).join(', ')}, …, ${g[g.length - 1]}] (${g.length} ranks, stride ${g[1]! - g[0]!})`;
}

const NAMES: Record<LayoutDim, string> = { tp: 'TP', cp: 'CP', dp: 'DP', pp: 'PP', ep: 'EP' };

/** Human-readable layout: sizes, the groups of rank 0, then each dimension's groups (at most `cap` each). */
export function layoutText(l: RankLayout, cap = 64): string {
  const { tp, cp, ep, dp, pp } = l.sizes;
  const lines = [
    `world ${l.worldSize} = TP ${tp} × CP ${cp} × PP ${pp} × DP ${dp}; EP ${ep} (expert grid ETP ${l.expert.etp} × EP ${ep} × expert-DP ${l.expert.edp} × PP ${pp}); order ${l.order}`,
  ];
  lines.push(`rank 0: ${LAYOUT_DIMS.map((d) => `${NAMES[d]} ${groupText(l.groups[d][0] ?? [])}`).join('  ')}`);
  for (const d of LAYOUT_DIMS) {
    const gs = l.groups[d];
    lines.push(`${NAMES[d]}: ${gs.length} groups of ${gs[0]?.length ?? 0}`);
    for (const g of gs.slice(0, cap)) lines.push(`  ${groupText(g)}`);
    if (gs.length > cap) lines.push(`  … ${gs.length - cap} more`);
  }
  if (cp > 1)
    lines.push(
      `CP chunks (sequence in ${2 * cp}): ${Object.entries(l.cpChunks)
        .map(([i, [a, b]]) => `cp${i} → ${a},${b}`)
        .join('  ')}`,
    );
  return lines.join('\n');
}
