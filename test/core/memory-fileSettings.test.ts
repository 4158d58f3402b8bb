// Every memory-relevant setting a recipe states reaches the memory model: Megatron-Bridge overrides (recipe names of
// mixed_precision.py included), NeMo 2 serializations, NeMo 1.x configs (Mamba models), Megatron-LM model configs and
// NeMo-RL's megatron_cfg, each read under its upstream name. The config read from a file must give the same estimate
// as the hand-written TrainingConfig it states.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import type { TrainingConfig } from '../../src/core/memory/config.js';
import { countParams } from '../../src/core/memory/params.js';
import { moeLayerFreqOf, parseLayerList } from '../../src/core/memory/recipeSettings.js';
import { estimateTraining } from '../../src/core/memory/training.js';
import { layoutStages } from '../../src/core/formats/megatronLm.js';
import { GPUS } from '../../src/core/memory/gpus.js';
import { CORPUS, modelShape, WILD } from '../helpers.js';
import { GPT70B_TUTORIAL_CONFIG, GPT70B_TUTORIAL_SHAPE } from '../gpt70bTutorial.js';
import { moonlight, qwen3, qwen3Offload } from '../measuredConfigs.js';

function training(text: string, settings: Parameters<typeof analyze>[1] = {}) {
  const e = analyze(text, { gpu: 'h100', ...settings }).main?.estimate;
  assert.ok(e && e.kind === 'training', e && e.kind === 'none' ? e.reason : 'no estimate');
  return e;
}

const pick = <K extends keyof TrainingConfig>(c: TrainingConfig, keys: K[]) => Object.fromEntries(keys.map((k) => [k, c[k]]));

test('Megatron list expressions: moe_layer_freq and pipeline layouts as arguments.py evaluates them', () => {
  assert.deepEqual(parseLayerList('([0]*3+[1]*11)'), [0, 0, 0, ...Array<number>(11).fill(1)]);
  assert.deepEqual(parseLayerList('[1,1,0]*2'), [1, 1, 0, 1, 1, 0]);
  assert.deepEqual(parseLayerList('([1]*3+[0]*2)*2'), [1, 1, 1, 0, 0, 1, 1, 1, 0, 0]);
  assert.equal(parseLayerList('__import__("os")'), undefined);
  assert.equal(moeLayerFreqOf(2), 2);
  assert.equal(moeLayerFreqOf('4'), 4);
  assert.deepEqual(moeLayerFreqOf([0, 1]), [0, 1]);
  // "Et*2|(tt|)*5t|tmL": E t*2 | tt | tt | tt | tt | tt | t | tmL — 8 stages.
  assert.equal(layoutStages('Et*2|(tt|)*5t|tmL'), 8);
  assert.equal(layoutStages('Et|(tt|)*6mL'), 8);
});

test('Megatron-LM deepseekv3 proxy: layout VPP, MLA ranks, MTP, MoE placement and runtime, expandable segments', () => {
  const file = 'Megatron-LM/deepseekv3_proxy_flex_tp1pp4emp16etp1cp1_release__model_config.yaml';
  const e = training(readFileSync(join(WILD, file), 'utf8'), { worldSize: 256 });
  // --pipeline-model-parallel-layout Et*2|(tt|)*5t|tmL: 8 stages on PP 4 → VPP 2 (arguments.py).
  assert.equal(e.config.vpp, 2);
  assert.equal(e.config.pipelineLayout, 'Et*2|(tt|)*5t|tmL');
  assert.deepEqual(e.shape.mla, { kvLoraRank: 512, qkRopeHeadDim: 64, qLoraRank: 1536, qkNopeHeadDim: 128, vHeadDim: 128 });
  assert.equal(e.shape.mtpLayers, 1);
  assert.deepEqual(e.shape.moeLayerFreq, [0, 0, 0, ...Array<number>(11).fill(1)]);
  assert.equal(e.shape.routerBias, true);
  assert.equal(e.shape.qkNorm, true);
  assert.equal(e.shape.linearBias, false);
  assert.equal(e.shape.positionEmbedding, 'rope');
  assert.equal(e.shape.tiedEmbeddings, false);
  assert.deepEqual(
    pick(e.config, ['expandableSegments', 'crossEntropyFusion', 'vocabDivisibleBy', 'transformerImpl', 'gradAccumFusion', 'moe']),
    {
      expandableSegments: true,
      crossEntropyFusion: 'native',
      vocabDivisibleBy: 3232,
      transformerImpl: 'transformer_engine',
      gradAccumFusion: true,
      moe: {
        dispatcher: 'flex',
        capacityFactor: null,
        padToCapacity: false,
        routerDtype: 'fp32',
        permuteFusion: true,
        groupedGemm: true,
        activationFusion: true,
      },
    },
  );
});

test('Megatron-LM hybrid model: the layer pattern is the model, Mamba sizes from megatron-core defaults', () => {
  const file = 'Megatron-LM/hybrid_mr_mcore_te_tp2_pp1_cp4_dgx_a100_1N8G__model_config.yaml';
  const e = training(readFileSync(join(WILD, file), 'utf8'), { worldSize: 8 });
  assert.equal(e.shape.layers, 44);
  assert.equal(e.shape.hybridPattern, 'M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M-');
  // mamba_state_dim 128, mamba_head_dim 64, mamba_num_groups 8; heads = expand 2 × hidden 1024 / 64 = 32; d_conv 4.
  assert.deepEqual(e.shape.mamba, { stateDim: 128, numHeads: 32, headDim: 64, groups: 8, convKernel: 4 });
  assert.equal(e.config.gradAccumFusion, false);
  assert.equal(e.config.attention, 'flash');
  assert.equal(e.config.cublasWorkspaceConfig, ':4096:8');
  // --attention-backend fused is what runs; with the automatic backend, NVTE_FLASH_ATTN=0 and NVTE_FUSED_ATTN=0 leave
  // TransformerEngine only its unfused attention.
  const text = readFileSync(join(WILD, file), 'utf8').replace('  --attention-backend: fused\n', '');
  const off = text.replace('ENV_VARS:\n', 'ENV_VARS:\n  NVTE_FLASH_ATTN: 0\n  NVTE_FUSED_ATTN: 0\n');
  assert.equal(training(text, { worldSize: 8 }).config.attention, 'flash');
  assert.equal(training(off, { worldSize: 8 }).config.attention, 'eager');
});

test('NeMo 1.x megatron_mamba_config: 56 Mamba-2 layers, vocab 256000 untied — the Mamba model, not a dense one', () => {
  const e = training(readFileSync(join(WILD, 'NeMo/megatron_mamba_config.yaml'), 'utf8'));
  assert.equal(e.shape.hybridPattern, 'M'.repeat(56));
  assert.equal(e.shape.vocab, 256000);
  assert.equal(e.shape.tiedEmbeddings, false);
  // Per Mamba-2 layer at hidden 4096 (d_inner 8192, 128 heads, 8 groups, state 128, conv 4), mamba_mixer.py:
  // in_proj 4096·(2·8192 + 2·8·128 + 128) = 76,021,760; conv1d (8192 + 2048)·5 = 51,200; A_log, D, dt_bias 384;
  // gated norm 8192; out_proj 8192·4096 = 33,554,432; pre-norm 4096 → 109,640,064 × 56 = 6,139,843,584.
  // Embedding and output layer 2 × 256000·4096 = 2,097,152,000; final norm 4096.
  assert.equal(countParams(e.shape).total, 8_236_999_680);
});

const BRIDGE = `# A Megatron-Bridge override with every memory setting it can state.
ENV_VARS:
  PYTORCH_CUDA_ALLOC_CONF: expandable_segments:True
  CUBLAS_WORKSPACE_CONFIG: ":4096:8"
model:
  num_layers: 48
  hidden_size: 2048
  ffn_hidden_size: 6144
  num_attention_heads: 32
  num_query_groups: 4
  kv_channels: 128
  vocab_size: 151936
  make_vocab_size_divisible_by: 128
  share_embeddings_and_output_weights: false
  gated_linear_unit: true
  normalization: RMSNorm
  num_moe_experts: 128
  moe_ffn_hidden_size: 768
  moe_router_topk: 8
  seq_length: 4096
  tensor_model_parallel_size: 1
  pipeline_model_parallel_size: 2
  virtual_pipeline_model_parallel_size: 2
  microbatch_group_size_per_vp_stage: 4
  expert_model_parallel_size: 8
  expert_tensor_parallel_size: 1
  context_parallel_size: 1
  qk_layernorm: true
  add_bias_linear: false
  moe_token_dispatcher_type: alltoall
  moe_permute_fusion: true
  moe_grouped_gemm: true
  moe_router_dtype: fp32
  cross_entropy_loss_fusion: true
  cross_entropy_fusion_impl: te
  cuda_graph_impl: transformer_engine
  cuda_graph_scope: [moe_router, moe_preprocess]
  cuda_graph_warmup_steps: 2
  recompute_granularity: selective
  recompute_modules: [moe_act, layernorm]
  gradient_accumulation_fusion: true
train:
  micro_batch_size: 1
  global_batch_size: 256
ddp:
  use_distributed_optimizer: true
  num_distributed_optimizer_instances: 2
optimizer:
  use_precision_aware_optimizer: true
  main_params_dtype: torch.float32
  exp_avg_dtype: torch.bfloat16
  exp_avg_sq_dtype: torch.bfloat16
comm_overlap:
  overlap_moe_expert_parallel_comm: true
mixed_precision: bf16_with_fp8_current_scaling_mixed
`;

test('Megatron-Bridge override: the file gives the hand-written config exactly (recipe name → mixed_precision.py flags)', () => {
  const e = training(BRIDGE, { worldSize: 16 });
  const want: Partial<TrainingConfig> = {
    vpp: 2,
    microbatchGroupSize: 4,
    overlapMoeComm: true,
    crossEntropyFusion: 'te',
    expandableSegments: true,
    cublasWorkspaceConfig: ':4096:8',
    gradAccumFusion: true,
    vocabDivisibleBy: 128,
    cudaGraph: { impl: 'transformer_engine', scope: ['moe_router', 'moe_preprocess'], warmupSteps: 2 },
    distOptInstances: 2,
    optimizerDtypes: { mainParams: 'fp32', expAvg: 'bf16', expAvgSq: 'bf16' },
    moe: { dispatcher: 'alltoall', routerDtype: 'fp32', permuteFusion: true, groupedGemm: true },
    // bf16_with_fp8_current_scaling_mixed: FP8 tensorwise, fp8_param_gather, first and last layer in BF16, fp32 grads.
    fp8: 'tensorwise',
    fp4: null,
    quantizedParams: true,
    bf16Layers: { start: 1, end: 1 },
    gradReduceInFp32: true,
    params: 'bf16',
    recompute: { granularity: 'selective', method: null, numLayers: null, modules: ['moe_act', 'layernorm'] },
  };
  assert.deepEqual(pick(e.config, Object.keys(want) as (keyof TrainingConfig)[]), want);
  assert.equal(e.shape.qkNorm, true);
  assert.equal(e.shape.linearBias, false);
  // The same estimate as the hand-built configuration.
  assert.equal(
    e.estimate.stages[e.estimate.stage]!.allocated,
    estimateTraining(e.shape, { ...e.config, ...want }, e.gpu).stages[e.estimate.stage]!.allocated,
  );
});

test('Megatron-Bridge recipe names: Nemotron 3 Super NVFP4 keeps the last 14 layers in BF16; an unknown name says so', () => {
  const base = BRIDGE.replace(
    'mixed_precision: bf16_with_fp8_current_scaling_mixed',
    'mixed_precision: nemotron_3_super_bf16_with_nvfp4_mixed',
  );
  const e = training(base, { worldSize: 16 });
  assert.deepEqual(pick(e.config, ['fp8', 'fp4', 'quantizedParams', 'bf16Layers']), {
    fp8: null,
    fp4: 'nvfp4',
    quantizedParams: true,
    bf16Layers: { start: 0, end: 14 },
  });
  const odd = training(BRIDGE.replace('bf16_with_fp8_current_scaling_mixed', 'my_custom_mixed'), { worldSize: 16 });
  assert.equal(odd.config.fp8, null);
  assert.ok(odd.estimate.assumptions.some((a) => a.what === 'mixed_precision "my_custom_mixed" read as BF16'));
});

test('Megatron-Bridge LoRA: peft dim and target modules make a LoRA run (frozen base)', () => {
  const text = `${BRIDGE}peft:\n  _target_: megatron.bridge.peft.lora.LoRA\n  dim: 16\n  target_modules: [linear_qkv, linear_proj]\n`;
  const e = training(text, { worldSize: 16 });
  assert.deepEqual(e.config.peft, { rank: 16, targets: ['linear_qkv', 'linear_proj'] });
  assert.ok(!e.estimate.assumptions.some((a) => a.what === 'every weight counted as trained (an upper bound)'));
});

test('Megatron-Bridge Megatron FSDP: optim_grads_params shards everything; use_torch_fsdp2 is FSDP2', () => {
  const fsdp = training(
    BRIDGE.replace('ddp:\n', 'ddp:\n  use_megatron_fsdp: true\n  data_parallel_sharding_strategy: optim_grads_params\n'),
    {
      worldSize: 16,
    },
  );
  assert.equal(fsdp.config.fsdp, 'megatron-fsdp');
  const fsdp2 = training(`${BRIDGE}dist:\n  use_torch_fsdp2: true\n`, { worldSize: 16 });
  assert.equal(fsdp2.config.fsdp, 'fsdp2');
});

const NEMO2 = `_target_: nemo.collections.llm.api.pretrain
model:
  _target_: nemo.collections.llm.gpt.model.deepseek.DeepSeekModel
  config:
    _target_: nemo.collections.llm.gpt.model.deepseek.DeepSeekV3Config
    num_layers: 8
    hidden_size: 2048
    ffn_hidden_size: 8192
    num_attention_heads: 16
    vocab_size: 129280
    seq_length: 4096
    num_moe_experts: 16
    moe_ffn_hidden_size: 1024
    moe_router_topk: 4
    moe_shared_expert_intermediate_size: 1024
    moe_layer_freq: [0, 1, 1, 1, 1, 1, 1, 1]
    moe_router_enable_expert_bias: true
    multi_latent_attention: true
    q_lora_rank: 768
    kv_lora_rank: 256
    qk_head_dim: 64
    qk_pos_emb_head_dim: 32
    v_head_dim: 64
    mtp_num_layers: 1
    moe_token_dispatcher_type: alltoall
    cross_entropy_loss_fusion: false
trainer:
  _target_: nemo.lightning.pl.trainer.Trainer
  devices: 8
  num_nodes: 1
  strategy:
    _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
    tensor_model_parallel_size: 1
    pipeline_model_parallel_size: 1
    expert_model_parallel_size: 8
data:
  _target_: nemo.collections.llm.gpt.data.mock.MockDataModule
  seq_length: 4096
  micro_batch_size: 1
  global_batch_size: 64
`;

test('NeMo 2 serialization: MLA ranks, MTP layers, MoE placement and shared experts from the config node', () => {
  const e = training(NEMO2);
  assert.deepEqual(e.shape.mla, { kvLoraRank: 256, qkRopeHeadDim: 32, qLoraRank: 768, qkNopeHeadDim: 64, vHeadDim: 64 });
  assert.equal(e.shape.mtpLayers, 1);
  assert.deepEqual(e.shape.moeLayerFreq, [0, 1, 1, 1, 1, 1, 1, 1]);
  assert.equal(e.shape.denseLayersBeforeMoe, 0);
  assert.equal(e.shape.sharedExpertFfn, 1024);
  assert.equal(e.shape.routerBias, true);
  assert.equal(e.config.crossEntropyFusion, 'none');
  assert.equal(e.config.moe?.dispatcher, 'alltoall');
});

test('NeMo-RL megatron_cfg: env_vars PYTORCH_CUDA_ALLOC_CONF and the MoE runtime reach the training phase', () => {
  const text = `sft:
  max_num_epochs: 1
policy:
  model_name: Qwen/Qwen3-30B-A3B
  train_global_batch_size: 32
  train_micro_batch_size: 1
  max_total_sequence_length: 4096
  precision: bfloat16
  dtensor_cfg:
    enabled: false
  megatron_cfg:
    enabled: true
    env_vars:
      PYTORCH_CUDA_ALLOC_CONF: expandable_segments:True
    activation_checkpointing: false
    tensor_model_parallel_size: 1
    pipeline_model_parallel_size: 1
    context_parallel_size: 1
    expert_model_parallel_size: 8
    expert_tensor_parallel_size: 1
    sequence_parallel: false
    moe_token_dispatcher_type: alltoall
    moe_router_dtype: fp64
    moe_permute_fusion: true
    bias_activation_fusion: true
    optimizer:
      use_distributed_optimizer: true
    distributed_data_parallel_config:
      grad_reduce_in_fp32: false
cluster:
  gpus_per_node: 8
  num_nodes: 1
`;
  const e = training(text);
  assert.equal(e.config.expandableSegments, true);
  assert.deepEqual(e.config.moe, { dispatcher: 'alltoall', routerDtype: 'fp64', permuteFusion: true, activationFusion: true });
});

// Measured rows of memory-measured.test.ts written as the Megatron-Bridge overrides that state them: the file gives the
// hand-built configuration's estimate exactly.
const H100 = GPUS.find((g) => g.id === 'h100')!;
const bridgeRun = (model: string, body: string) => `# recipe-lens: model=${model}\n${body}`;
const MOONLIGHT = (modules: string[]) =>
  bridgeRun(
    'moonlight-16b-a3b',
    `model:
  seq_length: 4096
  tensor_model_parallel_size: 2
  sequence_parallel: true
  expert_model_parallel_size: 8
  expert_tensor_parallel_size: 1
  moe_token_dispatcher_type: alltoall
  moe_permute_fusion: true
  moe_router_dtype: fp32
  cross_entropy_loss_fusion: true
  cross_entropy_fusion_impl: te
  recompute_granularity: selective
  recompute_modules: [${modules.join(', ')}]
train:
  micro_batch_size: 1
  global_batch_size: 4
ddp:
  use_distributed_optimizer: true
optimizer:
  use_precision_aware_optimizer: true
  main_params_dtype: fp32
  exp_avg_dtype: bf16
  exp_avg_sq_dtype: bf16
mixed_precision:
  bf16: true
  grad_reduce_in_fp32: false
`,
  );
const QWEN3_ALLTOALL = bridgeRun(
  'qwen3-30b-a3b',
  `model:
  seq_length: 4096
  expert_model_parallel_size: 16
  expert_tensor_parallel_size: 1
  moe_token_dispatcher_type: alltoall
  moe_permute_fusion: false
  cross_entropy_loss_fusion: true
  cross_entropy_fusion_impl: te
  cuda_graph_impl: transformer_engine
  cuda_graph_scope: [moe_router, moe_preprocess]
train:
  micro_batch_size: 1
  global_batch_size: 1024
ddp:
  use_distributed_optimizer: true
optimizer:
  use_precision_aware_optimizer: true
mixed_precision:
  bf16: true
  grad_reduce_in_fp32: false
`,
);
const QWEN3_OFFLOAD = bridgeRun(
  'qwen3-30b-a3b',
  `model:
  seq_length: 4096
  tensor_model_parallel_size: 2
  pipeline_model_parallel_size: 2
  sequence_parallel: true
  expert_model_parallel_size: 4
  expert_tensor_parallel_size: 1
  moe_token_dispatcher_type: flex
  moe_permute_fusion: true
  moe_grouped_gemm: true
  cross_entropy_loss_fusion: true
  cross_entropy_fusion_impl: te
  recompute_granularity: full
  recompute_method: uniform
  recompute_num_layers: 1
train:
  micro_batch_size: 1
  global_batch_size: 8
ddp:
  use_distributed_optimizer: true
optimizer:
  use_precision_aware_optimizer: false
  optimizer_cpu_offload: true
  optimizer_offload_fraction: 1.0
mixed_precision:
  bf16: true
  grad_reduce_in_fp32: true
`,
);

const MEASURED: [string, string, number, string, TrainingConfig][] = [
  ...(['core_attn', 'mla_up_proj', 'moe_act'] as const).map((m): [string, string, number, string, TrainingConfig] => [
    `bridge_moonlight16b_selective_${m}`,
    MOONLIGHT([m]),
    8,
    'moonlight-16b-a3b',
    moonlight([m]),
  ]),
  [
    'bridge_qwen3_30b_a3b_16xh100_ep16_alltoall_smoke',
    QWEN3_ALLTOALL,
    16,
    'qwen3-30b-a3b',
    qwen3({ moe: { dispatcher: 'alltoall', permuteFusion: false } }),
  ],
  ['bridge_qwen3_30b_a3b_tp2pp2ep4_optimizer_offload100', QWEN3_OFFLOAD, 16, 'qwen3-30b-a3b', qwen3Offload(1)],
];

for (const [id, text, world, model, config] of MEASURED)
  test(`measured row ${id} as a Megatron-Bridge override: the hand-built estimate, to the byte`, () => {
    const e = training(text, { worldSize: world });
    const want = estimateTraining(modelShape(model), config, H100);
    assert.equal(e.estimate.stage, want.stage);
    assert.equal(e.estimate.stages[e.estimate.stage]!.allocated, want.stages[want.stage]!.allocated);
  });

test('measured row megatron_gpt70b_tp4pp8_fullrecompute_after1iter as a Megatron-LM model_config.yaml: the hand-built estimate', () => {
  const text = `MODEL_ARGS:
  --num-layers: 80
  --hidden-size: 8192
  --ffn-hidden-size: 32768
  --num-attention-heads: 64
  --seq-length: 4096
  --max-position-embeddings: 4096
  --micro-batch-size: 1
  --global-batch-size: 512
  --tensor-model-parallel-size: 4
  --pipeline-model-parallel-size: 8
  --tokenizer-type: NullTokenizer
  --vocab-size: 32000
  --transformer-impl: local
  --recompute-granularity: full
  --recompute-method: uniform
  --recompute-num-layers: 1
  --bf16: true
`;
  const e = training(text, { worldSize: 32 });
  const want = estimateTraining(GPT70B_TUTORIAL_SHAPE, GPT70B_TUTORIAL_CONFIG, H100);
  // The measured rank (global rank 4–19) is on pipeline stage 1.
  assert.equal(e.estimate.stages[1]!.allocated, want.stages[1]!.allocated);
});

/** A Megatron-LM model_config.yaml of a 32-layer GPT (h 4096, vocab 32000, Megatron-LM defaults otherwise) on 8 GPUs. */
const mlmGpt = (extra: string) =>
  training(
    `MODEL_ARGS:
  --num-layers: 32
  --hidden-size: 4096
  --num-attention-heads: 32
  --seq-length: 4096
  --max-position-embeddings: 4096
  --micro-batch-size: 1
  --global-batch-size: 64
  --vocab-size: 32000
  --bf16: true
${extra}`,
    { worldSize: 8 },
  );

test('optimizer_cpu_offload and optimizer_offload_fraction under their upstream names: Megatron-LM arguments, NeMo-RL, NeMo 2', () => {
  const mlm = (extra: string) => mlmGpt(`  --use-distributed-optimizer: true\n${extra}`);
  // arguments.py: --optimizer-cpu-offload with --use-precision-aware-optimizer (it asserts the pair).
  const on = mlm('  --optimizer-cpu-offload: true\n  --optimizer-offload-fraction: 0.25\n  --use-precision-aware-optimizer: true\n');
  assert.equal(on.config.optimizerCpuOffload, 0.25);
  assert.equal(mlm('').config.optimizerCpuOffload, undefined);
  // The offload switch without a fraction keeps OptimizerConfig's default 0.0: everything still steps on the GPU.
  assert.equal(mlm('  --optimizer-cpu-offload: true\n  --use-precision-aware-optimizer: true\n').config.optimizerCpuOffload, 0);
  const line = on.estimate.breakdown.find((b) => b.category === 'optimizer')!;
  assert.match(line.label, /25% of it stepped on the host/);
  assert.match(line.formula, /HybridDeviceOptimizer GPU share \(1 − f\)·\(4 \+ 8\) B\/param/);
  // 8 GPUs of DP 8: (1 − 0.25)·12 / 8 B per parameter.
  assert.equal(line.bytes, (on.estimate.model.paramsPerGpu * 0.75 * 12) / 8);

  // NeMo-RL (examples/configs/recipes/vlm/…-tp2ep8.v1.yaml states optimizer_cpu_offload: true, fraction 1.0).
  const rl = training(`grpo:
  num_prompts_per_step: 8
  num_generations_per_prompt: 8
policy:
  model_name: Qwen/Qwen3-8B
  train_global_batch_size: 64
  train_micro_batch_size: 1
  max_total_sequence_length: 4096
  precision: bfloat16
  dtensor_cfg:
    enabled: false
  megatron_cfg:
    enabled: true
    tensor_model_parallel_size: 2
    optimizer:
      use_distributed_optimizer: true
      use_precision_aware_optimizer: false
      optimizer_cpu_offload: true
      optimizer_offload_fraction: 1.0
cluster:
  gpus_per_node: 8
  num_nodes: 1
`);
  assert.equal(rl.config.optimizerCpuOffload, 1);
  assert.equal(rl.config.optimizerDtypes, undefined);
  assert.ok(!rl.estimate.assumptions.some((a) => /optimizer_cpu_offload/.test(a.what)));

  // A fraction outside 0–1 is read as 0 (all on the GPU: the upper bound) and says so.
  const bad = training(
    bridgeRun(
      'qwen3-8b',
      'model:\n  seq_length: 4096\ntrain:\n  micro_batch_size: 1\n  global_batch_size: 8\nddp:\n  use_distributed_optimizer: true\noptimizer:\n  optimizer_cpu_offload: true\n  optimizer_offload_fraction: 2\n',
    ),
    {
      worldSize: 8,
    },
  );
  assert.equal(bad.config.optimizerCpuOffload, 0);

  // NeMo 2: the optimizer module's megatron-core OptimizerConfig node.
  const nemo2 = training(
    `${NEMO2}optim:
  _target_: nemo.lightning.pytorch.optim.megatron.MegatronOptimizerModule
  config:
    _target_: megatron.core.optimizer.optimizer_config.OptimizerConfig
    use_distributed_optimizer: true
    optimizer_cpu_offload: true
    optimizer_offload_fraction: 0.5
`,
  );
  assert.equal(nemo2.config.optimizerCpuOffload, 0.5);
  assert.ok(bad.estimate.assumptions.some((a) => /optimizer_offload_fraction counted as 0/.test(a.what)));
});

test('Muon, Lion and SGD optimizer states from --optimizer / optimizer.optimizer, sharded as Megatron-LM and Bridge shard them', () => {
  const mlm = mlmGpt;
  const optimizerLine = (e: ReturnType<typeof training>) => e.estimate.breakdown.find((b) => b.category === 'optimizer')!;
  // GELU 4h MLP, biases and LayerNorm (Megatron-LM defaults), learned positions, tied embeddings, TP 1, PP 1, DP 8.
  // 2-D weights Muon steps: 32 × (qkv 4096·12288 + proj 4096² + fc1, fc2 4096·16384).
  const matrix = 32 * (4096 * 12288 + 4096 * 4096 + 2 * 4096 * 16384);
  // The rest, Adam's: word embeddings 32000·4096, positions 4096², per layer biases (12288 + 4096 + 16384 + 4096) and
  // two LayerNorms (2 · 2·4096), the final LayerNorm.
  const vocab = 32000 * 4096;
  const other = vocab + 4096 * 4096 + 32 * (36864 + 16384) + 8192;
  assert.equal(mlm('').estimate.model.paramsPerGpu, matrix + other);

  // --optimizer muon alone: Float16OptimizerWithFloat16Params over every parameter, unsharded; fp32 main copy +
  // momentum_buffer for the matrices, Adam's 12 B for the rest.
  const plain = mlm('  --optimizer: muon\n');
  assert.deepEqual(plain.config.optimizer, { rule: 'muon', scalar: 'adam' });
  assert.equal(plain.config.distributedOptimizer, false);
  assert.equal(optimizerLine(plain).bytes, matrix * 8 + other * 12);
  assert.match(optimizerLine(plain).label, /— Muon, Adam for the other parameters/);
  assert.equal(
    optimizerLine(plain).formula,
    'Muon 8 B per 2-D weight (fp32 main copy + momentum), Adam 12 B per other parameter (embeddings, output layer, norms, biases)',
  );
  // A hybrid model's Mamba in_proj goes to the scalar optimizer too (use_muon = False), and the line names it.
  const hybrid = readFileSync(join(WILD, 'Megatron-LM/hybrid_mr_mcore_te_tp2_pp1_cp4_dgx_a100_1N8G__model_config.yaml'), 'utf8');
  // (--use-distributed-optimizer there: layer-wise, over DP×CP = 4.)
  assert.equal(
    optimizerLine(training(hybrid.replace('MODEL_ARGS:\n', 'MODEL_ARGS:\n  --optimizer: muon\n'), { worldSize: 8 })).formula,
    'Muon 8/4 B per 2-D weight (fp32 main copy + momentum), Adam 12/4 B per other parameter (embeddings, output layer, norms, biases, Mamba in_proj)',
  );

  // --use-distributed-optimizer with an emerging optimizer is the layer-wise one (arguments.py); Megatron-LM's parameter
  // layout shards it evenly over DP 8, and the estimate says which layout it assumed.
  const layered = mlm('  --optimizer: muon\n  --use-distributed-optimizer: true\n');
  assert.equal(layered.config.distributedOptimizer, true);
  assert.equal(layered.config.layerWisePingPong, false);
  assert.equal(optimizerLine(layered).bytes, (matrix * 8 + other * 12) / 8);
  assert.ok(layered.estimate.assumptions.some((a) => /sharded evenly over DP×CP \(the layer-wise parameter layout\)/.test(a.what)));

  // dist_muon with the legacy ping-pong assignment: the word embeddings (the largest tensor) are stepped whole by one rank.
  const pingPong = mlm('  --optimizer: dist_muon\n  --no-use-layer-wise-param-layout: true\n');
  assert.equal(pingPong.config.layerWisePingPong, true);
  assert.equal(optimizerLine(pingPong).bytes, (matrix * 8 + other * 12) / 8 + (vocab * 12 * 7) / 8);
  assert.match(optimizerLine(pingPong).formula, /on the DP rank that steps the vocabulary tensor whole \(layer-wise ping-pong\)/);

  // Lion: fp32 main copy + exp_avg on the matrices, Adam on the rest; muon_scalar_optimizer lion puts Lion there too.
  assert.equal(optimizerLine(mlm('  --optimizer: lion\n')).bytes, matrix * 8 + other * 12);
  assert.equal(optimizerLine(mlm('  --optimizer: muon\n  --muon-scalar-optimizer: lion\n')).bytes, (matrix + other) * 8);
  // SGD: the main copy and the momentum buffer (sgd_momentum default 0.9), or the main copy alone without momentum.
  assert.equal(optimizerLine(mlm('  --optimizer: sgd\n')).bytes, (matrix + other) * 8);
  assert.equal(optimizerLine(mlm('  --optimizer: sgd\n  --sgd-momentum: 0\n')).bytes, (matrix + other) * 4);
  // An optimizer the model does not know keeps Adam's layout and says so.
  const soap = mlm('  --optimizer: soap\n');
  assert.equal(soap.config.optimizer, undefined);
  assert.ok(soap.estimate.assumptions.some((a) => a.what === 'optimizer soap counted as Adam (fp32 main copy + two fp32 moments)'));

  // Megatron-Bridge: only the dist_ prefix (or use_layer_wise_distributed_optimizer) shards an emerging optimizer, and
  // Bridge builds no parameter layout, so the layer-wise one deals whole parameters ping-pong (optim.py, layer_wise_optimizer.py).
  const bridge = (optimizer: string) =>
    training(
      bridgeRun(
        'qwen3-8b',
        `model:\n  seq_length: 4096\ntrain:\n  micro_batch_size: 1\n  global_batch_size: 8\nddp:\n  use_distributed_optimizer: true\noptimizer:\n  optimizer: ${optimizer}\n`,
      ),
      { worldSize: 8 },
    );
  const muon = bridge('muon');
  assert.deepEqual(pick(muon.config, ['optimizer', 'distributedOptimizer', 'layerWisePingPong']), {
    optimizer: { rule: 'muon', scalar: 'adam' },
    distributedOptimizer: false,
    layerWisePingPong: undefined,
  });
  assert.ok(muon.estimate.assumptions.some((a) => a.what === 'muon optimizer state counted unsharded'));
  const dist = bridge('dist_muon');
  assert.deepEqual(pick(dist.config, ['distributedOptimizer', 'layerWisePingPong']), {
    distributedOptimizer: true,
    layerWisePingPong: true,
  });
  // NeMo 1.x optim.name: sgd is SGD; other names keep Adam's layout.
  assert.deepEqual(
    training(
      `trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  encoder_seq_length: 4096\n  num_layers: 32\n  hidden_size: 4096\n  ffn_hidden_size: 16384\n  num_attention_heads: 32\n  micro_batch_size: 1\n  global_batch_size: 64\n  optim:\n    name: sgd\n`,
    ).config.optimizer,
    { rule: 'sgd', momentum: true },
  );
});

test('fine_grained_activation_offloading with offload_modules and activation_offload_fraction (Megatron-Bridge)', () => {
  const e = training(
    bridgeRun(
      'qwen3-30b-a3b',
      'model:\n  seq_length: 4096\n  expert_model_parallel_size: 8\n  fine_grained_activation_offloading: true\n  offload_modules: [core_attn, attn_proj, expert_fc1, fused_group_mlp]\n  activation_offload_fraction: 0.5\ntrain:\n  micro_batch_size: 1\n  global_batch_size: 64\n',
    ),
    { worldSize: 8 },
  );
  assert.deepEqual(e.config.activationOffload, { modules: ['core_attn', 'attn_proj', 'expert_fc1'], fraction: 0.5 });
  assert.ok(e.estimate.assumptions.some((a) => a.what === 'offload_modules fused_group_mlp counted on the GPU'));
  assert.ok(e.estimate.assumptions.some((a) => /^fine-grained activation offloading \(core_attn, attn_proj, expert_fc1\)/.test(a.what)));
  // A share outside 0–1 is counted as 0 (nothing leaves the GPU: the upper bound) and says so; the estimate then equals
  // the run without offloading.
  const run = (offload: string) =>
    training(
      bridgeRun(
        'qwen3-30b-a3b',
        `model:\n  seq_length: 4096\n  expert_model_parallel_size: 8\n${offload}train:\n  micro_batch_size: 1\n  global_batch_size: 64\n`,
      ),
      { worldSize: 8 },
    );
  const bad = run('  fine_grained_activation_offloading: true\n  offload_modules: [core_attn]\n  activation_offload_fraction: 1.5\n');
  assert.deepEqual(bad.config.activationOffload, { modules: ['core_attn'], fraction: 0 });
  assert.ok(bad.estimate.assumptions.some((a) => a.what === 'activation_offload_fraction counted as 0 (every activation on the GPU)'));
  assert.equal(bad.estimate.perGpu.allocated, run('').estimate.perGpu.allocated);
});

test('defer_embedding_wgrad_compute and wgrad_deferral_limit: the last stage keeps that many output-layer inputs and logits gradients', () => {
  const run = (overlap: string, pp = 2) =>
    training(
      bridgeRun(
        'llama3-8b',
        `model:\n  seq_length: 4096\n  pipeline_model_parallel_size: ${pp}\ntrain:\n  micro_batch_size: 1\n  global_batch_size: 16\n${overlap}`,
      ),
      { worldSize: pp },
    );
  const deferred = run('comm_overlap:\n  tp_comm_overlap: false\n  defer_embedding_wgrad_compute: true\n  wgrad_deferral_limit: 12\n');
  const plain = run('');
  assert.equal(deferred.config.deferEmbeddingWgrad, 12);
  // One entry at TP 1: the output layer's bf16 input 2·s·b·h and its bf16 logits gradient 2·s·b·V (vocab 128256).
  const entry = 2 * 4096 * 4096 + 2 * 4096 * 128256;
  assert.equal(deferred.estimate.stages[1]!.allocated - plain.estimate.stages[1]!.allocated, 12 * entry);
  assert.equal(deferred.estimate.stages[0]!.allocated, plain.estimate.stages[0]!.allocated);
  assert.equal(deferred.estimate.stage, 1);
  const line = deferred.estimate.breakdown.find((l) => l.label.startsWith('deferred output-layer weight gradients'));
  assert.deepEqual(line && { label: line.label, bytes: line.bytes, formula: line.formula }, {
    label: 'deferred output-layer weight gradients (12 inputs and logits gradients held for the drain, wgrad_deferral_limit 12)',
    bytes: 12 * entry,
    formula: '12 × (2·sbh input + 2·s·b·V/t logits gradient)',
  });
  // Megatron refuses it without pipeline parallelism (model_parallel_config.py): not counted, and said so.
  const single = run('comm_overlap:\n  defer_embedding_wgrad_compute: true\n', 1);
  assert.equal(single.config.deferEmbeddingWgrad, 0);
  assert.ok(single.estimate.assumptions.some((a) => a.what === 'defer_embedding_wgrad_compute not counted'));
  assert.equal(single.estimate.perGpu.allocated, run('', 1).estimate.perGpu.allocated);
  // A negative limit is refused too.
  const negative = run('comm_overlap:\n  defer_embedding_wgrad_compute: true\n  wgrad_deferral_limit: -1\n');
  assert.equal(negative.config.deferEmbeddingWgrad, undefined);
  assert.equal(negative.estimate.perGpu.allocated, plain.estimate.perGpu.allocated);
  // NeMo 1.x and the Launcher read ModelParallelConfig fields from the model section (megatron_base_model.py).
  const launcher = analyze(readFileSync(join(CORPUS, 'NeMo-Framework-Launcher/llama3_1_70b.yaml'), 'utf8'), { gpu: 'h100' });
  const le = launcher.main?.estimate;
  assert.ok(le && le.kind === 'training');
  assert.equal(le.config.deferEmbeddingWgrad, 22);
});
