// Markdown for a memory hover: the most-loaded rank against the GPU, the breakdown, and what-if deltas.
import type { ServingField } from '../formats/fields.js';
import { reestimate, type DocEstimate } from './estimate.js';
import { rlPhaseSummary } from './nemoRlReport.js';
import { variantsFor, type Lever } from './whatIf.js';
import { gibNumber, mib } from '../units.js';

const g = (b: number) => gibNumber(b, 1);
const VERDICT = { fits: 'fits', tight: 'tight (over 90%)', 'does-not-fit': '**does not fit**' } as const;

export function memoryHoverMarkdown(e: Extract<DocEstimate, { kind: 'training' }>, lever: Lever | undefined): string {
  const t = e.estimate;
  const p = t.perGpu;
  const lines: string[] = [];
  const stage = t.stages.length > 1 ? `, PP stage ${t.stage}` : '';
  lines.push(
    `**Per-GPU memory** (most-loaded rank${stage}): **${g(p.device)} GiB** of ${g(e.gpu.bytes)} GiB ${e.gpu.name} — ${VERDICT[t.fit.verdict]}`,
  );
  lines.push('', `allocated ${g(p.allocated)} · reserved ${g(p.reserved)} · device ${g(p.device)} GiB`);
  if (t.stages.length > 1)
    lines.push(
      '',
      `stages (allocated / reserved / device GiB): ${t.stages.map((s) => `${s.stage === t.stage ? '**' : ''}${s.stage}: ${g(s.allocated)} / ${g(s.reserved)} / ${g(s.device)}${s.stage === t.stage ? '**' : ''}`).join(' · ')}`,
    );
  lines.push('');
  lines.push('| | GiB |', '|---|---:|');
  lines.push(
    `| weights | ${g(p.weights)} |`,
    `| gradients | ${g(p.gradients)} |`,
    `| optimizer | ${g(p.optimizer)} |`,
    `| activations | ${g(p.activations)} |`,
  );
  if (p.transient) lines.push(`| transient peaks | ${g(p.transient)} |`);
  lines.push(`| overheads | ${g(p.overhead)} |`);
  if (lever) {
    const deltas: string[] = [];
    for (const v of variantsFor(lever, e.config, e.shape.layers)) {
      const n = reestimate(e, v.config);
      const key = lever === 'tp' || lever === 'pp' ? 'total' : 'activations';
      const before = key === 'total' ? p.total : p.activations;
      const after = key === 'total' ? n.perGpu.total : n.perGpu.activations;
      deltas.push(
        `- ${v.label}: ${key} ${g(before)} → ${g(after)} GiB${key === 'total' ? '' : `, total ${g(p.total)} → ${g(n.perGpu.total)} GiB`}`,
      );
    }
    if (deltas.length) lines.push('', '**What if**', ...deltas);
  }
  if (e.rl) lines.push('', `**NeMo-RL step** (the table is the training phase):`, ...rlPhaseSummary(e.rl, e.gpu).map((l) => `- ${l}`));
  lines.push(
    '',
    `_${e.config.profile === 'hf' ? 'Hugging Face' : 'Megatron-Core + TE'} profile, ${e.config.attention} attention; ${t.assumptions.length} assumption${t.assumptions.length === 1 ? '' : 's'} — see the planning panel or \`recipe-lens estimate\`_`,
  );
  return lines.join('\n');
}

/** Serving fields whose hover shows the KV pool (and every key under kv_cache_config). */
export const KV_FIELDS: ReadonlySet<ServingField> = new Set<ServingField>([
  'kvConfig',
  'kvDtype',
  'tokensPerBlock',
  'freeGpuMemoryFraction',
  'maxTokens',
  'maxGpuTotalBytes',
  'hostCacheSize',
  'maxSeqLen',
  'maxNumTokens',
  'maxBatchSize',
  'tp',
  'pp',
  'attentionDp',
  'maxBeamWidth',
]);

export function servingHoverMarkdown(e: Extract<DocEstimate, { kind: 'serving' }>, role: string | undefined): string {
  const r = e.roles.find((x) => x.role === role) ?? e.roles.find((x) => x.role === 'generation_servers') ?? e.roles[0]!;
  const k = r.kv;
  const lines = [
    `**KV cache** (${e.shape.name}${r.role ? `, ${r.role}` : ''}, TP ${r.tp}${r.pp > 1 ? ` PP ${r.pp}` : ''} on ${e.gpu.name}): **${k.bytesPerToken.toLocaleString('en-US')} B/token** (${k.perToken.dtype})`,
    '',
    `| | |`,
    `|---|---:|`,
    `| block (${k.tokensPerBlock} tokens) | ${mib(k.bytesPerBlock)} |`,
    `| weights per GPU | ${g(k.weightBytes)} GiB |`,
    `| non-KV runtime | ${g(k.runtimeBytes)} GiB |`,
    `| pool (${k.limit}) | ${g(k.allocatedBytes)} GiB = ${k.poolTokens.toLocaleString('en-US')} tokens |`,
    `| requests of ${r.maxSeqLen.toLocaleString('en-US')} tokens | ${k.requestsAtMaxSeqLen} |`,
  ];
  if (k.host.bytes) lines.push(`| host tier | ${g(k.host.bytes)} GiB = ${k.host.tokens.toLocaleString('en-US')} tokens |`);
  lines.push('', '_bytes/token = K,V · local layers · ⌈kv_heads/TP⌉ · head_dim · bytes (TensorRT-LLM resource_manager.py)_');
  return lines.join('\n');
}

export function retentionHoverMarkdown(e: Extract<DocEstimate, { kind: 'retention' }>): string {
  const c = e.coverage;
  const lines = [
    `**KV retention** — ${c.tokensPerBlock}-token blocks; a block takes the priority of the range holding its first token`,
    '',
  ];
  for (const r of c.perRange)
    lines.push(
      `- range ${r.range}: priority **${r.priority}**, blocks ${r.firstBlock}–${r.endBlock === null ? 'end of prompt' : r.endBlock - 1}${r.blocks !== null ? ` (${r.blocks})` : ''}`,
    );
  lines.push(`- decode blocks: priority **${c.decodePriority}**${c.decodeDurationMs !== null ? ` for ${c.decodeDurationMs} ms` : ''}`);
  const order = c.evictionOrder.map((l) => `${l.priority}${l.decode ? ' (decode)' : ''}`).join(' → ');
  lines.push(
    '',
    `Evicted first → last: ${order}. Below ${c.secondaryOffloadMinPriority} (secondary_offload_min_priority default) blocks are dropped instead of offloaded to host.`,
  );
  return lines.join('\n');
}
