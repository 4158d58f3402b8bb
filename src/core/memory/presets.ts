// Model presets (shapes from each model's Hugging Face config.json / NeMo config class), exact parameter
// counts, and the name → preset lookup used when a file names its model or tokenizer.
import type { ModelShape } from './types.js';

export type ModelPreset = ModelShape & {
  /** Where every number of the shape comes from. */
  source: string;
  /** The total the model's authors publish (exact where one is published, else the announced size); with its source in `source`. */
  publishedParams?: number;
};

const DENSE = { experts: 0, topK: 0, moeFfn: 0, sharedExpertFfn: 0, denseLayersBeforeMoe: 0 } as const;
const LLAMA3 = { kvHeads: 8, headDim: 128, vocab: 128256, tiedEmbeddings: false, gatedMlp: true, norm: 'rmsnorm', ...DENSE } as const;
const QWEN3 = { headDim: 128, vocab: 151936, tiedEmbeddings: false, gatedMlp: true, norm: 'rmsnorm', qkNorm: true } as const;
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
  topK: 4,
  sharedExpertFfn: 0,
  denseLayersBeforeMoe: 0,
  slidingWindow: { window: 128, everyOther: true },
  attentionBias: 'all',
  attentionSinks: true,
  routerBias: true,
  expertBias: true,
} as const;

export const MODEL_PRESETS: Record<string, ModelPreset> = {
  'llama3-8b': {
    ...LLAMA3,
    name: 'llama3-8b',
    layers: 32,
    hidden: 4096,
    ffn: 14336,
    heads: 32,
    source:
      'HF meta-llama/Meta-Llama-3-8B config.json; NeMo nemo/collections/llm/gpt/model/llama.py Llama3Config8B (Llama 3.1 8B has the same shape)',
    publishedParams: 8_030_261_248, // HF API safetensors.total of meta-llama/Llama-3.1-8B
  },
  'llama3-70b': {
    ...LLAMA3,
    name: 'llama3-70b',
    layers: 80,
    hidden: 8192,
    ffn: 28672,
    heads: 64,
    source: 'HF meta-llama/Meta-Llama-3-70B config.json; NeMo llama.py Llama3Config70B (Llama 3.1 70B has the same shape)',
    publishedParams: 70_553_706_496, // HF API safetensors.total of meta-llama/Llama-3.1-70B
  },
  'llama3-405b': {
    ...LLAMA3,
    name: 'llama3-405b',
    layers: 126,
    hidden: 16384,
    ffn: 53248,
    heads: 128,
    source: 'HF meta-llama/Llama-3.1-405B config.json; NeMo llama.py Llama31Config405B',
    publishedParams: 405_853_388_800, // HF API safetensors.total of meta-llama/Llama-3.1-405B
  },
  'llama3.3-70b': {
    ...LLAMA3,
    name: 'llama3.3-70b',
    layers: 80,
    hidden: 8192,
    ffn: 28672,
    heads: 64,
    source: 'HF meta-llama/Llama-3.3-70B-Instruct config.json (same architecture as NeMo llama.py Llama31Config70B)',
    publishedParams: 70_553_706_496, // same architecture as Llama 3.1 70B (HF API safetensors.total)
  },
  'mixtral-8x7b': {
    name: 'mixtral-8x7b',
    layers: 32,
    hidden: 4096,
    ffn: 14336,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    vocab: 32000,
    tiedEmbeddings: false,
    gatedMlp: true,
    norm: 'rmsnorm',
    experts: 8,
    topK: 2,
    moeFfn: 14336,
    sharedExpertFfn: 0,
    denseLayersBeforeMoe: 0,
    source: 'HF mistralai/Mixtral-8x7B-v0.1 config.json; NeMo nemo/collections/llm/gpt/model/mixtral.py MixtralConfig8x7B',
    publishedParams: 46.7e9, // "46.7B total parameters" (Mistral AI model description, mixtral-of-experts announcement)
  },
  'mixtral-8x22b': {
    name: 'mixtral-8x22b',
    layers: 56,
    hidden: 6144,
    ffn: 16384,
    heads: 48,
    kvHeads: 8,
    headDim: 128,
    vocab: 32000,
    tiedEmbeddings: false,
    gatedMlp: true,
    norm: 'rmsnorm',
    experts: 8,
    topK: 2,
    moeFfn: 16384,
    sharedExpertFfn: 0,
    denseLayersBeforeMoe: 0,
    source:
      'NeMo mixtral.py MixtralConfig8x22B; vocab 32000 per mistralai/mistral-inference README ("mixtral-8x22B-v0.3 is the same as Mixtral-8x22B-v0.1, but has an extended vocabulary of 32768 tokens")',
    publishedParams: 141e9, // "141B total, 39B active" (Mistral AI, mixtral-8x22b announcement)
  },
  'nemotron4-15b': {
    name: 'nemotron4-15b',
    layers: 32,
    hidden: 6144,
    ffn: 24576,
    heads: 48,
    kvHeads: 8,
    headDim: 128,
    vocab: 256000,
    tiedEmbeddings: false,
    gatedMlp: false,
    norm: 'layernorm',
    ...DENSE,
    source:
      'NeMo nemo/collections/llm/gpt/model/nemotron.py Nemotron4Config15B (squared-ReLU MLP, LayerNorm1p with bias, untied); vocab 256,000 (Nemotron-4 15B technical report, arXiv:2402.16819)',
    publishedParams: 15.7e9, // "3.2 billion embedding and 12.5 billion non-embedding parameters" (arXiv:2402.16819)
  },
  'nemotron4-340b': {
    name: 'nemotron4-340b',
    layers: 96,
    hidden: 18432,
    ffn: 73728,
    heads: 96,
    kvHeads: 8,
    headDim: 192,
    vocab: 256000,
    tiedEmbeddings: false,
    gatedMlp: false,
    norm: 'layernorm',
    ...DENSE,
    source:
      'NeMo nemotron.py Nemotron4Config340B (head_dim = 18432/96); vocab 256,000 (Nemotron-4 340B technical report, arXiv:2406.11704)',
    publishedParams: 341e9, // "9.4 billion embedding and 331.6 billion non-embedding parameters" (arXiv:2406.11704)
  },
  'deepseek-v3': {
    name: 'deepseek-v3',
    layers: 61,
    hidden: 7168,
    ffn: 18432,
    heads: 128,
    kvHeads: 128,
    headDim: 192,
    vocab: 129280,
    tiedEmbeddings: false,
    gatedMlp: true,
    norm: 'rmsnorm',
    experts: 256,
    topK: 8,
    moeFfn: 2048,
    sharedExpertFfn: 2048,
    denseLayersBeforeMoe: 3,
    mla: { kvLoraRank: 512, qkRopeHeadDim: 64, qLoraRank: 1536, qkNopeHeadDim: 128, vHeadDim: 128 },
    routerBias: true,
    source:
      'HF deepseek-ai/DeepSeek-V3 config.json (DeepSeek-R1 shares it); NeMo nemo/collections/llm/gpt/model/deepseek.py DeepSeekV3Config. headDim = qk_nope + qk_rope. The 1 MTP layer (num_nextn_predict_layers) is not counted',
    publishedParams: 671e9, // "671B total parameters, 37B activated" (DeepSeek-V3 technical report; HF's 685B adds the 14B MTP module)
  },
  'deepseek-v2-lite': {
    name: 'deepseek-v2-lite',
    layers: 27,
    hidden: 2048,
    ffn: 10944,
    heads: 16,
    kvHeads: 16,
    headDim: 192,
    vocab: 102400,
    tiedEmbeddings: false,
    gatedMlp: true,
    norm: 'rmsnorm',
    experts: 64,
    topK: 6,
    moeFfn: 1408,
    sharedExpertFfn: 2816,
    denseLayersBeforeMoe: 1,
    mla: { kvLoraRank: 512, qkRopeHeadDim: 64, qkNopeHeadDim: 128, vHeadDim: 128 },
    source: 'HF deepseek-ai/DeepSeek-V2-Lite config.json; NeMo deepseek.py DeepSeekV2LiteConfig (no q LoRA, 2 shared experts of 1408)',
    publishedParams: 15.7e9, // "15.7B total parameters, 2.4B activated" (DeepSeek-V2 README)
  },
  'qwen3-8b': {
    ...QWEN3,
    ...DENSE,
    name: 'qwen3-8b',
    layers: 36,
    hidden: 4096,
    ffn: 12288,
    heads: 32,
    kvHeads: 8,
    source: 'HF Qwen/Qwen3-8B config.json; NeMo nemo/collections/llm/gpt/model/qwen3.py Qwen3Config8B (q/k RMSNorm, untied)',
    publishedParams: 8.2e9, // "Number of Parameters: 8.2B; Non-Embedding: 6.95B" (Qwen3-8B model card)
  },
  'qwen3-32b': {
    ...QWEN3,
    ...DENSE,
    name: 'qwen3-32b',
    layers: 64,
    hidden: 5120,
    ffn: 25600,
    heads: 64,
    kvHeads: 8,
    source: 'HF Qwen/Qwen3-32B config.json; NeMo qwen3.py Qwen3Config32B',
    publishedParams: 32.8e9, // "Number of Parameters: 32.8B; Non-Embedding: 31.2B" (Qwen3-32B model card)
  },
  'qwen3-235b-a22b': {
    ...QWEN3,
    name: 'qwen3-235b-a22b',
    layers: 94,
    hidden: 4096,
    ffn: 12288,
    heads: 64,
    kvHeads: 4,
    experts: 128,
    topK: 8,
    moeFfn: 1536,
    sharedExpertFfn: 0,
    denseLayersBeforeMoe: 0,
    source:
      'HF Qwen/Qwen3-235B-A22B config.json (every layer MoE: decoder_sparse_step 1, mlp_only_layers []); NeMo qwen3.py Qwen3Config235B_A22B',
    publishedParams: 235e9, // "235B total, 22B activated" (Qwen3-235B-A22B model card)
  },
  'qwen3-30b-a3b': {
    ...QWEN3,
    name: 'qwen3-30b-a3b',
    layers: 48,
    hidden: 2048,
    ffn: 6144,
    heads: 32,
    kvHeads: 4,
    experts: 128,
    topK: 8,
    moeFfn: 768,
    sharedExpertFfn: 0,
    denseLayersBeforeMoe: 0,
    source:
      'HF Qwen/Qwen3-30B-A3B config.json (every layer MoE, 128 experts top-8, moe_intermediate_size 768); NeMo qwen3.py Qwen3Config30B_A3B',
    publishedParams: 30.5e9, // "Number of Parameters: 30.5B; Non-Embedding: 29.9B" (Qwen3-30B-A3B model card)
  },
  'moonlight-16b-a3b': {
    name: 'moonlight-16b-a3b',
    layers: 27,
    hidden: 2048,
    ffn: 11264,
    heads: 16,
    kvHeads: 16,
    headDim: 192,
    vocab: 163840,
    tiedEmbeddings: false,
    gatedMlp: true,
    norm: 'rmsnorm',
    experts: 64,
    topK: 6,
    moeFfn: 1408,
    sharedExpertFfn: 2816,
    sharedExperts: 2,
    denseLayersBeforeMoe: 1,
    mla: { kvLoraRank: 512, qkRopeHeadDim: 64, qkNopeHeadDim: 128, vHeadDim: 128 },
    routerBias: true,
    source:
      'HF moonshotai/Moonlight-16B-A3B config.json (DeepseekV3 architecture: MLA without q LoRA, 64 experts top-6, 2 shared experts, first_k_dense_replace 1, e_score_correction_bias)',
    publishedParams: 16e9, // "Moonlight-16B-A3B: 16B total, 3B activated" (Moonlight README model table)
  },
  'gpt-oss-20b': {
    ...GPT_OSS,
    name: 'gpt-oss-20b',
    layers: 24,
    experts: 32,
    source:
      'HF openai/gpt-oss-20b config.json (layer_types alternate sliding_attention/full_attention, sliding_window 128, attention_bias, sinks); NeMo nemo/collections/llm/gpt/model/gpt_oss.py GPTOSSConfig20B',
    publishedParams: 20.91e9, // "20.91B total parameters" (gpt-oss model card, arXiv:2508.10925)
  },
  'gpt-oss-120b': {
    ...GPT_OSS,
    name: 'gpt-oss-120b',
    layers: 36,
    experts: 128,
    source: 'HF openai/gpt-oss-120b config.json; NeMo gpt_oss.py GPTOSSConfig120B',
    publishedParams: 116.83e9, // "116.83B total parameters" (gpt-oss model card, arXiv:2508.10925)
  },
};

/** Other names for a preset, as compact keys (see `compactKey`). */
const ALIASES: Record<string, string> = {
  // HF ids (after the organisation, `meta-` and qualifiers are dropped) and NeMo recipe / config-class names.
  llama38b: 'llama3-8b',
  'llama3.18b': 'llama3-8b',
  llama318b: 'llama3-8b',
  llama3config8b: 'llama3-8b',
  llama31config8b: 'llama3-8b',
  llama370b: 'llama3-70b',
  'llama3.170b': 'llama3-70b',
  llama3170b: 'llama3-70b',
  llama3config70b: 'llama3-70b',
  llama31config70b: 'llama3-70b',
  llama3405b: 'llama3-405b',
  'llama3.1405b': 'llama3-405b',
  llama31405b: 'llama3-405b',
  llama31config405b: 'llama3-405b',
  'llama3.370b': 'llama3.3-70b',
  llama3370b: 'llama3.3-70b',
  mixtral8x7b: 'mixtral-8x7b',
  mixtralconfig8x7b: 'mixtral-8x7b',
  mixtral8x22b: 'mixtral-8x22b',
  mixtralconfig8x22b: 'mixtral-8x22b',
  nemotron415b: 'nemotron4-15b',
  nemotron4config15b: 'nemotron4-15b',
  nemotron4340b: 'nemotron4-340b',
  nemotron4config340b: 'nemotron4-340b',
  deepseekv3: 'deepseek-v3',
  deepseekr1: 'deepseek-v3',
  deepseekv3config: 'deepseek-v3',
  deepseekv2lite: 'deepseek-v2-lite',
  deepseekv2liteconfig: 'deepseek-v2-lite',
  qwen38b: 'qwen3-8b',
  qwen3config8b: 'qwen3-8b',
  qwen332b: 'qwen3-32b',
  qwen3config32b: 'qwen3-32b',
  qwen3235ba22b: 'qwen3-235b-a22b',
  qwen3config235ba22b: 'qwen3-235b-a22b',
  qwen330ba3b: 'qwen3-30b-a3b',
  qwen3config30ba3b: 'qwen3-30b-a3b',
  moonlight16ba3b: 'moonlight-16b-a3b',
  moonlight16b: 'moonlight-16b-a3b',
  gptoss20b: 'gpt-oss-20b',
  gptossconfig20b: 'gpt-oss-20b',
  gptoss120b: 'gpt-oss-120b',
  gptossconfig120b: 'gpt-oss-120b',
};

/** Release / checkpoint qualifiers that do not change the architecture (`-Instruct`, `-FP8`, `-v0.1`, `-2507`, …). */
const QUALIFIER = /[-_](instruct|chat|base|hf|it|fp8|fp4|nvfp4|mxfp4|bf16|awq|gptq|dynamic|thinking|v0\.\d+|\d{4})$/;

/** Lower-case basename with org, `meta-` prefix and qualifiers removed, then only [a-z0-9.] kept. */
function compactKey(name: string): string {
  let s = name.trim().toLowerCase();
  s = s.slice(s.lastIndexOf('/') + 1);
  if (s.includes('config') && s.includes('.')) s = s.slice(s.lastIndexOf('.') + 1); // nemo.collections…llama.Llama3Config8B
  s = s.replace(/^meta-/, '');
  for (let prev = ''; prev !== s;) [prev, s] = [s, s.replace(QUALIFIER, '')];
  return s.replace(/[^a-z0-9.]/g, '');
}

/** The preset id a file's model, checkpoint, tokenizer or config-class name stands for; case-insensitive. */
export function findPreset(nameOrAlias: string): string | undefined {
  // Every estimate asks for the same few names (tokenizer, model, `_target_`): remember the answers (bounded).
  if (PRESET_CACHE.has(nameOrAlias)) return PRESET_CACHE.get(nameOrAlias);
  const id = findPresetUncached(nameOrAlias);
  if (PRESET_CACHE.size >= 256) PRESET_CACHE.clear();
  PRESET_CACHE.set(nameOrAlias, id);
  return id;
}
const PRESET_CACHE = new Map<string, string | undefined>();
/** compactKey of every preset id, computed once (it was recomputed for all presets on each miss). */
let PRESET_KEYS: Map<string, string> | undefined;

function findPresetUncached(nameOrAlias: string): string | undefined {
  if (!nameOrAlias.trim()) return undefined;
  const lower = nameOrAlias.trim().toLowerCase();
  if (Object.hasOwn(MODEL_PRESETS, lower)) return lower;
  const key = compactKey(nameOrAlias);
  if (Object.hasOwn(ALIASES, key)) return ALIASES[key];
  if (!PRESET_KEYS) {
    PRESET_KEYS = new Map();
    // First preset wins for a shared key, as `find` over the ids did.
    for (const id of Object.keys(MODEL_PRESETS)) if (!PRESET_KEYS.has(compactKey(id))) PRESET_KEYS.set(compactKey(id), id);
  }
  return PRESET_KEYS.get(key);
}

// Parameter counts live in params.ts (the one inventory); re-exported for the callers that look them up by preset.
export { countParams, type ParamCount } from './params.js';
