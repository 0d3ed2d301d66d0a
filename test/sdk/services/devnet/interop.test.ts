import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { request } from 'undici';
import { fromBase64 } from '../../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { toHex } from '../../../../sdk/src/encoding/hex.js';
import { decodeMsgpack, encodeMsgpack, MsgKeep, MsgStr } from '../../../../sdk/src/encoding/msgpack.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import { TEST_SCRYPT } from '../../../../sdk/src/services/kmd/index.js';
import { startDevnet, type RunningDevnet } from '../../../../sdk/src/services/devnet/index.js';
import { decodeBlock, encodeBlock, Ledger } from '../../../../sdk/src/ledger/index.js';
import { Ed25519KeyPair } from '../../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { makeAppCreateTxn } from '../../../../sdk/src/txn/builders.js';
import { signTransaction } from '../../../../sdk/src/txn/sign.js';

/** algosdk decodes blocks as the node's `/v2/blocks/{round}` answer: `{block: …}`. */
function asBlockResponse(raw: Uint8Array): algosdk.modelsv2.BlockResponse {
  const wrapped = new Uint8Array(7 + raw.length);
  wrapped.set([0x81, 0xa5, ...utf8('block')]);
  wrapped.set(raw, 7);
  return algosdk.decodeMsgpack(wrapped, algosdk.modelsv2.BlockResponse);
}

// Writes a global and logs on every call, creates a box on calls after creation (the app account
// has no balance before); "fail" as first argument rejects.
const APPROVAL = `#pragma version 10
txn NumAppArgs
bz ok
txna ApplicationArgs 0
byte "fail"
==
bz ok
err
ok:
byte "hits"
byte "hits"
app_global_get
int 1
+
app_global_put
txn ApplicationID
bz nobox
byte "box1"
int 16
box_create
pop
nobox:
byte "hello from the devnet"
log
int 1
`;
const CLEAR = '#pragma version 10\nint 1\n';

/** algosdk's clients take custom token headers as an object. */
const header = (name: string, token: string) => ({ [name]: token });

describe('devnet: algosdk v3 Kmd, Indexer and simulate against an in-process devnet', function () {
  this.timeout(30_000);
  let d: RunningDevnet;
  let kmd: algosdk.Kmd;
  let indexer: algosdk.Indexer;
  let algod: algosdk.Algodv2;
  let handle: string;
  let funder: string;
  let alice: string;
  let bob: string;
  let appId: bigint;
  let callTxid: string;
  let appCall: (args: Uint8Array[], sender?: string) => Promise<algosdk.Transaction>;

  const port = (url: string) => Number(new URL(url).port);
  const host = (url: string) => `${new URL(url).protocol}//${new URL(url).hostname}`;

  async function params(): Promise<algosdk.SuggestedParams> {
    const res = await request(`${d.node.url}/v1/transactions/params`, { headers: header('X-Node-API-Token', d.node.token) });
    const p = (await res.body.json()) as { genesisID: string; genesishashb64: string; lastRound: number; minFee: number };
    return {
      fee: BigInt(p.minFee),
      minFee: BigInt(p.minFee),
      flatFee: true,
      firstValid: BigInt(p.lastRound),
      lastValid: BigInt(p.lastRound) + 1000n,
      genesisID: p.genesisID,
      genesisHash: fromBase64(p.genesishashb64),
    };
  }

  /** Submits signed bytes through our node service's /v1 and returns the confirmed round. */
  async function submit(signed: Uint8Array): Promise<{ txId: string; round: bigint }> {
    const res = await request(`${d.node.url}/v1/transactions`, {
      method: 'POST',
      headers: { ...header('X-Node-API-Token', d.node.token), 'content-type': 'application/x-binary' },
      body: signed,
    });
    const text = await res.body.text();
    assert.equal(res.statusCode, 200, text);
    const body = JSON.parse(text) as { txId?: string };
    const t = d.ledger.transaction(body.txId!);
    assert.ok(t, 'dev mode: confirmed before the submission returns');
    return { txId: body.txId!, round: t.round };
  }

  before(async () => {
    d = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 2, kdf: TEST_SCRYPT });
    kmd = new algosdk.Kmd(header('X-KMD-API-Token', d.keyManager.token) as never, host(d.keyManager.url), port(d.keyManager.url));
    indexer = new algosdk.Indexer(header('X-Indexer-API-Token', d.query.token) as never, host(d.query.url), port(d.query.url));
    algod = new algosdk.Algodv2(header('X-Node-API-Token', d.node.token) as never, host(d.node.url), port(d.node.url));
    appCall = async (args, sender = alice) =>
      algosdk.makeApplicationNoOpTxnFromObject({
        sender,
        appIndex: appId,
        appArgs: args,
        boxes: [{ appIndex: 0, name: utf8('box1') }],
        suggestedParams: await params(),
      });
  });
  after(async () => {
    await d?.stop();
  });

  it('creates a wallet and keys with algosdk Kmd, funds them from the default wallet, signs with Kmd signTransaction', async () => {
    const wallets = (await kmd.listWallets()) as { wallets: { id: string; name: string }[] };
    const def = wallets.wallets.find((w) => w.name === d.wallet.name);
    assert.ok(def, 'the default wallet is listed');
    const defHandle = ((await kmd.initWalletHandle(def.id, d.wallet.password)) as { wallet_handle_token: string }).wallet_handle_token;
    const defKeys = ((await kmd.listKeys(defHandle)) as { addresses: string[] }).addresses;
    assert.deepEqual(defKeys.slice(0, 2).sort(), d.accounts.map((a) => a.address).sort());
    funder = d.accounts[0]!.address;

    const created = (await kmd.createWallet('interop', 'pw', undefined, 'sqlite')) as { wallet: { id: string; name: string } };
    assert.equal(created.wallet.name, 'interop');
    handle = ((await kmd.initWalletHandle(created.wallet.id, 'pw')) as { wallet_handle_token: string }).wallet_handle_token;
    alice = ((await kmd.generateKey(handle)) as { address: string }).address;
    bob = ((await kmd.generateKey(handle)) as { address: string }).address;
    assert.ok(algosdk.isValidAddress(alice) && algosdk.isValidAddress(bob));

    for (const to of [alice, bob]) {
      const pay = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: funder, receiver: to, amount: 10_000_000n, suggestedParams: await params() });
      const signed = (await kmd.signTransaction(defHandle, d.wallet.password, pay)) as Uint8Array;
      const { txId } = await submit(signed);
      assert.equal(txId, pay.txID());
    }
    assert.equal(d.ledger.balance(alice), 10_000_000n);

    const back = algosdk.makePaymentTxnWithSuggestedParamsFromObject({ sender: alice, receiver: bob, amount: 1234n, suggestedParams: await params() });
    const signed = (await kmd.signTransaction(handle, 'pw', back)) as Uint8Array;
    assert.equal(algosdk.decodeSignedTransaction(signed).txn.txID(), back.txID());
    await submit(signed);
    assert.equal(d.ledger.balance(bob), 10_001_234n);
  });

  it('creates and calls an app (global state, box, log), then algosdk Indexer finds txn, account, app, boxes and logs', async () => {
    const create = algosdk.makeApplicationCreateTxnFromObject({
      sender: alice,
      approvalProgram: assemble(APPROVAL).program,
      clearProgram: assemble(CLEAR).program,
      numGlobalInts: 1,
      numGlobalByteSlices: 0,
      numLocalInts: 0,
      numLocalByteSlices: 0,
      onComplete: algosdk.OnApplicationComplete.NoOpOC,
      boxes: [{ appIndex: 0, name: utf8('box1') }],
      suggestedParams: await params(),
    });
    const created = await submit((await kmd.signTransaction(handle, 'pw', create)) as Uint8Array);
    appId = d.ledger.transaction(created.txId)!.ad.createdAppId!;
    assert.ok(appId > 0n);
    // The app account pays for its box.
    const fund = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
      sender: alice,
      receiver: algosdk.getApplicationAddress(appId),
      amount: 1_000_000n,
      suggestedParams: await params(),
    });
    await submit((await kmd.signTransaction(handle, 'pw', fund)) as Uint8Array);
    const call = await appCall([utf8('go')]);
    const called = await submit((await kmd.signTransaction(handle, 'pw', call)) as Uint8Array);
    callTxid = called.txId;

    const t = await indexer.lookupTransactionByID(callTxid).do();
    assert.equal(t.transaction.id, callTxid);
    assert.equal(t.transaction.txType, 'appl');
    assert.equal(t.transaction.confirmedRound, called.round);
    assert.equal(t.transaction.applicationTransaction?.applicationId, appId);
    assert.deepEqual(t.transaction.logs, [utf8('hello from the devnet')]);

    const a = await indexer.lookupAccountByID(alice).do();
    assert.equal(a.account.address.toString(), alice);
    assert.equal(a.account.amount, d.ledger.balance(alice));
    assert.equal(a.account.createdApps?.[0]?.id, appId);

    const app = await indexer.lookupApplications(appId).do();
    assert.equal(app.application?.id, appId);
    const hits = app.application?.params.globalState?.find((kv) => new TextDecoder().decode(kv.key) === 'hits');
    assert.equal(hits?.value.uint, 2n, 'create and call each add one');

    const boxes = await indexer.searchForApplicationBoxes(appId).do();
    assert.deepEqual(
      boxes.boxes.map((b) => new TextDecoder().decode(b.name)),
      ['box1'],
    );
    const box = await indexer.lookupApplicationBoxByIDandName(appId, utf8('box1')).do();
    assert.equal(box.value.length, 16);

    const logs = await indexer.lookupApplicationLogs(appId).do();
    assert.ok(logs.logData && logs.logData.length >= 2);
    const byTxn = logs.logData!.find((l) => l.txid === callTxid);
    assert.deepEqual(byTxn?.logs, [utf8('hello from the devnet')]);

    const search = await indexer.searchForTransactions().address(alice).txType('appl').do();
    assert.deepEqual(search.transactions.map((x) => x.id).sort(), [created.txId, callTxid].sort());
  });

  it('algosdk decodes the raw block of the app call (/v1/block/{round}?raw=1): logs and TEAL keys as str', async () => {
    const round = d.ledger.transaction(callTxid)!.round;
    const res = await request(`${d.node.url}/v1/block/${round}?raw=1`, { headers: header('X-Node-API-Token', d.node.token) });
    assert.equal(res.statusCode, 200);
    const blk = asBlockResponse(new Uint8Array(await res.body.arrayBuffer())).block;
    assert.equal(blk.header.round, round);
    const ed = blk.payset[0]!.signedTxn.applyData.evalDelta!;
    assert.deepEqual(ed.logs, [utf8('hello from the devnet')]);
    assert.deepEqual([...ed.globalDelta.keys()], [utf8('hits')]);
    assert.equal([...ed.globalDelta.values()][0]!.uint, 2n);
  });

  it("algosdk's simulateTransactions (msgpack) decodes our response: logs, empty-signature groups and failedAt", async () => {
    const unsigned = await appCall([utf8('sim')]);
    const req = new algosdk.modelsv2.SimulateRequest({
      txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: [new algosdk.SignedTransaction({ txn: unsigned })] })],
      allowEmptySignatures: true,
    });
    const res = await algod.simulateTransactions(req).do();
    assert.equal(Number(res.version), 2);
    assert.equal(res.lastRound, d.ledger.latestRound);
    const r0 = res.txnGroups[0]!;
    assert.equal(r0.failedAt, undefined);
    assert.deepEqual(r0.txnResults[0]!.txnResult.logs, [utf8('hello from the devnet')]);
    assert.equal(r0.txnResults[0]!.txnResult.poolError, '');
    assert.ok(r0.appBudgetConsumed && r0.appBudgetConsumed > 0);
    assert.deepEqual(res.evalOverrides?.allowEmptySignatures, true);
    assert.equal(r0.txnResults[0]!.txnResult.txn.txn.txID(), unsigned.txID());

    // Signed with algosdk's Kmd and simulated without overrides.
    const signed = algosdk.decodeSignedTransaction((await kmd.signTransaction(handle, 'pw', await appCall([utf8('signed')]))) as Uint8Array);
    const ok = await algod
      .simulateTransactions(new algosdk.modelsv2.SimulateRequest({ txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: [signed] })] }))
      .do();
    assert.equal(ok.txnGroups[0]!.failedAt, undefined);
    assert.equal(ok.evalOverrides, undefined);
    assert.equal(d.ledger.transaction(signed.txn.txID()), undefined, 'simulate commits nothing');

    // A failing group: the second transaction hits `err`.
    const t1 = await appCall([utf8('first')]);
    const t2 = await appCall([utf8('fail')], bob);
    algosdk.assignGroupID([t1, t2]);
    const bad = await algod
      .simulateTransactions(
        new algosdk.modelsv2.SimulateRequest({
          txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: [t1, t2].map((txn) => new algosdk.SignedTransaction({ txn })) })],
          allowEmptySignatures: true,
        }),
      )
      .do();
    const g = bad.txnGroups[0]!;
    assert.deepEqual(g.failedAt, [1]);
    assert.match(g.failureMessage ?? '', /err opcode executed/);
    assert.deepEqual(g.txnResults[0]!.txnResult.logs, [utf8('hello from the devnet')]);
  });

  it('our msgpack simulate response carries pool-error as the node does (always present, "")', async () => {
    const req = new algosdk.modelsv2.SimulateRequest({
      txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: [new algosdk.SignedTransaction({ txn: await appCall([utf8('raw')]) })] })],
      allowEmptySignatures: true,
    });
    const res = await request(`${d.node.url}/v2/transactions/simulate?format=msgpack`, {
      method: 'POST',
      headers: { ...header('X-Node-API-Token', d.node.token), 'content-type': 'application/msgpack' },
      body: algosdk.encodeMsgpack(req),
    });
    assert.equal(res.statusCode, 200);
    const body = decodeMsgpack(new Uint8Array(await res.body.arrayBuffer())) as {
      'txn-groups': { 'txn-results': { 'txn-result': Record<string, unknown> }[] }[];
    };
    const r = body['txn-groups'][0]!['txn-results'][0]!['txn-result'];
    assert.equal(r['pool-error'], '');
    assert.deepEqual(r.logs, [utf8('hello from the devnet')], 'logs are [][]byte in the node model: bin');
    assert.deepEqual(
      (r['global-state-delta'] as { key: string }[]).map((x) => x.key),
      [Buffer.from('hits').toString('base64')],
      'delta keys are base64 text even in msgpack',
    );
  });
});

describe('msgpack response helpers: MsgKeep and MsgStr', () => {
  it('block bytes for clients write non-UTF-8 logs and keys as str (algosdk reads them exactly); the internal form reads back losslessly', () => {
    const k = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(7));
    const sender = new Address(k.publicKey);
    const ledger = new Ledger({ genesisAccounts: [{ address: sender, amount: 10n ** 9n }] });
    const program = assemble('#pragma version 10\nbyte 0xff00fe\nlog\nbyte 0xc3\nbyte 0xfffe\napp_global_put\nint 1').program;
    const txn = makeAppCreateTxn({
      sender,
      approvalProgram: program,
      clearProgram: assemble(CLEAR).program,
      globalSchema: { numUints: 0, numByteSlices: 1 },
      suggestedParams: { fee: 1000n, flatFee: true, firstValid: 0n, lastValid: 100n, genesisId: ledger.genesisId, genesisHash: ledger.genesisHash },
    });
    const { round } = ledger.submit([signTransaction(txn, k)]);
    const block = ledger.block(round);
    const node = encodeBlock(block, { goStrings: true });
    // fixstr headers (0xa3 / 0xa1 / 0xa2) where the internal form has bin (0xc4 …).
    assert.ok(toHex(node).includes('a3ff00fe') && toHex(node).includes('a1c3') && toHex(node).includes('a2fffe'));
    const ed = asBlockResponse(node).block.payset[0]!.signedTxn.applyData.evalDelta!;
    assert.deepEqual(ed.logs, [new Uint8Array([0xff, 0x00, 0xfe])]);
    assert.deepEqual([...ed.globalDelta.keys()], [new Uint8Array([0xc3])]);
    assert.deepEqual([...ed.globalDelta.values()][0]!.bytes, new Uint8Array([0xff, 0xfe]));
    const internal = encodeBlock(block);
    assert.ok(toHex(internal).includes('c403ff00fe'));
    const back = decodeBlock(internal);
    assert.deepEqual(back.txns[0]!.ad.logs, [new Uint8Array([0xff, 0x00, 0xfe])]);
    assert.deepEqual([...back.txns[0]!.ad.globalDelta.values()][0]!.key, new Uint8Array([0xc3]));
    assert.deepEqual(back.hash, block.hash);
  });

  it('MsgKeep writes a zero value the encoder would omit; MsgStr writes bytes under a str header', () => {
    assert.equal(toHex(encodeMsgpack({ a: new MsgKeep(''), b: '', c: new MsgStr(new Uint8Array([0xff, 0x00])) })), '82a161a0a163a2ff00');
    assert.equal(toHex(encodeMsgpack({ k: new MsgKeep(0), z: 0 })), '81a16b00');
    assert.equal(toHex(encodeMsgpack({ e: new MsgStr(new Uint8Array(0)) })), '80', 'an empty MsgStr is omitted like ""');
    assert.equal(toHex(encodeMsgpack([new MsgStr(utf8('hi'))])), '91a26869');
    const long = new Uint8Array(40).fill(0x61);
    assert.equal(toHex(encodeMsgpack(new MsgStr(long))).slice(0, 4), 'd928');
    assert.equal(decodeMsgpack(encodeMsgpack(new MsgStr(long))), 'a'.repeat(40));
  });
});
