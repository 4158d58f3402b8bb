// Serving estimates by hand: weights in the checkpoint's format, sharded as TensorRT-LLM shards them, the KV pool from
// what is free, and what each role's GPU holds. The arithmetic of each figure is in the comments.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, type AnalysisSettings } from '../../src/core/analysis.js';
import type { DocEstimate } from '../../src/core/memory/estimate.js';
import { WILD } from '../helpers.js';

type Serving = Extract<DocEstimate, { kind: 'serving' }>;
const GIB = 2 ** 30;

function serving(file: string, settings: AnalysisSettings): Serving {
  const e = analyze(readFileSync(join(WILD, file), 'utf8'), settings).main?.estimate;
  assert.equal(e?.kind, 'serving', e?.kind === 'none' ? e.reason : e?.kind);
  return e as Serving;
}
const lines = (e: Serving, role = 0) => e.roles[role]!.weights.lines.map((l) => [l.part, l.params, l.split, l.bytes]);

/** FP8 E4M3 with one FP32 scale per 128×128 block: 1 + 4/16384 bytes per weight, rounded up per part. */
const fp8 = (n: number) => Math.ceil(n * (1 + 4 / 16384));

test('DeepSeek-R1-0528 on 8 B200 (TP 8, EP 8, attention DP) is stored in FP8 and fits: 100.8 GB per GPU, not 197 GB of BF16', () => {
  const e = serving('TensorRT-LLM/DeepSeek-R1-0528__B200__8k1k_tp8_conc64.yaml', {
    documentPath: 'examples/configs/database/deepseek-ai/DeepSeek-R1-0528/B200/8k1k_tp8_conc64.yaml',
  });
  assert.deepEqual(
    [e.model.name, e.model.source, e.model.checkpoint?.hfId, e.gpu.id, e.gpuSource],
    ['deepseek-r1', 'path', 'deepseek-ai/DeepSeek-R1-0528', 'b200', 'path'],
  );
  assert.deepEqual(lines(e), [
    // 129,280 × 7,168 in BF16, on every rank under attention DP.
    ['embedding', 926_679_040, 'replicated (attention DP)', 1_853_358_080],
    // MLA down projections q_a 7168·1536 + kv_a 7168·576 per layer × 61: replicated in any layout.
    ['attention', 923_467_776, 'replicated', fp8(923_467_776)],
    // q_b 1536·128·192 + kv_b 512·128·256 + o 128·128·7168 = 171,966,464 per layer × 61, all on every rank (attention DP).
    ['attention', 10_489_954_304, 'replicated (attention DP)', fp8(10_489_954_304)],
    // 3 dense layers × 3 · 7168 · 18432 (modeling_deepseekv3.py: no MLP TP under attention DP).
    ['dense MLP', 1_189_085_184, 'replicated (attention DP)', fp8(1_189_085_184)],
    // 58 MoE layers × one shared expert 3 · 7168 · 2048.
    ['shared experts', 2_554_331_136, 'replicated (attention DP)', fp8(2_554_331_136)],
    // 58 × 256 experts × 3 · 7168 · 2048 / 8.
    ['routed experts', 81_738_596_352, 'EP × MoE-TP = 8', fp8(81_738_596_352)],
    ['lm head', 926_679_040, 'replicated (attention DP)', 1_853_358_080],
    // Norms, MLA latent norms, routers (7168·256 + 256 bias per MoE layer) in BF16.
    ['norms, routers, biases', 107_451_904, 'replicated', 214_903_808],
  ]);
  const r = e.roles[0]!;
  assert.equal(r.holds.weights, 100_840_710_832);
  // CUDA context 0.5 GiB + NCCL with EP 3 GiB + 8,320 tokens × (4·7168 + 3·18432/8) × 2 B.
  assert.equal(r.holds.runtime, 536_870_912 + 3_221_225_472 + 8320 * (4 * 7168 + (3 * 18432) / 8) * 2);
  const k = r.kv;
  // MLA: one 512 + 64 latent per layer, FP8: 576 × 61 = 35,136 B per token (attention DP: no TP split).
  assert.equal(k.bytesPerToken, 35_136);
  // (191,501,854,310 − 100,840,710,832 − 4,350,214,144) × 0.8 → 69,048,743,467 B → 1,965,185 tokens → 61,412 blocks of 32.
  assert.equal(k.freeBytes, 86_310_929_334);
  assert.deepEqual([k.poolBytes, k.poolTokens, k.poolBlocks, k.allocatedBytes], [69_048_743_467, 1_965_185, 61_412, 69_048_705_024]);
  // One request of 9,416 tokens: 295 blocks; 61,412 / 295 = 208.
  assert.deepEqual([k.blocksPerSequence, k.requestsAtMaxSeqLen], [295, 208]);
  assert.equal(r.fits, true);
  assert.ok(r.holds.weights / 1e9 < 101 && r.holds.weights / GIB > 93.9);
});

test('Helix: CP 4 in the generation servers splits FFN, experts and the output projection, and each request’s KV, four ways', () => {
  const e = serving('TensorRT-LLM/disagg_config_ctxtp4_gencp4_deepseek_v3_fp8_tllm_gen_helix.yaml', {
    documentPath: 'tests/integration/defs/disaggregated/test_configs/disagg_config_ctxtp4_gencp4_deepseek_v3_fp8_tllm_gen_helix.yaml',
    explicitGpu: 'gb300',
  });
  const gen = e.roles.find((r) => r.role === 'generation_servers')!;
  assert.deepEqual([gen.tp, gen.cp, gen.gpus], [1, 4, 4]);
  const byPart = Object.fromEntries(gen.weights.lines.map((l) => [`${l.part} ${l.split}`, l.params]));
  // q_b + kv_b per layer (37,748,736 + 16,777,216) × 61 on every CP rank; o 117,440,512 × 61 / 4.
  assert.equal(byPart['attention TP 1'], 3_326_083_072);
  assert.equal(byPart['attention TP·CP 4'], 1_790_967_808);
  assert.equal(byPart['routed experts EP × MoE-TP = 4'], 163_477_192_704); // 58 × 256 × 3 · 7168 · 2048 / 4
  // 36,000 tokens (max_num_tokens, no max_seq_len: DeepSeek-V3 states no max_position_embeddings here) keep 9,000 per rank:
  // 282 blocks of 32.
  assert.equal(gen.kv.blocksPerSequence, 282);
  assert.ok(gen.kv.assumptions.some((a) => /KV cache split over CP 4/.test(a.what)));
  // The top-level free_gpu_memory_fraction 0.25 applies to both roles.
  assert.deepEqual(
    e.roles.map((r) => r.kv.fraction),
    [0.25, 0.25],
  );
});

test('wide-EP benchmark layout: worker_config.ctx / .gen roles, hardware server counts, EPLB slots, NVFP4 MLPs', () => {
  const e = serving('TensorRT-LLM/kimi-k2-thinking.yaml', {
    documentPath: 'examples/wide_ep/slurm_scripts/kimi-k2-thinking.yaml',
    explicitModel: 'nvidia/Kimi-K2-Thinking-NVFP4',
    explicitGpu: 'gb200',
  });
  assert.deepEqual(
    e.roles.map((r) => [r.role, r.tp, r.ep, r.attentionDp, r.instances]),
    [
      ['context_servers', 4, 4, true, 4],
      ['generation_servers', 32, 32, true, 1],
    ],
  );
  const gen = e.roles[1]!;
  const routed = gen.weights.lines.find((l) => l.part === 'routed experts')!;
  // 60 MoE layers × 384 experts × 3 · 7168 · 2048 = 1,014,686,023,680, with 416 EPLB slots for 384 experts over EP 32:
  // 13 experts per rank instead of 12 → × 416 / 384 / 32; NVFP4 0.5 + 1/16 bytes.
  assert.equal(routed.params, 34_351_349_760);
  assert.equal(routed.bytes, Math.ceil(34_351_349_760 * 0.5625));
  // enable_lm_head_tp_in_adp splits the LM head over TP 32 on the generation servers; the context servers replicate it.
  assert.deepEqual(
    e.roles.map((r) => r.weights.lines.find((l) => l.part === 'lm head')!.split),
    ['replicated (attention DP)', 'vocab-parallel 32'],
  );
  // NVFP4 for the MLPs, attention in BF16 (NVIDIA's DeepSeek-V3-architecture NVFP4 releases).
  assert.equal(gen.weights.lines.find((l) => l.part === 'attention' && l.split === 'replicated (attention DP)')!.bytesPerParam, 2);
});

test('MTP speculative decoding loads the MTP layer (unquantized in NVIDIA FP4 checkpoints) and caches one more layer', () => {
  const e = serving('TensorRT-LLM/disagg_config_ctxtp4_gentp4_deepseek_r1_v2_fp4_tllm_mtp.yaml', {
    documentPath: 'tests/integration/defs/disaggregated/test_configs/disagg_config_ctxtp4_gentp4_deepseek_r1_v2_fp4_tllm_mtp.yaml',
    explicitGpu: 'b200',
  });
  const r = e.roles[0]!;
  const mtp = r.weights.lines.filter((l) => l.part === 'MTP');
  // Its 256 routed experts (3 · 7168 · 2048 each) over TP 4, in BF16: model.layers.61* is excluded from NVFP4.
  assert.deepEqual(
    mtp.map((l) => [l.params, l.bytesPerParam]),
    [
      [17_011_968, 2],
      [79_691_776, 2],
      [2_818_572_288, 2],
    ],
  );
  // 61 + 1 layers of 576 FP8 latents.
  assert.deepEqual([r.kv.perToken.layers.length, r.kv.bytesPerToken], [62, 35_712]);
});

test('hybrid models cache KV for their attention layers only and keep a recurrent state per request', () => {
  const e = serving('TensorRT-LLM/qwen3-next.yaml', {
    documentPath: 'examples/configs/curated/qwen3-next.yaml',
    explicitModel: 'Qwen/Qwen3-Next-80B-A3B-Thinking',
    explicitGpu: 'h100',
  });
  const r = e.roles[0]!;
  // 48 layers, one full-attention layer in 4: 12 layers × 2 (K, V) × ⌈2 KV heads / TP 4⌉ × 256 × 2 B.
  assert.deepEqual([r.kv.perToken.layers.length, r.kv.bytesPerToken], [12, 12_288]);
  // 36 Gated DeltaNet layers × 16 requests (max_batch_size): conv (2·16·128 + 32·128) × 3 × 2 B + state 32 · 128 · 128 × 2 B,
  // over TP 4.
  assert.equal(r.stateBytes, (16 * 36 * ((2 * 16 * 128 + 32 * 128) * 3 * 2 + 32 * 128 * 128 * 2)) / 4);
});

test('a model named on the command line that fits nothing is the answer; one the path names is a stated hint', () => {
  const text = readFileSync(join(WILD, 'TensorRT-LLM/gpt-oss-120b-latency.yaml'), 'utf8');
  const e = analyze(text, { explicitModel: 'mistral-7b' }).main?.estimate;
  assert.equal(e?.kind, 'none');
  assert.match(
    e?.kind === 'none' ? e.reason : '',
    /^the --model option: "mistral-7b" fits 2 catalogue models \(mistral-7b-v0\.1, mistral-7b-v0\.3\)/,
  );
  const hinted = serving('TensorRT-LLM/gpt-oss-120b-latency.yaml', { documentPath: 'examples/configs/curated/gpt-oss-120b-latency.yaml' });
  assert.equal(hinted.model.name, 'gpt-oss-120b');
  assert.deepEqual(hinted.assumptions[0], {
    what: 'model gpt-oss-120b',
    source: 'the path segment "gpt-oss-120b-latency.yaml" names "gpt-oss-120b"',
    provenance: 'default',
  });
});

test('an NVFP4 checkpoint with no GPU named is estimated on B200 (NVFP4 runs on Blackwell only), and says so; a named GPU wins', () => {
  const text = '# recipe-lens: model=nvidia/DeepSeek-R1-FP4\ntensor_parallel_size: 8\nkv_cache_config:\n  free_gpu_memory_fraction: 0.8\n';
  const e = analyze(text).main!.estimate!;
  assert.equal(e.kind, 'serving');
  if (e.kind !== 'serving') return;
  assert.equal(e.weights.dtype, 'nvfp4');
  assert.deepEqual([e.gpu.id, e.gpuSource], ['b200', 'default']);
  const gpu = e.assumptions.find((a) => a.what === `GPU ${e.gpu.name}`);
  assert.match(gpu?.source ?? '', /checkpoint is NVFP4, which TensorRT-LLM runs on Blackwell GPUs only/);
  const named = analyze(text.replace('model=', 'gpu=h200 model=')).main!.estimate!;
  assert.deepEqual(named.kind === 'serving' ? [named.gpu.id, named.gpuSource] : [], ['h200', 'modeline']);
  // An FP8 checkpoint may run on Hopper: DeepSeek-R1 at TP 8 (84.5 GB of FP8 weights per GPU) does not fit the H100 and is
  // shown on the H200, which the estimate states; a small model keeps the default H100 and its plain default statement.
  const fp8 = analyze(text.replace('nvidia/DeepSeek-R1-FP4', 'deepseek-ai/DeepSeek-R1-0528')).main!.estimate!;
  assert.deepEqual(fp8.kind === 'serving' ? [fp8.weights.dtype, fp8.gpu.id, fp8.gpuSource, fp8.roles[0]!.fits] : [], [
    'fp8',
    'h200',
    'default',
    true,
  ]);
  assert.match(
    fp8.kind === 'serving' ? (fp8.assumptions.find((a) => a.what === 'GPU NVIDIA H200 141GB')?.source ?? '') : '',
    /^no GPU named: the weights and runtime do not fit the NVIDIA H100 80GB HBM3 \(SXM\), so estimated on the NVIDIA H200 141GB, the smallest data-centre GPU where every role fits/,
  );
  const small = analyze(text.replace('nvidia/DeepSeek-R1-FP4', 'meta-llama/Llama-3.1-8B-Instruct')).main!.estimate!;
  assert.deepEqual(small.kind === 'serving' ? [small.gpu.id, small.assumptions.find((a) => a.what.startsWith('GPU '))?.source] : [], [
    'h100',
    'no GPU named (modeline gpu=, --gpu, the path, the recipeLens.gpu setting): the default',
  ]);
});
