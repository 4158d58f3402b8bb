// Dynamo's TensorRT-LLM worker (`python3 -m dynamo.trtllm`) in a Kubernetes deployment: its command-line arguments
// build the LLM-API arguments and the file named by --extra-engine-args overrides them (ai-dynamo/dynamo
// components/src/dynamo/trtllm/main.py: arg_map from config.model_path, tensor_parallel_size, pipeline_parallel_size,
// expert_parallel_size, max_*; then update_llm_args_with_extra_options). Where each setting is on that command line.
import type { TreeNode } from '../tree.js';
import type { ServingField, ServingValues } from './fields.js';

/** The worker's flags per LlmArgs field (dynamo/trtllm/utils/trtllm_utils.py cmd_line_args). */
export const DYNAMO_TRTLLM_ARGS: Partial<Record<ServingField, readonly string[]>> = {
  model: ['--model-path', '--model'],
  tp: ['--tensor-parallel-size'],
  pp: ['--pipeline-parallel-size'],
  ep: ['--expert-parallel-size'],
  maxSeqLen: ['--max-seq-len'],
  maxNumTokens: ['--max-num-tokens'],
  maxBatchSize: ['--max-batch-size'],
};
const EXTRA = '--extra-engine-args';

/** What the workers that mount an embedded engine-args file set on their command line, and where it is said. */
export interface WorkerLaunch {
  values: Partial<ServingValues>;
  where: Partial<Record<ServingField, string>>;
}

/**
 * The command-line values of the workers, in any of `roots`, whose --extra-engine-args names a file called `fileName`
 * (the ConfigMap key it is mounted as). A field the workers disagree on is left out. Undefined when no worker names it.
 */
export function workerLaunch(roots: readonly (TreeNode | undefined)[], fileName: string): WorkerLaunch | undefined {
  const lines: string[][] = [];
  for (const root of roots) collectArgs(root, lines, 0);
  const mine = lines.filter((t) => {
    const path = flagValue(t, [EXTRA])?.value;
    return path !== undefined && path.slice(path.lastIndexOf('/') + 1) === fileName;
  });
  if (!mine.length) return undefined;
  const values: Partial<Record<ServingField, unknown>> = {};
  const where: Partial<Record<ServingField, string>> = {};
  for (const [field, flags] of Object.entries(DYNAMO_TRTLLM_ARGS) as [ServingField, readonly string[]][]) {
    const found = mine.map((t) => flagValue(t, flags));
    if (new Set(found.map((x) => x?.value)).size !== 1 || !found[0]) continue;
    const { flag, value: raw } = found[0];
    const value = field === 'model' ? raw : /^\d+$/.test(raw) ? Number(raw) : undefined;
    if (value === undefined) continue;
    values[field] = value;
    where[field] =
      `${flag} ${field === 'model' ? `"${raw}"` : raw} of the Dynamo worker that mounts ${fileName} (dynamo.trtllm builds the LLM arguments from its ` +
      `command line, then the file's keys override them)`;
  }
  return { values: values as Partial<ServingValues>, where };
}

/** The first of `flags` present and the value after it (`--flag value` or `--flag=value`). */
function flagValue(tokens: readonly string[], flags: readonly string[]): { flag: string; value: string } | undefined {
  for (const flag of flags) {
    const i = tokens.indexOf(flag);
    const next = i >= 0 ? tokens[i + 1] : undefined;
    if (next !== undefined && !next.startsWith('--')) return { flag, value: next };
    const eq = tokens.find((x) => x.startsWith(`${flag}=`));
    if (eq) return { flag, value: eq.slice(flag.length + 1) };
  }
  return undefined;
}

/** Every list of string scalars (a container's `args` / `command`) and every string holding a command line, as tokens. */
function collectArgs(node: TreeNode | undefined, out: string[][], depth: number): void {
  if (!node || depth > 64 || out.length > 256) return;
  if (node.kind === 'scalar') {
    if (typeof node.value === 'string' && node.value.includes(EXTRA)) out.push(node.value.split(/\s+/).filter(Boolean));
    return;
  }
  if (node.kind === 'seq') {
    const words = node.items.flatMap((n) => (n.kind === 'scalar' && n.value !== null ? [String(n.value)] : []));
    if (words.includes(EXTRA) || words.some((w) => w.startsWith(`${EXTRA}=`))) out.push(words);
    else for (const n of node.items) collectArgs(n, out, depth + 1);
    return;
  }
  for (const e of node.entries) collectArgs(e.value, out, depth + 1);
}
