// One analysis per (document, version, settings fingerprint): every consumer of a keystroke gets the same object,
// computed once; a settings change or a new version computes a new one; nothing is stale.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analysisStats, AnalysisStore, settingsFingerprint, type AnalysisSettings } from '../../src/core/analysis.js';
import { completions } from '../../src/core/complete.js';
import { completionContext } from '../../src/core/cursor.js';
import { hoverAt } from '../../src/core/hover.js';
import { buildSections } from '../../src/core/panel/index.js';
import { DEFAULT_UI } from '../../src/protocol.js';
import { EXAMPLES } from '../helpers.js';

const URI = 'file:///work/llama3_8b_128k.yaml';
const TEXT = readFileSync(join(EXAMPLES, 'llama3_8b_128k.yaml'), 'utf8');
const SETTINGS: AnalysisSettings = { gpu: 'h100', profile: 'megatron', attention: 'flash', memoryWarnings: true };

/** Everything the editor does after a keystroke: diagnostics, the status bar, the panel, a hover, a completion. */
function everyConsumer(store: AnalysisStore, version: number, text: string, settings = SETTINGS) {
  const get = () => store.get(URI, version, () => text, settings);
  const diagnostics = get().diagnostics;
  const status = get().main?.estimate;
  const panel = buildSections({
    uri: URI,
    fileName: 'llama3_8b_128k.yaml',
    docVersion: version,
    analysis: get(),
    ui: { ...structuredClone(DEFAULT_UI), uri: URI },
    layoutPage: 'rank',
  });
  const offset = text.indexOf('context_parallel_size') + 2;
  const hover = hoverAt(get(), offset);
  const ctx = completionContext(text, text.indexOf('  micro_batch_size'));
  const items = ctx && get().format ? completions(get().format!, ctx) : [];
  return { diagnostics, status, panel, hover, items };
}

test('one keystroke computes the analysis once, whatever listens to it', () => {
  const store = new AnalysisStore();
  const before = analysisStats.computed;
  const first = everyConsumer(store, 1, TEXT);
  assert.equal(analysisStats.computed - before, 1);
  assert.equal(first.status?.kind, 'training');
  assert.ok(first.hover && first.panel.sections.memory);
  // A keystroke: a new version, one more analysis, shared by all of them again.
  const edited = TEXT.replace('micro_batch_size: 1', 'micro_batch_size: 2');
  const second = everyConsumer(store, 2, edited);
  assert.equal(analysisStats.computed - before, 2);
  assert.notDeepEqual(second.status, first.status);
  // Asking again for the same version costs nothing.
  everyConsumer(store, 2, edited);
  assert.equal(analysisStats.computed - before, 2);
});

test('a settings change is a new analysis; the old one is never served for the new settings', () => {
  const store = new AnalysisStore();
  const h100 = store.get(URI, 1, () => TEXT, SETTINGS);
  const h200 = store.get(URI, 1, () => TEXT, { ...SETTINGS, gpu: 'h200' });
  assert.notEqual(h200, h100);
  assert.equal(h100.main?.estimate?.kind === 'training' && h100.main.estimate.gpu.id, 'h100');
  assert.equal(h200.main?.estimate?.kind === 'training' && h200.main.estimate.gpu.id, 'h200');
  // The same settings, spelt in another key order or with an unset key, are the same fingerprint.
  assert.equal(
    settingsFingerprint({ gpu: 'h100', model: undefined, profile: 'megatron' }),
    settingsFingerprint({ profile: 'megatron', gpu: 'h100' }),
  );
  assert.notEqual(settingsFingerprint({ gpu: 'h100' }), settingsFingerprint({ gpu: 'h200' }));
  assert.equal(
    store.get(URI, 1, () => TEXT, { ...SETTINGS, gpu: 'h200' }),
    h200,
  );
});

test('the store reads the text only when it computes', () => {
  const store = new AnalysisStore();
  let reads = 0;
  const text = () => (reads++, TEXT);
  store.get(URI, 3, text, SETTINGS);
  store.get(URI, 3, text, SETTINGS);
  assert.equal(reads, 1);
  assert.equal(store.peek(URI, 3)?.text, TEXT);
  assert.equal(store.peek(URI, 4), undefined);
  store.delete(URI);
  assert.equal(store.peek(URI), undefined);
});
