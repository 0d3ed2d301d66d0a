import assert from 'node:assert/strict';
import { APP_ID, OTHER, SENDER, appCall, runApp } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { encodeTransaction, txidBytes } from '../../../sdk/src/txn/encode.js';
import { sha512_256 } from '../../../sdk/src/crypto/hash.js';
import { InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import { asm } from './helpers/asm.js';

const APP_ADDR = Address.forApp(APP_ID).publicKey;

function funded(): InMemoryLedgerView {
  const l = new InMemoryLedgerView();
  l.fund(APP_ADDR, 1_000_000n);
  return l;
}

const PAY = `itxn_begin
int pay
itxn_field TypeEnum
txn Sender
itxn_field Receiver
int 5000
itxn_field Amount
itxn_submit`.replace('int pay', 'int 1');

describe('avm inner transactions', () => {
  it('pays from the app account with the default fee and exposes itxn fields', () => {
    const ledger = funded();
    const run = runApp(`${PAY}\nitxn Amount\nint 5000\n==\nitxn Fee\nint 1000\n==\n&&\nitxn Sender\nglobal CurrentApplicationAddress\n==\n&&`, {
      ledger,
      version: 6,
    });
    approves(run);
    assert.equal(ledger.account(APP_ADDR).balance, 1_000_000n - 5000n - 1000n);
    const inner = run.result.applyData.innerTxns[0]!;
    assert.equal(inner.txn.type, 'pay');
    assert.equal(inner.txn.firstValid, 100n);
    // inner txid = sha512_256("TX" || parent txid || uint64be(index) || msgpack(txn))
    const parent = txidBytes(appCall());
    const idx = new Uint8Array(8);
    const expected = sha512_256(new Uint8Array([...new TextEncoder().encode('TX'), ...parent, ...idx, ...encodeTransaction(inner.txn)]));
    assert.deepEqual(inner.txid, expected);
  });

  it('fee credit from the outer transaction lowers the default inner fee', () => {
    const ledger = funded();
    const run = runApp(`${PAY}\nitxn Fee\n!`, { ledger, version: 6, txn: appCall({}, { fee: 2000n }) });
    approves(run);
    failsWith(
      runApp(`itxn_begin\nint 1\nitxn_field TypeEnum\nint 0\nitxn_field Fee\ntxn Sender\nitxn_field Receiver\nitxn_submit\nint 1`, {
        ledger: funded(),
        version: 6,
      }),
      'group fee 0.0A too small (needs 1mA more)',
    );
  });

  it('groups with itxn_next share a group id and gitxn reads them', () => {
    const ledger = funded();
    const two = PAY.replace('itxn_submit', 'itxn_next\nint 1\nitxn_field TypeEnum\ntxn Sender\nitxn_field Receiver\nint 7\nitxn_field Amount\nitxn_submit');
    const run = runApp(`${two}\ngitxn 0 Amount\nint 5000\n==\ngitxn 1 Amount\nint 7\n==\n&&`, { ledger, version: 6 });
    approves(run);
    const [a, b] = run.result.applyData.innerTxns;
    assert.ok(a!.txn.group && b!.txn.group);
    assert.deepEqual(a!.txn.group, b!.txn.group);
    assert.notDeepEqual(a!.txid, b!.txid);
  });

  it('calls another app: its logs, its budget, its caller', () => {
    const ledger = funded();
    const callee = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('global CallerApplicationID\nitob\nlog\nint 1', 8) });
    const src = `global OpcodeBudget
store 0
itxn_begin
int 6
itxn_field TypeEnum
int ${callee}
itxn_field ApplicationID
itxn_submit
itxn NumLogs
int 1
==
assert
itxn LastLog
btoi
int ${APP_ID}
==
assert
global OpcodeBudget
load 0
>`;
    const run = runApp(src, { ledger, version: 8, txn: appCall({ foreignApps: [callee] }) });
    approves(run);
    assert.equal(run.evaluator.state.appBudgetAdded, 1400);
    // the callee's cost counts in the caller's consumption
    assert.equal(run.result.budgetConsumed, run.result.cost + 4);
  });

  it('reports failures of inner app calls with their path', () => {
    const ledger = funded();
    const callee = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('err', 8) });
    const src = `itxn_begin\nint 6\nitxn_field TypeEnum\nint ${callee}\nitxn_field ApplicationID\nitxn_submit\nint 1`;
    const r = failsWith(
      runApp(src, { ledger, version: 8, txn: appCall({ foreignApps: [callee] }) }),
      /^inner tx 0 failed: logic eval error: err opcode executed/,
    );
    assert.deepEqual(r.error!.groupPath, [0, 0]);
    const rejecting = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 0', 8) });
    failsWith(
      runApp(src.replace(String(callee), String(rejecting)), { ledger, version: 8, txn: appCall({ foreignApps: [rejecting] }) }),
      'inner tx 0 failed: transaction rejected by ApprovalProgram',
    );
  });

  it('enforces the inner transaction rules', () => {
    failsWith(runApp('int 1\nitxn_field Amount\nint 1', { version: 6 }), 'itxn_field without itxn_begin');
    failsWith(runApp('itxn_submit\nint 1', { version: 6 }), 'itxn_submit without itxn_begin');
    failsWith(runApp('itxn_begin\nitxn_begin\nint 1', { version: 6 }), 'itxn_begin without itxn_submit');
    failsWith(runApp('itxn_begin\nbyte "xyz"\nitxn_field Type\nint 1', { version: 6 }), 'xyz is not a valid Type for itxn_field');
    failsWith(runApp('itxn_begin\nint 6\nitxn_field TypeEnum\nint 1', { version: 5 }), 'appl is not a valid Type for itxn_field');
    failsWith(
      runApp(`itxn_begin\nint 6\nitxn_field TypeEnum\nint ${APP_ID}\nitxn_field ApplicationID\nitxn_submit\nint 1`, { ledger: funded(), version: 8 }),
      'attempt to self-call',
    );
    failsWith(
      runApp(`itxn_begin\nint 1\nitxn_field TypeEnum\ntxn Sender\nitxn_field Sender\nitxn_submit\nint 1`, { ledger: funded(), version: 6 }),
      `app ${APP_ID} (addr ${new Address(APP_ADDR).toString()}) unauthorized ${SENDER.toString()}`,
    );
    failsWith(
      runApp(`itxn_begin\nint 1\nitxn_field TypeEnum\nbyte ${'0x' + '07'.repeat(32)}\nitxn_field Receiver\nint 1`, { version: 6 }),
      'unavailable Account',
    );
    const seventeen = Array.from({ length: 16 }, () => 'itxn_next\nint 1\nitxn_field TypeEnum').join('\n');
    failsWith(
      runApp(`itxn_begin\nint 1\nitxn_field TypeEnum\n${seventeen}\nitxn_submit\nint 1`, { version: 6 }),
      'too many inner transactions 16 with 256 left',
    );
  });
});

describe('avm inner transaction fields', () => {
  it('itxn_field rejects fields that cannot be set, by name', () => {
    // field 23 (TxID) exists for txn but is not settable
    const prog = Uint8Array.of(6, 0xb1, 0x80, 0x00, 0xb2, 23, 0x81, 0x01);
    failsWith(runApp(prog), 'invalid itxn_field TxID');
  });
});
