import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { request } from 'undici';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { startDevnet, LOCALNET_GENESIS_ID, LOCALNET_TOKEN, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';
import { decodeMsgpack } from '../../../../sdk/src/encoding/msgpack.js';

/**
 * algosdk v3's own clients (Algodv2, Kmd, Indexer, waitForConfirmation, AtomicTransactionComposer)
 * against the devnet started with `localnet: true`, configured exactly as for AlgoKit LocalNet.
 */

export const ABI_APPROVAL = `#pragma version 10
txn ApplicationID
bz create
txn OnCompletion
int OptIn
==
bnz optin
txn NumAppArgs
bz bare
txna ApplicationArgs 0
method "add(uint64,uint64)uint64"
==
bnz add
err
create:
byte "greeting"
byte "hi"
app_global_put
int 1
return
optin:
txn Sender
byte "visits"
int 0
app_local_put
int 1
return
bare:
byte "bare calls fail"
log
err
add:
byte "calls"
byte "calls"
app_global_get
int 1
+
app_global_put
txn Sender
byte "visits"
txn Sender
byte "visits"
app_local_get
int 1
+
app_local_put
byte "sum"
txna ApplicationArgs 1
btoi
txna ApplicationArgs 2
btoi
+
itob
box_put
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
`;
const CLEAR = '#pragma version 10\nint 1\n';

async function waitForIndexer(indexer: algosdk.Indexer, round: bigint): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const h = await indexer.makeHealthCheck().do();
    if (BigInt(h.round) >= round) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`indexer did not reach round ${round}`);
}

describe('localnet: algosdk v3 clients against `devnet --localnet`', function () {
  this.timeout(30_000);
  let d: RunningDevnet;
  let algod: algosdk.Algodv2;
  let kmd: algosdk.Kmd;
  let indexer: algosdk.Indexer;
  let dispenser: algosdk.Account;
  const user = algosdk.generateAccount();
  const signerOf = (a: algosdk.Account) => algosdk.makeBasicAccountTransactionSigner(a);
  let sharedAppId = 0n;
  const raw = async (path: string) => {
    const r = await request(`${d.node.url}${path}`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
    return { status: r.statusCode, body: (await r.body.json()) as Record<string, unknown> };
  };

  const port = (url: string) => Number(new URL(url).port);
  async function send(txn: algosdk.Transaction, by: algosdk.Account): Promise<algosdk.modelsv2.PendingTransactionResponse> {
    const { txid } = await algod.sendRawTransaction(txn.signTxn(by.sk)).do();
    return algosdk.waitForConfirmation(algod, txid, 4);
  }

  before(async () => {
    d = await startDevnet({ inMemory: true, localnet: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT });
    algod = new algosdk.Algodv2(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.node.url));
    kmd = new algosdk.Kmd(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.keyManager.url));
    indexer = new algosdk.Indexer(LOCALNET_TOKEN, 'http://127.0.0.1', port(d.query.url));
  });
  after(async () => {
    await d?.stop();
  });

  it('looks like LocalNet: shared token, genesis id, Wallet1 dispenser held in the default kmd wallet', async () => {
    assert.equal(d.node.token, 'a'.repeat(64));
    assert.equal(d.keyManager.token, d.node.token);
    assert.equal(d.query.token, d.node.token);
    const params = await algod.getTransactionParams().do();
    assert.equal(params.genesisID, LOCALNET_GENESIS_ID);
    const genesis = JSON.parse(await algod.genesis().do()) as {
      id: string;
      network: string;
      alloc: { addr: string; comment: string; state: { algo: number } }[];
    };
    assert.equal(genesis.id, 'dockernet-v1');
    const wallet1 = genesis.alloc.find((a) => a.comment === 'Wallet1');
    assert.ok(wallet1, 'Wallet1 in /genesis');
    const wallets = (await kmd.listWallets()).wallets as { id: string; name: string }[];
    const w = wallets.find((x) => x.name === 'unencrypted-default-wallet');
    assert.ok(w);
    const handle = (await kmd.initWalletHandle(w.id, '')).wallet_handle_token as string;
    const keys = (await kmd.listKeys(handle)).addresses as string[];
    assert.ok(keys.includes(wallet1.addr));
    const exported = await kmd.exportKey(handle, '', wallet1.addr);
    const sk = exported.private_key as Uint8Array;
    dispenser = algosdk.mnemonicToSecretKey(algosdk.secretKeyToMnemonic(sk));
    assert.equal(dispenser.addr.toString(), wallet1.addr);
    // public endpoints need no token, others refuse a wrong one
    const bare = new algosdk.Algodv2('', 'http://127.0.0.1', port(d.node.url));
    await bare.healthCheck().do();
    await bare.ready().do();
    assert.equal((await bare.versionsCheck().do()).genesisId, LOCALNET_GENESIS_ID);
    await assert.rejects(bare.status().do(), (e: Error & { response?: { status: number } }) => e.response?.status === 401);
  });

  it('status, wait-for-block-after, supply, versions', async () => {
    const s = await algod.status().do();
    assert.equal(typeof s.lastRound, 'bigint');
    assert.ok(s.lastVersion.length > 0);
    const supply = await algod.supply().do();
    assert.ok(supply.totalMoney > 0n);
    // wait-for-block-after the current round returns once a block is made
    const waiting = algod.statusAfterBlock(Number(s.lastRound)).do();
    const sp = await algod.getTransactionParams().do();
    await send(
      algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: dispenser.addr, receiver: dispenser.addr, amount: 0, suggestedParams: sp }),
      dispenser,
    );
    assert.ok((await waiting).lastRound > s.lastRound);
  });

  it('a payment: sent raw, confirmed with waitForConfirmation, visible in the account and the pending record', async () => {
    const sp = await algod.getTransactionParams().do();
    const txn = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
      sender: dispenser.addr,
      receiver: user.addr,
      amount: 50_000_000,
      note: new TextEncoder().encode('hello'),
      suggestedParams: sp,
    });
    const confirmed = await send(txn, dispenser);
    assert.ok(confirmed.confirmedRound! > 0n);
    assert.equal(confirmed.poolError, '');
    assert.equal(confirmed.txn.txn.payment!.amount, 50_000_000n);
    const acct = await algod.accountInformation(user.addr).do();
    assert.equal(acct.amount, 50_000_000n);
    assert.equal(acct.minBalance, 100_000n);
    assert.equal(acct.status, 'Offline');
    const pending = await algod.pendingTransactionInformation(txn.txID()).do();
    assert.equal(pending.confirmedRound, confirmed.confirmedRound);
    // algod's error for an overspend, status 400
    const broke = algosdk.generateAccount();
    const bad = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: broke.addr, receiver: user.addr, amount: 1, suggestedParams: sp });
    await assert.rejects(algod.sendRawTransaction(bad.signTxn(broke.sk)).do(), (e: Error & { response?: { status: number; body?: { message?: string } } }) => {
      assert.equal(e.response?.status, 400);
      assert.match(e.message, /TransactionPool\.Remember: transaction [A-Z2-7]{52}: overspend/);
      return true;
    });
    await assert.rejects(
      algod.pendingTransactionInformation('A'.repeat(52)).do(),
      (e: Error & { response?: { status: number } }) => e.response?.status === 404,
    );
  });

  it('an asset created, opted in, transferred, frozen, clawed back and destroyed', async () => {
    const sp = await algod.getTransactionParams().do();
    const d0 = dispenser.addr;
    const created = await send(
      algosdk.makeAssetCreateTxnWithSuggestedParamsFromObject({
        sender: d0,
        total: 1000n,
        decimals: 0,
        defaultFrozen: false,
        unitName: 'TW',
        assetName: 'Teal',
        assetURL: 'https://t.example',
        manager: d0,
        reserve: d0,
        freeze: d0,
        clawback: d0,
        suggestedParams: sp,
      }),
      dispenser,
    );
    const assetId = created.assetIndex!;
    assert.ok(assetId > 0n);
    const asset = await algod.getAssetByID(assetId).do();
    assert.equal(asset.params!.total, 1000n);
    assert.equal(asset.params!.unitName, 'TW');
    assert.equal(asset.params!.clawback, d0.toString());
    await send(
      algosdk.makeAssetTransferTxnWithSuggestedParamsFromObject({
        sender: user.addr,
        receiver: user.addr,
        assetIndex: assetId,
        amount: 0,
        suggestedParams: sp,
      }),
      user,
    );
    await send(
      algosdk.makeAssetTransferTxnWithSuggestedParamsFromObject({ sender: d0, receiver: user.addr, assetIndex: assetId, amount: 100, suggestedParams: sp }),
      dispenser,
    );
    let holding = await algod.accountAssetInformation(user.addr, assetId).do();
    assert.equal(holding.assetHolding!.amount, 100n);
    assert.equal(holding.assetHolding!.isFrozen, false);
    await send(
      algosdk.makeAssetFreezeTxnWithSuggestedParamsFromObject({ sender: d0, freezeTarget: user.addr, assetIndex: assetId, frozen: true, suggestedParams: sp }),
      dispenser,
    );
    holding = await algod.accountAssetInformation(user.addr, assetId).do();
    assert.equal(holding.assetHolding!.isFrozen, true);
    const blocked = algosdk.makeAssetTransferTxnWithSuggestedParamsFromObject({
      sender: user.addr,
      receiver: d0,
      assetIndex: assetId,
      amount: 1,
      suggestedParams: sp,
    });
    await assert.rejects(algod.sendRawTransaction(blocked.signTxn(user.sk)).do(), /frozen/);
    await send(
      algosdk.makeAssetTransferTxnWithSuggestedParamsFromObject({
        sender: d0,
        assetSender: user.addr,
        receiver: d0,
        assetIndex: assetId,
        amount: 100,
        suggestedParams: sp,
      }),
      dispenser,
    );
    holding = await algod.accountAssetInformation(user.addr, assetId).do();
    assert.equal(holding.assetHolding!.amount, 0n);
    const page = await algod.accountAssetsInformation(user.addr).do();
    assert.equal(page.assetHoldings!.length, 1);
    assert.equal(page.assetHoldings![0]!.assetParams!.unitName, 'TW');
    await send(algosdk.makeAssetDestroyTxnWithSuggestedParamsFromObject({ sender: d0, assetIndex: assetId, suggestedParams: sp }), dispenser);
    await assert.rejects(algod.getAssetByID(assetId).do(), (e: Error & { response?: { status: number } }) => {
      assert.equal(e.response?.status, 404);
      assert.match(e.message, /asset does not exist/);
      return true;
    });
  });

  describe('an app from /v2/teal/compile', () => {
    let appId: bigint;
    const method = algosdk.ABIMethod.fromSignature('add(uint64,uint64)uint64');

    it('compiles with a source map and disassembles', async () => {
      const compiled = await algod.compile(ABI_APPROVAL).sourcemap(true).do();
      assert.ok(compiled.hash.length === 58);
      const program = new Uint8Array(Buffer.from(compiled.result, 'base64'));
      assert.equal(program[0], 10);
      // algosdk leaves the source map undecoded (an UntypedValue over a Map)
      const map = (compiled.sourcemap as unknown as { data: Map<string, unknown> }).data;
      assert.equal(map.get('version'), 3n);
      assert.deepEqual(map.get('sources'), ['<body>']);
      assert.ok((map.get('mappings') as string).split(';').length > 10);
      const dis = await algod.disassemble(program).do();
      assert.match(dis.result, /^#pragma version 10/);
      await assert.rejects(algod.compile('#pragma version 10\nnot_an_opcode\n').do(), (e: Error & { response?: { status: number } }) => {
        assert.equal(e.response?.status, 400);
        assert.match(e.message, /2: unknown opcode: not_an_opcode/);
        return true;
      });
    });

    it('creates it, opts in, calls an ABI method with a typed return through the ATC; state through Algodv2 and Indexer agrees', async () => {
      const sp = await algod.getTransactionParams().do();
      const approval = new Uint8Array(Buffer.from((await algod.compile(ABI_APPROVAL).do()).result, 'base64'));
      const clear = new Uint8Array(Buffer.from((await algod.compile(CLEAR).do()).result, 'base64'));
      const created = await send(
        algosdk.makeApplicationCreateTxnFromObject({
          sender: dispenser.addr,
          approvalProgram: approval,
          clearProgram: clear,
          numGlobalInts: 1,
          numGlobalByteSlices: 1,
          numLocalInts: 1,
          numLocalByteSlices: 0,
          onComplete: algosdk.OnApplicationComplete.NoOpOC,
          suggestedParams: sp,
        }),
        dispenser,
      );
      appId = created.applicationIndex!;
      sharedAppId = appId;
      assert.ok(appId > 0n);
      assert.equal(created.globalStateDelta!.length, 1);
      const appAddr = algosdk.getApplicationAddress(appId);
      await send(
        algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: dispenser.addr, receiver: appAddr, amount: 1_000_000, suggestedParams: sp }),
        dispenser,
      );
      await send(algosdk.makeApplicationOptInTxnFromObject({ sender: user.addr, appIndex: appId, suggestedParams: sp }), user);

      const atc = new algosdk.AtomicTransactionComposer();
      atc.addMethodCall({
        appID: appId,
        method,
        methodArgs: [40, 2],
        sender: user.addr,
        signer: signerOf(user),
        suggestedParams: sp,
        boxes: [{ appIndex: 0, name: new TextEncoder().encode('sum') }],
      });
      const result = await atc.execute(algod, 4);
      assert.equal(result.methodResults[0]!.returnValue, 42n);
      assert.equal(result.methodResults[0]!.txInfo!.logs!.length, 1);
      // The block's logs name the app that was called (not 0: it already existed).
      const blockLogs = await raw(`/v2/blocks/${result.confirmedRound}/logs`);
      assert.equal(blockLogs.status, 200);
      assert.deepEqual(
        (blockLogs.body.logs as { 'application-index': number; txId: string }[]).map((l) => [l['application-index'], l.txId]),
        [[Number(appId), result.txIDs[0]]],
      );
      assert.equal(result.methodResults[0]!.txInfo!.localStateDelta!.length, 1);

      const app = await algod.getApplicationByID(appId).do();
      const globals = new Map(app.params!.globalState!.map((kv) => [Buffer.from(kv.key).toString(), kv.value]));
      assert.equal(globals.get('calls')!.uint, 1n);
      assert.equal(Buffer.from(globals.get('greeting')!.bytes).toString(), 'hi');
      const local = await algod.accountApplicationInformation(user.addr, appId).do();
      assert.equal(local.appLocalState!.keyValue![0]!.value.uint, 1n);
      const box = await algod.getApplicationBoxByName(appId, new TextEncoder().encode('sum')).do();
      assert.equal(Buffer.from(box.value).readBigUInt64BE(), 42n);
      const boxes = await algod.getApplicationBoxes(appId).do();
      assert.deepEqual(
        boxes.boxes.map((b) => Buffer.from(b.name).toString()),
        ['sum'],
      );

      const round = (await algod.status().do()).lastRound;
      await waitForIndexer(indexer, round);
      const iapp = await indexer.lookupApplications(appId).do();
      const iglobals = new Map(iapp.application!.params.globalState!.map((kv) => [Buffer.from(kv.key).toString(), kv.value]));
      assert.equal(iglobals.size, globals.size);
      for (const [k, v] of globals) {
        assert.equal(iglobals.get(k)!.uint, v.uint, k);
        assert.deepEqual(Buffer.from(iglobals.get(k)!.bytes), Buffer.from(v.bytes), k);
      }
      const ilocal = await indexer.lookupAccountAppLocalStates(user.addr).applicationID(appId).do();
      assert.equal(ilocal.appsLocalStates[0]!.keyValue![0]!.value.uint, local.appLocalState!.keyValue![0]!.value.uint);
      const ibox = await indexer.lookupApplicationBoxByIDandName(appId, new TextEncoder().encode('sum')).do();
      assert.deepEqual(Buffer.from(ibox.value), Buffer.from(box.value));
      const iacct = await indexer.lookupAccountByID(user.addr).do();
      const acct = await algod.accountInformation(user.addr).do();
      assert.equal(iacct.account.amount, acct.amount);
      assert.equal(iacct.account.totalAppsOptedIn, acct.totalAppsOptedIn);
    });

    it('simulates a failing group and reads failedAt', async () => {
      const sp = await algod.getTransactionParams().do();
      const atc = new algosdk.AtomicTransactionComposer();
      atc.addTransaction({
        txn: algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: user.addr, receiver: user.addr, amount: 0, suggestedParams: sp }),
        signer: signerOf(user),
      });
      atc.addTransaction({
        txn: algosdk.makeApplicationNoOpTxnFromObject({ sender: user.addr, appIndex: appId, suggestedParams: sp }),
        signer: signerOf(user),
      });
      const sim = await atc.simulate(algod, new algosdk.modelsv2.SimulateRequest({ txnGroups: [], allowEmptySignatures: true }));
      const g = sim.simulateResponse.txnGroups[0]!;
      assert.deepEqual(g.failedAt, [1]);
      assert.match(g.failureMessage!, /logic eval error/);
      // the same group sent for real: algod's 400 with the logic error
      const signed = await atc.gatherSignatures();
      await assert.rejects(algod.sendRawTransaction(signed).do(), (e: Error & { response?: { status: number } }) => {
        assert.equal(e.response?.status, 400);
        assert.match(e.message, /logic eval error: err opcode executed/);
        return true;
      });
    });

    it('fetches blocks in msgpack and JSON, header only, txids and hash', async () => {
      const round = (await algod.status().do()).lastRound;
      const block = await algod.block(round).do();
      assert.equal(block.block.header.round, round);
      assert.equal(block.block.header.genesisID, LOCALNET_GENESIS_ID);
      assert.ok(block.block.payset.length >= 1);
      const txids = await algod.getBlockTxids(round).do();
      assert.equal(txids.blocktxids.length, block.block.payset.length);
      const hash = await algod.getBlockHash(round).do();
      assert.equal(hash.blockhash.length, 52);
      const base = `${d.node.url}/v2/blocks/${round}`;
      const json = (await (await request(`${base}?format=json`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } })).body.json()) as {
        block: { rnd: number; gen: string; txns: unknown[] };
      };
      assert.equal(BigInt(json.block.rnd), round);
      assert.equal(json.block.gen, LOCALNET_GENESIS_ID);
      assert.equal(json.block.txns.length, block.block.payset.length);
      // Go strings (TEAL keys) are text in the node's JSON; addresses are in their text form.
      const stib = json.block.txns[0] as { dt?: { gd?: Record<string, { at: number; ui?: number }> }; txn: { snd: string } };
      assert.equal(stib.dt?.gd?.calls?.ui, 1);
      assert.equal(stib.txn.snd, user.addr.toString());
      const header = await request(`${base}?format=msgpack&header-only=true`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
      const decoded = decodeMsgpack(new Uint8Array(await header.body.arrayBuffer())) as { block: { rnd: bigint; txns?: unknown } };
      assert.equal(BigInt(decoded.block.rnd), round);
      assert.equal(decoded.block.txns, undefined);
      // Accept negotiation without ?format
      const viaAccept = await request(base, { headers: { 'x-algo-api-token': LOCALNET_TOKEN, accept: 'application/msgpack' } });
      assert.equal(viaAccept.headers['content-type'], 'application/msgpack');
      await viaAccept.body.arrayBuffer();
      await assert.rejects(algod.block(round + 100n).do(), (e: Error & { response?: { status: number } }) => e.response?.status === 404);
    });
  });

  describe('afterwards', () => {
    it('dev-mode block timestamp offset', async () => {
      await algod.setBlockOffsetTimestamp(3600).do();
      assert.equal(Number((await algod.getBlockOffsetTimestamp().do()).offset), 3600);
      const before = (await algod.block((await algod.status().do()).lastRound).do()).block.header.timestamp;
      const sp = await algod.getTransactionParams().do();
      const c = await send(
        algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: dispenser.addr, receiver: dispenser.addr, amount: 0, suggestedParams: sp }),
        dispenser,
      );
      const after = (await algod.block(c.confirmedRound!).do()).block.header.timestamp;
      assert.equal(after, before + 3600n);
      await algod.setBlockOffsetTimestamp(0).do();
      assert.equal(Number((await algod.getBlockOffsetTimestamp().do()).offset), 0);
    });

    it("algod's error statuses and {message} bodies; box names in encoding:value form", async () => {
      assert.deepEqual(await raw('/v2/accounts/NOTANADDRESS'), { status: 400, body: { message: 'failed to parse the address' } });
      const denied = await request(`${d.node.url}/v2/status`, { headers: { 'x-algo-api-token': 'b'.repeat(64) } });
      assert.equal(denied.statusCode, 401);
      assert.deepEqual(await denied.body.json(), { message: 'Invalid API Token' });
      // The specified /v1 operations keep their empty 401.
      const deniedV1 = await request(`${d.node.url}/v1/status`, { headers: { 'x-node-api-token': 'b'.repeat(64) } });
      assert.equal(deniedV1.statusCode, 401);
      assert.equal(await deniedV1.body.text(), '');
      assert.deepEqual(await raw(`/v2/accounts/${dispenser.addr}?exclude=bogus`), { status: 400, body: { message: 'failed to parse exclude' } });
      assert.deepEqual(await raw(`/v2/accounts/${dispenser.addr}?format=xml`), { status: 400, body: { message: 'failed to parse the format option' } });
      assert.deepEqual(await raw('/v2/assets/999999'), { status: 404, body: { message: 'asset does not exist' } });
      assert.deepEqual(await raw('/v2/applications/999999'), { status: 404, body: { message: 'application does not exist' } });
      assert.deepEqual(await raw(`/v2/accounts/${dispenser.addr}/assets/999999`), { status: 404, body: { message: 'account asset info not found' } });
      assert.deepEqual(await raw(`/v2/accounts/${dispenser.addr}/applications/999999`), {
        status: 404,
        body: { message: 'account application info not found' },
      });
      assert.deepEqual(await raw('/v2/transactions/pending/nope'), { status: 400, body: { message: 'no valid transaction ID was specified' } });
      const byStr = await raw(`/v2/applications/${sharedAppId}/box?name=str:sum`);
      assert.equal(byStr.status, 200);
      assert.equal(byStr.body.name, Buffer.from('sum').toString('base64'));
      assert.equal(BigInt(byStr.body.round as number) > 0n, true);
      assert.deepEqual(await raw(`/v2/applications/${sharedAppId}/box?name=str:none`), { status: 404, body: { message: 'box not found' } });
      const bad = await raw(`/v2/applications/${sharedAppId}/box?name=sum`);
      assert.equal(bad.status, 400);
      assert.match(String(bad.body.message), /encoding:value/);
      const paged = await raw(`/v2/applications/${sharedAppId}/boxes?limit=1&include=values`);
      assert.equal((paged.body.boxes as unknown[]).length, 1);
      assert.equal((paged.body.boxes as { value: string }[])[0]!.value.length > 0, true);
    });

    it("account in msgpack is the node's raw account record", async () => {
      const r = await request(`${d.node.url}/v2/accounts/${dispenser.addr}?format=msgpack`, { headers: { 'x-algo-api-token': LOCALNET_TOKEN } });
      assert.equal(r.headers['content-type'], 'application/msgpack');
      const rec = decodeMsgpack(new Uint8Array(await r.body.arrayBuffer()), { maps: true }) as Map<string, unknown>;
      const json = await algod.accountInformation(dispenser.addr).do();
      assert.equal(BigInt(rec.get('algo') as number | bigint), json.amount);
      const appp = rec.get('appp') as Map<unknown, Map<string, unknown>>;
      assert.ok([...appp.keys()].some((k) => BigInt(k as number) === sharedAppId));
      assert.ok(rec.has('tsch'));
    });

    it('pending lists and account filters', async () => {
      const all = await algod.pendingTransactionsInformation().do();
      assert.equal(Number(all.totalTransactions), 0);
      const mine = await algod.pendingTransactionByAddress(user.addr).do();
      assert.deepEqual(mine.topTransactions, []);
      const acct = await algod.accountInformation(dispenser.addr).exclude('all').do();
      assert.equal(acct.createdApps, undefined);
      assert.ok(acct.totalCreatedApps >= 1);
      const full = await algod.accountInformation(dispenser.addr).do();
      assert.ok(full.createdApps!.length >= 1);
      assert.ok(full.createdApps![0]!.params!.approvalProgram.length > 0);
      const noParams = await algod.accountInformation(dispenser.addr).exclude('created-apps-params').do();
      assert.equal(noParams.createdApps![0]!.params, undefined);
    });
  });
});
