// Issue 23: the in-process chain — app calls/s in process vs the same calls through the devnet's
// HTTP /v2, per-test isolation (revert) with 10,000 boxes in state, advanceRounds(1_000_000).
import { Tealworks } from '../sdk/src/index.js';
import { startDevnet } from '../sdk/src/services/devnet/devnet.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import algosdk from 'algosdk';
import { Config } from '@algorandfoundation/algokit-utils';
import { nullLogger } from '@algorandfoundation/algokit-utils/types/logging';
import { algorandFixture } from '@algorandfoundation/algokit-utils/testing';
import { TEST_SCRYPT } from '../sdk/src/services/kmd/index.js';
import { testFixture, expectFailure, expectState } from '../sdk/src/testing/index.js';
import { median, medianMs, type BenchEntry, type BenchModule } from './lib.js';

/** A 10-test file: deploy once, then per test a call, a state check and one expected failure. */
async function oursTenTests(): Promise<number> {
  const t = performance.now();
  const f = testFixture({ baseDir: ABI, apps: { counter: { spec: 'counter.arc56.json', approval: 'counter.teal', clear: 'clear.teal' } } });
  await f.setup();
  for (let i = 0; i < 10; i++) {
    f.reset();
    await f.apps.counter.call('increment', [5]);
    await expectState(f.apps.counter, { global: { count: 5n } });
    await expectFailure(f.apps.counter.call('increment', [50]), { message: 'too big' });
  }
  await f.teardown();
  return performance.now() - t;
}

/** The same file with AlgoKit's algorandFixture (a new funded account per test) against our devnet over /v2. */
async function algokitTenTests(env: Record<string, string>): Promise<number> {
  // AlgoKit logs every transaction (and its fixture turns debug on) to the console: silenced, so
  // the peer is timed on its work and not on console output, and the bench prints only its table.
  Config.configure({ logger: nullLogger });
  const t = performance.now();
  const fixture = algorandFixture({
    algodConfig: { server: env.algod!, port: env.algodPort!, token: env.algodToken! },
    indexerConfig: { server: env.indexer!, token: env.indexerToken! },
    kmdConfig: { server: env.kmd!, port: env.kmdPort!, token: env.kmdToken! },
  });
  await fixture.newScope();
  const appSpec = JSON.parse(readFileSync(`${ABI}/counter.arc56.json`, 'utf8'));
  const { algorand, testAccount } = fixture.context;
  const approval = await algorand.app.compileTealTemplate(readFileSync(`${ABI}/counter.teal`, 'utf8'), {}, { updatable: false, deletable: false });
  const clear = await algorand.app.compileTeal(readFileSync(`${ABI}/clear.teal`, 'utf8'));
  const created = await algorand.send.appCreate({
    sender: testAccount,
    approvalProgram: approval.compiledBase64ToBytes,
    clearStateProgram: clear.compiledBase64ToBytes,
    schema: { globalInts: 1, globalByteSlices: 1, localInts: 0, localByteSlices: 0 },
  });
  const appId = created.appId;
  await algorand.send.payment({ sender: testAccount, receiver: algosdk.getApplicationAddress(appId).toString(), amount: (1).algo() });
  for (let i = 0; i < 10; i++) {
    await fixture.newScope();
    const ctx = fixture.context;
    const client = ctx.algorand.client.getAppClientById({ appSpec, appId, defaultSender: ctx.testAccount });
    await client.send.call({ method: 'increment', args: [5] });
    const state = await client.state.global.getAll();
    if (typeof state.count !== 'bigint') throw new Error('no count in global state');
    let failed = false;
    try {
      await client.send.call({ method: 'increment', args: [50] });
    } catch {
      failed = true;
    }
    if (!failed) throw new Error('the expected failure did not happen');
  }
  return performance.now() - t;
}

const ABI = 'examples/counter/abi';
const deployInput = { spec: `${ABI}/counter.arc56.json`, approval: `${ABI}/counter.teal`, clear: `${ABI}/clear.teal`, fund: 10_000_000n };

/** Calls per second of `call` over `ms` milliseconds. */
async function rate(call: () => Promise<unknown>, ms: number): Promise<number> {
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    await call();
    calls++;
    now = performance.now();
  }
  return (calls * 1000) / (now - start);
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Before each measured run, either side's: the other side's leftover work (AlgoKit's background
 * simulations, the devnet's answers in flight) finishes and its garbage is collected, so neither
 * side pays for the other.
 */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  collectGarbage();
}

/**
 * Ours and the peer measured in alternation (the machine's load changes by the second; pairs
 * taken close together see the same load): medians of each side, and the median of the pairs' ratios.
 */
async function interleaved(
  ours: () => Promise<number>,
  peer: () => Promise<number>,
  pairs: number,
  higherIsBetter: boolean,
): Promise<{ ours: number; peer: number; ratio: number }> {
  const o: number[] = [];
  const p: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < pairs; i++) {
    // Alternate who goes first, so neither always runs on a warmer (or more loaded) machine.
    const run = async (f: () => Promise<number>) => {
      await settle();
      return f();
    };
    const [a, b] = i % 2 === 0 ? [await run(ours), await run(peer)] : (([y, x]) => [x, y])([await run(peer), await run(ours)]);
    o.push(a!);
    p.push(b!);
    r.push(higherIsBetter ? a! / b! : b! / a!);
  }
  return { ours: median(o), peer: median(p), ratio: median(r) };
}

export default {
  name: 'testengine',
  description: 'in-process test chain: calls/s vs HTTP /v2, revert cost with 10k boxes, advanceRounds(1e6)',
  async run(): Promise<BenchEntry[]> {
    const out: BenchEntry[] = [];
    // The 10-test file: our fixture vs AlgoKit's algorandFixture against our devnet (its /v2, kmd, query).
    {
      const d = await startDevnet({ inMemory: true, localnet: true, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 2, kdf: TEST_SCRYPT });
      const n = new URL(d.node.url);
      const k = new URL(d.keyManager.url);
      const env = {
        algod: `${n.protocol}//${n.hostname}`,
        algodPort: n.port,
        algodToken: d.node.token,
        indexer: d.query.url,
        indexerToken: d.query.token,
        kmd: `${k.protocol}//${k.hostname}`,
        kmdPort: k.port,
        kmdToken: d.keyManager.token,
      };
      await oursTenTests();
      await algokitTenTests(env);
      // A keep-alive socket the devnet closed while our half of a pair ran can fail AlgoKit's next
      // fetch (ECONNRESET): that run is not what is measured, so it is run again.
      const peerRun = async () => {
        try {
          return await algokitTenTests(env);
        } catch (e) {
          if (!/fetch failed|ECONNRESET|socket/i.test(String((e as Error)?.message) + String((e as { cause?: unknown })?.cause))) throw e;
          return algokitTenTests(env);
        }
      };
      const m = await interleaved(oursTenTests, peerRun, 5, false);
      await d.stop();
      out.push({
        name: '10-test file (deploy once; per test: call, state check, expected failure)',
        unit: 'ms',
        ours: m.ours,
        peer: m.peer,
        ratio: m.ratio,
        note: 'peer: AlgoKit algorandFixture (new funded account per test) against our devnet; median of 5 interleaved pairs; goal ≥ 20×',
      });
    }
    // In-process vs HTTP /v2 (the devnet's public node API, through the same facade).
    const tw = await Tealworks.inProcess();
    const d = await startDevnet({ inMemory: true, accounts: 1 });
    const url = new URL(d.node.url);
    const http = await Tealworks.connect({
      env: {
        ALGOD_SERVER: `${url.protocol}//${url.hostname}`,
        ALGOD_PORT: url.port,
        ALGOD_TOKEN: d.node.token,
        INDEXER_SERVER: d.query.url,
        INDEXER_TOKEN: d.query.token,
        KMD_SERVER: d.keyManager.url,
        KMD_TOKEN: d.keyManager.token,
      },
    });
    const oursApp = await tw.app.deploy({ creator: tw.testChain.accounts[0]!, ...deployInput });
    const peerApp = await http.app.deploy({ creator: http.account.dispenser, ...deployInput });
    const oursCall = () => oursApp.client.call('increment', [1]);
    const peerCall = () => peerApp.client.call('increment', [1]);
    await rate(oursCall, 300);
    await rate(peerCall, 300);
    const calls = await interleaved(
      () => rate(oursCall, 500),
      () => rate(peerCall, 500),
      7,
      true,
    );
    await http.close();
    await d.stop();
    out.push({
      name: 'app calls (deployed counter, increment)',
      unit: 'calls/s',
      ours: calls.ours,
      peer: calls.peer,
      ratio: calls.ratio,
      note: "peer: the same facade over the devnet's HTTP /v2; median of 7 interleaved 0.5 s pairs",
    });

    // Per-test isolation with 10,000 boxes in state: one call, then revert.
    const chain = tw.testChain;
    const app = await tw.app.deploy({ creator: chain.accounts[1]!, ...deployInput, name: 'boxes' });
    for (let i = 0; i < 10_000; i++) chain.setBox(app.appId, `box-${i}`, utf8(`value-${i}`));
    chain.setBalance(app.appAddress, 1_000_000_000n); // the boxes' minimum balance
    const base = chain.snapshot();
    let revertMs: number[] = [];
    for (let i = 0; i < 30; i++) {
      await app.client.call('increment', [1]);
      const t = performance.now();
      chain.revert(base);
      revertMs.push(performance.now() - t);
    }
    revertMs = revertMs.sort((a, b) => a - b);
    out.push({
      name: 'revert after one call, 10,000 boxes in state',
      unit: 'ms',
      ours: revertMs[Math.floor(revertMs.length / 2)]!,
      peer: null,
      ratio: null,
      note: 'goal < 2 ms',
    });

    // advanceRounds(1_000_000), O(1).
    const warpBase = chain.snapshot();
    const warp = await medianMs(() => {
      chain.advanceRounds(1_000_000);
      chain.revert(warpBase);
    }, 11);
    out.push({ name: 'advanceRounds(1_000_000) (+ revert)', unit: 'ms', ours: warp, peer: null, ratio: null, note: 'goal < 10 ms' });
    await tw.close();
    return out;
  },
} satisfies BenchModule;
