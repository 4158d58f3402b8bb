// `recipe-lens check` and `estimate` resolve NeMo-RL `defaults:` chains from disk, relative to each file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO, WILD } from '../helpers.js';

const CLI = join(REPO, 'dist', 'cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: REPO });

const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-nemorl-'));
mkdirSync(join(dir, 'recipes'));
const PARENT = join(dir, 'base.yaml');
writeFileSync(
  PARENT,
  'grpo:\n  num_prompts_per_step: 8\n  num_generations_per_prompt: 8\npolicy:\n  model_name: meta-llama/Llama-3.2-1B\n  train_global_batch_size: 64\n  train_micro_batch_size: 1\n  max_total_sequence_length: 1024\n  precision: bfloat16\n  dtensor_cfg:\n    enabled: true\n    tensor_parallel_size: 2\n    context_parallel_size: 1\n  megatron_cfg:\n    enabled: false\n  sequence_packing:\n    enabled: false\n  dynamic_batching:\n    enabled: false\ncluster:\n  gpus_per_node: 8\n  num_nodes: 1\n',
);
const CHILD = join(dir, 'recipes', 'child.yaml');
writeFileSync(CHILD, 'defaults: ../base.yaml\npolicy:\n  train_micro_batch_size: 1\ncluster:\n  gpus_per_node: 3\n');

test('check: a rule broken by a parent value is reported on `defaults:`, with the parent file as related location', () => {
  const r = run('check', '--format', 'json', '--no-memory', CHILD);
  assert.equal(r.status, 1, r.stderr);
  const [f] = JSON.parse(r.stdout).files;
  assert.equal(f.format, 'nemo-rl');
  assert.deepEqual(
    f.diagnostics.map((d: { code: string; range: { start: object }; related?: { file?: string; range: { start: object } }[] }) => [
      d.code,
      d.range.start,
      d.related?.map((x) => [x.file ?? null, x.range.start]),
    ]),
    [
      [
        'RL-R1',
        { line: 0, character: 10 },
        [
          [PARENT, { line: 11, character: 4 }],
          [PARENT, { line: 12, character: 4 }],
          [null, { line: 4, character: 2 }],
          [PARENT, { line: 21, character: 2 }],
        ],
      ],
    ],
  );
});

test('estimate: the chain of a real NeMo-RL recipe is read from disk, every phase estimated', () => {
  const r = run('estimate', '--format', 'json', join(WILD, 'NeMo-RL/recipes/llm/grpo-qwen3-8b-base-1n8g-fp8-kvcache-megatron.yaml'));
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    [out.format, out.model.name, out.parallel.tp, out.parallel.worldSize, out.rl.phases.map((p: { id: string }) => p.id)],
    ['nemo-rl', 'qwen3-8b', 4, 8, ['refit', 'generation', 'logprob', 'reference', 'training']],
  );
  const text = run('estimate', join(WILD, 'NeMo-RL/recipes/llm/grpo-qwen3-8b-base-1n8g-fp8-kvcache-megatron.yaml'));
  assert.match(text.stdout, /NeMo-RL grpo step \(megatron backend, colocated generation\), per GPU:/);
});
