import assert from 'node:assert/strict';
import { APP_ID, OTHER, SENDER, appCall, payment, runApp } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { InMemoryLedgerView } from '../../../sdk/src/avm/index.js';

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');
const te = (s: string) => new TextEncoder().encode(s);

describe('avm application state', () => {
  it('global put/get/del with deltas', () => {
    const r = approves(
      runApp(
        `byte "k"
int 7
app_global_put
byte "k"
app_global_get
int 7
==
assert
int 0
byte "k"
app_global_get_ex
assert
int 7
==
assert
byte "b"
byte "v"
app_global_put
byte "b"
app_global_del
byte "missing"
app_global_get
!`,
        { version: 8 },
      ),
    );
    void r;
    const run = runApp('byte "k"\nint 7\napp_global_put\nint 1', { version: 8 });
    assert.equal(run.ledger.getGlobal(APP_ID, te('k')), 7n);
    const d = run.result.applyData.globalDelta.get('6b');
    assert.deepEqual(d?.delta, { action: 'set', value: 7n });
  });

  it('key and value limits', () => {
    failsWith(runApp(`byte ${hex(new Uint8Array(65))}\nint 1\napp_global_put\nint 1`), 'key too long: length was 65, maximum is 64');
    failsWith(runApp(`byte "k"\nbyte ${hex(new Uint8Array(128))}\napp_global_put\nint 1`), 'key/value total too long for key 0x6b: sum was 129');
    failsWith(runApp(`byte "k"\nbyte ${hex(new Uint8Array(129))}\napp_global_put\nint 1`), 'value too long for key 0x6b: length was 129');
  });

  it('local state requires opt-in and an available account', () => {
    const ledger = new InMemoryLedgerView();
    ledger.optInApp(SENDER.publicKey, APP_ID);
    const r = approves(
      runApp('int 0\nbyte "c"\nint 3\napp_local_put\ntxn Sender\nbyte "c"\napp_local_get\nint 3\n==\nint 0\nint 0\napp_opted_in\n&&', { ledger, version: 8 }),
    );
    void r;
    assert.equal(ledger.getLocal(SENDER.publicKey, APP_ID, te('c')), 3n);
    failsWith(runApp('int 0\nbyte "c"\nint 3\napp_local_put\nint 1', { version: 8 }), 'has not opted in to app 1234');
    failsWith(runApp(`byte ${hex(OTHER.publicKey)}\nbyte "c"\napp_local_get`, { version: 8 }), `unavailable Account ${OTHER.toString()}`);
  });

  it('balance, min_balance, acct_params_get', () => {
    const ledger = new InMemoryLedgerView();
    const r = approves(
      runApp(
        `int 0
balance
int 10000000
==
assert
int 0
min_balance
int 100000
-
int 0
>
assert
txn Sender
acct_params_get AcctBalance
assert
int 10000000
==
assert
txn Sender
acct_params_get AcctTotalAppsCreated
assert
int 1
==`,
        { ledger, version: 8 },
      ),
    );
    void r;
    // The creator of APP_ID has a schema of 8+8 global entries: MBR grows accordingly.
    assert.equal(ledger.minBalance(SENDER.publicKey), 100000n + 100000n + 8n * 28500n + 8n * 50000n);
  });

  it('asset_holding_get and asset_params_get', () => {
    const ledger = new InMemoryLedgerView();
    const asset = ledger.createAsset(OTHER.publicKey, { total: 1000n, unitName: te('TOK'), decimals: 2n });
    ledger.optInAsset(SENDER.publicKey, asset, 25n);
    const txn = appCall({ foreignAssets: [asset], accounts: [OTHER] });
    approves(
      runApp(
        `int 0
int ${asset}
asset_holding_get AssetBalance
assert
int 25
==
assert
int ${asset}
asset_params_get AssetUnitName
assert
byte "TOK"
==
assert
int ${asset}
asset_params_get AssetCreator
assert
byte ${hex(OTHER.publicKey)}
==
assert
int 1
int ${asset}
asset_holding_get AssetFrozen
assert
!`,
        { ledger, txn, version: 8 },
      ),
    );
    failsWith(runApp(`int ${asset + 1n}\nasset_params_get AssetTotal`, { ledger, txn, version: 8 }), `unavailable Asset ${asset + 1n}`);
    // v3 (pre direct refs): an index into the foreign assets array
    approves(runApp('int 0\nasset_params_get AssetTotal\npop\nint 1000\n==', { ledger: ledger, txn, version: 3 }));
  });

  it('app_params_get and v9 resource sharing across the group', () => {
    const ledger = new InMemoryLedgerView();
    const other = ledger.createApp(OTHER.publicKey, { approvalProgram: Uint8Array.of(8, 0x81, 0x01) });
    const withRef = appCall({ foreignApps: [other] });
    const plain = appCall();
    const prog = `int ${other}\napp_params_get AppCreator\nassert\nbyte ${hex(OTHER.publicKey)}\n==`;
    approves(runApp(prog, { ledger, txn: withRef, version: 8 }));
    failsWith(runApp(prog, { ledger, txn: plain, version: 8 }), `unavailable App ${other}`);
    // v9+: a reference on another transaction of the group is enough
    approves(runApp(prog, { ledger, group: [plain, withRef], version: 9 }));
    failsWith(runApp(prog, { ledger, group: [plain, withRef], version: 8 }), `unavailable App ${other}`);
  });

  it('log: 32 calls and 1024 bytes', () => {
    const r = approves(runApp('byte "a"\nlog\nbyte "bc"\nlog\nint 1', { version: 8 }));
    assert.deepEqual(
      r.applyData.logs.map((l) => new TextDecoder().decode(l)),
      ['a', 'bc'],
    );
    const many = Array.from({ length: 33 }, () => 'byte "x"\nlog').join('\n') + '\nint 1';
    failsWith(runApp(many, { version: 8 }), 'too many log calls in program. up to 32 is allowed');
    failsWith(runApp('int 1025\nbzero\nlog\nint 1', { version: 8 }), 'program logs too large. 1025 bytes >  1024 bytes limit');
    approves(runApp(many, { version: 8, options: { allowMoreLogging: true } }));
  });
});

describe('avm boxes', () => {
  const boxTxn = (names: string[], extra: number = 0) =>
    appCall({ boxes: [...names.map((n) => ({ appId: 0n, name: te(n) })), ...Array.from({ length: extra }, () => ({ appId: 0n, name: new Uint8Array() }))] });

  it('create, put, get, extract, replace, splice, resize, len, del', () => {
    const run = approves(
      runApp(
        `byte "b"
int 4
box_create
assert
byte "b"
int 1
byte 0xaabb
box_replace
byte "b"
box_get
assert
byte 0x00aabb00
==
assert
byte "b"
int 1
int 2
box_extract
byte 0xaabb
==
assert
byte "b"
int 0
int 2
byte 0xff
box_splice
byte "b"
box_get
assert
byte 0xffbb0000
==
assert
byte "b"
int 6
box_resize
byte "b"
box_len
assert
int 6
==
assert
byte "b"
box_del
assert
byte "b"
box_len
!
assert
!`,
        { txn: boxTxn(['b']), version: 10 },
      ),
    );
    void run;
  });

  it('enforces box rules with the node wording', () => {
    const txn = boxTxn(['b']);
    failsWith(runApp('byte "c"\nint 1\nbox_create', { txn, version: 8 }), 'invalid Box reference 0x63');
    failsWith(runApp('byte ""\nint 1\nbox_create', { txn, version: 8 }), 'box names may not be zero length');
    failsWith(runApp('byte "b"\nint 32769\nbox_create', { txn, version: 8 }), 'box size too large: 32769, maximum is 32768');
    failsWith(runApp('byte "b"\nint 0\nint 1\nbox_extract', { txn, version: 8 }), 'no such box 0x62');
    failsWith(runApp('byte "b"\nint 3\nbox_create\nbyte "b"\nint 4\nbox_create', { txn, version: 8 }), 'box size mismatch 3 4');
    failsWith(runApp('byte "b"\nint 3\nbox_create\nbyte "b"\nbyte 0x01\nbox_put\nint 1', { txn, version: 8 }), 'attempt to box_put wrong size 3 != 1');
    // one reference = 2048 bytes of write budget
    failsWith(runApp('byte "b"\nint 2049\nbox_create', { txn, version: 8 }), 'write budget exceeded (2049 > 2048) while creating box 0x62');
    approves(runApp('byte "b"\nint 4096\nbox_create', { txn: boxTxn(['b'], 1), version: 8 }));
  });

  it('charges the app account 2500 + 400 per byte', () => {
    const run = runApp('byte "abc"\nint 10\nbox_create', { txn: boxTxn(['abc']), version: 8 });
    approves(run);
    const appAddr = Address.forApp(APP_ID).publicKey;
    assert.equal(run.ledger.minBalance(appAddr), 100000n + 2500n + 400n * 13n);
  });

  it('boxes are not reachable from ClearState', () => {
    const ledger = new InMemoryLedgerView();
    ledger.fund(SENDER.publicKey, 1_000_000n);
    ledger.createApp(
      SENDER.publicKey,
      { approvalProgram: Uint8Array.of(8, 0x81, 0x01), clearStateProgram: Uint8Array.of(8, 0x80, 0x01, 0x62, 0xbe, 0x48, 0x48, 0x81, 0x01) },
      APP_ID,
    );
    const run = runApp(Uint8Array.of(8, 0x81, 0x01), { ledger, txn: appCall({ onComplete: 3, boxes: [{ appId: 0n, name: te('b') }] }) });
    failsWith(run, 'boxes may not be accessed from ClearState program');
  });

  it('app_box_* reads another app only when it allows foreign reads', () => {
    const ledger = new InMemoryLedgerView();
    const owner = ledger.createApp(OTHER.publicKey, { approvalProgram: Uint8Array.of(13, 0x81, 0x01) });
    ledger.putBox(owner, te('x'), Uint8Array.of(1, 2));
    const txn = appCall({ foreignApps: [owner], boxes: [{ appId: owner, name: te('x') }] });
    const prog = `int ${owner}\nbyte "x"\napp_box_get\nassert\nbyte 0x0102\n==`;
    failsWith(runApp(prog, { ledger, txn, version: 13 }), `foreign app ${APP_ID} may not read box of ${owner}`);
    ledger.setAppParamFlag(owner, 'foreignBoxReads', true);
    approves(runApp(prog, { ledger, txn, version: 13 }));
    void payment;
  });
});

describe('avm box budgets', () => {
  it('the first app call must be able to read every referenced box', () => {
    const ledger = new InMemoryLedgerView();
    ledger.putBox(APP_ID, te('big'), new Uint8Array(3000));
    const txn = appCall({ boxes: [{ appId: 0n, name: te('big') }] });
    failsWith(runApp('int 1', { ledger, txn, version: 8 }), 'read budget exceeded (3000 > 2048)');
    const two = appCall({
      boxes: [
        { appId: 0n, name: te('big') },
        { appId: 0n, name: new Uint8Array() },
      ],
    });
    approves(runApp('byte "big"\nbox_len\nassert\nint 3000\n==', { ledger, txn: two, version: 8 }));
  });
});

describe('avm state schemas', () => {
  it('writes beyond the declared schema fail like the node ledger', () => {
    const ledger = new InMemoryLedgerView();
    ledger.createApp(SENDER.publicKey, { approvalProgram: Uint8Array.of(8, 0x81, 0x01), globalNumUint: 1n, localNumByteSlice: 0n }, APP_ID);
    failsWith(
      runApp('byte "a"\nint 1\napp_global_put\nbyte "b"\nint 2\napp_global_put\nint 1', { ledger, version: 8 }),
      'store integer count 2 exceeds schema integer count 1',
    );
    failsWith(runApp('byte "a"\nbyte "x"\napp_global_put\nint 1', { ledger, version: 8 }), 'store bytes count 1 exceeds schema bytes count 0');
    ledger.optInApp(SENDER.publicKey, APP_ID);
    failsWith(runApp('int 0\nbyte "l"\nbyte "x"\napp_local_put\nint 1', { ledger, version: 8 }), 'store bytes count 1 exceeds schema bytes count 0');
  });
});

describe('avm unnamed resources', () => {
  it('allow-unnamed-resources admits and records what the program reached', () => {
    const ledger = new InMemoryLedgerView();
    const other = ledger.createApp(OTHER.publicKey, { approvalProgram: Uint8Array.of(8, 0x81, 0x01) });
    const prog = `int ${other}\napp_params_get AppCreator\nassert\npop\nbyte ${hex(OTHER.publicKey)}\nbalance\npop\nbyte "bx"\nbox_len\npop\npop\nint 1`;
    failsWith(runApp(prog, { ledger, version: 8 }), `unavailable App ${other}`);
    const run = runApp(prog, { ledger, version: 8, options: { allowUnnamedResources: true } });
    approves(run);
    const u = run.evaluator.state.unnamed;
    // A v8 program has no group sharing: its transaction must name the app and account itself;
    // boxes are always the group's.
    const own = u.perTxn![0]!;
    assert.deepEqual([...own.apps], [other]);
    assert.deepEqual([...own.accounts.values()], [OTHER.publicKey]);
    assert.equal(u.apps.size + u.accounts.size, 0);
    assert.deepEqual(
      [...u.boxes.values()].map((b) => new TextDecoder().decode(b.name)),
      ['bx'],
    );
  });
});
