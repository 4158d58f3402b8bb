// NeMo-RL `defaults:` chains as nemo_rl/utils/config.py loads them: parents relative to the naming file, merged in order
// under the child, lists replaced, `???` keeping the parent's value, `_override_` dropping a parent's section,
// interpolations resolved on the merged config; a missing parent is an information on the `defaults:` value, a cycle an
// error; findings on inherited values sit on `defaults:` with the parent's key as related information.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, AnalysisStore, readsFile, settingsFingerprint, type AnalysisSettings } from '../../src/core/analysis.js';
import { normalizePath, relativePath, resolveParent } from '../../src/core/defaultsChain.js';
import { hoverAt } from '../../src/core/hover.js';
import { rangeOf } from '../helpers.js';

/** A host over an in-memory file system: absolute paths to texts; it counts reads. */
function host(files: Record<string, string>, path: string): AnalysisSettings & { reads: string[] } {
  const reads: string[] = [];
  return {
    documentPath: path,
    readFile: (p) => {
      reads.push(p);
      return files[p];
    },
    memoryWarnings: false,
    reads,
  };
}

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
  logprob_batch_size: \${policy.train_micro_batch_size}
  dtensor_cfg:
    enabled: false
  megatron_cfg:
    enabled: true
    tensor_model_parallel_size: 2
    pipeline_model_parallel_size: 1
    context_parallel_size: 1
    expert_model_parallel_size: 1
    expert_tensor_parallel_size: 1
    sequence_parallel: false
    recompute_modules: [core_attn]
  sequence_packing:
    enabled: true
    train_mb_tokens: \${mul:\${policy.max_total_sequence_length}, \${policy.train_micro_batch_size}}
  dynamic_batching:
    enabled: false
  generation:
    backend: vllm
    colocated:
      enabled: true
    vllm_cfg:
      tensor_parallel_size: 1
      pipeline_parallel_size: 1
      gpu_memory_utilization: 0.6
cluster:
  gpus_per_node: 8
  num_nodes: 1
`;

test('paths: parents resolve against the naming file, `..` and `.` fold, relative names for messages', () => {
  assert.equal(resolveParent('/r/examples/configs/recipes/llm', '../../grpo_math_1B.yaml'), '/r/examples/configs/grpo_math_1B.yaml');
  assert.equal(resolveParent('/r/a', '/abs/p.yaml'), '/abs/p.yaml');
  assert.equal(normalizePath('C:\\r\\a\\..\\b.yaml'), 'C:/r/b.yaml');
  assert.equal(relativePath('/r/examples/configs/recipes/llm', '/r/examples/configs/grpo_math_1B.yaml'), '../../grpo_math_1B.yaml');
});

test('a chain of two: the child overrides, the merged view is what the rules and the recipe read', () => {
  const files = {
    '/cfg/base.yaml': BASE,
    '/cfg/mid/mid.yaml': 'defaults: ../base.yaml\npolicy:\n  megatron_cfg:\n    tensor_model_parallel_size: 4\n',
  };
  const child = 'defaults: mid/mid.yaml\npolicy:\n  train_micro_batch_size: 1\ncluster:\n  num_nodes: 2\n';
  const s = host(files, '/cfg/child.yaml');
  const a = analyze(child, s);
  assert.deepEqual(s.reads, ['/cfg/mid/mid.yaml', '/cfg/base.yaml']);
  assert.deepEqual(
    a.sources.map((x) => [x.path, x.text !== undefined]),
    [
      ['/cfg/mid/mid.yaml', true],
      ['/cfg/base.yaml', true],
    ],
  );
  const r = a.main!.recipe!;
  assert.equal(r.kind, 'training');
  if (r.kind !== 'training') return;
  // tp from mid (overriding base's 2), nodes from the child, gpus_per_node from base: 16 GPUs.
  assert.deepEqual([r.values.tp, r.values.pp, r.values.cp, r.world?.size], [4, 1, 1, 16]);
  assert.deepEqual(r.loc.tp!.inherited && [r.loc.tp!.inherited.name, r.loc.tp!.inherited.range.start.line], ['mid/mid.yaml', 3]);
  assert.equal(r.loc.nodes!.inherited, undefined);
  assert.deepEqual(a.diagnostics, []);
});

test('lists replace, `???` keeps the parent value, `_override_: true` drops the parent section', () => {
  const files = { '/c/base.yaml': BASE + 'data:\n  keep: 1\n  other: 2\n' };
  const child =
    'defaults: base.yaml\npolicy:\n  train_global_batch_size: ???\n  megatron_cfg:\n    recompute_modules: [mlp]\ndata:\n  _override_: true\n  only: 3\n';
  const a = analyze(child, host(files, '/c/child.yaml'));
  const chain = a.main!.chain!;
  const data = chain.root!.kind === 'map' ? chain.root!.entries.find((e) => e.key === 'data')!.value : undefined;
  assert.deepEqual(data?.kind === 'map' && data.entries.map((e) => e.key), ['only']);
  const r = a.main!.recipe!;
  if (r.kind !== 'training') throw new Error('training');
  assert.equal(r.values.gbs, 64);
  assert.deepEqual(r.values.recomputeModules, ['mlp']);
});

test('a list of parents merges in order (the last wins) and interpolations resolve across files after the merge', () => {
  const files = {
    '/c/base.yaml': BASE,
    '/c/seq.yaml': 'policy:\n  max_total_sequence_length: 4096\n  train_micro_batch_size: 2\n',
  };
  const child =
    'defaults:\n  - base.yaml\n  - seq.yaml\npolicy:\n  model_name: meta-llama/Llama-3.2-1B\n  precision: ${policy.megatron_cfg.pipeline_dtype}\n';
  const a = analyze(
    child,
    host(
      { ...files, '/c/base.yaml': BASE.replace('sequence_parallel: false', 'sequence_parallel: false\n    pipeline_dtype: bfloat16') },
      '/c/x.yaml',
    ),
  );
  const r = a.main!.recipe!;
  if (r.kind !== 'training' || !r.rl) throw new Error('training');
  // base's ${mul:…} sees seq.yaml's 4096 and 2; base's tokenizer name sees the child's model.
  assert.equal(r.rl.values.trainMbTokens, 8192);
  assert.equal(r.rl.values.logprobBatch, 2);
  assert.equal(r.values.precision, 'bfloat16');
  const tok = a.main!.chain!.root;
  assert.equal(tok?.kind, 'map');
  const h = hoverAt(a, child.indexOf('${policy.megatron_cfg'))!;
  assert.ok(
    h.contents.some((c) => c.includes('`${policy.megatron_cfg.pipeline_dtype}` is set in `base.yaml` line 23 (`bfloat16`)')),
    h.contents.join('\n---\n'),
  );
});

test('a missing parent is an information on its `defaults:` value; the rest is checked with what is known, no error from what it would set', () => {
  const child =
    'defaults: ../../grpo_math_1B.yaml\npolicy:\n  model_name: Qwen/Qwen3-8B\n  megatron_cfg:\n    enabled: true\n    tensor_model_parallel_size: 3\ncluster:\n  gpus_per_node: 8\n  num_nodes: 1\n';
  const a = analyze(child, host({}, '/r/recipes/llm/x.yaml'));
  const tp3 = { start: { line: 5, character: 32 }, end: { line: 5, character: 33 } };
  assert.deepEqual(
    a.diagnostics.map((d) => [d.severity, d.code, d.range, d.message]),
    [
      [
        'info',
        'RL-DEFAULTS',
        rangeOf(child, '../../grpo_math_1B.yaml'),
        'parent `../../grpo_math_1B.yaml` could not be read (../../grpo_math_1B.yaml): values it would set are unknown here and the rules that need them say nothing',
      ],
      // TP 3 does not divide 8 whatever PP and CP the parent sets, nor Qwen3-8B's 32 heads and 8 KV heads: R1, R7, R8 hold.
      ['error', 'RL-R1', tp3, 'world size 8 is not divisible by TP = 3 = 3, whatever PP and CP the recipe sets'],
      [
        'error',
        'RL-R7',
        tp3,
        'num_attention_heads 32 must be a multiple of tensor_model_parallel_size 3 (the shape of Qwen/Qwen3-8B in the model catalogue)',
      ],
      [
        'error',
        'RL-R8',
        tp3,
        'num_query_groups 8 must be a multiple or a divisor of tensor_model_parallel_size 3 (the shape of Qwen/Qwen3-8B in the model catalogue)',
      ],
    ],
  );
  // Without a host reader nothing is read, and the information says why.
  const none = analyze(child, { memoryWarnings: false });
  assert.deepEqual(
    none.diagnostics.filter((d) => d.code === 'RL-DEFAULTS').map((d) => [d.severity, d.message]),
    [
      [
        'info',
        'parent `../../grpo_math_1B.yaml` is not read: this file has no path here (unsaved?), so values it would set are unknown and the rules that need them say nothing',
      ],
    ],
  );
  assert.deepEqual(none.sources, []);
});

test('a cycle is an error on the `defaults:` value (NeMo-RL recurses without end); a broken parent a warning', () => {
  const files = { '/c/a.yaml': 'defaults: b.yaml\nx: 1\n', '/c/b.yaml': 'defaults: a.yaml\ny: 2\n', '/c/bad.yaml': 'policy: [unclosed\n' };
  const text = 'defaults: a.yaml\npolicy:\n  model_name: m\n';
  const a = analyze(text, host(files, '/c/a.yaml'));
  assert.deepEqual(
    a.diagnostics.map((d) => [d.severity, d.code, d.message, d.related?.map((r) => [r.file, r.range.start.line])]),
    [['error', 'RL-DEFAULTS', "`defaults:` cycle a.yaml → a.yaml: NeMo-RL's load_config recurses without end (RecursionError)", undefined]],
  );
  const b = analyze(text, host(files, '/c/c.yaml'));
  assert.deepEqual(
    b.diagnostics.map((d) => [d.severity, d.code, d.message, d.related?.map((r) => [r.file, r.range.start.line])]),
    [
      [
        'error',
        'RL-DEFAULTS',
        "`defaults:` cycle a.yaml → b.yaml → a.yaml: NeMo-RL's load_config recurses without end (RecursionError)",
        [['/c/b.yaml', 0]],
      ],
    ],
  );
  const c = analyze('defaults: bad.yaml\npolicy:\n  model_name: m\n', host(files, '/c/c.yaml'));
  assert.deepEqual(
    c.diagnostics.map((d) => [d.severity, d.code, d.message]),
    [
      [
        'warning',
        'RL-DEFAULTS',
        'parent `bad.yaml` is not merged: it has a YAML error at line 2: Flow sequence in block collection must be sufficiently indented and end with a ]',
      ],
    ],
  );
});

test('a rule broken by an inherited value sits on `defaults:`, with the parent key as related information in the parent file', () => {
  const files = { '/c/base.yaml': BASE };
  const child =
    'defaults: base.yaml\npolicy:\n  model_name: Qwen/Qwen2.5-1.5B\n  megatron_cfg:\n    enabled: true\ncluster:\n  gpus_per_node: 3\n';
  const a = analyze(child, host(files, '/c/child.yaml'));
  const r1 = a.diagnostics.filter((d) => d.code === 'RL-R1');
  assert.deepEqual(
    r1.map((d) => [d.severity, d.range, d.message, d.related]),
    [
      [
        'error',
        rangeOf(child, 'base.yaml'),
        'world size 3 is not divisible by TP·PP·CP = 2·1·1 = 2',
        [
          {
            path: 'policy.megatron_cfg.tensor_model_parallel_size',
            range: rangeOf(BASE, 'tensor_model_parallel_size'),
            message: 'policy.megatron_cfg.tensor_model_parallel_size = 2 (set in base.yaml)',
            file: '/c/base.yaml',
          },
          ...(['pipeline_model_parallel_size', 'context_parallel_size'] as const).map((k) => ({
            path: `policy.megatron_cfg.${k}`,
            range: rangeOf(BASE, k),
            message: `policy.megatron_cfg.${k} = 1 (set in base.yaml)`,
            file: '/c/base.yaml',
          })),
          { path: 'cluster.gpus_per_node', range: rangeOf(child, 'gpus_per_node'), message: 'cluster.gpus_per_node = 3' },
          {
            path: 'cluster.num_nodes',
            range: rangeOf(BASE, 'num_nodes'),
            message: 'cluster.num_nodes = 1 (set in base.yaml)',
            file: '/c/base.yaml',
          },
        ],
      ],
    ],
  );
  // The repairs write into the child (overriding the parent), never over its `defaults:` line.
  const fixes = a.diagnostics.find((d) => d.code === 'RL-R1')!.fixes!;
  assert.deepEqual(
    fixes.map((f) => [f.title, f.edits.map((e) => [e.range.start.line, e.newText])]),
    // TP 3 would break Qwen2.5-1.5B's 2 KV heads (R8): only TP 1 is offered, inserted under the child's megatron_cfg.
    [['Set policy.megatron_cfg.tensor_model_parallel_size: 1', [[5, '    tensor_model_parallel_size: 1\n']]]],
  );
});

test('hover: `defaults:` lists the parents and the values inherited with file and line; a key shows what it overrides', () => {
  const files = { '/c/base.yaml': BASE };
  const child = 'defaults: base.yaml\npolicy:\n  train_micro_batch_size: 2\n';
  const a = analyze(child, host(files, '/c/child.yaml'));
  const onDefaults = hoverAt(a, 2)!.contents.join('\n');
  assert.match(onDefaults, /- `base\.yaml` — read and merged/);
  assert.match(onDefaults, /\*\*Values this file inherits\*\* \(26\)/);
  assert.match(onDefaults, /- `policy\.megatron_cfg\.tensor_model_parallel_size` = `2` — `base\.yaml` line 17/);
  assert.match(onDefaults, /- `cluster\.gpus_per_node` = `8` — `base\.yaml` line 38/);
  const onMbs = hoverAt(a, child.indexOf('train_micro_batch_size') + 2)!.contents.join('\n');
  assert.match(onMbs, /Overrides `1` from `base\.yaml` line 9\./);
});

test('the store re-analyses when a parent changes; the fingerprint ignores the reader function, keeps the document path', () => {
  const files: Record<string, string> = { '/c/base.yaml': BASE };
  const s = host(files, '/c/child.yaml');
  const store = new AnalysisStore();
  const child = 'defaults: base.yaml\npolicy:\n  model_name: Qwen/Qwen2.5-1.5B\n';
  const first = store.get('file:///c/child.yaml', 1, () => child, s);
  assert.equal(
    store.get('file:///c/child.yaml', 1, () => child, s),
    first,
  );
  files['/c/base.yaml'] = BASE.replace('gpus_per_node: 8', 'gpus_per_node: 3');
  const second = store.get('file:///c/child.yaml', 1, () => child, s);
  assert.notEqual(second, first);
  assert.deepEqual(
    second.diagnostics.map((d) => d.code),
    ['RL-R1'],
  );
  assert.equal(readsFile(second, '/c/sub/../base.yaml'), true);
  assert.equal(
    settingsFingerprint({ readFile: () => undefined, documentPath: '/c/child.yaml' }),
    '[["documentPath","/c/child.yaml"],["readFile",true]]',
  );
});

test('hostile chains cost a bounded amount: 10,000 parent names read at most 64 files and give 65 findings', () => {
  const names = Array.from({ length: 10_000 }, (_, i) => `  - p${i}.yaml`).join('\n');
  const s = host({}, '/c/child.yaml');
  const a = analyze(`defaults:\n${names}\npolicy:\n  model_name: m\n`, s);
  assert.equal(s.reads.length, 64);
  assert.deepEqual(
    [a.diagnostics.length, a.diagnostics.at(-1)!.severity, a.diagnostics.at(-1)!.message],
    [65, 'warning', '`defaults:` names more than 64 parents; the rest are not followed'],
  );
});
