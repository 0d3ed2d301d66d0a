import algosdk from 'algosdk';
import { parseArc56 } from '../sdk/src/abi/index.js';
import { fuzz, compileContract, FuzzRandom, arbitraryValue } from '../sdk/src/app/index.js';
import { Ed25519KeyPair } from '../sdk/src/crypto/ed25519.js';
import { Address } from '../sdk/src/encoding/address.js';
import { toBase64 } from '../sdk/src/encoding/base64.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { Ledger, simulate, type SimulateRequest } from '../sdk/src/ledger/index.js';
import { makeAppCallTxn, makeAppCreateTxn, makePaymentTxn, signTransaction, OnComplete } from '../sdk/src/txn/index.js';
import { opsPerSecond, throughputEntry, type BenchEntry, type BenchModule } from './lib.js';

// `store((uint64,uint64,string))void` keeps the struct in a box named by its id.
const TEAL = `#pragma version 10
txn ApplicationID
bz ok
txna ApplicationArgs 0
method "store((uint64,uint64,string))void"
==
assert
txna ApplicationArgs 1
extract 0 8
txna ApplicationArgs 1
box_put
ok:
int 1
`;
const CLEAR = '#pragma version 10\nint 1\n';
const spec = parseArc56({
  arcs: [4, 56],
  name: 'Store',
  structs: {
    User: [
      { name: 'id', type: 'uint64' },
      { name: 'balance', type: 'uint64' },
      { name: 'name', type: 'string' },
    ],
  },
  methods: [
    {
      name: 'store',
      args: [{ type: '(uint64,uint64,string)', name: 'user', struct: 'User' }],
      returns: { type: 'void' },
      actions: { create: [], call: ['NoOp'] },
    },
  ],
  bareActions: { create: ['NoOp'], call: [] },
  source: { approval: toBase64(utf8(TEAL)), clear: toBase64(utf8(CLEAR)) },
});

/**
 * The peer: what a test would do by hand without `fuzz` — per run a fresh ledger, the app created
 * and funded by signed transactions, random arguments encoded with algosdk, the call simulated
 * (with a trace, as fuzz does) and submitted.
 */
function byHandRun(seed: number): void {
  const compiled = compileContract({ spec });
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(3));
  const me = new Address(key.publicKey).toString();
  let t = 1_700_000_000n;
  const ledger = new Ledger({ genesisAccounts: [{ address: key.publicKey, amount: 10n ** 12n }], genesisTimestamp: t, clock: () => (t += 1n) });
  const sp = (fee = 1000n) => ({
    fee,
    flatFee: true,
    firstValid: ledger.latestRound,
    lastValid: ledger.latestRound + 1000n,
    genesisId: ledger.genesisId,
    genesisHash: ledger.genesisHash,
  });
  const created = ledger.submit([
    signTransaction(makeAppCreateTxn({ sender: me, suggestedParams: sp(), approvalProgram: compiled.approval.bytes, clearProgram: compiled.clear.bytes }), key),
  ]);
  const appId = ledger.transaction(created.txids[0]!)!.ad.createdAppId!;
  ledger.submit([signTransaction(makePaymentTxn({ sender: me, receiver: Address.forApp(appId), amount: 10_000_000n, suggestedParams: sp() }), key)]);
  const rng = new FuzzRandom(seed);
  const user = arbitraryValue(spec.getStruct('User'), rng, { accounts: [me], appId, appAddress: Address.forApp(appId).toString(), assets: [] }) as {
    id: bigint;
    balance: bigint;
    name: string;
  };
  const method = algosdk.ABIMethod.fromSignature('store((uint64,uint64,string))void');
  const arg = (method.args[0]!.type as algosdk.ABIType).encode([user.id, user.balance, user.name]);
  const boxName = arg.slice(0, 8);
  const txn = makeAppCallTxn({
    sender: me,
    appId,
    onComplete: OnComplete.NoOp,
    args: [method.getSelector(), arg],
    boxes: [{ appId, name: boxName }],
    suggestedParams: sp(2000n),
  });
  const req = { 'txn-groups': [{ txns: [{ txn }] }], 'allow-empty-signatures': true, 'exec-trace-config': { enable: true } } as unknown as SimulateRequest;
  const res = simulate(ledger, req);
  if (!(res['txn-groups'] as Record<string, unknown>[])[0]!['failure-message']) ledger.submit([signTransaction(txn, key)]);
}

const bench: BenchModule = {
  name: 'fuzz',
  description: 'fuzz runs per second on an ABI method with a struct argument (fresh chain per run), ours vs the same runs written by hand',
  async run(): Promise<BenchEntry[]> {
    const RUNS = 50;
    let seed = 1;
    const ours = await opsPerSecond(() => fuzz(spec, 'store', { runs: RUNS, seed: seed++, senders: 1 }), { unitsPerCall: RUNS, samples: 3, minTimeMs: 1500 });
    let k = 0;
    const peer = await opsPerSecond(() => byHandRun(k++), { samples: 3, minTimeMs: 1500 });
    return [
      throughputEntry(
        'fuzz store(User) runs',
        'runs/s',
        ours,
        peer,
        'one call per run on a fresh chain; peer: fresh ledger + signed create/fund + algosdk encoding per run',
      ),
    ];
  },
};
export default bench;
