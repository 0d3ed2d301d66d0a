import { Ed25519KeyPair } from '../sdk/src/crypto/ed25519.js';
import { Address } from '../sdk/src/encoding/address.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { ForkState, Ledger, MemoryForkCache, namedResources, simulate } from '../sdk/src/ledger/index.js';
import { AlgodForkRemote } from '../sdk/src/services/devnet/fork-remote.js';
import { startNodeService } from '../sdk/src/services/node/service.js';
import { assemble } from '../sdk/src/teal/index.js';
import { makeAppCallTxn, makeAppCreateTxn, makePaymentTxn } from '../sdk/src/txn/builders.js';
import { signTransaction } from '../sdk/src/txn/sign.js';
import { assignGroupId } from '../sdk/src/txn/group.js';
import type { SignedTransaction } from '../sdk/src/txn/types.js';
import { latencyEntry, median, throughputEntry, type BenchEntry, type BenchModule } from './lib.js';

/*
 * A fork's first call to an app with 10 boxes (every record fetched from the remote: the sender,
 * the app, its account and the boxes) against the same call again (all cached), with a node
 * service on this machine as the remote. The peer is the remote itself simulating the same group.
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

async function run(): Promise<BenchEntry[]> {
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(9));
  const a = new Address(key.publicKey);
  const l = new Ledger({ genesisAccounts: [{ address: a, amount: 10n ** 15n }] });
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
        sender: a,
        approvalProgram: assemble(APPROVAL).program,
        clearProgram: assemble('#pragma version 10\nint 1').program,
        suggestedParams: sp(),
      }),
      key,
    ),
  ]);
  const appId = l.block(l.latestRound).txns[0]!.ad.createdAppId!;
  l.submit([signTransaction(makePaymentTxn({ sender: a, receiver: Address.forApp(appId), amount: 10n ** 9n, suggestedParams: sp() }), key)]);
  const names = Array.from({ length: BOXES }, (_, i) => {
    const n = new Uint8Array(11);
    n.set(utf8('box'));
    new DataView(n.buffer).setBigUint64(3, BigInt(i));
    return n;
  });
  // The remote's boxes are written directly into its state (a setup step, not what is measured).
  for (const [i, name] of names.entries()) {
    const v = new Uint8Array(8);
    new DataView(v.buffer).setBigUint64(0, BigInt(i + 1));
    l.state.putBox(appId, name, v);
  }
  l.state.commit();
  const token = 'b'.repeat(64);
  const node = await startNodeService({ ledger: l, apiToken: token, host: '127.0.0.1', port: 0 });
  let resourceRequests = 0;
  // One call names at most 8 boxes: a second call in the group names the other two.
  const group: SignedTransaction[] = assignGroupId([
    makeAppCallTxn({ sender: a, appId, boxes: names.slice(0, 8).map((name) => ({ appId, name })), note: utf8('first'), suggestedParams: sp() }),
    makeAppCallTxn({ sender: a, appId, boxes: names.slice(8).map((name) => ({ appId, name })), note: utf8('second'), suggestedParams: sp() }),
  ]).map((t) => signTransaction(t, key));
  const request = { 'txn-groups': [{ txns: group }] };
  const remote = new AlgodForkRemote({ url: node.url, token });
  try {
    const cold: number[] = [];
    const warm: number[] = [];
    const peer: number[] = [];
    let requests = 0;
    let touched = 0;
    for (let s = 0; s < 9; s++) {
      const fork = await ForkState.open({ remote, cache: new MemoryForkCache() });
      const forked = new Ledger({ fork });
      const call = () => fork.run(() => simulate(forked, request));
      let t = performance.now();
      await fork.prefetch(namedResources(group));
      const first = await call();
      cold.push(performance.now() - t);
      const failure = (first['txn-groups'] as { 'failure-message'?: string }[])[0]!['failure-message'];
      if (failure) throw new Error(`the forked call failed: ${failure}`);
      requests = fork.requests.length;
      touched = new Set(fork.requests.map((r) => r.resource)).size;
      t = performance.now();
      await call();
      warm.push(performance.now() - t);
      if (fork.requests.length !== requests) throw new Error('the cached call made requests');
      t = performance.now();
      simulate(l, request);
      peer.push(performance.now() - t);
    }
    resourceRequests = requests;
    const coldMs = median(cold);
    const warmMs = median(warm);
    const peerMs = median(peer);
    return [
      latencyEntry(
        'fork: first call to a forked app with 10 boxes (cold, fetched from a local remote)',
        'ms',
        coldMs,
        peerMs,
        `peer: the remote simulating the same group; ${resourceRequests} remote requests (${touched} resources touched)`,
      ),
      latencyEntry('fork: the same call again (cached)', 'ms', warmMs, peerMs, 'peer: the remote simulating the same group; 0 remote requests'),
      throughputEntry(
        'fork: remote requests of the first call per resource touched',
        'requests/resource',
        resourceRequests / touched,
        1,
        `${resourceRequests} requests, ${touched} resources (sender, app, app account, fee sink, 10 boxes)`,
      ),
    ];
  } finally {
    await node.close();
  }
}

const mod: BenchModule = {
  name: 'fork',
  description: 'a fork of a live network: first (fetching) and cached call to an app with 10 boxes, against a local remote',
  run,
};
export default mod;
