// What every training table adds to the key paths: the family whose loader reads the file (which decides
// severities and defaults) and the upstream defaults that apply when a key is absent.
import type { RecipeDoc } from '../document.js';
import type { PrecisionId } from '../memory/precision.js';
import type { TrainingField, TrainingValues } from './fields.js';
import type { FieldLoc, Table } from './table.js';

/**
 * megatron-core's defaults for the parallel layout and recompute (megatron/core/model_parallel_config.py and
 * transformer_config.py dataclass fields), which NeMo 1.x's cfg.get defaults, NeMo 2 and Megatron-LM's argparse repeat.
 */
export const MCORE_PARALLEL_DEFAULTS: TrainingValues = {
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
};

/** How a what-if precision is written: the field values, or why the format cannot express it. */
export type PrecisionWrite = { changes: TrainingValues } | { unwritable: string };

/**
 * nemo1: NeMo 1.x's megatron_base_model.py reads the config (it resets some settings with a warning where
 * megatron-core raises). mcore: the values reach megatron-core's dataclasses as written (NeMo 2, NeMo-RL).
 * bridge: a Megatron-Bridge override, merged onto a recipe the file does not show (absent = unknown).
 * megatron-lm: Megatron-LM's arguments.py validates and adjusts the arguments before megatron-core sees them.
 * nemo2: NeMo 2's llm/api.py _validate_config adjusts a few settings with a warning, then megatron-core reads them.
 * automodel: NeMo Automodel builds a PyTorch device mesh from the sizes and trains a Hugging Face model under FSDP2,
 * Megatron FSDP or DDP (recipes/_dist_utils.py); megatron-core never sees them.
 */
export type TrainingFamily = 'nemo1' | 'nemo2' | 'mcore' | 'bridge' | 'megatron-lm' | 'automodel';

export interface TrainingTable extends Table<TrainingField> {
  family: TrainingFamily;
  /** Values the consuming program uses when the key is absent. Absent here = unknown. */
  defaults: TrainingValues;
  /** Values a format holds in no single key (NeMo 2's `_target_` class names). */
  derive?: (doc: RecipeDoc) => TrainingValues;
  /** How this format selects a precision recipe (the what-if and the planner's Apply write it). */
  writePrecision?: (p: PrecisionId, file: TrainingValues, loc: Partial<Record<TrainingField, FieldLoc>>) => PrecisionWrite;
  /** The table a document is read with when the format has variants (NeMo-RL: the megatron_cfg or the dtensor_cfg backend). */
  select?: (doc: RecipeDoc) => TrainingTable;
  /**
   * The GPUs the training runs on where devices × nodes is not the whole story (NeMo-RL gives non-colocated generation
   * its own GPUs): the size and why, null when it cannot be known, undefined when the file does not fix it (the
   * modeline's or the setting's world size then holds). Absent: devices × nodes.
   */
  world?: (doc: RecipeDoc, file: TrainingValues) => { size: number; note?: string } | null | undefined;
  /** Rules of rules/training.ts that do not hold for this format, each with the reason (for the docs). */
  skipRules?: Readonly<Record<string, string>>;
  /** When set, only these rules of rules/training.ts hold for this format. */
  onlyRules?: readonly string[];
}
