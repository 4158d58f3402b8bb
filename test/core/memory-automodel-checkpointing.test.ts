// What distributed.activation_checkpointing true keeps in NeMo Automodel, by the path that applies it: Hugging Face's
// gradient checkpointing (whole layers), submodule checkpointing (Automodel's own classes, DDP), the expert-parallel
// block checkpoint that saves the router outputs, and Megatron FSDP, which skips it. Bytes by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codes, diagnose, estimateOf } from '../helpers.js';

const recipe = (model: string, extra: string, dist: string) => `recipe: TrainFinetuneRecipeForNextTokenPrediction
step_scheduler: {global_batch_size: 8, local_batch_size: 1}
model:
  _target_: nemo_automodel.NeMoAutoModelForCausalLM.from_pretrained
  pretrained_model_name_or_path: ${model}
${extra}distributed: {${dist}, activation_checkpointing: true}
dataset: {seq_len: 4096}
`;

/** The most-loaded rank's stored-layer line and the checkpointing assumptions. */
function layers(text: string) {
  const e = estimateOf(text, { gpu: 'h100' });
  assert.equal(e?.kind, 'training');
  if (e?.kind !== 'training') throw new Error('no training estimate');
  const line = e.estimate.breakdown.find((l) => l.label.startsWith('transformer layers'))!;
  const notes = e.estimate.assumptions.filter((a) => /checkpoint/i.test(a.what)).map((a) => a.what);
  return { bytes: line.bytes, label: line.label, unit: e.config.checkpointUnit, notes };
}

const [s, h] = [4096, 4096];
const input = 2 * s * h; // one bf16 layer input at micro-batch 1

test("Automodel's own Llama keeps four submodule inputs per layer; Hugging Face's class one", () => {
  const own = layers(recipe('meta-llama/Llama-3.1-8B', '', 'strategy: fsdp2, dp_size: 8'));
  assert.equal(own.unit, 'submodule');
  assert.equal(own.bytes, 32 * 4 * input);
  assert.deepEqual(own.notes, [
    'activation checkpointing per submodule: each layer keeps the inputs of input_layernorm, self_attn, post_attention_layernorm and mlp (4 × its input)',
  ]);
  // force_hf: transformers' LlamaDecoderLayer is a GradientCheckpointingLayer, so whole layers are checkpointed.
  const hf = layers(recipe('meta-llama/Llama-3.1-8B', '  force_hf: true\n', 'strategy: fsdp2, dp_size: 8'));
  assert.equal(hf.unit, undefined);
  assert.equal(hf.bytes, 32 * input);
  // DDP wraps submodules whatever the class (ddp.py); so does enable_compile on the FSDP2 path.
  assert.equal(layers(recipe('meta-llama/Llama-3.1-8B', '  force_hf: true\n', 'strategy: ddp, dp_size: 8')).bytes, 32 * 4 * input);
  const compiled = layers(recipe('meta-llama/Llama-3.1-8B', '  force_hf: true\n', 'strategy: fsdp2, dp_size: 8, enable_compile: true'));
  assert.equal(compiled.unit, 'submodule');
});

test('expert parallelism checkpoints whole blocks and keeps each MoE layer’s router logits and top-k', () => {
  const qwen = layers(recipe('Qwen/Qwen3-30B-A3B', '', 'strategy: fsdp2, dp_size: 8, ep_size: 8'));
  assert.equal(qwen.unit, 'moe-block');
  // 48 MoE layers of hidden 2048: the input (2·s·h), bf16 logits over 128 experts and fp32 scores + int64 indices of 8.
  assert.equal(qwen.bytes, 48 * (2 * s * 2048 + s * (2 * 128 + 12 * 8)));
  assert.match(qwen.label, /router logits and top-k of each MoE layer/);
});

test('Megatron FSDP skips activation checkpointing: the estimate keeps every activation and RL-AM7 warns', () => {
  const text = recipe('meta-llama/Llama-3.1-8B', '', 'strategy: megatron_fsdp, dp_size: 8');
  const mf = layers(text);
  assert.deepEqual(mf.notes, ['no activation checkpointing: Megatron FSDP skips it']);
  assert.equal(mf.label, 'transformer layers (32 layers × 1 micro-batch in flight)');
  // Every layer whole (memory-hfkernels.test.ts): flash attention, the own class's fused RMSNorms, eager SwiGLU.
  assert.equal(mf.bytes, 32 * ((20 + (4 * 8) / 32 - 8) * s * h + 8 * s * 14336 + 4 * 32 * s + 8 * s));
  const d = diagnose(text).filter((x) => x.code === 'RL-AM7');
  assert.equal(d.length, 1);
  assert.equal(d[0]!.severity, 'warning');
  assert.match(d[0]!.message, /^activation_checkpointing is skipped under strategy megatron_fsdp/);
  // On one GPU MegatronFSDPManager uses Hugging Face's gradient checkpointing instead: no warning.
  assert.deepEqual(
    codes(diagnose(recipe('meta-llama/Llama-3.1-8B', '', 'strategy: megatron_fsdp, dp_size: 1'))).filter((c) => c === 'RL-AM7'),
    [],
  );
});
