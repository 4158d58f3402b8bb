// The key-path table of every format Recipe Lens reads values from.
import type { FormatId } from '../types.js';
import { AUTOMODEL } from './automodel.js';
import { BRIDGE } from './bridge.js';
import { MEGATRON_LM } from './megatronLm.js';
import { NEMO1 } from './nemo1.js';
import { NEMO2 } from './nemo2.js';
import { NEMO_LAUNCHER } from './nemoLauncher.js';
import { NEMO_RL } from './nemoRl.js';
import type { TrainingTable } from './training.js';

/** Training formats and their tables. */
export const TRAINING_TABLES: Partial<Record<FormatId, TrainingTable>> = {
  nemo1: NEMO1,
  'nemo-launcher': NEMO_LAUNCHER,
  nemo2: NEMO2,
  'megatron-bridge': BRIDGE,
  'megatron-lm': MEGATRON_LM,
  'nemo-rl': NEMO_RL,
  automodel: AUTOMODEL,
};

/** The TensorRT-LLM formats whose servers are LlmArgs: an options file, a disaggregated config, a perf-sanity server list. */
const SERVING_FORMATS: ReadonlySet<FormatId> = new Set(['trtllm-options', 'trtllm-disagg', 'trtllm-perf']);
export const isServingFormat = (f: FormatId | null): boolean => f !== null && SERVING_FORMATS.has(f);
