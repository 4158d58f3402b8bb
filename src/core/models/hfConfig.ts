// A Hugging Face config.json (+ hf_quant_config.json / quantization_config) → the memory model's ModelShape, the weight
// format, and every value that had to be assumed. Key names and their defaults follow the transformers configuration
// classes (LlamaConfig, Qwen2/3(Moe/Next)Config, DeepseekV3Config, GptOssConfig, Gemma2/3Config, Phi3Config,
// NemotronHConfig, Starcoder2Config, FalconConfig, GlmConfig, …). Unknown architectures are read with the common keys
// and their assumptions listed; nothing here throws.
import { hasDsaIndexer, mtpDepthPattern } from '../memory/params.js';
import type { Assumption, ModelShape } from '../memory/types.js';
import { assumeVocab } from './tokenizers.js';
import type { ConfigShape } from './types.js';
import { checkpointFile, weightFormatFromConfig } from './weights.js';
import { unmodelledByType, unmodelledReason } from './unmodelled.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const posInt = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
const nonNegInt = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Architecture families whose config keys and defaults differ. */
type Kind =
  | 'llama'
  | 'llama4'
  | 'mistral'
  | 'mixtral'
  | 'qwen2'
  | 'qwen2_moe'
  | 'qwen3'
  | 'qwen3_moe'
  | 'qwen3_next'
  | 'deepseek'
  | 'gpt_oss'
  | 'gemma'
  | 'gemma2'
  | 'gemma3'
  | 'gemma4'
  | 'phi3'
  | 'nemotron'
  | 'nemotron_h'
  | 'starcoder2'
  | 'falcon'
  | 'glm'
  | 'chatglm'
  | 'glm4_moe'
  | 'baichuan'
  | 'gpt2'
  | 'minimax_m2'
  | 'unknown';

/** model_type → family (transformers `model_type` of each configuration class). */
const KINDS: Record<string, Kind> = {
  llama: 'llama',
  llama4: 'llama4',
  llama4_text: 'llama4',
  mistral: 'mistral',
  mixtral: 'mixtral',
  qwen2: 'qwen2',
  qwen2_moe: 'qwen2_moe',
  qwen3: 'qwen3',
  qwen3_moe: 'qwen3_moe',
  qwen3_next: 'qwen3_next',
  qwen3_5: 'qwen3_next',
  qwen3_5_text: 'qwen3_next',
  qwen3_5_moe: 'qwen3_next',
  qwen3_5_moe_text: 'qwen3_next',
  deepseek_v2: 'deepseek',
  deepseek_v3: 'deepseek',
  // DeepSeek-V3.2 and GLM-5 (GlmMoeDsa): the DeepSeek-V3 MLA + MoE keys with the DSA indexer's index_* keys.
  deepseek_v32: 'deepseek',
  glm_moe_dsa: 'deepseek',
  kimi_k2: 'deepseek',
  gpt_oss: 'gpt_oss',
  gemma: 'gemma',
  gemma2: 'gemma2',
  gemma3: 'gemma3',
  gemma3_text: 'gemma3',
  gemma4: 'gemma4',
  gemma4_text: 'gemma4',
  phi3: 'phi3',
  nemotron: 'nemotron',
  nemotron_h: 'nemotron_h',
  starcoder2: 'starcoder2',
  falcon: 'falcon',
  glm: 'glm',
  glm4: 'glm',
  chatglm: 'chatglm',
  glm4_moe: 'glm4_moe',
  baichuan: 'baichuan',
  gpt2: 'gpt2',
  gpt_bigcode: 'gpt2',
  minimax_m2: 'minimax_m2',
};

/** `architectures[0]` → family, for configs whose model_type is missing or custom. */
const ARCH_KINDS: [RegExp, Kind][] = [
  [/^Llama4/, 'llama4'],
  [/^(Llama|TinyLlama)/, 'llama'],
  [/^Mixtral/, 'mixtral'],
  [/^Mistral/, 'mistral'],
  [/^Qwen2Moe/, 'qwen2_moe'],
  [/^Qwen2/, 'qwen2'],
  [/^Qwen3Moe/, 'qwen3_moe'],
  [/^Qwen3(Next|_5)/, 'qwen3_next'],
  [/^Qwen3/, 'qwen3'],
  [/^Deepseek(V2|V3)/, 'deepseek'],
  [/^GptOss/, 'gpt_oss'],
  [/^Gemma4/, 'gemma4'],
  [/^Gemma3/, 'gemma3'],
  [/^Gemma2/, 'gemma2'],
  [/^Gemma/, 'gemma'],
  [/^Phi3/, 'phi3'],
  [/^NemotronH/, 'nemotron_h'],
  [/^Nemotron/, 'nemotron'],
  [/^Starcoder2/, 'starcoder2'],
  [/^Falcon/, 'falcon'],
  [/^Glm4Moe/, 'glm4_moe'],
  [/^GlmMoeDsa/, 'deepseek'],
  [/^Glm/, 'glm'],
  [/^ChatGLM/, 'chatglm'],
  [/^Baichuan/, 'baichuan'],
  [/^(GPT2|GPTBigCode)/, 'gpt2'],
  [/^MiniMaxM2/, 'minimax_m2'],
];

/** Families whose MLP has no gate (transformers modeling files: c_fc/c_proj or up/down only). */
const UNGATED = new Set<Kind>(['nemotron', 'nemotron_h', 'starcoder2', 'falcon', 'gpt2']);
/** Families with LayerNorm rather than RMSNorm. */
const LAYERNORM = new Set<Kind>(['nemotron', 'starcoder2', 'falcon', 'gpt2']);
/** transformers `tie_word_embeddings` defaults where the class does not default to False. */
const TIED_BY_DEFAULT = new Set<Kind>(['gemma', 'gemma2', 'gemma3', 'gemma4', 'starcoder2', 'falcon', 'gpt2']);
/** Families with per-head q/k RMSNorm weights (q_norm / k_norm modules). */
const QK_NORM = new Set<Kind>(['qwen3', 'qwen3_moe', 'qwen3_next', 'gemma3', 'gemma4']);

export type HfConfigResult = ({ ok: true } & ConfigShape) | { ok: false; reason: string };

/**
 * The shape of the model a config.json describes. `quantJson` is the parsed hf_quant_config.json when the checkpoint has
 * one; `where` names the checkpoint in sources (its directory or HF id).
 */
export function fromHfConfig(json: unknown, quantJson?: unknown, where = ''): HfConfigResult {
  const src = checkpointFile(where, 'config.json');
  if (!isObj(json)) return { ok: false, reason: `${src} is not a JSON object` };
  const top = json;
  // Multimodal checkpoints nest the language model (Llama 4, Gemma 3, Qwen3.5, Mistral 3).
  const nested = ['text_config', 'llm_config', 'language_config'].map((k) => top[k]).find(isObj);
  const c: Obj = nested ? { ...top, ...nested } : top;
  const assumptions: Assumption[] = [];
  const notes: string[] = [];
  const assume = (what: string, why: string) => assumptions.push({ what, source: why, provenance: 'default' });

  const archs = Array.isArray(top.architectures) ? top.architectures.filter((a): a is string => typeof a === 'string') : [];
  const modelType = str(nested?.model_type) ?? str(c.model_type) ?? '';
  const kind: Kind = KINDS[modelType] ?? ARCH_KINDS.find(([re]) => archs.some((a) => re.test(a)))?.[1] ?? 'unknown';
  const architecture = archs[0] ?? (modelType || 'unknown');
  // The checkpoint's own type first: Kimi K3 (kimi_k3) nests a kimi_linear language model.
  const unmodelled = unmodelledByType(str(top.model_type) ?? '') ?? unmodelledByType(modelType);
  if (unmodelled)
    notes.push(
      `${unmodelled.title} is ${unmodelledReason(unmodelled)}; the estimate reads the common config.json keys and leaves those parts out`,
    );
  else if (kind === 'unknown')
    notes.push(`architecture ${architecture} is not one Recipe Lens reads specifically; the common config.json keys were used`);
  if (nested) notes.push('multimodal checkpoint: the language model only (the vision/audio encoders are not in the shape)');

  const pattern = str(c.hybrid_override_pattern) ?? blockTypePattern(c.layers_block_type);
  const layers =
    posInt(c.num_hidden_layers) ??
    posInt(c.num_layers) ??
    posInt(c.n_layer) ??
    posInt(c.n_layers) ??
    (pattern ? pattern.length : undefined);
  const hidden = posInt(c.hidden_size) ?? posInt(c.n_embd) ?? posInt(c.d_model);
  const heads = posInt(c.num_attention_heads) ?? posInt(c.n_head) ?? posInt(c.n_heads);
  const missing = [!layers && 'num_hidden_layers', !hidden && 'hidden_size', !heads && 'num_attention_heads'].filter(Boolean);
  if (!layers || !hidden || !heads)
    return { ok: false, reason: `${src} has no ${missing.join(', ')}: not a decoder model config Recipe Lens can read` };

  // Attention heads: GQA/MQA keys of each family; MHA when none is given (transformers: num_key_value_heads defaults to num_attention_heads).
  let kvHeads = posInt(c.num_key_value_heads) ?? posInt(c.num_kv_heads) ?? posInt(c.n_head_kv);
  if (kind === 'chatglm' && c.multi_query_attention === true) kvHeads ??= posInt(c.multi_query_group_num);
  if (kind === 'falcon' && kvHeads === undefined && c.new_decoder_architecture !== true && c.multi_query !== false) kvHeads = 1;
  if (kvHeads === undefined) {
    kvHeads = heads;
    if (kind === 'unknown')
      assume(`kv heads = ${heads}`, `${src} names no num_key_value_heads: multi-head attention (the transformers default)`);
  }
  if (heads % kvHeads !== 0) notes.push(`num_attention_heads ${heads} is not a multiple of the ${kvHeads} KV heads`);

  const kvLora = posInt(c.kv_lora_rank);
  const mla: ModelShape['mla'] =
    kvLora !== undefined
      ? {
          kvLoraRank: kvLora,
          qkRopeHeadDim: posInt(c.qk_rope_head_dim) ?? 64,
          qkNopeHeadDim: posInt(c.qk_nope_head_dim) ?? 128,
          vHeadDim: posInt(c.v_head_dim) ?? 128,
          ...(posInt(c.q_lora_rank) ? { qLoraRank: posInt(c.q_lora_rank)! } : {}),
        }
      : undefined;
  if (mla && (posInt(c.qk_rope_head_dim) === undefined || posInt(c.qk_nope_head_dim) === undefined || posInt(c.v_head_dim) === undefined))
    assume('MLA head dims qk_rope 64, qk_nope 128, v 128', `${src} leaves some out: the transformers DeepseekV3Config defaults`);
  const headDim = mla ? mla.qkNopeHeadDim + mla.qkRopeHeadDim : (posInt(c.head_dim) ?? posInt(c.kv_channels) ?? hidden / heads);
  if (!Number.isInteger(headDim)) notes.push(`head dimension ${hidden} / ${heads} is not an integer`);

  // MoE. Gemma4TextConfig builds experts only with enable_moe_block and names top-k `top_k_experts`.
  const experts =
    kind === 'gemma4' && c.enable_moe_block !== true
      ? 0
      : (nonNegInt(c.n_routed_experts) ?? nonNegInt(c.num_local_experts) ?? nonNegInt(c.num_experts) ?? nonNegInt(c.moe_num_experts) ?? 0);
  const topK = experts
    ? (posInt(c.num_experts_per_tok) ?? posInt(c.experts_per_token) ?? posInt(c.moe_topk) ?? posInt(c.top_k_experts) ?? 0)
    : 0;
  if (experts && !topK) assume('top-k = 1', `${src} has ${experts} experts but no num_experts_per_tok`);
  // Mixtral, gpt-oss and Llama 4 give the expert width as intermediate_size.
  const moeFfn = experts ? (posInt(c.moe_intermediate_size) ?? posInt(c.intermediate_size) ?? 0) : 0;

  // Dense MLP width: Llama 4's dense layers use intermediate_size_mlp; some configs name no dense width at all.
  let ffn =
    kind === 'llama4'
      ? (posInt(c.intermediate_size_mlp) ?? posInt(c.intermediate_size))
      : (posInt(c.intermediate_size) ?? posInt(c.ffn_hidden_size) ?? posInt(c.n_inner) ?? posInt(c.ffn_dim));
  if (ffn === undefined) {
    if (experts && moeFfn) ffn = moeFfn;
    else {
      ffn = 4 * hidden;
      const why = kind === 'falcon' || kind === 'gpt2' ? `the ${architecture} MLP is 4 × hidden_size` : `${src} names no intermediate_size`;
      if (kind === 'falcon' || kind === 'gpt2') notes.push(why);
      else assume(`ffn = ${ffn} (4 × hidden)`, why);
    }
  }

  let sharedExperts = 0;
  let sharedExpertFfn = 0;
  if (experts) {
    const nShared = nonNegInt(c.n_shared_experts);
    const sharedWidth = posInt(c.moe_shared_expert_intermediate_size) ?? posInt(c.shared_expert_intermediate_size);
    if (sharedWidth) {
      sharedExperts = nShared || 1;
      sharedExpertFfn = sharedWidth;
    } else if (nShared) {
      sharedExperts = nShared;
      sharedExpertFfn = nShared * moeFfn;
    } else if (kind === 'llama4') {
      // Llama4TextMoe: one shared expert of intermediate_size (transformers modeling_llama4; NeMo Llama4Config).
      sharedExperts = 1;
      sharedExpertFfn = moeFfn;
    } else if (kind === 'gemma4' && ffn) {
      // Gemma4TextDecoderLayer runs its dense MLP (intermediate_size) beside the experts on every token: a shared expert
      // (Megatron-Bridge gemma4_bridge.py moe_shared_expert_intermediate_size = intermediate_size).
      sharedExperts = 1;
      sharedExpertFfn = ffn;
    }
  }

  const { denseLayersBeforeMoe, moeLayerFreq } = experts
    ? moePlacement(c, kind, layers)
    : { denseLayersBeforeMoe: 0, moeLayerFreq: undefined };

  // Vocabulary and embeddings.
  let vocab = posInt(c.vocab_size) ?? posInt(c.padded_vocab_size);
  if (vocab === undefined) {
    const a = assumeVocab(str(c._name_or_path) ?? architecture);
    vocab = a.vocab;
    assumptions.push({ ...a.assumption, source: `${src} has no vocab_size; ${a.assumption.source}` });
  }
  const tieRaw = nested && typeof nested.tie_word_embeddings === 'boolean' ? nested.tie_word_embeddings : top.tie_word_embeddings;
  let tiedEmbeddings: boolean;
  if (typeof tieRaw === 'boolean') tiedEmbeddings = tieRaw;
  else if (kind === 'unknown') {
    tiedEmbeddings = false;
    assume('untied input and output embeddings', `${src} has no tie_word_embeddings (untied counts the larger memory)`);
  } else tiedEmbeddings = TIED_BY_DEFAULT.has(kind);

  // MLP and norm.
  const act = (str(c.hidden_act) ?? str(c.hidden_activation) ?? str(c.activation_function) ?? str(c.mlp_hidden_act) ?? '').toLowerCase();
  const gatedMlp = !UNGATED.has(kind) && !(kind === 'unknown' && /relu2|^gelu|^relu$/.test(act) && !/silu|swish/.test(act));
  if (kind === 'unknown')
    assume(gatedMlp ? 'gated MLP (gate, up, down)' : 'MLP without gate', `architecture unknown; hidden_act "${act || 'unset'}"`);
  const activation: ModelShape['activation'] = gatedMlp
    ? /gelu/.test(act)
      ? 'geglu'
      : 'swiglu'
    : /relu2|squared/.test(act) || kind === 'nemotron' || kind === 'nemotron_h'
      ? 'squared-relu'
      : /^relu$/.test(act)
        ? 'relu'
        : 'gelu';
  const norm: ModelShape['norm'] =
    LAYERNORM.has(kind) || (kind === 'unknown' && /layer_?norm/.test(str(c.norm_type) ?? '')) ? 'layernorm' : 'rmsnorm';

  const shape: ModelShape = {
    name: str(c._name_or_path) ? String(c._name_or_path).split('/').pop()! : architecture,
    ...(archs[0] ? { architecture: archs[0] } : {}),
    layers,
    hidden,
    ffn,
    heads,
    kvHeads,
    headDim,
    vocab,
    tiedEmbeddings,
    gatedMlp,
    norm,
    activation,
    experts,
    topK,
    moeFfn,
    sharedExpertFfn,
    denseLayersBeforeMoe,
    ...(experts && sharedExperts ? { sharedExperts } : {}),
    ...(moeLayerFreq ? { moeLayerFreq } : {}),
    ...(mla ? { mla } : {}),
  };

  // Attention details.
  const window = slidingWindow(c, kind, layers, notes);
  if (window) Object.assign(shape, window);
  if (QK_NORM.has(kind) || (kind === 'glm4_moe' && c.use_qk_norm === true)) shape.qkNorm = true;
  if (kind === 'llama4' && c.use_qk_norm === true) notes.push('Llama 4 Q/K L2 normalisation has no weights');
  // MiniMax-M2 modeling_minimax_m2.py: q_norm over heads · head_dim and k_norm over kv heads · head_dim when qk_norm_type is per_layer.
  if (kind === 'minimax_m2' && c.use_qk_norm === true) shape.qkNorm = str(c.qk_norm_type) === 'per_head' ? true : 'full';
  if (kind === 'qwen2' || kind === 'qwen2_moe') shape.attentionBias = 'qkv';
  else if ((kind === 'chatglm' && c.add_qkv_bias === true) || ((kind === 'glm' || kind === 'glm4_moe') && c.attention_bias === true))
    shape.attentionBias = 'qkv';
  else if (c.attention_bias === true) shape.attentionBias = 'all';
  if ((kind === 'starcoder2' && c.use_bias !== false) || (kind === 'falcon' && c.bias === true) || kind === 'gpt2') shape.linearBias = true;
  if (kind === 'gpt_oss') Object.assign(shape, { attentionSinks: true, routerBias: true, expertBias: true });
  if (experts && (str(c.topk_method) === 'noaux_tc' || kind === 'nemotron_h' || kind === 'glm4_moe')) shape.routerBias = true;
  if (experts && kind === 'minimax_m2' && c.use_routing_bias === true) shape.routerBias = true; // e_score_correction_bias
  if (kind === 'gemma2' || kind === 'gemma3' || kind === 'gemma4') shape.postNorms = true;
  if (typeof c.final_logit_softcapping === 'number' && c.final_logit_softcapping > 0) shape.finalLogitSoftcap = c.final_logit_softcapping;
  if (kind === 'gemma4') gemma4Layers(c, shape, src, notes);
  if (kind === 'qwen3_next' || c.attn_output_gate === true) shape.attentionOutputGate = true;
  // Qwen2MoeSparseMoeBlock / Qwen3NextSparseMoeBlock / Qwen3_5MoeSparseMoeBlock: shared_expert_gate = Linear(hidden, 1, bias=False).
  if (sharedExperts && (kind === 'qwen2_moe' || kind === 'qwen3_next')) shape.sharedExpertGate = true;

  // Positions.
  if (kind === 'gpt2') shape.positionEmbedding = 'learned_absolute';
  else if (c.alibi === true) shape.positionEmbedding = 'alibi';
  else if (kind === 'nemotron_h') shape.positionEmbedding = 'none';
  else if (kind === 'baichuan' && layers !== 32) {
    shape.positionEmbedding = 'alibi';
    notes.push('Baichuan 2 uses ALiBi except in the 32-layer 7B (NeMo HFBaichuan2Importer)');
  }
  const maxPos = posInt(c.max_position_embeddings) ?? posInt(c.n_positions) ?? posInt(c.seq_length);
  if (maxPos) shape.maxPositionEmbeddings = maxPos;

  // Hybrid stacks, MTP, latent MoE.
  if (pattern) shape.hybridPattern = pattern;
  if (kind === 'nemotron_h' || pattern) {
    const m = {
      stateDim: posInt(c.ssm_state_size) ?? posInt(c.mamba_d_state),
      numHeads: posInt(c.mamba_num_heads),
      headDim: posInt(c.mamba_head_dim),
      groups: posInt(c.n_groups) ?? posInt(c.mamba_n_groups),
      convKernel: posInt(c.conv_kernel) ?? posInt(c.mamba_d_conv),
    };
    if (m.stateDim && m.numHeads && m.headDim && m.groups && m.convKernel)
      shape.mamba = { stateDim: m.stateDim, numHeads: m.numHeads, headDim: m.headDim, groups: m.groups, convKernel: m.convKernel };
    else if (pattern?.includes('M'))
      notes.push(`${src} lacks some Mamba dimensions (ssm_state_size, mamba_num_heads, mamba_head_dim, n_groups, conv_kernel)`);
  }
  const mtp = posInt(c.num_nextn_predict_layers) ?? posInt(c.mtp_num_hidden_layers);
  if (mtp) shape.mtpLayers = mtp;
  // Nemotron-H: the MTP block's own layers (mtp_hybrid_override_pattern, or mtp_layers_block_type in transformers ≥ 5), and
  // one block repeated over the depths (Megatron-Bridge nemotronh/nemotron_h_bridge.py: mtp_use_repeated_layer, default True).
  const mtpPattern = mtpDepthPattern(str(c.mtp_hybrid_override_pattern) ?? blockTypePattern(c.mtp_layers_block_type));
  if (mtp && mtpPattern) shape.mtpPattern = mtpPattern;
  if (mtp && kind === 'nemotron_h') shape.mtpRepeated = c.mtp_use_repeated_layer !== false;
  const dsa = dsaIndexer(c, shape, src, notes);
  if (dsa) shape.dsa = dsa;
  // MiniMax-M2's config declares MTP modules its published weights do not hold (Megatron-Bridge docs/models/minimax/minimax-m2.md: "MTP modules are not currently mapped").
  if (kind === 'minimax_m2' && c.use_mtp === true)
    notes.push(
      `${src} declares ${posInt(c.num_mtp_modules) ?? 'its'} MTP modules (use_mtp); the published checkpoint does not ship them, so they are not counted`,
    );
  const latent = posInt(c.moe_latent_size);
  if (latent && experts) shape.moeLatentSize = latent;
  const interval = posInt(c.full_attention_interval) ?? linearAttentionPeriod(c, layers, notes);
  if (interval && posInt(c.linear_num_key_heads)) {
    shape.linearAttention = {
      fullAttentionInterval: interval,
      keyHeads: posInt(c.linear_num_key_heads)!,
      valueHeads: posInt(c.linear_num_value_heads) ?? posInt(c.linear_num_key_heads)!,
      keyHeadDim: posInt(c.linear_key_head_dim) ?? 128,
      valueHeadDim: posInt(c.linear_value_head_dim) ?? 128,
      convKernel: posInt(c.linear_conv_kernel_dim) ?? 4,
    };
  }

  const read = weightFormatFromConfig(top, quantJson, where);
  if (read.assumed) assume(`weights stored as ${read.weights.dtype}`, read.assumed);
  // Gemma 4's routed experts are `layers.N.experts`, beside `layers.N.mlp` (the dense MLP): a checkpoint that excludes
  // `mlp*` in every layer quantizes the routed experts only (nvidia/Gemma-4-26B-A4B-NVFP4 hf_quant_config.json).
  if (kind === 'gemma4' && experts && read.weights.scope === 'mlp') {
    const mlpExcluded = new Set((read.weights.excluded ?? []).map((p) => /layers\.(\d+)\.mlp(\*|\.|$)/.exec(p)?.[1]).filter(Boolean));
    if (mlpExcluded.size >= 2) read.weights = { ...read.weights, scope: 'experts' };
  }
  return { ok: true, shape, weights: read.weights, architecture, assumptions, notes };
}

/**
 * Gemma 4's layers (transformers Gemma4TextConfig defaults; modeling_gemma4.py Gemma4TextAttention, Gemma4TextMLP,
 * Gemma4TextDecoderLayer, Gemma4TextModel): global layers with global_head_dim (num_global_key_value_heads only with
 * attention_k_eq_v), the last num_kv_shared_layers layers reusing earlier keys and values (double-wide MLPs with
 * use_double_wide_mlp), per-layer embeddings (hidden_size_per_layer_input), and the MoE block's extra norms and scales.
 */
function gemma4Layers(c: Obj, shape: ModelShape, src: string, notes: string[]): void {
  // A null or 0 global_head_dim falls back to head_dim (`config.global_head_dim if not self.is_sliding and config.global_head_dim`); absent, the class default 512.
  const globalHeadDim = c.global_head_dim === undefined ? 512 : (posInt(c.global_head_dim) ?? shape.headDim);
  const kEqV = c.attention_k_eq_v === true;
  const globalKvHeads = kEqV ? (posInt(c.num_global_key_value_heads) ?? shape.kvHeads) : shape.kvHeads;
  if (globalHeadDim !== shape.headDim || globalKvHeads !== shape.kvHeads || kEqV)
    shape.globalAttention = { headDim: globalHeadDim, kvHeads: globalKvHeads, kEqV };
  if (!shape.slidingWindow && shape.globalAttention)
    notes.push(`${src} gives no usable sliding window: every layer taken as a global layer (head_dim ${globalHeadDim})`);
  const shared = nonNegInt(c.num_kv_shared_layers) ?? 0;
  if (shared > 0 && shared < shape.layers) {
    shape.kvSharedLayers = shared;
    if (c.use_double_wide_mlp === true) shape.doubleWideSharedMlp = true;
    notes.push(
      `the last ${shared} layers reuse the keys and values of earlier layers: no k_proj, v_proj or k_norm (transformers ignores them on load) and no KV cache of their own`,
    );
  }
  const pleWidth = c.hidden_size_per_layer_input === undefined ? 256 : (nonNegInt(c.hidden_size_per_layer_input) ?? 0);
  if (pleWidth > 0) shape.perLayerEmbedding = { width: pleWidth, vocab: posInt(c.vocab_size_per_layer_input) ?? 262144 };
  if (shape.experts > 0) shape.moeBranchNorms = true;
  if (c.use_bidirectional_attention === 'all')
    notes.push('use_bidirectional_attention "all": transformers narrows the window to sliding_window // 2 + 1');
  notes.push('v_norm has no weights, and layer_scalar is a buffer (one value per layer), not a parameter');
  for (const [key, what] of [
    ['vision_config', 'vision'],
    ['audio_config', 'audio'],
  ] as const) {
    const t = c[key];
    if (isObj(t) && posInt(t.num_hidden_layers) && posInt(t.hidden_size))
      notes.push(`the ${what} encoder (${key}: ${t.num_hidden_layers} layers of width ${t.hidden_size}) is not in the shape`);
  }
}

/**
 * The DSA lightning indexer of MLA models (HF DeepseekV32Config / GlmMoeDsaConfig `index_n_heads`, `index_head_dim`,
 * `index_topk`), with GLM-5.2's cross-layer top-k sharing (`index_topk_freq`, `index_skip_topk_offset`). The per-layer
 * `indexer_types` list ("full" runs an indexer, "shared" reuses the previous full layer's top-k; GlmMoeDsaConfig) is what
 * the checkpoint holds: it is checked against the freq/offset schedule, and without those keys the schedule is found
 * from it.
 */
function dsaIndexer(c: Obj, shape: ModelShape, src: string, notes: string[]): ModelShape['dsa'] {
  const heads = posInt(c.index_n_heads);
  const headDim = posInt(c.index_head_dim);
  const topK = posInt(c.index_topk);
  if (!shape.mla || !heads || !headDim || !topK) {
    if (heads || headDim || topK)
      notes.push(
        `${src} names DSA indexer keys without ${shape.mla ? 'all of index_n_heads, index_head_dim, index_topk' : 'MLA'}; no indexer counted`,
      );
    return undefined;
  }
  const base = { heads, headDim, topK };
  const types = Array.isArray(c.indexer_types) && c.indexer_types.length === shape.layers ? c.indexer_types : undefined;
  const matches = (freq: number, offset: number) => {
    const trial: ModelShape = { ...shape, dsa: { ...base, topKFreq: freq, skipTopKOffset: offset } };
    return !types || types.every((t, i) => (t === 'full') === hasDsaIndexer(trial, i));
  };
  let freq = posInt(c.index_topk_freq) ?? 1;
  let offset = nonNegInt(c.index_skip_topk_offset) ?? 0;
  if (!matches(freq, offset)) {
    // The list disagrees with (or stands without) the freq/offset keys: the schedule that reproduces it, if one does.
    const schedules = Array.from({ length: 15 * 17 }, (_, k) => ({ freq: 2 + Math.floor(k / 17), offset: k % 17 }));
    const found = types?.every((t) => t === 'full') ? { freq: 1, offset: 0 } : schedules.find((x) => matches(x.freq, x.offset));
    if (found) ({ freq, offset } = found);
    else {
      notes.push(`${src} indexer_types follows no index_topk_freq schedule; every layer taken to run its own indexer`);
      freq = 1;
    }
  }
  return freq > 1 ? { ...base, topKFreq: freq, skipTopKOffset: offset } : base;
}

/**
 * The full-attention period of a Gated DeltaNet stack that states only `layer_types` (transformers Qwen3_5TextConfig and
 * Qwen3NextConfig consume full_attention_interval into layer_types: "full_attention" when (i + 1) % interval == 0).
 */
function linearAttentionPeriod(c: Obj, layers: number, notes: string[]): number | undefined {
  const types = Array.isArray(c.layer_types) ? c.layer_types : [];
  if (types.length !== layers || !types.includes('linear_attention')) return undefined;
  return Math.max(
    1,
    fullLayerPeriod(
      types.map((t) => t === 'full_attention'),
      'linear attention',
      notes,
    ),
  );
}

/**
 * The period of the full-attention layers a `layer_types` list spells (the last of every period attends fully), rounded;
 * a list that is not periodic gets a note saying how many layers were `what` and the period taken.
 */
function fullLayerPeriod(full: readonly boolean[], what: string, notes: string[]): number {
  const layers = full.length;
  const fullCount = full.filter(Boolean).length;
  const period = fullCount ? layers / fullCount : layers + 1;
  if (!Number.isInteger(period) || !full.every((f, i) => f === ((i + 1) % period === 0)))
    notes.push(
      `layer_types is not periodic; ${layers - fullCount} of ${layers} layers ${what}, taken as a period of ${Math.round(period)}`,
    );
  return Math.round(period);
}

/** Which layers are MoE: DeepSeek first_k_dense_replace / moe_layer_freq, Qwen decoder_sparse_step / mlp_only_layers, Llama 4 interleave_moe_layer_step. */
function moePlacement(c: Obj, kind: Kind, layers: number): { denseLayersBeforeMoe: number; moeLayerFreq?: number[] } {
  const firstDense = nonNegInt(c.first_k_dense_replace) ?? 0;
  let list: number[] | undefined;
  if (Array.isArray(c.moe_layer_freq) && c.moe_layer_freq.length === layers) list = c.moe_layer_freq.map((v) => (v ? 1 : 0));
  else if (posInt(c.moe_layer_freq) && c.moe_layer_freq !== 1) {
    // DeepseekV3: MoE when layer_idx >= first_k_dense_replace and layer_idx % moe_layer_freq == 0.
    const k = c.moe_layer_freq as number;
    list = Array.from({ length: layers }, (_, i) => (i >= firstDense && i % k === 0 ? 1 : 0));
  } else if ((kind === 'qwen2_moe' || kind === 'qwen3_moe' || kind === 'qwen3_next') && (posInt(c.decoder_sparse_step) ?? 1) > 1) {
    // Qwen2/3 MoE: MoE when layer_idx not in mlp_only_layers and (layer_idx + 1) % decoder_sparse_step == 0.
    const step = c.decoder_sparse_step as number;
    const only = new Set(Array.isArray(c.mlp_only_layers) ? c.mlp_only_layers : []);
    list = Array.from({ length: layers }, (_, i) => (!only.has(i) && (i + 1) % step === 0 ? 1 : 0));
  } else if (Array.isArray(c.mlp_only_layers) && c.mlp_only_layers.length) {
    const only = new Set(c.mlp_only_layers);
    list = Array.from({ length: layers }, (_, i) => (only.has(i) ? 0 : 1));
  } else if (kind === 'llama4' && (posInt(c.interleave_moe_layer_step) ?? 1) > 1) {
    // Llama4TextConfig: moe_layers = range(step - 1, num_hidden_layers, step).
    const step = c.interleave_moe_layer_step as number;
    list = Array.from({ length: layers }, (_, i) => (i % step === step - 1 ? 1 : 0));
  }
  if (!list) return { denseLayersBeforeMoe: firstDense };
  const leading = list.indexOf(1);
  return { denseLayersBeforeMoe: leading < 0 ? layers : leading, moeLayerFreq: list };
}

/** Windowed attention: `layer_types`, else each family's keys (only where the family applies them). */
function slidingWindow(c: Obj, kind: Kind, layers: number, notes: string[]): Partial<ModelShape> | undefined {
  const maxPos = posInt(c.max_position_embeddings);
  const sw = posInt(c.sliding_window);
  const effective = (w: number | undefined) => (w && (!maxPos || w < maxPos) ? w : undefined);
  const types = Array.isArray(c.layer_types) ? c.layer_types.filter((t): t is string => typeof t === 'string') : [];
  if (types.length === layers) {
    const local = types.map((t) => /sliding|chunked|local/.test(t));
    const window = effective(sw) ?? posInt(c.attention_chunk_size);
    if (!local.some(Boolean) || !window) return undefined;
    if (local.every(Boolean)) return { slidingWindow: { window, everyOther: false } };
    const p = Math.max(
      2,
      fullLayerPeriod(
        local.map((l) => !l),
        'windowed',
        notes,
      ),
    );
    return p === 2
      ? { slidingWindow: { window, everyOther: true } }
      : { slidingWindow: { window, everyOther: false }, slidingWindowPattern: p };
  }
  if (types.length && types.length !== layers) notes.push(`layer_types lists ${types.length} layers for ${layers}; ignored`);
  switch (kind) {
    case 'mistral':
    case 'mixtral':
    case 'starcoder2':
    case 'phi3': {
      const w = effective(sw);
      return w ? { slidingWindow: { window: w, everyOther: false } } : undefined;
    }
    case 'qwen2':
    case 'qwen2_moe':
    case 'qwen3':
    case 'qwen3_moe': {
      // Qwen applies sliding_window only with use_sliding_window (and then to the layers from max_window_layers on).
      const w = c.use_sliding_window === true ? effective(sw) : undefined;
      if (w) notes.push('use_sliding_window: every layer taken as windowed (Qwen windows the layers from max_window_layers on)');
      return w ? { slidingWindow: { window: w, everyOther: false } } : undefined;
    }
    case 'gemma2':
      return sw ? { slidingWindow: { window: sw, everyOther: true } } : undefined;
    case 'gemma3':
    case 'gemma4': {
      // transformers Gemma3TextConfig: sliding_window_pattern defaults to 6 (five local layers per global one); Gemma4TextConfig
      // builds its default layer_types with the same 5:1 pattern.
      const p = posInt(c.sliding_window_pattern) ?? 6;
      return sw ? { slidingWindow: { window: sw, everyOther: p === 2 }, ...(p > 2 ? { slidingWindowPattern: p } : {}) } : undefined;
    }
    case 'gpt_oss':
      // transformers GptOssConfig: layer_types default alternates sliding (even layers) and full attention.
      return sw ? { slidingWindow: { window: sw, everyOther: true } } : undefined;
    case 'llama4': {
      const chunk = posInt(c.attention_chunk_size);
      if (!chunk) return undefined;
      // Llama4TextConfig: no_rope_layers (1 = RoPE + chunked attention, 0 = NoPE global); default interval 4.
      const nope = Array.isArray(c.no_rope_layers) && c.no_rope_layers.length === layers ? c.no_rope_layers : undefined;
      const globals = nope ? nope.filter((v) => !v).length : Math.floor(layers / 4);
      const period = globals ? Math.round(layers / globals) : 4;
      notes.push(
        `chunked attention over ${chunk}-token chunks on ${period - 1} of every ${period} layers, taken as a ${chunk}-token window`,
      );
      return { slidingWindow: { window: chunk, everyOther: false }, slidingWindowPattern: period };
    }
    default: {
      const w = effective(sw);
      if (w && kind === 'unknown') notes.push(`sliding_window ${w} taken to apply to every layer`);
      return w && kind === 'unknown' ? { slidingWindow: { window: w, everyOther: false } } : undefined;
    }
  }
}

/**
 * Python's json module writes float('inf') and float('nan') as bare `Infinity`, `-Infinity` and `NaN` (allow_nan=True,
 * its default), so real config.json files hold them (Nemotron-H and Nemotron 3 `time_step_limit: [0.0, Infinity]`). JSON
 * has no such tokens: outside strings they become null, which no shape field reads.
 */
function withoutPythonFloats(text: string): string {
  if (!/NaN|Infinity/.test(text)) return text;
  return text.replace(/"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g, (m) => (m.startsWith('"') ? m : 'null'));
}

/** Parse config.json text; a bounded, non-throwing JSON.parse that also reads Python's NaN / Infinity. */
export function parseJsonText(text: string, maxBytes = 8 * 1024 * 1024): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text.length > maxBytes) return { ok: false, reason: `larger than ${maxBytes} bytes` };
  try {
    return { ok: true, value: JSON.parse(withoutPythonFloats(text)) as unknown };
  } catch (e) {
    return { ok: false, reason: `not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** Layer kind names of transformers ≥ 5 NemotronHConfig `layers_block_type` → Megatron hybrid pattern characters. */
const BLOCK_TYPES: Record<string, string> = { mamba: 'M', attention: '*', mlp: '-', moe: 'E' };

/** The hybrid pattern a `layers_block_type` list spells (configuration_nemotron_h.py writes it in place of hybrid_override_pattern). */
function blockTypePattern(v: unknown): string | undefined {
  if (!Array.isArray(v) || !v.length) return undefined;
  const chars = v.map((t) => (typeof t === 'string' ? BLOCK_TYPES[t] : undefined));
  return chars.every((x) => x !== undefined) ? chars.join('') : undefined;
}
