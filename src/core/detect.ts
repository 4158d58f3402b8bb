// Format detection by content, in the order of formats.md §0.
import { mapGet, visit, type TreeNode } from './tree.js';
import type { FormatId } from './types.js';

/** Top-level fields of Megatron-Bridge's ConfigContainer (formats.md §0 D, §4). */
export const BRIDGE_TOP_LEVEL = new Set([
  'env_vars',
  'rng',
  'rerun_state_machine',
  'train',
  'model',
  'optimizer',
  'optimizer_config_override_provider',
  'ddp',
  'validation',
  'scheduler',
  'dataset',
  'logger',
  'tokenizer',
  'checkpoint',
  'dist',
  'ft',
  'straggler',
  'nvrx_straggler',
  'profiling',
  'peft',
  'comm_overlap',
  'mixed_precision',
  'tensor_inspect',
  'inprocess_restart',
]);

const has = (n: TreeNode | undefined, k: string) => mapGet(n, k) !== undefined;
const isMapAt = (n: TreeNode | undefined, k: string) => mapGet(n, k)?.value.kind === 'map';

/** Returns the format of a document's root, or null when it is none of the recipe formats. */
export function detectFormat(root: TreeNode | undefined): FormatId | null {
  if (!root || root.kind !== 'map') return null;
  if (isMapAt(root, 'context_servers') || isMapAt(root, 'generation_servers')) return 'trtllm-disagg';
  if (has(root, 'token_range_retention_configs')) return 'kv-retention';
  const model = mapGet(root, 'model')?.value;
  if (has(root, 'kv_cache_config') || (has(root, 'tensor_parallel_size') && model?.kind !== 'map')) return 'trtllm-options';
  let target = false;
  visit(root, (n, _p, e) => {
    if (target) return false;
    if (e?.key === '_target_' && n.kind === 'scalar' && typeof n.value === 'string') target = true;
    return undefined;
  });
  if (target) return 'nemo2';
  if (model?.kind === 'map' && has(model, 'encoder_seq_length')) return isMapAt(root, 'run') ? 'nemo-launcher' : 'nemo1';
  if (has(root, 'stages') && has(root, 'defaults')) return 'nemo-launcher-main';
  if (looksLikeBridge(root)) return 'megatron-bridge';
  // A NeMo 1.x / launcher file whose model section misses encoder_seq_length still has this shape.
  if (model?.kind === 'map' && isMapAt(root, 'trainer') && has(model, 'tensor_model_parallel_size'))
    return isMapAt(root, 'run') ? 'nemo-launcher' : 'nemo1';
  return null;
}

/** Every top-level key is a ConfigContainer field, and a training section is there. */
function looksLikeBridge(root: TreeNode & { kind: 'map' }): boolean {
  if (root.entries.length === 0) return false;
  if (!root.entries.every((e) => BRIDGE_TOP_LEVEL.has(e.key))) return false;
  const train = mapGet(root, 'train')?.value;
  const model = mapGet(root, 'model')?.value;
  const dataset = mapGet(root, 'dataset')?.value;
  if (train?.kind === 'map') return true;
  if (model?.kind === 'map' && (has(model, 'seq_length') || has(model, 'tensor_model_parallel_size'))) return true;
  return dataset?.kind === 'map' && has(dataset, 'seq_length');
}
