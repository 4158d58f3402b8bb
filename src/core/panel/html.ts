// The planning panel's HTML shell and Content Security Policy: nonce-only scripts, styles from the
// extension's own files, nothing inline, nothing remote. The page is filled by dist/webview.js.

export interface PanelHtmlInput {
  /** webview.cspSource. */
  cspSource: string;
  /** A fresh random nonce per load (base64url / alphanumerics only). */
  nonce: string;
  /** asWebviewUri of dist/webview.js and media/panel.css. */
  scriptUri: string;
  styleUri: string;
}

const NONCE = /^[A-Za-z0-9_-]{16,128}$/;
/**
 * webview.cspSource is VS Code's (`'self' https://*.vscode-cdn.net`, webviewGenericCspSource in
 * vs/workbench/api/common/shared/webview.ts): accept any sources, but nothing that ends the directive or opens
 * inline code (`;`, `,`, line breaks, markup, 'unsafe-…').
 */
const SOURCE_BAD = /[;,\r\n"<>]|'unsafe-|'nonce-|'sha\d/i;

/** `default-src 'none'` plus exactly what the panel loads; no 'unsafe-inline', no 'unsafe-eval'. */
export function panelCsp(cspSource: string, nonce: string): string {
  if (!NONCE.test(nonce)) throw new Error('invalid nonce');
  if (!cspSource.trim() || SOURCE_BAD.test(cspSource)) throw new Error('invalid CSP source');
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function panelHtml(i: PanelHtmlInput): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(panelCsp(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(i.styleUri)}">
<title>Recipe Lens planning</title>
</head>
<body>
<div id="notice" role="status" aria-live="polite"></div>
<main id="app" aria-label="Recipe Lens planning panel"></main>
<script nonce="${attr(i.nonce)}" src="${attr(i.scriptUri)}"></script>
</body>
</html>
`;
}
