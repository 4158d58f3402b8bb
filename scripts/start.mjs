// `npm start`: builds Recipe Lens and runs it on the examples, the way CI would run the CLI.
// (The real-VS-Code session arrives with the end-to-end work; until then this shows the product's output.)
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (args, opts = {}) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', ...opts });

if (run(['scripts/build.mjs']).status !== 0) process.exit(1);
const cli = join('dist', 'cli.js');
console.log('\n$ recipe-lens check examples/llama3_8b_128k.yaml examples/trtllm_llama3_70b_serve.yaml examples/retention_system_prompt.yaml');
run([cli, 'check', 'examples/llama3_8b_128k.yaml', 'examples/trtllm_llama3_70b_serve.yaml', 'examples/retention_system_prompt.yaml']);
console.log('\n$ recipe-lens check examples/broken/llama3_8b_cp3.yaml examples/broken/retention_overlap.yaml');
const broken = run([cli, 'check', 'examples/broken/llama3_8b_cp3.yaml', 'examples/broken/retention_overlap.yaml']);
console.log(`(exit status ${broken.status}: errors found, as these files are meant to show)`);
