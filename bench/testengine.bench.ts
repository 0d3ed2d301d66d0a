// Issue 23: the in-process chain — app calls/s in process vs the same calls through the devnet's
// HTTP /v2, per-test isolation (revert) with 10,000 boxes in state, advanceRounds(1_000_000).
import { Tealworks } from '../sdk/src/index.js';
import { startDevnet } from '../sdk/src/services/devnet/devnet.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { readFileSync } from 'node:fs';
import algosdk from 'algosdk';
import { algorandFixture } from '@algorandfoundation/algokit-utils/testing';
import { TEST_SCRYPT } from '../sdk/src/services/kmd/index.js';
import { testFixture, expectFailure, expectState } from '../sdk/src/testing/index.js';
import { medianMs, opsPerSecond, type BenchEntry, type BenchModule } from './lib.js';

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
  const t = performance.now();
  const fixture = algorandFixture({ algodConfig: { server: env.algod!, port: env.algodPort!, token: env.algodToken! }, indexerConfig: { server: env.indexer!, token: env.indexerToken! }, kmdConfig: { server: env.kmd!, port: env.kmdPort!, token: env.kmdToken! } });
  await fixture.newScope();
  const appSpec = JSON.parse(readFileSync(`${ABI}/counter.arc56.json`, 'utf8'));
  const { algorand, testAccount } = fixture.context;
  const approval = await algorand.app.compileTealTemplate(readFileSync(`${ABI}/counter.teal`, 'utf8'), {}, { updatable: false, deletable: false });
  const clear = await algorand.app.compileTeal(readFileSync(`${ABI}/clear.teal`, 'utf8'));
  const created = await algorand.send.appCreate({ sender: testAccount, approvalProgram: approval.compiledBase64ToBytes, clearStateProgram: clear.compiledBase64ToBytes, schema: { globalInts: 1, globalByteSlices: 1, localInts: 0, localByteSlices: 0 } });
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

async function callsPerSecond(tw: Tealworks, creator: Parameters<Tealworks['app']['deploy']>[0]['creator']): Promise<number> {
  const d = await tw.app.deploy({ creator, ...deployInput });
  return opsPerSecond(() => d.client.call('increment', [1]), { minTimeMs: 1500, samples: 3 });
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
      const env = { algod: `${n.protocol}//${n.hostname}`, algodPort: n.port, algodToken: d.node.token, indexer: d.query.url, indexerToken: d.query.token, kmd: `${k.protocol}//${k.hostname}`, kmdPort: k.port, kmdToken: d.keyManager.token };
      await oursTenTests();
      const ours = [await oursTenTests(), await oursTenTests(), await oursTenTests()].sort((a, b) => a - b)[1]!;
      const peer = [await algokitTenTests(env), await algokitTenTests(env), await algokitTenTests(env)].sort((a, b) => a - b)[1]!;
      await d.stop();
      out.push({ name: '10-test file (deploy once; per test: call, state check, expected failure)', unit: 'ms', ours, peer, ratio: peer / ours, note: 'peer: AlgoKit algorandFixture (new funded account per test) against our devnet; goal ≥ 20×' });
    }
    // In-process vs HTTP /v2 (the devnet's public node API, through the same facade).
    const tw = await Tealworks.inProcess();
    const ours = await callsPerSecond(tw, tw.testChain.accounts[0]!);
    const d = await startDevnet({ inMemory: true, accounts: 1 });
    const url = new URL(d.node.url);
    const http = await Tealworks.connect({ env: { ALGOD_SERVER: `${url.protocol}//${url.hostname}`, ALGOD_PORT: url.port, ALGOD_TOKEN: d.node.token, INDEXER_SERVER: d.query.url, INDEXER_TOKEN: d.query.token, KMD_SERVER: d.keyManager.url, KMD_TOKEN: d.keyManager.token } });
    const peer = await callsPerSecond(http, http.account.dispenser);
    await http.close();
    await d.stop();
    out.push({ name: 'app calls (deployed counter, increment)', unit: 'calls/s', ours, peer, ratio: ours / peer, note: 'peer: the same facade over the devnet\'s HTTP /v2' });

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
    out.push({ name: 'revert after one call, 10,000 boxes in state', unit: 'ms', ours: revertMs[Math.floor(revertMs.length / 2)]!, peer: null, ratio: null, note: 'goal < 2 ms' });

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
