// The memory model's parts, each against its source by hand: Megatron's pipeline schedule per rank, the chunk layout,
// the parameter inventory (MLA, Mamba, MTP, biases, positions), the cross-entropy peak, MoE dispatch, LoRA, FSDP, the
// three PyTorch levels and the mixed-precision recipe names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expertTokenFactor, hfKind, hfLayer, lossActivations, megatronKind } from '../../src/core/memory/activations.js';
import type { TrainingConfig } from '../../src/core/memory/config.js';
import { FRAGMENTATION, FRAGMENTATION_EXPANDABLE, GIB } from '../../src/core/memory/overheads.js';
import { countParams, mambaGroups, sumGroups } from '../../src/core/memory/params.js';
import { mixedPrecisionRecipe, mixedPrecisionRecipeNames, withMixedPrecision } from '../../src/core/memory/precision.js';
import { parseLayoutString, pipelineLayout, schedulePeak, warmupPasses } from '../../src/core/memory/schedule.js';
import { estimateTraining } from '../../src/core/memory/training.js';
import type { ModelShape } from '../../src/core/memory/types.js';
import { loraLayerParams, stageParams } from '../../src/core/memory/weights.js';
import { modelShape, NO_RECOMPUTE, trainingConfig } from '../helpers.js';

const H100 = { id: 'h100', name: 'H100', bytes: 85_520_809_984, source: 'test' };
const llama8b = modelShape('llama3-8b');
const base = trainingConfig({
  seq: 8192,
  globalBatch: 256,
  worldSize: 8,
});
const cfg = (p: Partial<TrainingConfig>): TrainingConfig => ({ ...base, ...p });

// ---------------------------------------------------------------------------------------------------------------
// Schedule (megatron/core/pipeline_parallel/schedules.py)

const sched = (pp: number, vpp: number, rank: number, m: number, group = pp, overlap = false) =>
  schedulePeak({ pp, vpp, rank, microbatches: m, groupSize: group, overlapMoeComm: overlap }, Array(vpp).fill(1), [], []);

test('1F1B: rank r keeps min(PP − r, M) micro-batches in flight', () => {
  assert.deepEqual(
    [0, 1, 2, 3].map((r) => sched(4, 1, r, 8).passes),
    [4, 3, 2, 1],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((r) => sched(4, 1, r, 2).passes),
    [2, 2, 2, 1],
  );
  assert.equal(sched(1, 1, 0, 64).passes, 1);
});

test('interleaved: warm-up (PP − r − 1)·2 + (VPP − 1)·group, plus the 1F1B forward, capped at M·VPP', () => {
  // PP 4, VPP 2, M 8: rank 0 warms up 6 + 4 = 10 passes, rank 3 0 + 4 = 4.
  assert.deepEqual(
    [0, 1, 2, 3].map((r) => warmupPasses({ pp: 4, vpp: 2, rank: r, microbatches: 8, groupSize: 4, overlapMoeComm: false }).warmup),
    [10, 8, 6, 4],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((r) => sched(4, 2, r, 8).passes),
    [11, 9, 7, 5],
  );
  // microbatch_group_size_per_vp_stage 8: rank 0 warms up 6 + 8.
  assert.equal(sched(4, 2, 0, 16, 8).passes, 15);
  // overlap_moe_expert_parallel_comm schedules one more warm-up micro-batch.
  assert.equal(warmupPasses({ pp: 4, vpp: 2, rank: 0, microbatches: 8, groupSize: 4, overlapMoeComm: true }).warmup, 11);
});

test('interleaved with M = PP: the ranks whose warm-up reaches M·VPP run every forward first', () => {
  // PP 4, VPP 2, M 4: M·VPP = 8; warm-ups 10, 8, 6, 4 → ranks 0 and 1 run all 8 forwards first.
  const r = [0, 1, 2, 3].map((rank) => sched(4, 2, rank, 4));
  assert.deepEqual(
    r.map((x) => [x.passes, x.allWarmup]),
    [
      [8, true],
      [8, true],
      [7, false],
      [5, false],
    ],
  );
});

test('interleaved: the chunks in flight at rank 0’s peak follow get_schedule_table (groups of PP micro-batches per chunk)', () => {
  // Forwards 0–10 of PP 4, VPP 2: chunk 0 for micro-batches 0–3, chunk 1 for 0–3, chunk 0 for 4–6.
  assert.deepEqual(sched(4, 2, 0, 8).perChunk, [7, 4]);
  // A large M is folded to an equivalent one: same peak.
  assert.deepEqual(sched(4, 2, 0, 1_000_000_000).perChunk, [7, 4]);
});

test('defer_embedding_wgrad_compute: each backward of the output-layer chunk leaves its entries until the drain, up to the limit', () => {
  const walk = (vpp: number, m: number, limit: number, perPass = 1) =>
    schedulePeak(
      { pp: 2, vpp, rank: 1, microbatches: m, groupSize: 2, overlapMoeComm: false },
      Array<number>(vpp).fill(10),
      Array<number>(vpp).fill(0),
      Array<number>(vpp).fill(3),
      { chunk: vpp - 1, perPass, bytes: 100, limit },
    );
  // 1F1B on the last rank: F0 B0 F1 B1 …; the backward of micro-batch i runs beside the i entries left before it.
  // Limit 2 of M 4: the peak is B2's (10 stored + 3 transient + 200 kept).
  assert.deepEqual((({ bytes, held, retained, transient, at }) => ({ bytes, held, retained, transient, at }))(walk(1, 4, 2)), {
    bytes: 213,
    held: 210,
    retained: 200,
    transient: 3,
    at: { phase: 'backward', chunk: 0 },
  });
  // Limit 0 keeps every micro-batch: the last backward meets 3 entries.
  assert.equal(walk(1, 4, 0).bytes, 313);
  // Each MTP layer runs the output layer once more: 2 entries per micro-batch (2, 4, then capped at the limit 5).
  assert.equal(walk(1, 4, 5, 2).retained, 500);
  // Interleaved, many micro-batches: the whole step is walked (no steady-state folding); the cool-down ends with chunk 0's
  // backwards, after the output-layer chunk's last one, so they run beside all 64 entries.
  assert.equal(walk(2, 64, 0).retained, 6400);
  assert.equal(walk(2, 64, 22).retained, 2200);
});

test('rank 0 holds less with a finer VPP, the last rank more (no VPP order between ranks)', () => {
  const layerPasses = (vpp: number, rank: number) => (sched(4, vpp, rank, 64).passes * 32) / (4 * vpp);
  // (PP + (PP − 2r − 1)/VPP)·L/PP: rank 0 → 8·(4 + 3/VPP), rank 3 → 8·(4 − 3/VPP).
  assert.deepEqual(
    [1, 2, 4].map((v) => layerPasses(v, 0)),
    [32, 44, 38],
  );
  assert.deepEqual(
    [2, 4].map((v) => layerPasses(v, 3)),
    [20, 26],
  );
});

// ---------------------------------------------------------------------------------------------------------------
// Chunk layout (transformer_block.py get_num_layers_to_build, transformer_layer.py get_transformer_layer_offset)

const shape30: ModelShape = { ...llama8b, layers: 30 };
const counts = (m: ModelShape, c: TrainingConfig) => pipelineLayout(m, c).chunks.map((row) => row.map((ch) => ch.count));

test('layers per chunk: even split, interleaved offsets, embedding/loss in the split, uneven first/last stage', () => {
  const l = pipelineLayout({ ...llama8b, layers: 80 }, cfg({ pp: 4, vpp: 5 }));
  assert.deepEqual(
    l.chunks[1]!.map((ch) => ch.first),
    [4, 20, 36, 52, 68],
  ); // (v·PP + r)·4
  assert.deepEqual(counts(shape30, cfg({ pp: 4, embeddingInPipelineSplit: true, lossInPipelineSplit: true })), [[7], [8], [8], [7]]);
  assert.deepEqual(counts(shape30, cfg({ pp: 4, layersInFirstStage: 6, layersInLastStage: 6 })), [[6], [9], [9], [6]]);
  assert.deepEqual(counts({ ...llama8b, layers: 32 }, cfg({ pp: 2, vpp: 2, layersInFirstStage: 12 })), [
    [6, 6],
    [10, 10],
  ]);
  const emb = pipelineLayout(shape30, cfg({ pp: 2 })).chunks;
  assert.deepEqual([emb[0]![0]!.embedding, emb[0]![0]!.loss, emb[1]![0]!.loss], [true, false, true]);
});

test('pipeline_model_parallel_layout: stages virtual-stage major, E/L/m placed where the string puts them', () => {
  assert.deepEqual(parseLayoutString('Ettt|(tt|)*2,m|L'), [['E', 't', 't', 't'], ['t', 't'], ['t', 't'], ['m'], ['L']].slice(0, 5));
  const l = pipelineLayout({ ...llama8b, layers: 6, mtpLayers: 0 }, cfg({ pp: 2, pipelineLayout: 'Et|tt|tt|tL' }));
  assert.equal(l.vpp, 2);
  assert.deepEqual(
    l.chunks.map((row) => row.map((ch) => [ch.first, ch.count, ch.embedding, ch.loss])),
    [
      [
        [0, 1, true, false],
        [3, 2, false, false],
      ],
      [
        [1, 2, false, false],
        [5, 1, false, true],
      ],
    ],
  );
  // DeepSeek-V3's 61 layers + MTP: "Ettt|(tt|)*29,m|L" is 32 stages, 61 decoder layers.
  const ds = parseLayoutString('Ettt|(tt|)*29,m|L');
  assert.ok(Array.isArray(ds));
  assert.equal((ds as string[][]).length, 32);
  assert.equal((ds as string[][]).flat().filter((x) => x === 't').length, 61);
  assert.deepEqual(parseLayoutString('t*99999999999'), { error: 'the layout unrolls to more than a million layers' });
});

// ---------------------------------------------------------------------------------------------------------------
// Parameters (params.ts)

test('parameter inventory: LayerNorm has a bias, biases on every linear, learned positions, MTP layers', () => {
  const gpt: ModelShape = {
    ...llama8b,
    name: 'gpt',
    layers: 2,
    hidden: 64,
    ffn: 256,
    heads: 4,
    kvHeads: 4,
    headDim: 16,
    vocab: 1000,
    gatedMlp: false,
    norm: 'layernorm',
    linearBias: true,
    positionEmbedding: 'learned_absolute',
    maxPositionEmbeddings: 128,
  };
  const c = countParams(gpt);
  // per layer: qkv 64·192 + bias 192, o 64·64 + bias 64, fc1 64·256 + 256, fc2 256·64 + 64, 2 LayerNorms 2·128.
  const layer = 64 * 192 + 192 + 64 * 64 + 64 + 64 * 256 + 256 + 256 * 64 + 64 + 2 * 128;
  assert.equal(c.total, 2 * layer + 128 /* final LayerNorm */ + 2 * 1000 * 64 + 128 * 64);
  assert.equal(c.positions, 128 * 64);
  assert.equal(countParams({ ...gpt, norm: 'rmsnorm' }).norms, 2 * 2 * 64 + 64);
  // DeepSeek-V3 README: "685B = 671B of the main model + 14B of the MTP module". Our MTP layer (eh_proj 2h·h, an MoE
  // decoder layer, three norms) is 11.6B; the checkpoint's MTP module also stores its own embedding and head copies.
  const ds = countParams({ ...modelShape('deepseek-v3'), mtpLayers: 1 });
  assert.equal(Math.round(ds.total / 1e9), 671);
  assert.equal(
    ds.mtp,
    2 * 7168 + 2 * 7168 * 7168 + 187_105_280 + 1536 + 512 + 2 * 7168 + 256 * 7168 + 256 + 256 * 3 * 7168 * 2048 + 3 * 7168 * 2048 + 7168,
  );
  assert.ok(Math.abs((ds.total + ds.mtp + 2 * 129280 * 7168) / 685e9 - 1) < 0.001);
});

test('Mamba-2 mixer: in_proj, conv1d with bias, A/D/dt_bias, gated norm, out_proj (Megatron mamba_mixer.py)', () => {
  const m: ModelShape = { ...llama8b, hidden: 1024, mamba: { stateDim: 128, numHeads: 32, headDim: 64, groups: 8, convKernel: 4 } };
  const inner = 32 * 64;
  const bc = 2 * 8 * 128;
  assert.equal(sumGroups(mambaGroups(m)), 1024 + 1024 * (2 * inner + bc + 32) + (inner + bc) * 5 + 3 * 32 + inner + inner * 1024);
  const hybrid: ModelShape = { ...m, layers: 4, hybridPattern: 'M*M-', experts: 0 };
  const k = countParams(hybrid).kinds;
  assert.deepEqual([k.mamba, k.attention, k.mlp, k.dense], [2, 1, 1, 0]);
});

test('MLA down projections are replicated over TP, up and output projections split (multi_latent_attention.py)', () => {
  const ds = modelShape('deepseek-v3');
  const one = { ...ds, layers: 1, denseLayersBeforeMoe: 1 };
  const [t1] = stageParams(one, cfg({ tp: 1, etp: 1 }));
  const [t8] = stageParams(one, cfg({ tp: 8, etp: 8 }));
  const rep = 7168 * 1536 + 7168 * 576 + 1536 + 512 + 2 * 7168 + 7168; // q/kv down, latent norms, 2 layer norms, final norm
  const split = 1536 * 128 * 192 + 512 * 128 * 256 + 128 * 128 * 7168 + 3 * 7168 * 18432;
  assert.equal(t1!.dense, rep + split + 2 * 129280 * 7168);
  // TP 8 pads the vocabulary to a multiple of 128·8: 130048.
  assert.equal(t8!.dense, rep + split / 8 + (2 * 130048 * 7168) / 8);
});

// ---------------------------------------------------------------------------------------------------------------
// Loss, MoE, LoRA, FSDP

test('vocab-parallel cross entropy: 4 saved + 2 transient = 6·s·b·V/t at the peak; TE fusion 2·s·b·V/t', () => {
  const [s, V, t] = [8192, 128256, 4];
  const c = cfg({ tp: t, sp: true, etp: t });
  const native = lossActivations(llama8b, c, 1, s, V);
  assert.equal(native.stored, (2 * 2 * s * 4096) / t + (4 * s * V) / t + 9 * s);
  assert.equal(native.fwd, (2 * s * V) / t);
  const te = lossActivations(llama8b, { ...c, crossEntropyFusion: 'te' }, 1, s, V);
  assert.equal(te.stored, (2 * 2 * s * 4096) / t + (2 * s * V) / t + 9 * s);
  assert.equal(te.fwd, 0);
});

test('MoE: expert tokens are top-k × ETP × local tokens; a capacity factor caps them, padding fills them', () => {
  const mix = modelShape('mixtral-8x7b');
  const c = cfg({ tp: 4, etp: 4, ep: 8, sp: true });
  assert.equal(expertTokenFactor(mix, c), 2 * 4);
  assert.equal(expertTokenFactor(mix, { ...c, etp: 1 }), 2);
  assert.equal(expertTokenFactor(mix, { ...c, etp: 1, moe: { capacityFactor: 0.5 } }), 1);
  assert.equal(expertTokenFactor(mix, { ...c, etp: 1, moe: { capacityFactor: 1.25, padToCapacity: true } }), 2.5);
  const fc1 = (x: TrainingConfig) =>
    megatronKind(mix, x, 1, 4096, 'moe').terms.find((t) => t.label.startsWith('experts: FC1 input'))!.bytes;
  // 2 B · (4096/TP 4 tokens) · k 2 · ETP · h 4096
  assert.equal(fc1(c), 2 * 1024 * 2 * 4 * 4096);
  assert.equal(fc1({ ...c, etp: 1 }), 2 * 1024 * 2 * 4096);
  // moe_act recompute drops the FC2 input; `moe` keeps only the norm input and output.
  const moeAct = megatronKind(
    mix,
    { ...c, recompute: { granularity: 'selective', method: null, numLayers: null, modules: ['moe_act'] } },
    1,
    4096,
    'moe',
  );
  assert.ok(!moeAct.terms.some((t) => t.label.startsWith('experts: FC2 input')));
  const whole = megatronKind(
    mix,
    { ...c, recompute: { granularity: 'selective', method: null, numLayers: null, modules: ['moe'] } },
    1,
    4096,
    'moe',
  );
  assert.deepEqual(
    whole.terms.filter((t) => t.label.startsWith('MoE')).map((t) => t.bytes),
    [2 * 1024 * 4096, 2 * 1024 * 4096],
  );
});

test('Megatron global memory buffer: allgather MoE tokens or the output layer’s SP gather, whichever is larger', () => {
  const mix = modelShape('mixtral-8x7b');
  const line = (x: TrainingConfig) => {
    const e = estimateTraining(mix, x, H100);
    return e.breakdown.find((l) => l.label.startsWith('Megatron global memory buffer'));
  };
  const seq = { seq: 4096, microBatch: 1, globalBatch: 64, worldSize: 8 };
  // TP 1, EP 8, allgather (Megatron's default): 4096 local tokens gathered from 8 ranks, bf16, h 4096.
  const ag = line(cfg({ ...seq, ep: 8 }));
  assert.deepEqual(ag && { label: ag.label, bytes: ag.bytes, formula: ag.formula }, {
    label: 'Megatron global memory buffer (allgather MoE dispatch tokens)',
    bytes: 2 * 4096 * 8 * 4096,
    formula: '2·(s·b)·ETP·EP·h',
  });
  // The alltoall dispatcher has no gather, and TP 1 has no output-layer gather: no buffer.
  assert.equal(line(cfg({ ...seq, ep: 8, moe: { dispatcher: 'alltoall' } })), undefined);
  // TP 2 with SP and EP 4 (ETP 1): 2048 local tokens × 4 ranks = 8192 rows, more than the output layer's 4096: one
  // buffer of the larger size.
  const sp = line(cfg({ ...seq, tp: 2, sp: true, ep: 4, etp: 1 }));
  assert.deepEqual(sp && [sp.label, sp.bytes], ['Megatron global memory buffer (allgather MoE dispatch tokens)', 2 * 8192 * 4096]);
  // A dense model under SP: the output layer's gathered input alone.
  const dense = estimateTraining(llama8b, cfg({ ...seq, tp: 2, sp: true }), H100).breakdown.find((l) =>
    l.label.startsWith('Megatron global memory buffer'),
  );
  assert.deepEqual(dense && [dense.label, dense.bytes, dense.formula], [
    'Megatron global memory buffer (output-layer input all-gather)',
    2 * 4096 * 4096,
    '2·s·b·h',
  ]);
});

test('LoRA: adapters r·(in + out) per fused linear; the frozen base keeps weights only', () => {
  // Bridge's fused layout: linear_qkv (4096 → 6144), linear_proj, linear_fc1 (4096 → 2·14336), linear_fc2.
  const a = loraLayerParams(llama8b, 'dense', 32, ['linear_qkv', 'linear_proj', 'linear_fc1', 'linear_fc2']);
  assert.equal(a.dense, 32 * (4096 + 6144) + 32 * (4096 + 4096) + 32 * (4096 + 28672) + 32 * (14336 + 4096));
  const full = estimateTraining(llama8b, cfg({}), H100);
  const lora = estimateTraining(llama8b, cfg({ peft: { rank: 32, targets: [] } }), H100);
  const adapters = 32 * a.dense;
  assert.equal(lora.stages[0]!.gradients, 4 * adapters);
  assert.equal(lora.stages[0]!.optimizer, (12 / 8) * adapters);
  assert.equal(lora.stages[0]!.weights, full.stages[0]!.weights + 2 * adapters);
});

test('LoRA on grouped experts: one adapter per EP rank (share_expert_adapters), equal to the Gemma 4 card’s trainable count', () => {
  // Megatron-Bridge model verification card gemma-4-26b-a4b-it (peft.H100): TP 2, EP 4, ETP 1, rank-32 adapters on
  // linear_qkv, linear_proj, linear_fc1, linear_fc2 — "22,272,000 trainable adapter parameters" on a rank. Dense: the 30
  // layers' attention (the global layers' 512-wide heads and 2 KV heads with their V slot) and dense MLP over TP 2;
  // experts: per layer one shared fc1 (2816 → 2·704) and fc2 adapter on the rank, r·(2816 + 2·704) + r·(704 + 2816).
  const m = modelShape('gemma4-26b-a4b');
  const lora = { rank: 32, targets: ['linear_qkv', 'linear_proj', 'linear_fc1', 'linear_fc2'] };
  const c = trainingConfig({ tp: 2, ep: 4, etp: 1, sp: true, worldSize: 4, peft: lora });
  const shared = stageParams(m, c)[0]!.trainable;
  assert.deepEqual(shared, { dense: 14_837_760, experts: 30 * 32 * (2816 + 2 * 704 + 704 + 2816) });
  assert.equal(shared.dense + shared.experts, 22_272_000);
  // share_expert_adapters false: one adapter per local expert (128 / EP 4 = 32 on the rank).
  const own = stageParams(m, { ...c, peft: { ...lora, shareExpertAdapters: false } })[0]!.trainable;
  assert.equal(own.experts, 32 * shared.experts);
});

test('Nemotron 3 MTP: one repeated attention + MoE block ("*E"); the checkpoints’ element counts (verification cards)', () => {
  // Card conversion items: Nemotron 3 Super exports 123,611,033,088 elements, Nemotron 3.5 Lightning imports
  // 32,913,266,240 — the main stack plus one "*E" MTP block (enorm, hnorm, eh_proj, attention layer, MoE layer, norm).
  for (const [id, total] of [
    ['nemotron3-super-120b-a12b', 123_611_033_088],
    ['nemotron3.5-lightning-30b-a3b', 32_913_266_240],
  ] as const) {
    const shape = { ...modelShape(id), mtpLayers: 1 };
    const p = countParams(shape);
    assert.equal(p.total + p.mtp, total, id);
    // Two training depths over the repeated block: the same weights (Megatron mtp_use_repeated_layer).
    assert.equal(countParams({ ...shape, mtpLayers: 2 }).mtp, p.mtp, id);
    assert.equal(countParams({ ...shape, mtpLayers: 2, mtpRepeated: false }).mtp, 2 * p.mtp, id);
  }
});

test('qk_layernorm: the Q and K norms save their input and the fp32 rstd per head', () => {
  // Qwen3-30B-A3B: 32 query heads, 4 KV heads of 128; s = 4096, b = 1, TP 1 — 2·s·(a+g)·d + 4·s·(a+g).
  const m = modelShape('qwen3-30b-a3b');
  const c = trainingConfig({ seq: 4096, recompute: NO_RECOMPUTE });
  const term = megatronKind(m, c, 1, 4096, 'moe').terms.find((x) => x.label === 'Q, K norm inputs and rstd (fp32)');
  assert.equal(term?.bytes, 2 * 4096 * 36 * 128 + 4 * 4096 * 36);
  assert.equal(
    megatronKind({ ...m, qkNorm: false }, c, 1, 4096, 'moe').terms.some((x) => x.label.startsWith('Q, K norm')),
    false,
  );
});

test('latent MoE: dispatched tokens at moe_latent_size; the fused weighted squared ReLU saves no activation output', () => {
  // Nemotron 3 Super: T = 4096 tokens, top-22, latent 1024 (fc1_latent_proj before dispatch, moe/moe_layer.py).
  const sup = modelShape('nemotron3-super-120b-a12b');
  const c = trainingConfig({ seq: 4096, ep: 32, worldSize: 64, recompute: NO_RECOMPUTE, moe: { dispatcher: 'alltoall' } });
  const terms = (m: ModelShape, x: TrainingConfig) =>
    new Map(megatronKind(m, x, 1, x.seq, 'moe-mlp').terms.map((t) => [t.label, t.bytes] as const));
  const s = terms(sup, c);
  assert.equal(s.get('experts: FC1 input (dispatched tokens)'), 2 * 4096 * 22 * 1024);
  assert.equal(s.get('latent MoE: fc2_latent_proj input (combined tokens)'), 2 * 4096 * 1024);
  // Squared-ReLU experts (Lightning: top-6, moe_ffn 1856): act(x)·probs saves act(x) unless the fused function does it.
  const lt = modelShape('nemotron3.5-lightning-30b-a3b');
  const plain = terms(lt, { ...c, seq: 8192 });
  assert.equal(plain.get('experts: activation output (weighted by the probabilities)'), 2 * 8192 * 6 * 1856);
  const fused = terms(lt, { ...c, seq: 8192, moe: { dispatcher: 'alltoall', squaredReluFusion: true } });
  assert.equal(fused.has('experts: activation output (weighted by the probabilities)'), false);
  assert.equal(plain.get('experts: FC1 input (dispatched tokens)'), 2 * 8192 * 6 * 2688);
});

test('FSDP2 shards fp32 parameters, gradients and Adam over DP and gathers its largest unit (plus the next) at a time', () => {
  const e = estimateTraining(llama8b, cfg({ fsdp: 'fsdp2', distributedOptimizer: false }), H100);
  const n = 8_030_261_248;
  const st = e.stages[0]!;
  assert.equal(st.weights + st.gradients + st.optimizer, (16 / 8) * n);
  const fsdp = e.breakdown.find((l) => l.label.startsWith('FSDP2'))!;
  // The units are the decoder layers (218M parameters) and the embedding and output layer (V·h = 525M each): the output
  // layer is gathered for the loss, so the largest unit sizes the buffers (it was the per-layer average n/32 before).
  assert.equal(fsdp.bytes, 128256 * 4096 * (2 * 2 + 4));
});

// ---------------------------------------------------------------------------------------------------------------
// Levels

test('allocated ⊂ reserved ⊂ device: fragmentation on allocated, context and NCCL outside the allocator', () => {
  for (const expandableSegments of [false, true]) {
    const e = estimateTraining(llama8b, cfg({ expandableSegments }), H100);
    const s = e.stages[0]!;
    const f = expandableSegments ? FRAGMENTATION_EXPANDABLE : FRAGMENTATION;
    assert.ok(Math.abs(s.reserved - s.allocated * (1 + f)) < 1);
    assert.ok(Math.abs(s.device - s.reserved - 1.5 * GIB) < 1);
    assert.equal(e.fit.fraction, s.device / H100.bytes);
  }
  const moe = estimateTraining(modelShape('mixtral-8x7b'), cfg({ ep: 8, worldSize: 8 }), H100).stages[0]!;
  assert.ok(Math.abs(moe.device - moe.reserved - 3.5 * GIB) < 1);
  // One GPU creates no NCCL communicator: only the CUDA context lies outside the allocator.
  const one = estimateTraining(llama8b, cfg({ worldSize: 1, globalBatch: 8 }), H100).stages[0]!;
  assert.ok(Math.abs(one.device - one.reserved - 0.5 * GIB) < 1);
});

// ---------------------------------------------------------------------------------------------------------------
// Mixed-precision recipe names (Megatron-Bridge training/mixed_precision.py)

test('Bridge recipe names set fp8, the recipe, fp8 param gather and the BF16 first/last layers as the functions do', () => {
  const cs = mixedPrecisionRecipe('bf16_with_fp8_current_scaling_mixed')!;
  assert.deepEqual(
    [
      cs.bf16,
      cs.fp8,
      cs.fp8_recipe,
      cs.fp8_param_gather,
      cs.first_last_layers_bf16,
      cs.num_layers_at_start_in_bf16,
      cs.num_layers_at_end_in_bf16,
    ],
    [true, 'hybrid', 'tensorwise', true, true, 1, 1],
  );
  const delayed = mixedPrecisionRecipe('bf16-with-fp8-delayed-scaling-mixed')!;
  assert.deepEqual(
    [delayed.fp8_recipe, delayed.fp8_amax_history_len, delayed.fp8_amax_compute_algo, delayed.fp8_param_gather],
    ['delayed', 1024, 'max', true],
  );
  const mx = mixedPrecisionRecipe('bf16_with_mxfp8_mixed')!;
  assert.deepEqual([mx.fp8, mx.fp8_recipe, mx.fp8_param_gather, mx.reuse_grad_buf_for_mxfp8_param_ag], ['e4m3', 'mxfp8', true, true]);
  const sub = mixedPrecisionRecipe('bf16_with_fp8_subchannel_scaling_mixed')!;
  assert.deepEqual([sub.fp8_recipe, sub.fp8_param_gather], ['blockwise', false]);
  const fp4 = mixedPrecisionRecipe('bf16_with_nvfp4_mixed')!;
  assert.deepEqual([fp4.fp8, fp4.fp4, fp4.fp4_param_gather, fp4.first_last_layers_bf16], [null, 'e2m1', true, false]);
  const sup = mixedPrecisionRecipe('nemotron_3_super_bf16_with_nvfp4_mixed')!;
  assert.deepEqual([sup.first_last_layers_bf16, sup.num_layers_at_start_in_bf16, sup.num_layers_at_end_in_bf16], [true, 0, 14]);
  const nano = mixedPrecisionRecipe('nanov2_bf16_with_fp8_current_scaling_mixed')!;
  assert.deepEqual([nano.fp8_recipe, nano.num_layers_at_start_in_bf16], ['blockwise', 2]);
  assert.equal(mixedPrecisionRecipe('fp16_mixed')!.grad_reduce_in_fp32, false);
  assert.equal(mixedPrecisionRecipe('bf16_with_fp8_mixed'), null); // a NeMo 2.0 name, not registered by Bridge
  assert.equal(mixedPrecisionRecipe('bf16_with_fp8_mixed', 'nemo2')!.fp8_recipe, 'delayed');
  assert.equal(mixedPrecisionRecipe('bf16_with_mxfp8_mixed', 'nemo2')!.fp8_param_gather, false); // NeMo 2 differs from Bridge
  assert.equal(mixedPrecisionRecipeNames().length, 14); // every @register function of the file
});

test('a recipe applied to a training configuration: fp8 params replace the BF16 copy; BF16 layers keep theirs', () => {
  const c = withMixedPrecision(cfg({}), mixedPrecisionRecipe('bf16_with_fp8_current_scaling_mixed')!);
  assert.deepEqual([c.params, c.fp8, c.fp4, c.quantizedParams, c.bf16Layers], ['bf16', 'tensorwise', null, true, { start: 1, end: 1 }]);
  const weights = (x: TrainingConfig) => estimateTraining(llama8b, x, H100).stages[0]!.weights;
  const bf16 = weights(cfg({}));
  const fp8param = weights(c);
  const defaultFp8 = weights(withMixedPrecision(cfg({}), mixedPrecisionRecipe('bf16_with_fp8_subchannel_scaling_mixed')!));
  // fp8 params on Hopper: FP8 data + its transpose (1 + 1 B) instead of 2 B on the 30 FP8 layers' GEMMs, so no saving
  // (TE post_all_gather_processing creates the transpose); default FP8 adds 2 copies on top of BF16.
  assert.ok(defaultFp8 > bf16);
  assert.ok(Math.abs(bf16 - fp8param) < 1e3);
  // On Blackwell (non-TN FP8 GEMMs) the transpose is not kept: 1 B instead of 2 on those GEMM weights.
  const B200 = { id: 'b200', name: 'B200', bytes: 191_500_000_000, source: 'test' };
  const gemm = (30 / 32) * 32 * (4096 * 6144 + 4096 * 4096 + 3 * 4096 * 14336);
  const onB200 = (x: TrainingConfig) => estimateTraining(llama8b, x, B200).stages[0]!.weights;
  assert.ok(Math.abs(onB200(cfg({})) - onB200(c) - gemm * (2 - 1)) < 1e3);
});

// ---------------------------------------------------------------------------------------------------------------
// The hf profile (hf-activations.md: every term, "modern" PyTorch)

test('hf profile: L·layer + every non-layer term of hf-activations.md, on several configurations', () => {
  const small: ModelShape = {
    ...llama8b,
    name: 'small',
    layers: 4,
    hidden: 512,
    ffn: 1536,
    heads: 8,
    kvHeads: 2,
    headDim: 64,
    vocab: 32003,
  };
  for (const m of [llama8b, small])
    for (const attention of ['flash', 'eager'] as const)
      for (const b of [1, 3])
        for (const granularity of [null, 'full'] as const) {
          const s = 1024;
          const [h, i, a, g, d, V, L] = [m.hidden, m.ffn, m.heads, m.kvHeads, m.headDim, m.vocab, m.layers];
          const c = cfg({
            profile: 'hf',
            attention,
            seq: s,
            microBatch: b,
            worldSize: 8,
            recompute: { granularity, method: granularity ? 'uniform' : null, numLayers: granularity ? 1 : null, modules: [] },
          });
          const sbh = s * b * h;
          const sb = s * b;
          const layer =
            granularity === 'full'
              ? 2 * sbh
              : attention === 'eager'
                ? 24 * sbh + 8 * sb * i + 6 * a * s * s * b + 8 * sb
                : (20 + (4 * g) / a) * sbh + 8 * sb * i + 4 * a * s * b + 8 * sb;
          const nonLayer =
            8 * sb + // int64 token ids
            4 * s * d + // rotary cos + sin
            6 * sbh +
            4 * sb + // final RMSNorm (fp32 input, bf16 normalized, rstd)
            2 * sbh + // lm_head input
            4 * sb * V + // fp32 log_softmax, vocabulary unpadded
            (b === 1 ? 8 * b * (s + 1) : 8 * sb) + // int64 shifted labels (padded storage kept when b = 1)
            4 + // total_weight
            (granularity === 'full' && attention === 'eager' ? 2 * s * s : 0); // the causal mask the checkpoints hold
          const e = estimateTraining(m, c, H100);
          assert.equal(e.stages[0]!.activations, L * layer + nonLayer, `${m.name} ${attention} b=${b} ${granularity}`);
        }
});

test('hf profile under DTensor TP: heads, MLP intermediate and logits /t; norms /t with SP; projection inputs whole', () => {
  // Llama 3 8B (h 4096, i 14336, a 32, g 8, V 128256 unpadded), s 2048, b 1, TP 4, flash attention.
  const [s, h, i, a, g, V, L, t] = [2048, 4096, 14336, 32, 8, 128256, 32, 4];
  const sbh = s * h;
  for (const sp of [false, true])
    for (const full of [false, true]) {
      const c = cfg({
        profile: 'hf',
        seq: s,
        tp: t,
        etp: t,
        sp,
        worldSize: 8,
        recompute: full ? { granularity: 'full', method: 'uniform', numLayers: 1, modules: [] } : NO_RECOMPUTE,
      });
      const q = sp ? 1 / t : 1;
      // Two RMSNorms (12·sbh + 8·sb, sequence-sharded with SP), the q/k/v and gate/up input (4·sbh, whole), q, k, v, out and
      // the log-sum-exp (/t), the SwiGLU tensors (8·sbi/t).
      const layer = full ? 2 * sbh * q : (12 * sbh + 8 * s) * q + 4 * sbh + ((4 + (4 * g) / a) * sbh + 4 * a * s) / t + (8 * s * i) / t;
      const nonLayer = 8 * s + 4 * s * 128 + (6 * sbh + 4 * s) * q + 2 * sbh + (4 * s * V) / t + 8 * (s + 1) + 4;
      const e = estimateTraining(llama8b, c, H100);
      assert.equal(e.stages[0]!.activations, L * layer + nonLayer, `sp ${sp} full ${full}`);
      // The loss transients are vocab-parallel too: (2 + 4)·s·V/t forward, (4 + 4)·s·V/t backward (PyTorch's cross entropy).
      const lossBwd = e.transients.find((x) => x.label.startsWith('log_softmax gradient'));
      assert.equal(lossBwd?.bytes, (8 * s * V) / t);
      assert.ok(e.assumptions.some((x) => x.what.startsWith(`DTensor tensor parallelism (TP 4${sp ? ' + SP' : ''}`)));
    }
});

test('hf profile on MoE and hybrid models: the layers hf-activations.md did not measure take Megatron-Core’s inventory, and say so', () => {
  const c = cfg({ profile: 'hf', seq: 4096, fsdp: 'fsdp2', distributedOptimizer: false, ep: 8, etp: 1 });
  const qwen = modelShape('qwen3-30b-a3b');
  const asMegatron = megatronKind(qwen, { ...c, profile: 'megatron', moe: { dispatcher: 'alltoall' } }, 1, 4096, 'moe');
  assert.deepEqual(hfKind(qwen, c, 1, 4096, 'moe'), { ...asMegatron, globalBuffer: 0 });
  assert.equal(hfKind(qwen, c, 1, 4096, 'dense').stored, hfLayer(qwen, c, 1, 4096).dense);
  const e = estimateTraining(qwen, c, H100);
  assert.equal(
    e.stages[0]!.activations,
    48 * asMegatron.stored + 8 * 4096 + 4 * 4096 * 128 + (6 * 4096 * 2048 + 4 * 4096) + 2 * 4096 * 2048 + 4 * 4096 * 151936 + 8 * 4097 + 4,
  );
  assert.ok(e.assumptions.some((a) => a.what.startsWith('attention + MoE layers counted with Megatron-Core’s inventory')));
  const nano = estimateTraining(modelShape('nemotron3-nano-30b-a3b'), c, H100);
  assert.ok(nano.assumptions.some((a) => a.what.startsWith('Mamba, attention-only, MoE-only layers counted with')));
  assert.ok(!estimateTraining(llama8b, c, H100).assumptions.some((a) => a.what.includes('Megatron-Core’s inventory')));
});

test('fine-grained activation offloading: what each offload_modules group saves leaves the GPU, two layers of it stay', () => {
  // Llama 3 8B (h 4096, 32 heads, 8 KV groups, d 128), s 4096, TP 1, flash attention, bf16.
  const cfg = (modules: TrainingConfig['activationOffload']) =>
    trainingConfig({ seq: 4096, globalBatch: 8, worldSize: 8, activationOffload: modules });
  const s = 4096;
  const plain = megatronKind(llama8b, cfg(undefined), 1, s, 'dense');
  assert.equal(plain.offloaded, 0);
  // core_attn saves V (contiguous), Q and K after RoPE; attn_proj the attention output. The fp32 log-sum-exp (32·4096
  // elements) is under min_offloaded_tensor_size (1M elements) and stays.
  const attn = megatronKind(llama8b, cfg({ modules: ['core_attn', 'attn_proj'], fraction: 1 }), 1, s, 'dense');
  assert.equal(attn.offloaded, 2 * s * (1024 + (4096 + 1024) + 4096));
  assert.equal(attn.stored, plain.stored);
  // TE fuses the input norm into linear_qkv: the residual and the normed input are saved in the qkv_linear group, and
  // attn_norm (an IdentityOp there) offloads nothing; the dense MLP has no offload group.
  const qkv = megatronKind(llama8b, cfg({ modules: ['qkv_linear', 'attn_norm', 'mlp_norm'], fraction: 1 }), 1, s, 'dense');
  assert.equal(qkv.offloaded, 2 * 2 * s * 4096);
  // activation_offload_fraction takes that share.
  assert.equal(
    megatronKind(llama8b, cfg({ modules: ['core_attn', 'attn_proj'], fraction: 0.5 }), 1, s, 'dense').offloaded,
    attn.offloaded / 2,
  );
  // The estimate: every layer in flight keeps stored − offloaded; the offload margin (one layer) joins every phase (here
  // the loss peak), the reloaded group the backward one.
  const a = estimateTraining(llama8b, cfg(undefined), H100).stages[0]!;
  const b = estimateTraining(llama8b, cfg({ modules: ['core_attn', 'attn_proj'], fraction: 1 }), H100).stages[0]!;
  assert.equal(a.activations - b.activations, 32 * attn.offloaded);
  assert.equal(b.transient - a.transient, attn.offloaded);
});
