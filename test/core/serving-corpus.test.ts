// Every TensorRT-LLM and Dynamo serving file of ../shared/corpus and ../shared/corpus-wild gets its model resolved —
// from the file, from its upstream path (passed as documentPath), or, for files that name none, the model the upstream
// docs next to it name (the comment says where) — and an estimate; every config NVIDIA ships for a GPU fits that GPU:
// each role's weights, runtime and state fit, and (unless the file caps the pool itself) its KV pool holds at least
// one request of max_seq_len, with no RL-MEM. Files whose model the catalogue cannot hold get no estimate, with a reason.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, type AnalysisSettings } from '../../src/core/analysis.js';
import { SHARED, WILD, wildSources } from '../helpers.js';

interface Fits {
  /** The model the docs name, for a file that names none (passed as the CLI's --model would be). */
  model?: string;
  /** The GPU the docs or the path name (passed as --gpu); absent: the GPU the path names. */
  gpu?: string;
  /** YAML the upstream launcher merges in (AutoDeploy's models.yaml `yaml_extra`). */
  extra?: string;
  /** The catalogue model the estimate must use. */
  expect: string;
  /** The checkpoint's stored format: `fp8:linear`, `nvfp4:mlp`, … */
  weights: string;
}
interface None {
  none: RegExp;
}

/** Keyed by the file under ../shared. */
const FILES: Record<string, Fits | None> = {
  // Model and GPU from the config database path.
  'corpus-wild/TensorRT-LLM/DeepSeek-R1-0528-FP4-v2__B200__1k8k_tp8_conc1024.yaml': { expect: 'deepseek-r1', weights: 'nvfp4:mlp' },
  'corpus-wild/TensorRT-LLM/DeepSeek-R1-0528__B200__8k1k_tp8_conc64.yaml': { expect: 'deepseek-r1', weights: 'fp8:linear' },
  'corpus-wild/TensorRT-LLM/Qwen3-235B-A22B__GB200__1k8k_tp8_conc32.yaml': { expect: 'qwen3-235b-a22b', weights: 'bf16:all' },
  'corpus-wild/TensorRT-LLM/gpt-oss-120b__B200__1k1k_tp4_conc1280.yaml': { expect: 'gpt-oss-120b', weights: 'mxfp4:experts' },
  // NVIDIA/TensorRT-LLM examples/configs/curated/lookup.yaml: deepseek-ai/DeepSeek-R1-0528, gpu_compatibility "B200, GB200".
  'corpus-wild/TensorRT-LLM/deepseek-r1-deepgemm.yaml': {
    model: 'deepseek-ai/DeepSeek-R1-0528',
    gpu: 'b200',
    expect: 'deepseek-r1',
    weights: 'fp8:linear',
  },
  // NVIDIA/TensorRT-LLM examples/configs/curated/lookup.yaml: openai/gpt-oss-120b, gpu_compatibility "Any" (the smallest: H100).
  'corpus-wild/TensorRT-LLM/gpt-oss-120b-latency.yaml': {
    model: 'openai/gpt-oss-120b',
    gpu: 'h100',
    expect: 'gpt-oss-120b',
    weights: 'mxfp4:experts',
  },
  // NVIDIA/TensorRT-LLM examples/configs/curated/lookup.yaml: Qwen/Qwen3-Next-80B-A3B-Thinking, "Any".
  'corpus-wild/TensorRT-LLM/qwen3-next.yaml': {
    model: 'Qwen/Qwen3-Next-80B-A3B-Thinking',
    gpu: 'h100',
    expect: 'qwen3-next-80b-a3b',
    weights: 'bf16:all',
  },
  // Disaggregated test configs: the model from `model:`. GPUs: tests/integration/defs/disaggregated/test_disaggregated.py
  // gives the rank counts; the test lists that place them were not in the sources read, so the GPU is the smallest the
  // config's kernels need — TRTLLM MoE / tllm-gen attention / NVFP4: Blackwell (B200); the rest H100.
  'corpus-wild/TensorRT-LLM/disagg_config_ctxtp1_gentp4_qwen3_32b_fp8.yaml': { gpu: 'h100', expect: 'qwen3-32b', weights: 'fp8:linear' },
  'corpus-wild/TensorRT-LLM/disagg_config_ctxtp2_gentp2_gptoss_tllm.yaml': {
    gpu: 'b200',
    expect: 'gpt-oss-120b',
    weights: 'mxfp4:experts',
  },
  'corpus-wild/TensorRT-LLM/disagg_config_ctxtp4_gentp4_deepseek_r1_v2_fp4_tllm_mtp.yaml': {
    gpu: 'b200',
    expect: 'deepseek-r1',
    weights: 'nvfp4:mlp',
  },
  // Maverick FP8 at TP 4 holds 94 GiB of weights per GPU: a Hopper H100 cannot hold it; B200 taken.
  'corpus-wild/TensorRT-LLM/disagg_config_llama4_kv_cache_overflow.yaml': {
    gpu: 'b200',
    expect: 'llama4-maverick-17b-128e',
    weights: 'fp8:linear',
  },
  // test_disaggregated.py test_disaggregated_deepseek_v3_fp8_tllm_gen_helix: the full DeepSeek-V3 (FP8) on 8 ranks with
  // tllm-gen (Blackwell) kernels and 132,000-token context batches at free_gpu_memory_fraction 0.25. On a 178 GiB B200 the
  // context role keeps 1.1 GiB of pool after 157.5 GiB of weights and a 13.9 GiB activation peak: too little for one such
  // request, so a 277 GiB GB300 is assumed (the test list was not read).
  'corpus-wild/TensorRT-LLM/disagg_config_ctxtp4_gencp4_deepseek_v3_fp8_tllm_gen_helix.yaml': {
    gpu: 'gb300',
    expect: 'deepseek-v3',
    weights: 'fp8:linear',
  },
  // TensorRT-LLM docs/source/deployment-guide/deployment-guide-for-kimi-k2-thinking-on-trtllm.md: "NVFP4 model:
  // nvidia/Kimi-K2-Thinking-NVFP4" (Blackwell); the file: "numa_bind: true # Only enable for GB200 NVL72".
  'corpus-wild/TensorRT-LLM/kimi-k2-thinking.yaml': {
    model: 'nvidia/Kimi-K2-Thinking-NVFP4',
    gpu: 'gb200',
    expect: 'kimi-k2',
    weights: 'nvfp4:mlp',
  },
  // examples/auto_deploy/model_registry/models.yaml: meta-llama/Llama-3.3-70B-Instruct with world_size_4.yaml.
  'corpus-wild/TensorRT-LLM/llama3_3_70b.yaml': {
    model: 'meta-llama/Llama-3.3-70B-Instruct',
    gpu: 'h100',
    extra: 'world_size: 4',
    expect: 'llama3.3-70b',
    weights: 'bf16:all',
  },
  // models.yaml: nvidia/Qwen3.5-397B-A17B-NVFP4 (the file sets world_size 8); NVFP4: Blackwell. Its hf_quant_config.json
  // excludes self_attn, linear_attn and the shared experts of every layer: only the routed experts are NVFP4.
  'corpus-wild/TensorRT-LLM/qwen3.5_moe_400b_nvfp4.yaml': {
    model: 'nvidia/Qwen3.5-397B-A17B-NVFP4',
    gpu: 'b200',
    expect: 'qwen3.5-397b-a17b',
    weights: 'nvfp4:experts',
  },
  // models.yaml: nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16 with world_size_8.yaml (the entry is commented out for an
  // AutoDeploy OOM; the shape fits 8 H100s).
  'corpus-wild/TensorRT-LLM/super_v3_mtp.yaml': {
    model: 'nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16',
    gpu: 'h100',
    extra: 'world_size: 8',
    expect: 'nemotron3-super-120b-a12b',
    weights: 'bf16:all',
  },
  // examples/disaggregated/slurm/simple_example/launch.slurm: trtllm-serve TinyLlama/TinyLlama-1.1B-Chat-v1.0.
  'corpus-wild/TensorRT-LLM/ctx_extra-llm-api-config.yaml': {
    model: 'TinyLlama/TinyLlama-1.1B-Chat-v1.0',
    gpu: 'h100',
    expect: 'tinyllama-1.1b',
    weights: 'bf16:all',
  },
  'corpus-wild/TensorRT-LLM/simple_example__disagg_config.yaml': {
    model: 'TinyLlama/TinyLlama-1.1B-Chat-v1.0',
    gpu: 'h100',
    expect: 'tinyllama-1.1b',
    weights: 'bf16:all',
  },
  // No shape the catalogue can source: DeepSeek-V3-Lite is a trimmed model of TensorRT-LLM's CI, not published; DeepSeek-V4-Pro
  // (a new attention), MiniMax-M3 (sparse attention) and Qwen3.8-Flash-Next are not in the catalogue.
  'corpus-wild/TensorRT-LLM/disagg_config_cache_reuse_deepseek_v3.yaml': { none: /^model: "DeepSeek-V3-Lite\/bf16" is no catalogue model/ },
  'corpus-wild/TensorRT-LLM/disagg_config_conditional_deepseek_v3.yaml': { none: /^model: "DeepSeek-V3-Lite\/bf16" is no catalogue model/ },
  'corpus-wild/TensorRT-LLM/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_nixl.yaml': {
    none: /^model: "DeepSeek-V3-Lite\/fp8" is no catalogue model/,
  },
  // Recognised, not modelled (src/core/models/unmodelled.ts): the reason names the model and the parts without terms.
  'corpus-wild/TensorRT-LLM/deepseek-v4-pro-latency.yaml': {
    none: /the path segment "deepseek-v4-pro-latency\.yaml": "deepseek-v4-pro-latency" names DeepSeek-V4, a model Recipe Lens does not model yet: its manifold-constrained hyper-connections/,
  },
  'corpus-wild/TensorRT-LLM/minimax-m3-throughput.yaml': {
    none: /"minimax-m3-throughput" names MiniMax-M3, a model Recipe Lens does not model yet: its block-sparse attention with its lightning indexer/,
  },
  // NVIDIA/TensorRT-LLM docs/source/deployment-guide/deployment-guide-for-nemotron-3-on-trtllm.md: "tuned for max
  // throughput on 4x B200", trtllm-serve nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4.
  'corpus-wild/TensorRT-LLM/nemotron-3-ultra-throughput.yaml': {
    model: 'nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4',
    gpu: 'b200',
    expect: 'nemotron3-ultra-550b-a55b',
    weights: 'nvfp4:linear',
  },
  'corpus-wild/TensorRT-LLM/qwen3.8-flash-next-disagg-gen.yaml': { none: /neither the file nor its path names a model/ },
  // ai-dynamo/dynamo docs/backends/trtllm/README.md: the examples serve Qwen/Qwen3-0.6B by default.
  'corpus-wild/dynamo/decode-lora.yaml': { model: 'Qwen/Qwen3-0.6B', gpu: 'h100', expect: 'qwen3-0.6b', weights: 'bf16:all' },
  'corpus-wild/dynamo/qwen3__agg.yaml': { model: 'Qwen/Qwen3-0.6B', gpu: 'h100', expect: 'qwen3-0.6b', weights: 'bf16:all' },
  'corpus/dynamo/agg.yaml': { model: 'Qwen/Qwen3-0.6B', gpu: 'h100', expect: 'qwen3-0.6b', weights: 'bf16:all' },
  // The path names DeepSeek-R1-Distill-Llama-8B (a Llama 3 8B); the docs name no GPU.
  'corpus-wild/dynamo/deepseek-r1-distill-llama-8b__prefill.yaml': { gpu: 'h100', expect: 'llama3-8b', weights: 'bf16:all' },
  // dynamo docs/backends/trtllm/trtllm-llama4-plus-eagle.md: nvidia/Llama-4-Maverick-17B-128E-Instruct-FP8 on GB200x4 nodes.
  'corpus-wild/dynamo/eagle_agg.yml': {
    model: 'nvidia/Llama-4-Maverick-17B-128E-Instruct-FP8',
    gpu: 'gb200',
    expect: 'llama4-maverick-17b-128e',
    weights: 'fp8:linear',
  },
  'corpus-wild/dynamo/eagle_decode.yaml': {
    model: 'nvidia/Llama-4-Maverick-17B-128E-Instruct-FP8',
    gpu: 'gb200',
    expect: 'llama4-maverick-17b-128e',
    weights: 'fp8:linear',
  },
  // dynamo docs multimodal guide: meta-llama/Llama-4-Maverick-17B-128E-Instruct in BF16; no GPU named, and 93 GiB per GPU
  // at TP 8 needs at least an H200.
  'corpus-wild/dynamo/multimodal__agg.yaml': {
    model: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct',
    gpu: 'h200',
    expect: 'llama4-maverick-17b-128e',
    weights: 'bf16:all',
  },
  // ai-dynamo/dynamo docs/backends/trtllm/multinode/trtllm-multinode-examples.md: nvidia/DeepSeek-R1-FP4 on GB200 nodes.
  'corpus-wild/dynamo/mtp_prefill.yaml': { model: 'nvidia/DeepSeek-R1-FP4', gpu: 'gb200', expect: 'deepseek-r1', weights: 'nvfp4:mlp' },
  'corpus-wild/dynamo/simple__agg.yaml': { model: 'nvidia/DeepSeek-R1-FP4', gpu: 'gb200', expect: 'deepseek-r1', weights: 'nvfp4:mlp' },
  'corpus-wild/dynamo/simple__decode.yaml': { model: 'nvidia/DeepSeek-R1-FP4', gpu: 'gb200', expect: 'deepseek-r1', weights: 'nvfp4:mlp' },
  'corpus-wild/dynamo/simple__prefill.yaml': { model: 'nvidia/DeepSeek-R1-FP4', gpu: 'gb200', expect: 'deepseek-r1', weights: 'nvfp4:mlp' },
  'corpus-wild/dynamo/wide_ep_agg.yaml': { model: 'nvidia/DeepSeek-R1-FP4', gpu: 'gb200', expect: 'deepseek-r1', weights: 'nvfp4:mlp' },
  'corpus/dynamo/wide_ep_prefill.yaml': { model: 'nvidia/DeepSeek-R1-FP4', gpu: 'gb200', expect: 'deepseek-r1', weights: 'nvfp4:mlp' },
  // The path names Qwen3-VL-30B-A3B-Instruct-FP8: the Qwen3-VL entry, FP8 from the checkpoint name; no GPU named.
  'corpus-wild/dynamo/qwen3-vl-30b-a3b-instruct-fp8__prefill.yaml': { expect: 'qwen3-vl-30b-a3b', weights: 'fp8:linear' },
  // NVIDIA/TensorRT-LLM examples/configs/curated/lookup.yaml: nvidia/Llama-3.3-70B-Instruct-FP8, "Any".
  'corpus/TensorRT-LLM/llama-3.3-70b.yaml': {
    model: 'nvidia/Llama-3.3-70B-Instruct-FP8',
    gpu: 'h100',
    expect: 'llama3.3-70b',
    weights: 'fp8:linear',
  },
  // NVIDIA/TensorRT-LLM examples/configs/curated/lookup.yaml: deepseek-ai/DeepSeek-R1-0528, gpu_compatibility "H100, H200": 8 × 80 GB cannot hold 671B FP8 weights with
  // attention DP (95 GiB per GPU), so H200.
  'corpus/TensorRT-LLM/deepseek-r1-throughput.yaml': {
    model: 'deepseek-ai/DeepSeek-R1-0528',
    gpu: 'h200',
    expect: 'deepseek-r1',
    weights: 'fp8:linear',
  },
  // examples/disaggregated/README.md: trtllm-serve TinyLlama/TinyLlama-1.1B-Chat-v1.0 --config ./ctx_config.yaml.
  'corpus/TensorRT-LLM/ctx_config.yaml': {
    model: 'TinyLlama/TinyLlama-1.1B-Chat-v1.0',
    gpu: 'h100',
    expect: 'tinyllama-1.1b',
    weights: 'bf16:all',
  },
  'corpus/TensorRT-LLM/gen_config.yaml': {
    model: 'TinyLlama/TinyLlama-1.1B-Chat-v1.0',
    gpu: 'h100',
    expect: 'tinyllama-1.1b',
    weights: 'bf16:all',
  },
  'corpus/TensorRT-LLM/disagg_config.yaml': { gpu: 'h100', expect: 'tinyllama-1.1b', weights: 'bf16:all' },
  'corpus/TensorRT-LLM/disagg_config_cache_reuse.yaml': { gpu: 'h100', expect: 'tinyllama-1.1b', weights: 'bf16:all' },
  'corpus/TensorRT-LLM/disagg_config_ctxtp1_gentp1_gptoss_host_offload.yaml': {
    gpu: 'h100',
    expect: 'gpt-oss-120b',
    weights: 'mxfp4:experts',
  },
  // examples/aggregated/slurm/benchmark/config.yaml: `model_path: "<path_to_model>"` — it names no model.
  'corpus/TensorRT-LLM/extra_llm_api_options.yaml': { none: /neither the file nor its path names a model/ },
  'corpus/TensorRT-LLM/disagg_config_ctxtp2_gentp1cp2_deepseek_v3_lite_fp8_tllm_gen_128k.yaml': {
    none: /^model: "DeepSeek-V3-Lite\/fp8" is no catalogue model/,
  },
  // ai-dynamo/dynamo examples/backends/trtllm/launch/disagg (gpt_oss): SERVED_MODEL_NAME openai/gpt-oss-120b, TP 4.
  'corpus/dynamo/decode.yaml': { model: 'openai/gpt-oss-120b', gpu: 'h100', expect: 'gpt-oss-120b', weights: 'mxfp4:experts' },
};

/** Every serving file of both corpora with its upstream path. */
function servingFiles(): { file: string; path: string }[] {
  const wild = wildSources()
    .filter((s) => s.kind === 'trtllm-options' || s.kind === 'trtllm-disagg')
    .map((s) => ({ file: `corpus-wild/${s.file}`, path: s.path }));
  const [, ...rows] = readFileSync(join(SHARED, 'corpus', 'SOURCES.tsv'), 'utf8')
    .trim()
    .split('\n');
  const corpus = rows
    .map((r) => r.split('\t'))
    .filter(([f]) => /^(TensorRT-LLM|dynamo)\//.test(f!))
    .map(([f, , p]) => ({ file: `corpus/${f}`, path: p! }));
  return [...wild, ...corpus];
}

test('the table covers every TensorRT-LLM and Dynamo serving file of both corpora', () => {
  const files = servingFiles().map((f) => f.file);
  assert.equal(files.length, 49); // 37 corpus-wild (SOURCES.tsv kinds trtllm-options, trtllm-disagg) + 12 corpus
  assert.deepEqual([...files].sort(), Object.keys(FILES).sort());
  assert.ok(WILD.endsWith('corpus-wild'));
});

for (const { file, path } of servingFiles()) {
  const spec = FILES[file];
  test(`serving: ${file}`, () => {
    assert.ok(spec, `${file} is not in the table`);
    let text = readFileSync(join(SHARED, file), 'utf8');
    const settings: AnalysisSettings = { documentPath: path };
    if ('none' in spec) {
      const e = analyze(text, settings).main?.estimate;
      assert.equal(e?.kind, 'none');
      assert.match(e?.kind === 'none' ? e.reason : '', spec.none);
      return;
    }
    if (spec.extra) text = `${text}\n${spec.extra}\n`;
    if (spec.model) settings.explicitModel = spec.model;
    if (spec.gpu) settings.explicitGpu = spec.gpu;
    const a = analyze(text, settings);
    const e = a.main?.estimate;
    assert.equal(e?.kind, 'serving', e?.kind === 'none' ? e.reason : e?.kind);
    if (e?.kind !== 'serving') return;
    assert.equal(e.model.name, spec.expect);
    assert.equal(`${e.weights.dtype}:${e.weights.scope}`, spec.weights);
    for (const r of e.roles) {
      const what = `${file} ${r.role || 'server'}`;
      assert.ok(r.fits, `${what}: weights ${r.holds.weights} + runtime ${r.holds.runtime} + state ${r.holds.state} > ${e.gpu.bytes}`);
      assert.ok(r.holds.weights + r.holds.runtime + r.holds.state + r.holds.kvPool <= e.gpu.bytes, `${what}: over the GPU`);
      // A pool the file caps itself (max_tokens, max_gpu_total_bytes) is its choice; a pool sized from free memory must
      // hold a whole request of max_seq_len.
      if (r.kv.limit === 'free_gpu_memory_fraction') assert.ok(r.kv.requestsAtMaxSeqLen >= 1, `${what}: no request fits the pool`);
    }
    assert.deepEqual(
      a.findings.filter((f) => f.code === 'RL-MEM').map((f) => f.message),
      [],
    );
  });
}
