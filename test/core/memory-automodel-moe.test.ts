// NeMo Automodel's expert-parallel benchmark runs: model.backend.te_fp8 (the TE modules of Automodel's own classes run under
// TE's FP8 autocast and keep their quantized weights across micro-batches, made from the all-gathered weight), FSDP2's
// reshard_after_forward default under expert parallelism, and the gradients zero_grad frees after each step. Each
// number by hand from the model's shapes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateOf } from '../helpers.js';

/** An Automodel benchmark recipe of a model with the given `backend:` lines and world size (dp_size). */
const recipe = (model: string, backend: string, world: number, ep: number) => `recipe: BenchmarkingRecipeForNextTokenPrediction
step_scheduler: {global_batch_size: ${2 * world}, local_batch_size: 2}
distributed: {strategy: fsdp2, dp_size: ${world}, ep_size: ${ep}, activation_checkpointing: true}
model:
  _target_: nemo_automodel.NeMoAutoModelForCausalLM.from_config
  config:
    _target_: transformers.AutoConfig.from_pretrained
    pretrained_model_name_or_path: ${model}
  backend:
${backend
  .split('\n')
  .filter(Boolean)
  .map((l) => `    ${l}`)
  .join('\n')}
dataset: {seq_len: 4096}
`;

/** The rank's quantized-weight line, its assumptions and the most-loaded rank's allocated bytes. */
function run(text: string, gpu = 'gb200') {
  const e = estimateOf(text, { gpu });
  assert.equal(e?.kind, 'training');
  if (e?.kind !== 'training') throw new Error('no training estimate');
  const line = e.estimate.breakdown.find((l) => l.label === 'low-precision weight copies');
  return { copies: line?.bytes ?? 0, line, config: e.config, assumptions: e.estimate.assumptions.map((a) => a.what), e };
}

const MXFP8 = 2 * (1 + 1 / 32); // rowwise and columnwise e4m3 data, each with an e8m0 scale per 32 elements

test('DeepSeek-V3 EP 64, experts te with MXFP8: the 4 local experts of each of the 58 MoE layers, unsharded by FSDP', () => {
  const text = recipe('deepseek-ai/DeepSeek-V3', 'linear: torch\nexperts: te\ndispatcher: hybridep\nte_fp8:\n  recipe: mxfp8', 64, 64);
  const r = run(text);
  // 256 routed experts over EP 64; each expert's gate, up and down projections are 7168 × 2048.
  const perLayer = (256 / 64) * 3 * 7168 * 2048;
  assert.equal(r.copies, 58 * perLayer * MXFP8);
  // Automodel's benchmark config (deepseek_v3_sdpa_compile_mxfp8_gb200.yaml): "mxfp8 adds ~20GB TE fp8 scratch".
  assert.equal(+(r.copies / 1e9).toFixed(1), 21.1);
  assert.equal(r.config.fp8, 'mxfp8');
  assert.deepEqual(r.config.teModules, { dense: false, experts: true, output: false });
  assert.equal(
    r.line?.formula,
    'rowwise + columnwise quantized copies of the TE linears, made from the all-gathered weight (not sharded by FSDP)',
  );
  assert.ok(
    r.assumptions.includes(
      'TE MXFP8BlockScaling on the routed experts; each module keeps its rowwise and columnwise quantized weight across micro-batches, unsharded by FSDP',
    ),
  );
  // The same run in bf16 has no copies; the MoE layers' expert inputs are saved in FP8 (1 + 1/32 B) instead of bf16.
  const bf16 = run(recipe('deepseek-ai/DeepSeek-V3', 'linear: torch\nexperts: te\ndispatcher: hybridep', 64, 64));
  assert.equal(bf16.copies, 0);
  assert.equal(bf16.config.fp8, null);
  const fc1 = (x: typeof r) => x.e.estimate.layerTerms.find((t) => t.label === 'experts: FC1 input (dispatched tokens)')!;
  assert.equal(fc1(r).bytes / fc1(bf16).bytes, (1 + 1 / 32) / 2);
  // linear torch: the attention inputs stay bf16.
  const ln1 = (x: typeof r) => x.e.estimate.layerTerms.find((t) => t.label.startsWith('LN1 output'))?.bytes;
  assert.equal(ln1(r), 2 * 4096 * 2 * 7168);
  assert.equal(ln1(bf16), 2 * 4096 * 2 * 7168);
});

test('Qwen3-30B-A3B with linear and experts te: attention, lm_head and the local experts, per recipe and GPU', () => {
  const [h, V, layers] = [2048, 151936, 48];
  const attention = h * (32 * 128) + 2 * h * (4 * 128) + 32 * 128 * h; // q, k, v, o
  const experts = (128 / 8) * 3 * h * 768;
  const gemms = layers * (attention + experts) + V * h;
  const mx = run(recipe('Qwen/Qwen3-30B-A3B', 'linear: te\nexperts: te\nte_fp8:\n  recipe: mxfp8', 8, 8));
  assert.equal(mx.copies, gemms * MXFP8);
  assert.deepEqual(mx.config.teModules, { dense: true, experts: true, output: true });
  // Float8CurrentScaling (the default recipe) keeps a transpose on Hopper only: Blackwell runs every GEMM layout from the
  // rowwise data (TE csrc/quantizer.cpp: with_transpose = columnwise_usage && !nvte_is_non_tn_fp8_gemm_supported()).
  const current = recipe('Qwen/Qwen3-30B-A3B', 'linear: te\nexperts: te\nte_fp8: {}', 8, 8);
  assert.equal(run(current, 'h100').copies, gemms * 2);
  assert.equal(run(current, 'gb200').copies, gemms * 1);
  assert.equal(run(current, 'gb200').config.fp8, 'tensorwise');
  // A TE recipe object by its class, as TEFp8Config accepts it.
  const block = recipe(
    'Qwen/Qwen3-30B-A3B',
    'linear: te\nexperts: te\nte_fp8:\n  _target_: nemo_automodel.components.models.common.utils.TEFp8Config\n  recipe:\n    _target_: transformer_engine.common.recipe.Float8BlockScaling',
    8,
    8,
  );
  assert.equal(run(block).config.fp8, 'blockwise');
  // linear defaults to te; under the torch dispatcher experts te falls back to torch_mm (BackendConfig.__post_init__).
  const torchDispatch = run(recipe('Qwen/Qwen3-30B-A3B', 'experts: te\ndispatcher: torch\nte_fp8: {recipe: mxfp8}', 8, 8));
  assert.deepEqual(torchDispatch.config.teModules, { dense: true, experts: false, output: true });
  assert.equal(torchDispatch.copies, (layers * attention + V * h) * MXFP8);
});

test('te_fp8 on a model without TE linears, or with force_hf, quantizes nothing and says why', () => {
  // Automodel's own Llama class builds nn.Linear layers (components/models/llama), whatever model.backend.linear says.
  const llama = run(recipe('meta-llama/Llama-3.1-8B', 'linear: te\nte_fp8: {recipe: mxfp8}', 8, 1));
  assert.equal(llama.copies, 0);
  assert.equal(llama.config.fp8, null);
  assert.ok(llama.assumptions.includes('no FP8 linears: te_fp8 quantizes only TE modules, and this model builds none'));
  const forced = run(
    recipe('Qwen/Qwen3-30B-A3B', 'linear: te\nexperts: te\nte_fp8: {recipe: mxfp8}', 8, 8).replace(
      '  backend:',
      '  force_hf: true\n  backend:',
    ),
  );
  assert.equal(forced.copies, 0);
  const none = run(recipe('Qwen/Qwen3-30B-A3B', 'linear: torch\nexperts: gmm\nte_fp8: {recipe: mxfp8}', 8, 8));
  assert.equal(none.copies, 0);
  assert.ok(none.assumptions.includes('no FP8 linears: neither model.backend.linear nor model.backend.experts is te'));
  const unknown = run(recipe('Qwen/Qwen3-30B-A3B', 'linear: te\nte_fp8: {recipe: nvfp4}', 8, 8));
  assert.equal(unknown.copies, 0);
  assert.ok(unknown.assumptions.includes('te_fp8 recipe nvfp4 not modelled: linears counted in bf16'));
});

// FSDP2 under expert parallelism: Automodel's MoE parallelizer shards with reshard_after_forward false by default
// (components/distributed/config.py MoEParallelizerConfig), so every unit's gathered parameters stay into backward.
test('expert-parallel FSDP2 keeps every gathered parameter into backward unless reshard_after_forward is set', () => {
  const text = recipe('Qwen/Qwen3-30B-A3B', 'experts: te\nte_fp8: {recipe: mxfp8}', 8, 8);
  const fsdp = (t: string) => run(t).e.estimate.breakdown.find((l) => l.label.startsWith('FSDP2: gathered'))!;
  // The rank's FSDP-managed parameters: 48 layers of attention (q, k, v, o), q/k norms, two RMSNorms and the router,
  // the embedding, lm_head and the final norm. The experts are not FSDP-managed: EP spans all 8 ranks.
  const layer = 2 * 2048 * 4096 + 2 * 2048 * 512 + 2 * 128 + 2 * 2048 + 2048 * 128;
  const dense = 48 * layer + 2 * 151936 * 2048 + 2048;
  assert.equal(dense, 1_541_093_376);
  // bf16 gathered copies. The peak is the loss backward, before any unit's backward: no unit's unsharded gradient yet
  // (in a layer's backward the fp32 gradient of the largest unit, the embedding, would be added: 4·V·h).
  assert.equal(fsdp(text).bytes, 2 * dense);
  assert.equal(
    fsdp(text).label,
    "FSDP2: gathered parameters of every unit (reshard_after_forward false) (no unit's gradient yet in the loss backward)",
  );
  assert.equal(run(text).config.fsdpKeepsGathered, true);
  // distributed.reshard_after_forward true overrides the MoE default: one unit and the prefetched next.
  const resharded = text.replace('activation_checkpointing: true', 'activation_checkpointing: true, reshard_after_forward: true');
  assert.equal(fsdp(resharded).bytes, 2 * 2 * 151936 * 2048);
});

// train_ft.py calls opt.zero_grad() after each step (set_to_none): with one micro-batch per step the forward and the
// start of backward hold no gradients.
test('one micro-batch per step: the gradients zero_grad freed are not at the forward/backward peak', () => {
  const text = recipe('deepseek-ai/DeepSeek-V3', 'linear: torch\nexperts: te\ndispatcher: hybridep', 64, 64);
  const once = run(text).e.estimate;
  assert.equal(once.stages[0]!.gradients, 0);
  assert.ok(
    once.assumptions.some(
      (a) => a.what === 'no gradients at the forward/backward peak: one micro-batch per step, and the loop frees them after each step',
    ),
  );
  const line = once.breakdown.find((l) => l.category === 'gradients')!;
  assert.equal(line.bytes, 0);
  assert.match(line.label, /^gradients — none at the peak: zero_grad\(set_to_none\) freed the step's 19\.53 GiB/);
  // Two micro-batches per step: the second starts with the first one's gradients, and nothing else changes. Reduce-scattered
  // every micro-batch (defer_fsdp_grad_sync false) they are the step's 19.53 GiB: the bf16 gradients of the 4 local experts
  // of 58 MoE layers (not FSDP-managed: EP spans the world) plus the dense shard.
  const twice = (extra: string) =>
    run(
      text
        .replace('global_batch_size: 128', 'global_batch_size: 256')
        .replace('activation_checkpointing: true}', `activation_checkpointing: true${extra}}`),
    ).e.estimate;
  const synced = twice(', defer_fsdp_grad_sync: false');
  const grads = synced.stages[0]!.gradients;
  const experts = 58 * 4 * 3 * 7168 * 2048;
  assert.ok(grads > experts * 2);
  assert.equal(+(grads / 2 ** 30).toFixed(2), 19.53);
  assert.equal(synced.stages[0]!.allocated - once.stages[0]!.allocated, grads);
  // By default the sync waits for the step's last micro-batch: every dense parameter's gradient is held whole in fp32
  // beside the experts' bf16 ones (FSDP2 to_accumulated_grad_if_needed), 4 B against the shard's 2/64 B.
  const deferred = twice('');
  const dense = (grads - experts * 2) / (2 / 64);
  assert.equal(Math.round(deferred.stages[0]!.gradients), Math.round(experts * 2 + dense * 4));
  assert.equal(+(deferred.stages[0]!.gradients / 2 ** 30).toFixed(2), 82.8);
});
