// Render tests of the simulate panel's webview scripts, outside VS Code: the scripts are bundled
// exactly as the build does (scripts/webview-build.mjs), loaded into a happy-dom page with a fake
// `acquireVsCodeApi`, sent the messages simulatePanel.ts posts, and checked on the DOM they render
// and on the messages they post back (which must pass the extension's own validator).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { Window } from 'happy-dom';
import { WEBVIEW_SCRIPTS, webviewBuildOptions } from '../../../scripts/webview-build.mjs';
import { buildSimulateReport } from '../../../sdk/src/app/simulate-report.js';
import { appAddressOf } from '../../../sdk/src/app/chain.js';
import { AbiMethod } from '../../../sdk/src/abi/method.js';
import { parseArc56 } from '../../../sdk/src/abi/arc56.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { decodeAddress } from '../../../sdk/src/encoding/address.js';
import { methodInfo } from '../../../extension/src/contracts/argForm.js';
import { reportView, toPlain } from '../../../extension/src/contracts/valueFormat.js';
import { parseWebviewMessage, type WebviewMessage } from '../../../extension/src/contracts/messages.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const A = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';
const B = 'VCMJKWOY5P5P7SKMZFFOCEROPJCZOTIJMNIYNUCKH7LRO45JMJP6UYBIJA';
const b64 = (s: string | Uint8Array) => toBase64(typeof s === 'string' ? utf8(s) : s);

/** The page the panel's HTML makes (simulatePanel.ts), scripts in its order. */
interface Page {
  window: Window;
  doc: Window['document'];
  /** Everything the scripts posted, in order. */
  posted: WebviewMessage[];
  /** The last state the webview saved for a window reload. */
  saved(): unknown;
  /** Posts a message as the extension does. */
  send(message: Record<string, unknown>): void;
  $(selector: string): HTMLElement;
  $$(selector: string): HTMLElement[];
  /** Types into a field (sets its value, fires `input` or `change` as the browser would). */
  type(selector: string, value: string): void;
  click(selector: string): void;
}

let bundles: string[] = [];
const pages: Window[] = [];

function openPage(): Page {
  const window = new Window({
    url: 'https://webview.test/',
    settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
  });
  pages.push(window);
  const doc = window.document;
  const main = doc.createElement('main');
  main.id = 'app';
  main.append(doc.createTextNode('Loading…'));
  doc.body.append(main);
  const posted: WebviewMessage[] = [];
  let saved: unknown;
  (window as unknown as { acquireVsCodeApi: unknown }).acquireVsCodeApi = () => ({
    // What crosses the webview boundary is a structured clone: keep a copy, not the live object.
    postMessage: (m: WebviewMessage) => posted.push(JSON.parse(JSON.stringify(m))),
    setState: (s: unknown) => (saved = JSON.parse(JSON.stringify(s))),
  });
  for (const code of bundles) window.eval(code);
  const $ = (selector: string) => {
    const e = doc.querySelector(selector);
    assert.ok(e, `no element matches ${selector}`);
    return e as unknown as HTMLElement;
  };
  return {
    window,
    doc,
    posted,
    saved: () => saved,
    send: (message) => window.dispatchEvent(new window.MessageEvent('message', { data: message })),
    $,
    $$: (selector) => [...doc.querySelectorAll(selector)] as unknown as HTMLElement[],
    type(selector, value) {
      const e = $(selector) as HTMLInputElement;
      e.value = value;
      e.dispatchEvent(new window.Event(e.tagName === 'SELECT' ? 'change' : 'input') as unknown as Event);
    },
    click(selector) {
      $(selector).click();
    },
  };
}

/** The last message of a type the webview posted, checked by the extension's validator as the panel does. */
function lastPosted<T extends WebviewMessage['type']>(page: Page, type: T): Extract<WebviewMessage, { type: T }> {
  const m = [...page.posted].reverse().find((x) => x.type === type);
  assert.ok(m, `the webview posted no ${type} message (posted: ${page.posted.map((x) => x.type).join(', ')})`);
  const parsed = parseWebviewMessage(m);
  assert.ok(parsed.ok, parsed.ok ? '' : `the extension would reject it: ${parsed.reason}`);
  return m as Extract<WebviewMessage, { type: T }>;
}

const text = (e: { textContent: string | null }) => (e.textContent ?? '').replace(/\s+/g, ' ').trim();

/** A group that fails in the second inner transaction, with logs and a state change (algod's simulate JSON). */
function failingResponse() {
  return {
    'last-round': 5,
    'txn-groups': [
      {
        'failed-at': [0, 1],
        'failure-message': 'transaction X: logic eval error: assert failed pc=12. Details: app=1002, pc=12',
        'app-budget-added': 1400,
        'app-budget-consumed': 40,
        'txn-results': [
          {
            'app-budget-consumed': 40,
            'txn-result': {
              txn: { txn: { type: 'appl', apid: 1001, snd: b64(decodeAddress(A)) } },
              logs: [b64('hello'), b64(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 7]))],
              'global-state-delta': [{ key: b64('count'), value: { action: 2, uint: 3 } }],
              'inner-txns': [{ txn: { txn: { type: 'pay' } } }, { txn: { txn: { type: 'appl', apid: 1002 } } }],
            },
          },
        ],
      },
    ],
  };
}

describe('extension webview: the simulate panel rendered in a DOM', () => {
  before(() => {
    // Bundled as scripts/build.mjs and scripts/package.mjs do, in memory.
    bundles = WEBVIEW_SCRIPTS.map((s) => {
      const out = buildSync({ ...webviewBuildOptions(root, s), write: false, logLevel: 'silent' });
      return out.outputFiles![0]!.text;
    });
  });

  afterEach(async () => {
    for (const w of pages.splice(0)) await w.happyDOM.close();
  });

  it('says it is ready, renders the rows it is given and posts the cleaned group on Simulate', () => {
    const page = openPage();
    // Before the extension sends the rows, the empty placeholder form is not saved: a `rows`
    // message of nothing would overwrite the rows a window reload is bringing back.
    assert.deepEqual(page.posted, [{ type: 'ready' }]);
    assert.equal(page.saved(), undefined);
    page.send({
      type: 'init',
      rows: [
        { kind: 'payment', sender: A, receiver: B, amount: '5' },
        { kind: 'appcall', sender: A, appId: '', source: 'app.teal' },
      ],
      accounts: [A, B],
      sources: ['app.teal'],
      network: 'devnet',
      chain: 'g1',
      methods: {},
      methodInfo: {},
      appAddresses: {},
      assets: [],
    });
    assert.equal(text(page.$('#form h1')), 'Group on devnet');
    const rows = page.$$('fieldset.txn');
    assert.deepEqual(
      rows.map((r) => r.getAttribute('data-index')),
      ['0', '1'],
    );
    assert.match(text(page.$('fieldset.txn[data-index="0"] legend')), /^txn 0/);
    // The sender is a picker of the signable accounts, the first one chosen.
    const sender = page.$('fieldset.txn[data-index="0"] select[data-field="sender"]') as HTMLSelectElement;
    assert.equal(sender.options.length, 2);
    assert.equal(sender.value, A);
    assert.equal((page.$('fieldset.txn[data-index="1"] select[data-field="source"]') as HTMLSelectElement).value, 'app.teal');
    page.type('fieldset.txn[data-index="0"] input[data-field="amount"]', '1000');
    page.type('fieldset.txn[data-index="1"] input[data-field="args"]', 'int:5, 0x01ff');
    page.click('#simulate');
    assert.deepEqual(lastPosted(page, 'simulate').group, [
      { kind: 'payment', sender: A, receiver: B, amount: '1000' },
      { kind: 'appcall', sender: A, source: 'app.teal', args: ['int:5', '0x01ff'] },
    ]);
    // What a window reload brings back: the rows as last typed, with the network and chain they are for.
    assert.deepEqual(page.saved(), { rows: lastPosted(page, 'simulate').group, network: 'devnet', chain: 'g1' });
    page.click('#send');
    assert.equal(lastPosted(page, 'send').group.length, 2);
  });

  it('adds, moves and removes rows', () => {
    const page = openPage();
    page.send({ type: 'init', rows: [], accounts: [A], sources: [], network: 'devnet' });
    const add = (label: string) =>
      page
        .$$('#form .actions button')
        .find((b) => text(b) === label)!
        .click();
    add('+ Payment');
    add('+ App call');
    assert.deepEqual(
      page.$$('fieldset.txn select[data-field="kind"]').map((s) => (s as HTMLSelectElement).value),
      ['payment', 'appcall'],
    );
    assert.equal((page.$('fieldset.txn[data-index="0"] button[data-action="up"]') as HTMLButtonElement).disabled, true);
    page.click('fieldset.txn[data-index="0"] button[data-action="down"]');
    assert.deepEqual(
      page.$$('fieldset.txn select[data-field="kind"]').map((s) => (s as HTMLSelectElement).value),
      ['appcall', 'payment'],
    );
    page
      .$$('fieldset.txn[data-index="0"] legend button')
      .find((b) => text(b) === '✕ remove')!
      .click();
    assert.equal(page.$$('fieldset.txn').length, 1);
    // Changing a row's kind redraws its fields.
    page.type('fieldset.txn[data-index="0"] select[data-field="kind"]', 'assetTransfer');
    assert.ok(page.$('fieldset.txn[data-index="0"] input[data-field="assetId"]'));
  });

  it('shows a failing report: verdict, message, the failing path, logs, state changes, budget, and Debug', () => {
    const page = openPage();
    page.send({ type: 'init', rows: [{ kind: 'appcall', sender: A, appId: '1001' }], accounts: [A], network: 'devnet' });
    page.send({ type: 'busy', busy: true, what: 'Simulating…' });
    assert.equal(text(page.$('#busy')), 'Simulating…');
    assert.equal((page.$('#simulate') as HTMLButtonElement).disabled, true);
    // As simulatePanel.ts posts it.
    const report = toPlain(reportView(buildSimulateReport(failingResponse())));
    page.send({ type: 'report', debuggable: true, report, network: 'devnet', warnings: ['App 1001 runs another program'] });
    page.send({ type: 'busy', busy: false });
    assert.equal(page.doc.querySelector('#busy'), null);
    assert.equal((page.$('#simulate') as HTMLButtonElement).disabled, false);
    const verdict = page.$('#verdict');
    assert.equal(verdict.getAttribute('data-kind'), 'fail');
    assert.equal(text(verdict), '✗ Would fail at txn 0 › inner 1');
    assert.match(text(page.$('#failure .message')), /^Message: .*assert failed/);
    assert.match(text(page.$('#failure')), /pc 12/);
    assert.equal(text(page.$('#warning')), '⚠ App 1001 runs another program');
    assert.equal(text(page.$('#budget')), 'Budget: 40 used of 1400');
    // The failed transaction and its failed inner one are marked; the logs are decoded.
    const outer = page.$('.txn-report[data-path="0"]');
    assert.ok(outer.classList.contains('failed'));
    assert.deepEqual(page.$$('.txn-report[data-path="0"] > .txn-body > ul.logs code.decoded').map(text), ['"hello"', '0x0000000000000007']);
    assert.equal(page.$$('.txn-report[data-path="0"] > .txn-body > ul.logs code.decoded')[0]!.getAttribute('title'), '0x68656c6c6f');
    assert.match(text(outer.querySelector('.txn-body > ul:not(.logs)')!), /global "count" = 3/);
    assert.ok(page.$('.txn-report[data-path="0.1"]').classList.contains('failed'));
    assert.ok(!page.$('.txn-report[data-path="0.0"]').classList.contains('failed'));
    assert.match(text(page.$('#failure-path')), /Path: txn 0 \(appl app 1001\) › inner 1 \(appl app 1002\)/);
    page.click('#debug');
    assert.deepEqual(lastPosted(page, 'debug'), { type: 'debug' });
  });

  it('offers to fund an account short of its minimum balance', () => {
    const page = openPage();
    page.send({ type: 'init', rows: [], accounts: [A], network: 'devnet' });
    const app = appAddressOf(1001n);
    const response = {
      'txn-groups': [
        {
          'failed-at': [0],
          'failure-message': `transaction X: account ${app} balance 100000 below min 128500 (0 assets)`,
          'txn-results': [{ 'txn-result': { txn: { txn: { type: 'appl', apid: 1001, snd: b64(decodeAddress(A)) } } } }],
        },
      ],
    };
    page.send({ type: 'report', report: toPlain(reportView(buildSimulateReport(response))), network: 'devnet' });
    assert.match(text(page.$('#min-balance')), /The account of app 1001 would drop below its minimum balance/);
    assert.equal(text(page.$('#fund-app')), "Fund app 1001's account");
    // A minimum-balance rejection blames no program line.
    assert.equal(page.doc.querySelector('#failing-line'), null);
    page.click('#fund-app');
    assert.deepEqual(lastPosted(page, 'fund'), { type: 'fund', address: app, amount: '28500' });
  });

  it('shows a send as confirmed, with copyable transaction ids', () => {
    const page = openPage();
    page.send({ type: 'init', rows: [], accounts: [A], network: 'devnet' });
    const report = toPlain({
      ...reportView(buildSimulateReport({ 'txn-groups': [{ 'txn-results': [{ 'txn-result': { txn: { txn: { type: 'pay' } } } }] }] })),
      verdict: { kind: 'confirmed', text: '✓ Confirmed in round 9', txids: ['TXID1'] },
    });
    page.send({ type: 'report', report, network: 'devnet', sent: { txids: ['TXID1'], confirmedRound: '9', created: [''] } });
    assert.equal(text(page.$('#verdict')), '✓ Confirmed in round 9');
    assert.equal(text(page.$('#sent')), 'Sent on devnet');
    page.click('#txids button.copy');
    assert.deepEqual(lastPosted(page, 'copy'), { type: 'copy', text: 'TXID1' });
  });

  it('inserts the row of a transaction argument above the call and fills in the app address', () => {
    const page = openPage();
    const deposit = AbiMethod.fromSignature('deposit(pay,uint64)void');
    page.send({
      type: 'init',
      rows: [{ kind: 'appcall', sender: A, appId: '7', source: 'vault.teal' }],
      accounts: [A],
      sources: ['vault.teal'],
      network: 'devnet',
      methods: { 'vault.teal': [deposit.signature] },
      methodInfo: { 'vault.teal': [methodInfo(deposit)] },
      appAddresses: {},
    });
    page.type('fieldset.txn[data-index="0"] select[data-field="method"]', deposit.signature);
    // The app's address is not known yet: the webview asks for it, the row waits.
    assert.deepEqual(lastPosted(page, 'appAddress'), { type: 'appAddress', appId: '7' });
    assert.deepEqual(
      page.$$('fieldset.txn select[data-field="kind"]').map((s) => (s as HTMLSelectElement).value),
      ['payment', 'appcall'],
    );
    const arg = page.$('fieldset.txn.txn-arg[data-index="0"]');
    assert.equal(arg.getAttribute('data-arg-of'), '1');
    assert.equal(text(arg.querySelector('[data-link="1"]')!), '↳ arg 0 (pay) of deposit in txn 1');
    assert.match(text(page.$('fieldset.txn[data-index="1"]')), /takes arg 0 \(pay\) from the row right above/);
    page.send({ type: 'appAddress', appId: '7', address: appAddressOf(7n) });
    assert.equal((page.$('fieldset.txn[data-index="0"] input[data-field="receiver"]') as HTMLInputElement).value, appAddressOf(7n));
    page.type('fieldset.txn[data-index="0"] input[data-field="amount"]', '100000');
    page.type('fieldset.txn[data-index="1"] input[data-field="args.0"]', '5');
    page.click('#simulate');
    assert.deepEqual(lastPosted(page, 'simulate').group, [
      { kind: 'payment', sender: A, receiver: appAddressOf(7n), amount: '100000' },
      { kind: 'appcall', sender: A, appId: '7', source: 'vault.teal', method: deposit.signature, args: ['5'] },
    ]);
  });

  it('edits struct and array arguments in the typed form, and puts an error on its field', () => {
    const page = openPage();
    const spec = parseArc56({
      name: 'Shop',
      structs: {
        Item: [
          { name: 'sku', type: 'uint64' },
          { name: 'label', type: 'string' },
        ],
      },
      methods: [
        {
          name: 'buy',
          args: [
            { type: '(uint64,string)', struct: 'Item', name: 'item', desc: 'What to buy' },
            { type: 'uint64[]', name: 'counts' },
          ],
          returns: { type: 'void' },
          actions: { create: [], call: ['NoOp'] },
        },
      ],
      state: {
        schema: { global: { ints: 0, bytes: 0 }, local: { ints: 0, bytes: 0 } },
        keys: { global: {}, local: {}, box: {} },
        maps: { global: {}, local: {}, box: {} },
      },
      bareActions: { create: ['NoOp'], call: [] },
      arcs: [56],
    });
    const m = spec.methods[0]!;
    page.send({
      type: 'init',
      rows: [{ kind: 'appcall', sender: A, appId: '9', source: 'shop.teal', method: m.method.signature }],
      accounts: [A],
      sources: ['shop.teal'],
      network: 'devnet',
      methods: { 'shop.teal': [m.method.signature] },
      methodInfo: { 'shop.teal': [methodInfo(m.method, m)] },
    });
    assert.match(text(page.$('.arg .arg-label')), /^item \(Item \(uint64,string\)\)/);
    page.type('[data-field="args.0.sku"]', '7');
    page.type('[data-field="args.0.label"]', 'pen');
    page
      .$$('[data-field="args.1"] > button')
      .find((b) => text(b) === '+ uint64')!
      .click();
    page
      .$$('[data-field="args.1"] > button')
      .find((b) => text(b) === '+ uint64')!
      .click();
    page.type('[data-field="args.1.0"]', '3');
    page.type('[data-field="args.1.1"]', '1_000');
    page.click('#simulate');
    assert.deepEqual(lastPosted(page, 'simulate').group[0]!.args, ['{"sku": 7, "label": "pen"}', '[3, 1000]']);
    // The extension's group builder names the field; the form marks it and says why beside it.
    page.send({ type: 'error', message: 'txn 0, args.1.1: argument 1 (counts) of buy: not a uint64', index: 0, field: 'args.1.1' });
    assert.equal(text(page.$('#error')), 'txn 0, args.1.1: argument 1 (counts) of buy: not a uint64');
    const field = page.$('[data-field="args.1.1"]');
    assert.ok(field.classList.contains('invalid'));
    assert.equal(field.getAttribute('aria-invalid'), 'true');
    assert.equal(text(field.nextElementSibling!), 'not a uint64');
    assert.equal(page.$$('.field-error').length, 1);
  });

  it('clears what described another chain when the network changes', () => {
    const page = openPage();
    page.send({
      type: 'init',
      rows: [
        { kind: 'appcall', sender: A, appId: '1001' },
        { kind: 'payment', sender: A, receiver: B },
      ],
      accounts: [A],
      network: 'devnet',
      chain: 'g1',
    });
    page.send({ type: 'report', report: toPlain(reportView(buildSimulateReport(failingResponse()))), network: 'devnet' });
    assert.ok(page.$('#verdict'));
    page.send({ type: 'network', network: 'testnet', chain: 'g2', accounts: [B] });
    assert.equal(page.doc.querySelector('#verdict'), null);
    assert.equal(
      text(page.$('#notice')),
      'Cleared: the panel now shows testnet; 1 row naming its apps or assets removed; 1 sender not an account here set to VCMJKWOY…BIJA.',
    );
    assert.equal(text(page.$('#form h1')), 'Group on testnet');
    assert.equal(page.$$('fieldset.txn').length, 1);
    // The sender on screen is the one sent.
    assert.equal((page.$('fieldset[data-index="0"] select[data-field="sender"]') as HTMLSelectElement).value, B);
    page.click('#simulate');
    assert.equal(lastPosted(page, 'simulate').group[0]!.sender, B);
    // A network whose accounts cannot be read: the last network's accounts are not offered.
    page.send({ type: 'network', network: 'localnet', chain: '' });
    assert.equal(page.doc.querySelector('fieldset[data-index="0"] select[data-field="sender"]'), null);
    assert.equal((page.$('fieldset[data-index="0"] input[data-field="sender"]') as HTMLInputElement).value, B);
    // Still on localnet, its chain not known (its host changed, and does not answer): nothing was replaced.
    page.send({ type: 'error', message: 'Cannot reach localnet' });
    page.send({ type: 'network', network: 'localnet', chain: '' });
    assert.equal(text(page.$('#error')), 'Cannot reach localnet');
    assert.doesNotMatch(text(page.$('#result')), /its chain was replaced/);
  });

  it('never shows a sender other than the one it sends: one that is no account here is listed, marked', () => {
    const page = openPage();
    page.send({ type: 'init', rows: [{ kind: 'payment', sender: A, receiver: B }], accounts: [B], network: 'devnet', chain: 'g1' });
    const select = page.$('fieldset[data-index="0"] select[data-field="sender"]') as HTMLSelectElement;
    assert.equal(select.value, A);
    assert.equal(text(select.selectedOptions[0]!), 'CUD246QO…YB4M (not an account here)');
    assert.equal(select.options.length, 2);
    page.click('#simulate');
    assert.equal(lastPosted(page, 'simulate').group[0]!.sender, A);
  });

  it('takes the accounts that follow an init made before a wallet opened, and refuses a malformed list', () => {
    const page = openPage();
    page.send({ type: 'init', rows: [{ kind: 'payment', sender: '', amount: '5' }], accounts: [], network: 'devnet', chain: 'g1', restored: true });
    // No accounts yet: the sender is typed.
    assert.equal(page.doc.querySelector('fieldset[data-index="0"] select[data-field="sender"]'), null);
    page.send({ type: 'accounts', accounts: [A, 7] });
    assert.equal(page.doc.querySelector('fieldset[data-index="0"] select[data-field="sender"]'), null);
    page.send({ type: 'accounts', accounts: [A, B] });
    const select = page.$('fieldset[data-index="0"] select[data-field="sender"]') as HTMLSelectElement;
    assert.equal(select.value, A);
    assert.equal(select.options.length, 2);
    // The rows and the restored notice are kept.
    assert.match(text(page.$('#notice')), /^Restored after a window reload: the rows are back/);
    assert.equal((page.$('fieldset[data-index="0"] [data-field="amount"]') as HTMLInputElement).value, '5');
  });

  it("moves the senders of rows kept from a replaced chain once the new chain's accounts arrive after it", () => {
    const page = openPage();
    const rows = [{ kind: 'payment', sender: A, receiver: B, amount: '123456' }];
    // A window reload onto a devnet still starting: no chain, no accounts yet.
    page.send({ type: 'init', rows, accounts: [], network: 'devnet', chain: '', restored: true, restoredFrom: { network: 'devnet', chain: 'g1' } });
    // The new chain is announced before its wallet is open: no accounts to move the sender to.
    page.send({ type: 'network', network: 'devnet', chain: 'g2' });
    assert.equal(page.$$('fieldset.txn').length, 1);
    // Its accounts follow: the sender of the old chain is not offered as if it could send here.
    page.send({ type: 'accounts', accounts: [B] });
    const select = page.$('fieldset[data-index="0"] select[data-field="sender"]') as HTMLSelectElement;
    assert.equal(select.value, B);
    assert.match(text(page.$('#notice')), /1 sender not an account here set to VCMJKWOY…BIJA\.$/);
    // Once only: a sender picked afterwards stays.
    page.send({ type: 'accounts', accounts: [B, A] });
    assert.equal((page.$('fieldset[data-index="0"] select[data-field="sender"]') as HTMLSelectElement).value, B);
  });

  it('keeps the network and chain with the rows it saves, and a restored panel clears rows of a chain that is gone', () => {
    const rows = [
      { kind: 'appcall', sender: A, appId: '1001' },
      { kind: 'payment', sender: A, receiver: B, amount: '123456' },
    ];
    let page = openPage();
    page.send({ type: 'init', rows, accounts: [A], network: 'devnet', chain: 'g1' });
    page.type('fieldset[data-index="1"] [data-field="amount"]', '7');
    assert.deepEqual((({ network, chain }) => ({ network, chain }))(page.saved() as { network: string; chain: string }), { network: 'devnet', chain: 'g1' });

    // A window reload onto a new chain (an in-memory devnet starts afresh, new accounts).
    page = openPage();
    page.send({ type: 'init', rows, accounts: [B], network: 'devnet', chain: 'g2', restored: true, restoredFrom: { network: 'devnet', chain: 'g1' } });
    assert.equal(
      text(page.$('#notice')),
      'Restored after a window reload: the rows were kept on a chain that was replaced; 1 row naming its apps or assets removed; 1 sender not an account here set to VCMJKWOY…BIJA.',
    );
    assert.equal(page.$$('fieldset.txn').length, 1);
    assert.equal((page.$('fieldset[data-index="0"] select[data-field="sender"]') as HTMLSelectElement).value, B);

    // The same chain: everything comes back.
    page = openPage();
    page.send({ type: 'init', rows, accounts: [A], network: 'devnet', chain: 'g1', restored: true, restoredFrom: { network: 'devnet', chain: 'g1' } });
    assert.match(text(page.$('#notice')), /^Restored after a window reload: the rows are back/);
    assert.equal(page.$$('fieldset.txn').length, 2);

    // The chain is not known yet when the panel comes back: the next network message decides.
    page = openPage();
    page.send({ type: 'init', rows, accounts: [], network: 'devnet', chain: '', restored: true, restoredFrom: { network: 'devnet', chain: 'g1' } });
    assert.equal(page.$$('fieldset.txn').length, 2);
    page.send({ type: 'network', network: 'devnet', chain: 'g2', accounts: [B] });
    assert.equal(page.$$('fieldset.txn').length, 1);
    assert.match(text(page.$('#notice')), /^Cleared: its chain was replaced; 1 row naming its apps or assets removed/);

    // Kept on another network.
    page = openPage();
    page.send({ type: 'init', rows, accounts: [A], network: 'testnet', chain: 't1', restored: true, restoredFrom: { network: 'devnet', chain: 'g1' } });
    assert.match(text(page.$('#notice')), /^Restored after a window reload: the rows were kept on devnet, the panel now shows testnet; 1 row/);
  });

  it("ignores messages of unknown types and shows a restored panel's notice", () => {
    const page = openPage();
    page.send({ type: 'init', rows: [], accounts: [], network: 'devnet', restored: true });
    // A restored panel never claims rows it does not show.
    assert.equal(text(page.$('#notice')), 'Restored after a window reload: no rows had been kept.');
    page.send({ type: 'init', rows: [{ kind: 'payment', sender: A, amount: '123456' }], accounts: [A], network: 'devnet', restored: true });
    assert.match(text(page.$('#notice')), /^Restored after a window reload: the rows are back/);
    assert.equal(page.$$('fieldset.txn').length, 1);
    page.send({ type: 'nonsense', html: '<img src=x onerror=alert(1)>' });
    page.send({ type: 'error', message: '<b>not html</b>' });
    assert.equal(text(page.$('#error')), '<b>not html</b>');
    assert.equal(page.doc.querySelector('#error b'), null);
  });

  it('is bundled from the TypeScript sources, which never build HTML from strings', () => {
    for (const s of WEBVIEW_SCRIPTS)
      assert.doesNotMatch(readFileSync(resolve(root, s.entry), 'utf8'), /innerHTML|outerHTML|insertAdjacentHTML|eval\(|new Function/);
    for (const code of bundles) assert.doesNotMatch(code, /^\s*(import|export)\s/m, 'a webview script must not keep module imports');
  });
});
