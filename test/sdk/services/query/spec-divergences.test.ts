// Issue 14, items 4, 6 and 8: query-service.md operations 2, 10, 17, 19, 20 and 21 over HTTP.
import { strict as assert } from 'node:assert';
import { Ed25519KeyPair } from '../../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { makeAppCallTxn, makeAssetCreateTxn, makePaymentTxn } from '../../../../sdk/src/txn/builders.js';
import { signTransaction } from '../../../../sdk/src/txn/sign.js';
import { buildScenario, serveQuery, type Scenario, type Served } from './fixture.js';

describe('query service: spec divergences of issue 14 (ops 2, 10, 17, 19, 20, 21)', function () {
  this.timeout(20000);
  let s: Scenario;
  let srv: Served;
  const referenced = new Address(Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(0x51)).publicKey).toString();
  const reserveOnly = new Address(Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(0x52)).publicKey).toString();
  const newKey = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(0x53));
  const newAuth = new Address(newKey.publicKey).toString();
  const tx: Record<string, string> = {};
  let asset3 = 0n;

  before(async () => {
    s = buildScenario();
    // An app call naming an account only in its accounts array.
    tx.appRef = s.send([
      makeAppCallTxn({ sender: s.addr(0), appId: s.appId, args: ['log', 'ref'], accounts: [referenced], suggestedParams: s.sp() }),
    ]).txids[0]!;
    // An asset whose reserve appears nowhere else.
    tx.acfg3 = s.send([
      makeAssetCreateTxn({ sender: s.addr(2), total: 5n, decimals: 0, assetName: 'Bronze', reserve: reserveOnly, suggestedParams: s.sp() }),
    ]).txids[0]!;
    asset3 = s.ledger.transaction(tx.acfg3)!.ad.createdAssetId!;
    // Rekey account 3 to a key that appears nowhere else, then spend with it.
    tx.rekey3 = s.send([makePaymentTxn({ sender: s.addr(3), receiver: s.addr(3), amount: 0n, rekeyTo: newAuth, suggestedParams: s.sp() })]).txids[0]!;
    tx.auth3 = s.send([makePaymentTxn({ sender: s.addr(3), receiver: s.addr(2), amount: 1000n, suggestedParams: s.sp() })], (t) => ({
      ...signTransaction(t, newKey),
      authAddress: new Address(newKey.publicKey),
    })).txids[0]!;
    srv = await serveQuery(s.ledger);
  });
  after(async () => {
    await srv?.service.close();
  });

  const ids = async (path: string): Promise<string[]> => {
    const r = await srv.get(path);
    assert.equal(r.status, 200, r.text);
    return r.body.transactions.map((t: { id: string }) => t.id);
  };

  it('op 20: address matches rekey-to and the authorizing address (auth-addr)', async () => {
    assert.deepEqual((await ids(`/v2/transactions?address=${newAuth}`)).sort(), [tx.rekey3, tx.auth3].sort());
    // The scenario's own rekey (account 4 to account 0) and the payment account 0 authorized.
    const zero = await ids(`/v2/transactions?address=${s.addr(0)}`);
    assert.ok(zero.includes(s.tx.rekey!) && zero.includes(s.tx.authpay!));
  });

  it('op 20: address matches accounts an application call references and addresses an asset configuration sets', async () => {
    assert.deepEqual(await ids(`/v2/transactions?address=${referenced}`), [tx.appRef]);
    assert.deepEqual(await ids(`/v2/transactions?address=${reserveOnly}`), [tx.acfg3]);
  });

  it('ops 17 and 20: address-role keeps its meaning (the referenced roles are not sender, receiver or freeze-target)', async () => {
    for (const role of ['sender', 'receiver', 'freeze-target']) {
      assert.deepEqual(await ids(`/v2/transactions?address=${newAuth}&address-role=${role}`), [], role);
      assert.deepEqual(await ids(`/v2/transactions?address=${referenced}&address-role=${role}`), [], role);
    }
    assert.deepEqual(await ids(`/v2/transactions?address=${s.addr(3)}&address-role=sender&min-round=${s.ledger.transaction(tx.rekey3)!.round}`), [
      tx.auth3,
      tx.rekey3,
    ]);
  });

  it('op 17: the asset transaction search matches the same referenced accounts', async () => {
    assert.deepEqual(await ids(`/v2/assets/${asset3}/transactions?address=${reserveOnly}`), [tx.acfg3]);
    assert.deepEqual(await ids(`/v2/assets/${asset3}/transactions?address=${reserveOnly}&address-role=sender`), []);
    assert.deepEqual(await ids(`/v2/assets/${s.assetId}/transactions?address=${reserveOnly}`), []);
  });

  it('op 2: accounts of a deleted application are hidden unless include-all=true', async () => {
    const hidden = await srv.get(`/v2/accounts?application-id=${s.deletedAppId}`);
    assert.equal(hidden.status, 200, hidden.text);
    assert.deepEqual(hidden.body.accounts, []);
    const all = await srv.get(`/v2/accounts?application-id=${s.deletedAppId}&include-all=true`);
    assert.deepEqual(
      all.body.accounts.map((a: { address: string }) => a.address),
      [s.addr(2)],
    );
    // Before its deletion round the application existed: listed without include-all.
    const before = await srv.get(`/v2/accounts?application-id=${s.deletedAppId}&round=${s.round.app2Create}`);
    assert.deepEqual(
      before.body.accounts.map((a: { address: string }) => a.address),
      [s.addr(2)],
    );
    // A live application is unaffected.
    const live = await srv.get(`/v2/accounts?application-id=${s.appId}`);
    assert.ok(live.body.accounts.length >= 1);
  });

  it('op 10: include-all is applied (a deleted application is 404 without it, marked deleted with it); bad values are 400', async () => {
    const gone = await srv.get(`/v2/applications/${s.deletedAppId}`);
    assert.equal(gone.status, 404);
    assert.ok(typeof gone.body.message === 'string');
    const shown = await srv.get(`/v2/applications/${s.deletedAppId}?include-all=true`);
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body.application.id, Number(s.deletedAppId));
    assert.equal(shown.body.application.deleted, true);
    assert.equal(shown.body.application['deleted-at-round'], Number(s.round.app2Delete));
    assert.equal((await srv.get(`/v2/applications/${s.appId}?include-all=false`)).status, 200);
    assert.equal((await srv.get(`/v2/applications/${s.appId}?include-all=maybe`)).status, 400);
    assert.equal((await srv.get(`/v2/applications/abc`)).status, 400);
  });

  it('op 19: header-only is applied; a missing round is 404; a malformed one 400', async () => {
    const round = s.ledger.transaction(tx.appRef)!.round;
    const full = await srv.get(`/v2/blocks/${round}`);
    assert.equal(full.status, 200, full.text);
    assert.equal(full.body.round, Number(round));
    assert.deepEqual(
      full.body.transactions.map((t: { id: string }) => t.id),
      [tx.appRef],
    );
    const head = await srv.get(`/v2/blocks/${round}?header-only=true`);
    assert.equal(head.body.transactions, undefined);
    assert.equal(head.body['transactions-root'], full.body['transactions-root']);
    assert.deepEqual((await srv.get(`/v2/blocks/${round}?header-only=false`)).body.transactions.length, 1);
    assert.equal((await srv.get(`/v2/blocks/${round}?header-only=yes`)).status, 400);
    assert.equal((await srv.get(`/v2/blocks/${s.ledger.latestRound + 10n}`)).status, 404);
    assert.equal((await srv.get(`/v2/blocks/-1`)).status, 400);
  });

  it('op 21: the path txid selects the transaction; unknown is 404, malformed 400', async () => {
    const r = await srv.get(`/v2/transactions/${tx.auth3}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.transaction.id, tx.auth3);
    assert.equal(r.body.transaction['auth-addr'], newAuth);
    assert.equal(typeof r.body['current-round'], 'number');
    const other = await srv.get(`/v2/transactions/${tx.rekey3}`);
    assert.equal(other.body.transaction['rekey-to'], newAuth);
    assert.equal((await srv.get(`/v2/transactions/${'A'.repeat(52)}`)).status, 404);
    assert.equal((await srv.get(`/v2/transactions/not-a-txid`)).status, 400);
  });
});
