// Megatron-LM run configs (MODEL_ARGS): the key-path table, arguments.py's defaults and adjustments, the rules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeText, diagnose, recipeOf, WILD, wildSources } from '../helpers.js';

const args = (...lines: string[]) => ['MODEL_ARGS:', ...lines.map((l) => `  ${l}`), ''].join('\n');
const GPT = args(
  '--num-layers: 12',
  '--hidden-size: 512',
  '--num-attention-heads: 8',
  '--micro-batch-size: 4',
  '--global-batch-size: 32',
  '--seq-length: 1024',
  '--tensor-model-parallel-size: 2',
  '--pipeline-model-parallel-size: 2',
  '--bf16: true',
);

test('MODEL_ARGS read through the table, with arguments.py defaults for what is absent', () => {
  const r = recipeOf(GPT)!;
  assert.equal(r.kind, 'training');
  if (r.kind !== 'training') return;
  assert.equal(r.format, 'megatron-lm');
  assert.equal(r.family, 'megatron-lm');
  const v = r.values;
  assert.deepEqual(
    [v.layers, v.hidden, v.heads, v.mbs, v.gbs, v.seq, v.tp, v.pp, v.cp, v.ep, v.sp, v.bf16, v.distOpt, v.tied, v.gated, v.vocabDivisible],
    [12, 512, 8, 4, 32, 1024, 2, 2, 1, 1, false, true, false, true, false, 128],
  );
  // BF16 accumulates and reduces gradients in fp32 (arguments.py), unless --grad-reduce-in-bf16 or the flag says otherwise.
  assert.equal(v.gradFp32, true);
  const bf16Grads = recipeOf(GPT + '  --grad-reduce-in-bf16: true\n')!;
  assert.equal(bf16Grads.kind === 'training' && bf16Grads.values.gradFp32, false);
  const fp32 = recipeOf(GPT.replace('  --bf16: true\n', ''))!;
  assert.equal(fp32.kind === 'training' && fp32.values.gradFp32, false);
  // Switches: --untie-… unties, --swiglu gates the MLP.
  const llama = recipeOf(GPT + '  --untie-embeddings-and-output-weights: true\n  --swiglu: true\n')!;
  assert.deepEqual(llama.kind === 'training' && [llama.values.tied, llama.values.gated, llama.values.activation], [false, true, 'swiglu']);
  // Where a value lives, for diagnostics and Apply.
  assert.deepEqual(r.loc.tp?.path, ['MODEL_ARGS', '--tensor-model-parallel-size']);
});

test('rules on MODEL_ARGS: divisibility is an error, --sequence-parallel with TP 1 a warning (Megatron-LM turns it off)', () => {
  const bad = GPT.replace('--num-attention-heads: 8', '--num-attention-heads: 9');
  assert.deepEqual(
    diagnose(bad)
      .filter((d) => d.code === 'RL-R7')
      .map((d) => [d.severity, d.path, d.message]),
    [['error', 'MODEL_ARGS.--tensor-model-parallel-size', 'num_attention_heads 9 must be a multiple of tensor_model_parallel_size 2']],
  );
  const sp = GPT.replace('--tensor-model-parallel-size: 2', '--tensor-model-parallel-size: 1') + '  --sequence-parallel: true\n';
  assert.deepEqual(
    diagnose(sp)
      .filter((d) => d.code === 'RL-R6')
      .map((d) => [d.severity, d.path]),
    [['warning', 'MODEL_ARGS.--sequence-parallel']],
  );
});

test('every Megatron-LM file of corpus-wild is read with no error', () => {
  const files = wildSources().filter((r) => r.kind === 'megatron-lm');
  assert.equal(files.length, 6);
  for (const f of files) {
    const a = analyzeText(readFileSync(join(WILD, f.file), 'utf8'));
    assert.equal(a.format, 'megatron-lm', f.file);
    assert.deepEqual(
      a.findings.filter((x) => x.severity === 'error').map((x) => `${x.code} ${x.path}`),
      [],
      f.file,
    );
  }
});
