// Zhipu GLM: ChatGLM3 6B, GLM-4 9B, GLM-4.5 and GLM-4.5-Air (MoE with MTP).
import { roundedParams } from '../published.js';
import type { CatalogueEntry } from '../types.js';
import { assumedBf16Weights, fp16Weights } from '../weights.js';
import { ckpt, ckpts, DENSE, entry, SRC } from './common.js';

const GLM = { gatedMlp: true, norm: 'rmsnorm', activation: 'swiglu', tiedEmbeddings: false, attentionBias: 'qkv' } as const;
const GLM45 = {
  ...GLM,
  heads: 96,
  kvHeads: 8,
  headDim: 128,
  vocab: 151552,
  topK: 8,
  sharedExperts: 1,
  routerBias: true,
  mtpLayers: 1,
} as const;
const GLM45_TOKENIZER = (hfId: string) =>
  ({ hfId, kind: 'bpe', vocab: 151552, source: SRC.bridge('glm/glm45_provider.py', 'GLMMoEModelProvider vocab_size') }) as const;
const GLM_BF16 = assumedBf16Weights('Megatron-Bridge converts the GLM-4.5 checkpoints as BF16');

export const GLM_MODELS: CatalogueEntry[] = [
  entry({
    id: 'chatglm3-6b',
    family: 'glm',
    title: 'ChatGLM3 6B',
    shape: { ...GLM, ...DENSE, layers: 28, hidden: 4096, ffn: 13696, heads: 32, kvHeads: 2, headDim: 128, vocab: 65024 },
    checkpoints: [ckpt('THUDM/chatglm3-6b', fp16Weights(`${SRC.hf('THUDM/chatglm3-6b', 'mlc')} torch_dtype float16`))],
    aliases: ['ChatGLM3Config6B', 'ChatGLM2Config6B', 'chatglm3_6b', 'chatglm2-6b'],
    tokenizer: {
      hfId: 'THUDM/chatglm3-6b',
      kind: 'sentencepiece',
      vocab: 65024,
      source: SRC.hf('THUDM/chatglm3-6b', 'mlc') + ' padded_vocab_size',
    },
    published: roundedParams('6B', 'Model name (THUDM/chatglm3-6b)', { nominal: true }),
    sources: [
      SRC.hf('THUDM/chatglm3-6b', 'mlc') +
        ' (num_layers 28, ffn_hidden_size 13696, multi_query_group_num 2, kv_channels 128, add_qkv_bias)',
      SRC.nemo('chatglm', 'ChatGLM3Config6B, ChatGLM2Config6B (same shape)'),
    ],
  }),
  entry({
    id: 'glm4-9b',
    family: 'glm',
    title: 'GLM-4 9B',
    shape: { ...GLM, ...DENSE, layers: 40, hidden: 4096, ffn: 13696, heads: 32, kvHeads: 2, headDim: 128, vocab: 151552 },
    checkpoints: ckpts(
      assumedBf16Weights('the GLM-4 releases are BF16'),
      'THUDM/glm-4-9b-chat-hf',
      'THUDM/glm-4-9b-chat',
      'THUDM/glm-4-9b',
    ),
    aliases: ['glm-4-9b'],
    tokenizer: {
      hfId: 'THUDM/glm-4-9b-chat',
      kind: 'tiktoken',
      vocab: 151552,
      source: SRC.transformers('GlmConfig') + ' vocab_size ("glm-4-9b-chat style")',
    },
    published: roundedParams('9B', 'Model name (THUDM/glm-4-9b)', { nominal: true }),
    sources: [
      SRC.transformers('GlmConfig') +
        ' ("glm-4-9b-chat style": 40 layers, 4096 hidden, 13696 intermediate, 32 heads, 2 KV heads, attention_bias)',
    ],
    notes: ['Half of each head is rotated (partial_rotary_factor 0.5); it does not change the memory shape.'],
  }),
  entry({
    id: 'glm4.5-355b-a32b',
    family: 'glm',
    title: 'GLM-4.5 355B-A32B',
    shape: {
      ...GLM45,
      layers: 92,
      hidden: 5120,
      ffn: 12288,
      experts: 160,
      moeFfn: 1536,
      sharedExpertFfn: 1536,
      denseLayersBeforeMoe: 3,
      qkNorm: true,
    },
    checkpoints: ckpts(GLM_BF16, 'zai-org/GLM-4.5', 'zai-org/GLM-4.5-Base'),
    aliases: ['GLM45ModelProvider355B', 'glm-4.5', 'glm4.5'],
    tokenizer: GLM45_TOKENIZER('zai-org/GLM-4.5'),
    published: roundedParams('355B', 'Megatron-Bridge GLM45ModelProvider355B docstring "GLM 4.5 355B-A32B"', { nominal: true }),
    sources: [
      SRC.bridge(
        'glm/glm45_provider.py',
        'GLMMoEModelProvider, GLM45ModelProvider355B (first three layers dense, qk_layernorm, mtp_num_layers 1)',
      ),
    ],
  }),
  entry({
    id: 'glm4.5-air-106b-a12b',
    family: 'glm',
    title: 'GLM-4.5-Air 106B-A12B',
    shape: {
      ...GLM45,
      layers: 46,
      hidden: 4096,
      ffn: 10944,
      experts: 128,
      moeFfn: 1408,
      sharedExpertFfn: 1408,
      denseLayersBeforeMoe: 1,
    },
    checkpoints: ckpts(GLM_BF16, 'zai-org/GLM-4.5-Air', 'zai-org/GLM-4.5-Air-Base'),
    aliases: ['GLM45AirModelProvider106B', 'glm-4.5-air', 'glm4.5-air'],
    tokenizer: GLM45_TOKENIZER('zai-org/GLM-4.5-Air'),
    published: roundedParams('106B', 'Megatron-Bridge GLM45AirModelProvider106B docstring "GLM 4.5 Air 106B-A12B"', { nominal: true }),
    sources: [SRC.bridge('glm/glm45_provider.py', 'GLMMoEModelProvider, GLM45AirModelProvider106B (first layer dense, no qk_layernorm)')],
  }),
];
