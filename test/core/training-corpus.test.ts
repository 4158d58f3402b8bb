// Every corpus-wild training file (SOURCES.tsv kinds nemo1, nemo-launcher, megatron-bridge, megatron-lm) that names its
// model — in the file or in its upstream path, passed as documentPath — gets an estimate. The files that get none are
// listed with why: they name no model (or only a family), or the model is named but the run is not in the file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { CORPUS, WILD, wildSources } from '../helpers.js';

const KINDS = new Set(['nemo1', 'nemo-launcher', 'megatron-bridge', 'megatron-lm']);
const NAMES_NONE = /the model shape \(num_layers, hidden_size, num_attention_heads\) is not in the file and no model is named/;

/** The files without an estimate, and why. */
const NO_ESTIMATE: Record<string, RegExp> = {
  // They name no model: encoder-decoder recipes (T5, BART, UL2, T0), an embedding model to restore from a path given at
  // launch, a PPO recipe, a Mamba fine-tuning recipe without a shape, a Qwen3-VL recipe that names no size.
  'NeMo/megatron_bart_config.yaml': NAMES_NONE,
  'NeMo/megatron_t0_config.yaml': NAMES_NONE,
  'NeMo/megatron_t5_finetuning_config.yaml': NAMES_NONE,
  'NeMo/megatron_ul2_config.yaml': NAMES_NONE,
  'NeMo-Framework-Launcher/220m.yaml': NAMES_NONE,
  'NeMo/megatron_gpt_embedder_tuning_config.yaml': NAMES_NONE,
  'NeMo-Framework-Launcher/2b_ppo.yaml': NAMES_NONE,
  'NeMo-Framework-Launcher/mamba__sft.yaml': NAMES_NONE,
  'Megatron-Bridge/qwen3_vl_pretrain_override_example.yaml': NAMES_NONE,
  // They name a family, not a model: the path segment says which models it could be.
  'NeMo-Framework-Launcher/gemma__squad.yaml': /no model is named \(the path segment "gemma" fits several models/,
  'NeMo-Framework-Launcher/llama__sft.yaml': /no model is named \(the path segment "llama" fits several models/,
  'NeMo-Framework-Launcher/nemotron__sft.yaml': /no model is named \(the path segment "nemotron" fits several models/,
  // A frozen language model (NeVA): full training would be the wrong estimate.
  'NeMo/neva_mixtral_config.yaml': /^the language model is frozen \(mm_cfg\.llm\.freeze\)/,
};

/** Files whose model the estimate takes from the catalogue, by where it is named. */
const NAMED: Record<string, string> = {
  'Megatron-Bridge/kimi_k2_pretrain_override_example.yaml': 'kimi-k2', // the path
  // Overrides that leave the sequence length to their recipe's code: estimated at the assumed 4096.
  'Megatron-Bridge/DeepSeek-V3.yaml': 'deepseek-v3',
  'Megatron-Bridge/llama3_8b_distill_override.yaml': 'llama3-8b',
  'Megatron-Bridge/llama3_8b_pretrain_overrides.yaml': 'llama3-8b',
  'Megatron-Bridge/nemotron_3_nano_pretrain.yaml': 'nemotron3-nano-30b-a3b',
  // Performance configs: the run the launcher starts (perf_matrix), the model from the path.
  'Megatron-Bridge/deepseek_v3_llm_pretrain.yaml': 'deepseek-v3',
  'Megatron-Bridge/kimi_k2_llm_pretrain.yaml': 'kimi-k2',
  'Megatron-Bridge/llama31_405b_llm_pretrain.yaml': 'llama3-405b',
  'Megatron-Bridge/llama3_8b_llm_pretrain.yaml': 'llama3-8b',
  'Megatron-Bridge/qwen3_235b_a22b_llm_pretrain.yaml': 'qwen3-235b-a22b',
  'Megatron-Bridge/qwen3_30b_a3b_llm_pretrain.yaml': 'qwen3-30b-a3b',
  'Megatron-Bridge/llama32_1b_finetune.yaml': 'llama3.2-1b', // the path
  'Megatron-Bridge/moonlight_16b_pretrain_override_example.yaml': 'moonlight-16b-a3b', // the path
  'Megatron-Bridge/qwen3_moe_30b_a3b_pretrain_override_example.yaml': 'qwen3-30b-a3b', // the path
  'Megatron-Bridge/qwen3_vl_235b_a22b_pretrain_mfsdp_override_example.yaml': 'qwen3-vl-235b-a22b', // the path
  'NeMo-Framework-Launcher/llama3_1_405b.yaml': 'llama3-405b', // run.name llama3_1_405b (its tokenizer names the 8B)
  'NeMo-Framework-Launcher/qwen2__squad.yaml': 'qwen2-7b', // run.name squad_qwen2_7b
  'NeMo-Framework-Launcher/squad_8x22b.yaml': 'mixtral-8x22b', // run.name squad_mixtral_8x22b
  'NeMo/megatron_gpt_qat_config.yaml': 'llama2-7b', // name llama2-7b
};

const files = wildSources().filter((s) => KINDS.has(s.kind));

test('62 training files: 49 get an estimate, the 13 others say why', () => {
  assert.equal(files.length, 62);
  const none = files.filter((s) => Object.hasOwn(NO_ESTIMATE, s.file)).length;
  assert.deepEqual([files.length - none, none], [49, 13]);
  for (const f of Object.keys(NO_ESTIMATE))
    assert.ok(
      files.some((s) => s.file === f),
      f,
    );
});

for (const s of files) {
  test(`training: ${s.file}`, () => {
    const a = analyze(readFileSync(join(WILD, s.file), 'utf8'), { documentPath: s.path });
    const e = a.main?.estimate;
    const why = NO_ESTIMATE[s.file];
    if (why) {
      assert.equal(e?.kind, 'none', `${s.file} has an estimate`);
      assert.match(e?.kind === 'none' ? e.reason : '', why);
      return;
    }
    assert.equal(e?.kind, 'training', e?.kind === 'none' ? e.reason : e?.kind);
    if (e?.kind === 'training' && NAMED[s.file]) assert.equal(e.shape.name, NAMED[s.file]);
  });
}

// NeMo's Llama template leaves its tokenizer `???`: the estimate assumes a vocabulary and says so, and no RL-MEM rests on
// that guess; once the user states the vocabulary (modeline), its 7.5B full training on devices: 1 is a finding.
test('a guessed vocabulary gives an estimate but no RL-MEM; a stated one does', () => {
  const text = readFileSync(join(CORPUS, 'NeMo/megatron_llama_config.yaml'), 'utf8');
  const guessed = analyze(text, { documentPath: 'examples/nlp/language_modeling/conf/megatron_llama_config.yaml' });
  const e = guessed.main?.estimate;
  assert.equal(e?.kind, 'training');
  if (e?.kind !== 'training') return;
  assert.equal(e.vocabAssumed, true);
  assert.equal(e.estimate.fit.verdict, 'does-not-fit');
  assert.ok(
    e.estimate.assumptions.some((a) => a.what === 'vocab = 128256' && a.source.startsWith('"megatron_llama" names no known tokenizer')),
  );
  assert.deepEqual(
    guessed.diagnostics.filter((d) => d.code === 'RL-MEM'),
    [],
  );
  const stated = analyze(`# recipe-lens: vocab=32000\n${text}`);
  assert.deepEqual(
    stated.diagnostics.filter((d) => d.code === 'RL-MEM').map((d) => d.path),
    ['model.encoder_seq_length'],
  );
});
