// File arguments: paths as given, or glob patterns (`**`, `*`, `?`) when the shell left them unexpanded.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function walk(dir: string, out: string[], limit: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names.sort()) {
    if (out.length >= limit) return;
    if (n === 'node_modules' || n === '.git') continue;
    const p = join(dir, n);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(p, out, limit);
    else out.push(p);
  }
}

/** Expand one argument into files; an argument with no glob character is returned as it is. */
export function expandArg(arg: string, limit = 100_000): string[] {
  if (!/[*?]/.test(arg) || existsSync(arg)) return [arg];
  const norm = arg.split(sep).join('/');
  const firstGlob = norm.search(/[*?]/);
  const baseEnd = norm.lastIndexOf('/', firstGlob);
  const base = baseEnd < 0 ? '.' : norm.slice(0, baseEnd) || '/';
  const re = globToRegExp(norm);
  const all: string[] = [];
  walk(base, all, limit);
  return all.filter((p) =>
    re.test(
      p
        .split(sep)
        .join('/')
        .replace(/^\.\//, baseEnd < 0 ? '' : './'),
    ),
  );
}
