// File arguments: paths as given, or glob patterns (`**`, `*`, `?`, `{a,b}`, `[…]`) the shell left unexpanded,
// expanded with tinyglobby.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { globSync, isDynamicPattern } from 'tinyglobby';

/** Expand one argument into files, sorted; an existing path or an argument with no glob syntax is returned as it is. */
export function expandArg(arg: string): string[] {
  if (existsSync(arg) || !isDynamicPattern(arg)) return [arg];
  // Paths come back as the shell would give them: absolute for an absolute pattern, relative to the working directory otherwise.
  return globSync(arg, {
    onlyFiles: true,
    absolute: isAbsolute(arg),
    ignore: ['**/node_modules/**', '**/.git/**'],
    expandDirectories: false,
  }).sort();
}

/** The file's text, or undefined after telling the user why it cannot be read. */
export function readOrWarn(path: string, warn: (s: string) => void): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    warn(`recipe-lens: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    return undefined;
  }
}
