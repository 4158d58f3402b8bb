// KV-cache rules K1–K17 for TensorRT-LLM options and disaggregated configs (formats.md §6.2), on each server
// role's normalized values. K1, the type of K3, the length of K8 and the per-item half of K9 are field ranges: the
// schema carries them (`x-rule`).
import type { ServingField, ServingValues } from '../formats/fields.js';
import { fmt, type Ref, type RuleHit } from './hit.js';

export type ServingHit = RuleHit<ServingField>;

export interface ServingRole {
  values: ServingValues;
  /** Whether the role's section (or the top level) writes the key. */
  written: (f: ServingField) => boolean;
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
const set = (x: unknown) => x !== undefined && x !== null;

/** The rules of one role; `group` is the role's index (hits refer to its keys). */
export function kvCacheRules(role: ServingRole, group = 0): ServingHit[] {
  const out: ServingHit[] = [];
  const v = role.values;
  const r = (field: ServingField, item?: number): Ref<ServingField> => ({ field, group, ...(item !== undefined ? { item } : {}) });
  const hit = (
    code: string,
    severity: ServingHit['severity'],
    message: string,
    fields: Ref<ServingField>[],
    rest: Partial<ServingHit> = {},
  ) => out.push({ code, severity, message, fields, ...rest });
  // K2 — llm_args.py: cross_kv_cache_fraction is for encoder-decoder models only.
  if (set(v.crossKvFraction))
    hit(
      'RL-K2',
      'warning',
      `cross_kv_cache_fraction ${fmt(v.crossKvFraction)} is only for encoder-decoder models; TensorRT-LLM rejects it for decoder-only models`,
      [r('crossKvFraction')],
    );
  // K3 — llm_args.py validate_dtype (lower-cased; torch dtype names pass).
  const dtype = v.kvDtype;
  if (typeof dtype === 'string' && !KV_DTYPES.has(dtype.toLowerCase()))
    hit(
      'RL-K3',
      'warning',
      `kv_cache_config.dtype ${JSON.stringify(dtype)} is not a KV cache dtype TensorRT-LLM lists (${[...KV_DTYPES].slice(0, 7).join(', ')}, …)`,
      [r('kvDtype')],
    );
  // K4 — llm_args.py reject_fp8_ds_mla_pool_rebalance.
  if (typeof dtype === 'string' && dtype.toLowerCase() === 'fp8_ds_mla' && v.rebalance === true)
    hit('RL-K4', 'error', `kv_cache_config.dtype ${dtype} cannot be used with enable_kv_pool_rebalance: true`, [
      r('rebalance'),
      r('kvDtype'),
    ]);
  // K5 — llm_args.py validate_disk_cache_config.
  if (
    typeof v.diskCacheSize === 'number' &&
    v.diskCacheSize > 0 &&
    (v.diskCachePath === undefined || v.diskCachePath === null || v.diskCachePath === '')
  )
    hit('RL-K5', 'error', `disk_cache_size ${v.diskCacheSize} needs disk_cache_path (an existing directory)`, [
      r('diskCacheSize'),
      r('diskCachePath'),
    ]);
  // K6 — llm_args.py validate_mamba_snapshot_offsets.
  if (v.kvManagerV2 === false)
    for (const [f, key] of [
      ['snapshotsFromStart', 'additional_snapshot_offsets_from_start'],
      ['snapshotsFromEnd', 'additional_snapshot_offsets_from_end'],
      ['branchSnapshot', 'enable_branch_snapshot'],
    ] as const) {
      const x = v[f];
      if ((Array.isArray(x) && x.length > 0) || x === true)
        hit('RL-K6', 'error', `mamba_state_config.${key} requires use_kv_cache_manager_v2 (it is false)`, [r(f), r('kvManagerV2')]);
    }
  // K7 — llm_args.py migrate_legacy_mamba_interval.
  if (set(v.mambaInterval) && set(v.mambaPeriodic))
    hit(
      'RL-K7',
      'error',
      `set mamba_state_config.periodic_snapshot_interval (${fmt(v.mambaPeriodic)}) or the deprecated mamba_state_cache_interval (${fmt(v.mambaInterval)}), not both`,
      [r('mambaInterval'), r('mambaPeriodic')],
    );
  // K8 — llm_args.py validate_max_attention_window (-1 is the recurrent-state sentinel).
  if (Array.isArray(v.maxAttentionWindow))
    v.maxAttentionWindow.forEach((w, i) => {
      if (typeof w === 'number' && Number.isInteger(w) && w <= 0 && w !== -1)
        hit('RL-K8', 'error', `max_attention_window[${i}] is ${w}; attention windows must be positive`, [r('maxAttentionWindow', i)]);
    });
  // K9 — llm_args.py validate_pool_ratio.
  const ratio = v.poolRatio;
  if (Array.isArray(ratio) && ratio.length && ratio.every((x) => typeof x === 'number')) {
    const sum = (ratio as number[]).reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > 1e-6)
      hit('RL-K9', 'error', `pool_ratio entries must sum to 1.0, they sum to ${+sum.toFixed(6)}`, [r('poolRatio')]);
  }
  // K10 — docs/source/features/kvcache.md.
  if (typeof v.tokensPerBlock === 'number' && !isPow2(v.tokensPerBlock))
    hit(
      'RL-K10',
      'warning',
      `tokens_per_block ${v.tokensPerBlock} should be a power of two greater than 1 (docs: "It must be a power of two greater than 1")`,
      [r('tokensPerBlock')],
    );
  // K11 — kvcache.md: events describe reusable blocks.
  const events = v.eventBufferMaxSize;
  if (typeof events === 'number' && events > 0 && v.enableBlockReuse === false)
    hit(
      'RL-K11',
      'warning',
      `event_buffer_max_size ${events} has no effect with enable_block_reuse: false (events describe reusable blocks)`,
      [r('eventBufferMaxSize'), r('enableBlockReuse')],
    );
  // K12 — kvcache.md: the host-offload threshold only matters with a host tier.
  if (set(v.secondaryOffloadMinPriority) && !(typeof v.hostCacheSize === 'number' && v.hostCacheSize > 0))
    hit(
      'RL-K12',
      'warning',
      `secondary_offload_min_priority ${fmt(v.secondaryOffloadMinPriority)} has no effect without a host tier (host_cache_size is ${role.written('hostCacheSize') ? fmt(v.hostCacheSize) : 'not set'}; set it > 0)`,
      [r('secondaryOffloadMinPriority'), r('hostCacheSize')],
    );
  // K13 — llm_args.py field descriptions: the smallest capacity limit wins.
  const caps = (
    [
      ['maxTokens', 'max_tokens'],
      ['freeGpuMemoryFraction', 'free_gpu_memory_fraction'],
      ['maxGpuTotalBytes', 'max_gpu_total_bytes'],
    ] as const
  ).filter(([f]) => set(v[f]) && v[f] !== 0);
  if (caps.length > 1)
    hit(
      'RL-K13',
      'info',
      `${caps.map(([f, key]) => `${key} ${fmt(v[f])}`).join(', ')} all limit the KV cache; the smallest resulting pool wins`,
      caps.map(([f]) => r(f)),
    );
  // K14 — kvcache.md "Streaming path (unsupported)".
  if (set(v.kvEventsConfig))
    hit(
      'RL-K14',
      'error',
      'kv_events_config (streaming KV events) is rejected at startup; use event_buffer_max_size and the /kv_cache_events endpoint',
      [r('kvEventsConfig')],
    );
  // K16 — BlockReuseConfig._reject_renamed_block_reuse_policy.
  if (role.written('oldBlockReusePolicy'))
    hit('RL-K16', 'error', '`block_reuse_policy` was renamed to `policy`', [r('oldBlockReusePolicy')], {
      fixes: [{ title: 'Rename to policy', rename: { ref: r('oldBlockReusePolicy'), to: 'policy' } }],
    });
  // K17 — Dynamo components/src/dynamo/trtllm/main.py: KV events for the PyTorch backend only.
  if (typeof events === 'number' && events > 0 && typeof v.backend === 'string' && v.backend.toLowerCase() !== 'pytorch')
    hit('RL-K17', 'info', `KV cache events are published for backend: pytorch only (this file uses ${v.backend})`, [
      r('eventBufferMaxSize'),
      r('backend'),
    ]);
  return out;
}

/** K15 — Dynamo wide_ep_prefill.yaml: prefill (context) and decode (generation) must agree on the KV dtype. */
export function disaggRules(ctx: ServingRole, gen: ServingRole, ctxGroup: number, genGroup: number): ServingHit[] {
  // A role with no instances (a generation-only or context-only deployment) transfers no cache.
  if (ctx.values.instances === 0 || gen.values.instances === 0) return [];
  const c = String(ctx.values.kvDtype ?? 'auto');
  const g = String(gen.values.kvDtype ?? 'auto');
  if (c.toLowerCase() === g.toLowerCase()) return [];
  return [
    {
      code: 'RL-K15',
      severity: 'warning',
      message: `KV cache dtype differs between context (${c}) and generation (${g}) servers; the transferred cache must have one dtype`,
      fields: [
        { field: 'kvDtype', group: ctxGroup },
        { field: 'kvDtype', group: genGroup },
      ],
    },
  ];
}
