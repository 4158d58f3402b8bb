// Engine configs embedded in Kubernetes ConfigMaps. Dynamo's Kubernetes recipes (recipes/<model>/trtllm/<mode>/deploy.yaml)
// ship each worker's TensorRT-LLM options as a file of a ConfigMap, mounted into the pod and passed to the worker as
// `--extra-engine-args /config/prefill.yaml`:
//
//   kind: ConfigMap
//   data:
//     prefill.yaml: |
//       tensor_parallel_size: 2
//       kv_cache_config: …
//
// Each literal block scalar under `data` whose key names a YAML file is read as a document of its own. Its text is the
// whole file with everything outside the block's lines blanked to spaces (line breaks kept): a YAML document whose root
// mapping is indented is still one mapping, so the block parses as the mounted file does, and every offset in it is an
// offset of the real file — diagnostics, hovers and edits land where the user reads them with no mapping.
import { mapGet } from './tree.js';
import type { TreeNode } from './tree.js';
import type { Span } from './types.js';

export interface EmbeddedBlock {
  /** The ConfigMap's file name (`prefill.yaml`). */
  name: string;
  /** The ConfigMap's metadata.name, when it has one. */
  configMap?: string;
  /** The block's content lines in the real file. */
  span: Span;
  /** The real file with everything outside `span` blanked (same length, same line breaks). */
  text: string;
}

/** At most this many blocks per file are read (each costs one parse of a file-length text). */
export const MAX_EMBEDDED = 16;

/** Literal block scalars of a ConfigMap's `data` that hold YAML files (at most `max`); none for any other document. */
export function embeddedBlocks(text: string, root: TreeNode | undefined, max = MAX_EMBEDDED): EmbeddedBlock[] {
  const kind = mapGet(root, 'kind')?.value;
  if (kind?.kind !== 'scalar' || kind.value !== 'ConfigMap') return [];
  const data = mapGet(root, 'data')?.value;
  if (data?.kind !== 'map') return [];
  const meta = mapGet(mapGet(root, 'metadata')?.value, 'name')?.value;
  const configMap = meta?.kind === 'scalar' && typeof meta.value === 'string' ? meta.value : undefined;
  const out: EmbeddedBlock[] = [];
  for (const e of data.entries) {
    if (out.length >= max) break;
    if (!/\.ya?ml$/i.test(e.key) || e.value.kind !== 'scalar') continue;
    const span = literalContent(text, e.value.span[0], e.value.span[1], lineIndent(text, e.keySpan[0]));
    if (!span) continue;
    out.push({ name: e.key, ...(configMap ? { configMap } : {}), span, text: blankOutside(text, span) });
  }
  return out;
}

/** Columns of indentation of the line holding `offset`. */
export function lineIndent(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let i = start;
  while (text[i] === ' ') i++;
  return i - start;
}

/**
 * The content lines of a literal block scalar (`|`, `|-`, `|+`) starting at `at`: from the line after its header to
 * its last non-blank line more indented than its key (YAML 1.2 §8.1.1.1, auto-detected indentation). Folded (`>`)
 * scalars and explicit indentation indicators (`|2`) are not read: their text is not the lines as written.
 */
function literalContent(text: string, at: number, end: number, keyIndent: number): Span | undefined {
  const nl = text.indexOf('\n', at);
  if (nl < 0 || nl >= end) return undefined;
  if (!/^\|[-+]?[ \t]*(#.*)?\r?$/.test(text.slice(at, nl))) return undefined;
  const start = nl + 1;
  let indent = -1;
  let last = -1;
  for (let pos = start; pos < text.length;) {
    const eol = text.indexOf('\n', pos);
    const lineEnd = eol < 0 ? text.length : eol;
    const line = text.slice(pos, lineEnd).replace(/\r$/, '');
    const spaces = line.length - line.replace(/^ +/, '').length;
    if (line.trim() !== '') {
      if (indent < 0) {
        if (spaces <= keyIndent) return undefined;
        indent = spaces;
      } else if (spaces < indent) break;
      last = pos + line.length;
    }
    if (eol < 0) break;
    pos = eol + 1;
  }
  return last > start ? [start, last] : undefined;
}

/** `text` with every character outside `span` but line breaks turned into a space. */
function blankOutside(text: string, span: Span): string {
  const blank = (s: string) => s.replace(/[^\r\n]/g, ' ');
  return blank(text.slice(0, span[0])) + text.slice(span[0], span[1]) + blank(text.slice(span[1]));
}
