// Which model and which GPU an estimate uses: a modeline beats --model beats what the file names beats the path beats
// the recipeLens.model setting (docs/models.md "Resolution order"); hints in the document's path; names that fit
// several models list the choices; the host's readings of local files reach the pure analysis through the settings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, settingsFingerprint, type AnalysisSettings } from '../../src/core/analysis.js';
import type { ModelFileSystem } from '../../src/core/models/files.js';
import { pathHints } from '../../src/core/models/pathHints.js';
import { resolveModelRef } from '../../src/core/models/resolve.js';
import { chooseModel } from '../../src/core/models/select.js';
import { analyzeWithModelFiles, withModelFiles } from '../../src/host/modelFiles.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers.js';

const SERVE = 'model: Qwen/Qwen3-8B\ntensor_parallel_size: 8\nmax_seq_len: 4096\nkv_cache_config:\n  free_gpu_memory_fraction: 0.9\n';
const DB = 'examples/configs/database/deepseek-ai/DeepSeek-R1-0528/B200/8k1k_tp8_conc64.yaml';

function served(text: string, s: AnalysisSettings): { model: string; from: string; gpu: string; gpuFrom: string } | string {
  const e = analyze(text, s).main?.estimate;
  if (e?.kind === 'none') return e.reason;
  assert.equal(e?.kind, 'serving');
  return e?.kind === 'serving' ? { model: e.model.name, from: e.model.source, gpu: e.gpu.id, gpuFrom: e.gpuSource } : '';
}

test('model order: modeline, then --model, then the file, then the path, then the setting', () => {
  const all: AnalysisSettings = { explicitModel: 'gpt-oss-20b', documentPath: DB, model: 'llama3-70b' };
  const modeline = `# recipe-lens: model=qwen3-32b\n${SERVE}`;
  assert.deepEqual(served(modeline, all), { model: 'qwen3-32b', from: 'modeline', gpu: 'b200', gpuFrom: 'path' });
  assert.deepEqual(served(SERVE, all), { model: 'gpt-oss-20b', from: 'cli', gpu: 'b200', gpuFrom: 'path' });
  assert.deepEqual(served(SERVE, { ...all, explicitModel: undefined }), { model: 'qwen3-8b', from: 'file', gpu: 'b200', gpuFrom: 'path' });
  const noModel = SERVE.replace('model: Qwen/Qwen3-8B\n', '');
  assert.deepEqual(served(noModel, { documentPath: DB, model: 'llama3-70b' }), {
    model: 'deepseek-r1',
    from: 'path',
    gpu: 'b200',
    gpuFrom: 'path',
  });
  assert.deepEqual(served(noModel, { model: 'llama3-70b' }), { model: 'llama3-70b', from: 'setting', gpu: 'h100', gpuFrom: 'default' });
});

test('GPU order: modeline, then --gpu, then the path, then the setting, else H100 — stated when not named', () => {
  const s: AnalysisSettings = { explicitGpu: 'h200', documentPath: DB, gpu: 'gb200' };
  assert.equal((served(`# recipe-lens: gpu=a100-80gb\n${SERVE}`, s) as { gpu: string }).gpu, 'a100-80gb');
  assert.equal((served(SERVE, s) as { gpu: string }).gpu, 'h200');
  assert.equal((served(SERVE, { ...s, explicitGpu: undefined }) as { gpu: string }).gpu, 'b200');
  assert.equal((served(SERVE, { gpu: 'gb200' }) as { gpu: string }).gpu, 'gb200');
  const e = analyze(SERVE, {}).main?.estimate;
  assert.equal(e?.kind === 'serving' && e.gpu.id, 'h100');
  assert.ok(
    e?.kind === 'serving' &&
      e.assumptions.some((a) => a.what === 'GPU NVIDIA H100 80GB HBM3 (SXM)' && /no GPU named .*: the default/.test(a.source)),
  );
});

test("a file's own model that does not resolve gives no estimate, not the path's or the setting's model", () => {
  const text = 'model: DeepSeek-V3-Lite/bf16\ntensor_parallel_size: 1\n';
  const r = served(text, { documentPath: 'test_configs/disagg_config_cache_reuse_deepseek_v3.yaml', model: 'llama3-8b' });
  assert.match(r as string, /^model: "DeepSeek-V3-Lite\/bf16" is no catalogue model \(did you mean deepseek-v3, deepseek-v2-lite,/);
});

test('a path basename that fits several models lists the choices; an ambiguous path segment is said, not guessed', () => {
  assert.match(
    served('model: /models/Llama-70B\ntensor_parallel_size: 8\n', {}) as string,
    /^model: "\/models\/Llama-70B" fits 3 catalogue models \(llama2-70b, llama3-70b, llama3\.3-70b\)/,
  );
  const reason = served('tensor_parallel_size: 1\n', { documentPath: 'examples/backends/trtllm/engine_configs/qwen3/agg.yaml' }) as string;
  assert.match(reason, /neither the file nor its path names a model \(the path segment "qwen3" fits several models \(qwen3-0\.6b, /);
});

test('path hints: config databases, recipe names with NeMo version underscores, sizes kept, several GPUs are none', () => {
  assert.deepEqual(pathHints(DB), {
    model: { ref: 'deepseek-ai/DeepSeek-R1-0528', segment: 'deepseek-ai/DeepSeek-R1-0528' },
    gpu: { id: 'b200', segment: 'B200' },
  });
  assert.deepEqual(pathHints('launcher_scripts/conf/training/llama/llama3_1_405b.yaml').model, {
    ref: 'llama3.1-405b',
    segment: 'llama3_1_405b.yaml',
  });
  assert.equal(pathHints('scripts/performance/configs/llama31/llama31_405b_llm_pretrain.yaml').model?.ref, 'llama31-405b');
  assert.equal(pathHints('dryrun_configs/deepseek/deepseek_v3_pretrain_h100_fp8_sc_v2.yaml').gpu?.id, 'h100');
  assert.equal(pathHints('examples/auto_deploy/model_registry/configs/qwen3.5_moe_400b_nvfp4.yaml').model?.ref, 'qwen3.5-moe-400b-nvfp4');
  // A Qwen3-VL recipe names the Qwen3-VL entry, never the Qwen3 text model of that size; `qwen3_30b_a3b` stays the text model.
  assert.deepEqual(pathHints('conf/qwen3_vl_235b_a22b_pretrain_mfsdp_override_example.yaml').model, {
    ref: 'qwen3-vl-235b-a22b',
    segment: 'qwen3_vl_235b_a22b_pretrain_mfsdp_override_example.yaml',
  });
  assert.equal(pathHints('conf/qwen3_30b_a3b_pretrain.yaml').model?.ref, 'qwen3-30b-a3b');
  assert.deepEqual(pathHints('bench/h100_vs_b200/llama3_8b.yaml').gpuConflict, ['h100', 'b200']);
  assert.deepEqual(pathHints('engine_configs/llama4/eagle/eagle_decode.yaml'), {
    ambiguous: { segment: 'llama4', choices: ['llama4-scout-17b-16e', 'llama4-maverick-17b-128e'] },
  });
  // A family of two words without a size (Dynamo's engine_configs/gpt_oss) lists its models too; two unrelated words do not.
  assert.deepEqual(pathHints('components/backends/trtllm/engine_configs/gpt_oss/decode.yaml'), {
    ambiguous: { segment: 'gpt_oss', choices: ['gpt-oss-20b', 'gpt-oss-120b'] },
  });
  assert.deepEqual(pathHints('engine_configs/nemotron_super/decode.yaml'), {});
  assert.deepEqual(pathHints(undefined), {});
});

test('path hints: TensorRT-LLM AutoDeploy registry names; a variant word (lite, flash, pro, coder) is never dropped', () => {
  const ref = (p: string) => pathHints(p).model?.ref;
  const id = (p: string) => {
    const r = resolveModelRef(ref(p) ?? '');
    return r.kind === 'catalogue' ? r.entry.id : r.kind;
  };
  const AD = 'examples/auto_deploy/model_registry/configs/';
  assert.equal(id(`${AD}super_v3_mtp.yaml`), 'nemotron3-super-120b-a12b');
  assert.equal(id(`${AD}nano_v3.yaml`), 'nemotron3-nano-30b-a3b');
  assert.equal(id(`${AD}ultra_v3_mtp.yaml`), 'nemotron3-ultra-550b-a55b');
  assert.equal(id(`${AD}nano_omni.yaml`), 'nemotron3-nano-omni-30b-a3b');
  // `moe` is a noise word of recipe names, but `gemma4_moe` is the registry's name of the one Gemma 4 MoE.
  assert.equal(id(`${AD}gemma4_moe.yaml`), 'gemma4-26b-a4b');
  assert.equal(id(`${AD}gemma4_dense.yaml`), 'gemma4-31b');
  // DeepSeek-V3-Lite is TensorRT-LLM's 16B test model, not DeepSeek-V3: no hint rather than a 671B estimate.
  assert.equal(ref(`${AD}deepseek_v3_lite.yaml`), undefined);
  assert.equal(ref('tests/disaggregated/test_configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_nixl.yaml'), undefined);
  assert.equal(id('conf/llama3_8b_distill_override.yaml'), 'llama3-8b');
  assert.equal(id('conf/glm4.5_air_sft.yaml'), 'glm4.5-air-106b-a12b');
});

test('a model Recipe Lens recognises but does not model: the file, path or config.json says which parts have no terms', () => {
  const reason = served('tensor_parallel_size: 8\n', { documentPath: 'examples/configs/curated/deepseek-v4-pro-latency.yaml' }) as string;
  assert.match(
    reason,
    /^no model resolves: the path segment "deepseek-v4-pro-latency\.yaml": "deepseek-v4-pro-latency" names DeepSeek-V4, a model Recipe Lens does not model yet: its manifold-constrained hyper-connections \(hc_mult 4/,
  );
  const named = resolveModelRef('deepseek-ai/DeepSeek-V4-Flash');
  assert.equal(named.kind, 'not-found');
  assert.match(named.kind === 'not-found' ? named.message : '', /names DeepSeek-V4, .*compressed sparse attention/);
  for (const [r, title] of [
    ['nvidia/DeepSeek-V4-Pro-NVFP4', 'DeepSeek-V4'],
    ['moonshotai/Kimi-K3', 'Kimi K3'],
    ['MiniMaxAI/MiniMax-M3', 'MiniMax-M3'],
  ] as const) {
    const res = resolveModelRef(r);
    assert.match(
      res.kind === 'not-found' ? res.message : res.kind,
      new RegExp(`names ${title}, a model Recipe Lens does not model yet`),
      r,
    );
  }
  // Neighbours stay what they are: MiniMax-M2.7 is in the catalogue, DeepSeek-V3 too.
  assert.equal(resolveModelRef('MiniMaxAI/MiniMax-M2.7').kind, 'catalogue');
  assert.equal(resolveModelRef('deepseek-ai/DeepSeek-V3').kind, 'catalogue');
});

test('a named model whose shape contradicts the file is passed over with the reason', () => {
  const c = chooseModel(
    [
      { ref: 'meta-llama/Meta-Llama-3.1-8B', source: 'file', where: 'model.tokenizer.type' },
      { ref: 'llama3.1-405b', source: 'file', where: 'run.name' },
    ],
    undefined,
    (s) => (s.layers === 126 ? undefined : `num_layers ${s.layers}, the file 126`),
  );
  assert.equal(c.kind, 'chosen');
  assert.equal(c.kind === 'chosen' && c.model.name, 'llama3-405b');
  assert.deepEqual(c.passedOver, ['model.tokenizer.type "meta-llama/Meta-Llama-3.1-8B" (llama3-8b): num_layers 32, the file 126']);
});

/** A local checkpoint directory in memory. */
function memoryFs(files: Record<string, string>): ModelFileSystem {
  const dirs = new Set<string>();
  for (const p of Object.keys(files)) for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) dirs.add(p.slice(0, i));
  return {
    readText: (p) => files[p],
    isDirectory: (p) => dirs.has(p),
    listDir: () => undefined,
    hubCacheDirs: ['/home/u/.cache/huggingface/hub'],
    cwd: '/srv/serve',
    home: '/home/u',
  };
}
const fixture = (name: string) => readFileSync(join(REPO, 'test', 'fixtures', 'hf', name, 'config.json'), 'utf8');

test('the host reads a local config.json a file names and passes it in the settings; the analysis stays pure', () => {
  const fs = memoryFs({ '/srv/ckpt/my-qwen/config.json': fixture('Qwen--Qwen3-30B-A3B') });
  const text = 'model: /srv/ckpt/my-qwen\ntensor_parallel_size: 2\n';
  // Without the host's reading the core matches the path's names against the catalogue and finds none.
  const bare = analyze(text, {});
  assert.deepEqual(bare.modelRequests, ['/srv/ckpt/my-qwen']);
  const a = analyzeWithModelFiles(text, {}, fs);
  const e = a.main?.estimate;
  assert.equal(e?.kind, 'serving');
  assert.deepEqual(e?.kind === 'serving' && [e.model.name, e.model.configPath, e.shape.experts], [
    'my-qwen',
    '/srv/ckpt/my-qwen/config.json',
    128,
  ]);
  assert.deepEqual(a.modelRequests, []);
  // The reading travels as data: the same settings give the same estimate without any file access.
  assert.deepEqual(analyze(text, a.settings).main?.estimate?.kind, 'serving');
  // The fingerprint follows the content read, not only the reference.
  const other = withModelFiles(
    {},
    [{ ref: '/srv/ckpt/my-qwen', origin: 'file' }],
    memoryFs({ '/srv/ckpt/my-qwen/config.json': fixture('Qwen--Qwen2.5-7B') }),
  );
  assert.notEqual(settingsFingerprint(other), settingsFingerprint(a.settings));
  assert.equal(resolveModelRef('/srv/ckpt/my-qwen').kind, 'not-found');
});

test('an explicit reference the host could not find keeps the paths searched in its reason', () => {
  const s = withModelFiles({ explicitModel: './missing-ckpt' }, [{ ref: './missing-ckpt', origin: 'cli' }], memoryFs({}));
  const e = analyze(SERVE, s).main?.estimate;
  assert.equal(e?.kind, 'none');
  assert.match(
    e?.kind === 'none' ? e.reason : '',
    /^the --model option: "\.\/missing-ckpt" is no catalogue model and no config\.json was found locally/,
  );
});

test('training recipes name their model by run name, checkpoint path, config class or an HF tokenizer id', () => {
  const bridge =
    'model:\n  seq_length: 4096\n  tensor_model_parallel_size: 1\ncheckpoint:\n  pretrained_checkpoint: ./checkpoints/llama32_1b\ntrain:\n  global_batch_size: 8\n  micro_batch_size: 1\n';
  const e = analyze(bridge, {}).main?.estimate;
  assert.equal(e?.kind === 'training' && e.shape.name, 'llama3.2-1b');
  assert.ok(
    e?.kind === 'training' &&
      e.estimate.assumptions.some(
        (a) => a.what === 'model llama3.2-1b' && a.source === 'checkpoint.pretrained_checkpoint names "llama32-1b"',
      ),
  );
});

test('a recipe that shortens the model its path names (a proxy) is estimated with the file’s layers and says so; a tokenizer never names a proxy', () => {
  const proxy =
    'model:\n  seq_length: 4096\n  num_layers: 8\n  num_moe_experts: 48\n  tensor_model_parallel_size: 2\n  expert_model_parallel_size: 8\n  moe_layer_freq: [0, 1, 1, 1, 1, 1, 1, 1]\ntrain:\n  global_batch_size: 16\n  micro_batch_size: 1\n';
  const e = analyze(proxy, { documentPath: 'examples/recipes/kimi/conf/kimi_k2_pretrain_l8.yaml' }).main?.estimate;
  assert.equal(e?.kind, 'training');
  if (e?.kind !== 'training') return;
  assert.equal(e.shape.name, 'kimi-k2');
  assert.equal(e.shape.layers, 8);
  assert.equal(e.shape.experts, 48);
  assert.equal(e.shape.hidden, 7168);
  assert.deepEqual(
    e.estimate.assumptions.find((a) => a.what.startsWith('a 8-layer proxy')),
    {
      what: "a 8-layer proxy of kimi-k2: its width and layer kinds, the file's num_layers (61 in the model)",
      source: 'the path segment "kimi_k2_pretrain_l8.yaml" names "kimi-k2"; the file overrides num_layers',
      provenance: 'file',
    },
  );
  // A deeper stack than the model's, or a tokenizer of the family, is another model: no estimate from them.
  const deeper = proxy.replace('num_layers: 8', 'num_layers: 80');
  const d = analyze(deeper, { documentPath: 'examples/recipes/kimi/conf/kimi_k2_pretrain_l8.yaml' }).main?.estimate;
  assert.equal(d?.kind, 'none');
  const tok = `${proxy}tokenizer:\n  tokenizer_type: HuggingFaceTokenizer\n  tokenizer_model: moonshotai/Kimi-K2-Instruct\n`;
  const t = analyze(tok, {}).main?.estimate;
  assert.equal(t?.kind, 'none');
  assert.match(t?.kind === 'none' ? t.reason : '', /\(kimi-k2\): num_layers 61, the file 8/);
});
