// Node-side reads of the files a document names (NeMo-RL `defaults:` parents) for the core's analysis. Local files
// only; a missing, unreadable, non-regular or oversized file reads as absent (the core reports it as information).
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** A config file is kilobytes; anything larger is not one (the core would not parse it either). */
const MAX_BYTES = 5 * 1024 * 1024;

/** A reader for AnalysisSettings.readFile: the text of a regular file, else undefined. */
export function readSourceFile(path: string): string | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A reader that asks `open` first (an editor's unsaved buffer wins over the disk) and caches disk reads by
 * modification time and size, so checking an analysis for staleness on every request costs one stat per parent.
 */
export function cachedSourceReader(open: (path: string) => string | undefined = () => undefined): (path: string) => string | undefined {
  const cache = new Map<string, { mtimeMs: number; size: number; text: string | undefined }>();
  return (path) => {
    const buffer = open(path);
    if (buffer !== undefined) return buffer;
    try {
      const st = statSync(path);
      const hit = cache.get(path);
      if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.text;
      const text = st.isFile() && st.size <= MAX_BYTES ? readFileSync(path, 'utf8') : undefined;
      if (cache.size > 256) cache.clear();
      cache.set(path, { mtimeMs: st.mtimeMs, size: st.size, text });
      return text;
    } catch {
      cache.delete(path);
      return undefined;
    }
  };
}

/** The absolute path the core resolves `defaults:` parents against. */
export const documentPathOf = (path: string): string => resolve(path);
