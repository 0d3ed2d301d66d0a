import { strict as assert } from 'node:assert';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { QueryIndex } from '../../../../sdk/src/services/query/index.js';
import { transactionJson } from '../../../../sdk/src/services/query/render.js';
import { makePaymentTxn } from '../../../../sdk/src/txn/builders.js';
import { ALGO, buildScenario, serveQuery, type Scenario, type Served } from './fixture.js';

const q = (params: Record<string, string | number | bigint | boolean>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

describe('query service: transactions', function () {
  this.timeout(20000);
  let s: Scenario;
  let srv: Served;
  let labelOf: Map<string, string>;

  before(async () => {
    let index: QueryIndex | undefined;
    s = buildScenario((ledger) => {
      index = new QueryIndex().attach(ledger);
    });
    srv = await serveQuery(s.ledger);
    // The service built its own index by rebuilding; the incremental one is compared below.
    labelOf = new Map(Object.entries(s.tx).map(([label, id]) => [id, label]));
    incremental = index!;
  });
  let incremental: QueryIndex;
  after(async () => {
    await srv.service.close();
    incremental.detach();
  });

  const labels = async (path: string): Promise<string[]> => {
    const r = await srv.get(path);
    assert.equal(r.status, 200, r.text);
    assert.equal(typeof r.body['current-round'], 'number');
    return r.body.transactions.map((t: { id: string }) => labelOf.get(t.id) ?? t.id);
  };

  const search = (params: Record<string, string | number | bigint | boolean>) => labels(`/v2/transactions?${q(params)}`);

  it('lists every root transaction oldest first, pages by position, clamps the limit', async () => {
    const all = await labels('/v2/transactions?limit=20000');
    const expected = Object.entries(s.tx)
      .sort(([, a], [, b]) => {
        const ta = s.ledger.transaction(a)!;
        const tb = s.ledger.transaction(b)!;
        return ta.round === tb.round ? ta.intra - tb.intra : ta.round < tb.round ? -1 : 1;
      })
      .map(([l]) => l);
    assert.deepEqual(all, expected);
    const paged: string[] = [];
    let next: string | undefined;
    for (let i = 0; i < 20; i++) {
      const r = await srv.get(`/v2/transactions?limit=7${next ? `&next=${encodeURIComponent(next)}` : ''}`);
      const page = r.body.transactions.map((t: { id: string }) => labelOf.get(t.id)!);
      if (page.length === 0) {
        assert.equal(r.body['next-token'], undefined);
        break;
      }
      assert.ok(page.length <= 7);
      assert.equal(typeof r.body['next-token'], 'string');
      paged.push(...page);
      next = r.body['next-token'];
    }
    assert.deepEqual(paged, expected);
  });

  it('filters by address in any role, newest first; inner transactions find their root', async () => {
    const a1 = await search({ address: s.addr(1) });
    const byRoundDesc = (xs: string[]) => [...xs].sort((x, y) => Number(s.round[y]! - s.round[x]!));
    assert.deepEqual(a1, byRoundDesc(['assetClose', 'appCloseOut', 'appOptIn', 'inner', 'log1', 'afrz2', 'afrz', 'axfer', 'optin', 'pay2', 'pay1']));
    const appAddr = Address.forApp(s.appId).toString();
    assert.deepEqual(await search({ address: appAddr }), ['inner', 'fundApp']);
    assert.deepEqual(await search({ address: appAddr, 'address-role': 'sender' }), ['inner']);
  });

  it('applies address roles: sender (incl. clawback sender), receiver (with and without close-to), freeze-target', async () => {
    assert.deepEqual(await search({ address: s.addr(1), 'address-role': 'sender' }), [
      'assetClose',
      'appCloseOut',
      'appOptIn',
      'inner',
      'log1',
      'optin',
      'pay2',
    ]);
    assert.deepEqual(await search({ address: s.addr(1), 'address-role': 'receiver' }), ['inner', 'axfer', 'optin', 'pay1']);
    assert.deepEqual(await search({ address: s.addr(1), 'address-role': 'freeze-target' }), ['afrz2', 'afrz']);
    assert.deepEqual(await search({ address: s.addr(3), 'address-role': 'receiver' }), ['close', 'group0', 'axfer2', 'optin2']);
    assert.deepEqual(await search({ address: s.addr(3), 'address-role': 'receiver', 'exclude-close-to': true }), ['group0', 'axfer2', 'optin2']);
    const sends = await search({ address: s.addr(0), 'address-role': 'sender', 'tx-type': 'axfer' });
    assert.deepEqual(sends, ['clawback', 'axfer']);
  });

  it('filters by type, asset, application, group, note prefix, rekey and signature kind', async () => {
    assert.deepEqual(await search({ 'tx-type': 'afrz' }), ['afrz', 'afrz2']);
    assert.deepEqual(await search({ 'tx-type': 'acfg' }), ['acfg', 'acfg2', 'destroy']);
    assert.deepEqual(await search({ 'asset-id': s.assetId }), ['acfg', 'optin', 'axfer', 'afrz', 'afrz2', 'assetClose', 'clawback', 'destroy']);
    assert.deepEqual(await search({ 'application-id': s.appId }), [
      'appCreate',
      'box1',
      'box2',
      'box3',
      'boxInt',
      'boxAddr',
      'log1',
      'log2',
      'inner',
      'appOptIn',
      'appCloseOut',
      'appOptIn2',
    ]);
    assert.deepEqual(await search({ 'application-id': s.deletedAppId }), ['app2Create', 'app2Delete']);
    const group = s.ledger.transaction(s.tx.group0!)!.stxn.txn.group!;
    assert.deepEqual(await search({ 'group-id': toBase64(group) }), ['group0', 'group1']);
    assert.deepEqual(await search({ 'note-prefix': toBase64(utf8('hello')) }), ['pay1']);
    assert.deepEqual(await search({ 'note-prefix': toBase64(utf8('sec')) }), ['pay2']);
    assert.deepEqual(await search({ 'rekey-to': true }), ['rekey']);
    assert.deepEqual(await search({ 'sig-type': 'lsig' }), ['lsigpay']);
    assert.deepEqual(await search({ 'sig-type': 'msig' }), []);
    assert.deepEqual(await search({ 'sig-type': 'sig', 'tx-type': 'pay', 'max-round': 2 }), ['pay1', 'pay2']);
    assert.deepEqual(await search({ txid: s.tx.log2! }), ['log2']);
    assert.deepEqual(await search({ txid: s.tx.log2!, 'tx-type': 'pay' }), []);
  });

  it('compares amounts in the native unit, or in asset units when asset-id is given (strict bounds)', async () => {
    assert.deepEqual(await search({ 'currency-greater-than': 4n * ALGO }), ['pay2', 'group0']);
    assert.deepEqual(await search({ 'currency-less-than': ALGO + 1n, 'tx-type': 'pay' }), ['pay1', 'rekey', 'lsigpay', 'inner', 'close']);
    assert.deepEqual(await search({ 'currency-greater-than': ALGO, 'currency-less-than': 3n * ALGO }), ['group1', 'fundEscrow', 'fundApp']);
    assert.deepEqual(await search({ 'asset-id': s.assetId, 'currency-greater-than': 50 }), ['axfer']);
    assert.deepEqual(await search({ 'asset-id': s.assetId, 'currency-less-than': 50 }), ['optin', 'assetClose', 'clawback']);
  });

  it('bounds by round, round range and time (strictly after / before)', async () => {
    assert.deepEqual(await search({ round: s.round.group! }), ['group0', 'group1']);
    assert.deepEqual(await search({ 'min-round': 3, 'max-round': 5 }), ['acfg', 'optin', 'axfer']);
    const ts = (r: bigint) => new Date(Number(s.ledger.block(r).header.timestamp) * 1000).toISOString();
    assert.deepEqual(await search({ 'after-time': ts(3n), 'before-time': ts(6n) }), ['optin', 'axfer']);
    assert.deepEqual(await search({ 'after-time': ts(3n), 'before-time': ts(6n), 'tx-type': 'axfer', address: s.addr(1) }), ['axfer', 'optin']);
  });

  it('account transactions: newest first with every filter', async () => {
    const list = (extra = '') => labels(`/v2/accounts/${s.addr(1)}/transactions${extra}`);
    assert.deepEqual(await list(), await search({ address: s.addr(1) }));
    assert.deepEqual(
      await list('?tx-type=axfer'),
      ['assetClose', 'optin', 'axfer'].sort((x, y) => Number(s.round[y]! - s.round[x]!)),
    );
    assert.deepEqual(await list(`?asset-id=${s.assetId}&currency-greater-than=0`), ['axfer']);
    assert.deepEqual(await list('?min-round=20'), ['assetClose', 'appCloseOut', 'appOptIn', 'inner', 'log1']);
    const first = await srv.get(`/v2/accounts/${s.addr(1)}/transactions?limit=4`);
    const rest = await srv.get(`/v2/accounts/${s.addr(1)}/transactions?next=${encodeURIComponent(first.body['next-token'])}`);
    assert.deepEqual(
      [...first.body.transactions, ...rest.body.transactions].map((t: { id: string }) => labelOf.get(t.id)),
      await list(),
    );
    const bad = await srv.get('/v2/accounts/NOTANADDRESS/transactions');
    assert.equal(bad.status, 400);
  });

  it('asset transactions: oldest first, address roles and amounts in asset units', async () => {
    const list = (extra = '') => labels(`/v2/assets/${s.assetId}/transactions${extra}`);
    assert.deepEqual(await list(), ['acfg', 'optin', 'axfer', 'afrz', 'afrz2', 'assetClose', 'clawback', 'destroy']);
    assert.deepEqual(await list(`?address=${s.addr(1)}&address-role=receiver`), ['optin', 'axfer']);
    assert.deepEqual(await list(`?address=${s.addr(0)}&address-role=receiver`), ['assetClose', 'clawback']);
    assert.deepEqual(await list(`?address=${s.addr(0)}&address-role=receiver&exclude-close-to=true`), ['assetClose', 'clawback']);
    assert.deepEqual(await list('?currency-greater-than=50'), ['axfer']);
    assert.deepEqual(await list('?tx-type=afrz&limit=1'), ['afrz']);
    assert.deepEqual(await labels(`/v2/assets/${s.asset2}/transactions`), ['acfg2', 'optin2', 'axfer2']);
  });

  it('renders the transaction envelope: ids, signatures, auth-addr, deltas, logs, inner transactions', async () => {
    const r = await srv.get(`/v2/transactions/${s.tx.inner}`);
    assert.equal(r.status, 200);
    const t = r.body.transaction;
    assert.equal(t.id, s.tx.inner);
    assert.equal(t['tx-type'], 'appl');
    assert.equal(t['confirmed-round'], Number(s.round.inner));
    assert.equal(t['round-time'], Number(s.ledger.block(s.round.inner!).header.timestamp));
    assert.deepEqual(t.logs, [toBase64(utf8('paid'))]);
    assert.equal(t['application-transaction']['application-id'], Number(s.appId));
    assert.equal(t['application-transaction']['on-completion'], 'noop');
    assert.equal(t.signature.sig.length, 88);
    assert.equal(t['inner-txns'].length, 1);
    const inner = t['inner-txns'][0];
    assert.equal(inner['tx-type'], 'pay');
    assert.equal(inner.sender, Address.forApp(s.appId).toString());
    assert.equal(inner['payment-transaction'].amount, 1000);
    assert.equal(inner['payment-transaction'].receiver, s.addr(1));
    const auth = (await srv.get(`/v2/transactions/${s.tx.authpay}`)).body.transaction;
    assert.equal(auth['auth-addr'], s.addr(0));
    const lsig = (await srv.get(`/v2/transactions/${s.tx.lsigpay}`)).body.transaction;
    assert.ok(lsig.signature.logicsig.logic);
    const create = (await srv.get(`/v2/transactions/${s.tx.acfg}`)).body.transaction;
    assert.equal(create['created-asset-index'], Number(s.assetId));
    assert.equal(create['asset-config-transaction'].params.name, 'Gold');
    assert.equal(create['asset-config-transaction'].params['unit-name-b64'], toBase64(utf8('GLD')));
    const app = (await srv.get(`/v2/transactions/${s.tx.appCreate}`)).body.transaction;
    assert.equal(app['created-application-index'], Number(s.appId));
    const close = (await srv.get(`/v2/transactions/${s.tx.close}`)).body.transaction;
    assert.equal(close['payment-transaction']['close-remainder-to'], s.addr(3));
    assert.ok(close['payment-transaction']['close-amount'] > 0);
    assert.equal(close['closing-amount'], close['payment-transaction']['close-amount']);
    const grp = (await srv.get(`/v2/transactions/${s.tx.group1}`)).body.transaction;
    assert.equal(grp['intra-round-offset'], 1);
    assert.equal(typeof grp.group, 'string');
  });

  it("renders every kind of transaction without a bigint, so its page takes the serializer's fast path", () => {
    const bigints: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (typeof v === 'bigint') bigints.push(path);
      else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (v && typeof v === 'object' && !(v instanceof Uint8Array)) for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    };
    const types = new Set<string>();
    for (const [label, txid] of Object.entries(s.tx)) {
      const e = incremental.txns.byTxid(txid)!;
      const json = transactionJson(e, incremental.txns.header(e.round)!);
      types.add(String(json['tx-type']));
      walk(json, label);
    }
    assert.deepEqual(bigints, []);
    assert.ok(types.size >= 5, [...types].join(','));
  });

  it('answers 400 with {message} for bad filters and combinations, 404 for unknown ids', async () => {
    const bad = async (params: string, re: RegExp) => {
      const r = await srv.get(`/v2/transactions?${params}`);
      assert.equal(r.status, 400, params);
      assert.deepEqual(Object.keys(r.body), ['message']);
      assert.match(r.body.message, re, params);
    };
    await bad('round=3&min-round=2', /^invalid input: cannot specify round and min-round\/max-round$/);
    await bad('min-round=5&max-round=2', /min-round must be less than max-round/);
    await bad('after-time=2024-01-02T00:00:00Z&before-time=2024-01-01T00:00:00Z', /after-time must be less than before-time/);
    await bad('tx-type=bogus', /unknown tx-type \[valid types: .*\]: 'bogus'/);
    await bad('sig-type=bogus', /unknown sig-type/);
    await bad('address-role=bogus', /unknown address role/);
    await bad('round=3&min-round=2&tx-type=x', /^invalid input: cannot specify round and min-round\/max-round, unknown tx-type/);
    await bad('address=XYZ', /unable to parse address/);
    await bad('limit=abc', /^Invalid format for parameter limit: /);
    await bad('rekey-to=maybe', /^Invalid format for parameter rekey-to: /);
    await bad('after-time=yesterday', /^Invalid format for parameter after-time: /);
    await bad('round=9223372036854775808', /greater than 9223372036854775807 is not supported/);
    await bad('txid=abc', /unable to parse base32 digest data 'txid'/);
    await bad('note-prefix=%%%', /unable to parse base64 data: 'note-prefix'/);
    await bad('next=zzz', /unable to parse next token/);
    await bad(`address=${Address.zero().toString()}&address-role=receiver`, /zero address with close address role/);
    const nf = await srv.get('/v2/transactions/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(nf.status, 404);
    assert.match(nf.body.message, /^no transaction found for transaction id/);
    const badId = await srv.get('/v2/transactions/not-a-txid');
    assert.equal(badId.status, 400);
  });

  it('an index built by replaying stored blocks gives the same transaction answers as one fed block by block', async () => {
    const rebuilt = srv.def.index;
    assert.notEqual(rebuilt, incremental);
    for (const f of [{}, { address: s.keys[1]!.publicKey }, { txType: 'pay' as const }, { assetId: s.assetId }]) {
      const a = rebuilt.txns.search(f, { descending: false, limit: 1000 });
      const b = incremental.txns.search(f, { descending: false, limit: 1000 });
      assert.deepEqual(
        a.roots.map((e) => e.confirmed!.txid),
        b.roots.map((e) => e.confirmed!.txid),
      );
    }
    for (let i = 0; i < 6; i++) {
      const hex = Buffer.from(s.keys[i]!.publicKey).toString('hex');
      assert.equal(rebuilt.state.account(hex)?.history.at()?.balance, incremental.state.account(hex)?.history.at()?.balance);
    }
  });

  it('after a rebuild from stored blocks, closed accounts, destroyed assets and deleted apps keep their rounds', async () => {
    const gone = await srv.get(`/v2/accounts/${s.addr(5)}`);
    assert.equal(gone.status, 404);
    const closed = (await srv.get(`/v2/accounts/${s.addr(5)}?include-all=true`)).body.account;
    assert.equal(closed.deleted, true);
    assert.equal(closed['closed-at-round'], Number(s.round.close));
    assert.equal(closed['created-at-round'], 0);
    const asset = (await srv.get(`/v2/assets/${s.assetId}?include-all=true`)).body.asset;
    assert.equal(asset['destroyed-at-round'], Number(s.round.destroy));
    assert.equal(asset['created-at-round'], Number(s.round.acfg));
    assert.equal(asset.params.name, 'Gold');
    const app = (await srv.get(`/v2/applications/${s.deletedAppId}?include-all=true`)).body.application;
    assert.equal(app['deleted-at-round'], Number(s.round.app2Delete));
    const live = (await srv.get(`/v2/applications/${s.appId}`)).body.application;
    assert.equal(live['created-at-round'], Number(s.round.appCreate));
    const holding = (await srv.get(`/v2/accounts/${s.addr(3)}/assets`)).body.assets;
    assert.deepEqual(
      holding.map((h: { amount: number; 'opted-in-at-round': number }) => [h.amount, h['opted-in-at-round']]),
      [[10, Number(s.round.optin2)]],
    );
    const appAcct = (await srv.get(`/v2/accounts/${Address.forApp(s.appId).toString()}`)).body.account;
    assert.equal(appAcct['created-at-round'], Number(s.round.fundApp));
    const boxes = (await srv.get(`/v2/applications/${s.appId}/boxes`)).body.boxes;
    assert.equal(boxes.length, 5);
    const a1 = (await srv.get(`/v2/accounts/${s.addr(1)}?include-all=true`)).body.account;
    assert.deepEqual(a1.assets, [
      {
        amount: 0,
        'asset-id': Number(s.assetId),
        deleted: true,
        'is-frozen': false,
        'opted-in-at-round': Number(s.round.optin),
        'opted-out-at-round': Number(s.round.assetClose),
      },
    ]);
    assert.deepEqual(
      a1['apps-local-state'].map((l: Record<string, unknown>) => [l.id, l.deleted, l['opted-in-at-round'], l['closed-out-at-round']]),
      [[Number(s.appId), true, Number(s.round.appOptIn), Number(s.round.appCloseOut)]],
    );
    assert.equal((await srv.get(`/v2/accounts/${s.addr(1)}`)).body.account.assets, undefined);
    const holders = (await srv.get(`/v2/assets/${s.assetId}/balances?include-all=true`)).body.balances;
    assert.deepEqual(holders.map((h: { address: string }) => h.address).sort(), [s.addr(0), s.addr(1)].sort());
  });
});

describe('query service: paging while blocks arrive', function () {
  this.timeout(20000);

  it('ascending and descending tokens stay on their position when new blocks are committed between pages', async () => {
    const s = buildScenario();
    const srv = await serveQuery(s.ledger);
    try {
      const before = (await srv.get('/v2/transactions?limit=10000')).body.transactions.map((t: { id: string }) => t.id);
      const first = await srv.get('/v2/transactions?limit=10');
      const desc = await srv.get(`/v2/transactions?address=${s.addr(2)}&limit=3`);
      const newIds: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = s.send([makePaymentTxn({ sender: s.addr(2), receiver: s.addr(0), amount: 1000n + BigInt(i), suggestedParams: s.sp() })]);
        newIds.push(r.txids[0]!);
      }
      const seen: string[] = first.body.transactions.map((t: { id: string }) => t.id);
      let next = first.body['next-token'];
      for (;;) {
        const r = await srv.get(`/v2/transactions?limit=10&next=${encodeURIComponent(next)}`);
        if (r.body.transactions.length === 0) break;
        seen.push(...r.body.transactions.map((t: { id: string }) => t.id));
        next = r.body['next-token'];
      }
      assert.deepEqual(seen, [...before, ...newIds]);
      assert.equal(new Set(seen).size, seen.length);
      // descending: the continuation holds only older rows, none of the new ones, no repeats
      const descAll = (await srv.get(`/v2/transactions?address=${s.addr(2)}&limit=1000`)).body.transactions.map((t: { id: string }) => t.id);
      assert.deepEqual(descAll.slice(0, 3), [...newIds].reverse());
      const rest = await srv.get(`/v2/transactions?address=${s.addr(2)}&next=${encodeURIComponent(desc.body['next-token'])}`);
      const descSeen = [...desc.body.transactions, ...rest.body.transactions].map((t: { id: string }) => t.id);
      assert.deepEqual(descSeen, descAll.slice(3));
      const cr = (await srv.get('/health')).body.round;
      assert.equal(cr, Number(s.ledger.latestRound));
    } finally {
      await srv.service.close();
    }
  });
});
