// Every layout the planner lists can be written into its file and the written file passes the checker: for real
// Launcher and NeMo recipes and the planner's top 8 each (the panel's Apply and `recipe-lens plan --apply K`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis.js';
import { applyEdits } from '../../src/core/edit.js';
import { candidateValues } from '../../src/core/panel/planner.js';
import { writeCheck } from '../../src/core/panel/whatIf.js';
import { plan } from '../../src/core/plan/plan.js';
import { CORPUS, EXAMPLES, REPO } from '../helpers.js';

const RECIPES = [
  join(EXAMPLES, 'llama3_8b_16k.yaml'),
  join(EXAMPLES, 'llama3_8b_128k.yaml'),
  join(EXAMPLES, 'llama3_70b_16k.yaml'),
  join(EXAMPLES, 'mixtral_8x7b_16k.yaml'),
  join(EXAMPLES, 'nemotron4_15b_64k.yaml'),
  join(EXAMPLES, 'bridge_llama3_8b_128k.yaml'),
  join(CORPUS, 'NeMo-Framework-Launcher', 'llama3_8b.yaml'),
  join(CORPUS, 'NeMo-Framework-Launcher', 'mixtral_8x7b.yaml'),
  join(CORPUS, 'NeMo-Framework-Launcher', 'nemotron_15b.yaml'),
  join(CORPUS, 'NeMo-Framework-Launcher', '5b_16k.yaml'),
];

const errors = (text: string) =>
  analyze(text, { memoryWarnings: false })
    .findings.filter((f) => f.severity === 'error')
    .map((f) => `${f.code} ${f.path}: ${f.message}`);

for (const file of RECIPES) {
  test(`${relative(join(REPO, '..'), file)}: each of the planner's top 8 layouts, written in, passes the checker`, () => {
    const text = readFileSync(file, 'utf8');
    const main = analyze(text).main!;
    assert.equal(main.estimate?.kind, 'training', file);
    if (main.estimate?.kind !== 'training' || main.recipe?.kind !== 'training') return;
    const e = main.estimate;
    const recipe = main.recipe;
    assert.deepEqual(errors(text), [], 'the recipe itself is clean');
    const gpus = e.config.worldSize!;
    const r = plan(e.shape, e.config, e.gpu, {
      gpus,
      top: 8,
      base: recipe.values,
      family: recipe.family,
      overlapP2p: recipe.values.overlapP2p === true,
    });
    assert.ok(r.candidates.length > 0, `${file}: the planner lists layouts for ${gpus} GPUs`);
    let written = 0;
    for (const [i, cand] of r.candidates.entries()) {
      const values = candidateValues(e.config, cand);
      if (!Object.keys(values).length) continue; // the file's own layout
      const w = writeCheck({ recipe, doc: main.doc, text }, e.config, values);
      // A layout the format cannot express (a precision NeMo 1.x has no key for) is refused with the reason, never written wrong.
      if (!w.canApply) {
        assert.ok(
          w.conflicts.length > 0 && w.conflicts.every((c) => c.code === 'write'),
          `${file} layout ${i + 1}: refused only for keys the format lacks: ${JSON.stringify(w.conflicts)}`,
        );
        continue;
      }
      const after = applyEdits(text, w.edits!);
      assert.deepEqual(errors(after), [], `${file} layout ${i + 1}`);
      // What was written is what the planner chose.
      const again = analyze(after).main!.estimate;
      assert.equal(again?.kind, 'training');
      if (again?.kind === 'training')
        assert.deepEqual(
          [again.config.tp, again.config.pp, again.config.cp, again.config.ep, again.config.microBatch, again.config.vpp],
          [cand.tp, cand.pp, cand.cp, cand.ep, cand.microBatchSize, cand.vpp],
          `${file} layout ${i + 1}`,
        );
      written++;
    }
    assert.ok(written >= 1, `${file}: at least one layout was written`);
  });
}

test('recipe-lens plan --apply K prints the file with layout K written in; the comments stay; K past the list exits 1', () => {
  const file = join(EXAMPLES, 'llama3_8b_128k.yaml');
  const cli = join(REPO, 'dist', 'cli.js');
  const list = spawnSync(process.execPath, [cli, 'plan', '--format', 'json', '--top', '3', file], { encoding: 'utf8' });
  assert.equal(list.status, 0, list.stderr);
  const first = JSON.parse(list.stdout).candidates[0];
  const r = spawnSync(process.execPath, [cli, 'plan', '--apply', '1', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const original = readFileSync(file, 'utf8');
  // Only value bytes change: every comment line and the key order are kept.
  const comments = (t: string) => t.split('\n').filter((l) => l.trim().startsWith('#'));
  assert.deepEqual(comments(r.stdout), comments(original));
  // Every line of the file is still there but the changed values' lines; a key the file did not have is one new line.
  const kept = new Set(r.stdout.split('\n'));
  const changedLines = original.split('\n').filter((l) => !kept.has(l));
  assert.ok(
    changedLines.every((l) => /^\s+[a-z_]+: \S+/.test(l)),
    changedLines.join('\n'),
  );
  assert.ok(r.stdout.split('\n').length - original.split('\n').length <= 3);
  const applied = analyze(r.stdout).main!.estimate;
  assert.ok(applied?.kind === 'training');
  if (applied?.kind === 'training')
    assert.deepEqual([applied.config.tp, applied.config.pp, applied.config.cp], [first.tp, first.pp, first.cp]);
  assert.deepEqual(errors(r.stdout), []);
  // K past every fitting layout (the list grows to K when --top is smaller).
  const past = spawnSync(process.execPath, [cli, 'plan', '--apply', '9999', '--top', '3', file], { encoding: 'utf8' });
  assert.equal(past.status, 1);
  assert.match(past.stderr, /no layout 9999: the planner lists \d+ for 64 × NVIDIA H100/);
});
