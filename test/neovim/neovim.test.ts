// The language server in a real non-VS-Code client: headless Neovim (Debian's 0.7, its built-in LSP client) runs
// test/neovim/client.lua against `node dist/cli.js lsp --stdio` on examples/broken/llama3_8b_cp3.yaml and writes what
// it got; this test asserts on it. CI installs Neovim (.ci/run, which sets RECIPE_LENS_NVIM=required); elsewhere the
// test is skipped, with the reason, when `nvim` is not installed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { GIB } from '../../src/core/memory/overheads.js';
import { EXAMPLES, REPO } from '../helpers.js';
import { CLI } from '../server/client.js';

const FILE = join(EXAMPLES, 'broken', 'llama3_8b_cp3.yaml');
const TEXT = readFileSync(FILE, 'utf8');
const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const found = version.status === 0 ? /NVIM v(\S+)/.exec(version.stdout)?.[1] : undefined;
const required = process.env.RECIPE_LENS_NVIM === 'required';
const gib = (b: number) => `${(b / GIB).toFixed(2)} GiB`;

test(
  'Neovim (built-in LSP client): diagnostics with rule ids on line 54, hover, completion, code lens, the quick fix applied, diagnostics cleared',
  { skip: !found && !required ? 'nvim is not installed (apt-get install neovim; CI installs it)' : false, timeout: 120_000 },
  () => {
    assert.ok(found, 'nvim is installed (RECIPE_LENS_NVIM=required)');
    const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-nvim-'));
    const outPath = join(dir, 'out.json');
    try {
      const r = spawnSync(
        'nvim',
        ['--headless', '--clean', '-n', '-u', 'NONE', '-i', 'NONE', '-c', `luafile ${join(REPO, 'test', 'neovim', 'client.lua')}`],
        {
          encoding: 'utf8',
          timeout: 100_000,
          env: {
            ...process.env,
            RECIPE_LENS_NODE: process.execPath,
            RECIPE_LENS_CLI: CLI,
            RECIPE_LENS_FILE: FILE,
            RECIPE_LENS_OUT: outPath,
          },
        },
      );
      assert.equal(r.status, 0, `nvim exited with ${r.status} (${r.signal ?? ''}): ${r.stderr.slice(-2000)}`);
      const got = JSON.parse(readFileSync(outPath, 'utf8'));
      assert.equal(got.error, undefined, `the Lua script failed after ${JSON.stringify(got.steps)}: ${got.error}`);
      assert.deepEqual(got.steps, [
        'initialized',
        'diagnostics',
        'hover',
        'completion',
        'lens, symbols, analysis',
        'code action applied',
        'diagnostics cleared',
        'stopped',
      ]);
      assert.equal(got.server_name, 'recipe-lens');
      assert.equal(got.incremental_sync, 2, 'incremental document sync');
      assert.deepEqual(got.diagnostics, [
        {
          code: 'RL-R1',
          source: 'recipe-lens',
          severity: 1,
          lnum: 53,
          col: 25,
          end_lnum: 53,
          end_col: 26,
          message: 'world size 64 is not divisible by TP·PP·CP = 4·2·3 = 24',
        },
        {
          code: 'RL-R3',
          source: 'recipe-lens',
          severity: 1,
          lnum: 53,
          col: 25,
          end_lnum: 53,
          end_col: 26,
          message: 'seq 131072 is not a multiple of 2·CP = 6 (context parallelism splits the sequence into 2·CP load-balanced chunks)',
        },
      ]);
      // The figures the VS Code extension shows, from the same core and settings (init_options gpu=h100).
      const e = analyze(TEXT, { gpu: 'h100', profile: 'megatron', attention: 'flash', maxLength: 5120 * 1024, memoryWarnings: true }).main!
        .estimate!;
      assert.equal(e.kind, 'training');
      if (e.kind !== 'training') return;
      assert.equal(got.hover.kind, 'markdown');
      assert.deepEqual(got.hover.range, { start: { line: 53, character: 2 }, end: { line: 53, character: 23 } });
      assert.ok(
        got.hover.value.startsWith(
          `**Per-GPU memory** (most-loaded rank, PP stage 0): **${(e.estimate.perGpu.total / GIB).toFixed(1)} GiB**`,
        ),
        got.hover.value.slice(0, 120),
      );
      assert.ok(got.hover.value.includes('model.context_parallel_size'), 'the schema part of the hover');
      assert.ok(got.completion.includes('expert_model_parallel_size'), 'a key of `model` the file does not set');
      assert.ok(!got.completion.includes('context_parallel_size'), 'a key the file sets is not offered');
      assert.deepEqual(got.codelens, [
        {
          line: 50,
          title: `${gib(e.estimate.perGpu.total)} per GPU of ${gib(e.gpu.bytes)} (h100) — ${e.estimate.fit.verdict.replace(/-/g, ' ')} · TP 4 · PP 2 · CP 3`,
        },
      ]);
      assert.deepEqual(got.symbols, ['trainer', 'exp_manager', 'model']);
      assert.deepEqual(got.analysis, {
        format: 'nemo1',
        version: 0,
        status: `${(e.estimate.perGpu.total / GIB).toFixed(1)} / ${(e.gpu.bytes / GIB).toFixed(1)} GiB`,
      });
      assert.deepEqual(got.code_actions, ['Set model.context_parallel_size: 2', 'Set model.context_parallel_size: 4']);
      assert.equal(got.line_after_fix, '  context_parallel_size: 4 # WRONG: breaks R1 (64 % 24) and R3 (131072 % 6); use 8');
      assert.deepEqual(got.diagnostics_after_fix, []);
      assert.ok(got.version_after_fix > 0, `the server has the edited version (${got.version_after_fix})`);
      assert.equal(got.exit_code, 0, 'shutdown, exit: code 0');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
