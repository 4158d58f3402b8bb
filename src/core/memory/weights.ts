// Parameters per pipeline rank (from the inventory in params.ts and the chunk layout in schedule.ts), and the bytes of
// weights, gradients and optimizer state. Bytes per parameter follow Megatron-LM docs/user-guide/features/dist_optimizer.md;
// shard groups follow Megatron-Core optimizer/__init__.py (intra_dp_cp_group) and Megatron-Bridge theoretical_memory_utils.py.
import { LORA_DEFAULT_TARGETS, STATE_BYTES, type TrainingConfig } from './config.js';
import {
  addRankParams,
  countKinds,
  hasAttention,
  hasDenseMlp,
  hasMoe,
  LAYER_KINDS,
  layerGroups,
  meanAttentionWidths,
  mlpMatrices,
  moeLayerCount,
  mtpGroups,
  mtpWeightCopies,
  noRankParams,
  normParams,
  rankShare,
  type KindCounts,
  type LayerKind,
  type ParamGroup,
  type RankParams,
} from './params.js';
import { NVFP4_BF16_LAYER_FRACTION, PRECISIONS } from './precision.js';
import { pipelineLayout, type Chunk, type PipelineLayout } from './schedule.js';
import type { ModelShape } from './types.js';

/** Megatron pads the vocabulary to a multiple of make_vocab_size_divisible_by × TP (megatron/training/tokenizer _vocab_size_with_padding). */
export function paddedVocab(vocab: number, tp: number, divisibleBy = 128): number {
  const multiple = divisibleBy * tp;
  return Math.ceil(vocab / multiple) * multiple;
}

/** The vocabulary the model allocates: Megatron pads it, Hugging Face does not (hf-activations.md). */
export function modelVocab(m: ModelShape, c: TrainingConfig, divisibleBy = c.vocabDivisibleBy ?? 128): number {
  return c.profile === 'hf' ? m.vocab : paddedVocab(m.vocab, c.tp, divisibleBy);
}

export interface StageParams {
  stage: number;
  layers: number;
  moeLayers: number;
  /** Parameters sharded like dense weights (optimizer shard group DP×CP). */
  dense: number;
  /** Of `dense`, the GEMM weights a low-precision recipe quantizes. */
  denseLinear: number;
  /** Routed-expert parameters (optimizer shard group = expert data-parallel). */
  experts: number;
  /** Of `experts`, GEMM weights. */
  expertLinear: number;
  /** Trainable parameters (all of them, or the LoRA adapters of a frozen base). */
  trainable: { dense: number; experts: number };
  /** Of `trainable`, the 2-D weights Muon orthogonalizes (ParamGroup.matrix; LoRA adapters are all matrices). */
  trainableMatrix: { dense: number; experts: number };
  /** Layer kinds on the rank. */
  kinds: Record<LayerKind, number>;
  /** GEMM parameters of layers an FP8/FP4 recipe keeps in BF16 (first_last_layers_bf16). */
  bf16Linear: number;
  /** Parameters of the largest FSDP unit on the rank: one decoder or MTP layer, the embedding, or the output layer. */
  largestUnit: number;
  /** Parameters of one vocabulary tensor (V/TP · h: the word embedding or the output layer) when the rank holds one; else 0. */
  vocabTensor: number;
  /** GEMM parameters of the output layer (V/TP · h on the loss stage, tied or not); else 0. */
  outputLinear: number;
}

/** Layers per pipeline stage; uneven splits give the remainder to the first stages (the most-loaded case). */
export function layersOfStage(L: number, pp: number, stage: number): { first: number; count: number } {
  const base = Math.floor(L / pp);
  const extra = L % pp;
  const count = base + (stage < extra ? 1 : 0);
  const first = stage * base + Math.min(stage, extra);
  return { first, count };
}

/**
 * LoRA adapter parameters of one layer kind: r·(in + out) per targeted linear, split over TP (Bridge ParallelLinearAdapter).
 * `expertAdapters`: adapter copies of each routed-expert linear in the whole layer — one per expert, or one per EP rank
 * when the rank's grouped experts share one (Bridge peft/lora.py share_expert_adapters).
 */
export function loraLayerParams(
  m: ModelShape,
  kind: LayerKind,
  rank: number,
  targets: readonly string[],
  expertAdapters = m.experts,
): { dense: number; experts: number } {
  const h = m.hidden;
  // The mean layer's widths (Gemma 4's global layers have their own head dim and KV heads; the sum over layers is exact).
  const widths = meanAttentionWidths(m);
  const q = m.mla ? m.heads * m.mla.vHeadDim : widths.q;
  // linear_qkv's output includes the per-head output gate of gated attention (Megatron attention.py linear_qkv_out_dim).
  const qkvOut = m.mla ? 0 : (m.attentionOutputGate ? 2 * q : q) + 2 * widths.kv;
  const t = new Set(targets);
  const mlpFfn = hasDenseMlp(kind) ? m.ffn : 0;
  const fc1 = (ffn: number) => (t.has('linear_fc1') ? rank * (h + (mlpMatrices(m) - 1) * ffn) : 0);
  const fc2 = (ffn: number) => (t.has('linear_fc2') ? rank * (ffn + h) : 0);
  let dense = 0;
  if (hasAttention(kind)) {
    if (t.has('linear_qkv') && qkvOut) dense += rank * (h + qkvOut);
    if (t.has('linear_proj')) dense += rank * (q + h);
  }
  if (mlpFfn) dense += fc1(mlpFfn) + fc2(mlpFfn);
  let experts = 0;
  if (hasMoe(kind)) {
    if (m.sharedExpertFfn) dense += fc1(m.sharedExpertFfn) + fc2(m.sharedExpertFfn);
    experts += expertAdapters * (fc1(m.moeFfn) + fc2(m.moeFfn));
  }
  return { dense, experts };
}

/** Layers of chunk range [first, first + count) inside the BF16 ranges [0, start) and [L − end, L). */
function bf16LayersIn(L: number, first: number, count: number, b: { start: number; end: number }): number {
  const overlap = (a0: number, a1: number) => Math.max(0, Math.min(first + count, a1) - Math.max(first, a0));
  return overlap(0, b.start) + overlap(Math.max(b.start, L - b.end), L);
}

/** Parameters one rank of each pipeline stage holds: its chunks' layers, embedding, output layer, final norm and MTP layers. */
export function stageParams(
  m: ModelShape,
  c: TrainingConfig,
  vocabDivisibleBy = c.vocabDivisibleBy ?? 128,
  layout: PipelineLayout = pipelineLayout(m, c),
): StageParams[] {
  const h = m.hidden;
  const V = modelVocab(m, c, vocabDivisibleBy);
  const out: StageParams[] = [];
  const lora = c.peft;
  // LoRA copies of each routed-expert linear per layer: grouped experts share one adapter per EP rank unless
  // share_expert_adapters is off (Bridge peft/lora.py: is_grouped_expert_linear and share_expert_adapters → one
  // ParallelLinearAdapter); sequential experts get one each.
  const expertAdapters = lora?.shareExpertAdapters !== false && c.moe?.groupedGemm !== false ? Math.min(m.experts, c.ep) : m.experts;
  for (let r = 0; r < layout.pp; r++) {
    const chunks: Chunk[] = layout.chunks[r]!;
    let p = noRankParams();
    let adapters = { dense: 0, experts: 0 };
    const kinds = countKinds(m, 0, 0);
    let layers = 0;
    let bf16Linear = 0;
    let largestUnit = 0;
    let vocabTensor = 0;
    let outputLinear = 0;
    /** Records an FSDP unit's size and returns it. */
    const unit = <T extends RankParams | number>(x: T): T => {
      largestUnit = Math.max(largestUnit, typeof x === 'number' ? x : x.dense + x.experts);
      return x;
    };
    for (const ch of chunks) {
      const k = countKinds(m, ch.first, ch.count);
      layers += ch.count;
      let layerParams = noRankParams();
      for (const kind of LAYER_KINDS) {
        if (!k[kind]) continue;
        kinds[kind] += k[kind];
        unit(rankShare(layerGroups(m, kind), c.tp, c.ep, c.etp));
        layerParams = addRankParams(layerParams, rankShare(layerGroups(m, kind), c.tp, c.ep, c.etp, k[kind]));
        if (lora) {
          const a = loraLayerParams(m, kind, lora.rank, lora.targets.length ? lora.targets : LORA_DEFAULT_TARGETS, expertAdapters);
          adapters = {
            dense: adapters.dense + (k[kind] * a.dense) / c.tp,
            experts: adapters.experts + (k[kind] * a.experts) / (c.ep * c.etp),
          };
        }
      }
      p = addRankParams(p, layerParams);
      if (c.bf16Layers && (c.fp8 || c.fp4) && ch.count > 0) {
        const n = bf16LayersIn(m.layers, ch.first, ch.count, c.bf16Layers);
        bf16Linear += ((layerParams.denseGemm + layerParams.expertGemm) * n) / ch.count; // the chunk's average GEMM weights per layer
      }
      // Vocab-parallel embedding (V/TP · h) on the embedding chunk; learned absolute positions are replicated (Megatron LanguageModelEmbedding).
      const positions = m.positionEmbedding === 'learned_absolute' ? (m.maxPositionEmbeddings ?? 0) * h : 0;
      if (ch.embedding || ch.loss || ch.mtp) vocabTensor = (V * h) / c.tp;
      if (ch.embedding)
        p = addRankParams(p, {
          dense: unit((V * h) / c.tp + positions),
          denseGemm: 0,
          experts: 0,
          expertGemm: 0,
          denseMatrix: 0,
          expertMatrix: 0,
        });
      if (ch.loss) {
        outputLinear = (V * h) / c.tp;
        p = addRankParams(p, { dense: normParams(m, h), denseGemm: 0, experts: 0, expertGemm: 0, denseMatrix: 0, expertMatrix: 0 }); // final norm
        // Output layer: untied, or the tied copy a last stage keeps when PP > 1 (Megatron shared_embedding_or_output_weight).
        if (!m.tiedEmbeddings || layout.pp > 1)
          p = addRankParams(p, { dense: unit((V * h) / c.tp), denseGemm: 0, experts: 0, expertGemm: 0, denseMatrix: 0, expertMatrix: 0 });
      }
      if (ch.mtp) {
        unit(rankShare(mtpGroups(m), c.tp, c.ep, c.etp));
        // A repeated MTP block holds one depth's weights for all of them (mtp_use_repeated_layer).
        p = addRankParams(p, rankShare(mtpGroups(m), c.tp, c.ep, c.etp, mtpWeightCopies(m, ch.mtp)));
        // An MTP stage that is not the first keeps its own embedding copy (Megatron GPTModel: pre_process or mtp_process).
        if (!chunks.some((x) => x.embedding) && r !== 0)
          p = addRankParams(p, { dense: (V * h) / c.tp, denseGemm: 0, experts: 0, expertGemm: 0, denseMatrix: 0, expertMatrix: 0 });
      }
    }
    const trainable = lora ? adapters : { dense: p.dense, experts: p.experts };
    const trainableMatrix = lora ? adapters : { dense: p.denseMatrix, experts: p.expertMatrix };
    out.push({
      stage: r,
      layers,
      moeLayers: moeLayerCount(kinds),
      dense: p.dense + (lora ? adapters.dense : 0),
      denseLinear: p.denseGemm,
      experts: p.experts + (lora ? adapters.experts : 0),
      expertLinear: p.expertGemm,
      trainable,
      trainableMatrix,
      kinds,
      bf16Linear,
      largestUnit,
      vocabTensor,
      outputLinear,
    });
  }
  return out;
}

export interface StateBytes {
  weights: number;
  gradients: number;
  /**
   * FSDP2 with deferred gradient sync (config.ts fsdpDeferredGradSync): the unsharded fp32 gradients the rank accumulates
   * over a step's micro-batches before the last one reduce-scatters them; 0 otherwise.
   */
  accumulatedGradients: number;
  optimizer: number;
  /** Of `optimizer`, the states the first optimizer step creates (lazyStateBytes): absent through the first forward/backward. */
  lazyOptimizer: number;
  /** Temporaries of the optimizer step beside the states: fp32 copies of bf16 gradients, torch AdamW's foreach temporary. */
  stepTemporaries: number;
  /** Of `stepTemporaries`, the fp32 copies of bf16 gradient shards. */
  stepGradCopies: number;
  /** Extra low-precision weight copies (part of `weights`). */
  quantizedCopies: number;
  /** Per parameter; `matrixOptimizer` is the optimizer's bytes for the 2-D weights (differs from `optimizer` under Muon). */
  bytesPerParam: { weights: number; gradients: number; optimizer: number; matrixOptimizer: number };
  /** Of `optimizer`, what the legacy layer-wise optimizer's rank holding the vocabulary tensor keeps beyond an even share. */
  wholeVocab: number;
  /** FSDP: bytes of one all-gathered unit (a decoder layer) held while it computes, with the prefetched next one. */
  fsdpUnits: number;
  /** FSDP: the same without any unit's unsharded gradient (forward, and the loss backward before the first unit's backward). */
  fsdpGathered: number;
}

/**
 * Bytes per parameter by precision layout (Megatron-LM docs/user-guide/features/dist_optimizer.md): 18, or 6 + 12/d with
 * Adam. `part` picks the optimizer of the 2-D weights Muon orthogonalizes ('matrix') or of the other parameters; with any
 * other rule both are the same.
 */
export function perParamBytes(c: TrainingConfig, shard: number, part: 'matrix' | 'other' = 'other'): PerParamBytes {
  const d = c.distributedOptimizer || c.fsdp ? shard : 1;
  const rule = updateRule(c, part);
  // torch AdamW's foreach step: one fp32 temporary per element it steps on the GPU (config adamKernel).
  const gpuShare = rule === 'adam' ? 1 - (c.optimizerCpuOffload ?? 0) : 0;
  const stepTemp = c.adamKernel === 'foreach' ? (4 * gpuShare) / d : 0;
  // PyTorch FSDP2 with MixedPrecisionPolicy(bf16 compute, fp32 reduce): the sharded parameter is the fp32 master, no separate copy.
  if (c.fsdp === 'fsdp2' && c.params !== 'fp32' && c.fsdpStorage !== 'bf16')
    return { weights: 4, gradients: 4, optimizer: 8 / d, lazy: 8 / d, stepTemp, gradCopy: 0 };
  // bf16 resident parameters (Automodel mixed-precision-training.mdx): the gradient shard is bf16 too; torch Adam keeps its
  // moments (and its foreach temporary) in bf16, TE FusedAdam its own master copy and moments (optimizerDtypes).
  if (c.fsdp === 'fsdp2' && c.params !== 'fp32') {
    const o = c.optimizerDtypes;
    const own = o
      ? (o.mainParams ? STATE_BYTES[o.mainParams] : 0) + STATE_BYTES[o.expAvg ?? 'fp32'] + STATE_BYTES[o.expAvgSq ?? 'fp32']
      : 4;
    return { weights: 2, gradients: 2, optimizer: own / d, lazy: own / d, stepTemp: stepTemp / 2, gradCopy: 0 };
  }
  const main = rule === 'adam' ? STATE_BYTES[c.optimizerDtypes?.mainParams ?? 'fp32'] : 4;
  const states = ruleStateBytes(c, rule);
  // optimizer_cpu_offload: HybridDeviceOptimizer (Adam only) keeps a GPU share that replaces the main copy and moments.
  const f = rule === 'adam' ? c.optimizerCpuOffload : undefined;
  const state = (onGpu: number) => (f === undefined ? onGpu : hybridDeviceOptimizer(c, f).bytes);
  const lazy = lazyStateBytes(c, rule, main, states) / d;
  if (c.params === 'fp32') return { weights: 4, gradients: 4, optimizer: state(states) / d, lazy, stepTemp, gradCopy: 0 }; // the rule's states only
  if (c.params === 'fp16') return { weights: 2, gradients: 2, optimizer: (4 + state(main + states)) / d, lazy, stepTemp, gradCopy: 0 }; // fp32 main grad + main param + states
  // bf16 gradients: the step gives the optimizer an fp32 copy of each gradient shard (distrib_optimizer.py
  // _copy_model_grads_to_main_grads `shard_model_grad.float()`, optimizer.py Float16OptimizerWithFloat16Params), held
  // until the next iteration's zero_grad, unless TE's precision-aware Adam reads them as they are (decoupled_grad).
  const gradCopy = !c.gradReduceInFp32 && !teDecoupled(c) && c.fsdp !== 'megatron-fsdp' ? 4 / d : 0;
  return {
    weights: 2,
    gradients: c.gradReduceInFp32 ? 4 : 2,
    optimizer: state(main + states) / d, // fp32 main param + states
    lazy,
    stepTemp: stepTemp + gradCopy,
    gradCopy,
  };
}

/**
 * Megatron hands TE's FusedAdam the model's gradients and lets it keep the master weights
 * (use_precision_aware_optimizer_no_fp8_or_ds_fp8, optimizer_config.py): the precision-aware optimizer with master
 * weights not in fp32, or without FP8, or with delayed scaling, or with optimizer CPU offload.
 */
function teDecoupled(c: TrainingConfig): boolean {
  const o = c.optimizerDtypes;
  return o !== undefined && ((o.mainParams ?? 'fp32') !== 'fp32' || !c.fp8 || c.fp8 === 'delayed' || c.optimizerCpuOffload !== undefined);
}

export interface PerParamBytes {
  weights: number;
  gradients: number;
  optimizer: number;
  /** Of `optimizer`, what the first optimizer step creates (lazyStateBytes). */
  lazy: number;
  /** What the optimizer step allocates beside the states: fp32 copies of bf16 gradients, torch AdamW's foreach temporary. */
  stepTemp: number;
  /** Of `stepTemp`, the fp32 copies of bf16 gradient shards. */
  gradCopy: number;
}

/**
 * Bytes per parameter of the optimizer state that the first optimizer step creates: torch-style optimizers create their
 * states when they first step a parameter (TE/Apex FusedAdam, torch AdamW, emerging_optimizers Muon); Megatron fills them
 * beforehand only to load a checkpoint (megatron/core/optimizer/__init__.py init_state_fn, optimizer.py
 * sharded_state_dict(is_loading)). The fp32 main copy is Megatron's own, made when the optimizer is built
 * (distrib_optimizer.py _build_model_and_main_param_groups; optimizer.py Float16OptimizerWithFloat16Params;
 * HybridDeviceOptimizer's fp32 copies), except under use_precision_aware_optimizer when TE keeps the master weights
 * (use_precision_aware_optimizer_no_fp8_or_ds_fp8, optimizer_config.py: master weights not fp32, no FP8 or delayed
 * scaling, or CPU offload): then the master copy is TE FusedAdam state too. Megatron FSDP: none (Megatron-LM's functional
 * tests record their steady peak already at iteration 1 on two of three FSDP cases).
 */
function lazyStateBytes(c: TrainingConfig, rule: ReturnType<typeof updateRule>, main: number, states: number): number {
  if (c.fsdp === 'megatron-fsdp') return 0;
  const f = rule === 'adam' ? c.optimizerCpuOffload : undefined;
  if (f !== undefined) return (1 - f) * 8; // the GPU Adam's fp32 moments
  return states + (rule === 'adam' && teDecoupled(c) ? main : 0);
}

/** The update rule a parameter gets: Muon for the 2-D weights and its scalar optimizer for the rest (emerging_optimizers.py). */
export function updateRule(c: TrainingConfig, part: 'matrix' | 'other'): 'adam' | 'muon' | 'lion' | 'sgd' {
  const o = c.optimizer;
  if (!o) return 'adam';
  if (o.rule === 'sgd') return 'sgd';
  // Lion's registry entry routes embeddings and non-2-D parameters to Adam like Muon's (it ignores use_muon: a Mamba
  // in_proj counted with Adam here is stepped by Lion, 4 B/param less).
  return part === 'matrix' ? o.rule : o.scalar;
}

/**
 * Bytes per parameter of a rule's states beside the fp32 main copy: Adam's exp_avg and exp_avg_sq (fp32 unless the
 * precision-aware optimizer narrows them, Megatron OptimizerConfig), Muon's momentum_buffer (emerging_optimizers
 * OrthogonalizedOptimizer), Lion's exp_avg (Megatron optimizer/__init__.py init_state_fn), SGD's momentum_buffer (torch
 * SGD, none without momentum); each fp32 like the main parameter it updates.
 */
function ruleStateBytes(c: TrainingConfig, rule: 'adam' | 'muon' | 'lion' | 'sgd'): number {
  if (rule === 'adam') {
    const o = c.optimizerDtypes;
    return STATE_BYTES[o?.expAvg ?? 'fp32'] + STATE_BYTES[o?.expAvgSq ?? 'fp32'];
  }
  if (rule === 'sgd') return c.optimizer?.rule === 'sgd' && !c.optimizer.momentum ? 0 : 4;
  return 4;
}

/**
 * GPU bytes per (unsharded) parameter of megatron-core's HybridDeviceOptimizer (optimizer/cpu_offloading/hybrid_optimizer.py),
 * which steps the first `f` of its parameters' elements on the host (pinned CPU copies, torch AdamW) and the rest with the
 * GPU Adam, updating in fp32 (param_update_in_fp32). Its states are fp32 whatever exp_avg_dtype says. With
 * use_precision_aware_optimizer the distributed optimizer hands it the bf16 shards (distrib_optimizer.py
 * _build_model_and_main_param_groups), so the fp32 master copy exists only for the GPU share: (1 − f)·(4 + 8). Without it
 * the distributed optimizer's fp32 main shard stays on the GPU and only the moments move: 4 + (1 − f)·8.
 */
export function hybridDeviceOptimizer(c: TrainingConfig, f: number): { bytes: number; formula: string } {
  const moments = 8; // fp32 exp_avg + exp_avg_sq of the GPU Adam
  if (c.params === 'fp32') return { bytes: (1 - f) * moments, formula: '(1 − f)·8 B/param (fp32 moments)' };
  return c.optimizerDtypes
    ? { bytes: (1 - f) * (4 + moments), formula: '(1 − f)·(4 + 8) B/param (fp32 master copy of the bf16 shard + fp32 moments)' }
    : { bytes: 4 + (1 - f) * moments, formula: '4 + (1 − f)·8 B/param (the fp32 main shard stays; fp32 moments)' };
}

/** Fraction of linear layers an FP8/FP4 recipe runs quantized (first_last_layers_bf16; NVFP4 paper's ~15% BF16 when not given). */
function quantizedShare(c: TrainingConfig, p: StageParams): number {
  const linear = p.denseLinear + p.expertLinear;
  if (c.bf16Layers) return linear > 0 ? Math.max(0, 1 - p.bf16Linear / linear) : 1;
  return c.fp4 === 'nvfp4' ? 1 - NVFP4_BF16_LAYER_FRACTION : 1;
}

/**
 * Low-precision copies TE keeps next to (or instead of) the BF16 weight, per quantized linear parameter: a rowwise and a
 * columnwise copy. Hopper FP8 GEMMs take only the TN layout, so a per-tensor-scaled (delayed, tensorwise) FP8 weight keeps
 * its transpose; Blackwell runs the other layouts from the rowwise data (TransformerEngine tensor/utils.py
 * post_all_gather_processing: `_create_transpose()` unless is_non_tn_fp8_gemm_supported()). Blockwise FP8, MXFP8 and NVFP4
 * scale each direction separately and keep both. fp8_param / fp4_param weights are quantized with the same two usages (TE
 * module/base.py reset_parameters `set_usage(rowwise=True, columnwise=torch.is_grad_enabled())`); Megatron-LM functional
 * test gpt3_weekly_mcore_tp4_cp2_current_scaling_native_fp8 (H100): allocated after the step matches 2 B per FP8 weight.
 */
function quantizedBytesPerLinearParam(c: TrainingConfig, cc: number): { copy: number; replacesBf16: boolean } {
  const q = c.fp4 ? PRECISIONS[c.fp4].savedInputBytes : c.fp8 ? PRECISIONS[`fp8-${c.fp8}`].savedInputBytes : 0;
  const perTensor = !c.fp4 && (c.fp8 === 'delayed' || c.fp8 === 'tensorwise');
  return { copy: (perTensor && cc >= 10 ? 1 : 2) * q, replacesBf16: q > 0 && c.quantizedParams };
}

/**
 * Weights, gradients and optimizer state of one rank. Frozen (LoRA base) parameters keep only their weights. With FSDP
 * (Megatron FSDP optim_grads_params, PyTorch FSDP2) weights, gradients and optimizer state are all sharded over the
 * data-parallel group, and one layer's parameters are all-gathered at a time (plus the prefetched next layer). `cc` is the
 * GPU's compute capability (Hopper when unknown).
 */
export function stateBytes(p: StageParams, c: TrainingConfig, denseShard: number, expertShard: number, cc = 9.0): StateBytes {
  const bd = perParamBytes(c, denseShard);
  const be = perParamBytes(c, expertShard);
  const bdm = perParamBytes(c, denseShard, 'matrix');
  const bem = perParamBytes(c, expertShard, 'matrix');
  const q = quantizedBytesPerLinearParam(c, cc);
  const share = q.copy ? quantizedShare(c, p) : 0;
  // TE modules of a te_fp8 run (config.ts teModules): only the GEMMs TE builds, each cached whole on its module.
  const te = c.teModules;
  const gemms = te
    ? (te.dense ? p.denseLinear : 0) + (te.experts ? p.expertLinear : 0) + (te.output ? p.outputLinear : 0)
    : p.denseLinear + p.expertLinear;
  const linear = gemms * share;
  const fsdpDense = c.fsdp ? denseShard : 1;
  const fsdpExperts = c.fsdp ? expertShard : 1;
  const quantizedCopies = (q.copy * linear) / (c.fsdp && !te ? denseShard : 1);
  const replaced = q.replacesBf16 ? (bd.weights * linear) / (c.fsdp ? denseShard : 1) : 0;
  const weights = (p.dense * bd.weights) / fsdpDense + (p.experts * be.weights) / fsdpExperts + quantizedCopies - replaced;
  const gradients = (p.trainable.dense * bd.gradients) / fsdpDense + (p.trainable.experts * be.gradients) / fsdpExperts;
  // Deferred sync: every FSDP-sharded trainable parameter's gradient whole, in the reduce dtype (fp32 under Automodel's
  // MixedPrecisionPolicy, distributed/config.py); a group of size 1 is not FSDP-managed and keeps its ordinary gradient.
  const unsharded = (n: number, shard: number, b: PerParamBytes) => (shard > 1 ? n * 4 : n * b.gradients);
  const accumulatedGradients =
    c.fsdp === 'fsdp2' && c.fsdpDeferredGradSync
      ? unsharded(p.trainable.dense, denseShard, bd) + unsharded(p.trainable.experts, expertShard, be)
      : 0;
  const tm = p.trainableMatrix;
  // The legacy layer-wise optimizer steps whole parameters, dealt ping-pong by size (layer_wise_optimizer.py
  // _shard_params_ping_pong): the largest, the vocabulary tensor, lands whole on one DP rank, the most loaded one.
  const whole = c.layerWisePingPong && c.distributedOptimizer && c.optimizer && !c.peft && !c.fsdp ? p.vocabTensor : 0;
  const wholeVocab = whole * bd.optimizer * (denseShard - 1);
  // Per-parameter bytes over the rank's parameter groups, with the whole vocabulary tensor's share beyond an even one.
  const sum = (k: 'optimizer' | 'lazy' | 'stepTemp' | 'gradCopy') =>
    (p.trainable.dense - tm.dense) * bd[k] +
    tm.dense * bdm[k] +
    (p.trainable.experts - tm.experts) * be[k] +
    tm.experts * bem[k] +
    whole * bd[k] * (denseShard - 1);
  const optimizer = sum('optimizer');
  const lazyOptimizer = sum('lazy');
  const stepTemporaries = sum('stepTemp');
  const stepGradCopies = sum('gradCopy');
  let fsdpUnits = 0;
  let fsdpGathered = 0;
  if (c.fsdp && p.largestUnit > 0) {
    // One decoder layer all-gathered in the compute dtype plus the prefetched next one, and the unsharded gradient of the
    // layer being reduce-scattered (FSDP2 fully_shard per block; Megatron FSDP double buffer, megatron_fsdp.md).
    // FSDP units are the decoder layers and the embedding / output layer modules: the largest one bounds the buffers.
    const perLayer = p.largestUnit;
    const compute = c.params === 'fp32' ? 4 : 2;
    const grad = c.params === 'fp32' || c.gradReduceInFp32 || c.fsdp === 'fsdp2' ? 4 : 2;
    // reshard_after_forward False (config.ts fsdpKeepsGathered): every FSDP-managed parameter of the rank stays gathered
    // into backward; a group of size 1 (experts when EP spans the expert data-parallel group) is not sharded at all.
    const gathered = (denseShard > 1 ? p.dense : 0) + (expertShard > 1 ? p.experts : 0);
    fsdpGathered = c.fsdpKeepsGathered ? gathered * compute : perLayer * 2 * compute;
    fsdpUnits = fsdpGathered + perLayer * grad;
  }
  return {
    weights,
    gradients,
    accumulatedGradients,
    optimizer,
    lazyOptimizer,
    stepTemporaries,
    stepGradCopies,
    quantizedCopies,
    bytesPerParam: { ...bd, matrixOptimizer: bdm.optimizer },
    wholeVocab,
    fsdpUnits,
    fsdpGathered,
  };
}

/**
 * Optimizer shard groups: DP×CP for dense parameters, world/(ETP·EP·PP) = DP·CP·TP/(EP·ETP) for routed experts (Megatron
 * intra_dp_cp_group; Bridge), each divided by num_distributed_optimizer_instances (the optimizer is replicated that many
 * times over the data-parallel domain: parallel_state.py intra_partial_data_parallel_size = DP·CP / instances).
 */
export function shardGroups(
  dp: number,
  cp: number,
  tp: number,
  ep: number,
  etp: number,
  instances = 1,
): { dense: number; experts: number } {
  const n = Math.max(1, instances);
  return { dense: (dp * cp) / n, experts: (dp * cp * tp) / (ep * etp * n) };
}

/**
 * TE's dummy weight gradients. With gradient_accumulation_fusion the weight gradient is accumulated into main_grad inside
 * the GEMM, and TE hands autograd a placeholder instead: one persistent tensor per distinct (weight shape, dtype)
 * (TransformerEngine module/base.py get_dummy_wgrad, called by Linear / LayerNormLinear / GroupedLinear backward when the
 * weight has grad_added_to_main_grad). Counted as the parameters of one layer's GEMM weights per kind on the rank (grouped
 * experts: one expert's), deduplicated by module; frozen (LoRA base) weights get no gradient. The output layer (Megatron's
 * ColumnParallelLinear) takes its placeholder from the same cache (tensor_parallel/layers.py backward, get_dummy_wgrad).
 */
export function dummyWgradParams(m: ModelShape, c: TrainingConfig, kinds: KindCounts, mtpLayers: number, outputLayer: boolean): number {
  if (c.gradAccumFusion === false || c.transformerImpl === 'local' || c.profile === 'hf' || c.peft) return 0;
  const shapes = new Map<string, number>();
  const add = (groups: readonly ParamGroup[]) => {
    for (const g of groups)
      if (g.gemm) shapes.set(g.name, g.shard === 'exp' ? g.n / (Math.max(1, m.experts) * c.etp) : g.shard === 'tp' ? g.n / c.tp : g.n);
  };
  for (const kind of LAYER_KINDS) if (kinds[kind]) add(layerGroups(m, kind));
  if (mtpLayers) add(mtpGroups(m));
  if (outputLayer) shapes.set('output_layer', (modelVocab(m, c) / c.tp) * m.hidden);
  return [...shapes.values()].reduce((a, n) => a + n, 0);
}

export type { RankParams };
