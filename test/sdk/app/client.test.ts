import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevnet, type RunningDevnet } from '../../../sdk/src/services/devnet/index.js';
import { connectNetwork, type WorkflowNetwork } from '../../../sdk/src/workflow/connect.js';
import { loadAppSpec } from '../../../sdk/src/abi/arc56.js';
import {
  AppClient,
  AppNotFoundError,
  fetchApp,
  GroupComposer,
  builderParams,
  compileContract,
  deployApp,
  findDeployments,
  simulateGroup,
  decodeDeployNote,
  SimulateFailedError,
  DeployPlanError,
} from '../../../sdk/src/app/index.js';
import { makePaymentTxn, decodeTransaction } from '../../../sdk/src/txn/index.js';
import { fromBase64 } from '../../../sdk/src/encoding/base64.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (p: string) => readFileSync(resolve(root, p), 'utf8');

describe('app: client, composer and deploy on the embedded devnet', function () {
  this.timeout(30_000);
  let devnet: RunningDevnet;
  let net: WorkflowNetwork;
  let me: string;
  before(async () => {
    devnet = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 } });
    net = await connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: root, devnet });
    me = net.dispenser!.address;
  });
  after(async () => {
    await net?.close();
    await devnet?.stop();
  });
  const resolveSigner = (a: string) => (a === me ? net.dispenser!.signer : undefined);

  it('creates a router, calls methods by name, passes a transaction argument and covers an inner payment fee', async () => {
    const spec = loadAppSpec(read('examples/abi-router/router.arc56.json'));
    const compiled = compileContract({ approval: read('examples/abi-router/router.teal'), clear: read('examples/abi-router/clear.teal'), spec });
    const client = new AppClient({ chain: net.chain, appId: 0n, spec, sender: me, resolveSigner });
    const created = await client.create(compiled);
    assert.ok(created.createdAppId! > 0n);
    assert.equal(client.appId, created.createdAppId);

    await client.optIn();
    const hello = await client.call('hello', ['tealworks']);
    const local = await client.localState(me);
    assert.deepEqual(
      local.map((i) => [i.match?.name, i.decoded]),
      [['greetings', 1n]],
    );
    assert.equal(hello.returnValue, 'Hello, tealworks');
    assert.deepEqual(hello.events, [{ name: 'Greeted', args: ['tealworks'], named: { name: 'tealworks' } }]);

    const pay = makePaymentTxn({ sender: me, receiver: client.appAddress, amount: 500_000n, suggestedParams: await builderParams(net.chain) });
    const deposit = await client.call('deposit', [], { txnArgs: [pay] });
    assert.equal(deposit.returnValue, 500_000n);
    assert.equal(deposit.txids.length, 2);

    const w = await client.call('withdraw', [100_000n, me]);
    const onChain = await net.chain.query!.lookupTransaction(w.txid);
    assert.equal(onChain.transaction.fee, 2000n, 'one min fee for the call, one for its inner payment');
    assert.equal(onChain.transaction.innerTxns?.length, 1);
    const global = await client.globalState();
    assert.equal(global.find((g) => g.match?.name === 'total')!.decoded, 400_000n);

    // Clear state always runs the clear program (which approves); the local state is gone.
    await client.clear();
    await assert.rejects(client.localState(me), /has not opted in/);
    // Close-out is refused by this router: the report says so, nothing is sent.
    await client.optIn();
    await assert.rejects(client.closeOut(), (e: unknown) => e instanceof SimulateFailedError && /only NoOp calls after creation/.test(e.message));
  });

  it('updates and deletes an app it created (the program allows both for the owner)', async () => {
    const spec = loadAppSpec(read('examples/counter/abi/counter.arc56.json'));
    const src = { approval: read('examples/counter/abi/counter.teal'), clear: read('examples/counter/abi/clear.teal'), spec };
    const client = new AppClient({ chain: net.chain, appId: 0n, spec, sender: me, resolveSigner });
    await client.create(compileContract(src, { updatable: true, deletable: true }));
    const id = client.appId;
    const v2 = compileContract({ ...src, approval: src.approval.replace('int 10\n<', 'int 20\n<') }, { updatable: true, deletable: true });
    await client.update(v2);
    assert.deepEqual((await fetchApp(net.chain, id)).approval, v2.approval.bytes);
    await client.delete();
    await assert.rejects(fetchApp(net.chain, id), AppNotFoundError);
  });

  it('simulates without keys and never throws for a failing group unless asked', async () => {
    const spec = loadAppSpec(read('examples/counter/abi/counter.arc56.json'));
    const compiled = compileContract(
      { approval: read('examples/counter/abi/counter.teal'), clear: read('examples/counter/abi/clear.teal'), approvalName: 'counter.teal', spec },
      { updatable: false, deletable: false },
    );
    const d = await deployApp({
      chain: net.chain,
      creator: me,
      resolveSigner,
      compiled,
      metadata: { name: 'client-test', version: '1', updatable: false, deletable: false },
    });
    const keyless = new AppClient({ chain: net.chain, appId: d.appId, compiled, name: 'counter', sender: me });
    const report = await keyless.simulate('increment', [12n]);
    assert.equal(report.wouldSucceed, false);
    assert.equal(report.failure!.errorMessage, 'too big: one increment must be below 10');
    assert.equal(report.failure!.source!.file, 'counter.teal');
    // A read-only method (ARC-56 `readonly: true`) is answered by simulate: no key, no fee, no block.
    const before = (await net.chain.node.status()).lastRound;
    const count = await keyless.call<bigint>('get_count');
    assert.equal(count.simulated, true);
    assert.equal(count.returnValue, 0n);
    assert.equal(count.confirmedRound, 0n);
    assert.equal(count.sent, undefined);
    assert.match(count.txid, /^[A-Z2-7]{52}$/);
    assert.equal((await net.chain.node.status()).lastRound, before, 'nothing was sent');
    // sendReadonly sends it (and so needs a key).
    await assert.rejects(keyless.call('get_count', [], { sendReadonly: true }), /no key to sign/);
    const txn = makePaymentTxn({ sender: me, receiver: me, amount: 10n ** 18n, suggestedParams: await builderParams(net.chain) });
    const overspend = await simulateGroup(net.chain, [txn]);
    assert.equal(overspend.wouldSucceed, false);
    await assert.rejects(simulateGroup(net.chain, [txn], { throwOnFailure: true }), SimulateFailedError);
  });

  it('deploys idempotently: nothing, then append on a code change, then fail on a schema break', async () => {
    const spec = loadAppSpec(read('examples/counter/abi/counter.arc56.json'));
    const base = { approval: read('examples/counter/abi/counter.teal'), clear: read('examples/counter/abi/clear.teal'), spec };
    const compiled = compileContract(base, { updatable: true, deletable: true });
    const metadata = { name: 'deploy-test', version: '1', updatable: true, deletable: true };
    const first = await deployApp({ chain: net.chain, creator: me, resolveSigner, compiled, metadata });
    assert.equal(first.action, 'create');
    const again = await deployApp({ chain: net.chain, creator: me, resolveSigner, compiled, metadata });
    assert.equal(again.action, 'nothing');
    assert.equal(again.appId, first.appId);

    const changed = compileContract({ ...base, approval: base.approval.replace('int 10\n<', 'int 12\n<') }, { updatable: true, deletable: true });
    const appended = await deployApp({
      chain: net.chain,
      creator: me,
      resolveSigner,
      compiled: changed,
      metadata: { ...metadata, version: '2' },
      onUpdate: 'append',
    });
    assert.equal(appended.action, 'append');
    assert.notEqual(appended.appId, first.appId);
    // The create transaction carries an ARC-2 deploy note AlgoKit reads the same way.
    const tx = await net.chain.query!.lookupTransaction(appended.txid!);
    assert.deepEqual(decodeDeployNote(fromBase64(tx.transaction.note!)), { name: 'deploy-test', version: '2', updatable: true, deletable: true });
    const { byName } = await findDeployments(net.chain, me);
    assert.equal(byName.get('deploy-test')!.appId, appended.appId, 'the latest deployment of a name wins');

    const bigger = { ...changed, schema: { ...changed.schema, localInts: 1 } };
    await assert.rejects(
      deployApp({ chain: net.chain, creator: me, resolveSigner, compiled: bigger, metadata: { ...metadata, version: '3' } }),
      (e: unknown) => e instanceof DeployPlanError && e.trigger === 'schema-break',
    );
  });

  it('reads box names page by page and decodes map entries', async () => {
    const spec = loadAppSpec(read('examples/counter/abi/counter.arc56.json'));
    const compiled = compileContract(
      { approval: read('examples/counter/abi/counter.teal'), clear: read('examples/counter/abi/clear.teal'), spec },
      { updatable: false, deletable: false },
    );
    const client = new AppClient({ chain: net.chain, appId: 0n, spec, sender: me, resolveSigner });
    await client.create(compiled);
    const fund = new GroupComposer(net.chain, resolveSigner).add(
      makePaymentTxn({ sender: me, receiver: client.appAddress, amount: 1_000_000n, suggestedParams: await builderParams(net.chain) }),
    );
    await fund.send();
    await client.call('increment', [4n]);
    const page = await client.boxes({ values: true, limit: 1 });
    assert.equal(page.items.length, 1);
    assert.equal(page.items[0]!.match!.name, 'counts');
    assert.equal(page.items[0]!.mapKey, me);
    assert.equal(page.items[0]!.decoded, 4n);
    const one = await client.box(page.items[0]!.key);
    assert.equal(one!.decoded, 4n);
    assert.equal(await client.box('nope'), undefined);
    assert.equal(decodeTransaction !== undefined, true);
  });
});
