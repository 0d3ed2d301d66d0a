import { strict as assert } from 'node:assert';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../../sdk/src/encoding/base64.js';
import { compareBytes, utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { QueryIndex, createQueryService } from '../../../../sdk/src/services/query/index.js';
import { parseJson } from '../../../../sdk/src/encoding/json.js';
import { makeAssetCreateTxn, makeAssetTransferTxn } from '../../../../sdk/src/txn/builders.js';
import { ALGO, TOKEN, buildScenario, serveQuery, type Scenario, type Served } from './fixture.js';

describe('query service: accounts, assets, applications, boxes, logs, blocks', function () {
  this.timeout(20000);
  let s: Scenario;
  let srv: Served;

  before(async () => {
    // Fed block by block from genesis: exact per-round history.
    s = buildScenario((ledger) => {
      srv = undefined as unknown as Served;
      pending = serveQuery(ledger);
    });
    srv = await pending;
  });
  let pending: Promise<Served>;
  after(async () => {
    await srv.service.close();
  });

  const ok = async (path: string) => {
    const r = await srv.get(path);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    assert.equal(r.body['current-round'] ?? Number(s.ledger.latestRound), Number(s.ledger.latestRound));
    return r.body;
  };
  const fail = async (path: string, status: number, re: RegExp) => {
    const r = await srv.get(path);
    assert.equal(r.status, status, `${path}: ${r.text}`);
    assert.deepEqual(Object.keys(r.body), ['message']);
    assert.match(r.body.message, re);
  };

  it('health is public and reports the round and version', async () => {
    const r = await srv.get('/health', {});
    assert.equal(r.status, 200);
    assert.equal(r.body.round, Number(s.ledger.latestRound));
    assert.equal(r.body['db-available'], true);
    assert.equal(r.body['is-migrating'], false);
    assert.equal(typeof r.body.version, 'string');
  });

  it('requires the API token (header or bearer) on every other operation', async () => {
    assert.equal((await srv.get('/v2/accounts', {})).status, 401);
    assert.equal((await srv.get('/v2/accounts', { 'X-Indexer-API-Token': 'wrong' })).status, 401);
    assert.equal((await srv.get('/v2/accounts', { authorization: `Bearer ${TOKEN}` })).status, 200);
    const nf = await srv.get('/v2/nothing');
    assert.equal(nf.status, 404);
  });

  it('looks up an account with holdings, local states, created assets and apps; include-all shows closed records', async () => {
    const a1 = (await ok(`/v2/accounts/${s.addr(1)}`)).account;
    assert.equal(a1.address, s.addr(1));
    assert.equal(a1.amount, Number(s.ledger.balance(s.addr(1))));
    assert.equal(a1['amount-without-pending-rewards'], a1.amount);
    assert.equal(a1['min-balance'], Number(s.ledger.minBalance(s.addr(1))));
    assert.equal(a1.status, 'Offline');
    assert.equal(a1.deleted, false);
    assert.equal(a1['sig-type'], 'sig');
    assert.equal(a1.assets, undefined);
    assert.equal(a1['apps-local-state'], undefined);
    const all = (await ok(`/v2/accounts/${s.addr(1)}?include-all=true`)).account;
    assert.deepEqual(all.assets, [
      {
        amount: 0,
        'asset-id': Number(s.assetId),
        deleted: true,
        'is-frozen': false,
        'opted-in-at-round': Number(s.round.optin),
        'opted-out-at-round': Number(s.round.assetClose),
      },
    ]);
    assert.equal(all['apps-local-state'].length, 1);
    assert.equal(all['apps-local-state'][0].deleted, true);
    assert.equal(all['apps-local-state'][0]['opted-in-at-round'], Number(s.round.appOptIn));
    assert.equal(all['apps-local-state'][0]['closed-out-at-round'], Number(s.round.appCloseOut));
    const a0 = (await ok(`/v2/accounts/${s.addr(0)}`)).account;
    assert.deepEqual(
      a0['created-apps'].map((a: { id: number }) => a.id),
      [Number(s.appId)],
    );
    assert.equal(a0['created-assets'], undefined);
    assert.equal(a0['total-created-apps'], 1);
    const a0all = (await ok(`/v2/accounts/${s.addr(0)}?include-all=true`)).account;
    assert.deepEqual(
      a0all['created-assets'].map((a: { index: number; deleted: boolean }) => [a.index, a.deleted]),
      [[Number(s.assetId), true]],
    );
    assert.equal(a0all['created-assets'][0]['destroyed-at-round'], Number(s.round.destroy));
    const a2 = (await ok(`/v2/accounts/${s.addr(2)}`)).account;
    assert.deepEqual(
      a2['apps-local-state'].map((l: { id: number }) => l.id),
      [Number(s.appId)],
    );
    assert.deepEqual(a2['apps-local-state'][0].schema, { 'num-byte-slice': 0, 'num-uint': 1 });
    assert.deepEqual(
      a2.assets.map((h: { 'asset-id': number; amount: number }) => [h['asset-id'], h.amount]),
      [[Number(s.asset2), 40]],
    );
    assert.equal(a2['created-assets'][0].params.name, 'Silver');
    const a4 = (await ok(`/v2/accounts/${s.addr(4)}`)).account;
    assert.equal(a4['auth-addr'], s.addr(0));
    const online = (await ok(`/v2/accounts/${s.addr(3)}`)).account;
    assert.equal(online.status, 'Online');
    assert.deepEqual(online.participation, {
      'selection-participation-key': toBase64(new Uint8Array(32).fill(2)),
      'state-proof-key': toBase64(new Uint8Array(64).fill(3)),
      'vote-first-valid': 1,
      'vote-key-dilution': 100,
      'vote-last-valid': 100000,
      'vote-participation-key': toBase64(new Uint8Array(32).fill(1)),
    });
    const kr = (await ok(`/v2/transactions?tx-type=keyreg`)).transactions;
    assert.deepEqual(
      kr.map((t: { id: string }) => t.id),
      [s.tx.keyreg],
    );
    assert.equal(kr[0]['keyreg-transaction']['vote-last-valid'], 100000);
    assert.equal(kr[0]['keyreg-transaction']['non-participation'], false);
    const escrow = (await ok(`/v2/accounts/${s.escrow}`)).account;
    assert.equal(escrow['sig-type'], 'lsig');
    const appAcct = (await ok(`/v2/accounts/${Address.forApp(s.appId).toString()}`)).account;
    assert.equal(appAcct['total-boxes'], 5);
    assert.ok(appAcct['total-box-bytes'] > 0);
  });

  it('exclude leaves out the named lists; bad values are 400', async () => {
    const full = (await ok(`/v2/accounts/${s.addr(2)}`)).account;
    assert.ok(full.assets && full['apps-local-state'] && full['created-assets']);
    const some = (await ok(`/v2/accounts/${s.addr(2)}?exclude=assets,apps-local-state`)).account;
    assert.equal(some.assets, undefined);
    assert.equal(some['apps-local-state'], undefined);
    assert.ok(some['created-assets']);
    const none = (await ok(`/v2/accounts/${s.addr(2)}?exclude=all`)).account;
    for (const k of ['assets', 'apps-local-state', 'created-assets', 'created-apps']) assert.equal(none[k], undefined);
    assert.equal(none.amount, full.amount);
    const repeated = (await ok(`/v2/accounts/${s.addr(2)}?exclude=assets&exclude=created-assets`)).account;
    assert.equal(repeated.assets, undefined);
    assert.equal(repeated['created-assets'], undefined);
    assert.ok(repeated['apps-local-state']);
    await fail(`/v2/accounts/${s.addr(2)}?exclude=everything`, 400, /exclude/);
  });

  it('closed and unknown accounts: 404 unless include-all; balances at an earlier round', async () => {
    await fail(`/v2/accounts/${s.addr(5)}`, 404, /^no accounts found for address/);
    const closed = (await ok(`/v2/accounts/${s.addr(5)}?include-all=true`)).account;
    assert.equal(closed.deleted, true);
    assert.equal(closed['closed-at-round'], Number(s.round.close));
    assert.equal(closed.amount, 0);
    await fail(`/v2/accounts/${new Address(new Uint8Array(32).fill(9)).toString()}`, 404, /no accounts found/);
    await fail('/v2/accounts/abc', 400, /unable to parse address/);
    const at1 = (await ok(`/v2/accounts/${s.addr(1)}?round=1`)).account;
    assert.equal(at1.amount, Number(101n * ALGO));
    assert.equal(at1.round, 1);
    const at5 = (await ok(`/v2/accounts/${s.addr(1)}?round=${s.round.axfer}`)).account;
    assert.deepEqual(
      at5.assets.map((h: { amount: number }) => h.amount),
      [100],
    );
    const at2 = (await ok(`/v2/accounts/${s.addr(5)}?round=${s.round.close! - 1n}`)).account;
    assert.equal(at2.deleted, false);
    await fail(`/v2/accounts/${s.addr(1)}?round=99999`, 400, /newer than the current round/);
  });

  it('searches accounts: by asset (holders, amounts in asset units), by application (creator and opted in), by auth-addr, by balance, paged by address', async () => {
    const addrs = (body: { accounts: { address: string }[] }) => body.accounts.map((a) => a.address);
    const sortByKey = (xs: string[]) => [...xs].sort((a, b) => compareBytes(Address.fromString(a).publicKey, Address.fromString(b).publicKey));
    const everyone = await ok('/v2/accounts?limit=1000');
    assert.deepEqual(addrs(everyone), sortByKey(addrs(everyone)));
    assert.ok(!addrs(everyone).includes(s.addr(5)));
    assert.ok(addrs(await ok('/v2/accounts?include-all=true')).includes(s.addr(5)));
    assert.deepEqual(addrs(await ok(`/v2/accounts?asset-id=${s.asset2}`)), sortByKey([s.addr(2), s.addr(3)]));
    assert.deepEqual(addrs(await ok(`/v2/accounts?asset-id=${s.asset2}&currency-greater-than=20`)), [s.addr(2)]);
    assert.deepEqual(addrs(await ok(`/v2/accounts?asset-id=${s.asset2}&currency-less-than=20`)), [s.addr(3)]);
    assert.deepEqual(addrs(await ok(`/v2/accounts?asset-id=${s.assetId}`)), []);
    assert.deepEqual(addrs(await ok(`/v2/accounts?asset-id=${s.assetId}&include-all=true`)), sortByKey([s.addr(0), s.addr(1)]));
    assert.deepEqual(addrs(await ok(`/v2/accounts?application-id=${s.appId}`)), sortByKey([s.addr(0), s.addr(2)]));
    assert.deepEqual(addrs(await ok(`/v2/accounts?application-id=${s.appId}&include-all=true`)), sortByKey([s.addr(0), s.addr(1), s.addr(2)]));
    assert.deepEqual(addrs(await ok(`/v2/accounts?auth-addr=${s.addr(0)}`)), [s.addr(4)]);
    const rich = await ok(`/v2/accounts?currency-greater-than=${100n * ALGO}`);
    const expected = addrs(everyone).filter((a) => s.ledger.balance(a) > 100n * ALGO);
    assert.ok(expected.length > 0);
    assert.deepEqual(addrs(rich), expected);
    const excluded = await ok(`/v2/accounts?asset-id=${s.asset2}&exclude=all`);
    assert.equal(excluded.accounts[0].assets, undefined);
    const paged: string[] = [];
    let next: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await ok(`/v2/accounts?limit=2${next ? `&next=${next}` : ''}`);
      if (page.accounts.length === 0) break;
      paged.push(...addrs(page));
      next = page['next-token'];
    }
    assert.deepEqual(paged, addrs(everyone));
    await fail('/v2/accounts?next=bogus', 400, /unable to parse address/);
    await fail('/v2/accounts?auth-addr=bogus', 400, /unable to parse address/);
  });

  it('per-account listings: assets, apps-local-state, created-applications, created-assets (filters, include-all, paging, 404)', async () => {
    const b3 = await ok(`/v2/accounts/${s.addr(3)}/assets`);
    assert.deepEqual(
      b3.assets.map((h: { 'asset-id': number; amount: number }) => [h['asset-id'], h.amount]),
      [[Number(s.asset2), 10]],
    );
    assert.deepEqual((await ok(`/v2/accounts/${s.addr(1)}/assets`)).assets, []);
    assert.equal((await ok(`/v2/accounts/${s.addr(1)}/assets?include-all=true`)).assets[0].deleted, true);
    assert.deepEqual((await ok(`/v2/accounts/${s.addr(3)}/assets?asset-id=${s.assetId}`)).assets, []);
    const ls = await ok(`/v2/accounts/${s.addr(2)}/apps-local-state`);
    assert.deepEqual(
      ls['apps-local-states'].map((l: { id: number }) => l.id),
      [Number(s.appId)],
    );
    assert.equal((await ok(`/v2/accounts/${s.addr(1)}/apps-local-state`))['apps-local-states'].length, 0);
    assert.equal((await ok(`/v2/accounts/${s.addr(1)}/apps-local-state?include-all=true&application-id=${s.appId}`))['apps-local-states'].length, 1);
    const ca = await ok(`/v2/accounts/${s.addr(2)}/created-applications`);
    assert.deepEqual(ca.applications, []);
    const caAll = await ok(`/v2/accounts/${s.addr(2)}/created-applications?include-all=true`);
    assert.deepEqual(
      caAll.applications.map((a: { id: number; deleted: boolean }) => [a.id, a.deleted]),
      [[Number(s.deletedAppId), true]],
    );
    assert.equal(caAll.applications[0]['deleted-at-round'], Number(s.round.app2Delete));
    assert.equal(caAll['next-token'], String(s.deletedAppId));
    const after = await ok(`/v2/accounts/${s.addr(2)}/created-applications?include-all=true&next=${caAll['next-token']}`);
    assert.deepEqual(after.applications, []);
    assert.equal(after['next-token'], undefined);
    assert.deepEqual(
      (await ok(`/v2/accounts/${s.addr(2)}/created-assets`)).assets.map((a: { index: number }) => a.index),
      [Number(s.asset2)],
    );
    assert.deepEqual((await ok(`/v2/accounts/${s.addr(0)}/created-assets`)).assets, []);
    assert.equal((await ok(`/v2/accounts/${s.addr(0)}/created-assets?include-all=true`)).assets[0]['destroyed-at-round'], Number(s.round.destroy));
    const unknown = new Address(new Uint8Array(32).fill(7)).toString();
    for (const sub of ['assets', 'apps-local-state', 'created-applications', 'created-assets'])
      await fail(`/v2/accounts/${unknown}/${sub}`, 404, /no accounts found/);
    await fail(`/v2/accounts/${s.addr(2)}/created-assets?next=x`, 400, /unable to parse next token/);
  });

  it('applications: search (creator, id, include-all, paging) and lookup (404 for deleted unless include-all)', async () => {
    const ids = (b: { applications: { id: number }[] }) => b.applications.map((a) => a.id);
    assert.deepEqual(ids(await ok('/v2/applications')), [Number(s.appId)]);
    assert.deepEqual(ids(await ok('/v2/applications?include-all=true')), [Number(s.appId), Number(s.deletedAppId)]);
    assert.deepEqual(ids(await ok(`/v2/applications?include-all=true&creator=${s.addr(2)}`)), [Number(s.deletedAppId)]);
    assert.deepEqual(ids(await ok(`/v2/applications?creator=${s.addr(2)}`)), []);
    assert.deepEqual(ids(await ok(`/v2/applications?application-id=${s.appId}`)), [Number(s.appId)]);
    const p1 = await ok('/v2/applications?include-all=true&limit=1');
    assert.equal(p1['next-token'], String(s.appId));
    assert.deepEqual(ids(await ok(`/v2/applications?include-all=true&next=${p1['next-token']}`)), [Number(s.deletedAppId)]);
    const app = (await ok(`/v2/applications/${s.appId}`)).application;
    assert.equal(app.id, Number(s.appId));
    assert.equal(app.deleted, false);
    assert.equal(app['created-at-round'], Number(s.round.appCreate));
    assert.equal(app.params.creator, s.addr(0));
    assert.deepEqual(app.params['local-state-schema'], { 'num-byte-slice': 0, 'num-uint': 1 });
    assert.equal(app.params['approval-program'], toBase64(s.ledger.app(s.appId)!.approvalProgram));
    assert.deepEqual(app.params['global-state'], [{ key: toBase64(utf8('last')), value: { bytes: toBase64(utf8('second log')), type: 1, uint: 0 } }]);
    const log2 = (await ok(`/v2/transactions/${s.tx.log2}`)).transaction;
    assert.deepEqual(log2['global-state-delta'], [{ key: toBase64(utf8('last')), value: { action: 1, bytes: toBase64(utf8('second log')) } }]);
    await fail(`/v2/applications/${s.deletedAppId}`, 404, /^no application found for application-id/);
    const gone = (await ok(`/v2/applications/${s.deletedAppId}?include-all=true`)).application;
    assert.equal(gone.deleted, true);
    assert.equal(gone['deleted-at-round'], Number(s.round.app2Delete));
    await fail('/v2/applications/999999', 404, /no application found/);
    await fail('/v2/applications/abc', 400, /Invalid format for parameter application-id/);
  });

  it('boxes: lookup by every name encoding, sorted listing with b64: tokens, 400/404', async () => {
    const box = async (name: string) => {
      const r = await srv.get(`/v2/applications/${s.appId}/box?name=${encodeURIComponent(name)}`);
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const b1 = await box('str:b1');
    assert.deepEqual(b1, { name: toBase64(utf8('b1')), round: Number(s.ledger.latestRound), value: toBase64(utf8('one')) });
    assert.equal((await box(`b64:${toBase64(utf8('a0'))}`)).value, toBase64(utf8('two')));
    assert.equal((await box('int:42')).value, toBase64(utf8('int')));
    assert.equal((await box(`addr:${s.addr(1)}`)).value, toBase64(utf8('addr')));
    assert.equal((await box('string:zz')).value, toBase64(utf8('three')));
    await fail(`/v2/applications/${s.appId}/box?name=b1`, 400, /illegal box name \(b1\): all arguments and box names should be of the form 'encoding:value'/);
    await fail(`/v2/applications/${s.appId}/box?name=hex:00`, 400, /Unknown encoding: hex/);
    await fail(`/v2/applications/${s.appId}/box?name=int:x`, 400, /Could not parse uint64/);
    await fail(`/v2/applications/${s.appId}/box`, 400, /name is required/);
    await fail(`/v2/applications/${s.appId}/box?name=str:nope`, 404, /^no application boxes found/);
    await fail('/v2/applications/424242/box?name=str:b1', 404, /no application found/);
    const names = [utf8('b1'), utf8('a0'), utf8('zz'), new Uint8Array([0, 0, 0, 0, 0, 0, 0, 42]), s.keys[1]!.publicKey].sort(compareBytes).map(toBase64);
    const all = await srv.get(`/v2/applications/${s.appId}/boxes`);
    assert.equal(all.status, 200);
    assert.equal(all.body['application-id'], Number(s.appId));
    assert.deepEqual(
      all.body.boxes.map((b: { name: string }) => b.name),
      names,
    );
    const paged: string[] = [];
    let next: string | undefined;
    for (let i = 0; i < 10; i++) {
      const r = await srv.get(`/v2/applications/${s.appId}/boxes?limit=2${next ? `&next=${encodeURIComponent(next)}` : ''}`);
      if (r.body.boxes.length === 0) break;
      paged.push(...r.body.boxes.map((b: { name: string }) => b.name));
      next = r.body['next-token'];
      assert.match(next!, /^b64:/);
    }
    assert.deepEqual(paged, names);
    await fail(`/v2/applications/${s.appId}/boxes?next=garbage`, 400, /illegal next token/);
    await fail('/v2/applications/424242/boxes', 404, /no application found/);
  });

  it('logs: per app, with sender, txid and round filters and paging', async () => {
    const data = async (extra = '') => {
      const r = await srv.get(`/v2/applications/${s.appId}/logs${extra}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body['application-id'], Number(s.appId));
      assert.equal(r.body['current-round'], Number(s.ledger.latestRound));
      return r.body;
    };
    const all = await data();
    assert.deepEqual(
      all['log-data'].map((d: { txid: string; logs: string[] }) => [d.txid, d.logs]),
      [
        [s.tx.log1, [toBase64(utf8('first log'))]],
        [s.tx.log2, [toBase64(utf8('second log'))]],
        [s.tx.inner, [toBase64(utf8('paid'))]],
      ],
    );
    assert.deepEqual(
      (await data(`?sender-address=${s.addr(2)}`))['log-data'].map((d: { txid: string }) => d.txid),
      [s.tx.log2],
    );
    assert.deepEqual(
      (await data(`?txid=${s.tx.inner}`))['log-data'].map((d: { txid: string }) => d.txid),
      [s.tx.inner],
    );
    assert.deepEqual(
      (await data(`?min-round=${s.round.log2}&max-round=${s.round.log2}`))['log-data'].map((d: { txid: string }) => d.txid),
      [s.tx.log2],
    );
    const p1 = await data('?limit=1');
    assert.equal(p1['log-data'].length, 1);
    const p2 = await data(`?limit=5&next=${encodeURIComponent(p1['next-token'])}`);
    assert.deepEqual(
      p2['log-data'].map((d: { txid: string }) => d.txid),
      [s.tx.log2, s.tx.inner],
    );
    assert.deepEqual((await data(`?application-id=1`))['log-data'].length, 3);
    const other = await srv.get(`/v2/applications/${s.deletedAppId}/logs`);
    assert.deepEqual(other.body['log-data'], []);
  });

  it('assets: search (name, unit, creator, id, include-all), lookup, balances with amount bounds and paging', async () => {
    const idx = (b: { assets: { index: number }[] }) => b.assets.map((a) => a.index);
    assert.deepEqual(idx(await ok('/v2/assets')), [Number(s.asset2)]);
    assert.deepEqual(idx(await ok('/v2/assets?include-all=true')), [Number(s.assetId), Number(s.asset2)]);
    assert.deepEqual(idx(await ok('/v2/assets?include-all=true&name=gold')), [Number(s.assetId)]);
    assert.deepEqual(idx(await ok('/v2/assets?unit=SLV')), [Number(s.asset2)]);
    assert.deepEqual(idx(await ok('/v2/assets?unit=SLV&name=Gold')), []);
    assert.deepEqual(idx(await ok(`/v2/assets?creator=${s.addr(2)}`)), [Number(s.asset2)]);
    assert.deepEqual(idx(await ok(`/v2/assets?asset-id=${s.asset2}`)), [Number(s.asset2)]);
    const p1 = await ok('/v2/assets?include-all=true&limit=1');
    assert.deepEqual(idx(await ok(`/v2/assets?include-all=true&next=${p1['next-token']}`)), [Number(s.asset2)]);
    const a = (await ok(`/v2/assets/${s.asset2}`)).asset;
    assert.deepEqual(a.params, {
      creator: s.addr(2),
      decimals: 2,
      'default-frozen': false,
      name: 'Silver',
      'name-b64': toBase64(utf8('Silver')),
      total: 50,
      'unit-name': 'SLV',
      'unit-name-b64': toBase64(utf8('SLV')),
    });
    assert.equal(a['created-at-round'], Number(s.round.acfg2));
    assert.equal(a.deleted, false);
    await fail(`/v2/assets/${s.assetId}`, 404, /^no assets found for asset-id/);
    const gone = (await ok(`/v2/assets/${s.assetId}?include-all=true`)).asset;
    assert.equal(gone['destroyed-at-round'], Number(s.round.destroy));
    assert.equal(gone.params.manager, s.addr(0));
    const bal = await ok(`/v2/assets/${s.asset2}/balances`);
    const sorted = [s.addr(2), s.addr(3)].sort((x, y) => compareBytes(Address.fromString(x).publicKey, Address.fromString(y).publicKey));
    assert.deepEqual(
      bal.balances.map((b: { address: string }) => b.address),
      sorted,
    );
    const amounts = Object.fromEntries(bal.balances.map((b: { address: string; amount: number }) => [b.address, b.amount]));
    assert.deepEqual(amounts, { [s.addr(2)]: 40, [s.addr(3)]: 10 });
    assert.deepEqual(
      (await ok(`/v2/assets/${s.asset2}/balances?currency-greater-than=10`)).balances.map((b: { address: string }) => b.address),
      [s.addr(2)],
    );
    assert.deepEqual(
      (await ok(`/v2/assets/${s.asset2}/balances?currency-less-than=11`)).balances.map((b: { address: string }) => b.address),
      [s.addr(3)],
    );
    const bp = await ok(`/v2/assets/${s.asset2}/balances?limit=1`);
    assert.equal(bp['next-token'], sorted[0]);
    assert.deepEqual(
      (await ok(`/v2/assets/${s.asset2}/balances?next=${bp['next-token']}`)).balances.map((b: { address: string }) => b.address),
      [sorted[1]],
    );
    assert.deepEqual((await ok(`/v2/assets/${s.assetId}/balances`)).balances, []);
    const closed = await ok(`/v2/assets/${s.assetId}/balances?include-all=true`);
    assert.equal(closed.balances.length, 2);
    assert.ok(closed.balances.every((b: { deleted: boolean }) => b.deleted));
  });

  it('blocks and block headers: header-only, 404, ascending paging, round/time bounds, address-list filters', async () => {
    const b = await srv.get(`/v2/blocks/${s.round.group}`);
    assert.equal(b.status, 200);
    assert.equal(b.body.round, Number(s.round.group));
    assert.deepEqual(
      b.body.transactions.map((t: { id: string }) => t.id),
      [s.tx.group0, s.tx.group1],
    );
    assert.equal(b.body['genesis-id'], s.ledger.genesisId);
    assert.equal(b.body['genesis-hash'], toBase64(s.ledger.genesisHash));
    assert.equal(b.body['previous-block-hash'], toBase64(s.ledger.block(s.round.group! - 1n).hash));
    assert.equal(b.body.timestamp, Number(s.ledger.block(s.round.group!).header.timestamp));
    const inner = await srv.get(`/v2/blocks/${s.round.inner}`);
    assert.equal(inner.body.transactions.length, 1);
    assert.equal(inner.body.transactions[0]['inner-txns'].length, 1);
    const h = await srv.get(`/v2/blocks/${s.round.group}?header-only=true`);
    assert.equal(h.body.transactions, undefined);
    await fail('/v2/blocks/99999', 404, /round/);
    await fail('/v2/blocks/abc', 400, /Invalid format/);
    const headers = await ok('/v2/block-headers?limit=5');
    assert.deepEqual(
      headers.blocks.map((x: { round: number }) => x.round),
      [0, 1, 2, 3, 4],
    );
    assert.ok(headers.blocks.every((x: Record<string, unknown>) => x.transactions === undefined));
    const rest = await ok(`/v2/block-headers?limit=3&next=${encodeURIComponent(headers['next-token'])}`);
    assert.deepEqual(
      rest.blocks.map((x: { round: number }) => x.round),
      [5, 6, 7],
    );
    assert.deepEqual(
      (await ok('/v2/block-headers?min-round=10&max-round=12')).blocks.map((x: { round: number }) => x.round),
      [10, 11, 12],
    );
    const ts = (r: bigint) => new Date(Number(s.ledger.block(r).header.timestamp) * 1000).toISOString();
    assert.deepEqual(
      (await ok(`/v2/block-headers?after-time=${ts(3n)}&before-time=${ts(6n)}`)).blocks.map((x: { round: number }) => x.round),
      [4, 5],
    );
    assert.deepEqual((await ok(`/v2/block-headers?proposers=${s.addr(0)}`)).blocks, []);
    assert.deepEqual((await ok(`/v2/block-headers?absent=${s.addr(0)},${s.addr(1)}`)).blocks, []);
    await fail('/v2/block-headers?min-round=5&max-round=1', 400, /min-round must be less than max-round/);
    await fail('/v2/block-headers?next=%21%21', 400, /unable to parse next token/);
  });

  it('notices a ledger reset (which emits no block event) and rebuilds before answering', async () => {
    const other = buildScenario();
    const served = await serveQuery(other.ledger);
    try {
      assert.equal((await served.get('/v2/transactions')).body.transactions.length, Object.keys(other.tx).length);
      other.ledger.reset();
      const after = await served.get('/v2/transactions');
      assert.deepEqual(after.body.transactions, []);
      assert.equal(after.body['current-round'], 0);
      assert.equal((await served.get(`/v2/accounts/${other.addr(1)}`)).body.account.amount, Number(100n * ALGO));
    } finally {
      await served.service.close();
    }
  });

  it('writes integers beyond 2^53 exactly', async () => {
    const max = (1n << 64n) - 1n;
    const r = s.send([makeAssetCreateTxn({ sender: s.addr(0), total: max, assetName: 'Big', suggestedParams: s.sp() })]);
    const id = s.ledger.transaction(r.txids[0]!)!.ad.createdAssetId!;
    const res = await srv.get(`/v2/assets/${id}`);
    assert.match(res.text, /"total":18446744073709551615[,}]/);
    const parsed = parseJson<{ asset: { params: { total: bigint } } }>(res.text);
    assert.equal(parsed.asset.params.total, max);
    assert.match((await srv.get(`/v2/transactions/${r.txids[0]}`)).text, /"total":18446744073709551615[,}]/);
    const holders = await srv.get(`/v2/assets/${id}/balances`);
    assert.match(holders.text, /"amount":18446744073709551615[,}]/);
    const big = 1n << 60n;
    const x = s.send([makeAssetTransferTxn({ sender: s.addr(0), receiver: s.addr(0), assetId: id, amount: big, suggestedParams: s.sp() })]);
    const small = s.send([makeAssetTransferTxn({ sender: s.addr(0), receiver: s.addr(0), assetId: id, amount: 5n, suggestedParams: s.sp() })]);
    const over = await srv.get(`/v2/transactions?asset-id=${id}&currency-greater-than=${1n << 55n}`);
    assert.deepEqual(
      over.body.transactions.map((t: { id: string }) => t.id),
      [x.txids[0]],
    );
    assert.match(over.text, /"amount":1152921504606846976[,}]/);
    const under = await srv.get(`/v2/transactions?asset-id=${id}&currency-less-than=${1n << 55n}`);
    assert.deepEqual(
      under.body.transactions.map((t: { id: string }) => t.id),
      [small.txids[0]],
    );
    const huge = await srv.get(`/v2/transactions?asset-id=${id}&currency-greater-than=${(1n << 60n) - 1n}&currency-less-than=${(1n << 60n) + 1n}`);
    assert.deepEqual(
      huge.body.transactions.map((t: { id: string }) => t.id),
      [x.txids[0]],
    );
  });

  it('a service fed by a caller-owned index answers the same', async () => {
    const index = new QueryIndex().attach(s.ledger);
    const def = createQueryService({ index });
    assert.equal(def.index, index);
    assert.equal(def.auth, undefined);
    assert.equal(index.latestRound, s.ledger.latestRound);
    index.detach();
  });
});
