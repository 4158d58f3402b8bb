// Round trip: every case of the Megatron-LM functional-test dataset written back as the model_config.yaml it came from
// (MODEL_ARGS `--flag: value`, ENV_VARS), read by analyze() like any user file, must give the estimate that the hand-built
// ModelShape / TrainingConfig of memory-megatron-lm.test.ts gives: every memory-relevant argument is read from the file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import type { TrainingConfig } from '../../src/core/memory/config.js';
import { GPUS } from '../../src/core/memory/gpus.js';
import type { ModelShape } from '../../src/core/memory/types.js';
import { configOf, DATA, estimateStage, shapeOf, stageOfRank, type Case, type Megatron } from '../megatronGolden.js';

const H100 = GPUS.find((g) => g.id === 'h100')!;

/** A 0/1 list as runs, "([0]*3+[1]*11)". */
function runLengthExpression(list: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < list.length;) {
    let j = i;
    while (j < list.length && list[j] === list[i]) j++;
    runs.push(`[${list[i]}]*${j - i}`);
    i = j;
  }
  return `(${runs.join('+')})`;
}

/** The MODEL_ARGS and ENV_VARS of a case, as Megatron-LM's functional tests write them. */
export function modelConfigYaml(a: Megatron): string {
  const args: [string, unknown][] = [];
  const put = (flag: string, value: unknown) => {
    if (value !== undefined && value !== null) args.push([flag, value]);
  };
  const on = (flag: string, value: boolean) => {
    if (value) args.push([flag, true]);
  };
  // A hybrid stack's pattern gives its layers (and, with `|`, its pipeline segments); pretrain_hybrid.py needs its spec.
  if (a.hybrid_layer_pattern) {
    put('hybrid-layer-pattern', a.hybrid_layer_pattern);
    put('spec', '[megatron.core.models.hybrid.hybrid_layer_specs hybrid_stack_spec]');
    put('mamba-state-dim', a.mamba_state_dim);
    put('mamba-head-dim', a.mamba_head_dim);
    put('mamba-num-groups', a.mamba_num_groups);
    put('mamba-num-heads', a.mamba_num_heads);
  } else put('num-layers', a.num_layers);
  put('hidden-size', a.hidden_size);
  put('ffn-hidden-size', a.ffn_hidden_size);
  put('num-attention-heads', a.num_attention_heads);
  if (a.num_query_groups !== a.num_attention_heads) {
    on('group-query-attention', true);
    put('num-query-groups', a.num_query_groups);
  }
  if (a.kv_channels !== a.hidden_size / a.num_attention_heads) put('kv-channels', a.kv_channels);
  put('seq-length', a.seq_length);
  put('max-position-embeddings', a.max_position_embeddings);
  put('micro-batch-size', a.micro_batch_size);
  put('global-batch-size', a.global_batch_size);
  put('tensor-model-parallel-size', a.tensor_model_parallel_size);
  put('pipeline-model-parallel-size', a.pipeline_model_parallel_size);
  // Megatron-LM has no --virtual-pipeline-model-parallel-size: the layout or the stages per rank give it.
  if (a.virtual_pipeline_model_parallel_size && !a.pipeline_model_parallel_layout && !a.hybrid_layer_pattern?.includes('|'))
    put('num-virtual-stages-per-pipeline-rank', a.virtual_pipeline_model_parallel_size);
  put('pipeline-model-parallel-layout', a.pipeline_model_parallel_layout);
  put('decoder-first-pipeline-num-layers', a.decoder_first_pipeline_num_layers);
  put('decoder-last-pipeline-num-layers', a.decoder_last_pipeline_num_layers);
  on('account-for-embedding-in-pipeline-split', a.account_for_embedding_in_pipeline_split);
  on('account-for-loss-in-pipeline-split', a.account_for_loss_in_pipeline_split);
  put('microbatch-group-size-per-vp-stage', a.microbatch_group_size_per_vp_stage);
  put('context-parallel-size', a.context_parallel_size);
  put('expert-model-parallel-size', a.expert_model_parallel_size);
  if (a.expert_tensor_parallel_size !== a.tensor_model_parallel_size) put('expert-tensor-parallel-size', a.expert_tensor_parallel_size);
  on('sequence-parallel', a.sequence_parallel);
  // The tokenizer: GPT-2 BPE files name the vocabulary file; the null tokenizer takes its size (the dataset's vocab_size is
  // the tokenizer's size at the case's commit, which is what --vocab-size gives the null tokenizer there).
  put('tokenizer-type', (a as unknown as { tokenizer_type: string }).tokenizer_type);
  if ((a as unknown as { tokenizer_type: string }).tokenizer_type === 'GPT2BPETokenizer') {
    put('vocab-file', '${DATA_PATH}/text/the_pile/shard00/bpe/vocab.json');
    put('merge-file', '${DATA_PATH}/text/the_pile/shard00/bpe/merges.txt');
  } else put('vocab-size', a.vocab_size);
  if (a.make_vocab_size_divisible_by !== 128) put('make-vocab-size-divisible-by', a.make_vocab_size_divisible_by);
  put('position-embedding-type', a.position_embedding_type);
  on('untie-embeddings-and-output-weights', a.untie_embeddings_and_output_weights);
  put('normalization', a.normalization);
  on('disable-bias-linear', !a.add_bias_linear);
  on('swiglu', a.swiglu);
  on('squared-relu', a.squared_relu);
  on('qk-layernorm', a.qk_layernorm);
  if (!a.bias_activation_fusion) on(a.swiglu ? 'no-bias-swiglu-fusion' : 'no-bias-gelu-fusion', true);
  put('hidden-dropout', a.hidden_dropout);
  put('attention-dropout', a.attention_dropout);
  put('attention-backend', a.attention_backend);
  put('transformer-impl', a.transformer_impl);
  on('bf16', a.params_dtype === 'bf16');
  on('fp16', a.params_dtype === 'fp16');
  if (a.params_dtype === 'bf16' && !a.accumulate_allreduce_grads_in_fp32) on('grad-reduce-in-bf16', true);
  else on('accumulate-allreduce-grads-in-fp32', a.accumulate_allreduce_grads_in_fp32);
  // arguments.py turns --use-distributed-optimizer into the layer-wise optimizer for Muon; the file states the former.
  on('use-distributed-optimizer', a.use_distributed_optimizer || a.use_layer_wise_distributed_optimizer === true);
  put('optimizer', a.optimizer);
  if (a.use_layer_wise_param_layout === false) on('no-use-layer-wise-param-layout', true);
  if (a.num_distributed_optimizer_instances !== 1) put('num-distributed-optimizer-instances', a.num_distributed_optimizer_instances);
  on('use-megatron-fsdp', a.use_megatron_fsdp);
  put('data-parallel-sharding-strategy', (a as unknown as { data_parallel_sharding_strategy?: string }).data_parallel_sharding_strategy);
  on('no-gradient-accumulation-fusion', !a.gradient_accumulation_fusion);
  put('recompute-granularity', a.recompute_granularity);
  put('recompute-method', a.recompute_method);
  put('recompute-num-layers', a.recompute_num_layers);
  if (a.recompute_modules) put('recompute-modules', `[${a.recompute_modules.join(' ')}]`);
  if (a.fine_grained_activation_offloading) on('fine-grained-activation-offloading', true);
  if (a.offload_modules) put('offload-modules', `[${a.offload_modules.join(' ')}]`);
  put('activation-offload-fraction', a.activation_offload_fraction);
  put('fp8-format', a.fp8);
  put('fp8-recipe', a.fp8_recipe);
  on('fp8-param-gather', a.fp8_param_gather);
  if (a.first_last_layers_bf16) {
    on('first-last-layers-bf16', true);
    put('num-layers-at-start-in-bf16', a.num_layers_at_start_in_bf16);
    put('num-layers-at-end-in-bf16', a.num_layers_at_end_in_bf16);
  }
  on('cross-entropy-loss-fusion', a.cross_entropy_loss_fusion);
  if (a.cross_entropy_loss_fusion) put('cross-entropy-fusion-impl', a.cross_entropy_fusion_impl);
  if (a.num_experts) {
    put('num-experts', a.num_experts);
    put('moe-ffn-hidden-size', a.moe_ffn_hidden_size);
    put('moe-router-topk', a.moe_router_topk);
    put('moe-token-dispatcher-type', a.moe_token_dispatcher_type);
    on('moe-grouped-gemm', a.moe_grouped_gemm === true);
    put('moe-shared-expert-intermediate-size', a.moe_shared_expert_intermediate_size);
    // A list as the Python expression the functional tests write ("([0]*3+[1]*11)"), an int as itself.
    put('moe-layer-freq', Array.isArray(a.moe_layer_freq) ? runLengthExpression(a.moe_layer_freq) : a.moe_layer_freq);
    put('moe-router-dtype', a.moe_router_dtype);
    on('moe-permute-fusion', a.moe_permute_fusion === true);
    on('moe-router-enable-expert-bias', a.moe_router_enable_expert_bias === true);
  }
  on('overlap-moe-expert-parallel-comm', a.overlap_moe_expert_parallel_comm);
  on('defer-embedding-wgrad-compute', a.defer_embedding_wgrad_compute === true);
  put('wgrad-deferral-limit', a.wgrad_deferral_limit);
  put('mtp-num-layers', a.mtp_num_layers);
  if (a.multi_latent_attention) {
    on('multi-latent-attention', true);
    put('q-lora-rank', a.q_lora_rank);
    put('kv-lora-rank', a.kv_lora_rank);
    put('qk-head-dim', a.qk_head_dim);
    put('qk-pos-emb-head-dim', a.qk_pos_emb_head_dim);
    put('v-head-dim', a.v_head_dim);
  }
  if (a.cuda_graph_impl !== 'none') put('cuda-graph-impl', a.cuda_graph_impl);
  if (a.cuda_graph_scope) put('cuda-graph-modules', `[${a.cuda_graph_scope.join(' ')}]`);
  put('cuda-graph-warmup-steps', a.cuda_graph_warmup_steps);
  on('tp-comm-overlap', a.tp_comm_overlap);
  const env: [string, string][] = [['CUDA_DEVICE_MAX_CONNECTIONS', '1']];
  if (a.expandable_segments) env.push(['PYTORCH_CUDA_ALLOC_CONF', 'expandable_segments:True']);
  if (a.cublas_workspace_config) env.push(['CUBLAS_WORKSPACE_CONFIG', a.cublas_workspace_config]);
  const scalar = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
  return [
    'ENV_VARS:',
    ...env.map(([k, v]) => `  ${k}: ${scalar(v)}`),
    'MODEL_ARGS:',
    ...args.map(([k, v]) => `  --${k}: ${scalar(v)}`),
    'TEST_TYPE: regular',
    '',
  ].join('\n');
}

interface Read {
  shape: ModelShape;
  config: TrainingConfig;
  allocated: number;
}

function readBack(c: Case): Read {
  const a = analyze(modelConfigYaml(c.megatron), { worldSize: c.megatron.world_size, gpu: 'h100' });
  assert.equal(a.format, 'megatron-lm', `${c.id}: detected as ${a.format}`);
  const e = a.main?.estimate;
  assert.ok(e && e.kind === 'training', `${c.id}: no training estimate (${e && 'reason' in e ? e.reason : 'none'})`);
  return { shape: e.shape, config: e.config, allocated: e.estimate.stages[stageOfRank(c.megatron, c.measuredRank)]!.allocated };
}

/** The fields where two objects differ (one level deep, JSON equality), for a readable failure. */
function differences(got: object, want: object): string[] {
  const keys = new Set([...Object.keys(got), ...Object.keys(want)]);
  const out: string[] = [];
  for (const k of keys) {
    const g = JSON.stringify((got as Record<string, unknown>)[k]);
    const w = JSON.stringify((want as Record<string, unknown>)[k]);
    if (g !== w) out.push(`${k}: file ${g} / hand ${w}`);
  }
  return out;
}

for (const c of DATA.cases)
  test(`round trip ${c.id}: the model_config.yaml gives the hand-built estimate of rank ${c.measuredRank}`, () => {
    const stage = estimateStage(c.megatron, c.measuredRank, H100);
    const got = readBack(c);
    assert.equal(
      got.allocated,
      stage.allocated,
      `${c.id}: ${got.allocated} vs ${stage.allocated}\n  shape: ${differences(got.shape, shapeOf(c.megatron)).join('; ')}\n  config: ${differences(got.config, configOf(c.megatron)).join('; ')}`,
    );
  });
