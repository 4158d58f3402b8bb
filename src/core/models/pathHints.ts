// Model and GPU hints in a document's path. Upstream config databases and recipe folders put the model and the GPU in
// the path (TensorRT-LLM `examples/configs/database/deepseek-ai/DeepSeek-R1-0528/B200/8k1k_tp8_conc64.yaml`, Megatron-Bridge
// `scripts/performance/configs/llama31/llama31_405b_llm_pretrain.yaml`, NeMo-Framework-Launcher `training/llama/llama3_1_405b.yaml`).
// A hint is taken only when one path segment names exactly one catalogue model (or one GPU); it is always an assumption
// that says which segment it came from.
import { findGpu } from '../memory/gpus.js';
import { matchModelName } from './catalogue.js';
import { pathSegments } from './files.js';
import { unmodelledByName } from './unmodelled.js';

export interface PathModelHint {
  /** The reference to resolve (`deepseek-ai/DeepSeek-R1-0528`, `llama3.1_405b`). */
  ref: string;
  /** The path segment(s) it was read from, as written. */
  segment: string;
}

export interface PathHints {
  model?: PathModelHint;
  /** A segment that names a model family or several models: no hint, but the choices go into the reason. */
  ambiguous?: { segment: string; choices: string[] };
  gpu?: { id: string; segment: string };
  /** Several GPUs named in the path: no hint. */
  gpuConflict?: string[];
}

/**
 * Words of recipe and serving-config file names that name no model: what the file does (pretrain, sft, override,
 * example), serving roles (prefill, decode, agg), kernels and backends, and precision tags. They are dropped before a
 * segment is matched against the catalogue.
 */
const NOISE = new Set([
  'pretrain',
  'pretraining',
  'finetune',
  'finetuning',
  'tuning',
  'training',
  'train',
  'sft',
  'peft',
  'lora',
  'dpo',
  'rm',
  'ppo',
  'grpo',
  'override',
  'overrides',
  'example',
  'examples',
  'config',
  'configs',
  'conf',
  'recipe',
  'recipes',
  'llm',
  'moe',
  'perf',
  'performance',
  'dryrun',
  'mfsdp',
  'fsdp',
  'release',
  'proxy',
  'model',
  'agg',
  'disagg',
  'prefill',
  'decode',
  'ctx',
  'gen',
  'latency',
  'throughput',
  'deepgemm',
  'mtp',
  'eagle',
  'simple',
  'sc',
  'cs',
  'mx',
  // Data sets of fine-tuning recipes (`squad_qwen2_7b`).
  'squad',
  'gsm8k',
  'dolly',
  'alpaca',
]);
/** Parallel layouts, sizes of a benchmark and GPU counts in file names (`tp8`, `conc64`, `8k1k`, `1n8g`, `64n8g`). */
const LAYOUT = /^((tp|pp|cp|ep|dp|etp|emp|vp|vpp|conc|mbs|gbs|bs|nodes|seq)\d+\w*|\d+k\d+k|\d+n\d+g|\d+gpus?|gpus?\d+)$/;
/** GPU names as they appear in paths (`B200`, `gb200`, `H100`, `B200_NVL` is a B200 system). */
const GPU_WORD = /^(h100|h200|h20|b200|b300|gb200|gb300|a100|l40s)$/;

/** `llama3_1_405b` → `llama3.1_405b`: NeMo and the Launcher write a version's dot as an underscore after a name's digit. */
export function dottedVersion(name: string): string {
  return name.replace(/([a-z])(\d)_(\d)(?=[_.-]|$)/gi, '$1$2.$3');
}

const tokensOf = (segment: string) =>
  dottedVersion(segment.replace(/\.(ya?ml|json)$/i, ''))
    .split(/[-_\s]+/)
    .filter(Boolean);

/** A parallel layout, benchmark size or GPU word (`tp8`, `8k1k`, `B200`): never part of a model's name. */
const layoutOrGpu = (t: string) => LAYOUT.test(t.toLowerCase()) || GPU_WORD.test(t.toLowerCase());

/** The model words of one segment: noise, layout and GPU words dropped. */
function modelWords(segment: string): string[] {
  return tokensOf(segment).filter((t) => !NOISE.has(t.toLowerCase()) && !layoutOrGpu(t));
}

export type NameMatch = { kind: 'found'; ref: string } | { kind: 'ambiguous'; choices: string[] } | { kind: 'none' };

/** Size words of model names: `405b`, `8x22b`, `a22b`, `128e`. */
const SIZE = /^(\d+(\.\d+)?[bmt]|\d+x\d+(\.\d+)?[bm]|a\d+(\.\d+)?b|\d+e)$/i;
/**
 * Words that name another model of a family (`DeepSeek-V3-Lite` is a 16B test model, not DeepSeek-V3; `GLM-4.5-Air`,
 * `Qwen3-Coder`, `Qwen3-VL`): like a size word, a run may not drop one.
 */
const VARIANT =
  /^(lite|mini|small|medium|large|tiny|micro|nano|super|ultra|flash|pro|air|turbo|plus|max|coder|next|vl|vision|omni|audio)$/i;
/** How many of `words` a run must keep: its size and variant words. */
const kept = (words: readonly string[]) => words.filter((w) => SIZE.test(w) || VARIANT.test(w)).length;

/**
 * The model a file or run name names: the longest leading run of its model words that names one catalogue model
 * (`llama31_405b_llm_pretrain` → `llama31-405b`, `deepseek_v3_pretrain_h100_fp8_sc_v2` → `deepseek-v3-fp8-v2`). A run must
 * keep every size and variant word of the name (`qwen3.5_moe_400b` is no `qwen3.5` model of another size,
 * `deepseek_v3_lite` no DeepSeek-V3) and, when the name has several words, at least two. A run that fits several models
 * is reported only when no run names one.
 */
export function modelInName(name: string): NameMatch {
  // The whole name first, noise words kept: an alias may hold one (`gemma4_moe`, TensorRT-LLM AutoDeploy's registry name).
  const whole = tokensOf(name)
    .filter((t) => !layoutOrGpu(t))
    .join('-');
  const w = whole ? matchModelName(whole) : undefined;
  if (w?.kind === 'found' && w.via !== 'name-tokens') return { kind: 'found', ref: whole };
  const words = modelWords(name);
  const must = kept(words);
  let ambiguous: string[] | undefined;
  for (let n = words.length; n >= Math.min(2, words.length); n--) {
    const run = words.slice(0, n);
    if (kept(run) < must) break;
    const ref = run.join('-');
    const m = matchModelName(ref);
    if (m.kind === 'found') return { kind: 'found', ref };
    if (m.kind === 'ambiguous') ambiguous ??= m.entries.map((e) => e.id);
  }
  return ambiguous ? { kind: 'ambiguous', choices: ambiguous } : { kind: 'none' };
}

/** Every analysis of a document asks for the same path: the answers are kept (bounded). */
const CACHE = new Map<string, PathHints>();

/** Model and GPU hints in `documentPath`, read from the file name back to the root. */
export function pathHints(documentPath: string | undefined): PathHints {
  if (!documentPath) return {};
  const hit = CACHE.get(documentPath);
  if (hit) return hit;
  const out = readHints(documentPath);
  if (CACHE.size >= 256) CACHE.clear();
  CACHE.set(documentPath, out);
  return out;
}

function readHints(documentPath: string): PathHints {
  const segs = pathSegments(documentPath);
  const out: PathHints = {};
  // Model: an `org/name` pair of segments that is a catalogue HF id first, then single segments from the file name up.
  for (let i = segs.length - 1; i >= 0 && !out.model; i--) {
    const seg = segs[i]!;
    if (i > 0) {
      const pair = `${segs[i - 1]}/${seg}`;
      const m = matchModelName(pair);
      if (m.kind === 'found' && m.via === 'hf-id') {
        out.model = { ref: pair, segment: pair };
        break;
      }
    }
    const m = modelInName(seg);
    if (m.kind === 'found') out.model = { ref: m.ref, segment: seg };
    else if (m.kind === 'ambiguous' && !out.ambiguous) out.ambiguous = { segment: seg, choices: m.choices };
    // A model Recipe Lens knows but does not model is still the model the path names: resolving it says why no estimate.
    else if (unmodelledByName(seg)) out.model = { ref: seg.replace(/\.(ya?ml|json)$/i, ''), segment: seg };
  }
  if (out.model) delete out.ambiguous;
  // GPU: every GPU word anywhere in the path; one GPU is a hint, several are none.
  const gpus = new Map<string, string>();
  for (const seg of segs)
    for (const t of tokensOf(seg)) {
      const k = t.toLowerCase();
      if (!GPU_WORD.test(k)) continue;
      const g = findGpu(k);
      if (g && !gpus.has(g.id)) gpus.set(g.id, seg);
    }
  if (gpus.size === 1) {
    const [id, segment] = [...gpus][0]!;
    out.gpu = { id, segment };
  } else if (gpus.size > 1) out.gpuConflict = [...gpus.keys()];
  return out;
}
