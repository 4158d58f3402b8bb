// Models Recipe Lens recognises by name but does not model: their architectures have parts the memory model has no
// term for. A file, path or setting that names one gets this reason instead of "no catalogue model", and a config.json
// of one of them is read with the common keys and a note that names what is left out.
import { fuzzyTokens } from './names.js';

export interface UnmodelledModel {
  title: string;
  /** Family names: a name whose tokens start with one of these names the model (`DeepSeek-V4-Pro-FP8`). */
  names: readonly string[];
  /** transformers `model_type` values of its config.json (the top level or the nested language config). */
  modelTypes: readonly string[];
  /** What the architecture has that no memory term covers. */
  missing: string;
  source: string;
}

const AIC = '(copies in ai-dynamo/aiconfigurator model_configs/)';

export const UNMODELLED: readonly UnmodelledModel[] = [
  {
    title: 'DeepSeek-V4',
    names: ['deepseek-v4'],
    modelTypes: ['deepseek_v4'],
    missing:
      'manifold-constrained hyper-connections (hc_mult 4 residual streams per layer), compressed sparse attention ' +
      '(compress_ratios with an index_n_heads indexer over the compressed KV, and a sliding window), the grouped ' +
      'low-rank output projection (o_lora_rank, o_groups) and hash-routed MoE layers (num_hash_layers)',
    source: `HF deepseek-ai/DeepSeek-V4-Flash and DeepSeek-V4-Pro config.json ${AIC}`,
  },
  {
    title: 'Kimi K3',
    names: ['kimi-k3'],
    modelTypes: ['kimi_k3'],
    missing:
      'Kimi Delta Attention layers between the MLA layers (linear_attn_config kda_layers), block attention residuals ' +
      '(attn_res_block_size), latent routed experts (routed_expert_hidden_size below hidden_size) and the SiTU activation',
    source: `HF moonshotai/Kimi-K3 config.json, text_config ${AIC}`,
  },
  {
    // Kimi K3's language model is one (its text_config: architectures KimiLinearForCausalLM, model_type kimi_linear).
    title: 'Kimi Linear',
    names: ['kimi-linear'],
    modelTypes: ['kimi_linear'],
    missing: 'Kimi Delta Attention layers between the MLA layers (linear_attn_config kda_layers)',
    source: `HF moonshotai/Kimi-K3 config.json, text_config ${AIC}`,
  },
  {
    title: 'MiniMax-M3',
    names: ['minimax-m3'],
    modelTypes: ['minimax_m3'],
    missing:
      'block-sparse attention with its lightning indexer (sparse_attention_config: index heads, index_dim and top-k ' +
      'blocks, with the indexer keys cached beside the KV cache) and its MTP modules (num_mtp_modules)',
    source: `HF MiniMaxAI/MiniMax-M3 config.json ${AIC}`,
  },
  {
    title: 'Llama-Nemotron Super / Ultra (DeciLM)',
    // `Llama-3_3-…` splits into 3, 3: both spellings are listed.
    names: ['llama-3.3-nemotron-super', 'llama-3_3-nemotron-super', 'llama-3.1-nemotron-ultra', 'llama-3_1-nemotron-ultra'],
    modelTypes: ['nemotron-nas'],
    missing:
      'heterogeneous blocks from neural architecture search (block_configs: each layer its own FFN width, ffn_mult 0.5 to ' +
      '5.25 in the 49B, and 31 of its 80 layers without attention)',
    source: `HF nvidia/Llama-3_3-Nemotron-Super-49B-v1 config.json ${AIC}`,
  },
  {
    title: 'MiMo-V2',
    names: ['mimo-v2'],
    modelTypes: ['mimo_v2_flash'],
    missing:
      'hybrid attention with per-layer-type heads (full-attention layers 4 KV heads, sliding-window layers 8 KV heads with ' +
      'an attention-sink bias, in an irregular hybrid_layer_pattern) and a query/key head_dim (192) unlike the value ' +
      'head_dim (128) outside MLA',
    source: `HF XiaomiMiMo/MiMo-V2-Flash config.json ${AIC}`,
  },
];

const PREFIXES = UNMODELLED.flatMap((m) => m.names.map((n) => ({ m, tokens: fuzzyTokens(n) })));

/** The unmodelled model a name names (`deepseek-v4-pro-latency`, `deepseek-ai/DeepSeek-V4-Flash`), if any. */
export function unmodelledByName(name: string): UnmodelledModel | undefined {
  const base = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
  const tokens = fuzzyTokens(base.replace(/\.(ya?ml|json)$/i, ''));
  return PREFIXES.find((p) => p.tokens.length <= tokens.length && p.tokens.every((t, i) => tokens[i] === t))?.m;
}

/** The unmodelled model a config.json's `model_type` belongs to, if any. */
export function unmodelledByType(modelType: string): UnmodelledModel | undefined {
  return UNMODELLED.find((m) => m.modelTypes.includes(modelType));
}

/** Why there is no estimate (or what an estimate from the common keys leaves out): `a model Recipe Lens does not model yet: …`. */
export function unmodelledReason(m: UnmodelledModel): string {
  return `a model Recipe Lens does not model yet: its ${m.missing} have no memory terms (${m.source})`;
}
