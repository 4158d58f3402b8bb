// NeMo Automodel recipes: detection, where each value lives, Automodel's own launch checks (RL-AM1 …) with the severity
// each release range gives, the loader's string translation, and the memory settings (FSDP2 over bf16 or fp32 storage,
// TE FusedAdam, LoRA by module patterns).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { translateData, translateValue } from '../../src/core/automodelLoader.js';
import { loraTargets } from '../../src/core/memory/automodel.js';
import { perParamBytes } from '../../src/core/memory/weights.js';
import { analyzeText, estimateOf, recipeOf } from '../helpers.js';

/** A Llama 3.1 8B fine-tune on 2 nodes of 8 GPUs: FSDP2 with TP 2, packed 4K samples (examples/llm_finetune layout). */
const BASE = `recipe: TrainFinetuneRecipeForNextTokenPrediction
step_scheduler:
  global_batch_size: 64
  local_batch_size: 2
  max_steps: 100
dist_env:
  backend: nccl
model:
  _target_: nemo_automodel.NeMoAutoModelForCausalLM.from_pretrained
  pretrained_model_name_or_path: meta-llama/Llama-3.1-8B
  torch_dtype: bf16
distributed:
  strategy: fsdp2
  dp_size: 8
  tp_size: 2
  cp_size: 1
  sequence_parallel: false
  activation_checkpointing: true
packed_sequence:
  packed_sequence_size: 4096
dataset:
  _target_: nemo_automodel.components.datasets.llm.squad.make_squad_dataset
optimizer:
  _target_: torch.optim.Adam
  lr: 1.0e-5
  foreach: false
`;

/** BASE with whole lines replaced: `from` must occur exactly once. */
function edit(...pairs: [string, string][]): string {
  let t = BASE;
  for (const [from, to] of pairs) {
    assert.equal(t.split(from).length, 2, `once: ${from}`);
    t = t.replace(from, to);
  }
  return t;
}
const findings = (text: string) =>
  analyzeText(text).diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}@${d.range.start.line}: ${d.message}`);

test('an Automodel recipe is detected by its recipe class and model factory, and its values are read', () => {
  const a = analyzeText(BASE);
  assert.equal(a.main?.doc.format, 'automodel');
  assert.deepEqual(a.main?.doc.detection.evidence, [
    'recipe TrainFinetuneRecipeForNextTokenPrediction, model._target_ nemo_automodel.NeMoAutoModelForCausalLM.from_pretrained',
    'keys step_scheduler.global_batch_size, step_scheduler.local_batch_size, distributed.strategy, … (6)',
  ]);
  assert.deepEqual(findings(BASE), []);
  const r = recipeOf(BASE);
  if (r?.kind !== 'training') throw new Error('training');
  assert.deepEqual(
    [r.family, r.values.tp, r.values.pp, r.values.cp, r.values.ep, r.values.seq, r.values.mbs, r.values.gbs, r.world?.size, r.world?.note],
    ['automodel', 2, 1, 1, 1, 4096, 2, 64, 16, 'dp_size 8 × tp 2 × cp 1 × pp 1'],
  );
  assert.deepEqual(
    [r.values.recomputeGranularity, r.values.loadsModel, r.automodel?.strategy],
    ['full', 'meta-llama/Llama-3.1-8B', 'fsdp2'],
  );
  // Without packing the sample is the dataset's fixed length; with neither there is none.
  const fixed = recipeOf(
    edit(['  packed_sequence_size: 4096', '  packed_sequence_size: 0'], ['dataset:\n', 'dataset:\n  seq_len: 2048\n']),
  );
  assert.equal(fixed?.kind === 'training' && fixed.values.seq, 2048);
  const none = recipeOf(edit(['  packed_sequence_size: 4096', '  packed_sequence_size: 0']));
  assert.equal(none?.kind === 'training' && none.values.seq, undefined);
});

test('files Automodel does not run as recipes stay unread: a diffusion config, a file with no recipe class or factory', () => {
  const diffusion =
    'model:\n  pretrained_model_name_or_path: black-forest-labs/FLUX.1-dev\nstep_scheduler:\n  global_batch_size: 8\n  local_batch_size: 1\nflow_matching:\n  shift: 3\n';
  assert.equal(analyzeText(diffusion).main?.doc.format ?? null, null);
  // A convergence config names no recipe class: the CausalLM factory is the evidence.
  assert.equal(analyzeText(BASE.replace('recipe: TrainFinetuneRecipeForNextTokenPrediction\n', '')).main?.doc.format, 'automodel');
});

test('the loader translates strings as ConfigNode does: none is null, quoted numbers are numbers, callables stay', () => {
  assert.deepEqual(['none', 'None', 'NONE', 'True', 'false', '2', '-3', '1e-8', '5.', '1_000', '[1, 2]', 'bf16'].map(translateValue), [
    null,
    null,
    'NONE',
    true,
    false,
    2,
    -3,
    1e-8,
    5,
    1000,
    '[1, 2]',
    'bf16',
  ]);
  assert.deepEqual(translateData({ a: ['2', { collate_fn: '1', _target_: 'none' }], b: 'none' }), {
    a: [2, { collate_fn: '1', _target_: 'none' }],
    b: null,
  });
  // So `validation_dataset: none` (a mapping or null there) is no finding, and `_validation_dataset` is a section switched off.
  assert.deepEqual(findings(BASE + 'validation_dataset: none\n_validation_dataloader:\n  batch_size: 8\n'), []);
});

test('RL-R1 and RL-R2 hold with the data-parallel size Automodel infers; Megatron-only rules do not run', () => {
  assert.deepEqual(findings(edit(['  local_batch_size: 2', '  local_batch_size: 3'])), [
    'error RL-R2 step_scheduler.global_batch_size@2: global batch size 64 is not divisible by micro batch size 3 × data-parallel size 8 = 24',
  ]);
  // Without dp_size the world comes from the setting: 9 GPUs do not divide into TP 2 × PP 1 × CP 1.
  const inferred = edit(['  dp_size: 8\n', '']);
  assert.deepEqual(
    analyzeText(inferred, { worldSize: 9 }).diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}`),
    ['error RL-R1 distributed.tp_size'],
  );
  // Sequence parallelism with TP 1 is accepted by Automodel (no RL-R6); heads need not divide TP here (no RL-R7).
  assert.deepEqual(findings(edit(['  tp_size: 2', '  tp_size: 1'], ['  sequence_parallel: false', '  sequence_parallel: true'])), []);
});

test('RL-AM3, AM4, AM5: the HSDP replicas and the expert mesh (mesh_utils.py), errors in every release', () => {
  assert.deepEqual(findings(edit(['  dp_size: 8\n', '  dp_size: 8\n  dp_replicate_size: 3\n'])), [
    'error RL-AM3 distributed.dp_replicate_size@14: dp_size 8 is not a multiple of dp_replicate_size 3',
  ]);
  assert.deepEqual(findings(edit(['  dp_size: 8\n', '  dp_size: 8\n  dp_replicate_size: 8\n'])), [
    'error RL-AM4 distributed.dp_replicate_size@14: dp_replicate_size 8 must be less than dp_size 8: FSDP2 does not run plain replication (DDP)',
  ]);
  assert.deepEqual(findings(edit(['  cp_size: 1', '  cp_size: 1\n  ep_size: 32'])), [
    'error RL-AM5 distributed.ep_size@16: dp × cp × tp = 8·1·2 = 16 is not a multiple of ep_size 32',
  ]);
  assert.deepEqual(findings(edit(['  cp_size: 1', '  cp_size: 1\n  ep_size: 16'])), []);
});

test('RL-AM1, AM2, AM6, AM7: strategy checks warn until a release that runs them is named', () => {
  const unknown = edit(['  strategy: fsdp2', '  strategy: zero3']);
  assert.deepEqual(findings(unknown), [
    'warning RL-AM1 distributed.strategy@12: distributed.strategy "zero3" is none of fsdp2, megatron_fsdp, ddp; NeMo Automodel 0.5.0 and newer reject it (nemo_automodel/recipes/_dist_utils.py parse_distributed_section); no NeMo Automodel release named; add `# recipe-lens: automodel=X.Y` or set recipeLens.versions',
  ]);
  assert.deepEqual(
    findings('# recipe-lens: automodel=0.5.0\n' + unknown).map((f) => f.split(':')[0]),
    ['error RL-AM1 distributed.strategy@13'],
  );
  assert.deepEqual(findings(edit(['  strategy: fsdp2', '  strategy: FSDP2'])), []);
  assert.deepEqual(
    findings('# recipe-lens: automodel=0.5.0\n' + edit(['  strategy: fsdp2', '  strategy: ddp'])).map((f) => f.split(':')[0]),
    ['error RL-AM2 distributed.tp_size@15'],
  );
  assert.deepEqual(
    findings(
      '# recipe-lens: automodel=0.5.0\n' +
        edit(['  strategy: fsdp2', '  strategy: megatron_fsdp'], ['  cp_size: 1', '  cp_size: 1\n  ep_size: 2']),
    ).map((f) => f.split(':')[0]),
    // The base recipe checkpoints activations, which Megatron FSDP skips (megatron_fsdp.py): a warning in every release.
    ['error RL-AM2 distributed.ep_size@17', 'warning RL-AM7 distributed.activation_checkpointing@19'],
  );
  // pp_size > 1 without a pipeline block: a warning in every release (the check is on main after 0.5.0).
  assert.deepEqual(
    findings(
      '# recipe-lens: automodel=0.5.0\n' + edit(['  cp_size: 1', '  cp_size: 1\n  pp_size: 2'], ['  tp_size: 2', '  tp_size: 1']),
    ).map((f) => f.split(':')[0]),
    ['warning RL-AM6 distributed.pp_size@17'],
  );
  assert.deepEqual(findings(edit(['  cp_size: 1', '  cp_size: 1\n  pp_size: 2\n  pipeline: {}'], ['  tp_size: 2', '  tp_size: 1'])), []);
  assert.deepEqual(
    findings('# recipe-lens: automodel=0.5.0\n' + edit(['  activation_checkpointing: true', '  activation_checkpointing: sometimes'])).map(
      (f) => f.split(':')[0],
    ),
    ['error RL-AM7 distributed.activation_checkpointing@18'],
  );
  assert.deepEqual(findings(edit(['  activation_checkpointing: true', '  activation_checkpointing: Full'])), []);
});

test('RL-AM8: LoRA takes one of target_modules, exclude_modules, match_all_linear', () => {
  assert.deepEqual(findings(BASE + "peft:\n  dim: 16\n  target_modules: ['*.q_proj']\n  exclude_modules: ['*.lm_head']\n"), [
    'error RL-AM8 peft.exclude_modules@29: peft.target_modules and peft.exclude_modules are mutually exclusive: give one of them',
  ]);
  assert.deepEqual(
    findings(BASE + "peft:\n  match_all_linear: true\n  target_modules: ['*_proj']\n").map((f) => f.split(':')[0]),
    ['warning RL-AM8 peft.match_all_linear@27'],
  );
});

test('LoRA patterns select the decoder linears as module_matcher.py matches them', () => {
  const am = (peft: Record<string, unknown>) => {
    const lines = Object.entries(peft).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`);
    const r = recipeOf(BASE + `peft:\n${lines.join('\n')}\n`);
    if (r?.kind !== 'training' || !r.automodel) throw new Error('automodel');
    return loraTargets(r.automodel);
  };
  assert.deepEqual(am({ dim: 8 }).targets, ['linear_qkv', 'linear_proj', 'linear_fc1', 'linear_fc2']); // `*_proj` by default
  assert.deepEqual(am({ target_modules: ['q_proj', '*.v_proj'] }), {
    targets: ['linear_qkv'],
    matched: ['self_attn.q_proj', 'self_attn.v_proj'],
  });
  assert.deepEqual(am({ target_modules: '*mlp*' }).targets, ['linear_fc1', 'linear_fc2']);
  assert.deepEqual(am({ exclude_modules: ['*.down_proj', '*self_attn*'] }).targets, ['linear_fc1']);
  assert.deepEqual(am({ match_all_linear: true }).matched.length, 7);
  // Regex syntax beyond `*` is not compiled (a hostile pattern must not hang the editor): it matches nothing here.
  assert.deepEqual(am({ target_modules: ['(a+)+$', 'q_proj'] }).matched, ['self_attn.q_proj']);
});

/**
 * Llama 3.1 8B (8,030,261,248 parameters) on DP 8 × TP 2: FSDP2 shards every parameter over DP × CP = 8 after TP halves
 * the layers. Per parameter: bf16 storage keeps 2 B weight + 2 B gradient + 2 × 2 B torch Adam moments
 * (mixed-precision-training.mdx); fp32 storage 4 + 4 + 8; TE FusedAdam with master_weights and store_param_remainders
 * 2 + 2 + (2 remainder + 4 + 4).
 */
test('memory: FSDP2 storage dtype and optimizer set the bytes per parameter', () => {
  const per = (text: string) => {
    const e = estimateOf(text);
    if (e?.kind !== 'training') throw new Error(`no estimate: ${JSON.stringify(e)}`);
    const bpp = perParamBytes(e.config, 8);
    return [e.config.profile, e.config.fsdp, e.config.fsdpStorage, bpp.weights, bpp.gradients, bpp.optimizer * 8];
  };
  assert.deepEqual(per(BASE), ['hf', 'fsdp2', 'bf16', 2, 2, 4]);
  assert.deepEqual(per(edit(['  torch_dtype: bf16', '  torch_dtype: float32'])), ['hf', 'fsdp2', 'fp32', 4, 4, 8]);
  assert.deepEqual(
    per(
      edit([
        '  _target_: torch.optim.Adam\n',
        '  _target_: transformer_engine.pytorch.optimizers.fused_adam.FusedAdam\n  master_weights: true\n  store_param_remainders: true\n',
      ]),
    ),
    ['hf', 'fsdp2', 'bf16', 2, 2, 10],
  );
  // A recipe Recipe Lens does not model says so instead of estimating.
  const kd = estimateOf(BASE.replace('TrainFinetuneRecipeForNextTokenPrediction', 'TrainEagle3Recipe'));
  assert.equal(kd?.kind === 'none' && kd.reason.startsWith('recipe TrainEagle3Recipe is not modelled'), true);
});

/** A Qwen3-VL 8B fine-tune (examples/vlm_finetune layout): FSDP2 on 8 GPUs, the vision tower frozen. */
const VLM = `recipe: FinetuneRecipeForVLM
step_scheduler:
  global_batch_size: 16
  local_batch_size: 2
model:
  _target_: nemo_automodel.NeMoAutoModelForImageTextToText.from_pretrained
  pretrained_model_name_or_path: Qwen/Qwen3-VL-8B-Instruct
  torch_dtype: torch.bfloat16
distributed:
  strategy: fsdp2
  dp_size: 8
  tp_size: 1
  cp_size: 1
  activation_checkpointing: true
freeze_config:
  freeze_vision_tower: true
  freeze_language_model: false
dataset:
  _target_: nemo_automodel.components.datasets.vlm.datasets.make_medpix_dataset
  path_or_dataset: mmoukouba/MedPix-VQA
dataloader:
  _target_: torchdata.stateful_dataloader.StatefulDataLoader
  collate_fn:
    _target_: nemo_automodel.components.datasets.vlm.collate_fns.default_collate_fn
    max_length: 3072
`;
const vlm = (...pairs: [string, string][]) =>
  pairs.reduce((t, [from, to]) => {
    assert.equal(t.split(from).length, 2, `once: ${from}`);
    return t.replace(from, to);
  }, VLM);
const vlmEstimate = (text: string) => {
  const e = estimateOf(text);
  if (e?.kind !== 'training') throw new Error(`no estimate: ${JSON.stringify(e)}`);
  return e;
};

test('VLM recipe: its language model is estimated at the length the collate function pads to, the frozen encoders stated', () => {
  const e = vlmEstimate(VLM);
  assert.equal(e.shape.name, 'qwen3-vl-8b');
  assert.deepEqual([e.config.seq, e.config.microBatch, e.config.profile, e.config.fsdp], [3072, 2, 'hf', 'fsdp2']);
  const what = e.estimate.assumptions.map((a) => a.what);
  assert.ok(what.includes('every sample padded to 3072 tokens, image tokens included (dataloader.collate_fn.max_length)'));
  assert.ok(
    what.includes(
      "the language model counted; the frozen vision tower, any idle audio tower and the multimodal projector are not in the model's shape: their weights (and the projector's gradients and optimizer states) are not counted",
    ),
  );
  // The same run without the collate length: the dataset's max_length bounds the longest batch, and says so.
  const ds = vlmEstimate(
    vlm(
      ['    max_length: 3072\n', ''],
      ['  path_or_dataset: mmoukouba/MedPix-VQA\n', '  path_or_dataset: mmoukouba/MedPix-VQA\n  max_length: 1024\n'],
    ),
  );
  assert.equal(ds.config.seq, 1024);
  assert.ok(
    ds.estimate.assumptions.some((a) => a.what.startsWith('every sample at dataset.max_length 1024 tokens') && a.provenance === 'file'),
  );
  // Neat packing: packs of pack_size tokens, padded to collate_max_length when set; the collate length no longer applies.
  const packed = (extra: string) => vlmEstimate(vlm(['freeze_config:\n', `packed_sequence:\n  pack_size: 8192\n${extra}freeze_config:\n`]));
  assert.equal(packed('').config.seq, 8192);
  assert.equal(packed('  collate_max_length: 6144\n').config.seq, 6144);
  // The LLM recipe's packing key does not apply to the VLM recipe, nor the VLM keys to the LLM recipe.
  assert.equal(vlmEstimate(vlm(['freeze_config:\n', 'packed_sequence:\n  packed_sequence_size: 8192\nfreeze_config:\n'])).config.seq, 3072);
  const none = estimateOf(vlm(['    max_length: 3072\n', '']));
  assert.equal(
    none?.kind === 'none' && none.reason,
    'the sequence length is not in the file (or not resolvable here) (looked for dataloader.collate_fn.max_length, dataset.max_length); the model is qwen3-vl-8b (model.pretrained_model_name_or_path names "Qwen/Qwen3-VL-8B-Instruct"); set `# recipe-lens: seq=N`',
  );
});

test('VLM recipe: encoders that train, or a frozen language model, get no estimate and the reason', () => {
  const reason = (text: string) => {
    const e = estimateOf(text);
    return e?.kind === 'none' ? e.reason : e?.kind;
  };
  assert.equal(
    reason(vlm(['  freeze_vision_tower: true\n', '  freeze_vision_tower: false\n'])),
    "freeze_config.freeze_vision_tower is false: the vision tower trains, and its activations, gradients and optimizer states are not modelled (the model's shape is its language model)",
  );
  assert.equal(
    reason(vlm(['  freeze_language_model: false\n', '  freeze_language_model: true\n'])),
    'freeze_config.freeze_language_model is true: only the encoders and the projector train, and Recipe Lens models the training of the language model',
  );
  // An audio dataset runs the audio tower, which trains unless frozen (freeze_audio_tower defaults to false).
  const audio = vlm([
    '  _target_: nemo_automodel.components.datasets.vlm.datasets.make_medpix_dataset\n',
    '  _target_: nemo_automodel.components.datasets.audio.datasets.make_hf_audio_asr_dataset\n',
  ]);
  assert.equal(
    reason(audio),
    'the dataset (nemo_automodel.components.datasets.audio.datasets.make_hf_audio_asr_dataset) feeds audio to an audio tower that trains (freeze_config.freeze_audio_tower unset: false by default); its activations, gradients and optimizer states are not modelled',
  );
  assert.equal(
    reason(audio.replace('  freeze_vision_tower: true\n', '  freeze_vision_tower: true\n  freeze_audio_tower: true\n')),
    'training',
  );
  // The vision tower is frozen by default (model_utils.py apply_parameter_freezing).
  assert.equal(reason(vlm(['  freeze_vision_tower: true\n', ''])), 'training');
});

test('memory: FSDP2 accumulates unsharded fp32 gradients over a step unless defer_fsdp_grad_sync is false', () => {
  // BASE: GBS 64 = local batch 2 × DP 8 × 4 micro-batches; Llama 3.1 8B under TP 2.
  const grads = (text: string) => {
    const e = estimateOf(text);
    if (e?.kind !== 'training') throw new Error(`no estimate: ${JSON.stringify(e)}`);
    const line = e.estimate.breakdown.find((l) => l.category === 'gradients')!;
    return { e, line, stage: e.estimate.stages[0]! };
  };
  const deferred = grads(BASE);
  const tpRankParams = deferred.e.estimate.model.paramsPerGpu;
  assert.equal(deferred.line.bytes, 4 * tpRankParams);
  assert.equal(
    deferred.line.label,
    `gradients — unsharded, accumulated over the step's 4 micro-batches (defer_fsdp_grad_sync); ${((2 * tpRankParams) / 8 / 2 ** 30).toFixed(2)} GiB once the last one reduce-scatters them`,
  );
  assert.equal(deferred.line.formula, '4 B/param (the fp32 reduce dtype), not sharded over DP');
  assert.equal(deferred.stage.gradients, deferred.line.bytes);
  assert.ok(
    deferred.e.estimate.assumptions.some((a) => a.what.startsWith("unsharded fp32 gradients held over the step's 4 micro-batches")),
  );
  // Reduce-scattered every micro-batch: the bf16 shards only.
  const synced = grads(edit(['  activation_checkpointing: true\n', '  activation_checkpointing: true\n  defer_fsdp_grad_sync: false\n']));
  assert.equal(synced.line.bytes, (2 * tpRankParams) / 8);
  assert.equal(synced.line.label, 'gradients');
  assert.equal(deferred.stage.allocated - synced.stage.allocated, deferred.line.bytes - synced.line.bytes);
  // One micro-batch per step: nothing accumulates, and zero_grad has freed the last step's gradients.
  const single = grads(edit(['  global_batch_size: 64\n', '  global_batch_size: 16\n']));
  assert.equal(single.line.bytes, 0);
});
