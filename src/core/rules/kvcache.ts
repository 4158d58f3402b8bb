// KV-cache rules K1–K17 for TensorRT-LLM options and disaggregated configs (formats.md §6.2).
// K1, the type of K3, the length of K8 and the per-item half of K9 are field ranges: the schema carries them (`x-rule`).
import type { RecipeDoc } from '../document.js';
import { lookup } from '../tree.js';
import type { Finding, PathSeg } from '../types.js';
import { emit, fmt } from './emit.js';
import { factAt, type Fact } from './facts.js';

/** Each place a KvCacheConfig can sit: the root of an options file, each server role of a disagg file. */
function sections(doc: RecipeDoc, disagg: boolean): PathSeg[][] {
  if (!disagg) return [[]];
  return [[], ['context_servers'], ['generation_servers']].filter((p) => lookup(doc.root, p));
}

/** KV cache dtypes: the named ones of validate_dtype plus the torch dtype spellings it accepts. */
export const KV_DTYPES = new Set([
  'auto',
  'fp8',
  'fp8_ds_mla',
  'nvfp4',
  'bfloat16',
  'float16',
  'float32',
  'half',
  'float',
  'bf16',
  'fp16',
  'fp32',
]);

const isPow2 = (n: number) => Number.isInteger(n) && n > 1 && (n & (n - 1)) === 0;

export function kvCacheRules(doc: RecipeDoc, disagg: boolean): Finding[] {
  const out: Finding[] = [];
  for (const base of sections(doc, disagg)) {
    const at = (...p: PathSeg[]): Fact | undefined => factAt(doc, [...base, ...p]);
    const kv = (...p: PathSeg[]) => at('kv_cache_config', ...p);
    // K2: cross_kv_cache_fraction is for encoder-decoder models only — llm_args.py field description.
    const cross = kv('cross_kv_cache_fraction');
    if (cross && cross.value !== null)
      out.push(
        ...emit(
          'RL-K2',
          'warning',
          `cross_kv_cache_fraction ${fmt(cross.value)} is only for encoder-decoder models; TensorRT-LLM rejects it for decoder-only models`,
          [cross],
        ),
      );
    // K3: the dtype is one TensorRT-LLM knows — llm_args.py validate_dtype (lower-cased; torch dtype names pass).
    const dtypeFact = kv('dtype');
    if (typeof dtypeFact?.value === 'string' && !KV_DTYPES.has(dtypeFact.value.toLowerCase()))
      out.push(
        ...emit(
          'RL-K3',
          'warning',
          `kv_cache_config.dtype ${JSON.stringify(dtypeFact.value)} is not a KV cache dtype TensorRT-LLM lists (${[...KV_DTYPES].slice(0, 7).join(', ')}, …)`,
          [dtypeFact],
        ),
      );
    // K4: fp8_ds_mla excludes pool rebalancing — llm_args.py reject_fp8_ds_mla_pool_rebalance.
    const dtype = kv('dtype');
    const rebalance = kv('enable_kv_pool_rebalance');
    if (typeof dtype?.value === 'string' && dtype.value.toLowerCase() === 'fp8_ds_mla' && rebalance?.value === true)
      out.push(
        ...emit('RL-K4', 'error', `kv_cache_config.dtype ${dtype.value} cannot be used with enable_kv_pool_rebalance: true`, [
          rebalance,
          dtype,
        ]),
      );
    // K5: a disk tier needs a path — llm_args.py validate_disk_cache_config.
    const disk = kv('disk_cache_size');
    const diskPath = kv('disk_cache_path');
    if (typeof disk?.value === 'number' && disk.value > 0 && (!diskPath || diskPath.value === null || diskPath.value === ''))
      out.push(...emit('RL-K5', 'error', `disk_cache_size ${disk.value} needs disk_cache_path (an existing directory)`, [disk, diskPath]));
    // K6: extra mamba snapshots need KV cache manager v2 — llm_args.py validate_mamba_snapshot_offsets.
    const v2 = kv('use_kv_cache_manager_v2');
    if (v2?.value === false) {
      for (const k of ['additional_snapshot_offsets_from_start', 'additional_snapshot_offsets_from_end', 'enable_branch_snapshot']) {
        const f = kv('mamba_state_config', k);
        if (f && ((Array.isArray(f.value) && f.value.length > 0) || f.value === true))
          out.push(...emit('RL-K6', 'error', `mamba_state_config.${k} requires use_kv_cache_manager_v2 (it is false)`, [f, v2]));
      }
    }
    // K7: the legacy interval and its replacement are exclusive — llm_args.py migrate_legacy_mamba_interval.
    const legacy = kv('mamba_state_cache_interval');
    const periodic = kv('mamba_state_config', 'periodic_snapshot_interval');
    if (legacy && legacy.value !== null && periodic && periodic.value !== null)
      out.push(
        ...emit(
          'RL-K7',
          'error',
          `set mamba_state_config.periodic_snapshot_interval (${fmt(periodic.value)}) or the deprecated mamba_state_cache_interval (${fmt(legacy.value)}), not both`,
          [legacy, periodic],
        ),
      );
    // K8: every window is positive (-1 is TensorRT-LLM's recurrent-state sentinel) — llm_args.py validate_max_attention_window.
    const windows = kv('max_attention_window');
    if (Array.isArray(windows?.value))
      windows.value.forEach((w, i) => {
        const item = kv('max_attention_window', i);
        if (item && typeof w === 'number' && Number.isInteger(w) && w <= 0 && w !== -1)
          out.push(...emit('RL-K8', 'error', `max_attention_window[${i}] is ${w}; attention windows must be positive`, [item]));
      });
    // K9: pool_ratio sums to 1 — llm_args.py validate_pool_ratio.
    const ratio = kv('pool_ratio');
    if (Array.isArray(ratio?.value) && ratio.value.length && ratio.value.every((x) => typeof x === 'number')) {
      const sum = (ratio.value as number[]).reduce((a, b) => a + b, 0);
      if (Math.abs(sum - 1) > 1e-6)
        out.push(...emit('RL-K9', 'error', `pool_ratio entries must sum to 1.0, they sum to ${+sum.toFixed(6)}`, [ratio]));
    }
    // K10: tokens_per_block is a power of two > 1 — docs/source/features/kvcache.md.
    const tpb = kv('tokens_per_block');
    if (typeof tpb?.value === 'number' && !isPow2(tpb.value))
      out.push(
        ...emit(
          'RL-K10',
          'warning',
          `tokens_per_block ${tpb.value} should be a power of two greater than 1 (docs: "It must be a power of two greater than 1")`,
          [tpb],
        ),
      );
    // K11: KV events need block reuse — kvcache.md.
    const events = kv('event_buffer_max_size');
    const reuse = kv('enable_block_reuse');
    if (typeof events?.value === 'number' && events.value > 0 && reuse?.value === false)
      out.push(
        ...emit(
          'RL-K11',
          'warning',
          `event_buffer_max_size ${events.value} has no effect with enable_block_reuse: false (events describe reusable blocks)`,
          [events, reuse],
        ),
      );
    // K12: the host-offload threshold only matters with a host tier — kvcache.md.
    const minPrio = kv('secondary_offload_min_priority');
    const host = kv('host_cache_size');
    if (minPrio && minPrio.value !== null && !(typeof host?.value === 'number' && host.value > 0))
      out.push(
        ...emit(
          'RL-K12',
          'warning',
          `secondary_offload_min_priority ${fmt(minPrio.value)} has no effect without a host tier (host_cache_size is ${host ? fmt(host.value) : 'not set'}; set it > 0)`,
          [minPrio, host],
        ),
      );
    // K13: several capacity limits: the smallest wins — llm_args.py field descriptions.
    const caps = [kv('max_tokens'), kv('free_gpu_memory_fraction'), kv('max_gpu_total_bytes')].filter(
      (f): f is Fact => !!f && f.value !== null && f.value !== 0,
    );
    if (caps.length > 1)
      out.push(
        ...emit(
          'RL-K13',
          'info',
          `${caps.map((c) => `${c.path.split('.').pop()} ${fmt(c.value)}`).join(', ')} all limit the KV cache; the smallest resulting pool wins`,
          caps,
        ),
      );
    // K14: the streaming KV-events path is rejected at startup — kvcache.md "Streaming path (unsupported)".
    const stream = kv('kv_events_config');
    if (stream && stream.value !== null)
      out.push(
        ...emit(
          'RL-K14',
          'error',
          'kv_events_config (streaming KV events) is rejected at startup; use event_buffer_max_size and the /kv_cache_events endpoint',
          [stream],
        ),
      );
    // K16: block_reuse_policy was renamed to policy — BlockReuseConfig._reject_renamed_block_reuse_policy.
    const oldPolicy = kv('block_reuse_config', 'block_reuse_policy');
    if (oldPolicy) {
      const hit = lookup(doc.root, [...base, 'kv_cache_config', 'block_reuse_config', 'block_reuse_policy']);
      out.push(
        ...emit(
          'RL-K16',
          'error',
          '`block_reuse_policy` was renamed to `policy`',
          [oldPolicy],
          hit?.entry ? [{ title: 'Rename to policy', edits: [{ span: hit.entry.keySpan, newText: 'policy' }] }] : undefined,
        ),
      );
    }
    // K17: KV events are served for the PyTorch backend only — Dynamo components/src/dynamo/trtllm/main.py.
    const backend = at('backend');
    if (
      typeof events?.value === 'number' &&
      events.value > 0 &&
      typeof backend?.value === 'string' &&
      backend.value.toLowerCase() !== 'pytorch'
    )
      out.push(
        ...emit('RL-K17', 'info', `KV cache events are published for backend: pytorch only (this file uses ${backend.value})`, [
          events,
          backend,
        ]),
      );
  }
  // K15: prefill and decode must agree on the KV dtype — Dynamo wide_ep_prefill.yaml comment.
  if (disagg) {
    const ctx = factAt(doc, ['context_servers', 'kv_cache_config', 'dtype']);
    const gen = factAt(doc, ['generation_servers', 'kv_cache_config', 'dtype']);
    const top = factAt(doc, ['kv_cache_config', 'dtype']);
    const c = String(ctx?.value ?? top?.value ?? 'auto');
    const g = String(gen?.value ?? top?.value ?? 'auto');
    if (c.toLowerCase() !== g.toLowerCase())
      out.push(
        ...emit(
          'RL-K15',
          'warning',
          `KV cache dtype differs between context (${c}) and generation (${g}) servers; the transferred cache must have one dtype`,
          [ctx ?? top, gen ?? top],
        ),
      );
  }
  return out;
}
