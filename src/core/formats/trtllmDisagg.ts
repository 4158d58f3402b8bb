// TensorRT-LLM disaggregated-server configs (`trtllm-serve disaggregated -c`; formats.md §0 E'): each server role
// carries any LlmArgs key; a key written at the top level applies to both roles.
import type { KeyPath } from '../types.js';

export const DISAGG_ROLES = ['context_servers', 'generation_servers'] as const;
export type DisaggRole = (typeof DISAGG_ROLES)[number];

/** Where a role's LlmArgs keys are looked up, in order: the role's section, then the top level. */
export const roleBases = (role: DisaggRole | ''): KeyPath[] => (role ? [[role], []] : [[]]);
