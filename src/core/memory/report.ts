// Plain-text report of an estimate (the CLI's `estimate` output).
import type { DocEstimate } from './estimate.js';
import { kvTokenFormula } from './kvcache.js';
import { rlPhasesText } from './nemoRlReport.js';
import { describeWeights } from '../models/resolve.js';
import { gib } from '../units.js';

const pct = (b: number, total: number) => `${((100 * b) / total).toFixed(1)}%`;

export function estimateText(e: Exclude<DocEstimate, { kind: 'none' }>): string {
  if (e.kind === 'serving') return servingText(e);
  if (e.kind === 'retention') return retentionText(e);
  const t = e.estimate;
  const p = t.parallel;
  const out: string[] = [];
  out.push(`${e.shape.name} · ${e.format} · ${e.config.profile} profile, ${e.config.attention} attention`);
  out.push(
    `seq ${e.config.seq} · micro-batch ${e.config.microBatch} · TP ${p.tp} PP ${p.pp}${p.vpp ? ` VPP ${p.vpp}` : ''} CP ${p.cp} EP ${p.ep} DP ${p.dp ?? '?'}${p.sp ? ' SP' : ''} · world ${p.worldSize ?? '?'}`,
  );
  out.push(`GPU ${e.gpu.name}: ${gib(e.gpu.bytes)}`);
  out.push('');
  const g = t.perGpu;
  out.push(
    `most-loaded rank${t.stages.length > 1 ? ` (PP stage ${t.stage})` : ''}: allocated ${gib(g.allocated)}, reserved ${gib(g.reserved)}, device ${gib(g.device)} — ${t.fit.verdict} (${(t.fit.fraction * 100).toFixed(1)}% of the GPU)`,
  );
  out.push('  (allocated = torch.cuda.max_memory_allocated; reserved = max_memory_reserved; device = reserved + CUDA context + NCCL)');
  const first = t.stages[t.stage]?.firstIteration;
  if (first !== undefined && first < g.allocated)
    out.push(
      `  first iteration of a fresh run: allocated ${gib(first)} (the first optimizer step creates the optimizer states after its forward/backward; a memory report "(after 1 iterations)" shows this)`,
    );
  const after = t.stages[t.stage]?.afterStep;
  if (after !== undefined)
    out.push(
      `  after each optimizer step: allocated ${gib(after)} (weights, gradient buffers, optimizer states and persistent buffers; a memory report's "allocated" field shows this)`,
    );
  const w = Math.max(...t.breakdown.map((l) => l.label.length));
  for (const l of t.breakdown)
    out.push(
      `  ${l.label.padEnd(w)}  ${gib(l.bytes).padStart(11)}  ${pct(l.bytes, t.perGpu.total).padStart(6)}  ${l.level.padEnd(9)}  ${l.formula}`,
    );
  if (t.stages.length > 1) {
    out.push('', `per pipeline stage (${t.pipeline.how}):`, '  stage  layers   allocated    reserved      device  in flight');
    for (const s of t.stages)
      out.push(
        `  ${String(s.stage).padStart(5)}  ${String(s.layers).padStart(6)}  ${gib(s.allocated).padStart(10)}  ${gib(s.reserved).padStart(10)}  ${gib(s.device).padStart(10)}  ${t.pipeline.vpp > 1 ? `${s.inFlight.passes} chunk passes (${s.inFlight.microbatches} micro-batches)` : `${s.inFlight.passes} micro-batch${s.inFlight.passes === 1 ? '' : 'es'}`}${s.stage === t.stage ? '  ← most loaded' : ''}`,
      );
  }
  if (t.assumptions.length) {
    out.push('', 'assumptions:');
    for (const a of t.assumptions) out.push(`  - ${a.what} (${a.source})`);
  }
  if (e.rl) out.push(...rlPhasesText(e.rl));
  return out.join('\n');
}

function servingText(e: Extract<DocEstimate, { kind: 'serving' }>): string {
  const out: string[] = [
    `${e.model.name} · ${e.format} · GPU ${e.gpu.name}: ${gib(e.gpu.bytes)}`,
    // A path segment's `where` already quotes the name it read.
    `model from ${e.model.where.includes(`"${e.model.ref}"`) ? e.model.where : `${e.model.where} "${e.model.ref}"`}; weights ${describeWeights(e.weights)} (${e.weights.source})`,
  ];
  for (const r of e.roles) {
    const k = r.kv;
    out.push('');
    out.push(
      `${r.role || 'server'}: TP ${r.tp}${r.pp > 1 ? ` PP ${r.pp}` : ''}${r.cp > 1 ? ` CP ${r.cp}` : ''} EP ${r.ep}${r.attentionDp ? ' (attention DP)' : ''} · ${r.gpus} GPU${r.gpus === 1 ? '' : 's'} per instance${r.instances !== undefined ? ` × ${r.instances}` : ''} · max_seq_len ${r.maxSeqLen}`,
    );
    out.push(`  each GPU holds${r.fits ? '' : ' (does not fit)'}:`);
    const w = Math.max(...r.weights.lines.map((l) => l.part.length), 14);
    for (const l of r.weights.lines) out.push(`    ${l.part.padEnd(w)}  ${gib(l.bytes).padStart(11)}  ${l.storage}, ${l.split}`);
    out.push(
      `    ${'weights'.padEnd(w)}  ${gib(r.holds.weights).padStart(11)}${r.weights.ppRank ? `  (PP rank ${r.weights.ppRank})` : ''}`,
    );
    out.push(`    ${'non-KV runtime'.padEnd(w)}  ${gib(r.holds.runtime).padStart(11)}`);
    if (r.holds.state) out.push(`    ${'recurrent state'.padEnd(w)}  ${gib(r.holds.state).padStart(11)}`);
    out.push(`    ${'KV cache pool'.padEnd(w)}  ${gib(r.holds.kvPool).padStart(11)}  limited by ${k.limit}`);
    out.push(`    ${'free'.padEnd(w)}  ${gib(r.holds.free).padStart(11)}`);
    out.push(
      `  KV cache ${k.perToken.dtype}: ${k.bytesPerToken} B/token (${kvTokenFormula(k.perToken)}), ${k.tokensPerBlock} tokens/block = ${k.bytesPerBlock} B/block; ${k.poolTokens} tokens = ${k.poolBlocks} blocks`,
    );
    out.push(
      `  one request of ${r.maxSeqLen} tokens needs ${k.blocksPerSequence} blocks: the pool holds ${k.requestsAtMaxSeqLen} such requests`,
    );
    if (k.host.bytes) out.push(`  host tier: ${gib(k.host.bytes)} = ${k.host.tokens} tokens = ${k.host.blocks} blocks`);
  }
  const all = [...e.assumptions, ...e.roles.flatMap((r) => r.kv.assumptions)];
  if (all.length) out.push('', 'assumptions:', ...all.map((a) => `  - ${a.what} (${a.source})`));
  return out.join('\n');
}

function retentionText(e: Extract<DocEstimate, { kind: 'retention' }>): string {
  const c = e.coverage;
  const out: string[] = [
    `KV retention · ${c.tokensPerBlock} tokens per block · decode priority ${c.decodePriority}${c.decodeDurationMs !== null ? ` for ${c.decodeDurationMs} ms` : ''}`,
  ];
  for (const r of c.perRange)
    out.push(
      `  range ${r.range}: priority ${r.priority}, blocks ${r.firstBlock}–${r.endBlock === null ? 'end' : r.endBlock - 1}${r.blocks !== null ? ` (${r.blocks})` : ''}`,
    );
  out.push('eviction order (lowest priority first):');
  for (const l of c.evictionOrder)
    out.push(
      `  priority ${l.priority}${l.decode ? ' (decode blocks)' : ''}${l.revertsAfterMs !== null ? `, reverts to 35 after ${l.revertsAfterMs} ms` : ''}: ${l.blocks.length} prompt blocks`,
    );
  out.push(
    `below secondary_offload_min_priority ${c.secondaryOffloadMinPriority} (dropped, not offloaded): ${c.notOffloaded.length} prompt blocks${c.decodeNotOffloaded ? ' and the decode blocks' : ''}`,
  );
  if (e.assumptions.length) out.push('', 'assumptions:', ...e.assumptions.map((a) => `  - ${a.what} (${a.source})`));
  return out.join('\n');
}
