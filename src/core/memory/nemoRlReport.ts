// What the NeMo-RL phase estimate (memory/nemoRl.ts) says to a person: a line per phase for the hover and the panel
// caption, the phases with their lines for `recipe-lens estimate`, and RL-MEM on a phase around training that overflows.
import type { TrainingRecipe } from '../recipe.js';
import { pathToString } from '../tree.js';
import type { Finding } from '../types.js';
import { gib } from '../units.js';
import type { RlMemory, RlPhaseId } from './nemoRl.js';
import type { GpuSpec } from './types.js';

const PHASE_ORDER: readonly RlPhaseId[] = ['refit', 'generation', 'logprob', 'reference', 'teacher', 'training'];
const g1 = (b: number) => (b / 2 ** 30).toFixed(1);

/** One line per phase, in step order: what the status bar, the hover and the panel caption say about the step. */
export function rlPhaseSummary(rl: RlMemory, gpu: GpuSpec): string[] {
  return PHASE_ORDER.flatMap((id) => rl.phases.filter((p) => p.id === id)).map(
    (p) =>
      `${p.label}${p.gpus === 'generation' ? ' [generation GPUs]' : ''}: ${g1(p.bytes)} GiB of ${g1(gpu.bytes)} (${p.fit.verdict})${rl.peak.training === p.id || rl.peak.generation === p.id ? ' ← peak' : ''}`,
  );
}

/** The phases for `recipe-lens estimate` (text): each phase with its lines, the engine, the reference model, the teacher. */
export function rlPhasesText(rl: RlMemory): string[] {
  const out: string[] = [
    '',
    `NeMo-RL ${rl.algorithm} step (${rl.backend} backend, ${rl.colocated ? 'colocated generation' : 'generation on its own GPUs or none'}), per GPU:`,
  ];
  for (const p of PHASE_ORDER.flatMap((id) => rl.phases.filter((x) => x.id === id))) {
    const peak = rl.peak.training === p.id || rl.peak.generation === p.id ? '  ← peak' : '';
    out.push(
      `  ${p.label}${p.gpus === 'generation' ? ' [generation GPUs]' : ''}: ${gib(p.bytes)} — ${p.fit.verdict} (${(p.fit.fraction * 100).toFixed(1)}%)${peak}`,
    );
    if (p.id !== 'training') for (const l of p.lines) out.push(`      ${l.label}: ${gib(l.bytes)} — ${l.formula}`);
  }
  const gen = rl.generation;
  if (gen)
    out.push(
      `  ${gen.backend} TP ${gen.tp} PP ${gen.pp}: weights ${gib(gen.weightBytes)}, KV cache ${gib(gen.kvPoolBytes)} = ${gen.kvTokens} tokens at ${gen.kvBytesPerToken} B/token = ${gen.sequencesAtMaxLen} sequences of ${gen.maxModelLen}`,
    );
  out.push(
    `  reference model: ${rl.reference.loaded ? `loaded, ${rl.reference.why}; pinned CPU copy ${gib(rl.reference.hostBytes)} per GPU` : rl.reference.why}`,
  );
  if (rl.teacher)
    out.push(
      `  teacher ${rl.teacher.model}: TP ${rl.teacher.tp} PP ${rl.teacher.pp} CP ${rl.teacher.cp}, weights ${gib(rl.teacher.weightBytes)} per GPU`,
    );
  for (const a of rl.assumptions) out.push(`  - ${a.what} (${a.source})`);
  return out;
}

/** What a finding on the default GPU adds: no GPU was named, and how to name one. */
export const assumedGpu = (assumed: boolean) =>
  assumed ? ' — no GPU is named, so the default is assumed; name yours with `# recipe-lens: gpu=…`, --gpu or recipeLens.gpu' : '';

/**
 * RL-MEM for the phases around training (the training phase has its own RL-MEM, memory/diagnostics.ts): a phase that
 * does not fit, placed on the key that sizes it (generation: gpu_memory_utilization; logprobs: logprob_batch_size;
 * teacher: teacher.model_name).
 */
export function rlMemoryFindings(r: TrainingRecipe, rl: RlMemory, gpu: GpuSpec, gpuAssumed = false): Finding[] {
  const out: Finding[] = [];
  const read = r.rl;
  if (!read) return out;
  for (const p of rl.phases) {
    if (p.id === 'training' || p.fit.verdict !== 'does-not-fit') continue;
    const at =
      p.id === 'refit' || p.id === 'generation'
        ? (read.loc.vllmUtil ?? read.loc.trtllmUtil ?? read.loc.genBackend)
        : p.id === 'teacher'
          ? read.loc.teacherModel
          : (read.loc.logprobBatch ?? read.loc.logprobMbTokens ?? r.loc.seq);
    if (!at) continue;
    const top = [...p.lines].sort((a, b) => b.bytes - a.bytes).slice(0, 3);
    // Logprob and teacher passes over unpacked batches are sized by max_total_sequence_length, the worst case.
    const bound = p.id !== 'refit' && p.id !== 'generation' && read.values.packing !== true && read.values.dynamicBatching !== true;
    out.push({
      code: 'RL-MEM',
      severity: bound ? 'info' : 'warning',
      message: `${bound ? `if a micro-batch reaches ${r.values.seq} tokens (NeMo-RL pads to the longest sample of a batch): ` : ''}${p.label} needs an estimated ${gib(p.bytes, 1)} per GPU, more than the ${gpu.name} (${gib(gpu.bytes, 1)})${assumedGpu(gpuAssumed)}: ${top.map((l) => `${l.label} ${gib(l.bytes, 1)}`).join(', ')}`,
      path: pathToString(at.path),
      span: at.valueSpan,
      ...(at.inherited
        ? {
            related: [
              {
                path: pathToString(at.path),
                span: at.inherited.keySpan,
                file: at.inherited.file,
                range: at.inherited.range,
                message: `set in ${at.inherited.name}`,
              },
            ],
          }
        : {}),
    });
  }
  return out;
}
