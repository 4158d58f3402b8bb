// `recipe-lens lsp`: the language server on the transport the client chose. Needs only Node ≥ 18.
//   recipe-lens lsp --stdio            Neovim, Helix, Emacs (eglot), Zed, JetBrains (LSP4IJ), any LSP client
//   recipe-lens lsp --node-ipc         VS Code (vscode-languageclient's TransportKind.ipc)
//   recipe-lens lsp --socket=PORT | --pipe=NAME
import { format } from 'node:util';
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter, type Connection } from 'vscode-languageserver/node';
import { FrameGuard } from './frames.js';
import { RecipeLensServer } from './server.js';
import { runAnalysisWorker } from './worker.js';
import { runKvWorker } from './kvReuse.js';

export const LSP_USAGE = `usage: recipe-lens lsp --stdio | --node-ipc | --socket=PORT | --pipe=NAME

  the Recipe Lens language server (diagnostics, hover, completion, quick fixes, document symbols, the per-GPU
  estimate as a code lens / inlay hint, and the planning panel's recipeLens/* requests); see docs/editors.md`;

const TRANSPORT = /^--(stdio|node-ipc|socket(=\d+)?|pipe(=.+)?)$/;

/** Starts the server (or the analysis worker); returns an error text for a bad command line. */
export function lspCommand(args: string[], entry: string): string | undefined {
  if (args.length === 1 && args[0] === '--analysis-worker') {
    runAnalysisWorker();
    return undefined;
  }
  if (args.length === 1 && args[0] === '--kv-worker') {
    runKvWorker();
    return undefined;
  }
  // vscode-languageclient adds --clientProcessId=N (the server exits when that process does: vscode-languageserver's watchdog).
  const rest = args.filter((a) => !/^--clientProcessId=\d+$/.test(a));
  const transports = rest.filter((a, i) => TRANSPORT.test(a) || (/^--(socket|pipe)$/.test(rest[i - 1] ?? '') && !a.startsWith('-')));
  const unknown = rest.filter((a) => !transports.includes(a));
  if (unknown.length) return `unknown lsp argument ${unknown[0]}`;
  if (!rest.some((a) => TRANSPORT.test(a))) return 'lsp needs a transport: --stdio, --node-ipc, --socket=PORT or --pipe=NAME';
  const started: { server?: RecipeLensServer } = {};
  let connection: Connection;
  if (rest.includes('--stdio')) {
    // stdin through the framing guard (a malformed frame is skipped, not fatal); stdout only for protocol messages.
    const guard = new FrameGuard((why) => connection.console.warn(`recipe-lens: ${why}`));
    const reader = new StreamMessageReader(process.stdin.pipe(guard));
    connection = createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout));
    reader.onError((e) => connection.console.warn(`recipe-lens: malformed message ignored: ${e.message.slice(0, 200)}`));
    routeConsole(connection);
    // The client closed our stdin: it is gone (exit code 0 only after a shutdown request, as LSP asks).
    const gone = () => process.exit(started.server?.shutdownReceived ? 0 : 1);
    process.stdin.on('end', gone);
    process.stdin.on('close', gone);
  } else {
    // vscode-languageserver reads the other transports from process.argv.
    connection = createConnection(ProposedFeatures.all);
  }
  started.server = new RecipeLensServer(connection, entry);
  started.server.listen();
  connection.listen();
  return undefined;
}

/** console.* of the server (and of anything it loads) goes to the client as window/logMessage, never to stdout. */
function routeConsole(c: Connection): void {
  console.log = console.info = console.debug = (...a: unknown[]) => c.console.log(format(...a));
  console.warn = (...a: unknown[]) => c.console.warn(format(...a));
  console.error = (...a: unknown[]) => c.console.error(format(...a));
}
