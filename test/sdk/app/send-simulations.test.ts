// Issue 23: how many simulations a send costs, and that the shortcuts change nothing. A call whose
// program rejects (assert) is not probed; a call of a shape that needed the probe's references
// before is simulated once with them. Both must give exactly what the long way gives: the same
// transactions (txids), the same failure, the same state.
import { strict as assert } from 'node:assert';
import { Tealworks } from '../../../sdk/src/index.js';
import type { NodeAdapter } from '../../../sdk/src/adapters/node/adapter.js';
import type { AppDeployment } from '../../../sdk/src/client/index.js';
import { utf8, concatBytes } from '../../../sdk/src/encoding/bytes.js';
import type { Transaction } from '../../../sdk/src/txn/types.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ABI = 'examples/counter/abi';
const counter = { spec: `${ABI}/counter.arc56.json`, approval: `${ABI}/counter.teal`, clear: `${ABI}/clear.teal`, fund: 10_000_000n };

type Tw = Tealworks & { testChain: NonNullable<Tealworks['testChain']> };

/**
 * A seed no other chain of this process has: chains from one genesis share the references their
 * calls needed, so a chain whose simulations are counted starts from its own genesis.
 */
let seeds = 0;
const isolated = () => `send-simulations ${++seeds}`;

/**
 * Counts the node's simulations, whether each allowed unnamed resources (a probe), and the
 * in-process chain's simulations that also commit (`once`: one evaluation for gate and block).
 */
function countSimulations(tw: Tealworks): { gates: number; probes: number; once: number; reset(): void } {
  const node = tw.node as NodeAdapter;
  const orig = node.simulate.bind(node);
  const origOnce = node.simulateAndSubmit;
  const c = {
    gates: 0,
    probes: 0,
    once: 0,
    reset() {
      c.gates = 0;
      c.probes = 0;
      c.once = 0;
    },
  };
  node.simulate = (b, o) => {
    if (o?.allowUnnamedResources) c.probes++;
    else c.gates++;
    return orig(b, o);
  };
  if (origOnce)
    node.simulateAndSubmit = (b, o) => {
      c.once++;
      return origOnce(b, o);
    };
  return c;
}

/** The counter's per-caller box, "c:" + address. */
const callerBox = (address: string) => concatBytes(utf8('c:'), Address.fromString(address).publicKey);

/** Deploys a spec-less app from TEAL lines (and a clear program that approves) under `name`; `cleanup` removes its files. */
async function deployTeal(tw: Tw, name: string, approval: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), `tw-${name}-`));
  writeFileSync(join(dir, 'approval.teal'), approval.join('\n'));
  writeFileSync(join(dir, 'clear.teal'), '#pragma version 10\nint 1\n');
  try {
    const app = await tw.app.deploy({
      creator: tw.testChain.accounts[0]!,
      approval: join(dir, 'approval.teal'),
      clear: join(dir, 'clear.teal'),
      fund: 10_000_000n,
      name,
    });
    return app;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** JSON of anything (bigints as text, bytes as hex), for comparing reports. */
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x)) ?? 'undefined';

/** TEAL lines: an inner payment of 0 to the caller, its fee left to be covered by the call; then approve. */
const PAY_SENDER_INNER = [
  'itxn_begin',
  'int pay',
  'itxn_field TypeEnum',
  'txn Sender',
  'itxn_field Receiver',
  'int 0',
  'itxn_field Fee',
  'itxn_submit',
  'ok:',
  'int 1',
];

/** The box names a confirmed app call referenced. */
const boxesOf = (tw: Tw, txid: string) => tw.testChain.ledger.transaction(txid)!.stxn.txn.appCall!.boxes.map((b) => b.name);

describe('app/composer send: simulations per call', function () {
  let tw: Tw;
  let d: AppDeployment;
  before(async () => {
    tw = (await Tealworks.inProcess({ accounts: 2, seed: isolated() })) as Tw;
    d = await tw.app.deploy({ creator: tw.testChain.accounts[0]!, ...counter });
  });
  after(() => tw.close());

  it('probes a call the first time, then simulates it once with the references it needed', async () => {
    const n = countSimulations(tw);
    const first = await d.client.call('increment', [1]);
    assert.equal(n.probes, 1, 'the first call finds the caller box through a probe');
    const box = boxesOf(tw, first.txid);
    assert.deepEqual(box, [callerBox(tw.testChain.accounts[0]!.address)], 'the probe named the box');
    n.reset();
    const second = await d.client.call('increment', [2]);
    // One evaluation: the in-process chain simulates the hinted call and commits it.
    assert.deepEqual({ gates: n.gates, probes: n.probes, once: n.once }, { gates: 0, probes: 0, once: 1 });
    assert.deepEqual(boxesOf(tw, second.txid), box, 'the same references as the probe found');
    assert.equal(second.returnValue, 3n);
  });

  it('does not probe a call its program rejects, and reports the failure as the long way does', async () => {
    // A new app whose first call fails: the program asserts before it touches the box.
    const fresh = await tw.app.deploy({ creator: tw.testChain.accounts[0]!, ...counter, name: 'fresh' });
    const n = countSimulations(tw);
    await assert.rejects(fresh.client.call('increment', [50]), (e: Error & { report?: { failureMessage?: string } }) => {
      assert.match(e.report!.failureMessage!, /assert failed/);
      assert.match(e.message, /too big/);
      return true;
    });
    assert.deepEqual({ gates: n.gates, probes: n.probes, once: n.once }, { gates: 0, probes: 0, once: 1 });
    n.reset();
    // A hinted shape that fails the same way: the hinted simulation, then the call as given (no
    // probe), and the failure names the transaction as given, exactly as a call that does not
    // fill references in reports it (same fields, same round: same txid).
    const failure = async (options: object) => {
      try {
        await d.client.call('increment', [60], options);
      } catch (e) {
        return (e as { report?: { failureMessage?: string } }).report?.failureMessage;
      }
      assert.fail('the call should fail');
    };
    const hintedFailure = await failure({});
    assert.deepEqual({ gates: n.gates, probes: n.probes, once: n.once }, { gates: 1, probes: 0, once: 1 });
    assert.match(hintedFailure!, /assert failed/);
    assert.equal(hintedFailure, await failure({ populateResources: false }));
  });

  it('probes a rejected call when the probe’s overpaid fee could change the run (the program reads its fee)', async () => {
    // Asserts that its fee pays for one inner payment, then makes it: the probe's overpaid fee
    // passes the assert, and the inner payment's fee is then covered.
    const app = await deployTeal(tw, 'fee-reader', [
      '#pragma version 10',
      'txn ApplicationID',
      'bz ok',
      'txn Fee',
      'global MinTxnFee',
      'int 2',
      '*',
      '>=',
      'assert',
      ...PAY_SENDER_INNER,
    ]);
    const r = await app.client.call(undefined, []);
    assert.equal(tw.testChain.ledger.transaction(r.txid)!.stxn.txn.fee, 2000n, 'the call pays for its inner payment');
  });

  it('gives the same txids, returns and state as calls that name their references themselves', async () => {
    const seed = isolated(); // both runs: the same accounts
    const run = async (explicit: boolean) => {
      const t = (await Tealworks.inProcess({ accounts: 2, seed })) as Tw;
      try {
        const [alice, bob] = t.testChain.accounts;
        const app = await t.app.deploy({ creator: alice!, ...counter });
        const out: unknown[] = [];
        for (const [who, k] of [
          [alice, 1],
          [alice, 2],
          [bob, 3],
          [alice, 60],
          [bob, 4],
          [alice, 5],
        ] as const) {
          const opts = { sender: who!, ...(explicit ? { boxes: [{ name: callerBox(who!.address) }], populateResources: false } : {}) };
          try {
            const r = await app.client.call('increment', [k], opts);
            out.push({ txid: r.txid, rv: r.returnValue });
          } catch (e) {
            // A rejection names the call as given (without the references a probe would add).
            out.push({ error: (e as { report?: { failureMessage?: string } }).report?.failureMessage?.replace(/transaction [A-Z2-7]{52}/g, 'transaction …') });
          }
        }
        return { out, hash: t.testChain.stateHash() };
      } finally {
        await t.close();
      }
    };
    const auto = await run(false);
    const named = await run(true);
    assert.deepEqual(auto, named);
  });

  it('falls back when the references a shape needed change from call to call, and stops hinting that shape', async () => {
    // A box named by the second argument: every call of the same shape (same first argument) needs another box.
    const app = await deployTeal(tw, 'named-boxes', [
      '#pragma version 10',
      'txn ApplicationID',
      'bz ok',
      'txna ApplicationArgs 1',
      'int 1',
      'box_create',
      'pop',
      'ok:',
      'int 1',
    ]);
    const n = countSimulations(tw);
    const names: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      const r = await app.client.call(undefined, ['make', name]);
      names.push(
        boxesOf(tw, r.txid)
          .map((b) => new TextDecoder().decode(b))
          .join(),
      );
    }
    assert.deepEqual(names, ['a', 'b', 'c', 'd'], 'each call named exactly its own box');
    // a: gate, probe, gate; b: hinted gate (a miss), probe, gate; c, d: not hinted again, and
    // the app needed a probe before, so probe, gate.
    assert.deepEqual({ gates: n.gates, probes: n.probes }, { gates: 2 + 2 + 1 + 1, probes: 4 });
  });
});

// On the in-process chain a send is simulated and committed by one evaluation. Everything it
// gives must be what the two evaluations give (gate simulation, then submit): the same
// transactions, returns, logs, reports (state changes with their values before), failures and
// chain state.
describe('app/composer send: one evaluation on the in-process chain', function () {
  this.timeout(60_000);

  /** Runs the same calls on a fresh chain from `seed`, with or without the single evaluation. */
  async function run(once: boolean, seed: string) {
    const t = (await Tealworks.inProcess({ accounts: 3, seed })) as Tw;
    try {
      if (!once) (t.node as NodeAdapter).simulateAndSubmit = undefined;
      const n = countSimulations(t);
      const [alice, bob, carol] = t.testChain.accounts;
      const app = await t.app.deploy({ creator: alice!, ...counter });
      const out: unknown[] = [];
      const record = async (
        f: () => Promise<{ txid: string; returnValue?: unknown; logs: unknown; report: unknown; sent?: { txns: { pending: unknown }[] } }>,
      ) => {
        try {
          const r = await f();
          // The node's answer for each confirmed transaction, as `pending` reads it.
          const pending = canon(r.sent?.txns.map((t) => t.pending));
          out.push({ txid: r.txid, rv: r.returnValue, logs: r.logs, report: canon(r.report), pending });
        } catch (e) {
          const err = e as Error & { report?: unknown };
          out.push({ error: err.message, report: canon(err.report) });
        }
      };
      for (const [who, k] of [
        [alice, 1],
        [alice, 2],
        [bob, 3],
        [alice, 60],
        [bob, 4],
        [carol, 70],
      ] as const)
        await record(() => app.client.call('increment', [k], { sender: who! }));
      // A payment and a bare call (the plain gate), and a rekeyed sender.
      const pay = await t.send.payment({ sender: alice!, receiver: carol!, amount: 1_000_000n });
      out.push({ pay: pay.txid, round: pay.confirmedRound });
      await t.account.rekey(bob!, carol!);
      await record(() => app.client.call('increment', [5], { sender: bob! }));
      return { out, hash: t.testChain.stateHash(), round: t.testChain.ledger.latestRound, once: n.once };
    } finally {
      await t.close();
    }
  }

  it('gives the same transactions, returns, logs, reports, failures and state as gate then submit', async () => {
    const seed = isolated();
    const one = await run(true, seed);
    const two = await run(false, seed);
    assert.ok(one.once > 0, 'the single evaluation was used');
    assert.equal(two.once, 0);
    assert.ok(
      one.out.some((o) => /confirmedRound/.test(String((o as { pending?: string }).pending))),
      'the confirmed transactions were compared',
    );
    assert.deepEqual(one.out, two.out);
    assert.equal(one.hash, two.hash);
    assert.equal(one.round, two.round);
  });

  it('shares what a call needed with the next chain from the same genesis, for the same program only', async () => {
    const seed = isolated();
    const chain = async () => (await Tealworks.inProcess({ accounts: 1, seed })) as Tw;
    const first = await chain();
    let learnt: Uint8Array[];
    try {
      const app = await first.app.deploy({ creator: first.testChain.accounts[0]!, ...counter });
      const n = countSimulations(first);
      const r = await app.client.call('increment', [1]);
      assert.equal(n.probes, 1, 'a new genesis: the first call is probed');
      learnt = boxesOf(first, r.txid);
    } finally {
      await first.close();
    }
    const second = await chain();
    try {
      const app = await second.app.deploy({ creator: second.testChain.accounts[0]!, ...counter });
      const n = countSimulations(second);
      const r = await app.client.call('increment', [2]);
      assert.deepEqual({ gates: n.gates, probes: n.probes, once: n.once }, { gates: 0, probes: 0, once: 1 }, 'one evaluation, with the references learnt');
      assert.deepEqual(boxesOf(second, r.txid), learnt);
      assert.equal(r.returnValue, 2n);
    } finally {
      await second.close();
    }
    // Another program under the same id and method: not hinted, probed as on a new chain.
    const dir = mkdtempSync(join(tmpdir(), 'tw-other-counter-'));
    const third = await chain();
    try {
      const teal = readFileSync(counter.approval, 'utf8').replace('#pragma version 10', '#pragma version 10\nint 1\npop');
      assert.notEqual(teal, readFileSync(counter.approval, 'utf8'));
      writeFileSync(join(dir, 'approval.teal'), teal);
      const app = await third.app.deploy({ creator: third.testChain.accounts[0]!, ...counter, approval: join(dir, 'approval.teal') });
      const n = countSimulations(third);
      const r = await app.client.call('increment', [3]);
      assert.equal(n.probes, 1, 'another program: its calls are learnt afresh');
      assert.deepEqual(boxesOf(third, r.txid), learnt);
    } finally {
      await third.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports the values state had before the call (initial states) as a simulation does', async () => {
    const t = (await Tealworks.inProcess({ accounts: 1, seed: isolated() })) as Tw;
    try {
      const app = await t.app.deploy({ creator: t.testChain.accounts[0]!, ...counter });
      await app.client.call('increment', [7]);
      const simulated = await app.client.simulate('increment', [3]);
      const sent = await app.client.call('increment', [3]);
      const initial = (r: { response?: unknown }) => canon((r.response as Record<string, unknown>)['initial-states']);
      assert.equal(initial(sent.report), initial(simulated));
      assert.match(initial(sent.report), /app-initial-states/);
      assert.match(initial(sent.report), /app-globals/);
      assert.match(initial(sent.report), /app-boxes/);
      assert.equal(canon(sent.report.txns[0]!.globalChanges), canon(simulated.txns[0]!.globalChanges));
      assert.equal(canon(sent.report.txns[0]!.boxChanges), canon(simulated.txns[0]!.boxChanges));
    } finally {
      await t.close();
    }
  });

  it('goes the usual way for a signer that may ask someone, and for a group that makes inner transactions', async () => {
    const t = (await Tealworks.inProcess({ accounts: 2, seed: isolated() })) as Tw;
    try {
      const [alice] = t.testChain.accounts;
      const app = await t.app.deploy({ creator: alice!, ...counter });
      await app.client.call('increment', [1]);
      const n = countSimulations(t);
      // A signer that does not say it signs locally (a wallet would not).
      const wallet = { sign: (txns: readonly Transaction[], idx: readonly number[]) => alice!.sign(txns, idx) };
      const r = await app.client.call('increment', [1], { sender: alice!.address, signer: wallet });
      assert.equal(r.returnValue, 2n);
      assert.equal(n.once, 0);
      assert.ok(n.gates >= 1);
      // Inner transactions: the first simulation is not the gate (their fees are covered), so
      // nothing is committed by it.
      const payer = await deployTeal(t, 'inner-payer', ['#pragma version 10', 'txn ApplicationID', 'bz ok', ...PAY_SENDER_INNER]);
      n.reset();
      const before = t.testChain.ledger.latestRound;
      const paid = await payer.client.call(undefined, []);
      assert.equal(t.testChain.ledger.latestRound, before + 1n, 'one block: the call, committed once');
      assert.equal(t.testChain.ledger.transaction(paid.txid)!.stxn.txn.fee, 2000n, 'the call pays for its inner payment');
      assert.equal(n.once, 1);
      assert.ok(n.probes >= 1);
    } finally {
      await t.close();
    }
  });
});
