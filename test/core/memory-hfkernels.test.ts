// The hf profile beyond Hugging Face's eager modules: fused RMSNorms and gated MLPs (Liger, Automodel's own model
// classes), Q/K norms, the logits a training loop holds through backward, and cut cross-entropy. Each number by hand from
// the saved tensors its source names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hfLayer, lossActivations } from '../../src/core/memory/activations.js';
import { hfKernels } from '../../src/core/memory/automodel.js';
import type { TrainingConfig } from '../../src/core/memory/config.js';
import { GPUS } from '../../src/core/memory/gpus.js';
import type { Assumption } from '../../src/core/memory/types.js';
import type { TrainingRecipe } from '../../src/core/recipe.js';
import { estimateOf, modelShape, recipeOf, trainingConfig } from '../helpers.js';

const llama8b = modelShape('llama3-8b');
const hf = trainingConfig({ seq: 4096, globalBatch: 8, worldSize: 8, profile: 'hf', attention: 'flash' });
const [s, b, h, i, a, g] = [4096, 1, 4096, 14336, 32, 8];
const sb = s * b;
const sbh = sb * h;

/** An Automodel recipe of a model, with extra `model:` lines. */
const recipe = (model: string, extra = '') => `recipe: TrainFinetuneRecipeForNextTokenPrediction
step_scheduler: {global_batch_size: 8, local_batch_size: 1}
model:
  _target_: nemo_automodel.NeMoAutoModelForCausalLM.from_pretrained
  pretrained_model_name_or_path: ${model}
${extra}distributed: {strategy: fsdp2, dp_size: 8}
dataset: {seq_len: 4096}
`;

test('fused RMSNorms save their bf16 input and fp32 rstd; a fused gated MLP saves gate and up', () => {
  const eager = hfLayer(llama8b, hf, b, s).dense;
  // hf-activations.md flash formula: (20 + 4g/a)·sbh + 8·sbi + 4·a·s·b + 8·sb.
  assert.equal(eager, (20 + (4 * g) / a) * sbh + 8 * sb * i + 4 * a * sb + 8 * sb);
  const norm = { norm: true, glu: false, what: 'test' };
  // Each of the two norms drops its fp32 input (4·sbh) and normalized copy (2·sbh) for the bf16 input (2·sbh): 8·sbh less.
  assert.equal(hfLayer(llama8b, { ...hf, hfKernels: norm }, b, s).dense, eager - 8 * sbh);
  // Liger's SiLU·mul saves a and b and returns the down_proj input: the SiLU output (2·sbi) is not kept.
  assert.equal(hfLayer(llama8b, { ...hf, hfKernels: { ...norm, glu: true } }, b, s).dense, eager - 8 * sbh - 2 * sb * i);
  // Under DTensor TP 2 with SP the norms hold s/t tokens: (4·sbh + 8·sb)/2.
  const tp: TrainingConfig = { ...hf, tp: 2, sp: true, hfKernels: norm };
  const terms = hfLayer(llama8b, tp, b, s).terms;
  assert.deepEqual(
    terms.find((t) => t.label.startsWith('RMSNorms')),
    {
      label: 'RMSNorms ×2: bf16 input, rstd (test)',
      bytes: (4 * sbh + 8 * sb) / 2,
      formula: '(4·sbh + 8·sb)/t — Liger ops/rms_norm.py, TE ops/basic/rmsnorm.py save x and rstd',
    },
  );
});

test('Q/K norms (Qwen3) save what a layer norm saves, at the width of the query and key heads', () => {
  const qwen = modelShape('qwen3-8b');
  const withQk = hfLayer(qwen, hf, b, s);
  const without = hfLayer({ ...qwen, qkNorm: undefined }, hf, b, s);
  const [qa, qg, d] = [qwen.heads, qwen.kvHeads, qwen.headDim];
  assert.deepEqual([qa, qg, d], [32, 8, 128]);
  // fp32 input 4 + normalized bf16 2 per element of the (a + g) heads, and a 4-byte rstd per head and token.
  assert.equal(withQk.dense - without.dense, 6 * sb * (qa + qg) * d + 4 * sb * (qa + qg));
  assert.equal(withQk.dense - without.dense, 126_484_480);
});

test('the loss: logits a loop holds through backward, and cut cross-entropy without logits', () => {
  const V = 128256;
  const plain = lossActivations(llama8b, hf, b, s, V);
  assert.equal(plain.bwd, 8 * sb * V);
  // Automodel train_ft.py keeps `out` across .backward(): the bf16 logits (2·s·b·V) beside both fp32 gradients.
  assert.equal(lossActivations(llama8b, { ...hf, heldLogits: true }, b, s, V).bwd, 10 * sb * V);
  // MaskedCrossEntropy with fp32_upcast false: log_softmax of the bf16 logits (2·s·b·V) and bf16 gradients (2 + 2), the
  // forward transient only the bf16 logits themselves.
  const bf16 = lossActivations(llama8b, { ...hf, hfLoss: 'bf16', heldLogits: true }, b, s, V);
  assert.deepEqual([bf16.stored - plain.stored, bf16.fwd, bf16.bwd], [-2 * sb * V, 2 * sb * V, 6 * sb * V]);
  // Cut cross-entropy: final norm (6·sbh + 4·sb), hidden states 2·sbh, lse + valid indices (4 + 8)·sb, labels 8·sb and
  // under FSDP the gathered lm_head 2·V·h; backward allocates dE (2·sbh) and dC (2·V·h).
  const cce = lossActivations(llama8b, { ...hf, fsdp: 'fsdp2', hfLoss: 'cut-cross-entropy' }, b, s, V);
  assert.deepEqual([cce.stored, cce.fwd, cce.bwd], [6 * sbh + 4 * sb + 2 * sbh + 12 * sb + 2 * V * h + 8 * sb, 0, 2 * sbh + 2 * V * h]);
  const estimate = estimateOf(`recipe: TrainFinetuneRecipeForNextTokenPrediction
step_scheduler: {global_batch_size: 8, local_batch_size: 1}
model:
  _target_: nemo_automodel.NeMoAutoModelForCausalLM.from_pretrained
  pretrained_model_name_or_path: meta-llama/Llama-3.1-8B
distributed: {strategy: fsdp2, dp_size: 8}
dataset: {seq_len: 4096}
loss_fn:
  _target_: nemo_automodel.components.loss.linear_ce.FusedLinearCrossEntropy
`);
  assert.equal(estimate?.kind, 'training');
  if (estimate?.kind !== 'training') return;
  assert.equal(estimate.config.hfLoss, 'cut-cross-entropy');
  assert.equal(estimate.config.heldLogits, undefined);
  assert.equal(estimate.config.heldHiddenStates, true);
  const noUpcast = estimateOf(
    recipe('meta-llama/Llama-3.1-8B') +
      'loss_fn:\n  _target_: nemo_automodel.components.loss.masked_ce.MaskedCrossEntropy\n  fp32_upcast: false\n',
  );
  assert.equal(noUpcast?.kind === 'training' && noUpcast.config.hfLoss, 'bf16');
  assert.deepEqual(
    estimate.estimate.transients.filter((t) => /logits|cut cross-entropy/.test(t.label)).map((t) => [t.label, t.bytes]),
    [['cut cross-entropy backward: hidden-state and classifier gradients', 2 * sbh + 2 * V * h]],
  );
});

test('which kernels an Automodel run uses follows its registry, force_hf, use_liger_kernel, the backend and the host', () => {
  const gpu = (id: string) => GPUS.find((x) => x.id === id)!;
  const pick = (text: string, arch: string | undefined, gpuId = 'h100') => {
    const am = (recipeOf(text) as TrainingRecipe).automodel!;
    const assumptions: Assumption[] = [];
    const k = hfKernels(am, { ...llama8b, architecture: arch }, gpu(gpuId), assumptions);
    return [k ? `${k.norm ? 'norm' : ''}${k.glu ? '+glu' : ''}` : 'eager', assumptions.map((x) => x.what)[0] ?? ''];
  };
  const llama = recipe('meta-llama/Llama-3.1-8B');
  // Automodel's own LlamaForCausalLM: initialize_rms_norm_module with the default torch_fp32 backend; the MLP is eager.
  assert.deepEqual(pick(llama, 'LlamaForCausalLM'), [
    'norm',
    "RMSNorms save their bf16 input and fp32 rstd (model.backend.rms_norm torch_fp32); MLP as Hugging Face's",
  ]);
  assert.equal(pick(recipe('meta-llama/Llama-3.1-8B', '  backend:\n    rms_norm: te\n'), 'LlamaForCausalLM')[0], 'norm');
  assert.deepEqual(pick(recipe('meta-llama/Llama-3.1-8B', '  backend:\n    rms_norm: torch\n'), 'LlamaForCausalLM'), [
    'eager',
    'RMSNorm backend torch counted as an eager RMSNorm (fp32 input and normalized copy saved: an upper bound)',
  ]);
  // Qwen3's own class keeps Hugging Face's Qwen3RMSNorm; Liger is never applied to a custom class.
  assert.deepEqual(pick(recipe('Qwen/Qwen3-8B'), 'Qwen3ForCausalLM'), [
    'eager',
    "layers of Automodel's Qwen3ForCausalLM counted with Hugging Face eager RMSNorms",
  ]);
  // force_hf builds Hugging Face's class, which Liger patches on an x86_64 host …
  const forced = recipe('meta-llama/Llama-3.1-8B', '  force_hf: true\n');
  assert.equal(pick(forced, 'LlamaForCausalLM')[0], 'norm+glu');
  // … but not where it is switched off, or on a Grace host (liger-kernel is an x86_64-only dependency).
  assert.equal(pick(recipe('meta-llama/Llama-3.1-8B', '  force_hf: true\n  use_liger_kernel: false\n'), 'LlamaForCausalLM')[0], 'eager');
  assert.deepEqual(pick(forced, 'LlamaForCausalLM', 'gb200'), ['eager', 'Hugging Face LlamaForCausalLM layers without Liger kernels']);
  // A class outside the registry: Hugging Face's, patched by Liger when its model type has a patch.
  assert.equal(pick(recipe('google/gemma-3-4b-it'), 'Gemma3ForConditionalGeneration')[0], 'norm+glu');
  assert.deepEqual(pick(recipe('some/model'), 'FalconForCausalLM'), ['eager', '']);
  assert.equal(String(pick(llama, undefined)[1]).startsWith('layers counted with Hugging Face eager RMSNorms and MLP'), true);
});

// NVIDIA-NeMo/Automodel docs/guides/gradient-checkpointing.mdx (b4733bdc1, 2025-09-18), "Example Memory Savings (H100-80GB,
// Llama-3.2-1B)": torch.cuda.max_memory_allocated() averaged over the DP ranks (FSDP2 ranks are symmetric), local batch 8,
// sequence 2048, AdamW, PyTorch 2.8, read in GiB as Automodel's log prints it. The runs predate Automodel's own Llama class
// (components/models/llama, 2025-11-07), so they ran Hugging Face's LlamaForCausalLM with Liger: force_hf reproduces that
// path today. Automodel then wrapped input_layernorm, self_attn, post_attention_layernorm and mlp in checkpoints for every
// class (parallelizer.py at b4733bdc1; Hugging Face's own gradient checkpointing came in v0.4.0), so the recipe names
// release 0.1 and each layer keeps four inputs. The example config of this model (llama3_2_1b_squad.yaml) gives the global
// batch 64: one micro-batch per step, so zero_grad(set_to_none) leaves no gradients at the peak. Tolerance: the guide's
// own ±5 % variance. Not tested: the baseline row (its parallelism is not stated) and the
// LC-CE rows (both 7.30 GB with and without checkpointing, which one configuration cannot give).
test('Automodel guide, Llama-3.2-1B on H100: FSDP 47.59 and FSDP + checkpointing 33.06 GiB within 5%', () => {
  const run = (ac: boolean) => `# recipe-lens: automodel=0.1
recipe: TrainFinetuneRecipeForNextTokenPrediction
step_scheduler: {global_batch_size: 64, local_batch_size: 8}
model:
  _target_: nemo_automodel.NeMoAutoModelForCausalLM.from_pretrained
  pretrained_model_name_or_path: meta-llama/Llama-3.2-1B
  force_hf: true
distributed: {strategy: fsdp2, dp_size: 8, activation_checkpointing: ${ac}}
dataset: {seq_len: 2048}
loss_fn:
  _target_: nemo_automodel.components.loss.masked_ce.MaskedCrossEntropy
optimizer:
  _target_: torch.optim.AdamW
`;
  for (const [ac, measured] of [
    [false, 47.59],
    [true, 33.06],
  ] as const) {
    const e = estimateOf(run(ac), { gpu: 'h100' });
    assert.equal(e?.kind, 'training');
    if (e?.kind !== 'training') return;
    assert.equal(e.config.hfKernels?.what, 'Liger');
    assert.equal(e.config.heldLogits, true);
    assert.equal(e.config.checkpointUnit, ac ? 'submodule' : undefined);
    assert.equal(e.estimate.stages[0]!.gradients, 0);
    const allocated = Math.max(...e.estimate.stages.map((st) => st.allocated)) / 2 ** 30;
    assert.ok(Math.abs(allocated / measured - 1) <= 0.05, `checkpointing ${ac}: ${allocated.toFixed(2)} GiB vs ${measured}`);
  }
});
