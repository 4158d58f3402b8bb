// The Megatron-Bridge schema: the generator (scripts/bridge-schema/generate.py) on a small fake source tree of two
// releases, one test per Python construct it reads; the shipped schema on every real Megatron-Bridge file of the
// corpora (no schema error); real mistakes still caught, with exact codes, paths and messages; and the run-time
// validator (src/core/schemaInterpret.ts) against Ajv on the same schema and files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseFile, toData } from '../../src/core/document.js';
import { checkKeywords, interpretSchema } from '../../src/core/schemaInterpret.js';
import { knownKeys, propertyInfo, SCHEMAS, type JsonSchema } from '../../src/core/schemaNav.js';
import { keyRelease, releaseSource, schemaReleases } from '../../src/core/trtllmReleases.js';
import { lookup } from '../../src/core/tree.js';
import { CORPUS, diagnose, REPO, rel, WILD, wildSources, yamlFiles } from '../helpers.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'bridge-src');
const GENERATOR = join(REPO, 'scripts', 'bridge-schema', 'generate.py');
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

function run(overlay?: Record<string, unknown>): { status: number | null; stdout: string; stderr: string; schema?: string } {
  const out = mkdtempSync(join(tmpdir(), 'bridge-schema-'));
  try {
    const args = [
      GENERATOR,
      ...['--bridge', join(FIXTURE, 'r1', 'bridge'), '--mcore', join(FIXTURE, 'r1', 'mcore'), '--release', '1.0', '--commit', `${A} ${B}`],
      ...['--bridge', join(FIXTURE, 'r2', 'bridge'), '--mcore', join(FIXTURE, 'r2', 'mcore'), '--release', '1.1', '--commit', `${B} ${A}`],
      ...['--out', join(out, 'schema.json')],
    ];
    if (overlay) {
      writeFileSync(join(out, 'overlay.json'), JSON.stringify(overlay));
      args.push('--overlay', join(out, 'overlay.json'));
    }
    const r = spawnSync('python3', args, { encoding: 'utf8' });
    let schema: string | undefined;
    try {
      schema = readFileSync(join(out, 'schema.json'), 'utf8');
    } catch {
      schema = undefined;
    }
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, schema };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const first = run();
const gen = JSON.parse(first.schema!) as JsonSchema;
const defs = gen.$defs as Record<string, JsonSchema>;
const prop = (def: string, name: string) => defs[def]!.properties![name]!;

// ---------------------------------------------------------------------------------------------
// The generator

test('generator: two runs on the same sources give the same bytes; releases and commits on the root', () => {
  assert.equal(first.status, 0, first.stderr);
  assert.equal(run().schema, first.schema);
  assert.deepEqual(schemaReleases(gen), ['1.0', '1.1']);
  assert.deepEqual(gen['x-source'], {
    '1.0': { 'megatron-bridge': A, 'megatron-lm': B },
    '1.1': { 'megatron-bridge': B, 'megatron-lm': A },
  });
  assert.match(first.stdout.trim(), /^wrote .*schema\.json: 8 sections, \d+ definitions, releases 1\.0, 1\.1$/);
});

test('generator: one section per ConfigContainer field, private fields left out, a section added in 1.1', () => {
  assert.deepEqual(Object.keys(gen.properties!), [
    'env_vars',
    'train',
    'model',
    'optimizer',
    'dataset',
    'peft',
    'mixed_precision',
    'validation',
  ]);
  assert.deepEqual(gen.properties!.validation, { $ref: '#/$defs/validation', 'x-releases': ['1.1'] });
  assert.deepEqual(gen.properties!.env_vars, {
    type: 'object',
    additionalProperties: { type: ['boolean', 'integer', 'string', 'null'] },
    description: 'Environment variables.',
  });
});

test('generator: a section holds the annotated classes and their subclasses anywhere in the Bridge tree', () => {
  // LlamaModelProvider (models/llama/, imported as `import … as gp`) subclasses GPTModelProvider; LoRA subclasses PEFT.
  assert.deepEqual(defs.model!.allOf, [{ $ref: '#/$defs/GPTModelProvider' }, { $ref: '#/$defs/LlamaModelProvider' }]);
  assert.deepEqual(defs.peft!.allOf, [{ $ref: '#/$defs/PEFT' }, { $ref: '#/$defs/LoRA' }]);
  assert.deepEqual(gen.properties!.peft, { anyOf: [{ $ref: '#/$defs/peft' }, { type: 'null' }], default: null });
  // Inheritance is allOf of the base's definition (megatron-core's, through `from ..model_parallel_config import`).
  assert.deepEqual(defs.GPTModelProvider!.allOf, [{ $ref: '#/$defs/TransformerConfig' }]);
  assert.deepEqual(defs.TransformerConfig!.allOf, [{ $ref: '#/$defs/ModelParallelConfig' }]);
  // A base imported through a package's __init__ re-export (megatron.core.optimizer) and renamed on import.
  assert.deepEqual(defs['config.OptimizerConfig']!.allOf, [{ $ref: '#/$defs/optimizer_config.OptimizerConfig' }]);
});

test('generator: descriptions from attribute docstrings, the comment above, the comment at the end of the line', () => {
  const mpc = defs.ModelParallelConfig!.properties!;
  assert.equal(mpc.tensor_model_parallel_size!.description, 'Tensor-parallel size.');
  assert.equal(mpc.pipeline_model_parallel_size!.description, 'Pipeline-parallel size.');
  assert.equal(mpc.virtual_pipeline_model_parallel_size!.description, 'interleaved chunks per stage');
  assert.equal(defs.ModelParallelConfig!.description, 'Parallelism of one model.');
});

test('generator: int, float, bool, str, Optional, X | None and an implicit Optional (= None)', () => {
  assert.deepEqual(prop('ModelParallelConfig', 'tensor_model_parallel_size'), {
    type: 'integer',
    description: 'Tensor-parallel size.',
    default: 1,
  });
  assert.deepEqual(prop('ModelParallelConfig', 'sequence_parallel'), {
    type: ['boolean', 'integer', 'null'],
    description: 'Sequence parallelism over the TP group.',
    default: false,
  });
  assert.deepEqual(prop('optimizer_config.OptimizerConfig', 'optimizer'), {
    type: ['string', 'null'],
    description: 'Optimizer name.',
    default: 'adam',
  });
  assert.deepEqual(prop('optimizer_config.OptimizerConfig', 'lr'), {
    type: ['number', 'null'],
    description: 'Learning rate.',
    default: null,
  });
  assert.deepEqual(prop('ModelParallelConfig', 'bucket_size'), {
    type: ['integer', 'null'],
    description: 'Bucket size; None means one bucket.',
    default: null,
  });
  assert.deepEqual(prop('megatron.training.config.TrainingConfig', 'global_batch_size'), {
    type: ['integer', 'null'],
    default: null,
    description: 'Global batch size.',
  });
});

test('generator: Union, Literal, List, Tuple, Dict, a module-level alias, field(default=…) and default_factory', () => {
  assert.deepEqual(prop('TransformerConfig', 'moe_layer_freq'), {
    anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }],
    description: 'MoE layer pattern.',
    default: 1,
  });
  assert.deepEqual(prop('TransformerConfig', 'recompute_granularity'), {
    type: ['string', 'null'],
    enum: ['full', 'selective', null],
    description: 'What to recompute.',
    default: null,
  });
  assert.deepEqual(prop('TransformerConfig', 'window_size'), {
    type: ['array', 'null'],
    prefixItems: [{ type: 'integer' }, { type: 'integer' }],
    minItems: 2,
    maxItems: 2,
    default: null,
    description: 'Sliding window.',
    'x-releases': ['1.0'],
  });
  assert.deepEqual(prop('optimizer_config.OptimizerConfig', 'param_overrides'), {
    type: ['object', 'null'],
    additionalProperties: { type: 'number' },
    description: 'Per-parameter learning-rate scales.',
    default: null,
  });
  assert.deepEqual(prop('bridge.training.config.TrainingConfig', 'timeout'), {
    type: 'number',
    description: 'Seconds to wait.',
    default: 60,
  });
  assert.deepEqual(prop('TransformerConfig', 'offload_modules'), {
    type: ['array', 'null'],
    items: { type: ['string', 'null'] },
    description: 'Modules whose activations are offloaded.',
    default: [],
  });
  assert.deepEqual(prop('LoRA', 'target_modules'), { type: 'array', items: { type: ['string', 'null'] }, default: ['linear_qkv'] });
});

test('generator: enums take names, str/int-mixin values, null and a serialized member; Callable and torch.dtype anything', () => {
  // AttnBackend is a plain Enum with int values: YAML's 1 is not AttnBackend.flash, the name is what launchers convert.
  assert.deepEqual(prop('TransformerConfig', 'attention_backend'), {
    anyOf: [{ type: ['string', 'null'], enum: ['flash', 'fused', 'auto', null] }, { $ref: '#/$defs/_target_' }],
    description: 'Attention kernel.',
    default: 'auto',
  });
  assert.deepEqual(prop('TransformerConfig', 'activation_func'), { description: 'Activation.', default: null });
  assert.deepEqual(prop('ModelParallelConfig', 'params_dtype'), { description: 'Dtype of the weights.' });
  assert.deepEqual(defs._target_!.required, ['_target_']);
});

test('generator: a subclass that narrows a base type widens it; one that only changes the default stays with the base', () => {
  // GPTModelProvider says Literal[...], LlamaModelProvider says str: a Llama config may hold any string there.
  assert.deepEqual(prop('GPTModelProvider', 'position_embedding_type').type, ['string', 'null']);
  assert.equal(prop('GPTModelProvider', 'position_embedding_type').enum, undefined);
  assert.equal(defs.LlamaModelProvider!.properties!.position_embedding_type, undefined);
  assert.equal(defs.GPTModelProvider!.properties!.num_layers, undefined, 'redeclared with the same type');
  assert.deepEqual(Object.keys(defs.LlamaModelProvider!.properties!), ['rotary_base']);
});

test('generator: __init__ keyword parameters that are no fields, described from Args:', () => {
  assert.deepEqual(prop('DatasetConfig', 'skip_mask'), {
    type: ['boolean', 'integer', 'null'],
    description: 'Let the attention backend build the mask.',
    default: true,
  });
  assert.deepEqual(prop('DatasetConfig', 'seq_length'), { type: 'integer', description: 'Sequence length.' });
});

test('generator: a registry of recipe names (@register, with the hyphenated spelling) joins the union', () => {
  assert.deepEqual(gen.properties!.mixed_precision, {
    anyOf: [
      { $ref: '#/$defs/mixed_precision' },
      { type: ['string', 'null'], enum: ['bf16_mixed', 'bf16-mixed', 'fp16_mixed', 'fp16-mixed', null] },
    ],
    description: 'A MixedPrecisionConfig, or the name of a recipe registered with @register in megatron.bridge.training.mixed_precision.',
    default: null,
  });
});

test('generator: releases — a field added, one removed, a default changed, a Literal widened', () => {
  assert.deepEqual(prop('TransformerConfig', 'mtp_num_layers')['x-releases'], ['1.1']);
  assert.deepEqual(prop('TransformerConfig', 'fp8_interval')['x-releases'], ['1.0']);
  assert.equal(prop('TransformerConfig', 'layernorm_epsilon').default, 1e-6);
  assert.deepEqual(prop('TransformerConfig', 'layernorm_epsilon')['x-releaseNotes'], { '1.0': { default: 1e-5 } });
  assert.deepEqual(defs['megatron.training.config.TrainingConfig']!['x-releases'], ['1.1']);
  assert.deepEqual(keyRelease(gen, ['model', 'mtp_num_layers'], '1.0'), { status: 'added-in', release: '1.1', releases: ['1.1'] });
  assert.deepEqual(keyRelease(gen, ['model', 'window_size'], '1.1'), {
    status: 'removed-in',
    release: '1.1',
    lastRelease: '1.0',
    releases: ['1.0'],
  });
  assert.equal(releaseSource(gen, '2.0'), undefined);
});

test('generator: deprecations from docstrings, and the section that replaces a deprecated field', () => {
  assert.equal(prop('TransformerConfig', 'fp8_interval').deprecated, true);
  assert.equal(prop('TransformerConfig', 'fp8_interval')['x-deprecatedMessage'], 'from TransformerEngine v1.8.0. This flag is ignored');
  const evalIters = prop('bridge.training.config.TrainingConfig', 'eval_iters');
  assert.equal(evalIters.deprecated, true);
  assert.equal(evalIters['x-deprecatedMessage'], 'in favor of ValidationConfig; use `validation.eval_iters`');
  assert.deepEqual(evalIters['x-releaseNotes'], { '1.0': { type: 'integer', default: 100 } });
});

test('generator: the overlay appends to descriptions, replaces types, and refuses a pointer the schema lacks', () => {
  const r = run({
    '': { 'x-interpreted': true },
    '/$defs/ModelParallelConfig/properties/tensor_model_parallel_size': { 'description+': 'TP·PP·CP divides the world (R1).', minimum: 1 },
    '/$defs/GPTModelProvider/properties/position_embedding_type': { type: 'string', enum: ['rope', 'yarn'] },
  });
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.schema!) as JsonSchema;
  const d = s.$defs as Record<string, JsonSchema>;
  assert.equal(s['x-interpreted'], true);
  assert.deepEqual(d.ModelParallelConfig!.properties!.tensor_model_parallel_size, {
    type: 'integer',
    description: 'Tensor-parallel size. TP·PP·CP divides the world (R1).',
    default: 1,
    minimum: 1,
  });
  assert.deepEqual(d.GPTModelProvider!.properties!.position_embedding_type!.type, 'string');
  assert.deepEqual(d.GPTModelProvider!.properties!.position_embedding_type!.enum, ['rope', 'yarn']);
  const bad = run({ '/$defs/ModelParallelConfig/properties/tensor_model_paralel_size': { minimum: 1 } });
  assert.equal(bad.status, 1);
  assert.equal(
    bad.stderr.trim(),
    'overlay pointers not in the generated schema:\n  /$defs/ModelParallelConfig/properties/tensor_model_paralel_size',
  );
});

// ---------------------------------------------------------------------------------------------
// The shipped schema on the real files

const SHIPPED = SCHEMAS['megatron-bridge'];

const bridgeFiles = [
  ...yamlFiles(join(CORPUS, 'Megatron-Bridge')).map((f) => ({ name: `corpus/${rel(CORPUS, f)}`, path: f })),
  ...wildSources()
    .filter((s) => s.kind === 'megatron-bridge')
    .map((s) => ({ name: `corpus-wild/${s.file}`, path: join(WILD, s.file) })),
];

const SCHEMA_CODES = new Set(['RL-SCHEMA', 'RL-UNKNOWN-KEY', 'RL-DEPRECATED', 'RL-ENUM-CASE', 'RL-NONE-STRING']);
const schemaFindings = (text: string) =>
  diagnose(text)
    .filter((d) => SCHEMA_CODES.has(d.code))
    .map((d) => `${d.severity} ${d.code} ${d.path}`);

/** The schema's warnings on the real files: each a real deprecation or a real near-miss (see the notes). */
const EXPECTED_BRIDGE: Record<string, string[]> = {
  // ENV_VARS beside the ConfigContainer fields is the launch scripts' own section (the schema knows it): nothing.
  'corpus-wild/Megatron-Bridge/DeepSeek-V3.yaml': [],
  // Serialized by an older Bridge: these hold values its recipes chose, not any release's default.
  'corpus-wild/Megatron-Bridge/deepseek_v3_pretrain_h100_fp8_sc_v2.yaml': ['warning RL-DEPRECATED model.moe_hybridep_num_sms'],
  'corpus-wild/Megatron-Bridge/llama3_70b_sft_gb200_fp8_mx_v1.yaml': ['warning RL-DEPRECATED model.cuda_graph_scope'],
  'corpus-wild/Megatron-Bridge/qwen3_235b_a22b_pretrain_gb200_nvfp4_v2.yaml': [
    'warning RL-DEPRECATED model.cuda_graph_scope',
    'warning RL-DEPRECATED model.moe_hybridep_num_sms',
  ],
  // enable_cuda_graph: true, which megatron-core replaced by cuda_graph_impl.
  'corpus-wild/Megatron-Bridge/llama3_8b_pretrain_overrides.yaml': ['warning RL-DEPRECATED model.enable_cuda_graph'],
};

test('every real Megatron-Bridge file of the corpora: 4 in corpus, 20 in corpus-wild (wan_1_3B.yaml is a diffusion config)', () => {
  assert.equal(bridgeFiles.length, 24);
});

for (const f of bridgeFiles) {
  test(`${f.name}: no schema error, exactly the expected schema warnings`, () => {
    assert.deepEqual(schemaFindings(readFileSync(f.path, 'utf8')), EXPECTED_BRIDGE[f.name] ?? []);
  });
}

test('the serialized dumps: the fields that were false errors before validate', () => {
  const dump = readFileSync(join(WILD, 'Megatron-Bridge/deepseek_v3_pretrain_h100_fp8_sc_v2.yaml'), 'utf8');
  assert.match(dump, /\n {2}batch_p2p_comm: null\n/);
  assert.match(dump, /\n {2}manual_gc_eval: 5\n/);
  assert.match(dump, /\n {2}lr_wsd_decay_style: minus_sqrt\n/);
  assert.match(dump, /\n {2}offload_modules: null\n/);
  assert.match(dump, /\n {2}suggested_communication_unit_size: null\n/);
  assert.deepEqual(
    diagnose(dump).filter((d) => d.code === 'RL-SCHEMA'),
    [],
  );
});

// ---------------------------------------------------------------------------------------------
// Real mistakes are still caught

const findings = (text: string) => diagnose(text).map((d) => [d.severity, d.code, d.path, d.message]);

test('typos and real type errors: exact codes, paths and messages', () => {
  const text = [
    'model:',
    '  tensor_model_parallel_size: 0',
    '  tensor_model_paralel_size: 2',
    '  recompute_granularity: ful',
    '  attention_backend: flsh',
    '  moe_layer_freq: "[0]*3 + [1]*58"',
    '  seq_length: 4096',
    'train:',
    '  micro_batch_size: "4"',
    '  global_batch_size: 8',
    'scheduler:',
    '  lr_wsd_decay_style: sqrt',
    'optimizer:',
    '  lr: high',
    'dataset:',
    '  seq_length: 4096',
    '',
  ].join('\n');
  assert.deepEqual(findings(text), [
    ['error', 'RL-SCHEMA', 'model.tensor_model_parallel_size', '`tensor_model_parallel_size` must be an integer ≥ 1, got 0'],
    [
      'warning',
      'RL-UNKNOWN-KEY',
      'model.tensor_model_paralel_size',
      'unknown key `tensor_model_paralel_size` in `model`; did you mean `tensor_model_parallel_size`?',
    ],
    ['error', 'RL-SCHEMA', 'model.recompute_granularity', '`recompute_granularity` must be one of "full", "selective", null; got "ful"'],
    // One error, the enum's: the serialized-member alternative (a mapping) is for another kind of value.
    [
      'error',
      'RL-SCHEMA',
      'model.attention_backend',
      '`attention_backend` must be one of "flash", "fused", "unfused", "local", "auto", null; got "flsh"',
    ],
    ['error', 'RL-SCHEMA', 'model.moe_layer_freq', '`moe_layer_freq` must match pattern "^[,\\d\\[\\]()+*]+$", got "[0]*3 + [1]*58"'],
    ['error', 'RL-SCHEMA', 'train.micro_batch_size', '`micro_batch_size` must be an integer or null, got the string "4"'],
    [
      'error',
      'RL-SCHEMA',
      'scheduler.lr_wsd_decay_style',
      '`lr_wsd_decay_style` must be one of "exponential", "linear", "cosine", "minus_sqrt"; got "sqrt"',
    ],
    ['error', 'RL-SCHEMA', 'optimizer.lr', '`lr` must be a number or null, got the string "high"'],
  ]);
});

test('a misspelled recipe name gets the registered spelling; a section that is not a mapping is one error', () => {
  const ds = findings('mixed_precision: bf16_mixd\ntrain:\n  micro_batch_size: 1\nmodel: 4\n');
  assert.deepEqual(
    ds.map((d) => d.slice(0, 3)),
    [
      ['error', 'RL-SCHEMA', 'mixed_precision'],
      ['error', 'RL-SCHEMA', 'model'],
    ],
  );
  assert.match(ds[0]![3] as string, /; got "bf16_mixd" \(did you mean "bf16_mixed"\?\)$/);
  assert.equal(ds[1]![3], '`model` must be a mapping, got the integer 4');
});

test('accepted: Python truthiness and null where NVIDIA writes them, the model-zoo spellings, any _target_ class', () => {
  const text = [
    'model:',
    '  _target_: my_company.models.MyProvider',
    '  sequence_parallel: 1',
    '  moe_layer_freq: "[0]*3+[1]*58"',
    '  recompute_modules: core_attn,mlp',
    '  attention_backend: null',
    '  params_dtype:',
    '    _target_: torch.bfloat16',
    '    _call_: false',
    '  seq_length: 4096',
    'train:',
    '  manual_gc_eval: 100',
    '  micro_batch_size: 1',
    'mixed_precision:',
    '  fp8_recipe: null',
    'comm_overlap:',
    '  tp_comm_overlap: false',
    '  batch_p2p_comm: null',
    'dataset:',
    '  seq_length: 4096',
    '',
  ].join('\n');
  assert.deepEqual(findings(text), []);
});

test('deprecated keys: reported where chosen, not where a serialized config holds a release default', () => {
  assert.deepEqual(findings('model:\n  enable_cuda_graph: true\n  seq_length: 128\ntrain:\n  micro_batch_size: 1\n'), [
    ['warning', 'RL-DEPRECATED', 'model.enable_cuda_graph', '`enable_cuda_graph` is deprecated: replaced by cuda_graph_impl'],
  ]);
  // A dump (`_target_`) holding 0.5's default 20, and one holding a value someone chose.
  const dump = (v: number) =>
    `model:\n  _target_: megatron.bridge.models.gpt_provider.GPTModelProvider\n  moe_deepep_num_sms: ${v}\ntrain:\n  micro_batch_size: 1\n`;
  assert.deepEqual(findings(dump(20)), []);
  assert.deepEqual(
    findings(dump(24)).map((d) => d.slice(0, 3)),
    [['warning', 'RL-DEPRECATED', 'model.moe_deepep_num_sms']],
  );
  // train.eval_iters: Bridge 0.6 copies it to validation with a warning, NVIDIA's tutorials still write it: described,
  // not reported.
  assert.deepEqual(findings('train:\n  eval_iters: 10\n  micro_batch_size: 1\nmodel:\n  seq_length: 128\n'), []);
  assert.match(propertyInfo('megatron-bridge', ['train', 'eval_iters'])!.description!, /copies it to validation\.eval_iters/);
});

// ---------------------------------------------------------------------------------------------
// Hover, completion and releases on the shipped schema

test('hover and completion see every model provider, with the rule notes of the overlay', () => {
  const tp = propertyInfo('megatron-bridge', ['model', 'tensor_model_parallel_size'])!;
  assert.deepEqual([tp.types, tp.default, tp.minimum], [['integer'], 1, 1]);
  assert.match(tp.description!, /World size must be divisible by TP·PP·CP \(R1\)/);
  const keys = knownKeys('megatron-bridge', ['model']);
  assert.equal(keys.closed, false);
  for (const k of ['seq_length', 'num_moe_experts', 'q_lora_rank', 'hybrid_override_pattern', 'vision_config', 'encoder_num_layers'])
    assert.ok(keys.keys.has(k), k);
  assert.deepEqual(SHIPPED['x-releases'], ['0.2', '0.3', '0.4', '0.5', '0.6']);
  assert.deepEqual(keyRelease(SHIPPED, ['validation', 'eval_iters'], '0.3'), {
    status: 'added-in',
    release: '0.4',
    releases: ['0.4', '0.5', '0.6'],
  });
});

// ---------------------------------------------------------------------------------------------
// The run-time validator

test('the interpreted validator refuses a keyword it does not apply, and applies every keyword of the shipped schema', () => {
  assert.throws(() => checkKeywords({ type: 'object', dependentRequired: { a: ['b'] } }), /keyword "dependentRequired" is not supported/);
  assert.throws(
    () => checkKeywords({ properties: { a: { unevaluatedProperties: false } } }),
    /#\/properties\/a: keyword "unevaluatedProperties"/,
  );
  checkKeywords(SHIPPED);
});

test('the interpreted validator agrees with Ajv on every real Bridge file and on mutations of them', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const ajvValidate = ajv.compile(SHIPPED);
  const mine = interpretSchema(SHIPPED);
  const key = (e: { instancePath: string; keyword: string; params: unknown }) =>
    `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`;
  // Wrong-kind values at every level: a string, a list, a mapping, a negative number.
  const wrong: unknown[] = ['x', [1], { a: 1 }, -1, null];
  let checked = 0;
  let invalid = 0;
  for (const f of bridgeFiles) {
    const doc = parseFile(readFileSync(f.path, 'utf8')).docs[0]!;
    const base = doc.detection.base;
    const data = toData(doc, base.length ? lookup(doc.root, base)!.node : doc.root, base) as Record<string, unknown>;
    const variants: unknown[] = [data];
    let i = 0;
    for (const [section, body] of Object.entries(data)) {
      if (!body || typeof body !== 'object' || Array.isArray(body)) continue;
      for (const k of Object.keys(body).slice(0, 12)) {
        const v = structuredClone(data);
        (v[section] as Record<string, unknown>)[k] = wrong[i++ % wrong.length];
        variants.push(v);
      }
    }
    for (const v of variants) {
      const ok = ajvValidate(v);
      const a = new Set((ajvValidate.errors ?? []).map(key));
      const okMine = mine(v);
      const m = (mine.errors ?? []).map(key);
      assert.equal(okMine, ok, f.name);
      for (const e of m) assert.ok(a.has(e), `${f.name}: ${e} is an Ajv error too`);
      // Every place Ajv finds wrong, the interpreter finds wrong (it leaves out only the other-kind anyOf branches).
      const paths = (errs: Iterable<string>) => [...new Set([...errs].map((e) => e.split(' ')[0]))].sort();
      assert.deepEqual(paths(m), paths(a), f.name);
      checked++;
      if (!ok) invalid++;
    }
  }
  assert.ok(checked > 300, `${checked} documents`);
  assert.ok(invalid > 100, `${invalid} invalid`);
});
