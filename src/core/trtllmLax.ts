// pydantic v2's lax mode, for the TensorRT-LLM formats: TensorRT-LLM reads its YAML with `yaml.safe_load` and hands
// the result to pydantic models in the default (lax) mode, which converts some values to the field's type before
// validating. PyYAML reads `9e-1` as the string "9e-1" (YAML 1.1 floats need a dot) and pydantic parses it for a float
// field; a quoted '8' is an int for an int field, 'yes' a bool for a bool field. The schema names the field's type,
// so the data is converted here, exactly as pydantic would, before the schema judges it — and a string pydantic would
// not convert stays a string, for the schema to reject.
// Sources: pydantic docs, "Conversion Table" (docs.pydantic.dev/latest/concepts/conversion_table/) and "Standard
// Library Types" (bool: "a string which when converted to lowercase is one of '0', 'off', 'f', 'false', 'n', 'no',
// '1', 'on', 't', 'true', 'y', 'yes'"; int: from str "must be numeric only", from float "must be exact int"; strict
// types StrictInt/StrictFloat/StrictBool convert nothing — schema keyword `x-strict`).
import { infoOf, locateChild, type Located } from './schemaNav.js';

/** One lax-mode conversion rule, as the test table and hover name it. */
export type LaxRule = 'int-from-str' | 'int-from-bool' | 'float-from-str' | 'float-from-bool' | 'bool-from-str' | 'bool-from-number';

const BOOL_STRINGS: Record<string, boolean> = {
  '0': false,
  off: false,
  f: false,
  false: false,
  n: false,
  no: false,
  '1': true,
  on: true,
  t: true,
  true: true,
  y: true,
  yes: true,
};

// pydantic-core parses an int string after trimming whitespace: an optional sign and decimal digits, `_` allowed
// between digits as in Python's int(); a zero fraction (`8.0`) is the exact int 8.
const INT_STRING = /^[+-]?\d+(?:_\d+)*(?:\.0*)?$/;
// A float string: what Python's float() reads — decimal with optional fraction and exponent, or inf / infinity / nan.
const FLOAT_STRING = /^[+-]?(?:(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?|inf(?:inity)?|nan)$/i;

/** The value pydantic's lax mode makes of `v` for a field of JSON type `type` (`undefined`: no conversion). */
export function laxValue(v: unknown, type: 'integer' | 'number' | 'boolean'): { value: unknown; rule: LaxRule } | undefined {
  if (type === 'boolean') {
    if (typeof v === 'string') {
      const b = BOOL_STRINGS[v.toLowerCase()];
      return b === undefined ? undefined : { value: b, rule: 'bool-from-str' };
    }
    if (v === 0 || v === 1) return { value: v === 1, rule: 'bool-from-number' };
    return undefined;
  }
  if (typeof v === 'boolean') return { value: v ? 1 : 0, rule: type === 'integer' ? 'int-from-bool' : 'float-from-bool' };
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (type === 'integer') {
    if (!INT_STRING.test(s)) return undefined;
    const n = Number(s.replace(/_/g, '').replace(/\.0*$/, ''));
    return Number.isFinite(n) ? { value: n, rule: 'int-from-str' } : undefined;
  }
  if (!FLOAT_STRING.test(s)) return undefined;
  const t = s.replace(/_/g, '').toLowerCase();
  // JSON has no infinity: ±inf stands as the largest double, which every bound the schema sets still compares right
  // (`le: 1` rejects it, as pydantic does). nan is returned as NaN for the caller to place.
  const n = t.includes('nan') ? NaN : t.includes('inf') ? (t.startsWith('-') ? -Number.MAX_VALUE : Number.MAX_VALUE) : Number(t);
  return { value: n, rule: 'float-from-str' };
}

const strict = (locs: readonly Located[]) => locs.some((l) => l.schema['x-strict'] === true);

/**
 * Converts, in place, the values of `data` (located by `locs`) that pydantic's lax mode would convert: a string (or
 * bool, or 0/1) where the schema allows a number, an integer or a boolean but no string. Returns the data (a scalar
 * at the top is returned converted).
 */
export function coerceLax(data: unknown, locs: readonly Located[]): unknown {
  if (!locs.length) return data;
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) data[i] = coerceLax(data[i], locateChild(locs, i));
    return data;
  }
  if (data && typeof data === 'object') {
    const o = data as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = coerceLax(o[k], locateChild(locs, k));
    return data;
  }
  if (data === null || (typeof data === 'number' && Number.isInteger(data) && data !== 0 && data !== 1)) return data;
  const info = infoOf(locs);
  if (!info || !info.types.length || strict(locs)) return data;
  const types = info.types;
  const accepts = (t: string) => types.includes(t) || (t === 'integer' && types.includes('number'));
  // A value the schema already takes as it is needs no conversion (a string for a str field, a bool for a bool).
  if (typeof data === 'string' && types.includes('string')) return data;
  if (typeof data === 'boolean' && types.includes('boolean')) return data;
  if (typeof data === 'number' && accepts(Number.isInteger(data) ? 'integer' : 'number')) return data;
  for (const t of ['integer', 'number', 'boolean'] as const) {
    if (!types.includes(t)) continue;
    const hit = laxValue(data, t);
    if (!hit) continue;
    // nan passes a float field without bounds and fails every bound (pydantic compares it false): 0 stands for it where
    // nothing is compared, and the string stays (and is reported) where something is.
    if (Number.isNaN(hit.value)) {
      const bounded = [info.minimum, info.maximum, info.exclusiveMinimum, info.exclusiveMaximum].some((b) => b !== undefined);
      return bounded ? data : 0;
    }
    return hit.value;
  }
  return data;
}
