// `recipe-lens lsp`: the language server on the transport the client chose. Needs only Node ≥ 18.
//   recipe-lens lsp --stdio            Neovim, Helix, Emacs (eglot), Zed, JetBrains (LSP4IJ), any LSP client
//   recipe-lens lsp --node-ipc         VS Code (vscode-languageclient's TransportKind.ipc)
//   recipe-lens lsp --socket=PORT | --pipe=NAME
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { RecipeLensServer } from './server.js';
import { runAnalysisWorker } from './worker.js';

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
  // vscode-languageclient adds --clientProcessId=N (the server exits when that process does: vscode-languageserver's watchdog).
  const rest = args.filter((a) => !/^--clientProcessId=\d+$/.test(a));
  const transports = rest.filter((a, i) => TRANSPORT.test(a) || (/^--(socket|pipe)$/.test(rest[i - 1] ?? '') && !a.startsWith('-')));
  const unknown = rest.filter((a) => !transports.includes(a));
  if (unknown.length) return `unknown lsp argument ${unknown[0]}`;
  if (!rest.some((a) => TRANSPORT.test(a))) return 'lsp needs a transport: --stdio, --node-ipc, --socket=PORT or --pipe=NAME';
  // vscode-languageserver reads the transport from process.argv (and, for --stdio, routes console output to the client
  // as window/logMessage so that nothing but protocol messages reaches stdout).
  const connection = createConnection(ProposedFeatures.all);
  new RecipeLensServer(connection, entry).listen();
  connection.listen();
  return undefined;
}
