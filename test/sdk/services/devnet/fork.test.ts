import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import algosdk from 'algosdk';
import { AlgorandClient } from '@algorandfoundation/algokit-utils';
import { startDevnet, LOCALNET_TOKEN, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';
import { ForkRemoteError } from '../../../../sdk/src/ledger/fork.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { parseDevnetArgs, runDevnet } from '../../../../sdk/src/cli/commands/devnet.js';
import type { CliIo } from '../../../../sdk/src/cli/command.js';
import { forkUrlOf } from '../../../../sdk/src/services/devnet/index.js';
import { PUBLIC_ENDPOINTS } from '../../../../sdk/src/adapters/profiles.js';
import { DevnetCheatsClient } from '../../../../sdk/src/adapters/node/devnet-cheats.js';

/**
 * A fork of a live network, with a second devnet in the same test standing in for the remote:
 * an app with global, local and box state, an asset, a rekeyed account.
 */

const APPROVAL = `#pragma version 10
txn ApplicationID
bz create
txn OnCompletion
int OptIn
==
bnz optin
txna ApplicationArgs 0
byte "inc"
==
bnz inc
txna ApplicationArgs 0
byte "boxes"
==
bnz boxes
txna ApplicationArgs 0
byte "peek"
==
bnz peek
txna ApplicationArgs 0
byte "noop"
==
return
err
create:
byte "count"
int 0
app_global_put
byte "name"
byte "fork-me"
app_global_put
int 1
return
optin:
txn Sender
byte "n"
int 0
app_local_put
int 1
return
inc:
byte "count"
byte "count"
app_global_get
int 1
+
app_global_put
txn Sender
byte "n"
txn Sender
byte "n"
app_local_get
int 1
+
app_local_put
byte "count"
app_global_get
itob
log
txna ApplicationArgs 1
byte "count"
app_global_get
itob
box_put
txna Accounts 1
txna Assets 0
asset_holding_get AssetBalance
pop
itob
log
int 1
return
boxes:
int 0
store 0
int 0
store 1
loop:
load 0
int 10
==
bnz done
byte "box"
load 0
itob
concat
dup
box_len
bnz have
pop
load 0
int 100
+
itob
box_put
b next
have:
pop
pop
byte "box"
load 0
itob
concat
box_get
assert
btoi
load 1
+
store 1
next:
load 0
int 1
+
store 0
b loop
done:
load 1
itob
log
int 1
return
peek:
txna ApplicationArgs 1
box_get
assert
log
txna ApplicationArgs 2
balance
itob
log
int 1
return
`;
const CLEAR = '#pragma version 10\nint 1';

const ALGO = 1_000_000n;
const RESOURCE_PATH = /^\/v2\/(accounts|applications|assets)\//;

interface Client {
  algod: algosdk.Algodv2;
  devnet: RunningDevnet;
}

function clientOf(devnet: RunningDevnet): Client {
  const u = new URL(devnet.node.url);
  return { devnet, algod: new algosdk.Algodv2(devnet.node.token, `${u.protocol}//${u.hostname}`, u.port) };
}

async function dispenserKey(devnet: RunningDevnet): Promise<algosdk.Account> {
  const u = new URL(devnet.keyManager.url);
  const kmd = new algosdk.Kmd(devnet.keyManager.token, `${u.protocol}//${u.hostname}`, u.port);
  const wallets = (await kmd.listWallets()).wallets as { id: string; name: string }[];
  const w = wallets.find((x) => x.name === devnet.wallet.name)!;
  const handle = (await kmd.initWalletHandle(w.id, devnet.wallet.password)).wallet_handle_token as string;
  const { private_key } = await kmd.exportKey(handle, devnet.wallet.password, devnet.accounts[0]!.address);
  return { addr: algosdk.Address.fromString(devnet.accounts[0]!.address), sk: new Uint8Array(private_key) };
}

async function send(c: Client, txns: algosdk.Transaction[], signers: algosdk.Account[]): Promise<Record<string, any>> {
  if (txns.length > 1) algosdk.assignGroupID(txns);
  const signed = txns.map((t, i) => t.signTxn(signers[i]!.sk));
  const { txid } = await c.algod.sendRawTransaction(signed).do();
  const info = await algosdk.waitForConfirmation(c.algod, txid, 4);
  return info as unknown as Record<string, any>;
}

async function simulate(c: Client, txns: algosdk.Transaction[], signers: algosdk.Account[], unnamed = false) {
  const signed = txns.map((t, i) => algosdk.decodeSignedTransaction(t.signTxn(signers[i]!.sk)));
  const req = new algosdk.modelsv2.SimulateRequest({
    txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: signed })],
    allowUnnamedResources: unnamed,
  });
  return c.algod.simulateTransactions(req).do();
}

/** The parts of one simulated or confirmed app call that must agree: logs and state changes. */
function effects(r: { logs?: Uint8Array[]; globalStateDelta?: unknown; localStateDelta?: unknown }) {
  return {
    logs: (r.logs ?? []).map((l) => Buffer.from(l).toString('hex')),
    global: ((r.globalStateDelta ?? []) as algosdk.Encodable[]).map((x) => algosdk.encodeJSON(x)),
    local: ((r.localStateDelta ?? []) as algosdk.Encodable[]).map((x) => algosdk.encodeJSON(x)),
  };
}

describe('devnet fork of a live network (a second devnet as the remote)', function () {
  this.timeout(120_000);
  let remote: Client;
  let fork: Client | undefined;
  let dir: string;
  const remoteLog: string[] = [];
  let disp: algosdk.Account;
  const user = algosdk.generateAccount();
  const rekeyed = algosdk.generateAccount();
  const authority = algosdk.generateAccount();
  let appId: bigint;
  let assetId: bigint;
  const approval = assemble(APPROVAL).program;
  const clear = assemble(CLEAR).program;

  const remoteResourceRequests = () => remoteLog.filter((p) => RESOURCE_PATH.test(p)).length;
  const startFork = async (extra: { refresh?: boolean; token?: string; url?: string } = {}) => {
    const d = await startDevnet({
      dataDir: dir,
      localnet: true,
      ports: { node: 0, query: 0, keyManager: 0 },
      kdf: TEST_SCRYPT,
      fork: { url: extra.url ?? remote.devnet.node.url, token: extra.token ?? remote.devnet.node.token, ...(extra.refresh ? { refresh: true } : {}) },
    });
    fork = clientOf(d);
    return fork;
  };
  const stopFork = async () => {
    await fork?.devnet.stop();
    fork = undefined;
  };

  const incCall = (sp: algosdk.SuggestedParams, note: string) =>
    algosdk.makeApplicationCallTxnFromObject({
      sender: user.addr,
      appIndex: appId,
      onComplete: algosdk.OnApplicationComplete.NoOpOC,
      appArgs: [new TextEncoder().encode('inc'), new TextEncoder().encode('last')],
      accounts: [rekeyed.addr],
      foreignAssets: [assetId],
      boxes: [{ appIndex: 0, name: new TextEncoder().encode('last') }],
      note: new TextEncoder().encode(note),
      suggestedParams: sp,
    });
  const boxNames = Array.from({ length: 10 }, (_, i) => {
    const n = new Uint8Array(11);
    n.set(new TextEncoder().encode('box'));
    new DataView(n.buffer).setBigUint64(3, BigInt(i));
    return n;
  });
  /** Reads (or, the first time, writes) ten boxes: a group of two calls, as one call names at most 8 boxes. */
  const boxesCall = (sp: algosdk.SuggestedParams, note: string) => [
    algosdk.makeApplicationCallTxnFromObject({
      sender: user.addr,
      appIndex: appId,
      onComplete: algosdk.OnApplicationComplete.NoOpOC,
      appArgs: [new TextEncoder().encode('boxes')],
      boxes: boxNames.slice(0, 8).map((name) => ({ appIndex: 0, name })),
      note: new TextEncoder().encode(note),
      suggestedParams: sp,
    }),
    algosdk.makeApplicationCallTxnFromObject({
      sender: user.addr,
      appIndex: appId,
      onComplete: algosdk.OnApplicationComplete.NoOpOC,
      appArgs: [new TextEncoder().encode('noop')],
      boxes: boxNames.slice(8).map((name) => ({ appIndex: 0, name })),
      note: new TextEncoder().encode(note),
      suggestedParams: sp,
    }),
  ];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-fork-'));
    const r = await startDevnet({
      inMemory: true,
      localnet: true,
      ports: { node: 0, query: 0, keyManager: 0 },
      kdf: TEST_SCRYPT,
      log: (e) => e.service === 'node' && remoteLog.push(e.path),
    });
    remote = clientOf(r);
    disp = await dispenserKey(r);
    const sp = await remote.algod.getTransactionParams().do();
    const pay = (to: algosdk.Address, amount: bigint) =>
      algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: disp.addr, receiver: to, amount, suggestedParams: sp });
    await send(remote, [pay(user.addr, 100n * ALGO), pay(rekeyed.addr, 10n * ALGO), pay(authority.addr, 10n * ALGO)], [disp, disp, disp]);
    // The rekeyed account: spends are authorised by `authority` from now on.
    await send(
      remote,
      [
        algosdk.makePaymentTxnWithSuggestedParamsFromObject({
          sender: rekeyed.addr,
          receiver: rekeyed.addr,
          amount: 0,
          rekeyTo: authority.addr,
          suggestedParams: sp,
        }),
      ],
      [rekeyed],
    );
    const create = await send(
      remote,
      [
        algosdk.makeApplicationCreateTxnFromObject({
          sender: disp.addr,
          approvalProgram: approval,
          clearProgram: clear,
          numGlobalInts: 1,
          numGlobalByteSlices: 1,
          numLocalInts: 1,
          numLocalByteSlices: 0,
          onComplete: algosdk.OnApplicationComplete.NoOpOC,
          suggestedParams: sp,
        }),
      ],
      [disp],
    );
    appId = BigInt(create.applicationIndex);
    const asset = await send(
      remote,
      [
        algosdk.makeAssetCreateTxnWithSuggestedParamsFromObject({
          sender: disp.addr,
          total: 1000n,
          decimals: 0,
          defaultFrozen: false,
          unitName: 'FRK',
          assetName: 'Forked',
          manager: disp.addr,
          suggestedParams: sp,
        }),
      ],
      [disp],
    );
    assetId = BigInt(asset.assetIndex);
    const appAddr = algosdk.getApplicationAddress(appId);
    // The app's account pays for boxes; the user opts in (local state); the rekeyed account holds the asset.
    await send(remote, [pay(appAddr, 10n * ALGO)], [disp]);
    await send(remote, [algosdk.makeApplicationOptInTxnFromObject({ sender: user.addr, appIndex: appId, suggestedParams: sp })], [user]);
    await send(
      remote,
      [
        algosdk.makeAssetTransferTxnWithSuggestedParamsFromObject({
          sender: rekeyed.addr,
          receiver: rekeyed.addr,
          amount: 0,
          assetIndex: assetId,
          suggestedParams: sp,
        }),
      ],
      [authority],
    );
    await send(
      remote,
      [
        algosdk.makeAssetTransferTxnWithSuggestedParamsFromObject({
          sender: disp.addr,
          receiver: rekeyed.addr,
          amount: 42,
          assetIndex: assetId,
          suggestedParams: sp,
        }),
      ],
      [disp],
    );
    await send(remote, [incCall(sp, 'setup')], [user]);
    await send(remote, boxesCall(sp, 'setup'), [user, user]);
  });

  after(async () => {
    await stopFork();
    await remote.devnet.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it("takes the remote's genesis id and hash; its first local round follows the remote's round", async () => {
    const remoteRound = remote.devnet.ledger.latestRound;
    const f = await startFork();
    const a = await remote.algod.getTransactionParams().do();
    const b = await f.algod.getTransactionParams().do();
    assert.equal(b.genesisID, a.genesisID);
    assert.deepEqual(b.genesisHash, a.genesisHash);
    assert.equal(BigInt(b.firstValid), remoteRound);
    assert.equal(f.devnet.fork!.head.round, remoteRound);
    assert.equal(remoteResourceRequests(), 0, 'nothing fetched before it is read');
  });

  it("an app call's result, logs and state changes on the fork equal the remote's simulate of the same group", async () => {
    const f = fork!;
    const remoteHash = remote.devnet.ledger.stateHash();
    const remoteRound = remote.devnet.ledger.latestRound;
    const sp = await f.algod.getTransactionParams().do();
    const txn = incCall(sp, 'same group');
    const onRemote = await simulate(remote, [txn], [user]);
    const simRemote = onRemote.txnGroups[0]!.txnResults[0]!.txnResult;
    const onForkSim = await simulate(f, [txn], [user]);
    assert.equal(onRemote.txnGroups[0]!.failureMessage, undefined);
    assert.deepEqual(effects(onForkSim.txnGroups[0]!.txnResults[0]!.txnResult), effects(simRemote));
    const confirmed = await send(f, [txn], [user]);
    assert.deepEqual(effects(confirmed as any), effects(simRemote));
    assert.equal(BigInt(confirmed.confirmedRound), remoteRound + 1n);
    // The fork's state moved on; the remote's did not.
    const gs = (await f.algod.getApplicationByID(appId).do()).params!.globalState!;
    assert.equal(gs.find((kv) => Buffer.from(kv.key).toString() === 'count')!.value.uint, 2n);
    assert.equal(remote.devnet.ledger.latestRound, remoteRound, 'remote never written');
    assert.deepEqual(remote.devnet.ledger.stateHash(), remoteHash, 'remote state unchanged');
  });

  it('the number of remote requests equals the resources touched (each fetched once, logged)', async () => {
    const f = fork!;
    const requests = f.devnet.fork!.requests;
    assert.equal(remoteResourceRequests(), requests.length);
    const names = requests.map((r) => r.resource);
    assert.equal(new Set(names).size, names.length, 'no resource fetched twice');
    // Sender, the named account, the app, its account, the asset, the named box (and the fee
    // sink, which the fee is paid to). The app's creator is not read by the call: not fetched.
    for (const want of [
      `account ${user.addr}`,
      `account ${rekeyed.addr}`,
      `app ${appId}`,
      `asset ${assetId}`,
      `account ${algosdk.getApplicationAddress(appId)}`,
    ])
      assert.ok(names.includes(want), `${want} in ${names.join(', ')}`);
    assert.ok(names.some((n) => n.startsWith(`box ${appId}/`)));
    assert.ok(!names.includes(`account ${disp.addr}`), 'the creator is not touched, so not fetched');
    const before = remoteResourceRequests();
    const sp = await f.algod.getTransactionParams().do();
    await send(f, [incCall(sp, 'again')], [user]);
    assert.equal(remoteResourceRequests(), before, 'the same call again needs no request');
  });

  it('a rekeyed account keeps its authorizer on the fork (and the node wording when signed by the wrong key)', async () => {
    const f = fork!;
    const sp = await f.algod.getTransactionParams().do();
    const pay = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: rekeyed.addr, receiver: user.addr, amount: 1000, suggestedParams: sp });
    await assert.rejects(f.algod.sendRawTransaction(pay.signTxn(rekeyed.sk)).do(), /should have been authorized by/);
    await send(f, [pay], [authority]);
    const info = await f.algod.accountInformation(rekeyed.addr).do();
    assert.equal(info.authAddr?.toString(), authority.addr.toString());
    assert.equal(info.assets?.find((h) => h.assetId === assetId)?.amount, 42n);
  });

  it("copied accounts report the remote's minimum balance, totals and local state", async () => {
    const f = fork!;
    for (const who of [disp.addr, algosdk.getApplicationAddress(appId)]) {
      const a = await remote.algod.accountInformation(who).do();
      const b = await f.algod.accountInformation(who).do();
      assert.equal(b.minBalance, a.minBalance, `min balance of ${who}`);
      assert.equal(b.totalAppsOptedIn, a.totalAppsOptedIn);
      assert.equal(b.totalCreatedApps, a.totalCreatedApps);
      assert.equal(b.totalCreatedAssets, a.totalCreatedAssets);
      assert.equal(b.totalBoxes, a.totalBoxes);
      assert.equal(b.totalBoxBytes, a.totalBoxBytes);
    }
    const local = await f.algod.accountApplicationInformation(user.addr, appId).do();
    assert.ok((local.appLocalState?.keyValue?.[0]?.value.uint ?? 0n) >= 1n);
  });

  it('resources reached without naming them (unnamed-resource simulate) are fetched on demand', async () => {
    const f = fork!;
    // Valid on both chains: the fork's rounds are ahead of the remote's by now.
    const sp = await remote.algod.getTransactionParams().do();
    const peek = algosdk.makeApplicationCallTxnFromObject({
      sender: user.addr,
      appIndex: appId,
      onComplete: algosdk.OnApplicationComplete.NoOpOC,
      appArgs: [new TextEncoder().encode('peek'), boxNames[3]!, algosdk.decodeAddress(authority.addr.toString()).publicKey],
      suggestedParams: sp,
    });
    const requestsBefore = f.devnet.fork!.requests.length;
    const remoteSim = await simulate(remote, [peek], [user], true);
    const forkSim = await simulate(f, [peek], [user], true);
    assert.equal(forkSim.txnGroups[0]!.failureMessage, undefined, algosdk.encodeJSON(forkSim));
    assert.deepEqual(
      effects(forkSim.txnGroups[0]!.txnResults[0]!.txnResult),
      effects(remoteSim.txnGroups[0]!.txnResults[0]!.txnResult),
      algosdk.encodeJSON(forkSim) + '\n' + algosdk.encodeJSON(remoteSim),
    );
    const unnamed = (x: algosdk.Encodable | undefined) => (x ? algosdk.encodeJSON(x) : undefined);
    assert.ok(remoteSim.txnGroups[0]!.unnamedResourcesAccessed || remoteSim.txnGroups[0]!.txnResults[0]!.unnamedResourcesAccessed);
    assert.deepEqual(unnamed(forkSim.txnGroups[0]!.unnamedResourcesAccessed), unnamed(remoteSim.txnGroups[0]!.unnamedResourcesAccessed));
    assert.deepEqual(
      unnamed(forkSim.txnGroups[0]!.txnResults[0]!.unnamedResourcesAccessed),
      unnamed(remoteSim.txnGroups[0]!.txnResults[0]!.unnamedResourcesAccessed),
    );
    const fetched = f.devnet.fork!.requests.slice(requestsBefore).map((r) => r.resource);
    assert.ok(
      fetched.some((n) => n.startsWith(`box ${appId}/`)),
      fetched.join(', '),
    );
    assert.ok(fetched.includes(`account ${authority.addr}`) || f.devnet.fork!.requests.some((r) => r.resource === `account ${authority.addr}`));
  });

  it('algosdk and AlgoKit utils run unchanged against the fork (LocalNet mode)', async () => {
    const f = fork!;
    const node = new URL(f.devnet.node.url);
    const kmd = new URL(f.devnet.keyManager.url);
    const algorand = AlgorandClient.fromConfig({
      algodConfig: { server: `${node.protocol}//${node.hostname}`, port: node.port, token: LOCALNET_TOKEN },
      kmdConfig: { server: `${kmd.protocol}//${kmd.hostname}`, port: kmd.port, token: LOCALNET_TOKEN },
    });
    const dispenser = await algorand.account.fromKmd(f.devnet.wallet.name, (a) => a.address.toString() === f.devnet.accounts[0]!.address);
    const fresh = algorand.account.random();
    await algorand.send.payment({ sender: dispenser.addr, receiver: fresh.addr, amount: (5n * ALGO).microAlgo() });
    const r = await algorand.send.appCall({
      sender: user.addr,
      signer: algosdk.makeBasicAccountTransactionSigner(user),
      appId,
      args: [new TextEncoder().encode('inc'), new TextEncoder().encode('last')],
      accountReferences: [rekeyed.addr],
      assetReferences: [assetId],
      boxReferences: ['last'],
    });
    assert.equal(r.confirmation.logs!.length, 2);
    const info = await algorand.client.algod.accountInformation(fresh.addr).do();
    assert.equal(info.amount, 5n * ALGO);
    const app = await algorand.app.getById(appId);
    assert.equal(app.globalState.name?.value, 'fork-me');
  });

  it('cheats on the forked devnet fetch what they change first (set-balance of a real account)', async () => {
    const f = fork!;
    const cheats = new DevnetCheatsClient({ url: f.devnet.node.url, token: f.devnet.node.token });
    await cheats.cheat('set-balance', { address: disp.addr.toString(), amount: 5_000_000 });
    const info = await f.algod.accountInformation(disp.addr).do();
    assert.equal(info.amount, 5_000_000n);
    assert.equal(info.createdApps?.[0]?.id, appId, "the remote's record was fetched, then changed");
    assert.deepEqual(f.devnet.fork!.origin({ kind: 'account', address: disp.addr.publicKey }), { source: 'local' });
    assert.notEqual((await remote.algod.accountInformation(disp.addr).do()).amount, 5_000_000n, 'the remote is untouched');
    await cheats.close();
  });

  it('after the remote changes, the fork does not see it until refreshed', async () => {
    const sp = await remote.algod.getTransactionParams().do();
    await send(remote, [incCall(sp, 'remote moves on')], [user]);
    const remoteCount = (await remote.algod.getApplicationByID(appId).do()).params!.globalState!.find((kv) => Buffer.from(kv.key).toString() === 'count')!.value
      .uint;
    const forkCount = async () =>
      (await fork!.algod.getApplicationByID(appId).do()).params!.globalState!.find((kv) => Buffer.from(kv.key).toString() === 'count')!.value.uint;
    assert.notEqual(await forkCount(), remoteCount);
    const status = await fork!.devnet.fork!.checkRemote();
    assert.equal(status.movedOn, true, 'the fork reports that the remote moved on');
    await stopFork();
    await startFork();
    assert.notEqual(await forkCount(), remoteCount, 'a restart keeps the cached state');
    await stopFork();
    const f = await startFork({ refresh: true });
    assert.equal(f.devnet.fork!.head.round, remote.devnet.ledger.latestRound);
    assert.equal(await forkCount(), remoteCount, 'refreshed: the remote state now');
    assert.equal(f.devnet.ledger.latestRound, remote.devnet.ledger.latestRound, 'the local chain started over');
  });

  it('restarts offline from its cache; an uncached resource then fails naming the remote', async () => {
    const f = fork!;
    const sp = await f.algod.getTransactionParams().do();
    await send(f, [incCall(sp, 'before going offline')], [user]);
    const round = f.devnet.ledger.latestRound;
    const hash = f.devnet.ledger.stateHash();
    const url = remote.devnet.node.url;
    await stopFork();
    await remote.devnet.stop();
    const off = await startFork({ url });
    assert.equal(off.devnet.ledger.latestRound, round, 'the local chain replays from the journal over the cache');
    assert.deepEqual(off.devnet.ledger.stateHash(), hash);
    const sp2 = await off.algod.getTransactionParams().do();
    await send(off, [incCall(sp2, 'offline')], [user]);
    const unknown = algosdk.generateAccount();
    await assert.rejects(off.algod.accountInformation(unknown.addr).do(), (e: any) => {
      assert.equal(e.response?.status, 503);
      assert.match(new TextDecoder().decode(e.response?.body), new RegExp(`cannot reach the fork remote ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      return true;
    });
    assert.ok(existsSync(join(dir, 'fork-cache.bin')));
  });
});

describe('devnet fork: clear errors for a remote it cannot use', function () {
  this.timeout(60_000);
  let remote: RunningDevnet;
  before(async () => {
    remote = await startDevnet({ inMemory: true, kdf: TEST_SCRYPT });
  });
  after(async () => {
    await remote.stop();
  });
  const fork = (url: string, token?: string) => startDevnet({ inMemory: true, kdf: TEST_SCRYPT, fork: { url, ...(token ? { token } : {}) } });

  it('unreachable', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    await assert.rejects(
      fork(`http://127.0.0.1:${port}`),
      (e: Error) =>
        e instanceof ForkRemoteError && e.message.includes(`cannot reach the fork remote http://127.0.0.1:${port}`) && /Check the address/.test(e.message),
    );
  });

  it('wrong token', async () => {
    await assert.rejects(
      fork(remote.node.url, 'f'.repeat(64)),
      (e: Error) =>
        e instanceof ForkRemoteError && e.message.includes(remote.node.url) && /refused the API token/.test(e.message) && /--fork-token/.test(e.message),
    );
  });

  it('not an algod (the key-manager service)', async () => {
    await assert.rejects(
      fork(remote.keyManager.url, remote.keyManager.token),
      (e: Error) => e instanceof ForkRemoteError && e.message.includes(remote.keyManager.url) && /algod/.test(e.message),
    );
  });

  it('tealworks devnet --fork: parses its options and reports the fork', async () => {
    const p = parseDevnetArgs(['--fork', 'testnet', '--fork-token', 't0k', '--fork-refresh'], '/work');
    assert.deepEqual(p.options.fork, { url: 'testnet', token: 't0k', refresh: true });
    assert.equal(p.options.dataDir, '/work/.tealworks/fork');
    assert.equal(forkUrlOf('testnet'), PUBLIC_ENDPOINTS.testnet.node);
    assert.equal(forkUrlOf('mainnet'), PUBLIC_ENDPOINTS.mainnet.node);
    for (const bad of [['--fork-token', 'x'], ['--fork-refresh'], ['--fork', 'testnet', '--follow', 'http://x']]) {
      assert.throws(() => parseDevnetArgs(bad, '/tmp'), { name: 'UsageError' }, bad.join(' '));
    }
    let out = '';
    let err = '';
    const io = { cwd: '/tmp', stdout: (t: string) => (out += t), stderr: (t: string) => (err += t) } as unknown as CliIo;
    const code = await runDevnet(['--in-memory', '--ports', '0,0,0', '--fork', remote.node.url, '--fork-token', remote.node.token], io, () => ({
      promise: Promise.resolve('test'),
      cancel: () => {},
    }));
    assert.equal(code, 0, err);
    assert.match(
      out,
      new RegExp(
        `fork of ${remote.node.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(genesis ${remote.genesisId}\\) at its round ${remote.ledger.latestRound}; local rounds start at ${remote.ledger.latestRound + 1n}`,
      ),
    );
  });

  it('not a URL', async () => {
    await assert.rejects(fork('nowhere'), (e: Error) => e instanceof ForkRemoteError && /not a URL/.test(e.message));
  });
});
