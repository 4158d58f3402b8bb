// Pipeline parallelism per rank: which layers each (virtual) pipeline chunk holds, and how many forward passes each
// rank keeps in flight, exactly as Megatron-Core schedules them. Sources, NVIDIA/Megatron-LM@d98e8a64:
//   megatron/core/transformer/transformer_block.py get_num_layers_to_build, transformer_layer.py get_transformer_layer_offset
//   megatron/core/transformer/pipeline_parallel_layer_layout.py (pipeline_model_parallel_layout)
//   megatron/core/pipeline_parallel/schedules.py get_pp_rank_microbatches, get_schedule_table,
//   forward_backward_pipelining_without_interleaving / _with_interleaving (the warm-up, 1F1B and cool-down loops).
import type { TrainingConfig } from './config.js';
import { hybridLayers } from './params.js';
import type { ModelShape } from './types.js';

/** One model chunk: the decoder layers [first, first + count) of one virtual stage of one pipeline rank. */
export interface Chunk {
  rank: number;
  vstage: number;
  first: number;
  count: number;
  /** Holds the input embedding (first virtual stage of rank 0). */
  embedding: boolean;
  /** Holds the final norm, output layer and loss (last virtual stage of the last rank). */
  loss: boolean;
  /** Multi-token-prediction layers in this chunk. */
  mtp: number;
}

export interface PipelineLayout {
  pp: number;
  /** Virtual stages per rank (1 = not interleaved). */
  vpp: number;
  /** chunks[rank][vstage]. */
  chunks: Chunk[][];
  /** How the split was decided, for the report. */
  how: string;
  /** Unknowns filled in (Megatron would refuse these configurations; the estimate still answers). */
  assumptions: string[];
}

/** Megatron's layout string ("Ettt|(tt|)*29,m|L"): unroll `(…)*n` and `x*n`, split on `|` (PipelineParallelLayerLayout.parse_str_to_list). */
export function parseLayoutString(layout: string, maxChars = 1_000_000): string[][] | { error: string } {
  let s = layout.replace(/,/g, '');
  for (const re of [/\(([^)]+)\)\*(\d+)/g, /(.)\*(\d+)/g]) {
    let tooLong = false;
    s = s.replace(re, (_all, body: string, n: string) => {
      const times = Number(n);
      if (body.length * times > maxChars) {
        tooLong = true;
        return '';
      }
      return body.repeat(times);
    });
    if (tooLong || s.length > maxChars) return { error: 'the layout unrolls to more than a million layers' };
  }
  const stages = s.split('|').map((st) => [...st]);
  for (const st of stages) for (const ch of st) if (!'ELtm'.includes(ch)) return { error: `unknown layer character "${ch}" (E, L, t, m)` };
  return stages;
}

/** Split `total` items into `parts` as evenly as possible, the remainder to the first parts. */
function evenSplit(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  const extra = total - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/** The chunks of a model on a pipeline (PP ranks × VPP virtual stages), with their layers, embedding, loss and MTP layers. */
export function pipelineLayout(m: ModelShape, c: TrainingConfig): PipelineLayout {
  const pp = Math.max(1, c.pp);
  const L = m.layers;
  const mtp = m.mtpLayers ?? 0;
  const assumptions: string[] = [];
  const make = (counts: number[][], how: string, embChunk = true, lossChunk = true, mtpAt?: [number, number]): PipelineLayout => {
    const vpp = counts[0]!.length;
    const chunks: Chunk[][] = counts.map((row, rank) =>
      row.map((count, vstage) => ({
        rank,
        vstage,
        first: 0,
        count,
        embedding: embChunk && rank === 0 && vstage === 0,
        loss: lossChunk && rank === pp - 1 && vstage === vpp - 1,
        mtp: 0,
      })),
    );
    // Layer ids follow the virtual stage first, then the rank (get_transformer_layer_offset).
    let next = 0;
    for (let v = 0; v < vpp; v++)
      for (let r = 0; r < pp; r++) {
        chunks[r]![v]!.first = next;
        next += chunks[r]![v]!.count;
      }
    const [mr, mv] = mtpAt ?? [pp - 1, vpp - 1];
    chunks[mr]![mv]!.mtp = mtp;
    return { pp, vpp, chunks, how, assumptions };
  };

  // 1. pipeline_model_parallel_layout: every stage listed (E embedding, t decoder, m MTP, L loss), virtual-stage major.
  if (c.pipelineLayout) {
    const parsed = parseLayoutString(c.pipelineLayout);
    const stages = Array.isArray(parsed) ? parsed : [];
    const bad = !Array.isArray(parsed)
      ? (parsed as { error: string }).error
      : stages.length % pp
        ? `${stages.length} stages are not a multiple of PP ${pp}`
        : stages.flat().filter((x) => x === 't').length !== L
          ? `the layout lists ${stages.flat().filter((x) => x === 't').length} decoder layers, the model has ${L}`
          : '';
    if (!bad) {
      const vpp = stages.length / pp;
      const at = (r: number, v: number) => stages[v * pp + r]!;
      const counts = Array.from({ length: pp }, (_, r) => Array.from({ length: vpp }, (_, v) => at(r, v).filter((x) => x === 't').length));
      const out = make(counts, `pipeline_model_parallel_layout ${c.pipelineLayout}`, false, false);
      for (let r = 0; r < pp; r++)
        for (let v = 0; v < vpp; v++) {
          const st = at(r, v);
          const ch = out.chunks[r]![v]!;
          ch.embedding = st.includes('E');
          ch.loss = st.includes('L');
          ch.mtp = st.filter((x) => x === 'm').length;
        }
      return out;
    }
    assumptions.push(`pipeline_model_parallel_layout ignored: ${bad}`);
  }

  // 2. A hybrid pattern with pipe separators: each segment is one (virtual) stage (Megatron arguments.py, hybrid_layer_pattern).
  if (m.hybridPattern?.includes('|')) {
    const segs = (m.hybridPattern.split('/')[0] ?? '').split('|').map((x) => x.replace(/\s/g, '').length);
    if (segs.length % pp === 0) {
      const vpp = segs.length / pp;
      const counts = Array.from({ length: pp }, (_, r) => Array.from({ length: vpp }, (_, v) => segs[v * pp + r]!));
      return make(counts, `hybrid pattern segments (${segs.length} = PP ${pp} × VPP ${vpp})`);
    }
    assumptions.push(`hybrid pattern has ${segs.length} pipeline segments, not a multiple of PP ${pp}; layers split evenly`);
  }

  let vpp = c.vpp && c.vpp > 1 && pp > 1 ? c.vpp : 1;
  if (pp * vpp > 16_384) {
    assumptions.push(`VPP ${vpp} ignored: ${pp * vpp} model chunks`);
    vpp = 1;
  }
  const layers = m.hybridPattern ? hybridLayers(m.hybridPattern).length || L : L;

  // 3. Uneven first / last stage (num_layers_in_first/last_pipeline_stage, formerly decoder_first/last_pipeline_num_layers).
  const valid = (x: number | undefined) => x === undefined || (Number.isSafeInteger(x) && x >= 0 && x <= layers);
  const first = c.layersInFirstStage;
  const last = c.layersInLastStage;
  if (!valid(first) || !valid(last)) assumptions.push(`uneven pipeline split ignored: first ${first}, last ${last} layers`);
  else if ((first !== undefined || last !== undefined) && pp > 1) {
    const fixed = (first !== undefined ? 1 : 0) + (last !== undefined ? 1 : 0);
    const middle = layers - (first ?? 0) - (last ?? 0);
    const middleRanks = pp - fixed;
    if (middle >= 0 && (middleRanks > 0 ? middle % middleRanks === 0 : middle === 0)) {
      const per = middleRanks > 0 ? middle / middleRanks : 0;
      const rankLayers = Array.from({ length: pp }, (_, r) =>
        r === 0 && first !== undefined ? first : r === pp - 1 && last !== undefined ? last : per,
      );
      const counts = rankLayers.map((n) => {
        if (n % vpp) assumptions.push(`${n} layers on a rank do not divide by VPP ${vpp}; split as evenly as possible`);
        return evenSplit(n, vpp);
      });
      return make(counts, `uneven pipeline: first ${first ?? per}, last ${last ?? per}, others ${per} layers`);
    }
    assumptions.push(`uneven pipeline split ignored: ${middle} middle layers over ${middleRanks} ranks`);
  }

  // 4. Even split; the embedding and the loss may count as one layer each (account_for_embedding/loss_in_pipeline_split).
  const emb = c.embeddingInPipelineSplit ? 1 : 0;
  const loss = c.lossInPipelineSplit ? 1 : 0;
  const slots = layers + emb + loss;
  if (slots % pp) assumptions.push(`${slots} layers do not divide by PP ${pp} (Megatron requires it); the first ranks take one more`);
  const perRank = evenSplit(slots, pp);
  const counts = perRank.map((n) => {
    if (n % vpp) assumptions.push(`${n} layers per rank do not divide by VPP ${vpp} (Megatron requires it); split as evenly as possible`);
    return evenSplit(n, vpp);
  });
  if (emb) counts[0]![0]! -= 1;
  if (loss) counts[pp - 1]![vpp - 1]! -= 1;
  const how =
    pp === 1
      ? 'one stage'
      : `${vpp > 1 ? `${pp} ranks × ${vpp} virtual stages` : `${pp} stages`}${emb || loss ? ' (embedding/loss counted as layers)' : ''}`;
  return make(counts, how);
}

// ---------------------------------------------------------------------------------------------------------------
// In-flight micro-batches

export interface ScheduleInput {
  pp: number;
  vpp: number;
  rank: number;
  /** Micro-batches per step and pipeline (global batch / (micro-batch · DP)). */
  microbatches: number;
  /** microbatch_group_size_per_vp_stage (default PP, ModelParallelConfig.__post_init__). */
  groupSize: number;
  /** overlap_moe_expert_parallel_comm: one more warm-up micro-batch (interleaved schedule). */
  overlapMoeComm: boolean;
}

/** Warm-up forward passes of a rank (get_pp_rank_microbatches; the 1F1B loop of forward_backward_pipelining_without_interleaving). */
export function warmupPasses(s: ScheduleInput): { total: number; warmup: number; allWarmup: boolean } {
  const total = s.microbatches * s.vpp;
  let warmup: number;
  if (s.pp <= 1) warmup = 0;
  else if (s.vpp <= 1) warmup = s.pp - s.rank - 1;
  else {
    // (PP − r − 1)·2 + (VPP − 1)·group, +1 with EP-overlap; capped at M·VPP (then every forward runs first).
    warmup = (s.pp - s.rank - 1) * 2 + (s.vpp - 1) * s.groupSize + (s.overlapMoeComm ? 1 : 0);
  }
  if (warmup >= total) return { total, warmup: total, allWarmup: true };
  return { total, warmup, allWarmup: false };
}

/** Model chunk of the i-th forward pass (get_schedule_table: groups of `groupSize` micro-batches per chunk, chunk-major within a group). */
function forwardChunk(i: number, m: number, vpp: number, group: number): number {
  if (vpp <= 1) return 0;
  const fullGroups = Math.floor(m / group);
  const lastStart = fullGroups * group === m ? (fullGroups - 1) * group : fullGroups * group;
  const beforeLast = (lastStart / group) * group * vpp; // passes in the full groups before the last one
  if (i < beforeLast) return Math.floor((i % (group * vpp)) / group);
  const size = m - lastStart;
  return Math.floor((i - beforeLast) / size);
}

/**
 * Bytes a backward pass leaves behind until the end of the step: defer_embedding_wgrad_compute keeps each micro-batch's
 * output-layer input and logits gradient for the drain (tensor_parallel/layers.py appends to embedding_activation_buffer
 * and grad_output_buffer while fewer than wgrad_deferral_limit are held; utils.py drain_embedding_wgrad_compute).
 */
export interface Retained {
  /** The virtual stage whose backward appends (the one holding the output layer). */
  chunk: number;
  /** Entries one backward appends (the output layer runs once, plus once per MTP layer). */
  perPass: number;
  /** Bytes of one entry. */
  bytes: number;
  /** Most entries held (wgrad_deferral_limit; 0 = no limit). */
  limit: number;
}

export interface SchedulePeak {
  /** Bytes at the peak: activations of the passes in flight plus the transient of the running pass. */
  bytes: number;
  /** Of `bytes`, the activations held by the passes in flight (with `retained`). */
  held: number;
  /** Of `held`, what finished backward passes left behind (Retained): `retainedEntries` entries. */
  retained: number;
  retainedEntries: number;
  /** Of `bytes`, the transient of the running pass. */
  transient: number;
  /** Forward passes (chunk × micro-batch) in flight at the peak. */
  passes: number;
  /** Of them, per virtual stage. */
  perChunk: number[];
  /** The pass running at the peak. */
  at: { phase: 'forward' | 'backward'; chunk: number };
  warmup: number;
  allWarmup: boolean;
}

/**
 * The memory peak of one rank over its schedule. `stored[v]`: bytes one micro-batch's forward of chunk v keeps until its
 * backward; `fwd[v]` / `bwd[v]`: transient bytes while a forward / backward of chunk v runs. Walks the rank's sequence —
 * warm-up forwards, 1F1B steps (forward, then backward), cool-down backwards — in O(M·VPP), with M folded to an equivalent
 * smaller count when it is large (the steady state repeats every group·VPP passes) unless backward passes leave `retained`
 * bytes behind, which grow over the whole step.
 */
export function schedulePeak(s: ScheduleInput, stored: number[], fwd: number[], bwd: number[], retained?: Retained): SchedulePeak {
  const vpp = Math.max(1, s.vpp);
  if (vpp === 1 && !retained) {
    // 1F1B: the last warm-up forward (or the first backward) meets min(PP − r, M) passes in flight.
    const { warmup, allWarmup } = warmupPasses({ ...s, vpp: 1 });
    const passes = s.pp <= 1 ? 1 : Math.max(1, Math.min(s.pp - s.rank, s.microbatches));
    const held = passes * (stored[0] ?? 0);
    const f = fwd[0] ?? 0;
    const b = bwd[0] ?? 0;
    return {
      bytes: held + Math.max(f, b),
      held,
      retained: 0,
      retainedEntries: 0,
      transient: Math.max(f, b),
      passes,
      perChunk: [passes],
      at: { phase: b > f ? 'backward' : 'forward', chunk: 0 },
      warmup,
      allWarmup,
    };
  }
  const group = Math.max(1, Math.min(s.groupSize, s.microbatches));
  let m = Math.max(1, s.microbatches);
  const w0 = warmupPasses({ ...s, microbatches: Number.MAX_SAFE_INTEGER / (vpp + 1), groupSize: group }).warmup;
  const minM = group * (Math.ceil((w0 + 1) / (group * vpp)) + 3);
  // What backward passes leave behind grows over the step: every micro-batch is walked then.
  if (m > minM + 2 * group && !retained) m -= group * Math.floor((m - minM) / group);
  const { total, warmup, allWarmup } = warmupPasses({ ...s, vpp, microbatches: m, groupSize: group });
  const fChunk = (i: number) => forwardChunk(i, m, vpp, group);
  const bChunk = (j: number) => vpp - 1 - forwardChunk(j, m, vpp, group); // backward order: get_model_chunk_id(forward=False)
  // One walk for the peak (held + transient), a second up to that event for the chunks in flight there.
  const coScheduled = s.overlapMoeComm && vpp > 1;
  const walk = (stopAt: number) => {
    const counts = new Array<number>(vpp).fill(0);
    let held = 0;
    let passes = 0;
    let event = 0;
    let entries = 0;
    let best = {
      bytes: -1,
      held: 0,
      entries: 0,
      transient: 0,
      passes: 0,
      event: -1,
      phase: 'forward' as 'forward' | 'backward',
      chunk: 0,
    };
    const consider = (transient: number, phase: 'forward' | 'backward', chunk: number) => {
      if (held + transient > best.bytes) best = { bytes: held + transient, held, entries, transient, passes, event, phase, chunk };
      return event++ === stopAt;
    };
    const forward = (i: number) => {
      const v = fChunk(i);
      counts[v]!++;
      passes++;
      held += stored[v] ?? 0;
      return consider(fwd[v] ?? 0, 'forward', v);
    };
    const backward = (j: number) => {
      const v = bChunk(j);
      if (consider(bwd[v] ?? 0, 'backward', v)) return true;
      counts[v]!--;
      passes--;
      held -= stored[v] ?? 0;
      if (retained && v === retained.chunk) {
        const next = retained.limit > 0 ? Math.min(retained.limit, entries + retained.perPass) : entries + retained.perPass;
        held += (next - entries) * retained.bytes;
        entries = next;
      }
      return false;
    };
    run: {
      for (let i = 0; i < warmup; i++) if (forward(i)) break run;
      // With overlap_moe_expert_parallel_comm the steady-state forward and backward are co-scheduled layer by layer
      // (combined_1f1b.py); the backward's release is taken first, so the extra warm-up pass is the only added one.
      for (let j = 0; j < total - warmup; j++)
        if (coScheduled ? backward(j) || forward(warmup + j) : forward(warmup + j) || backward(j)) break run;
      for (let j = total - warmup; j < total; j++) if (backward(j)) break run;
    }
    return { best, counts };
  };
  const { best } = walk(-1);
  const { counts } = walk(best.event);
  return {
    bytes: best.bytes,
    held: best.held,
    retained: best.entries * (retained?.bytes ?? 0),
    retainedEntries: best.entries,
    transient: best.transient,
    passes: best.passes,
    perChunk: counts,
    at: { phase: best.phase, chunk: best.chunk },
    warmup,
    allWarmup,
  };
}
