// Measured memory from Megatron / NeMo / Megatron-Bridge logs and TensorBoard exports, compared with the estimate,
// and the `recipe-lens compare LOG RECIPE` command.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareCommand } from '../../src/cli/compareCommand.js';
import { compareMemory, parseMemoryLog, peaksByRank, stageOfRank, tagFromFileName } from '../../src/core/memory/logs.js';
import { estimateTraining } from '../../src/core/memory/training.js';
import { EXAMPLES, modelShape, trainingConfig } from '../helpers.js';

const MIB = 2 ** 20;

test('Megatron-LM / NeMo lines: MiB values per rank, several reports on one line, timestamp prefixes', () => {
  const log = [
    '[2024-06-21 10:50:42][INFO][utils:190] - [Rank 0] (after 1 iterations) memory (MB) | allocated: 18243.64111328125 | max allocated: 50664.2548828125 | reserved: 54556.0 | max reserved: 54556.0',
    '[Rank 4] (after 1 iterations) memory (MB) | allocated: 9334.37 | max allocated: 10606.5 | reserved: 10998.0 | max reserved: 10998.0',
    '[Rank 2] (after 1 iterations) memory (MB) | allocated: 9334.3 | max allocated: 12680.6357421875 | reserved: 13236.0 | max reserved: 13236.0[Rank 6] (after 1 iterations) memory (MB) | allocated: 1.0 | max allocated: 2.5 | reserved: 3.0',
    ' iteration       10/     100 | lm loss: 9.763827E+00 | loss scale: 1.0 |',
    '[Rank 0] (after 10 iterations) memory (MB) | allocated: 9554.87 | max allocated: 51003.6 | reserved: 12232.0 | max reserved: 56000.0 | total device memory used: 57344.0',
  ].join('\n');
  const { samples, warnings } = parseMemoryLog(log);
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    samples.map((s) => [s.rank, s.iteration, s.format, s.line]),
    [
      [0, 1, 'megatron', 1],
      [4, 1, 'megatron', 2],
      [2, 1, 'megatron', 3],
      [6, 1, 'megatron', 3],
      [0, 10, 'megatron', 5],
    ],
  );
  assert.equal(samples[0]!.peak.allocated, 50664.2548828125 * MIB);
  assert.equal(samples[3]!.peak.reserved, undefined); // rank 6 gives only the current reserved value
  assert.equal(samples[3]!.current.reserved, 3 * MIB);
  const peaks = peaksByRank(samples);
  assert.deepEqual(peaks.get(0), { allocated: 51003.6 * MIB, reserved: 56000 * MIB, device: 57344 * MIB });
});

test('Megatron-Bridge lines: GB (1e9) values; counts and retries ignored', () => {
  const log =
    '[Rank 3] (after 2 iterations) memory (GB) | mem-allocated-gigabytes: 20.123 | mem-active-gigabytes: 20.1 | mem-inactive-gigabytes: 0.5 | mem-reserved-gigabytes: 39.9 | mem-max-allocated-gigabytes: 36.618 | mem-max-active-gigabytes: 36.6 | mem-max-inactive-gigabytes: 3.2 | mem-max-reserved-gigabytes: 40.01 | mem-alloc-retires: 0 | mem-allocated-count: 12345';
  const [s] = parseMemoryLog(log).samples;
  assert.deepEqual(s!.peak, { allocated: 36.618e9, reserved: 40.01e9 });
  assert.deepEqual(s!.current, { allocated: 20.123e9, reserved: 39.9e9 });
  assert.equal(s!.format, 'megatron-bridge');
});

test('TensorBoard scalars: CSV and JSON exports (tag from the file name or --tag), and text lines', () => {
  assert.equal(tagFromFileName('run-llama-tag-mem-max-allocated-bytes.csv'), 'mem-max-allocated-bytes');
  const csv = 'Wall time,Step,Value\n1700000000.5,1,61351000000\n1700000010.5,2,61400000000\n';
  const c = parseMemoryLog(csv, { tag: 'mem-max-allocated-bytes' }).samples;
  assert.deepEqual(
    c.map((s) => [s.iteration, s.peak.allocated]),
    [
      [1, 61_351_000_000],
      [2, 61_400_000_000],
    ],
  );
  assert.match(parseMemoryLog(csv).warnings[0]!, /name its scalar with --tag/);
  const json = JSON.stringify([
    [1700000000.5, 5, 1.5e10],
    [1700000001.5, 6, 1.6e10],
  ]);
  assert.deepEqual(
    parseMemoryLog(json, { tag: 'mem-max-reserved-bytes' }).samples.map((s) => s.peak.reserved),
    [1.5e10, 1.6e10],
  );
  const text = 'step=100 mem-max-allocated-bytes=6.2e10\nmem-reserved-bytes 100 7e10\n';
  assert.deepEqual(
    parseMemoryLog(text).samples.map((s) => [s.iteration, s.peak.allocated ?? s.current.reserved]),
    [
      [100, 6.2e10],
      [100, 7e10],
    ],
  );
  assert.match(parseMemoryLog('nothing here').warnings[0]!, /no memory lines found/);
});

test('hostile log text stays linear: a 100,000-character line of separators parses to nothing', () => {
  const line = '[Rank 1] (after 1 iterations) memory (MB) ' + '| '.repeat(50_000);
  assert.deepEqual(parseMemoryLog(line).samples, []);
  assert.deepEqual(parseMemoryLog('mem-max-allocated-bytes' + ' '.repeat(99_000)).samples, []);
});

const base = trainingConfig({
  seq: 65536,
  globalBatch: 512,
  tp: 4,
  pp: 2,
  cp: 4,
  etp: 4,
  sp: true,
  worldSize: 64,
  recompute: { granularity: 'selective', method: null, numLayers: null, modules: ['core_attn'] },
});

test('comparison: ranks map to pipeline stages (PP slowest), each level against its estimate, the largest terms listed', () => {
  // World 64, PP 2: ranks 0–31 are stage 0, 32–63 stage 1 (parallel_state order tp-cp-ep-dp-pp).
  assert.deepEqual(
    [0, 31, 32, 63].map((r) => stageOfRank(r, 2, 64)),
    [0, 0, 1, 1],
  );
  assert.equal(stageOfRank(5, 2, null), null);
  const e = estimateTraining(modelShape('llama3-8b'), base, { id: 'h100', name: 'H100', bytes: 85_520_809_984, source: 'test' });
  const s0 = e.stages[0]!;
  const s1 = e.stages[1]!;
  // Rank 0's "allocated" (printed after the step) is the estimate's states exactly, rank 40's 5% above them; an
  // iteration-1 line of rank 0 with another allocated figure is superseded by the later one.
  const log = [
    `[Rank 0] (after 1 iterations) memory (MB) | allocated: 1 | max allocated: 2 | reserved: 1 | max reserved: 2`,
    `[Rank 0] (after 2 iterations) memory (MB) | allocated: ${s0.afterStep / MIB} | max allocated: ${(s0.allocated * 1.1) / MIB} | reserved: 1 | max reserved: ${(s0.reserved * 0.8) / MIB}`,
    `[Rank 40] (after 2 iterations) memory (MB) | allocated: ${(s1.afterStep * 1.05) / MIB} | max allocated: ${s1.allocated / MIB} | reserved: 1 | max reserved: ${s1.reserved / MIB}`,
  ].join('\n');
  const c = compareMemory(parseMemoryLog(log).samples, e);
  assert.deepEqual(
    c.ranks.map((r) => [r.rank, r.stage, r.levels.map((l) => [l.level, +l.error.toFixed(6)])]),
    [
      [
        0,
        0,
        [
          ['allocated', +(1 / 1.1 - 1).toFixed(6)],
          ['reserved', +(1 / 0.8 - 1).toFixed(6)],
          ['after-step', 0],
        ],
      ],
      [
        40,
        1,
        [
          ['allocated', 0],
          ['reserved', 0],
          ['after-step', +(1 / 1.05 - 1).toFixed(6)],
        ],
      ],
    ],
  );
  // The worst is a peak level; the states after the step only say where the difference lies.
  assert.deepEqual(c.worst && [c.worst.rank, c.worst.level], [0, 'reserved']);
  assert.ok(
    c.notes.includes(
      "rank 0: allocated after the step is within 0.0% of the estimate's weights, gradients, optimizer states and buffers, so the difference at the peak lies in the activations and transients",
    ),
    c.notes.join('\n'),
  );
  // Gap at rank 0's allocated level: the estimate is 1/1.1 of the measurement.
  assert.ok(Math.abs(c.gap - (s0.allocated - s0.allocated * 1.1)) < 1);
  assert.ok(c.suspects.length > 0 && c.suspects[0]!.bytes >= c.suspects[c.suspects.length - 1]!.bytes);
  assert.ok(Math.abs(c.suspects[0]!.gapShare - Math.abs(c.gap) / c.suspects[0]!.bytes) < 1e-12);
});

test('comparison: a rank logged only after iteration 1 is compared with the first iteration; a later report with the steady peak', () => {
  const e = estimateTraining(modelShape('llama3-8b'), base, { id: 'h100', name: 'H100', bytes: 85_520_809_984, source: 'test' });
  const s0 = e.stages[0]!;
  // The Adam moments (8 of the 12 B per parameter the fp32 distributed optimizer keeps) appear in the first step.
  assert.ok(s0.firstIteration < s0.allocated);
  assert.equal(s0.firstIteration, s0.allocated - (s0.optimizer * 8) / 12);
  const line = (rank: number, it: number, mib: number) =>
    `[Rank ${rank}] (after ${it} iterations) memory (MB) | allocated: 1 | max allocated: ${mib} | reserved: 1 | max reserved: 1`;
  const c = compareMemory(
    parseMemoryLog([line(0, 1, s0.firstIteration / MIB), line(1, 1, 1), line(1, 10, s0.allocated / MIB)].join('\n')).samples,
    e,
  );
  assert.deepEqual(
    c.ranks.map((r) => [r.rank, r.levels[0]!.level, r.levels[0]!.estimated, +r.levels[0]!.error.toFixed(9)]),
    [
      [0, 'allocated', s0.firstIteration, 0],
      [1, 'allocated', s0.allocated, 0],
    ],
  );
  assert.ok(
    c.notes.includes(
      'logged only after iteration 1 (rank 0): allocated is compared with the first iteration of a fresh run, whose forward/backward ran before the first optimizer step created the optimizer states (a run that loaded them from a checkpoint has them from the start)',
    ),
    c.notes.join('\n'),
  );
  // The steady peak the run reaches from iteration 2 on is named beside it, in GiB to two decimals.
  assert.ok(
    c.notes.includes(
      `from iteration 2 the optimizer states sit beside every forward/backward: the steady peak is estimated at ${(s0.allocated / 2 ** 30).toFixed(2)} GiB allocated on stage 0 (first iteration ${(s0.firstIteration / 2 ** 30).toFixed(2)} GiB), so a first iteration that fits does not show that the run does`,
    ),
    c.notes.join('\n'),
  );
});

test('recipe-lens compare LOG RECIPE: text and JSON, exit 1 without memory lines, 2 on usage errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-lens-compare-'));
  const log = join(dir, 'train.log');
  writeFileSync(
    log,
    '[Rank 0] (after 2 iterations) memory (MB) | allocated: 5120.0 | max allocated: 20480.0 | reserved: 30 | max reserved: 24576.0\n',
  );
  const recipe = join(EXAMPLES, 'llama3_8b_128k.yaml');
  const out: string[] = [];
  const err: string[] = [];
  const run = (...a: string[]) => {
    out.length = 0;
    err.length = 0;
    return compareCommand(
      a,
      (s) => out.push(s),
      (s) => err.push(s),
    );
  };
  assert.equal(run(log, recipe, '--gpu', 'h100'), 0, err.join('\n'));
  assert.match(out[0]!, /^rank {2}stage {2}level/m);
  assert.match(out[0]!, /^ {3}0 {6}0 {2}allocated +20\.00 GiB +\d+\.\d\d GiB +[+−]\d+\.\d%$/m);
  assert.match(out[0]!, /^ {3}0 {6}0 {2}after-step +5\.00 GiB +\d+\.\d\d GiB +[+−]\d+\.\d%$/m);
  // The example's states (7.21 GiB) are far above 5 GiB: the note points at them, not at the activations.
  assert.match(
    out[0]!,
    /^note: rank 0: allocated after the step is 5\.00 GiB against the estimate's \d+\.\d\d GiB for the weights, gradients, optimizer states and buffers \(\+\d+\.\d%\): check precision, sharding and the optimizer's settings before the activations$/m,
  );
  assert.match(out[0]!, /^the estimate is \d+\.\d\d GiB (above|below) the measurement there/m);
  assert.equal(run('--format', 'json', log, recipe), 0);
  const j = JSON.parse(out[0]!);
  assert.deepEqual(
    j.ranks[0].levels.map((l: { level: string; measured: number }) => [l.level, l.measured]),
    [
      ['allocated', 20480 * MIB],
      ['reserved', 24576 * MIB],
      ['after-step', 5120 * MIB],
    ],
  );
  const empty = join(dir, 'empty.log');
  writeFileSync(empty, 'loss 1.0\n');
  assert.equal(run(empty, recipe), 1);
  assert.match(err.join('\n'), /no memory lines found/);
  assert.equal(run(log), 2);
  assert.equal(run(log, recipe, '--format', 'xml'), 2);
  assert.equal(run(join(dir, 'missing.log'), recipe), 2);
  assert.equal(run('--help'), 0);
  assert.match(out[0]!, /^usage: recipe-lens compare/);
});
