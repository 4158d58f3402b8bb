// NeMo-RL's own launch checks (RL-N1 …), each written once as a predicate on the merged config's values, with the
// upstream assertion it mirrors (NVIDIA-NeMo/RL at 7ea279a unless a release range says otherwise). Checks that newer
// releases added carry that range: against no named release they warn (rules in versions.ts).
import type { TrainingField } from '../formats/fields.js';
import type { NemoRlField, NemoRlRead } from '../formats/nemoRl.js';
import type { TrainingRecipe } from '../recipe.js';
import { releaseGate, type ReleaseRange } from '../versions.js';
import { hitSink, pos, type FixChoice, type HitSink, type RuleHit } from './hit.js';
import { derivedSizes } from './training.js';

export type NemoRlRuleField = TrainingField | NemoRlField;
export type NemoRlHit = RuleHit<NemoRlRuleField>;

const since = (holdsFrom: string, source: string, acceptedThrough?: string): ReleaseRange => ({
  framework: 'nemo_rl',
  holdsFrom,
  ...(acceptedThrough ? { acceptedThrough } : {}),
  source,
});

// Release ranges, from the tags of NVIDIA-NeMo/RL that first carry each assertion.
const BOTH_BACKENDS = since('0.4.0', 'nemo_rl/models/policy/lm_policy.py', '0.3.1'); // v0.3 let megatron_cfg win silently
const FORCE_ON_POLICY = since('0.5.0', 'nemo_rl/algorithms/grpo.py setup');
const VLLM_EP = since('0.4.0', 'nemo_rl/models/generation/vllm/vllm_generation.py');
const ASYNC_IS = since('0.4.0', 'nemo_rl/algorithms/grpo.py async_grpo_train');
const CHUNKED_LOGPROBS = since('0.4.0', 'nemo_rl/models/megatron/setup.py _validate_chunking_config');
const DRAFT = since('0.6.0', 'nemo_rl/models/policy/lm_policy.py');
const HSDP = since('0.7.0', 'nemo_rl/models/policy/lm_policy.py');
const LORA_V1 = since('0.5.0', 'nemo_rl/models/policy/lm_policy.py');
/** Not in a release yet (main after v0.7.0). */
const OPTIMIZER_OFFLOAD: ReleaseRange = {
  framework: 'nemo_rl',
  source: 'nemo_rl/models/megatron/setup.py _validate_optimizer_config (after v0.7.0)',
};

export function nemoRlRules(r: TrainingRecipe, rl: NemoRlRead): NemoRlHit[] {
  const out: NemoRlHit[] = [];
  const v = r.values;
  const x = rl.values;
  const hit = hitSink(out);
  const { versioned, note } = releaseGate(r.target);
  const cluster: NemoRlRuleField[] = ['gpusPerNode', 'numNodes'];
  const generates = rl.algorithm === 'grpo' || rl.algorithm === 'distillation';

  // RL-N1 / RL-N2 — lm_policy.py Policy.__init__: exactly one training backend.
  if (x.megatronEnabled === true && x.dtensorEnabled === true)
    hit(
      'RL-N1',
      versioned(BOTH_BACKENDS),
      `policy.megatron_cfg.enabled and policy.dtensor_cfg.enabled are both true; NeMo-RL trains with one backend ("Configure either Megatron … or DTensor …, not both")${note(BOTH_BACKENDS)}`,
      ['dtensorEnabled', 'megatronEnabled'],
      { fixes: [{ set: { dtensorEnabled: false } }, { set: { megatronEnabled: false } }] },
    );
  const megatronOff = x.megatronEnabled === false || (!('megatronEnabled' in rl.loc) && rl.complete);
  if (x.dtensorEnabled === false && megatronOff)
    hit(
      'RL-N2',
      'error',
      'neither policy.megatron_cfg.enabled nor policy.dtensor_cfg.enabled is true; NeMo-RL needs one training backend (lm_policy.py: "Please either set policy.megatron_cfg.enabled=true … or set policy.dtensor_cfg.enabled=true")',
      ['dtensorEnabled', 'megatronEnabled'],
      { fixes: [{ set: { dtensorEnabled: true } }] },
    );

  // RL-N3 / RL-N4 — lm_policy.py: dynamic batching excludes sequence packing and pipeline parallelism.
  if (x.dynamicBatching === true && x.packing === true)
    hit(
      'RL-N3',
      'error',
      'policy.dynamic_batching and policy.sequence_packing are both enabled; NeMo-RL asserts "Dynamic Batching is exclusive of Sequence Packing"',
      ['dynamicBatching', 'packing'],
      { fixes: [{ set: { dynamicBatching: false } }, { set: { packing: false } }] },
    );
  if (x.dynamicBatching === true && pos(v.pp) && v.pp > 1)
    hit(
      'RL-N4',
      'error',
      `dynamic batching with pipeline parallelism PP = ${v.pp}; NeMo-RL asserts "Dynamic batching is only supported for single pipeline parallel stage"`,
      ['dynamicBatching', 'pp'],
      { fixes: [{ set: { dynamicBatching: false } }] },
    );

  // RL-N5 — models/megatron/setup.py: context parallelism on Megatron needs packed sequences (cu_seqlens).
  if (rl.backend === 'megatron' && pos(v.cp) && v.cp > 1 && x.packing === false)
    hit(
      'RL-N5',
      'error',
      `context_parallel_size ${v.cp} with policy.sequence_packing disabled; NeMo-RL asserts "Sequence Packing must be enabled to use Context Parallelism with MCore"`,
      ['packing', 'cp'],
      { fixes: [{ set: { packing: true } }] },
    );

  // RL-N6 — lm_policy.py: TP ≥ 4 with a logprob batch other than the training micro-batch (known accuracy issue).
  // NRL_IGNORE_TP_ACCURACY_CHECK skips it, and grpo.py sets that variable for force_on_policy_ratio: a warning.
  if (pos(v.tp) && v.tp >= 4 && pos(x.logprobBatch) && pos(v.mbs) && x.logprobBatch !== v.mbs && x.forceOnPolicy !== true)
    hit(
      'RL-N6',
      'warning',
      `tensor parallelism ${v.tp} ≥ 4 with logprob_batch_size ${x.logprobBatch} ≠ train_micro_batch_size ${v.mbs}: NeMo-RL (v0.6.0 and newer) stops with "a known batch-variant accuracy issue with TP>=4" unless NRL_IGNORE_TP_ACCURACY_CHECK is set or loss_fn.force_on_policy_ratio is true`,
      ['logprobBatch', 'mbs', 'tp'],
      { fixes: [{ set: { logprobBatch: v.mbs } }] },
    );

  // RL-N7 / RL-N8 — distributed/batched_data_dict.py shard_by_batch_size; megatron/data.py and the DTensor workers take data.size // mbs micro-batches.
  // The data-parallel size NeMo-RL trains with: world / (TP·PP·CP) (lm_policy.py NamedSharding layout).
  const dp = derivedSizes(v, r.world?.size).dp;
  const gbs = v.gbs;
  if (dp !== undefined && pos(gbs) && gbs % dp !== 0)
    hit(
      'RL-N7',
      'error',
      `train_global_batch_size ${gbs} is not a multiple of the data-parallel size ${dp} (${r.world!.size} GPUs / TP·PP·CP); NeMo-RL asserts "Batch size (${gbs}) is not a multiple of shards (${dp})" at the first step`,
      ['gbs'],
      { context: ['tp', 'pp', 'cp', ...cluster] },
    );
  else if (dp !== undefined && pos(gbs) && pos(v.mbs) && x.packing !== true && x.dynamicBatching !== true && (gbs / dp) % v.mbs !== 0)
    hit(
      'RL-N8',
      'warning',
      `each data-parallel rank trains on ${gbs / dp} samples per step (train_global_batch_size ${gbs} / DP ${dp}) in micro-batches of ${v.mbs}: the last ${(gbs / dp) % v.mbs} are dropped (data.size // train_micro_batch_size)`,
      ['mbs', 'gbs'],
    );

  // RL-N9 / RL-N10 — the step's rollouts are sharded in chunks of train_global_batch_size (shard_by_batch_size), and
  // force_on_policy_ratio needs exactly one chunk (grpo.py setup).
  const prompts = x.numPrompts;
  const gens = x.numGenerations;
  if (generates && pos(prompts) && pos(gens) && pos(gbs) && x.dynamicSampling !== true) {
    const total = prompts * gens;
    if (total % gbs !== 0)
      hit(
        'RL-N9',
        'error',
        `a step trains on num_prompts_per_step × num_generations_per_prompt = ${prompts} × ${gens} = ${total} samples, not a multiple of train_global_batch_size ${gbs}; NeMo-RL asserts "Total batch size (${total}) is not a multiple of batch_size (${gbs})"`,
        ['gbs', 'numPrompts', 'numGenerations'],
      );
    else if (rl.algorithm === 'grpo' && x.forceOnPolicy === true && total !== gbs)
      hit(
        'RL-N10',
        versioned(FORCE_ON_POLICY),
        `loss_fn.force_on_policy_ratio needs train_global_batch_size (${gbs}) = num_prompts_per_step × num_generations_per_prompt (${total})${note(FORCE_ON_POLICY)}`,
        ['forceOnPolicy', 'gbs'],
        { context: ['numPrompts', 'numGenerations'], fixes: [{ set: { gbs: total } }] },
      );
  }

  // RL-N11 — grpo.py / distillation.py setup: non-colocated generation's own GPUs.
  if (generates && x.colocated === false) nonColocated(rl, hit);

  // RL-N12 / RL-N13 — vllm_generation.py VllmGeneration.__init__.
  if (generates && x.genBackend === 'vllm') vllmRules(rl, hit, versioned, note);

  // RL-N14 — grpo.py async_grpo_train: off-policy samples need importance sampling, and an async engine.
  if (rl.algorithm === 'grpo' && x.asyncGrpo === true) {
    if (x.importanceSampling === false)
      hit(
        'RL-N14',
        versioned(ASYNC_IS),
        `grpo.async_grpo is enabled but loss_fn.use_importance_sampling_correction is false; NeMo-RL asserts "Importance sampling correction must be enabled for async GRPO"${note(ASYNC_IS)}`,
        ['importanceSampling', 'asyncGrpo'],
        { fixes: [{ set: { importanceSampling: true } }] },
      );
    if (x.genBackend === 'vllm' && x.vllmAsync === false)
      hit(
        'RL-N14',
        versioned(ASYNC_IS),
        `grpo.async_grpo is enabled but policy.generation.vllm_cfg.async_engine is false; NeMo-RL asserts "Async GRPO requires … an async vLLM … generation engine"${note(ASYNC_IS)}`,
        ['vllmAsync', 'asyncGrpo'],
        { fixes: [{ set: { vllmAsync: true } }] },
      );
  }

  // RL-N15 — dpo.py setup: anything that reorders a batch breaks the chosen/rejected pairs.
  if (rl.algorithm === 'dpo')
    for (const f of ['dynamicBatching', 'packing'] as const)
      if (x[f] === true)
        hit(
          'RL-N15',
          'error',
          `${f === 'packing' ? 'sequence packing' : 'dynamic batching'} is not supported with DPO (dpo.py: "… is currently not supported with DPO")`,
          [f],
          { fixes: [{ set: { [f]: false } }] },
        );

  // RL-N16 — models/megatron/setup.py _validate_optimizer_config.
  if (rl.backend === 'megatron' && v.optimizerCpuOffload === true && v.distOpt === false)
    hit(
      'RL-N16',
      versioned(OPTIMIZER_OFFLOAD),
      `optimizer_cpu_offload needs use_distributed_optimizer: true${note(OPTIMIZER_OFFLOAD)}`,
      ['optimizerCpuOffload', 'distOpt'],
      { fixes: [{ set: { distOpt: true } }] },
    );

  // RL-N17 — models/megatron/setup.py _validate_chunking_config: chunked logprobs cast logits to fp32 chunk by chunk.
  if (rl.backend === 'megatron' && pos(x.logprobChunk) && x.deferFp32Logits !== true && (x.deferFp32Logits === false || rl.complete))
    hit(
      'RL-N17',
      versioned(CHUNKED_LOGPROBS),
      `policy.logprob_chunk_size ${x.logprobChunk} needs policy.megatron_cfg.defer_fp32_logits: true ("defer_fp32_logits must be True if logprob_chunk_size is set")${note(CHUNKED_LOGPROBS)}`,
      ['logprobChunk', 'deferFp32Logits'],
      { fixes: [{ set: { deferFp32Logits: true } }] },
    );

  // RL-N18 — lm_policy.py: draft (Eagle) training only on Megatron, without sequence packing.
  if (x.draftEnabled === true) {
    if (rl.backend === 'dtensor')
      hit('RL-N18', versioned(DRAFT), `policy.draft.enabled needs the Megatron backend${note(DRAFT)}`, ['draftEnabled', 'dtensorEnabled']);
    if (x.packing === true)
      hit('RL-N18', versioned(DRAFT), `policy.draft.enabled does not support sequence packing yet${note(DRAFT)}`, [
        'draftEnabled',
        'packing',
      ]);
  }

  // RL-N19 — lm_policy.py: HSDP and LoRA need the DTensor v2 (Automodel) worker.
  if (rl.backend === 'dtensor' && x.dtensorV2 !== true && (x.dtensorV2 === false || rl.complete)) {
    if (pos(x.dpReplicate) && x.dpReplicate > 1)
      hit(
        'RL-N19',
        versioned(HSDP),
        `dtensor_cfg.dp_replicate_size ${x.dpReplicate} needs dtensor_cfg._v2: true (HSDP is not supported with the V1 DTensor worker)${note(HSDP)}`,
        ['dpReplicate', 'dtensorV2'],
        { fixes: [{ set: { dtensorV2: true } }] },
      );
    if (x.dtensorLora === true)
      hit(
        'RL-N19',
        versioned(LORA_V1),
        `dtensor_cfg.lora_cfg needs dtensor_cfg._v2: true ("LoRA is not supported for DTensorPolicyWorker V1")${note(LORA_V1)}`,
        ['dtensorLora', 'dtensorV2'],
        { fixes: [{ set: { dtensorV2: true } }] },
      );
  }
  return out;
}

type Hit = HitSink<NemoRlRuleField>;

/** RL-N11 — grpo.py / distillation.py setup: where non-colocated generation runs, asserted before any GPU is claimed. */
function nonColocated(rl: NemoRlRead, hit: Hit): void {
  const x = rl.values;
  const gpn = x.gpusPerNode;
  const nodes = x.numNodes;
  const g = x.genGpusPerNode;
  const gn = x.genNodes;
  if (!pos(gpn) || !pos(nodes)) return;
  if (nodes === 1) {
    if (!pos(g))
      hit(
        'RL-N11',
        'error',
        'non-colocated generation on one node needs policy.generation.colocated.resources.gpus_per_node set to a value > 0 (the GPUs it takes from the node)',
        ['genGpusPerNode', 'colocated'],
      );
    else if (g >= gpn)
      hit(
        'RL-N11',
        'error',
        `non-colocated generation takes ${g} of the node's ${gpn} GPUs and leaves none for training ("No enough GPUs for training")`,
        ['genGpusPerNode', 'gpusPerNode'],
        { fixes: gpn > 1 ? [{ set: { genGpusPerNode: Math.floor(gpn / 2) } }] : [] },
      );
    if (gn !== null && gn !== undefined && gn !== 1)
      hit(
        'RL-N11',
        'error',
        `policy.generation.colocated.resources.num_nodes must be 1 or null when cluster.num_nodes is 1, got ${String(gn)}`,
        ['genNodes', 'numNodes'],
        { fixes: [{ set: { genNodes: null } }] },
      );
    return;
  }
  if (!pos(gn))
    hit(
      'RL-N11',
      'error',
      `non-colocated generation on a ${nodes}-node cluster needs policy.generation.colocated.resources.num_nodes > 0 (whole nodes for generation)`,
      ['genNodes', 'colocated'],
    );
  else if (gn >= nodes)
    hit(
      'RL-N11',
      'error',
      `non-colocated generation takes ${gn} of the ${nodes} nodes and leaves none for training ("Non-colocated mode requires train_nodes > 0")`,
      ['genNodes', 'numNodes'],
    );
  if (g !== gpn)
    hit(
      'RL-N11',
      'error',
      `policy.generation.colocated.resources.gpus_per_node must equal cluster.gpus_per_node ${gpn} when generation takes whole nodes, got ${String(g ?? 'null')}`,
      ['genGpusPerNode', 'gpusPerNode'],
      { fixes: [{ set: { genGpusPerNode: gpn } }] },
    );
}

/** RL-N12 / RL-N13 — vllm_generation.py: the generation cluster holds whole TP·PP instances; PP needs the async engine; EP is DP × TP. */
function vllmRules(
  rl: NemoRlRead,
  hit: Hit,
  versioned: (r: ReleaseRange) => NemoRlHit['severity'] | null,
  note: (r: ReleaseRange) => string,
): void {
  const x = rl.values;
  const tp = x.vllmTp;
  const pp = x.vllmPp ?? 1;
  const gen = rl.genWorld;
  if (pos(tp) && pos(pp) && 'size' in gen && gen.size % (tp * pp) !== 0) {
    const fixes: FixChoice<NemoRlRuleField>[] = [];
    for (let t = tp - 1; t >= 1; t--)
      if (gen.size % (t * pp) === 0) {
        fixes.push({ set: { vllmTp: t } });
        break;
      }
    hit(
      'RL-N12',
      'error',
      `the ${gen.size} generation GPUs are not a multiple of vLLM tensor_parallel_size × pipeline_parallel_size = ${tp}·${pp} = ${tp * pp} ("World size must be a multiple of model parallel size")`,
      ['vllmTp', ...(pp > 1 ? (['vllmPp'] as const) : [])],
      { context: x.colocated === false ? ['genGpusPerNode', 'genNodes'] : ['gpusPerNode', 'numNodes'], fixes },
    );
  }
  if (pos(pp) && pp > 1 && x.vllmAsync === false)
    hit(
      'RL-N13',
      'error',
      `vLLM pipeline_parallel_size ${pp} needs vllm_cfg.async_engine: true ("When pipeline_parallel_size > 1, async_engine must be set to True")`,
      ['vllmAsync', 'vllmPp'],
      { fixes: [{ set: { vllmAsync: true } }] },
    );
  const ep = x.vllmEp;
  if (pos(ep) && ep > 1 && pos(tp) && ep % tp !== 0)
    hit(
      'RL-N13',
      versioned(VLLM_EP),
      `vLLM expert_parallel_size ${ep} must be a multiple of tensor_parallel_size ${tp} (vLLM's EP = DP × TP)${note(VLLM_EP)}`,
      ['vllmEp', 'vllmTp'],
    );
}
