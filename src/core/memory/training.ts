// The training-memory estimate for every pipeline rank at the three levels PyTorch reports (allocated, reserved,
// device), the most-loaded rank, and the fit verdict on the worst one. Weights/gradients/optimizer: weights.ts; the
// activations each chunk keeps per micro-batch: activations.ts; the forward passes each rank keeps in flight:
// schedule.ts (Megatron-Core schedules.py); levels and runtime overheads: overheads.ts.
import {
  checkpointInput,
  checkpointRouterSaves,
  submoduleInputs,
  embeddingActivations,
  graphCapture,
  hfKind,
  hfShards,
  lossActivations,
  deferredWgradEntry,
  megatronKind,
  megatronLayer,
  mtpActivations,
  type ActivationTerm,
  type KindActivations,
} from './activations.js';
import { CUDA_GRAPH_WARMUP_STEPS, derived, type TrainingConfig } from './config.js';
import { computeCapability, gemmWorkspaces, reservedFraction, trainingOverheads } from './overheads.js';
import { countKinds, kindsPresent, LAYER_KINDS, moeLayerCount, type KindCounts, type LayerKind } from './params.js';
import { pipelineLayout, schedulePeak, type Chunk, type PipelineLayout, type SchedulePeak } from './schedule.js';
import type { Assumption, GpuSpec, ModelShape } from './types.js';
import {
  dummyWgradParams,
  hybridDeviceOptimizer,
  modelVocab,
  shardGroups,
  stageParams,
  stateBytes,
  updateRule,
  type StateBytes,
} from './weights.js';
import { gib } from '../units.js';

export type Category = 'weights' | 'gradients' | 'optimizer' | 'activations' | 'transient' | 'overhead';
/** Which PyTorch level a line belongs to: allocated (max_memory_allocated), reserved (max_memory_reserved), device. */
export type Level = 'allocated' | 'reserved' | 'device';

export interface BreakdownLine {
  label: string;
  category: Category;
  bytes: number;
  formula: string;
  source: string;
  level: Level;
}

export interface StageEstimate {
  stage: number;
  layers: number;
  weights: number;
  gradients: number;
  optimizer: number;
  /** Activations held by the forward passes in flight at this rank's peak. */
  activations: number;
  /** Transient buffers of the pass running at the peak (loss logits, dispatch buffers, recompute), FSDP units, graphs. */
  transient: number;
  /** Workspaces, fragmentation, CUDA context, NCCL: device − (the five above). */
  overhead: number;
  /** = device: what the fit verdict uses. */
  total: number;
  /** torch.cuda.max_memory_allocated() at the peak. */
  allocated: number;
  /** torch.cuda.max_memory_reserved(): allocated plus the caching allocator's fragmentation. */
  reserved: number;
  /** reserved plus CUDA context and NCCL buffers (nvidia-smi). */
  device: number;
  /**
   * Allocated while the optimizer steps: the states and the step's temporaries, the activations freed. The stage's peak
   * when it exceeds the forward/backward one (then `activations` is 0 and `transient` the step's temporaries).
   */
  optimizerStep: number;
  /**
   * max_memory_allocated() over the first iteration of a fresh run (no optimizer state loaded): the states the first
   * step creates are absent through its forward/backward. What "(after 1 iterations)" memory lines report.
   */
  firstIteration: number;
  /**
   * torch.cuda.memory_allocated() once the optimizer step is done, the activations and the step's temporaries freed: the
   * weights, gradient buffers, optimizer states and persistent buffers. What Megatron's and Bridge's memory lines print as
   * "allocated", logged after the step (training.py / train_utils.py training_log).
   */
  afterStep: number;
  /** Forward passes (chunk × micro-batch) in flight at the peak, and what was running. */
  inFlight: { passes: number; microbatches: number; perChunk: number[]; warmup: number; allWarmup: boolean; at: SchedulePeak['at'] };
}

export interface TrainingEstimate {
  model: { name: string; paramsPerGpu: number; paddedVocab: number };
  gpu: { name: string; bytes: number };
  parallel: {
    tp: number;
    pp: number;
    vpp: number | null;
    cp: number;
    ep: number;
    dp: number | null;
    worldSize: number | null;
    sp: boolean;
  };
  perGpu: {
    weights: number;
    gradients: number;
    optimizer: number;
    activations: number;
    transient: number;
    overhead: number;
    total: number;
    allocated: number;
    reserved: number;
    device: number;
  };
  /** The most-loaded pipeline rank (by device bytes). */
  stage: number;
  stages: StageEstimate[];
  /** The most-loaded rank's lines; they sum to its device bytes. */
  breakdown: BreakdownLine[];
  /** Transient candidates of the most-loaded rank (the one at its peak is in the breakdown). */
  transients: { label: string; bytes: number; formula: string }[];
  /** Per-layer activation inventory (one micro-batch, one layer) behind the activation line. */
  layerTerms: ActivationTerm[];
  /** Pipeline chunks: layers per virtual stage of every rank. */
  pipeline: {
    how: string;
    vpp: number;
    microbatches: number | null;
    chunks: { rank: number; vstage: number; first: number; layers: number }[][];
  };
  fit: { verdict: 'fits' | 'tight' | 'does-not-fit'; fraction: number };
  assumptions: Assumption[];
}

/** A plan fits when it leaves 10% of the GPU free; up to 100% it is "tight". */
export const TIGHT_FRACTION = 0.9;

export function fitVerdict(total: number, capacity: number): TrainingEstimate['fit'] {
  const fraction = total / capacity;
  return { verdict: fraction <= TIGHT_FRACTION ? 'fits' : fraction <= 1 ? 'tight' : 'does-not-fit', fraction };
}

interface Part {
  bytes: number;
  label: string;
  formula: string;
  /** A backward phase that runs before any FSDP unit's backward, so no unit's unsharded gradient exists: the loss backward. */
  beforeUnitGrads?: boolean;
}

interface ChunkActivations {
  /** Saved bytes per micro-batch, by component. */
  layers: number;
  embedding: number;
  loss: number;
  mtp: number;
  stored: number;
  /** Every transient candidate of each phase (the FSDP unit share differs by part: rankPass picks each phase's peak). */
  fwdParts: Part[];
  bwdParts: Part[];
  note: string;
  candidates: Part[];
  /** CUDA graphs, per micro-batch: saved bytes inside the captured modules, and static input/output/gradient buffers. */
  graphCaptured: number;
  graphBuffers: number;
}

/**
 * The gradients at the forward/backward peak: 'freed' when the loop frees them between steps (config.ts
 * gradsFreedEachStep) and FSDP2 allocates them anew in backward, which a step of one micro-batch reaches only after its
 * forward; 'accumulated' when FSDP2 defers the sync to a step's last micro-batch (config.ts fsdpDeferredGradSync) and
 * every later micro-batch runs beside the unsharded fp32 gradients; else 'held' (the sharded gradients).
 */
export function gradientsAtPeak(
  c: Pick<TrainingConfig, 'gradsFreedEachStep' | 'fsdpDeferredGradSync' | 'fsdp'>,
  microbatches: number | undefined,
): 'freed' | 'accumulated' | 'held' {
  if (c.fsdp !== 'fsdp2' || microbatches === undefined) return 'held';
  if (microbatches === 1) return c.gradsFreedEachStep === true ? 'freed' : 'held';
  return c.fsdpDeferredGradSync === true ? 'accumulated' : 'held';
}

export function estimateTraining(m: ModelShape, c: TrainingConfig, gpu: GpuSpec, inherited: Assumption[] = []): TrainingEstimate {
  const assumptions = [...inherited];
  const assume = (what: string, source: string) => {
    if (!assumptions.some((a) => a.what === what)) assumptions.push({ what, source, provenance: 'default' });
  };
  const { dp, microbatches } = derived(c);
  // Gradients freed by zero_grad(set_to_none) after each step are absent from the forward and the start of backward
  // when a step has one micro-batch (config.ts gradsFreedEachStep); they come back as backward frees the activations.
  const peakGrads = gradientsAtPeak(c, microbatches);
  if (peakGrads === 'accumulated')
    assume(
      `unsharded fp32 gradients held over the step's ${microbatches} micro-batches: FSDP2 reduce-scatters them only in the last one`,
      'distributed.defer_fsdp_grad_sync (default true): set_requires_gradient_sync(False) on the earlier micro-batches (Automodel components/distributed/utils.py get_sync_ctx); torch fsdp _fsdp_param.py to_accumulated_grad_if_needed upcasts the unsharded gradient to the reduce dtype (fp32)',
    );
  if (peakGrads === 'freed')
    assume(
      'no gradients at the forward/backward peak: one micro-batch per step, and the loop frees them after each step',
      'torch Optimizer.zero_grad(set_to_none=True) between steps (NeMo Automodel recipes/llm/train_ft.py, NeMo-RL dtensor_policy_worker.py); FSDP2 allocates the gradient shards in backward',
    );
  const b = c.microBatch;
  const s = c.seq / c.cp;
  const hf = c.profile === 'hf';
  // Without a world size, the smallest data-parallel size the layout admits: DP·TP·CP must hold whole EP × ETP groups
  // (megatron/core/parallel_state.py: the expert-data-parallel size (DP·TP·CP)/(EP·ETP) is an integer ≥ 1).
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const dpEff = dp ?? (c.ep * c.etp) / gcd(c.ep * c.etp, c.tp * c.cp);
  if (dp === undefined && (c.distributedOptimizer || c.fsdp))
    assume(
      `data-parallel size ${dpEff} for the optimizer shard`,
      `the file gives no world size (set recipeLens.worldSize or --gpus)${dpEff > 1 ? `; ${dpEff} is the smallest that holds whole EP ${c.ep} × ETP ${c.etp} groups` : ''}`,
    );
  const { dense: denseShard, experts: expertShard } = shardGroups(dpEff, c.cp, c.tp, c.ep, c.etp, c.distOptInstances);
  const layout: PipelineLayout = pipelineLayout(m, c);
  for (const a of layout.assumptions) assume(a, 'Megatron-Core transformer_block.py get_num_layers_to_build');
  const params = stageParams(m, c, c.vocabDivisibleBy ?? 128, layout);
  const V = modelVocab(m, c);
  const notMeasured = kindsPresent(m).filter((k) => k !== 'dense');
  if (hf && notMeasured.length)
    assume(
      `${notMeasured.map((k) => KIND_NAMES[k]).join(', ')} layers counted with Megatron-Core’s inventory of the same blocks (all-to-all token dispatch); only the dense attention + MLP layer is measured for Hugging Face`,
      'hf-activations.md measures a Llama layer; Automodel’s MoE and Mamba layers follow Megatron-Core’s design',
    );
  if (hf && c.tp > 1)
    assume(
      `DTensor tensor parallelism (${hfShards(c).what}); the q/k/v and gate/up projections keep their input whole (${c.sp ? 'all-gathered over TP' : 'replicated'})`,
      'ColwiseParallel / RowwiseParallel / SequenceParallel plans: NeMo-RL nemo_rl/models/dtensor/parallelize.py, torchtitan parallelize_llama.py; lm_head output Shard(-1)',
    );
  if (m.linearAttention)
    assume(
      'Gated DeltaNet layers keep what the eager fla kernels save (conv input, L2-normalised q and k, q/k/v repeated to the value heads, g, β, the WY matrix) and the torch.compile’d gate and output-norm fusions their natural inputs',
      'megatron/core/ssm/gated_delta_net/gdn.py with fla chunk_gated_delta_rule; per term in the layer inventory',
    );
  if (m.experts > 0) {
    assume(
      'MoE routing balanced: every rank receives top-k × its tokens (× ETP)',
      c.moe?.capacityFactor
        ? `capacity factor ${c.moe.capacityFactor} caps the tokens per expert`
        : 'dropless routing; set a capacity factor to bound the busiest rank',
    );
    if (!c.moe?.dispatcher && !hf) assume('moe_token_dispatcher_type = allgather', 'Megatron-Core default');
  }
  if (!hf && !c.adamKernel && updateRule(c, 'other') === 'adam')
    assume(
      'Adam steps in place (TransformerEngine or Apex FusedAdam)',
      'megatron/core/optimizer/__init__.py imports them first; with neither installed it steps with torch AdamW, whose foreach path adds 4 B per stepped element while it steps',
    );
  if (!hf && !c.crossEntropyFusion)
    assume('unfused vocab-parallel cross entropy (6·s·b·V/t bytes at the peak)', 'Megatron-Core default cross_entropy_loss_fusion = False');
  if (!hf && c.activationOffload)
    assume(
      `fine-grained activation offloading (${c.activationOffload.modules.join(', ')}): every layer in flight keeps the rest; one layer of offloaded tensors stays on the GPU (the offload margin), and one more is reloaded for the layer in backward${
        c.activationOffload.fraction < 1
          ? `; activation_offload_fraction ${c.activationOffload.fraction} taken as that share of the bytes`
          : ''
      }`,
      'megatron/core/pipeline_parallel/fine_grained_activation_offload.py; tensors under 1M elements stay (min_offloaded_tensor_size)',
    );

  // Per-kind layer inventories (one micro-batch).
  const kindCache = new Map<LayerKind, KindActivations>();
  const kindAct = (k: LayerKind): KindActivations => {
    let v = kindCache.get(k);
    if (!v) {
      v = hf ? hfKind(m, c, b, s, k) : megatronKind(m, c, b, s, k);
      kindCache.set(k, v);
    }
    return v;
  };
  const sumKinds = (k: KindCounts, f: (x: KindActivations) => number) =>
    LAYER_KINDS.reduce((a, kind) => a + (k[kind] ? k[kind] * f(kindAct(kind)) : 0), 0);
  const maxKinds = (k: KindCounts, f: (x: KindActivations) => number) =>
    LAYER_KINDS.reduce((a, kind) => Math.max(a, k[kind] ? f(kindAct(kind)) : 0), 0);
  const ckpt = checkpointInput(m, c, b, s);
  const routerSaves = checkpointRouterSaves(m, c, b, s);
  const full = c.recompute.granularity === 'full';
  const emb = embeddingActivations(m, c, b, s);
  const loss = lossActivations(m, c, b, s, V);
  const mtp = (m.mtpLayers ?? 0) > 0 && !hf ? mtpActivations(m, c, b, s, V) : null;
  // defer_embedding_wgrad_compute: ModelParallelConfig.__post_init__ refuses it with PP 1 or without
  // gradient_accumulation_fusion, so such a run never starts; the estimate then counts the ordinary output layer.
  let deferred: ReturnType<typeof deferredWgradEntry> | null = null;
  if (c.deferEmbeddingWgrad !== undefined && !hf) {
    if (layout.pp > 1 && c.gradAccumFusion !== false) deferred = deferredWgradEntry(m, c, b, s, V);
    else
      assume(
        'defer_embedding_wgrad_compute not counted',
        `Megatron-Core model_parallel_config.py refuses it ${layout.pp > 1 ? 'without gradient_accumulation_fusion' : 'when pipeline parallelism is not used'}`,
      );
  }

  // Per-layer CUDA graphs (TE make_graphed_callables or Megatron's CudaGraphManager; full_iteration has no per-layer buffers).
  const graphs = c.cudaGraph && c.cudaGraph.impl !== 'full_iteration' && !hf ? c.cudaGraph : null;
  // Static input, output and their gradients per graphed callable and micro-batch (2 · 2·sbh).
  const graphBuffers = 4 * s * b * m.hidden * (c.sp ? 1 / c.tp : 1) * (c.params === 'fp32' ? 2 : 1);
  const chunkGraphs = (k: KindCounts, scope: readonly string[]) => {
    let captured = 0;
    let n = 0;
    for (const kind of LAYER_KINDS) {
      if (!k[kind]) continue;
      const g = graphCapture(kind, kindAct(kind), scope);
      captured += k[kind] * g.captured;
      n += k[kind] * g.callables;
    }
    return { captured, buffers: n * graphBuffers };
  };

  const chunkActivations = (ch: Chunk): ChunkActivations => {
    const kinds = countKinds(m, ch.first, ch.count);
    let layers: number;
    let note = '';
    const candidates: Part[] = [];
    const fwdParts: Part[] = [];
    const bwdParts: Part[] = [];
    if (full && ch.count > 0) {
      const n = Math.max(1, c.recompute.numLayers ?? 1);
      if (c.recompute.method === 'block') {
        // The first n layers of each chunk keep only their input; the rest keep everything (recompute.py, method block).
        const k = Math.min(n, ch.count);
        layers = k * ckpt + sumKinds(countKinds(m, ch.first + k, ch.count - k), (x) => x.stored);
        note = `full/block ${k}: ${k} layer inputs + ${ch.count - k} full layers per chunk`;
        bwdParts.push({
          bytes: maxKinds(countKinds(m, ch.first, k), (x) => x.stored + x.bwd),
          label: 'recompute: layers rematerialised in backward',
          formula: 'one layer of full activations and its backward working set (block method)',
        });
      } else {
        // One checkpointed input per group of n layers (recompute.py, method uniform), with what an MoE checkpoint
        // policy saves in each MoE layer (Automodel; one layer per group there).
        const groups = Math.ceil(ch.count / n);
        // Submodule checkpointing (Automodel, one layer per group): what the unwrapped modules save stays saved too.
        const unwrapped = c.checkpointUnit === 'submodule' ? sumKinds(kinds, (x) => x.unwrapped ?? 0) : 0;
        layers = groups * ckpt + moeLayerCount(kinds) * routerSaves + unwrapped;
        note =
          c.checkpointUnit === 'submodule'
            ? `full, per submodule: ${submoduleInputs(c)} submodule inputs${unwrapped ? ' and what the unwrapped modules save' : ''} × ${groups} layers per chunk`
            : `full/uniform ${n}: ${groups} group inputs per chunk${routerSaves ? ', router logits and top-k of each MoE layer' : ''}`;
        // Backward of a recomputed group: its rematerialised activations plus the working set of the layer in backward.
        bwdParts.push({
          bytes: Math.min(n, ch.count) * maxKinds(kinds, (x) => x.stored) + maxKinds(kinds, (x) => x.bwd),
          label: 'recompute: layers rematerialised in backward',
          formula: `${Math.min(n, ch.count)} layer${Math.min(n, ch.count) === 1 ? '' : 's'} of full activations (one recompute group) + one layer's backward working set`,
        });
      }
    } else {
      // CPU offload keeps (L − n) layers on the GPU (TransformerEngine CPU offloading docs); PP 1 only (Megatron refuses PP > 1).
      const off = c.pp === 1 ? Math.min(c.offloadLayers, ch.count) : 0;
      // Fine-grained activation offloading: what the offload_modules save leaves the GPU for every layer in flight.
      layers = sumKinds(countKinds(m, ch.first + off, ch.count - off), (x) => x.stored - x.offloaded);
      if (off) note = `${off} layers offloaded to CPU`;
      else if (c.activationOffload && sumKinds(kinds, (x) => x.offloaded) > 0)
        note = `offload_modules: ${c.activationOffload.modules.join(', ')} on the host`;
    }
    const fwdLayer = maxKinds(kinds, (x) => x.fwd);
    // Fine-grained offloading (fine_grained_activation_offload.py): the group of the layer in backward is reloaded
    // (bulk_reload_group, one group ahead); the offload margin is added to every phase below.
    const offloadedLayer = full ? 0 : maxKinds(kinds, (x) => x.offloaded);
    const bwdLayer = maxKinds(kinds, (x) => x.bwd) + offloadedLayer;
    if (fwdLayer)
      fwdParts.push({
        bytes: fwdLayer,
        label:
          m.experts > 0 && moeLayerCount(kinds)
            ? 'MoE dispatch buffers / CP K,V ring (one layer)'
            : 'CP ring: K/V receive buffers (one layer)',
        formula: 'token_dispatcher.py buffers; TE context_parallel p2p keeps every step',
      });
    if (bwdLayer)
      bwdParts.push({
        bytes: bwdLayer,
        label: offloadedLayer
          ? 'backward working buffers (one layer) and its reloaded offloaded tensors'
          : 'backward working buffers (one layer)',
        formula: `${
          moeLayerCount(kinds)
            ? 'gradients of the expert FC1 output and input, and the dispatch buffers'
            : 'gradients of the FC1 output and input: 2·s·b·(g·ffn/t + h)'
        }${offloadedLayer ? '; bulk_reload_group reloads the layer’s offloaded group' : ''}`,
      });
    let stored = layers;
    const embedding = ch.embedding ? emb.stored : 0;
    stored += embedding;
    const lossBytes = ch.loss ? loss.stored : 0;
    stored += lossBytes;
    if (ch.loss && hf && c.hfLoss === 'cut-cross-entropy')
      bwdParts.push({
        bytes: loss.bwd,
        label: 'cut cross-entropy backward: hidden-state and classifier gradients',
        formula: '2·sbh + 2·V·h — cce_backward.py zeros_like(e), zeros_like(c)',
        beforeUnitGrads: true,
      });
    else if (ch.loss && loss.fwd) {
      const bf16 = hf && c.hfLoss === 'bf16';
      const e = bf16 ? 2 : 4;
      fwdParts.push({
        bytes: loss.fwd,
        label: bf16 ? 'logits: bf16 output' : 'logits: bf16 output next to its fp32 upcast',
        formula: hf
          ? `${bf16 ? '2' : '(2 + 4)'}·s·b·V${hfShards(c).perT} — ${bf16 ? 'masked_ce.py fp32_upcast false' : 'HF ForCausalLMLoss'}`
          : lossFormula(c, 'cross_entropy.py'),
      });
      bwdParts.push({
        bytes: loss.bwd,
        label: hf
          ? `log_softmax gradient beside the nll_loss gradient (${bf16 ? 'bf16' : 'fp32'} each)${c.heldLogits ? ' and the bf16 logits the loop holds' : ''}`
          : 'logits gradient (bf16 cast of the in-place fp32 gradient)',
        formula: hf
          ? `(${e} + ${e}${c.heldLogits ? ' + 2' : ''})·s·b·V${hfShards(c).perT} (+ the ${e} saved) — torch derivatives.yaml nll_loss_backward, _log_softmax_backward_data${c.heldLogits ? '; train_ft.py holds the output through backward' : ''}`
          : lossFormula(c, 'cross_entropy.py backward'),
        beforeUnitGrads: true,
      });
    }
    const mtpBytes = ch.mtp && mtp ? ch.mtp * mtp.stored : 0;
    stored += mtpBytes;
    if (ch.mtp && mtp) {
      fwdParts.push({ bytes: mtp.fwd, label: 'MTP layer transients', formula: 'loss logits and dispatch buffers of an MTP layer' });
      bwdParts.push({
        bytes: mtp.bwd,
        label: 'MTP layer transients (backward)',
        formula: 'loss logits and dispatch buffers of an MTP layer',
      });
    }
    if (offloadedLayer) {
      // The offload margin: the last group of each offload module is never offloaded (post_warmup_callback), one layer's
      // offloaded tensors on the GPU at every phase.
      const margin = 'one layer of offloaded tensors kept (the offload margin)';
      for (const p of [...fwdParts, ...bwdParts]) {
        p.bytes += offloadedLayer;
        p.label += ` + ${margin}`;
      }
      if (!fwdParts.length)
        fwdParts.push({
          bytes: offloadedLayer,
          label: margin,
          formula: 'post_warmup_callback: the last group of each offload module stays',
        });
    }
    candidates.push(...fwdParts, ...bwdParts);
    const graph = graphs ? chunkGraphs(kinds, graphs.scope) : { captured: 0, buffers: 0 };
    return {
      layers,
      embedding,
      loss: lossBytes,
      mtp: mtpBytes,
      stored,
      fwdParts,
      bwdParts,
      note,
      candidates,
      graphCaptured: full ? 0 : graph.captured,
      graphBuffers: graph.buffers,
    };
  };

  // Micro-batches per step: known from the global batch and DP; unknown → a steady state (more than any warm-up).
  const vpp = layout.vpp;
  const group = c.microbatchGroupSize ?? layout.pp;
  let M = microbatches;
  if (M === undefined) {
    M = Math.max(1, 2 * ((layout.pp - 1) * 2 + (vpp - 1) * group + 2));
    if (layout.pp > 1)
      assume(
        'more micro-batches per step than any rank keeps in flight',
        'the number of micro-batches is unknown (global batch or world size missing)',
      );
  }
  if (vpp > 1 && microbatches !== undefined && group > microbatches)
    assume(
      `micro-batch group ${group} > ${microbatches} micro-batches (Megatron refuses it)`,
      'schedules.py microbatch_group_size_per_vp_stage check',
    );

  const wsLines = hf ? [] : gemmWorkspaces(c, gpu, m.experts > 0 && c.moe?.groupedGemm !== false);
  const wsBytes = wsLines.reduce((a, w) => a + w.bytes, 0);
  // Chunks with the same layer mix and parts hold the same activations (ranks of a long pipeline repeat).
  const chunkCache = new Map<string, ChunkActivations>();
  const chunkOf = (ch: Chunk): ChunkActivations => {
    const k = countKinds(m, ch.first, ch.count);
    const n = Math.max(1, c.recompute.numLayers ?? 1);
    const head = countKinds(m, ch.first, Math.min(n, ch.count));
    const off = c.pp === 1 ? Math.min(c.offloadLayers, ch.count) : 0;
    const kinds = (x: KindCounts) => LAYER_KINDS.map((kind) => x[kind]).join(',');
    const key = `${kinds(k)}|${kinds(head)}|${kinds(countKinds(m, ch.first + off, ch.count - off))}|${ch.count}|${+ch.embedding}|${+ch.loss}|${ch.mtp}`;
    let v = chunkCache.get(key);
    if (!v) chunkCache.set(key, (v = chunkActivations(ch)));
    return v;
  };

  /** One rank's levels; with `detail`, also its breakdown lines and transient candidates (built for the worst rank only). */
  const rankPass = (p: (typeof params)[number], detail: boolean) => {
    const line = (arr: BreakdownLine[], f: () => BreakdownLine) => {
      if (detail) arr.push(f());
    };
    const rank = p.stage;
    const st = stateBytes(p, c, denseShard, expertShard, computeCapability(gpu));
    const chunks = layout.chunks[rank]!.map(chunkOf);
    const mtpOnRank = layout.chunks[rank]!.reduce((a, ch) => a + ch.mtp, 0);
    const lossChunk = layout.chunks[rank]!.findIndex((ch) => ch.loss);
    // The output layer appends once per run: for the main loss and for each MTP layer (gpt_model.py reuses it).
    const retained =
      deferred && lossChunk >= 0
        ? { chunk: lossChunk, perPass: 1 + mtpOnRank, bytes: deferred.bytes, limit: c.deferEmbeddingWgrad ?? 0 }
        : undefined;
    // FSDP: the gathered units ride on every phase; a unit's unsharded gradient only on the backward phases after the
    // first unit's backward began, not in forward and not in the loss backward (weights.ts fsdpUnits, fsdpGathered).
    const hasUnitGrad = (phase: 'forward' | 'backward', x: Part) => phase === 'backward' && !x.beforeUnitGrads;
    const unitShare = (phase: 'forward' | 'backward', x: Part) => (hasUnitGrad(phase, x) ? st.fsdpUnits : st.fsdpGathered);
    const bestPart = (phase: 'forward' | 'backward', parts: Part[]): Part =>
      parts.reduce((a, x) => (x.bytes + unitShare(phase, x) > a.bytes + unitShare(phase, a) ? x : a), {
        bytes: 0,
        label: '',
        formula: '',
      } as Part);
    const best = chunks.map((x) => ({ forward: bestPart('forward', x.fwdParts), backward: bestPart('backward', x.bwdParts) }));
    const peak = schedulePeak(
      { pp: layout.pp, vpp, rank, microbatches: M, groupSize: group, overlapMoeComm: c.overlapMoeComm === true },
      chunks.map((x) => x.stored),
      best.map((x) => x.forward.bytes + unitShare('forward', x.forward)),
      best.map((x) => x.backward.bytes + unitShare('backward', x.backward)),
      retained,
    );
    const runningPart = best[peak.at.chunk]![peak.at.phase];
    const fsdpShare = unitShare(peak.at.phase, runningPart);
    // What the running part itself holds (the FSDP share is its own line below).
    const partTransient = peak.transient - fsdpShare;
    const per = (f: (x: ChunkActivations) => number) => chunks.reduce((a, x, v) => a + (peak.perChunk[v] ?? 0) * f(x), 0);
    let activations = peak.held;
    const act: BreakdownLine[] = [];
    const chunkLayers = layout.chunks[rank]!.map((x) => x.count);
    const layerPasses = peak.perChunk.reduce((a, n, v) => a + n * chunkLayers[v]!, 0);
    const mbEquivalent = p.layers > 0 ? layerPasses / p.layers : peak.passes;
    const note = chunks.find((x) => x.note)?.note;
    const schedText =
      layout.pp === 1
        ? '1 micro-batch in flight'
        : vpp > 1
          ? `${peak.passes} chunk passes in flight (= ${+mbEquivalent.toFixed(3)} micro-batches; warm-up ${peak.warmup}${peak.allWarmup ? ', all forwards first' : ''})`
          : `${peak.passes} micro-batch${peak.passes === 1 ? '' : 'es'} in flight`;
    line(act, () => ({
      label: `transformer layers (${p.layers} layers × ${schedText}${note ? `; ${note}` : ''})`,
      category: 'activations',
      bytes: per((x) => x.layers),
      formula: layerFormula(m, c, kindAct, s, b, p.kinds),
      source: hf ? 'hf-activations.md (measured inventory)' : 'memory.md §2.4 inventory; Megatron-Core layer modules; schedules.py',
      level: 'allocated',
    }));
    const embBytes = per((x) => x.embedding);
    if (embBytes)
      line(act, () => ({
        label: 'embedding (token ids' + (hf ? ', rotary cos/sin)' : ')'),
        category: 'activations',
        bytes: embBytes,
        formula: emb.terms.map((t) => t.formula).join(' + '),
        source: hf ? 'hf-activations.md' : 'Megatron theoretical_memory_usage.py',
        level: 'allocated',
      }));
    const lossBytes = per((x) => x.loss);
    if (lossBytes)
      line(act, () => ({
        label: hf
          ? 'final norm, lm_head input, log_softmax, labels'
          : 'output layer and loss (final norm and output-layer inputs, saved softmax)',
        category: 'activations',
        bytes: lossBytes,
        formula: loss.terms
          .filter((t) => !/transient|next to/.test(t.label))
          .map((t) => t.formula.split(' — ')[0])
          .join(' + '),
        source: hf ? 'hf-activations.md' : 'Megatron-Core tensor_parallel/cross_entropy.py',
        level: 'allocated',
      }));
    const mtpBytes = per((x) => x.mtp);
    if (mtpBytes)
      line(act, () => ({
        label: `multi-token prediction (${m.mtpLayers} layer${m.mtpLayers === 1 ? '' : 's'})`,
        category: 'activations',
        bytes: mtpBytes,
        formula: mtp!.terms[0]!.formula,
        source: 'Megatron-Core multi_token_prediction.py',
        level: 'allocated',
      }));
    if (peak.retainedEntries && deferred && retained) {
      const entries = peak.retainedEntries;
      line(act, () => ({
        label: `deferred output-layer weight gradients (${entries} input${entries === 1 ? '' : 's'} and logits gradient${entries === 1 ? '' : 's'} held for the drain${retained.limit ? `, wgrad_deferral_limit ${retained.limit}` : ''})`,
        category: 'activations',
        bytes: peak.retained,
        formula: `${entries} × (${deferred.formula})`,
        source: 'Megatron-Core tensor_parallel/layers.py (defer_embedding_wgrad_compute), utils.py drain_embedding_wgrad_compute',
        level: 'allocated',
      }));
    }
    // PP 1 with overlap_moe_expert_parallel_comm: the next micro-batch's forward runs beside this one's backward, layer by
    // layer (model_chunk_schedule_plan.py run: forward layer i with backward layer L−1−i). The previous micro-batch's loss
    // backward runs first (post_process.backward, before any forward layer), so its logits are freed when the extra layer
    // appears: that phase holds every layer plus one, against every layer plus the loss at the ordinary peak.
    if (layout.pp === 1 && c.overlapMoeComm) {
      const layerPeak = maxKinds(p.kinds, (x) => x.stored + Math.max(x.fwd, x.bwd));
      const lossHeld = chunks[0]!.loss + chunks[0]!.mtp;
      const extra = Math.max(0, layerPeak - lossHeld - partTransient);
      activations += extra;
      line(act, () => ({
        label: 'co-scheduled next micro-batch (one layer, once the loss is freed)',
        category: 'activations',
        bytes: extra,
        formula: 'max(0, one layer and its working set − the loss tensors and transient it replaces) — combined_1f1b.py',
        source: 'Megatron-Core combined_1f1b.py',
        level: 'allocated',
      }));
    }
    const trans: BreakdownLine[] = [];
    let transient = peak.transient;
    if (partTransient > 0)
      line(trans, () => ({
        label: `${runningPart.label} — ${peak.at.phase} of ${vpp > 1 ? `chunk ${peak.at.chunk}` : 'the stage'}`,
        category: 'transient',
        bytes: partTransient,
        formula: runningPart.formula,
        source: 'memory.md §2.5, §7; Megatron-Core cross_entropy.py, token_dispatcher.py',
        level: 'allocated',
      }));
    if (fsdpShare) {
      const withGrad = hasUnitGrad(peak.at.phase, runningPart);
      line(trans, () => ({
        label: `${c.fsdp === 'fsdp2' ? 'FSDP2' : 'Megatron FSDP'}: gathered ${c.fsdpKeepsGathered ? 'parameters of every unit (reshard_after_forward false)' : 'unit parameters'}${withGrad ? ' and unsharded gradient' : ` (no unit's gradient yet in the ${peak.at.phase === 'forward' ? 'forward' : 'loss backward'})`}`,
        category: 'transient',
        bytes: fsdpShare,
        formula: c.fsdpKeepsGathered
          ? `the rank's sharded parameters all-gathered in the compute dtype${withGrad ? " + the largest unit's gradient" : ''}`
          : `the largest unit (a decoder layer, the embedding or the output layer): 2 × compute-dtype parameters${withGrad ? ' + 1 × gradients' : ''}`,
        source: 'PyTorch FSDP2 fully_shard; Megatron-Core megatron_fsdp.md',
        level: 'allocated',
      }));
    }
    let graphPool = 0;
    if (graphs) {
      // Once captured, a graph's saved tensors live in its private pool, written by replay without the allocator: they
      // count in reserved, not in allocated; the static inputs, outputs and their gradients stay allocated. The first
      // cuda_graph_warmup_steps iterations run eagerly and set the process's allocated peak first (Megatron training.py /
      // Bridge train.py create_cudagraphs after the warm-up; max_memory_allocated is never reset).
      const buffers = per((x) => x.graphBuffers);
      const captured = per((x) => x.graphCaptured);
      const warm = graphs.warmupSteps ?? CUDA_GRAPH_WARMUP_STEPS;
      // Three phases, each measured from the eager peak E (activations + transient): the eager warm-up (0), the capture
      // (the captured modules' saved tensors, allocated from the pool as the graphs record them in schedule order, and the
      // static buffers: C + B − E) and the replayed steady state (B − C). Without warm-up there is no eager phase.
      const eager = activations + transient;
      const delta = Math.max(warm > 0 ? 0 : -eager, captured + buffers - eager, buffers - captured);
      graphPool = Math.max(0, buffers - delta);
      if (delta) {
        transient += delta;
        line(trans, () => ({
          label:
            delta > 0
              ? 'CUDA graphs: static buffers beyond the captured activations they replace'
              : 'CUDA graphs: captured activations moved to the private pool (no eager warm-up)',
          category: 'transient',
          bytes: delta,
          formula: `static buffers 2 · 2·sbh per graphed module and micro-batch in flight (${gib(buffers)}) − captured saved tensors (${gib(captured)})${warm > 0 ? ', when positive' : ''}`,
          source: 'TransformerEngine make_graphed_callables; Megatron cuda_graphs.py, transformer_config.py cuda_graph_modules',
          level: 'allocated',
        }));
      }
      assume(
        warm > 0
          ? `CUDA graphs captured after ${warm} eager warm-up iteration${warm === 1 ? '' : 's'}, which set the allocated peak; the graphs' private pool counts in reserved`
          : 'CUDA graphs captured before the first iteration: the captured modules’ saved tensors live in the private pool (reserved, not allocated)',
        'cuda_graph_warmup_steps (Megatron default 3); static buffers per graphed module and micro-batch in flight, pool reuse not modelled',
      );
    }
    const e = c.params === 'fp32' ? 4 : 2;
    const dummy = dummyWgradParams(m, c, p.kinds, mtpOnRank, lossChunk >= 0) * e;
    const rankWs = [...wsLines];
    if (dummy)
      rankWs.push({
        label: 'TE dummy weight gradients (gradient_accumulation_fusion)',
        bytes: dummy,
        formula: `one weight-sized tensor per distinct GEMM weight shape on the rank${lossChunk >= 0 ? ', the output layer’s included' : ''}`,
        source: 'TransformerEngine module/base.py get_dummy_wgrad',
      });
    // Megatron's local DotProductAttention takes the baddbmm input [b·a/t, s, s] from the global memory buffer, which
    // keeps it between steps (megatron/core/transformer/dot_product_attention.py get_global_memory_buffer().get_tensor).
    const scoreBuffer = !hf && c.transformerImpl === 'local' && p.layers > 0 ? (e * m.heads * s * s * b) / c.tp : 0;
    if (scoreBuffer)
      rankWs.push({
        label: 'Megatron global memory buffer (local attention score input)',
        bytes: scoreBuffer,
        formula: `${e}·a·s²·b/t`,
        source: 'Megatron-Core dot_product_attention.py, parallel_state GlobalMemoryBuffer',
      });
    // Megatron's GlobalMemoryBuffer keeps each named buffer between steps, at the largest size asked of it. "mpu": the
    // output layer's input all-gather under SP (tensor_parallel/layers.py LinearWithGradAccumulationAndAsyncCommunication)
    // and the allgather MoE dispatcher's tokens (token_dispatcher.py); "mpu_0" / "mpu_1": the deferred-wgrad drain's
    // double buffer (utils.py drain_embedding_wgrad_compute).
    const outputGather = !hf && c.sp && c.tp > 1 && lossChunk >= 0 ? e * s * b * m.hidden : 0;
    const moeGather = maxKinds(p.kinds, (x) => x.globalBuffer);
    const mpu = Math.max(outputGather, moeGather);
    const drainEntries = retained ? Math.min(retained.limit || Infinity, M * retained.perPass) : 0;
    const drainBuffers = outputGather ? Math.min(2, drainEntries) : 0;
    const globalBuffers = mpu + drainBuffers * outputGather;
    if (globalBuffers)
      rankWs.push({
        label: `Megatron global memory buffer (${[
          ...(moeGather >= outputGather ? ['allgather MoE dispatch tokens'] : ['output-layer input all-gather']),
          ...(drainBuffers ? ['deferred-wgrad drain double buffer'] : []),
        ].join(', ')})`,
        bytes: globalBuffers,
        formula: [
          moeGather >= outputGather ? `${e}·(s·b${c.sp ? '/t' : ''})·ETP·EP·h` : `${e}·s·b·h`,
          ...(drainBuffers ? [`${drainBuffers} × ${e}·s·b·h`] : []),
        ].join(' + '),
        source:
          'Megatron-Core tensor_parallel/layers.py, moe/token_dispatcher.py, utils.py drain_embedding_wgrad_compute, parallel_state GlobalMemoryBuffer',
      });
    const rankWsBytes = wsBytes + dummy + scoreBuffer + globalBuffers;
    const ws: BreakdownLine[] = rankWs.map((w) => ({ ...w, category: 'overhead' as const, level: 'allocated' as const }));
    // The states beside the gradients, which zero_grad may have freed or FSDP2 left unsharded (peakGrads) at the
    // forward/backward peak.
    const held = st.weights + st.optimizer + rankWsBytes;
    const fwdGrads = { freed: 0, accumulated: st.accumulatedGradients, held: st.gradients }[peakGrads];
    const fwdBwd = held + fwdGrads + activations + transient;
    // The optimizer step runs after the last backward, the activations freed; its temporaries (weights.ts perParamBytes:
    // fp32 copies of bf16 gradients, torch AdamW's foreach temporary) against the forward/backward peak. Once it is done
    // the states and buffers stay (afterStep).
    const afterStep = held + st.gradients;
    const optimizerStep = afterStep + st.stepTemporaries;
    let atStep = false;
    if (optimizerStep > fwdBwd) {
      atStep = true;
      act.length = 0;
      trans.length = 0;
      line(trans, () => ({
        label: `optimizer step temporaries (the peak; the forward/backward peak is ${gib(fwdBwd)})`,
        category: 'transient',
        bytes: st.stepTemporaries,
        formula: [
          ...(st.stepGradCopies ? ['4 B per stepped element: the fp32 copy of its bf16 gradient (distrib_optimizer.py .float())'] : []),
          ...(st.stepTemporaries > st.stepGradCopies ? ['4 B per element Adam steps on the GPU: torch AdamW foreach exp_avg_sq_sqrt'] : []),
        ].join(' + '),
        source:
          'megatron/core/optimizer/distrib_optimizer.py _copy_model_grads_to_main_grads; torch/optim/adam.py _multi_tensor_adam; megatron/core/optimizer/__init__.py',
        level: 'allocated',
      }));
      activations = 0;
      transient = st.stepTemporaries;
    }
    const grads = atStep ? st.gradients : fwdGrads;
    // What the gradients line shows: the state at the peak, where it differs from the sharded gradients.
    const gradsShown = grads === st.gradients ? 'held' : peakGrads;
    const allocated = held + grads + activations + transient;
    // A fresh run's first forward/backward runs before the first step creates the lazy states (weights.ts lazyStateBytes).
    const firstIteration = Math.max(fwdBwd - st.lazyOptimizer, optimizerStep);
    const ov = trainingOverheads(c, allocated);
    if (graphPool > 0)
      ov.push({
        label: 'CUDA graphs: private memory pool outside the allocated peak',
        bytes: graphPool,
        formula: 'the captured saved tensors (or the static buffers, after an eager warm-up) the replayed graphs hold',
        source: 'PyTorch CUDA graphs private memory pools; TransformerEngine make_graphed_callables',
        level: 'reserved',
      });
    const overhead = rankWsBytes + ov.reduce((a, o) => a + o.bytes, 0);
    // device = the sum of the lines (perGpu.total adds up exactly); reserved = allocated + fragmentation.
    const device = st.weights + grads + st.optimizer + activations + transient + overhead;
    const reserved = allocated + ov.filter((o) => o.level === 'reserved').reduce((a, o) => a + o.bytes, 0);
    const stage: StageEstimate = {
      stage: rank,
      layers: p.layers,
      weights: st.weights,
      gradients: grads,
      optimizer: st.optimizer,
      activations,
      transient,
      overhead,
      total: device,
      allocated,
      reserved,
      device,
      optimizerStep,
      firstIteration,
      afterStep,
      inFlight: {
        passes: peak.passes,
        microbatches: +mbEquivalent.toFixed(6),
        perChunk: peak.perChunk,
        warmup: peak.warmup,
        allWarmup: peak.allWarmup,
        at: peak.at,
      },
    };
    if (!detail) return { stage, lines: [] as BreakdownLine[], transients: [] as Part[] };
    const bpp = st.bytesPerParam;
    const offload = c.optimizerCpuOffload;
    const fsdpDiv = c.fsdp ? ` / ${denseShard} (FSDP)` : '';
    const lines: BreakdownLine[] = [
      {
        label: `weights (${fmtCount(p.dense + p.experts)} parameters${c.peft ? `, ${fmtCount(p.trainable.dense + p.trainable.experts)} trainable` : ''})`,
        category: 'weights',
        bytes: st.weights - st.quantizedCopies,
        formula: `${bpp.weights} B/param${fsdpDiv}`,
        source: 'Megatron dist_optimizer docs; params.ts inventory',
        level: 'allocated',
      },
      ...(st.quantizedCopies
        ? [
            {
              label: c.quantizedParams ? 'low-precision weights (fp8/fp4 params replace BF16)' : 'low-precision weight copies',
              category: 'weights' as const,
              bytes: st.quantizedCopies,
              formula: c.quantizedParams
                ? 'one quantized copy of the GEMM weights'
                : c.teModules
                  ? 'rowwise + columnwise quantized copies of the TE linears, made from the all-gathered weight (not sharded by FSDP)'
                  : 'rowwise + columnwise quantized copies of GEMM weights',
              source: c.teModules
                ? 'TransformerEngine module/linear.py, module/grouped_linear.py _fp8_workspaces (is_first_microbatch)'
                : 'TransformerEngine docs; memory.md §1.2',
              level: 'allocated' as const,
            },
          ]
        : []),
      {
        label: `${c.peft ? 'gradients (adapters only)' : 'gradients'}${
          {
            held: '',
            freed: ` — none at the peak: zero_grad(set_to_none) freed the step's ${gib(st.gradients)}, and backward recreates them as it frees the activations`,
            accumulated: ` — unsharded, accumulated over the step's ${microbatches} micro-batches (defer_fsdp_grad_sync); ${gib(st.gradients)} once the last one reduce-scatters them`,
          }[gradsShown]
        }`,
        category: 'gradients',
        bytes: grads,
        formula:
          gradsShown === 'accumulated'
            ? '4 B/param (the fp32 reduce dtype), not sharded over DP'
            : `${bpp.gradients} B/param${c.fsdp === 'fsdp2' ? ' (the sharded parameter’s dtype)' : c.gradReduceInFp32 ? ' (fp32 main_grad)' : ''}${fsdpDiv}`,
        source:
          gradsShown === 'accumulated'
            ? 'torch fsdp _fsdp_param_group.py post_backward without gradient sync: to_accumulated_grad_if_needed'
            : c.fsdp === 'fsdp2'
              ? 'PyTorch fully_shard: gradient shards in the sharded parameter’s dtype'
              : 'Megatron dist_optimizer docs',
        level: 'allocated',
      },
      {
        label: `${c.fsdp || c.distributedOptimizer ? `optimizer (sharded over DP×CP = ${denseShard})` : 'optimizer'}${ruleLabel(c)}${
          offload === undefined ? '' : ` — ${+(offload * 100).toFixed(1)}% of it stepped on the host`
        }`,
        category: 'optimizer',
        bytes: st.optimizer,
        formula: `${optimizerFormula(c, bpp, c.distributedOptimizer || c.fsdp ? denseShard : 1, p.kinds.mamba > 0)}${
          st.wholeVocab ? `; + ${gib(st.wholeVocab)} on the DP rank that steps the vocabulary tensor whole (layer-wise ping-pong)` : ''
        }${offload === undefined ? '' : `; HybridDeviceOptimizer GPU share ${hybridDeviceOptimizer(c, offload).formula}, f = ${offload}`}`,
        source:
          offload !== undefined
            ? 'megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py; distrib_optimizer.py'
            : c.optimizer
              ? 'megatron/core/optimizer/__init__.py (_get_megatron_emerging_optimizer), emerging_optimizers.py, layer_wise_optimizer.py'
              : 'Megatron dist_optimizer docs; Megatron-Bridge theoretical_memory_utils.py (DP×CP)',
        level: 'allocated',
      },
      ...act,
      ...trans,
      ...ws,
      ...ov.map((o) => ({
        label: o.label,
        category: 'overhead' as const,
        bytes: o.bytes,
        formula: o.formula,
        source: o.source,
        level: o.level,
      })),
    ];
    return { stage, lines, transients: chunks.flatMap((x) => x.candidates) };
  };
  const stages = params.map((p) => rankPass(p, false).stage);
  let worst = 0;
  stages.forEach((st, i) => {
    if (st.device > stages[worst]!.device) worst = i;
  });
  const w = stages[worst]!;
  const p = params[worst]!;
  const detail = rankPass(p, true);
  assume(`allocator fragmentation ${reservedFraction(c) * 100}% of allocated`, 'reserved − allocated budget (overheads.ts)');
  assume(
    `CUDA context 0.5 GiB${c.worldSize === 1 ? '' : ` and NCCL buffers ${c.ep > 1 ? '3 GiB' : '1 GiB'}`} outside the allocator`,
    'pytorch#86509; nccl#864, #1685',
  );
  // The inventory shown is the rank's most common layer kind.
  const termsKind = LAYER_KINDS.reduce((a, k) => (p.kinds[k] > p.kinds[a] ? k : a), 'dense' as LayerKind);
  return {
    model: { name: m.name, paramsPerGpu: p.dense + p.experts, paddedVocab: V },
    gpu: { name: gpu.name, bytes: gpu.bytes },
    parallel: { tp: c.tp, pp: c.pp, vpp: c.vpp, cp: c.cp, ep: c.ep, dp: dp ?? null, worldSize: c.worldSize ?? null, sp: c.sp },
    perGpu: {
      weights: w.weights,
      gradients: w.gradients,
      optimizer: w.optimizer,
      activations: w.activations,
      transient: w.transient,
      overhead: w.overhead,
      total: w.total,
      allocated: w.allocated,
      reserved: w.reserved,
      device: w.device,
    },
    stage: worst,
    stages,
    breakdown: detail.lines,
    transients: detail.transients,
    layerTerms: (hf ? hfKind : megatronKind)(m, c, b, s, termsKind).terms,
    pipeline: {
      how: layout.how,
      vpp,
      microbatches: microbatches ?? null,
      chunks: layout.chunks.map((row) => row.map((ch) => ({ rank: ch.rank, vstage: ch.vstage, first: ch.first, layers: ch.count }))),
    },
    fit: fitVerdict(w.device, gpu.bytes),
    assumptions,
  };
}

function layerFormula(
  m: ModelShape,
  c: TrainingConfig,
  kindAct: (k: LayerKind) => KindActivations,
  s: number,
  b: number,
  kinds: KindCounts,
): string {
  const parts = LAYER_KINDS.filter((k) => kinds[k] > 0).map((k) => `${fmtGiB(kindAct(k).stored)} (${k})`);
  return `per layer ${parts.join(' / ') || fmtGiB(megatronLayer(m, c, b, s).dense)} at s = ${s}, b = ${b}`;
}

export const fmtGiB = (bytes: number) => gib(bytes);
/** The loss transient's formula: the fused native cross entropy keeps one more fp32 buffer (activations.ts lossActivations). */
const lossFormula = (c: TrainingConfig, where: string) =>
  c.crossEntropyFusion === 'native'
    ? `6·s·b·V/t (+ the 4 saved = 10·s·b·V/t) — fused_cross_entropy.py under torch.compile`
    : `2·s·b·V/t (+ the 4 saved = 6·s·b·V/t) — ${where}`;
function fmtCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  return String(Math.round(n));
}

/** Layer kinds in words (assumptions). */
const KIND_NAMES: Record<LayerKind, string> = {
  dense: 'attention + MLP',
  moe: 'attention + MoE',
  mamba: 'Mamba',
  attention: 'attention-only',
  mlp: 'MLP-only',
  'moe-mlp': 'MoE-only',
  gdn: 'Gated DeltaNet + MLP',
  'gdn-moe': 'Gated DeltaNet + MoE',
};

const RULE_NAMES = { adam: 'Adam', muon: 'Muon', lion: 'Lion', sgd: 'SGD' } as const;

/** The update rule in the optimizer line's label when it is not Adam. */
function ruleLabel(c: TrainingConfig): string {
  const o = c.optimizer;
  if (!o) return '';
  return o.rule === 'sgd' ? ' — SGD' : ` — ${RULE_NAMES[o.rule]}, ${RULE_NAMES[o.scalar]} for the other parameters`;
}

/** Bytes per parameter of the optimizer line, per update rule, over the shard group `d`; `mamba`: the rank holds Mamba layers. */
function optimizerFormula(c: TrainingConfig, bpp: StateBytes['bytesPerParam'], d: number, mamba: boolean): string {
  const per = (x: number) => (d > 1 ? `${+(x * d).toFixed(2)}/${d}` : `${+x.toFixed(2)}`);
  const o = c.optimizer;
  if (o && o.rule !== 'sgd')
    return `${RULE_NAMES[o.rule]} ${per(bpp.matrixOptimizer)} B per 2-D weight (fp32 main copy + ${o.rule === 'muon' ? 'momentum' : 'exp_avg'}), ${RULE_NAMES[o.scalar]} ${per(bpp.optimizer)} B per other parameter (embeddings, output layer, norms, biases${o.rule === 'muon' && mamba ? ', Mamba in_proj' : ''})`;
  if (o?.rule === 'sgd') return `${per(bpp.optimizer)} B/param (fp32 main copy${o.momentum ? ' + momentum buffer' : ''})`;
  return `${per(bpp.optimizer)} B/param`;
}
