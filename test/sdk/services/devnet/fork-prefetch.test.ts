import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'undici';
import { Ed25519KeyPair } from '../../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { toHex } from '../../../../sdk/src/encoding/hex.js';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import {
  ForkState,
  Ledger,
  MemoryForkCache,
  simulate,
  type AppData,
  type AssetData,
  type ForkHead,
  type ForkRemote,
  type RemoteAccount,
  type RemoteBoxPage,
  type RemoteRead,
} from '../../../../sdk/src/ledger/index.js';
import { AlgodForkRemote } from '../../../../sdk/src/services/devnet/fork-remote.js';
import { startNodeService, type RunningNodeService } from '../../../../sdk/src/services/node/service.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import { makeAppCallTxn, makeAppCreateTxn, makePaymentTxn } from '../../../../sdk/src/txn/builders.js';
import { assignGroupId } from '../../../../sdk/src/txn/group.js';
import { signTransaction } from '../../../../sdk/src/txn/sign.js';
import type { SignedTransaction } from '../../../../sdk/src/txn/types.js';

/**
 * What a fork asks its remote for: a group's first run fetches what the group names (and the fee
 * sink) in one parallel batch and needs no second pass; the same group again asks nothing; the
 * results equal the remote's own simulate. The remote is a node service over a ledger in this
 * process, read through the real HTTP fork remote, counted by a wrapper.
 */

const BOXES = 10;

/** Sums ten boxes (box0..box9) and logs the sum. */
const APPROVAL = `#pragma version 10
txn ApplicationID
bz ok
int 0
store 0
int 0
store 1
loop:
load 0
int ${BOXES}
==
bnz done
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
load 0
int 1
+
store 0
b loop
done:
load 1
itob
log
ok:
int 1`;

/** A fork remote that counts what it is asked, and how many requests were in flight at once. */
class CountingRemote implements ForkRemote {
  readonly url: string;
  readonly asked: string[] = [];
  waves = 0;
  maxInFlight = 0;
  #inFlight = 0;
  readonly #inner: ForkRemote;
  constructor(inner: ForkRemote) {
    this.#inner = inner;
    this.url = inner.url;
  }
  reset(): void {
    this.asked.length = 0;
    this.waves = 0;
    this.maxInFlight = 0;
  }
  async #count<T>(what: string, f: () => Promise<T>): Promise<T> {
    this.asked.push(what);
    if (this.#inFlight++ === 0) this.waves++;
    this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
    try {
      return await f();
    } finally {
      this.#inFlight--;
    }
  }
  head(): Promise<ForkHead> {
    return this.#inner.head();
  }
  latestRound(): Promise<bigint> {
    return this.#count('latest round', () => this.#inner.latestRound());
  }
  account(address: Uint8Array): Promise<RemoteRead<RemoteAccount>> {
    return this.#count(`account ${new Address(address).toString()}`, () => this.#inner.account(address));
  }
  app(id: bigint): Promise<RemoteRead<AppData>> {
    return this.#count(`app ${id}`, () => this.#inner.app(id));
  }
  asset(id: bigint): Promise<RemoteRead<AssetData>> {
    return this.#count(`asset ${id}`, () => this.#inner.asset(id));
  }
  box(appId: bigint, name: Uint8Array): Promise<RemoteRead<Uint8Array>> {
    return this.#count(`box ${appId}/0x${toHex(name)}`, () => this.#inner.box(appId, name));
  }
  boxPage(appId: bigint, options: { after?: Uint8Array; limit: number; round?: bigint }): Promise<RemoteBoxPage | undefined> {
    return this.#count(`boxes of app ${appId} after 0x${toHex(options.after ?? new Uint8Array())}`, () => this.#inner.boxPage!(appId, options));
  }
}

/**
 * A node in front of the real one that answers the paged box listing as an older node would:
 * `legacy` ignores the paging parameters (every name, no round, no values), `refuse` answers 400,
 * `no-values` drops `include` (paged, but without values), `pass` forwards it. Everything else is
 * forwarded. Counts the box listings asked for.
 */
async function olderNode(target: string, mode: 'legacy' | 'refuse' | 'no-values' | 'pass') {
  const listings: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (/^\/v2\/applications\/\d+\/boxes$/.test(url.pathname)) {
      listings.push(url.search);
      if (mode === 'refuse') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Invalid format for parameter include: unknown' }));
        return;
      }
      if (mode === 'legacy') for (const k of ['limit', 'next', 'prefix', 'include', 'round']) url.searchParams.delete(k);
      if (mode === 'no-values') url.searchParams.delete('include');
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers[k] = v;
    httpRequest(url, { method: 'GET', headers }).then(
      async (r) => {
        const body = Buffer.from(await r.body.arrayBuffer());
        res.writeHead(r.statusCode, { 'content-type': String(r.headers['content-type'] ?? 'application/json') }).end(body);
      },
      () => res.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    listings,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('fork prefetch: one batch for a cold call, nothing for a cached one', function () {
  this.timeout(60_000);
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(9));
  const sender = new Address(key.publicKey);
  let l: Ledger;
  let node: RunningNodeService;
  let remote: CountingRemote;
  let appId: bigint;
  let group: SignedTransaction[];
  let names: Uint8Array[];
  let request: { 'txn-groups': { txns: SignedTransaction[] }[] };
  const token = 'c'.repeat(64);

  before(async () => {
    l = new Ledger({ genesisAccounts: [{ address: sender, amount: 10n ** 15n }] });
    const sp = () => ({
      fee: 2000n,
      flatFee: true,
      firstValid: l.latestRound,
      lastValid: l.latestRound + 1000n,
      genesisId: l.genesisId,
      genesisHash: l.genesisHash,
    });
    l.submit([
      signTransaction(
        makeAppCreateTxn({
          sender,
          approvalProgram: assemble(APPROVAL).program,
          clearProgram: assemble('#pragma version 10\nint 1').program,
          suggestedParams: sp(),
        }),
        key,
      ),
    ]);
    appId = l.block(l.latestRound).txns[0]!.ad.createdAppId!;
    l.submit([signTransaction(makePaymentTxn({ sender, receiver: Address.forApp(appId), amount: 10n ** 9n, suggestedParams: sp() }), key)]);
    names = Array.from({ length: BOXES }, (_, i) => {
      const n = new Uint8Array(11);
      n.set(utf8('box'));
      new DataView(n.buffer).setBigUint64(3, BigInt(i));
      return n;
    });
    for (const [i, name] of names.entries()) {
      const v = new Uint8Array(8);
      new DataView(v.buffer).setBigUint64(0, BigInt(i + 1));
      l.state.putBox(appId, name, v);
    }
    l.state.commit();
    node = await startNodeService({ ledger: l, apiToken: token, host: '127.0.0.1', port: 0 });
    remote = new CountingRemote(new AlgodForkRemote({ url: node.url, token }));
    group = assignGroupId([
      makeAppCallTxn({ sender, appId, boxes: names.slice(0, 8).map((name) => ({ appId, name })), note: utf8('first'), suggestedParams: sp() }),
      makeAppCallTxn({ sender, appId, boxes: names.slice(8).map((name) => ({ appId, name })), note: utf8('second'), suggestedParams: sp() }),
    ]).map((t) => signTransaction(t, key));
    request = { 'txn-groups': [{ txns: group }] };
  });

  after(async () => {
    await node?.close();
  });

  const openFork = async () => {
    const fork = await ForkState.open({ remote, cache: new MemoryForkCache() });
    const forked = new Ledger({ fork });
    remote.reset();
    return { fork, forked };
  };

  it('names the sender, the app, its account, the fee sink and the boxes, each once', async () => {
    const { fork } = await openFork();
    const wanted = fork.groupResources([group, group]);
    const kinds = wanted.map((r) => r.kind);
    assert.equal(kinds.filter((k) => k === 'box').length, BOXES);
    assert.equal(wanted.length, BOXES + 4, 'sender, app, app account, fee sink and ten boxes, no duplicates');
    assert.ok(wanted.some((r) => r.kind === 'account' && toHex(r.address) === toHex(fork.head.feeSink)));
    assert.equal(remote.asked.length, 0, 'naming asks nothing');
  });

  it('a cold call fetches everything in one parallel wave of 5 requests (the ten boxes in one page) and runs once; the cached call asks nothing; both equal the remote simulate', async () => {
    const { fork, forked } = await openFork();
    await fork.prefetchGroups([group]);
    assert.equal(remote.asked.length, 5, `sender, app, app account, fee sink and one page of boxes: ${remote.asked.join(', ')}`);
    assert.equal(remote.asked.filter((a) => a.startsWith('boxes of app')).length, 1);
    assert.equal(new Set(remote.asked).size, remote.asked.length, 'no resource asked twice');
    assert.equal(remote.waves, 1, `one wave of requests, got ${remote.waves}`);
    assert.equal(remote.maxInFlight, 5, 'all in flight at once');
    for (const name of names) assert.ok(fork.has({ kind: 'box', appId, name }), 'every named box is known after the page');
    assert.equal(fork.requests.length, 5);
    const misses = fork.missCount;
    const cold = await fork.run(() => simulate(forked, request));
    assert.equal(fork.missCount, misses, 'the first run read nothing it had not fetched: one pass');
    assert.equal(remote.asked.length, 5, 'the run itself asked nothing');
    const own = simulate(l, request);
    assert.equal((own['txn-groups'] as { 'failure-message'?: string }[])[0]!['failure-message'], undefined);
    assert.deepEqual(cold, own, "the fork's result equals the remote's own simulate");

    remote.reset();
    await fork.prefetchGroups([group]);
    const warm = await fork.run(() => simulate(forked, request));
    assert.equal(remote.asked.length, 0, 'the cached call (and its prefetch) asks the remote nothing');
    assert.deepEqual(warm, own);
  });

  it('without the prefetch the same call fetches lazily in more waves and gives the same result', async () => {
    const { fork, forked } = await openFork();
    const lazy = await fork.run(() => simulate(forked, request));
    assert.ok(remote.waves > 1, `lazy fetching takes more than one wave (got ${remote.waves})`);
    assert.equal(new Set(remote.asked).size, remote.asked.length, 'no resource asked twice');
    assert.deepEqual(lazy, simulate(l, request));
  });

  it('the concurrency limit splits a batch into waves of at most that many requests', async () => {
    const fork = await ForkState.open({ remote, cache: new MemoryForkCache(), limits: { concurrency: 4 } });
    remote.reset();
    await fork.prefetchGroups([group]);
    assert.equal(remote.asked.length, 5);
    assert.equal(remote.maxInFlight, 4);
  });

  it('accounts the local state answers for (funded genesis accounts of the fork) are never fetched', async () => {
    const fork = await ForkState.open({ remote, cache: new MemoryForkCache() });
    const local = new Address(Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(3)).publicKey);
    const forked = new Ledger({ fork, genesisAccounts: [{ address: local, amount: 10n ** 12n }] });
    remote.reset();
    await fork.prefetch([{ kind: 'account', address: local.publicKey }]);
    assert.deepEqual(remote.asked, [], 'a local account is not asked of the remote');
    assert.equal(forked.balance(local.publicKey), 10n ** 12n);
  });
  for (const mode of ['legacy', 'refuse', 'no-values'] as const) {
    it(`an older remote (${mode === 'legacy' ? 'ignoring the paging parameters' : mode === 'refuse' ? 'refusing them with 400' : 'ignoring include'}): every box read on its own, the same result, and no page asked again`, async () => {
      const older = await olderNode(node.url, mode);
      try {
        const counted = new CountingRemote(new AlgodForkRemote({ url: older.url, token }));
        for (let i = 0; i < 2; i++) {
          const fork = await ForkState.open({ remote: counted, cache: new MemoryForkCache() });
          const forked = new Ledger({ fork });
          counted.reset();
          await fork.prefetchGroups([group]);
          assert.equal(counted.asked.filter((a) => a.startsWith('box ')).length, BOXES, 'each box on its own');
          assert.equal(older.listings.length, 1, 'the listing was asked once, by the first fork only');
          assert.equal(fork.requests.length, BOXES + 4);
          const result = await fork.run(() => simulate(forked, request));
          assert.deepEqual(result, simulate(l, request));
        }
      } finally {
        await older.close();
      }
    });
  }

  it("a fork as the remote (a fork of a fork): the middle fork refuses to page the boxes it has only partly read, so each is read on its own, and the result is the first remote's", async () => {
    const { fork: middle, forked: middleLedger } = await openFork();
    await middle.prefetch([{ kind: 'box', appId, name: names[3]! }]); // the middle fork has read one box
    const middleNode = await startNodeService({ ledger: middleLedger, apiToken: token, host: '127.0.0.1', port: 0 });
    try {
      const page = await httpRequest(`${middleNode.url}/v2/applications/${appId}/boxes?limit=5&include=values`, { headers: { 'x-algo-api-token': token } });
      assert.equal(page.statusCode, 400);
      assert.match(((await page.body.json()) as { message: string }).message, /a fork holds only the boxes it has read or written of app/);
      const counted = new CountingRemote(new AlgodForkRemote({ url: middleNode.url, token }));
      const top = await ForkState.open({ remote: counted, cache: new MemoryForkCache() });
      const topLedger = new Ledger({ fork: top });
      counted.reset();
      await top.prefetchGroups([group]);
      assert.equal(counted.asked.filter((a) => a.startsWith('box ')).length, BOXES, 'each box on its own');
      assert.deepEqual(await top.run(() => simulate(topLedger, request)), simulate(l, request));
    } finally {
      await middleNode.close();
    }
  });

  it('a remote that no longer holds the fork round: the page is read at its latest round instead, and later pages skip the old round', async () => {
    const counting = await olderNode(node.url, 'pass');
    try {
      const counted = new CountingRemote(new AlgodForkRemote({ url: counting.url, token }));
      const fork = await ForkState.open({ remote: counted, cache: new MemoryForkCache() });
      const forkRound = fork.head.round;
      l.advanceRounds(100n); // past the remote's window of 64 rounds of deltas
      await fork.prefetchGroups([group]);
      assert.equal(counting.listings.length, 2, `asked at the fork round, then at the latest: ${counting.listings.join(' ; ')}`);
      assert.match(counting.listings[0]!, new RegExp(`round=${forkRound}`));
      assert.doesNotMatch(counting.listings[1]!, /round=/);
      assert.equal(counted.asked.filter((a) => a.startsWith('box ')).length, 0);
      const forked = new Ledger({ fork });
      for (const [i, name] of names.entries()) assert.equal(new DataView(forked.box(appId, name)!.buffer).getBigUint64(0), BigInt(i + 1));
      assert.equal(fork.recordRound({ kind: 'box', appId, name: names[0]! }), l.latestRound, 'read at the remote latest round');
      // The old round is not asked for again; a fork of the remote's current round pins that one.
      await fork.prefetch(['zz1', 'zz2'].map((n) => ({ kind: 'box' as const, appId, name: utf8(n) })));
      assert.equal(counting.listings.length, 3);
      assert.doesNotMatch(counting.listings[2]!, /round=/);
      assert.equal(forked.box(appId, utf8('zz1')), undefined);
      assert.ok(fork.has({ kind: 'box', appId, name: utf8('zz2') }), 'known absent');
      const again = await ForkState.open({ remote: counted, cache: new MemoryForkCache() });
      await again.prefetchGroups([group]);
      assert.equal(counting.listings.length, 4);
      assert.match(counting.listings[3]!, new RegExp(`round=${again.head.round}`));
    } finally {
      await counting.close();
    }
  });
});
