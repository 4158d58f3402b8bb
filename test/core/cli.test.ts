// The CLI: exit codes, JSON shape, SARIF, globs, and no stack traces.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS, REPO } from '../helpers.js';

const CLI = join(REPO, 'dist', 'cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: REPO });

const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-cli-'));
const BAD = join(dir, 'cp3.yaml');
writeFileSync(
  BAD,
  'name: x\ntrainer:\n  devices: 8\n  num_nodes: 8\nmodel:\n  encoder_seq_length: 131072\n  tensor_model_parallel_size: 4\n  pipeline_model_parallel_size: 2\n  context_parallel_size: 3\n',
);
const GOOD = join(dir, 'good.yaml');
writeFileSync(GOOD, 'kv_cache_config:\n  free_gpu_memory_fraction: 0.9\n');
const OTHER = join(dir, 'compose.yaml');
writeFileSync(OTHER, 'services:\n  web:\n    image: nginx\n');

test('exit 1 with errors; JSON has the documented shape with 0-based positions', () => {
  const r = run('check', '--format', 'json', BAD);
  assert.equal(r.status, 1);
  const out = JSON.parse(r.stdout);
  assert.equal(out.files.length, 1);
  const f = out.files[0];
  assert.equal(f.path, BAD);
  assert.equal(f.format, 'nemo1');
  const r3 = f.diagnostics.filter((d: { code: string }) => d.code === 'RL-R3');
  assert.deepEqual(
    r3.map((d: { path: string; severity: string; range: unknown }) => [d.path, d.severity, d.range]),
    [['model.context_parallel_size', 'error', { start: { line: 8, character: 25 }, end: { line: 8, character: 26 } }]],
  );
  assert.equal(
    r3[0].message,
    'seq 131072 is not a multiple of 2·CP = 6 (context parallelism splits the sequence into 2·CP load-balanced chunks)',
  );
  assert.deepEqual(r3[0].related, [
    {
      path: 'model.encoder_seq_length',
      range: { start: { line: 5, character: 2 }, end: { line: 5, character: 20 } },
      message: 'model.encoder_seq_length = 131072',
    },
  ]);
  assert.deepEqual(
    r3[0].fixes.map((x: { title: string; edits: unknown[] }) => [x.title, x.edits]),
    [
      [
        'Set model.context_parallel_size: 2',
        [{ range: { start: { line: 8, character: 25 }, end: { line: 8, character: 26 } }, newText: '2' }],
      ],
      [
        'Set model.context_parallel_size: 4',
        [{ range: { start: { line: 8, character: 25 }, end: { line: 8, character: 26 } }, newText: '4' }],
      ],
    ],
  );
  for (const d of f.diagnostics) assert.deepEqual(Object.keys(d).slice(0, 5), ['code', 'severity', 'message', 'path', 'range']);
});

test('exit 0 without errors; non-recipes have format null and no diagnostics', () => {
  const r = run('check', '--format', 'json', GOOD, OTHER);
  assert.equal(r.status, 0);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    out.files.map((f: { format: string | null; detected: string; diagnostics: unknown[] }) => [f.format, f.detected, f.diagnostics.length]),
    [
      ['trtllm-options', 'TensorRT-LLM LLM-API options (LlmArgs keys kv_cache_config)', 0],
      [null, 'no recipe: no format Recipe Lens reads fits its keys', 0],
    ],
  );
});

test('text output says which files were not checked and why', () => {
  const k8s = join(dir, 'deploy.yaml');
  // A ConfigMap whose files are no engine config (a script, a folded block) holds no recipe.
  writeFileSync(k8s, 'apiVersion: v1\nkind: ConfigMap\ndata:\n  run.sh: |\n    echo 8\n  config.yaml: >\n    tensor_parallel_size: 8\n');
  const r = run('check', GOOD, k8s, OTHER);
  assert.equal(r.status, 0);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    `${k8s}: not checked: no recipe: a Kubernetes ConfigMap (keys apiVersion, kind)`,
    `${OTHER}: not checked: no recipe: no format Recipe Lens reads fits its keys`,
    '3 files checked (1 recipe): 0 errors, 0 warnings, 0 infos',
  ]);
  const e = run('estimate', k8s);
  assert.equal(e.status, 2);
  assert.equal(
    e.stderr.trim(),
    `recipe-lens: ${k8s} is not a recognised recipe format: no recipe: a Kubernetes ConfigMap (keys apiVersion, kind)`,
  );
  // A literal engine config in it is checked as a recipe of its own.
  writeFileSync(k8s, 'apiVersion: v1\nkind: ConfigMap\ndata:\n  config.yaml: |\n    tensor_parallel_size: 8\n');
  assert.deepEqual(run('check', k8s).stdout.trim().split('\n'), ['1 file checked (1 recipe): 0 errors, 0 warnings, 0 infos']);
});

test('text output is path:line:col: severity code: message (1-based)', () => {
  const r = run('check', BAD);
  assert.equal(r.status, 1);
  assert.match(
    r.stdout,
    new RegExp(`${BAD.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:9:26: error RL-R3: seq 131072 is not a multiple of 2·CP = 6`),
  );
  assert.match(r.stdout, /1 file checked \(1 recipe\): \d+ errors/);
});

test('SARIF 2.1.0 with rules and 1-based regions', () => {
  const r = run('check', '--format', 'sarif', BAD);
  assert.equal(r.status, 1);
  const s = JSON.parse(r.stdout);
  assert.equal(s.version, '2.1.0');
  const res = s.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'RL-R3');
  assert.deepEqual(res.locations[0].physicalLocation.region, { startLine: 9, startColumn: 26, endLine: 9, endColumn: 27 });
  assert.ok(s.runs[0].tool.driver.rules.some((x: { id: string }) => x.id === 'RL-R3'));
});

test('usage errors and unreadable files exit 2 with a message and no stack trace', () => {
  for (const args of [[], ['check'], ['check', '--format', 'xml', GOOD], ['frobnicate'], ['check', join(dir, 'missing.yaml')]]) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr + r.stdout, /recipe-lens|usage/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});

test('an unexpanded glob is expanded by the CLI; the whole corpus has no error', () => {
  const r = run('check', '--format', 'json', `${CORPUS}/**/*.yaml`);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.files.length, 25);
  assert.equal(
    out.files.flatMap((f: { diagnostics: { severity: string }[] }) => f.diagnostics.filter((d) => d.severity === 'error')).length,
    0,
  );
});

test('--world-size feeds R1 for files without a world size', () => {
  const bridge = join(dir, 'bridge.yaml');
  writeFileSync(
    bridge,
    'train:\n  global_batch_size: 8\nmodel:\n  tensor_model_parallel_size: 4\n  context_parallel_size: 2\n  seq_length: 8192\n',
  );
  assert.equal(run('check', bridge).status, 0);
  // PP comes from the recipe the override applies to; TP·CP = 8 does not divide 12 whatever it is.
  const r = run('check', '--format', 'json', '--world-size', '12', bridge);
  assert.equal(r.status, 1);
  assert.deepEqual(
    JSON.parse(r.stdout)
      .files[0].diagnostics.filter((d: { code: string }) => d.code === 'RL-R1')
      .map((d: { path: string; message: string }) => [d.path, d.message]),
    [['model.tensor_model_parallel_size', 'world size 12 is not divisible by TP·CP = 4·2 = 8, whatever PP the recipe sets']],
  );
  // 16 GPUs: divisible by TP·CP, and PP unknown: nothing to say.
  assert.equal(run('check', '--world-size', '16', bridge).status, 0);
});

test("check runs the editor's memory check by default (H100), --no-memory turns it off", () => {
  const big = join(dir, 'big.yaml');
  // Llama 3 70B on one GPU: weights alone exceed 80 GB.
  writeFileSync(
    big,
    '# recipe-lens: model=llama3-70b\nname: x\ntrainer:\n  devices: 1\nmodel:\n  encoder_seq_length: 8192\n  micro_batch_size: 1\n  global_batch_size: 8\n',
  );
  const on = JSON.parse(run('check', '--format', 'json', big).stdout).files[0].diagnostics;
  assert.deepEqual(
    on.map((d: { code: string; path: string; severity: string }) => [d.code, d.path, d.severity]),
    [['RL-MEM', 'model.encoder_seq_length', 'warning']],
  );
  assert.match(on[0].message, /exceeds the NVIDIA H100 80GB HBM3 \(SXM\) \(79\.2 GiB\) — no GPU is named, so the default is assumed; /);
  // Named, the GPU is no assumption and the message says nothing of a default.
  const named = JSON.parse(run('check', '--format', 'json', '--gpu', 'h100', big).stdout).files[0].diagnostics;
  assert.match(named[0].message, /exceeds the NVIDIA H100 80GB HBM3 \(SXM\) \(79\.2 GiB\): activations /);
  assert.deepEqual(JSON.parse(run('check', '--format', 'json', '--no-memory', big).stdout).files[0].diagnostics, []);
});

test('globs with braces and classes are expanded (tinyglobby)', () => {
  const r = run('check', '--format', 'json', `${dir}/{good,compose}.yaml`, `${dir}/c[p]3.yaml`);
  assert.deepEqual(
    JSON.parse(r.stdout).files.map((f: { path: string }) => f.path.slice(dir.length + 1)),
    ['compose.yaml', 'good.yaml', 'cp3.yaml'],
  );
});

test('estimate: no estimate is a normal outcome, exit 0 with the reason', () => {
  const shapeless = join(dir, 'shapeless.yaml');
  writeFileSync(shapeless, 'tensor_parallel_size: 4\nkv_cache_config:\n  free_gpu_memory_fraction: 0.9\n');
  const r = run('estimate', '--format', 'json', shapeless);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ['format', 'estimate', 'reason']);
  assert.equal(out.format, 'trtllm-options');
  assert.equal(out.estimate, null);
  assert.match(out.reason, /TensorRT-LLM options carry no model shape/);
  const text = run('estimate', shapeless);
  assert.equal(text.status, 0);
  assert.match(text.stdout, /^no estimate for .*shapeless\.yaml: TensorRT-LLM options carry no model shape/);
});

test('estimate --format json prints the documented shape with byte counts', () => {
  const r = run('estimate', '--format', 'json', '--gpu', 'h100', join(REPO, 'examples', 'llama3_8b_128k.yaml'));
  assert.equal(r.status, 0, r.stderr);
  const e = JSON.parse(r.stdout);
  assert.equal(e.format, 'nemo1');
  assert.equal(e.gpu.name, 'NVIDIA H100 80GB HBM3 (SXM)');
  assert.equal(typeof e.gpu.bytes, 'number');
  assert.deepEqual(Object.keys(e.parallel), ['tp', 'pp', 'vpp', 'cp', 'ep', 'dp', 'worldSize', 'sp']);
  assert.deepEqual([e.parallel.tp, e.parallel.pp, e.parallel.cp, e.parallel.dp, e.parallel.worldSize], [4, 2, 8, 1, 64]);
  for (const k of ['weights', 'gradients', 'optimizer', 'activations', 'overhead', 'total']) assert.equal(typeof e.perGpu[k], 'number', k);
  const p = e.perGpu;
  assert.equal(p.total, p.weights + p.gradients + p.optimizer + p.activations + p.transient + p.overhead);
  assert.ok(
    Array.isArray(e.breakdown) && e.breakdown.every((l: { bytes: number; source: string }) => typeof l.bytes === 'number' && l.source),
  );
  assert.ok(Array.isArray(e.assumptions));
});

test('estimate: TRT-LLM file gives kvCache; unknown GPU or preset is a usage error; --profile hf changes activations', () => {
  const trt = JSON.parse(run('estimate', '--format', 'json', join(REPO, 'examples', 'trtllm_llama3_70b_serve.yaml')).stdout);
  assert.equal(trt.kvCache.bytesPerToken, 40960);
  assert.equal(trt.kvCache.tokensPerBlock, 32);
  assert.equal(run('estimate', '--gpu', 'tpu-v5', GOOD).status, 2);
  assert.equal(run('estimate', '--model', 'gpt-9', GOOD).status, 2);
  const file = join(REPO, 'examples', 'llama3_8b_16k.yaml');
  const mg = JSON.parse(run('estimate', '--format', 'json', file).stdout);
  const hf = JSON.parse(run('estimate', '--format', 'json', '--profile', 'hf', '--attention', 'eager', file).stdout);
  assert.equal(hf.profile, 'hf');
  assert.ok(hf.perGpu.activations > mg.perGpu.activations);
});

test('check --gpu adds the memory-fit warning (RL-MEM)', () => {
  const r = run('check', '--format', 'json', '--gpu', 'custom:16', join(REPO, 'examples', 'llama3_8b_16k.yaml'));
  assert.equal(r.status, 0);
  const ds = JSON.parse(r.stdout).files[0].diagnostics;
  assert.deepEqual(
    ds.map((d: { code: string; path: string }) => [d.code, d.path]),
    [['RL-MEM', 'model.encoder_seq_length']],
  );
});

const LAYOUT_BRIDGE = join(dir, 'bridge-layout.yaml');
writeFileSync(
  LAYOUT_BRIDGE,
  'train:\n  global_batch_size: 8\nmodel:\n  tensor_model_parallel_size: 2\n  context_parallel_size: 2\n  seq_length: 8192\n',
);

test('layout --format json: Megatron rank groups with global rank ids', () => {
  const r = run('layout', '--format', 'json', join(REPO, 'examples', 'llama3_8b_128k.yaml'));
  assert.equal(r.status, 0, r.stderr);
  const l = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(l), ['worldSize', 'order', 'sizes', 'groups', 'cpChunks']);
  assert.equal(l.worldSize, 64);
  assert.equal(l.order, 'tp-cp-ep-dp-pp');
  assert.deepEqual(l.sizes, { tp: 4, cp: 8, ep: 1, dp: 1, pp: 2 });
  assert.deepEqual(Object.keys(l.groups), ['tp', 'cp', 'dp', 'pp', 'ep']);
  assert.deepEqual(l.groups.tp[0], [0, 1, 2, 3]);
  assert.deepEqual(l.groups.cp[0], [0, 4, 8, 12, 16, 20, 24, 28]);
  assert.deepEqual(l.groups.pp[0], [0, 32]);
  assert.equal(l.groups.tp.length, 16);
  assert.deepEqual(l.cpChunks['0'], [0, 15]);
  assert.deepEqual(l.cpChunks['7'], [7, 8]);
});

test('layout: --gpus for files without a world size; exit 2 without one, 1 when the sizes cannot fit', () => {
  const bridge = LAYOUT_BRIDGE;
  const none = run('layout', '--format', 'json', bridge);
  assert.equal(none.status, 2);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /world size unknown.*--gpus/);
  const four = JSON.parse(run('layout', '--format', 'json', '--gpus', '4', bridge).stdout);
  assert.deepEqual(
    [four.groups.tp, four.groups.cp],
    [
      [
        [0, 1],
        [2, 3],
      ],
      [
        [0, 2],
        [1, 3],
      ],
    ],
  );
  const bad = run('layout', '--gpus', '6', bridge);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /not divisible by TP·PP·CP/);
  for (const args of [['layout'], ['layout', GOOD], ['layout', '--format', 'sarif', bridge], ['layout', bridge, bridge]]) {
    const x = run(...args);
    assert.equal(x.status, 2, args.join(' '));
    assert.doesNotMatch(x.stderr, /\n\s+at /);
  }
});

test('layout text: sizes, the groups of rank 0, at most 64 groups per dimension', () => {
  const r = run('layout', '--gpus', '1024', LAYOUT_BRIDGE);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^world 1024 = TP 2 × CP 2 × PP 1 × DP 256/);
  assert.match(r.stdout, /\nrank 0: TP \[0, 1\] {2}CP \[0, 2\] {2}DP \[0, 4, 8, …, 1020\] \(256 ranks, stride 4\)/);
  assert.match(r.stdout, /\nTP: 512 groups of 2\n( {2}\[.*\n){64} {2}… 448 more\n/);
});
