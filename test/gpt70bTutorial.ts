// The Megatron-LM run of a public tutorial's log (gnosia93/slurm-on-aws lesson 9), as its estimator lines fix it: a
// GPT-style 70B (MHA, 4h GELU MLP, LayerNorm, biases, learned positions, tied embeddings, vocab 32000) at TP 4, PP 8 on
// 32 GPUs, local (non-TE) layers, dropout 0.1, no SP, full uniform recompute, no distributed optimizer. Shared by the
// measured-peak test and the test that reads the same run from its arguments.
import type { TrainingConfig } from '../src/core/memory/config.js';
import type { ModelShape } from '../src/core/memory/types.js';
import { trainingConfig } from './helpers.js';

export const GPT70B_TUTORIAL_SHAPE: ModelShape = {
  name: 'gpt-70b',
  layers: 80,
  hidden: 8192,
  ffn: 32768,
  heads: 64,
  kvHeads: 64,
  headDim: 128,
  vocab: 32000,
  tiedEmbeddings: true,
  gatedMlp: false,
  norm: 'layernorm',
  experts: 0,
  topK: 0,
  moeFfn: 0,
  sharedExpertFfn: 0,
  denseLayersBeforeMoe: 0,
  linearBias: true,
  positionEmbedding: 'learned_absolute',
  maxPositionEmbeddings: 4096,
  activation: 'gelu',
};

export const GPT70B_TUTORIAL_CONFIG: TrainingConfig = trainingConfig({
  globalBatch: 512,
  tp: 4,
  pp: 8,
  etp: 4,
  worldSize: 32,
  recompute: { granularity: 'full', method: 'uniform', numLayers: 1, modules: [] },
  distributedOptimizer: false,
  hiddenDropout: 0.1,
  attentionDropout: 0.1,
  attention: 'eager',
  transformerImpl: 'local',
});
