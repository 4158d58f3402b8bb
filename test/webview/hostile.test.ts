// File text that looks like markup, script or a URL reaches the page only as text: a model name
// `<img src=x onerror=alert(1)>`, `<script>`, `javascript:` URLs and `${...}` from the YAML, a hostile file name
// and document URI, drawn through the real sections. No element is created from them, no `on*` handler or
// inline style exists anywhere, no href or src is built from them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROTOCOL_VERSION } from '../../src/protocol.js';
import { h, s } from '../../webview/dom.js';
import { analyse, example, init } from './fixtures.js';
import { all, one, openDom, openPanel, text } from './page.js';

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)';
const FILE_NAME = 'a${process.exit()}<b onmouseover=alert(5)>.yaml';
const URI = 'javascript:alert(6)//<iframe srcdoc="<script>alert(7)</script>">';

const NEMO = [
  '# recipe-lens: vocab=32000',
  `name: "${HOSTILE}"`,
  'trainer: {devices: 8, num_nodes: 1}',
  'model:',
  '  tensor_model_parallel_size: 2',
  '  context_parallel_size: 2',
  '  encoder_seq_length: 4096',
  '  num_layers: 4',
  '  hidden_size: 1024',
  '  num_attention_heads: 16',
  '',
].join('\n');

/** The tags the renderers create (vscode-* custom elements aside): anything else came from somewhere it should not. */
const TAGS = new Set(
  (
    'div p h1 h3 header span ul ol li table caption thead tbody tfoot tr th td strong code label button dl dt dd ' +
    'svg rect line title defs marker path g circle text pattern'
  ).split(' '),
);

/** Every element of the subtree, the root included. */
const elements = (root: Element) => [root, ...all(root, '*')];

/** The page's own HTML shell holds the one script and stylesheet; nothing under #app or #notice loads anything. */
function assertInert(document: Document, app: Element) {
  for (const el of elements(document.documentElement)) {
    for (const a of Array.from(el.attributes)) {
      assert.doesNotMatch(a.name, /^on/i, `${el.tagName} has ${a.name}`);
      assert.notEqual(a.name, 'style', `${el.tagName} has a style attribute`);
    }
  }
  for (const el of [...elements(app), ...elements(document.getElementById('notice')!)]) {
    const tag = el.tagName.toLowerCase();
    assert.ok(TAGS.has(tag) || tag.startsWith('vscode-') || tag === 'main', `unexpected <${tag}>`);
    for (const a of Array.from(el.attributes))
      assert.ok(!['href', 'src', 'xlink:href', 'srcdoc', 'action', 'formaction'].includes(a.name), `${tag} has ${a.name}`);
  }
  assert.deepEqual(
    all(document, 'script, link, img, iframe, object, embed, a, b, style, base, form, meta[http-equiv="refresh"]').map((e) =>
      e.tagName.toLowerCase(),
    ),
    ['link', 'script'],
  );
}

test('a hostile model name, file name and URI are drawn as text in the header, the layouts caption and attributes', async () => {
  const a = analyse(FILE_NAME, NEMO, { uri: URI });
  // The host's own view models hold the strings verbatim (nothing escaped, nothing evaluated).
  assert.equal(a.sections.header.subtitle, `NeMo 1.x Hydra config · ${HOSTILE} · NVIDIA H100 80GB HBM3 (SXM)`);
  const p = await openPanel();
  try {
    p.host(init(a));
    const h1 = one(p.app, '.file-header h1');
    assert.equal(h1.textContent, FILE_NAME);
    assert.equal(h1.childNodes.length, 1);
    assert.equal(h1.firstChild!.nodeType, 3 /* TEXT_NODE */);
    assert.equal(h1.getAttribute('title'), URI);
    const sub = one(p.app, '.file-header p.muted');
    assert.equal(sub.textContent, `NeMo 1.x Hydra config · ${HOSTILE} · NVIDIA H100 80GB HBM3 (SXM)`);
    assert.equal(sub.children.length, 0);
    assert.equal(
      text(one(p.app, '#sec-planner .planner > p.muted')),
      `${HOSTILE} · seq 4,096 · global batch ? · 8 × NVIDIA H100 80GB HBM3 (SXM)`,
    );
    // The what-if section writes back into the document named by the URI: it goes out as data, never navigated to.
    assert.equal(a.sections.whatIf!.uri, URI);
    assertInert(p.document, p.app);
    assert.ok(p.app.textContent!.includes('${process.exit()}'));
  } finally {
    await p.close();
  }
});

test("a Megatron-Bridge precision string with markup and ${...} shows verbatim in the what-if's keys to write", async () => {
  const bridge = `${example('bridge_llama3_8b_128k.yaml').replace(/^mixed_precision:.*$/m, '')}\nmixed_precision: "<script>\${x}</script> javascript:void(0)"\n`;
  const a = analyse('bridge.yaml', bridge, { ui: { whatIf: { precision: 'fp8-delayed' } }, worldSize: 64 });
  const p = await openPanel();
  try {
    p.host(init(a));
    const li = all(p.app, '#sec-whatIf ul.changes li').find((e) => text(e.querySelector('code')) === 'mixed_precision');
    assert.ok(li, 'the precision key is listed');
    assert.equal(li.textContent, 'mixed_precision: <script>${x}</script> javascript:void(0) → bf16_with_fp8_delayed_scaling_mixed');
    assert.deepEqual(
      Array.from(li.childNodes).map((n) => n.nodeName),
      ['CODE', '#text'],
    );
    assertInert(p.document, p.app);
  } finally {
    await p.close();
  }
});

test('notices and errors from the host are text, not markup', async () => {
  const p = await openPanel();
  try {
    p.host({ v: PROTOCOL_VERSION, type: 'notice', level: 'warning', text: `${HOSTILE} \${process.exit(8)}` });
    assert.equal(p.notice.textContent, `${HOSTILE} \${process.exit(8)}`);
    assert.equal(p.notice.children.length, 0);
    assert.equal(p.notice.className, 'notice notice-warning');
    assert.equal(p.notice.getAttribute('role'), 'alert');
    p.host({ v: PROTOCOL_VERSION, type: 'error', message: `could not build the panel: ${HOSTILE}` });
    assert.equal(p.notice.textContent, `could not build the panel: ${HOSTILE}`);
    assert.equal(p.notice.className, 'notice notice-error');
    assertInert(p.document, p.app);
  } finally {
    await p.close();
  }
});

test('the DOM builders refuse event handlers, inline styles, URLs and references outside the page', async () => {
  const dom = await openDom();
  try {
    assert.throws(() => h('div', { onclick: 'alert(1)' }), /refusing attribute onclick/);
    assert.throws(() => h('div', { ONCLICK: 'alert(1)' }), /refusing attribute ONCLICK/);
    assert.throws(() => h('div', { style: 'color:red' }), /refusing attribute style/);
    assert.throws(() => h('p', { href: 'javascript:alert(1)' }), /refusing attribute href/);
    assert.throws(() => h('p', { src: 'x' }), /refusing attribute src/);
    assert.throws(() => s('rect', { 'xlink:href': '#x' }), /refusing attribute xlink:href/);
    assert.throws(() => s('rect', { fill: 'url(https://x/y.svg#a)' }), /refusing fill="url\(https:\/\/x\/y\.svg#a\)"/);
    assert.throws(() => s('line', { 'marker-end': 'url(javascript:alert(1))' }), /refusing marker-end/);
    // Text children are text nodes, whatever they look like.
    const p = h('p', { title: HOSTILE, 'aria-label': HOSTILE }, HOSTILE, 42);
    assert.deepEqual(
      Array.from(p.childNodes).map((n) => [n.nodeName, n.textContent]),
      [
        ['#text', HOSTILE],
        ['#text', '42'],
      ],
    );
    assert.equal(p.getAttribute('title'), HOSTILE);
    assert.equal(p.children.length, 0);
    assert.deepEqual(dom.logs, []);
  } finally {
    await dom.close();
  }
});
