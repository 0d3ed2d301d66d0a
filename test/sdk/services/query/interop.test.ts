import { strict as assert } from 'node:assert';
import algosdk from 'algosdk';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { TOKEN, buildScenario, serveQuery, type Scenario, type Served } from './fixture.js';

describe('query service: algosdk v3 Indexer client against our service', function () {
  this.timeout(20000);
  let s: Scenario;
  let srv: Served;
  let indexer: algosdk.Indexer;

  before(async () => {
    let pending: Promise<Served> | undefined;
    s = buildScenario((ledger) => {
      pending = serveQuery(ledger);
    });
    srv = await pending!;
    indexer = new algosdk.Indexer(TOKEN, `http://${srv.service.host}`, srv.service.port);
  });
  after(() => srv.service.close());

  it('finds transactions (by id, by address, paged) and decodes them, inner transactions included', async () => {
    const t = await indexer.lookupTransactionByID(s.tx.inner!).do();
    assert.equal(t.transaction.id, s.tx.inner);
    assert.equal(t.transaction.txType, 'appl');
    assert.equal(t.transaction.innerTxns?.length, 1);
    assert.equal(t.transaction.innerTxns![0]!.paymentTransaction?.amount, 1000n);
    assert.equal(t.currentRound, s.ledger.latestRound);
    const byAddr = await indexer.searchForTransactions().address(s.addr(1)).addressRole('freeze-target').do();
    assert.deepEqual(
      byAddr.transactions.map((x) => x.id),
      [s.tx.afrz2, s.tx.afrz],
    );
    const page1 = await indexer.searchForTransactions().limit(5).do();
    const page2 = await indexer.searchForTransactions().limit(5).nextToken(page1.nextToken!).do();
    assert.equal(page1.transactions.length, 5);
    assert.notEqual(page2.transactions[0]!.id, page1.transactions[4]!.id);
    const note = await indexer.searchForTransactions().notePrefix(utf8('hello')).do();
    assert.deepEqual(
      note.transactions.map((x) => x.id),
      [s.tx.pay1],
    );
    const acct = await indexer.lookupAccountTransactions(s.addr(3)).txType('axfer').do();
    assert.deepEqual(
      acct.transactions.map((x) => x.id),
      [s.tx.axfer2, s.tx.optin2],
    );
    const asset = await indexer.lookupAssetTransactions(s.asset2).currencyGreaterThan(5).do();
    assert.deepEqual(
      asset.transactions.map((x) => x.id),
      [s.tx.axfer2],
    );
  });

  it('finds accounts, assets and balances', async () => {
    const a = await indexer.lookupAccountByID(s.addr(2)).do();
    assert.equal(a.account.address.toString(), s.addr(2));
    assert.equal(a.account.amount, s.ledger.balance(s.addr(2)));
    assert.equal(a.account.assets?.[0]?.assetId, s.asset2);
    const search = await indexer.searchAccounts().assetID(s.asset2).do();
    assert.equal(search.accounts.length, 2);
    const asset = await indexer.lookupAssetByID(s.asset2).do();
    assert.equal(asset.asset.params.unitName, 'SLV');
    const balances = await indexer.lookupAssetBalances(s.asset2).do();
    assert.equal(balances.balances.length, 2);
    const created = await indexer.lookupAccountCreatedAssets(s.addr(2)).do();
    assert.equal(created.assets[0]!.index, s.asset2);
    const holdings = await indexer.lookupAccountAssets(s.addr(3)).do();
    assert.equal(holdings.assets[0]!.amount, 10n);
    const assets = await indexer.searchForAssets().name('Silver').do();
    assert.equal(assets.assets.length, 1);
    await assert.rejects(indexer.lookupAccountByID(s.addr(5)).do(), (e: { response?: { status: number } }) => e.response?.status === 404);
  });

  it('finds the app, its boxes (by name) and its logs', async () => {
    const app = await indexer.lookupApplications(s.appId).do();
    assert.equal(app.application?.id, s.appId);
    assert.equal(app.application?.params.creator?.toString(), s.addr(0));
    const apps = await indexer.searchForApplications().creator(s.addr(0)).do();
    assert.deepEqual(
      apps.applications.map((x) => x.id),
      [s.appId],
    );
    const boxes = await indexer.searchForApplicationBoxes(s.appId).limit(2).do();
    assert.equal(boxes.boxes.length, 2);
    assert.equal(boxes.applicationId, s.appId);
    const more = await indexer.searchForApplicationBoxes(s.appId).nextToken(boxes.nextToken!).do();
    assert.equal(more.boxes.length, 3);
    const box = await indexer.lookupApplicationBoxByIDandName(s.appId, utf8('b1')).do();
    assert.deepEqual(box.value, utf8('one'));
    const logs = await indexer.lookupApplicationLogs(s.appId).do();
    assert.deepEqual(
      logs.logData?.map((l) => new TextDecoder().decode(l.logs[0])),
      ['first log', 'second log', 'paid'],
    );
    const local = await indexer.lookupAccountAppLocalStates(s.addr(2)).do();
    assert.equal(local.appsLocalStates[0]!.id, s.appId);
    const createdApps = await indexer.lookupAccountCreatedApplications(s.addr(0)).do();
    assert.equal(createdApps.applications[0]!.id, s.appId);
  });

  it('reads blocks, block headers and health', async () => {
    const b = await indexer.lookupBlock(s.round.group!).do();
    assert.equal(b.round, s.round.group);
    assert.equal(b.transactions?.length, 2);
    const headers = await indexer.searchForBlockHeaders().minRound(1).maxRound(3).do();
    assert.deepEqual(
      headers.blocks.map((h) => h.round),
      [1n, 2n, 3n],
    );
    const h = await indexer.makeHealthCheck().do();
    assert.equal(h.round, s.ledger.latestRound);
  });
});
