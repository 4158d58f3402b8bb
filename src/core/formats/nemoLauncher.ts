// NeMo-Framework-Launcher training recipes (launcher_scripts/conf/training/<family>/<size>.yaml; formats.md §2):
// the NeMo 1.x keys, with the stage config mounted under its group name for interpolation (`${training.model.…}`).
import { NEMO1 } from './nemo1.js';
import type { TrainingTable } from './training.js';

/** Where the launcher mounts a stage config (launcher_scripts/conf/config.yaml `defaults`): the interpolation roots. */
export const LAUNCHER_MOUNTS: readonly string[] = ['training', 'fine_tuning', 'peft', 'rlhf_ppo', 'rlhf_rm', 'steerlm_reg'];

export const NEMO_LAUNCHER: TrainingTable = NEMO1;
