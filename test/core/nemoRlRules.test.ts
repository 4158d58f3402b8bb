// NeMo-RL's own launch checks (RL-N1 …) and the Megatron rules on megatron_cfg: each fires on the configuration its
// upstream assertion rejects, with the severity its release range gives, and never on the valid base.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../helpers.js';

/** A complete GRPO config (no `defaults:`), Megatron backend, 2 nodes of 8 GPUs, colocated vLLM. */
const BASE = {
  grpo: { num_prompts_per_step: 32, num_generations_per_prompt: 16, use_dynamic_sampling: false, async_grpo: { enabled: false } },
  loss_fn: { reference_policy_kl_penalty: 0.01, force_on_policy_ratio: false, use_importance_sampling_correction: false },
  policy: {
    model_name: 'meta-llama/Llama-3.1-8B-Instruct',
    train_global_batch_size: 512,
    train_micro_batch_size: 1,
    logprob_batch_size: 1,
    max_total_sequence_length: 4096,
    precision: 'bfloat16',
    dtensor_cfg: { enabled: false, tensor_parallel_size: 1, context_parallel_size: 1, _v2: false },
    megatron_cfg: {
      enabled: true,
      tensor_model_parallel_size: 2,
      pipeline_model_parallel_size: 1,
      context_parallel_size: 1,
      expert_model_parallel_size: 1,
      expert_tensor_parallel_size: 1,
      sequence_parallel: true,
      activation_checkpointing: false,
      defer_fp32_logits: false,
      optimizer: { use_distributed_optimizer: true, optimizer_cpu_offload: false },
    },
    sequence_packing: { enabled: true, train_mb_tokens: 4096 },
    dynamic_batching: { enabled: false },
    generation: {
      backend: 'vllm',
      colocated: { enabled: true, resources: { gpus_per_node: null, num_nodes: null } },
      vllm_cfg: {
        tensor_parallel_size: 2,
        pipeline_parallel_size: 1,
        expert_parallel_size: 1,
        gpu_memory_utilization: 0.6,
        async_engine: false,
      },
    },
  },
  cluster: { gpus_per_node: 8, num_nodes: 2 },
};

type Tree = { [k: string]: unknown };
/** YAML of a tree (block style, flow lists), the shape NeMo-RL configs are written in. */
function yaml(t: Tree, indent = ''): string {
  let out = '';
  for (const [k, v] of Object.entries(t)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out += `${indent}${k}:\n${yaml(v as Tree, indent + '  ')}`;
    else out += `${indent}${k}: ${Array.isArray(v) ? `[${v.join(', ')}]` : v === null ? 'null' : String(v)}\n`;
  }
  return out;
}
/** BASE with `changes` (dotted paths) applied. */
function config(changes: Record<string, unknown> = {}, base: Tree = BASE): string {
  const t = structuredClone(base) as Tree;
  for (const [path, v] of Object.entries(changes)) {
    const keys = path.split('.');
    let cur = t;
    for (const k of keys.slice(0, -1)) cur = (cur[k] ??= {}) as Tree;
    if (v === undefined) delete cur[keys[keys.length - 1]!];
    else cur[keys[keys.length - 1]!] = v;
  }
  return yaml(t);
}
const findings = (changes: Record<string, unknown> = {}, versions?: string) => {
  const text = (versions ? `# recipe-lens: ${versions}\n` : '') + config(changes);
  return analyzeText(text).diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}: ${d.message}`);
};

test('the valid base has no finding, and its values are read from the Megatron backend', () => {
  assert.deepEqual(findings(), []);
  const r = analyzeText(config()).main!.recipe!;
  if (r.kind !== 'training') throw new Error('training');
  assert.deepEqual([r.table.family, r.values.tp, r.values.sp, r.world?.size, r.rl?.backend], ['mcore', 2, true, 16, 'megatron']);
});

test('RL-N1 both backends (a warning until a release is named: v0.3 let megatron_cfg win), RL-N2 none', () => {
  assert.deepEqual(findings({ 'policy.dtensor_cfg.enabled': true }), [
    'warning RL-N1 policy.dtensor_cfg.enabled: policy.megatron_cfg.enabled and policy.dtensor_cfg.enabled are both true; NeMo-RL trains with one backend ("Configure either Megatron … or DTensor …, not both"); NeMo-RL 0.4.0 and newer reject it; NeMo-RL 0.3.1 and older accept it (nemo_rl/models/policy/lm_policy.py); no NeMo-RL release named; add `# recipe-lens: nemo_rl=X.Y` or set recipeLens.versions',
  ]);
  assert.deepEqual(
    findings({ 'policy.dtensor_cfg.enabled': true }, 'nemo_rl=0.7.0').map((f) => f.split(':')[0]),
    ['error RL-N1 policy.dtensor_cfg.enabled'],
  );
  assert.deepEqual(findings({ 'policy.dtensor_cfg.enabled': true }, 'nemo_rl=0.3.0'), []);
  assert.deepEqual(findings({ 'policy.megatron_cfg.enabled': false }), [
    'error RL-N2 policy.dtensor_cfg.enabled: neither policy.megatron_cfg.enabled nor policy.dtensor_cfg.enabled is true; NeMo-RL needs one training backend (lm_policy.py: "Please either set policy.megatron_cfg.enabled=true … or set policy.dtensor_cfg.enabled=true")',
  ]);
});

test('RL-N3 / N4 / N5: dynamic batching, packing, pipeline and context parallelism', () => {
  assert.deepEqual(findings({ 'policy.dynamic_batching.enabled': true }), [
    'error RL-N3 policy.dynamic_batching.enabled: policy.dynamic_batching and policy.sequence_packing are both enabled; NeMo-RL asserts "Dynamic Batching is exclusive of Sequence Packing"',
  ]);
  assert.deepEqual(
    findings({
      'policy.dynamic_batching.enabled': true,
      'policy.sequence_packing.enabled': false,
      'policy.megatron_cfg.pipeline_model_parallel_size': 2,
    }),
    [
      'error RL-N4 policy.dynamic_batching.enabled: dynamic batching with pipeline parallelism PP = 2; NeMo-RL asserts "Dynamic batching is only supported for single pipeline parallel stage"',
    ],
  );
  assert.deepEqual(findings({ 'policy.sequence_packing.enabled': false, 'policy.megatron_cfg.context_parallel_size': 2 }), [
    'error RL-N5 policy.sequence_packing.enabled: context_parallel_size 2 with policy.sequence_packing disabled; NeMo-RL asserts "Sequence Packing must be enabled to use Context Parallelism with MCore"',
  ]);
});

test('RL-N6: TP ≥ 4 with a logprob batch other than the micro-batch warns; force_on_policy_ratio lifts it', () => {
  const tp4 = { 'policy.megatron_cfg.tensor_model_parallel_size': 4, 'policy.logprob_batch_size': 2 };
  assert.deepEqual(findings(tp4), [
    'warning RL-N6 policy.logprob_batch_size: tensor parallelism 4 ≥ 4 with logprob_batch_size 2 ≠ train_micro_batch_size 1: NeMo-RL (v0.6.0 and newer) stops with "a known batch-variant accuracy issue with TP>=4" unless NRL_IGNORE_TP_ACCURACY_CHECK is set or loss_fn.force_on_policy_ratio is true',
  ]);
  assert.deepEqual(findings({ ...tp4, 'loss_fn.force_on_policy_ratio': true, 'policy.train_global_batch_size': 512 }), []);
});

test('RL-N7 / N8: the global batch over data-parallel ranks and micro-batches; RL-R2 and RL-R3 do not apply', () => {
  // 16 GPUs / TP 2 = DP 8: 500 is no multiple of 8.
  assert.deepEqual(
    findings({ 'policy.train_global_batch_size': 500, 'grpo.num_prompts_per_step': 125, 'grpo.num_generations_per_prompt': 4 }),
    [
      'error RL-N7 policy.train_global_batch_size: train_global_batch_size 500 is not a multiple of the data-parallel size 8 (16 GPUs / TP·PP·CP); NeMo-RL asserts "Batch size (500) is not a multiple of shards (8)" at the first step',
    ],
  );
  // Unpacked: 512 / 8 = 64 samples per rank in micro-batches of 3: 1 dropped. Megatron's R2 would call it an error.
  assert.deepEqual(
    findings({ 'policy.sequence_packing.enabled': false, 'policy.train_micro_batch_size': 3, 'policy.logprob_batch_size': 3 }),
    [
      'warning RL-N8 policy.train_micro_batch_size: each data-parallel rank trains on 64 samples per step (train_global_batch_size 512 / DP 8) in micro-batches of 3: the last 1 are dropped (data.size // train_micro_batch_size)',
    ],
  );
  // CP 3 and a sequence of 4096 (no multiple of 2·CP): NeMo-RL pads packed sequences, R3 does not apply; 16 GPUs / (2·3) is R1.
  assert.deepEqual(
    findings({ 'policy.megatron_cfg.context_parallel_size': 3, 'cluster.num_nodes': 3 }).map((f) => f.split(':')[0]),
    [],
  );
});

test('RL-N9 / N10: a step of prompts × generations in global batches; force_on_policy_ratio needs exactly one', () => {
  assert.deepEqual(findings({ 'grpo.num_generations_per_prompt': 15 }), [
    'error RL-N9 policy.train_global_batch_size: a step trains on num_prompts_per_step × num_generations_per_prompt = 32 × 15 = 480 samples, not a multiple of train_global_batch_size 512; NeMo-RL asserts "Total batch size (480) is not a multiple of batch_size (512)"',
  ]);
  assert.deepEqual(findings({ 'grpo.num_generations_per_prompt': 15, 'grpo.use_dynamic_sampling': true }), []);
  assert.deepEqual(findings({ 'loss_fn.force_on_policy_ratio': true, 'policy.train_global_batch_size': 256 }, 'nemo_rl=0.7.0'), [
    'error RL-N10 loss_fn.force_on_policy_ratio: loss_fn.force_on_policy_ratio needs train_global_batch_size (256) = num_prompts_per_step × num_generations_per_prompt (512)',
  ]);
});

test('RL-N11: non-colocated generation takes GPUs out of the cluster, and the training world follows', () => {
  const oneNode = { 'cluster.num_nodes': 1, 'policy.generation.colocated.enabled': false };
  assert.deepEqual(findings(oneNode), [
    'error RL-N11 policy.generation.colocated.resources.gpus_per_node: non-colocated generation on one node needs policy.generation.colocated.resources.gpus_per_node set to a value > 0 (the GPUs it takes from the node)',
  ]);
  assert.deepEqual(findings({ ...oneNode, 'policy.generation.colocated.resources.gpus_per_node': 8 }), [
    'error RL-N11 policy.generation.colocated.resources.gpus_per_node: non-colocated generation takes 8 of the node\'s 8 GPUs and leaves none for training ("No enough GPUs for training")',
  ]);
  // 8 − 2 = 6 training GPUs: TP 2 → DP 3; GBS 512 is no multiple of 3 (RL-N7 on the world NeMo-RL really trains on).
  const six = analyzeText(config({ ...oneNode, 'policy.generation.colocated.resources.gpus_per_node': 2 }));
  const r = six.main!.recipe!;
  if (r.kind !== 'training') throw new Error('training');
  assert.deepEqual(r.world, { size: 6, source: 'file', note: '8 GPUs of the node − 2 for non-colocated generation' });
  assert.deepEqual(
    six.diagnostics.map((d) => d.code),
    ['RL-N7'],
  );
  assert.deepEqual(findings({ 'policy.generation.colocated.enabled': false, 'policy.generation.colocated.resources.num_nodes': 1 }), [
    'error RL-N11 policy.generation.colocated.resources.gpus_per_node: policy.generation.colocated.resources.gpus_per_node must equal cluster.gpus_per_node 8 when generation takes whole nodes, got null',
  ]);
});

test('RL-N12 / N13: vLLM instances tile the generation GPUs; PP needs the async engine; EP is a multiple of TP', () => {
  assert.deepEqual(findings({ 'policy.generation.vllm_cfg.tensor_parallel_size': 3 }), [
    'error RL-N12 policy.generation.vllm_cfg.tensor_parallel_size: the 16 generation GPUs are not a multiple of vLLM tensor_parallel_size × pipeline_parallel_size = 3·1 = 3 ("World size must be a multiple of model parallel size")',
  ]);
  assert.deepEqual(findings({ 'policy.generation.vllm_cfg.pipeline_parallel_size': 2 }), [
    'error RL-N13 policy.generation.vllm_cfg.async_engine: vLLM pipeline_parallel_size 2 needs vllm_cfg.async_engine: true ("When pipeline_parallel_size > 1, async_engine must be set to True")',
  ]);
  assert.deepEqual(findings({ 'policy.generation.vllm_cfg.expert_parallel_size': 3 }, 'nemo_rl=0.7.0'), [
    "error RL-N13 policy.generation.vllm_cfg.expert_parallel_size: vLLM expert_parallel_size 3 must be a multiple of tensor_parallel_size 2 (vLLM's EP = DP × TP)",
  ]);
});

test('RL-N14 async GRPO, RL-N15 DPO batching, RL-N16 optimizer offload, RL-N17 chunked logprobs', () => {
  assert.deepEqual(
    findings({ 'grpo.async_grpo.enabled': true }, 'nemo_rl=0.7.0').map((f) => f.split(':')[0]),
    ['error RL-N14 loss_fn.use_importance_sampling_correction', 'error RL-N14 policy.generation.vllm_cfg.async_engine'],
  );
  const dpo = config({
    grpo: undefined,
    'policy.generation': undefined,
    'policy.dynamic_batching.enabled': true,
    'policy.sequence_packing.enabled': false,
  }).replace(/^/, 'dpo:\n  max_num_steps: 10\n');
  assert.deepEqual(
    analyzeText(dpo).diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`),
    ['error RL-N15 dynamic batching is not supported with DPO (dpo.py: "… is currently not supported with DPO")'],
  );
  assert.deepEqual(
    findings({
      'policy.megatron_cfg.optimizer.optimizer_cpu_offload': true,
      'policy.megatron_cfg.optimizer.use_distributed_optimizer': false,
    }).map((f) => f.split(':')[0]),
    ['warning RL-N16 policy.megatron_cfg.optimizer.optimizer_cpu_offload'],
  );
  assert.deepEqual(findings({ 'policy.logprob_chunk_size': 1024 }, 'nemo_rl=0.7.0'), [
    'error RL-N17 policy.logprob_chunk_size: policy.logprob_chunk_size 1024 needs policy.megatron_cfg.defer_fp32_logits: true ("defer_fp32_logits must be True if logprob_chunk_size is set")',
  ]);
});

test('RL-N18 draft and RL-N19 DTensor v1 limits; on DTensor only the world-size rule of the Megatron set holds', () => {
  const dtensor = { 'policy.megatron_cfg.enabled': false, 'policy.dtensor_cfg.enabled': true };
  assert.deepEqual(
    findings({ ...dtensor, 'policy.draft.enabled': true }, 'nemo_rl=0.7.0').map((f) => f.split(':')[0]),
    ['error RL-N18 policy.draft.enabled', 'error RL-N18 policy.draft.enabled'],
  );
  assert.deepEqual(findings({ ...dtensor, 'policy.dtensor_cfg.dp_replicate_size': 2 }, 'nemo_rl=0.7.0'), [
    'error RL-N19 policy.dtensor_cfg.dp_replicate_size: dtensor_cfg.dp_replicate_size 2 needs dtensor_cfg._v2: true (HSDP is not supported with the V1 DTensor worker)',
  ]);
  // Sequence parallelism with TP 1 is megatron-core's error (R6), not DTensor's; TP 3 of 16 GPUs is R1 on both.
  assert.deepEqual(findings({ ...dtensor, 'policy.dtensor_cfg.sequence_parallel': true }), []);
  assert.deepEqual(findings({ 'policy.megatron_cfg.tensor_model_parallel_size': 1 }), [
    'warning RL-R6 policy.megatron_cfg.sequence_parallel: sequence_parallel is true but tensor_model_parallel_size is 1; newer Megatron-Bridge releases turn it off, older ones (and megatron-core on its own) stop with "Cannot use sequence parallelism without tensor parallelism"',
  ]);
  assert.deepEqual(
    findings({ ...dtensor, 'policy.dtensor_cfg.tensor_parallel_size': 3 }).map((f) => f.split(':')[0]),
    ['error RL-R1 policy.dtensor_cfg.tensor_parallel_size'],
  );
});

test('the Megatron rules use the shape of the model the file names: Llama 3.1 8B has 32 layers, 32 heads, 8 KV heads', () => {
  // PP 3 could hold 32 layers plus the embedding (33) if the model provider counts it in the split: no finding.
  assert.deepEqual(
    findings({ 'policy.megatron_cfg.pipeline_model_parallel_size': 3, 'cluster.gpus_per_node': 6, 'cluster.num_nodes': 1 }),
    [],
  );
  // PP 5 holds none of 32, 33, 34.
  assert.deepEqual(findings({ 'policy.megatron_cfg.pipeline_model_parallel_size': 5, 'cluster.gpus_per_node': 5 }), [
    'error RL-R4 policy.megatron_cfg.pipeline_model_parallel_size: num_layers 32 is not divisible by pipeline size PP = 5, whether or not the recipe counts the embedding and loss stages (the shape of meta-llama/Llama-3.1-8B-Instruct in the model catalogue)',
  ]);
  assert.deepEqual(findings({ 'policy.megatron_cfg.tensor_model_parallel_size': 6, 'cluster.gpus_per_node': 6, 'cluster.num_nodes': 1 }), [
    'error RL-R7 policy.megatron_cfg.tensor_model_parallel_size: num_attention_heads 32 must be a multiple of tensor_model_parallel_size 6 (the shape of meta-llama/Llama-3.1-8B-Instruct in the model catalogue)',
    'error RL-R8 policy.megatron_cfg.tensor_model_parallel_size: num_query_groups 8 must be a multiple or a divisor of tensor_model_parallel_size 6 (the shape of meta-llama/Llama-3.1-8B-Instruct in the model catalogue)',
  ]);
});

test('non-colocated on-policy-distillation teachers reserve their nodes before training and generation split the rest', () => {
  // 10 nodes: 2 teacher checkpoints (a third alias shares one, deduplicated), one of them on 2 nodes by its override,
  // 1 node of non-colocated generation → (10 − 3 − 1) × 8 = 48 training GPUs (grpo.py setup, teacher_worker_group.py).
  const opd = {
    'cluster.num_nodes': 10,
    'policy.generation.colocated.enabled': false,
    'policy.generation.colocated.resources.num_nodes': 1,
    'policy.generation.colocated.resources.gpus_per_node': 8,
    'on_policy_distillation.enabled': true,
    'on_policy_distillation.teacher_model_by_agent_name.math': 'org/teacher-a',
    'on_policy_distillation.teacher_model_by_agent_name.code': 'org/teacher-b',
    'on_policy_distillation.teacher_model_by_agent_name.chat': 'org/teacher-a',
    'on_policy_distillation.non_colocated_teachers.enabled': true,
    'on_policy_distillation.non_colocated_teachers.default_teacher_cfg.num_nodes': 1,
    'on_policy_distillation.non_colocated_teachers.teacher_overrides.code.num_nodes': 2,
  };
  const world = (changes: Record<string, unknown>) => {
    const r = analyzeText(config(changes)).main!.recipe!;
    return r.kind === 'training' ? r.world : undefined;
  };
  assert.deepEqual(world(opd), {
    size: 48,
    source: 'file',
    note: '10 nodes − 3 for non-colocated distillation teachers − 1 for non-colocated generation, × 8 GPUs',
  });
  // Without deduplication the third alias is a teacher of its own; colocated generation shares what the teachers leave.
  assert.equal(world({ ...opd, 'on_policy_distillation.deduplicate_shared_teacher_checkpoints': false })?.size, 40);
  assert.deepEqual(world({ ...opd, 'policy.generation.colocated.enabled': true }), {
    size: 56,
    source: 'file',
    note: '10 nodes − 3 for non-colocated distillation teachers, × 8 GPUs',
  });
  // Teachers off: the plain split.
  assert.equal(world({ ...opd, 'on_policy_distillation.non_colocated_teachers.enabled': false })?.size, 72);
});

test('cluster.segment_size: the training nodes are picked at run time by NVLink segment, so no world-size rule fires', () => {
  // 3 nodes of 8 with TP 2 × CP 8 = 16 would not divide 24 GPUs; with segment placement the world is not the file's to fix.
  const changes = { 'cluster.num_nodes': 3, 'policy.megatron_cfg.context_parallel_size': 8 };
  assert.ok(findings(changes).some((f) => f.startsWith('error RL-R1 ')));
  const a = analyzeText(config({ ...changes, 'cluster.segment_size': 16 }));
  const r = a.main!.recipe!;
  assert.equal(r.kind === 'training' ? r.world : 'x', undefined);
  assert.deepEqual(
    a.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
    [],
  );
});

test('a null NeMo-RL setting is "not set" (its config is a plain dict read with .get()): an information, never a type error', () => {
  assert.deepEqual(findings({ 'policy.model_name': null }), [
    'info RL-SCHEMA policy.model_name: `model_name` is null: NeMo-RL reads it as not set (an untyped config read as a plain dict); where the run needs a string here, pass it on the command line (policy.model_name=…)',
  ]);
  // A wrong type that is not null stays an error.
  assert.deepEqual(
    findings({ 'policy.model_name': 3 }).map((f) => f.split(':')[0]),
    ['error RL-SCHEMA policy.model_name'],
  );
});
