// Issue 23: the in-process chain's fast path (typed JSON answers, no text; the send gate that
// simulates the exact group first) gives what the same client gets over real HTTP: same txids,
// return values, logs, errors and, call after call, the same state hash.
import { strict as assert } from 'node:assert';
import { Tealworks, algos } from '../../../sdk/src/index.js';
import { InProcessChain } from '../../../sdk/src/testing/index.js';
import { HttpClient } from '../../../sdk/src/adapters/http/client.js';
import { ALGOD_TOKEN_HEADER, AlgodAdapter } from '../../../sdk/src/adapters/node/algod.js';
import { QUERY_TOKEN_HEADER, QueryClient } from '../../../sdk/src/adapters/query/client.js';
import { startNodeService } from '../../../sdk/src/services/node/service.js';
import { createQueryService } from '../../../sdk/src/services/query/service.js';
import { serve } from '../../../sdk/src/services/http/server.js';
import { stringifyJson } from '../../../sdk/src/encoding/json.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import type { PendingTransaction } from '../../../sdk/src/adapters/node/types.js';
import type { NodeAdapter } from '../../../sdk/src/adapters/node/adapter.js';
import type { SignedTransaction } from '../../../sdk/src/txn/types.js';

const ABI = 'examples/counter/abi';
const deployInput = { spec: `${ABI}/counter.arc56.json`, approval: `${ABI}/counter.teal`, clear: `${ABI}/clear.teal`, fund: 10_000_000n };

/** What one step left behind: its outcome (or error) and the chain's state hash and round after it. */
interface Step {
  name: string;
  outcome: unknown;
  stateHash: string;
  round: bigint;
}

/** The same script, step by step, on a client and the chain behind it. */
async function script(tw: Tealworks, chain: InProcessChain): Promise<Step[]> {
  const [alice, bob] = chain.accounts;
  const steps: Step[] = [];
  const step = async (name: string, run: () => Promise<unknown>) => {
    let outcome: unknown;
    try {
      outcome = { ok: await run() };
    } catch (e) {
      const err = e as Error & { report?: { failureMessage?: string; failedAt?: number[] } };
      outcome = { error: err.constructor.name, message: err.message, failureMessage: err.report?.failureMessage, failedAt: err.report?.failedAt };
    }
    steps.push({ name, outcome, stateHash: chain.stateHash(), round: chain.round });
  };
  const d = await tw.app.deploy({ creator: alice!, ...deployInput, name: 'counter' });
  steps.push({ name: 'deploy', outcome: { appId: d.appId, address: d.appAddress }, stateHash: chain.stateHash(), round: chain.round });
  const call = (args: unknown[], options = {}) =>
    step(`increment(${String(args[0])})`, async () => {
      const r = await d.client.call('increment', args, options);
      return { txid: r.txid, round: r.confirmedRound, returnValue: r.returnValue, logs: r.logs.map((l) => stringifyJson(l)), failed: r.report.wouldSucceed };
    });
  // Suggested parameters, asked once per round and then again (a cached answer with the round moved).
  const params = () => step('suggested params', async () => tw.node.suggestedParams());
  await params();
  await call([5]);
  await params();
  await call([50]); // fails: "too big"
  await call([7], { sender: bob!.address });
  await call([3], { extraFee: 2000n });
  await step('get_count (read-only)', async () => (await d.client.call('get_count')).returnValue);
  await step('global state', async () => (await d.client.globalState()).map((i) => stringifyJson(i)));
  await params();
  const mark = chain.snapshot();
  await step('payment', async () => (await tw.send.payment({ sender: alice!, receiver: bob!.address, amount: algos(1) })).txid);
  await step('overspending payment', async () => (await tw.send.payment({ sender: bob!, receiver: alice!.address, amount: 10n ** 18n })).txid);
  await step('simulate a failing call', async () => {
    const report = await d.client.simulate('increment', [99]);
    return { wouldSucceed: report.wouldSucceed, failureMessage: report.failureMessage, failedAt: report.failedAt };
  });
  await call([1]);
  // Back to an earlier round (a revert): the parameters name that round again.
  await step('revert', async () => chain.revert(mark));
  await params();
  await call([2]);
  await params();
  return steps;
}

describe('testing: the in-process fast path matches HTTP', function () {
  this.timeout(120_000);

  it('same txids, returns, logs, errors and state hashes for the same calls, failures included', async () => {
    const fast = await Tealworks.inProcess();
    // The same genesis (same seed and accounts), served over real sockets by the same services.
    const other = InProcessChain.create();
    const node = await startNodeService({ ledger: other.ledger, apiToken: 'node-token', port: 0 });
    const queryDef = createQueryService({ token: 'query-token', ledger: other.ledger });
    const query = await serve(queryDef, { port: 0 });
    const nodeHttp = new HttpClient({ baseUrl: node.url, headers: { [ALGOD_TOKEN_HEADER]: 'node-token' }, retry: false });
    const queryHttp = new HttpClient({ baseUrl: query.url, headers: { [QUERY_TOKEN_HEADER]: 'query-token' }, retry: false });
    const slow = new Tealworks({
      ...other.connection,
      name: 'http',
      chain: { node: new AlgodAdapter(nodeHttp), query: new QueryClient(queryHttp) },
      close: async () => {},
    });
    for (const a of other.accounts) slow.account.add(a);
    try {
      assert.equal(other.stateHash(), fast.testChain.stateHash(), 'same genesis');
      const overHttp = await script(slow, other);
      const inProcess = await script(fast, fast.testChain);
      assert.equal(inProcess.length, overHttp.length);
      for (let i = 0; i < overHttp.length; i++) assert.deepEqual(inProcess[i], overHttp[i], `step ${i} (${overHttp[i]!.name})`);
      // The script did fail where it should (the comparison above is not of two empty runs).
      const failed = inProcess.filter((s) => (s.outcome as { error?: string }).error !== undefined).map((s) => s.name);
      assert.deepEqual(failed, ['increment(50)', 'overspending payment']);
      assert.match((inProcess.find((s) => s.name === 'increment(50)')!.outcome as { message: string }).message, /too big/);
      assert.equal(inProcess.filter((s) => s.name === 'suggested params').length, 5);
    } finally {
      await slow.close();
      await nodeHttp.close();
      await queryHttp.close();
      await node.close();
      await query.close();
      queryDef.index.detach();
      await other.close();
      await fast.close();
    }
  });

  it("a send's report, logs and events read much later equal those worked out as it committed", async () => {
    // A send on a chain in this process builds its report (and the call's logs and events) when
    // first read, unless a debug log wants it at once: both must give the same, however much the
    // chain did in between. Two chains from one seed run the same script.
    const later = await Tealworks.inProcess({ seed: 'lazy-report' });
    const atOnce = await Tealworks.inProcess({ seed: 'lazy-report' });
    const lines: string[] = [];
    atOnce.log.level = 'debug';
    atOnce.log.sink = (l) => lines.push(l);
    try {
      const run = async (tw: Tealworks) => {
        const [alice, bob] = tw.testChain!.accounts;
        const d = await tw.app.deploy({ creator: alice!, ...deployInput, name: 'counter' });
        const calls = [await d.client.call('increment', [5]), await d.client.call('increment', [7], { sender: bob!.address })];
        await tw.send.payment({ sender: bob!, receiver: alice!.address, amount: algos(1) });
        calls.push(await d.client.call('increment', [1]));
        return calls;
      };
      const a = await run(later);
      const b = await run(atOnce);
      assert.ok(
        lines.some((l) => l.includes('would succeed')),
        'the debug log was told of each passing gate',
      );
      assert.equal(later.testChain!.stateHash(), atOnce.testChain!.stateHash());
      for (let i = 0; i < a.length; i++) {
        const [x, y] = [a[i]!, b[i]!];
        assert.deepEqual(x.report, y.report, `call ${i}: report`);
        assert.deepEqual(x.sent!.report, y.sent!.report, `call ${i}: the send's report`);
        assert.deepEqual(x.logs, y.logs, `call ${i}: logs`);
        assert.deepEqual(x.events, y.events, `call ${i}: events`);
        assert.equal(x.returnValue, y.returnValue);
        assert.deepEqual(Object.keys(x), Object.keys(y), `call ${i}: the same members`);
      }
      assert.equal(a[0]!.events.length, 1, 'the counter logs an Incremented event');
      assert.equal(a[0]!.report.txns[0]!.returnValue, 5n);
      // Read, the lazy members are plain values; written before being read, they hold what was written.
      for (const k of ['logs', 'events', 'report'] as const) assert.equal(Object.getOwnPropertyDescriptor(a[0]!, k)!.get, undefined, k);
      assert.equal(Object.getOwnPropertyDescriptor(a[0]!.sent!, 'report')!.get, undefined);
      const fresh = await (await later.app.deploy({ creator: later.testChain!.accounts[0]!, ...deployInput, name: 'other' })).client.call('increment', [2]);
      fresh.logs = [];
      fresh.sent!.report = a[0]!.report;
      assert.deepEqual(fresh.logs, []);
      assert.equal(fresh.sent!.report, a[0]!.report);
      assert.equal(fresh.report, a[0]!.report, "the call's report is its send's");
    } finally {
      await later.close();
      await atOnce.close();
    }
  });

  it("simulate without the HTTP layers answers as the route does; a request the route refuses gets the route's error", async () => {
    const tw = await Tealworks.inProcess({ seed: 'direct-simulate' });
    try {
      const [alice, bob] = tw.testChain!.accounts;
      const d = await tw.app.deploy({ creator: alice!, ...deployInput, name: 'counter' });
      const node = tw.node as AlgodAdapter;
      const viaRoute = (signed: readonly Uint8Array[], o: Parameters<AlgodAdapter['simulate']>[1]) => AlgodAdapter.prototype.simulate.call(node, signed, o);
      const { entries } = await d.client.buildCall('increment', [50], { sender: bob!.address });
      const txns = entries.map((e) => e.txn);
      const signed = await bob!.signer.sign(txns, [0]);
      for (const o of [{ execTrace: true, fixSigners: true, allowEmptySignatures: true }, { allowUnnamedResources: true, execTrace: true }, {}]) {
        const direct = await node.simulate(signed, o);
        assert.deepEqual(direct, await viaRoute(signed, o), JSON.stringify(o));
        assert.equal(direct.wouldSucceed, false);
      }
      // A round the node does not have, fix-signers alone: the route's own refusal, the same error either way.
      const refusal = async (f: () => Promise<unknown>) => {
        try {
          await f();
        } catch (e) {
          return { type: (e as Error).constructor.name, message: (e as Error).message };
        }
        return undefined;
      };
      for (const o of [{ round: 10_000n }, { fixSigners: true }]) {
        const direct = await refusal(() => node.simulate(signed, o));
        assert.ok(direct, `refused: ${Object.keys(o)[0]}`);
        assert.deepEqual(direct, await refusal(() => viaRoute(signed, o)));
      }
    } finally {
      await tw.close();
    }
  });

  it("a round's /v2/deltas answer read much later equals the one read as the round committed", async () => {
    // The node builds a round's delta tree when it is first asked for: it must describe the round
    // as committed, however much changed after (accounts, holdings, asset params, app state, boxes).
    const early = await Tealworks.inProcess();
    const late = await Tealworks.inProcess();
    try {
      const asRead: Record<string, unknown> = {};
      const run = async (tw: Tealworks, readNow: boolean): Promise<bigint[]> => {
        const chain = tw.testChain!;
        const [alice, bob] = chain.accounts;
        const rounds: bigint[] = [];
        const note = async (round: bigint) => {
          rounds.push(round);
          if (readNow) asRead[String(round)] = await tw.chain.node.deltas(round);
        };
        const d = await tw.app.deploy({ creator: alice!, ...deployInput, name: 'counter' });
        await note(chain.round);
        await note((await d.client.call('increment', [5])).confirmedRound);
        await note((await d.client.call('increment', [7], { sender: bob!.address })).confirmedRound);
        const asset = await tw.send.assetCreate({ sender: alice!, total: 1000n, manager: alice!.address, clawback: alice!.address });
        await note(asset.confirmedRound);
        await note((await tw.send.assetOptIn({ sender: bob!, assetId: asset.createdAssetId! })).confirmedRound);
        await note((await tw.send.assetTransfer({ sender: alice!, assetId: asset.createdAssetId!, receiver: bob!.address, amount: 10n })).confirmedRound);
        await note(
          (await tw.send.assetConfig({ sender: alice!, assetId: asset.createdAssetId!, manager: bob!.address, clawback: bob!.address })).confirmedRound,
        );
        await note((await tw.send.assetTransfer({ sender: alice!, assetId: asset.createdAssetId!, receiver: bob!.address, amount: 5n })).confirmedRound);
        await note((await d.client.call('increment', [1])).confirmedRound);
        await note((await tw.send.payment({ sender: bob!, receiver: alice!.address, amount: algos(1) })).confirmedRound);
        return rounds;
      };
      const roundsEarly = await run(early, true);
      const roundsLate = await run(late, false);
      assert.deepEqual(roundsLate, roundsEarly);
      assert.equal(late.testChain!.stateHash(), early.testChain!.stateHash());
      for (const r of roundsLate) assert.deepEqual(await late.chain.node.deltas(r), asRead[String(r)], `round ${r}`);
    } finally {
      await early.close();
      await late.close();
    }
  });

  it("a committed send's outcomes, made from the ledger's records, equal the pending route's answers; changing them changes nothing", async () => {
    // The in-process adapter gives each committed transaction's outcome without the wire: it must
    // be what the route's msgpack answer decodes to, inner transactions, logs and created ids
    // included, and a copy.
    const tw = await Tealworks.inProcess({ seed: 'direct-pending' });
    try {
      const [alice, bob] = tw.testChain!.accounts;
      const node = tw.node as AlgodAdapter & NodeAdapter;
      const given: PendingTransaction[] = [];
      const once = node.simulateAndSubmit!;
      node.simulateAndSubmit = async (signed, options) => {
        const out = await once(signed, options);
        given.push(...(out.confirmed ?? []));
        return out;
      };
      // Logs twice, then makes an asset, an app and a payment as inner transactions.
      const approval = assemble(`#pragma version 10
txn ApplicationID
bz ok
byte "hello"
log
byte "world"
log
itxn_begin
int acfg
itxn_field TypeEnum
int 1000
itxn_field ConfigAssetTotal
byte "inner"
itxn_field ConfigAssetName
itxn_next
int appl
itxn_field TypeEnum
byte 0x0a8101
itxn_field ApprovalProgram
byte 0x0a8101
itxn_field ClearStateProgram
itxn_next
int pay
itxn_field TypeEnum
txn Sender
itxn_field Receiver
int 1234
itxn_field Amount
itxn_submit
ok:
int 1`).program;
      const clear = assemble('#pragma version 10\nint 1').program;
      const created = await tw.send.appCreate({ sender: alice!, approvalProgram: approval, clearProgram: clear });
      const appId = created.createdAppId!;
      await tw.send.payment({ sender: alice!, receiver: Address.forApp(appId).toString(), amount: algos(10) });
      await tw.send.assetCreate({ sender: bob!, total: 5n, assetName: 'top', note: utf8('a note') });
      // Given its fees, not filled in: committed with its inner transactions in one evaluation.
      await tw.send.appCall({ sender: bob!, appId, extraFee: 3000n }, { populateResources: false, coverInnerFees: false });
      assert.equal(given.length, 4, 'each send was committed with its outcome');
      for (const p of given) assert.deepEqual(p, await AlgodAdapter.prototype.pending.call(node, p.txid!), `txn ${p.txid}`);
      const call = given[3]!;
      assert.equal(call.logs?.length, 2);
      assert.deepEqual(
        call.innerTxns?.map((i) => [i.assetIndex !== undefined, i.applicationIndex !== undefined]),
        [
          [true, false],
          [false, true],
          [false, false],
        ],
      );
      // A copy: changing the outcome changes neither the chain nor a later answer.
      call.logs![0]![0] = 0;
      (call.txn as SignedTransaction).txn.fee = 1n;
      const again = await AlgodAdapter.prototype.pending.call(node, call.txid!);
      assert.deepEqual(again.logs![0], utf8('hello'));
      assert.equal((again.txn as SignedTransaction).txn.fee, 4000n);
    } finally {
      await tw.close();
    }
  });
});
