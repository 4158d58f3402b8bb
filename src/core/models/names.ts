// How model names are compared: `Meta-Llama-3.1-8B-Instruct`, `llama3.1_8b`, `Llama31Config8B` and `llama3-8b` are
// reduced to comparable word/number tokens; the fuzzy form drops what names a release or a storage format rather than
// an architecture (`-Instruct`, `-FP8`, `-2507`, `-v0.3` after the size).

/** Tokens that name a tuning, release or storage format of the same architecture. */
const QUALIFIERS = new Set([
  'instruct',
  'chat',
  'base',
  'hf',
  'it',
  'pt',
  'fp8',
  'fp4',
  'nvfp4',
  'mxfp4',
  'bf16',
  'fp16',
  'fp32',
  'awq',
  'gptq',
  'int4',
  'int8',
  'w4a16',
  'w8a8',
  'dynamic',
  'static',
  'pertensor',
  'perchannel',
  'thinking',
  'reasoning',
  'preview',
  'sft',
  'dpo',
  'gguf',
  'mlx',
  'fp8kv',
]);
const SIZE = /^\d+(\.\d+)?[bmt]$|^\d+x\d+(\.\d+)?[bm]$|^a\d+(\.\d+)?b$|^\d+e$/;
const DATE = /^\d{4}$/;
const VERSION = /^v\d+(\.\d+)*$/;

/** Raw name tokens: lower case, split on `-`, `_` and blanks; a Python class path (`nemo….llama.Llama3Config8B`) keeps its last part. */
export function rawTokens(name: string): string[] {
  let s = name.trim();
  if (/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(s)) s = s.slice(s.lastIndexOf('.') + 1);
  const toks = s
    .toLowerCase()
    .split(/[-_\s]+/)
    .filter(Boolean);
  // `Meta-Llama-3-8B` is Meta's old spelling of `Llama-3-8B`.
  if (toks[0] === 'meta' && toks[1]?.startsWith('llama')) toks.shift();
  return toks;
}

/**
 * Word and number parts of one token: `llama3.1` → llama 3.1, `a3b` → a 3b, `llama3config70b` → llama 3 config 70b. A
 * version token's `v` goes (`v3.3` → 3.3): TensorRT-LLM's test names write `llama_v3.3_70b` for Llama-3.3-70B, and
 * `deepseek_v3` / `DeepSeek-V3` stay equal since both sides are read the same way.
 */
function parts(token: string): string[] {
  if (VERSION.test(token)) return [token.slice(1)];
  return token.match(/\d+(?:\.\d+)*(?:[bmtke](?![a-z]))?|[a-z]+/g) ?? [];
}

/** The comparable form of a name, keeping every token. */
export function exactKey(name: string): string {
  return rawTokens(name).flatMap(parts).join(' ');
}

/** The comparable form without qualifiers, dates, and versions after the size (`Mistral-7B-Instruct-v0.3` → mistral 7b). */
export function fuzzyKey(name: string): string {
  return fuzzyTokens(name).join(' ');
}

/** Names read again on every analysis (catalogue ids, the file's model names): their tokens, kept (bounded). */
const FUZZY = new Map<string, readonly string[]>();

/** The tokens of `fuzzyKey` (a shared array: read it, do not change it). */
export function fuzzyTokens(name: string): readonly string[] {
  let hit = FUZZY.get(name);
  if (!hit) {
    if (FUZZY.size >= 4096) FUZZY.clear();
    FUZZY.set(name, (hit = computeFuzzyTokens(name)));
  }
  return hit;
}

function computeFuzzyTokens(name: string): string[] {
  const raw = rawTokens(name);
  const kept: string[] = [];
  let pastSize = false;
  raw.forEach((t, i) => {
    if (QUALIFIERS.has(t)) {
      pastSize = true;
      return;
    }
    if (i > 0 && DATE.test(t)) return;
    if (pastSize && VERSION.test(t)) return;
    if (SIZE.test(t)) pastSize = true;
    kept.push(t);
  });
  return kept.flatMap(parts);
}

/** The quantization qualifier a name carries, if any (`-FP8`, `-FP4`, `-NVFP4`, `-MXFP4`). */
export function hasQuantQualifier(name: string): boolean {
  return rawTokens(name).some((t) => /^(nv|mx)?fp[48]$|^fp8kv$|^awq$|^gptq$|^int[48]$|^w4a16$/.test(t));
}

/** A Hugging Face model id as written (`org/name`, `meta-llama/Meta-Llama-3-8B`). */
export const isHfId = (s: string) => /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(s);

/** A name made only of qualifiers, dates, versions or a commit hash (`bf16`, `fp8`, `main`, a 40-hex snapshot) names no model. */
export function isGenericSegment(segment: string): boolean {
  if (/^[0-9a-f]{40}$/i.test(segment)) return true;
  const toks = rawTokens(segment);
  return (
    toks.length === 0 ||
    toks.every(
      (t) =>
        QUALIFIERS.has(t) || DATE.test(t) || VERSION.test(t) || /^(main|snapshots|models?|checkpoints?|hub|ckpt|latest|hf|nemo)$/.test(t),
    )
  );
}
