// NeMo-RL `defaults:` chains through the server: the parent is read from an open editor first, else from the disk; a
// rule broken by an inherited value points into the parent file; editing, closing or changing the parent on disk
// re-validates the child, which is not edited itself.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileUri, TestClient, type LspDiagnostic } from './client.js';

// A NeMo-RL GRPO config (the shape of nemo_rl's examples/configs): Megatron policy with TP 2 on one 8-GPU node.
const BASE = `grpo:
  num_prompts_per_step: 8
  num_generations_per_prompt: 8
policy:
  model_name: Qwen/Qwen2.5-1.5B
  tokenizer:
    name: \${policy.model_name}
  train_global_batch_size: 64
  train_micro_batch_size: 1
  max_total_sequence_length: 1024
  precision: bfloat16
  megatron_cfg:
    enabled: true
    tensor_model_parallel_size: 2
    pipeline_model_parallel_size: 1
    context_parallel_size: 1
  dtensor_cfg:
    enabled: false
  generation:
    backend: vllm
    colocated:
      enabled: true
cluster:
  gpus_per_node: 8
  num_nodes: 1
`;
// The child runs on 3 GPUs: world 3 is not divisible by the inherited TP 2 (RL-R1 on its `defaults:` value).
const CHILD = 'defaults: base.yaml\npolicy:\n  megatron_cfg:\n    enabled: true\ncluster:\n  gpus_per_node: 3\n';
const TP_LINE = BASE.split('\n').findIndex((l) => l.includes('tensor_model_parallel_size'));

const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-chain-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const basePath = join(dir, 'base.yaml');
const childPath = join(dir, 'child.yaml');
writeFileSync(basePath, BASE);
writeFileSync(childPath, CHILD);
const baseUri = fileUri(basePath);
const childUri = fileUri(childPath);

const r1 = (ds: LspDiagnostic[]) => ds.filter((d) => d.code === 'RL-R1');
/** The child's diagnostics once the n-th publication for it has arrived. */
const nth = (c: TestClient, n: number) => c.waitFor(() => c.published(childUri)[n - 1]?.diagnostics, `publication ${n} of child.yaml`);

test('NeMo-RL: the inherited TP breaks R1 (related location in the parent file); the parent edited, closed, changed on disk re-validates the child', async () => {
  const c = new TestClient({
    capabilities: {
      workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } },
      textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true } },
    },
  });
  await c.initialize();
  await c.waitFor(() => (c.serverRequests.includes('client/registerCapability') ? true : undefined), 'the file watcher registration');
  await c.open(childUri, CHILD);
  const first = r1(await nth(c, 1));
  assert.deepEqual(
    first.map((d) => [d.range.start.line, d.message]),
    [[0, 'world size 3 is not divisible by TP·PP·CP = 2·1·1 = 2']],
  );
  const tp = first[0]!.relatedInformation!.find((r) => r.message.startsWith('policy.megatron_cfg.tensor_model_parallel_size'));
  assert.deepEqual(
    [tp?.location.uri, tp?.location.range.start.line, tp?.message],
    [baseUri, TP_LINE, 'policy.megatron_cfg.tensor_model_parallel_size = 2 (set in base.yaml)'],
  );

  // The parent opened and edited (unsaved): TP 1 divides 3, the child is clean without being touched.
  await c.open(baseUri, BASE);
  const col = BASE.split('\n')[TP_LINE]!.indexOf('2');
  await c.change(baseUri, 2, [
    { range: { start: { line: TP_LINE, character: col }, end: { line: TP_LINE, character: col + 1 } }, text: '1' },
  ]);
  assert.deepEqual(
    r1(
      await c.waitFor(
        () => (c.published(childUri).length >= 2 ? c.published(childUri).at(-1)!.diagnostics : undefined),
        'child re-validated',
      ),
    ),
    [],
  );
  // Closed without saving: the disk's TP 2 again.
  await c.notify('textDocument/didClose', { textDocument: { uri: baseUri } });
  await c.waitFor(() => (c.published(childUri).length >= 3 ? true : undefined), 'child re-validated after the close');
  assert.equal(r1(c.published(childUri).at(-1)!.diagnostics).length, 1);
  // Changed on disk (another tool, a git checkout): the client's file event re-validates the child.
  writeFileSync(basePath, BASE.replace('tensor_model_parallel_size: 2', 'tensor_model_parallel_size: 1'));
  await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: baseUri, type: 2 }] });
  await c.waitFor(() => (c.published(childUri).length >= 4 ? true : undefined), 'child re-validated after the disk change');
  assert.deepEqual(r1(c.published(childUri).at(-1)!.diagnostics), []);
  await c.stop();
});
