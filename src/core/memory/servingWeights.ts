// The weights one GPU of a TensorRT-LLM server holds, in the format the checkpoint ships, sharded the way the PyTorch
// backend shards them (NVIDIA/TensorRT-LLM tensorrt_llm/mapping.py and _torch/models/modeling_deepseekv3.py):
// - attention projections are split over TP; with enable_attention_dp every rank runs attention with TP 1 and holds
//   all of them;
// - dense MLPs and shared experts are split over TP, and replicated under attention DP (modeling_deepseekv3.py
//   `_compute_mlp_tp_size`: "If using attention DP, the MLP also uses DP instead of TP");
// - routed experts are split over moe_ep × moe_tp = TP (Mapping: moe_tp_size · moe_ep_size = tp_size); an EPLB with more
//   slots than experts (moe_config.load_balancer.num_slots) stores slots / EP experts per rank (examples/wide_ep/README.md);
// - the embedding and LM head are vocab-parallel over TP, replicated under attention DP (the LM head is split again with
//   enable_lm_head_tp_in_adp, llm_args.py);
// - with context parallelism in the generation servers (Helix), the CP ranks are re-purposed as TP ranks for the
//   attention output and the FFN (TensorRT-LLM tests/microbenchmarks README for test_mla_helix): FFN, experts, the
//   output projection and the LM head split over TP·CP, the other attention projections over TP only;
// - PP gives each rank its layers (mapping.pp_layers: the first L mod PP ranks one more); rank 0 holds the embedding,
//   the last rank the final norm, the LM head and any MTP layers; the most loaded rank is reported;
// - norms, routers and biases are replicated and stay 16-bit.
import { parentCategoryQuantized, quantBytes, type QuantBytes } from './weightFormat.js';
import { countKinds, LAYER_KINDS, layerGroups, mtpGroups, mtpWeightCopies, normParams, type ParamGroup } from './params.js';
import { ppLayers } from './kvcache.js';
import type { WeightFormat } from '../models/types.js';
import type { ModelShape } from './types.js';

export interface ServingParallel {
  tp: number;
  pp: number;
  /** Context parallelism of the role (Helix in generation servers). */
  cp: number;
  attentionDp: boolean;
  /** enable_lm_head_tp_in_adp. */
  lmHeadTpInAdp: boolean;
  /** moe_config.load_balancer.num_slots (EPLB); default the expert count. */
  expertSlots?: number;
  /** MTP layers loaded for speculative decoding (on the last PP rank). */
  mtpLayers: number;
}

export interface WeightLine {
  /** What the line holds: attention, dense MLP, routed experts, … */
  part: string;
  /** Parameters of the part on this GPU (after sharding). */
  params: number;
  /** Storage of the part: `FP8 (128×128 blocks)`, `BF16`, … */
  storage: string;
  /** Bytes per parameter, scale factors included. */
  bytesPerParam: number;
  /** How many ways the part is split: `TP 8`, `replicated (attention DP)`. */
  split: string;
  bytes: number;
}

export interface ServingWeights {
  bytes: number;
  /** The PP rank reported (the one with the most bytes). */
  ppRank: number;
  lines: WeightLine[];
}

type Part =
  | 'embedding'
  | 'per-layer embeddings'
  | 'lm head'
  | 'attention'
  | 'dense MLP'
  | 'shared experts'
  | 'routed experts'
  | 'Mamba'
  | 'MTP'
  | 'norms, routers, biases';
/** Report order: from the input to the output of the model. */
const PART_ORDER: readonly Part[] = [
  'embedding',
  'per-layer embeddings',
  'attention',
  'Mamba',
  'dense MLP',
  'shared experts',
  'routed experts',
  'MTP',
  'lm head',
  'norms, routers, biases',
];

/** How many ways a group of a decoder layer is split on one GPU, and how the split is described. */
function split(group: ParamGroup, p: ServingParallel, part: Part): { ways: number; text: string } {
  if (group.shard === 'rep') return { ways: 1, text: 'replicated' };
  const tpcp = p.tp * p.cp;
  if (part === 'routed experts') return { ways: tpcp, text: `EP × MoE-TP = ${tpcp}` };
  if (part === 'attention') {
    if (p.attentionDp) return { ways: 1, text: 'replicated (attention DP)' };
    const outProj = /output projection|output bias/.test(group.name);
    const ways = outProj ? tpcp : p.tp;
    return { ways, text: `${outProj && p.cp > 1 ? 'TP·CP' : 'TP'} ${ways}` };
  }
  if (p.attentionDp && (part === 'dense MLP' || part === 'shared experts' || part === 'Mamba'))
    return { ways: 1, text: 'replicated (attention DP)' };
  return { ways: tpcp, text: `${p.cp > 1 ? 'TP·CP' : 'TP'} ${tpcp}` };
}

function partOf(group: ParamGroup): Part {
  switch (group.category) {
    case 'attention':
      return 'attention';
    case 'mlp':
      return 'dense MLP';
    case 'shared-experts':
      return 'shared experts';
    case 'experts':
      return 'routed experts';
    case 'mamba':
      return 'Mamba';
    case 'per-layer-embedding':
      return 'per-layer embeddings'; // Gemma 4 E2B/E4B embed_tokens_per_layer and its projection (modeling_gemma4.py)
    default:
      return 'norms, routers, biases';
  }
}

/** The bytes of every part one GPU of PP rank `rank` holds. */
function rankWeights(shape: ModelShape, format: WeightFormat, p: ServingParallel, rank: number): ServingWeights {
  const acc = new Map<string, WeightLine>();
  const add = (part: Part, params: number, q: QuantBytes, text: string) => {
    if (params <= 0) return;
    const key = `${part}\u0000${q.label}\u0000${text}`;
    const line = acc.get(key) ?? { part, params: 0, storage: q.label, bytesPerParam: q.bytes, split: text, bytes: 0 };
    line.params += params;
    line.bytes += params * q.bytes;
    acc.set(key, line);
  };
  const layers = ppLayers(shape.layers, p.pp, rank);
  const kinds = countKinds(shape, layers[0] ?? 0, layers.length);
  const slots = shape.experts > 0 && p.expertSlots && p.expertSlots > shape.experts ? p.expertSlots / shape.experts : 1;
  const groupBytes = (group: ParamGroup, times: number, part: Part) => {
    const s = split(group, p, part);
    const q = quantBytes(format, group.gemm && parentCategoryQuantized(format, part), group.gemm);
    const n = (group.n * times * (part === 'routed experts' ? slots : 1)) / s.ways;
    add(group.gemm || part === 'routed experts' ? part : 'norms, routers, biases', n, q, s.text);
  };
  for (const kind of LAYER_KINDS) {
    if (!kinds[kind]) continue;
    for (const group of layerGroups(shape, kind)) groupBytes(group, kinds[kind], partOf(group));
  }
  const h = shape.hidden;
  const vocabShard = p.attentionDp ? 1 : p.tp * p.cp;
  // Embedding and LM head: the checkpoint's own dtype when every tensor has one, else 16 bits (quantization tools exclude them).
  const other =
    format.scope === 'all'
      ? quantBytes(format, true, true)
      : quantBytes({ ...format, other: format.other === 'fp8' ? 'bf16' : format.other }, false, true);
  if (rank === 0)
    add(
      'embedding',
      (shape.vocab * h) / vocabShard,
      other,
      vocabShard === 1 ? 'replicated (attention DP)' : `vocab-parallel ${vocabShard}`,
    );
  if (rank === p.pp - 1) {
    const headShard = p.attentionDp ? (p.lmHeadTpInAdp ? p.tp : 1) : p.tp * p.cp;
    // Tied embeddings still load one LM head copy on the last stage when PP > 1; with PP 1 the embedding is the head.
    if (!shape.tiedEmbeddings || p.pp > 1)
      add('lm head', (shape.vocab * h) / headShard, other, headShard === 1 ? 'replicated (attention DP)' : `vocab-parallel ${headShard}`);
    add('norms, routers, biases', normParams(shape, h), quantBytes(format, false, false), 'replicated');
    // MTP layers (speculative decoding): an MTP module is excluded from quantization when the checkpoint says so
    // (nvidia/DeepSeek-R1-FP4 excludes `model.layers.61*`; modeling_deepseekv3.py keeps it unquantized).
    if (p.mtpLayers > 0) {
      const excluded = (format.excluded ?? []).some((e) => new RegExp(`layers\\.${shape.layers}\\b|layers\\.${shape.layers}\\*`).test(e));
      const mtpFormat: WeightFormat = excluded ? { ...format, scope: 'all', dtype: format.other === 'fp32' ? 'fp32' : 'bf16' } : format;
      for (const group of mtpGroups(shape)) {
        const s = split(group, p, partOf(group));
        const quantized = group.gemm && parentCategoryQuantized(mtpFormat, partOf(group));
        add(
          'MTP',
          (group.n * mtpWeightCopies(shape, p.mtpLayers) * (group.category === 'experts' ? slots : 1)) / s.ways,
          quantBytes(mtpFormat, quantized, group.gemm),
          s.text,
        );
      }
    }
  }
  const lines = [...acc.values()]
    .map((l) => ({ ...l, params: Math.round(l.params), bytes: Math.ceil(l.bytes) }))
    .sort((a, b) => PART_ORDER.indexOf(a.part as Part) - PART_ORDER.indexOf(b.part as Part));
  return { bytes: lines.reduce((a, l) => a + l.bytes, 0), ppRank: rank, lines };
}

/** Weights per GPU of the most loaded PP rank. */
export function servingWeights(shape: ModelShape, format: WeightFormat, parallel: Partial<ServingParallel> = {}): ServingWeights {
  const p: ServingParallel = {
    tp: parallel.tp ?? 1,
    pp: Math.max(1, Math.min(parallel.pp ?? 1, shape.layers)),
    cp: parallel.cp ?? 1,
    attentionDp: parallel.attentionDp ?? false,
    lmHeadTpInAdp: parallel.lmHeadTpInAdp ?? false,
    mtpLayers: parallel.mtpLayers ?? 0,
    ...(parallel.expertSlots ? { expertSlots: parallel.expertSlots } : {}),
  };
  const first = rankWeights(shape, format, p, 0);
  if (p.pp === 1) return first;
  const last = rankWeights(shape, format, p, p.pp - 1);
  return last.bytes > first.bytes ? last : first;
}
