// Model references — `--model`, the recipeLens.model setting, a modeline, or the model a file names — resolve to a
// catalogue entry, a config.json on disk or in the Hugging Face cache, a list of choices, or a reason; never a guess.
// The names below are the ones upstream files use (../shared/corpus-wild: NeMo-RL policy.model_name, TensorRT-LLM and
// Dynamo `model:` paths, Megatron-Bridge tokenizer_model).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { countParams } from '../../src/core/memory/params.js';
import { hubCacheDirs, joinPath, type ModelFileSystem } from '../../src/core/models/files.js';
import { describeWeights, resolveModelRef, type ModelResolution } from '../../src/core/models/resolve.js';
import { REPO } from '../helpers.js';

type Catalogue = Extract<ModelResolution, { kind: 'catalogue' }>;
type Config = Extract<ModelResolution, { kind: 'config' }>;

function catalogue(ref: string, fs?: ModelFileSystem): Catalogue {
  const r = resolveModelRef(ref, fs);
  assert.equal(r.kind, 'catalogue', `${ref}: ${JSON.stringify(r).slice(0, 300)}`);
  return r as Catalogue;
}
function config(ref: string, fs: ModelFileSystem): Config {
  const r = resolveModelRef(ref, fs, 'cli');
  assert.equal(r.kind, 'config', `${ref}: ${JSON.stringify(r).slice(0, 300)}`);
  return r as Config;
}

/** An in-memory file system: paths to file contents; directories are implied by the paths under them. */
function memoryFs(files: Record<string, string>, extra: Partial<ModelFileSystem> = {}): ModelFileSystem {
  const dirs = new Set<string>();
  for (const p of Object.keys(files)) for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) dirs.add(p.slice(0, i));
  return {
    readText: (p) => files[p],
    isDirectory: (p) => dirs.has(p),
    listDir: (p) =>
      dirs.has(p)
        ? [
            ...new Set(
              Object.keys(files)
                .filter((f) => f.startsWith(`${p}/`))
                .map((f) => f.slice(p.length + 1).split('/')[0]!),
            ),
          ]
        : undefined,
    hubCacheDirs: ['/home/u/.cache/huggingface/hub'],
    cwd: '/home/u/recipes',
    home: '/home/u',
    ...extra,
  };
}
const fixture = (name: string, file = 'config.json') => readFileSync(join(REPO, 'test', 'fixtures', 'hf', name, file), 'utf8');

test('HF ids, catalogue ids and aliases resolve to the catalogue with the checkpoint weight format', () => {
  const q = catalogue('Qwen/Qwen3-30B-A3B');
  assert.deepEqual(
    [q.entry.id, q.matchedBy, q.checkpoint?.hfId, q.weights.dtype],
    ['qwen3-30b-a3b', 'hf-id', 'Qwen/Qwen3-30B-A3B', 'bf16'],
  );
  assert.equal(catalogue('Qwen/Qwen3-30B-A3B-Instruct-2507').entry.id, 'qwen3-30b-a3b');
  assert.equal(catalogue('meta-llama/Llama-3.1-70B').entry.id, 'llama3-70b');
  assert.equal(catalogue('TinyLlama/TinyLlama-1.1B-Chat-v1.0').entry.id, 'tinyllama-1.1b');
  assert.equal(catalogue('moonshotai/Moonlight-16B-A3B-Instruct').entry.id, 'moonlight-16b-a3b');
  assert.equal(catalogue('nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16').entry.id, 'nemotron3-super-120b-a12b');
  assert.equal(catalogue('Qwen/Qwen3.5-35B-A3B-Base').entry.id, 'qwen3.5-35b-a3b');
  assert.equal(catalogue('google/gemma-3-27b-it').entry.id, 'gemma3-27b');
  const alias = catalogue('llama31_70b');
  assert.deepEqual([alias.entry.id, alias.matchedBy, alias.weights.dtype], ['llama3-70b', 'alias', 'bf16']);
  assert.match(alias.weights.source, /^as the reference checkpoint meta-llama\/Llama-3\.1-70B/);
  assert.equal(catalogue('llama3-70b').matchedBy, 'id');
});

test('DeepSeek-R1 and R1-0528 resolve in their FP8 format; NVIDIA -FP4 checkpoints in NVFP4', () => {
  const r1 = catalogue('deepseek-ai/DeepSeek-R1-0528');
  assert.equal(r1.entry.id, 'deepseek-r1');
  assert.equal(describeWeights(r1.weights), 'FP8 (linear layers; the rest BF16)');
  // A TensorRT-LLM `model:` path whose basename is NVIDIA's FP4 checkpoint.
  const fp4 = catalogue('/models/DeepSeek-R1-FP4');
  assert.deepEqual([fp4.entry.id, fp4.checkpoint?.hfId, fp4.matchedBy], ['deepseek-r1', 'nvidia/DeepSeek-R1-FP4', 'checkpoint-name']);
  assert.equal(describeWeights(fp4.weights), 'NVFP4 (MLP / MoE layers; the rest BF16)');
  // A listed checkpoint whose own quantization config was not read: R1-FP4's exclusions (BF16 attention) assumed.
  const v2 = catalogue('DeepSeek-R1/DeepSeek-R1-0528-FP4-v2');
  assert.deepEqual(
    [v2.entry.id, v2.checkpoint?.hfId, v2.weights.dtype, v2.weights.scope, v2.matchedBy],
    ['deepseek-r1', 'nvidia/DeepSeek-R1-0528-FP4-v2', 'nvfp4', 'mlp', 'checkpoint-name'],
  );
  assert.match(v2.weights.source, /^NVFP4 MLPs with BF16 attention and a BF16 MTP layer assumed for nvidia\/DeepSeek-R1-0528-FP4-v2/);
  // Not a listed checkpoint: the name's -FP4 says NVFP4, stated as an assumption.
  const v3 = catalogue('/ckpt/DeepSeek-V3.1-NVFP4');
  assert.deepEqual([v3.entry.id, v3.weights.dtype, v3.weights.scope, v3.matchedBy], ['deepseek-v3', 'nvfp4', 'linear', 'name']);
  assert.equal(v3.assumptions[1]!.provenance, 'default');
  assert.match(v3.assumptions[1]!.source, /checkpoint name "DeepSeek-V3.1-NVFP4" says NVFP4/);
});

test('path basenames resolve when unambiguous: gpt_oss/gpt-oss-120b, Qwen3/Qwen3-32B-FP8, an NVIDIA FP8 Llama 4 path', () => {
  const oss = catalogue('gpt_oss/gpt-oss-120b');
  assert.deepEqual([oss.entry.id, oss.weights.dtype, oss.weights.scope], ['gpt-oss-120b', 'mxfp4', 'experts']);
  const q = catalogue('Qwen3/Qwen3-32B-FP8');
  assert.deepEqual(
    [q.entry.id, q.checkpoint?.hfId, q.weights.dtype, q.weights.scope],
    ['qwen3-32b', 'Qwen/Qwen3-32B-FP8', 'fp8', 'linear'],
  );
  const mav = catalogue('llama4-models/nvidia/Llama-4-Maverick-17B-128E-Instruct-FP8');
  assert.deepEqual([mav.entry.id, mav.weights.dtype, mav.matchedBy], ['llama4-maverick-17b-128e', 'fp8', 'name']);
  assert.equal(catalogue('DeepSeek-V3').entry.id, 'deepseek-v3');
  assert.equal(catalogue('unsloth/DeepSeek-V3').entry.id, 'deepseek-v3');
  assert.equal(catalogue('/lustre/ckpt/models--Qwen--Qwen3-8B').entry.id, 'qwen3-8b');
  const words = catalogue('qwen3-30b');
  assert.deepEqual([words.entry.id, words.matchedBy], ['qwen3-30b-a3b', 'name-tokens']);
});

test("TensorRT-LLM's test names: `v3.3` is a version, and a name's FP4 / FP8 that is the model's released format keeps its exact form", () => {
  // tests/integration/defs/perf/_model_paths.py names Llama 3.x `llama_v3.1_8b_instruct`, `llama_v3.3_70b_instruct_fp4`.
  assert.equal(catalogue('llama_v3.3_70b_instruct').entry.id, 'llama3.3-70b');
  assert.equal(catalogue('llama_v4_scout_17b_16e_instruct_fp8').entry.id, 'llama4-scout-17b-16e');
  assert.equal(catalogue('deepseek_v3').entry.id, 'deepseek-v3');
  // gpt-oss is released in MXFP4: a bare `fp4` in its name is that, experts only, not NVFP4 on every linear layer.
  const oss = catalogue('gpt_oss_120b_fp4');
  assert.deepEqual([oss.weights.dtype, oss.weights.scope], ['mxfp4', 'experts']);
  assert.match(oss.weights.source, /^the name's FP4 is the released format of openai\/gpt-oss-120b: /);
  assert.equal(oss.assumptions[1]!.provenance, 'preset');
  // DeepSeek-R1 is released in block-scaled FP8: `_fp8` keeps its 128×128 blocks.
  const r1 = catalogue('deepseek_r1_0528_fp8');
  assert.deepEqual(
    [r1.entry.id, r1.weights.dtype, r1.weights.block],
    ['deepseek-r1', 'fp8', '128×128 weight blocks with FP32 scales (weight_block_size [128, 128])'],
  );
  // A format the release is not in stays the name's (Llama 3.3 is released in BF16).
  const llama = catalogue('llama_v3.3_70b_instruct_fp4');
  assert.deepEqual([llama.weights.dtype, llama.weights.scope, llama.assumptions[1]!.provenance], ['nvfp4', 'linear', 'default']);
});

test('an ambiguous name lists the choices instead of guessing', () => {
  const mistral = resolveModelRef('mistral-7b');
  assert.equal(mistral.kind, 'ambiguous');
  assert.deepEqual(mistral.kind === 'ambiguous' && mistral.choices.map((c) => c.id), ['mistral-7b-v0.1', 'mistral-7b-v0.3']);
  const llama = resolveModelRef('/ckpts/Llama-70B');
  assert.deepEqual(llama.kind === 'ambiguous' && llama.choices.map((c) => c.id), ['llama2-70b', 'llama3-70b', 'llama3.3-70b']);
  assert.match(llama.kind === 'ambiguous' ? llama.message : '', /fits 3 catalogue models \(llama2-70b, llama3-70b, llama3\.3-70b\)/);
  const family = resolveModelRef('gemma');
  assert.deepEqual(family.kind === 'ambiguous' && family.choices.length, 13); // Gemma 1 (2), 2 (3), 3 (4), 4 (4)
});

test('a name the catalogue does not hold is not found, with near names — a draft model or a trimmed test model is no guess', () => {
  for (const ref of [
    'DeepSeek-V3-Lite/fp8',
    'Zhi-Create-Qwen3-32B-Eagle3',
    'deepseek-ai/DeepSeek-R1-Distill-Qwen-14B',
    'nvidia/Llama-4-Maverick-17B-128E-Eagle3',
  ]) {
    const r = resolveModelRef(ref);
    assert.equal(r.kind, 'not-found', ref);
  }
  const lite = resolveModelRef('DeepSeek-V3-Lite/bf16');
  // V3 shares the version, V2-Lite the `lite`: the version weighs more.
  assert.deepEqual(lite.kind === 'not-found' && lite.suggestions, [
    'deepseek-v3',
    'deepseek-v2-lite',
    'deepseek-v2',
    'deepseek-r1',
    'deepseek-v3.2',
    'deepseek-r1-distill-qwen-1.5b',
  ]);
  // NeMo-RL's DeepScaleR recipes name the 1.5B distillation: it is in the catalogue (untied, unlike Qwen2.5-1.5B).
  const distill = resolveModelRef('deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B');
  assert.deepEqual(distill.kind === 'catalogue' && [distill.shape.name, distill.shape.tiedEmbeddings], [
    'deepseek-r1-distill-qwen-1.5b',
    false,
  ]);
  assert.deepEqual(resolveModelRef('  '), { kind: 'not-found', query: '', message: 'no model named', searched: [], suggestions: [] });
  // The organisation of an HF id is no family hint: NeMo-RL's Qwen/Qwen2.5-Omni-3B is not found (Qwen2.5-VL-3B was
  // "fits 36 catalogue models" from the `Qwen` folder before it was catalogued); a family folder of a local path still
  // lists its models.
  const omni = resolveModelRef('Qwen/Qwen2.5-Omni-3B');
  assert.equal(omni.kind, 'not-found');
  assert.match(
    omni.kind === 'not-found' ? omni.message : '',
    /^"Qwen\/Qwen2\.5-Omni-3B" is no catalogue model \(did you mean qwen2\.5-3b, qwen2\.5-vl-3b, /,
  );
  // Qwen2.5-Math-1.5B(-Instruct) is Qwen2.5-1.5B's shape (its model card's base_model).
  const math = resolveModelRef('Qwen/Qwen2.5-Math-1.5B-Instruct');
  assert.equal(math.kind === 'catalogue' && math.entry.id, 'qwen2.5-1.5b');
  assert.equal(resolveModelRef('/models/llama').kind, 'ambiguous');
});

test('"did you mean" lists the closest entries of the family first: the size, then the version, wherever the family word is', () => {
  const near = (name: string) => {
    const r = resolveModelRef(name);
    return r.kind === 'not-found' ? r.suggestions.slice(0, 2) : r.kind;
  };
  // A reward model built on Qwen3-235B-A22B (its name adds Nemotron and GenRM, so it is not taken for it).
  assert.deepEqual(near('nvidia/Qwen3-Nemotron-235B-A22B-GenRM-2603'), ['qwen3-235b-a22b', 'qwen3-vl-235b-a22b']);
  // The family word after an organisation word; a fine-tune of Llama 3.1 8B.
  assert.deepEqual(near('Skywork/Skywork-Reward-V2-Qwen3-0.6B'), ['qwen3-0.6b', 'qwen2-0.5b']);
  assert.deepEqual(near('allenai/Llama-3.1-Tulu-3-8B-SFT'), ['llama3-8b', 'llama3.1-nemotron-nano-8b']);
  // No family word the catalogue knows: nothing to suggest.
  assert.deepEqual(near('openai/whisper-large-v3'), []);
});

test('a path to a checkpoint directory or a config.json is read; hf_quant_config.json beside it sets the weight format', () => {
  const fs = memoryFs({
    '/ckpt/my-r1/config.json': fixture('deepseek-ai--DeepSeek-R1'),
    '/data/nemo3/config.json': fixture('nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4'),
    '/data/nemo3/hf_quant_config.json': fixture('nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4', 'hf_quant_config.json'),
    '/home/u/recipes/local/llama/config.json': fixture('meta-llama--Llama-3.2-1B'),
  });
  const dir = config('/ckpt/my-r1', fs);
  assert.deepEqual(
    [dir.path, dir.origin, dir.shape.name, dir.shape.experts, dir.weights.dtype, dir.entry],
    ['/ckpt/my-r1/config.json', 'path', 'my-r1', 256, 'fp8', undefined],
  );
  assert.deepEqual(dir.assumptions[0], {
    what: 'model shape from /ckpt/my-r1/config.json',
    source: 'DeepseekV3ForCausalLM config.json',
    provenance: 'file',
  });
  const file = config('/data/nemo3/config.json', fs);
  assert.deepEqual([file.weights.dtype, file.weights.scope, file.shape.hybridPattern?.length], ['nvfp4', 'mlp', 52]);
  // Relative to the document's folder.
  assert.equal(config('./local/llama', fs).shape.tiedEmbeddings, true);
  assert.equal(config('local/llama', fs).shape.layers, 16);
});

test('a path that does not exist falls back to its names; a broken config.json is reported, not guessed around', () => {
  const fs = memoryFs({ '/bad/config.json': '{"num_hidden_layers": 2,', '/weird/config.json': '{"foo": 1}' });
  const r = resolveModelRef('/models/DeepSeek-R1-FP4', fs);
  assert.equal(r.kind, 'catalogue');
  assert.match(r.kind === 'catalogue' ? r.notes[0]! : '', /^\/models\/DeepSeek-R1-FP4: no such file or directory; matched by name instead/);
  const bad = resolveModelRef('/bad', fs);
  assert.equal(bad.kind, 'invalid');
  assert.match(bad.kind === 'invalid' ? bad.message : '', /^\/bad\/config\.json: not valid JSON/);
  const weird = resolveModelRef('/weird/config.json', fs);
  assert.deepEqual(
    weird.kind === 'invalid' && weird.message,
    '/weird/config.json has no num_hidden_layers, hidden_size, num_attention_heads: not a decoder model config Recipe Lens can read',
  );
});

test('an HF id found in the Hugging Face cache is read from the snapshot refs/main names', () => {
  const cache = '/home/u/.cache/huggingface/hub';
  const repo = `${cache}/models--acme--tiny-moe`;
  const fs = memoryFs({
    [`${repo}/refs/main`]: 'bbb\n',
    [`${repo}/snapshots/aaa/config.json`]: fixture('meta-llama--Llama-3.2-1B'),
    [`${repo}/snapshots/bbb/config.json`]: fixture('Qwen--Qwen3-30B-A3B'),
    [`${cache}/models--Other--MixedCase/snapshots/ccc/config.json`]: fixture('google--gemma-3-1b-it'),
  });
  const r = config('acme/tiny-moe', fs);
  assert.deepEqual(
    [r.origin, r.path, r.shape.experts, r.shape.name],
    ['hf-cache', `${repo}/snapshots/bbb/config.json`, 128, 'acme/tiny-moe'],
  );
  // No refs/main: the first snapshot is read and that is stated; the folder name matches case-insensitively.
  const mixed = config('other/mixedcase', fs);
  assert.equal(mixed.shape.slidingWindowPattern, 6);
  assert.deepEqual(mixed.assumptions[1], {
    what: 'snapshot ccc',
    source: `${cache}/models--Other--MixedCase has no usable refs/main; snapshot ccc read (1 snapshot)`,
    provenance: 'default',
  });
  // A catalogue HF id resolves from the catalogue on every machine, cached or not.
  assert.equal(resolveModelRef('Qwen/Qwen3-8B', fs).kind, 'catalogue');
  const missing = resolveModelRef('acme/unknown-model', fs);
  assert.equal(missing.kind, 'not-found');
  assert.deepEqual(missing.kind === 'not-found' && missing.searched, [`${cache}/models--acme--unknown-model`]);
});

test('a checkpoint read from disk keeps the catalogue entry its name matches, for the published size', () => {
  const fs = memoryFs({ '/ckpt/DeepSeek-R1/config.json': fixture('deepseek-ai--DeepSeek-R1') });
  const r = config('/ckpt/DeepSeek-R1', fs);
  assert.equal(r.entry?.id, 'deepseek-r1');
  assert.equal(r.shape.mtpLayers, 1);
});

test('~ expands to the home directory; the hub cache follows huggingface_hub: HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE, HF_HOME, XDG_CACHE_HOME', () => {
  const fs = memoryFs({ '/home/u/models/l1b/config.json': fixture('meta-llama--Llama-3.2-1B') });
  assert.equal(config('~/models/l1b', fs).shape.headDim, 64);
  const home = '/home/u';
  const dflt = '/home/u/.cache/huggingface/hub';
  assert.deepEqual(hubCacheDirs({}, home), [dflt]);
  assert.deepEqual(hubCacheDirs({ HF_HUB_CACHE: '/fast/hub', HF_HOME: '/x' }, home), ['/fast/hub', dflt]);
  assert.deepEqual(hubCacheDirs({ HUGGINGFACE_HUB_CACHE: '/legacy', HF_HOME: '/x' }, home), ['/legacy', dflt]);
  assert.deepEqual(hubCacheDirs({ HF_HOME: '~/hf' }, home), ['/home/u/hf/hub', dflt]);
  assert.deepEqual(hubCacheDirs({ XDG_CACHE_HOME: '/xdg' }, home), ['/xdg/huggingface/hub', dflt]);
  assert.deepEqual(hubCacheDirs({ HF_HUB_CACHE: '  ' }, home), [dflt]);
  assert.equal(joinPath('/a/', '/b'), '/b');
  assert.equal(joinPath('C:\\models', 'x', 'config.json'), 'C:\\models/x/config.json');
});

test('without a file system only the catalogue is searched, and the assumptions say where the model came from', () => {
  const r = resolveModelRef('openai/gpt-oss-20b', undefined, 'modeline');
  assert.equal(r.kind, 'catalogue');
  const c = r as Catalogue;
  assert.deepEqual(c.assumptions[0], {
    what: 'model shape of gpt-oss-20b (gpt-oss-20b)',
    source: `the recipe-lens modeline "openai/gpt-oss-20b" → catalogue by hf-id; ${c.entry.sources[0]}`,
    provenance: 'modeline',
  });
  assert.deepEqual(c.assumptions[1]!.what, 'weights stored as MXFP4 (routed experts; the rest BF16)');
  assert.equal(resolveModelRef('/nowhere/at/all/config.json').kind, 'not-found');
});

test("Qwen3.8-27B is Qwen3.5-27B's architecture: its Bridge card's parameter count is Qwen3.5-27B's text model + vision tower + MTP layer", () => {
  const r = resolveModelRef('Qwen/Qwen3.8-27B');
  assert.ok(r.kind === 'catalogue');
  assert.deepEqual([r.entry.id, r.matchedBy, r.weights.dtype, r.checkpoint?.hfId], ['qwen3.5-27b', 'hf-id', 'bf16', 'Qwen/Qwen3.8-27B']);
  // The card: 27,781,427,952 imported parameters; the text model counts 26,895,998,464 of them.
  const text = countParams(r.shape).total;
  assert.equal(text, 26_895_998_464);
  assert.equal(text + 460_730_096 + 424_699_392, 27_781_427_952);
  assert.ok(
    r.notes.some((n) =>
      n.startsWith('Qwen3.8-27B is read as Qwen3.5-27B: Megatron-Bridge examples/model_verification_cards/qwen3.8-27b/card.yaml'),
    ),
  );
});
