// TensorRT-LLM perf-sanity server lists (tests/scripts/perf-sanity/aggregated/*.yaml): detected as their own format,
// each server checked as an LlmArgs with the harness's keys (test_perf_sanity.py ServerConfig), each sized as a
// trtllm-serve server of its model on the GPU the file lists, and the harness's model names resolved.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, type AnalysisSettings } from '../../src/core/analysis.js';
import { estimateLenses } from '../../src/core/lens.js';
import type { DocEstimate } from '../../src/core/memory/estimate.js';
import { REPO } from '../helpers.js';

type Serving = Extract<DocEstimate, { kind: 'serving' }>;
const AGGREGATED = join(REPO, 'test', 'data', 'upstream', 'TensorRT-LLM', 'tests', 'scripts', 'perf-sanity', 'aggregated');
const upstream = (name: string) => readFileSync(join(AGGREGATED, name), 'utf8');
const detection = (text: string) => analyze(text).parsed.docs[0]!.detection;

function serving(text: string, s: AnalysisSettings = {}): Serving {
  const e = analyze(text, s).main?.estimate;
  assert.equal(e?.kind, 'serving', e?.kind === 'none' ? e.reason : e?.kind);
  return e as Serving;
}
const diags = (text: string, s: AnalysisSettings = {}) =>
  analyze(text, s).diagnostics.map((d) => [d.severity, d.code, d.range.start.line + 1, d.message]);

const MIXED = `metadata:
  model_name: qwen3_235b_a22b_fp8
  supported_gpus:
  - H200
  - B200
hardware:
  gpus_per_node: 8
server_configs:
  - name: qwen_tp8
    tensor_parallel_size: 8
    moe_expert_parallel_size: 8
    client_configs:
      - concurrency: 4
  - name: oss_tp4
    model_name: gpt_oss_120b_fp4
    tensor_parallel_size: 4
    client_configs:
      - concurrency: 4
  - name: oss_tp8
    model_name: gpt_oss_120b_fp4
    tensor_parallel_size: 8
    client_configs:
      - concurrency: 4
`;

test('detection: a server_configs list of LlmArgs servers is a perf-sanity config, with its evidence', () => {
  const d = detection(upstream('gpt_oss_120b_fp4_blackwell.yaml'));
  assert.deepEqual([d.format, d.evidence], ['trtllm-perf', ['server_configs: 3 LlmArgs servers with client_configs']]);
  // AutoDeploy servers carry few LlmArgs keys (backend, world_size) beside their clients: still a server list.
  assert.equal(detection(upstream('super_mtp_ad_blackwell.yaml')).format, 'trtllm-perf');
  // A list named server_configs whose items are no LlmArgs (an MCP client's servers) is not.
  assert.equal(detection('server_configs:\n  - transport: stdio\n    command: python\n    args: [main.py]\n').format, null);
});

test('every upstream perf-sanity file checks clean but for the deprecations it really has', () => {
  for (const f of [
    'deepseek_r1_distill_qwen_32b_autodeploy_h100.yaml',
    'dynamo_qwen3_32b_fp8_hopper.yaml',
    'gemma4_26b_a4b_nvfp4_blackwell.yaml',
    'gpt_oss_120b_fp4_blackwell.yaml',
    'host_perf_llama8b_spec_decode.yaml',
    'llama_v3_3_70b_instruct_fp4_blackwell.yaml',
    'super_mtp_ad_blackwell.yaml',
  ])
    assert.deepEqual(diags(upstream(f)), [], f);
  // speculative_config.num_nextn_predict_layers: TensorRT-LLM renamed it max_draft_len (a warning, not an error).
  assert.deepEqual(
    diags(upstream('deepseek_r1_fp8_blackwell.yaml')).map((d) => d.slice(0, 3)),
    [29, 65, 96, 132].map((line) => ['warning', 'RL-DEPRECATED', line]),
  );
});

test('a server is checked as an LlmArgs: a misspelt key warns, a bad value and a missing client list are errors', () => {
  const text = `metadata:
  model_name: gpt_oss_120b_fp4
server_configs:
  - name: a
    tensor_paralel_size: 4
    kv_cache_config:
      free_gpu_memory_fraction: 1.5
    match_mode: scenario
    server_env_var: "TLLM_SPEC_DECODE_FORCE_NUM_ACCEPTED_TOKENS=3"
    client_configs:
      - name: c
        isl: 1024
        dataset_file: <dataset_file>
  - name: b
    tensor_parallel_size: 2
`;
  assert.deepEqual(diags(text), [
    ['warning', 'RL-UNKNOWN-KEY', 5, 'unknown key `tensor_paralel_size` in `server_configs[0]`; did you mean `tensor_parallel_size`?'],
    ['error', 'RL-K1', 7, '`free_gpu_memory_fraction` must be a number ≥ 0 and ≤ 1, got 1.5'],
    // test_perf_sanity.py reads server_config_data["client_configs"] unconditionally.
    ['error', 'RL-SCHEMA', 14, '`server_configs[1]` is missing the required key `client_configs`'],
  ]);
});

test('each server is a role named by its name, with the model from its model_name or metadata.model_name', () => {
  const a = analyze(MIXED).main!;
  const r = a.recipe;
  assert.equal(r?.kind, 'serving');
  if (r?.kind !== 'serving') return;
  assert.deepEqual(
    r.roles.map((x) => [x.role, x.values.model, x.values.tp, x.loc.model?.path.join('.')]),
    [
      ['qwen_tp8', 'qwen3_235b_a22b_fp8', 8, 'metadata.model_name'],
      ['oss_tp4', 'gpt_oss_120b_fp4', 4, 'server_configs.1.model_name'],
      ['oss_tp8', 'gpt_oss_120b_fp4', 8, 'server_configs.2.model_name'],
    ],
  );
  assert.deepEqual([r.layout, r.gpusPerNode, r.supportedGpus], ['server_configs', 8, ['H200', 'B200']]);
  // Servers without a unique name are named by their place in the list.
  const dup = analyze(MIXED.replace('name: oss_tp8', 'name: oss_tp4')).main!.recipe;
  assert.deepEqual(dup?.kind === 'serving' && dup.roles.map((x) => x.role), ['qwen_tp8', 'server_configs[1]', 'server_configs[2]']);
});

test('servers of several models: the first model sizes its servers, and the others are named as not sized', () => {
  const e = serving(MIXED);
  assert.deepEqual([e.model.name, e.roles.map((x) => x.role), e.gpu.id, e.gpuSource], ['qwen3-235b-a22b', ['qwen_tp8'], 'h200', 'file']);
  const note = e.assumptions.find((x) => x.what === 'the servers of qwen3-235b-a22b only');
  assert.equal(
    note?.source,
    "the file's servers run 2 models; 2 servers of gpt_oss_120b_fp4 are not sized here: name one with `# recipe-lens: model=…` to size its servers",
  );
  // A modeline naming the other model sizes the servers whose model_name resolves to it.
  const other = serving(`# recipe-lens: model=openai/gpt-oss-120b\n${MIXED}`);
  assert.deepEqual([other.model.name, other.roles.map((x) => x.role)], ['gpt-oss-120b', ['oss_tp4', 'oss_tp8']]);
});

test('the GPU is the first of metadata.supported_gpus unless one is named; no RL-MEM finding is raised on it', () => {
  const e = serving(upstream('super_mtp_ad_blackwell.yaml'));
  assert.deepEqual([e.gpu.id, e.gpuSource], ['gb200', 'file']);
  const gpu = e.assumptions.find((x) => x.what === `GPU ${e.gpu.name}`);
  assert.deepEqual(
    [gpu?.source, gpu?.provenance],
    [
      "the first GPU of the file's metadata.supported_gpus (it also lists B200); set `# recipe-lens: gpu=…` or --gpu to choose another",
      'file',
    ],
  );
  // A named GPU wins: the setting, a modeline.
  assert.equal(serving(upstream('super_mtp_ad_blackwell.yaml'), { gpu: 'h200' }).gpu.id, 'h200');
  assert.equal(serving(`# recipe-lens: gpu=b300\n${upstream('super_mtp_ad_blackwell.yaml')}`).gpu.id, 'b300');
  // A path that names a GPU is read after the file's own list.
  assert.equal(serving(upstream('dynamo_qwen3_32b_fp8_hopper.yaml'), { documentPath: 'perf/h100/dynamo.yaml' }).gpu.id, 'h200');
  // Qwen3-235B-A22B FP8 on one GPU: 220 GiB of weights. Named, the H200 is a finding; listed by the file, whose CI runs
  // it there, it is not (the estimate would be what is wrong).
  const one =
    'metadata:\n  model_name: qwen3_235b_a22b_fp8\n  supported_gpus:\n  - H200\nserver_configs:\n  - name: qwen_tp1\n    tensor_parallel_size: 1\n    client_configs:\n      - concurrency: 4\n';
  const mem = (s: AnalysisSettings) => analyze(one, { memoryWarnings: true, ...s }).diagnostics.filter((d) => d.code === 'RL-MEM');
  assert.deepEqual(
    mem({ gpu: 'h200' }).map((d) => [d.severity, d.range.start.line + 1, d.message]),
    [
      [
        'warning',
        7,
        'qwen_tp1: weights 220.2 GiB (qwen3-235b-a22b, BF16 / FP8 (128×128 blocks, FP32 scales)) + non-KV runtime 1.3 GiB exceed the NVIDIA H200 141GB (139.8 GiB) at TP 1',
      ],
    ],
  );
  assert.deepEqual(mem({}), []);
});

test("the harness's own model names: its sanity aliases load the checkpoint its model table names", () => {
  const e = serving(upstream('dynamo_qwen3_32b_fp8_hopper.yaml'));
  assert.deepEqual(
    [e.model.name, e.model.ref, e.model.where],
    ['qwen3-32b', 'Qwen3-32B-FP8', 'server_configs.0.model_name ("qwen3_32b_fp8" in the perf harness\'s model table)'],
  );
  assert.equal(e.weights.dtype, 'fp8');
  const sup = serving(upstream('super_mtp_ad_blackwell.yaml'));
  assert.deepEqual(
    [sup.model.name, sup.model.ref, sup.weights.dtype],
    ['nemotron3-super-120b-a12b', 'NVIDIA-Nemotron-3-Super-120B-A12B-BF16', 'bf16'],
  );
  // llama_v3.3_70b_instruct_fp4: TensorRT-LLM's `v3.3` spelling of Llama 3.3.
  const llama = serving(upstream('llama_v3_3_70b_instruct_fp4_blackwell.yaml'));
  assert.deepEqual(
    [llama.model.name, llama.weights.dtype, llama.roles.map((x) => [x.role, x.tp])],
    [
      'llama3.3-70b',
      'nvfp4',
      [
        ['llama70b_fp4_tp4_512_32', 4],
        ['llama70b_fp4_tp4_1000_1000', 4],
      ],
    ],
  );
});

test("the perf-sanity disaggregated configs (worker_config) take the model and GPU from the harness's metadata too", () => {
  const dir = join(
    REPO,
    'test',
    'data',
    'upstream',
    'TensorRT-LLM',
    'tests',
    'integration',
    'defs',
    'perf',
    'disagg',
    'test_configs',
    'disagg',
  );
  const kimi = serving(
    readFileSync(join(dir, 'perf-sanity', 'gb200-kimi-k2-thinking-fp4_8k1k_ctx1_dep4_gen1_dep32_eplb416_mtp3_ccb-UCX.yaml'), 'utf8'),
  );
  assert.deepEqual(
    [kimi.model.name, kimi.model.ref, kimi.model.source, kimi.model.where, kimi.gpu.id, kimi.gpuSource, kimi.roles.map((r) => r.role)],
    [
      'kimi-k2',
      'Kimi-K2-Thinking-NVFP4',
      'file',
      'metadata.model_name ("k2_thinking_fp4" in the perf harness\'s model table)',
      'gb200',
      'file',
      ['context_servers', 'generation_servers'],
    ],
  );
  // Before the metadata was read, the model came from the file name (a path hint) and the GPU from the default.
  const qwen = serving(
    readFileSync(join(dir, 'perf', 'Qwen3-235B-A22B-FP4_1k1k_ctx1_gen1_dep16_bs64_eplb0_mtp0_ccb-NIXL-python.yaml'), 'utf8'),
  );
  assert.deepEqual([qwen.model.name, qwen.gpu.id, qwen.gpuSource], ['qwen3-235b-a22b', 'gb200', 'file']);
});

test("each server gets its KV-pool code lens on its own parallelism key (AutoDeploy's world_size too)", () => {
  const lenses = (name: string) => {
    const text = upstream(name);
    return estimateLenses(analyze(text)).map((l) => [text.slice(l.span[0], l.span[1]), l.text]);
  };
  assert.deepEqual(lenses('llama_v3_3_70b_instruct_fp4_blackwell.yaml'), [
    ['tensor_parallel_size', 'KV pool 150.03 GiB per GPU = 1,966,439 tokens (b200, TP 4) · llama70b_fp4_tp4_512_32'],
    ['tensor_parallel_size', 'KV pool 141.52 GiB per GPU = 1,854,886 tokens (b200, TP 4) · llama70b_fp4_tp4_1000_1000'],
  ]);
  assert.deepEqual(lenses('super_mtp_ad_blackwell.yaml'), [
    ['world_size', 'KV pool 73.68 GiB per GPU = 19,313,815 tokens (gb200, TP 4) · super_mtp_ad_ws4_1k1k'],
  ]);
});

test("an AutoDeploy server's extra_llm_api_config_path is named as not read", () => {
  const e = serving(upstream('super_mtp_ad_blackwell.yaml'));
  assert.deepEqual(
    e.assumptions.filter((a) => a.what.startsWith('only this file')),
    [
      {
        what: "only this file's keys (super_mtp_ad_ws4_1k1k)",
        source:
          "the perf harness merges examples/auto_deploy/model_registry/configs/super_v3_mtp.yaml under this server's keys (test_perf_sanity.py generate_extra_llm_api_config; the server's keys win), and that file is not read here: a parallel size, max_seq_len or KV setting it sets is not counted",
        provenance: 'default',
      },
    ],
  );
});
