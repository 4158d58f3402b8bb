// TensorRT-LLM KV cache: bytes per token, the block pool from free GPU memory, its limits, and retention coverage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { customGpu } from '../../src/core/memory/gpus.js';
import {
  defaultRuntimeBytes,
  estimateKvCache,
  kvBytesPerToken,
  modelAttentionWindows,
  ppLayers,
  resolveKvDtype,
  retentionCoverage,
} from '../../src/core/memory/kvcache.js';
import { servingWeights } from '../../src/core/memory/servingWeights.js';
import { catalogueEntry } from '../../src/core/models/catalogue.js';
import { bf16Weights, modeloptFp8Weights } from '../../src/core/models/weights.js';
import { modelShape as preset } from '../helpers.js';

const llama8 = preset('llama3-8b');
const llama70 = preset('llama3-70b');
const GIB = 2 ** 30;
/** Llama 3 8B in BF16 on one GPU: 8,030,261,248 parameters × 2 B. */
const LLAMA8_BF16 = servingWeights(llama8, bf16Weights('test')).bytes;

test('Llama 3 8B per token: bf16 131072, fp8 65536, int8 65536, nvfp4 36864 (ceil(n/2) + ceil(n/16))', () => {
  assert.equal(kvBytesPerToken(llama8), 131072); // 2 · 32 · 8 · 128 · 2
  assert.equal(kvBytesPerToken(llama8, { dtype: 'bf16' }), 131072);
  assert.equal(kvBytesPerToken(llama8, { dtype: 'fp8' }), 65536);
  assert.equal(kvBytesPerToken(llama8, { dtype: 'int8' }), 65536);
  assert.equal(kvBytesPerToken(llama8, { dtype: 'nvfp4' }), 32768 + 4096);
  assert.equal(kvBytesPerToken(llama8, { dtype: 'auto', modelDtype: 'fp16' }), 131072);
  assert.equal(kvBytesPerToken(llama8, { dtype: 'float32' }), 262144);
});

test('Llama 3 70B bf16 is 327680 bytes per token (320 KiB)', () => {
  assert.equal(kvBytesPerToken(llama70), 327680);
});

test('TP splits KV heads, rounding up: 8 heads over TP 16 leaves one replicated head per rank', () => {
  assert.equal(kvBytesPerToken(llama70, { tp: 4 }), 2 * 80 * 2 * 128 * 2);
  assert.equal(kvBytesPerToken(llama70, { tp: 8 }), 2 * 80 * 1 * 128 * 2);
  assert.equal(kvBytesPerToken(llama70, { tp: 16 }), 2 * 80 * 1 * 128 * 2);
  assert.equal(kvBytesPerToken(llama70, { tp: 3 }), 2 * 80 * 3 * 128 * 2);
});

test('attention DP caches every KV head on each rank', () => {
  assert.equal(kvBytesPerToken(llama70, { tp: 8, attentionDp: true }), 327680);
});

test('PP splits layers; the first L mod PP ranks hold one more layer', () => {
  assert.equal(kvBytesPerToken(llama8, { pp: 2 }), 65536);
  assert.deepEqual(ppLayers(32, 3, 0).length, 11);
  assert.deepEqual(ppLayers(32, 3, 2), [22, 23, 24, 25, 26, 27, 28, 29, 30, 31]);
  assert.equal(kvBytesPerToken(llama8, { pp: 3 }), 2 * 11 * 8 * 128 * 2);
  assert.equal(kvBytesPerToken(llama8, { pp: 3, ppRank: 2 }), 2 * 10 * 8 * 128 * 2);
});

test('MLA (DeepSeek-V3): one latent of kv_lora_rank + qk_rope_head_dim = 576 per layer, not split by TP', () => {
  const ds = preset('deepseek-v3');
  assert.equal(kvBytesPerToken(ds), 61 * 576 * 2);
  assert.equal(kvBytesPerToken(ds), 70272);
  assert.equal(kvBytesPerToken(ds, { dtype: 'fp8' }), 35136);
  assert.equal(kvBytesPerToken(ds, { tp: 8 }), 70272);
  assert.equal(kvBytesPerToken(ds, { pp: 2 }), 31 * 576 * 2);
});

test('unknown KV dtypes are refused', () => {
  assert.equal(resolveKvDtype('fp5'), undefined);
  assert.throws(() => kvBytesPerToken(llama8, { dtype: 'fp5' }), /unknown KV cache dtype/);
});

test('worked example: Llama 3 8B bf16 on an 80 GiB GPU, 2 GiB runtime, 64 GiB host tier', () => {
  const e = estimateKvCache({
    shape: llama8,
    gpu: customGpu(80),
    weightBytes: LLAMA8_BF16,
    runtimeBytes: 2 * GIB,
    maxSeqLen: 131072,
    hostCacheSize: 64 * GIB,
  });
  assert.equal(e.bytesPerToken, 131072);
  assert.equal(e.tokensPerBlock, 32);
  assert.equal(e.bytesPerBlock, 4_194_304);
  assert.equal(e.blocksPerSequence, 4096); // 131072 / 32
  assert.equal(e.weightBytes, 16_060_522_496); // 8,030,261,248 × 2
  assert.equal(e.runtimeBytes, 2_147_483_648);
  assert.equal(e.freeBytes, 67_691_339_776); // 85,899,345,920 − weights − runtime
  assert.equal(e.fraction, 0.9);
  assert.equal(e.budgets.free_gpu_memory_fraction, 60_922_205_798); // floor(0.9 × free)
  assert.equal(e.limit, 'free_gpu_memory_fraction');
  assert.equal(e.poolBytes, 60_922_205_798);
  assert.equal(e.poolTokens, 464_799);
  assert.equal(e.poolBlocks, 14_524);
  assert.equal(e.allocatedBytes, 60_918_071_296);
  assert.equal(e.requestsAtMaxSeqLen, 3);
  assert.deepEqual(e.host, { bytes: 68_719_476_736, tokens: 524_288, blocks: 16_384 });
});

test('max_tokens and max_gpu_total_bytes cap the pool: the smallest budget wins', () => {
  const base = { shape: llama8, gpu: customGpu(80), weightBytes: LLAMA8_BF16, runtimeBytes: 2 * GIB, maxSeqLen: 8192 };
  const byTokens = estimateKvCache({ ...base, maxTokens: 100_000 });
  assert.equal(byTokens.budgets.max_tokens, 13_107_200_000);
  assert.equal(byTokens.limit, 'max_tokens');
  assert.equal(byTokens.poolTokens, 100_000);
  assert.equal(byTokens.poolBlocks, 3125);
  const byBytes = estimateKvCache({ ...base, maxTokens: 100_000, maxGpuTotalBytes: 8 * GIB });
  assert.equal(byBytes.limit, 'max_gpu_total_bytes');
  assert.equal(byBytes.poolTokens, 65_536);
  assert.equal(byBytes.poolBlocks, 2048);
  const fractionWins = estimateKvCache({ ...base, maxTokens: 10_000_000 });
  assert.equal(fractionWins.limit, 'free_gpu_memory_fraction');
  assert.equal(fractionWins.poolTokens, 464_799);
  // free_gpu_memory_fraction explicitly null: max_tokens alone (TRT-RM calculate_max_num_blocks).
  const alone = estimateKvCache({ ...base, maxTokens: 400_000, freeGpuMemoryFraction: null });
  assert.equal(alone.fraction, null);
  assert.equal(alone.limit, 'max_tokens');
  assert.equal(alone.poolTokens, 400_000);
  // Never more than is free: 10,000,000 tokens (1.31e12 B) are capped at the 67,691,339,776 B weights and runtime leave: 516,443 tokens of 131,072 B.
  const capped = estimateKvCache({ ...base, maxTokens: 10_000_000, freeGpuMemoryFraction: null });
  assert.deepEqual([capped.limit, capped.poolBytes, capped.poolTokens], ['max_tokens', 67_691_339_776, 516_443]);
});

test('beam width multiplies the blocks a request needs', () => {
  const e = estimateKvCache({
    shape: llama8,
    gpu: customGpu(80),
    weightBytes: LLAMA8_BF16,
    runtimeBytes: 2 * GIB,
    maxSeqLen: 1000,
    maxBeamWidth: 4,
  });
  assert.equal(e.blocksPerSequence, 32 * 4); // ceil(1000 / 32) = 32
});

test('serving weights: TP shards, the most loaded PP rank, FP8 linears, MXFP4 experts only', () => {
  assert.equal(LLAMA8_BF16, 16_060_522_496); // 8,030,261,248 × 2
  // ModelOpt FP8 (per-tensor scales): embedding + LM head (2 × 525,336,576) and norms (266,240) stay 2 bytes, the
  // 6,979,321,856 linear weights of the blocks take 1.
  const fp8 = modeloptFp8Weights('test', ['lm_head']);
  assert.equal(servingWeights(llama8, fp8).bytes, 2 * 1_050_673_152 + 6_979_321_856 + 2 * 266_240);
  // TP 8: everything but the 1,318,912 norm weights is split eight ways.
  assert.equal(servingWeights(llama70, bf16Weights('test'), { tp: 8 }).bytes, ((70_553_706_496 - 1_318_912) * 2) / 8 + 2 * 1_318_912);
  // TP 4 × PP 2: rank 0 holds 40 layers and the embedding: (40 · 855,654,400 − 40 · 16,384 norms + 1,050,673,152 / 2) / 4 · 2 B
  // + 40 · 16,384 · 2 B of norms; the last rank's LM head and final norm weigh the same as the embedding.
  const layer = 855_654_400; // 2·8192·8192 + 2·8192·1024 + 3·8192·28672 + 2·8192
  const rank0 = ((40 * (layer - 16_384) + 128_256 * 8192) * 2) / 4 + 40 * 16_384 * 2;
  const pp = servingWeights(llama70, bf16Weights('test'), { tp: 4, pp: 2 });
  assert.equal(pp.bytes, rank0 + 8192 * 2); // the last rank: its 40 layers, the LM head and the final norm
  assert.equal(pp.ppRank, 1);
  const oss = servingWeights(preset('gpt-oss-120b'), catalogueEntry('gpt-oss-120b')!.checkpoints[0]!.weights).bytes;
  assert.ok(oss > 60 * GIB && oss < 61 * GIB, `${oss}`); // the MXFP4 checkpoint is ~60.8 GiB
});

test('default runtime memory states its parts and sources', () => {
  const r = defaultRuntimeBytes(llama8);
  assert.equal(r.bytes, 0.5 * GIB + 8192 * (4 * 4096 + 3 * 14336) * 2);
  assert.match(r.assumptions[0]?.source ?? '', /memory\.md §7/);
  const e = estimateKvCache({ shape: llama8, gpu: customGpu(80), weightBytes: LLAMA8_BF16, maxSeqLen: 8192 });
  assert.ok(e.assumptions.some((a) => a.what.startsWith('non-KV runtime memory')));
});

test('sliding windows: gpt-oss alternates 128-token and full layers; VSWA pools share memory by window × bytes', () => {
  const oss = preset('gpt-oss-20b');
  const w = modelAttentionWindows(oss, 8192);
  assert.deepEqual(w.slice(0, 4), [128, 8192, 128, 8192]);
  const full = estimateKvCache({ shape: oss, gpu: customGpu(80), weightBytes: 0, runtimeBytes: 2 * GIB, maxSeqLen: 8192 });
  assert.equal(full.windowPools, undefined);
  assert.ok(full.assumptions.some((a) => /full length/.test(a.what)));
  const vswa = estimateKvCache({
    shape: oss,
    gpu: customGpu(80),
    weightBytes: 0,
    runtimeBytes: 2 * GIB,
    maxSeqLen: 8192,
    maxAttentionWindow: w,
  });
  const pools = vswa.windowPools ?? [];
  assert.equal(pools.length, 2);
  const [small, big] = pools;
  assert.equal(small?.window, 128);
  assert.equal(small?.layers, 12);
  assert.equal(small?.share, 128 / (128 + 8192));
  assert.equal(big?.blocksPerSequence, 256);
  assert.equal(small?.blocksPerSequence, 5); // 128/32 + the block being written
});

test('retention [0,1024)@100, [1024,end)@35 with 32-token blocks over a 3000-token prompt', () => {
  const ranges = [
    { tokenStart: 0, tokenEnd: 1024, priority: 100 },
    { tokenStart: 1024, tokenEnd: null, priority: 35 },
  ];
  const c = retentionCoverage(ranges, 32, 3000);
  assert.equal(c.blocks.length, 94); // ceil(3000 / 32)
  assert.deepEqual(
    c.perRange.map((r) => [r.firstBlock, r.endBlock, r.blocks]),
    [
      [0, 32, 32],
      [32, 94, 62],
    ],
  );
  assert.equal(c.blocks[31]?.priority, 100);
  assert.equal(c.blocks[32]?.priority, 35);
  assert.equal(c.blocks[93]?.endToken, 3000);
  assert.deepEqual(c.perPriority, [
    { priority: 35, blocks: 62 },
    { priority: 100, blocks: 32 },
  ]);
  assert.equal(c.decodePriority, 35);
  assert.deepEqual(
    c.evictionOrder.map((l) => [l.priority, l.blocks.length, l.decode]),
    [
      [35, 62, true],
      [100, 32, false],
    ],
  );
  assert.equal(c.secondaryOffloadMinPriority, 30);
  assert.deepEqual(c.notOffloaded, []);
  assert.equal(c.decodeNotOffloaded, false);
});

test('retention: an open-ended range without a prompt length; a block belongs to the range of its first token', () => {
  const open = retentionCoverage(
    [
      { tokenStart: 0, tokenEnd: 1024, priority: 100 },
      { tokenStart: 1024, priority: 35 },
    ],
    32,
  );
  assert.equal(open.blocks.length, 32);
  assert.equal(open.perRange[1]?.blocks, null);
  // [0,17) with 16-token blocks covers blocks 0 and 1 (executor.h comment); [20,40) starts inside block 1, so covers only block 2.
  const c = retentionCoverage(
    [
      { tokenStart: 0, tokenEnd: 17, priority: 90 },
      { tokenStart: 20, tokenEnd: 40, priority: 10, durationMs: 5000 },
    ],
    16,
    48,
  );
  assert.deepEqual(
    c.blocks.map((b) => b.priority),
    [90, 90, 10],
  );
  assert.deepEqual(c.notOffloaded, [2]);
  assert.deepEqual(
    c.evictionOrder.map((l) => [l.priority, l.revertsAfterMs]),
    [
      [10, 5000],
      [35, null],
      [90, null],
    ],
  );
});

test('retention: decode priority below the offload threshold; blocks outside every range get priority 35', () => {
  const c = retentionCoverage([{ tokenStart: 64, tokenEnd: 128, priority: 80 }], 32, 160, {
    decodeRetentionPriority: 20,
    secondaryOffloadMinPriority: 35,
  });
  assert.deepEqual(
    c.blocks.map((b) => b.priority),
    [35, 35, 80, 80, 35],
  );
  assert.equal(c.decodeNotOffloaded, true);
  assert.deepEqual(c.notOffloaded, []);
  assert.equal(c.evictionOrder[0]?.priority, 20);
});
