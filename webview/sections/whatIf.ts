// The What-if section: one control per lever (the file's value until changed), the previewed estimate against
// the file's, the conflicts the change would cause and the keys Apply writes. The controls persist across updates
// so typing is never interrupted; only their values and marks change.
import type { Choice, WhatIfKey, WhatIfVM } from '../../src/protocol.js';
import { bar, verdictLine } from '../bars.js';
import { button, select, type Actions, type Select, type TextField } from '../controls.js';
import { custom, h } from '../dom.js';
import { colHead, conflictList, thead } from '../tables.js';

export class WhatIfView {
  readonly root = h('div', { class: 'whatif' });
  private readonly controls = h('div', { class: 'controls' });
  private readonly result = h('div', { class: 'whatif-result', 'aria-live': 'polite' });
  private fields = new Map<WhatIfKey, { row: HTMLElement; el: TextField | Select; hint: HTMLElement; kind: string }>();
  private signature = '';
  private gpuRow = h('div', { class: 'control' });
  private timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly a: Actions) {
    this.root.append(this.controls, this.result);
  }

  /** Draws `vm`; the GPU picker mirrors the Memory section's (null when there is none). */
  update(vm: WhatIfVM, gpuOptions: Choice[] | null, gpuId: string | null): void {
    const sig = `${vm.uri}|${vm.fields.map((f) => `${f.key}:${f.kind}:${f.options.map((o) => o.value).join(',')}`).join(';')}`;
    if (sig !== this.signature) this.build(vm);
    this.signature = sig;
    for (const f of vm.fields) {
      const c = this.fields.get(f.key)!;
      const focused = c.el === document.activeElement || c.el.contains(document.activeElement);
      if (!focused && c.el.value !== f.value) c.el.value = f.value;
      if (c.kind === 'int') (c.el as TextField).invalid = false;
      c.row.classList.toggle('changed', f.changed);
      c.hint.textContent = f.changed ? `file: ${f.file}` : '';
    }
    this.gpuRow.replaceChildren();
    if (gpuOptions && gpuId)
      this.gpuRow.append(
        h('label', { class: 'field-label' }, 'GPU'),
        select('GPU', gpuOptions, gpuId, (id) => this.a.selectGpu(id)),
      );
    this.result.replaceChildren(...this.resultNodes(vm));
  }

  /** Stops the typing timers (the panel is going away). */
  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private build(vm: WhatIfVM): void {
    this.fields.clear();
    const rows: HTMLElement[] = [];
    for (const f of vm.fields) {
      const hint = h('span', { class: 'hint' });
      let el: TextField | Select;
      if (f.kind === 'int') {
        const t = custom<TextField>('vscode-textfield', {
          'aria-label': f.label,
          type: 'number',
          min: f.min,
          max: f.max,
          step: 1,
          class: 'num-field',
        });
        t.value = f.value;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const stop = () => {
          if (timer === undefined) return;
          clearTimeout(timer);
          this.timers.delete(timer);
          timer = undefined;
        };
        // Typing settles for 80 ms before the value goes out; leaving the field sends it at once.
        t.addEventListener('input', () => {
          stop();
          timer = setTimeout(() => {
            stop();
            t.invalid = !this.a.setWhatIf(f, t.value);
          }, 80);
          this.timers.add(timer);
        });
        t.addEventListener('change', () => {
          stop();
          t.invalid = !this.a.setWhatIf(f, t.value);
        });
        el = t;
      } else el = select(f.label, f.options, f.value, (value) => this.a.setWhatIf(f, value));
      const row = h('div', { class: 'control' }, h('label', { class: 'field-label' }, f.label), el, hint);
      this.fields.set(f.key, { row, el, hint, kind: f.kind });
      rows.push(row);
    }
    this.controls.replaceChildren(...rows, this.gpuRow);
  }

  private resultNodes(vm: WhatIfVM): Node[] {
    const out: Node[] = [];
    if (vm.preview)
      out.push(
        bar(vm.preview.bar, { legend: false }),
        verdictLine(vm.preview.bar.verdict, vm.preview.verdictText),
        h(
          'table',
          { class: 'deltas' },
          thead(colHead(''), colHead('file GiB', true), colHead('what-if', true), colHead('change', true)),
          h(
            'tbody',
            {},
            ...vm.preview.deltas.map((d) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, d.label),
                h('td', { class: 'num' }, d.from),
                h('td', { class: 'num' }, d.to),
                h('td', { class: 'num' }, d.delta),
              ),
            ),
          ),
        ),
      );
    if (vm.conflicts.length) out.push(conflictList(vm.conflicts, 'conflicts'));
    if (vm.changes.length)
      out.push(
        h(
          'ul',
          { class: 'changes', 'aria-label': 'keys Apply writes' },
          ...vm.changes.map((c) => h('li', {}, h('code', {}, c.path), `: ${c.from} → ${c.to}`)),
        ),
      );
    out.push(
      h(
        'div',
        { class: 'actions' },
        button('Apply to file', () => this.a.apply(vm.uri, vm.docVersion), { disabled: !vm.canApply }),
        button('Reset', () => this.a.resetWhatIf(), {
          secondary: true,
          disabled: !vm.preview,
          label: 'Reset the what-if values to the file',
        }),
      ),
      h('p', { class: 'muted' }, vm.applyNote),
    );
    return out;
  }
}
