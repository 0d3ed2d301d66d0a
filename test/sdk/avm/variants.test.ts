import assert from 'node:assert/strict';
import { APP_ID, OTHER, SENDER, appCall, payment, runApp, runSig } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { AvmGroupEvaluator, InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import { asm } from './helpers/asm.js';

const te = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

describe('avm opcode variants', () => {
  it('constant and argument shortcuts', () => {
    approves(runSig('intcblock 0 1 2 3\nintc_2\nintc_3\n+\nint 5\n==', { version: 8 }));
    approves(runSig('bytecblock 0x00 0x01 0x02 0x03\nbytec_2\nbytec_3\nconcat\nbytec 1\nconcat\nbyte 0x020301\n==', { version: 8 }));
    const args = ['a', 'b', 'c', 'd'].map(te);
    approves(runSig('arg_1\narg_2\nconcat\narg_3\nconcat\nbyte "bcd"\n==', { version: 8, args }));
  });

  it('array field variants of txn/gtxn/gtxns', () => {
    const call = appCall({ args: [te('x'), te('y')] });
    const group = [call, payment()];
    approves(
      runApp(
        `gtxna 0 ApplicationArgs 1
byte "y"
==
int 0
gtxnsa ApplicationArgs 0
byte "x"
==
&&
int 1
gtxnas 0 ApplicationArgs
byte "y"
==
&&
int 0
int 0
gtxnsas ApplicationArgs
byte "x"
==
&&`,
        { group, version: 8 },
      ),
    );
  });

  it('gloads, gloadss and gaids read earlier transactions', () => {
    const ledger = new InMemoryLedgerView();
    ledger.fund(SENDER.publicKey, 1_000_000n);
    const first = asm('int 9\nstore 2\nint 1', 8);
    const second = asm('int 0\ngloads 2\nint 9\n==\nint 0\nint 2\ngloadss\nint 9\n==\n&&\nint 0\ngaids\nint 7777\n==\n&&', 8);
    const id = ledger.createApp(SENDER.publicKey, { approvalProgram: second });
    const ev = new AvmGroupEvaluator([appCall({ appId: 0n, approvalProgram: first }), appCall({ appId: id })], ledger);
    approves(ev.evalApp(0, { createdAppId: 7777n }));
    approves(ev.evalApp(1));
    const third = ledger.createApp(SENDER.publicKey, { approvalProgram: asm('gaid 0', 8) });
    failsWith(
      new AvmGroupEvaluator([payment(), appCall({ appId: third })], ledger).evalApp(1),
      "can't use gaid on txn that is not an app call nor an asset config txn with index 0",
    );
  });

  it('local state get_ex and del', () => {
    const ledger = new InMemoryLedgerView();
    ledger.optInApp(SENDER.publicKey, APP_ID);
    ledger.setLocal(SENDER.publicKey, APP_ID, te('k'), te('v'));
    const run = runApp(
      `int 0\nint ${APP_ID}\nbyte "k"\napp_local_get_ex\nassert\nbyte "v"\n==\nassert\nint 0\nbyte "k"\napp_local_del\nint 0\nint 0\nbyte "k"\napp_local_get_ex\n!\nassert\nint 0\n==`,
      { ledger, version: 8 },
    );
    approves(run);
    assert.equal(ledger.getLocal(SENDER.publicKey, APP_ID, te('k')), undefined);
    const d = run.result.applyData.localDeltas.get(Buffer.from(SENDER.publicKey).toString('hex'));
    assert.deepEqual(d?.keys.get('6b')?.delta, { action: 'delete' });
  });

  it("voter_params_get reads the ledger's voter data", () => {
    const ledger = new InMemoryLedgerView();
    ledger.voters.set(Buffer.from(SENDER.publicKey).toString('hex'), { balance: 42n, incentiveEligible: true });
    approves(
      runApp('int 0\nvoter_params_get VoterBalance\nassert\nint 42\n==\nint 0\nvoter_params_get VoterIncentiveEligible\nassert\n&&', { ledger, version: 11 }),
    );
    approves(runApp('online_stake\nint 0\n==', { ledger, version: 11 }));
  });

  it('itxna, itxnas, gitxna, gitxnas read submitted inner transactions', () => {
    const ledger = new InMemoryLedgerView();
    ledger.fund(Address.forApp(APP_ID).publicKey, 1_000_000n);
    const callee = ledger.createApp(OTHER.publicKey, { approvalProgram: asm('int 1', 8) });
    const src = `itxn_begin
int 6
itxn_field TypeEnum
int ${callee}
itxn_field ApplicationID
byte "p"
itxn_field ApplicationArgs
byte "q"
itxn_field ApplicationArgs
itxn_submit
itxna ApplicationArgs 1
byte "q"
==
int 0
itxnas ApplicationArgs
byte "p"
==
&&
gitxna 0 ApplicationArgs 0
byte "p"
==
&&
int 1
gitxnas 0 ApplicationArgs
byte "q"
==
&&`;
    approves(runApp(src, { ledger, version: 8, txn: appCall({ foreignApps: [callee] }) }));
  });

  it('box_put and the v13 app_box_* family on the current app (by its own id)', () => {
    const boxes = ['a', 'b'].map((n) => ({ appId: 0n, name: te(n) }));
    approves(
      runApp(
        `byte "a"
byte 0x0102
box_put
int ${APP_ID}
byte "b"
int 4
app_box_create
assert
int ${APP_ID}
byte "b"
int 0
byte 0xff
app_box_replace
int ${APP_ID}
byte "b"
int 1
int 1
byte 0xeeee
app_box_splice
int ${APP_ID}
byte "b"
int 5
app_box_resize
int ${APP_ID}
byte "b"
app_box_len
assert
int 5
==
assert
int ${APP_ID}
byte "b"
int 0
int 3
app_box_extract
byte 0xffeeee
==
assert
int ${APP_ID}
byte "a"
byte 0x0304
app_box_put
int ${APP_ID}
byte "a"
app_box_get
assert
byte 0x0304
==
assert
int ${APP_ID}
byte "b"
app_box_del`,
        { version: 13, txn: appCall({ boxes }) },
      ),
    );
    // The app id is taken literally: 0 names no app, so no box reference can match it.
    failsWith(runApp('int 0\nbyte "a"\napp_box_len', { version: 13, txn: appCall({ boxes }) }), 'invalid Box reference 0x61');
    void hex;
  });
});
