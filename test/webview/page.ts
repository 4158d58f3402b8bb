// A webview page for DOM tests: happy-dom with the panel's real HTML shell (src/core/panel/html.ts), the panel
// started on it (webview/app.ts) with a recording stand-in for acquireVsCodeApi(), and the host's side of
// postMessage. The renderers use the page's `document` and `window` as the webview's globals.
import { panelHtml } from '../../src/core/panel/html.js';
import type { FromWebview } from '../../src/protocol.js';
import { startPanel } from '../../webview/app.js';

type HappyWindow = InstanceType<(typeof import('happy-dom'))['Window']>;

const GLOBALS = ['window', 'document', 'requestAnimationFrame'] as const;

export interface Dom {
  window: HappyWindow;
  document: Document;
  /** What the page logged with console.error / console.warn. */
  logs: string[];
  close(): Promise<void>;
}

/** A blank page holding the panel's shell; its document and window become the globals the renderers use. */
export async function openDom(): Promise<Dom> {
  const { Window } = await import('happy-dom');
  const window = new Window({ url: 'https://webview.test/', settings: { disableJavaScriptFileLoading: true } });
  window.document.write(
    panelHtml({
      cspSource: "'self' https://*.vscode-cdn.net",
      nonce: 'TestNonce0123456789abcdef',
      scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
      styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css',
    }),
  );
  const g = globalThis as Record<string, unknown>;
  g.window = window;
  g.document = window.document;
  g.requestAnimationFrame = window.requestAnimationFrame.bind(window);
  const logs: string[] = [];
  const { error, warn } = console;
  console.error = (...a: unknown[]) => void logs.push(a.map(String).join(' '));
  console.warn = (...a: unknown[]) => void logs.push(a.map(String).join(' '));
  return {
    window,
    document: window.document as unknown as Document,
    logs,
    async close() {
      console.error = error;
      console.warn = warn;
      await window.happyDOM.close();
      for (const k of GLOBALS) delete g[k];
    },
  };
}

export interface Panel extends Dom {
  /** Every message the webview posted to the host, in order. */
  posted: FromWebview[];
  /** The state the webview last kept with setState (undefined until it kept one). */
  kept(): unknown;
  /** How many times it called setState. */
  keptCount(): number;
  /** Posts a message from the host, as VS Code delivers it (a structured clone, as a `message` event). */
  host(msg: unknown): void;
  app: HTMLElement;
  notice: HTMLElement;
}

/** The panel started on a fresh page; `saved` is what getState() returns (the state a hidden view kept). */
export async function openPanel(saved?: unknown): Promise<Panel> {
  const dom = await openDom();
  const posted: FromWebview[] = [];
  let kept: unknown = saved;
  let keptCount = 0;
  const panel = startPanel({
    postMessage: (m) => void posted.push(structuredClone(m) as FromWebview),
    getState: () => kept,
    setState: (s) => {
      kept = structuredClone(s);
      keptCount++;
    },
  });
  const document = dom.document;
  return {
    ...dom,
    posted,
    kept: () => kept,
    keptCount: () => keptCount,
    host(msg) {
      dom.window.dispatchEvent(new dom.window.MessageEvent('message', { data: structuredClone(msg) }));
    },
    app: document.getElementById('app')!,
    notice: document.getElementById('notice')!,
    async close() {
      panel.dispose();
      await dom.close();
    },
  };
}

// ---- reading the DOM -------------------------------------------------------------------------------------

/** All elements matching `selector` under `root`. */
export const all = (root: ParentNode, selector: string): Element[] => Array.from(root.querySelectorAll(selector));

/** The one element matching `selector`; fails when there is none. */
export function one(root: ParentNode, selector: string): HTMLElement {
  const el = root.querySelector(selector);
  if (!el) throw new Error(`no element matches ${selector}`);
  return el as HTMLElement;
}

/** An element's text, exactly as its text nodes hold it. */
export const text = (el: Element | null | undefined) => el?.textContent ?? '';

/** The texts of the matching elements. */
export const texts = (root: ParentNode, selector: string) => all(root, selector).map((e) => text(e));

/** Each table row's cell texts. */
export const rows = (root: ParentNode, selector: string) => all(root, selector).map((tr) => all(tr, 'th, td').map((c) => text(c)));

/** Waits for the what-if and planner debounces (30 ms in app.ts) to post. */
export const settle = () => new Promise((r) => setTimeout(r, 60));
