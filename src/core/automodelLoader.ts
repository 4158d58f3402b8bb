// The values NeMo Automodel's loader makes of YAML strings: ConfigNode._wrap passes every string scalar (but `_target_`
// and `*_fn` keys, which name callables) through translate_value (nemo_automodel/components/config/loader.py at
// NVIDIA-NeMo/Automodel 36044ad): none / None → None, true / True → True, false / False → False, then
// ast.literal_eval, which reads Python int and float literals (`"2"`, `1e-8`, which PyYAML leaves a string). Container
// literals (`"[1, 2]"`) stay strings here: the schema then judges them as written.
const SPECIAL: Record<string, null | boolean> = { none: null, None: null, true: true, True: true, false: false, False: false };
// Python int and float literals as ast.literal_eval reads them (a sign is a unary operator it also accepts).
const PY_INT = /^\s*[+-]?(?:0|[1-9](?:_?\d)*)\s*$/;
const PY_FLOAT =
  /^\s*[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.?(?:[eE][+-]?\d(?:_?\d)*)|\d(?:_?\d)*\.)\s*$/;

/** translate_value for one scalar string (values of other types are returned as they are). */
export function translateValue(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (Object.hasOwn(SPECIAL, v)) return SPECIAL[v];
  if (v.length > 1000) return v;
  if (PY_INT.test(v)) return Number(v.replace(/_/g, ''));
  if (PY_FLOAT.test(v)) return Number(v.replace(/_/g, ''));
  return v;
}

/** The data as Automodel's ConfigNode holds it: every string scalar translated, except under `_target_` and `*_fn` keys. */
export function translateData(data: unknown, key = ''): unknown {
  if (Array.isArray(data)) return data.map((x) => translateData(x));
  if (data && typeof data === 'object')
    return Object.fromEntries(Object.entries(data as Record<string, unknown>).map(([k, x]) => [k, translateData(x, k)]));
  if (key === '_target_' || key.endsWith('_fn')) return data;
  return translateValue(data);
}
