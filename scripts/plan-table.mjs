// Regenerates bench/plan-vs-nemo.md: the planner's top pick next to each NeMo 2.0 long-context recipe's own layout.
// The table is written by test/core/plan.test.ts (PLAN_TABLE_OUT), so it shows exactly what the tests check.
// Usage: node scripts/plan-table.mjs [OUT]   (default bench/plan-vs-nemo.md)
import { join, resolve } from 'node:path';
import { ROOT, runTs } from './run-ts.mjs';

const out = resolve(process.argv[2] ?? join(ROOT, 'bench', 'plan-vs-nemo.md'));
const status = await runTs({
  name: 'plan-table',
  file: 'test/core/plan.test.ts',
  nodeArgs: ['--test', '--test-reporter=dot'],
  env: { PLAN_TABLE_OUT: out },
});
if (status !== 0) process.exit(status);
console.log(`wrote ${out}`);
