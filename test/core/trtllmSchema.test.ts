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
import { SCHEMAS, type JsonSchema } from '../../src/core/schemaNav.js';
import { closest, closestAcross, KeyIndex, replacesWholeWord } from '../../src/core/suggest.js';
import { compareReleases, keyRelease, releaseSource, schemaReleases } from '../../src/core/trtllmReleases.js';
import { releaseVerdict } from '../../src/core/trtllmCheck.js';
import type { TargetRelease } from '../../src/core/versions.js';
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
/** The LlmArgs fields (the root lists the names and refers to these). */
const props = defs.LlmArgs!.properties!;

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
  // The root names every field (detect.ts reads them) and closes the set; the fields themselves are shared.
  assert.equal(options.$ref, '#/$defs/LlmArgs');
  assert.deepEqual(options.properties!.tensor_parallel_size, {});
  assert.equal(props.attn_backend!['x-status'], 'prototype');
});

test('generator: strict models (StrictBaseModel, extra="forbid") are closed, down to the nested ones', () => {
  assert.equal(options.additionalProperties, false);
  for (const name of ['KvCacheConfig', 'CudaGraphConfig', 'SchedulerConfig', 'MTPDecodingConfig', 'NGramDecodingConfig'])
    assert.equal(defs[name]!.additionalProperties, false, name);
  // A nested model is `{type, $ref}` at its use site (the def has no type of its own), so null is judged there.
  assert.deepEqual(props.kv_cache_config, { type: 'object', $ref: '#/$defs/KvCacheConfig', description: 'KV cache config.' });
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

test('generator: strictness read from ConfigDict(extra="forbid") (release 1.0) and from an inner class Config (1.1)', () => {
  // merge_defs opens a model that any release leaves open: still closed means both spellings were read.
  for (const name of ['KvCacheConfig', 'SchedulerConfig', 'CudaGraphConfig']) assert.equal(defs[name]!.additionalProperties, false, name);
  assert.equal(defs.GuidedDecodingConfig!.additionalProperties, false, 'a 1.1-only model, closed by class Config');
});

test("generator: a union discriminated by Annotated[..., Field(discriminator=…)] and each choice's Literal", () => {
  const sparse = props.sparse_attention_config!;
  assert.deepEqual(sparse.properties!.algorithm, { type: 'string', enum: ['rocket', 'dsa'] });
  assert.deepEqual(
    (sparse.allOf as JsonSchema[]).map((b) => [(b.if as JsonSchema).properties!.algorithm, (b.then as JsonSchema).$ref]),
    [
      [{ const: 'rocket' }, '#/$defs/RocketSparseAttentionConfig'],
      [{ const: 'dsa' }, '#/$defs/DsaSparseAttentionConfig'],
    ],
  );
  // Every choice strict: a key no choice has is rejected even without `algorithm`; the view keeps type and description.
  assert.equal(sparse.additionalProperties, false);
  assert.deepEqual(sparse.properties!.window_size, { type: ['integer', 'null'], description: 'Window size.', default: 32 });
  assert.deepEqual(sparse['x-releases'], ['1.1']);
  // Release 1.0 chose speculative configs by ClassVar + from_dict, 1.1 by Literal + Annotated: the same branches.
  assert.deepEqual(
    (props.speculative_config!.allOf as JsonSchema[]).map((b) => (b.then as JsonSchema).$ref),
    ['#/$defs/MTPDecodingConfig', '#/$defs/NGramDecodingConfig'],
  );
});

test('generator: Field under another name (PydanticField) in Annotated metadata, strict types, lambda default factories', () => {
  assert.deepEqual(defs.KvCacheConfig!.properties!.snapshot_offsets, {
    type: 'array',
    items: { type: 'integer', 'x-strict': true, exclusiveMinimum: 0 },
    description: 'Snapshot offsets.',
    default: [1, 2],
    'x-releases': ['1.1'],
  });
});

test('generator: telemetry=TelemetryField.categorical(…) lists the values TensorRT-LLM recognises, as examples', () => {
  assert.deepEqual(defs.KvCacheConfig!.properties!.dtype, {
    type: 'string',
    default: 'auto',
    examples: ['auto', 'fp8'],
    'x-rule': 'K3',
  });
});

test('generator: a before-validator relaxes its own field; a subclass validator on an inherited field does not', () => {
  // load_format: Union[str, int] converted by the validator: any value.
  assert.deepEqual(props.load_format, {
    description: 'How to load weights.',
    default: 'auto',
    'x-validator': 'before',
    'x-releases': ['1.1'],
    'x-backends': ['pytorch'],
  });
  // A nested model keeps its schema (the validator normalises the mapping) and also takes null.
  assert.deepEqual(props.cuda_graph_config, {
    type: ['object', 'null'],
    $ref: '#/$defs/CudaGraphConfig',
    description: 'CUDA graphs.',
    'x-validator': 'before',
    'x-backends': ['pytorch'],
  });
  // AutoDeploy's LlmArgs adds a before-validator to the inherited tensor_parallel_size: the type stays.
  assert.deepEqual(props.tensor_parallel_size, { type: 'integer', minimum: 1, description: 'TP size.', default: 1 });
});

test('generator: AliasChoices names, fields of a plain mix-in, a nested enum class, fixed-length tuples', () => {
  const base = defs.DecodingBaseConfigFields!.properties!;
  assert.deepEqual(base.speculative_model_dir, {
    type: ['string', 'null'],
    description: 'Another name of `speculative_model` (pydantic alias). The draft model.',
    default: null,
    'x-releases': ['1.1'],
  });
  assert.deepEqual(props.yaml_extra, {
    type: 'array',
    items: { type: 'string' },
    description: 'Extra YAML files.',
    default: [],
    'x-releases': ['1.1'],
    'x-backends': ['_autodeploy'],
  });
  const guided = defs.GuidedDecodingConfig!.properties!;
  assert.deepEqual(guided.mode, { type: 'string', enum: ['fast', 'safe'], description: 'Decoding mode.', default: 'fast' });
  assert.deepEqual(guided.buckets, {
    type: 'array',
    items: {
      type: 'array',
      prefixItems: [
        { type: 'integer', minimum: 1 },
        { type: 'integer', minimum: 1 },
      ],
      minItems: 2,
      maxItems: 2,
    },
    default: [],
  });
});

test("generator: subclasses share their base model's fields (one def) and still close the set", () => {
  const mtp = defs.MTPDecodingConfig!;
  assert.deepEqual(mtp.allOf, [{ $ref: '#/$defs/DecodingBaseConfigFields' }]);
  assert.deepEqual(mtp.properties!.max_draft_len, {}, 'named, so that additionalProperties: false still admits it');
  assert.equal(mtp.additionalProperties, false);
  assert.equal(defs.DecodingBaseConfigFields!.additionalProperties, undefined, 'open: the subclass closes the set');
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
  // The LlmArgs fields once, by reference; each name listed so that the pool can be closed.
  assert.deepEqual(pool.allOf, [{ $ref: 'trtllm-options.schema.json#/$defs/LlmArgs' }]);
  assert.deepEqual(pool.properties!.kv_cache_config, {});
  assert.equal(pool.additionalProperties, false);
  assert.equal(pool.properties!.num_instances!.minimum, 0, 'num_instances 0: a generation-only deployment');
  assert.deepEqual(disagg.properties!.context_servers, { $ref: '#/$defs/serverPool' });
  assert.equal(disagg.properties!.port!.default, 8000);
  assert.deepEqual(disagg.allOf, [{ $ref: 'trtllm-options.schema.json#/$defs/LlmArgs' }], '**kwargs: LlmArgs keys at the top');
  // The wide-EP SLURM benchmark layout: worker_config.gen/ctx are LlmArgs like a pool, without the pool's own keys.
  const worker = (disagg.$defs as Record<string, JsonSchema>).workerArgs!;
  assert.deepEqual(disagg.properties!.worker_config!.properties!.gen!.$ref, '#/$defs/workerArgs');
  assert.equal(worker.additionalProperties, false);
  assert.equal(worker.properties!.num_instances, undefined);
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
      if (format) out.push({ file: `${base}/${file}`, format });
    }
  }
  return out;
}

const findingsOf = (r: RealFile, target?: TargetRelease): Finding[] => {
  const parsed = parseFile(readFileSync(join(SHARED, r.file), 'utf8'));
  return parsed.docs.flatMap((d) => schemaFindings(d, r.format, { target }));
};

/**
 * Every warning the real files still get, each a real one. Keys and values only older releases accept (AutoDeploy's
 * cuda_graph_batch_sizes shortcut, moe_config.backend WIDEEP, enable_cache_transceiver, pytorch_weights_path) are
 * accepted when no release is named (a release accepts them and TensorRT-LLM never deprecated them); the next test
 * checks them against the release read.
 */
const REAL_WARNINGS = [
  // A trtllm-serve CLI flag name written as a YAML key; the finding points at kv_cache_config.free_gpu_memory_fraction.
  'corpus-wild/TensorRT-LLM/gpt-oss-120b-latency.yaml RL-UNKNOWN-KEY kv_cache_free_gpu_memory_fraction',
  'corpus/TensorRT-LLM/deepseek-r1-throughput.yaml RL-UNKNOWN-KEY kv_cache_free_gpu_memory_fraction',
  // MTPDecodingConfig remaps num_nextn_predict_layers to max_draft_len with a deprecation warning of its own.
  'corpus-wild/TensorRT-LLM/super_v3_mtp.yaml RL-DEPRECATED speculative_config.num_nextn_predict_layers',
  'corpus-wild/TensorRT-LLM/deepseek-r1-deepgemm.yaml RL-DEPRECATED speculative_config.num_nextn_predict_layers',
  'corpus-wild/dynamo/mtp_prefill.yaml RL-DEPRECATED speculative_config.num_nextn_predict_layers',
  'corpus/TensorRT-LLM/deepseek-r1-throughput.yaml RL-DEPRECATED speculative_config.num_nextn_predict_layers',
  // Pre-1.0 keys of an old Dynamo config that TensorRT-LLM replaced (use_cuda_graph & co. by cuda_graph_config,
  // kv_cache_dtype by kv_cache_config.dtype), and `WideEP`, which differs in case from the WIDEEP earlier releases list.
  'corpus-wild/dynamo/wide_ep_agg.yaml RL-DEPRECATED use_cuda_graph',
  'corpus-wild/dynamo/wide_ep_agg.yaml RL-DEPRECATED cuda_graph_padding_enabled',
  'corpus-wild/dynamo/wide_ep_agg.yaml RL-DEPRECATED kv_cache_dtype',
  'corpus-wild/dynamo/wide_ep_agg.yaml RL-ENUM-CASE moe_config.backend',
  // Keys no CudaGraphConfig ever had (batch_sizes, max_batch_size, enable_padding are its keys): 1.3 refuses to start.
  'corpus-wild/dynamo/eagle_agg.yml RL-UNKNOWN-KEY cuda_graph_config.padding_enabled',
  'corpus-wild/dynamo/simple__agg.yaml RL-UNKNOWN-KEY cuda_graph_config.cuda_graph_batch_sizes',
  'corpus-wild/dynamo/simple__agg.yaml RL-UNKNOWN-KEY cuda_graph_config.enable_graph_padding',
  // `None` is a string in YAML; Literal/Optional fields do not take it.
  'corpus/TensorRT-LLM/disagg_config_cache_reuse.yaml RL-NONE-STRING cuda_graph_config',
  // CacheTransceiverConfig.backend is Literal["DEFAULT", "UCX", …]: 1.3 does not take `ucx`.
  'corpus/dynamo/decode.yaml RL-ENUM-CASE cache_transceiver_config.backend',
];

test('every real TensorRT-LLM / Dynamo file: no schema error, and each remaining warning a real one', () => {
  const files = realFiles();
  assert.equal(files.length, 49);
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const r of files)
    for (const f of findingsOf(r)) {
      if (f.severity === 'error') errors.push(`${r.file} ${f.code} ${f.path}`);
      if (f.severity === 'warning') warnings.push(`${r.file} ${f.code} ${f.path}`);
    }
  assert.deepEqual(errors, []);
  assert.deepEqual(warnings.sort(), [...REAL_WARNINGS].sort());
});

test('real files checked against the release read (trtllm=1.3): what 1.3 rejects inside strict models is an error', () => {
  const target: TargetRelease = { framework: 'trtllm', release: '1.3', source: 'modeline' };
  const errors = realFiles()
    .flatMap((r) => findingsOf(r, target).map((f) => [r.file, f]) as [string, Finding][])
    .filter(([, f]) => f.severity === 'error')
    .map(([file, f]) => `${file} ${f.code} ${f.path}`);
  assert.deepEqual(errors.sort(), [
    'corpus-wild/TensorRT-LLM/kimi-k2-thinking.yaml RL-RELEASE worker_config.gen.moe_config.backend',
    'corpus-wild/dynamo/eagle_agg.yml RL-RELEASE speculative_config.pytorch_weights_path',
    'corpus-wild/dynamo/eagle_agg.yml RL-UNKNOWN-KEY cuda_graph_config.padding_enabled',
    'corpus-wild/dynamo/simple__agg.yaml RL-UNKNOWN-KEY cuda_graph_config.cuda_graph_batch_sizes',
    'corpus-wild/dynamo/simple__agg.yaml RL-UNKNOWN-KEY cuda_graph_config.enable_graph_padding',
    'corpus/TensorRT-LLM/disagg_config.yaml RL-RELEASE context_servers.cache_transceiver_config.enable_cache_transceiver',
    'corpus/TensorRT-LLM/disagg_config.yaml RL-RELEASE generation_servers.cache_transceiver_config.enable_cache_transceiver',
    'corpus/dynamo/wide_ep_prefill.yaml RL-RELEASE moe_config.backend',
  ]);
});

test('AutoDeploy options files: runtime, compile_backend, world_size, model_factory, transforms, … are accepted', () => {
  const props = (SCHEMAS['trtllm-options'].$defs as Record<string, JsonSchema>).LlmArgs!.properties!;
  for (const k of ['runtime', 'compile_backend', 'world_size', 'model_factory', 'transforms', 'yaml_extra', 'mode'])
    assert.deepEqual(props[k]!['x-backends'], ['_autodeploy'], k);
  assert.equal(props.backend!.deprecated, undefined, '`backend: _autodeploy` selects AutoDeploy and is not deprecated there');
  const seen: string[] = [];
  for (const name of ['qwen3.5_moe_400b_nvfp4.yaml', 'super_v3_mtp.yaml', 'llama3_3_70b.yaml'])
    for (const f of findingsOf({ file: `corpus-wild/TensorRT-LLM/${name}`, format: 'trtllm-options' }))
      seen.push(`${name} ${f.code} ${f.path}`);
  // The only finding: MTPDecodingConfig's own deprecation of num_nextn_predict_layers.
  assert.deepEqual(seen, ['super_v3_mtp.yaml RL-DEPRECATED speculative_config.num_nextn_predict_layers']);
  // cuda_graph_batch_sizes: accepted (AutoDeploy releases before the newest read take it), reported against 1.3.
  const named = findingsOf({ file: 'corpus-wild/TensorRT-LLM/llama3_3_70b.yaml', format: 'trtllm-options' }, NAMED);
  assert.deepEqual(
    named.map((f) => [f.code, f.severity, f.message]),
    [['RL-RELEASE', 'warning', '`cuda_graph_batch_sizes` is not accepted by TensorRT-LLM 1.3']],
  );
});

function diags(text: string, format: FormatId, target?: TargetRelease) {
  const parsed = parseFile(text);
  return toDiagnostics(parsed, schemaFindings(parsed.docs[0]!, format, { target }));
}

const NAMED: TargetRelease = { framework: 'trtllm', release: '1.3', source: 'modeline' };
const UNREAD: TargetRelease = { framework: 'trtllm', release: '1.0', source: 'setting' };

test('an unknown key inside cuda_graph_config: same-model suggestion; an error where the release named was read', () => {
  const text = 'cuda_graph_config:\n  enable_paddin: true\n  max_batch_size: 64\n';
  const range = rangeOf(text, 'enable_paddin');
  const fixes = [{ title: 'Rename to enable_padding', edits: [{ range, newText: 'enable_padding' }] }];
  const base = 'unknown key `enable_paddin` in `cuda_graph_config`; did you mean `enable_padding`?';
  assert.deepEqual(diags(text, 'trtllm-options'), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'warning',
      // Read from one release only, with no release named: a warning (an older release may have ignored the key).
      message: base,
      path: 'cuda_graph_config.enable_paddin',
      range,
      fixes,
    },
  ]);
  assert.deepEqual(diags(text, 'trtllm-options', NAMED), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'error',
      message: `${base} (TensorRT-LLM 1.3 rejects unknown keys here at launch)`,
      path: 'cuda_graph_config.enable_paddin',
      range,
      fixes,
    },
  ]);
  assert.deepEqual(
    diags(text, 'trtllm-options', UNREAD).map((d) => [d.severity, d.message]),
    [['warning', `${base} (TensorRT-LLM 1.3 rejects it at launch; TensorRT-LLM 1.0 was not read, so this is a warning)`]],
  );
});

test('an unknown key inside kv_cache_config of a disaggregated pool, and inside a benchmark worker_config.gen', () => {
  const text = 'context_servers:\n  num_instances: 1\n  kv_cache_config:\n    free_gpu_memory_fraction: 0.8\n    prefetch_blocks: true\n';
  assert.deepEqual(diags(text, 'trtllm-disagg', NAMED), [
    {
      code: 'RL-UNKNOWN-KEY',
      severity: 'error',
      message: 'unknown key `prefetch_blocks` in `context_servers.kv_cache_config` (TensorRT-LLM 1.3 rejects unknown keys here at launch)',
      path: 'context_servers.kv_cache_config.prefetch_blocks',
      range: rangeOf(text, 'prefetch_blocks'),
    },
  ]);
  const bench =
    'hardware:\n  gpus_per_node: 4\nworker_config:\n  gen:\n    tensor_parallel_size: 8\n    kv_cache_config:\n      enable_block_reuse: false\n      enable_blok_reuse: true\n  ctx:\n    max_num_tokens: 8448\n';
  assert.deepEqual(
    diags(bench, 'trtllm-disagg', NAMED).map((d) => [d.code, d.severity, d.path, d.message]),
    [
      [
        'RL-UNKNOWN-KEY',
        'error',
        'worker_config.gen.kv_cache_config.enable_blok_reuse',
        'unknown key `enable_blok_reuse` in `worker_config.gen.kv_cache_config`; did you mean `enable_block_reuse`? (TensorRT-LLM 1.3 rejects unknown keys here at launch)',
      ],
    ],
  );
  // The LlmArgs top level of a role also takes trtllm-serve's CLI names: an unknown key there stays a warning.
  assert.deepEqual(
    diags('worker_config:\n  gen:\n    tensor_paralel_size: 8\n', 'trtllm-disagg', NAMED).map((d) => [d.severity, d.message]),
    [['warning', 'unknown key `tensor_paralel_size` in `worker_config.gen`; did you mean `tensor_parallel_size`?']],
  );
});

test('versioned findings on the shipped schema: legacy keys and values are errors under the release read', () => {
  const text =
    'moe_config:\n  backend: WIDEEP\nkv_cache_config:\n  onboard_blocks: true\ncache_transceiver_config:\n  enable_cache_transceiver: true\n';
  const summary = (t?: TargetRelease) => diags(text, 'trtllm-options', t).map((d) => [d.code, d.severity, d.message]);
  const onboard = 'onboard_blocks was removed from KvCacheConfig in recent TensorRT-LLM releases; newer versions reject it. Remove it';
  const deprecated = ['RL-DEPRECATED', 'warning', `\`onboard_blocks\` ${onboard.slice('onboard_blocks '.length)}`];
  // No release named: what an older release accepts is accepted; only a deprecation warns.
  assert.deepEqual(summary(), [deprecated]);
  assert.deepEqual(summary(NAMED), [
    [
      'RL-RELEASE',
      'error',
      '`backend: WIDEEP` is not accepted by TensorRT-LLM 1.3: moe_config.backend lists WIDEEP in earlier releases, not in the newest one read.',
    ],
    ['RL-RELEASE', 'error', `\`onboard_blocks\` is not accepted by TensorRT-LLM 1.3: ${onboard}.`],
    ['RL-RELEASE', 'error', '`enable_cache_transceiver` is not accepted by TensorRT-LLM 1.3'],
  ]);
  // A release the schema was not read from, older than every one read: no verdict on what it accepts.
  assert.deepEqual(summary(UNREAD), [deprecated]);
});

test('versioned findings from the release data: added in, removed in, and releases the schema was not read from', () => {
  // The fixture schema knows 1.0 and 1.1: host_cache_size came in 1.1, onboard_blocks left after 1.0.
  const schemas = { root: options, others: { 'trtllm-options.schema.json': options } };
  const at = (path: string[]) => {
    const leaf = path.reduce<JsonSchema>((s, k) => {
      const d = s.$ref ? (defs[s.$ref.split('/').pop()!] as JsonSchema) : s;
      return (d.properties ?? {})[k] ?? {};
    }, defs.LlmArgs!);
    return [leaf];
  };
  const v = (path: string[], release: string, strict = true) =>
    releaseVerdict(path, at(path), { framework: 'trtllm', release, source: 'modeline' }, strict, schemas);
  assert.deepEqual(v(['kv_cache_config', 'host_cache_size'], '1.0'), {
    severity: 'error',
    message: '`host_cache_size` is not in TensorRT-LLM 1.0: it was added in TensorRT-LLM 1.1',
  });
  assert.deepEqual(v(['kv_cache_config', 'onboard_blocks'], '1.1'), {
    severity: 'error',
    message: '`onboard_blocks` is not in TensorRT-LLM 1.1: it was removed in TensorRT-LLM 1.1 (last in 1.0)',
  });
  assert.equal(v(['kv_cache_config', 'host_cache_size'], '1.1'), undefined, 'the release has it');
  // At an LlmArgs top level (trtllm-serve also takes CLI names there) the same is a warning.
  assert.deepEqual(v(['enable_build_cache'], '1.0', false), {
    severity: 'warning',
    message: '`enable_build_cache` is not in TensorRT-LLM 1.0: it was added in TensorRT-LLM 1.1',
  });
  // A release outside the ones read says nothing; one between two read releases warns and says so.
  assert.equal(v(['kv_cache_config', 'host_cache_size'], '0.21'), undefined);
  assert.equal(v(['kv_cache_config', 'host_cache_size'], '1.2'), undefined);
  assert.deepEqual(v(['kv_cache_config', 'host_cache_size'], '1.0.5'), {
    severity: 'warning',
    message:
      '`host_cache_size` is not in TensorRT-LLM 1.0.5: it was added in TensorRT-LLM 1.1 (TensorRT-LLM 1.0.5 was not read; TensorRT-LLM 1.0, TensorRT-LLM 1.1 were)',
  });
  assert.equal(
    releaseVerdict(['kv_cache_config', 'host_cache_size'], at(['kv_cache_config', 'host_cache_size']), undefined, true, schemas),
    undefined,
  );
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
