// The Megatron-LM schema: the generator (scripts/bridge-schema/megatron_lm.py) on a small fake arguments.py of two
// releases, one test per construct it reads; the shipped schema on every real Megatron-LM file of the corpora; and the
// values argparse would reject, with exact codes, paths and messages.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { propertyInfo, SCHEMAS, type JsonSchema } from '../../src/core/schemaNav.js';
import { keyRelease, schemaReleases } from '../../src/core/trtllmReleases.js';
import { diagnose, REPO, WILD, wildSources } from '../helpers.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'megatron-lm-src');
const GENERATOR = join(REPO, 'scripts', 'bridge-schema', 'megatron_lm.py');

function run(): { status: number | null; stderr: string; schema: string } {
  const out = mkdtempSync(join(tmpdir(), 'megatron-lm-schema-'));
  try {
    const r = spawnSync(
      'python3',
      [
        GENERATOR,
        ...['--src', join(FIXTURE, 'r1'), '--release', '1.0', '--commit', 'a'.repeat(40)],
        ...['--src', join(FIXTURE, 'r2'), '--release', '1.1', '--commit', 'b'.repeat(40)],
        ...['--out', join(out, 'schema.json')],
      ],
      { encoding: 'utf8' },
    );
    return { status: r.status, stderr: r.stderr, schema: readFileSync(join(out, 'schema.json'), 'utf8') };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const first = run();
const gen = JSON.parse(first.schema) as JsonSchema;
const flags = gen.properties!.MODEL_ARGS!.properties!;

test('generator: deterministic; the value kinds are defined once', () => {
  assert.equal(first.status, 0, first.stderr);
  assert.equal(run().schema, first.schema);
  assert.deepEqual(schemaReleases(gen), ['1.0', '1.1']);
  assert.deepEqual(gen['x-source'], { '1.0': 'a'.repeat(40), '1.1': 'b'.repeat(40) });
  assert.deepEqual(Object.keys(gen.$defs as object), ['switch', 'int', 'float', 'text']);
  assert.deepEqual((gen.$defs as Record<string, JsonSchema>).float, {
    type: ['number', 'string'],
    pattern: '^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?\\s*$',
    description: 'A number (type=float); the text of one works too.',
  });
});

test('generator: add_argument — type, choices, nargs, a converter function, %(default)s', () => {
  assert.deepEqual(flags['--num-layers'], { $ref: '#/$defs/int', description: 'Number of transformer layers.' });
  assert.deepEqual(flags['--hidden-dropout'], {
    $ref: '#/$defs/float',
    description: 'Dropout probability for hidden state transformer.',
    default: 0.1,
  });
  assert.deepEqual(flags['--data-path'], {
    anyOf: [{ $ref: '#/$defs/text' }, { type: 'array', items: { $ref: '#/$defs/text' } }],
    description: 'Weights and prefixes.',
  });
  assert.deepEqual(flags['--moe-layer-freq'], { description: 'Frequency of MoE layers (default 1).', default: 1 });
  // choices=list(AttnBackend): argparse compares the converted value with the members, the YAML names them.
  assert.deepEqual(flags['--backend'], { type: 'string', enum: ['flash', 'auto'], description: 'Attention backend.' });
});

test('generator: switches — store_true, store_false, BooleanOptionalAction with its --no- spelling', () => {
  assert.deepEqual(flags['--bf16'], { $ref: '#/$defs/switch', description: 'Run in bf16.' });
  assert.deepEqual(flags['--no-masked-softmax-fusion'], { $ref: '#/$defs/switch', description: 'Disable the fusion.' });
  assert.deepEqual(flags['--no-log-to-wandb'], { $ref: '#/properties/MODEL_ARGS/properties/--log-to-wandb' });
});

test('generator: ArgumentGroupFactory — fields become flags, with argparse_meta, exclude and init=False honoured', () => {
  // A function-local `from megatron.training.config import TrainingConfig`, an exclude list held in a variable.
  assert.deepEqual(flags['--micro-batch-size'], { $ref: '#/$defs/int', description: 'Batch size per model instance.' });
  assert.deepEqual(flags['--manual-gc'], { $ref: '#/$defs/switch', description: 'Collect garbage by hand.' });
  // A boolean that defaults to true is turned off by --no-x / --disable-x.
  assert.deepEqual(flags['--no-check-weights'], {
    $ref: '#/$defs/switch',
    description: 'Check the weights. Defaults to on, so the flag turns it off.',
  });
  assert.deepEqual(flags['--disable-check-weights'], { $ref: '#/properties/MODEL_ARGS/properties/--no-check-weights' });
  assert.equal(flags['--check-weights'], undefined);
  assert.deepEqual(flags['--decoder'], { type: 'string', enum: ['mha', 'mla'], description: 'Attention kind.', default: 'mha' });
  assert.deepEqual(flags['--attention-backend'], {
    type: 'string',
    enum: ['flash', 'auto'],
    description: 'Attention kernel.',
    default: 'auto',
  });
  assert.deepEqual(flags['--ranks'], {
    anyOf: [{ $ref: '#/$defs/int' }, { type: 'array', items: { $ref: '#/$defs/int' } }, { type: 'string' }],
    description: 'Ranks to profile.',
  });
  assert.deepEqual(flags['--norm-epsilon'], { $ref: '#/$defs/float', description: 'Epsilon.', default: 1e-5 });
  for (const gone of ['--layer-norm-eps', '--internal-counter', '--skipped']) assert.equal(flags[gone], undefined, gone);
});

test('generator: releases and deprecations', () => {
  assert.deepEqual(flags['--new-flag']!['x-releases'], ['1.1']);
  assert.deepEqual(flags['--old-flag']!['x-releases'], ['1.0']);
  assert.deepEqual(flags['--position-embedding-type']!['x-releaseNotes'], { '1.0': { enum: ['learned_absolute', 'rope'] } });
  assert.deepEqual(keyRelease(gen, ['MODEL_ARGS', '--new-flag'], '1.0'), { status: 'added-in', release: '1.1', releases: ['1.1'] });
  assert.equal(flags['--use-mcore-models']!.deprecated, true);
  assert.equal(
    flags['--use-mcore-models']!['x-deprecatedMessage'],
    'Use the implementation from megatron core. Now ignored and mcore models are the default.',
  );
});

// ---------------------------------------------------------------------------------------------
// The shipped schema

const SHIPPED = SCHEMAS['megatron-lm'];
const SCHEMA_CODES = new Set(['RL-SCHEMA', 'RL-UNKNOWN-KEY', 'RL-DEPRECATED', 'RL-ENUM-CASE', 'RL-NONE-STRING']);
const findings = (text: string) =>
  diagnose(text)
    .filter((d) => SCHEMA_CODES.has(d.code))
    .map((d) => [d.severity, d.code, d.path, d.message]);

test('the shipped schema: core 0.14-0.19, every flag of arguments.py, read at run time', () => {
  assert.deepEqual(SHIPPED['x-releases'], ['0.14', '0.15', '0.16', '0.17', '0.18', '0.19']);
  assert.equal(SHIPPED['x-interpreted'], true);
  const all = SHIPPED.properties!.MODEL_ARGS!.properties!;
  for (const f of [
    '--vocab-file',
    '--tokenizer-type',
    '--num-layers-per-virtual-pipeline-stage',
    '--no-overlap-p2p-communication',
    '--norm-epsilon',
  ])
    assert.ok(all[f], f);
  assert.match(
    propertyInfo('megatron-lm', ['MODEL_ARGS', '--tensor-model-parallel-size'])!.description!,
    /World size must be divisible by TP × PP × CP \(R1\)/,
  );
});

for (const s of wildSources().filter((w) => w.kind === 'megatron-lm')) {
  test(`corpus-wild/${s.file}: no schema error; --use-mcore-models is deprecated (Megatron-LM ignores it)`, () => {
    const text = readFileSync(join(WILD, s.file), 'utf8');
    assert.deepEqual(
      findings(text).map((f) => f.slice(0, 3)),
      text.includes('--use-mcore-models: true') ? [['warning', 'RL-DEPRECATED', 'MODEL_ARGS.--use-mcore-models']] : [],
    );
  });
}

test('values argparse rejects, near misses of real flags; unknown flags and ${VARS} pass', () => {
  const text = [
    'MODEL_ARGS:',
    '  --tensor-model-parallel-size: two',
    '  --use-distributed-optimizer: false',
    '  --fp8-format: e5m2',
    '  --num-layer: 32',
    '  --lr: 1e-4',
    '  --min-lr: 1.0e-5',
    '  --seq-length: ${SEQ_LEN}',
    '  --my-script-flag: 1',
    '  --hidden-size: 4096',
    '',
  ].join('\n');
  assert.deepEqual(findings(text), [
    [
      'error',
      'RL-SCHEMA',
      'MODEL_ARGS.--tensor-model-parallel-size',
      '`--tensor-model-parallel-size` must match pattern "^\\s*[+-]?\\d+\\s*$", got "two"',
    ],
    ['error', 'RL-SCHEMA', 'MODEL_ARGS.--use-distributed-optimizer', '`--use-distributed-optimizer` must be one of true; got false'],
    ['error', 'RL-SCHEMA', 'MODEL_ARGS.--fp8-format', '`--fp8-format` must be one of "e4m3", "hybrid"; got "e5m2"'],
    ['warning', 'RL-UNKNOWN-KEY', 'MODEL_ARGS.--num-layer', 'unknown key `--num-layer` in `MODEL_ARGS`; did you mean `--num-layers`?'],
  ]);
});
