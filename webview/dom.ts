// DOM builders for the panel: every string becomes a text node (createTextNode) or the value of an attribute from a
// fixed allow-list; never markup, never an event-handler or style attribute, never a URL built from the file's text.

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

/**
 * The attributes the panel sets, and nothing else: no `on*` handler (listeners go through addEventListener), no
 * `style` (classes and SVG presentation attributes only: the CSP has no 'unsafe-inline'), no `href`/`src`.
 * `fill` and `marker-end` only ever point at the panel's own patterns and markers (`url(#hatch)`, `url(#arrow)`).
 */
const ALLOWED = new Set([
  // HTML
  'id',
  'class',
  'title',
  'role',
  'type',
  'scope',
  'start',
  'tabindex',
  'min',
  'max',
  'step',
  'data-rank',
  'data-key',
  // SVG geometry and presentation
  'viewBox',
  'preserveAspectRatio',
  'x',
  'y',
  'x1',
  'x2',
  'y1',
  'y2',
  'width',
  'height',
  'cx',
  'cy',
  'r',
  'd',
  'refX',
  'refY',
  'markerWidth',
  'markerHeight',
  'orient',
  'patternUnits',
  'patternTransform',
  'text-anchor',
  'vector-effect',
  'fill',
  'marker-end',
]);
const LOCAL_REF = /^url\(#[a-z]+\)$/;

function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

function setAttrs(el: Element, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (!ALLOWED.has(k) && !k.startsWith('aria-')) throw new Error(`refusing attribute ${k}`);
    const value = v === true ? '' : String(v);
    if ((k === 'fill' || k === 'marker-end') && !LOCAL_REF.test(value)) throw new Error(`refusing ${k}="${value.slice(0, 40)}"`);
    el.setAttribute(k, value);
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
export function custom<T extends HTMLElement>(tag: `vscode-${string}`, attrs: Attrs = {}, ...children: Child[]): T {
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

/** "does-not-fit" → "does not fit". */
export const words = (id: string) => id.replace(/-/g, ' ');
