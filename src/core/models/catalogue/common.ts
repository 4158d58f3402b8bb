// Shared pieces of the catalogue files: source names (repository, path, commit) and small constructors.
import type { ModelShape } from '../../memory/types.js';
import type { CatalogueEntry, Checkpoint, WeightFormat } from '../types.js';

/** Upstream files the catalogue reads its numbers from, each at the commit read. */
export const SRC = {
  nemo: (file: string, cls: string) => `NeMo nemo/collections/llm/gpt/model/${file}.py@8cfedd7 ${cls}`,
  bridge: (file: string, cls: string) => `Megatron-Bridge src/megatron/bridge/models/${file}@dc805f5 ${cls}`,
  /** HF config.json, as copied verbatim into a public repository (the copy named). */
  hf: (id: string, copy: 'aic' | 'mlc') =>
    copy === 'aic'
      ? `HF ${id} config.json (copy in ai-dynamo/aiconfigurator model_configs/)`
      : `HF ${id} config.json (copy in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py@79d603f)`,
  /** HF config.json read on the Hub itself (no public copy found). */
  hub: (id: string) => `HF ${id} config.json`,
  keras: (preset: string) => `KerasHub keras_hub/src/models preset "${preset}"@71453d0 metadata.params`,
  transformers: (cls: string) => `transformers ${cls} defaults@008e574`,
  llamaCard: (dir: string) => `meta-llama/llama-models models/${dir}/MODEL_CARD.md@a9c89c4`,
} as const;

export const DENSE = { experts: 0, topK: 0, moeFfn: 0, sharedExpertFfn: 0, denseLayersBeforeMoe: 0 } as const;

export type ShapeInput = Omit<ModelShape, 'name'>;
export type EntryInput = Omit<CatalogueEntry, 'shape' | 'notes'> & { shape: ShapeInput; notes?: string[] };

/** A catalogue entry; its shape is named by its id. */
export function entry(e: EntryInput): CatalogueEntry {
  return { ...e, shape: { name: e.id, ...e.shape }, notes: e.notes ?? [] };
}

export const ckpt = (hfId: string, weights: WeightFormat, note?: string): Checkpoint => ({ hfId, weights, ...(note ? { note } : {}) });

/** The same weight format for several checkpoints. */
export const ckpts = (weights: WeightFormat, ...hfIds: string[]): Checkpoint[] => hfIds.map((id) => ckpt(id, weights));

/** Megatron `moe_layer_freq` as an explicit list: `pattern` repeated to `layers` entries. */
export const repeatPattern = (pattern: readonly number[], layers: number): number[] =>
  Array.from({ length: layers }, (_, i) => pattern[i % pattern.length]!);
