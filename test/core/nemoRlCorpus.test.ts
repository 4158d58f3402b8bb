// Every NeMo-RL file of corpus-wild, read as NeMo-RL reads it: its `defaults:` chain resolved from disk, no error, the
// training world and parallel sizes taken from the merged config, and an estimate of every phase where the model the
// file names is in the catalogue (the others say why not). Upstream: NVIDIA-NeMo/RL examples/configs at 7ea279a.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { derivedSizes } from '../../src/core/rules/training.js';
import { readSourceFile } from '../../src/host/sourceFiles.js';
import { WILD, wildSources } from '../helpers.js';

type Row = [
  file: string,
  filesRead: number,
  algorithm: string,
  backend: string,
  world: number,
  tpPpCpEp: number[],
  dp: number,
  model: string | null,
  phases: string | null,
];

/** file (under NeMo-RL/), files of the chain (the file itself included), algorithm, backend, training GPUs, TP·PP·CP·EP, DP, model, phases. */
const EXPECTED: Row[] = [
  ['distillation_math.yaml', 1, 'distillation', 'dtensor', 8, [2, 1, 2, 1], 2, 'qwen3-1.7b', 'refit generation logprob teacher training'],
  ['grpo_math_1B.yaml', 1, 'grpo', 'dtensor', 1, [1, 1, 1, 1], 1, 'qwen2.5-1.5b', 'refit generation logprob reference training'],
  ['grpo_math_8B.yaml', 2, 'grpo', 'dtensor', 8, [1, 1, 1, 1], 8, 'llama3-8b', 'refit generation logprob reference training'],
  [
    'recipes/llm/distillation-qwen3-32b-to-4b-base-2n8g-fsdp2tp2-long.v1.yaml',
    2,
    'distillation',
    'dtensor',
    16,
    [2, 1, 2, 1],
    4,
    'qwen3-4b',
    'refit generation logprob teacher training',
  ],
  [
    'recipes/llm/grpo-deepscaler-1.5b-24K.yaml',
    3,
    'grpo',
    'dtensor',
    8,
    [2, 1, 1, 1],
    4,
    'deepseek-r1-distill-qwen-1.5b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-deepscaler-1.5b-8K.yaml',
    2,
    'grpo',
    'dtensor',
    8,
    [1, 1, 1, 1],
    8,
    'deepseek-r1-distill-qwen-1.5b',
    'refit generation logprob training',
  ],
  [
    'recipes/llm/grpo-gemma3-27b-it-8n8g-fsdp2tp8-actckpt-long.yaml',
    2,
    'grpo',
    'dtensor',
    64,
    [8, 1, 1, 1],
    8,
    'gemma3-27b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-gptoss-20b-8n8g-megatron.yaml',
    2,
    'grpo',
    'megatron',
    64,
    [4, 1, 1, 8],
    16,
    'gpt-oss-20b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-llama3.1-8b-instruct-2n8g-megatron-fp8-e2e.yaml',
    2,
    'grpo',
    'megatron',
    16,
    [1, 2, 1, 1],
    8,
    'llama3-8b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-math-qwen3-30ba3b-megatron-tp4-32k.yaml',
    2,
    'grpo',
    'megatron',
    32,
    [4, 1, 1, 8],
    8,
    'qwen3-30b-a3b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-moonlight-16ba3b-4n8g-megatron.yaml',
    2,
    'grpo',
    'megatron',
    32,
    [1, 4, 1, 4],
    8,
    'moonlight-16b-a3b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-nemotron3-super-120BA12B-16n8g-megatron.yaml',
    2,
    'grpo',
    'megatron',
    128,
    [4, 1, 1, 32],
    32,
    'nemotron3-super-120b-a12b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-qwen2.5-32b-32n8g-fsdp2tp8-actckpt-long.v3.yaml',
    2,
    'grpo',
    'dtensor',
    256,
    [8, 1, 1, 1],
    32,
    'qwen2.5-32b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-qwen3-8b-base-1n8g-fp8-kvcache-megatron.yaml',
    2,
    'grpo',
    'megatron',
    8,
    [4, 1, 1, 1],
    2,
    'qwen3-8b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-qwen3.5-35ba3b-2n8g-megatron-ep16tp2-fp8.yaml',
    3,
    'grpo',
    'megatron',
    16,
    [2, 1, 1, 16],
    8,
    'qwen3.5-35b-a3b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/grpo-qwen3.5-35ba3b-2n8g-megatron-ep16tp2cp2.yaml',
    2,
    'grpo',
    'megatron',
    16,
    [2, 1, 2, 16],
    4,
    'qwen3.5-35b-a3b',
    'refit generation logprob reference training',
  ],
  ['recipes/llm/performance/grpo-deepseek-v3-32n8g.yaml', 2, 'grpo', 'megatron', 256, [1, 16, 1, 16], 16, null, null],
  ['recipes/llm/performance/grpo-deepseek-v3-64n8g-async-1off.yaml', 3, 'grpo', 'megatron', 256, [1, 16, 1, 16], 16, null, null],
  ['recipes/llm/performance/grpo-deepseek-v3-64n8g-fp8-async-1off.yaml', 4, 'grpo', 'megatron', 256, [1, 16, 1, 16], 16, null, null],
  [
    'recipes/llm/performance/grpo-qwen3-235b-16n8g.yaml',
    2,
    'grpo',
    'megatron',
    128,
    [2, 8, 2, 16],
    4,
    'qwen3-235b-a22b',
    'refit generation logprob reference training',
  ],
  [
    'recipes/llm/performance/grpo-qwen3-30ba3b-4n8g-40K.yaml',
    2,
    'grpo',
    'megatron',
    32,
    [4, 1, 8, 8],
    1,
    'qwen3-30b-a3b',
    'refit generation logprob reference training',
  ],
  ['recipes/llm/sft-llama3.1-70b-8n8g-tp4pp2-long-megatron.yaml', 2, 'sft', 'megatron', 64, [4, 2, 1, 1], 8, 'llama3-70b', 'training'],
  ['recipes/llm/sft-nanov3-30BA3B-2n8g-fsdp2.yaml', 2, 'sft', 'dtensor', 8, [1, 1, 1, 8], 8, 'nemotron3-nano-30b-a3b', 'training'],
  ['recipes/llm/sft-qwen3-0.6B-1n8g-megatron-yarn-128k.yaml', 2, 'sft', 'megatron', 8, [1, 1, 8, 1], 1, 'qwen3-0.6b', 'training'],
  ['rm.yaml', 1, 'rm', 'dtensor', 1, [1, 1, 1, 1], 1, 'llama3.2-1b', 'training'],
  ['sft.yaml', 1, 'sft', 'dtensor', 1, [1, 1, 1, 1], 1, 'llama3.2-1b', 'training'],
];

/**
 * Warnings the files really earn. RL-N6: TP ≥ 4 with logprob_batch_size 4 ≠ train_micro_batch_size 1 stops NeMo-RL
 * (v0.6.0 and newer) unless NRL_IGNORE_TP_ACCURACY_CHECK is set, which the upstream launch scripts of both do
 * (tests/test_suites/llm/grpo-gemma3-27b-it-8n8g-fsdp2tp8-actckpt-long.sh, performance/grpo-qwen3-30ba3b-4n8g-40K.sh).
 */
const WARNINGS: Record<string, string[]> = {
  'recipes/llm/grpo-gemma3-27b-it-8n8g-fsdp2tp8-actckpt-long.yaml': ['RL-N6 policy.logprob_batch_size'],
  'recipes/llm/performance/grpo-qwen3-30ba3b-4n8g-40K.yaml': ['RL-N6 policy.logprob_batch_size'],
};

const rows = wildSources().filter((r) => r.kind === 'nemo-rl');
const analyzeWild = (file: string) => {
  const path = join(WILD, file);
  return analyze(readFileSync(path, 'utf8'), { documentPath: path, readFile: readSourceFile, memoryWarnings: false });
};

test('corpus-wild holds the 26 NeMo-RL files this test expects', () => {
  assert.deepEqual(rows.map((r) => r.file.slice('NeMo-RL/'.length)).sort(), EXPECTED.map((e) => e[0]).sort());
});

for (const [file, filesRead, algorithm, backend, world, sizes, dp, model, phases] of EXPECTED)
  test(`NeMo-RL ${file}: chain of ${filesRead}, no error, ${backend} on ${world} GPUs`, () => {
    const a = analyzeWild(`NeMo-RL/${file}`);
    assert.equal(a.format, 'nemo-rl');
    assert.equal(a.main!.chain?.files.length ?? 1, filesRead);
    assert.equal(a.main!.chain?.complete ?? true, true);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.path}: ${d.message}`),
      [],
    );
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity !== 'error').map((d) => `${d.code} ${d.path}`),
      WARNINGS[file] ?? [],
    );
    const r = a.main!.recipe!;
    assert.equal(r.kind, 'training');
    if (r.kind !== 'training') return;
    assert.deepEqual(
      [
        r.rl?.algorithm,
        r.rl?.backend,
        r.world?.size,
        [r.values.tp, r.values.pp, r.values.cp, r.values.ep],
        derivedSizes(r.values, r.world?.size).dp,
      ],
      [algorithm, backend, world, sizes, dp],
    );
    const e = a.main!.estimate!;
    if (model === null) {
      assert.equal(e.kind, 'none');
      assert.match(e.kind === 'none' ? e.reason : '', /^no model shape for the policy: policy.model_name: ".+" is no catalogue model/);
    } else {
      assert.equal(e.kind, 'training');
      if (e.kind !== 'training') return;
      assert.deepEqual([e.shape.name, e.rl?.phases.map((p) => p.id).join(' ')], [model, phases]);
    }
  });

test('the non-colocated DeepSeek-V3 run trains on 32 of its 64 nodes: 256 GPUs, and says so', () => {
  const r = analyzeWild('NeMo-RL/recipes/llm/performance/grpo-deepseek-v3-64n8g-fp8-async-1off.yaml').main!.recipe!;
  if (r.kind !== 'training') throw new Error('training');
  assert.deepEqual(r.world, { size: 256, source: 'file', note: '64 nodes − 32 for non-colocated generation, × 8 GPUs' });
  assert.deepEqual(r.rl!.genWorld, { size: 256, gpusPerNode: 8 });
  // Four files deep: fp8-async-1off → async-1off → 32n8g → grpo_math_1B; fp8_cfg from the child, PP 16 from 32n8g.
  assert.deepEqual(
    [r.values.fp8, r.loc.pp?.inherited?.name, r.loc.devices?.inherited?.name],
    ['e4m3', 'grpo-deepseek-v3-64n8g-async-1off.yaml', 'grpo-deepseek-v3-64n8g-async-1off.yaml'],
  );
});
