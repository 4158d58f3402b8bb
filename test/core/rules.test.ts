// Every cross-field rule of formats.md §5–7 (RL-R1 … RL-RT8): a failing case with the exact code, severity,
// message, range, related locations and quick fixes of every finding; the nearest valid variant, which must
// be clean; and, where a value is missing or cannot be resolved, a case showing the rule is skipped, not guessed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic, Severity } from '../../src/core/types.js';
import type { AnalysisSettings } from '../../src/core/analysis.js';
import { analyze } from '../../src/core/analysis.js';
import { codes, diagnose, rangeOf } from '../helpers.js';

type Range = Diagnostic['range'];
type Fixes = NonNullable<Diagnostic['fixes']>;

const lines = (...ls: string[]) => ls.join('\n') + '\n';

/** NeMo 1.x model config on 8 GPUs with a 4096-token sequence; `model` lines are indented by the caller. */
const nemo1 = (...model: string[]) => lines('name: x', 'trainer:', '  devices: 8', 'model:', '  encoder_seq_length: 4096', ...model);
/** Megatron-Bridge override; `rest` holds further top-level sections. */
const bridge = (model: string[], ...rest: string[]) =>
  lines('train:', '  micro_batch_size: 1', 'model:', '  seq_length: 4096', ...model, ...rest);
/** TensorRT-LLM LLM-API options with a kv_cache_config section. */
const trt = (...kv: string[]) => lines('kv_cache_config:', ...kv);

const span = (p: { line: number; character: number }, from: number, to: number): Range => ({
  start: { line: p.line, character: p.character + from },
  end: { line: p.line, character: p.character + to },
});
/** Range of the value in the `nth` occurrence of the `key: value` text `kv`. */
const val = (text: string, kv: string, nth = 0): Range => span(rangeOf(text, kv, nth).start, kv.indexOf(': ') + 2, kv.length);
/** Range of the key in that text (leading blanks and `- ` not included). */
const key = (text: string, kv: string, nth = 0): Range =>
  span(rangeOf(text, kv, nth).start, kv.length - kv.replace(/^[\s-]+/, '').length, kv.indexOf(':'));

/** A key a finding sits on or points at: its dotted path, its `key: value` text, and the value as messages show it. */
interface At {
  path: string;
  kv: string;
  nth: number;
  shown: string;
}
const at = (path: string, kv: string, nth = 0, shown?: string): At => ({ path, kv, nth, shown: shown ?? kv.slice(kv.indexOf(': ') + 2) });

/**
 * The finding of one rule as the product promises it: once, on the value of the key a person most likely changes
 * (`on`), with the rule's other keys (`related`, in the rule's order) as related locations `path = value` on their key,
 * and one quick fix per repair choice.
 */
function once(text: string, code: string, severity: Severity, message: string, on: At, related: At[] = [], fixes?: Fixes): Diagnostic[] {
  const d: Diagnostic = { code, severity, message, path: on.path, range: val(text, on.kv, on.nth) };
  if (related.length) d.related = related.map((g) => ({ path: g.path, range: key(text, g.kv, g.nth), message: `${g.path} = ${g.shown}` }));
  if (fixes?.length) d.fixes = fixes;
  return [d];
}

/** A quick fix that sets one value: its title (the key's full path) and the edit replacing the value of `kv` in `text`. */
const setFix = (text: string, kv: string, newText: string, nth = 0): Fixes[number] => ({
  title: `Set ${diagnosePath(text, kv, nth)}: ${newText}`,
  edits: [{ range: val(text, kv, nth), newText }],
});

/** The dotted path of the key written as `kv` (from the indentation of the lines above it). */
function diagnosePath(text: string, kv: string, nth: number): string {
  const line = rangeOf(text, kv, nth).start.line;
  const ls = text.split('\n');
  const indent = (l: string) => l.length - l.trimStart().length;
  const path = [kv.slice(0, kv.indexOf(':')).trim()];
  let want = indent(ls[line]!);
  for (let i = line - 1; i >= 0 && want > 0; i--)
    if (ls[i]!.trim() && indent(ls[i]!) < want) {
      path.unshift(ls[i]!.trim().replace(/:.*$/, ''));
      want = indent(ls[i]!);
    }
  return path.join('.');
}

const byPosition = (a: Diagnostic, b: Diagnostic) =>
  a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;

/** Every finding with `code` equals `expected` (in document order), nothing more, nothing less. */
function expectFindings(text: string, code: string, expected: Diagnostic[], opts: AnalysisSettings = {}) {
  assert.deepEqual(
    diagnose(text, opts).filter((d) => d.code === code),
    [...expected].sort(byPosition),
  );
}

/** The whole diagnostic list is empty. */
function clean(text: string, opts: AnalysisSettings = {}) {
  assert.deepEqual(diagnose(text, opts), []);
}

// =============================================================================================
// The done-when case

test('done-when: NeMo 1.x, 64 GPUs, TP 4 PP 2 CP 3, seq 131072: two mistakes, two findings, both on CP with the other keys related', () => {
  const text = lines(
    'name: x',
    'trainer:',
    '  devices: 8',
    '  num_nodes: 8',
    'model:',
    '  encoder_seq_length: 131072',
    '  tensor_model_parallel_size: 4',
    '  pipeline_model_parallel_size: 2',
    '  context_parallel_size: 3',
  );
  const ds = diagnose(text);
  const tp = at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 4');
  const pp = at('model.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 2');
  const cp = at('model.context_parallel_size', 'context_parallel_size: 3');
  const seq = at('model.encoder_seq_length', 'encoder_seq_length: 131072');
  const world = [at('trainer.devices', 'devices: 8'), at('trainer.num_nodes', 'num_nodes: 8')];
  // CP 2 or 4 repairs both rules; no other key alone can (3 divides neither 64 nor, with 2, 131072).
  const cpFixes = [setFix(text, 'context_parallel_size: 3', '2'), setFix(text, 'context_parallel_size: 3', '4')];
  expectFindings(
    text,
    'RL-R3',
    once(
      text,
      'RL-R3',
      'error',
      'seq 131072 is not a multiple of 2·CP = 6 (context parallelism splits the sequence into 2·CP load-balanced chunks)',
      cp,
      [seq],
      cpFixes,
    ),
  );
  // R1 goes on CP, the size whose own value does not divide the 64 GPUs; TP, PP and the world's keys are related.
  expectFindings(
    text,
    'RL-R1',
    once(text, 'RL-R1', 'error', 'world size 64 is not divisible by TP·PP·CP = 4·2·3 = 24', cp, [tp, pp, ...world], cpFixes),
  );
  assert.equal(ds.length, 2);
  clean(text.replace('context_parallel_size: 3', 'context_parallel_size: 4'));
});

test('the finding goes on the key the user edited last', () => {
  const before = lines(
    'name: x',
    'trainer:',
    '  devices: 8',
    'model:',
    '  encoder_seq_length: 4096',
    '  tensor_model_parallel_size: 4',
    '  context_parallel_size: 2',
  );
  const after = before.replace('context_parallel_size: 2', 'context_parallel_size: 4');
  const r1 = (a: ReturnType<typeof analyze>) =>
    a.diagnostics.filter((d) => d.code === 'RL-R1').map((d) => [d.path, d.related?.map((r) => r.path)]);
  // TP 4 · CP 4 = 16 does not divide 8, yet each divides 8 on its own: without history the rule's order puts it on TP …
  assert.deepEqual(r1(analyze(after, { memoryWarnings: false })), [
    ['model.tensor_model_parallel_size', ['model.context_parallel_size', 'trainer.devices']],
  ]);
  // … and after an edit of CP (the previous version had CP 2) it goes on CP, with TP related.
  const previous = analyze(before, { memoryWarnings: false });
  assert.deepEqual(r1(analyze(after, { memoryWarnings: false }, previous)), [
    ['model.context_parallel_size', ['model.tensor_model_parallel_size', 'trainer.devices']],
  ]);
});

// =============================================================================================
// R1, R1b, R2: world size and batch

test('RL-R1: a world size from --world-size when the file has no trainer.devices', () => {
  const text = lines('name: x', 'trainer:', '  num_nodes: 2', 'model:', '  encoder_seq_length: 4096', '  tensor_model_parallel_size: 3');
  expectFindings(
    text,
    'RL-R1',
    once(
      text,
      'RL-R1',
      'error',
      'world size 16 is not divisible by TP·PP·CP = 3·1·1 = 3',
      at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 3'),
      [],
      [setFix(text, 'tensor_model_parallel_size: 3', '2'), setFix(text, 'tensor_model_parallel_size: 3', '4')],
    ),
    { worldSize: 16 },
  );
  clean(text.replace('size: 3', 'size: 4'), { worldSize: 16 });
});

test('RL-R1 is skipped, not guessed, without a usable world size', () => {
  const tp3 = (...trainer: string[]) =>
    lines('name: x', 'trainer:', ...trainer, 'model:', '  encoder_seq_length: 4096', '  tensor_model_parallel_size: 3');
  // No trainer.devices and no --world-size: the default of 1 GPU is not assumed.
  clean(tp3('  num_nodes: 2'));
  // trainer.devices is written but cannot be resolved here: --world-size does not stand in for it.
  clean(tp3('  devices: ${oc.env:GPUS}'), { worldSize: 16 });
  // trainer.num_nodes cannot be resolved.
  clean(tp3('  devices: 8', '  num_nodes: ${oc.env:NODES}'));
  // A parallel size that cannot be resolved.
  clean(nemo1('  tensor_model_parallel_size: ${oc.env:TP}'));
});

test('RL-R1b: world size divisible by ETP·EP·PP, ETP defaulting to TP', () => {
  const text = lines(
    'name: x',
    'trainer:',
    '  devices: 8',
    '  num_nodes: 1',
    'model:',
    '  encoder_seq_length: 4096',
    '  tensor_model_parallel_size: 2',
    '  expert_model_parallel_size: 3',
    '  sequence_parallel: true',
  );
  expectFindings(
    text,
    'RL-R1b',
    once(
      text,
      'RL-R1b',
      'error',
      'world size 8 is not divisible by ETP·EP·PP = 2·3·1 = 6',
      at('model.expert_model_parallel_size', 'expert_model_parallel_size: 3'),
      [
        at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 2'),
        at('trainer.devices', 'devices: 8'),
        at('trainer.num_nodes', 'num_nodes: 1'),
      ],
      [setFix(text, 'expert_model_parallel_size: 3', '2'), setFix(text, 'expert_model_parallel_size: 3', '4')],
    ),
  );
  clean(text.replace('expert_model_parallel_size: 3', 'expert_model_parallel_size: 4'));

  // EP 8 with ETP = TP = 2 needs 16 GPUs; an explicit ETP 1 fits 8.
  const ep8 = text.replace('expert_model_parallel_size: 3', 'expert_model_parallel_size: 8');
  expectFindings(
    ep8,
    'RL-R1b',
    once(
      ep8,
      'RL-R1b',
      'error',
      'world size 8 is not divisible by ETP·EP·PP = 2·8·1 = 16',
      at('model.expert_model_parallel_size', 'expert_model_parallel_size: 8'),
      [
        at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 2'),
        at('trainer.devices', 'devices: 8'),
        at('trainer.num_nodes', 'num_nodes: 1'),
      ],
      [setFix(ep8, 'expert_model_parallel_size: 8', '4')],
    ),
  );
  clean(ep8.replace('  sequence_parallel: true', '  sequence_parallel: true\n  expert_tensor_parallel_size: 1'));
});

test('RL-R1b is skipped when TP (the default ETP) cannot be resolved', () => {
  clean(nemo1('  tensor_model_parallel_size: ${oc.env:TP}', '  expert_model_parallel_size: 3'));
});

test('RL-R2: global batch divisible by micro batch × DP', () => {
  const text = nemo1('  tensor_model_parallel_size: 2', '  micro_batch_size: 2', '  global_batch_size: 12');
  expectFindings(
    text,
    'RL-R2',
    once(
      text,
      'RL-R2',
      'error',
      'global batch size 12 is not divisible by micro batch size 2 × data-parallel size 4 = 8',
      at('model.global_batch_size', 'global_batch_size: 12'),
      [at('model.micro_batch_size', 'micro_batch_size: 2')],
      [
        setFix(text, 'global_batch_size: 12', '8'),
        setFix(text, 'global_batch_size: 12', '16'),
        setFix(text, 'micro_batch_size: 2', '1'),
        setFix(text, 'micro_batch_size: 2', '3'),
      ],
    ),
  );
  clean(text.replace('global_batch_size: 12', 'global_batch_size: 16'));
});

test('RL-R2 is skipped without a micro batch size or a data-parallel size', () => {
  clean(nemo1('  tensor_model_parallel_size: 2', '  global_batch_size: 12'));
  // No world size, so no DP.
  clean(
    lines(
      'name: x',
      'trainer:',
      '  num_nodes: 1',
      'model:',
      '  encoder_seq_length: 4096',
      '  micro_batch_size: 2',
      '  global_batch_size: 12',
    ),
  );
});

test('RL-R2 in a Bridge override needs every parallel size written (an omitted one comes from the recipe)', () => {
  const partial = lines(
    'train:',
    '  micro_batch_size: 2',
    '  global_batch_size: 12',
    'model:',
    '  seq_length: 4096',
    '  tensor_model_parallel_size: 2',
  );
  clean(partial, { worldSize: 8 });
  const full = partial + '  pipeline_model_parallel_size: 1\n  context_parallel_size: 1\n';
  expectFindings(
    full,
    'RL-R2',
    once(
      full,
      'RL-R2',
      'error',
      'global batch size 12 is not divisible by micro batch size 2 × data-parallel size 4 = 8',
      at('train.global_batch_size', 'global_batch_size: 12'),
      [at('train.micro_batch_size', 'micro_batch_size: 2')],
      [
        setFix(full, 'global_batch_size: 12', '8'),
        setFix(full, 'global_batch_size: 12', '16'),
        setFix(full, 'micro_batch_size: 2', '1'),
        setFix(full, 'micro_batch_size: 2', '3'),
      ],
    ),
    { worldSize: 8 },
  );
  clean(full.replace('global_batch_size: 12', 'global_batch_size: 16'), { worldSize: 8 });
});

// =============================================================================================
// R3: sequence length and CP

test('RL-R3 in a launcher recipe judges a resolvable interpolation by its value', () => {
  const text = lines(
    'run:',
    '  name: x',
    'trainer:',
    '  devices: 8',
    '  num_nodes: 3',
    'model:',
    '  encoder_seq_length: ${multiply:4096,16}',
    '  context_parallel_size: 3',
    '  data:',
    '    seq_length: ${training.model.encoder_seq_length}',
  );
  const msg = 'seq 65536 is not a multiple of 2·CP = 6 (context parallelism splits the sequence into 2·CP load-balanced chunks)';
  const seq = at('model.encoder_seq_length', 'encoder_seq_length: ${multiply:4096,16}', 0, '65536');
  const cp = at('model.context_parallel_size', 'context_parallel_size: 3');
  expectFindings(
    text,
    'RL-R3',
    once(
      text,
      'RL-R3',
      'error',
      msg,
      cp,
      [seq],
      [setFix(text, 'context_parallel_size: 3', '2'), setFix(text, 'context_parallel_size: 3', '4')],
    ),
  );
  clean(text.replace('${multiply:4096,16}', '${multiply:4096,12}'));
});

test('RL-R3 in a NeMo 2.0 serialization (_target_ tree)', () => {
  const text = lines(
    '_target_: nemo.collections.llm.gpt.model.llama.LlamaModel',
    'config:',
    '  _target_: nemo.collections.llm.gpt.model.llama.Llama3Config8B',
    '  seq_length: 8190',
    '  context_parallel_size: 2',
  );
  const msg = 'seq 8190 is not a multiple of 2·CP = 4 (context parallelism splits the sequence into 2·CP load-balanced chunks)';
  const seq = at('config.seq_length', 'seq_length: 8190');
  const cp = at('config.context_parallel_size', 'context_parallel_size: 2');
  // 8190 = 2·4095: CP 1 or 3 split it into 2·CP whole chunks.
  expectFindings(
    text,
    'RL-R3',
    once(
      text,
      'RL-R3',
      'error',
      msg,
      cp,
      [seq],
      [setFix(text, 'context_parallel_size: 2', '1'), setFix(text, 'context_parallel_size: 2', '3')],
    ),
  );
  clean(text.replace('8190', '8192'));
});

test('RL-R3 is skipped when the sequence length is not known here', () => {
  const cp3 = (seq: string) =>
    lines('name: x', 'trainer:', '  devices: 6', 'model:', `  encoder_seq_length: ${seq}`, '  context_parallel_size: 3');
  clean(cp3('${oc.env:SEQ_LEN}'));
  clean(cp3('???'));
  // …and reported once it is.
  assert.deepEqual(
    diagnose(cp3('4100')).map((d) => [d.code, d.path]),
    [['RL-R3', 'model.context_parallel_size']],
  );
  clean(cp3('4098'));
});

// =============================================================================================
// R4, R5, R5b, R5c: pipeline

test('RL-R4: layers divisible by PP, a warning in NeMo 1.x (uneven stages allowed there)', () => {
  const text = nemo1('  pipeline_model_parallel_size: 4', '  num_layers: 30');
  const msg = 'num_layers 30 is not divisible by pipeline size PP = 4';
  const layers = at('model.num_layers', 'num_layers: 30');
  const pp = at('model.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 4');
  // PP 3 or 5 would divide the 30 layers but not the 8 GPUs (RL-R1): no quick fix.
  expectFindings(text, 'RL-R4', once(text, 'RL-R4', 'warning', msg, pp, [layers]));
  clean(text.replace('num_layers: 30', 'num_layers: 32'));
  // The layer count cannot be resolved here: skipped.
  clean(nemo1('  pipeline_model_parallel_size: 4', '  num_layers: ${oc.env:LAYERS}'));
});

test('RL-R4: a warning in a Bridge override (its recipe may set a layout in code); the embedding and loss stages count when the split accounts for them', () => {
  const text = bridge([
    '  pipeline_model_parallel_size: 4',
    '  num_layers: 30',
    '  account_for_embedding_in_pipeline_split: false',
    '  account_for_loss_in_pipeline_split: false',
  ]);
  const LAYOUT_NOTE =
    '; unless the recipe sets pipeline_model_parallel_layout (or uneven first/last stages) in code, as the DeepSeek-V3 recipes do (set_deepseek_v3_pipeline_model_parallel_layout)';
  const layers = at('model.num_layers', 'num_layers: 30');
  const pp = at('model.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 4');
  // PP 3 or 5 divide 30 (the override sets no world size, so RL-R1 has nothing to say against them).
  expectFindings(
    text,
    'RL-R4',
    once(
      text,
      'RL-R4',
      'warning',
      'num_layers 30 is not divisible by pipeline size PP = 4' + LAYOUT_NOTE,
      pp,
      [layers],
      [setFix(text, 'pipeline_model_parallel_size: 4', '3'), setFix(text, 'pipeline_model_parallel_size: 4', '5')],
    ),
  );
  clean(text.replace('num_layers: 30', 'num_layers: 32'));

  // 30 + 1 = 31 stages' worth of layers over 4 ranks.
  const embed = text.replace('account_for_embedding_in_pipeline_split: false', 'account_for_embedding_in_pipeline_split: true');
  const e = at('model.account_for_embedding_in_pipeline_split', 'account_for_embedding_in_pipeline_split: true');
  const msg31 = 'num_layers 30 + 1 (embedding/loss counted in the pipeline split) = 31 is not divisible by pipeline size PP = 4';
  // 31 is prime: PP 1 is the only repair (31 stages for 30 layers is none).
  expectFindings(
    embed,
    'RL-R4',
    once(embed, 'RL-R4', 'warning', msg31 + LAYOUT_NOTE, pp, [layers, e], [setFix(embed, 'pipeline_model_parallel_size: 4', '1')]),
  );
  // 30 + 2 = 32: Llama 3.1 405B style (126 + 2 over PP 8).
  clean(embed.replace('account_for_loss_in_pipeline_split: false', 'account_for_loss_in_pipeline_split: true'));
  // Uneven first/last stages or an explicit layout: no divisibility requirement.
  clean(text + '  num_layers_in_first_pipeline_stage: 6\n');
  clean(text + '  pipeline_model_parallel_layout: "Et*7|t*8|t*8|t*7L"\n');
  // Flags left to the recipe: 30 + 2 = 32 would divide, so the override is not wrong on its own …
  clean(bridge(['  pipeline_model_parallel_size: 4', '  num_layers: 30']));
  // … but 29 layers over PP 4 fail whatever the recipe counts (29, 30 and 31 are all odd or not multiples of 4).
  const odd = bridge(['  pipeline_model_parallel_size: 4', '  num_layers: 29']);
  expectFindings(
    odd,
    'RL-R4',
    once(
      odd,
      'RL-R4',
      'warning',
      'num_layers 29 is not divisible by pipeline size PP = 4, whether or not the recipe counts the embedding and loss stages' +
        LAYOUT_NOTE,
      at('model.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 4'),
      [at('model.num_layers', 'num_layers: 29')],
      [setFix(odd, 'pipeline_model_parallel_size: 4', '1'), setFix(odd, 'pipeline_model_parallel_size: 4', '29')],
    ),
  );
});

test('RL-R5: layers per stage divisible by VPP', () => {
  const text = nemo1('  pipeline_model_parallel_size: 4', '  virtual_pipeline_model_parallel_size: 5', '  num_layers: 32');
  const msg = 'layers per pipeline stage 8 (= 32/4) is not divisible by virtual pipeline size VPP = 5';
  const vpp = at('model.virtual_pipeline_model_parallel_size', 'virtual_pipeline_model_parallel_size: 5');
  const layers = at('model.num_layers', 'num_layers: 32');
  const pp = at('model.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 4');
  expectFindings(
    text,
    'RL-R5',
    once(
      text,
      'RL-R5',
      'error',
      msg,
      vpp,
      [layers, pp],
      [
        setFix(text, 'virtual_pipeline_model_parallel_size: 5', '4'),
        setFix(text, 'virtual_pipeline_model_parallel_size: 5', '8'),
        setFix(text, 'virtual_pipeline_model_parallel_size: 5', 'null'),
      ],
    ),
  );
  clean(text.replace('virtual_pipeline_model_parallel_size: 5', 'virtual_pipeline_model_parallel_size: 4'));
});

test('RL-R5 is skipped where the loaders skip it: NeMo 1.x with both account_for_* flags, Bridge with any uneven split', () => {
  // 30 layers over PP 4: 7 per stage, not divisible by VPP 2.
  const base = ['  pipeline_model_parallel_size: 4', '  virtual_pipeline_model_parallel_size: 2', '  num_layers: 30'];
  const both = ['  account_for_embedding_in_pipeline_split: true', '  account_for_loss_in_pipeline_split: true'];
  clean(nemo1(...base, ...both));
  // One flag is not enough for NeMo 1.x (megatron_base_model.py needs both).
  const one = nemo1(...base, '  account_for_loss_in_pipeline_split: true');
  assert.deepEqual(
    diagnose(one)
      .filter((d) => d.code === 'RL-R5')
      .map((d) => [d.severity, d.path, d.message]),
    [
      [
        'error',
        'model.virtual_pipeline_model_parallel_size',
        'layers per pipeline stage 7 (= 30/4) is not divisible by virtual pipeline size VPP = 2',
      ],
    ],
  );
  // NeMo 2.0 / Bridge GPT providers skip it for any asymmetric split or layout.
  clean(bridge([...base, ...both]));
  clean(bridge([...base, '  num_layers_in_first_pipeline_stage: 6']));
  // A Bridge override that leaves PP to its recipe: PP is unknown, not 1.
  clean(bridge(['  virtual_pipeline_model_parallel_size: 3', '  num_layers: 32']));
});

test('RL-R5b: interleaving needs PP > 2, or PP > 1 with overlap_p2p_comm (a warning: only Megatron-LM arguments.py checks it)', () => {
  const text = nemo1('  pipeline_model_parallel_size: 2', '  virtual_pipeline_model_parallel_size: 2', '  num_layers: 32');
  const msg = 'virtual pipeline size 2 needs pipeline size PP > 2 (or > 1 with overlap_p2p_comm), got PP = 2';
  const vpp = at('model.virtual_pipeline_model_parallel_size', 'virtual_pipeline_model_parallel_size: 2');
  const pp = at('model.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 2');
  const noVpp = (t: string) => [setFix(t, 'virtual_pipeline_model_parallel_size: 2', 'null')];
  expectFindings(text, 'RL-R5b', once(text, 'RL-R5b', 'warning', msg, vpp, [pp], noVpp(text)));
  clean(text + '  overlap_p2p_comm: true\n');
  clean(text.replace('pipeline_model_parallel_size: 2', 'pipeline_model_parallel_size: 4'));

  // With overlap_p2p_comm the bound is PP > 1.
  const pp1 = nemo1('  virtual_pipeline_model_parallel_size: 2', '  num_layers: 32', '  overlap_p2p_comm: true');
  const overlap = at('model.overlap_p2p_comm', 'overlap_p2p_comm: true');
  expectFindings(
    pp1,
    'RL-R5b',
    once(pp1, 'RL-R5b', 'warning', 'virtual pipeline size 2 needs pipeline size PP > 1, got PP = 1', vpp, [overlap], noVpp(pp1)),
  );

  const b = bridge(['  pipeline_model_parallel_size: 2', '  virtual_pipeline_model_parallel_size: 2', '  num_layers: 32']);
  expectFindings(b, 'RL-R5b', once(b, 'RL-R5b', 'warning', msg, vpp, [pp], noVpp(b)));
  clean(b + '  overlap_p2p_comm: true\n');
  // PP left to the recipe: skipped.
  clean(bridge(['  virtual_pipeline_model_parallel_size: 2', '  num_layers: 32']));
});

test('RL-R5c: VPP 1 is normalised to null (info)', () => {
  const text = nemo1('  virtual_pipeline_model_parallel_size: 1');
  expectFindings(
    text,
    'RL-R5c',
    once(
      text,
      'RL-R5c',
      'info',
      'virtual_pipeline_model_parallel_size 1 means no interleaving; NeMo rewrites it to null',
      at('model.virtual_pipeline_model_parallel_size', 'virtual_pipeline_model_parallel_size: 1'),
      [],
      [setFix(text, 'virtual_pipeline_model_parallel_size: 1', 'null')],
    ),
  );
  clean(text.replace('size: 1', 'size: null'));
});

// =============================================================================================
// R6–R9: TP, SP, heads

test('RL-R6 in NeMo 1.x: a warning (NeMo resets sequence_parallel) with the "Set sequence_parallel: false" fix', () => {
  const text = nemo1('  tensor_model_parallel_size: 1', '  sequence_parallel: true');
  const msg = 'sequence_parallel is true but tensor_model_parallel_size is 1; NeMo silently resets sequence_parallel to false';
  const sp = at('model.sequence_parallel', 'sequence_parallel: true');
  const tp = at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 1');
  expectFindings(text, 'RL-R6', once(text, 'RL-R6', 'warning', msg, sp, [tp], [setFix(text, 'sequence_parallel: true', 'false')]));
  clean(text.replace('sequence_parallel: true', 'sequence_parallel: false'));
  clean(text.replace('tensor_model_parallel_size: 1', 'tensor_model_parallel_size: 2'));
  // TP left out of a NeMo 1.x file is the NeMo default 1.
  const noTp = nemo1('  sequence_parallel: true');
  expectFindings(noTp, 'RL-R6', once(noTp, 'RL-R6', 'warning', msg, sp, [], [setFix(noTp, 'sequence_parallel: true', 'false')]));
});

test('RL-R6 in Bridge and NeMo 2.0: a warning (newer Bridge and NeMo turn it off, older Bridge stops); the same fix', () => {
  const msg =
    'sequence_parallel is true but tensor_model_parallel_size is 1; newer Megatron-Bridge releases turn it off, older ones (and megatron-core on its own) stop with "Cannot use sequence parallelism without tensor parallelism"';
  const nemo2Msg =
    'sequence_parallel is true but tensor_model_parallel_size is 1; NeMo turns sequence parallelism off ("Disabling sequence parallelism because tensor model parallelism is disabled")';
  const b = bridge(['  tensor_model_parallel_size: 1', '  sequence_parallel: true']);
  const sp = at('model.sequence_parallel', 'sequence_parallel: true');
  const tp = at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 1');
  const fix = (t: string): Fixes => [setFix(t, 'sequence_parallel: true', 'false')];
  expectFindings(b, 'RL-R6', once(b, 'RL-R6', 'warning', msg, sp, [tp], fix(b)));
  clean(b.replace('tensor_model_parallel_size: 1', 'tensor_model_parallel_size: 2'));

  const n2 = lines(
    '_target_: nemo.collections.llm.gpt.model.llama.LlamaModel',
    'config:',
    '  _target_: nemo.collections.llm.gpt.model.llama.Llama3Config8B',
    '  seq_length: 8192',
    '  tensor_model_parallel_size: 1',
    '  sequence_parallel: true',
  );
  const sp2 = at('config.sequence_parallel', 'sequence_parallel: true');
  const tp2 = at('config.tensor_model_parallel_size', 'tensor_model_parallel_size: 1');
  expectFindings(n2, 'RL-R6', once(n2, 'RL-R6', 'warning', nemo2Msg, sp2, [tp2], fix(n2)));
  clean(n2.replace('sequence_parallel: true', 'sequence_parallel: false'));
});

test('RL-R6 is skipped in a Bridge override that leaves TP to its recipe', () => {
  clean(bridge(['  sequence_parallel: true']));
});

test('RL-R7: attention heads a multiple of TP', () => {
  const text = nemo1('  tensor_model_parallel_size: 8', '  num_attention_heads: 12', '  num_query_groups: 4');
  const msg = 'num_attention_heads 12 must be a multiple of tensor_model_parallel_size 8';
  const h = at('model.num_attention_heads', 'num_attention_heads: 12');
  const tp = at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 8');
  // TP 6 or 12 would divide the heads but not the 8 GPUs (RL-R1): no quick fix.
  expectFindings(text, 'RL-R7', once(text, 'RL-R7', 'error', msg, tp, [h]));
  clean(text.replace('num_attention_heads: 12', 'num_attention_heads: 16'));
  // TP cannot be resolved: neither R7 nor R8 guesses it.
  clean(nemo1('  tensor_model_parallel_size: ${oc.env:TP}', '  num_attention_heads: 12', '  num_query_groups: 5'));
});

test('RL-R8: query groups a multiple or a divisor of TP', () => {
  const text = nemo1('  tensor_model_parallel_size: 4', '  num_attention_heads: 24', '  num_query_groups: 6');
  const msg = 'num_query_groups 6 must be a multiple or a divisor of tensor_model_parallel_size 4';
  const gq = at('model.num_query_groups', 'num_query_groups: 6');
  const tp = at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 4');
  expectFindings(text, 'RL-R8', once(text, 'RL-R8', 'error', msg, tp, [gq]));
  clean(text.replace('num_query_groups: 6', 'num_query_groups: 8')); // multiple
  clean(text.replace('num_query_groups: 6', 'num_query_groups: 2')); // divisor (2026 megatron-core)
  clean(text.replace('num_query_groups: 6', 'num_query_groups: null')); // MHA: G = H = 24
});

test('RL-R9: TP communication overlap needs sequence parallelism (NeMo 1.x and Bridge turn the overlap off: warnings)', () => {
  // NeMo 1.x: sequence_parallel left out is NeMo's default false.
  const text = nemo1('  tensor_model_parallel_size: 2', '  ub_tp_comm_overlap: true');
  expectFindings(
    text,
    'RL-R9',
    once(
      text,
      'RL-R9',
      'warning',
      'ub_tp_comm_overlap is true but sequence_parallel is not set (NeMo default false); NeMo turns the overlap off',
      at('model.ub_tp_comm_overlap', 'ub_tp_comm_overlap: true'),
      [],
      [
        setFix(text, 'ub_tp_comm_overlap: true', 'false'),
        {
          title: 'Set model.sequence_parallel: true',
          edits: [{ range: span(rangeOf(text, 'ub_tp_comm_overlap: true').start, -2, -2), newText: '  sequence_parallel: true\n' }].map(
            (e) => ({
              ...e,
              range: { start: { line: e.range.start.line + 1, character: 0 }, end: { line: e.range.start.line + 1, character: 0 } },
            }),
          ),
        },
      ],
    ),
  );
  const off = text + '  sequence_parallel: false\n';
  const ov = at('model.ub_tp_comm_overlap', 'ub_tp_comm_overlap: true');
  const sp = at('model.sequence_parallel', 'sequence_parallel: false');
  const msg = 'ub_tp_comm_overlap is true but sequence_parallel is false; NeMo turns the overlap off';
  const repairs = (t: string, overlap: string) => [setFix(t, overlap, 'false'), setFix(t, 'sequence_parallel: false', 'true')];
  expectFindings(off, 'RL-R9', once(off, 'RL-R9', 'warning', msg, ov, [sp], repairs(off, 'ub_tp_comm_overlap: true')));
  clean(text + '  sequence_parallel: true\n');

  const b = bridge(['  tensor_model_parallel_size: 2', '  sequence_parallel: false'], 'comm_overlap:', '  tp_comm_overlap: true');
  const bov = at('comm_overlap.tp_comm_overlap', 'tp_comm_overlap: true');
  const bmsg =
    'tp_comm_overlap is true but sequence_parallel is false; Megatron-Bridge turns the overlap off ("Disabling tensor parallel communication overlap due to sequence_parallel=False")';
  expectFindings(b, 'RL-R9', once(b, 'RL-R9', 'warning', bmsg, bov, [sp], repairs(b, 'tp_comm_overlap: true')));
  clean(b.replace('sequence_parallel: false', 'sequence_parallel: true'));
  // A Bridge override without sequence_parallel inherits it from its recipe: skipped.
  clean(bridge(['  tensor_model_parallel_size: 2'], 'comm_overlap:', '  tp_comm_overlap: true'));
});

// =============================================================================================
// R10, R11, R11b: recompute and offloading

test('RL-R10: full recompute without a method', () => {
  const text = nemo1(
    '  num_layers: 32',
    '  activations_checkpoint_granularity: full',
    '  activations_checkpoint_method: null',
    '  activations_checkpoint_num_layers: 1',
  );
  const msg = 'full recompute needs a recompute method (uniform or block), got null';
  const gr = at('model.activations_checkpoint_granularity', 'activations_checkpoint_granularity: full');
  const m = at('model.activations_checkpoint_method', 'activations_checkpoint_method: null');
  expectFindings(
    text,
    'RL-R10',
    once(
      text,
      'RL-R10',
      'error',
      msg,
      m,
      [gr],
      [setFix(text, 'activations_checkpoint_method: null', 'uniform'), setFix(text, 'activations_checkpoint_method: null', 'block')],
    ),
  );
  clean(text.replace('activations_checkpoint_method: null', 'activations_checkpoint_method: uniform'));
});

test('RL-R10: full recompute without a layer count', () => {
  const text = nemo1('  num_layers: 32', '  activations_checkpoint_granularity: full', '  activations_checkpoint_method: uniform');
  expectFindings(
    text,
    'RL-R10',
    once(
      text,
      'RL-R10',
      'error',
      'full recompute needs the number of layers to recompute (activations_checkpoint_num_layers / recompute_num_layers), got none',
      // The count is not in the file: the finding sits on the granularity, and the fix adds the key below the last one.
      at('model.activations_checkpoint_granularity', 'activations_checkpoint_granularity: full'),
      [],
      [
        {
          title: 'Set model.activations_checkpoint_num_layers: 1',
          edits: [
            {
              range: { start: { line: 8, character: 0 }, end: { line: 8, character: 0 } },
              newText: '  activations_checkpoint_num_layers: 1\n',
            },
          ],
        },
      ],
    ),
  );
  clean(text + '  activations_checkpoint_num_layers: 1\n');
});

test('RL-R10: full recompute of more layers than a pipeline stage holds', () => {
  const text = nemo1(
    '  num_layers: 32',
    '  pipeline_model_parallel_size: 4',
    '  activations_checkpoint_granularity: full',
    '  activations_checkpoint_method: block',
    '  activations_checkpoint_num_layers: 10',
  );
  const msg = 'recompute layers 10 must be between 1 and the layers per pipeline stage 8 (= 32/4)';
  const n = at('model.activations_checkpoint_num_layers', 'activations_checkpoint_num_layers: 10');
  const L = at('model.num_layers', 'num_layers: 32');
  const pp = at('model.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 4');
  expectFindings(
    text,
    'RL-R10',
    once(text, 'RL-R10', 'error', msg, n, [L, pp], [setFix(text, 'activations_checkpoint_num_layers: 10', '8')]),
  );
  clean(text.replace('activations_checkpoint_num_layers: 10', 'activations_checkpoint_num_layers: 8'));
  const zero = text.replace('activations_checkpoint_num_layers: 10', 'activations_checkpoint_num_layers: 0');
  const n0 = at('model.activations_checkpoint_num_layers', 'activations_checkpoint_num_layers: 0');
  const msg0 = 'recompute layers 0 must be between 1 and the layers per pipeline stage 8 (= 32/4)';
  expectFindings(
    zero,
    'RL-R10',
    once(zero, 'RL-R10', 'error', msg0, n0, [L, pp], [setFix(zero, 'activations_checkpoint_num_layers: 0', '1')]),
  );
});

test('RL-R10: selective recompute takes no layer count (error) and no method (warning)', () => {
  const text = nemo1(
    '  activations_checkpoint_granularity: selective',
    '  activations_checkpoint_method: uniform',
    '  activations_checkpoint_num_layers: 2',
  );
  const gr = at('model.activations_checkpoint_granularity', 'activations_checkpoint_granularity: selective');
  const m = at('model.activations_checkpoint_method', 'activations_checkpoint_method: uniform');
  const n = at('model.activations_checkpoint_num_layers', 'activations_checkpoint_num_layers: 2');
  const nMsg = 'selective recompute takes no layer count (got 2); set it to null';
  const mMsg = 'selective recompute ignores the recompute method (uniform); Megatron-LM requires it to be null';
  expectFindings(text, 'RL-R10', [
    ...once(text, 'RL-R10', 'error', nMsg, n, [gr], [setFix(text, 'activations_checkpoint_num_layers: 2', 'null')]),
    ...once(text, 'RL-R10', 'warning', mMsg, m, [gr], [setFix(text, 'activations_checkpoint_method: uniform', 'null')]),
  ]);
  clean(
    nemo1(
      '  activations_checkpoint_granularity: selective',
      '  activations_checkpoint_method: null',
      '  activations_checkpoint_num_layers: null',
    ),
  );
});

test('RL-R10 in a Bridge override uses the megatron-core key names', () => {
  const text = bridge(['  num_layers: 16', '  recompute_granularity: full', '  recompute_method: uniform', '  recompute_num_layers: 17']);
  // PP is left to the recipe: 17 recomputed layers exceed any stage of a 16-layer model.
  const msg = 'recompute layers 17 must be between 1 and the layers per pipeline stage (at most num_layers 16)';
  const n = at('model.recompute_num_layers', 'recompute_num_layers: 17');
  const L = at('model.num_layers', 'num_layers: 16');
  expectFindings(text, 'RL-R10', once(text, 'RL-R10', 'error', msg, n, [L], [setFix(text, 'recompute_num_layers: 17', '16')]));
  clean(text.replace('recompute_num_layers: 17', 'recompute_num_layers: 16'));
  // With PP written the stage bound applies: 16 layers over PP 2 hold 8 each.
  const pp2 = text
    .replace('  num_layers: 16', '  num_layers: 16\n  pipeline_model_parallel_size: 2')
    .replace('recompute_num_layers: 17', 'recompute_num_layers: 9');
  assert.deepEqual(
    diagnose(pp2)
      .filter((d) => d.code === 'RL-R10')
      .map((d) => d.message),
    ['recompute layers 9 must be between 1 and the layers per pipeline stage 8 (= 16/2)'],
  );
});

test('RL-R11: CPU offloading needs fewer offloaded layers than the model has', () => {
  const text = nemo1('  num_layers: 32', '  cpu_offloading: true', '  cpu_offloading_num_layers: 32');
  const msg = 'cpu_offloading_num_layers 32 must be ≥ 0 and below num_layers 32';
  const n = at('model.cpu_offloading_num_layers', 'cpu_offloading_num_layers: 32');
  const L = at('model.num_layers', 'num_layers: 32');
  expectFindings(text, 'RL-R11', once(text, 'RL-R11', 'error', msg, n, [L], [setFix(text, 'cpu_offloading_num_layers: 32', '31')]));
  clean(text.replace('cpu_offloading_num_layers: 32', 'cpu_offloading_num_layers: 31'));
  clean(text.replace('cpu_offloading_num_layers: 32', 'cpu_offloading_num_layers: 0'));
  // NeMo's own default, resolved: ${sum:${.num_layers},-1} = 31.
  clean(text.replace('cpu_offloading_num_layers: 32', 'cpu_offloading_num_layers: ${sum:${.num_layers},-1}'));
  // Not offloading: the count does not matter.
  clean(text.replace('cpu_offloading: true', 'cpu_offloading: false'));
});

test('RL-R11: CPU offloading excludes pipeline parallelism', () => {
  const text = nemo1('  pipeline_model_parallel_size: 2', '  cpu_offloading: true');
  const msg = 'CPU offloading does not support pipeline parallelism (PP = 2)';
  const off = at('model.cpu_offloading', 'cpu_offloading: true');
  const pp = at('model.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 2');
  expectFindings(text, 'RL-R11', once(text, 'RL-R11', 'error', msg, off, [pp], [setFix(text, 'cpu_offloading: true', 'false')]));
  clean(text.replace('pipeline_model_parallel_size: 2', 'pipeline_model_parallel_size: 1'));
});

test('RL-R11: CPU offloading excludes activation recomputation', () => {
  const text = nemo1('  cpu_offloading: true', '  activations_checkpoint_granularity: selective');
  const msg = 'CPU offloading does not work when activation recomputation is enabled (selective)';
  const off = at('model.cpu_offloading', 'cpu_offloading: true');
  const gr = at('model.activations_checkpoint_granularity', 'activations_checkpoint_granularity: selective');
  expectFindings(
    text,
    'RL-R11',
    once(
      text,
      'RL-R11',
      'error',
      msg,
      off,
      [gr],
      [setFix(text, 'cpu_offloading: true', 'false'), setFix(text, 'activations_checkpoint_granularity: selective', 'null')],
    ),
  );
  clean(text.replace('activations_checkpoint_granularity: selective', 'activations_checkpoint_granularity: null'));
});

test('RL-R11b: fine-grained activation offloading and cpu_offloading are exclusive', () => {
  const text = bridge(['  cpu_offloading: true', '  fine_grained_activation_offloading: true']);
  const msg = 'fine_grained_activation_offloading and cpu_offloading are mutually exclusive (both are true)';
  const fg = at('model.fine_grained_activation_offloading', 'fine_grained_activation_offloading: true');
  const off = at('model.cpu_offloading', 'cpu_offloading: true');
  expectFindings(text, 'RL-R11b', once(text, 'RL-R11b', 'error', msg, fg, [off], [setFix(text, 'cpu_offloading: true', 'false')]));
  clean(text.replace('fine_grained_activation_offloading: true', 'fine_grained_activation_offloading: false'));
});

// =============================================================================================
// R12–R17

test('RL-R12: model and dataset sequence lengths agree (Bridge error, NeMo 1.x warning)', () => {
  const b = lines('train:', '  micro_batch_size: 1', 'model:', '  seq_length: 8192', 'dataset:', '  seq_length: 4096');
  const msg = 'model sequence length 8192 differs from the dataset sequence length 4096';
  const ms = at('model.seq_length', 'seq_length: 8192');
  const ds = at('dataset.seq_length', 'seq_length: 4096');
  expectFindings(b, 'RL-R12', once(b, 'RL-R12', 'error', msg, ds, [ms], [setFix(b, 'seq_length: 4096', '8192')]));
  clean(b.replace('seq_length: 4096', 'seq_length: 8192'));

  const n = lines('name: x', 'trainer:', '  devices: 8', 'model:', '  encoder_seq_length: 8192', '  data:', '    seq_length: 4096');
  const ns = at('model.encoder_seq_length', 'encoder_seq_length: 8192');
  const nd = at('model.data.seq_length', '    seq_length: 4096');
  expectFindings(n, 'RL-R12', once(n, 'RL-R12', 'warning', msg, nd, [ns], [setFix(n, '    seq_length: 4096', '8192')]));
  // The usual spelling: an interpolation of the model's length.
  clean(n.replace('seq_length: 4096', 'seq_length: ${model.encoder_seq_length}'));
});

test('RL-R13: hierarchical CP sizes multiply to CP', () => {
  const text = bridge(['  context_parallel_size: 4', '  hierarchical_context_parallel_sizes: [2, 3]']);
  const msg = 'product of hierarchical_context_parallel_sizes [2, 3] is 6, not context_parallel_size 4';
  const h = at('model.hierarchical_context_parallel_sizes', 'hierarchical_context_parallel_sizes: [2, 3]');
  const cp = at('model.context_parallel_size', 'context_parallel_size: 4');
  expectFindings(text, 'RL-R13', once(text, 'RL-R13', 'error', msg, h, [cp]));
  clean(text.replace('[2, 3]', '[2, 2]'));
  // CP left to the recipe: skipped.
  clean(bridge(['  hierarchical_context_parallel_sizes: [2, 4]']));
});

test('RL-R13: cp_comm_type a2a+p2p needs hierarchical CP sizes', () => {
  const text = bridge(['  context_parallel_size: 4', '  cp_comm_type: a2a+p2p']);
  expectFindings(
    text,
    'RL-R13',
    once(
      text,
      'RL-R13',
      'error',
      'cp_comm_type a2a+p2p requires hierarchical_context_parallel_sizes',
      at('model.cp_comm_type', 'cp_comm_type: a2a+p2p'),
      [],
    ),
  );
  clean(text + '  hierarchical_context_parallel_sizes: [2, 2]\n');
  clean(text.replace('a2a+p2p', 'p2p'));
});

test('RL-R13: a per-layer cp_comm_type list has one entry per layer', () => {
  const text = bridge([
    '  num_layers: 4',
    '  context_parallel_size: 4',
    '  hierarchical_context_parallel_sizes: [2, 2]',
    '  cp_comm_type: [p2p, a2a+p2p, p2p]',
  ]);
  const msg = 'cp_comm_type lists 3 entries but num_layers is 4';
  const t = at('model.cp_comm_type', 'cp_comm_type: [p2p, a2a+p2p, p2p]');
  const L = at('model.num_layers', 'num_layers: 4');
  expectFindings(text, 'RL-R13', once(text, 'RL-R13', 'error', msg, t, [L]));
  clean(text.replace('[p2p, a2a+p2p, p2p]', '[p2p, a2a+p2p, p2p, a2a]'));
});

test('RL-R14: finetuning with CP > 1 needs per-token loss and no averaging in the collective', () => {
  const text = bridge(
    ['  context_parallel_size: 2', '  calculate_per_token_loss: false'],
    'ddp:',
    '  average_in_collective: true',
    'checkpoint:',
    '  finetune: true',
  );
  const cp = at('model.context_parallel_size', 'context_parallel_size: 2');
  const loss = at('model.calculate_per_token_loss', 'calculate_per_token_loss: false');
  const avg = at('ddp.average_in_collective', 'average_in_collective: true');
  const m1 = 'finetuning with CP = 2 requires model.calculate_per_token_loss: true';
  const m2 = 'finetuning with CP = 2 requires ddp.average_in_collective: false';
  expectFindings(text, 'RL-R14', [
    ...once(text, 'RL-R14', 'error', m1, loss, [cp], [setFix(text, 'calculate_per_token_loss: false', 'true')]),
    ...once(text, 'RL-R14', 'error', m2, avg, [cp], [setFix(text, 'average_in_collective: true', 'false')]),
  ]);
  clean(
    text
      .replace('calculate_per_token_loss: false', 'calculate_per_token_loss: true')
      .replace('average_in_collective: true', 'average_in_collective: false'),
  );
  // Not finetuning: pretraining with CP may average in the collective.
  clean(text.replace('finetune: true', 'finetune: false').replace('calculate_per_token_loss: false', 'calculate_per_token_loss: true'));
});

test('RL-R14: a PEFT section means finetuning; `peft: null` does not', () => {
  const text = bridge(['  context_parallel_size: 2', '  calculate_per_token_loss: false'], 'peft:', '  dim: 8');
  const m1 = 'finetuning with CP = 2 requires model.calculate_per_token_loss: true';
  const cp = at('model.context_parallel_size', 'context_parallel_size: 2');
  const loss = at('model.calculate_per_token_loss', 'calculate_per_token_loss: false');
  expectFindings(text, 'RL-R14', once(text, 'RL-R14', 'error', m1, loss, [cp], [setFix(text, 'calculate_per_token_loss: false', 'true')]));
  clean(bridge(['  context_parallel_size: 2', '  calculate_per_token_loss: false'], 'peft: null'));
});

test('RL-R15: PP > 1 needs pipeline_dtype in NeMo 2.0 (an explicit null is wrong); Megatron-Bridge fills it from params_dtype', () => {
  const msg = 'pipeline parallelism (PP = 2) requires pipeline_dtype to be set (e.g. bf16)';
  // Bridge's TransformerConfig.finalize: pipeline_dtype = params_dtype when PP > 1 and it is None.
  clean(bridge(['  pipeline_model_parallel_size: 2', '  pipeline_dtype: null']));
  clean(bridge(['  pipeline_model_parallel_size: 2']));

  const n2 = lines(
    '_target_: nemo.collections.llm.gpt.model.llama.LlamaModel',
    'config:',
    '  _target_: nemo.collections.llm.gpt.model.llama.Llama3Config8B',
    '  pipeline_model_parallel_size: 2',
    '  pipeline_dtype: null',
  );
  const d2 = at('config.pipeline_dtype', 'pipeline_dtype: null');
  const pp2 = at('config.pipeline_model_parallel_size', 'pipeline_model_parallel_size: 2');
  expectFindings(n2, 'RL-R15', once(n2, 'RL-R15', 'error', msg, d2, [pp2]));
  clean(n2.replace('pipeline_dtype: null', 'pipeline_dtype: bf16'));
});

test('RL-R16: only one of train_iters, train_samples, num_epochs', () => {
  const text = lines('train:', '  train_iters: 100', '  train_samples: 1000', 'model:', '  seq_length: 8192');
  const msg = 'set only one of train_iters, train_samples, num_epochs (found train_iters 100, train_samples 1000)';
  const it = at('train.train_iters', 'train_iters: 100');
  const sa = at('train.train_samples', 'train_samples: 1000');
  expectFindings(text, 'RL-R16', once(text, 'RL-R16', 'error', msg, it, [sa]));
  clean(text.replace('train_samples: 1000', 'train_samples: null'));
  clean(text.replace('  train_samples: 1000\n', ''));
});

test('RL-R17: fp16 and bf16 are exclusive', () => {
  const text = bridge([], 'mixed_precision:', '  fp16: true', '  bf16: true');
  const msg = 'fp16 and bf16 cannot both be true';
  const f16 = at('mixed_precision.fp16', 'fp16: true');
  const b16 = at('mixed_precision.bf16', 'bf16: true');
  expectFindings(text, 'RL-R17', once(text, 'RL-R17', 'error', msg, f16, [b16]));
  clean(text.replace('fp16: true', 'fp16: false'));
});

// =============================================================================================
// R18–R22: NeMo 1.x specifics, R21

test('RL-R18: Torch FSDP does not support FP8', () => {
  const text = nemo1('  fsdp: true', '  fp8: true');
  const msg = 'Torch FSDP does not support FP8 (model.fsdp and model.fp8 are both true)';
  const fsdp = at('model.fsdp', 'fsdp: true');
  const fp8 = at('model.fp8', 'fp8: true');
  expectFindings(text, 'RL-R18', once(text, 'RL-R18', 'error', msg, fsdp, [fp8]));
  clean(text.replace('fp8: true', 'fp8: false'));
});

test('RL-R19: megatron_amp_O2 does not support fp16 precision (training only: a file with an optimizer)', () => {
  const text = lines(
    'name: x',
    'trainer:',
    '  devices: 8',
    '  precision: 16',
    'model:',
    '  encoder_seq_length: 4096',
    '  megatron_amp_O2: true',
    '  optim:',
    '    name: fused_adam',
  );
  const msg = 'fp16 training is not supported with megatron_amp_O2 (trainer.precision = 16)';
  const o2 = at('model.megatron_amp_O2', 'megatron_amp_O2: true');
  const prec = at('trainer.precision', 'precision: 16');
  expectFindings(text, 'RL-R19', once(text, 'RL-R19', 'error', msg, o2, [prec], [setFix(text, 'megatron_amp_O2: true', 'false')]));
  const mixed = text.replace('precision: 16', 'precision: 16-mixed');
  const precMixed = at('trainer.precision', 'precision: 16-mixed');
  const msgMixed = 'fp16 training is not supported with megatron_amp_O2 (trainer.precision = 16-mixed)';
  expectFindings(
    mixed,
    'RL-R19',
    once(mixed, 'RL-R19', 'error', msgMixed, o2, [precMixed], [setFix(mixed, 'megatron_amp_O2: true', 'false')]),
  );
  clean(text.replace('precision: 16', 'precision: bf16-mixed'));
  clean(text.replace('megatron_amp_O2: true', 'megatron_amp_O2: false'));
  // A PTQ / export config restores a model and never reaches configure_optimizers (NeMo megatron_gpt_ptq.yaml).
  clean(text.replace('  optim:\n    name: fused_adam\n', ''));
});

test('RL-R20: gradient_accumulation_fusion needs megatron_amp_O2 (NeMo turns it off: warning)', () => {
  const text = nemo1('  megatron_amp_O2: false', '  gradient_accumulation_fusion: true');
  const msg = 'gradient_accumulation_fusion is true but megatron_amp_O2 is false; NeMo turns the fusion off';
  const f = at('model.gradient_accumulation_fusion', 'gradient_accumulation_fusion: true');
  const o2 = at('model.megatron_amp_O2', 'megatron_amp_O2: false');
  expectFindings(text, 'RL-R20', once(text, 'RL-R20', 'warning', msg, f, [o2]));
  clean(text.replace('megatron_amp_O2: false', 'megatron_amp_O2: true'));
});

test('RL-R20: with DP > 1 and PP 1, gradient_accumulation_fusion needs a distributed optimizer', () => {
  const text = nemo1(
    '  tensor_model_parallel_size: 2',
    '  megatron_amp_O2: true',
    '  gradient_accumulation_fusion: true',
    '  optim:',
    '    name: fused_adam',
  );
  const msg =
    'gradient_accumulation_fusion with data-parallel size 4 and PP = 1 needs a distributed optimizer, got optim.name fused_adam; NeMo turns the fusion off';
  const f = at('model.gradient_accumulation_fusion', 'gradient_accumulation_fusion: true');
  const opt = at('model.optim.name', 'name: fused_adam');
  const dev = at('trainer.devices', 'devices: 8');
  expectFindings(text, 'RL-R20', once(text, 'RL-R20', 'warning', msg, f, [opt, dev]));
  clean(text.replace('name: fused_adam', 'name: mcore_distributed_optim'));
  clean(text.replace('name: fused_adam', 'name: distributed_fused_adam'));
  clean(text.replace('tensor_model_parallel_size: 2', 'tensor_model_parallel_size: 2\n  pipeline_model_parallel_size: 2'));
  clean(text.replace('tensor_model_parallel_size: 2', 'tensor_model_parallel_size: 8')); // DP 1
});

test('RL-R21: EP with TP needs sequence parallelism (warning)', () => {
  const text = nemo1('  tensor_model_parallel_size: 2', '  expert_model_parallel_size: 4', '  sequence_parallel: false');
  const msg = 'expert parallelism (EP = 4) with tensor parallelism (TP = 2) needs sequence_parallel: true';
  const sp = at('model.sequence_parallel', 'sequence_parallel: false');
  const ep = at('model.expert_model_parallel_size', 'expert_model_parallel_size: 4');
  const tp = at('model.tensor_model_parallel_size', 'tensor_model_parallel_size: 2');
  expectFindings(text, 'RL-R21', once(text, 'RL-R21', 'warning', msg, sp, [ep, tp], [setFix(text, 'sequence_parallel: false', 'true')]));
  clean(text.replace('sequence_parallel: false', 'sequence_parallel: true'));
});

test('RL-R22: pipeline_model_parallel_split_rank is versioned: nothing up to NeMo 2.3, a warning when no release is named or after it', () => {
  const text = nemo1('  pipeline_model_parallel_split_rank: 2');
  const r = at('model.pipeline_model_parallel_split_rank', 'pipeline_model_parallel_split_rank: 2');
  const fix = [setFix(text, 'pipeline_model_parallel_split_rank: 2', 'null')];
  const note = 'newer NeMo releases reject it; NeMo 2.3 and older accept it (nemo/lightning/megatron_init.py; formats.md R22)';
  expectFindings(
    text,
    'RL-R22',
    once(
      text,
      'RL-R22',
      'warning',
      `pipeline_model_parallel_split_rank is 2: ${note}; no NeMo release named; add \`# recipe-lens: nemo=X.Y\` or set recipeLens.versions`,
      r,
      [],
      fix,
    ),
  );
  clean(text.replace('split_rank: 2', 'split_rank: null'));
  // A release known to accept it (NeMo's own T5, BART and UL2 configs ship it): nothing, by modeline or by setting.
  clean(`# recipe-lens: nemo=2.3\n${text}`);
  clean(`# recipe-lens: nemo=1.23\n${text}`);
  assert.deepEqual(
    codes(diagnose(text, { versions: { nemo: '2.0' } })).filter((c) => c === 'RL-R22'),
    [],
  );
  // A later release: still a warning (the release that added the assertion is not known), naming the target.
  const later = `# recipe-lens: nemo=2.5\n${text}`;
  const d = diagnose(later).filter((x) => x.code === 'RL-R22');
  assert.deepEqual(
    d.map((x) => [x.severity, x.message]),
    [['warning', `pipeline_model_parallel_split_rank is 2: ${note}; checked against NeMo 2.5 (modeline)`]],
  );
  // The modeline wins over the setting.
  assert.deepEqual(
    codes(diagnose(`# recipe-lens: nemo=2.2\n${text}`, { versions: { nemo: '2.5' } })).filter((c) => c === 'RL-R22'),
    [],
  );
});

test('RL-R22 says nothing on NeMo 1.x encoder–decoder recipes (T5, BART, UL2, T0): the split rank is where their decoder starts', () => {
  const text = nemo1('  pipeline_model_parallel_split_rank: 0');
  for (const name of ['megatron_t5', 'megatron_bart', 'megatron_ul2', 'megatron_t0', 't5_220m'])
    assert.deepEqual(
      codes(diagnose(text.replace('name: x', `name: ${name}`))).filter((c) => c === 'RL-R22'),
      [],
      name,
    );
  // A GPT recipe named like one (megatron_gpt5 is no T5) still gets the warning.
  assert.deepEqual(
    codes(diagnose(text.replace('name: x', 'name: megatron_gpt5'))).filter((c) => c === 'RL-R22'),
    ['RL-R22'],
  );
});

// =============================================================================================
// K1–K17: TensorRT-LLM KV cache

test('RL-K1: free_gpu_memory_fraction in [0, 1] (schema range)', () => {
  const text = trt('  free_gpu_memory_fraction: 1.5');
  expectFindings(
    text,
    'RL-K1',
    once(
      text,
      'RL-K1',
      'error',
      '`free_gpu_memory_fraction` must be a number ≥ 0 and ≤ 1, got 1.5',
      at('kv_cache_config.free_gpu_memory_fraction', 'free_gpu_memory_fraction: 1.5'),
      [],
      [{ title: 'Clamp to 1', edits: [{ range: val(text, 'free_gpu_memory_fraction: 1.5'), newText: '1' }] }],
    ),
  );
  clean(trt('  free_gpu_memory_fraction: 1'));
  clean(trt('  free_gpu_memory_fraction: 0'));
});

test('RL-K2: cross_kv_cache_fraction is in [0, 1] (error) and for encoder-decoder models only (warning)', () => {
  const text = trt('  cross_kv_cache_fraction: 1.5');
  const c = at('kv_cache_config.cross_kv_cache_fraction', 'cross_kv_cache_fraction: 1.5');
  expectFindings(text, 'RL-K2', [
    ...once(
      text,
      'RL-K2',
      'error',
      '`cross_kv_cache_fraction` must be a number ≥ 0 and ≤ 1, got 1.5',
      c,
      [],
      [{ title: 'Clamp to 1', edits: [{ range: val(text, 'cross_kv_cache_fraction: 1.5'), newText: '1' }] }],
    ),
    ...once(
      text,
      'RL-K2',
      'warning',
      'cross_kv_cache_fraction 1.5 is only for encoder-decoder models; TensorRT-LLM rejects it for decoder-only models',
      c,
      [],
    ),
  ]);
  const half = trt('  cross_kv_cache_fraction: 0.5');
  expectFindings(
    half,
    'RL-K2',
    once(
      half,
      'RL-K2',
      'warning',
      'cross_kv_cache_fraction 0.5 is only for encoder-decoder models; TensorRT-LLM rejects it for decoder-only models',
      at('kv_cache_config.cross_kv_cache_fraction', 'cross_kv_cache_fraction: 0.5'),
      [],
    ),
  );
  clean(trt('  cross_kv_cache_fraction: null'));
});

test('RL-K3: an unknown KV cache dtype warns; a non-string is an error', () => {
  const text = trt('  dtype: int4');
  expectFindings(
    text,
    'RL-K3',
    once(
      text,
      'RL-K3',
      'warning',
      'kv_cache_config.dtype "int4" is not a KV cache dtype TensorRT-LLM lists (auto, fp8, fp8_ds_mla, nvfp4, bfloat16, float16, float32, …)',
      at('kv_cache_config.dtype', 'dtype: int4'),
      [],
    ),
  );
  const num = trt('  dtype: 5');
  expectFindings(
    num,
    'RL-K3',
    once(num, 'RL-K3', 'error', '`dtype` must be a string, got the integer 5', at('kv_cache_config.dtype', 'dtype: 5'), []),
  );
  clean(trt('  dtype: fp8'));
  clean(trt('  dtype: FP8')); // validate_dtype lower-cases
  clean(trt('  dtype: bfloat16'));
});

test('RL-K4: fp8_ds_mla excludes KV pool rebalancing', () => {
  const text = trt('  dtype: fp8_ds_mla', '  enable_kv_pool_rebalance: true');
  const msg = 'kv_cache_config.dtype fp8_ds_mla cannot be used with enable_kv_pool_rebalance: true';
  const r = at('kv_cache_config.enable_kv_pool_rebalance', 'enable_kv_pool_rebalance: true');
  const d = at('kv_cache_config.dtype', 'dtype: fp8_ds_mla');
  expectFindings(text, 'RL-K4', once(text, 'RL-K4', 'error', msg, r, [d]));
  clean(text.replace('enable_kv_pool_rebalance: true', 'enable_kv_pool_rebalance: false'));
  clean(text.replace('dtype: fp8_ds_mla', 'dtype: fp8'));
  // The dtype is lower-cased before the check.
  const upper = trt('  dtype: FP8_DS_MLA', '  enable_kv_pool_rebalance: true');
  const msgUpper = 'kv_cache_config.dtype FP8_DS_MLA cannot be used with enable_kv_pool_rebalance: true';
  const du = at('kv_cache_config.dtype', 'dtype: FP8_DS_MLA');
  expectFindings(upper, 'RL-K4', once(upper, 'RL-K4', 'error', msgUpper, r, [du]));
});

test('RL-K5: a disk tier needs disk_cache_path', () => {
  const text = trt('  disk_cache_size: 1000');
  expectFindings(
    text,
    'RL-K5',
    once(
      text,
      'RL-K5',
      'error',
      'disk_cache_size 1000 needs disk_cache_path (an existing directory)',
      at('kv_cache_config.disk_cache_size', 'disk_cache_size: 1000'),
      [],
    ),
  );
  const empty = text + '  disk_cache_path: ""\n';
  const size = at('kv_cache_config.disk_cache_size', 'disk_cache_size: 1000');
  const path = at('kv_cache_config.disk_cache_path', 'disk_cache_path: ""', 0, '');
  const msg = 'disk_cache_size 1000 needs disk_cache_path (an existing directory)';
  expectFindings(empty, 'RL-K5', once(empty, 'RL-K5', 'error', msg, size, [path]));
  clean(text + '  disk_cache_path: /scratch/kv\n');
  clean(trt('  disk_cache_size: 0'));
});

test('RL-K6: extra Mamba snapshots need KV cache manager v2', () => {
  const text = trt(
    '  use_kv_cache_manager_v2: false',
    '  mamba_state_config:',
    '    additional_snapshot_offsets_from_start: [64]',
    '    enable_branch_snapshot: true',
  );
  const v2 = at('kv_cache_config.use_kv_cache_manager_v2', 'use_kv_cache_manager_v2: false');
  const off = at(
    'kv_cache_config.mamba_state_config.additional_snapshot_offsets_from_start',
    'additional_snapshot_offsets_from_start: [64]',
  );
  const br = at('kv_cache_config.mamba_state_config.enable_branch_snapshot', 'enable_branch_snapshot: true');
  const m1 = 'mamba_state_config.additional_snapshot_offsets_from_start requires use_kv_cache_manager_v2 (it is false)';
  const m2 = 'mamba_state_config.enable_branch_snapshot requires use_kv_cache_manager_v2 (it is false)';
  expectFindings(text, 'RL-K6', [...once(text, 'RL-K6', 'error', m1, off, [v2]), ...once(text, 'RL-K6', 'error', m2, br, [v2])]);
  clean(text.replace('use_kv_cache_manager_v2: false', 'use_kv_cache_manager_v2: true'));
  clean(text.replace('use_kv_cache_manager_v2: false', 'use_kv_cache_manager_v2: auto'));
  clean(
    trt(
      '  use_kv_cache_manager_v2: false',
      '  mamba_state_config:',
      '    additional_snapshot_offsets_from_start: []',
      '    enable_branch_snapshot: false',
    ),
  );
});

test('RL-K7: the legacy Mamba interval and periodic_snapshot_interval are exclusive', () => {
  const text = trt('  mamba_state_cache_interval: 128', '  mamba_state_config:', '    periodic_snapshot_interval: 256');
  const msg = 'set mamba_state_config.periodic_snapshot_interval (256) or the deprecated mamba_state_cache_interval (128), not both';
  const legacy = at('kv_cache_config.mamba_state_cache_interval', 'mamba_state_cache_interval: 128');
  const periodic = at('kv_cache_config.mamba_state_config.periodic_snapshot_interval', 'periodic_snapshot_interval: 256');
  expectFindings(text, 'RL-K7', once(text, 'RL-K7', 'error', msg, legacy, [periodic]));
  clean(trt('  mamba_state_config:', '    periodic_snapshot_interval: 256'));
});

test('RL-K8: max_attention_window is a non-empty list of positive windows', () => {
  const empty = trt('  max_attention_window: []');
  expectFindings(
    empty,
    'RL-K8',
    once(
      empty,
      'RL-K8',
      'error',
      '`max_attention_window` must list at least 1 entry, got 0',
      at('kv_cache_config.max_attention_window', 'max_attention_window: []'),
      [],
    ),
  );
  const text = trt('  max_attention_window: [4096, 0, 1024, -5]');
  const r = rangeOf(text, '[4096, 0, 1024, -5]');
  const item = (s: string, i: number, v: string): Diagnostic => {
    const start = { line: r.start.line, character: r.start.character + s.length };
    return {
      code: 'RL-K8',
      severity: 'error',
      message: `max_attention_window[${i}] is ${v}; attention windows must be positive`,
      path: `kv_cache_config.max_attention_window[${i}]`,
      range: { start, end: { line: start.line, character: start.character + v.length } },
    };
  };
  expectFindings(text, 'RL-K8', [item('[4096, ', 1, '0'), item('[4096, 0, 1024, ', 3, '-5')]);
  clean(trt('  max_attention_window: [4096, 32768]'));
  // -1 is TensorRT-LLM's recurrent-state window (LinearCacheType.RECURRENT_STATES, kRecurrentStates = -1).
  clean(trt('  max_attention_window: [4096, -1]'));
});

test('RL-K9: pool_ratio entries are positive (schema, per entry) and sum to 1', () => {
  const text = trt('  pool_ratio: [0.5, 0.4]');
  expectFindings(
    text,
    'RL-K9',
    once(
      text,
      'RL-K9',
      'error',
      'pool_ratio entries must sum to 1.0, they sum to 0.9',
      at('kv_cache_config.pool_ratio', 'pool_ratio: [0.5, 0.4]'),
      [],
    ),
  );
  const neg = trt('  pool_ratio: [1.5, -0.5]');
  expectFindings(neg, 'RL-K9', [
    {
      code: 'RL-K9',
      severity: 'error',
      message: '`pool_ratio[1]` must be a number > 0, got -0.5',
      path: 'kv_cache_config.pool_ratio[1]',
      range: rangeOf(neg, '-0.5'),
    },
  ]);
  const empty = trt('  pool_ratio: []');
  expectFindings(
    empty,
    'RL-K9',
    once(empty, 'RL-K9', 'error', '`pool_ratio` must list at least 1 entry, got 0', at('kv_cache_config.pool_ratio', 'pool_ratio: []'), []),
  );
  clean(trt('  pool_ratio: [0.25, 0.75]'));
  clean(trt('  pool_ratio: [0.1, 0.2, 0.7]')); // 1.0000000000000002 is within the 1e-6 tolerance
});

test('RL-K10: tokens_per_block a power of two greater than 1 (warning: documented, not validated)', () => {
  const text = trt('  tokens_per_block: 48');
  expectFindings(
    text,
    'RL-K10',
    once(
      text,
      'RL-K10',
      'warning',
      'tokens_per_block 48 should be a power of two greater than 1 (docs: "It must be a power of two greater than 1")',
      at('kv_cache_config.tokens_per_block', 'tokens_per_block: 48'),
      [],
    ),
  );
  const one = trt('  tokens_per_block: 1');
  expectFindings(
    one,
    'RL-K10',
    once(
      one,
      'RL-K10',
      'warning',
      'tokens_per_block 1 should be a power of two greater than 1 (docs: "It must be a power of two greater than 1")',
      at('kv_cache_config.tokens_per_block', 'tokens_per_block: 1'),
      [],
    ),
  );
  clean(trt('  tokens_per_block: 64'));
});

test('RL-K11: KV events need block reuse', () => {
  const text = trt('  enable_block_reuse: false', '  event_buffer_max_size: 1024');
  const msg = 'event_buffer_max_size 1024 has no effect with enable_block_reuse: false (events describe reusable blocks)';
  const ev = at('kv_cache_config.event_buffer_max_size', 'event_buffer_max_size: 1024');
  const re = at('kv_cache_config.enable_block_reuse', 'enable_block_reuse: false');
  expectFindings(text, 'RL-K11', once(text, 'RL-K11', 'warning', msg, ev, [re]));
  clean(text.replace('enable_block_reuse: false', 'enable_block_reuse: true'));
  clean(text.replace('event_buffer_max_size: 1024', 'event_buffer_max_size: 0'));
});

test('RL-K12: secondary_offload_min_priority needs a host tier', () => {
  const text = trt('  secondary_offload_min_priority: 50');
  expectFindings(
    text,
    'RL-K12',
    once(
      text,
      'RL-K12',
      'warning',
      'secondary_offload_min_priority 50 has no effect without a host tier (host_cache_size is not set; set it > 0)',
      at('kv_cache_config.secondary_offload_min_priority', 'secondary_offload_min_priority: 50'),
      [],
    ),
  );
  const zero = text + '  host_cache_size: 0\n';
  const msg0 = 'secondary_offload_min_priority 50 has no effect without a host tier (host_cache_size is 0; set it > 0)';
  const p = at('kv_cache_config.secondary_offload_min_priority', 'secondary_offload_min_priority: 50');
  const h = at('kv_cache_config.host_cache_size', 'host_cache_size: 0');
  expectFindings(zero, 'RL-K12', once(zero, 'RL-K12', 'warning', msg0, p, [h]));
  clean(text + '  host_cache_size: 45000000000\n');
});

test('RL-K13: several KV capacity limits, the smallest wins (info)', () => {
  const text = trt('  max_tokens: 8192', '  free_gpu_memory_fraction: 0.9', '  max_gpu_total_bytes: 1000000');
  const msg =
    'max_tokens 8192, free_gpu_memory_fraction 0.9, max_gpu_total_bytes 1000000 all limit the KV cache; the smallest resulting pool wins';
  const t = at('kv_cache_config.max_tokens', 'max_tokens: 8192');
  const f = at('kv_cache_config.free_gpu_memory_fraction', 'free_gpu_memory_fraction: 0.9');
  const b = at('kv_cache_config.max_gpu_total_bytes', 'max_gpu_total_bytes: 1000000');
  expectFindings(text, 'RL-K13', once(text, 'RL-K13', 'info', msg, t, [f, b]));
  clean(trt('  free_gpu_memory_fraction: 0.9'));
  clean(trt('  free_gpu_memory_fraction: 0.9', '  max_gpu_total_bytes: 0')); // 0 = no byte cap
  clean(trt('  max_tokens: null', '  free_gpu_memory_fraction: 0.9'));
});

test('RL-K14: kv_events_config is rejected at startup', () => {
  const text = trt('  kv_events_config:', '    enable_kv_cache_events: true');
  expectFindings(text, 'RL-K14', [
    {
      code: 'RL-K14',
      severity: 'error',
      message: 'kv_events_config (streaming KV events) is rejected at startup; use event_buffer_max_size and the /kv_cache_events endpoint',
      path: 'kv_cache_config.kv_events_config',
      // The whole block mapping under the key.
      range: { start: { line: 2, character: 4 }, end: { line: 3, character: 0 } },
    },
  ]);
  clean(trt('  kv_events_config: null'));
});

test('RL-K15: prefill and decode servers agree on the KV dtype (disaggregated)', () => {
  const disagg = (ctx: string, gen: string, top = '') =>
    lines(
      'hostname: localhost',
      'port: 8000',
      'backend: pytorch',
      ...(top ? ['kv_cache_config:', `  dtype: ${top}`] : []),
      'context_servers:',
      '  num_instances: 1',
      '  urls: ["localhost:8001"]',
      ...(ctx ? ['  kv_cache_config:', `    dtype: ${ctx}`] : []),
      'generation_servers:',
      '  num_instances: 1',
      '  urls: ["localhost:8002"]',
      ...(gen ? ['  kv_cache_config:', `    dtype: ${gen}`] : []),
    );
  const text = disagg('fp8', 'auto');
  const msg = 'KV cache dtype differs between context (fp8) and generation (auto) servers; the transferred cache must have one dtype';
  const c = at('context_servers.kv_cache_config.dtype', 'dtype: fp8');
  const g = at('generation_servers.kv_cache_config.dtype', 'dtype: auto');
  expectFindings(text, 'RL-K15', once(text, 'RL-K15', 'warning', msg, c, [g]));
  // The generation side inherits the shared top-level dtype.
  const top = disagg('fp8', '', 'auto');
  const t = at('kv_cache_config.dtype', 'dtype: auto');
  expectFindings(top, 'RL-K15', once(top, 'RL-K15', 'warning', msg, c, [t]));
  clean(disagg('fp8', 'fp8'));
  clean(disagg('FP8', 'fp8')); // lower-cased by TensorRT-LLM
  clean(disagg('', 'fp8', 'fp8'));
  clean(disagg('', ''));
  // A generation-only deployment (context_servers.num_instances: 0) transfers no cache: nothing to agree on.
  const genOnly = text.replace('context_servers:\n  num_instances: 1', 'context_servers:\n  num_instances: 0');
  assert.notEqual(genOnly, text);
  clean(genOnly);
});

test('RL-K16: block_reuse_policy was renamed to policy, with the rename fix on the key', () => {
  const text = trt('  block_reuse_config:', '    block_reuse_policy: per_request');
  expectFindings(
    text,
    'RL-K16',
    once(
      text,
      'RL-K16',
      'error',
      '`block_reuse_policy` was renamed to `policy`',
      at('kv_cache_config.block_reuse_config.block_reuse_policy', 'block_reuse_policy: per_request'),
      [],
      [{ title: 'Rename to policy', edits: [{ range: key(text, 'block_reuse_policy: per_request'), newText: 'policy' }] }],
    ),
  );
  clean(trt('  block_reuse_config:', '    policy: per_request'));
});

test('RL-K17: KV events are published for the PyTorch backend only (info)', () => {
  const text = lines('backend: tensorrt', 'kv_cache_config:', '  event_buffer_max_size: 1024');
  const msg = 'KV cache events are published for backend: pytorch only (this file uses tensorrt)';
  const ev = at('kv_cache_config.event_buffer_max_size', 'event_buffer_max_size: 1024');
  const be = at('backend', 'backend: tensorrt');
  expectFindings(text, 'RL-K17', once(text, 'RL-K17', 'info', msg, ev, [be]));
  clean(text.replace('backend: tensorrt', 'backend: pytorch'));
  clean(text.replace('backend: tensorrt', 'backend: PyTorch'));
});

test('K rules apply to each server role of a disaggregated config', () => {
  const text = lines(
    'context_servers:',
    '  num_instances: 1',
    '  urls: ["localhost:8001"]',
    '  kv_cache_config:',
    '    tokens_per_block: 48',
    'generation_servers:',
    '  num_instances: 1',
    '  urls: ["localhost:8002"]',
    '  kv_cache_config:',
    '    disk_cache_size: 1000',
  );
  expectFindings(
    text,
    'RL-K10',
    once(
      text,
      'RL-K10',
      'warning',
      'tokens_per_block 48 should be a power of two greater than 1 (docs: "It must be a power of two greater than 1")',
      at('context_servers.kv_cache_config.tokens_per_block', 'tokens_per_block: 48'),
      [],
    ),
  );
  expectFindings(
    text,
    'RL-K5',
    once(
      text,
      'RL-K5',
      'error',
      'disk_cache_size 1000 needs disk_cache_path (an existing directory)',
      at('generation_servers.kv_cache_config.disk_cache_size', 'disk_cache_size: 1000'),
      [],
    ),
  );
});

// =============================================================================================
// RT1–RT8: KV cache retention

const ranges = (...items: string[][]) =>
  lines('token_range_retention_configs:', ...items.flatMap(([first, ...rest]) => [`  - ${first!}`, ...rest.map((l) => `    ${l}`)]));

test('RL-RT1: range priority in [0, 100] (schema range)', () => {
  const text = ranges(['token_start: 0', 'token_end: 64', 'priority: 101']);
  expectFindings(
    text,
    'RL-RT1',
    once(
      text,
      'RL-RT1',
      'error',
      '`priority` must be an integer ≥ 0 and ≤ 100, got 101',
      at('token_range_retention_configs[0].priority', 'priority: 101'),
      [],
      [{ title: 'Clamp to 100', edits: [{ range: val(text, 'priority: 101'), newText: '100' }] }],
    ),
  );
  clean(ranges(['token_start: 0', 'token_end: 64', 'priority: 100']));
});

test('RL-RT2: only the last range (by token_start) may be open-ended', () => {
  const text = ranges(['token_start: 0', 'priority: 80'], ['token_start: 64', 'token_end: 128', 'priority: 50']);
  const msg = 'only the last range may leave token_end unset; [0, end) is followed by the range starting at 64';
  const a = at('token_range_retention_configs[0].token_start', 'token_start: 0');
  const b = at('token_range_retention_configs[1].token_start', 'token_start: 64');
  expectFindings(text, 'RL-RT2', once(text, 'RL-RT2', 'error', msg, a, [b]));
  // An explicit null is the same end indicator; the finding sits on it.
  const nul = ranges(['token_start: 0', 'token_end: null', 'priority: 80'], ['token_start: 64', 'token_end: 128', 'priority: 50']);
  const e = at('token_range_retention_configs[0].token_end', 'token_end: null');
  expectFindings(nul, 'RL-RT2', once(nul, 'RL-RT2', 'error', msg, e, [b]));
  // Open-ended last after sorting, though first in the file.
  clean(ranges(['token_start: 64', 'priority: 80'], ['token_start: 0', 'token_end: 64', 'priority: 50']));
});

test('RL-RT3: token_start ≥ 0 (schema range)', () => {
  const text = ranges(['token_start: -32', 'token_end: 64', 'priority: 50']);
  expectFindings(
    text,
    'RL-RT3',
    once(
      text,
      'RL-RT3',
      'error',
      '`token_start` must be an integer ≥ 0, got -32',
      at('token_range_retention_configs[0].token_start', 'token_start: -32'),
      [],
    ),
  );
  clean(ranges(['token_start: 0', 'token_end: 64', 'priority: 50']));
});

test('RL-RT4: a range has a positive length', () => {
  const text = ranges(['token_start: 64', 'token_end: 32', 'priority: 50']);
  const msg = 'token range [64, 32) must have a positive, non-zero length (token_end > token_start)';
  const s = at('token_range_retention_configs[0].token_start', 'token_start: 64');
  const e = at('token_range_retention_configs[0].token_end', 'token_end: 32');
  expectFindings(text, 'RL-RT4', once(text, 'RL-RT4', 'error', msg, e, [s]));
  // token_end 0 also breaks the schema's lower bound (the schema half of RT4).
  const zero = ranges(['token_start: 0', 'token_end: 0', 'priority: 50']);
  const s0 = at('token_range_retention_configs[0].token_start', 'token_start: 0');
  const e0 = at('token_range_retention_configs[0].token_end', 'token_end: 0');
  const msg0 = 'token range [0, 0) must have a positive, non-zero length (token_end > token_start)';
  expectFindings(zero, 'RL-RT4', [
    ...once(zero, 'RL-RT4', 'error', '`token_end` must be an integer ≥ 1, got 0', e0, []),
    ...once(zero, 'RL-RT4', 'error', msg0, e0, [s0]),
  ]);
  clean(ranges(['token_start: 64', 'token_end: 96', 'priority: 50']));
});

test('RL-RT5: ranges do not overlap (after sorting by token_start)', () => {
  const text = ranges(['token_start: 0', 'token_end: 64', 'priority: 50'], ['token_start: 32', 'token_end: 96', 'priority: 60']);
  const msg = 'token ranges [0, 64) and [32, 96) overlap';
  const e = at('token_range_retention_configs[0].token_end', 'token_end: 64');
  const s = at('token_range_retention_configs[1].token_start', 'token_start: 32');
  expectFindings(text, 'RL-RT5', once(text, 'RL-RT5', 'error', msg, e, [s]));
  // Touching ranges and unsorted disjoint ranges are valid (kvCacheRetentionConfig.cpp examples, block-aligned).
  clean(ranges(['token_start: 0', 'token_end: 64', 'priority: 50'], ['token_start: 64', 'token_end: 96', 'priority: 60']));
  clean(ranges(['token_start: 64', 'token_end: 128', 'priority: 50'], ['token_start: 0', 'token_end: 32', 'priority: 60']));
});

test('RL-RT6: decode_retention_priority in [0, 100] (schema range)', () => {
  const text = ranges(['token_start: 0', 'priority: 50']) + 'decode_retention_priority: 150\n';
  expectFindings(
    text,
    'RL-RT6',
    once(
      text,
      'RL-RT6',
      'error',
      '`decode_retention_priority` must be an integer ≥ 0 and ≤ 100, got 150',
      at('decode_retention_priority', 'decode_retention_priority: 150'),
      [],
      [{ title: 'Clamp to 100', edits: [{ range: val(text, 'decode_retention_priority: 150'), newText: '100' }] }],
    ),
  );
  clean(ranges(['token_start: 0', 'priority: 50']) + 'decode_retention_priority: 100\n');
});

test('RL-RT7: a priority below secondary_offload_min_priority (30) is dropped, not offloaded (info)', () => {
  const text = ranges(['token_start: 0', 'priority: 10']);
  expectFindings(
    text,
    'RL-RT7',
    once(
      text,
      'RL-RT7',
      'info',
      'priority 10 is below the default secondary_offload_min_priority (30): when evicted, these blocks are dropped, not offloaded to host memory',
      at('token_range_retention_configs[0].priority', 'priority: 10'),
      [],
    ),
  );
  clean(ranges(['token_start: 0', 'priority: 30']));
});

test('RL-RT8: retention is per block of 32 tokens (info on an edge inside a block)', () => {
  const text = ranges(['token_start: 10', 'token_end: 100', 'priority: 50']);
  expectFindings(
    text,
    'RL-RT8',
    once(
      text,
      'RL-RT8',
      'info',
      'retention applies per block of 32 tokens: 10 and 100 fall inside a block, so the block holding them takes the priority of the range its first token belongs to',
      at('token_range_retention_configs[0].token_start', 'token_start: 10'),
      [],
    ),
  );
  const end = ranges(['token_start: 0', 'token_end: 100', 'priority: 50']);
  expectFindings(
    end,
    'RL-RT8',
    once(
      end,
      'RL-RT8',
      'info',
      'retention applies per block of 32 tokens: 100 falls inside a block, so the block holding it takes the priority of the range its first token belongs to',
      at('token_range_retention_configs[0].token_end', 'token_end: 100'),
      [],
    ),
  );
  clean(ranges(['token_start: 32', 'token_end: 128', 'priority: 50']));
});

test('a valid retention config with several ranges is clean', () => {
  clean(
    ranges(['token_start: 0', 'token_end: 64', 'priority: 90', 'duration_ms: 30000'], ['token_start: 64', 'priority: 35']) +
      'decode_retention_priority: 35\n',
  );
});
