// Deterministic recipe-shaped inputs for the benchmark: a real NeMo recipe whose `model` section is repeated under
// unique keys inside `model` (an open mapping in the NeMo 1.0 schema), so the file stays one valid recipe of any size.
// Each copy keeps the section's comments, lists, nested mappings and `${…}` interpolations (relative ones resolve
// inside the copy, absolute ones to the real `model`).

/**
 * @param {string} base a NeMo 1.0 recipe whose last top-level key is `model`
 * @param {{ lines?: number, bytes?: number }} target exact line count, or a size in bytes (cut at the last whole line below it)
 */
export function generateRecipe(base, target) {
  const baseLines = base.replace(/\n+$/, '').split('\n');
  const start = baseLines.findIndex((l) => /^model:\s*$/.test(l));
  if (start < 0) throw new Error('generateRecipe: the base recipe has no top-level `model:`');
  let end = baseLines.length;
  for (let i = start + 1; i < baseLines.length; i++) if (/^[A-Za-z_]/.test(baseLines[i])) end = i;
  if (end !== baseLines.length) throw new Error('generateRecipe: `model` must be the last top-level key of the base recipe');
  const body = baseLines.slice(start + 1).map((l) => (l.trim() ? `  ${l}` : ''));
  const out = [...baseLines];
  let bytes = Buffer.byteLength(base);
  const full = () => (target.lines !== undefined ? out.length >= target.lines : bytes >= target.bytes);
  for (let i = 1; !full(); i++) {
    const block = [`  experiment_${String(i).padStart(5, '0')}:`, ...body];
    for (const l of block) {
      out.push(l);
      bytes += Buffer.byteLength(l) + 1;
      if (full()) break;
    }
  }
  if (target.bytes !== undefined) while (bytes > target.bytes) bytes -= Buffer.byteLength(out.pop()) + 1;
  // A cut may leave a copy ending in an empty line or a bare key: both are valid YAML (the key is null).
  return out.join('\n') + '\n';
}
