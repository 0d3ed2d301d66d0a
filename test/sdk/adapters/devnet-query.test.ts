import assert from 'node:assert/strict';
import { HttpError } from '../../../sdk/src/adapters/http/errors.js';
import { QueryClient } from '../../../sdk/src/adapters/query/client.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { makeAppCreateTxn, makeAssetCreateTxn } from '../../../sdk/src/txn/builders.js';
import { APPROVAL, CLEAR, populatedDevnet, type PopulatedDevnet } from './devnet-fixture.js';

async function status<T>(p: Promise<T>): Promise<number> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HttpError, `expected an HttpError, got ${String(e)}`);
    return e.status;
  }
  assert.fail('expected the request to fail');
}

const b64 = (s: string) => toBase64(utf8(s));

/** All 21 query-service operations through QueryClient, against the embedded devnet over HTTP. */
describe('adapters: query client against the embedded devnet', function () {
  this.timeout(20_000);
  let p: PopulatedDevnet;
  let q: QueryClient;
  let a0: string, a1: string;
  const assetIds: bigint[] = [];
  const appIds: bigint[] = [];

  before(async () => {
    p = await populatedDevnet({}, 12);
    [a0, a1] = [p.addrs[0]!, p.addrs[1]!];
    assetIds.push(p.assetId);
    appIds.push(p.appId);
    // More assets and apps so that their listings also take several pages.
    for (const name of ['Second', 'Third']) {
      const [id] = await p.submit([
        makeAssetCreateTxn({ sender: a0, total: 10n, unitName: name.slice(0, 3).toUpperCase(), assetName: name, suggestedParams: await p.sp() }),
      ]);
      assetIds.push((await p.node.pending(id!)).assetIndex!);
    }
    const [app2] = await p.submit([
      makeAppCreateTxn({
        sender: a0,
        approvalProgram: assemble(APPROVAL).program,
        clearProgram: assemble(CLEAR).program,
        globalSchema: { numUints: 1 },
        suggestedParams: await p.sp(),
      }),
    ]);
    appIds.push((await p.node.pending(app2!)).applicationIndex!);
    q = new QueryClient({ url: p.d.query.url, token: p.d.query.token, retry: false });
    // The query service follows the ledger; wait (bounded) until it has the latest round.
    for (let i = 0; i < 100 && (await q.health()).round < p.d.ledger.latestRound; i++) await new Promise((r) => setTimeout(r, 10));
  });
  after(async () => {
    await q?.close();
    await p?.stop();
  });

  it('health (op 1)', async () => {
    const h = await q.health();
    assert.equal(h.round, p.d.ledger.latestRound);
    assert.equal(h.dbAvailable, true);
    assert.equal(h.isMigrating, false);
    const wrongToken = new QueryClient({ url: p.d.query.url, token: 'b'.repeat(64), retry: false });
    try {
      assert.equal(await status(wrongToken.searchTransactions({ limit: 1 })), 401);
    } finally {
      await wrongToken.close();
    }
  });

  it('accounts: search, lookup, local states, holdings, created apps/assets (ops 2-7) with paging', async () => {
    const all = await q.accounts({}, { pageSize: 2 }).toArray();
    const pages = await countPages(q.accounts({}, { pageSize: 2 }).pages());
    assert.ok(pages >= 3, `accounts took ${pages} pages`);
    for (const a of p.addrs) assert.ok(all.some((x) => x.address === a));
    assert.equal(new Set(all.map((x) => x.address)).size, all.length);
    const holders = await q.searchAccounts({ assetId: p.assetId });
    assert.deepEqual(holders.accounts.map((x) => x.address).sort(), [a0, a1].sort());
    // With application-id both the creator and the opted-in accounts come back (query-service.md).
    const optedIn = await q.searchAccounts({ applicationId: p.appId });
    assert.deepEqual(optedIn.accounts.map((x) => x.address).sort(), [a0, a1].sort());

    const acct = (await q.lookupAccount(a0)).account;
    assert.equal(acct.amount, p.d.ledger.account(a0)!.balance);
    assert.equal(acct.totalCreatedAssets, 3n);
    assert.equal(acct.totalCreatedApps, 2n);
    const slim = (await q.lookupAccount(a0, { exclude: ['all'] })).account;
    assert.equal(slim.createdAssets, undefined);

    const locals = await q.accountAppLocalStates(a1, {}, { pageSize: 1 }).toArray();
    assert.equal(locals.length, 1);
    assert.equal(locals[0]!.id, p.appId);
    assert.deepEqual(
      locals[0]!.keyValue?.map((kv) => [kv.key, kv.value.uint]),
      [[b64('l'), 7n]],
    );
    assert.equal((await q.lookupAccountAppLocalStates(a1, { applicationId: p.appId })).appsLocalStates.length, 1);

    const holdings = await q.accountAssets(a0, {}, { pageSize: 1 }).toArray();
    assert.deepEqual(holdings.map((h) => h.assetId).sort(), [...assetIds].sort());
    assert.equal(holdings.find((h) => h.assetId === p.assetId)!.amount, 1_000_000n - 500n);
    assert.equal((await q.lookupAccountAssets(a1, { assetId: p.assetId })).assets[0]!.amount, 500n);

    const createdApps = await q.accountCreatedApplications(a0, {}, { pageSize: 1 }).toArray();
    assert.deepEqual(
      createdApps.map((x) => x.id),
      appIds,
    );
    assert.equal((await q.lookupAccountCreatedApplications(a0, { limit: 1 })).applications.length, 1);
    const createdAssets = await q.accountCreatedAssets(a0, {}, { pageSize: 2 }).toArray();
    assert.deepEqual(
      createdAssets.map((x) => x.index),
      assetIds,
    );
    assert.equal((await q.lookupAccountCreatedAssets(a0, { assetId: assetIds[1]! })).assets[0]!.params.name, 'Second');

    const txns = await q.accountTransactions(a0, {}, { pageSize: 3 }).toArray();
    const direct = await q.lookupAccountTransactions(a0, { limit: 1000 });
    assert.deepEqual(
      txns.map((t) => t.id),
      direct.transactions.map((t) => t.id),
    );
    for (const id of p.payTxids.filter((_, i) => i % 3 === 0)) assert.ok(txns.some((t) => t.id === id));
    // Errors: a malformed address (400), an address the chain never saw (404).
    assert.equal(await status(q.lookupAccount('not-an-address')), 400);
    assert.equal(await status(q.lookupAccount(new Address(new Uint8Array(32).fill(7)).toString())), 404);
  });

  it('applications: search, lookup, box, boxes, logs (ops 8-12) with paging', async () => {
    const apps = await q.applications({}, { pageSize: 1 }).toArray();
    assert.deepEqual(
      apps.map((a) => a.id),
      appIds,
    );
    assert.equal((await q.searchApplications({ creator: a0 })).applications.length, 2);
    const app = (await q.lookupApplication(p.appId)).application!;
    assert.equal(app.params.creator, a0);
    assert.deepEqual(
      app.params.globalState?.map((kv) => [kv.key, kv.value.uint]),
      [[b64('g'), 4n]],
    );
    assert.equal(app.params.approvalProgram, toBase64(assemble(APPROVAL).program));

    const box = await q.lookupApplicationBox(p.appId, { str: 'b2' });
    assert.equal(box.name, b64('b2'));
    assert.equal(box.value, b64('boxvalue'));
    const same = await q.lookupApplicationBox(p.appId, utf8('b2'));
    assert.equal(same.value, box.value);
    const names = await q.applicationBoxes(p.appId, {}, { pageSize: 2 }).toArray();
    assert.deepEqual(names.map((n) => n.name).sort(), p.boxNames.map(b64).sort());
    // A page may be followed by an empty one (query-service.md); at least two are needed for three boxes.
    assert.ok((await countPages(q.applicationBoxes(p.appId, {}, { pageSize: 2 }).pages())) >= 2);
    assert.equal((await q.searchApplicationBoxes(p.appId, { limit: 1 })).boxes.length, 1);

    const logs = await q.applicationLogs(p.appId, {}, { pageSize: 2 }).toArray();
    assert.equal(logs.length, 3);
    assert.ok(logs.every((l) => l.logs.length === 1 && l.logs[0] === b64('hello')));
    assert.ok(logs.some((l) => l.txid === p.callTxid));
    const one = await q.lookupApplicationLogs(p.appId, { txid: p.callTxid });
    assert.deepEqual(
      one.logData?.map((l) => l.txid),
      [p.callTxid],
    );
    // Errors: unknown app (404), unknown box (404), malformed box name (400).
    assert.equal(await status(q.lookupApplication(999_999n)), 404);
    assert.equal(await status(q.lookupApplicationBox(p.appId, { str: 'nope' })), 404);
    assert.equal(await status(q.lookupApplicationBox(p.appId, { b64: '%%%' })), 400);
  });

  it('assets: search, lookup, balances, transactions (ops 13-16) with paging', async () => {
    const assets = await q.assets({}, { pageSize: 1 }).toArray();
    assert.deepEqual(
      assets.map((a) => a.index),
      assetIds,
    );
    assert.deepEqual(
      (await q.searchAssets({ name: 'Third' })).assets.map((a) => a.index),
      [assetIds[2]],
    );
    assert.deepEqual(
      (await q.searchAssets({ unit: 'TW' })).assets.map((a) => a.index),
      [p.assetId],
    );
    const asset = (await q.lookupAsset(p.assetId)).asset;
    assert.equal(asset.params.total, 1_000_000n);
    assert.equal(asset.params.decimals, 2);
    assert.equal(asset.params.url, 'https://example.com');
    const balances = await q.assetBalances(p.assetId, {}, { pageSize: 1 }).toArray();
    assert.deepEqual(
      balances.map((b) => [b.address, b.amount]).sort(),
      [
        [a0, 999_500n],
        [a1, 500n],
      ].sort(),
    );
    assert.deepEqual(
      (await q.lookupAssetBalances(p.assetId, { currencyLessThan: 1000n })).balances.map((b) => b.address),
      [a1],
    );
    const txns = await q.assetTransactions(p.assetId, {}, { pageSize: 1 }).toArray();
    assert.deepEqual(
      txns.map((t) => t.txType),
      ['acfg', 'axfer', 'axfer'],
    );
    assert.equal(
      (await q.lookupAssetTransactions(p.assetId, { txType: 'axfer', currencyGreaterThan: 0n })).transactions[0]!.assetTransferTransaction?.amount,
      500n,
    );
    // Errors: unknown asset (404), malformed id (400).
    assert.equal(await status(q.lookupAsset(999_999n)), 404);
    assert.equal(await status(q.http.json({ method: 'GET', path: '/v2/assets/abc' })), 400);
  });

  it('blocks: header search and lookup (ops 17-18) with paging', async () => {
    const latest = p.d.ledger.latestRound;
    const headers = await q.blockHeaders({ minRound: 1n }, { pageSize: 4 }).toArray();
    assert.deepEqual(
      headers.map((h) => h.round),
      Array.from({ length: Number(latest) }, (_, i) => BigInt(i + 1)),
    );
    const page = await q.searchBlockHeaders({ minRound: 2n, maxRound: 3n });
    assert.deepEqual(
      page.blocks.map((b) => b.round),
      [2n, 3n],
    );
    const round = (await p.node.pending(p.callTxid)).confirmedRound;
    const block = await q.lookupBlock(round);
    assert.equal(block.round, round);
    assert.equal(block.genesisId, p.d.genesisId);
    assert.equal(block.transactions?.length, 4);
    assert.equal((await q.lookupBlock(round, { headerOnly: true })).transactions, undefined);
    assert.equal(await status(q.lookupBlock(latest + 1000n)), 404);
  });

  it('transactions: search and lookup (ops 19-20) with paging, filters and next-token', async () => {
    const all = await q.transactions({}, { pageSize: 5 }).toArray();
    assert.equal(new Set(all.map((t) => t.id)).size, all.length);
    for (const id of [...p.payTxids, p.callTxid]) assert.ok(all.some((t) => t.id === id));
    const pages = await countPages(q.transactions({}, { pageSize: 5 }).pages());
    assert.ok(pages >= Math.ceil(all.length / 5) && pages <= Math.ceil(all.length / 5) + 1, `${pages} pages for ${all.length}`);
    const pays = await q.transactions({ txType: 'pay', notePrefix: utf8('pay ') }, { pageSize: 4 }).toArray();
    assert.deepEqual(
      pays.map((t) => t.id),
      p.payTxids,
    );
    const appl = await q.searchTransactions({ applicationId: p.appId });
    assert.ok(appl.transactions.some((t) => t.id === p.callTxid));
    const first = await q.searchTransactions({ limit: 2 });
    assert.ok(first.nextToken);
    const second = await q.searchTransactions({ limit: 2, next: first.nextToken! });
    assert.deepEqual(
      [...first.transactions, ...second.transactions].map((t) => t.id),
      all.slice(0, 4).map((t) => t.id),
    );

    const t = (await q.lookupTransaction(p.callTxid)).transaction;
    assert.equal(t.txType, 'appl');
    assert.deepEqual(t.logs, [b64('hello')]);
    assert.ok(t.group);
    assert.equal(t.applicationTransaction?.applicationId, p.appId);
    const pay = (await q.lookupTransaction(p.payTxids[0]!)).transaction;
    assert.equal(pay.paymentTransaction?.amount, 1000n);
    assert.equal(pay.note, b64('pay 0'));
    // Errors: unknown txid (404), a bad filter value (400).
    assert.equal(await status(q.lookupTransaction('A'.repeat(52))), 404);
    assert.equal(await status(q.http.json({ method: 'GET', path: '/v2/transactions', query: { 'tx-type': 'nonsense' } })), 400);
  });
});

async function countPages(pages: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of pages) n++;
  return n;
}
