// Tokenizer vocabularies of the tokenizers upstream recipes name (../shared/corpus-wild: Megatron-LM, NeMo, Launcher,
// Megatron-Bridge), and the stated assumption when a vocabulary is truly unknown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assumeVocab, DEFAULT_VOCAB, resolveTokenizerVocab, vocabFromTokenizer } from '../../src/core/models/tokenizers.js';

const vocab = (library: string | undefined, name: string) => vocabFromTokenizer(library, name)?.vocab;

test('Megatron types and vocabulary files: GPT-2 BPE, BERT word pieces, Llama 2 SentencePiece, Nemotron 256k', () => {
  assert.equal(vocab(undefined, 'GPT2BPETokenizer'), 50257);
  assert.equal(vocab('megatron', '${data_dir}/bpe/vocab.json'), 50257);
  assert.equal(vocab('megatron', 'BertWordPieceLowerCase'), 30522);
  assert.equal(vocab(undefined, 'Llama2Tokenizer'), 32000);
  assert.equal(vocab('sentencepiece', '${data_dir}/llama/llama_tokenizer.model'), 32000);
  assert.equal(vocab(undefined, '${DATA_PATH}/utils/nemotron_2_256k.model'), 256000);
  assert.equal(vocab('sentencepiece', '/data/29e0a1b2c3_nemotron_2_256k.model'), 256000);
  assert.match(vocabFromTokenizer(undefined, 'Llama2Tokenizer')!.source, /a different model file would differ/);
});

test('HF tokenizer ids: catalogue checkpoints and tokenizer-only repositories', () => {
  assert.equal(vocab('huggingface', 'meta-llama/Meta-Llama-3-8B'), 128256);
  assert.equal(vocab(undefined, 'meta-llama/Meta-Llama-3.1-70B'), 128256);
  assert.equal(vocab('huggingface', 'mistralai/Mixtral-8x7B-v0.1'), 32000);
  assert.equal(vocab('huggingface', 'mistralai/Mistral-Nemo-Base-2407'), 131072);
  assert.equal(vocab('huggingface', 'Qwen/Qwen3-235B-A22B'), 151936);
  assert.equal(vocab(undefined, 'unsloth/DeepSeek-V3'), 129280);
  assert.equal(vocab('huggingface', 'EleutherAI/gpt-neox-20b'), 50432);
  assert.equal(vocab('huggingface', 'google/recurrentgemma-2b'), 256000);
  assert.equal(vocab('huggingface', 'bigcode/starcoder2-tokenizer'), 49152);
  assert.equal(vocab('huggingface', 'openai/gpt-oss-120b'), 201088);
  assert.equal(vocab('huggingface', 'Qwen/Qwen1.5-4B'), 151936);
  assert.equal(vocab('huggingface', 'Qwen/Qwen1.5-7B'), 151936);
  assert.match(vocabFromTokenizer('huggingface', 'Qwen/Qwen1.5-4B')!.source, /^the Qwen1\.5 tokenizer/);
  const hit = vocabFromTokenizer('huggingface', 'Qwen/Qwen3-235B-A22B')!;
  assert.equal(hit.name, 'Qwen/Qwen3-235B-A22B');
  assert.match(hit.source, /^Qwen3 235B-A22B tokenizer \(HF Qwen\/Qwen3-235B-A22B config\.json/);
});

test('names that fit several models with one vocabulary share it; file paths and unknown names give none', () => {
  const shared = vocabFromTokenizer(undefined, 'mistralai/Mistral-7B-Instruct-v0.1');
  assert.equal(shared?.vocab, 32000);
  assert.equal(vocab('sentencepiece', '${DATA_PATH}/tokenizer.model'), undefined);
  assert.equal(
    vocab(undefined, '${CHECKPOINT_LOAD_PATH}/model/mcore_mistral/nemo_minitron-0.5b/v1/multiMixV8.gpt4o_nc_sd.500000.128k.vocab.json'),
    undefined,
  );
  assert.equal(vocab(undefined, 'NullTokenizer'), undefined);
  assert.equal(vocab(undefined, 'HuggingFaceTokenizer'), undefined);
  assert.equal(vocab(undefined, '${tokenizer_path}'), undefined);
  assert.equal(vocab(undefined, ''), undefined);
  assert.equal(vocab(undefined, 'llama'), undefined);
});

test('a tokenizer file names a model by its name or its folder when that is unambiguous', () => {
  assert.equal(vocab('sentencepiece', '/data/tokenizers/Llama-2-7b-hf/tokenizer.model'), 32000);
  assert.equal(vocab('huggingface', '/models/Meta-Llama-3-8B'), 128256);
  assert.equal(vocab(undefined, '/ckpt/qwen3-8b/vocab.json'), 151936);
  assert.match(
    vocabFromTokenizer('sentencepiece', '/data/tokenizers/Llama-2-7b-hf/tokenizer.model')!.source,
    /named by "Llama-2-7b-hf" in the path/,
  );
  assert.equal(vocab('sentencepiece', '/data/llama/tokenizer.model'), undefined);
  assert.equal(vocab('sentencepiece', '${DATA_PATH}/tokenizer.model'), undefined);
});

test('resolveTokenizerVocab tries the model, then the type, then the vocabulary file', () => {
  assert.equal(resolveTokenizerVocab({ library: 'megatron', type: 'GPT2BPETokenizer', model: '/x/unknown.model' })?.vocab, 50257);
  assert.equal(
    resolveTokenizerVocab({ type: 'HuggingFaceTokenizer', model: 'meta-llama/Meta-Llama-3-70B' })?.name,
    'meta-llama/Meta-Llama-3-70B',
  );
  assert.equal(resolveTokenizerVocab({ library: 'megatron', vocabFile: 'gpt2-vocab.json' })?.vocab, 50257);
  assert.equal(resolveTokenizerVocab({}), undefined);
});

test("an unknown vocabulary is assumed and stated: the family's most common one, else Llama 3's 128,256; a user value wins", () => {
  const qwen = assumeVocab('Qwen/QwQ-32B-Preview');
  assert.deepEqual(qwen, {
    vocab: 151936,
    assumption: {
      what: 'vocab = 151936',
      source:
        '"Qwen/QwQ-32B-Preview" names no known tokenizer; the most common vocabulary of the catalogue\'s qwen models (24 of 45); set `# recipe-lens: vocab=N` (or the model: `# recipe-lens: model=ORG/NAME`) to replace it',
      provenance: 'default',
    },
  });
  const none = assumeVocab('multiMixV8.gpt4o_nc_sd.500000.128k.vocab.json');
  assert.equal(none.vocab, DEFAULT_VOCAB);
  assert.equal(DEFAULT_VOCAB, 128256);
  assert.match(none.assumption.source, /Llama 3's 128,256-token vocabulary assumed as a neutral middle/);
  assert.equal(assumeVocab(undefined).assumption.source.startsWith('no tokenizer named;'), true);
  assert.equal(assumeVocab('my-llama-finetune').vocab, 128256);
  // Gemma 1–2's 256,000 and Gemma 3 1B / Gemma 4's 262,144 are now as common in the family: the larger wins.
  assert.equal(assumeVocab('gemma-4-custom').vocab, 262144);
  assert.deepEqual(assumeVocab('anything', 256000), {
    vocab: 256000,
    assumption: { what: 'vocab = 256000', source: 'the user-supplied vocabulary', provenance: 'setting' },
  });
  assert.equal(assumeVocab('anything', -3).vocab, DEFAULT_VOCAB);
});
