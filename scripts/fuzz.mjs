// `npm run fuzz [N] [SEED]`: bundles test/fuzz/fuzz.ts and runs N (default 100,000) inputs through the core.
import { compileSchemas } from './compile-schemas.mjs';
import { runTs } from './run-ts.mjs';

compileSchemas();
process.exit(await runTs({ name: 'fuzz', file: 'test/fuzz/fuzz.ts', args: process.argv.slice(2) }));
