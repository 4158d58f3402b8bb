// The training-memory model: monotonic properties, recompute and offload, precision bytes, the HF profile
// against the measured inventory, per-stage loads, hover and diagnostics on real files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hfLayer } from '../../src/core/memory/activations.js';
import type { TrainingConfig } from '../../src/core/memory/config.js';
import { memoryHoverMarkdown } from '../../src/core/memory/hover.js';
import { PRECISIONS } from '../../src/core/memory/precision.js';
import { estimateTraining, type StageEstimate } from '../../src/core/memory/training.js';
import { paddedVocab, perParamBytes } from '../../src/core/memory/weights.js';
import { analyzeText, CORPUS, estimateOf, EXAMPLES, modelShape, trainingConfig } from '../helpers.js';
import { gib } from '../../src/core/units.js';

const llama8b = modelShape('llama3-8b');
const H100 = { id: 'h100', name: 'H100', bytes: 85_520_809_984, source: 'test' };
const base = trainingConfig({
  seq: 65536,
  globalBatch: 512,
  tp: 4,
  cp: 2,
  etp: 4,
  sp: true,
  worldSize: 64,
});
const est = (patch: Partial<TrainingConfig>) => estimateTraining(llama8b, { ...base, ...patch }, H100);
const act = (patch: Partial<TrainingConfig>) => est(patch).perGpu.activations;

test('more CP or TP never raises activations', () => {
  for (const cp of [1, 2, 4, 8]) assert.ok(act({ cp: cp * 2, worldSize: 128 }) <= act({ cp, worldSize: 128 }), `CP ${cp}`);
  for (const tp of [1, 2, 4]) assert.ok(act({ tp: tp * 2, etp: tp * 2, worldSize: 64 }) <= act({ tp, etp: tp, worldSize: 64 }), `TP ${tp}`);
});

test('full recompute < selective < none; with flash, core_attn recompute drops only the softmax statistics', () => {
  const none = { granularity: null, method: null, numLayers: null, modules: [] };
  const selective = { granularity: 'selective' as const, method: null, numLayers: null, modules: ['core_attn'] };
  const full = { granularity: 'full' as const, method: 'uniform' as const, numLayers: 1, modules: [] };
  for (const attention of ['eager', 'flash'] as const) {
    const [a, b, c] = [full, selective, none].map((recompute) => act({ recompute, attention }));
    assert.ok(a! < b!, `${attention}: full ${a} < selective ${b}`);
    assert.ok(b! < c!, `${attention}: selective ${b} < none ${c}`);
    // 32 layers × the fp32 log-sum-exp 4·a·s·b/t (s = 65536/CP 2, TP 4): Bridge's Moonlight study measured −0.01% for core_attn.
    if (attention === 'flash') assert.equal(c! - b!, 32 * ((4 * 32 * 32768) / 4));
  }
});

test('full recompute keeps one input per group and rematerialises one group in backward', () => {
  const one = est({ recompute: { granularity: 'full', method: 'uniform', numLayers: 1, modules: [] } });
  const four = est({ recompute: { granularity: 'full', method: 'uniform', numLayers: 4, modules: [] } });
  const layerInput = (2 * (65536 / 2) * 4096) / 4; // 2·s·b·h/t with SP, s = seq/CP
  const layersLine = (e: typeof one) => e.breakdown.find((l) => l.label.startsWith('transformer layers'))!.bytes;
  assert.equal(layersLine(one), 32 * layerInput);
  assert.equal(layersLine(four), 8 * layerInput);
  // The backward of a group holds its n rematerialised layers plus one layer's backward working set.
  const two = est({ recompute: { granularity: 'full', method: 'uniform', numLayers: 2, modules: [] } });
  const remat = (e: typeof one) => e.transients.find((l) => l.label.startsWith('recompute'))!.bytes;
  assert.equal(remat(four) - remat(two), 2 * (remat(two) - remat(one)));
});

test('CPU offload of n layers keeps L − n layers on the GPU', () => {
  const layers = (n: number) => est({ offloadLayers: n }).breakdown.find((l) => l.label.startsWith('transformer layers'))!.bytes;
  assert.equal(layers(16), layers(0) / 2);
});

test('bytes per parameter: 18, or 6 + 12/d with the distributed optimizer (d = DP×CP)', () => {
  const sum = (b: { weights: number; gradients: number; optimizer: number }) => b.weights + b.gradients + b.optimizer;
  assert.equal(sum(perParamBytes({ ...base, distributedOptimizer: false }, 8)), 18);
  assert.equal(sum(perParamBytes(base, 8)), 6 + 12 / 8);
  assert.equal(sum(perParamBytes({ ...base, params: 'fp32', distributedOptimizer: false }, 1)), 16);
  assert.equal(sum(perParamBytes({ ...base, params: 'fp16', distributedOptimizer: false }, 1)), 20);
  const e = est({});
  assert.equal(e.parallel.dp, 8);
  assert.match(e.breakdown.find((l) => l.category === 'optimizer')!.label, /DP×CP = 16/);
});

test('precision bytes per value: NVFP4 4.5 bits, MXFP4 4.25, MXFP8 8.25, BF16 16', () => {
  assert.equal(PRECISIONS.nvfp4.bitsPerValue, 4.5);
  assert.equal(PRECISIONS.mxfp4.bitsPerValue, 4.25);
  assert.equal(PRECISIONS['fp8-mxfp8'].bitsPerValue, 8.25);
  assert.equal(PRECISIONS.bf16.bitsPerValue, 16);
  assert.equal(PRECISIONS.nvfp4.savedInputBytes, 0.5625);
});

test('FP8 and NVFP4 shrink activations but add quantized weight copies; fp8_param drops the BF16 copy', () => {
  const bf16 = est({});
  const fp8 = est({ fp8: 'delayed' });
  const nvfp4 = est({ fp4: 'nvfp4' });
  assert.ok(fp8.perGpu.activations < bf16.perGpu.activations);
  assert.ok(nvfp4.perGpu.activations < fp8.perGpu.activations);
  assert.ok(fp8.perGpu.weights > bf16.perGpu.weights);
  // fp8_param replaces the BF16 weight with FP8 data and, on Hopper (TN-only FP8 GEMMs), its transpose: 1 + 1 B per GEMM
  // weight, the same as BF16 (TE post_all_gather_processing); Blackwell keeps only the rowwise FP8 data.
  assert.equal(est({ fp8: 'delayed', quantizedParams: true }).perGpu.weights, bf16.perGpu.weights);
  const B200 = { id: 'b200', name: 'B200', bytes: 191_500_000_000, source: 'test' };
  const onB200 = (patch: Partial<TrainingConfig>) => estimateTraining(llama8b, { ...base, ...patch }, B200).perGpu.weights;
  assert.ok(onB200({ fp8: 'delayed', quantizedParams: true }) < onB200({}));
});

test('Megatron pads the vocabulary to a multiple of 128·TP', () => {
  assert.equal(paddedVocab(128256, 1), 128256);
  assert.equal(paddedVocab(128256, 4), 128512);
  assert.equal(paddedVocab(32000, 8), 32768);
});

test('HF profile reproduces the measured per-layer inventory (hf-activations.md, modern PyTorch)', () => {
  const hf = { ...base, profile: 'hf' as const, tp: 1, sp: false, cp: 1 };
  const [s, b, h, i, a, g] = [2048, 8, 4096, 14336, 32, 8];
  assert.equal(hfLayer(llama8b, { ...hf, attention: 'eager' }, b, s).dense, 24 * s * b * h + 8 * s * b * i + 6 * a * s * s * b + 8 * s * b);
  assert.equal(
    hfLayer(llama8b, { ...hf, attention: 'flash' }, b, s).dense,
    (20 + (4 * g) / a) * s * b * h + 8 * s * b * i + 4 * a * s * b + 8 * s * b,
  );
});

test('pipeline: the first stage holds PP micro-batches; interleaving adds (PP−1)/(PP·VPP) on rank 0', () => {
  const pp = est({ pp: 2, worldSize: 64 });
  const layers = (e: typeof pp, st: number) => e.stages[st]!.activations;
  assert.equal(pp.stages.length, 2);
  assert.ok(layers(pp, 0) > layers(pp, 1));
  // PP 4, VPP 2, 128 micro-batches: rank 0 warms up (4−0−1)·2 + (2−1)·4 = 10 chunk passes, + 1 = 11 chunks of 4 layers
  // = 5.5 micro-batches (Korthikanti's 1 + (PP−1)/(PP·VPP) = 1.375 × PP); the last rank 0·2 + 4 + 1 = 5 chunks = 2.5.
  const inter = est({ pp: 4, vpp: 2, worldSize: 128 });
  assert.deepEqual(
    inter.stages.map((x) => [x.inFlight.passes, x.inFlight.microbatches]),
    [
      [11, 5.5],
      [9, 4.5],
      [7, 3.5],
      [5, 2.5],
    ],
  );
  assert.match(
    inter.breakdown.find((l) => l.label.startsWith('transformer layers'))!.label,
    /chunk passes in flight \(= \d(\.\d+)? micro-batches/,
  );
});

test('estimates of real files: launcher Llama 3 8B fits an H100, and the fit verdict follows the GPU', () => {
  const text = readFileSync(join(CORPUS, 'NeMo-Framework-Launcher', 'llama3_8b.yaml'), 'utf8');
  const e = estimateOf(text, { gpu: 'h100' })!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  assert.equal(e.estimate.parallel.dp, 64);
  assert.equal(e.shape.vocab, 128256);
  assert.notEqual(e.estimate.fit.verdict, 'does-not-fit');
  const small = estimateOf(text, { gpu: 'custom:40' })!;
  assert.equal(small.kind === 'training' && small.estimate.fit.verdict, 'does-not-fit');
});

test('RL-MEM: a warning on the sequence-length key when the estimate exceeds the GPU', () => {
  const text = readFileSync(join(CORPUS, 'NeMo-Framework-Launcher', 'llama3_8b.yaml'), 'utf8');
  const r = analyzeText(text, { gpu: 'custom:40', memoryWarnings: true });
  const mem = r.findings.filter((f) => f.code === 'RL-MEM');
  assert.equal(mem.length, 1);
  assert.equal(mem[0]!.severity, 'warning');
  assert.equal(mem[0]!.path, 'model.encoder_seq_length');
  assert.match(mem[0]!.message, /^estimated \d+\.\d GiB per GPU exceeds the Custom 40 GiB \(40\.0 GiB\): activations/);
  assert.ok(mem[0]!.related!.some((x) => x.path === 'model.context_parallel_size'));
  assert.deepEqual(
    analyzeText(text, { gpu: 'h100', memoryWarnings: true }).findings.filter((f) => f.code === 'RL-MEM'),
    [],
  );
});

test('hover on context_parallel_size shows the total, the breakdown and the CP what-ifs', () => {
  const text = readFileSync(join(EXAMPLES, 'llama3_8b_128k.yaml'), 'utf8');
  const e = estimateOf(text, { gpu: 'h100' })!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  const md = memoryHoverMarkdown(e, 'cp');
  assert.match(md, /^\*\*Per-GPU memory\*\* \(most-loaded rank, PP stage 0\): \*\*\d+\.\d GiB\*\* of \d+\.\d GiB .* — fits/);
  assert.match(md, /\| activations \| \d+\.\d \|/);
  assert.match(md, /- CP 8 → 16: activations (\d+\.\d) → (\d+\.\d) GiB/);
  const [, before, after] = /CP 8 → 16: activations (\d+\.\d) → (\d+\.\d)/.exec(md)!;
  assert.ok(Number(after) < Number(before));
});

test('TensorRT-LLM options: KV pool from the modeline model, fp8 KV, host tier', () => {
  const text = readFileSync(join(EXAMPLES, 'trtllm_llama3_70b_serve.yaml'), 'utf8');
  const e = estimateOf(text)!;
  assert.equal(e.kind, 'serving');
  if (e.kind !== 'serving') return;
  const k = e.roles[0]!.kv;
  assert.equal(k.bytesPerToken, 2 * 80 * 2 * 128 * 1); // 8 KV heads / TP 4, fp8
  assert.equal(k.tokensPerBlock, 32);
  assert.equal(k.blocksPerSequence, 131072 / 32);
  assert.equal(k.poolBlocks * k.bytesPerBlock, k.allocatedBytes);
  assert.equal(k.requestsAtMaxSeqLen, Math.floor(k.poolBlocks / k.blocksPerSequence));
  assert.equal(k.host.bytes, 48 * 2 ** 30);
});

test('TensorRT-LLM options without a model shape: no estimate, with the reason', () => {
  const text = readFileSync(join(CORPUS, 'TensorRT-LLM', 'deepseek-r1-throughput.yaml'), 'utf8');
  const e = estimateOf(text, {})!;
  assert.equal(e.kind, 'none');
  assert.match(e.kind === 'none' ? e.reason : '', /carry no model shape/);
  const withModel = estimateOf(text, { model: 'deepseek-r1' })!;
  assert.equal(withModel.kind, 'serving');
});

test('a serving role whose weights do not fit, or leave no room for one request, warns on max_seq_len; a max_tokens cap does not', () => {
  const text = (tp: number) =>
    `model: meta-llama/Llama-3.3-70B-Instruct\nmax_seq_len: 131072\ntensor_parallel_size: ${tp}\nkv_cache_config:\n  free_gpu_memory_fraction: 0.9\n`;
  const mem = (tp: number) => analyzeText(text(tp), { gpu: 'h100', memoryWarnings: true }).findings.filter((f) => f.code === 'RL-MEM');
  // TP 1: 70,553,706,496 BF16 weights = 131.4 GiB on a 79.2 GiB H100.
  assert.deepEqual(
    mem(1).map((f) => [f.path, f.severity]),
    [['max_seq_len', 'warning']],
  );
  assert.match(mem(1)[0]!.message, /^weights 131\.4 GiB \(llama3\.3-70b, BF16\) \+ non-KV runtime 2\.3 GiB exceed the NVIDIA H100/);
  // TP 2: 65.7 GiB of weights and 2.7 GiB of runtime fit, but 0.9 × the 10.8 GiB left holds no 131,072-token request
  // (163,840 B per token at TP 2 = 20.0 GiB).
  assert.match(mem(2)[0]!.message, /^the KV pool \(9\.7 GiB\) cannot hold one request of 131072 tokens \(20\.0 GiB\)/);
  const gptoss = readFileSync(join(CORPUS, 'TensorRT-LLM', 'disagg_config_ctxtp1_gentp1_gptoss_host_offload.yaml'), 'utf8');
  assert.deepEqual(
    analyzeText(gptoss, { gpu: 'h100', memoryWarnings: true }).findings.filter((f) => f.code === 'RL-MEM'),
    [],
  );
});

test('retention config: blocks per range and eviction order', () => {
  const text = readFileSync(join(EXAMPLES, 'retention_system_prompt.yaml'), 'utf8');
  const e = estimateOf(text, {})!;
  assert.equal(e.kind, 'retention');
  if (e.kind !== 'retention') return;
  assert.deepEqual(
    e.coverage.perRange.map((r) => [r.priority, r.firstBlock, r.endBlock]),
    [
      [100, 0, 32],
      [35, 32, null],
    ],
  );
  assert.equal(e.coverage.decodePriority, 20);
  assert.equal(e.coverage.evictionOrder[0]!.decode, true);
});

test('hover on a corpus launcher recipe: CP what-ifs and the schema hover side by side', () => {
  const text = readFileSync(join(CORPUS, 'NeMo-Framework-Launcher', 'llama3_8b.yaml'), 'utf8');
  const e = estimateOf(text, { gpu: 'h100' })!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  const md = memoryHoverMarkdown(e, 'cp');
  // TP 1 PP 1 CP 2 at 8K: one stage, CP 2 → 4 halves the per-rank sequence.
  assert.match(
    md,
    /^\*\*Per-GPU memory\*\* \(most-loaded rank\): \*\*\d+\.\d GiB\*\* of 79\.2 GiB NVIDIA H100 80GB HBM3 \(SXM\) — tight \(over 90%\)/,
  );
  const [, before, after] = /- CP 2 → 4: activations (\d+\.\d) → (\d+\.\d) GiB/.exec(md)!;
  assert.ok(Math.abs(Number(after) - Number(before) / 2) < 0.2, `${before} → ${after}`);
  assert.match(md, /- CP 2 → 1: activations/);
});

test('MoE layers per stage are counted, not looped: DeepSeek-V3 (3 dense layers first) over PP 4, and a 1.8e9-layer typo', async () => {
  const { stageParams } = await import('../../src/core/memory/weights.js');
  const ds = modelShape('deepseek-v3');
  const stages = stageParams(ds, { ...base, tp: 8, etp: 8, pp: 4, ep: 8, cp: 1 });
  // 61 layers over 4 stages: 16, 15, 15, 15; the first stage holds the 3 dense layers.
  assert.deepEqual(
    stages.map((s) => [s.layers, s.moeLayers]),
    [
      [16, 13],
      [15, 15],
      [15, 15],
      [15, 15],
    ],
  );
  const huge = stageParams({ ...llama8b, layers: 1_812_170_850 }, base);
  assert.equal(huge[0]!.layers, 1_812_170_850);
});

test('the estimate JSON and text show allocated, reserved and device for every stage and name the most-loaded rank', async () => {
  const { estimateJson } = await import('../../src/core/memory/estimate.js');
  const { estimateText } = await import('../../src/core/memory/report.js');
  const text = readFileSync(join(EXAMPLES, 'llama3_8b_128k.yaml'), 'utf8');
  const e = estimateOf(text, { gpu: 'h100' })!;
  assert.equal(e.kind, 'training');
  if (e.kind !== 'training') return;
  const j = estimateJson(e) as {
    stages: Record<string, number>[];
    mostLoadedRank: { stage: number; allocated: number; reserved: number; device: number };
  };
  assert.deepEqual(Object.keys(j.stages[0]!).slice(0, 5), ['stage', 'layers', 'allocated', 'reserved', 'device']);
  for (const s of j.stages) assert.ok(s.allocated! < s.reserved! && s.reserved! < s.device! && s.device === s.total);
  assert.equal(j.mostLoadedRank.device, Math.max(...j.stages.map((s) => s.device!)));
  // The first iteration and the optimizer step per stage: Adam's fp32 moments (8 of the optimizer's 12 B) come with
  // the first step; the fused Adam's step adds nothing to the static state.
  for (const [i, s] of j.stages.entries()) {
    const st: StageEstimate = e.estimate.stages[i]!;
    assert.deepEqual([s.firstIteration, s.optimizerStep, s.afterStep], [st.firstIteration, st.optimizerStep, st.afterStep]);
    assert.equal(s.firstIteration, s.allocated! - (s.optimizer! * 8) / 12);
    assert.equal(s.optimizerStep, s.allocated! - s.activations! - s.transient!);
    // Once the in-place step is done nothing of it stays: what a memory line's "allocated" shows is the static state.
    assert.equal(s.afterStep, s.optimizerStep);
  }
  const t = estimateText(e);
  assert.match(t, /most-loaded rank \(PP stage 0\): allocated \d+\.\d\d GiB, reserved \d+\.\d\d GiB, device \d+\.\d\d GiB/);
  assert.ok(
    t.includes(
      `  first iteration of a fresh run: allocated ${gib(j.stages[0]!.firstIteration!)} (the first optimizer step creates the optimizer states after its forward/backward; a memory report "(after 1 iterations)" shows this)`,
    ),
  );
  assert.ok(
    t.includes(
      `  after each optimizer step: allocated ${gib(j.stages[0]!.afterStep!)} (weights, gradient buffers, optimizer states and persistent buffers; a memory report's "allocated" field shows this)`,
    ),
  );
  assert.match(t, /^ +0 +16 +\d+\.\d\d GiB +\d+\.\d\d GiB +\d+\.\d\d GiB +2 micro-batches {2}← most loaded$/m);
});

test('optimizer step with bf16 gradients: an fp32 copy of each gradient shard, unless TE’s precision-aware Adam reads them as they are', () => {
  const at = (p: Partial<TrainingConfig>) => {
    const e = estimateTraining(
      modelShape('llama3-8b'),
      trainingConfig({
        seq: 4096,
        tp: 8,
        etp: 8,
        worldSize: 16,
        recompute: { granularity: 'full', method: 'uniform', numLayers: 1, modules: [] },
        ...p,
      }),
      H100,
    );
    const s = e.stages[0]!;
    return { e, s, extra: s.optimizerStep - (s.allocated - s.activations - s.transient) };
  };
  // DP 2: the distributed optimizer's shard is half the rank's parameters; shard_model_grad.float() is 4 B per element.
  const bf16 = at({ gradReduceInFp32: false });
  assert.equal(bf16.extra, (4 * bf16.e.model.paramsPerGpu) / 2);
  // fp32 gradients: .float() is the gradient itself; TE's precision-aware Adam (no FP8) takes decoupled_grad.
  assert.equal(at({ gradReduceInFp32: true }).extra, 0);
  assert.equal(at({ gradReduceInFp32: false, optimizerDtypes: {} }).extra, 0);
  // With FP8 current scaling and fp32 master weights Megatron keeps the master copy and copies the gradients again.
  assert.equal(at({ gradReduceInFp32: false, optimizerDtypes: {}, fp8: 'tensorwise' }).extra, (4 * bf16.e.model.paramsPerGpu) / 2);
  // The first iteration: Adam's moments (8 B per shard element) and, under TE's precision-aware Adam, its fp32 master copy
  // (4 B) are created by the first step.
  const te = at({ gradReduceInFp32: false, optimizerDtypes: {} }).s;
  assert.equal(te.firstIteration, Math.max(te.allocated - te.optimizer, te.optimizerStep));
});
