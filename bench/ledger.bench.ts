import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ed25519KeyPair } from '../sdk/src/crypto/ed25519.js';
import { Address } from '../sdk/src/encoding/address.js';
import { utf8 } from '../sdk/src/encoding/bytes.js';
import { assemble } from '../sdk/src/teal/index.js';
import { assignGroupId, makeAppCallTxn, makePaymentTxn, signTransaction, type SignedTransaction, type Transaction } from '../sdk/src/txn/index.js';
import { Ledger, simulate, type LedgerStore } from '../sdk/src/ledger/index.js';
import { FileLedgerStore } from '../sdk/src/ledger/persistence.js';
import { latencyEntry, median, percentile, signedElsewhere, throughputEntry, type BenchEntry, type BenchModule } from './lib.js';

let serial = 0;
const keys = Array.from({ length: 4 }, (_, i) => Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(i + 11)));
const addr = (i: number) => new Address(keys[i]!.publicKey);

const APPROVAL = assemble(`#pragma version 10
txn ApplicationID
bz ok
byte "count"
byte "count"
app_global_get
int 1
+
app_global_put
ok:
int 1`).program;
const CLEAR = assemble('#pragma version 10\nint 1').program;

function newLedger(store?: LedgerStore): Ledger {
  return new Ledger({
    genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 1_000_000_000_000n })),
    genesisTimestamp: 1_700_000_000n,
    ...(store ? { store, snapshotInterval: 0 } : {}),
  });
}

function sp(l: Ledger, round: bigint) {
  const fv = round > 500n ? round - 500n : 0n;
  return { fee: 1000n, flatFee: true, firstValid: fv, lastValid: fv + 1000n, genesisId: l.genesisId, genesisHash: l.genesisHash };
}

function createApp(l: Ledger): bigint {
  const t = makeAppCallTxn({
    sender: addr(0),
    appId: 0n,
    approvalProgram: APPROVAL,
    clearProgram: CLEAR,
    globalSchema: { numUints: 1, numByteSlices: 0 },
    suggestedParams: sp(l, 1n),
  });
  const r = l.submit([signTransaction(t, keys[0]!)]);
  return l.transaction(r.txids[0]!)!.ad.createdAppId!;
}

/** Pre-signed single-transaction groups for the next `n` rounds (signing is not measured). */
function payments(l: Ledger, n: number): SignedTransaction[][] {
  const base = l.latestRound + 1n;
  return signedElsewhere(
    Array.from({ length: n }, (_, i) => {
      const s = i % 4;
      const t = makePaymentTxn({
        sender: addr(s),
        receiver: addr((s + 1) % 4),
        amount: 1000 + i,
        note: `p${serial++}`,
        suggestedParams: sp(l, base + BigInt(i)),
      });
      return [signTransaction(t, keys[s]!)];
    }),
  );
}

function appCalls(l: Ledger, app: bigint, n: number): SignedTransaction[][] {
  const base = l.latestRound + 1n;
  return signedElsewhere(
    Array.from({ length: n }, (_, i) => {
      const s = i % 4;
      const t = makeAppCallTxn({ sender: addr(s), appId: app, note: `c${serial++}`, suggestedParams: sp(l, base + BigInt(i)) });
      return [signTransaction(t, keys[s]!)];
    }),
  );
}

function rate(l: Ledger, groups: SignedTransaction[][]): number {
  const start = performance.now();
  for (const g of groups) l.submit(g);
  return (groups.length * 1000) / (performance.now() - start);
}

function withDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'tealworks-ledger-bench-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const bench: BenchModule = {
  name: 'ledger',
  description: 'devnet ledger: submit-and-confirm throughput (payments, app calls; in memory and journaled) and simulate latency',
  async run(): Promise<BenchEntry[]> {
    const out: BenchEntry[] = [];
    {
      const rates: number[] = [];
      for (let s = 0; s < 3; s++) {
        const l = newLedger();
        rate(l, payments(l, 200));
        rates.push(rate(l, payments(l, 2000)));
      }
      out.push(throughputEntry('submit+confirm payment (in memory)', 'blocks/s', median(rates), null, 'one block per group, signature verified'));
    }
    {
      const rates: number[] = [];
      for (let s = 0; s < 3; s++) {
        const l = newLedger();
        const app = createApp(l);
        rate(l, appCalls(l, app, 200));
        rates.push(rate(l, appCalls(l, app, 2000)));
      }
      out.push(throughputEntry('submit+confirm app call (in memory)', 'blocks/s', median(rates), null, 'global counter increment'));
    }
    for (const kind of ['payment', 'app call'] as const) {
      const r = withDir((dir) => {
        const store = new FileLedgerStore(dir);
        const l = newLedger(store);
        const app = createApp(l);
        const groups = kind === 'payment' ? payments(l, 300) : appCalls(l, app, 300);
        const v = rate(l, groups);
        store.close();
        return v;
      });
      out.push(throughputEntry(`submit+confirm ${kind} (journal, fsync per block)`, 'blocks/s', r, null));
    }
    {
      const l = newLedger();
      const app = createApp(l);
      const txns: Transaction[] = Array.from({ length: 16 }, (_, i) =>
        makeAppCallTxn({ sender: addr(i % 4), appId: app, args: [utf8(`a${i}`)], suggestedParams: sp(l, 2n) }),
      );
      const group = assignGroupId(txns).map((t, i) => signTransaction(t, keys[i % 4]!));
      const req = { 'txn-groups': [{ txns: group }] };
      for (let i = 0; i < 50; i++) simulate(l, req);
      const times: number[] = [];
      for (let i = 0; i < 400; i++) {
        const start = performance.now();
        simulate(l, req);
        times.push(performance.now() - start);
      }
      out.push(latencyEntry('simulate 16 app calls p50 (same group again)', 'ms', percentile(times, 50), null, 'goal < 5 ms; signatures cached'));
      out.push(latencyEntry('simulate 16 app calls p99 (same group again)', 'ms', percentile(times, 99), null));
      // Fresh signatures every time: 16 ed25519 verifications per request.
      const fresh: number[] = [];
      for (let i = 0; i < 150; i++) {
        const g = signedElsewhere(assignGroupId(txns.map((t) => ({ ...t, note: utf8(`f${serial++}`) }))).map((t, j) => signTransaction(t, keys[j % 4]!)));
        const start = performance.now();
        simulate(l, { 'txn-groups': [{ txns: g }] });
        fresh.push(performance.now() - start);
      }
      out.push(latencyEntry('simulate 16 app calls p50 (new signatures)', 'ms', percentile(fresh, 50), null));
      out.push(latencyEntry('simulate 16 app calls p99 (new signatures)', 'ms', percentile(fresh, 99), null));
      const unsigned = { 'txn-groups': [{ txns: group.map((s) => ({ txn: s.txn })) }], 'allow-empty-signatures': true };
      const un: number[] = [];
      for (let i = 0; i < 300; i++) {
        const start = performance.now();
        simulate(l, unsigned);
        un.push(performance.now() - start);
      }
      out.push(latencyEntry('simulate 16 app calls p50 (allow-empty-signatures)', 'ms', percentile(un, 50), null));
    }
    return out;
  },
};

export default bench;
