// The CLI's --model: a catalogue name, an HF id, a path to a config.json or its folder; a name that fits several models
// or none is a usage error with the choices; the file's path is its documentPath; no estimate is JSON with a reason.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO, WILD } from '../helpers.js';

const CLI = join(REPO, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-cli-model-'));
// An empty Hugging Face cache: the catalogue and the paths given are all there is.
const env = { ...process.env, HF_HUB_CACHE: join(dir, 'hub'), HF_HOME: join(dir, 'hf'), HOME: dir };
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir, env });
const json = (...args: string[]) => {
  const r = run(...args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

const SERVE = join(dir, 'serve.yaml');
writeFileSync(SERVE, 'tensor_parallel_size: 4\nmax_seq_len: 8192\nkv_cache_config:\n  free_gpu_memory_fraction: 0.9\n');
const ckpt = join(dir, 'ckpt', 'my-oss');
mkdirSync(ckpt, { recursive: true });
cpSync(join(REPO, 'test', 'fixtures', 'hf', 'openai--gpt-oss-120b', 'config.json'), join(ckpt, 'config.json'));

test('--model takes a catalogue name, an HF id, a config.json or its folder', () => {
  const byName = json('estimate', '--format', 'json', '--model', 'llama3-70b', SERVE);
  assert.deepEqual(
    [byName.model.name, byName.model.source],
    ['llama3-70b', { from: 'cli', where: 'the --model option', ref: 'llama3-70b' }],
  );
  const byId = json('estimate', '--format', 'json', '--model', 'deepseek-ai/DeepSeek-R1-0528', SERVE);
  assert.deepEqual(
    [byId.model.name, byId.model.checkpoint, byId.model.weights.dtype],
    ['deepseek-r1', 'deepseek-ai/DeepSeek-R1-0528', 'fp8'],
  );
  const byFolder = json('estimate', '--format', 'json', '--model', './ckpt/my-oss', SERVE);
  assert.deepEqual(
    [byFolder.model.name, byFolder.model.config, byFolder.model.weights.dtype],
    ['my-oss', join(dir, 'ckpt', 'my-oss', 'config.json'), 'mxfp4'],
  );
  const byFile = json('estimate', '--format', 'json', '--model', join(ckpt, 'config.json'), SERVE);
  assert.equal(byFile.model.config, join(ckpt, 'config.json'));
  // gpt-oss-120b: 36 layers, 8 KV heads of 64 at TP 4 in BF16: 2 · 36 · 2 · 64 · 2 = 18,432 B per token.
  assert.equal(byFile.kvCache.bytesPerToken, 18_432);
});

test('a --model that fits several models, or none, is a usage error that lists the choices', () => {
  const many = run('estimate', '--model', 'mistral-7b', SERVE);
  assert.equal(many.status, 2);
  assert.match(many.stderr, /--model mistral-7b: "mistral-7b" fits 2 catalogue models \(mistral-7b-v0\.1, mistral-7b-v0\.3\)/);
  const basename = run('estimate', '--model', '/nowhere/Llama-70B', SERVE);
  assert.equal(basename.status, 2);
  assert.match(basename.stderr, /fits 3 catalogue models \(llama2-70b, llama3-70b, llama3\.3-70b\)/);
  const none = run('estimate', '--model', 'gpt-9', SERVE);
  assert.equal(none.status, 2);
  assert.match(none.stderr, /"gpt-9" is no catalogue model/);
});

test("no estimate is JSON with a null estimate and the reason; the file's upstream path names model and GPU", () => {
  const out = json('estimate', '--format', 'json', SERVE);
  assert.deepEqual(Object.keys(out), ['format', 'estimate', 'reason']);
  assert.equal(out.estimate, null);
  assert.match(out.reason, /^TensorRT-LLM options carry no model shape and neither the file nor its path names a model/);
  // The CLI passes its argument as the document's path: a copy laid out like the upstream database names both.
  const db = join(dir, 'database', 'deepseek-ai', 'DeepSeek-R1-0528', 'B200');
  mkdirSync(db, { recursive: true });
  cpSync(join(WILD, 'TensorRT-LLM', 'DeepSeek-R1-0528__B200__8k1k_tp8_conc64.yaml'), join(db, '8k1k_tp8_conc64.yaml'));
  const e = json('estimate', '--format', 'json', join(db, '8k1k_tp8_conc64.yaml'));
  assert.deepEqual([e.model.name, e.model.source.from, e.gpu.name, e.fits], ['deepseek-r1', 'path', 'NVIDIA B200 192GB', true]);
  assert.equal(e.roles[0].holds.weights, 100_840_710_832);
  const text = run('estimate', join(db, '8k1k_tp8_conc64.yaml'));
  assert.match(text.stdout, /^deepseek-r1 · trtllm-options · GPU NVIDIA B200 192GB/);
  assert.match(text.stdout, /each GPU holds:\n {4}embedding/);
});
