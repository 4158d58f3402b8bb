// TensorRT-LLM perf-sanity server configs (tests/scripts/perf-sanity/aggregated/*.yaml, read by
// tests/integration/defs/perf/test_perf_sanity.py `_parse_aggr_config_file`): `server_configs` lists trtllm-serve
// servers, each an LlmArgs (its keys less the harness's, written as the server's --config YAML) plus `name`,
// `model_name` and its benchmark `client_configs`; `metadata.model_name` is every server's default model.
import type { KeyPath } from '../types.js';
import type { ServingField } from './fields.js';
import type { Table } from './table.js';
import { TRTLLM_OPTIONS } from './trtllmOptions.js';

/** The list of servers. */
export const PERF_SERVERS = 'server_configs';

/** Where server `index`'s keys are. */
export const perfServerBase = (index: number): KeyPath => [PERF_SERVERS, index];

/** A server's own keys: the LlmArgs fields, its harness model name and the AutoDeploy config merged under it. */
export const PERF_SERVER: Table<ServingField> = {
  paths: { ...TRTLLM_OPTIONS.paths, model: ['model_name'], extraConfig: ['extra_llm_api_config_path'] },
};

/** What the file says for every server: the default model name (test_perf_sanity.py: `metadata.model_name`). */
export const PERF_FILE: Table<ServingField> = { paths: { model: ['metadata.model_name'] } };

/** The server's name (a test selects servers by it), and the GPUs the file runs on. */
export const PERF_SERVER_NAME = 'name';
export const PERF_SUPPORTED_GPUS: KeyPath = ['metadata', 'supported_gpus'];
export const PERF_GPUS_PER_NODE: KeyPath = ['hardware', 'gpus_per_node'];

/**
 * The harness's own names that name no model by themselves, and the checkpoint directory each loads
 * (tests/integration/defs/perf/_model_paths.py MODEL_PATH_DICT, "sanity-side aliases"). Every other `model_name`
 * (`gpt_oss_120b_fp4`, `llama_v3.3_70b_instruct_fp4`, `qwen3_235b_a22b_fp8`) names its model and is resolved as written.
 */
export const PERF_MODEL_DIRS: Readonly<Record<string, string>> = {
  super_bf16: 'NVIDIA-Nemotron-3-Super-120B-A12B-BF16',
  super_fp8: 'NVIDIA-Nemotron-3-Super-120B-A12B-FP8',
  super_nvfp4: 'NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4',
  k2_thinking_fp4: 'Kimi-K2-Thinking-NVFP4',
  k25_thinking_fp4: 'Kimi-K2.5-NVFP4',
  deepseek_v32_fp4: 'DeepSeek-V3.2-Exp-FP4-v2',
  glm_5_nvfp4: 'GLM-5-NVFP4',
  qwen3_32b_fp8: 'Qwen3-32B-FP8',
};
