// DOM helpers for the panel: every string becomes a text node or an attribute value, never markup.

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

function setAttrs(el: Element, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    // Never an event-handler or style attribute: handlers go through addEventListener, styles through classes/CSSOM.
    if (/^on/i.test(k) || k === 'style') throw new Error(`refusing attribute ${k}`);
    el.setAttribute(k, v === true ? '' : String(v));
  }
}

/** An HTML element: `h('td', { class: 'num' }, text)`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** A custom element (vscode-elements). */
export function custom<T extends HTMLElement>(tag: string, attrs: Attrs = {}, ...children: Child[]): T {
  const el = document.createElement(tag) as T;
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element: `s('rect', { x: 0, width: 10, class: 'seg' })`. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** A tooltip child for SVG shapes. */
export const title = (text: string) => s('title', {}, text);

/** A two-column table of label/value rows. */
export function factTable(rows: { label: string; value: string }[], cls = 'facts'): HTMLTableElement {
  return h(
    'table',
    { class: cls },
    h('tbody', {}, ...rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.label), h('td', {}, r.value)))),
  );
}
