import assert from 'node:assert/strict';
import { APP_ID, OTHER, appCall, runApp } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { AvmGroupEvaluator, InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import { SENDER } from './helpers/fixtures.js';
import type { AvmOptions } from '../../../sdk/src/avm/index.js';
import { asm } from './helpers/asm.js';

const ALLOW: AvmOptions = { allowUnnamedResources: true };
const hex = (b: Uint8Array): string => `0x${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
const acct = (i: number): Uint8Array => new Uint8Array(32).fill(100 + i);
/** Reads the balance of `n` distinct accounts nobody named. */
const touchAccounts = (n: number): string => Array.from({ length: n }, (_, i) => `byte ${hex(acct(i))}\nbalance\npop`).join('\n') + '\nint 1';

describe('avm unnamed resources: where they are recorded and how many fit', () => {
  it('pre-v9 programs record per transaction; v9+ programs for the group', () => {
    const old = runApp(touchAccounts(2), { version: 8, options: ALLOW });
    approves(old);
    const u8 = old.evaluator.state.unnamed;
    assert.equal(u8.perTxn![0]!.accounts.size, 2);
    assert.equal(u8.accounts.size, 0);
    const fresh = runApp(touchAccounts(2), { version: 9, options: ALLOW });
    approves(fresh);
    const u9 = fresh.evaluator.state.unnamed;
    assert.equal(u9.accounts.size, 2);
    assert.equal(u9.perTxn![0]!.accounts.size, 0);
  });

  it('a transaction holds at most 8 references of its own; the group holds far more', () => {
    // Eight fit in the transaction's reference slots; the ninth cannot be named there.
    approves(runApp(touchAccounts(8), { version: 8, options: ALLOW }));
    failsWith(runApp(touchAccounts(9), { version: 8, options: ALLOW }), `unavailable Account ${new Address(acct(8)).toString()}`);
    // A lone v9 call can borrow the 15 missing group members' slots.
    approves(runApp(touchAccounts(9), { version: 9, options: ALLOW }));
    // Named references use up slots.
    const named = appCall({ accounts: [OTHER] });
    failsWith(runApp(touchAccounts(8), { version: 8, options: ALLOW, txn: named }), `unavailable Account ${new Address(acct(7)).toString()}`);
  });

  it('a pre-v9 program called by a v9+ program shares the group list', () => {
    const ledger = new InMemoryLedgerView();
    ledger.fund(Address.forApp(APP_ID).publicKey, 1_000_000n);
    const callee = ledger.createApp(OTHER.publicKey, { approvalProgram: asm(touchAccounts(1), 8) });
    const src = `itxn_begin\nint 6\nitxn_field TypeEnum\nint ${callee}\nitxn_field ApplicationID\nitxn_submit\nint 1`;
    const run = runApp(src, { ledger, version: 9, txn: appCall({ foreignApps: [callee] }), options: ALLOW });
    approves(run);
    const u = run.evaluator.state.unnamed;
    assert.deepEqual([...u.accounts.values()], [acct(0)]);
    assert.equal(u.perTxn![0]!.accounts.size, 0);
  });

  it('unnamed boxes get I/O budget, and the report counts the extra refs it took', () => {
    const ledger = new InMemoryLedgerView();
    ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 1', 9) }, APP_ID);
    ledger.putBox(APP_ID, new TextEncoder().encode('big'), new Uint8Array(5000));
    // Reading 5000 bytes: the box's own (unnamed) ref gives 2048, two empty refs cover the rest.
    const read = runApp('byte "big"\nbox_len\nassert\nint 5000\n==', { ledger, version: 9, options: ALLOW });
    approves(read);
    assert.equal(read.evaluator.state.unnamed.boxes.size, 1);
    assert.equal(read.evaluator.state.unnamed.extraBoxRefs, 2);
    // Writing a fresh 3000-byte box: one ref for the box, one extra for the bytes beyond 2048.
    const write = runApp('byte "new"\nint 3000\nbox_create', { ledger, version: 9, options: ALLOW });
    approves(write);
    assert.equal(write.evaluator.state.unnamed.extraBoxRefs, 1);
    // Without unnamed access the write has no budget at all.
    failsWith(
      runApp('byte "new2"\nint 3000\nbox_create', { ledger, version: 9, txn: appCall({ boxes: [{ appId: APP_ID, name: new TextEncoder().encode('new2') }] }) }),
      'write budget exceeded (3000 > 2048)',
    );
  });

  it('a group short of read budget for its named boxes gets extra refs instead of failing', () => {
    const ledger = new InMemoryLedgerView();
    ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 1', 9) }, APP_ID);
    const name = new TextEncoder().encode('big');
    ledger.putBox(APP_ID, name, new Uint8Array(5000));
    const txn = appCall({ boxes: [{ appId: APP_ID, name }] });
    failsWith(runApp('int 1', { ledger, version: 9, txn }), 'read budget exceeded (5000 > 2048)');
    const run = runApp('int 1', { ledger, version: 9, txn, options: ALLOW });
    approves(run);
    assert.equal(run.evaluator.state.unnamed.extraBoxRefs, 2);
  });

  it('each empty box reference lets an app created in the group reach one of its boxes', () => {
    const create = (boxes: number, src: string) => {
      const ledger = new InMemoryLedgerView();
      ledger.fund(SENDER.publicKey, 10_000_000n);
      const approval = asm(src, 9);
      const id = ledger.createApp(SENDER.publicKey, { approvalProgram: approval });
      const empty = Array.from({ length: boxes }, () => ({ appId: 0n, name: new Uint8Array(0) }));
      const txn = appCall({ appId: 0n, approvalProgram: approval, clearProgram: asm('int 1', 9), boxes: empty });
      return new AvmGroupEvaluator([txn], ledger).evalApp(0, { createdAppId: id });
    };
    const one = 'byte "a"\nint 8\nbox_create';
    const two = `${one}\nbyte "b"\nint 8\nbox_create\n&&`;
    assert.equal(create(1, one).approved, true);
    assert.match(create(0, one).error?.message ?? '', /invalid Box reference 0x61/);
    assert.match(create(1, two).error?.message ?? '', /invalid Box reference 0x62/);
    assert.equal(create(2, two).approved, true);
  });
});
