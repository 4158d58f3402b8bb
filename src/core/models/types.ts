// Types of the model catalogue: a model's shape, the checkpoints that ship it, their weight format, and sources.
import type { Assumption, ModelShape } from '../memory/types.js';

/** Storage format of checkpoint weights. */
export type WeightDtype = 'bf16' | 'fp16' | 'fp32' | 'fp8' | 'nvfp4' | 'mxfp4' | 'int8' | 'int4';

/**
 * Which tensors are stored in `WeightFormat.dtype`:
 * - `all`: every tensor;
 * - `linear`: the linear layers of the transformer blocks (embeddings, norms, routers and excluded modules stay in `other`);
 * - `mlp`: the MLP / MoE linear layers only (dense MLPs, routed and shared experts) — attention and Mamba mixers stay in `other`;
 * - `experts`: the routed experts only.
 */
export type WeightScope = 'all' | 'linear' | 'mlp' | 'experts';

export interface WeightFormat {
  dtype: WeightDtype;
  scope: WeightScope;
  /** Storage of the tensors outside `scope` (FP8 where a mixed-precision checkpoint keeps them in FP8 blocks). */
  other: 'bf16' | 'fp16' | 'fp32' | 'fp8';
  /** Quantization granularity, e.g. "128×128 weight blocks, FP32 scales". */
  block?: string;
  /** Module patterns the checkpoint keeps in `other` (quantization_config / hf_quant_config.json exclusions). */
  excluded?: string[];
  /** KV-cache format the checkpoint was calibrated for (hf_quant_config.json `kv_cache_quant_algo`). */
  kvCache?: 'fp8' | 'nvfp4';
  /** Where the format comes from. */
  source: string;
}

/** One published checkpoint of a model. */
export interface Checkpoint {
  /** Hugging Face id, `org/name`. */
  hfId: string;
  weights: WeightFormat;
  note?: string;
}

/**
 * A published total parameter count.
 * - `exact`: an exact integer (HF safetensors total, KerasHub preset count);
 * - `rounded`: a count rounded to the digits given ("8.2B"): within `tolerance` (half a unit) of the true count;
 * - `truncated`: a count cut after the digits given ("1.23B" for 1.2358B): the true count is within one unit above;
 * - `nominal`: the size class in the model's name or announcement ("70B"), not a count.
 */
export interface PublishedParams {
  total: number;
  kind: 'exact' | 'rounded' | 'truncated' | 'nominal';
  /** Half a unit of the last published digit (a whole unit when truncated; 0 for exact). */
  tolerance: number;
  /** The figure as published, e.g. "8.2B". */
  text: string;
  source: string;
  /** What the figure covers when it differs from the decoder the shape describes (vision tower, MTP module, …). */
  scope?: string;
}

export interface TokenizerFacts {
  /** The HF repository that ships the tokenizer (defaults to the first checkpoint). */
  hfId?: string;
  kind: 'sentencepiece' | 'bpe' | 'tiktoken' | 'wordpiece';
  /** Embedding rows of the model (config.json `vocab_size`); the tokenizer itself may hold fewer tokens. */
  vocab: number;
  source: string;
}

export interface CatalogueEntry {
  /** Canonical id, kebab case (`llama3-70b`); also `shape.name`. */
  id: string;
  /** Family, for the unknown-vocabulary assumption and grouping (`llama`, `qwen`, …). */
  family: string;
  /** Human name, e.g. "Llama 3.1 70B". */
  title: string;
  shape: ModelShape;
  /** Published checkpoints; the first is the reference one. */
  checkpoints: Checkpoint[];
  /** Other names: NeMo / Megatron-Bridge config classes and recipe names, short names. */
  aliases: string[];
  tokenizer: TokenizerFacts;
  published: PublishedParams;
  /** Where every number of the shape comes from. */
  sources: string[];
  /** What the shape cannot say about this model (heterogeneous layers, vision towers, …). */
  notes: string[];
}

/** A model shape read from a config.json, with the weight format and what was assumed. */
export interface ConfigShape {
  shape: ModelShape;
  weights: WeightFormat;
  /** `architectures[0]` or `model_type`. */
  architecture: string;
  /** Values the file did not state, with the default taken and why. */
  assumptions: Assumption[];
  /** What the shape leaves out (a vision tower, weightless Q/K norms, an irregular layer pattern taken as periodic, …). */
  notes: string[];
}
