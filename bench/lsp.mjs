// The language server's budgets, measured against the built server (`node dist/cli.js lsp --stdio`, the production
// bundle) over JSON-RPC, as an editor drives it. Called by bench/run.mjs.
//   keystroke → diagnostics, 320-line recipe         ≤ 30 ms end to end (didChange sent → publishDiagnostics received)
//   keystroke → diagnostics, 10,000-line recipe      reported, with the analyses per keystroke (1: nothing recomputed)
//   hover, server-side                               ≤ 5 ms (the server's code path on a cached analysis, no transport)
//   panel refresh, server part                       ≤ 100 ms (didChange + recipeLens/analysis with the panel)
//   server RSS with the 10,000-line file open        ≤ 150 MiB
//   hover on a small document while a 10 MB one is analysed (worker thread)   ≤ 100 ms (every such hover)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const CAPABILITIES = {
  workspace: { configuration: true },
  textDocument: { publishDiagnostics: { versionSupport: true }, documentSymbol: { hierarchicalDocumentSymbolSupport: true } },
};

function startServer(cli, initializationOptions, capabilities = CAPABILITIES) {
  const child = spawn(process.execPath, [cli, 'lsp', '--stdio'], { stdio: 'pipe' });
  const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiters = new Set();
  rpc.onNotification((method, params) => {
    for (const w of waiters)
      if (w.method === method && w.pred(params)) {
        waiters.delete(w);
        w.resolve({ params, at: performance.now() });
      }
  });
  rpc.onRequest((method, params) => (method === 'workspace/configuration' ? params.items.map(() => null) : null));
  rpc.onError(() => {});
  child.stdin.on('error', () => {});
  rpc.listen();
  const server = {
    child,
    rpc,
    /** The next `method` notification whose params satisfy `pred`. */
    next: (method, pred) => new Promise((resolve) => waiters.add({ method, pred, resolve })),
    diagnostics: (uri, version) => server.next('textDocument/publishDiagnostics', (p) => p.uri === uri && p.version === version),
    open: (uri, text, version = 1) =>
      rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } }),
    async init() {
      await rpc.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities, initializationOptions });
      await rpc.sendNotification('initialized', {});
      return server;
    },
    async stop() {
      await rpc.sendRequest('shutdown').catch(() => {});
      await rpc.sendNotification('exit').catch(() => {});
      await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
      rpc.dispose();
    },
    rss: () => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) * 1024,
  };
  return server.init();
}

/** A one-character edit at `micro_batch_size`'s digit, alternating 1 and 2: each is a new version with a real change. */
function digitEdit(text) {
  const m = /micro_batch_size: (\d)/.exec(text);
  if (!m) throw new Error('no micro_batch_size');
  const at = m.index + m[0].length - 1;
  const before = text.slice(0, at).split('\n');
  const pos = { line: before.length - 1, character: before.at(-1).length };
  const digits = [m[1], m[1] === '1' ? '2' : '1'];
  return (i) => ({ range: { start: pos, end: { line: pos.line, character: pos.character + 1 } }, text: digits[(i + 1) % 2] });
}

export async function measureLsp({ cli, measure, stats, log, typicalText, gen10k, gen10m, core, runs, warmup }) {
  const out = {};
  const uri = 'file:///bench/recipe.yaml';

  // Keystroke → diagnostics (push, debounce 0: the setting's delay is the user's choice, reported separately).
  for (const [key, text] of [
    ['keystroke320', typicalText],
    ['keystroke10k', gen10k],
  ]) {
    const s = await startServer(cli, { debounceMs: 0 });
    await Promise.all([s.diagnostics(uri, 1), s.open(uri, text)]);
    const edit = digitEdit(text);
    let version = 1;
    const before = await s.rpc.sendRequest('recipeLens/debug/stats');
    const st = await measure(
      async (i) => {
        const v = ++version;
        const got = s.diagnostics(uri, v);
        await s.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [edit(i)] });
        await got;
      },
      { runs, warmup },
    );
    const after = await s.rpc.sendRequest('recipeLens/debug/stats');
    out[key] = { stat: st, analysesPerKeystroke: (after.analyses - before.analyses) / (version - 1) };
    log(`lsp ${key}: ${st.median.toFixed(2)} ms, ${out[key].analysesPerKeystroke} analyses per keystroke`);
    await s.stop();
  }

  // Pulled diagnostics: didChange, then textDocument/diagnostic (VS Code's mode), 320 lines, debounce 0.
  {
    const pull = { ...CAPABILITIES, textDocument: { ...CAPABILITIES.textDocument, diagnostic: {} } };
    const s = await startServer(cli, { debounceMs: 0 }, pull);
    await s.open(uri, typicalText);
    await s.rpc.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    const edit = digitEdit(typicalText);
    let version = 1;
    out.pull320 = {
      stat: await measure(
        async (i) => {
          await s.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [edit(i)] });
          await s.rpc.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
        },
        { runs, warmup },
      ),
    };
    log(`lsp pull320: ${out.pull320.stat.median.toFixed(2)} ms`);
    await s.stop();
  }

  // Panel refresh, the server's part: a keystroke, then the panel's recipeLens/analysis (sections of the new version).
  {
    const s = await startServer(cli, {});
    const path = join(cli, '..', '..', 'examples', 'llama3_8b_128k.yaml');
    const text = readFileSync(path, 'utf8');
    await s.open(uri, text);
    const ui = { uri, gpu: null, whatIf: {}, rank: 0, layout: { worldSize: null, mode: 'all', page: 0 } };
    const edit = digitEdit(text);
    let version = 1;
    out.panel = {
      stat: await measure(
        async (i) => {
          await s.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [edit(i)] });
          await s.rpc.sendRequest('recipeLens/analysis', { textDocument: { uri }, panel: { ui, layoutPage: 'rank' } });
        },
        { runs, warmup },
      ),
    };
    // Hover over stdio (round trip), for comparison with the server-side figure.
    const line = text.split('\n').findIndex((l) => /^\s*context_parallel_size:/.test(l));
    out.hoverRoundTrip = {
      stat: await measure(() => s.rpc.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 4 } }), {
        runs,
        warmup,
      }),
    };
    log(`lsp panel: ${out.panel.stat.median.toFixed(2)} ms; hover round trip ${out.hoverRoundTrip.stat.median.toFixed(2)} ms`);
    await s.stop();
  }

  // Hover, server-side: the server's engine (src/server/engine.ts) on the cached analysis, no transport.
  {
    const d = core.serverDoc(typicalText);
    const line = typicalText.split('\n').findIndex((l) => /^\s*tensor_model_parallel_size:/.test(l));
    out.hoverServer = { stat: await measure(() => core.serverHover(d, line, 4), { runs: Math.max(runs, 200), warmup: 20 }) };
    const d10k = core.serverDoc(gen10k);
    out.hoverServer10k = { stat: await measure(() => core.serverHover(d10k, line, 4), { runs: Math.max(runs, 200), warmup: 20 }) };
    log(`lsp hover server-side: ${out.hoverServer.stat.median.toFixed(3)} ms (10k: ${out.hoverServer10k.stat.median.toFixed(3)} ms)`);
  }

  // RSS with the 10,000-line file open: diagnostics, a hover, the panel and the symbols all served.
  {
    const s = await startServer(cli, {});
    await Promise.all([s.diagnostics(uri, 1), s.open(uri, gen10k)]);
    await s.rpc.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 20, character: 4 } });
    await s.rpc.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    const ui = { uri, gpu: null, whatIf: {}, rank: 0, layout: { worldSize: null, mode: 'all', page: 0 } };
    await s.rpc.sendRequest('recipeLens/analysis', { textDocument: { uri }, panel: { ui, layoutPage: 'rank' } });
    out.rss10k = { bytes: s.rss() };
    log(`lsp RSS with the 10,000-line file: ${(out.rss10k.bytes / 2 ** 20).toFixed(1)} MiB`);
    await s.stop();
  }

  // A 10 MB recipe analysed (limit raised to 20 MB) while hovers on another document go on.
  if (gen10m) {
    const s = await startServer(cli, { maxFileSizeKb: 20480 });
    await Promise.all([s.diagnostics(uri, 1), s.open(uri, typicalText)]);
    const line = typicalText.split('\n').findIndex((l) => /^\s*tensor_model_parallel_size:/.test(l));
    const bigUri = 'file:///bench/recipe-10mb.yaml';
    const samples = [];
    let done = false;
    const big = s.diagnostics(bigUri, 1).then((r) => ((done = true), r));
    const t0 = performance.now();
    await s.open(bigUri, gen10m);
    while (!done) {
      const h0 = performance.now();
      await s.rpc.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 4 } });
      samples.push(performance.now() - h0);
    }
    const analysed = (await big).at - t0;
    const st = stats(samples);
    // The first hover also waits for the server to read the 10 MB didOpen message itself (transport, not analysis).
    out.busy10m = {
      stat: st,
      first: samples[0],
      afterFirst: samples.length > 1 ? stats(samples.slice(1)) : undefined,
      analysedMs: analysed,
    };
    log(
      `lsp hovers during the 10 MB analysis (${samples.length}): first ${samples[0].toFixed(1)} ms, then max ${out.busy10m.afterFirst?.max.toFixed(1)} ms; 10 MB diagnostics after ${analysed.toFixed(0)} ms`,
    );
    await s.stop();
  }
  return out;
}
