// Megatron-LM run configs (tests/functional_tests/test_cases/*/model_config.yaml and launch scripts written the same
// way): the command-line arguments of pretrain_gpt.py under MODEL_ARGS, `--flag: value`, `true` for a switch.
// Arguments and defaults: megatron/training/arguments.py (argparse), read as megatron-core receives them.
import type { RecipeDoc } from '../document.js';
import { lookup } from '../tree.js';
import type { TrainingValues } from './fields.js';
import type { TrainingTable } from './training.js';

const arg = (flag: string) => [`MODEL_ARGS.--${flag}`];

/** A switch is on when written `true` (the test harness passes `--flag`), off when absent or false. */
function switchOn(doc: RecipeDoc, flag: string): boolean | undefined {
  const n = lookup(doc.root, ['MODEL_ARGS', `--${flag}`])?.node;
  return n?.kind === 'scalar' && typeof n.value === 'boolean' ? n.value : undefined;
}

/**
 * Values no single argument holds: tied embeddings are the absence of --untie-…, a gated MLP is --swiglu, and BF16
 * accumulates and all-reduces gradients in fp32 unless --grad-reduce-in-bf16 (arguments.py validate_args: "bfloat16
 * requires gradient accumulation and all-reduce to be done in fp32").
 */
function derive(doc: RecipeDoc): TrainingValues {
  const untie = switchOn(doc, 'untie-embeddings-and-output-weights');
  const swiglu = switchOn(doc, 'swiglu');
  const fp32Grads =
    switchOn(doc, 'accumulate-allreduce-grads-in-fp32') === undefined && switchOn(doc, 'bf16') === true
      ? { gradFp32: switchOn(doc, 'grad-reduce-in-bf16') !== true }
      : {};
  return {
    ...(untie !== undefined ? { tied: !untie } : {}),
    ...(swiglu !== undefined ? { gated: swiglu, activation: swiglu ? 'swiglu' : 'gelu' } : {}),
    ...fp32Grads,
  };
}

export const MEGATRON_LM: TrainingTable = {
  family: 'megatron-lm',
  derive,
  paths: {
    tp: arg('tensor-model-parallel-size'),
    pp: arg('pipeline-model-parallel-size'),
    vpp: arg('virtual-pipeline-model-parallel-size'),
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
    tokType: arg('tokenizer-type'),
    tokModel: arg('tokenizer-model'),
    recomputeGranularity: arg('recompute-granularity'),
    recomputeMethod: arg('recompute-method'),
    recomputeLayers: arg('recompute-num-layers'),
    recomputeModules: arg('recompute-modules'),
    fp16: arg('fp16'),
    bf16: arg('bf16'),
    fp8: arg('fp8-format'),
    fp8Recipe: arg('fp8-recipe'),
    fp8Param: arg('fp8-param-gather'),
    fp4: arg('fp4-format'),
    fp4Recipe: arg('fp4-recipe'),
    distOpt: arg('use-distributed-optimizer'),
    gradFp32: arg('accumulate-allreduce-grads-in-fp32'),
    perTokenLoss: arg('calculate-per-token-loss'),
  },
  // megatron/training/arguments.py argparse defaults (a switch absent is off).
  defaults: {
    tp: 1,
    pp: 1,
    cp: 1,
    ep: 1,
    vpp: null,
    sp: false,
    overlapP2p: false,
    useTpPpDpMapping: false,
    embedInSplit: false,
    lossInSplit: false,
    recomputeGranularity: null,
    distOpt: false,
    gradFp32: false,
    fp16: false,
    bf16: false,
    fp8: null,
    tied: true,
    gated: false,
    vocabDivisible: 128,
    norm: 'LayerNorm',
    hiddenDropout: 0.1,
    attnDropout: 0.1,
  },
};
