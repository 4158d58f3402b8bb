// Every real NVIDIA file validates with no error, and warns exactly where corpus/EXPECTED.tsv says.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CORPUS, bySeverity, diagnoseFile, rel, yamlFiles } from '../helpers.js';

/** EXPECTED.tsv in machine form: each anomaly's code and key path. */
const EXPECTED_WARNINGS: Record<string, { code: string; path: string }[]> = {
  // A rule finding sits on every key it involves: here TP (line 57) and SP (line 128).
  'NeMo-Framework-Launcher/mixtral_8x7b.yaml': [
    { code: 'RL-R6', path: 'model.tensor_model_parallel_size' },
    { code: 'RL-R6', path: 'model.sequence_parallel' },
  ],
  'TensorRT-LLM/deepseek-r1-throughput.yaml': [
    { code: 'RL-UNKNOWN-KEY', path: 'kv_cache_free_gpu_memory_fraction' },
    { code: 'RL-DEPRECATED', path: 'speculative_config.num_nextn_predict_layers' },
  ],
  'TensorRT-LLM/disagg_config_cache_reuse.yaml': [{ code: 'RL-NONE-STRING', path: 'cuda_graph_config' }],
  'dynamo/decode.yaml': [{ code: 'RL-ENUM-CASE', path: 'cache_transceiver_config.backend' }],
};

const EXPECTED_FORMAT: Record<string, string> = {
  'NeMo/megatron_gpt_config.yaml': 'nemo1',
  'NeMo/megatron_llama_config.yaml': 'nemo1',
  'NeMo-Framework-Launcher/config.yaml': 'nemo-launcher-main',
  'Megatron-Bridge/llama32_1b_pretrain.yaml': 'megatron-bridge',
  'TensorRT-LLM/disagg_config.yaml': 'trtllm-disagg',
  'TensorRT-LLM/ctx_config.yaml': 'trtllm-options',
  'dynamo/agg.yaml': 'trtllm-options',
};

const files = yamlFiles(CORPUS);

test('the corpus is there (25 files beside the checkout)', () => {
  assert.equal(files.length, 25);
});

test('EXPECTED.tsv names exactly the files this test expects warnings for', () => {
  const rows = readFileSync(`${CORPUS}/EXPECTED.tsv`, 'utf8').trim().split('\n').slice(2).map((l) => l.split('\t')[0]);
  assert.deepEqual(rows.sort(), Object.keys(EXPECTED_WARNINGS).sort());
});

for (const file of files) {
  const name = rel(CORPUS, file);
  test(`corpus ${name}: no error, exactly the expected warnings`, () => {
    const ds = diagnoseFile(file);
    assert.deepEqual(bySeverity(ds, 'error').map((d) => `${d.code} ${d.path}: ${d.message}`), []);
    const warnings = bySeverity(ds, 'warning').map((d) => ({ code: d.code, path: d.path }));
    assert.deepEqual(warnings, EXPECTED_WARNINGS[name] ?? []);
  });
}

test('corpus formats are detected by content', async () => {
  const { validateText } = await import('../../src/core/validate.js');
  for (const file of files) {
    const name = rel(CORPUS, file);
    const f = validateText(readFileSync(file, 'utf8')).format;
    assert.notEqual(f, null, `${name} detected as a recipe`);
    if (EXPECTED_FORMAT[name]) assert.equal(f, EXPECTED_FORMAT[name], name);
    if (name.startsWith('NeMo-Framework-Launcher/') && !name.endsWith('config.yaml')) assert.equal(f, 'nemo-launcher', name);
    if (name.startsWith('Megatron-Bridge/')) assert.equal(f, 'megatron-bridge', name);
    if (/TensorRT-LLM\/disagg/.test(name)) assert.equal(f, 'trtllm-disagg', name);
  }
});
