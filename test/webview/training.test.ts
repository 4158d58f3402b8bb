// The panel drawing a real training analysis (examples/llama3_8b_128k.yaml: Llama 3 8B, TP 4 · CP 8 · PP 2 on
// 64 H100s) through the message loop, as the host posts it: header, memory, what-if, layouts, parallel layout and
// quantization, then an update, and what the controls post back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROTOCOL_VERSION, type FromWebview } from '../../src/protocol.js';
import { analyseExample, init, update } from './fixtures.js';
import { all, one, openPanel, rows, settle, text, texts } from './page.js';

const LLAMA = 'llama3_8b_128k.yaml';

test('the handshake: the webview says ready (no saved state) before anything is drawn', async () => {
  const p = await openPanel();
  try {
    assert.deepEqual(p.posted, [{ v: PROTOCOL_VERSION, type: 'ready', ui: null }]);
    assert.deepEqual(
      all(p.app, '.slot').map((s) => s.className),
      [
        'slot slot-header',
        'slot slot-memory',
        'slot slot-compare',
        'slot slot-whatIf',
        'slot slot-planner',
        'slot slot-layout',
        'slot slot-quant',
        'slot slot-kv',
        'slot slot-kvReuse',
      ],
    );
    assert.equal(p.app.textContent, '');
  } finally {
    await p.close();
  }
});

test('header and memory: file name, format · model · GPU, verdict, breakdown rows, total and stage bars', async () => {
  const a = analyseExample(LLAMA);
  const p = await openPanel();
  try {
    p.host(init(a));
    assert.equal(text(one(p.app, '.file-header h1')), 'llama3_8b_128k.yaml');
    assert.equal(one(p.app, '.file-header h1').getAttribute('title'), 'file:///work/llama3_8b_128k.yaml');
    assert.equal(text(one(p.app, '.file-header p.muted')), 'NeMo 1.x Hydra config · llama3-8b · NVIDIA H100 80GB HBM3 (SXM)');

    const mem = one(p.app, '#sec-memory');
    assert.equal((mem as HTMLElement & { heading: string }).heading, 'Memory');
    assert.equal(text(one(mem, '.verdict-line .verdict')), 'fits');
    assert.equal(one(mem, '.verdict-line .verdict').className, 'verdict verdict-fits');
    assert.equal(text(one(mem, '.verdict-line')), 'fits fits: stage 0 needs 28.53 GiB of 79.18 GiB (36.0%)');
    assert.deepEqual(texts(mem, 'table.breakdown thead th'), ['component', 'GiB', 'share']);
    assert.deepEqual(rows(mem, 'table.breakdown tbody tr'), [
      ['weights (1.00B parameters)', '1.87 GiB', '6.6%'],
      ['gradients', '3.74 GiB', '13.1%'],
      ['optimizer (sharded over DP×CP = 8)', '1.40 GiB', '4.9%'],
      ['transformer layers (16 layers × 2 micro-batches in flight)', '17.02 GiB', '59.7%'],
      ['embedding (token ids)', '0.00 GiB', '0.0%'],
      ['backward working buffers (one layer) — backward of the stage', '0.34 GiB', '1.2%'],
      ['PyTorch cuBLAS workspaces (forward thread, autograd thread)', '0.06 GiB', '0.2%'],
      ['TE cuBLAS workspace', '0.03 GiB', '0.1%'],
      ['TE dummy weight gradients (gradient_accumulation_fusion)', '0.10 GiB', '0.4%'],
      ['allocator fragmentation', '2.46 GiB', '8.6%'],
      ['CUDA context', '0.50 GiB', '1.8%'],
      ['NCCL buffers', '1.00 GiB', '3.5%'],
    ]);
    assert.deepEqual(rows(mem, 'table.breakdown tfoot tr'), [['total', '28.53 GiB', '100%']]);
    // Each row's tooltip is its formula and source; its swatch carries the bar's category colour.
    const vm = a.sections.memory!;
    assert.deepEqual(
      all(mem, 'table.breakdown tbody tr').map((tr) => tr.getAttribute('title')),
      vm.rows.map((r) => `${r.formula} — ${r.source}`),
    );
    assert.deepEqual(
      all(mem, 'table.breakdown tbody .swatch').map((s) => s.getAttribute('class')),
      vm.rows.map((r) => `swatch cat-${r.category}`),
    );

    // The bar: one rectangle per segment at the host's percentages, the capacity line, and the legend as text.
    const bar = one(mem, ':scope .section-body > div > .bar-block');
    assert.equal(text(one(bar, '.bar-head')), 'most-loaded rank28.53 / 79.18 GiB');
    const segs = all(bar, 'svg.bar rect.seg');
    assert.deepEqual(
      segs.map((r) => [r.getAttribute('class'), r.getAttribute('x'), r.getAttribute('width'), text(r.querySelector('title'))]),
      vm.bar.segments.map((s) => [`seg cat-${s.category}`, String(s.x), String(s.w), `${s.label}: ${s.text}`]),
    );
    assert.equal(one(bar, 'svg.bar line.capacity').getAttribute('x1'), String(vm.bar.capacityX));
    assert.deepEqual(
      texts(bar, 'ul.legend li'),
      vm.bar.segments.map((s) => `${s.label} ${s.text}`),
    );
    assert.deepEqual(texts(mem, '.stages .bar-head .bar-label'), ['stage 0 (16 layers)', 'stage 1 (16 layers)']);
    assert.deepEqual(texts(mem, '.stages .chip'), ['most loaded']);
    // The three levels per stage; the most-loaded stage's device level is the verdict's total.
    assert.deepEqual(texts(mem, 'table.levels thead th'), ['stage', 'layers', 'in flight at the peak', 'allocated', 'reserved', 'device']);
    assert.deepEqual(rows(mem, 'table.levels tbody tr'), [
      ['0 (most loaded)', '16 layers', '2 forward passes: 2 micro-batches of activations', '24.57 GiB', '27.03 GiB', '28.53 GiB'],
      ['1', '16 layers', '1 forward pass: 1 micro-batch of activations', '21.05 GiB', '23.16 GiB', '24.66 GiB'],
    ]);
    assert.deepEqual(
      all(mem, 'table.levels tbody tr').map((tr) => tr.getAttribute('class')),
      ['peak', null],
    );

    // The GPU picker and the folded assumptions.
    const gpu = one(mem, 'vscode-single-select[aria-label="GPU"]') as HTMLElement & { value: string; options: { value: string }[] };
    assert.equal(gpu.value, 'h100');
    assert.deepEqual(
      gpu.options.map((o) => o.value),
      vm.gpuOptions.map((o) => o.value),
    );
    const folded = one(mem, '#sec-memory-assumptions') as HTMLElement & { open: boolean };
    assert.equal(folded.open, false);
    assert.deepEqual(texts(folded, 'h3'), ['Formulas', 'Assumptions', 'GPU']);
    assert.equal(
      text(folded.querySelector('h3 + ul + h3 + ul li')),
      // The model the file names, in the tokenizer field, fills what the file leaves out; listed first.
      'model llama3-8b — model.tokenizer.type names "meta-llama/Meta-Llama-3-8B" [file]',
    );
  } finally {
    await p.close();
  }
});

test('parallel layout: 64 rank cells on 8 nodes, rank 0 selected with its TP, CP and PP groups, the CP ring of 8', async () => {
  const p = await openPanel();
  try {
    p.host(init(analyseExample(LLAMA)));
    const sec = one(p.app, '#sec-layout');
    assert.equal(
      text(one(sec, ':scope .section-body > div > p')),
      'TP 4 × CP 8 × DP 1 × PP 2 = 64 GPUs on 8 nodes of 8 · order tp-cp-ep-dp-pp',
    );
    assert.deepEqual(rows(sec, 'table.summary tbody tr'), [
      ['TP', '4', '16 groups of 4'],
      ['CP', '8', '8 groups of 8'],
      ['DP', '1', 'not split (size 1)'],
      ['PP', '2', '32 groups of 2'],
      ['nodes', '8', '8 nodes of 8 GPUs'],
    ]);
    assert.deepEqual(
      texts(sec, '.node-label'),
      [0, 1, 2, 3, 4, 5, 6, 7].map((n) => `node ${n} · ranks ${8 * n}–${8 * n + 7}`),
    );
    const cells = all(sec, '.grid .cell');
    assert.deepEqual(
      cells.map((c) => text(c)),
      Array.from({ length: 64 }, (_, i) => String(i)),
    );
    assert.deepEqual(
      cells.map((c) => c.getAttribute('data-rank')),
      Array.from({ length: 64 }, (_, i) => String(i)),
    );
    const marked = (cls: string) => all(sec, `.grid .cell.${cls}`).map((c) => Number(c.getAttribute('data-rank')));
    assert.deepEqual(marked('rel-self'), [0]);
    assert.deepEqual(marked('rel-tp'), [1, 2, 3]);
    assert.deepEqual(marked('rel-cp'), [4, 8, 12, 16, 20, 24, 28]);
    assert.deepEqual(marked('rel-pp'), [32]);
    assert.equal(marked('rel-none').length, 52);
    const r0 = one(sec, '.cell[data-rank="0"]');
    assert.equal(r0.getAttribute('aria-pressed'), 'true');
    assert.equal(r0.getAttribute('tabindex'), '0');
    assert.equal(r0.getAttribute('aria-label'), 'rank 0, TP 0 · CP 0 · DP 0 · PP 0, selected rank');
    assert.equal(one(sec, '.cell[data-rank="5"]').getAttribute('aria-label'), 'rank 5, TP 1 · CP 1 · DP 0 · PP 0');
    assert.equal(all(sec, '.cell[tabindex="0"]').length, 1);
    assert.equal(text(one(sec, '.selected h3')), 'rank 0: TP 0 · CP 0 · DP 0 · PP 0 · node 0, GPU 0');
    assert.deepEqual(
      all(sec, '.selected li').map((li) => [li.className, text(li)]),
      [
        ['grp-tp', 'TP group 0: 0, 1, 2, 3'],
        ['grp-cp', 'CP group 0: 0, 4, 8, 12, 16, 20, 24, 28'],
        ['grp-dp', 'DP 1: no group'],
        ['grp-pp', 'PP group 0: 0, 32'],
      ],
    );
    assert.equal(text(one(sec, '.cp h3')), 'Context parallelism: ring of 8, 16 chunks');
    assert.deepEqual(
      texts(sec, '.cp-members li'),
      [0, 4, 8, 12, 16, 20, 24, 28].map((r, i) => `rank ${r} (CP ${i}) holds chunks ${i} and ${15 - i}`),
    );
    assert.deepEqual(texts(sec, 'svg.ring text.ring-label'), ['0', '4', '8', '12', '16', '20', '24', '28']);
    assert.equal(all(sec, 'svg.ring line.ring-edge').length, 8);
    // Chunk i and 15 − i belong to CP rank i: the strip shows the owner's global rank under each index.
    assert.deepEqual(
      all(sec, 'ol.chunks li').map((li) => [text(li.querySelector('.chunk-index')), text(li.querySelector('.chunk-owner'))]),
      Array.from({ length: 16 }, (_, i) => [String(i), String(4 * Math.min(i, 15 - i))]),
    );
    assert.deepEqual(texts(sec, 'ul.notes li'), ['CP groups span 4 nodes: the CP ring exchanges K/V between nodes.']);
    const world = one(sec, 'vscode-single-select[aria-label="world size"]') as HTMLElement & { value: string };
    assert.equal(world.value, '64');

    // Clicking a rank asks the host to select it.
    (one(sec, '.cell[data-rank="5"]') as HTMLButtonElement).click();
    assert.deepEqual(p.posted.at(-1), { v: PROTOCOL_VERSION, type: 'selectRank', rank: 5 });
  } finally {
    await p.close();
  }
});

test('what-if: one control per lever holding the file value; Apply and Reset off until something changes', async () => {
  const p = await openPanel();
  try {
    p.host(init(analyseExample(LLAMA)));
    const sec = one(p.app, '#sec-whatIf');
    const controls = all(sec, '.controls .control');
    const fields = controls.map((c) => {
      const el = c.querySelector('vscode-textfield, vscode-single-select') as (HTMLElement & { value: string }) | null;
      return [text(c.querySelector('.field-label')), el?.tagName.toLowerCase() ?? null, el?.value ?? null];
    });
    assert.deepEqual(fields, [
      ['CP', 'vscode-textfield', '8'],
      ['TP', 'vscode-textfield', '4'],
      ['PP', 'vscode-textfield', '2'],
      ['VPP', 'vscode-textfield', '1'],
      ['micro-batch', 'vscode-textfield', '1'],
      ['sequence length', 'vscode-textfield', '131072'],
      ['recompute', 'vscode-single-select', 'off'],
      ['offload layers', 'vscode-textfield', '0'],
      ['precision', 'vscode-single-select', 'bf16'],
      // The GPU picker mirrors the memory section's.
      ['GPU', 'vscode-single-select', 'h100'],
    ]);
    const cp = one(sec, 'vscode-textfield[aria-label="CP"]');
    assert.deepEqual(
      ['type', 'min', 'max', 'step'].map((k) => cp.getAttribute(k)),
      ['number', '1', '65536', '1'],
    );
    assert.equal(all(sec, '.control.changed').length, 0);
    assert.equal(all(sec, 'table.deltas, ul.changes, ul.conflicts').length, 0);
    const apply = one(sec, 'vscode-button[aria-label="Apply to file"]') as HTMLElement & { disabled: boolean };
    const reset = one(sec, 'vscode-button[aria-label="Reset the what-if values to the file"]') as HTMLElement & { disabled: boolean };
    assert.deepEqual([apply.disabled, reset.disabled], [true, true]);
    assert.equal(text(one(sec, '.whatif-result p.muted')), 'Change a value to preview it; Apply writes it into the file.');
  } finally {
    await p.close();
  }
});

test('what-if: typing CP 16 posts a preview; the update draws the preview and keeps the same controls', async () => {
  const before = analyseExample(LLAMA);
  const p = await openPanel();
  try {
    p.host(init(before));
    const cp = one(p.app, '#sec-whatIf vscode-textfield[aria-label="CP"]') as HTMLElement & { value: string };
    cp.value = '16';
    cp.dispatchEvent(new p.window.Event('change') as unknown as Event);
    await settle();
    assert.deepEqual(p.posted.at(-1), { v: PROTOCOL_VERSION, type: 'preview', values: { cp: 16 } });

    // The host answers with the sections for CP 16 (only those that changed).
    const after = analyseExample(LLAMA, { ui: { whatIf: { cp: 16 } } });
    const msg = update(before, after);
    assert.deepEqual(Object.keys((msg as { sections: object }).sections), ['layout', 'whatIf']);
    const header = one(p.app, '.file-header h1');
    p.host(msg);
    const sec = one(p.app, '#sec-whatIf');
    assert.equal(one(sec, 'vscode-textfield[aria-label="CP"]'), cp, 'the control survives the update');
    assert.deepEqual(texts(sec, '.control.changed .field-label'), ['CP']);
    assert.equal(text(one(sec, '.control.changed .hint')), 'file: 8');
    const w = after.sections.whatIf!;
    assert.deepEqual(
      rows(sec, 'table.deltas tbody tr'),
      w.preview!.deltas.map((d) => [d.label, d.from, d.to, d.delta]),
    );
    assert.equal(text(one(sec, '.whatif-result .verdict-line')), `${w.preview!.bar.verdict.replace(/-/g, ' ')} ${w.preview!.verdictText}`);
    assert.deepEqual(
      all(sec, 'ul.conflicts li').map((li) => [li.className, text(li)]),
      w.conflicts.map((c) => [`sev-${c.severity}`, c.code.startsWith('RL-') ? `${c.code} ${c.message}` : c.message]),
    );
    assert.ok(w.conflicts.length > 0, 'CP 16 on 64 GPUs breaks a launch rule');
    assert.deepEqual(texts(sec, 'ul.changes li'), ['model.context_parallel_size: 8 → 16']);
    const reset = one(sec, 'vscode-button[aria-label="Reset the what-if values to the file"]') as HTMLElement & { disabled: boolean };
    assert.equal(reset.disabled, false);
    reset.click();
    await settle();
    assert.deepEqual(p.posted.at(-1), { v: PROTOCOL_VERSION, type: 'preview', values: {} });
    // Only the sections in the update were redrawn.
    assert.equal(one(p.app, '.file-header h1'), header);
  } finally {
    await p.close();
  }
});

test('layouts: idle with the reference row; a search result lists 8 rows whose Preview and Apply post the row', async () => {
  const idle = analyseExample(LLAMA);
  const p = await openPanel();
  try {
    p.host(init(idle));
    let sec = one(p.app, '#sec-planner');
    const suggest = one(sec, 'vscode-button[data-key="suggest"]') as HTMLElement & { disabled: boolean };
    assert.equal(text(suggest), 'Suggest layouts');
    assert.equal(suggest.getAttribute('aria-label'), "Suggest layouts for 64 GPUs (the file's world size)");
    assert.equal(text(one(sec, '.planner > p.muted')), 'llama3-8b · seq 131,072 · global batch 512 · 64 × NVIDIA H100 80GB HBM3 (SXM)');
    const ref = one(sec, 'li.plan-row.reference');
    assert.equal(text(one(ref, '.plan-rank')), 'file');
    assert.deepEqual(texts(ref, '.plan-layout dt'), ['TP', 'PP', 'VPP', 'CP', 'EP', 'DP', 'MBS']);
    assert.deepEqual(texts(ref, '.plan-layout dd'), ['4', '2', '–', '8', '1', '1', '1']);
    assert.deepEqual(texts(ref, '.plan-head .chip'), ['reference']);
    assert.equal(all(ref, 'vscode-button').length, 0);
    suggest.click();
    assert.deepEqual(p.posted.at(-1), { v: PROTOCOL_VERSION, type: 'plan' });

    const ready = analyseExample(LLAMA, { plan: { run: { id: 1 } } });
    p.host(update(idle, ready));
    sec = one(p.app, '#sec-planner');
    const vm = ready.sections.planner!;
    assert.equal(vm.rows.length, 8);
    const rowsEl = all(sec, 'ol.plan-rows > li');
    assert.deepEqual(
      rowsEl.map((li) => text(li.querySelector('.plan-rank'))),
      ['file', '#1', '#2', '#3', '#4', '#5', '#6', '#7', '#8'],
    );
    assert.deepEqual(
      rowsEl.slice(1).map((li) => texts(li, '.plan-layout dd')),
      vm.rows.map((r) => r.layout),
    );
    assert.deepEqual(
      rowsEl.slice(1).map((li) => texts(li, '.plan-costs dd')),
      vm.rows.map((r) => r.costs),
    );
    assert.equal(text(one(sec, 'vscode-button[data-key="suggest"]')), 'Suggest again');
    // Row 2's Preview puts its values into the what-if; its Apply names this search and document version.
    const second = vm.rows[1]!;
    (one(sec, 'vscode-button[data-key="preview-1"]') as HTMLElement).click();
    await settle();
    assert.deepEqual(p.posted.at(-1), { v: PROTOCOL_VERSION, type: 'preview', values: second.values });
    const row2 = rowsEl[2]!;
    assert.equal(text(one(row2, '.plan-levers')), 'no recompute · no offload · BF16');
    assert.equal(
      text(one(row2, '.plan-changes')),
      'writes tensor_model_parallel_size 4 → 1, sequence_parallel true → false, context_parallel_size 8 → 32',
    );
    assert.deepEqual(
      all(row2, '.plan-changes code').map((c) => c.getAttribute('title')),
      ['model.tensor_model_parallel_size: 4 → 1', 'model.sequence_parallel: true → false', 'model.context_parallel_size: 8 → 32'],
    );
    assert.equal(text(one(row2, ':scope > p.muted')), 'Apply writes 3 keys into the file (one undo step).');
    const apply = one(row2, 'vscode-button[data-key="apply-1"]') as HTMLElement & { disabled: boolean };
    assert.equal(apply.disabled, false);
    assert.equal(apply.getAttribute('aria-label'), 'Apply layout 2 to the file');
    apply.click();
    assert.deepEqual(p.posted.at(-1), { v: PROTOCOL_VERSION, type: 'applyCandidate', uri: ready.uri, planId: 1, index: 1, docVersion: 5 });
    // Every message the webview posted passes the host's validator.
    const { parseWebviewMessage } = await import('../../src/protocol.js');
    for (const m of p.posted) assert.equal(parseWebviewMessage(m).ok, true, JSON.stringify(m));
  } finally {
    await p.close();
  }
});

test('quantization: the BF16 facts and the file re-estimated under FP8, MXFP8 and NVFP4, the current row marked', async () => {
  const p = await openPanel();
  try {
    p.host(init(analyseExample(LLAMA)));
    const sec = one(p.app, '#sec-quant');
    assert.equal(text(one(sec, 'h3')), 'BF16 mixed precision');
    assert.deepEqual(rows(sec, 'table.facts tr'), [
      ['element format', 'BF16 (E8M7)'],
      ['block', '—'],
      ['scale', '—'],
      ['bits per value', '16 (scales included)'],
      ['saved linear-layer input', '2 B per element'],
      ['weights held', 'BF16 weights, FP32 master copy in the optimizer'],
    ]);
    assert.deepEqual(texts(sec, 'table.comparison thead th'), ['recipe', 'total', 'states', 'activations', 'Δ total']);
    assert.deepEqual(rows(sec, 'table.comparison tbody tr'), [
      ['BF16 (file)', '28.53 GiB', '7.01 GiB', '17.02 GiB', '—'],
      ['FP8 delayed', '27.84 GiB', '8.64 GiB', '14.77 GiB', '−0.69 GiB'],
      ['MXFP8', '28.01 GiB', '8.69 GiB', '14.87 GiB', '−0.52 GiB'],
      ['NVFP4', '26.11 GiB', '7.79 GiB', '14.04 GiB', '−2.41 GiB'],
    ]);
    assert.deepEqual(texts(sec, 'table.comparison tr.current th'), ['BF16 (file)']);
    assert.equal(text(one(sec, 'p.source')), 'Source: Megatron-LM distributed optimizer docs (18 B/param)');
    // A training file has no KV cache section.
    assert.equal(p.app.querySelector('#sec-kv'), null);
    assert.equal(text(one(p.app, '.slot-kv')), '');
  } finally {
    await p.close();
  }
});

test('the GPU picker and a folded section: the choice goes to the host, the open state is kept', async () => {
  const p = await openPanel();
  try {
    p.host(init(analyseExample(LLAMA)));
    const gpu = one(p.app, '#sec-memory vscode-single-select[aria-label="GPU"]') as HTMLElement & { value: string };
    gpu.value = 'h200';
    gpu.dispatchEvent(new p.window.Event('change') as unknown as Event);
    assert.deepEqual(p.posted.at(-1), { v: PROTOCOL_VERSION, type: 'selectGpu', gpu: 'h200' } satisfies FromWebview);
    const quant = one(p.app, '#sec-quant') as HTMLElement & { open: boolean };
    quant.open = false;
    quant.dispatchEvent(new p.window.Event('vsc-collapsible-toggle') as unknown as Event);
    assert.deepEqual((p.kept() as { open: Record<string, boolean> }).open, { quant: false });
  } finally {
    await p.close();
  }
});

test('a view shown again paints its saved sections at once and hands its UI state back in ready', async () => {
  const a = analyseExample(LLAMA, { ui: { rank: 5 } });
  const first = await openPanel();
  let saved: unknown;
  try {
    first.host(init(a));
    saved = first.kept();
  } finally {
    await first.close();
  }
  const p = await openPanel(saved);
  try {
    assert.deepEqual(p.posted, [{ v: PROTOCOL_VERSION, type: 'ready', ui: a.ui }]);
    assert.equal(text(one(p.app, '.file-header h1')), 'llama3_8b_128k.yaml');
    assert.deepEqual(
      all(p.app, '#sec-layout .cell.rel-self').map((c) => c.getAttribute('data-rank')),
      ['5'],
    );
  } finally {
    await p.close();
  }
  // A state an older build kept is dropped with a warning, not drawn.
  const old = await openPanel({ v: 1, ui: a.ui, open: {}, sections: a.sections });
  try {
    assert.deepEqual(old.posted, [{ v: PROTOCOL_VERSION, type: 'ready', ui: null }]);
    assert.equal(old.app.textContent, '');
    assert.deepEqual(old.logs, ['Recipe Lens: dropped the saved panel state: v must be protocol version 3']);
  } finally {
    await old.close();
  }
});
