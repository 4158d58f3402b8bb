// Engine configs embedded in Kubernetes ConfigMaps (Dynamo's deploy.yaml): each YAML file of a ConfigMap's `data` is a
// document of its own, at the real file's offsets; the worker that mounts it names the model and the settings the file
// leaves to its command line (src/core/embedded.ts, src/core/formats/dynamoDeploy.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { editTarget } from '../../src/core/document.js';
import { applyEdits, setScalarEdit } from '../../src/core/edit.js';
import { recipeSymbols } from '../../src/core/symbols.js';
import { REPO } from '../helpers.js';

const DEPLOY = `apiVersion: v1
kind: ConfigMap
metadata:
  name: engine-config
data:
  prefill.yaml: |
    backend: pytorch
    enable_attention_dp: false
    kv_cache_config:
      free_gpu_memory_fractio: 0.8
      dtype: fp8
  decode.yaml: |-
    tensor_parallel_size: 4
    kv_cache_config:
      free_gpu_memory_fraction: 0.9
  launch.sh: |
    echo not yaml
  notes.yaml: >
    folded: text
---
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: llama
spec:
  services:
    TRTLLMPrefillWorker:
      extraPodSpec:
        mainContainer:
          command: [python3, -m, dynamo.trtllm]
          args:
            - --model-path
            - meta-llama/Llama-3.1-8B-Instruct
            - --tensor-parallel-size
            - "2"
            - --extra-engine-args
            - /config/prefill.yaml
    TRTLLMDecodeWorker:
      extraPodSpec:
        mainContainer:
          args:
            - "python3 -m dynamo.trtllm --model-path meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 8 --extra-engine-args /config/decode.yaml"
`;

const embedded = (text: string) => analyze(text).docs.filter((d) => d.doc.embedded);

test('each literal YAML file of a ConfigMap is a TensorRT-LLM options document at the real offsets; a folded block and a script are not', () => {
  const docs = embedded(DEPLOY);
  assert.deepEqual(
    docs.map((d) => [d.doc.embedded!.name, d.doc.embedded!.configMap, d.doc.format, d.doc.index]),
    [
      ['prefill.yaml', 'engine-config', 'trtllm-options', 2],
      ['decode.yaml', 'engine-config', 'trtllm-options', 3],
    ],
  );
  // The block's content: from `backend` to the end of `dtype: fp8`.
  const [s, e] = docs[0]!.doc.span;
  assert.equal(DEPLOY.slice(s, e), DEPLOY.slice(DEPLOY.indexOf('    backend'), DEPLOY.indexOf('fp8\n') + 3));
  // The misspelt key is reported on its own line and column (0-based line 9, column 6).
  const a = analyze(DEPLOY);
  assert.deepEqual(
    a.diagnostics.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character, d.range.end.character]),
    [['RL-UNKNOWN-KEY', 'warning', 9, 6, 29]],
  );
  assert.equal(a.format, 'trtllm-options');
});

test("the worker that mounts a file names its model and the parallel sizes the file does not set; the file's own keys win", () => {
  const [prefill, decode] = embedded(DEPLOY);
  const p = prefill!.estimate;
  assert.ok(p?.kind === 'serving');
  assert.deepEqual([p.model.name, p.roles[0]!.tp], ['llama3-8b', 2]);
  assert.ok(
    p.assumptions.some(
      (x) =>
        x.what === 'tensor_parallel_size = 2' &&
        x.source.startsWith('--tensor-parallel-size 2 of the Dynamo worker that mounts prefill.yaml'),
    ),
  );
  // A command line written as one string; the file's tensor_parallel_size 4 beats the worker's 8.
  const d = decode!.estimate;
  assert.ok(d?.kind === 'serving');
  assert.deepEqual([d.model.name, d.roles[0]!.tp], ['llama3-70b', 4]);
  assert.equal(d.assumptions.filter((x) => x.what.startsWith('tensor_parallel_size')).length, 0);
});

test('workers that mount the same file with different models name none; a file no worker mounts has no launch values', () => {
  const two = DEPLOY.replace('/config/decode.yaml', '/config/prefill.yaml');
  const [prefill, decode] = embedded(two);
  assert.deepEqual(prefill!.doc.embedded!.launch?.values, {});
  assert.equal(decode!.doc.embedded!.launch, undefined);
  assert.equal(prefill!.estimate?.kind, 'none');
});

test('an edit of an embedded file is computed on its own text and lands inside the block', () => {
  const a = analyze(DEPLOY);
  const decode = a.docs.find((d) => d.doc.embedded?.name === 'decode.yaml')!;
  const target = editTarget(DEPLOY, decode.doc);
  const r = setScalarEdit(target.text, ['kv_cache_config', 'free_gpu_memory_fraction'], 0.85, { doc: target.doc });
  assert.ok(r.edit);
  const edited = applyEdits(DEPLOY, [r.edit]);
  assert.equal(edited, DEPLOY.replace('free_gpu_memory_fraction: 0.9', 'free_gpu_memory_fraction: 0.85'));
  // Inserting a key the file lacks uses the block's indentation.
  const ins = setScalarEdit(target.text, ['max_batch_size'], 64, { doc: target.doc });
  assert.ok(ins.edit);
  const after = applyEdits(DEPLOY, [ins.edit]);
  assert.ok(after.includes('      free_gpu_memory_fraction: 0.9\n    max_batch_size: 64\n  launch.sh: |'));
  const again = embedded(after).find((d) => d.doc.embedded?.name === 'decode.yaml')!;
  assert.equal(again.recipe?.kind === 'serving' && again.recipe.roles[0]!.values.maxBatchSize, 64);
});

test('a modeline that forces a format, or a document that is no ConfigMap, embeds nothing', () => {
  assert.deepEqual(embedded(`# recipe-lens: format=none\n${DEPLOY}`), []);
  assert.deepEqual(embedded(DEPLOY.replace('kind: ConfigMap', 'kind: Secret')), []);
});

test("Dynamo's Kubernetes recipes: the DeepSeek-V3.2 NVFP4 disaggregated deploy.yaml sizes both workers on a Blackwell GPU", () => {
  const path = join(REPO, 'test/data/upstream/dynamo/recipes/deepseek-v32-fp4/trtllm/disagg-kv-router/deploy.yaml');
  const docs = embedded(readFileSync(path, 'utf8'));
  assert.deepEqual(
    docs.map((d) => [d.doc.embedded!.name, d.estimate?.kind === 'serving' && [d.estimate.model.name, d.estimate.gpu.id]]),
    [
      ['prefill.yaml', ['deepseek-v3.2', 'b200']],
      ['decode.yaml', ['deepseek-v3.2', 'b200']],
    ],
  );
});

test('the outline names each embedded file by its ConfigMap', () => {
  assert.deepEqual(
    recipeSymbols(analyze(DEPLOY)).map((s) => [s.name, s.detail]),
    [
      ['prefill.yaml (ConfigMap engine-config)', 'TensorRT-LLM LLM-API options'],
      ['decode.yaml (ConfigMap engine-config)', 'TensorRT-LLM LLM-API options'],
    ],
  );
});

test('a file of many ConfigMaps reads at most 16 embedded files, in bounded time', () => {
  const one = (i: number) => `kind: ConfigMap\ndata:\n  f${i}.yaml: |\n    tensor_parallel_size: 2\n`;
  const text = Array.from({ length: 400 }, (_, i) => one(i)).join('---\n');
  const docs = embedded(text);
  assert.equal(docs.length, 16);
  assert.deepEqual([docs[0]!.doc.embedded!.name, docs[15]!.doc.embedded!.name], ['f0.yaml', 'f15.yaml']);
});
