// The TensorRT-LLM schemas: the generator (scripts/trtllm-schema/generate.py) on a tiny fake source tree of two
// releases, the release helper on its output, the shipped schemas on every real TensorRT-LLM / Dynamo file of the
// corpora, unknown keys inside strict nested models, and did-you-mean kept within one model.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseFile } from '../../src/core/document.js';
import { schemaFindings } from '../../src/core/schemaCheck.js';
import type { JsonSchema } from '../../src/core/schemaNav.js';
import { closest, closestAcross, KeyIndex, replacesWholeWord } from '../../src/core/suggest.js';
import { compareReleases, keyRelease, releaseSource, schemaReleases } from '../../src/core/trtllmReleases.js';
import type { Finding, FormatId } from '../../src/core/types.js';
import { toDiagnostics } from '../../src/core/diagnostics.js';
import { rangeOf, REPO, SHARED } from '../helpers.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'trtllm-src');
const GENERATOR = join(REPO, 'scripts', 'trtllm-schema', 'generate.py');

function generate(): { options: string; disagg: string } {
  const out = mkdtempSync(join(tmpdir(), 'trtllm-schema-'));
  try {
    execFileSync(
      'python3',
      [
        GENERATOR,
        ...['--src', join(FIXTURE, 'r1'), '--release', '1.0', '--commit', 'a'.repeat(40)],
        ...['--src', join(FIXTURE, 'r2'), '--release', '1.1', '--commit', 'b'.repeat(40)],
        ...['--overlay', join(REPO, 'scripts', 'trtllm-schema', 'overlay.json'), '--out', out],
      ],
      { encoding: 'utf8' },
    );
    return {
      options: readFileSync(join(out, 'trtllm-options.schema.json'), 'utf8'),
      disagg: readFileSync(join(out, 'trtllm-disagg.schema.json'), 'utf8'),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const first = generate();
const options = JSON.parse(first.options) as JsonSchema;
const disagg = JSON.parse(first.disagg) as JsonSchema;
const defs = options.$defs as Record<string, JsonSchema>;
const props = options.properties!;

// ---------------------------------------------------------------------------------------------
// The generator

test('generator: two runs on the same sources give the same bytes', () => {
  const second = generate();
  assert.equal(second.options, first.options);
  assert.equal(second.disagg, first.disagg);
});

test('generator: releases and their source commits are recorded on the root', () => {
  assert.deepEqual(schemaReleases(options), ['1.0', '1.1']);
  assert.equal(releaseSource(options, '1.1'), 'b'.repeat(40));
  assert.equal(releaseSource(options, '2.0'), undefined);
});

test('generator: a field added, one removed, a default changed between releases', () => {
  const kv = defs.KvCacheConfig!.properties!;
  assert.deepEqual(kv.host_cache_size!['x-releases'], ['1.1']);
  assert.deepEqual(kv.onboard_blocks!['x-releases'], ['1.0']);
  assert.equal(kv.tokens_per_block!.default, 64);
  assert.deepEqual(kv.tokens_per_block!['x-releaseNotes'], { '1.0': { default: 32 } });
  assert.equal(kv.free_gpu_memory_fraction!['x-releases'], undefined, 'in every release: no list');
  // An enum member added in 1.1 widens the enum; 1.0's narrower list is noted.
  const policy = defs.SchedulerConfig!.properties!.capacity_scheduler_policy!;
  assert.deepEqual(policy.enum, ['MAX_UTILIZATION', 'GUARANTEED_NO_EVICT', 'STATIC_BATCH']);
  assert.deepEqual(policy['x-releaseNotes'], { '1.0': { enum: ['MAX_UTILIZATION', 'GUARANTEED_NO_EVICT'] } });
});

test('generator: types, constraints, defaults and descriptions from Field(...)', () => {
  const kv = defs.KvCacheConfig!;
  assert.equal(kv.description, 'Configuration for the KV cache.', 'first docstring paragraph');
  assert.deepEqual(kv.properties!.free_gpu_memory_fraction, {
    type: ['number', 'null'],
    minimum: 0,
    maximum: 1,
    description: 'The fraction of GPU memory for the KV cache.',
    default: 0.9,
    'x-rule': 'K1',
  });
  assert.deepEqual(kv.properties!.max_attention_window, {
    type: ['array', 'null'],
    items: { type: 'integer', minimum: 1 },
    minItems: 1,
    description: 'Attention window per layer.',
    default: null,
    'x-rule': 'K8',
  });
  assert.deepEqual(props.tensor_parallel_size, { type: 'integer', minimum: 1, description: 'TP size.', default: 1 });
  assert.equal(props.attn_backend!['x-status'], 'prototype');
});

test('generator: strict models (StrictBaseModel, extra="forbid") are closed, down to the nested ones', () => {
  assert.equal(options.additionalProperties, false);
  for (const name of ['KvCacheConfig', 'CudaGraphConfig', 'SchedulerConfig', 'MTPDecodingConfig', 'NGramDecodingConfig'])
    assert.equal(defs[name]!.additionalProperties, false, name);
  assert.deepEqual(props.cuda_graph_config, {
    anyOf: [{ $ref: '#/$defs/CudaGraphConfig' }, { type: 'null' }],
    description: 'CUDA graphs.',
    'x-backends': ['pytorch'],
  });
});

test('generator: AutoDeploy fields join the options, marked with their backend', () => {
  assert.deepEqual(props.world_size, {
    type: 'integer',
    minimum: 0,
    description: 'GPUs for auto sharding.',
    default: 1,
    'x-backends': ['_autodeploy'],
  });
  assert.deepEqual(props.runtime!.enum, ['demollm', 'trtllm']);
  assert.equal(props.cuda_graph_batch_sizes!.deprecated, undefined, 'a live AutoDeploy field is not deprecated');
  assert.deepEqual(props.fast_build!['x-backends'], ['tensorrt']);
});

test('generator: speculative configs are a union chosen by decoding_type, deprecations kept', () => {
  const spec = props.speculative_config!;
  assert.deepEqual(spec.properties!.decoding_type, { type: 'string', enum: ['MTP', 'NGram'] });
  assert.deepEqual(
    (spec.allOf as JsonSchema[]).map((b) => [(b.if as JsonSchema).properties!.decoding_type, (b.then as JsonSchema).$ref]),
    [
      [{ const: 'MTP' }, '#/$defs/MTPDecodingConfig'],
      [{ const: 'NGram' }, '#/$defs/NGramDecodingConfig'],
    ],
  );
  const mtp = defs.MTPDecodingConfig!.properties!.num_nextn_predict_layers!;
  assert.equal(mtp.deprecated, true);
  assert.equal(mtp['x-deprecatedMessage'], 'num_nextn_predict_layers is deprecated; use max_draft_len instead.');
});

test('generator: overlay keys absent from every release are legacy keys (x-releases: [])', () => {
  assert.deepEqual(props.kv_cache_dtype, {
    type: 'string',
    description: 'KV-cache dtype.',
    deprecated: true,
    'x-deprecatedMessage': 'kv_cache_dtype was replaced by kv_cache_config.dtype.',
    'x-releases': [],
  });
});

test('generator: the disaggregated schema reuses the options definitions for both pools', () => {
  const pool = (disagg.$defs as Record<string, JsonSchema>).serverPool!;
  assert.deepEqual(pool.properties!.kv_cache_config, { $ref: 'trtllm-options.schema.json#/properties/kv_cache_config' });
  assert.equal(pool.properties!.num_instances!.minimum, 0, 'num_instances 0: a generation-only deployment');
  assert.deepEqual(disagg.properties!.context_servers, { $ref: '#/$defs/serverPool' });
  assert.equal(disagg.properties!.port!.default, 8000);
  assert.deepEqual(
    disagg.properties!.world_size,
    { $ref: 'trtllm-options.schema.json#/properties/world_size' },
    '**kwargs: LlmArgs keys at the top',
  );
});

test('generator output validates: unknown keys inside strict models and per-choice speculative keys are rejected', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.addSchema(options);
  const validate = ajv.compile(disagg);
  const errors = (data: unknown) => (validate(data) ? [] : validate.errors!.map((e) => [e.instancePath, e.keyword, e.params]));
  assert.deepEqual(errors({ context_servers: { num_instances: 1, kv_cache_config: { free_gpu_memory_fraction: 0.5 } } }), []);
  assert.deepEqual(errors({ context_servers: { kv_cache_config: { prefetch: true } } }), [
    ['/context_servers/kv_cache_config', 'additionalProperties', { additionalProperty: 'prefetch' }],
  ]);
  assert.deepEqual(
    errors({ generation_servers: { speculative_config: { decoding_type: 'MTP', max_matching_ngram_size: 3 } } }).slice(0, 1),
    [['/generation_servers/speculative_config', 'additionalProperties', { additionalProperty: 'max_matching_ngram_size' }]],
  );
  assert.deepEqual(errors({ generation_servers: { speculative_config: { decoding_type: 'NGram', max_matching_ngram_size: 3 } } }), []);
});

// ---------------------------------------------------------------------------------------------
// Releases

test('keyRelease: known, added in a later release, removed after an earlier one, deprecated, unknown', () => {
  assert.deepEqual(keyRelease(options, ['kv_cache_config', 'host_cache_size'], '1.1'), { status: 'known', releases: ['1.1'] });
  assert.deepEqual(keyRelease(options, ['kv_cache_config', 'host_cache_size'], '1.0'), {
    status: 'added-in',
    release: '1.1',
    releases: ['1.1'],
  });
  assert.deepEqual(keyRelease(options, ['kv_cache_config', 'onboard_blocks'], '1.1'), {
    status: 'removed-in',
    release: '1.1',
    lastRelease: '1.0',
    releases: ['1.0'],
  });
  // The overlay's note (TensorRT-LLM dropped the field) applies to the release that still has it too.
  assert.deepEqual(keyRelease(options, ['kv_cache_config', 'onboard_blocks'], '1.0'), {
    status: 'deprecated',
    releases: ['1.0'],
    message: 'onboard_blocks was removed from KvCacheConfig in recent TensorRT-LLM releases; newer versions reject it. Remove it.',
  });
  assert.deepEqual(keyRelease(options, ['kv_cache_config', 'tokens_per_block'], '1.0'), { status: 'known', releases: ['1.0', '1.1'] });
  assert.deepEqual(keyRelease(options, ['kv_cache_dtype'], '1.1'), {
    status: 'deprecated',
    releases: [],
    message: 'kv_cache_dtype was replaced by kv_cache_config.dtype.',
  });
  assert.deepEqual(keyRelease(options, ['speculative_config', 'num_nextn_predict_layers'], '1.1'), {
    status: 'deprecated',
    releases: ['1.0', '1.1'],
    message: 'num_nextn_predict_layers is deprecated; use max_draft_len instead.',
  });
  assert.deepEqual(keyRelease(options, ['kv_cache_config', 'no_such_key'], '1.1'), { status: 'unknown' });
  assert.deepEqual(keyRelease(options, ['enable_build_cache'], '1.0'), { status: 'added-in', release: '1.1', releases: ['1.1'] });
  // Through the disaggregated schema's pools into the options definitions.
  assert.deepEqual(
    keyRelease(disagg, ['generation_servers', 'kv_cache_config', 'host_cache_size'], '1.0', { 'trtllm-options.schema.json': options }),
    {
      status: 'added-in',
      release: '1.1',
      releases: ['1.1'],
    },
  );
});

test('keyRelease on a schema without release data: present keys are known (or deprecated), others unknown', () => {
  const plain: JsonSchema = {
    type: 'object',
    properties: { a: { type: 'integer' }, old: { type: 'boolean', deprecated: true, 'x-deprecatedMessage': 'old is gone.' } },
  };
  assert.deepEqual(keyRelease(plain, ['a'], '1.2'), { status: 'known', releases: [] });
  assert.deepEqual(keyRelease(plain, ['old'], '1.2'), { status: 'deprecated', releases: [], message: 'old is gone.' });
  assert.deepEqual(keyRelease(plain, ['b'], '1.2'), { status: 'unknown' });
});

test('compareReleases: numeric, with patch and rc parts', () => {
  assert.deepEqual(['1.10', '1.2.1', '1.2', '1.9', '1.3rc4', '1.3rc2'].sort(compareReleases), [
    '1.2',
    '1.2.1',
    '1.3rc2',
    '1.3rc4',
    '1.9',
    '1.10',
  ]);
});

// ---------------------------------------------------------------------------------------------
// The shipped schemas on real files

interface RealFile {
  file: string;
  format: FormatId;
}

/** TensorRT-LLM and Dynamo files of both corpora, with the format SOURCES.tsv gives (or the name implies). */
function realFiles(): RealFile[] {
  const out: RealFile[] = [];
  for (const base of ['corpus', 'corpus-wild']) {
    const rows = readFileSync(join(SHARED, base, 'SOURCES.tsv'), 'utf8')
      .split('\n')
      .slice(1);
    for (const row of rows) {
      const [file, , , , kind] = row.split('\t');
      if (!file || !/^(TensorRT-LLM|dynamo)\//.test(file)) continue;
      const format: FormatId | undefined =
        kind === 'trtllm-options' || kind === 'trtllm-disagg'
          ? kind
          : kind === 'other'
            ? undefined
            : file.includes('disagg_config')
              ? 'trtllm-disagg'
              : 'trtllm-options';
      // kimi-k2-thinking.yaml is a Slurm benchmark wrapper (slurm/benchmark/hardware/worker_config), not a server config.
      if (!format || file.endsWith('kimi-k2-thinking.yaml')) continue;
      out.push({ file: `${base}/${file}`, format });
    }
  }
  return out;
}

const findingsOf = (r: RealFile): Finding[] => {
  const parsed = parseFile(readFileSync(join(SHARED, r.file), 'utf8'));
  return parsed.docs.flatMap((d) => schemaFindings(d, r.format));
};

/** Real upstream mistakes: keys TensorRT-LLM's strict CudaGraphConfig (batch_sizes, max_batch_size, enable_padding) rejects. */
const UPSTREAM_MISTAKES = [
  'corpus-wild/dynamo/eagle_agg.yml RL-UNKNOWN-KEY cuda_graph_config.padding_enabled',
  'corpus-wild/dynamo/simple__agg.yaml RL-UNKNOWN-KEY cuda_graph_config.cuda_graph_batch_sizes',
  'corpus-wild/dynamo/simple__agg.yaml RL-UNKNOWN-KEY cuda_graph_config.enable_graph_padding',
];

test('every real TensorRT-LLM / Dynamo file: no schema error, and unknown keys only where upstream really erred', () => {
  const files = realFiles();
  assert.equal(files.length, 48);
  const errors: string[] = [];
  const unknown: string[] = [];
  for (const r of files)
    for (const f of findingsOf(r)) {
      if (f.severity === 'error') errors.push(`${r.file} ${f.code} ${f.path}`);
      if (f.code === 'RL-UNKNOWN-KEY') unknown.push(`${r.file} ${f.code} ${f.path}`);
    }
  assert.deepEqual(errors, []);
  assert.deepEqual(unknown.sort(), [
    // A trtllm-serve CLI flag name written as a YAML key; the finding points at kv_cache_config.free_gpu_memory_fraction.
    'corpus-wild/TensorRT-LLM/gpt-oss-120b-latency.yaml RL-UNKNOWN-KEY kv_cache_free_gpu_memory_fraction',
    ...UPSTREAM_MISTAKES,
    'corpus/TensorRT-LLM/deepseek-r1-throughput.yaml RL-UNKNOWN-KEY kv_cache_free_gpu_memory_fraction',
  ]);
});

test('AutoDeploy options files: runtime, compile_backend, world_size, model_factory, transforms, … are accepted', () => {
  for (const name of ['qwen3.5_moe_400b_nvfp4.yaml', 'super_v3_mtp.yaml', 'llama3_3_70b.yaml']) {
    const fs = findingsOf({ file: `corpus-wild/TensorRT-LLM/${name}`, format: 'trtllm-options' });
    assert.deepEqual(
      fs.filter((f) => f.code !== 'RL-DEPRECATED' || !f.path.startsWith('speculative_config')).map((f) => `${f.code} ${f.path}`),
      [],
      name,
    );
  }
});

function diags(text: string, format: FormatId) {
  const parsed = parseFile(text);
  return toDiagnostics(parsed, schemaFindings(parsed.docs[0]!, format));
}

test('an unknown key inside cuda_graph_config is reported on the key, with a same-model suggestion', () => {
  const text = 'cuda_graph_config:\n  enable_paddin: true\n  max_batch_size: 64\n';
  const range = rangeOf(text, 'enable_paddin');
  assert.deepEqual(diags(text, 'trtllm-options'), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'warning',
      message: 'unknown key `enable_paddin` in `cuda_graph_config`; did you mean `enable_padding`?',
      path: 'cuda_graph_config.enable_paddin',
      range,
      fixes: [{ title: 'Rename to enable_padding', edits: [{ range, newText: 'enable_padding' }] }],
    },
  ]);
});

test('an unknown key inside kv_cache_config of a disaggregated pool is reported on the key', () => {
  const text = 'context_servers:\n  num_instances: 1\n  kv_cache_config:\n    free_gpu_memory_fraction: 0.8\n    prefetch_blocks: true\n';
  assert.deepEqual(diags(text, 'trtllm-disagg'), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'warning',
      message: 'unknown key `prefetch_blocks` in `context_servers.kv_cache_config` (the loader rejects unknown keys here)',
      path: 'context_servers.kv_cache_config.prefetch_blocks',
      range: rangeOf(text, 'prefetch_blocks'),
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
// Did-you-mean within one model

test('did-you-mean: a different word is no typo (`in_channels` is not `kv_channels`)', () => {
  assert.equal(closest('in_channels', ['kv_channels', 'hidden_size']), undefined);
  assert.equal(replacesWholeWord('in_channels', 'kv_channels'), true);
  assert.equal(replacesWholeWord('tokens_per_blok', 'tokens_per_block'), false);
  assert.equal(closest('out_channels_extra', ['kv_channels_extra']), undefined, 'two edits but a whole word swapped');
});

test('did-you-mean: real near-misses within the allowance', () => {
  assert.equal(closest('enable_paddin', ['batch_sizes', 'max_batch_size', 'enable_padding']), 'enable_padding');
  assert.equal(closest('max_tokns_in_bufer', ['max_tokens_in_buffer', 'kv_transfer_timeout_ms']), 'max_tokens_in_buffer');
  assert.equal(closest('tensor_paralel_size', ['tensor_parallel_size', 'pipeline_parallel_size']), 'tensor_parallel_size');
  assert.equal(closest('devics', ['devices']), 'devices');
  assert.equal(closest('max_bach_sise', ['max_batch_size']), 'max_batch_size', 'two edits from 12 characters on');
  assert.equal(closest('max_bach_sz', ['max_batch_size']), undefined, 'three edits are too many');
});

test('did-you-mean across models: the nearest key of one model, none when two models disagree', () => {
  const kv = new KeyIndex(['free_gpu_memory_fraction', 'tokens_per_block']);
  const sched = new KeyIndex(['capacity_scheduler_policy']);
  assert.equal(closestAcross('tokens_per_blocks', [kv, sched]), 'tokens_per_block');
  assert.equal(closestAcross('capacity_scheduler_polcy', [kv, sched]), 'capacity_scheduler_policy');
  assert.equal(closestAcross('abcde_x', [new KeyIndex(['abcde_y']), new KeyIndex(['abcde_z'])]), undefined);
  assert.equal(closestAcross('tokens_per_block', [kv, sched]), undefined, 'a known key of one model is no typo');
});
