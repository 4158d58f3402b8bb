// RL-MEM: the estimate for the most-loaded rank exceeds the GPU — a warning on the sequence-length key,
// with the breakdown in the message and related locations on the biggest contributors.
import type { TrainingField } from '../formats/fields.js';
import type { Recipe, ServingRecipe } from '../recipe.js';
import { pathToString } from '../tree.js';
import type { Finding, RelatedInfo } from '../types.js';
import type { DocEstimate } from './estimate.js';
import { peftOn } from './fromRecipe.js';
import { gib } from '../units.js';
import { assumedGpu, rlMemoryFindings } from './nemoRlReport.js';

const g = (b: number) => gib(b, 1);

/** The keys that drive each component, for related locations. */
const DRIVERS: Record<'activations' | 'weights' | 'optimizer', TrainingField[]> = {
  activations: ['cp', 'mbs', 'recomputeGranularity', 'tp', 'pp'],
  weights: ['tp', 'pp'],
  optimizer: ['tp', 'pp', 'cp'],
};

/** RL-MEM for a recipe and its estimate (computed once per analysis). */
export function memoryFindings(recipe: Recipe, e: DocEstimate): Finding[] {
  if (e.kind === 'serving' && recipe.kind === 'serving') return servingFindings(recipe, e);
  // NeMo-RL: the phases around training (refit, generation, logprobs, teacher) may be what overflows.
  if (e.kind === 'training' && recipe.kind === 'training' && e.rl)
    return [...trainingFindings(recipe, e), ...rlMemoryFindings(recipe, e.rl, e.gpu, e.gpuAssumed === true)];
  return trainingFindings(recipe, e);
}

function trainingFindings(recipe: Recipe, e: DocEstimate): Finding[] {
  if (e.kind !== 'training' || recipe.kind !== 'training' || e.estimate.fit.verdict !== 'does-not-fit') return [];
  // A sharded optimizer (distributed optimizer, FSDP) needs the world size: without it the estimate assumes the smallest
  // data-parallel size and is an upper bound, not grounds for a warning (rules that need a value the file lacks are skipped).
  if (e.config.worldSize === undefined && (e.config.distributedOptimizer || e.config.fsdp)) return [];
  // A finding rests on what the file, the model or the user states: with the vocabulary only guessed (a template whose
  // tokenizer is `???`), the estimate is shown with its assumption, not warned about.
  if (e.vocabAssumed || e.seqAssumed) return [];
  // Adapter fine-tuning is counted as full training: an upper bound, no grounds for a warning either.
  if (peftOn(recipe.values.peft)) return [];
  // A performance config's run gets settings from the launcher's Python (run_script.py: recompute modules, MoE options)
  // that the file does not show: its estimate is shown with that assumption, not warned about.
  if (recipe.perfMatrix) return [];
  const seq = recipe.loc.seq;
  if (!seq) return [];
  const p = e.estimate.perGpu;
  const parts: [keyof typeof DRIVERS, number][] = [
    ['activations', p.activations + p.transient],
    ['weights', p.weights + p.gradients],
    ['optimizer', p.optimizer],
  ];
  parts.sort((a, b) => b[1] - a[1]);
  const related: RelatedInfo[] = [];
  for (const [part] of parts.slice(0, 2))
    for (const k of DRIVERS[part]) {
      const f = recipe.loc[k];
      const path = f && pathToString(f.path);
      if (f && path && recipe.values[k] !== undefined && !related.some((r) => r.path === path))
        related.push({
          path,
          span: f.inherited?.keySpan ?? f.keySpan,
          message: `${path} = ${String(recipe.values[k])} drives ${part}${f.inherited ? ` (set in ${f.inherited.name})` : ''}`,
          ...(f.inherited ? { file: f.inherited.file, range: f.inherited.range } : {}),
        });
    }
  const stage = e.estimate.stages.length > 1 ? ` (PP stage ${e.estimate.stage})` : '';
  // NeMo-RL without sequence packing or dynamic batching pads a micro-batch to its longest sample, not to
  // max_total_sequence_length: the estimate is the worst case, an information rather than a warning.
  const rl = recipe.rl?.values;
  const bound = rl !== undefined && rl.packing !== true && rl.dynamicBatching !== true;
  return [
    {
      code: 'RL-MEM',
      severity: bound ? 'info' : 'warning',
      message:
        (bound ? `if a micro-batch reaches ${recipe.values.seq} tokens (NeMo-RL pads to the longest sample of a batch): ` : '') +
        `estimated ${g(p.total)} per GPU${stage} exceeds the ${e.gpu.name} (${g(e.gpu.bytes)})${assumedGpu(e.gpuAssumed === true)}: ` +
        `activations ${g(p.activations)}, transient ${g(p.transient)}, weights ${g(p.weights)}, gradients ${g(p.gradients)}, optimizer ${g(p.optimizer)}, overheads ${g(p.overhead)}`,
      path: pathToString(seq.path),
      span: seq.valueSpan,
      related,
    },
  ];
}

/**
 * A TensorRT-LLM role whose weights, non-KV runtime and recurrent state do not fit its GPU, or whose free memory cannot
 * hold one request of max_seq_len. A pool capped on purpose by max_tokens or max_gpu_total_bytes is the user's choice,
 * not a finding.
 */
function servingFindings(recipe: ServingRecipe, e: Extract<DocEstimate, { kind: 'serving' }>): Finding[] {
  // A serving file runs on the GPU its deployment names: with no GPU named (the silent default), one of the GPUs a
  // perf-sanity file lists (its CI runs it there, so a finding would only say the estimate is off), or a model only the
  // path suggests (its reference checkpoint may not be the one deployed), the estimate is shown, not warned about.
  if (e.gpuSource === 'default' || e.gpuSource === 'file' || e.model.source === 'path') return [];
  const out: Finding[] = [];
  for (const r of e.roles) {
    const k = r.kv;
    const loc = recipe.roles.find((x) => x.role === r.role)?.loc;
    const at = loc?.maxSeqLen ?? loc?.tp ?? loc?.kvConfig ?? loc?.maxNumTokens;
    if (!at) continue;
    const who = `${r.role ? `${r.role}: ` : ''}`;
    const parts = `weights ${g(k.weightBytes)} (${e.model.name}, ${
      r.weights.lines.length
        ? r.weights.lines
            .map((l) => l.storage)
            .filter((x, i, a) => a.indexOf(x) === i)
            .join(' / ')
        : 'none'
    }) + non-KV runtime ${g(k.runtimeBytes)}${r.stateBytes ? ` + recurrent state ${g(r.stateBytes)}` : ''}`;
    if (!r.fits) {
      out.push({
        code: 'RL-MEM',
        severity: 'warning',
        message: `${who}${parts} exceed the ${e.gpu.name} (${g(e.gpu.bytes)}) at TP ${r.tp}${r.pp > 1 ? ` PP ${r.pp}` : ''}${r.cp > 1 ? ` CP ${r.cp}` : ''}${r.attentionDp ? ' with attention DP' : ''}`,
        path: pathToString(at.path),
        span: at.valueSpan,
      });
      continue;
    }
    if (k.limit !== 'free_gpu_memory_fraction' || k.requestsAtMaxSeqLen >= 1) continue;
    const need = k.blocksPerSequence * k.bytesPerBlock;
    out.push({
      code: 'RL-MEM',
      severity: 'warning',
      message: `${who}the KV pool (${g(k.allocatedBytes)}) cannot hold one request of ${r.maxSeqLen} tokens (${g(need)}) on the ${e.gpu.name}: ${parts} of ${g(e.gpu.bytes)}`,
      path: pathToString(at.path),
      span: at.valueSpan,
    });
  }
  return out;
}
