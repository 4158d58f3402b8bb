// The header: the file shown (its name, format, model and GPU), or the welcome text when no recipe is open.
import type { HeaderVM } from '../../src/protocol.js';
import { h } from '../dom.js';

export function renderHeader(vm: HeaderVM): HTMLElement {
  if (vm.state === 'empty')
    return h(
      'div',
      { class: 'welcome' },
      h('h1', {}, 'Recipe Lens'),
      h('p', {}, vm.message),
      h(
        'p',
        { class: 'muted' },
        'The panel follows the active editor: memory against your GPU, the rank layout, quantization and KV cache, with what-if previews.',
      ),
    );
  return h(
    'header',
    { class: 'file-header' },
    h('h1', { title: vm.uri ?? '' }, vm.title),
    h('p', { class: 'muted' }, vm.subtitle),
    vm.message ? h('p', { class: 'message' }, vm.message) : null,
  );
}
