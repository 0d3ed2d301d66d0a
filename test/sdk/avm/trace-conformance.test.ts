// Simulate exec-traces of our own groups (data/trace-conformance.json, programs in
// data/trace-programs/) must be step for step what algod returns: the shapes a debugger rebuilds
// stacks from (frame_bury, dupn, dig, cover, bury, retsub …), a failing opcode's pops, and the
// spawned-inners / inner-trace of an inner transaction that fails or creates further apps.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address } from '../../../sdk/src/encoding/address.js';
import { makeAppCallTxn } from '../../../sdk/src/txn/builders.js';
import { asNodeJson, teal, traceDevnet } from './helpers/simulate-devnet.js';
import { normalizeTrace } from './helpers/trace-json.js';

const here = dirname(fileURLToPath(import.meta.url));

interface TraceCase {
  name: string;
  apps: { id: number; approval: string; clear?: string; fund?: number; schema?: { globalUints?: number; globalBytes?: number } }[];
  call: { app: number; foreignApps?: number[]; fee?: number; onComplete?: number; optedIn?: boolean };
  expected: { 'failed-at'?: number[]; 'exec-trace': unknown; 'inner-txns'?: string[] };
}
const data = JSON.parse(readFileSync(resolve(here, 'data/trace-conformance.json'), 'utf8')) as { cases: TraceCase[] };

type O = Record<string, any>;

/** Every step's pc, in the nested order a debugger walks them (for a readable first failure). */
function walk(trace: O, path = 'approval'): string[] {
  const out: string[] = [];
  for (const key of ['approval-program-trace', 'clear-state-program-trace']) {
    for (const s of (trace[key] ?? []) as O[]) out.push(`${path}@${s.pc}`);
  }
  ((trace['inner-trace'] ?? []) as O[]).forEach((t, i) => out.push(...walk(t, `${path}/inner${i}`)));
  return out;
}

describe('avm simulate traces match algod step for step', () => {
  for (const c of data.cases) {
    it(c.name, () => {
      const sender = new Address(new Uint8Array(32).fill(0x42));
      const net = traceDevnet([sender], 2000n);
      for (const a of c.apps) {
        const program = (f: string) => teal(readFileSync(resolve(here, 'data/trace-programs', f), 'utf8'));
        net.createApp(BigInt(a.id), program(a.approval), a.clear ? program(a.clear) : undefined, a.schema);
        if (a.fund) net.fund(Address.forApp(BigInt(a.id)), BigInt(a.fund));
      }
      if (c.call.optedIn) {
        net.ledger.state.optIn(sender.publicKey, BigInt(c.call.app));
        net.ledger.state.commit();
      }
      const txn = makeAppCallTxn({
        sender,
        appId: BigInt(c.call.app),
        onComplete: c.call.onComplete ?? 0,
        foreignApps: (c.call.foreignApps ?? []).map(BigInt),
        suggestedParams: { fee: BigInt(c.call.fee ?? 1000), flatFee: true, firstValid: 1n, lastValid: 100n, genesisHash: net.ledger.genesisHash },
      });
      const res = net.simulate([txn]) as O;
      const group = res['txn-groups'][0] as O;
      const got = normalizeTrace(group['txn-results'][0]['exec-trace']) as O;
      const want = normalizeTrace(asNodeJson(c.expected['exec-trace'])) as O;
      assert.deepEqual(walk(got), walk(want), 'the steps (pcs, nesting) differ');
      assert.deepEqual(got, want);
      assert.deepEqual(group['failed-at'], c.expected['failed-at'] === undefined ? undefined : asNodeJson(c.expected['failed-at']));
      if (c.expected['inner-txns']) {
        const listed = ((group['txn-results'][0]['txn-result']['inner-txns'] ?? []) as O[]).map((i) => i.txn.txn.type);
        assert.deepEqual(listed, c.expected['inner-txns'], 'inner-txns of the failed transaction');
      }
    });
  }
});
