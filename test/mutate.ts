// Line-level mutations of real files, shared by the seeded property test and the long fuzz run.
import fc from 'fast-check';

export const MUTATION_KINDS = ['delete', 'duplicate', 'indent', 'dedent', 'value', 'tab', 'insert', 'swap', 'unicode'] as const;
export type MutationOp = { kind: (typeof MUTATION_KINDS)[number]; at: number; value: string };

/** Values that stress YAML and the rules: numbers at the edges, nulls, interpolations, aliases, broken syntax. */
export const HOSTILE_VALUES = [
  '0',
  '-1',
  '.nan',
  '.inf',
  '-.inf',
  'None',
  '~',
  'null',
  '${model.x}',
  '${multiply:${.a},0}',
  '*a',
  '&a 3',
  '[',
  '{',
  '"',
  '1e400',
  '\u0000',
  '\uFEFF',
  '<<: *a',
  '!!binary x',
  '|',
  '>-',
  '? x',
];

export const mutationOps = (maxLength: number) =>
  fc.array(
    fc.record({
      kind: fc.constantFrom(...MUTATION_KINDS),
      at: fc.nat(),
      value: fc.oneof(fc.constantFrom(...HOSTILE_VALUES), fc.string({ maxLength: 16 }), fc.integer().map(String)),
    }),
    { minLength: 1, maxLength },
  );

export function mutate(text: string, ops: readonly MutationOp[]): string[] {
  const lines = text.split('\n');
  for (const op of ops) {
    const i = op.at % Math.max(1, lines.length);
    const l = lines[i] ?? '';
    if (op.kind === 'delete') lines.splice(i, 1);
    else if (op.kind === 'duplicate') lines.splice(i, 0, l);
    else if (op.kind === 'indent') lines[i] = '  ' + l;
    else if (op.kind === 'dedent') lines[i] = l.replace(/^ {1,2}/, '');
    else if (op.kind === 'tab') lines[i] = '\t' + l;
    else if (op.kind === 'insert') lines.splice(i, 0, op.value);
    else if (op.kind === 'swap') [lines[i], lines[(i + 1) % lines.length]] = [lines[(i + 1) % lines.length] ?? '', l];
    else if (op.kind === 'unicode') lines[i] = l + ' # \u{1F680}\u200B\u202E';
    else lines[i] = l.replace(/:\s.*$/, `: ${op.value}`);
  }
  return lines;
}
