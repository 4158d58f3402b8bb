// Entry of the webview bundle (dist/webview.js): registers the vscode-elements the panel uses, then starts the
// panel (app.ts) with VS Code's webview API.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { startPanel, type VsCodeApi } from './app.js';

declare function acquireVsCodeApi(): VsCodeApi;

startPanel(acquireVsCodeApi());
