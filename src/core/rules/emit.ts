// Builds rule findings: one on every key involved, each pointing at the others.
import type { Finding, Fix, Severity } from '../types.js';
import type { Fact } from './facts.js';

export interface RuleContext {
  /** World size from a setting or the CLI, for files that do not carry one. */
  worldSize?: number;
}

/**
 * One finding on each key in `facts` (the keys a person would change), each pointing at the others
 * and at `context` (keys that only feed the rule, such as the world size).
 */
export function emit(
  code: string,
  severity: Severity,
  message: string,
  facts: (Fact | undefined)[],
  fixes?: Fix[],
  context: (Fact | undefined)[] = [],
): Finding[] {
  const dedupe = (list: (Fact | undefined)[]) => {
    const ok = list.filter((f): f is Fact => !!f);
    return ok.filter((f, i) => ok.findIndex((g) => g.path === f.path) === i);
  };
  const uniq = dedupe(facts);
  const all = dedupe([...uniq, ...context]);
  return uniq.map((f, i) => ({
    code,
    severity,
    message,
    path: f.path,
    span: f.valueSpan,
    related: all.filter((g) => g !== f).map((g) => ({ path: g.path, span: g.keySpan, message: `${g.path} = ${fmt(g.value)}` })),
    // The repair is offered once, on the key it edits.
    fixes: i === 0 ? fixes : undefined,
  }));
}

export function fmt(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(fmt).join(', ')}]`;
  return String(v);
}
