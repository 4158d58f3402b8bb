// Mistral AI: Mistral 7B (v0.1, v0.3), Mistral NeMo 12B, Mistral Small 3 24B, Mixtral 8x7B and 8x22B.
// Architectures (config.json architectures[0]): Mistral 7B v0.1 / v0.3 from mlc-llm model_preset.py@79d603f, Mistral NeMo
// 12B from the kevinstephano/thunder_model_blocks mistral/mistral_config.py copy, Mixtral from the aiconfigurator copies;
// Mistral Small 3 24B (a text-only release) is MistralForCausalLM per Megatron-Bridge docs/models/mistral/mistral.md with
// mistral/mistral_bridge.py@067f987 (register_bridge source=MistralForCausalLM).
import { exactParams, roundedParams } from '../published.js';
import type { CatalogueEntry } from '../types.js';
import { bf16Weights } from '../weights.js';
import { ckpts, DENSE, entry, SRC } from './common.js';

const MISTRAL = { gatedMlp: true, norm: 'rmsnorm', activation: 'swiglu', tiedEmbeddings: false } as const;
const bf16 = (id: string, copy: 'aic' | 'mlc') => bf16Weights(`${SRC.hf(id, copy)} torch_dtype bfloat16`);
const NEMO_12B_CONFIG =
  'HF mistralai/Mistral-Nemo-Base-2407 config.json (copy in kevinstephano/thunder_model_blocks mistral/mistral_config.py)';

export const MISTRAL_MODELS: CatalogueEntry[] = [
  entry({
    id: 'mistral-7b-v0.1',
    family: 'mistral',
    title: 'Mistral 7B v0.1',
    shape: {
      architecture: 'MistralForCausalLM',
      ...MISTRAL,
      ...DENSE,
      layers: 32,
      hidden: 4096,
      ffn: 14336,
      heads: 32,
      kvHeads: 8,
      headDim: 128,
      vocab: 32000,
      slidingWindow: { window: 4096, everyOther: false },
    },
    checkpoints: ckpts(bf16('mistralai/Mistral-7B-v0.1', 'mlc'), 'mistralai/Mistral-7B-v0.1', 'mistralai/Mistral-7B-Instruct-v0.1'),
    aliases: ['MistralConfig7B'],
    tokenizer: {
      hfId: 'mistralai/Mistral-7B-v0.1',
      kind: 'sentencepiece',
      vocab: 32000,
      source: SRC.hf('mistralai/Mistral-7B-v0.1', 'mlc') + ' vocab_size',
    },
    published: exactParams('7241732096', SRC.keras('mistral_7b_en')),
    sources: [
      SRC.hf('mistralai/Mistral-7B-v0.1', 'mlc'),
      SRC.nemo('mistral', 'MistralConfig7B (window_size [4096, 0]: a 4096-token sliding window in every layer)'),
    ],
  }),
  entry({
    id: 'mistral-7b-v0.3',
    family: 'mistral',
    title: 'Mistral 7B v0.3',
    shape: {
      architecture: 'MistralForCausalLM',
      ...MISTRAL,
      ...DENSE,
      layers: 32,
      hidden: 4096,
      ffn: 14336,
      heads: 32,
      kvHeads: 8,
      headDim: 128,
      vocab: 32768,
    },
    checkpoints: ckpts(bf16('mistralai/Mistral-7B-v0.3', 'mlc'), 'mistralai/Mistral-7B-v0.3', 'mistralai/Mistral-7B-Instruct-v0.3'),
    aliases: ['MistralModelProvider'],
    tokenizer: {
      hfId: 'mistralai/Mistral-7B-v0.3',
      kind: 'sentencepiece',
      vocab: 32768,
      source: SRC.hf('mistralai/Mistral-7B-v0.3', 'mlc') + ' vocab_size',
    },
    published: exactParams('7248023552', SRC.keras('mistral_0.3_7b_en')),
    sources: [
      SRC.hf('mistralai/Mistral-7B-v0.3', 'mlc') + ' (sliding_window null)',
      SRC.bridge('mistral/mistral_provider.py', 'MistralModelProvider'),
    ],
  }),
  entry({
    id: 'mistral-nemo-12b',
    family: 'mistral',
    title: 'Mistral NeMo 12B',
    shape: {
      architecture: 'MistralForCausalLM',
      ...MISTRAL,
      ...DENSE,
      layers: 40,
      hidden: 5120,
      ffn: 14336,
      heads: 32,
      kvHeads: 8,
      headDim: 128,
      vocab: 131072,
    },
    checkpoints: ckpts(
      bf16Weights(`${NEMO_12B_CONFIG} torch_dtype bfloat16`),
      'mistralai/Mistral-Nemo-Base-2407',
      'mistralai/Mistral-Nemo-Instruct-2407',
    ),
    aliases: ['MistralNeMoConfig12B', 'mistral_nemo_12b', 'mistral-nemo'],
    tokenizer: {
      hfId: 'mistralai/Mistral-Nemo-Base-2407',
      kind: 'tiktoken',
      vocab: 131072,
      source: `${NEMO_12B_CONFIG} vocab_size (Tekken tokenizer)`,
    },
    published: roundedParams(
      '12B',
      'Mistral AI, "Mistral NeMo: a 12B model" (mistral.ai/news/mistral-nemo, cited by NeMo MistralNeMoConfig12B)',
      {
        nominal: true,
      },
    ),
    sources: [NEMO_12B_CONFIG + ' (head_dim 128, sliding_window null)', SRC.nemo('mistral', 'MistralNeMoConfig12B')],
  }),
  entry({
    id: 'mistral-small-24b',
    family: 'mistral',
    title: 'Mistral Small 3 24B',
    shape: {
      architecture: 'MistralForCausalLM',
      ...MISTRAL,
      ...DENSE,
      layers: 40,
      hidden: 5120,
      ffn: 32768,
      heads: 32,
      kvHeads: 8,
      headDim: 128,
      vocab: 131072,
    },
    checkpoints: ckpts(
      bf16Weights(`${SRC.bridge('mistral/mistral_provider.py', 'MistralSmall3ModelProvider24B')} (params_dtype bfloat16)`),
      'mistralai/Mistral-Small-24B-Base-2501',
      'mistralai/Mistral-Small-24B-Instruct-2501',
    ),
    aliases: ['MistralSmall3ModelProvider24B', 'mistral-small-3'],
    tokenizer: {
      hfId: 'mistralai/Mistral-Small-24B-Instruct-2501',
      kind: 'tiktoken',
      vocab: 131072,
      source: SRC.bridge('mistral/mistral_provider.py', 'MistralSmall3ModelProvider24B vocab_size'),
    },
    published: roundedParams('24B', 'Model name (mistralai/Mistral-Small-24B-Base-2501)', { nominal: true }),
    sources: [SRC.bridge('mistral/mistral_provider.py', 'MistralSmall3ModelProvider24B (num_query_groups 8 from MistralModelProvider)')],
  }),
  entry({
    id: 'mixtral-8x7b',
    family: 'mixtral',
    title: 'Mixtral 8x7B',
    shape: {
      architecture: 'MixtralForCausalLM',
      ...MISTRAL,
      layers: 32,
      hidden: 4096,
      ffn: 14336,
      heads: 32,
      kvHeads: 8,
      headDim: 128,
      vocab: 32000,
      experts: 8,
      topK: 2,
      moeFfn: 14336,
      sharedExpertFfn: 0,
      denseLayersBeforeMoe: 0,
    },
    checkpoints: ckpts(bf16('mistralai/Mixtral-8x7B-v0.1', 'aic'), 'mistralai/Mixtral-8x7B-v0.1', 'mistralai/Mixtral-8x7B-Instruct-v0.1'),
    aliases: ['MixtralConfig8x7B', 'mixtral_8x7b'],
    tokenizer: {
      hfId: 'mistralai/Mixtral-8x7B-v0.1',
      kind: 'sentencepiece',
      vocab: 32000,
      source: SRC.hf('mistralai/Mixtral-8x7B-v0.1', 'aic') + ' vocab_size',
    },
    published: exactParams('46702792704', SRC.keras('mixtral_8_7b_en')),
    sources: [SRC.hf('mistralai/Mixtral-8x7B-v0.1', 'aic'), SRC.nemo('mixtral', 'MixtralConfig8x7B')],
  }),
  entry({
    id: 'mixtral-8x22b',
    family: 'mixtral',
    title: 'Mixtral 8x22B',
    shape: {
      architecture: 'MixtralForCausalLM',
      ...MISTRAL,
      layers: 56,
      hidden: 6144,
      ffn: 16384,
      heads: 48,
      kvHeads: 8,
      headDim: 128,
      vocab: 32000,
      experts: 8,
      topK: 2,
      moeFfn: 16384,
      sharedExpertFfn: 0,
      denseLayersBeforeMoe: 0,
    },
    checkpoints: ckpts(bf16('mistralai/Mixtral-8x22B-v0.1', 'aic'), 'mistralai/Mixtral-8x22B-v0.1'),
    aliases: ['MixtralConfig8x22B', 'mixtral_8x22b'],
    tokenizer: {
      hfId: 'mistralai/Mixtral-8x22B-v0.1',
      kind: 'sentencepiece',
      vocab: 32000,
      source: SRC.hf('mistralai/Mixtral-8x22B-v0.1', 'aic') + ' vocab_size',
    },
    published: roundedParams('141B', 'Mistral AI, "141B total, 39B active" (mixtral-8x22b announcement)', { nominal: true }),
    sources: [SRC.hf('mistralai/Mixtral-8x22B-v0.1', 'aic'), SRC.nemo('mixtral', 'MixtralConfig8x22B')],
    notes: ['Mixtral-8x22B-Instruct-v0.1 and v0.3 use the extended 32,768-token vocabulary (mistralai/mistral-inference README).'],
  }),
];
