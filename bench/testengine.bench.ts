// Issue 23: the in-process chain — app calls/s in process vs the same calls through the devnet's
// HTTP /v2, per-test isolation (revert) with 10,000 boxes in state, advanceRounds(1_000_000).
import { Tealworks } from '../sdk/src/index.js';
import { startDevnet } from '../sdk/src/services/devnet/devnet.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { medianMs, opsPerSecond, type BenchEntry, type BenchModule } from './lib.js';

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
