import assert from 'node:assert/strict';
import { QueryClient } from '../../../sdk/src/adapters/query/client.js';
import { FakeServer, json } from './fake-server.js';
import { readFeature, requireFixtures } from './fixtures.js';

type Row = Record<string, string>;

// The shared scenarios come from SDK test glue that always sets currencyGreaterThan and sets the
// other filters only when the example gives a non-zero / non-empty value; mirror that here.
const n = (v: string | undefined) => (v && v !== '0' ? Number(v) : undefined);
const s = (v: string | undefined) => (v ? v : undefined);
const b = (v: string | undefined) => (v === 'true' ? true : undefined);
const list = (v: string | undefined) => (v ? v.split(',') : undefined);

function txnFilters(r: Row) {
  return {
    notePrefix: s(r.notePrefixB64),
    txType: s(r.txType) as never,
    sigType: s(r.sigType) as never,
    txid: s(r.txid),
    round: n(r.round),
    minRound: n(r.minRound),
    maxRound: n(r.maxRound),
    limit: n(r.limit),
    beforeTime: s(r.beforeTime),
    afterTime: s(r.afterTime),
    currencyGreaterThan: Number(r.currencyGreaterThan ?? 0),
    currencyLessThan: n(r.currencyLessThan),
    rekeyTo: b(r.rekeyTo),
  };
}

/** Step text (after "When we make ") → the call on our client. Longer prefixes first. */
const STEPS: [string, (q: QueryClient, r: Row) => Promise<unknown>][] = [
  [
    'a Lookup Asset Balances call',
    (q, r) =>
      q.lookupAssetBalances(Number(r.index), {
        limit: n(r.limit),
        next: s(r.afterAddress),
        currencyGreaterThan: Number(r.currencyGreaterThan),
        currencyLessThan: n(r.currencyLessThan),
      }),
  ],
  [
    'a Lookup Asset Transactions call',
    (q, r) =>
      q.lookupAssetTransactions(Number(r.index), {
        ...txnFilters(r),
        address: s(r.address),
        addressRole: s(r.addressRole) as never,
        excludeCloseTo: b(r.excludeCloseTo),
        rekeyTo: b(r.rekeyTo ?? r.RekeyTo),
      }),
  ],
  ['a Lookup Account Transactions call', (q, r) => q.lookupAccountTransactions(r.account!, { ...txnFilters(r), assetId: n(r.index) })],
  ['a Lookup Block call against round <round> and header', (q, r) => q.lookupBlock(Number(r.round), { headerOnly: b(r.header) })],
  ['a Lookup Block call', (q, r) => q.lookupBlock(Number(r.round))],
  ['a Lookup Account by ID call against account "<account>" with round', (q, r) => q.lookupAccount(r.account!, { round: n(r.round) })],
  ['a Lookup Account by ID call against account "<account>" with exclude', (q, r) => q.lookupAccount(r.account!, { exclude: list(r.exclude) as never })],
  ['a Lookup Asset by ID call', (q, r) => q.lookupAsset(Number(r.index))],
  ['a Search Accounts call with onlineOnly', (q, r) => q.searchAccounts({ onlineOnly: b(r.onlineOnly) })],
  ['a Search Accounts call with exclude', (q, r) => q.searchAccounts({ exclude: list(r.exclude) as never })],
  [
    'a Search Accounts call with assetID',
    (q, r) =>
      q.searchAccounts({
        assetId: n(r.index),
        limit: n(r.limit),
        currencyGreaterThan: Number(r.currencyGreaterThan),
        currencyLessThan: n(r.currencyLessThan),
        round: n(r.round),
        authAddr: s(r.authAddr),
      }),
  ],
  [
    'a Search For Transactions call',
    (q, r) =>
      q.searchTransactions({
        ...txnFilters(r),
        address: s(r.account),
        assetId: n(r.index),
        addressRole: s(r.addressRole) as never,
        excludeCloseTo: b(r.excludeCloseTo),
        groupId: s(r.groupid),
      }),
  ],
  [
    'a Search For BlockHeaders call',
    (q, r) =>
      q.searchBlockHeaders({
        minRound: n(r.minRound),
        maxRound: n(r.maxRound),
        limit: n(r.limit),
        next: s(r.nextToken),
        beforeTime: s(r.beforeTime),
        afterTime: s(r.afterTime),
        proposers: list(r.proposers),
        expired: list(r.expired),
        absent: list(r.absent),
      }),
  ],
  ['a SearchForAssets call', (q, r) => q.searchAssets({ limit: n(r.limit), creator: s(r.creator), name: s(r.name), unit: s(r.unit), assetId: n(r.index) })],
  ['a SearchForApplications call with applicationID', (q, r) => q.searchApplications({ applicationId: n(r['application-id']) })],
  ['a SearchForApplications call with creator', (q, r) => q.searchApplications({ creator: s(r.creator) })],
  ['a LookupApplications call', (q, r) => q.lookupApplication(Number(r['application-id']))],
  [
    'a LookupApplicationBoxByIDandName call',
    (q, r) => q.lookupApplicationBox(Number(r['application-id']), { b64: r['encoded-box-name']!.replace(/^b64:/, '') }),
  ],
  ['a SearchForApplicationBoxes call', (q, r) => q.searchApplicationBoxes(Number(r['application-id']), { limit: n(r.max), next: s(r.nextToken) })],
  [
    'a LookupApplicationLogsByID call',
    (q, r) =>
      q.lookupApplicationLogs(Number(r['application-id']), {
        limit: n(r.limit),
        minRound: n(r.minRound),
        maxRound: n(r.maxRound),
        next: s(r.nextToken),
        senderAddress: s(r.senderAddr),
        txid: s(r.txid),
      }),
  ],
  [
    'a LookupAccountAssets call',
    (q, r) => q.lookupAccountAssets(r['account-id']!, { assetId: n(r['asset-id']), includeAll: b(r['include-all']), limit: n(r.limit), next: s(r.next) }),
  ],
  [
    'a LookupAccountCreatedAssets call',
    (q, r) =>
      q.lookupAccountCreatedAssets(r['account-id']!, { assetId: n(r['asset-id']), includeAll: b(r['include-all']), limit: n(r.limit), next: s(r.next) }),
  ],
  [
    'a LookupAccountAppLocalStates call',
    (q, r) =>
      q.lookupAccountAppLocalStates(r['account-id']!, {
        applicationId: n(r['application-id']),
        includeAll: b(r['include-all']),
        limit: n(r.limit),
        next: s(r.next),
      }),
  ],
  [
    'a LookupAccountCreatedApplications call',
    (q, r) =>
      q.lookupAccountCreatedApplications(r['account-id']!, {
        applicationId: n(r['application-id']),
        includeAll: b(r['include-all']),
        limit: n(r.limit),
        next: s(r.next),
      }),
  ],
];

describe('adapters/query: shared query-service path scenarios', function () {
  let server: FakeServer;
  let q: QueryClient;

  before(async function () {
    requireFixtures(this);
    server = await FakeServer.start((_r, res) => json(res, 200, { 'current-round': 1 }));
    q = new QueryClient({ url: server.url, retry: false });
  });
  after(async () => {
    await q?.close();
    await server?.close();
  });

  it('builds exactly the recorded path and query for every example', async () => {
    let checked = 0;
    for (const outline of readFeature('unit/v2indexerclient_paths.feature')) {
      const step = outline.steps.find((t) => t.startsWith('When we make '))!.slice('When we make '.length);
      const entry = STEPS.find(([prefix]) => step.startsWith(prefix));
      assert.ok(entry, `no mapping for step: ${step}`);
      for (const row of outline.rows) {
        await entry[1](q, row);
        assert.equal(server.last.rawUrl, row.path, `${outline.name}: ${JSON.stringify(row)}`);
        checked++;
      }
    }
    assert.ok(checked >= 100, `only ${checked} examples`);
  });
});
