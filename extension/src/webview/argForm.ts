// Typed method-argument editors for the simulate panel (webview side): each ARC-56 argument gets
// its name, type and description, its default as placeholder, and an editor by type — text boxes
// for scalars, account and asset pickers (datalists), one box per field for structs and tuples, and
// add/remove rows for arrays. Composite values are serialized to the JSON text the extension reads.
// Everything is inserted as text (never HTML). Loaded before simulate.js. Bundled by esbuild
// (scripts/webview-build.mjs) to extension/media/argForm.js, which the panel loads.
import type { ArgFormApi, ArgInfo, Attrs, Child, Draft, ElFn, FormRow, MethodInfo, PickerContext } from './types.js';

(function () {
  'use strict';

  const el: ElFn = function el(tag: string, attrs?: Attrs, ...children: Child[]): HTMLElement {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) e.addEventListener(k.slice(2), v as EventListener);
      else if (k === 'class') e.className = v as string;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of (children as unknown[]).flat(Infinity) as Array<string | Node | undefined | null | false>)
      if (c !== undefined && c !== null && c !== false) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
    return e;
  };

  /** The type as the form shows it: a struct by its ARC-56 name, with its tuple type. */
  function typeLabel(info: ArgInfo): string {
    return info.editor.kind === 'struct' ? `${info.editor.struct} ${info.type}` : info.type;
  }

  const NUMERIC = /^(uint\d+|ufixed\d+x\d+|byte|asset|application)$/;

  /** JSON text of a draft value for a nested position. */
  function ser(info: ArgInfo, draft: Draft): string {
    const ed = info.editor;
    if (ed.kind === 'struct')
      return '{' + ed.fields.map((f) => JSON.stringify(f.name) + ': ' + ser(f, ((draft || {}) as Record<string, Draft>)[f.name])).join(', ') + '}';
    if (ed.kind === 'tuple') return '[' + ed.items.map((it, i) => ser(it, ((draft || []) as Draft[])[i])).join(', ') + ']';
    if (ed.kind === 'array') return '[' + ((draft || []) as Draft[]).map((d) => ser(ed.element, d)).join(', ') + ']';
    const t = String(draft ?? '').trim();
    if (NUMERIC.test(info.type) && /^\d[\d_]*$/.test(t)) return t.replace(/_/g, '');
    if (info.type === 'bool' && /^(true|false)$/.test(t)) return t;
    return JSON.stringify(draft ?? '');
  }

  /** A fresh draft for an editor (empty fields, a static array's slots). */
  function emptyDraft(info: ArgInfo): Draft {
    const ed = info.editor;
    if (ed.kind === 'struct') return Object.fromEntries(ed.fields.map((f) => [f.name, emptyDraft(f)]));
    if (ed.kind === 'tuple') return ed.items.map(emptyDraft);
    if (ed.kind === 'array') return ed.length !== undefined ? Array.from({ length: ed.length }, () => emptyDraft(ed.element)) : [];
    return '';
  }

  function pickerList(ctx: PickerContext, picker: string | undefined): string | undefined {
    if (picker === 'account') return 'tw-accounts';
    if (picker === 'asset') return 'tw-assets';
    return undefined;
  }

  /**
   * One editor. `get`/`set` read and write its draft; `changed` re-serializes the whole argument.
   * `field` is the data-field path the extension's errors name.
   */
  function editor(info: ArgInfo, get: () => Draft, set: (v: Draft) => void, changed: () => void, ctx: PickerContext, field: string): HTMLElement {
    const ed = info.editor;
    if (ed.kind === 'text') {
      const list = pickerList(ctx, ed.picker);
      const placeholder = info.defaultText !== undefined ? `default ${info.defaultText}` : info.defaultFrom ? `default from ${info.defaultFrom}` : info.type;
      const kind =
        info.type === 'bool'
          ? el(
              'select',
              {
                'data-field': field,
                onchange: (ev) => {
                  set(ev.target.value);
                  changed();
                },
              },
              [
                ['', info.defaultText !== undefined ? `(default ${info.defaultText})` : '(choose)'],
                ['true', 'true'],
                ['false', 'false'],
              ].map(([v, l]) => el('option', { value: v, selected: String(get() ?? '') === v }, l)),
            )
          : el('input', {
              type: 'text',
              value: get() ?? '',
              placeholder,
              list,
              class: /address|account|string|\[\]/.test(info.type) ? 'wide' : '',
              'data-field': field,
              'aria-label': `${info.name} (${info.type})`,
              oninput: (ev) => {
                set(ev.target.value);
                changed();
              },
            });
      return kind;
    }
    if (ed.kind === 'struct' || ed.kind === 'tuple') {
      const parts: ArgInfo[] = ed.kind === 'struct' ? ed.fields : ed.items;
      const box = el('div', { class: 'composite', 'data-field': field });
      parts.forEach((p, i) => {
        const key = ed.kind === 'struct' ? p.name : i;
        const sub = () => {
          const d = get() as Record<string | number, Draft> | undefined;
          return d ? d[key] : undefined;
        };
        const setSub = (v: Draft) => {
          const d = (get() || (ed.kind === 'struct' ? {} : [])) as Record<string | number, Draft>;
          d[key] = v;
          set(d as Draft);
        };
        box.append(
          el(
            'label',
            { class: 'sub', title: p.desc || '' },
            `${ed.kind === 'struct' ? p.name : i} `,
            el('span', { class: 'muted' }, `(${typeLabel(p)}) `),
            editor(p, sub, setSub, changed, ctx, `${field}.${key}`),
          ),
        );
      });
      return box;
    }
    // Arrays: a row per element; dynamic ones grow and shrink.
    const box = el('div', { class: 'composite array', 'data-field': field });
    const list = () => (get() || []) as Draft[];
    const draw = () => {
      const items = list();
      box.replaceChildren(
        ...items.map((_, i) =>
          el(
            'div',
            { class: 'array-item' },
            el('span', { class: 'muted' }, `[${i}] `),
            editor(
              ed.element,
              () => list()[i],
              (v) => {
                const d = list();
                d[i] = v;
                set(d);
              },
              changed,
              ctx,
              `${field}.${i}`,
            ),
            ed.length === undefined
              ? el(
                  'button',
                  {
                    class: 'link',
                    title: 'Remove this element',
                    onclick: () => {
                      const d = list();
                      d.splice(i, 1);
                      set(d);
                      changed();
                      draw();
                    },
                  },
                  'remove',
                )
              : '',
          ),
        ),
        ed.length === undefined
          ? el(
              'button',
              {
                class: 'secondary small',
                onclick: () => {
                  const d = list();
                  d.push(emptyDraft(ed.element));
                  set(d);
                  changed();
                  draw();
                },
              },
              `+ ${ed.element.type}`,
            )
          : '',
      );
    };
    if (!get()) set(emptyDraft(info));
    draw();
    return box;
  }

  /** The labelled editors of a method's arguments; writes the texts into row.args. */
  function render(row: FormRow, method: MethodInfo, ctx: PickerContext): HTMLElement[] {
    const args = (row.args = row.args || []);
    const drafts = (row.argDrafts = row.argDrafts || []);
    const out: HTMLElement[] = [];
    if (method.desc) out.push(el('p', { class: 'muted method-desc' }, method.desc));
    method.args.forEach((a, k) => {
      const composite = a.editor.kind !== 'text';
      if (composite && drafts[k] === undefined) drafts[k] = emptyDraft(a);
      const get = () => (composite ? drafts[k] : args[k]);
      const set = (v: Draft) => {
        if (composite) drafts[k] = v;
        else args[k] = v as string;
      };
      const changed = () => {
        if (composite) args[k] = ser(a, drafts[k]);
      };
      changed();
      out.push(
        el(
          'div',
          { class: 'arg' },
          el(
            'label',
            { class: 'arg-label', title: a.desc || '' },
            el('strong', {}, a.name),
            ' ',
            el('span', { class: 'muted' }, `(${typeLabel(a)})`),
            ' ',
            editor(a, get, set, changed, ctx, `args.${k}`),
          ),
          a.desc ? el('div', { class: 'muted arg-desc' }, a.desc) : '',
        ),
      );
    });
    if (method.returns) out.push(el('div', { class: 'muted' }, `returns ${method.returns.type}${method.returns.desc ? ` — ${method.returns.desc}` : ''}`));
    return out;
  }

  /** Datalists for the pickers, once per render. */
  function datalists(ctx: PickerContext): HTMLElement[] {
    return [
      el(
        'datalist',
        { id: 'tw-accounts' },
        (ctx.accounts || []).map((a) => el('option', { value: a })),
      ),
      el(
        'datalist',
        { id: 'tw-assets' },
        (ctx.assets || []).map((a) => el('option', { value: a })),
      ),
    ];
  }

  /** Marks the field an error names (`txn I, FIELD: message`) and puts the message beside it. */
  function highlight(root: ParentNode, index: number | undefined, field: string | undefined, message: unknown): boolean {
    for (const old of root.querySelectorAll('.invalid')) old.classList.remove('invalid');
    for (const old of root.querySelectorAll('.field-error')) old.remove();
    if (index === undefined || !field) return false;
    const row = root.querySelector(`fieldset.txn[data-index="${index}"]`);
    if (!row) return false;
    // The most precise editor there is: a struct field or array item, else the argument holding it.
    let target: Element | null = null;
    for (let f: string = field; f && !target; f = f.includes('.') ? f.slice(0, f.lastIndexOf('.')) : '') {
      if (f === 'args') break;
      target = row.querySelector(`[data-field="${CSS.escape(f)}"]`);
    }
    // `args` errors without a position land on the first argument.
    if (!target && field === 'args') target = row.querySelector('[data-field^="args"]');
    if (!target) target = row.querySelector('legend')!;
    target.classList.add('invalid');
    target.setAttribute('aria-invalid', 'true');
    // The note beside the field needs only the reason: not which txn and field (it is there), nor
    // "argument N (name) of method:".
    const reason = String(message)
      .replace(/^txn \d+, [^:]+: /, '')
      .replace(/^.*?argument \d+(?: \([^)]*\))? of [^:]+: /, '');
    const note = el('div', { class: 'field-error', role: 'alert' }, reason);
    target.insertAdjacentElement('afterend', note);
    if (typeof (target as HTMLElement).focus === 'function') (target as HTMLElement).focus();
    return true;
  }

  const api: ArgFormApi = { render, datalists, highlight, ser, el };
  window.TealworksArgForm = api;
})();
