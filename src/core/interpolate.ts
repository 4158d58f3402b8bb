// OmegaConf interpolation as real NeMo / launcher files use it: `${.key}`, `${..key}`, `${model.key}`,
// `${training.model.key}` (launcher recipes are mounted under `training`), `${multiply:a,b}`, `${sum:a,b}`.
// Anything that cannot be resolved stays as written and is never reported as an error.
import { lookup, type TreeNode } from './tree.js';
import type { PathSeg } from './types.js';

/** Marker for "could not resolve": leaves such as `${base_results_dir}` live in another file. */
export const UNRESOLVED: unique symbol = Symbol('unresolved');
export type Resolved = unknown | typeof UNRESOLVED;

type Part = { text: string } | { interp: string };

export function hasInterpolation(s: string): boolean {
  return s.includes('${');
}

/** Split a string into literal text and top-level `${…}` bodies (nested braces balanced). */
export function splitInterpolations(s: string): Part[] | undefined {
  const parts: Part[] = [];
  let text = '';
  let i = 0;
  while (i < s.length) {
    if (s[i] === '\\' && s[i + 1] === '$' && s[i + 2] === '{') {
      text += '${';
      i += 3;
      continue;
    }
    if (s[i] === '$' && s[i + 1] === '{') {
      let depth = 1;
      let j = i + 2;
      while (j < s.length && depth > 0) {
        if (s[j] === '$' && s[j + 1] === '{') {
          depth++;
          j += 2;
          continue;
        }
        if (s[j] === '}') depth--;
        j++;
      }
      if (depth !== 0) return undefined; // unbalanced: not an interpolation OmegaConf would accept
      if (text) parts.push({ text });
      text = '';
      parts.push({ interp: s.slice(i + 2, j - 1) });
      i = j;
      continue;
    }
    text += s[i];
    i++;
  }
  if (text) parts.push({ text });
  return parts;
}

/** Split resolver arguments on top-level commas. */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '$' && s[i + 1] === '{') {
      depth++;
      cur += '${';
      i++;
      continue;
    }
    if (c === '}') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur.trim());
  return out;
}

function literal(s: string): unknown {
  if (/^[-+]?\d+$/.test(s)) return Number(s);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(s)) return Number(s);
  if (/^(true|false)$/i.test(s)) return s.toLowerCase() === 'true';
  if (/^null$/i.test(s)) return null;
  const q = /^(['"])(.*)\1$/.exec(s);
  return q ? q[2] : s;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** OmegaConf resolvers by name: what `${name:a,b}` calls. */
export type Resolvers = Record<string, (args: unknown[]) => Resolved>;

/** Resolvers that NeMo (hydra_runner) and the launcher register. */
const RESOLVERS: Resolvers = {
  multiply: (a) => (a.length === 2 && num(a[0]) !== undefined && num(a[1]) !== undefined ? num(a[0])! * num(a[1])! : UNRESOLVED),
  sum: (a) => (a.length >= 1 && a.every((x) => num(x) !== undefined) ? a.reduce((s: number, x) => s + (x as number), 0) : UNRESOLVED),
  subtract: (a) => (a.length === 2 && num(a[0]) !== undefined && num(a[1]) !== undefined ? num(a[0])! - num(a[1])! : UNRESOLVED),
  divide_ceil: (a) => (a.length === 2 && num(a[0]) !== undefined && num(a[1]) ? Math.ceil(num(a[0])! / num(a[1])!) : UNRESOLVED),
  divide_floor: (a) => (a.length === 2 && num(a[0]) !== undefined && num(a[1]) ? Math.floor(num(a[0])! / num(a[1])!) : UNRESOLVED),
  int_div: (a) => (a.length === 2 && num(a[0]) !== undefined && num(a[1]) ? Math.floor(num(a[0])! / num(a[1])!) : UNRESOLVED),
};

const two = (a: unknown[], f: (x: number, y: number) => number | undefined): Resolved => {
  const x = num(a[0]);
  const y = num(a[1]);
  const r = a.length === 2 && x !== undefined && y !== undefined ? f(x, y) : undefined;
  return r === undefined ? UNRESOLVED : r;
};

/** NeMo-RL's resolvers: add, mul, div (true division), max (nemo_rl/utils/config.py register_omegaconf_resolvers at 7ea279a). */
export const NEMO_RL_RESOLVERS: Resolvers = {
  add: (a) => two(a, (x, y) => x + y),
  mul: (a) => two(a, (x, y) => x * y),
  div: (a) => two(a, (x, y) => (y === 0 ? undefined : x / y)),
  max: (a) => two(a, (x, y) => Math.max(x, y)),
};

export interface ResolveContext {
  root: TreeNode | undefined;
  /** Path prefixes that stand for the document root (`training` for launcher recipes). */
  rootAliases: readonly string[];
  /** The resolvers the consuming program registers (default: NeMo's). */
  resolvers?: Resolvers;
}

const MAX_DEPTH = 32;

/** Resolve a node's value: interpolated strings are evaluated, other scalars returned as they are. */
export function resolveNode(ctx: ResolveContext, node: TreeNode, path: readonly PathSeg[], depth = 0): Resolved {
  if (node.kind !== 'scalar') return UNRESOLVED;
  const v = node.value;
  if (typeof v !== 'string' || !hasInterpolation(v)) return v;
  return resolveString(ctx, v, path, depth);
}

export function resolveString(ctx: ResolveContext, s: string, path: readonly PathSeg[], depth = 0): Resolved {
  if (depth > MAX_DEPTH) return UNRESOLVED; // cycle or absurd chain
  const parts = splitInterpolations(s);
  if (!parts) return UNRESOLVED;
  if (parts.length === 1 && 'interp' in parts[0]!) return resolveBody(ctx, parts[0].interp, path, depth);
  let out = '';
  for (const p of parts) {
    if ('text' in p) out += p.text;
    else {
      const r = resolveBody(ctx, p.interp, path, depth);
      if (r === UNRESOLVED || (typeof r === 'object' && r !== null)) return UNRESOLVED;
      out += String(r);
    }
  }
  return out;
}

function resolveBody(ctx: ResolveContext, body: string, path: readonly PathSeg[], depth: number): Resolved {
  const colon = body.indexOf(':');
  const firstInterp = body.indexOf('${');
  if (colon > 0 && (firstInterp < 0 || colon < firstInterp)) {
    const name = body.slice(0, colon).trim();
    const table = ctx.resolvers ?? RESOLVERS;
    const fn = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!fn) return UNRESOLVED;
    const args = splitArgs(body.slice(colon + 1)).map((a) => (hasInterpolation(a) ? resolveString(ctx, a, path, depth + 1) : literal(a)));
    if (args.some((a) => a === UNRESOLVED)) return UNRESOLVED;
    return fn(args);
  }
  const target = targetPath(ctx, body.trim(), path);
  if (!target) return UNRESOLVED;
  const hit = lookup(ctx.root, target);
  if (!hit) return UNRESOLVED;
  if (hit.node.kind !== 'scalar') return UNRESOLVED;
  return resolveNode(ctx, hit.node, target, depth + 1);
}

/** Turn an interpolation key into an absolute path; `path` is where the interpolation is written. */
function targetPath(ctx: ResolveContext, key: string, path: readonly PathSeg[]): PathSeg[] | undefined {
  if (!key || /\s/.test(key)) return undefined;
  if (key.startsWith('.')) {
    // `.x` is a sibling (same parent mapping), each extra dot goes one level up.
    const dots = /^\.+/.exec(key)![0].length;
    const base = path.slice(0, Math.max(0, path.length - dots));
    if (path.length - dots < 0) return undefined;
    const rest = key.slice(dots);
    return rest ? [...base, ...rest.split('.')] : base;
  }
  const segs = key.split('.');
  if (ctx.rootAliases.includes(segs[0]!) && segs.length > 1) segs.shift();
  return segs;
}
