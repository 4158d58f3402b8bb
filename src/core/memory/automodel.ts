// What NeMo Automodel's recipes run, as training settings: a Hugging Face model (the hf profile) under FSDP2, Megatron
// FSDP or DDP, resident parameters in model.torch_dtype, the optimizer the file names, LoRA by module-name patterns.
// Sources at NVIDIA-NeMo/Automodel 36044ad: recipes/_dist_utils.py, components/distributed/config.py,
// components/_peft/{lora,module_matcher}.py, docs/guides/mixed-precision-training.mdx.
import { checkpointingMode, checkpointingSkipped, VLM_RECIPE, vlmSeqSource, type AutomodelRead } from '../formats/automodel.js';
import type { TrainingRecipe } from '../recipe.js';
import {
  AUTOMODEL_BACKEND_LINEAR,
  AUTOMODEL_BACKEND_NORM,
  AUTOMODEL_HF_LAYERS,
  AUTOMODEL_OWN_NORM,
  FUSED_NORM_BACKENDS,
  LIGER_PATCHED,
} from './automodelModels.js';
import { derived, type HfKernels, type LoraSettings, type TrainingConfig } from './config.js';
import { compareReleases } from '../trtllmReleases.js';
import type { TargetRelease } from '../versions.js';
import type { Fp8Recipe } from './precision.js';
import { torchAdamKernel } from './torchOptim.js';
import type { Assumption, GpuSpec, ModelShape } from './types.js';

/** An assumption recorder over `assumptions` (provenance `default` unless the file states the value). */
const assumer =
  (assumptions: Assumption[]) =>
  (what: string, source: string, provenance: Assumption['provenance'] = 'default') =>
    assumptions.push({ what, source, provenance });

/** Recipes that train a causal LM on next-token prediction (recipes/llm/train_ft.py and its benchmarking subclass). */
const NEXT_TOKEN_RECIPES = new Set(['TrainFinetuneRecipeForNextTokenPrediction', 'BenchmarkingRecipeForNextTokenPrediction']);

/** Why a recipe gets no estimate (a drafter, an encoder, a vision-language or distillation run), or undefined. */
export function unmodelledRecipe(am: AutomodelRead): string | undefined {
  if (am.recipe === undefined) {
    const t = am.values.modelTarget;
    if (typeof t !== 'string' || /CausalLM/.test(t)) return undefined;
    return `the model factory ${t} builds no causal LM: Recipe Lens models next-token training of a language model`;
  }
  if (NEXT_TOKEN_RECIPES.has(am.recipe)) return undefined;
  if (am.recipe === VLM_RECIPE) return unmodelledVlm(am);
  return `recipe ${am.recipe} is not modelled: Recipe Lens estimates TrainFinetuneRecipeForNextTokenPrediction, BenchmarkingRecipeForNextTokenPrediction (one causal LM trained on next-token loss) and ${VLM_RECIPE} with frozen encoders (its language model)`;
}

/**
 * The VLM recipe is modelled as its language model's training: that holds while every encoder is frozen or idle.
 * components/utils/model_utils.py apply_parameter_freezing: freeze_vision_tower defaults to true, freeze_audio_tower
 * and freeze_language_model to false.
 */
function unmodelledVlm(am: AutomodelRead): string | undefined {
  const x = am.values;
  if (x.freezeLanguageModel === true)
    return 'freeze_config.freeze_language_model is true: only the encoders and the projector train, and Recipe Lens models the training of the language model';
  if (x.freezeVisionTower === false)
    return "freeze_config.freeze_vision_tower is false: the vision tower trains, and its activations, gradients and optimizer states are not modelled (the model's shape is its language model)";
  if (typeof x.datasetTarget === 'string' && /\.datasets\.audio\./.test(x.datasetTarget) && x.freezeAudioTower !== true)
    return `the dataset (${x.datasetTarget}) feeds audio to an audio tower that trains (freeze_config.freeze_audio_tower ${x.freezeAudioTower === false ? 'false' : 'unset: false by default'}); its activations, gradients and optimizer states are not modelled`;
  return undefined;
}

/** What the VLM recipe's estimate leaves out and how its sample length was read (formats/automodel.ts AUTOMODEL_VLM). */
function vlmAssumptions(r: TrainingRecipe, am: AutomodelRead, assume: ReturnType<typeof assumer>): void {
  assume(
    "the language model counted; the frozen vision tower, any idle audio tower and the multimodal projector are not in the model's shape: their weights (and the projector's gradients and optimizer states) are not counted",
    `recipes/vlm/finetune.py; components/utils/model_utils.py apply_parameter_freezing (freeze_vision_tower ${am.values.freezeVisionTower === true ? 'true' : 'default true'}): a frozen tower keeps no gradients, optimizer states or saved activations, and its bf16 weights are FSDP2-sharded with the root unit (distributed/parallelizer.py frozen_multimodal_sharding "root")`,
  );
  const at = r.loc.seq?.path.join('.');
  const from = vlmSeqSource(at);
  const n = r.values.seq;
  if (from === 'dataset')
    assume(
      `every sample at dataset.max_length ${String(n)} tokens, image tokens included: the collate function pads each batch to its longest sample and samples are truncated to max_length, so this is the peak of the longest batch`,
      'recipes/_typed_config.py resolve_vlm_dataloader (truncate defaults to true with max_length); datasets/vlm/collate_fns.py',
      'file',
    );
  else if (from === 'collate')
    assume(
      `every sample padded to ${String(n)} tokens, image tokens included (dataloader.collate_fn.max_length)`,
      'datasets/vlm/collate_fns.py: with max_length the collate functions pad every sample to it (padding "max_length")',
      'file',
    );
  else if (from === 'pack')
    assume(
      `packs of ${String(n)} tokens, image tokens included (${at})`,
      'datasets/vlm/neat_packing_vlm.py NeatPackConfig; collate_fns.py neat_packed_vlm_collater pads to collate_max_length when set, else to the longest pack of pack_size tokens at most',
      'file',
    );
}

const FP32 = /^(torch\.)?(float32|fp32|float)$/i;
const BF16 = /^(torch\.)?(bfloat16|bf16)$/i;
const TE_FUSED_ADAM = /^transformer_engine\.pytorch\.optimizers\.(fused_adam\.)?FusedAdam$/;

/** HF decoder-layer linears (LlamaDecoderLayer naming) and the Megatron LoRA target each is counted as. */
const HF_LINEARS: readonly [string, string][] = [
  ['self_attn.q_proj', 'linear_qkv'],
  ['self_attn.k_proj', 'linear_qkv'],
  ['self_attn.v_proj', 'linear_qkv'],
  ['self_attn.o_proj', 'linear_proj'],
  ['mlp.gate_proj', 'linear_fc1'],
  ['mlp.up_proj', 'linear_fc1'],
  ['mlp.down_proj', 'linear_fc2'],
];

/**
 * module_matcher.py _compile_wildcard_pattern: `*` not after a dot becomes `.*`, then every `.*` a group; anchored. A
 * pattern with other regex syntax (groups, alternation, repetition) is not compiled here: a hostile one could backtrack
 * without bound in the editor, and it only decides which adapters the estimate counts.
 */
function wildcard(pattern: string): RegExp | undefined {
  if (/[()+{}?|[\]\\^$]/.test(pattern) || pattern.length > 200) return undefined;
  try {
    return new RegExp(`^${pattern.replace(/(?<!\.)\*/g, '.*').replace(/\.\*/g, '(.*)')}$`);
  } catch {
    return undefined;
  }
}

const patterns = (x: unknown): string[] =>
  typeof x === 'string' ? [x] : Array.isArray(x) ? x.filter((p): p is string => typeof p === 'string') : [];

/**
 * The decoder linears that get adapters (module_matcher.py ModuleMatcher.match): match_all_linear every linear,
 * target_modules those a pattern names, exclude_modules every linear but those, and with none of them `*_proj`.
 */
export function loraTargets(am: AutomodelRead): { targets: string[]; matched: string[] } {
  const x = am.values;
  const targets = patterns(x.peftTargets);
  const excludes = patterns(x.peftExclude);
  const full = (m: string) => `model.layers.0.${m}`;
  const leaf = (m: string) => m.split('.').pop()!;
  const hits = (ps: string[], m: string) => ps.some((p) => p === leaf(m) || wildcard(p)?.test(full(m)) === true);
  const matched = HF_LINEARS.map(([m]) => m).filter((m) =>
    x.peftMatchAll === true ? true : targets.length ? hits(targets, m) : excludes.length ? !hits(excludes, m) : hits(['*_proj'], m),
  );
  const out = [...new Set(HF_LINEARS.filter(([m]) => matched.includes(m)).map(([, t]) => t))];
  return { targets: out, matched };
}

/** The training settings an Automodel recipe gives, applied over what the key-path table read. */
export function automodelConfig(
  r: TrainingRecipe,
  am: AutomodelRead,
  base: TrainingConfig,
  shape: ModelShape,
  gpu: GpuSpec,
  assumptions: Assumption[],
): TrainingConfig {
  const x = am.values;
  const c: TrainingConfig = { ...base, profile: 'hf', vpp: null, distributedOptimizer: false, gradReduceInFp32: true };
  const assume = assumer(assumptions);
  assume(
    'the model counted as Hugging Face layers (hf profile)',
    'Automodel trains the Hugging Face model, or its own implementation of the same blocks (nemo_automodel/components/models)',
  );
  if (am.recipe === VLM_RECIPE) vlmAssumptions(r, am, assume);
  const kernels = hfKernels(am, shape, gpu, assumptions);
  if (kernels) c.hfKernels = kernels;
  checkpointing(am, c, shape, r.target, assumptions);
  // A fused linear cross-entropy never materialises the logits (components/loss/linear_ce.py).
  const fusedLoss = typeof x.lossTarget === 'string' && /FusedLinearCrossEntropy$/.test(x.lossTarget);
  // MaskedCrossEntropy (components/loss/masked_ce.py; the recipes' default) upcasts the logits to fp32 unless told not to.
  const masked = x.lossTarget === undefined || (typeof x.lossTarget === 'string' && /MaskedCrossEntropy$/.test(x.lossTarget));
  if (masked && x.lossUpcast === false) c.hfLoss = 'bf16';
  else if (!masked && !fusedLoss)
    assume(
      `loss_fn ${String(x.lossTarget)} counted as PyTorch's cross entropy over fp32 logits`,
      'the memory model knows MaskedCrossEntropy (with or without fp32_upcast) and FusedLinearCrossEntropy',
    );
  if (fusedLoss) {
    c.hfLoss = 'cut-cross-entropy';
    assume(
      'loss without logits: cut cross-entropy keeps the hidden states, the fp32 log-sum-exp and the gathered lm_head weight',
      'loss_fn FusedLinearCrossEntropy (components/loss/linear_ce.py) calls cut_cross_entropy.linear_cross_entropy (apple/ml-cross-entropy cce.py) on the final hidden states',
      'file',
    );
  }
  // Strategy (mesh_utils.py _create_device_meshes): FSDP2 shards parameters, gradients and optimizer over DP × CP.
  if (am.strategy === 'megatron_fsdp') c.fsdp = 'megatron-fsdp';
  else if (am.strategy === 'ddp') c.fsdp = null;
  else c.fsdp = 'fsdp2';
  // recipes/llm/train_ft.py steps and then calls opt.zero_grad() (set_to_none): FSDP2 gradients are allocated anew.
  c.gradsFreedEachStep = true;
  // Gradient accumulation syncs only on the step's last micro-batch unless the file turns that off (get_sync_ctx).
  if (c.fsdp === 'fsdp2') c.fsdpDeferredGradSync = x.deferGradSync !== false;
  if (c.fsdp === 'fsdp2' && keepsGathered(am, c)) {
    c.fsdpKeepsGathered = true;
    assume(
      "every FSDP unit's all-gathered parameters kept from its forward to its backward (reshard_after_forward false)",
      c.ep > 1 && x.reshardAfterForward === undefined
        ? 'expert parallelism: components/moe/parallelizer.py fully_shard with MoEParallelizerConfig.reshard_after_forward, default false (distributed.moe.reshard_after_forward)'
        : x.reshardAfterForward === false
          ? 'distributed.reshard_after_forward false'
          : 'pipeline stages keep their layers gathered when distributed.reshard_after_forward is unset (components/distributed/parallelizer.py)',
      x.reshardAfterForward === false || x.moeReshardAfterForward === false ? 'file' : 'default',
    );
  }
  // Storage dtype: model.torch_dtype, `auto` the checkpoint's (bf16 for the published ones), from_config bf16
  // (_transformers/auto_model.py); compute in mp_policy.param_dtype, bf16 by default (distributed/config.py FSDP2Config).
  const dtype = typeof r.values.precision === 'string' ? r.values.precision.trim() : undefined;
  const storage = dtype && FP32.test(dtype) ? 'fp32' : 'bf16';
  if (!dtype || !(FP32.test(dtype) || BF16.test(dtype)))
    assume(
      `parameters stored in bf16 (model.torch_dtype ${dtype ?? 'not set'})`,
      'from_pretrained with torch_dtype auto keeps the checkpoint dtype (bf16 for published checkpoints); from_config defaults to bf16 (_transformers/auto_model.py)',
    );
  c.params = 'bf16';
  if (c.fsdp === 'fsdp2') c.fsdpStorage = storage;
  // The optimizer: torch Adam / AdamW keeps its moments in the storage dtype; TE FusedAdam its own (fp32 unless named),
  // with master_weights a fp32 copy, or with store_param_remainders a 16-bit remainder beside the bf16 parameter.
  const opt = x.optimizerTarget;
  if (typeof opt === 'string' && TE_FUSED_ADAM.test(opt)) {
    const state = (d: unknown) => (typeof d === 'string' && BF16.test(d.replace(/^torch\./, '')) ? 'bf16' : 'fp32');
    c.optimizerDtypes = {
      ...(x.masterWeights === true ? { mainParams: x.storeParamRemainders === true ? 'bf16' : 'fp32' } : {}),
      expAvg: state(x.expAvgDtype),
      expAvgSq: state(x.expAvgSqDtype),
    };
    c.adamKernel = 'fused';
    if (storage === 'fp32') c.fsdpStorage = 'fp32';
  } else {
    Object.assign(c, torchAdamKernel(opt, x.optimizerForeach, x.optimizerFused, 'optimizer', assumptions));
    if (typeof opt === 'string' && !/^torch\.optim\.AdamW?$/.test(opt))
      assume(`${opt} counted as Adam (two moments in the storage dtype)`, 'the memory model knows torch Adam / AdamW and TE FusedAdam');
    else if (typeof opt !== 'string') assume('optimizer counted as torch Adam', 'the file names no optimizer._target_');
  }
  // Pipeline: torch.distributed.pipelining runs each data-parallel batch as local_batch_size / pp_microbatch_size
  // micro-batches (pipelining/config.py PipelineConfig, 1F1B by default).
  if (c.pp > 1) {
    const pipe = x.pipeline && typeof x.pipeline === 'object' ? (x.pipeline as Record<string, unknown>) : {};
    const ppMb = typeof pipe.pp_microbatch_size === 'number' && pipe.pp_microbatch_size >= 1 ? pipe.pp_microbatch_size : 1;
    const { dp } = derived(c);
    assume(
      `pipeline schedule ${typeof pipe.pp_schedule === 'string' ? pipe.pp_schedule : '1f1b'} counted as Megatron's 1F1B with micro-batches of ${ppMb}`,
      'torch.distributed.pipelining schedules (distributed/pipelining); in-flight micro-batches per stage as 1F1B keeps them',
    );
    c.globalBatch = dp ? base.microBatch * dp : undefined;
    c.microBatch = ppMb;
  }
  // LoRA: a frozen base with adapters of rank `dim` (lora.py PeftConfig, default 8).
  const peft = lora(am, assumptions);
  if (peft) c.peft = peft;
  const te = teFp8(am, shape, assumptions);
  if (te) Object.assign(c, te);
  if (x.fp8Enabled === true)
    assume('torchao Float8 linears counted in bf16', 'fp8.enabled: torchao float8 training is not in the memory model');
  if (x.offloadPolicy !== undefined && x.offloadPolicy !== null)
    assume(
      'parameters, gradients and optimizer states counted on the GPU (an upper bound)',
      'distributed.offload_policy keeps them on the host (FSDP2 CPUOffloadPolicy); not modelled',
    );
  if (typeof r.values.gbs === 'number' && c.pp === 1) c.globalBatch = r.values.gbs;
  // Without a pipeline, train_ft.py _forward_backward_step keeps `out` alive across `.backward()`: its logits, or with
  // FusedLinearCrossEntropy (logits_to_keep=1) the hidden states it reads the last of (model.output_hidden_states). The
  // pipeline schedule computes the loss inside the last stage instead.
  if (c.pp === 1) {
    if (fusedLoss) c.heldHiddenStates = true;
    else c.heldLogits = true;
  }
  return c;
}

/** The first release whose FSDP2 path checkpoints a transformers class with its own gradient checkpointing (v0.4.0). */
const HF_NATIVE_CHECKPOINTING = '0.4.0';

/**
 * Whether FSDP2 keeps every unit gathered after its forward: distributed.reshard_after_forward when set; else under
 * expert parallelism distributed.moe.reshard_after_forward (default false, _transformers/infrastructure.py passes the
 * MoE config), else only pipeline stages (components/distributed/parallelizer.py: without a pipeline every layer but the
 * last reshards, which is the one-unit default).
 */
function keepsGathered(am: AutomodelRead, c: TrainingConfig): boolean {
  const x = am.values;
  if (typeof x.reshardAfterForward === 'boolean') return !x.reshardAfterForward;
  if (c.ep > 1) return x.moeReshardAfterForward !== true;
  return c.pp > 1;
}

/** "a, b and c". */
const andList = (xs: readonly string[]): string =>
  xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

/** Whether Automodel builds its own class for the architecture (model_init.py __init_model: force_hf, then the registry). */
const ownClass = (am: AutomodelRead, arch: string): boolean =>
  am.values.forceHf !== true && (AUTOMODEL_BACKEND_NORM.has(arch) || AUTOMODEL_OWN_NORM.has(arch));

/**
 * Whether the FSDP2 parallelizer would hand the layers to Hugging Face's own gradient checkpointing (whole layers):
 * components/distributed/parallelizer.py _should_use_hf_native_gradient_checkpointing asks for a model whose only layer
 * group is the language model (a text-only class: a vision tower is a group of its own in _get_model_layer_group_specs,
 * and an unlisted multimodal class falls to the "unknown" heuristic group) and whose layers are transformers'
 * GradientCheckpointingLayer classes: Hugging Face's own classes, and the Automodel classes that keep Hugging Face's
 * layers (automodelModels.ts AUTOMODEL_HF_LAYERS). KV-shared layers are never checkpointed whole.
 */
function hfNativeCheckpointing(am: AutomodelRead, shape: ModelShape, arch: string, kvShared: boolean): { native: boolean; why: string } {
  if (ownClass(am, arch) && !(AUTOMODEL_HF_LAYERS.has(arch) && shape.experts === 0))
    return {
      native: false,
      why: `Automodel's own ${arch} is not a transformers GradientCheckpointingLayer (parallelizer.py _should_use_hf_native_gradient_checkpointing)`,
    };
  if (!/(ForCausalLM|LMHeadModel)$/.test(arch) && !AUTOMODEL_HF_LAYERS.has(arch))
    return {
      native: false,
      why: `${arch} has layer groups besides the language model (a vision tower: parallelizer.py _get_model_layer_group_specs, or the heuristic "unknown" group), so _should_use_hf_native_gradient_checkpointing declines`,
    };
  if (kvShared)
    return {
      native: false,
      why: `${arch}'s layers share K/V (num_kv_shared_layers), which whole-layer checkpointing would recompute into the shared store (parallelizer.py: "and not _has_kv_sharing")`,
    };
  return { native: true, why: '' };
}

/**
 * What distributed.activation_checkpointing checkpoints. Expert parallelism: moe/parallelizer.py apply_ac wraps each
 * whole block and saves its router outputs. Otherwise components/distributed/parallelizer.py (FSDP2) uses Hugging
 * Face's own gradient checkpointing (whole layers) where hfNativeCheckpointing allows it and torch.compile is off, and
 * apply_submodule_checkpointing otherwise, and always under DDP (ddp.py). `selective` wraps each layer in a torchtitan-style
 * per-op policy (activation_checkpointing.py apply_selective_checkpointing_to_layers), except in KV-shared models, which fall
 * back to submodule checkpointing. Megatron FSDP logs "Activation checkpointing is not yet supported with MegatronFSDP.
 * Skipping." (megatron_fsdp.py).
 */
function checkpointing(am: AutomodelRead, c: TrainingConfig, shape: ModelShape, target: TargetRelease, assumptions: Assumption[]): void {
  const assume = assumer(assumptions);
  const arch = shape.architecture;
  const x = am.values;
  const kvShared = (shape.kvSharedLayers ?? 0) > 0;
  const submodule = (why: string, wraps: { attention: boolean; layerNorms: boolean }) => {
    c.checkpointUnit = 'submodule';
    c.checkpointWraps = wraps;
    const wrapped = [
      ...(wraps.layerNorms ? ['input_layernorm'] : []),
      ...(wraps.attention ? ['self_attn'] : []),
      ...(wraps.layerNorms ? ['post_attention_layernorm'] : []),
      'mlp',
    ];
    const saved = [
      ...(wraps.attention ? [] : ['the attention (KV-shared: self_attn is not wrapped)']),
      ...(shape.postNorms || !wraps.layerNorms
        ? [wraps.layerNorms ? 'pre_feedforward_layernorm and post_feedforward_layernorm' : 'the norms']
        : []),
      ...(shape.perLayerEmbedding ? ['the per-layer-input block'] : []),
    ];
    assume(
      `activation checkpointing per submodule: each layer keeps the inputs of ${andList(wrapped)} (${wrapped.length} × its input)${saved.length ? `; ${andList(saved)} keep what they save` : ''}`,
      `${why}; components/distributed/activation_checkpointing.py apply_submodule_checkpointing`,
    );
  };
  if (checkpointingMode(x.activationCheckpointing) === 'selective') {
    if (kvShared && c.ep === 1 && am.strategy !== 'megatron_fsdp') {
      c.recompute = { granularity: 'full', method: 'uniform', numLayers: 1, modules: [] };
      submodule(
        'selective checkpointing of a KV-shared model falls back to submodule checkpointing (activation_checkpointing.py apply_selective_checkpointing_to_layers)',
        { attention: false, layerNorms: true },
      );
      return;
    }
    assume(
      'selective activation checkpointing not modelled: layers counted with everything they save (an upper bound)',
      'activation_checkpointing.py apply_selective_checkpointing_to_layers: a torchtitan-style per-op policy saves the compute-intensive ops (matmuls alternately, attention, collectives) and recomputes the rest',
      'file',
    );
    return;
  }
  if (c.recompute.granularity !== 'full') return;
  if (checkpointingSkipped(am, c.worldSize)) {
    c.recompute = { granularity: null, method: null, numLayers: null, modules: [] };
    assume(
      'no activation checkpointing: Megatron FSDP skips it',
      'components/distributed/megatron_fsdp.py logs "Activation checkpointing is not yet supported with MegatronFSDP. Skipping." (RL-AM7)',
      'file',
    );
    return;
  }
  if (c.ep > 1) {
    c.checkpointUnit = 'moe-block';
    assume(
      'each decoder block checkpointed whole; MoE layers also keep their router logits and top-k outputs',
      'expert parallelism: components/moe/parallelizer.py apply_ac (ignore_router_for_ac true saves the router projection and top-k)',
    );
    return;
  }
  // Hugging Face's own gradient checkpointing arrived after 0.3.0 (#1621); releases up to 0.3 wrap submodules for every class.
  const release = target.framework === 'automodel' ? target.release : undefined;
  const early = release !== undefined && compareReleases(release, HF_NATIVE_CHECKPOINTING) < 0;
  const attention = !kvShared;
  if (am.strategy === 'ddp')
    return submodule('DDP checkpoints submodules (components/distributed/ddp.py)', { attention, layerNorms: true });
  if (x.enableCompile === true)
    return submodule('enable_compile wraps self_attn and mlp only (components/distributed/parallelizer.py)', {
      attention,
      layerNorms: false,
    });
  if (early)
    return submodule(
      `NeMo Automodel ${release} wraps submodules for every class (Hugging Face's gradient checkpointing from ${HF_NATIVE_CHECKPOINTING})`,
      { attention, layerNorms: true },
    );
  if (arch === undefined) {
    assume(
      "whole layers checkpointed (Hugging Face's gradient checkpointing); Automodel's own classes and multimodal classes keep their submodules' inputs per layer",
      'the architecture is not known, so the class Automodel builds cannot be told (components/distributed/parallelizer.py)',
    );
    return;
  }
  const hf = hfNativeCheckpointing(am, shape, arch, kvShared);
  if (!hf.native) submodule(hf.why, { attention, layerNorms: true });
}

/**
 * The kernels the layers run (model_init.py __init_model): with force_hf, or an architecture the registry lacks,
 * Hugging Face's model, patched by Liger when use_liger_kernel (default true), Liger is installed and it patches the
 * model type; otherwise Automodel's own class, whose RMSNorm is model.backend.rms_norm where it uses
 * initialize_rms_norm_module. Undefined: Hugging Face's eager modules, as hf-activations.md measured them.
 */
export function hfKernels(am: AutomodelRead, shape: ModelShape, gpu: GpuSpec, assumptions: Assumption[]): HfKernels | undefined {
  const x = am.values;
  const arch = shape.architecture;
  const assume = assumer(assumptions);
  if (!arch) {
    assume(
      'layers counted with Hugging Face eager RMSNorms and MLP (an upper bound if the run uses fused kernels)',
      `the architecture of ${shape.name} is not known, so neither Automodel's own implementation nor a Liger patch can be told apart`,
    );
    return undefined;
  }
  if (ownClass(am, arch)) {
    const backend = typeof x.rmsNormBackend === 'string' ? x.rmsNormBackend : 'torch_fp32';
    const source = `Automodel builds its own ${arch} (_transformers/registry.py); Liger is not applied to it (kernel_patches.py)`;
    if (!AUTOMODEL_BACKEND_NORM.has(arch)) {
      assume(`layers of Automodel's ${arch} counted with Hugging Face eager RMSNorms`, source);
      return undefined;
    }
    if (!FUSED_NORM_BACKENDS.has(backend)) {
      assume(
        `RMSNorm backend ${backend} counted as an eager RMSNorm (fp32 input and normalized copy saved: an upper bound)`,
        `${source}; model.backend.rms_norm ${backend} (components/models/common/utils.py initialize_rms_norm_module)`,
        am.loc.rmsNormBackend ? 'file' : 'default',
      );
      return undefined;
    }
    // TE RMSNorm saves x and rstdevs (transformer_engine/pytorch/ops/basic/rmsnorm.py); torch_fp32 is a torch.compile'd
    // fp32 RMSNorm whose backward graph keeps the 16-bit input and the fp32 reduction (the partitioner recomputes pointwise ops).
    assume(
      `RMSNorms save their bf16 input and fp32 rstd (model.backend.rms_norm ${backend}); MLP as Hugging Face's`,
      `${source}; components/models/common/utils.py ${backend === 'te' ? 'TE RMSNorm' : 'Float32RMSNorm (torch.compile)'}`,
      am.loc.rmsNormBackend ? 'file' : 'default',
    );
    return { norm: true, glu: false, what: `Automodel ${arch}, ${backend} RMSNorm` };
  }
  if (x.useLiger === false || !LIGER_PATCHED.has(arch)) return undefined;
  // Liger is an x86_64-only dependency (pyproject.toml dev group; the container installs every group).
  if (gpu.hostArch === 'aarch64') {
    assume(
      `Hugging Face ${arch} layers without Liger kernels`,
      `liger-kernel is installed only on x86_64 hosts (pyproject.toml marker); the ${gpu.name} host is aarch64`,
    );
    return undefined;
  }
  assume(
    `Liger kernels on ${arch}: RMSNorms save their input and fp32 rstd, the gated MLP its gate and up outputs`,
    'model.use_liger_kernel defaults to true (_transformers/auto_model.py) and the container installs liger-kernel on x86_64; Liger ops/rms_norm.py, ops/swiglu.py save_for_backward. Set use_liger_kernel false for the eager layers',
    am.loc.useLiger ? 'file' : 'default',
  );
  return { norm: true, glu: true, what: 'Liger' };
}

/** TEFp8Config.build_recipe (components/models/common/utils.py): the recipe string, or a TE recipe class by its _target_. */
const TE_RECIPES: readonly [RegExp, Fp8Recipe, string][] = [
  [/^(current|(.*\.)?Float8CurrentScaling)$/, 'tensorwise', 'Float8CurrentScaling'],
  [/^(block|(.*\.)?Float8BlockScaling)$/, 'blockwise', 'Float8BlockScaling'],
  [/^(mxfp8|(.*\.)?MXFP8BlockScaling)$/, 'mxfp8', 'MXFP8BlockScaling'],
  [/^(.*\.)?DelayedScaling$/, 'delayed', 'DelayedScaling'],
];

/**
 * model.backend.te_fp8 (components/models/common/utils.py TEFp8Config): train_ft.py runs the whole forward under TE's
 * autocast, so every TE Linear and GroupedLinear of Automodel's own class computes in FP8 and keeps its quantized weight
 * (config.ts teModules). Which modules are TE: model.backend.linear (default te) where the class builds its linears with
 * initialize_linear_module, model.backend.experts te (its default is torch_mm) with a DeepEP-family dispatcher
 * (BackendConfig.__post_init__ turns experts te into torch_mm under the torch dispatcher).
 */
function teFp8(am: AutomodelRead, shape: ModelShape, assumptions: Assumption[]): Pick<TrainingConfig, 'fp8' | 'teModules'> | undefined {
  const x = am.values;
  const cfg = x.teFp8;
  if (cfg === undefined || cfg === null || cfg === false) return undefined;
  const assume = assumer(assumptions);
  const raw = typeof cfg === 'object' && !Array.isArray(cfg) ? (cfg as Record<string, unknown>).recipe : undefined;
  const named = raw === undefined ? 'current' : typeof raw === 'object' && raw ? (raw as Record<string, unknown>)._target_ : raw;
  const recipe = typeof named === 'string' ? TE_RECIPES.find(([re]) => re.test(named.trim())) : undefined;
  const source = 'model.backend.te_fp8 (components/models/common/utils.py TEFp8Config)';
  if (!recipe) {
    assume(`te_fp8 recipe ${String(named)} not modelled: linears counted in bf16`, source, 'file');
    return undefined;
  }
  const arch = shape.architecture;
  if (x.forceHf === true || !arch || !AUTOMODEL_BACKEND_LINEAR.has(arch)) {
    assume(
      'no FP8 linears: te_fp8 quantizes only TE modules, and this model builds none',
      `${source}; ${x.forceHf === true ? "force_hf builds Hugging Face's nn.Linear layers" : `${arch ?? 'the architecture'} is not one of Automodel's classes that build linears with initialize_linear_module`}`,
      'file',
    );
    return undefined;
  }
  const linear = typeof x.linearBackend === 'string' ? x.linearBackend : 'te';
  const dispatcher = typeof x.dispatcher === 'string' ? x.dispatcher : 'deepep';
  const experts = x.expertsBackend === 'te' && dispatcher !== 'torch' && shape.experts > 0;
  const dense = linear === 'te';
  if (!dense && !experts) {
    assume('no FP8 linears: neither model.backend.linear nor model.backend.experts is te', source, 'file');
    return undefined;
  }
  const covered = [dense ? 'attention, dense MLP and lm_head linears' : '', experts ? 'routed experts' : ''].filter(Boolean);
  assume(
    `TE ${recipe[2]} on the ${covered.join(' and ')}; each module keeps its rowwise and columnwise quantized weight across micro-batches, unsharded by FSDP`,
    `${source}; TE module/linear.py and module/grouped_linear.py cache the quantized weight in _fp8_workspaces when called with is_first_microbatch (components/models/common/utils.py _patch_te_modules, components/training/utils.py prepare_for_grad_accumulation)`,
    'file',
  );
  if (x.linearBackend === undefined)
    assume('model.backend.linear te (its default where Transformer Engine and a GPU are present)', 'BackendConfig.linear');
  if (x.expertsBackend === 'te' && x.dispatcher === undefined && shape.experts > 0)
    assume(
      'a DeepEP dispatcher, so experts te stays TE GroupedLinear',
      'BackendConfig.dispatcher defaults to deepep where DeepEP is installed; under the torch dispatcher experts te becomes torch_mm',
    );
  return { fp8: recipe[1], teModules: { dense, experts, output: dense } };
}

function lora(am: AutomodelRead, assumptions: Assumption[]): LoraSettings | undefined {
  const p = am.loc.peftDim || am.loc.peftTargets || am.loc.peftExclude || am.loc.peftMatchAll;
  if (!p) return undefined;
  const { targets, matched } = loraTargets(am);
  const rank = typeof am.values.peftDim === 'number' && am.values.peftDim >= 1 ? am.values.peftDim : 8;
  const names = matched.map((m) => m.split('.').pop()).join(', ');
  assumptions.push({
    what: targets.length
      ? `LoRA rank ${rank} on ${names}, counted as Megatron's ${targets.join(', ')} adapters`
      : `LoRA rank ${rank}: the patterns name no Llama-style decoder linear; adapters counted on linear_qkv, linear_proj, linear_fc1, linear_fc2`,
    source: 'peft (components/_peft/lora.py PeftConfig, module_matcher.py); the frozen base keeps no gradients or optimizer states',
    provenance: 'file',
  });
  return { rank, targets };
}
