// Issue 23: the in-process chain — cheats observed by a contract, revert restoring byte-identical
// state (state hash and query-service answers), nested snapshots, and the devnet's cheat routes.
import { strict as assert } from 'node:assert';
import { Tealworks, algos } from '../../../sdk/src/index.js';
import { InProcessChain } from '../../../sdk/src/testing/index.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { stringifyJson } from '../../../sdk/src/encoding/json.js';
import { DevnetCheatsClient } from '../../../sdk/src/adapters/node/devnet-cheats.js';
import { HttpError } from '../../../sdk/src/adapters/http/errors.js';
import { startDevnet } from '../../../sdk/src/services/devnet/devnet.js';
import { startNodeService } from '../../../sdk/src/services/node/service.js';
import { Ledger } from '../../../sdk/src/ledger/ledger.js';
import { LedgerNotFoundError } from '../../../sdk/src/ledger/errors.js';
import { ClientError } from '../../../sdk/src/client/errors.js';
import { ValidationError } from '../../../sdk/src/errors.js';
import { assemble } from '../../../sdk/src/teal/index.js';

// Logs what a contract sees of the chain: round, latest timestamp, sender, sender's balance, box "b",
// FirstValidTime, and the seed of the block before FirstValid.
const PROBE = `#pragma version 10
txn ApplicationID
bz create
global Round
itob
log
global LatestTimestamp
itob
log
txn Sender
log
txn Sender
balance
itob
log
byte "b"
box_get
pop
log
txn FirstValidTime
itob
log
txn FirstValid
int 1
-
block BlkSeed
log
int 1
return
create:
int 1
return
`;
const CLEAR = '#pragma version 10\nint 1\n';
const u64 = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0);

describe('testing: the in-process chain', function () {
  this.timeout(60_000);

  it('every cheat is observed by a contract: round, timestamp, sender (impersonated), balance, box, block seed', async () => {
    const tw = await Tealworks.inProcess();
    try {
      const chain = tw.testChain;
      const [alice] = chain.accounts;
      const d = await tw.app.deploy({ creator: alice!, approval: PROBE, clear: CLEAR, name: 'probe', fund: algos(1) });
      const app = d.client;
      const see = async (sender?: string) => {
        const r = await app.call(undefined, [], { boxes: [{ name: 'b' }], ...(sender ? { sender } : {}) });
        const l = r.logs.map((x) => x.bytes);
        return {
          round: u64(l[0]!),
          time: u64(l[1]!),
          sender: new Address(l[2]!).toString(),
          balance: u64(l[3]!),
          box: l[4]!,
          firstValidTime: u64(l[5]!),
          seed: toHex(l[6]!),
          confirmed: r.confirmedRound,
        };
      };
      const before = await see();
      chain.advanceRounds(1_000_000);
      const after = await see();
      // The call is evaluated in the round after the latest one.
      assert.equal(after.round, before.confirmed + 1_000_000n + 1n);
      assert.equal(after.confirmed, after.round);

      chain.setTime(1_900_000_000n);
      assert.equal((await see()).time, 1_900_000_000n);
      chain.advanceTime(3600);
      const t = await see();
      assert.equal(t.time, 1_900_003_600n);
      // FirstValidTime is the timestamp of the block before FirstValid (the set-time block).
      assert.equal(t.firstValidTime, 1_900_000_000n);

      const stranger = tw.account.random().address;
      chain.setBalance(stranger, 7_000_000n);
      chain.impersonate(stranger);
      const s = await see(stranger);
      assert.equal(s.sender, stranger);
      assert.equal(s.balance, 7_000_000n - 1000n);
      chain.stopImpersonating(stranger);
      // Its own key signs again (a random account of this client): a real signature, checked.
      const signed = await app.call(undefined, [], { boxes: [{ name: 'b' }], sender: stranger });
      assert.equal(chain.ledger.transaction(signed.txid)!.stxn.sig?.length, 64);

      chain.setBox(d.appId, 'b', utf8('hello box'));
      assert.deepEqual((await see()).box, utf8('hello box'));

      const seed = new Uint8Array(32).fill(7);
      chain.setBlockSeed(seed, chain.round - 1n); // the probe reads the block before FirstValid (= the latest round)
      assert.equal((await see()).seed, toHex(seed));
    } finally {
      await tw.close();
    }
  });

  it('revert restores byte-identical state and query answers after payments, app creates, box writes, asset transfers and cheats', async () => {
    const tw = await Tealworks.inProcess({ accounts: 3 });
    try {
      const chain = tw.testChain;
      const [alice, bob, carol] = chain.accounts;
      const spec = 'examples/counter/abi/counter.arc56.json';
      const counter = await tw.app.deploy({
        creator: alice!,
        spec,
        approval: 'examples/counter/abi/counter.teal',
        clear: 'examples/counter/abi/clear.teal',
        fund: algos(1),
      });
      await counter.client.call('increment', [2]);
      const asset = await tw.send.assetCreate({ sender: alice!, total: 1000n, decimals: 0, assetName: 'T', unitName: 'T' });
      const assetId = asset.createdAssetId!;
      await tw.send.assetOptIn({ sender: bob!, assetId });

      const addresses = [alice!.address, bob!.address, carol!.address, counter.appAddress];
      const answers = async () =>
        stringifyJson({
          round: chain.round,
          node: await Promise.all(addresses.map((a) => tw.node.account(a))),
          app: await tw.node.application(counter.appId),
          accounts: await Promise.all(addresses.map((a) => tw.query!.lookupAccount(a))),
          apps: await tw.query!.searchApplications(),
          assets: await tw.query!.searchAssets(),
          balances: await tw.query!.lookupAssetBalances(assetId),
          boxes: await tw.query!.searchApplicationBoxes(counter.appId),
          txns: await tw.query!.searchTransactions(),
          blocks: await tw.query!.searchBlockHeaders(),
        });
      // Start from an index built from the ledger as a revert leaves it (the incrementally fed
      // index reports createdAtRound differently for genesis accounts; see the report).
      chain.revert(chain.snapshot());
      const hash0 = chain.stateHash();
      const answers0 = await answers();
      const id = chain.snapshot();

      await tw.send.payment({ sender: alice!, receiver: carol!.address, amount: algos(3) });
      await counter.client.call('increment', [4], { sender: bob!.address });
      await tw.send.assetTransfer({ sender: alice!, receiver: bob!.address, assetId, amount: 10n });
      const other = await tw.app.deploy({
        creator: bob!,
        spec,
        approval: 'examples/counter/abi/counter.teal',
        clear: 'examples/counter/abi/clear.teal',
        fund: algos(1),
      });
      chain.setBox(counter.appId, 'extra', utf8('x'));
      chain.setGlobal(counter.appId, 'count', 99n, counter.client.spec);
      chain.setBalance(carol!.address, 1n);
      chain.setAssetHolding(carol!.address, assetId, { amount: 5n });
      chain.advanceRounds(5000);
      chain.advanceTime(100);
      chain.impersonate(carol!.address);
      assert.notEqual(chain.stateHash(), hash0);
      assert.ok(other.appId > counter.appId);

      chain.revert(id);
      assert.equal(chain.stateHash(), hash0);
      assert.equal(await answers(), answers0);
      assert.equal(tw.testChain.ledger.isImpersonated(carol!.address), false);
      // The chain goes on from there as if nothing had happened, and the snapshot is reusable.
      await tw.send.payment({ sender: alice!, receiver: carol!.address, amount: algos(3) });
      chain.revert(id);
      assert.equal(chain.stateHash(), hash0);
      assert.equal(await answers(), answers0);
    } finally {
      await tw.close();
    }
  });

  it('snapshots nest; reverting to an outer one drops the inner ones', async () => {
    const tw = await Tealworks.inProcess();
    try {
      const chain = tw.testChain;
      const [alice, bob] = chain.accounts;
      const pay = (n: number) => tw.send.payment({ sender: alice!, receiver: bob!.address, amount: BigInt(n) });
      const outer = chain.snapshot();
      const h0 = chain.stateHash();
      await pay(1);
      const inner = chain.snapshot();
      const h1 = chain.stateHash();
      const r1 = chain.round;
      await pay(2);
      chain.advanceRounds(10);
      chain.revert(inner);
      assert.equal(chain.stateHash(), h1);
      assert.equal(chain.round, r1);
      await pay(3);
      chain.revert(outer);
      assert.equal(chain.stateHash(), h0);
      assert.equal(chain.round, 0n);
      assert.throws(() => chain.revert(inner), LedgerNotFoundError);
      chain.release(outer);
      assert.deepEqual(chain.ledger.markIds(), []);
    } finally {
      await tw.close();
    }
  });

  it('after stopImpersonating (or a revert that ends an impersonation) the client signs as it did before, or not at all', async () => {
    const tw = await Tealworks.inProcess({ accounts: 1 });
    try {
      const chain = tw.testChain;
      const [alice] = chain.accounts;
      const keyless = Address.fromString(new Address(new Uint8Array(32).fill(9)).toString()).toString();
      chain.setBalance(keyless, 5_000_000n);
      const base = chain.snapshot();
      chain.impersonate(keyless);
      chain.impersonate(keyless); // twice: still one signer to give back
      await tw.send.payment({ sender: keyless, receiver: alice!.address, amount: 1000n });
      chain.stopImpersonating(keyless);
      // No key and no impersonation: refused by the client before anything is sent, not by the chain.
      const round = chain.round;
      await assert.rejects(tw.send.payment({ sender: keyless, receiver: alice!.address, amount: 1000n }), (e: Error) => {
        assert.doesNotMatch(e.message, /no sig|signature/i);
        assert.match(e.message, new RegExp(keyless));
        return true;
      });
      assert.equal(chain.round, round);
      // A genesis account impersonated and then reverted to before: its own key signs again.
      chain.impersonate(alice!.address);
      chain.revert(base);
      assert.equal(chain.ledger.isImpersonated(alice!.address), false);
      const r = await tw.send.payment({ sender: alice!, receiver: keyless, amount: 1000n });
      assert.equal(chain.ledger.transaction(r.txid)!.stxn.sig?.length, 64);
      assert.ok(chain.ledger.transaction(r.txid)!.stxn.sig!.some((b) => b !== 0));
      // A revert to a state where the impersonation was on turns the empty signature back on.
      chain.impersonate(keyless);
      const on = chain.snapshot();
      chain.stopImpersonating(keyless);
      chain.revert(on);
      await tw.send.payment({ sender: keyless, receiver: alice!.address, amount: 1000n });
    } finally {
      await tw.close();
    }
  });

  it('a closed chain refuses cheats and snapshots; releasing an unknown snapshot is an error', async () => {
    const tw = await Tealworks.inProcess({ accounts: 1 });
    const chain = tw.testChain;
    const id = chain.snapshot();
    chain.release(id);
    assert.throws(
      () => chain.release(id),
      (e: Error) => e instanceof LedgerNotFoundError && /no snapshot \d+: .*nothing to release/.test(e.message),
    );
    assert.throws(() => chain.release(4242), LedgerNotFoundError);
    await tw.close();
    await tw.close(); // twice: nothing more to stop
    await chain.close();
    const hash = chain.stateHash(); // still readable
    for (const [name, f] of [
      ['snapshot', () => chain.snapshot()],
      ['revert', () => chain.revert(id)],
      ['advanceRounds', () => chain.advanceRounds(1)],
      ['setTime', () => chain.setTime(2_000_000_000n)],
      ['setBalance', () => chain.setBalance(chain.accounts[0]!.address, 1n)],
      ['impersonate', () => chain.impersonate(chain.accounts[0]!.address)],
    ] as const)
      assert.throws(f, (e: Error) => e instanceof ClientError && e.message.startsWith(`${name}: this in-process chain is closed`), name);
    assert.equal(chain.stateHash(), hash);
  });

  it("state cheats keep an app within its declared schema, in the node's words, changing nothing", async () => {
    const tw = await Tealworks.inProcess({ accounts: 1 });
    try {
      const chain = tw.testChain;
      const [alice] = chain.accounts;
      // One uint and one byte slice of global state; one uint of local state. Created opted in.
      const always = assemble('#pragma version 10\nint 1\n').program;
      const created = await tw.send.appCreate({
        sender: alice!,
        approvalProgram: always,
        clearProgram: always,
        onComplete: 'optin',
        schema: { globalInts: 1, globalBytes: 1, localInts: 1, localBytes: 0 },
      });
      const d = { appId: created.createdAppId! };
      chain.setGlobal(d.appId, 'n', 1n);
      chain.setGlobal(d.appId, 'n', 2n); // the same key again: no new key
      chain.setGlobal(d.appId, 's', utf8('x'));
      const hash = chain.stateHash();
      assert.throws(
        () => chain.setGlobal(d.appId, 'm', 3n),
        (e: Error) => e instanceof ValidationError && /store integer count 2 exceeds schema integer count 1/.test(e.message),
      );
      assert.throws(() => chain.setGlobal(d.appId, 'n', utf8('now bytes')), /store bytes count 2 exceeds schema bytes count 1/);
      assert.equal(chain.stateHash(), hash);
      // Deleting makes room.
      chain.setGlobal(d.appId, 'n', undefined);
      chain.setGlobal(d.appId, 'm', 3n);
      chain.setLocal(alice!.address, d.appId, 'a', 1n);
      assert.throws(
        () => chain.setLocal(alice!.address, d.appId, 'b', utf8('x')),
        /the local state of [A-Z2-7]{58} in app \d+ would hold 1 byte-slice keys.*store bytes count 1 exceeds schema bytes count 0/,
      );
    } finally {
      await tw.close();
    }
  });

  it('cheats refuse bad input with a clear error', () => {
    const chain = InProcessChain.create({ accounts: 1 });
    assert.throws(() => chain.advanceRounds(0), /positive number of rounds/);
    assert.throws(() => chain.setBox(5n, 'b', utf8('x')), /app 5 does not exist/);
    assert.throws(() => chain.setAssetHolding(chain.accounts[0]!.address, 9n, { amount: 1n }), /asset 9 does not exist/);
    assert.throws(() => chain.setBlockSeed(new Uint8Array(3)), /32 bytes/);
    assert.throws(
      () =>
        new Ledger({
          store: { readSnapshot: () => undefined, readJournal: () => [], append: () => undefined, writeSnapshot: () => undefined, clear: () => undefined },
        }).mark(),
      /in memory/,
    );
  });

  it('cheat routes: on the devnet with the token; refused without it and on a node that is not a devnet', async () => {
    const d = await startDevnet({ inMemory: true, accounts: 1 });
    const ledger = new Ledger();
    const plain = await startNodeService({ ledger, apiToken: 't'.repeat(64) });
    try {
      const noToken = new DevnetCheatsClient({ url: d.node.url, retry: false });
      await assert.rejects(noToken.cheat('advance-rounds', { rounds: 5 }), (e: unknown) => e instanceof HttpError && e.status === 401);
      await noToken.close();
      const cheats = new DevnetCheatsClient({ url: d.node.url, token: d.node.token, retry: false });
      const { id } = await cheats.cheat('snapshot');
      const r = await cheats.cheat('advance-rounds', { rounds: 1000 });
      assert.equal(BigInt(r.round), 1000n);
      await cheats.cheat('set-balance', { address: d.accounts[0]!.address, amount: '123456789' });
      assert.equal(d.ledger.balance(d.accounts[0]!.address), 123456789n);
      await assert.rejects(cheats.cheat('set-box', { appId: 77, name: 'YQ==', value: 'Yg==' }), (e: unknown) => e instanceof HttpError && e.status === 404);
      await assert.rejects(cheats.cheat('set-time', {}), (e: unknown) => e instanceof HttpError && e.status === 400 && /timestamp/.test(e.message));
      const back = await cheats.cheat('revert', { id: String(id) });
      assert.equal(BigInt(back.round), 0n);
      await cheats.close();
      const refused = new DevnetCheatsClient({ url: plain.url, token: 't'.repeat(64), retry: false });
      await assert.rejects(
        refused.cheat('advance-rounds', { rounds: 1 }),
        (e: unknown) => e instanceof HttpError && e.status === 403 && /not a devnet/.test(e.message),
      );
      await refused.close();
      assert.equal(ledger.latestRound, 0n);
    } finally {
      await plain.close();
      await d.stop();
    }
  });

  it('cheats and snapshot ids refuse fractions, wrong types and values beyond uint64 with a ValidationError, changing nothing', () => {
    const chain = InProcessChain.create({ accounts: 1 });
    const a = chain.accounts[0]!.address;
    const invalid = (what: RegExp) => (e: unknown) => e instanceof ValidationError && what.test((e as Error).message);
    const hash = chain.stateHash();
    assert.throws(() => chain.advanceRounds(1.5), invalid(/advanceRounds: the number of rounds is a whole number from 0 to 2\^64 - 1 .*got 1.5/));
    assert.throws(() => chain.advanceRounds(NaN), invalid(/got NaN/));
    assert.throws(() => chain.advanceRounds(undefined as never), invalid(/got undefined/));
    assert.throws(() => chain.advanceRounds('x' as never), invalid(/got "x"/));
    assert.throws(() => chain.setTime(2n ** 64n), invalid(/got 18446744073709551616n/));
    assert.throws(() => chain.setTime(Infinity), invalid(/setTime: the timestamp/));
    assert.throws(() => chain.setBalance(a, 1.5), invalid(/setBalance: the balance/));
    assert.throws(() => chain.setBalance(a, null as never), invalid(/got null/));
    assert.throws(() => chain.setAssetHolding(a, 1.5, { amount: 1n }), invalid(/the asset id/));
    assert.throws(() => chain.setAssetHolding(a, 9n, {} as never), invalid(/setAssetHolding: the amount .*got undefined/));
    assert.throws(() => chain.setAssetHolding(a, 9n, { amount: 1n, frozen: 'yes' as never }), invalid(/frozen is true or false/));
    assert.throws(() => chain.setGlobal(-5, 'k', 1n), invalid(/setGlobal: the app id .*got -5/));
    assert.throws(() => chain.setGlobal(5, 'k', 1.5), /whole number, got 1.5/);
    assert.throws(() => chain.setBox(2n ** 64n, 'b', 'x'), invalid(/setBox: the app id/));
    assert.throws(() => chain.setBlockSeed('x'.repeat(32) as never), invalid(/32 bytes \(a Uint8Array\), got "x+"/));
    assert.throws(() => chain.setBlockSeed(new Uint8Array(32), 1.5), invalid(/setBlockSeed: the round/));
    assert.throws(() => chain.revert('0' as never), invalid(/revert takes a snapshot id as snapshot\(\) returned it .*got "0"/));
    assert.throws(() => chain.release(1.5), invalid(/release takes a snapshot id/));
    assert.equal(chain.stateHash(), hash);
    assert.equal(chain.round, 0n);
  });

  it('time cannot pass the largest uint64 timestamp, by setTime, advanceTime or a warp of rounds apart in time', () => {
    const max = 2n ** 64n - 1n;
    const chain = InProcessChain.create({ accounts: 1 });
    assert.throws(() => chain.setTime(max + 1n), ValidationError);
    chain.setTime(max);
    const round = chain.round;
    assert.throws(
      () => chain.advanceTime(1),
      (e: unknown) => e instanceof ValidationError && /would pass the largest timestamp \(2\^64 - 1\)/.test((e as Error).message),
    );
    assert.equal(chain.round, round);
    const ledger = new Ledger({ genesisTimestamp: max - 10n });
    ledger.setTimestampOffset(5n);
    assert.throws(() => ledger.advanceRounds(3n), /advanceRounds by 3 rounds, 5 seconds apart, from timestamp \d+ would pass the largest timestamp/);
    assert.equal(ledger.advanceRounds(2n).header.timestamp, max);
  });

  it("the chain's genesis options are checked: funds and timestamps are uint64 bigints, and the supply fits", () => {
    assert.throws(
      () => InProcessChain.create({ accountFunds: -5n }),
      (e: unknown) => e instanceof ClientError && /accountFunds is a uint64 given as a bigint .*got -5n/.test((e as Error).message),
    );
    assert.throws(() => InProcessChain.create({ accountFunds: 5 as never }), /accountFunds is a uint64 given as a bigint .*got 5$/);
    assert.throws(() => InProcessChain.create({ genesisTimestamp: 2n ** 64n }), /genesisTimestamp is a uint64/);
    assert.throws(() => InProcessChain.create({ accounts: 4, accountFunds: 2n ** 63n }), /4 accounts of \d+ micro-units each would pass the largest supply/);
  });

  it('cheat routes over HTTP: wrong types, huge ids and time overflow are 400/404 with a specific message, never a 500', async () => {
    const d = await startDevnet({ inMemory: true, accounts: 1 });
    const a = d.accounts[0]!.address;
    const post = async (path: string, body: string) => {
      const r = await fetch(`${d.node.url}/v1/devnet/${path}`, {
        method: 'POST',
        headers: { 'X-Algo-API-Token': d.node.token, 'content-type': 'application/json' },
        body,
      });
      return { status: r.status, text: await r.text() };
    };
    try {
      const cases: [string, string, number, RegExp][] = [
        ['impersonate', `{"address":"${a}","on":"no"}`, 400, /"on" must be true or false/],
        ['set-asset-holding', `{"address":"${a}","assetId":5,"amount":1,"frozen":"yes"}`, 400, /"frozen" must be true or false/],
        ['set-box', `{"appId":5,"name":"YQ==","delete":"true"}`, 400, /"delete" must be true or false/],
        ['set-global', `{"appId":5,"key":"YQ==","delete":1}`, 400, /"delete" must be true or false/],
        ['revert', '{"id":18446744073709551615}', 404, /no snapshot 18446744073709551615:/],
        ['release', '{"id":"9007199254740993"}', 404, /no snapshot 9007199254740993:/],
        ['set-time', '{"timestamp":18446744073709551616}', 400, /"timestamp" must be a uint64/],
        ['set-time', '{"timestamp":18446744073709551615}', 200, /"timestamp":18446744073709551615/],
        ['advance-time', '{"seconds":10}', 400, /advanceTime by 10 seconds from timestamp 18446744073709551615 would pass the largest timestamp/],
        ['set-time', '{"timestamp":1000}', 400, /setTime to 1000 would move time back: the latest block \(round \d+\) is stamped 18446744073709551615/],
        ['release', '{"id":0}', 404, /no snapshot 0: it was never taken, was released/],
      ];
      for (const [path, body, status, message] of cases) {
        const r = await post(path, body);
        assert.equal(r.status, status, `${path} ${body}: ${r.text}`);
        assert.match(r.text, message, `${path} ${body}`);
      }
      assert.equal(d.ledger.isImpersonated(a), false);
    } finally {
      await d.stop();
    }
  });
  it('release over HTTP of a snapshot taken and released already is a 404 naming it, as revert', async () => {
    const d = await startDevnet({ inMemory: true, accounts: 1 });
    try {
      const cheats = new DevnetCheatsClient({ url: d.node.url, token: d.node.token, retry: false });
      const { id } = await cheats.cheat('snapshot');
      await cheats.cheat('release', { id: String(id) });
      for (const name of ['release', 'revert'] as const)
        await assert.rejects(
          cheats.cheat(name, { id: String(id) }),
          (e: unknown) => e instanceof HttpError && e.status === 404 && new RegExp(`no snapshot ${id}: it was never taken, was released`).test(e.message),
        );
      await cheats.close();
    } finally {
      await d.stop();
    }
  });

  it('state and box cheats keep to the sizes the AVM allows: key 64, key + value 128, box name 1 to 64, box 32768', async () => {
    const tw = await Tealworks.inProcess({ accounts: 1 });
    try {
      const chain = tw.testChain;
      const [alice] = chain.accounts;
      const always = assemble('#pragma version 10\nint 1\n').program;
      const created = await tw.send.appCreate({ sender: alice!, approvalProgram: always, clearProgram: always, schema: { globalInts: 1, globalBytes: 1 } });
      const appId = created.createdAppId!;
      const hash = chain.stateHash();
      assert.throws(
        () => chain.setGlobal(appId, 'k'.repeat(65), 1n),
        (e: unknown) => e instanceof ValidationError && /a state key is at most 64 bytes, got 65/.test((e as Error).message),
      );
      assert.throws(() => chain.setGlobal(appId, 'u', new Uint8Array(128)), /a state key and its value are at most 128 bytes together, got 129/);
      assert.throws(() => chain.setBox(appId, 'b', new Uint8Array(32769)), /a box holds at most 32768 bytes, got 32769/);
      assert.throws(() => chain.setBox(appId, '', new Uint8Array(1)), /a box name is 1 to 64 bytes, got 0/);
      assert.throws(() => chain.setBox(appId, 'n'.repeat(65), new Uint8Array(1)), /a box name is 1 to 64 bytes, got 65/);
      assert.equal(chain.stateHash(), hash);
      chain.setGlobal(appId, 'k'.repeat(64), 1n);
      chain.setGlobal(appId, 'u', new Uint8Array(127));
      chain.setBox(appId, 'b', new Uint8Array(32768));
    } finally {
      await tw.close();
    }
  });

  it('setTime refuses a timestamp before the latest block, naming it; the same or a later one is fine', () => {
    const chain = InProcessChain.create({ accounts: 1 });
    chain.setTime(1_900_000_000n);
    const round = chain.round;
    const hash = chain.stateHash();
    assert.throws(
      () => chain.setTime(1_800_000_000n),
      (e: unknown) =>
        e instanceof ValidationError &&
        new RegExp(`^setTime to 1800000000 would move time back: the latest block \\(round ${round}\\) is stamped 1900000000`).test((e as Error).message) &&
        /revert to a snapshot/.test((e as Error).message),
    );
    assert.equal(chain.round, round);
    assert.equal(chain.time, 1_900_000_000n);
    assert.equal(chain.stateHash(), hash);
    chain.setTime(1_900_000_000n);
    assert.equal(chain.time, 1_900_000_000n);
    assert.equal(chain.round, round + 1n);
    // Going back stays possible the chain's way: a revert to a snapshot taken earlier.
    const early = InProcessChain.create({ accounts: 1 });
    const id = early.snapshot();
    early.setTime(1_900_000_000n);
    early.revert(id);
    early.setTime(1_800_000_000n);
    assert.equal(early.time, 1_800_000_000n);
  });
});
