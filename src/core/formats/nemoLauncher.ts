// NeMo-Framework-Launcher training recipes (launcher_scripts/conf/training/<family>/<size>.yaml; formats.md §2):
// the NeMo 1.x keys, mounted under `training` for interpolation (`${training.model.…}`).
import { NEMO1 } from './nemo1.js';
import type { TrainingTable } from './training.js';

export const NEMO_LAUNCHER: TrainingTable = { ...NEMO1, rootAliases: ['training'] };
