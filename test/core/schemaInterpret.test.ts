// The run-time validator (src/core/schemaInterpret.ts) against Ajv on a schema that uses every keyword it applies, and
// its one intended difference: a failed anyOf reports the branches written for the value's kind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { interpretSchema } from '../../src/core/schemaInterpret.js';
import type { JsonSchema } from '../../src/core/schemaNav.js';

const SCHEMA: JsonSchema = {
  $id: 'https://example.test/all.json',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
    size: { type: 'integer', minimum: 1, maximum: 8 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    mode: { enum: ['a', 'b', null] },
    fixed: { const: 3 },
    pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], minItems: 2, maxItems: 2 },
    list: { type: 'array', items: { $ref: '#/$defs/small' }, minItems: 1 },
    closed: { type: 'object', properties: { x: { type: 'boolean' } }, additionalProperties: false },
    typed: { type: 'object', patternProperties: { '^n_': { type: 'integer' } }, additionalProperties: { type: 'string' } },
    one: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 10 }] },
    never: { not: { type: 'string' } },
    cond: { if: { type: 'string' }, then: { minLength: 3 }, else: { type: 'integer' } },
    both: { allOf: [{ $ref: '#/$defs/small' }, { minimum: 2 }] },
  },
  $defs: { small: { type: 'integer', maximum: 100 } },
};

const DATA: unknown[] = [
  { name: 'ab' },
  {},
  { name: 'Abcdefg', size: 0, ratio: 1, mode: 'c', fixed: 4 },
  { name: 'ok', pair: [1, 2], list: [], closed: { x: 1, y: 2 }, typed: { n_a: 'x', other: 3 } },
  { name: 'ok', one: 12, never: 'x', cond: 'ab', both: 1 },
  { name: 'ok', one: 3, never: 4, cond: 1.5, both: 200, list: [1, 101, 'x'] },
  { name: 'ok', cond: 7, pair: [1, 'a', 3] },
  'not an object',
];

test('the interpreted validator reports what Ajv reports, keyword for keyword', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false }).compile(SCHEMA);
  const mine = interpretSchema(SCHEMA);
  const key = (e: { instancePath: string; keyword: string; params: unknown }) =>
    `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`;
  for (const d of DATA) {
    const ok = ajv(d);
    assert.equal(mine(d), ok, JSON.stringify(d));
    assert.deepEqual((mine.errors ?? []).map(key).sort(), (ajv.errors ?? []).map(key).sort(), JSON.stringify(d));
  }
});

test('a failed anyOf reports the branches for the value’s kind; with none for its kind, every branch', () => {
  const v = interpretSchema({
    anyOf: [
      { type: 'string', enum: ['flash', 'auto'] },
      { type: 'object', required: ['_target_'] },
    ],
  });
  assert.equal(v('flsh'), false);
  assert.deepEqual(
    v.errors!.map((e) => [e.instancePath, e.keyword]),
    [
      ['', 'enum'],
      ['', 'anyOf'],
    ],
  );
  assert.equal(v(3), false);
  assert.deepEqual(
    v.errors!.map((e) => [e.keyword, e.params]),
    [
      ['type', { type: 'string' }],
      ['enum', { allowedValues: ['flash', 'auto'] }],
      ['type', { type: 'object' }],
      ['anyOf', {}],
    ],
  );
  assert.equal(v({ _target_: 'torch.bfloat16' }), true);
});

test('a definition reached through several allOfs is checked once and reports once', () => {
  const v = interpretSchema({
    allOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/b' }],
    $defs: {
      base: { properties: { n: { type: 'integer' } } },
      a: { allOf: [{ $ref: '#/$defs/base' }] },
      b: { allOf: [{ $ref: '#/$defs/base' }] },
    },
  });
  assert.equal(v({ n: 'x' }), false);
  assert.deepEqual(v.errors, [
    {
      instancePath: '/n',
      schemaPath: '#/$defs/base/properties/n/type',
      keyword: 'type',
      params: { type: 'integer' },
      message: 'must be integer',
    },
  ]);
});
