// What the real files must produce, shared by the unit tests and the in-extension-host suite.

/** corpus/EXPECTED.tsv in machine form: each anomaly's code and key path. A rule is reported once, on the key a
 *  person changes (the others are related locations): mixtral's R6 on sequence_parallel (line 128), TP related. */
export const EXPECTED_WARNINGS: Record<string, { code: string; path: string }[]> = {
  'NeMo-Framework-Launcher/mixtral_8x7b.yaml': [{ code: 'RL-R6', path: 'model.sequence_parallel' }],
  'TensorRT-LLM/deepseek-r1-throughput.yaml': [
    { code: 'RL-UNKNOWN-KEY', path: 'kv_cache_free_gpu_memory_fraction' },
    { code: 'RL-DEPRECATED', path: 'speculative_config.num_nextn_predict_layers' },
  ],
  'TensorRT-LLM/disagg_config_cache_reuse.yaml': [{ code: 'RL-NONE-STRING', path: 'cuda_graph_config' }],
  'dynamo/decode.yaml': [{ code: 'RL-ENUM-CASE', path: 'cache_transceiver_config.backend' }],
};

export const EXPECTED_FORMAT: Record<string, string> = {
  'NeMo/megatron_gpt_config.yaml': 'nemo1',
  'NeMo/megatron_llama_config.yaml': 'nemo1',
  'NeMo-Framework-Launcher/config.yaml': 'nemo-launcher-main',
  'NeMo-Framework-Launcher/mixtral_8x7b.yaml': 'nemo-launcher',
  'Megatron-Bridge/llama32_1b_pretrain.yaml': 'megatron-bridge',
  'TensorRT-LLM/disagg_config.yaml': 'trtllm-disagg',
  'TensorRT-LLM/ctx_config.yaml': 'trtllm-options',
  'dynamo/agg.yaml': 'trtllm-options',
};
