// The Node file system of model resolution reads a temporary fake Hugging Face cache and checkpoint directories.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { nodeModelFiles, resolveModelOnDisk } from '../../src/host/modelFiles.js';
import { REPO } from '../helpers.js';

const root = mkdtempSync(join(tmpdir(), 'recipe-lens-models-'));
after(() => rmSync(root, { recursive: true, force: true }));
const fixture = (name: string) => readFileSync(join(REPO, 'test', 'fixtures', 'hf', name, 'config.json'), 'utf8');
function write(path: string, text: string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/** A hub cache laid out as huggingface_hub writes it: refs/main names the snapshot folder holding the files. */
function cacheModel(hub: string, hfId: string, commit: string, config: string) {
  const repo = join(hub, `models--${hfId.replace('/', '--')}`);
  write(join(repo, 'refs', 'main'), commit);
  write(join(repo, 'snapshots', commit, 'config.json'), config);
}

const home = join(root, 'home');
cacheModel(join(home, '.cache', 'huggingface', 'hub'), 'acme/default-home', 'c0ffee', fixture('meta-llama--Llama-3.2-1B'));
cacheModel(join(root, 'hfhome', 'hub'), 'acme/in-hf-home', 'beef', fixture('Qwen--Qwen3-30B-A3B'));
cacheModel(join(root, 'fast'), 'acme/in-hub-cache', 'f00d', fixture('google--gemma-3-1b-it'));
write(join(root, 'ckpt', 'nemo3', 'config.json'), fixture('nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4'));
write(
  join(root, 'ckpt', 'nemo3', 'hf_quant_config.json'),
  readFileSync(join(REPO, 'test', 'fixtures', 'hf', 'nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4', 'hf_quant_config.json'), 'utf8'),
);

test('HF ids are found in HF_HUB_CACHE, HF_HOME/hub, and ~/.cache/huggingface/hub', () => {
  const env = { HF_HOME: join(root, 'hfhome'), HF_HUB_CACHE: join(root, 'fast') };
  const inHub = resolveModelOnDisk('acme/in-hub-cache', 'cli', { env, home });
  assert.equal(inHub.kind, 'config');
  assert.deepEqual(inHub.kind === 'config' && [inHub.origin, inHub.path, inHub.shape.slidingWindowPattern], [
    'hf-cache',
    join(root, 'fast', 'models--acme--in-hub-cache', 'snapshots', 'f00d', 'config.json'),
    6,
  ]);
  // HF_HUB_CACHE wins over HF_HOME, as in huggingface_hub: the HF_HOME cache is then not searched.
  assert.equal(resolveModelOnDisk('acme/in-hf-home', 'cli', { env, home }).kind, 'not-found');
  const viaHome = resolveModelOnDisk('acme/in-hf-home', 'cli', { env: { HF_HOME: join(root, 'hfhome') }, home });
  assert.deepEqual(viaHome.kind === 'config' && viaHome.shape.experts, 128);
  // The default cache is searched after a variable that points elsewhere.
  const dflt = resolveModelOnDisk('acme/default-home', 'cli', { env: { HF_HOME: join(root, 'hfhome') }, home });
  assert.deepEqual(dflt.kind === 'config' && [dflt.shape.layers, dflt.shape.tiedEmbeddings], [16, true]);
});

test('a checkpoint directory is read with its hf_quant_config.json; relative paths resolve against cwd', () => {
  const abs = resolveModelOnDisk(join(root, 'ckpt', 'nemo3'), 'setting', { env: {}, home });
  assert.deepEqual(abs.kind === 'config' && [abs.weights.dtype, abs.weights.scope, abs.shape.experts], ['nvfp4', 'mlp', 128]);
  const rel = resolveModelOnDisk('./ckpt/nemo3/config.json', 'setting', { env: {}, home, cwd: root });
  assert.deepEqual(rel.kind === 'config' && rel.path, join(root, 'ckpt', 'nemo3', 'config.json'));
});

test('missing, oversized and unreadable files read as absent; a catalogue name still resolves without any file', () => {
  const fs = nodeModelFiles({ env: {}, home, maxBytes: 10 });
  assert.equal(fs.readText(join(root, 'ckpt', 'nemo3', 'config.json')), undefined);
  assert.equal(fs.readText(join(root, 'nothing-here')), undefined);
  assert.equal(fs.listDir(join(root, 'ckpt', 'nemo3', 'config.json')), undefined);
  assert.equal(fs.isDirectory(join(root, 'ckpt')), true);
  assert.deepEqual(fs.hubCacheDirs, [join(home, '.cache', 'huggingface', 'hub')]);
  const byName = resolveModelOnDisk('deepseek-ai/DeepSeek-R1', 'cli', { env: {}, home });
  assert.deepEqual(byName.kind === 'catalogue' && [byName.entry.id, byName.weights.dtype], ['deepseek-r1', 'fp8']);
});
