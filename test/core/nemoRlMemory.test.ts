// NeMo-RL memory per phase, checked by hand on Llama 3.2 1B with the DTensor (FSDP2) backend on one H100:
// 1,235,814,400 parameters (embedding 128256·2048 tied, 16 layers of 60,821,504, final norm 2048).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hfKind } from '../../src/core/memory/activations.js';
import { countParams } from '../../src/core/memory/params.js';
import { peftOn } from '../../src/core/memory/fromRecipe.js';
import { estimateText } from '../../src/core/memory/report.js';
import { GIB } from '../../src/core/units.js';
import { analyzeText } from '../helpers.js';

const P = 1_235_814_400;
const H100 = 85_017_493_504;
const CONTEXT = GIB / 2;

const grpo = (generation: string, cluster = 'cluster:\n  gpus_per_node: 1\n  num_nodes: 1\n', kl = 0.01) => `grpo:
  num_prompts_per_step: 8
  num_generations_per_prompt: 8
loss_fn:
  reference_policy_kl_penalty: ${kl}
policy:
  model_name: meta-llama/Llama-3.2-1B
  train_global_batch_size: 64
  train_micro_batch_size: 1
  logprob_batch_size: 1
  max_total_sequence_length: 1024
  precision: bfloat16
  dtensor_cfg:
    enabled: true
    tensor_parallel_size: 1
    context_parallel_size: 1
    sequence_parallel: false
    activation_checkpointing: false
  megatron_cfg:
    enabled: false
  sequence_packing:
    enabled: false
  dynamic_batching:
    enabled: false
  generation:
    backend: vllm
${generation}    vllm_cfg:
      tensor_parallel_size: 1
      pipeline_parallel_size: 1
      gpu_memory_utilization: 0.6
      max_model_len: 1024
      precision: bfloat16
      kv_cache_dtype: auto
${cluster}`;

const estimate = (text: string) => {
  const e = analyzeText(text).main!.estimate!;
  assert.equal(e.kind, 'training', e.kind === 'none' ? e.reason : '');
  if (e.kind !== 'training' || !e.rl) throw new Error('no NeMo-RL estimate');
  return e;
};
const phase = (e: ReturnType<typeof estimate>, id: string) => e.rl!.phases.find((p) => p.id === id)!;

test('colocated GRPO on one GPU: refit, generation, logprobs, reference, training — exact bytes', () => {
  const e = estimate(grpo('    colocated:\n      enabled: true\n'));
  assert.equal(countParams(e.shape).total, P);
  // FSDP2 keeps fp32 master weights (automodel/setup.py torch_dtype=float32): 4 B per parameter, one GPU.
  const W = 4 * P;
  assert.equal(e.estimate.perGpu.weights, W);
  assert.deepEqual(
    e.rl!.phases.map((p) => p.id),
    ['refit', 'generation', 'logprob', 'reference', 'training'],
  );
  // vLLM: bf16 weights 2 B per parameter (tied embedding once); KV 2·16 layers·8 KV heads·64·2 B = 32,768 B per token.
  const g = e.rl!.generation!;
  assert.deepEqual([g.weightBytes, g.kvBytesPerToken], [2 * P, 32_768]);
  // KV pool: 0.6 of the GPU − weights − the non-KV runtime (context 0.5 GiB + 8192 tokens·(4·2048 + 3·8192)·2 B, no NCCL on 1 GPU).
  const runtime = CONTEXT + 8192 * (4 * 2048 + 3 * 8192) * 2;
  const pool = 0.6 * H100 - 2 * P - runtime;
  assert.deepEqual([g.kvPoolBytes, g.kvTokens, g.sequencesAtMaxLen], [pool, 1_448_520, 1_414]);
  // generation: vLLM's 0.6 × GPU + the offloaded policy worker's CUDA context (no NCCL on one GPU).
  assert.equal(phase(e, 'generation').bytes, 0.6 * H100 + CONTEXT);
  // refit: policy weights + vLLM weights + both contexts, and 30% of what is left as the transfer buffer.
  const used = W + 2 * P + CONTEXT + CONTEXT;
  assert.equal(phase(e, 'refit').bytes, used + 0.3 * (H100 - used));
  // logprobs: weights (optimizer offloaded by the refit) + one HF flash layer (21·s·h + 8·s·ffn + 4·a·s + 8·s at s = 1024)
  // + logits 1024 · 128256 · 12 B (fp32 logits, shifted, log-softmax); ×1.1 fragmentation, the worker's and vLLM's contexts.
  const layer = 21 * 1024 * 2048 + 8 * 1024 * 8192 + 4 * 32 * 1024 + 8 * 1024;
  const logits = 1024 * 128_256 * 12;
  assert.deepEqual([layer, logits], [111_288_320, 1_576_009_728]);
  const logprob = (W + layer + logits) * 1.1 + CONTEXT + CONTEXT;
  assert.equal(Math.round(phase(e, 'logprob').bytes), Math.round(logprob));
  // The reference model is swapped into the same tensors: the same GPU bytes, and a pinned CPU copy of the weights.
  assert.equal(Math.round(phase(e, 'reference').bytes), Math.round(logprob));
  assert.deepEqual(e.rl!.reference, {
    loaded: true,
    why: 'loss_fn.reference_policy_kl_penalty 0.01 > 0 (grpo.py init_reference_model)',
    hostBytes: W,
  });
  // training: the training estimate, plus the sleeping vLLM worker's context.
  assert.equal(phase(e, 'training').bytes, e.estimate.perGpu.total + CONTEXT);
  assert.deepEqual(e.rl!.peak, { training: 'generation' });
});

test('non-colocated: generation on its own GPU, the optimizer stays for logprobs, no refit phase; KL 0 loads no reference', () => {
  const e = estimate(
    grpo(
      '    colocated:\n      enabled: false\n      resources:\n        gpus_per_node: 1\n        num_nodes: null\n',
      'cluster:\n  gpus_per_node: 2\n  num_nodes: 1\n',
      0,
    ),
  );
  assert.deepEqual(
    e.rl!.phases.map((p) => [p.id, p.gpus]),
    [
      ['generation', 'generation'],
      ['logprob', 'training'],
      ['training', 'training'],
    ],
  );
  assert.equal(phase(e, 'generation').bytes, 0.6 * H100);
  const W = 4 * P;
  const O = 8 * P; // Adam m and v in fp32, one GPU (FSDP2 shards over DP·CP = 1)
  assert.equal(e.estimate.perGpu.optimizer, O);
  const layer = 111_288_320;
  const logits = 1_576_009_728;
  assert.equal(Math.round(phase(e, 'logprob').bytes), Math.round((W + O + layer + logits) * 1.1 + CONTEXT));
  assert.equal(phase(e, 'training').bytes, e.estimate.perGpu.total);
  assert.deepEqual(e.rl!.peak, { training: 'training', generation: 'generation' });
  assert.deepEqual(e.rl!.reference, {
    loaded: false,
    why: 'loss_fn.reference_policy_kl_penalty is 0: no reference model (grpo.py)',
    hostBytes: 0,
  });
});

test('no estimate without a model shape: the reason names policy.model_name', () => {
  const e = analyzeText(grpo('').replace('meta-llama/Llama-3.2-1B', 'my-org/private-model')).main!.estimate!;
  assert.deepEqual(
    e.kind === 'none' && e.reason.split(';')[0],
    'no model shape for the policy: policy.model_name: "my-org/private-model" is no catalogue model',
  );
});

test('`recipe-lens estimate` text lists the phases in step order with the peak', () => {
  const text = estimateText(estimate(grpo('    colocated:\n      enabled: true\n')));
  const lines = text.split('\n');
  const start = lines.indexOf('NeMo-RL grpo step (dtensor backend, colocated generation), per GPU:');
  assert.ok(start > 0, text);
  assert.deepEqual(
    lines
      .slice(start + 1)
      .filter((l) => /^ {2}\S/.test(l) && !l.startsWith('  - '))
      .map((l) => l.split(':')[0]),
    [
      '  weight refit (colocated)',
      '  generation (colocated)',
      '  policy logprobs',
      '  reference-model logprobs (weights swapped in place)',
      '  policy training',
      '  vllm TP 1 PP 1',
      '  reference model',
    ],
  );
  assert.match(text, /generation \(colocated\): 48\.01 GiB — fits \(60\.6%\) {2}← peak/);
});

test('RL-MEM on the phase that overflows, on the key that sizes it: colocated vLLM taking the whole GPU', () => {
  const text = grpo('    colocated:\n      enabled: true\n').replace('gpu_memory_utilization: 0.6', 'gpu_memory_utilization: 1.0');
  const a = analyzeText(text, { memoryWarnings: true });
  const mem = a.diagnostics.filter((d) => d.code === 'RL-MEM');
  assert.deepEqual(
    mem.map((d) => [d.severity, d.path, d.message.split(':')[0]]),
    [
      [
        'warning',
        'policy.generation.vllm_cfg.gpu_memory_utilization',
        // No GPU named: the message says the H100 is the default, and how to name one.
        'generation (colocated) needs an estimated 79.7 GiB per GPU, more than the NVIDIA H100 80GB HBM3 (SXM) (79.2 GiB) — no GPU is named, so the default is assumed; name yours with `# recipe-lens',
      ],
    ],
  );
  // 1.0 × 85,017,493,504 + 0.5 GiB (the offloaded policy worker's context) = 85,554,364,416 B = 79.7 GiB.
  assert.equal(H100 + CONTEXT, 85_554_364_416);
});

test('RL-MEM on passes padded to max_total_sequence_length is an information (the worst case), a warning once packed', () => {
  // 1B policy, 131,072 tokens per sample, no recompute: training and the logprob passes overflow only if a sample is that long.
  const long = grpo('    colocated:\n      enabled: true\n')
    .replace('max_total_sequence_length: 1024', 'max_total_sequence_length: 131072')
    .replace('max_model_len: 1024', 'max_model_len: 131072');
  const mem = (text: string) =>
    analyzeText(text, { memoryWarnings: true })
      .diagnostics.filter((d) => d.code === 'RL-MEM')
      .map((d) => [d.severity, d.path, d.message.split(': ')[0]]);
  const bound = 'if a micro-batch reaches 131072 tokens (NeMo-RL pads to the longest sample of a batch)';
  assert.deepEqual(mem(long), [
    ['info', 'policy.logprob_batch_size', bound],
    ['info', 'policy.logprob_batch_size', bound],
    ['info', 'policy.max_total_sequence_length', bound],
  ]);
  const packed = mem(long.replace('  sequence_packing:\n    enabled: false', '  sequence_packing:\n    enabled: true'));
  assert.deepEqual(
    packed.map((d) => d[0]),
    ['warning', 'warning', 'warning'],
  );
});

test('a local policy.model_name is asked of the host (Analysis.modelRequests), which resolves it from config.json', () => {
  const a = analyzeText(grpo('').replace('meta-llama/Llama-3.2-1B', '/checkpoints/my-llama'));
  assert.deepEqual(a.modelRequests, ['/checkpoints/my-llama']);
  const e = a.main!.estimate!;
  assert.equal(e.kind, 'none');
});

test('adapter training is read from each format: a NeMo-RL megatron_cfg.peft with enabled: false is full training', () => {
  assert.deepEqual([undefined, null, 'none', false, 'lora', {}, { enabled: true, dim: 8 }, { enabled: false, dim: 8 }].map(peftOn), [
    false,
    false,
    false,
    false,
    true,
    true,
    true,
    false,
  ]);
});

test('DTensor policy.optimizer: torch AdamW kwargs pick the Adam kernel; neither foreach nor fused is torch’s foreach, listed', () => {
  const withOptimizer = (kwargs: string) =>
    estimate(
      grpo('    colocated:\n      enabled: true\n').replace(
        '  precision: bfloat16\n',
        `  precision: bfloat16\n  optimizer:\n    name: torch.optim.AdamW\n    kwargs:\n      lr: 5.0e-6\n${kwargs}`,
      ),
    );
  const kernel = (kwargs: string) => {
    const e = withOptimizer(kwargs);
    return [e.config.adamKernel, e.estimate.assumptions.some((a) => a.what.startsWith('torch.optim.AdamW takes its foreach path'))];
  };
  assert.deepEqual(kernel('      foreach: False\n      fused: False\n'), ['for-loop', false]);
  assert.deepEqual(kernel('      fused: true\n'), ['fused', false]);
  assert.deepEqual(kernel('      foreach: true\n'), ['foreach', false]);
  assert.deepEqual(kernel(''), ['foreach', true]);
  // The foreach step holds 4 B per element of the rank's FSDP2 shard (one GPU: every parameter).
  const st = withOptimizer('').estimate.stages[0]!;
  assert.equal(
    st.optimizerStep - (st.weights + st.gradients + st.optimizer),
    4 * P + (st.allocated - st.activations - st.transient - st.weights - st.gradients - st.optimizer),
  );
  // The first iteration runs its forward/backward before AdamW creates its fp32 moments (8 B per parameter).
  assert.equal(st.firstIteration, Math.max(st.allocated - 8 * P, st.optimizerStep));
});

test('logprob pass of a hybrid model: one layer is the largest layer kind the model holds, each counted as the training profile does', () => {
  const text = grpo('    colocated:\n      enabled: true\n').replace(
    'meta-llama/Llama-3.2-1B',
    'nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16',
  );
  const e = estimate(text);
  const line = phase(e, 'logprob').lines.find((l) => l.label.startsWith('logprob pass: one layer'))!;
  // Nemotron 3 Nano holds Mamba, attention-only and MoE-only layers; under DTensor they take Megatron-Core's inventories (hfKind).
  const c = e.config;
  const kinds = (['mamba', 'attention', 'moe-mlp'] as const).map((k) => hfKind(e.shape, c, 1, 1024, k).stored);
  assert.equal(line.bytes, Math.max(...kinds));
  assert.ok(line.bytes > hfKind(e.shape, c, 1, 1024, 'attention').stored);
});
