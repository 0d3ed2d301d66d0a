import assert from 'node:assert/strict';
import { parseWebviewMessage, validate, type Schema, restoredChain, restoredRows } from '../../../extension/src/contracts/messages.js';

const ADDR = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';

describe('extension contracts: webview message validation', () => {
  it('accepts each known message type in its documented shape', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'simulate', group: [{ kind: 'appcall', sender: ADDR, appId: '0', source: 'counter/approval.teal', onComplete: 'NoOp', args: ['int:1'] }] },
      { type: 'rows', group: [{ kind: 'payment', sender: ADDR, amount: '123456' }] },
      { type: 'send', group: [{ kind: 'payment', sender: ADDR, receiver: ADDR, amount: '1000' }] },
      { type: 'reveal', file: 'counter/approval.teal', line: 43, column: 1 },
      { type: 'copy', text: 'hello' },
    ]) {
      const r = parseWebviewMessage(m);
      assert.equal(r.ok, true, JSON.stringify(r));
    }
  });

  it('rejects unknown types, non-objects and prototype tricks', () => {
    for (const bad of [null, 42, 'ready', [], { type: 'eval', code: 'x' }, { type: 'toString' }, { type: '__proto__' }, {}]) {
      const r = parseWebviewMessage(bad);
      assert.equal(r.ok, false, JSON.stringify(bad));
    }
  });

  it('rejects extra fields, missing fields and wrong types with the path of the problem', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'ready', extra: 1 }, /unexpected field "extra"/],
      [{ type: 'reveal', file: 'a.teal', line: 0, column: 1 }, /\$\.line: below 1/],
      [{ type: 'reveal', file: 'a.teal', line: 1.5, column: 1 }, /\$\.line: expected an integer/],
      [{ type: 'reveal', file: 'a.teal', column: 1 }, /\$\.line: missing/],
      [{ type: 'simulate', group: [{ kind: 'rekey', sender: ADDR }] }, /\$\.group\[0\]\.kind: expected one of/],
      [{ type: 'simulate', group: [{ kind: 'payment', sender: ADDR, amount: '-5' }] }, /\$\.group\[0\]\.amount: does not match/],
      [{ type: 'simulate', group: [{ kind: 'payment', sender: ADDR, amount: 5 }] }, /amount: expected a string/],
      [{ type: 'simulate', group: 'all' }, /\$\.group: expected a list/],
      [{ type: 'simulate', group: Array.from({ length: 17 }, () => ({ kind: 'payment', sender: ADDR })) }, /more than 16 entries/],
      [{ type: 'copy', text: 'x'.repeat(70_000) }, /longer than 65536/],
    ];
    for (const [m, re] of cases) {
      const r = parseWebviewMessage(m);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.reason, re);
    }
  });

  it('only lets the webview name .teal files inside the workspace', () => {
    for (const file of ['/etc/passwd.teal', '../outside.teal', 'a/../../b.teal', 'C:/x.teal', '\\\\server\\x.teal', 'counter/approval.js', 'a/..']) {
      assert.equal(parseWebviewMessage({ type: 'reveal', file, line: 1, column: 1 }).ok, false, file);
      assert.equal(parseWebviewMessage({ type: 'simulate', group: [{ kind: 'appcall', sender: ADDR, source: file }] }).ok, false, file);
    }
    for (const file of ['approval.teal', 'counter/approval.teal', 'a..b/c.teal'])
      assert.equal(parseWebviewMessage({ type: 'reveal', file, line: 1, column: 1 }).ok, true, file);
  });

  it('lets the webview reveal the contract sources compilers map to (.py, .algo.ts) inside the workspace, never other files', () => {
    for (const file of ['struct_in_box/contract.py', 'contracts/app.algo.ts'])
      assert.equal(parseWebviewMessage({ type: 'reveal', file, line: 14, column: 9 }).ok, true, file);
    for (const file of ['/home/x/contract.py', '../contract.py', 'a/../../b.algo.ts', 'x.ts', 'setup.cfg'])
      assert.equal(parseWebviewMessage({ type: 'reveal', file, line: 1, column: 1 }).ok, false, file);
    // A group still only runs workspace TEAL.
    assert.equal(parseWebviewMessage({ type: 'simulate', group: [{ kind: 'appcall', sender: ADDR, source: 'contract.py' }] }).ok, false);
  });

  it('validates nested schemas generically', () => {
    const s: Schema = { kind: 'object', fields: { a: { kind: 'array', max: 2, items: { kind: 'boolean' } } } };
    assert.equal(validate({ a: [true, false] }, s), undefined);
    assert.match(validate({ a: [true, 1] }, s)!, /\$\.a\[1\]: expected true or false/);
  });

  it('takes back the rows a webview saved before a window reload, as an object or its JSON text', () => {
    const rows = [{ kind: 'payment', sender: '', amount: '123456' }];
    assert.deepEqual(restoredRows({ rows }), rows);
    assert.deepEqual(restoredRows(JSON.stringify({ rows })), rows);
    assert.deepEqual(restoredRows(undefined), []);
    assert.deepEqual(restoredRows('{not json'), []);
    assert.deepEqual(restoredRows({ rows: 'x' }), []);
  });

  it('reads the network and chain saved rows were made on, leaving out anything else', () => {
    assert.deepEqual(restoredChain({ rows: [], network: 'devnet', chain: 'devnet-v1' }), { network: 'devnet', chain: 'devnet-v1' });
    assert.deepEqual(restoredChain(JSON.stringify({ rows: [], network: 'testnet', chain: '' })), { network: 'testnet' });
    // Rows kept before the chain was saved with them, or nonsense: nothing to compare with.
    assert.equal(restoredChain({ rows: [] }), undefined);
    assert.equal(restoredChain({ network: 7, chain: { a: 1 } }), undefined);
    assert.equal(restoredChain({ chain: 'x'.repeat(201) }), undefined);
    assert.equal(restoredChain('{not json'), undefined);
    assert.equal(restoredChain([{ network: 'devnet' }]), undefined);
  });
});
