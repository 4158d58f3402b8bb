// TensorRT-LLM disaggregated-server configs (`trtllm-serve disaggregated -c`; formats.md §0 E'): each server role
// carries any LlmArgs key; a key written at the top level applies to both roles.
import type { KeyPath } from '../types.js';

export const DISAGG_ROLES = ['context_servers', 'generation_servers'] as const;
export type DisaggRole = (typeof DISAGG_ROLES)[number];

/**
 * Two layouts: `context_servers` / `generation_servers` with shared keys at the top level, and the wide-EP SLURM
 * benchmark config (examples/disaggregated/slurm/benchmark/config.yaml, examples/wide_ep/slurm_scripts/*.yaml) with each
 * role's LlmArgs under `worker_config.ctx` / `worker_config.gen` and the server counts under `hardware`.
 */
export type DisaggLayout = 'servers' | 'worker_config';

/** The `worker_config` key of each role, and the `hardware` key counting its servers. */
export const WORKER_CONFIG: Record<DisaggRole, { key: string; count: string }> = {
  context_servers: { key: 'ctx', count: 'num_ctx_servers' },
  generation_servers: { key: 'gen', count: 'num_gen_servers' },
};

/** Where a role's LlmArgs keys are looked up, in order: the role's section, then the top level (`servers` layout). */
export const roleBases = (role: DisaggRole | '', layout: DisaggLayout = 'servers'): KeyPath[] =>
  !role ? [[]] : layout === 'worker_config' ? [['worker_config', WORKER_CONFIG[role].key]] : [[role], []];
