// Format detection by content (formats.md §0), modeline and setting overrides, and silence on other YAML.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnose } from '../helpers.js';

const cases: [string, string, string | null][] = [
  ['disagg', 'hostname: localhost\ncontext_servers:\n  num_instances: 1\ngeneration_servers:\n  num_instances: 1\n', 'trtllm-disagg'],
  ['retention', 'token_range_retention_configs:\n  - token_start: 0\n    priority: 100\n', 'kv-retention'],
  ['trt options (kv_cache_config)', 'kv_cache_config:\n  free_gpu_memory_fraction: 0.9\n', 'trtllm-options'],
  ['trt options (parallel size only)', 'tensor_parallel_size: 4\nmax_batch_size: 8\n', 'trtllm-options'],
  ['nemo 2.0', 'model:\n  _target_: nemo.collections.llm.gpt.model.llama.LlamaModel\n  config:\n    seq_length: 8192\n', 'nemo2'],
  ['launcher recipe', 'run:\n  name: x\ntrainer:\n  devices: 8\nmodel:\n  encoder_seq_length: 4096\n', 'nemo-launcher'],
  ['nemo 1.x', 'name: x\ntrainer:\n  devices: 8\nmodel:\n  encoder_seq_length: 4096\n', 'nemo1'],
  ['bridge', 'train:\n  micro_batch_size: 1\nmodel:\n  seq_length: 8192\n', 'megatron-bridge'],
  ['launcher main', 'defaults:\n  - training: gpt3/5b\nstages:\n  - training\n', 'nemo-launcher-main'],
  ['docker compose', 'services:\n  web:\n    image: nginx\n', null],
  ['k8s', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n', null],
  ['github workflow with a model key', 'name: ci\non: push\nmodel: gpt\n', null],
  ['a logger-only file', 'logger:\n  level: info\n', null],
  ['scalar document', '42\n', null],
  ['empty', '', null],
];

for (const [name, text, want] of cases) {
  test(`detects ${name} as ${want}`, () => assert.equal(analyzeText(text).format, want));
}

test('files that are no recipe get no diagnostics at all, even broken ones', () => {
  assert.deepEqual(diagnose('services:\n  web:\n    image: nginx\n    ports: [80\n'), []);
});

test('a modeline forces the format', () => {
  const text = '# recipe-lens: format=kv-retention\nfoo: 1\n';
  assert.equal(analyzeText(text).format, 'kv-retention');
  const ds = diagnose(text);
  assert.deepEqual(
    ds.map((d) => [d.code, d.severity, d.range.start.line]),
    [
      ['RL-SCHEMA', 'error', 1],
      ['RL-UNKNOWN-KEY', 'warning', 1],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );
});

test('modeline format=none switches a recipe off', () => {
  assert.deepEqual(diagnose('# recipe-lens: format=none\nkv_cache_config:\n  free_gpu_memory_fraction: 3\n'), []);
});

test('a setting (glob association) forces the format; the modeline wins over it', () => {
  assert.equal(analyzeText('foo: 1\n', { forcedFormat: 'trtllm-options' }).format, 'trtllm-options');
  assert.equal(analyzeText('# recipe-lens: format=kv-retention\nfoo: 1\n', { forcedFormat: 'trtllm-options' }).format, 'kv-retention');
});

test('an unknown modeline format is a warning on the modeline', () => {
  const ds = diagnose('# recipe-lens: format=nemo3\nkv_cache_config: {}\n');
  assert.deepEqual(
    ds.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]),
    [['RL-MODELINE', 0, 0, 27]],
  );
});
