// A JSON Schema validator that reads the schema at run time instead of compiling it to code, for the schemas
// generated from thousands of dataclass fields (megatron-bridge.schema.json: every model provider's, optimizer's,
// checkpoint's… field of five releases). Ajv's standalone code for such a schema is several megabytes — about
// 500 bytes per property — while the schema itself is bundled anyway for hover and completion; reading it costs
// nothing more. A schema opts in with `"x-interpreted": true` on its root; scripts/compile-schemas.mjs then
// leaves it out of gen/validators.js.
//
// The errors have Ajv's shape (instancePath, schemaPath, keyword, params, message), so schemaCheck.ts maps them the
// same way, and it is tested against Ajv on the same schema and documents (test/core/schemaInterpret.test.ts).
// One difference, on purpose: when no branch of an `anyOf` accepts a value, the errors of the branches written for
// that kind of value are reported (a string against [an enum of strings, a serialized-object mapping] gives the enum
// error, not "must be object"); only when no branch is for that kind are all reported. Ajv reports every branch.
import type { AjvError, ValidateFn } from '../../gen/validators.js';
import type { JsonSchema } from './schemaNav.js';

/** Keywords this validator applies. */
const APPLIED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
]);
/** Keywords that say something to people or tools but constrain nothing. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$defs',
  '$comment',
  'title',
  'description',
  'markdownDescription',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Throws on a keyword the validator does not apply, so a schema can never be silently half-checked. */
export function checkKeywords(schema: unknown, where = '#'): void {
  if (typeof schema === 'boolean') return;
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw new Error(`${where}: a schema must be an object or a boolean`);
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (k.startsWith('x-') || ANNOTATIONS.has(k)) {
      if (k === '$defs') for (const [n, d] of Object.entries(v as Record<string, unknown>)) checkKeywords(d, `${where}/$defs/${n}`);
      continue;
    }
    if (!APPLIED.has(k)) throw new Error(`${where}: keyword "${k}" is not supported by the interpreted validator`);
    if (k === 'properties' || k === 'patternProperties')
      for (const [n, d] of Object.entries(v as Record<string, unknown>)) checkKeywords(d, `${where}/${k}/${n}`);
    else if (k === 'allOf' || k === 'anyOf' || k === 'oneOf' || k === 'prefixItems')
      (v as unknown[]).forEach((d, i) => checkKeywords(d, `${where}/${k}/${i}`));
    else if (['additionalProperties', 'items', 'not', 'if', 'then', 'else'].includes(k)) checkKeywords(v, `${where}/${k}`);
  }
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function hasType(v: unknown, t: string): boolean {
  switch (t) {
    case 'null':
      return v === null;
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    default:
      return false;
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => equal(x, (b as unknown[])[i]));
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  return ka.length === Object.keys(rb).length && ka.every((k) => own(rb, k) && equal(ra[k], rb[k]));
}

const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

interface Run {
  /** Results of `$ref` targets per instance location: a definition reached through many `allOf`s is checked once. */
  refs: Map<string, Map<JsonSchema, AjvError[]>>;
}

/** A validator with Ajv's calling convention for `root` (its `$ref`s are `#/…` pointers into `root`). */
export function interpretSchema(root: JsonSchema): ValidateFn {
  checkKeywords(root);
  const patterns = new Map<string, RegExp>();
  const pattern = (re: string) => {
    let r = patterns.get(re);
    if (!r) patterns.set(re, (r = new RegExp(re, 'u')));
    return r;
  };
  const targets = new Map<string, JsonSchema>();
  const target = (ref: string): JsonSchema => {
    let t = targets.get(ref);
    if (t) return t;
    if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, got ${ref}`);
    let cur: unknown = root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      cur = isObject(cur) ? cur[seg] : undefined;
    }
    if (!isObject(cur) && typeof cur !== 'boolean') throw new Error(`unresolvable $ref ${ref}`);
    t = cur as JsonSchema;
    targets.set(ref, t);
    return t;
  };

  const check = (s: JsonSchema | boolean, data: unknown, path: string, spath: string, run: Run, out: AjvError[]): void => {
    if (s === true) return;
    if (s === false) {
      out.push({ instancePath: path, schemaPath: spath, keyword: 'false schema', params: {}, message: 'boolean schema is false' });
      return;
    }
    if (s.$ref !== undefined) {
      const t = target(s.$ref);
      let byPath = run.refs.get(path);
      if (!byPath) run.refs.set(path, (byPath = new Map()));
      let errs = byPath.get(t);
      if (!errs) {
        errs = [];
        byPath.set(t, errs);
        check(t, data, path, s.$ref, run, errs);
      }
      out.push(...errs);
    }
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (!types.some((t) => hasType(data, t)))
        out.push({
          instancePath: path,
          schemaPath: `${spath}/type`,
          keyword: 'type',
          params: { type: s.type },
          message: `must be ${types.join(',')}`,
        });
    }
    if (s.enum !== undefined && !s.enum.some((v) => equal(v, data)))
      out.push({
        instancePath: path,
        schemaPath: `${spath}/enum`,
        keyword: 'enum',
        params: { allowedValues: s.enum },
        message: 'must be equal to one of the allowed values',
      });
    if (s.const !== undefined && !equal(s.const, data))
      out.push({
        instancePath: path,
        schemaPath: `${spath}/const`,
        keyword: 'const',
        params: { allowedValue: s.const },
        message: 'must be equal to constant',
      });
    if (typeof data === 'number') {
      const bound = (kw: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum', ok: (l: number) => boolean, cmp: string) => {
        const l = s[kw];
        if (typeof l === 'number' && !ok(l))
          out.push({
            instancePath: path,
            schemaPath: `${spath}/${kw}`,
            keyword: kw,
            params: { comparison: cmp, limit: l },
            message: `must be ${cmp} ${l}`,
          });
      };
      bound('minimum', (l) => data >= l, '>=');
      bound('maximum', (l) => data <= l, '<=');
      bound('exclusiveMinimum', (l) => data > l, '>');
      bound('exclusiveMaximum', (l) => data < l, '<');
    }
    if (typeof data === 'string') {
      const len = [...data].length;
      if (typeof s.minLength === 'number' && len < s.minLength)
        out.push({
          instancePath: path,
          schemaPath: `${spath}/minLength`,
          keyword: 'minLength',
          params: { limit: s.minLength },
          message: `must NOT have fewer than ${s.minLength} characters`,
        });
      if (typeof s.maxLength === 'number' && len > s.maxLength)
        out.push({
          instancePath: path,
          schemaPath: `${spath}/maxLength`,
          keyword: 'maxLength',
          params: { limit: s.maxLength },
          message: `must NOT have more than ${s.maxLength} characters`,
        });
      if (typeof s.pattern === 'string' && !pattern(s.pattern).test(data))
        out.push({
          instancePath: path,
          schemaPath: `${spath}/pattern`,
          keyword: 'pattern',
          params: { pattern: s.pattern },
          message: `must match pattern "${s.pattern}"`,
        });
    }
    if (Array.isArray(data)) {
      if (typeof s.minItems === 'number' && data.length < s.minItems)
        out.push({
          instancePath: path,
          schemaPath: `${spath}/minItems`,
          keyword: 'minItems',
          params: { limit: s.minItems },
          message: `must NOT have fewer than ${s.minItems} items`,
        });
      if (typeof s.maxItems === 'number' && data.length > s.maxItems)
        out.push({
          instancePath: path,
          schemaPath: `${spath}/maxItems`,
          keyword: 'maxItems',
          params: { limit: s.maxItems },
          message: `must NOT have more than ${s.maxItems} items`,
        });
      const prefix = s.prefixItems ?? [];
      prefix.forEach((ps, i) => {
        if (i < data.length) check(ps, data[i], `${path}/${i}`, `${spath}/prefixItems/${i}`, run, out);
      });
      if (s.items !== undefined)
        for (let i = prefix.length; i < data.length; i++)
          check(s.items as JsonSchema | boolean, data[i], `${path}/${i}`, `${spath}/items`, run, out);
    }
    if (isObject(data)) {
      for (const r of (s.required as string[] | undefined) ?? [])
        if (!own(data, r))
          out.push({
            instancePath: path,
            schemaPath: `${spath}/required`,
            keyword: 'required',
            params: { missingProperty: r },
            message: `must have required property '${r}'`,
          });
      const props = s.properties;
      const pats = s.patternProperties;
      const extra = s.additionalProperties;
      if (props && !pats && extra === undefined) {
        // Only the declared keys are checked: walk the smaller side (a class of a few fields against a
        // serialized model section of hundreds of keys is most of a validation).
        const names = Object.keys(props);
        const keys = Object.keys(data);
        for (const k of names.length < keys.length ? names : keys)
          if (own(props, k) && own(data, k))
            check(props[k]!, data[k], `${path}/${escape(k)}`, `${spath}/properties/${escape(k)}`, run, out);
      } else if (props || pats || extra !== undefined)
        for (const k of Object.keys(data)) {
          let known = false;
          if (props && own(props, k)) {
            known = true;
            check(props[k]!, data[k], `${path}/${escape(k)}`, `${spath}/properties/${escape(k)}`, run, out);
          }
          if (pats)
            for (const [re, ps] of Object.entries(pats))
              if (pattern(re).test(k)) {
                known = true;
                check(ps, data[k], `${path}/${escape(k)}`, `${spath}/patternProperties/${escape(re)}`, run, out);
              }
          if (!known && extra !== undefined) {
            if (extra === false)
              out.push({
                instancePath: path,
                schemaPath: `${spath}/additionalProperties`,
                keyword: 'additionalProperties',
                params: { additionalProperty: k },
                message: 'must NOT have additional properties',
              });
            else check(extra, data[k], `${path}/${escape(k)}`, `${spath}/additionalProperties`, run, out);
          }
        }
    }
    s.allOf?.forEach((sub, i) => check(sub, data, path, `${spath}/allOf/${i}`, run, out));
    if (s.anyOf) {
      const failed: AjvError[][] = [];
      let ok = false;
      for (let i = 0; i < s.anyOf.length && !ok; i++) {
        const errs: AjvError[] = [];
        check(s.anyOf[i]!, data, path, `${spath}/anyOf/${i}`, run, errs);
        if (errs.length === 0) ok = true;
        else failed.push(errs);
      }
      if (!ok) {
        // A branch that rejects the value's kind outright (a type error where the value sits) was written for
        // another kind of value; the branches for this kind say what is wrong.
        const forKind = failed.filter((errs) => !errs.some((e) => e.keyword === 'type' && e.instancePath === path));
        for (const errs of forKind.length ? forKind : failed) out.push(...errs);
        out.push({
          instancePath: path,
          schemaPath: `${spath}/anyOf`,
          keyword: 'anyOf',
          params: {},
          message: 'must match a schema in anyOf',
        });
      }
    }
    if (s.oneOf) {
      const passing: number[] = [];
      const failed: AjvError[] = [];
      s.oneOf.forEach((sub, i) => {
        const errs: AjvError[] = [];
        check(sub, data, path, `${spath}/oneOf/${i}`, run, errs);
        if (errs.length === 0) passing.push(i);
        else failed.push(...errs);
      });
      if (passing.length !== 1) {
        if (passing.length === 0) out.push(...failed);
        out.push({
          instancePath: path,
          schemaPath: `${spath}/oneOf`,
          keyword: 'oneOf',
          params: { passingSchemas: passing.length ? passing : null },
          message: 'must match exactly one schema in oneOf',
        });
      }
    }
    if (s.not !== undefined) {
      const errs: AjvError[] = [];
      check(s.not as JsonSchema | boolean, data, path, `${spath}/not`, run, errs);
      if (errs.length === 0)
        out.push({ instancePath: path, schemaPath: `${spath}/not`, keyword: 'not', params: {}, message: 'must NOT be valid' });
    }
    if (s.if !== undefined) {
      const errs: AjvError[] = [];
      check(s.if as JsonSchema | boolean, data, path, `${spath}/if`, run, errs);
      const branch = errs.length === 0 ? 'then' : 'else';
      const sub = s[branch] as JsonSchema | boolean | undefined;
      if (sub !== undefined) {
        const berrs: AjvError[] = [];
        check(sub, data, path, `${spath}/${branch}`, run, berrs);
        if (berrs.length) {
          out.push(...berrs);
          out.push({
            instancePath: path,
            schemaPath: `${spath}/if`,
            keyword: 'if',
            params: { failingKeyword: branch },
            message: `must match "${branch}" schema`,
          });
        }
      }
    }
  };

  const validate = ((data: unknown) => {
    const out: AjvError[] = [];
    check(root, data, '', '#', { refs: new Map() }, out);
    // A definition reached through several `allOf`s reports its errors once.
    const seen = new Set<string>();
    const errors = out.filter((e) => {
      const k = `${e.instancePath}\0${e.keyword}\0${JSON.stringify(e.params)}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    validate.errors = errors.length ? errors : null;
    return errors.length === 0;
  }) as ValidateFn;
  return validate;
}
