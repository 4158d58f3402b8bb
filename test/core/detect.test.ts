// Format detection by content (formats.md §0), modeline and setting overrides, and silence on other YAML.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMAT_IDS } from '../../src/core/types.js';
import { analyzeText, diagnose, WILD, wildSources } from '../helpers.js';

const cases: [string, string, string | null][] = [
  ['disagg', 'hostname: localhost\ncontext_servers:\n  num_instances: 1\ngeneration_servers:\n  num_instances: 1\n', 'trtllm-disagg'],
  [
    'perf-sanity servers',
    'server_configs:\n  - name: a\n    tensor_parallel_size: 4\n    client_configs:\n      - concurrency: 1\n',
    'trtllm-perf',
  ],
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

// ---------------------------------------------------------------------------------------------------------------
// Real upstream files (../shared/corpus-wild, SOURCES.tsv names each file's kind)

const KIND_FORMAT: Record<string, string | null> = {
  'megatron-bridge': 'megatron-bridge',
  'megatron-lm': 'megatron-lm',
  'nemo-rl': 'nemo-rl',
  nemo1: 'nemo1',
  'nemo-launcher': 'nemo-launcher',
  'nemo-launcher-main': 'nemo-launcher-main',
  'trtllm-options': 'trtllm-options',
  'trtllm-disagg': 'trtllm-disagg',
  other: null,
};

test('the formatAssociations setting offers every format (package.json), and nothing else', () => {
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
  const setting = pkg.contributes.configuration.properties['recipeLens.formatAssociations'];
  assert.deepEqual(setting.additionalProperties.enum, [...FORMAT_IDS, 'none']);
});

test('every corpus-wild file is detected as what SOURCES.tsv says it is (or as no recipe)', () => {
  const rows = wildSources();
  assert.ok(rows.length >= 130, `${rows.length} rows`);
  const wrong = rows
    .map((r) => [r.file, r.kind, ownFormat(analyzeText(readFileSync(join(WILD, r.file), 'utf8')))] as const)
    .filter(([, kind, got]) => KIND_FORMAT[kind] !== got);
  assert.deepEqual(wrong, []);
  // SOURCES.tsv describes each file's own documents: Dynamo's Kubernetes deployment is `other`, and the engine config
  // its ConfigMap embeds is read as a document of its own.
  const k8s = analyzeText(readFileSync(join(WILD, 'dynamo/deploy.yaml'), 'utf8'));
  assert.deepEqual(
    k8s.docs.map((d) => [d.doc.embedded?.name, d.doc.format]),
    [['config.yaml', 'trtllm-options']],
  );
});

/** The format of the file's own first recipe document (not one embedded in a ConfigMap). */
const ownFormat = (a: ReturnType<typeof analyzeText>) => a.parsed.docs.find((d) => d.format && !d.embedded)?.format ?? null;

test('detection says why: the deciding keys, the body of a Bridge performance config, what a non-recipe is', () => {
  const perf = analyzeText(readFileSync(join(WILD, 'Megatron-Bridge/deepseek_v3_llm_pretrain.yaml'), 'utf8')).parsed.docs[0]!.detection;
  assert.equal(perf.format, 'megatron-bridge');
  assert.deepEqual(perf.base, ['ConfigContainer']);
  assert.deepEqual(perf.evidence, [
    'ConfigContainer fields ConfigContainer.dataset, ConfigContainer.model, ConfigContainer.train, ConfigContainer.scheduler, … (11)',
    '_target_ megatron.bridge.training.config.ProfilingConfig',
    'a performance matrix (perf_matrix)',
  ]);
  const asr = analyzeText(readFileSync(join(WILD, 'NeMo/fastconformer_hybrid_tdt_ctc_bpe.yaml'), 'utf8')).parsed.docs[0]!.detection;
  assert.equal(asr.format, null);
  assert.equal(asr.notRecipe, 'a NeMo speech-recognition (ASR) model config');
  assert.deepEqual(asr.evidence, ['_target_ nemo.collections.asr.modules.AudioToMelSpectrogramPreprocessor']);
  const k8s = analyzeText('apiVersion: v1\nkind: ConfigMap\ndata:\n  config.yaml: |\n    tensor_parallel_size: 8\n').parsed.docs[0]!
    .detection;
  assert.deepEqual([k8s.format, k8s.notRecipe], [null, 'a Kubernetes ConfigMap']);
  const rl = analyzeText('defaults: ../../grpo_math_1B.yaml\npolicy:\n  model_name: Qwen/Qwen3-8B\n').parsed.docs[0]!.detection;
  assert.deepEqual([rl.format, rl.evidence], ['nemo-rl', ['keys policy.model_name', 'a `defaults:` parent file']]);
  // A recipe that only overrides its parent's run settings (NeMo-RL recipes/llm/*-1n4g-*.yaml, *-tq_simple.yaml).
  const detected = (text: string) => analyzeText(text).parsed.docs[0]!.detection;
  const child = detected(
    'defaults: ./grpo-llama3.2-1b-instruct-1n8g-megatron.yaml\nlogger:\n  log_dir: logs/x\ncluster:\n  gpus_per_node: 4\n',
  );
  assert.deepEqual([child.format, child.evidence], ['nemo-rl', ['sections cluster, logger', 'a `defaults:` parent file']]);
  const tq = detected('defaults: ./grpo-qwen3-1.7b.yaml\ndata_plane:\n  enabled: true\n');
  assert.deepEqual([tq.format, tq.evidence], ['nemo-rl', ['sections data_plane', 'a `defaults:` parent file']]);
  // A Hydra defaults list, or NeMo-RL section names without a parent file, are no NeMo-RL evidence.
  assert.equal(detected('defaults:\n  - model: llama\nlogger:\n  level: info\n').format, null);
  assert.equal(detected('logger:\n  log_dir: logs/x\ncluster:\n  gpus_per_node: 4\n').format, null);
  const mlm = analyzeText('MODEL_ARGS:\n  --num-layers: 2\n  --hidden-size: 64\n  --tensor-model-parallel-size: 2\n').parsed.docs[0]!
    .detection;
  assert.deepEqual(
    [mlm.format, mlm.evidence],
    ['megatron-lm', ['MODEL_ARGS flags --num-layers, --hidden-size, --tensor-model-parallel-size']],
  );
});

test('an ambiguous file is no recipe, and says which readings tied', () => {
  // Megatron-LM arguments and a NeMo-RL policy in one file: neither reading is clearly better.
  const text = [
    'MODEL_ARGS:',
    '  --num-layers: 2',
    '  --hidden-size: 64',
    '  --tensor-model-parallel-size: 2',
    'policy:',
    '  model_name: Qwen/Qwen3-8B',
    '  megatron_cfg:',
    '    enabled: true',
    'cluster:',
    '  gpus_per_node: 8',
    '',
  ].join('\n');
  const d = analyzeText(text).parsed.docs[0]!.detection;
  assert.deepEqual([d.format, d.notRecipe], [null, 'ambiguous: reads as megatron-lm or nemo-rl']);
  assert.deepEqual(diagnose(text), []);
});

test('the body of a Bridge performance config is validated in place: findings carry file paths', () => {
  const text =
    'ConfigContainer:\n  model:\n    seq_length: 4096\n    tensor_model_parallel_size: 0\n  train:\n    micro_batch_size: 1\nperf_matrix:\n  h100:\n    tp: 2\n';
  const ds = diagnose(text).filter((d) => d.severity === 'error');
  assert.deepEqual(
    ds.map((d) => [d.code, d.path, d.range.start.line]),
    [['RL-SCHEMA', 'ConfigContainer.model.tensor_model_parallel_size', 3]],
  );
  // Nothing is said about the performance matrix, which no schema describes.
  assert.ok(diagnose(text).every((d) => !d.path.startsWith('perf_matrix')));
});
