// The panel drawing real serving analyses: a TensorRT-LLM options file (Llama 3.3 70B, TP 4, FP8 KV cache) and a
// KV retention config (a pinned system prompt), through the message loop as the host posts them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyseExample, init } from './fixtures.js';
import { all, one, openPanel, rows, text, texts } from './page.js';

test('TensorRT-LLM options: per-GPU memory of the TP 4 server, the KV pool facts; no training sections', async () => {
  const p = await openPanel();
  try {
    p.host(init(analyseExample('trtllm_llama3_70b_serve.yaml')));
    assert.equal(text(one(p.app, '.file-header p.muted')), 'TensorRT-LLM LLM-API options · llama3.3-70b · NVIDIA H100 80GB HBM3 (SXM)');
    const mem = one(p.app, '#sec-memory');
    assert.equal(text(one(mem, ':scope .section-body > div > p.muted')), 'per GPU (server: TP 4)');
    assert.equal(text(one(mem, '.verdict-line')), 'fits fits: weights and runtime take 35.18 GiB of 79.18 GiB; the KV pool gets 37.40 GiB');
    assert.deepEqual(rows(mem, 'table.breakdown tbody tr'), [
      // Llama 3.3 70B in BF16 at TP 4: the 32.86 GiB of weights part by part.
      ['weights: embedding', '0.49 GiB', '0.7%'],
      ['weights: attention', '5.63 GiB', '7.8%'],
      ['weights: dense MLP', '26.25 GiB', '36.2%'],
      ['weights: lm head', '0.49 GiB', '0.7%'],
      ['weights: norms, routers, biases', '0.00 GiB', '0.0%'],
      ['KV cache pool (30634 blocks)', '37.40 GiB', '51.5%'],
      ['non-KV runtime (context, NCCL, activations)', '2.33 GiB', '3.2%'],
    ]);
    assert.deepEqual(rows(mem, 'table.breakdown tfoot tr'), [['total', '72.58 GiB', '100%']]);
    assert.equal(all(mem, '.stages').length, 0);

    const kv = one(p.app, '#sec-kv');
    assert.deepEqual(texts(kv, 'h3'), ['server: TP 4']);
    assert.deepEqual(rows(kv, 'table.facts tr'), [
      ['bytes per token', '40,960 B = 2 (K and V) × 80 layers × 2 KV heads × 128 × 1 B fp8'],
      ['block', '32 tokens = 1.25 MiB'],
      ['free after weights and runtime', '43.99 GiB × free_gpu_memory_fraction 0.85'],
      ['pool', '37.40 GiB = 980,298 tokens = 30,634 blocks (limited by free_gpu_memory_fraction)'],
      ['requests of max_seq_len 131,072', '7 (4,096 blocks each)'],
      ['host tier', '48.00 GiB = 1,258,291 tokens = 39,321 blocks'],
    ]);
    assert.equal(all(kv, 'svg.timeline, ol.eviction').length, 0);
    // The non-KV runtime assumption (the weights are part by part in the memory section now).
    assert.equal(all(kv, 'ul.notes li').length, 1);
    for (const id of ['whatIf', 'planner', 'layout']) {
      assert.equal(p.app.querySelector(`#sec-${id}`), null, id);
      assert.equal(text(one(p.app, `.slot-${id}`)), '', id);
    }
  } finally {
    await p.close();
  }
});

test('KV retention: the timeline by priority (the decode range hatched as dropped), tick labels, eviction order', async () => {
  const a = analyseExample('retention_system_prompt.yaml');
  const p = await openPanel();
  try {
    p.host(init(a));
    assert.equal(text(one(p.app, '.file-header p.muted')), 'TensorRT-LLM KV cache retention config');
    assert.equal(p.app.querySelector('#sec-memory'), null);
    const kv = one(p.app, '#sec-kv');
    assert.deepEqual(rows(kv, 'table.facts tr'), [
      ['tokens per block', '32'],
      ['token ranges', '2'],
      ['decode priority', '20 for 30,000 ms, then 35'],
      ['secondary_offload_min_priority', '30 (TensorRT-LLM default; set in the serving file)'],
    ]);
    const svg = one(kv, 'svg.timeline');
    assert.deepEqual(
      all(svg, 'rect').map((r) => [r.getAttribute('class'), r.getAttribute('x'), r.getAttribute('width'), r.getAttribute('fill')]),
      [
        ['range prio-5', '0', '68.8', null],
        ['range prio-3 open', '68.8', '17.2', null],
        ['range prio-0', '88', '12', null],
        ['dropped', '88', '12', 'url(#hatch)'],
      ],
    );
    assert.deepEqual(texts(svg, 'rect title'), [
      '[0, 1,024) priority 100: range 0: 32 blocks (0–31); no expiry; copied to the host tier when evicted',
      '[1,024, end) priority 35: range 1: blocks 32–end; no expiry; copied to the host tier when evicted',
      'decode priority 20: generated tokens: priority for 30,000 ms, then 35; dropped when evicted (below secondary_offload_min_priority 30)',
      'decode priority 20: generated tokens: priority for 30,000 ms, then 35; dropped when evicted (below secondary_offload_min_priority 30)',
    ]);
    assert.deepEqual(
      all(svg, 'line.block-tick').map((l) => l.getAttribute('x1')),
      a.sections.kv!.timeline!.blocks.map(String),
    );
    assert.equal(all(svg, 'line.block-tick').length, 39);
    // Tick labels are SVG text at the host's percentages: no inline style anywhere.
    assert.deepEqual(
      all(kv, 'svg.axis text.tick').map((t) => [t.getAttribute('x'), t.getAttribute('text-anchor'), text(t)]),
      [
        ['0%', 'start', '0'],
        ['68.8%', 'middle', '1,024'],
      ],
    );
    assert.deepEqual(
      all(kv, 'ul.legend.ranges li').map((li) => [li.className, text(li)]),
      [
        ['', '[0, 1,024) priority 100 — range 0: 32 blocks (0–31); no expiry; copied to the host tier when evicted'],
        ['', '[1,024, end) priority 35 — range 1: blocks 32–end; no expiry; copied to the host tier when evicted'],
        [
          'dropped-item',
          'decode priority 20 — generated tokens: priority for 30,000 ms, then 35; dropped when evicted (below secondary_offload_min_priority 30)',
        ],
      ],
    );
    assert.deepEqual(
      all(kv, 'ol.eviction li').map((li) => [li.className, text(li)]),
      [
        ['dropped-item', 'priority 20 (for 30,000 ms, then 35): generated (decode) tokens — dropped, not offloaded'],
        ['', 'priority 35: prompt [1,024, end): blocks 32–end'],
        ['', 'priority 100: prompt [0, 1,024): 32 blocks (0–31)'],
      ],
    );
    assert.equal(
      text(one(kv, 'p.muted')),
      'prompt tokens by priority (32-token blocks); the last range runs to the end of the prompt (faded), then the generated tokens (right)',
    );
  } finally {
    await p.close();
  }
});
