// What the simulator takes from an analysed file: a TensorRT-LLM options file's KV pool (the memory estimate's pool of
// the role that reuses prompts) and its kv_cache_config reuse settings, or a KV retention file's config. Shared by
// `recipe-lens simulate` and the language server's recipeLens/kvReuse request.
import type { DocAnalysis } from '../analysis.js';
import type { DocEstimate } from '../memory/estimate.js';
import type { Recipe } from '../recipe.js';
import { toData, type RecipeDoc } from '../document.js';
import { DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY } from '../memory/kvcache.js';
import { retentionFromObject, type RetentionSpec } from './retention.js';
import type { SimConfig } from './simulate.js';

export interface PoolFromOptions {
  poolBlocks: number;
  tokensPerBlock: number;
  hostBlocks: number;
  enableBlockReuse: boolean;
  enablePartialReuse: boolean;
  copyOnPartialReuse: boolean;
  onboardBlocks: boolean;
  secondaryOffloadMinPriority: number;
  /** Which server role the pool is of (disaggregated files: the context servers, where prompts are reused). */
  role: string;
}

/** The KV pool and reuse settings of an analysed TensorRT-LLM options (or disaggregated) file. */
export function poolFromAnalysis(main: DocAnalysis | undefined): PoolFromOptions | { error: string } {
  return poolFromEstimate(main?.recipe, main?.estimate);
}

/** The same from a recipe and its estimate (the panel's: possibly re-estimated for another GPU). */
export function poolFromEstimate(recipe: Recipe | undefined, e: DocEstimate | undefined): PoolFromOptions | { error: string } {
  if (recipe?.kind !== 'serving') return { error: 'not a TensorRT-LLM options file (kv_cache_config, tensor_parallel_size, …)' };
  if (e?.kind !== 'serving') return { error: e?.kind === 'none' ? e.reason : 'no KV pool estimate' };
  const role = e.roles.find((r) => r.role === 'context_servers') ?? e.roles[0]!;
  const v = recipe.roles.find((r) => r.role === role.role)?.values ?? {};
  const bool = (x: unknown, d: boolean) => (typeof x === 'boolean' ? x : d);
  return {
    poolBlocks: role.kv.poolBlocks,
    tokensPerBlock: role.kv.tokensPerBlock,
    hostBlocks: role.kv.host.blocks,
    // Defaults of KvCacheConfig (tensorrt_llm/llmapi/llm_args.py): reuse, partial reuse, copy on partial reuse, onboarding on.
    enableBlockReuse: bool(v.enableBlockReuse, true),
    enablePartialReuse: bool(v.enablePartialReuse, true),
    copyOnPartialReuse: bool(v.copyOnPartialReuse, true),
    onboardBlocks: bool(v.onboardBlocks, true),
    secondaryOffloadMinPriority:
      typeof v.secondaryOffloadMinPriority === 'number' ? v.secondaryOffloadMinPriority : DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY,
    role: role.role || 'server',
  };
}

/**
 * The simulator's settings for a sweep: the options file's reuse settings where there is one, else KvCacheConfig's
 * defaults (tensorrt_llm/llmapi/llm_args.py: partial reuse, copy on partial reuse and onboarding on). The GPU pool size
 * is each sweep point's (`primaryBlocks` 0 here).
 */
export function simConfigFrom(
  pool: PoolFromOptions | null | undefined,
  run: Pick<SimConfig, 'tokensPerBlock' | 'secondaryBlocks' | 'retention' | 'concurrency'>,
): SimConfig {
  return {
    primaryBlocks: 0,
    ...run,
    enablePartialReuse: pool?.enablePartialReuse ?? true,
    copyOnPartialReuse: pool?.copyOnPartialReuse ?? true,
    onboardBlocks: pool?.onboardBlocks ?? true,
    secondaryOffloadMinPriority: pool?.secondaryOffloadMinPriority ?? DEFAULT_SECONDARY_OFFLOAD_MIN_PRIORITY,
  };
}

/** The KvCacheRetentionConfig of a retention file's document, or why it has none. */
export function retentionFromDoc(doc: RecipeDoc | undefined): RetentionSpec | { error: string } {
  if (!doc?.root) return { error: 'empty file' };
  const problem = doc.problems.find((p) => p.severity === 'error');
  if (problem) return { error: problem.message };
  const r = retentionFromObject(toData(doc));
  return 'error' in r ? r : r.spec;
}
