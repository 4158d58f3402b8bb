// Megatron-LM run configs (tests/functional_tests/test_cases/*/model_config.yaml and launch scripts written the same
// way): the command-line arguments of pretrain_gpt.py under MODEL_ARGS, `--flag: value`, `true` for a switch, and the
// launch environment under ENV_VARS. Arguments and defaults: megatron/training/arguments.py (argparse, plus the flags
// ArgumentGroupFactory generates from megatron-core's TransformerConfig: `--field-name`, `--no-`/`--disable-` for a field
// that defaults to True), read as megatron-core receives them (NVIDIA/Megatron-LM@d98e8a64ddf3).
import type { RecipeDoc } from '../document.js';
import { lookup } from '../tree.js';
import type { TrainingValues } from './fields.js';
import { MCORE_PARALLEL_DEFAULTS, type TrainingTable } from './training.js';

const arg = (flag: string) => [`MODEL_ARGS.--${flag}`];

/** A switch is on when written `true` (the test harness passes `--flag`), off when absent or false. */
function switchOn(doc: RecipeDoc, flag: string): boolean | undefined {
  const n = lookup(doc.root, ['MODEL_ARGS', `--${flag}`])?.node;
  return n?.kind === 'scalar' && typeof n.value === 'boolean' ? n.value : undefined;
}

function argValue(doc: RecipeDoc, flag: string): unknown {
  const n = lookup(doc.root, ['MODEL_ARGS', `--${flag}`])?.node;
  return n?.kind === 'scalar' ? n.value : undefined;
}

/** A list argument (nargs '+' / '*') as the functional tests write it: "[attn mlp]", "attn mlp", or a YAML list. */
export function argList(x: unknown): string[] | undefined {
  if (Array.isArray(x)) return x.filter((e): e is string => typeof e === 'string');
  if (typeof x !== 'string') return undefined;
  return x
    .trim()
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .map((e) => e.replace(/^['"]|['"]$/g, ''))
    .filter(Boolean);
}

const posInt = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x >= 1 ? x : undefined);

/** Stages of a pipeline layout string ("Et*2|(tt|)*5t|tmL"): arguments.py PipelineParallelLayerLayout.get_num_stages_from_str. */
export function layoutStages(layout: string): number | undefined {
  // Expand "(…)*n" and "x*n" the way the layout parser does, then count the "|"-separated stages.
  let s = layout.replace(/\s|,/g, '');
  for (let i = 0; i < 16 && /\(/.test(s); i++)
    s = s.replace(/\(([^()]*)\)\*(\d+)/g, (_, body: string, n: string) => body.repeat(Number(n)));
  if (/[()]/.test(s)) return undefined;
  return s.split('|').length;
}

/**
 * The virtual pipeline size arguments.py derives (validate_args "Uneven virtual pipeline parallelism"): from
 * --pipeline-model-parallel-layout (stages / PP), --num-virtual-stages-per-pipeline-rank, or
 * --num-layers-per-virtual-pipeline-stage ((layers + embedding + loss) / PP / that); the "|" segments of a hybrid layer
 * pattern (segments / PP). A size of 1 is no interleaving (None).
 */
function derivedVpp(doc: RecipeDoc): TrainingValues {
  const pp = posInt(argValue(doc, 'pipeline-model-parallel-size')) ?? 1;
  const layout = argValue(doc, 'pipeline-model-parallel-layout');
  const perRank = posInt(argValue(doc, 'num-virtual-stages-per-pipeline-rank'));
  const perStage = posInt(argValue(doc, 'num-layers-per-virtual-pipeline-stage'));
  const hybrid = argValue(doc, 'hybrid-layer-pattern') ?? argValue(doc, 'hybrid-override-pattern');
  let vpp: number | undefined;
  if (typeof layout === 'string') {
    const stages = layoutStages(layout);
    if (stages !== undefined && stages % pp === 0) vpp = stages / pp;
  } else if (perRank !== undefined) vpp = perRank;
  else if (perStage !== undefined) {
    const layers = posInt(argValue(doc, 'num-layers'));
    if (layers === undefined) return {};
    const total =
      layers +
      (switchOn(doc, 'account-for-embedding-in-pipeline-split') ? 1 : 0) +
      (switchOn(doc, 'account-for-loss-in-pipeline-split') ? 1 : 0);
    if (total % pp !== 0 || (total / pp) % perStage !== 0) return {};
    vpp = total / pp / perStage;
  } else if (typeof hybrid === 'string' && hybrid.includes('|')) {
    const segments = (hybrid.split('/')[0] ?? '').split('|').length;
    if (segments % pp === 0) vpp = segments / pp;
  } else return {};
  return vpp === undefined ? {} : { vpp: vpp > 1 ? vpp : null };
}

/**
 * Values no single argument holds: tied embeddings are the absence of --untie-…, the MLP activation is --swiglu /
 * --squared-relu / --quick-geglu, and BF16 accumulates and all-reduces gradients in fp32 unless --grad-reduce-in-bf16
 * (arguments.py validate_args: "bfloat16 requires gradient accumulation and all-reduce to be done in fp32"). Biases:
 * --disable-bias-linear turns add_bias_linear off, and add_bias_linear implies add_qkv_bias. bias_activation_fusion is
 * --no-bias-swiglu-fusion's or --no-bias-gelu-fusion's opposite, the latter off without biases
 * (argument_utils.py core_transformer_config_from_args). --no-gradient-accumulation-fusion, --recompute-activations
 * (selective recompute), --no-use-layer-wise-param-layout, the VPP of the layout flags, and the MTP depths after "/" in a hybrid layer pattern.
 */
function derive(doc: RecipeDoc): TrainingValues {
  const untie = switchOn(doc, 'untie-embeddings-and-output-weights');
  const swiglu = switchOn(doc, 'swiglu') === true;
  const squared = switchOn(doc, 'squared-relu') === true;
  const geglu = switchOn(doc, 'quick-geglu') === true;
  const activation = swiglu ? 'swiglu' : squared ? 'squared-relu' : geglu ? 'geglu' : 'gelu';
  const fp32Grads =
    switchOn(doc, 'accumulate-allreduce-grads-in-fp32') === undefined && switchOn(doc, 'bf16') === true
      ? { gradFp32: switchOn(doc, 'grad-reduce-in-bf16') !== true }
      : {};
  const linearBias = switchOn(doc, 'disable-bias-linear') !== true;
  const biasActFusion = swiglu
    ? switchOn(doc, 'no-bias-swiglu-fusion') !== true
    : linearBias && switchOn(doc, 'no-bias-gelu-fusion') !== true;
  const out: TrainingValues = {
    tied: untie !== true,
    gated: swiglu || geglu,
    activation,
    ...fp32Grads,
    linearBias,
    ...(linearBias ? { qkvBias: true } : {}),
    biasActFusion,
    gradAccFusion: switchOn(doc, 'no-gradient-accumulation-fusion') !== true,
    layerWiseLayout: switchOn(doc, 'no-use-layer-wise-param-layout') !== true,
    ...derivedVpp(doc),
  };
  // List arguments written as one string ("[moe_act mlp]"); a YAML list is read through the path.
  const modules = argValue(doc, 'recompute-modules');
  if (typeof modules === 'string') out.recomputeModules = argList(modules);
  const offloaded = argValue(doc, 'offload-modules');
  if (typeof offloaded === 'string') out.offloadModules = argList(offloaded);
  // Integer lists (nargs '+', type=int): "--hierarchical-context-parallel-sizes: 2 2" (arguments.py).
  const hcp = argValue(doc, 'hierarchical-context-parallel-sizes');
  if (typeof hcp === 'string') {
    const sizes = argList(hcp)?.map(Number);
    if (sizes?.length && sizes.every((n) => Number.isInteger(n))) out.hcp = sizes;
  } else if (typeof hcp === 'number') out.hcp = [hcp];
  // cp_comm_type per layer (nargs '+'): one value, or one per layer written as a space-separated string.
  const cpComm = argValue(doc, 'cp-comm-type');
  if (typeof cpComm === 'string' && /\s/.test(cpComm.trim())) out.cpCommType = argList(cpComm);
  const graphs = argValue(doc, 'cuda-graph-modules') ?? argValue(doc, 'cuda-graph-scope');
  if (typeof graphs === 'string') out.cudaGraphScope = argList(graphs);
  if (switchOn(doc, 'recompute-activations') === true && argValue(doc, 'recompute-granularity') === undefined)
    out.recomputeGranularity = 'selective';
  if (switchOn(doc, 'no-position-embedding') === true) out.positionEmbedding = 'none';
  else if (switchOn(doc, 'use-rotary-position-embeddings') === true && argValue(doc, 'position-embedding-type') === undefined)
    out.positionEmbedding = 'rope';
  const hybrid = argValue(doc, 'hybrid-layer-pattern') ?? argValue(doc, 'hybrid-override-pattern');
  if (typeof hybrid === 'string' && hybrid.includes('/')) out.mtpLayers = hybrid.split('/').length - 1;
  return out;
}

export const MEGATRON_LM: TrainingTable = {
  family: 'megatron-lm',
  derive,
  paths: {
    tp: arg('tensor-model-parallel-size'),
    pp: arg('pipeline-model-parallel-size'),
    vpp: arg('virtual-pipeline-model-parallel-size'),
    vStagesPerRank: arg('num-virtual-stages-per-pipeline-rank'),
    layersPerVStage: arg('num-layers-per-virtual-pipeline-stage'),
    cp: arg('context-parallel-size'),
    ep: arg('expert-model-parallel-size'),
    etp: arg('expert-tensor-parallel-size'),
    sp: arg('sequence-parallel'),
    hcp: arg('hierarchical-context-parallel-sizes'),
    cpCommType: arg('cp-comm-type'),
    useTpPpDpMapping: arg('use-tp-pp-dp-mapping'),
    overlapP2p: arg('overlap-p2p-communication'),
    firstStageLayers: [...arg('num-layers-in-first-pipeline-stage'), ...arg('decoder-first-pipeline-num-layers')],
    lastStageLayers: [...arg('num-layers-in-last-pipeline-stage'), ...arg('decoder-last-pipeline-num-layers')],
    ppLayout: arg('pipeline-model-parallel-layout'),
    embedInSplit: arg('account-for-embedding-in-pipeline-split'),
    lossInSplit: arg('account-for-loss-in-pipeline-split'),
    mbGroupSize: arg('microbatch-group-size-per-vp-stage'),
    overlapMoeComm: arg('overlap-moe-expert-parallel-comm'),
    deferEmbeddingWgrad: arg('defer-embedding-wgrad-compute'),
    wgradDeferralLimit: arg('wgrad-deferral-limit'),
    seq: arg('seq-length'),
    mbs: arg('micro-batch-size'),
    gbs: arg('global-batch-size'),
    trainIters: arg('train-iters'),
    trainSamples: arg('train-samples'),
    layers: arg('num-layers'),
    hidden: arg('hidden-size'),
    ffn: arg('ffn-hidden-size'),
    heads: arg('num-attention-heads'),
    groups: arg('num-query-groups'),
    headDim: arg('kv-channels'),
    vocab: arg('vocab-size'),
    vocabDivisible: arg('make-vocab-size-divisible-by'),
    norm: arg('normalization'),
    experts: arg('num-experts'),
    topK: arg('moe-router-topk'),
    moeFfn: arg('moe-ffn-hidden-size'),
    sharedFfn: arg('moe-shared-expert-intermediate-size'),
    hiddenDropout: arg('hidden-dropout'),
    attnDropout: arg('attention-dropout'),
    qkvBias: arg('add-qkv-bias'),
    positionEmbedding: arg('position-embedding-type'),
    maxPositions: arg('max-position-embeddings'),
    qkNorm: arg('qk-layernorm'),
    moeLayerFreq: arg('moe-layer-freq'),
    routerBias: arg('moe-router-enable-expert-bias'),
    mtpLayers: arg('mtp-num-layers'),
    mtpPattern: arg('mtp-hybrid-override-pattern'),
    mtpRepeated: arg('mtp-use-repeated-layer'),
    squaredReluFusion: arg('use-fused-weighted-squared-relu'),
    mla: arg('multi-latent-attention'),
    qLoraRank: arg('q-lora-rank'),
    kvLoraRank: arg('kv-lora-rank'),
    qkHeadDim: arg('qk-head-dim'),
    qkPosHeadDim: arg('qk-pos-emb-head-dim'),
    vHeadDim: arg('v-head-dim'),
    hybridPattern: [...arg('hybrid-layer-pattern'), ...arg('hybrid-override-pattern')],
    mambaStateDim: arg('mamba-state-dim'),
    mambaHeadDim: arg('mamba-head-dim'),
    mambaGroups: arg('mamba-num-groups'),
    mambaHeads: arg('mamba-num-heads'),
    tokType: arg('tokenizer-type'),
    tokModel: arg('tokenizer-model'),
    recomputeGranularity: arg('recompute-granularity'),
    recomputeMethod: arg('recompute-method'),
    recomputeLayers: arg('recompute-num-layers'),
    recomputeModules: arg('recompute-modules'),
    fgOffload: arg('fine-grained-activation-offloading'),
    offloadModules: arg('offload-modules'),
    offloadFraction: arg('activation-offload-fraction'),
    fp16: arg('fp16'),
    bf16: arg('bf16'),
    fp8: arg('fp8-format'),
    fp8Recipe: arg('fp8-recipe'),
    fp8Param: arg('fp8-param-gather'),
    fp4: arg('fp4-format'),
    fp4Recipe: arg('fp4-recipe'),
    fp4Param: arg('fp4-param-gather'),
    bf16Layers: arg('first-last-layers-bf16'),
    bf16LayersStart: arg('num-layers-at-start-in-bf16'),
    bf16LayersEnd: arg('num-layers-at-end-in-bf16'),
    optimName: arg('optimizer'),
    muonScalarOptim: arg('muon-scalar-optimizer'),
    sgdMomentum: arg('sgd-momentum'),
    distOpt: arg('use-distributed-optimizer'),
    distOptInstances: arg('num-distributed-optimizer-instances'),
    precisionAwareOptim: arg('use-precision-aware-optimizer'),
    mainParamsDtype: arg('main-params-dtype'),
    expAvgDtype: arg('exp-avg-dtype'),
    expAvgSqDtype: arg('exp-avg-sq-dtype'),
    optimizerCpuOffload: arg('optimizer-cpu-offload'),
    optimizerOffloadFraction: arg('optimizer-offload-fraction'),
    gradFp32: arg('accumulate-allreduce-grads-in-fp32'),
    megatronFsdp: arg('use-megatron-fsdp'),
    fsdpSharding: arg('data-parallel-sharding-strategy'),
    torchFsdp2: arg('use-torch-fsdp2'),
    tpCommOverlap: arg('tp-comm-overlap'),
    transformerImpl: arg('transformer-impl'),
    attnBackend: arg('attention-backend'),
    ceFusion: arg('cross-entropy-loss-fusion'),
    ceFusionImpl: arg('cross-entropy-fusion-impl'),
    cudaGraphImpl: arg('cuda-graph-impl'),
    cudaGraphScope: [...arg('cuda-graph-modules'), ...arg('cuda-graph-scope')],
    cudaGraphWarmup: arg('cuda-graph-warmup-steps'),
    enableCudaGraph: arg('enable-cuda-graph'),
    externalCudaGraph: arg('external-cuda-graph'),
    envVars: ['ENV_VARS'],
    moeDispatcher: arg('moe-token-dispatcher-type'),
    moeCapacity: arg('moe-expert-capacity-factor'),
    moePadToCapacity: arg('moe-pad-expert-input-to-capacity'),
    moeRouterDtype: arg('moe-router-dtype'),
    moePermuteFusion: arg('moe-permute-fusion'),
    moeGroupedGemm: arg('moe-grouped-gemm'),
    perTokenLoss: arg('calculate-per-token-loss'),
  },
  // megatron/training/arguments.py argparse defaults and the TransformerConfig / OptimizerConfig / DDP config defaults
  // ArgumentGroupFactory carries over (a switch absent is off).
  defaults: {
    ...MCORE_PARALLEL_DEFAULTS,
    overlapMoeComm: false,
    deferEmbeddingWgrad: false,
    wgradDeferralLimit: 0,
    distOpt: false,
    distOptInstances: 1,
    precisionAwareOptim: false,
    mainParamsDtype: 'fp32',
    expAvgDtype: 'fp32',
    expAvgSqDtype: 'fp32',
    optimizerCpuOffload: false,
    fgOffload: false,
    optimizerOffloadFraction: 0,
    optimName: 'adam',
    muonScalarOptim: 'adam',
    sgdMomentum: 0.9,
    megatronFsdp: false,
    fsdpSharding: 'optim_grads_params',
    torchFsdp2: false,
    gradFp32: false,
    fp16: false,
    bf16: false,
    fp8: null,
    fp4: null,
    fp8Param: false,
    fp4Param: false,
    bf16Layers: false,
    bf16LayersStart: 1,
    bf16LayersEnd: 1,
    tied: true,
    gated: false,
    vocabDivisible: 128,
    norm: 'LayerNorm',
    hiddenDropout: 0.1,
    attnDropout: 0.1,
    qkvBias: false,
    positionEmbedding: 'learned_absolute',
    qkNorm: false,
    moeLayerFreq: 1,
    routerBias: false,
    mtpLayers: null,
    mtpRepeated: false,
    mla: false,
    qLoraRank: null,
    kvLoraRank: 32,
    qkHeadDim: 128,
    qkPosHeadDim: 64,
    vHeadDim: 128,
    mambaStateDim: 128,
    mambaHeadDim: 64,
    mambaGroups: 8,
    mambaHeads: null,
    tpCommOverlap: false,
    transformerImpl: 'transformer_engine',
    attnBackend: 'auto',
    ceFusion: false,
    ceFusionImpl: 'native',
    cudaGraphImpl: 'none',
    moeDispatcher: 'allgather',
    moeCapacity: null,
    moePadToCapacity: false,
    moeRouterDtype: null,
    moePermuteFusion: false,
    moeGroupedGemm: false,
  },
};
