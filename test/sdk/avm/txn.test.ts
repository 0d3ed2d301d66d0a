import assert from 'node:assert/strict';
import { APP_ID, OTHER, SENDER, appCall, payment, runApp, runSig } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { txidBytes } from '../../../sdk/src/txn/encode.js';
import { AvmGroupEvaluator, InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import { asm } from './helpers/asm.js';

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

describe('avm transaction fields', () => {
  it('reads header and payment fields of the current transaction', () => {
    const txn = payment(5000n, { note: new TextEncoder().encode('hi'), lease: new Uint8Array(32).fill(9) });
    approves(
      runSig(
        `txn Sender
byte ${hex(SENDER.publicKey)}
==
assert
txn Receiver
byte ${hex(OTHER.publicKey)}
==
assert
txn Amount
int 5000
==
assert
txn Fee
int 1000
==
assert
txn FirstValid
int 100
==
assert
txn Note
byte "hi"
==
assert
txn Lease
byte ${hex(new Uint8Array(32).fill(9))}
==
assert
txn TypeEnum
int 1
==
assert
txn Type
byte "pay"
==
assert
txn CloseRemainderTo
global ZeroAddress
==
assert
txn GroupIndex
int 0
==`,
        { txn },
      ),
    );
  });

  it('TxID is the transaction id', () => {
    const txn = payment();
    approves(runSig(`txn TxID\nbyte ${hex(txidBytes(txn))}\n==`, { txn }));
  });

  it('reads app call arrays, with index 0 of Accounts/Applications special', () => {
    const txn = appCall({
      args: [new TextEncoder().encode('a0'), new TextEncoder().encode('a1')],
      accounts: [OTHER],
      foreignApps: [77n],
      foreignAssets: [55n],
    });
    approves(
      runApp(
        `txna ApplicationArgs 1
byte "a1"
==
assert
txn NumAppArgs
int 2
==
assert
int 0
txnas Accounts
txn Sender
==
assert
txna Accounts 1
byte ${hex(OTHER.publicKey)}
==
assert
txna Applications 0
int ${APP_ID}
==
assert
txna Applications 1
int 77
==
assert
txna Assets 0
int 55
==
assert
txn OnCompletion
int 0
==`,
        { txn },
      ),
    );
    failsWith(runApp('txna ApplicationArgs 2\nlen', { txn }), 'invalid ApplicationArgs index 2');
    failsWith(runApp('txna Accounts 2\nlen', { txn }), 'invalid Accounts index 2');
  });

  it('gtxn, gtxns, gtxnsa across the group; out-of-range index fails', () => {
    const group = [appCall(), payment(42n)];
    approves(runApp('gtxn 1 Amount\nint 42\n==\nint 1\ngtxns TypeEnum\nint 1\n==\n&&\nglobal GroupSize\nint 2\n==\n&&', { group }));
    failsWith(runApp('gtxn 2 Amount', { group }), 'txn index 2, len(group) is 2');
  });

  it('effects (Logs, CreatedApplicationID) only from earlier transactions', () => {
    const group = [appCall(), appCall()];
    failsWith(runApp('gtxn 1 NumLogs', { group, version: 8 }), 'txn effects can only be read from past txns 1 0');
  });

  it('global fields', () => {
    const ledger = new InMemoryLedgerView();
    approves(
      runApp(
        `global MinTxnFee
int 1000
==
assert
global MinBalance
int 100000
==
assert
global MaxTxnLife
int 1000
==
assert
global Round
int 1000
==
assert
global CurrentApplicationID
int ${APP_ID}
==
assert
global CurrentApplicationAddress
byte ${hex(Address.forApp(APP_ID).publicKey)}
==
assert
global CreatorAddress
txn Sender
==
assert
global CallerApplicationID
!
assert
global LatestTimestamp
int 1700000000
==
assert
global GenesisHash
len
int 32
==`,
        { ledger, version: 10 },
      ),
    );
    failsWith(runSig('global CurrentApplicationID', { version: 8 }), 'global[CurrentApplicationID] not allowed in current mode');
    failsWith(runSig(Uint8Array.of(2, 0x32, 0x0c)), 'invalid global field OpcodeBudget');
  });

  it('gaid and gload read earlier app calls', () => {
    const ledger = new InMemoryLedgerView();
    ledger.fund(SENDER.publicKey, 10_000_000n);
    const first = asm('int 42\nstore 3\nint 1', 8);
    const second = asm('gload 0 3\nint 42\n==\ngaid 0\nint 5000\n==\n&&', 8);
    const secondId = ledger.createApp(SENDER.publicKey, { approvalProgram: second });
    const group = [appCall({ appId: 0n, approvalProgram: first, clearProgram: asm('int 1', 8) }), appCall({ appId: secondId })];
    const ev = new AvmGroupEvaluator(group, ledger);
    approves(ev.evalApp(0, { createdAppId: 5000n }));
    approves(ev.evalApp(1));
    failsWith(new AvmGroupEvaluator(group, ledger).evalApp(1), 'gload lookup of txn 0 that did not run a program');
  });

  it('FirstValidTime and block read headers in the available window', () => {
    const ledger = new InMemoryLedgerView();
    ledger.blocks.set(99n, {
      seed: new Uint8Array(32).fill(3),
      timestamp: 1234n,
      proposer: new Uint8Array(32),
      feesCollected: 7n,
      bonus: 0n,
      branch: new Uint8Array(32),
      feeSink: new Uint8Array(32),
      protocol: new TextEncoder().encode('future'),
      txnCounter: 10n,
      proposerPayout: 0n,
    });
    approves(
      runApp('txn FirstValidTime\nint 1234\n==\nint 99\nblock BlkFeesCollected\nint 7\n==\n&&\nint 99\nblock BlkProtocol\nbyte "future"\n==\n&&', {
        ledger,
        version: 11,
      }),
    );
    failsWith(runApp('int 5000\nblock BlkSeed\nlen', { ledger: new InMemoryLedgerView(), version: 8 }), 'round 5000 is not available');
  });

  it('unknown and too-new fields fail', () => {
    failsWith(runSig(asm('txn RejectVersion', 13).slice().fill(11, 0, 1)), 'invalid txn field RejectVersion');
    assert.equal(runSig('txn RejectVersion\n!', { version: 12 }).approved, true);
  });
});
