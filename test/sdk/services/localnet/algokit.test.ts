import assert from 'node:assert/strict';
import { AlgorandClient, Config, algo, microAlgo } from '@algorandfoundation/algokit-utils';
import { consoleLogger, nullLogger } from '@algorandfoundation/algokit-utils/types/logging';
import type { Arc56Contract } from '@algorandfoundation/algokit-utils/types/app-arc56';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { startDevnet, LOCALNET_TOKEN, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';

/**
 * AlgoKit utils v9 configured as a LocalNet user configures it (`AlgorandClient.fromEnvironment()`
 * with ALGOD_*, INDEXER_* and KMD_* variables) against the devnet started with `localnet: true`.
 */

const b64 = (s: string) => Buffer.from(s).toString('base64');

export const COUNTER_TEAL = `#pragma version 10
txn ApplicationID
bz create
txn OnCompletion
int UpdateApplication
==
bnz update
txn OnCompletion
int DeleteApplication
==
bnz delete
txna ApplicationArgs 0
method "add(uint64,uint64)uint64"
==
bnz add
txna ApplicationArgs 0
method "setBox(string,uint64)void"
==
bnz setbox
txna ApplicationArgs 0
method "fail()void"
==
bnz fail
txna ApplicationArgs 0
method "value()uint64"
==
bnz value
err
create:
byte "value"
int TMPL_VALUE
app_global_put
byte "label"
byte "hello"
app_global_put
int 1
return
update:
int TMPL_UPDATABLE
assert
byte "value"
int TMPL_VALUE
app_global_put
int 1
return
delete:
int TMPL_DELETABLE
return
add:
byte 0x151f7c75
txna ApplicationArgs 1
btoi
txna ApplicationArgs 2
btoi
+
itob
concat
log
int 1
return
setbox:
byte "c"
txna ApplicationArgs 1
concat
txna ApplicationArgs 2
box_put
int 1
return
fail:
int 0
assert
int 1
return
value:
byte 0x151f7c75
byte "value"
app_global_get
itob
concat
log
int 1
return
`;

const m = (name: string, args: { type: string; name: string }[], returns: string) => ({
  name,
  args,
  returns: { type: returns },
  actions: { create: [], call: ['NoOp'] },
  readonly: false,
  events: [],
  recommendations: {},
});

export const COUNTER_SPEC = {
  arcs: [22, 28],
  name: 'Counter',
  structs: {},
  methods: [
    m(
      'add',
      [
        { type: 'uint64', name: 'a' },
        { type: 'uint64', name: 'b' },
      ],
      'uint64',
    ),
    m(
      'setBox',
      [
        { type: 'string', name: 'key' },
        { type: 'uint64', name: 'value' },
      ],
      'void',
    ),
    m('fail', [], 'void'),
    m('value', [], 'uint64'),
  ],
  networks: {},
  state: {
    schema: { global: { ints: 1, bytes: 1 }, local: { ints: 0, bytes: 0 } },
    keys: {
      global: {
        value: { keyType: 'AVMString', valueType: 'AVMUint64', key: b64('value') },
        label: { keyType: 'AVMString', valueType: 'AVMString', key: b64('label') },
      },
      local: {},
      box: {},
    },
    maps: { global: {}, local: {}, box: { counts: { keyType: 'string', valueType: 'uint64', prefix: b64('c') } } },
  },
  bareActions: { create: ['NoOp'], call: ['UpdateApplication', 'DeleteApplication'] },
  source: { approval: b64(COUNTER_TEAL), clear: b64('#pragma version 10\nint 1\n') },
  templateVariables: { VALUE: { type: 'AVMUint64' } },
  events: [],
} as unknown as Arc56Contract;

const ENV_KEYS = ['ALGOD_SERVER', 'ALGOD_PORT', 'ALGOD_TOKEN', 'INDEXER_SERVER', 'INDEXER_PORT', 'INDEXER_TOKEN', 'KMD_PORT'] as const;

describe('localnet: AlgoKit utils v9 against `devnet --localnet`', function () {
  this.timeout(60_000);
  let d: RunningDevnet;
  let algorand: AlgorandClient;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    d = await startDevnet({ inMemory: true, localnet: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT });
    for (const k of ENV_KEYS) saved[k] = process.env[k];
    const port = (u: string) => new URL(u).port;
    Object.assign(process.env, {
      ALGOD_SERVER: 'http://127.0.0.1',
      ALGOD_PORT: port(d.node.url),
      ALGOD_TOKEN: LOCALNET_TOKEN,
      INDEXER_SERVER: 'http://127.0.0.1',
      INDEXER_PORT: port(d.query.url),
      INDEXER_TOKEN: LOCALNET_TOKEN,
      KMD_PORT: port(d.keyManager.url),
    });
    algorand = AlgorandClient.fromEnvironment();
    Config.configure({ logger: nullLogger });
  });
  after(async () => {
    Config.configure({ logger: consoleLogger });
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await d?.stop();
  });

  it('recognises a LocalNet and finds the dispenser in kmd', async () => {
    assert.equal(await algorand.client.isLocalNet(), true);
    const dispenser = await algorand.account.localNetDispenser();
    assert.equal(dispenser.addr.toString(), d.accounts[0]!.address);
  });

  it('funds from the environment, sends a payment and runs an asset through create, opt-in and transfer', async () => {
    const dispenser = await algorand.account.localNetDispenser();
    const alice = algorand.account.random();
    const funded = await algorand.account.ensureFundedFromEnvironment(alice.addr, algo(2));
    assert.ok(funded, 'a funding payment was made');
    assert.equal((await algorand.account.getInformation(alice.addr)).balance.microAlgo, 2_100_000n);
    assert.equal(await algorand.account.ensureFundedFromEnvironment(alice.addr, algo(1)), undefined, 'already funded');

    const pay = await algorand.send.payment({ sender: dispenser.addr, receiver: alice.addr, amount: microAlgo(1234) });
    assert.ok(pay.confirmation.confirmedRound! > 0n);
    assert.equal((await algorand.account.getInformation(alice.addr)).balance.microAlgo, 2_101_234n);

    const created = await algorand.send.assetCreate({
      sender: dispenser.addr,
      total: 500n,
      decimals: 0,
      unitName: 'KIT',
      assetName: 'AlgoKit',
      manager: dispenser.addr,
    });
    assert.ok(created.assetId > 0n);
    await algorand.send.assetOptIn({ sender: alice.addr, assetId: created.assetId });
    await algorand.send.assetTransfer({ sender: dispenser.addr, receiver: alice.addr, assetId: created.assetId, amount: 7n });
    const holding = await algorand.asset.getAccountInformation(alice.addr, created.assetId);
    assert.equal(holding.balance, 7n);
    const info = await algorand.asset.getById(created.assetId);
    assert.equal(info.unitName, 'KIT');
    assert.equal(info.total, 500n);
  });

  describe('an ARC-56 app deployed with AppFactory', () => {
    it('creates, then does nothing, then updates as TMPL_ parameters change; typed calls, global state, box map, group simulate, logic error details', async () => {
      const dispenser = await algorand.account.localNetDispenser();
      const factory = algorand.client.getAppFactory({ appSpec: COUNTER_SPEC, defaultSender: dispenser.addr, updatable: true, deletable: false });

      const first = await factory.deploy({ deployTimeParams: { VALUE: 1 }, onUpdate: 'update', onSchemaBreak: 'fail' });
      assert.equal(first.result.operationPerformed, 'create');
      const appClient = first.appClient;
      assert.ok(appClient.appId > 0n);

      const again = await factory.deploy({ deployTimeParams: { VALUE: 1 }, onUpdate: 'update', onSchemaBreak: 'fail' });
      assert.equal(again.result.operationPerformed, 'nothing');
      assert.equal(again.appClient.appId, appClient.appId);

      // A fresh client (no cache): the deployment is found again through the indexer.
      const freshClient = AlgorandClient.fromEnvironment();
      await freshClient.account.localNetDispenser(); // registers the signer with this client
      const fresh = freshClient.client.getAppFactory({ appSpec: COUNTER_SPEC, defaultSender: dispenser.addr, updatable: true, deletable: false });
      const updated = await fresh.deploy({ deployTimeParams: { VALUE: 2 }, onUpdate: 'update', onSchemaBreak: 'fail' });
      assert.equal(updated.result.operationPerformed, 'update');
      assert.equal(updated.appClient.appId, appClient.appId);
      // The update ran the old program (value stays 1, as on the node); the new program is in place.
      const onChain = await algorand.app.getById(appClient.appId);
      assert.deepEqual(Buffer.from(onChain.approvalProgram), Buffer.from(updated.result.compiledApproval!.compiledBase64ToBytes));
      assert.notDeepEqual(Buffer.from(onChain.approvalProgram), Buffer.from(first.result.compiledApproval!.compiledBase64ToBytes));

      const sum = await appClient.send.call({ method: 'add', args: [40n, 2n] });
      assert.equal(sum.return, 42n);
      const v = await appClient.send.call({ method: 'value', args: [] });
      assert.equal(v.return, 1n);

      const globals = await appClient.state.global.getAll();
      assert.equal(globals.value, 1n);
      assert.equal(globals.label, 'hello');

      await algorand.account.ensureFunded(appClient.appAddress, dispenser.addr, algo(1));
      await appClient.send.call({
        method: 'setBox',
        args: ['apples', 3n],
        boxReferences: [new Uint8Array([...Buffer.from('c'), 0, 6, ...Buffer.from('apples')])],
      });
      await appClient.send.call({ method: 'setBox', args: ['pears', 5n], populateAppCallResources: true });
      const counts = await appClient.state.box.getMap('counts');
      assert.equal(counts.size, 2);
      assert.equal(counts.get('apples'), 3n);
      assert.equal(counts.get('pears'), 5n);

      const sim = await algorand
        .newGroup()
        .addPayment({ sender: dispenser.addr, receiver: dispenser.addr, amount: microAlgo(0) })
        .addAppCallMethodCall(await appClient.params.call({ method: 'add', args: [1n, 2n] }))
        .simulate({ skipSignatures: true });
      assert.equal(sim.returns?.[0]?.returnValue, 3n);
      assert.equal(sim.transactions.length, 2);

      await assert.rejects(
        appClient.send.call({ method: 'fail', args: [] }),
        (e: Error & { led?: { msg: string; pc: number; txId: string }; teal_line?: number }) => {
          assert.ok(e.led, `a logic error with details, got: ${e.message}`);
          assert.match(e.led.msg, /assert failed/);
          assert.ok(e.led.pc > 0);
          assert.equal(e.led.txId.length, 52);
          assert.match(e.message, /assert failed/);
          return true;
        },
      );
    });
  });
});
