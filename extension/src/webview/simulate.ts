// Simulate panel (webview side). Plain DOM, no remote content. Builds the group form, posts it to
// the extension, renders the report. Everything shown is inserted as text, never as HTML.
// Bundled by esbuild (scripts/webview-build.mjs) to extension/media/simulate.js, which the panel loads.
import type { FormRow, MethodInfo, PanelMessage, ReportView, SentInfo, WebviewMessage } from './types.js';
import type { FailureExplainView, StackItemView } from '../contracts/explainView.js';
import type { TxnView } from '../contracts/valueFormat.js';

/** Everything the panel shows; re-rendered whole after each message or edit. */
interface PanelState {
  rows: FormRow[];
  accounts: string[];
  sources: string[];
  methods: Record<string, string[]>;
  methodInfo: Record<string, MethodInfo[]>;
  appAddresses: Record<string, string>;
  assets: string[];
  network: string;
  chain?: string;
  report: ReportView | undefined;
  warnings?: string[];
  error: string | undefined;
  errorAt: { index: number; field: string } | undefined;
  busy: string;
  sent: SentInfo | undefined;
  sourceFile: string | undefined;
  notice?: string | undefined;
  debuggable?: boolean;
}

(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const app = document.getElementById('app')!;
  let state: PanelState = {
    rows: [],
    accounts: [],
    sources: [],
    methods: {},
    methodInfo: {},
    appAddresses: {},
    assets: [],
    network: '',
    report: undefined,
    error: undefined,
    errorAt: undefined,
    busy: '',
    sent: undefined,
    sourceFile: undefined,
  };
  const argForm = window.TealworksArgForm!;

  // The DOM builder both scripts use (text only, never HTML).
  const el = argForm.el;

  function input(row: FormRow, field: string, placeholder: string, width?: string): HTMLElement {
    return el('input', {
      type: 'text',
      value: row[field] ?? '',
      placeholder,
      class: width || '',
      'data-field': field,
      oninput: (ev) => {
        row[field] = ev.target.value;
        saveRows();
      },
    });
  }
  function select(row: FormRow, field: string, options: { value: string; label: string }[], onchange?: () => void): HTMLElement {
    const s = el(
      'select',
      {
        'data-field': field,
        onchange: (ev) => {
          row[field] = ev.target.value;
          saveRows();
          if (onchange) onchange();
        },
      },
      options.map((o) => el('option', { value: o.value, selected: (row[field] ?? '') === o.value }, o.label)),
    );
    return s;
  }
  const shortAddress = (a: string) => a.slice(0, 8) + '…' + a.slice(-4);

  /** The accounts to pick from; a sender that is none of them is listed too, marked, so the pick shown is the one sent. */
  function accountOptions(row: FormRow) {
    const options = state.accounts.map((a) => ({ value: a, label: shortAddress(a) }));
    if (row.sender && !state.accounts.includes(row.sender)) options.unshift({ value: row.sender, label: `${shortAddress(row.sender)} (not an account here)` });
    return options;
  }

  /** A row that names an app or asset by id: it means something on one chain only. */
  const namesChainItems = (r: FormRow) => (r.appId && /^[1-9]/.test(String(r.appId).trim())) || r.assetId;

  /**
   * The panel now shows another chain than the one its report, error and rows were made on
   * (another network, a devnet restarted, a window reload onto a new chain): nothing on screen may
   * describe the old one. Rows naming its apps or assets go; a sender that is not an account here
   * becomes the first account (what a new row gets); the notice says what changed and why.
   */
  function leaveChain(why: string, lead = 'Cleared'): void {
    const dropped = state.rows.filter(namesChainItems).length;
    state.rows = state.rows.filter((r) => !namesChainItems(r));
    // The new chain's accounts may come after this (a devnet still starting): the senders move then.
    sendersToMove = !state.accounts.length;
    const moved = moveSenders();
    const what = [dropped ? `${dropped} row${dropped > 1 ? 's' : ''} naming its apps or assets removed` : '', moved ? movedNote(moved) : ''].filter(Boolean);
    if (state.report || state.error || what.length) state.notice = `${lead}: ${why}${what.length ? `; ${what.join('; ')}` : ''}.`;
    state.report = undefined;
    state.sent = undefined;
    state.error = undefined;
    state.errorAt = undefined;
    state.warnings = [];
  }

  /** Set when a chain was left before its successor's accounts were known: senders still to move. */
  let sendersToMove = false;

  /** Rows whose sender is no account of the chain shown get the first account; how many moved. */
  function moveSenders(): number {
    let moved = 0;
    if (state.accounts.length)
      for (const r of state.rows)
        if (r.sender && !state.accounts.includes(r.sender)) {
          r.sender = state.accounts[0];
          moved++;
        }
    return moved;
  }

  /** What the notice says of senders moved to the first account. */
  const movedNote = (moved: number) => `${moved} sender${moved > 1 ? 's' : ''} not an account here set to ${shortAddress(state.accounts[0]!)}`;

  /** The accounts of the chain shown arrived: senders left over from the chain the panel left move now. */
  function accountsArrived(): void {
    if (!sendersToMove || !state.accounts.length) return;
    sendersToMove = false;
    const moved = moveSenders();
    if (moved) {
      const note = movedNote(moved);
      state.notice = state.notice ? `${state.notice.replace(/\.$/, '')}; ${note}.` : `${note}.`;
    }
  }

  /** The method description of an app call row (from the spec of its program), if any. */
  function infoOf(row: FormRow | undefined): MethodInfo | undefined {
    return row && row.kind === 'appcall' && row.method ? (state.methodInfo[row.source as string] || []).find((m) => m.signature === row.method) : undefined;
  }

  /** The call whose transaction argument row `i` is (ARC-4: the rows right above a call), if any. */
  function linkOf(i: number): { call: number; arg: MethodInfo['transactionArgs'][number]; method: string } | undefined {
    for (let j = i + 1; j < state.rows.length; j++) {
      const info = infoOf(state.rows[j]);
      const n = info && info.transactionArgs ? info.transactionArgs.length : 0;
      if (n && j - n <= i) return { call: j, arg: info!.transactionArgs[i - (j - n)]!, method: info!.name };
      if (state.rows[j]!.kind === 'appcall') return undefined;
    }
    return undefined;
  }

  /** The app address of a call row: known apps come with the panel; others are asked for. */
  function appAddressOf(row: FormRow): string | undefined {
    const id = String(row.appId || '').trim();
    if (!/^[1-9]\d*$/.test(id)) return undefined;
    if (state.appAddresses[id]) return state.appAddresses[id];
    vscode.postMessage({ type: 'appAddress', appId: id });
    return undefined;
  }

  /** Inserts rows for the method's transaction arguments right above call `i`, unless the rows there fit. */
  function insertTxnArgRows(i: number): void {
    const call = state.rows[i]!;
    const info = infoOf(call);
    const txnArgs = (info && info.transactionArgs) || [];
    const n = txnArgs.length;
    if (!n) return;
    const fits = i >= n && txnArgs.every((a, k) => (a.type === 'txn' ? true : state.rows[i - n + k]!.kind === a.rowKind));
    if (fits) return;
    const receiver = appAddressOf(call);
    const rows = txnArgs.map((a) => {
      const kind = (a.rowKind || 'payment') as FormRow['kind'];
      const r: FormRow = { kind, sender: call.sender || state.accounts[0] || '' };
      if (kind !== 'appcall') {
        r.receiver = receiver || '';
        if (!receiver && call.appId) r.awaitApp = String(call.appId).trim();
      } else r.appId = '';
      return r;
    });
    state.rows.splice(i, 0, ...rows);
  }

  function move(i: number, by: number): void {
    const j = i + by;
    if (j < 0 || j >= state.rows.length) return;
    const [r] = state.rows.splice(i, 1);
    state.rows.splice(j, 0, r!);
    render();
  }

  function rowView(row: FormRow, i: number): HTMLElement {
    const kinds = [
      { value: 'appcall', label: 'App call' },
      { value: 'payment', label: 'Payment' },
      { value: 'assetTransfer', label: 'Asset transfer' },
    ];
    const fields: HTMLElement[] = [];
    if (!row.sender && state.accounts[0]) row.sender = state.accounts[0];
    fields.push(el('label', {}, 'Sender ', state.accounts.length ? select(row, 'sender', accountOptions(row)) : input(row, 'sender', 'address', 'wide')));
    const link = linkOf(i);
    if (row.kind === 'payment' || row.kind === 'assetTransfer') {
      const receiver = input(row, 'receiver', 'address', 'wide');
      receiver.setAttribute('list', 'tw-receivers');
      const target = link ? state.rows[link.call] : undefined;
      const appAddr = target ? appAddressOf(target) : undefined;
      fields.push(
        el(
          'label',
          {},
          'Receiver ',
          receiver,
          appAddr && row.receiver !== appAddr
            ? el(
                'button',
                {
                  class: 'secondary small',
                  'data-action': 'app-address',
                  title: `Send to the account of app ${target!.appId}`,
                  onclick: () => {
                    row.receiver = appAddr;
                    render();
                  },
                },
                `app ${target!.appId} address`,
              )
            : '',
        ),
      );
      fields.push(el('label', {}, 'Amount ', input(row, 'amount', 'micro-units')));
      if (row.kind === 'assetTransfer') fields.push(el('label', {}, 'Asset ', input(row, 'assetId', 'asset id')));
    } else {
      fields.push(el('label', {}, 'App id ', input(row, 'appId', '0 = create')));
      const sources = [{ value: '', label: '(none)' }].concat(state.sources.map((s) => ({ value: s, label: s })));
      fields.push(el('label', {}, 'Program ', select(row, 'source', sources, render)));
      const ocs = ['NoOp', 'OptIn', 'CloseOut', 'ClearState', 'UpdateApplication', 'DeleteApplication'].map((v) => ({ value: v, label: v }));
      fields.push(el('label', {}, 'On completion ', select(row, 'onComplete', ocs)));
      const methods = state.methods[row.source as string] || [];
      if (methods.length) {
        fields.push(
          el(
            'label',
            {},
            'Method ',
            select(row, 'method', [{ value: '', label: '(raw arguments)' }].concat(methods.map((m) => ({ value: m, label: m }))), () => {
              row.args = [];
              row.argDrafts = [];
              insertTxnArgRows(state.rows.indexOf(row));
              render();
            }),
          ),
        );
      }
      const info = row.method && argForm ? (state.methodInfo[row.source as string] || []).find((m) => m.signature === row.method) : undefined;
      const argTypes = row.method ? argTypesOf(row.method) : undefined;
      if (info) {
        fields.push(el('div', { class: 'args' }, argForm.render(row, info, state)));
      } else if (argTypes) {
        const args = (row.args = row.args || []);
        argTypes.forEach((t, k) => {
          fields.push(
            el(
              'label',
              {},
              `arg ${k} (${t}) `,
              el('input', {
                type: 'text',
                value: args[k] ?? '',
                placeholder: t,
                'data-field': `args.${k}`,
                oninput: (ev) => {
                  args[k] = ev.target.value;
                  saveRows();
                },
              }),
            ),
          );
        });
      } else {
        fields.push(
          el(
            'label',
            {},
            'Args ',
            el('input', {
              type: 'text',
              class: 'wide',
              value: (row.args || []).join(', '),
              placeholder: 'int:5, 0x01ff, b64:…, addr:…, text',
              'data-field': 'args',
              oninput: (ev) => {
                row.args = ev.target.value
                  .split(',')
                  .map((s) => s.trim())
                  .filter((s) => s !== '');
                saveRows();
              },
            }),
          ),
        );
      }
    }
    fields.push(el('label', {}, 'Fee ', input(row, 'fee', 'default')));
    const callInfo = infoOf(row);
    const argRows = callInfo && callInfo.transactionArgs && callInfo.transactionArgs.length ? callInfo.transactionArgs : [];
    return el(
      'fieldset',
      { class: 'txn' + (link ? ' txn-arg' : ''), 'data-index': i, ...(link ? { 'data-arg-of': link.call } : {}) },
      el(
        'legend',
        {},
        `txn ${i} `,
        select(row, 'kind', kinds, render),
        ' ',
        el('button', { class: 'link', 'data-action': 'up', title: 'Move up', disabled: i === 0, onclick: () => move(i, -1) }, '↑'),
        el('button', { class: 'link', 'data-action': 'down', title: 'Move down', disabled: i === state.rows.length - 1, onclick: () => move(i, 1) }, '↓'),
        el(
          'button',
          {
            class: 'link',
            title: 'Remove',
            onclick: () => {
              state.rows.splice(i, 1);
              render();
            },
          },
          '✕ remove',
        ),
      ),
      link
        ? el('div', { class: 'muted link-note', 'data-link': `${link.call}` }, `↳ ${link.arg.name} (${link.arg.type}) of ${link.method} in txn ${link.call}`)
        : '',
      argRows.length
        ? el(
            'div',
            { class: 'muted link-note' },
            `takes ${argRows.map((a) => `${a.name} (${a.type})`).join(', ')} from the row${argRows.length > 1 ? 's' : ''} right above`,
          )
        : '',
      el('div', { class: 'fields' }, fields),
    );
  }

  /** Argument types of a method signature, skipping transaction arguments. */
  function argTypesOf(sig: string): string[] {
    const open = sig.indexOf('(');
    let depth = 0,
      cur = '';
    const out: string[] = [];
    for (let i = open + 1; i < sig.length; i++) {
      const c = sig[i];
      if (c === '(') depth++;
      if (c === ')') {
        if (depth === 0) {
          if (cur) out.push(cur);
          break;
        }
        depth--;
      }
      if (c === ',' && depth === 0) {
        out.push(cur);
        cur = '';
        continue;
      }
      cur += c;
    }
    return out.filter((t) => !['txn', 'pay', 'keyreg', 'acfg', 'axfer', 'afrz', 'appl'].includes(t));
  }

  function clean(rows: FormRow[]): Extract<WebviewMessage, { type: 'simulate' }>['group'] {
    return rows.map((r) => {
      const o: Record<string, unknown> & { kind: FormRow['kind']; sender: string } = { kind: r.kind, sender: r.sender || '' };
      for (const k of ['receiver', 'amount', 'assetId', 'appId', 'source', 'onComplete', 'method', 'fee', 'note']) if (r[k]) o[k] = String(r[k]);
      if (r.args && r.args.length) o.args = r.args.map((a) => String(a ?? ''));
      return o;
    });
  }

  /** A value cut in the report, with "show all" to expand it in place (and back). */
  function valueCode(text: string, full: string | undefined, attrs?: Record<string, unknown>): HTMLElement {
    const code = el('code', attrs || {}, text);
    if (!full) return code;
    let open = false;
    const label = `show all (${full.length.toLocaleString('en-US')} characters)`;
    const toggle: HTMLElement = el(
      'button',
      {
        class: 'link small show-all',
        title: 'Show the whole value',
        onclick: () => {
          open = !open;
          code.textContent = open ? full : text;
          toggle.textContent = open ? 'show less' : label;
        },
      },
      label,
    );
    return el('span', { class: 'clipped' }, code, ' ', toggle);
  }

  function txnView(t: TxnView): HTMLElement {
    const head = el(
      'div',
      { class: 'txn-head' + (t.failed ? ' failed' : '') },
      el('span', { class: 'icon' }, t.failed ? '✗' : '✓'),
      ' ',
      el('strong', {}, t.label),
      ' · ',
      t.type,
      t.appId ? ` · app ${t.appId}` : '',
      t.createdAppId ? ' (created)' : '',
      t.method ? ` · ${t.method}` : '',
      t.budget !== undefined ? el('span', { class: 'muted' }, ` · budget ${t.budget}`) : '',
    );
    const body = el('div', { class: 'txn-body' });
    if (t.returnValue !== undefined) body.append(el('div', {}, 'returns ', valueCode(t.returnValue, t.returnFull)));
    if (t.returnError) body.append(el('div', { class: 'warn' }, t.returnError));
    if (t.logs.length)
      body.append(
        el('div', { class: 'section' }, 'Logs'),
        el(
          'ul',
          { class: 'logs' },
          t.logs.map((l) =>
            el(
              'li',
              { class: 'log' },
              el('span', { class: 'tag' }, l.kind),
              ' ',
              valueCode(l.text, l.full, { class: 'decoded', title: '0x' + l.hex }),
              l.raw ? [' ', el('code', { class: 'raw muted' }, l.raw)] : '',
            ),
          ),
        ),
      );
    if (t.changes.length)
      body.append(
        el('div', { class: 'section' }, 'State changes'),
        el(
          'ul',
          {},
          t.changes.map((c) =>
            el('li', {}, el('span', { class: 'tag' }, c.scope), ' ', c.account ? c.account.slice(0, 8) + '… ' : '', valueCode(c.text, c.full)),
          ),
        ),
      );
    if (t.resources.length)
      body.append(
        el('div', { class: 'section' }, 'Resources touched without a reference'),
        el(
          'ul',
          {},
          t.resources.map((r) => el('li', {}, r)),
        ),
      );
    for (const inner of t.inner) body.append(el('div', { class: 'inner' }, txnView(inner)));
    return el('div', { class: 'txn-report' + (t.failed ? ' failed' : ''), 'data-path': t.path.join('.') }, head, body);
  }

  function stackItem(v: StackItemView): HTMLElement {
    const title = (v.views || []).map((x) => `${x.label}: ${x.text}`).join('\n');
    return el(
      'li',
      { class: 'stack-item', title },
      el('span', { class: 'muted' }, `[${v.index}] `),
      el('span', { class: 'tag' }, v.type),
      ' ',
      el('code', {}, v.text),
      (v.views || [])
        .filter((x) => /^(utf8|address|abi string|abi uint64)$/.test(x.label) && x.text !== v.text)
        .map((x) => el('span', { class: 'muted' }, ` · ${x.label} ${x.text}`)),
    );
  }

  function explainView(x: FailureExplainView): HTMLElement {
    const box = el('div', { class: 'explain', id: 'explain' });
    if (x.path && x.path.length > 1)
      box.append(
        el(
          'div',
          { id: 'failure-path' },
          el('strong', {}, 'Path: '),
          x.path.map((p, i) => [
            i ? ' › ' : '',
            el('span', { class: p.failed ? 'fail' : '' }, `${p.label} (${p.type}${p.appId ? ` app ${p.appId}` : ''}${p.method ? ` ${p.method}` : ''})`),
          ]),
        ),
      );
    if (x.op || x.operands.length)
      box.append(
        el(
          'div',
          { id: 'operands' },
          el('strong', {}, 'Failing op: '),
          el('code', {}, x.op || '?'),
          x.operands.length
            ? [
                ' with operands ',
                x.operands.map((o, i) => [i ? ', ' : '', el('code', { title: (o.views || []).map((v) => `${v.label}: ${v.text}`).join('\n') }, o.text)]),
              ]
            : ' (no operands)',
        ),
      );
    if (x.stackDepth !== undefined) {
      box.append(
        el('div', { class: 'section' }, `Stack at the failing pc (top first${x.stackDepth > x.stack.length ? `, ${x.stack.length} of ${x.stackDepth}` : ''})`),
      );
      box.append(x.stack.length ? el('ul', { class: 'stack', id: 'stack' }, x.stack.map(stackItem)) : el('div', { class: 'muted', id: 'stack' }, '(empty)'));
    }
    if (x.scratch && x.scratch.length)
      box.append(
        el(
          'div',
          { id: 'scratch' },
          el('strong', {}, 'Scratch: '),
          x.scratch.map((c, i) => [i ? ', ' : '', el('code', {}, `${c.slot} = ${c.text}`)]),
        ),
      );
    return box;
  }

  function reportView(r: ReportView): HTMLElement[] {
    const parts: HTMLElement[] = [];
    const verdict = r.verdict || {
      kind: r.wouldSucceed ? 'ok' : 'fail',
      text: r.wouldSucceed ? '✓ Would succeed' : `✗ Would fail at ${r.failedAtLabel || 'the group'}`,
    };
    parts.push(el('h2', { class: verdict.kind === 'fail' ? 'fail' : 'ok', id: 'verdict', 'data-kind': verdict.kind }, verdict.text));
    if (verdict.txids && verdict.txids.length) {
      parts.push(
        el(
          'ul',
          { id: 'txids', class: 'txids' },
          verdict.txids.map((id) =>
            el(
              'li',
              {},
              el('code', { class: 'txid' }, id),
              ' ',
              el(
                'button',
                { class: 'secondary small copy', title: 'Copy the transaction id', onclick: () => vscode.postMessage({ type: 'copy', text: id }) },
                'Copy',
              ),
            ),
          ),
        ),
      );
    }
    if (!r.wouldSucceed) {
      const box = el('div', { class: 'failure', id: 'failure' });
      if (r.errorMessage) box.append(el('div', {}, el('strong', {}, 'Error: '), r.errorMessage));
      if (r.message) box.append(el('div', { class: 'message' }, el('strong', {}, 'Message: '), el('code', {}, r.message)));
      if (r.pc !== undefined) box.append(el('div', {}, `${r.program} program, pc ${r.pc}`));
      if (r.minBalance) {
        box.append(
          el(
            'div',
            { id: 'min-balance', class: 'warn' },
            r.minBalance.text,
            ' ',
            el(
              'button',
              {
                id: 'fund-app',
                class: 'small',
                title: `Send ${r.minBalance.shortBy} micro-units or more to ${r.minBalance.address}`,
                onclick: () => vscode.postMessage({ type: 'fund', address: r.minBalance!.address, amount: r.minBalance!.shortBy }),
              },
              r.minBalance.appId ? `Fund app ${r.minBalance.appId}'s account` : 'Fund the account',
            ),
          ),
        );
      }
      if (r.source && !r.minBalance) {
        const where = `${state.sourceFile || r.source.file || 'source'}:${r.source.line}:${r.source.column}`;
        const link = el(
          'a',
          {
            href: '#',
            id: 'failing-line',
            onclick: (ev) => {
              ev.preventDefault();
              if (state.sourceFile) vscode.postMessage({ type: 'reveal', file: state.sourceFile, line: r.source!.line, column: r.source!.column });
            },
          },
          where,
        );
        box.append(el('div', {}, 'At ', link, r.source.text ? el('code', {}, '  ' + r.source.text) : ''));
        if (r.source.definition) box.append(el('div', { class: 'muted' }, `expanded from the macro defined at line ${r.source.definition.line}`));
      }
      if (r.teal)
        box.append(
          el('div', { class: 'muted', id: 'teal-line' }, `TEAL ${r.teal.file || ''}:${r.teal.line}:${r.teal.column}${r.teal.text ? '  ' + r.teal.text : ''}`),
        );
      if (r.chain && r.chain.length) {
        box.append(el('div', {}, el('strong', {}, 'Call chain:')));
        box.append(
          el(
            'ol',
            { id: 'failure-chain', class: 'chain' },
            r.chain.map((c) =>
              el(
                'li',
                { class: c.failing ? 'failing' : '' },
                c.file
                  ? el(
                      'a',
                      {
                        href: '#',
                        onclick: (ev) => {
                          ev.preventDefault();
                          vscode.postMessage({ type: 'reveal', file: c.file!, line: c.line!, column: c.column! });
                        },
                      },
                      c.text,
                    )
                  : el('code', {}, c.text),
              ),
            ),
          ),
        );
      }
      if (r.explain) box.append(explainView(r.explain));
      if (state.debuggable)
        box.append(
          el(
            'div',
            { class: 'actions' },
            el(
              'button',
              { id: 'debug', title: 'Step through this run in the debugger, starting at the failure', onclick: () => vscode.postMessage({ type: 'debug' }) },
              'Debug this group',
            ),
          ),
        );
      parts.push(box);
    }
    const b: ReportView['budget'] = r.budget || {};
    if (b.consumed !== undefined || b.added !== undefined)
      parts.push(el('div', { class: 'muted', id: 'budget' }, `Budget: ${b.consumed ?? '?'} used of ${b.added ?? '?'}`));
    if (r.wouldSucceed && state.debuggable)
      parts.push(
        el(
          'div',
          { class: 'actions' },
          el(
            'button',
            { id: 'debug', class: 'secondary', title: 'Step through this run in the debugger', onclick: () => vscode.postMessage({ type: 'debug' }) },
            'Debug this group',
          ),
        ),
      );
    parts.push(el('div', { id: 'txns' }, r.txns.map(txnView)));
    if (r.resources.length)
      parts.push(
        el('div', { class: 'section' }, 'Group resources touched'),
        el(
          'ul',
          {},
          r.resources.map((x) => el('li', {}, x)),
        ),
      );
    return parts;
  }

  /**
   * True once the extension has sent the rows (`init`). Before that the form is an empty
   * placeholder: saving it would overwrite the rows a window reload is bringing back.
   */
  let initialised = false;

  /** What comes back after a window reload: the rows as typed (the extension validates them again). */
  function saveRows(): void {
    if (!initialised) return;
    const rows = clean(state.rows);
    vscode.setState({ rows, network: state.network, chain: state.chain || '' });
    vscode.postMessage({ type: 'rows', group: rows });
  }

  function render(): void {
    const form = el(
      'section',
      { id: 'form' },
      el('h1', {}, 'Group ', el('span', { class: 'muted' }, `on ${state.network}`)),
      state.rows.map(rowView),
      el(
        'div',
        { class: 'actions' },
        el(
          'button',
          {
            class: 'secondary',
            onclick: () => {
              state.rows.push({ kind: 'payment', sender: state.accounts[0] || '' });
              render();
            },
          },
          '+ Payment',
        ),
        el(
          'button',
          {
            class: 'secondary',
            onclick: () => {
              state.rows.push({ kind: 'appcall', sender: state.accounts[0] || '', appId: '' });
              render();
            },
          },
          '+ App call',
        ),
        el(
          'button',
          {
            class: 'secondary',
            onclick: () => {
              state.rows.push({ kind: 'assetTransfer', sender: state.accounts[0] || '' });
              render();
            },
          },
          '+ Asset transfer',
        ),
        el('button', { id: 'simulate', disabled: !!state.busy, onclick: () => vscode.postMessage({ type: 'simulate', group: clean(state.rows) }) }, 'Simulate'),
        el('button', { id: 'send', disabled: !!state.busy, onclick: () => vscode.postMessage({ type: 'send', group: clean(state.rows) }) }, 'Sign and Send'),
      ),
    );
    const out = el('section', { id: 'result' });
    if (state.busy) out.append(el('p', { class: 'muted', id: 'busy' }, state.busy));
    if (state.notice) out.append(el('p', { class: 'muted', id: 'notice' }, state.notice));
    if (state.error) out.append(el('div', { class: 'failure', id: 'error' }, state.error));
    if (state.report && state.warnings && state.warnings.length)
      out.append(
        el(
          'div',
          { class: 'warn', id: 'warning' },
          state.warnings.map((w) => el('div', {}, '⚠ ', w)),
        ),
      );
    // The verdict below says "Confirmed in round N" with copyable txids; this line says where it went.
    if (state.sent) out.append(el('div', { class: 'muted', id: 'sent' }, `Sent on ${state.network}`));
    if (state.report) out.append(...reportView(state.report));
    app.replaceChildren(form, out);
    saveRows();
    const receivers = state.accounts
      .map((a) => el('option', { value: a }, 'account'))
      .concat(Object.entries(state.appAddresses || {}).map(([id, a]) => el('option', { value: a }, `app ${id}`)));
    app.append(el('datalist', { id: 'tw-receivers' }, receivers));
    if (argForm) {
      app.append(...argForm.datalists(state));
      if (state.errorAt) argForm.highlight(app, state.errorAt.index, state.errorAt.field, state.error);
    }
  }

  // Messages from the extension are trusted less than nothing too: only known types are handled.
  window.addEventListener('message', (ev: MessageEvent) => {
    const m = ev.data as PanelMessage;
    if (!m || typeof m !== 'object' || typeof m.type !== 'string') return;
    switch (m.type) {
      case 'init': {
        initialised = true;
        sendersToMove = false;
        state = Object.assign(state, {
          rows: Array.isArray(m.rows) ? m.rows : [],
          accounts: m.accounts || [],
          sources: m.sources || [],
          methods: m.methods || {},
          methodInfo: m.methodInfo || {},
          appAddresses: m.appAddresses || {},
          assets: m.assets || [],
          network: String(m.network || ''),
          chain: String(m.chain || ''),
          report: undefined,
          error: undefined,
          errorAt: undefined,
          sent: undefined,
          notice: m.restored
            ? Array.isArray(m.rows) && m.rows.length
              ? 'Restored after a window reload: the rows are back; simulate again for a report.'
              : 'Restored after a window reload: no rows had been kept.'
            : typeof m.notice === 'string'
              ? m.notice
              : undefined,
        });
        // Restored rows were made on the network and chain they were kept with: on another one
        // (an in-memory devnet is a new chain after a reload) they are cleared as on a switch.
        const from = m.restored && m.restoredFrom && typeof m.restoredFrom === 'object' ? m.restoredFrom : undefined;
        if (from && state.rows.length) {
          const network = String(from.network || '');
          const chain = String(from.chain || '');
          if ((network && network !== state.network) || (chain && state.chain && chain !== state.chain))
            leaveChain(
              network && network !== state.network
                ? `the rows were kept on ${network}, the panel now shows ${state.network}`
                : 'the rows were kept on a chain that was replaced',
              'Restored after a window reload',
            );
          // The chain is not known yet: the next network message compares with the rows' chain.
          else if (chain && !state.chain && (!network || network === state.network)) state.chain = chain;
        }
        break;
      }
      case 'report':
        state.notice = undefined;
        state.report = m.report;
        state.warnings = Array.isArray(m.warnings) ? m.warnings.map(String) : [];
        state.error = undefined;
        state.errorAt = undefined;
        state.sent = m.sent;
        state.sourceFile = m.sourceFile;
        state.network = String(m.network || state.network);
        state.debuggable = m.debuggable === true;
        break;
      case 'error':
        state.error = String(m.message);
        state.report = undefined;
        state.sent = undefined;
        state.errorAt = typeof m.index === 'number' && typeof m.field === 'string' ? { index: m.index, field: m.field } : undefined;
        break;
      case 'network':
        // The active network changed: the header and the pickers follow; the last report was elsewhere.
        // A report, an error or rows of another network, or of a chain that is gone (devnet
        // restarted), are cleared: nothing on screen may describe a chain the panel is not on.
        {
          const network = String(m.network || '');
          const replaced = network !== state.network || (state.chain && m.chain && String(m.chain) !== state.chain) || (state.chain && !m.chain);
          const why = state.network === network ? 'its chain was replaced' : `the panel now shows ${network}`;
          // On another network the last chain known is the old network's: not one to compare with.
          if (m.chain) state.chain = String(m.chain);
          else if (network !== state.network) state.chain = '';
          state.network = network;
          // The accounts of a chain the panel left are not offered on the next one.
          if (Array.isArray(m.accounts)) state.accounts = m.accounts;
          else if (replaced) state.accounts = [];
          if (replaced) leaveChain(why);
          else accountsArrived();
        }
        break;
      case 'accounts':
        if (!Array.isArray(m.accounts) || !m.accounts.every((a) => typeof a === 'string')) return;
        state.accounts = m.accounts;
        accountsArrived();
        break;
      case 'appAddress':
        if (typeof m.appId !== 'string' || typeof m.address !== 'string') return;
        state.appAddresses[m.appId] = m.address;
        for (const r of state.rows)
          if (r.awaitApp === m.appId) {
            if (!r.receiver) r.receiver = m.address;
            delete r.awaitApp;
          }
        break;
      case 'busy':
        state.busy = m.busy ? String(m.what || 'Working…') : '';
        break;
      default:
        return;
    }
    render();
  });
  render();
  vscode.postMessage({ type: 'ready' });
})();
