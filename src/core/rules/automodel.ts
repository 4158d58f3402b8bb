// NeMo Automodel's own launch checks (RL-AM1 …), each once as a predicate on the recipe's values, with the upstream check
// it mirrors (NVIDIA-NeMo/Automodel at 36044ad). Checks that releases added carry that range: against no named
// release they warn (versions.ts).
import { checkpointingMode, checkpointingSkipped, type AutomodelField, type AutomodelRead } from '../formats/automodel.js';
import type { TrainingField } from '../formats/fields.js';
import type { TrainingRecipe } from '../recipe.js';
import { releaseGate, type ReleaseRange } from '../versions.js';
import { divisors, hitSink, nearest, pos, type RuleHit } from './hit.js';
import { derivedSizes } from './training.js';

export type AutomodelRuleField = TrainingField | AutomodelField;
export type AutomodelHit = RuleHit<AutomodelRuleField>;

const since = (holdsFrom: string | undefined, source: string): ReleaseRange => ({
  framework: 'automodel',
  ...(holdsFrom ? { holdsFrom } : {}),
  source,
});
// Release ranges, from the tags of NVIDIA-NeMo/Automodel that first carry each check.
const STRATEGY = since('0.5.0', 'nemo_automodel/recipes/_dist_utils.py parse_distributed_section');
const MATCH_ALL = since('0.4.0', 'nemo_automodel/components/_peft/module_matcher.py ModuleMatcher.__post_init__');
/** Not in a release yet (main after v0.5.0, #2616). */
const PIPELINE_BLOCK = since(undefined, 'nemo_automodel/recipes/_dist_utils.py parse_distributed_section (after v0.5.0)');

const STRATEGIES = ['fsdp2', 'megatron_fsdp', 'ddp'];

/** The data-parallel size the mesh gets: dp_size, else world / (tp·cp·pp) (mesh_utils.py _infer_dp_size). */
export function automodelDataParallel(r: TrainingRecipe, am: AutomodelRead): number | undefined {
  return pos(am.values.dpSize) ? am.values.dpSize : derivedSizes(r.values, r.world?.size).dp;
}

const nonEmpty = (x: unknown) => (typeof x === 'string' && x !== '') || (Array.isArray(x) && x.length > 0);

export function automodelRules(r: TrainingRecipe, am: AutomodelRead): AutomodelHit[] {
  const out: AutomodelHit[] = [];
  const v = r.values;
  const x = am.values;
  const hit = hitSink(out);
  const { versioned, note } = releaseGate(r.target);
  const size = (n: unknown) => (pos(n) ? n : 1);
  const [tp, pp, cp, ep] = [size(v.tp), size(v.pp), size(v.cp), size(v.ep)];
  const rep = size(x.dpReplicate);
  const strategy = am.strategy;
  const dp = automodelDataParallel(r, am);

  // RL-AM1 — strategy names (distributed/config.py _resolve_strategy_config, lower-cased).
  if (typeof x.strategy === 'string' && !STRATEGIES.includes(strategy))
    hit(
      'RL-AM1',
      versioned(STRATEGY),
      `distributed.strategy "${x.strategy}" is none of ${STRATEGIES.join(', ')}${note(STRATEGY)}`,
      ['strategy'],
      {
        fixes: STRATEGIES.map((s) => ({ set: { strategy: s } })),
      },
    );
  // RL-AM2 — what Megatron FSDP and DDP cannot do (mesh_utils.py _create_device_meshes _require_size_one).
  const unsupported: [AutomodelRuleField, number, string][] =
    strategy === 'megatron_fsdp'
      ? [
          ['pp', pp, 'pipeline parallelism'],
          ['ep', ep, 'expert parallelism'],
        ]
      : strategy === 'ddp'
        ? [
            ['tp', tp, 'tensor parallelism'],
            ['pp', pp, 'pipeline parallelism'],
            ['cp', cp, 'context parallelism'],
            ['ep', ep, 'expert parallelism'],
          ]
        : [];
  for (const [f, n, what] of unsupported)
    if (n > 1)
      hit('RL-AM2', versioned(STRATEGY), `strategy ${strategy} does not support ${what} (${f}_size ${n})${note(STRATEGY)}`, [f], {
        context: ['strategy'],
        fixes: [{ set: { [f]: 1 } }],
      });
  if (rep > 1 && strategy !== 'fsdp2' && STRATEGIES.includes(strategy))
    hit(
      'RL-AM2',
      versioned(STRATEGY),
      `dp_replicate_size ${rep} needs strategy fsdp2 (HSDP), not ${strategy}${note(STRATEGY)}`,
      ['dpReplicate'],
      {
        context: ['strategy'],
      },
    );
  // RL-AM3, RL-AM4 — HSDP: the replicas must split the data-parallel group (mesh_utils.py _create_fsdp2_device_mesh).
  if (strategy === 'fsdp2' && dp !== undefined && rep > 1) {
    if (dp % rep !== 0)
      hit('RL-AM3', 'error', `dp_size ${dp} is not a multiple of dp_replicate_size ${rep}`, ['dpReplicate', 'dpSize'], {
        fixes: nearest(divisors(dp), rep)
          .filter((n) => n < dp)
          .map((n) => ({ set: { dpReplicate: n } })),
      });
    else if (rep >= dp)
      hit(
        'RL-AM4',
        'error',
        `dp_replicate_size ${rep} must be less than dp_size ${dp}: FSDP2 does not run plain replication (DDP)`,
        ['dpReplicate', 'dpSize'],
        {
          fixes: [{ set: { dpReplicate: 1 } }],
        },
      );
  }
  // RL-AM5 — the expert mesh: dp·cp·tp must be a multiple of ep_size (mesh_utils.py _create_fsdp2_device_mesh).
  if (strategy === 'fsdp2' && dp !== undefined && ep > 1 && (dp * cp * tp) % ep !== 0) {
    const n = dp * cp * tp;
    hit('RL-AM5', 'error', `dp × cp × tp = ${dp}·${cp}·${tp} = ${n} is not a multiple of ep_size ${ep}`, ['ep'], {
      context: ['tp', 'cp', ...(pos(x.dpSize) ? (['dpSize'] as const) : [])],
      fixes: nearest(divisors(n), ep).map((e) => ({ set: { ep: e } })),
    });
  }
  // RL-AM6 — pipeline parallelism needs its schedule block (_dist_utils.py, #2616).
  if (pp > 1 && am.loc.pipeline === undefined)
    hit(
      'RL-AM6',
      versioned(PIPELINE_BLOCK),
      `pp_size ${pp} enables pipeline parallelism but there is no distributed.pipeline block (pp_schedule, pp_microbatch_size; \`pipeline: {}\` takes the defaults)${note(PIPELINE_BLOCK)}`,
      ['pp'],
    );
  // RL-AM7 — activation_checkpointing values (_dist_utils.py _normalize_activation_checkpointing) and where selective runs.
  const ac = checkpointingMode(x.activationCheckpointing);
  if (ac === 'invalid')
    hit(
      'RL-AM7',
      versioned(STRATEGY),
      `distributed.activation_checkpointing must be a boolean or one of full, selective, false${note(STRATEGY)}`,
      ['activationCheckpointing'],
    );
  else if (ac === 'selective' && strategy === 'megatron_fsdp')
    hit(
      'RL-AM7',
      versioned(STRATEGY),
      `selective activation checkpointing runs only with strategy fsdp2 or ddp, not megatron_fsdp${note(STRATEGY)}`,
      ['activationCheckpointing'],
      { context: ['strategy'] },
    );
  // Megatron FSDP on more than one GPU trains without checkpointing (formats/automodel.ts checkpointingSkipped).
  else if (checkpointingSkipped(am, r.world?.size))
    hit(
      'RL-AM7',
      'warning',
      'activation_checkpointing is skipped under strategy megatron_fsdp (megatron_fsdp.py: "not yet supported with MegatronFSDP. Skipping."): the run keeps every activation; the memory estimate counts it without checkpointing',
      ['activationCheckpointing'],
      { context: ['strategy'] },
    );
  // RL-AM8 — LoRA module matching takes one of target_modules, exclude_modules, match_all_linear (module_matcher.py).
  if (nonEmpty(x.peftTargets) && nonEmpty(x.peftExclude))
    hit('RL-AM8', 'error', 'peft.target_modules and peft.exclude_modules are mutually exclusive: give one of them', [
      'peftExclude',
      'peftTargets',
    ]);
  else if (x.peftMatchAll === true && (nonEmpty(x.peftTargets) || nonEmpty(x.peftExclude)))
    hit(
      'RL-AM8',
      versioned(MATCH_ALL),
      `peft.match_all_linear true with ${nonEmpty(x.peftTargets) ? 'target_modules' : 'exclude_modules'}: give only one of them${note(MATCH_ALL)}`,
      ['peftMatchAll'],
      { fixes: [{ set: { peftMatchAll: false } }] },
    );
  return out;
}
