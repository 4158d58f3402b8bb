// Parallel layout section: the rank grid in Megatron's order (core/layout.ts), nodes as boxes of
// trainer.devices GPUs, the selected rank's TP/CP/DP/PP groups, the CP ring with its 2·CP chunks and the
// KV bytes exchanged per CP step. Large worlds are summarised and paged: at most MAX_CELLS cells at once.
import type { Choice, CpRingVM, LayoutMode, LayoutVM, NodeBox, RankCell, RankRel } from './viewModels.js';
import { kvExchangePerCpStep, layoutFromRecipe, rankLayout, type LayoutDim, type RankLayout, type RankOrder } from '../layout.js';
import type { TrainingConfig } from '../memory/config.js';
import type { ModelShape } from '../memory/types.js';
import type { Recipe } from '../recipe.js';
import { bytes, count, rankList } from './format.js';

/** Never more cells than this in the webview at once. */
export const MAX_CELLS = 256;
export const DEFAULT_DEVICES_PER_NODE = 8;

export interface LayoutSectionInput {
  recipe: Recipe | undefined;
  /** recipeLens.worldSize (files without trainer.devices). */
  settingsWorldSize?: number;
  /** Model shape and the (what-if) configuration, for sizes and the KV exchange; absent when there is no estimate. */
  shape?: ModelShape;
  config?: TrainingConfig;
  /** A world size the user chose; null = the file's. */
  worldSize: number | null;
  mode: LayoutMode;
  /** Page to show; 'rank' = the page holding the selected rank. */
  page: number | 'rank';
  rank: number;
}

interface Indexed {
  layout: RankLayout;
  /** Per dimension: the group index and the position in it of every rank. */
  group: Record<LayoutDim, Int32Array>;
  pos: Record<LayoutDim, Int32Array>;
}

const DIMS: readonly LayoutDim[] = ['tp', 'cp', 'dp', 'pp', 'ep'];
const cache = new Map<string, Indexed>();

/** rankLayout plus per-rank indexes, memoised (a few entries: the file's layout and the what-if one). */
function indexed(input: Parameters<typeof rankLayout>[0]): Indexed {
  const key = JSON.stringify(input);
  const hit = cache.get(key);
  if (hit) return hit;
  const layout = rankLayout(input);
  const n = layout.worldSize;
  const group = {} as Record<LayoutDim, Int32Array>;
  const pos = {} as Record<LayoutDim, Int32Array>;
  for (const d of DIMS) {
    const g = new Int32Array(n);
    const p = new Int32Array(n);
    layout.groups[d].forEach((ranks, gi) => ranks.forEach((r, pi) => ((g[r] = gi), (p[r] = pi))));
    group[d] = g;
    pos[d] = p;
  }
  const out = { layout, group, pos };
  if (cache.size >= 4) cache.delete(cache.keys().next().value!);
  cache.set(key, out);
  return out;
}

function worldChoices(model: number, fileWorld: number | undefined, current: number | undefined): Choice[] {
  const set = new Set<number>();
  for (let k = 1; model * k <= 1 << 16; k *= 2) set.add(model * k);
  if (fileWorld) set.add(fileWorld);
  if (current) set.add(current);
  return [...set].sort((a, b) => a - b).map((w) => ({ value: String(w), label: `${count(w)} GPUs${w === fileWorld ? ' (file)' : ''}` }));
}

const empty = (reason: string, choices: Choice[], fileWorld: number | null, world = 0): LayoutVM => ({
  reason,
  worldSize: world,
  fileWorldSize: fileWorld,
  worldSizeChoices: choices,
  order: '',
  caption: '',
  summary: [],
  view: { mode: 'all', page: 0, pages: 0, caption: '', modes: [] },
  boxes: [],
  selected: null,
  cp: null,
  notes: [],
});

export function layoutSection(input: LayoutSectionInput): LayoutVM | null {
  const { recipe } = input;
  if (recipe?.kind !== 'training') return null;
  const fileRes = layoutFromRecipe(recipe, { worldSize: input.settingsWorldSize });
  const c = input.config;
  const v = recipe.values;
  const size = (x: unknown) => (typeof x === 'number' && x >= 1 ? x : 1);
  const tp = c?.tp ?? size(v.tp);
  const cp = c?.cp ?? size(v.cp);
  const pp = c?.pp ?? size(v.pp);
  const ep = c?.ep ?? size(v.ep);
  const etp = c?.etp ?? (typeof v.etp === 'number' ? v.etp : tp);
  const model = tp * cp * pp;
  const fileWorld = fileRes.layout?.worldSize ?? recipe.world?.size;
  const world = input.worldSize ?? fileWorld;
  const choices = worldChoices(model, fileWorld, world);
  if (!world) choices.unshift({ value: '', label: 'pick a GPU count' });
  if (!world)
    return empty(
      'World size unknown: the file sets no trainer.devices × trainer.num_nodes. Pick a GPU count to draw the grid.',
      choices,
      null,
    );
  if (world % model !== 0)
    return empty(
      `RL-R1: world size ${world} is not divisible by TP·PP·CP = ${tp}·${pp}·${cp} = ${model}; pick another GPU count.`,
      choices,
      fileWorld ?? null,
      world,
    );
  const order: RankOrder = v.useTpPpDpMapping === true ? 'tp-cp-ep-pp-dp' : 'tp-cp-ep-dp-pp';
  let ix: Indexed;
  try {
    ix = indexed({ tp, cp, ep, pp, etp, dp: world / model, order });
  } catch (e) {
    return empty((e as Error).message, choices, fileWorld ?? null, world);
  }
  const L = ix.layout;
  const devices = typeof v.devices === 'number' ? v.devices : undefined;
  const dpn = devices && devices >= 1 ? devices : DEFAULT_DEVICES_PER_NODE;
  const nodes = Math.ceil(world / dpn);
  const notes: string[] = [];
  if (!devices) notes.push(`${DEFAULT_DEVICES_PER_NODE} GPUs per node assumed (the file sets no trainer.devices).`);
  if (tp > dpn || dpn % tp !== 0) notes.push(`TP groups (${tp}) cross node boundaries: tensor-parallel traffic leaves NVLink.`);
  else if (tp * cp > dpn) notes.push(`CP groups span ${Math.ceil((tp * cp) / dpn)} nodes: the CP ring exchanges K/V between nodes.`);
  const defaulted = fileRes.layout ? fileRes.defaulted.filter((d) => d !== 'ep' || (input.shape?.experts ?? 0) > 0) : [];
  if (defaulted.length) notes.push(`Not in the file, Megatron's default 1 used: ${defaulted.map((d) => d.toUpperCase()).join(', ')}.`);
  if (order === 'tp-cp-ep-pp-dp') notes.push('use_tp_pp_dp_mapping: PP varies before DP in the rank order.');

  const rank = input.rank < world ? input.rank : 0;
  const dp = L.sizes.dp;
  // Pages: the whole grid when small, else nodes or one DP replica (TP·CP·PP ranks) at a time.
  const mode: LayoutMode = world <= MAX_CELLS ? 'all' : input.mode === 'all' ? 'node' : input.mode;
  let pageRanks: (p: number) => number[];
  let pages: number;
  let pageOf: (r: number) => number;
  let pageCaption: (p: number) => string;
  if (mode === 'all') {
    pages = 1;
    pageRanks = () => Array.from({ length: world }, (_, r) => r);
    pageOf = () => 0;
    pageCaption = () => `all ${count(world)} ranks`;
  } else if (mode === 'node') {
    const per = dpn <= MAX_CELLS ? Math.floor(MAX_CELLS / dpn) * dpn : MAX_CELLS;
    pages = Math.ceil(world / per);
    pageRanks = (p) => Array.from({ length: Math.min(world, (p + 1) * per) - p * per }, (_, i) => p * per + i);
    pageOf = (r) => Math.floor(r / per);
    pageCaption = (p) => {
      const first = p * per;
      const last = Math.min(world, first + per) - 1;
      return `ranks ${count(first)}–${count(last)} (nodes ${Math.floor(first / dpn)}–${Math.floor(last / dpn)} of ${nodes})`;
    };
  } else {
    const size = world / dp;
    const sub = Math.ceil(size / MAX_CELLS);
    pages = dp * sub;
    const members = (d: number) => L.groups.dp.map((g) => g[d]!).sort((a, b) => a - b);
    pageRanks = (p) => members(Math.floor(p / sub)).slice((p % sub) * MAX_CELLS, ((p % sub) + 1) * MAX_CELLS);
    pageOf = (r) => ix.pos.dp[r]! * sub + Math.floor(members(ix.pos.dp[r]!).indexOf(r) / MAX_CELLS);
    pageCaption = (p) =>
      `the model replica at DP index ${Math.floor(p / sub)} (${count(size)} ranks = TP × CP × PP; ${dp} replicas)${sub > 1 ? `, part ${(p % sub) + 1} of ${sub}` : ''}`;
  }
  const page = input.page === 'rank' ? pageOf(rank) : Math.min(Math.max(0, input.page), pages - 1);

  const coords = (r: number) =>
    `TP ${ix.pos.tp[r]} · CP ${ix.pos.cp[r]} · DP ${ix.pos.dp[r]} · PP ${ix.pos.pp[r]}${ep > 1 ? ` · EP ${ix.pos.ep[r]}` : ''}`;
  const rel = (r: number): RankRel => {
    if (r === rank) return 'self';
    for (const d of ['tp', 'cp', 'dp', 'pp'] as const) if (L.sizes[d] > 1 && ix.group[d][r] === ix.group[d][rank]) return d;
    return '';
  };
  const boxes: NodeBox[] = [];
  for (const r of pageRanks(page)) {
    const node = Math.floor(r / dpn);
    let box = boxes[boxes.length - 1];
    const label = `node ${node}`;
    if (!box || box.label !== label) boxes.push((box = { label, cells: [] }));
    box.cells.push({
      rank: r,
      rel: rel(r),
      ep: ep > 1 && r !== rank && ix.group.ep[r] === ix.group.ep[rank],
      coords: coords(r),
    } satisfies RankCell);
  }
  for (const b of boxes) {
    const first = b.cells[0]!.rank;
    const last = b.cells[b.cells.length - 1]!.rank;
    b.label = `${b.label} · ranks ${first}–${last}`;
  }

  const groupText = (d: LayoutDim) => {
    const g = L.groups[d][ix.group[d][rank]!]!;
    return `${d.toUpperCase()} group ${ix.group[d][rank]}: ${rankList(g)}`;
  };
  const selectedGroups: { dim: string; text: string }[] = (['tp', 'cp', 'dp', 'pp'] as const).map((d) => ({
    dim: d,
    text: L.sizes[d] > 1 ? groupText(d) : `${d.toUpperCase()} 1: no group`,
  }));
  if (ep > 1)
    selectedGroups.push({
      dim: 'ep',
      text: `${groupText('ep')} (expert grid ETP ${L.expert.etp} × EP ${ep} × EDP ${L.expert.edp} × PP ${pp})`,
    });

  const summary = (['tp', 'cp', 'dp', 'pp'] as const).map((d) => ({
    dim: d.toUpperCase(),
    size: L.sizes[d],
    groups: world / L.sizes[d],
    text: L.sizes[d] > 1 ? `${count(world / L.sizes[d])} groups of ${L.sizes[d]}` : 'not split (size 1)',
  }));
  if (ep > 1) summary.push({ dim: 'EP', size: ep, groups: L.groups.ep.length, text: `${count(L.groups.ep.length)} groups of ${ep}` });
  summary.push({ dim: 'nodes', size: dpn, groups: nodes, text: `${count(nodes)} nodes of ${dpn} GPUs` });

  return {
    reason: null,
    worldSize: world,
    fileWorldSize: fileWorld ?? null,
    worldSizeChoices: choices,
    order,
    caption: `TP ${tp} × CP ${cp} × DP ${dp} × PP ${pp}${ep > 1 ? ` (EP ${ep})` : ''} = ${count(world)} GPUs on ${count(nodes)} node${nodes === 1 ? '' : 's'} of ${dpn} · order ${order}`,
    summary,
    view: {
      mode,
      page,
      pages,
      caption: pageCaption(page),
      modes:
        world <= MAX_CELLS
          ? [{ value: 'all', label: 'all ranks' }]
          : [
              { value: 'node', label: 'by node' },
              { value: 'replica', label: 'by DP replica' },
            ],
    },
    boxes,
    selected: { rank, text: `rank ${rank}: ${coords(rank)} · node ${Math.floor(rank / dpn)}, GPU ${rank % dpn}`, groups: selectedGroups },
    cp: cp > 1 ? cpRing(ix, rank, input.shape, input.config) : null,
    notes,
  };
}

function cpRing(ix: Indexed, rank: number, shape: ModelShape | undefined, c: TrainingConfig | undefined): CpRingVM {
  const L = ix.layout;
  const cp = L.sizes.cp;
  const group = L.groups.cp[ix.group.cp[rank]!]!;
  const members = group.map((r, i) => {
    const chunks = L.cpChunks[String(i)]!;
    return { rank: r, cpIndex: i, chunks, self: r === rank, text: `rank ${r} (CP ${i}) holds chunks ${chunks[0]} and ${chunks[1]}` };
  });
  const chunks = Array.from({ length: 2 * cp }, (_, index) => {
    const owner = members.findIndex((m) => m.chunks.includes(index));
    return { index, owner, text: `chunk ${index} → rank ${members[owner]!.rank}` };
  });
  let exchange = 'model shape unknown: no KV exchange estimate';
  let exchangeDetail = '';
  if (shape && c) {
    const x = kvExchangePerCpStep(shape, c.seq, c.microBatch, L.sizes.tp, cp);
    const localKv = Math.ceil(shape.kvHeads / L.sizes.tp);
    exchange = `${bytes(x.bytes)} of K and V per rank per CP step: 2 (K, V) × ${count(c.seq / cp)} tokens × ${localKv} KV head${localKv === 1 ? '' : 's'} per TP rank × ${shape.headDim} × 2 B × micro-batch ${c.microBatch}; ${cp - 1} ring step${cp === 2 ? '' : 's'} per attention forward`;
    exchangeDetail =
      shape.kvHeads < shape.heads
        ? `GQA: ${shape.kvHeads} KV heads for ${shape.heads} query heads, so the ring carries ${+x.shrink.toFixed(2)}× less than MHA would (${bytes(x.mhaBytes)} per step).`
        : 'MHA: one KV head per query head; GQA or MQA would shrink the exchange by heads/groups.';
  }
  return { size: cp, members, chunks, exchange, exchangeDetail };
}
