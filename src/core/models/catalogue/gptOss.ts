// OpenAI gpt-oss 20B and 120B: MoE with MXFP4 experts, alternating 128-token sliding-window and full attention.
// Architecture: GptOssForCausalLM (the aiconfigurator copies; Megatron-Bridge examples/model_verification_cards/gpt-oss-20b,
// gpt-oss-120b).
import { exactParams } from '../published.js';
import type { CatalogueEntry } from '../types.js';
import { mxfp4ExpertWeights } from '../weights.js';
import { ckpt, entry, SRC } from './common.js';

const GPT_OSS = {
  hidden: 2880,
  ffn: 2880,
  moeFfn: 2880,
  heads: 64,
  kvHeads: 8,
  headDim: 64,
  vocab: 201088,
  tiedEmbeddings: false,
  gatedMlp: true,
  norm: 'rmsnorm',
  activation: 'swiglu',
  topK: 4,
  sharedExpertFfn: 0,
  denseLayersBeforeMoe: 0,
  slidingWindow: { window: 128, everyOther: true },
  attentionBias: 'all',
  attentionSinks: true,
  routerBias: true,
  expertBias: true,
} as const;

/** config.json quantization_config: quant_method mxfp4, modules_to_not_convert (attention, router, embeddings, head). */
const MXFP4_EXCLUDED = ['model.layers.*.self_attn', 'model.layers.*.mlp.router', 'model.embed_tokens', 'lm_head'];
const weights = (id: string) => mxfp4ExpertWeights(`${SRC.hf(id, 'aic')} quantization_config: quant_method mxfp4`, MXFP4_EXCLUDED);
const tokenizer = (id: string) =>
  ({ hfId: id, kind: 'tiktoken', vocab: 201088, source: `${SRC.hf(id, 'aic')} vocab_size (o200k_harmony)` }) as const;

export const GPT_OSS_MODELS: CatalogueEntry[] = [
  entry({
    id: 'gpt-oss-20b',
    family: 'gpt-oss',
    title: 'gpt-oss-20b',
    shape: { architecture: 'GptOssForCausalLM', ...GPT_OSS, layers: 24, experts: 32 },
    checkpoints: [ckpt('openai/gpt-oss-20b', weights('openai/gpt-oss-20b'))],
    aliases: ['GPTOSSConfig20B', 'GPTOSSProvider20B', 'gpt_oss_20b'],
    tokenizer: tokenizer('openai/gpt-oss-20b'),
    published: exactParams(
      '20_914_757_184',
      `${SRC.keras('gpt_oss_20b_en')}; gpt-oss model card "20.91B total parameters" (arXiv:2508.10925)`,
    ),
    sources: [
      SRC.hf('openai/gpt-oss-20b', 'aic') +
        ' (layer_types alternate sliding_attention/full_attention, sliding_window 128, attention_bias, sinks)',
      SRC.nemo('gpt_oss', 'GPTOSSConfig20B'),
    ],
  }),
  entry({
    id: 'gpt-oss-120b',
    family: 'gpt-oss',
    title: 'gpt-oss-120b',
    shape: { architecture: 'GptOssForCausalLM', ...GPT_OSS, layers: 36, experts: 128 },
    checkpoints: [ckpt('openai/gpt-oss-120b', weights('openai/gpt-oss-120b'))],
    aliases: ['GPTOSSConfig120B', 'GPTOSSProvider120B', 'gpt_oss_120b'],
    tokenizer: tokenizer('openai/gpt-oss-120b'),
    published: exactParams(
      '116_829_156_672',
      `${SRC.keras('gpt_oss_120b_en')}; gpt-oss model card "116.83B total parameters" (arXiv:2508.10925)`,
    ),
    sources: [SRC.hf('openai/gpt-oss-120b', 'aic'), SRC.nemo('gpt_oss', 'GPTOSSConfig120B')],
  }),
];
