// The NeMo 1.x, Launcher and NeMo 2 schemas are no stricter than NeMo: every NeMo 1.x and Launcher file of the corpora
// validates, the values NVIDIA's own configs use where the old schemas said no are accepted (each with its source),
// and the rules that NeMo, Lightning, torch or megatron-core really enforce still fire.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS, diagnose, rel, WILD, wildSources, yamlFiles } from '../helpers.js';

const SCHEMA_CODES = new Set(['RL-SCHEMA', 'RL-UNKNOWN-KEY', 'RL-ENUM-CASE', 'RL-NONE-STRING']);
const schemaErrors = (text: string) =>
  diagnose(text)
    .filter((d) => SCHEMA_CODES.has(d.code) && d.severity === 'error')
    .map((d) => [d.code, d.path, d.message]);

const nemoFiles = [
  ...[...yamlFiles(join(CORPUS, 'NeMo')), ...yamlFiles(join(CORPUS, 'NeMo-Framework-Launcher'))].map((f) => `corpus/${rel(CORPUS, f)}`),
  ...wildSources()
    .filter((s) => ['nemo1', 'nemo-launcher', 'nemo-launcher-main'].includes(s.kind))
    .map((s) => `corpus-wild/${s.file}`),
];

test('every NeMo 1.x and Launcher file of the corpora: 9 + 37', () => {
  assert.equal(nemoFiles.length, 46);
});

for (const name of nemoFiles) {
  test(`${name}: no schema error`, () => {
    const path = name.startsWith('corpus/') ? join(CORPUS, name.slice(7)) : join(WILD, name.slice(12));
    assert.deepEqual(schemaErrors(readFileSync(path, 'utf8')), []);
  });
}

const GPT = [
  'trainer:',
  '  devices: 8',
  '  num_nodes: 1',
  'model:',
  '  encoder_seq_length: 4096',
  '  num_layers: 32',
  '  micro_batch_size: 1',
];

test('NeMo 1.x: what NVIDIA configs write where the old schema said no', () => {
  const text = [
    ...GPT,
    // Finetuning configs: null keeps the pretrained model's value (megatron_t5_lm_adaptation_finetune.py).
    '  hidden_dropout: null',
    '  attention_dropout: null',
    '  use_flash_attention: null',
    '  rampup_batch_size: [32, 32, 0]',
    '  optim:',
    '    name: fused_adam',
    '    eps: 0',
    '    sched:',
    '      name: CosineAnnealing',
    '      max_steps: -1',
    '      warmup_steps: 0.5',
    '      warmup_ratio: 1.5',
    'exp_manager:',
    // ExpManagerConfig's typed boolean nodes take 0/1 (Launcher conf/training/gpt3/mlperf-24n.yaml).
    '  resume_if_exists: 0',
    '  create_checkpoint_callback: 0',
    '  checkpoint_callback_params:',
    '    save_top_k: null',
    '',
  ].join('\n');
  assert.deepEqual(schemaErrors(text), []);
  // Lightning: devices as a list (qa_conf.yaml) or "auto"; Optional limits.
  assert.deepEqual(schemaErrors(text.replace('devices: 8', 'devices: [0]')), []);
  assert.deepEqual(schemaErrors(text.replace('devices: 8', 'devices: auto\n  limit_val_batches: null')), []);
  // A model-only preset (megatron_clip_VIT-L-14.yaml) has no trainer.
  assert.deepEqual(schemaErrors('model:\n  encoder_seq_length: 4096\n  num_layers: 2\n  tensor_model_parallel_size: 1\n'), []);
});

test('NeMo 1.x: the rules NeMo, Lightning and torch enforce still fire', () => {
  const text = [
    ...GPT,
    '  tensor_model_parallel_size: 0',
    '  rampup_batch_size: [32, 0, 100]',
    '  fsdp_sharding_strategy: fully',
    '  optim:',
    '    name: fused_adam',
    '    eps: -1.0e-8',
    'exp_manager:',
    '  resume_if_exists: maybe',
    '  checkpoint_callback_params:',
    '    mode: minimum',
    '',
  ]
    .join('\n')
    .replace('devices: 8', 'devices: 1.5')
    .replace('num_nodes: 1', 'num_nodes: 1\n  precision: bf17');
  assert.deepEqual(schemaErrors(text), [
    ['RL-SCHEMA', 'trainer.devices', '`devices` must be an integer or a string or a list, got the number 1.5'],
    [
      'RL-SCHEMA',
      'trainer.precision',
      '`precision` must be one of 16, 32, 64, "16", "32", "64", "bf16", "16-mixed", "bf16-mixed", "16-true", "bf16-true", "32-true", "64-true", "transformer-engine", "transformer-engine-float16", null; got "bf17"',
    ],
    ['RL-SCHEMA', 'model.tensor_model_parallel_size', '`tensor_model_parallel_size` must be an integer ≥ 1, got 0'],
    ['RL-SCHEMA', 'model.rampup_batch_size[1]', '`rampup_batch_size[1]` must be an integer ≥ 1, got 0'],
    [
      'RL-SCHEMA',
      'model.fsdp_sharding_strategy',
      '`fsdp_sharding_strategy` must be one of "full", "hybrid", "grad"; got "fully" (did you mean "full"?)',
    ],
    ['RL-SCHEMA', 'model.optim.eps', '`eps` must be a number ≥ 0, got -1e-8'],
    [
      'RL-SCHEMA',
      'exp_manager.resume_if_exists',
      '`resume_if_exists` must be a boolean (true/false) or an integer or null, got the string "maybe"',
    ],
    ['RL-SCHEMA', 'exp_manager.checkpoint_callback_params.mode', '`mode` must be one of "min", "max"; got "minimum"'],
  ]);
});

test('Launcher: conversion stages have no trainer, a null time limit is no limit', () => {
  const conversion = [
    'run:',
    '  name: convert',
    '  time_limit: null',
    '  nodes: 1',
    'model:',
    '  tensor_model_parallel_size: 1',
    '  encoder_seq_length: 2048',
    '  num_layers: 2',
  ];
  assert.deepEqual(schemaErrors(`${conversion.join('\n')}\n`), []);
});

test('NeMo 2: keys typed as widely as the megatron-core classes that declare them', () => {
  const node = (body: string[]) =>
    [
      '_target_: nemo.collections.llm.gpt.model.base.GPTModel',
      'config:',
      '  _target_: nemo.collections.llm.gpt.model.llama.Llama3Config8B',
      ...body.map((l) => `  ${l}`),
      '',
    ].join('\n');
  assert.deepEqual(
    schemaErrors(
      node(['num_layers: null', 'fp8_recipe: null', 'moe_aux_loss_coeff: [0.01, 0.001]', 'sequence_parallel: 1', 'seq_length: 8192']),
    ),
    [],
  );
  assert.deepEqual(schemaErrors(node(['fp8_recipe: delayd', 'seq_length: 8192'])), [
    [
      'RL-SCHEMA',
      'config.fp8_recipe',
      '`fp8_recipe` must be one of "tensorwise", "delayed", "mxfp8", "blockwise", "custom", null; got "delayd" (did you mean "delayed"?)',
    ],
  ]);
});
