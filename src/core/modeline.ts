// `# recipe-lens: format=nemo1 model=llama3-70b vocab=256000 world_size=64 nemo=2.3` comments near the top of a file.
import { isFormatId, type FormatId, type Span } from './types.js';
import { FRAMEWORKS } from './versions.js';

export interface Modeline {
  /** `none` turns Recipe Lens off for the file. */
  format?: FormatId | 'none';
  values: Record<string, string>;
  span: Span;
  /** Keys the modeline names that Recipe Lens does not know. */
  unknown: string[];
  badFormat?: string;
}

const KNOWN_KEYS = new Set([
  'format',
  'model',
  'vocab',
  'seq',
  'gpu',
  'world_size',
  'world-size',
  'profile',
  'attention',
  ...FRAMEWORKS,
  'nemo-rl',
]);
const MODELINE = /^[ \t]*#[ \t]*recipe-lens:[ \t]*(.*)$/;
const SCAN_LINES = 30;

export function readModeline(text: string): Modeline | undefined {
  let offset = 0;
  for (let n = 0; n < SCAN_LINES && offset <= text.length; n++) {
    const nl = text.indexOf('\n', offset);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(offset, end).replace(/\r$/, '');
    const m = MODELINE.exec(line);
    if (m) {
      const out: Modeline = { values: {}, span: [offset, offset + line.length], unknown: [] };
      for (const tok of m[1]!.trim().split(/[\s,]+/)) {
        if (!tok) continue;
        const eq = tok.indexOf('=');
        if (eq <= 0) {
          out.unknown.push(tok);
          continue;
        }
        const k = tok.slice(0, eq).trim();
        const v = tok.slice(eq + 1).trim();
        if (!KNOWN_KEYS.has(k)) out.unknown.push(k);
        out.values[k.replace('-', '_')] = v;
        if (k === 'format') {
          if (v === 'none' || isFormatId(v)) out.format = v;
          else out.badFormat = v;
        }
      }
      return out;
    }
    if (nl < 0) break;
    offset = nl + 1;
  }
  return undefined;
}
