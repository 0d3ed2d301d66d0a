// Replays real algod simulate responses (the AlgoKit AVM Debugger's public sample workspace)
// through our simulate and compares every exec-trace step for step. The recordings are not part
// of this repository: the test runs when they have been placed under
// ../shared/data/fixtures/avm-debugger-traces/ (or $TEALWORKS_AVM_DEBUGGER_TRACES), and says so
// when they are absent. What each recording assumed of the ledger is our own data
// (data/avm-debugger-replay.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address } from '../../../sdk/src/encoding/address.js';
import { parseJson } from '../../../sdk/src/encoding/json.js';
import { signedTransactionFromNodeJson } from '../../../sdk/src/txn/json.js';
import { asNodeJson, teal, traceDevnet } from './helpers/simulate-devnet.js';
import { normalizeTrace } from './helpers/trace-json.js';
import { needShared } from '../../helpers/shared.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const FIXTURES = process.env['TEALWORKS_AVM_DEBUGGER_TRACES'] ?? resolve(repoRoot, '../shared/data/fixtures/avm-debugger-traces');

interface ReplayCase {
  name: string;
  response: string;
  apps: { id: number; approval: string; clear?: string; schema?: { globalUints?: number; globalBytes?: number; localUints?: number; localBytes?: number } }[];
  fundApps?: Record<string, number>;
  optInSenders?: number;
  fundAccounts?: Record<string, number>;
  globals?: Record<string, Record<string, number>>;
}
const manifest = JSON.parse(readFileSync(resolve(here, 'data/avm-debugger-replay.json'), 'utf8')) as { cases: ReplayCase[] };

type O = Record<string, any>;

describe('avm traces replayed against recorded algod simulate responses', () => {
  for (const c of manifest.cases) {
    it(`${c.name} (${c.response})`, function () {
      const file = resolve(FIXTURES, c.response);
      needShared(this, file, 'TEALWORKS_AVM_DEBUGGER_TRACES names a copy of the AVM Debugger sample workspace');
      const recorded = parseJson<O>(readFileSync(file, 'utf8'), { bigint: 'always' });
      const results = recorded['txn-groups'][0]['txn-results'] as O[];
      const signed = results.map((r) => signedTransactionFromNodeJson(r['txn-result'].txn));
      const txns = signed.map((s) => s.txn);
      const senders = [...new Map(txns.map((t) => [t.sender.toString(), t.sender])).values()];
      const net = traceDevnet(senders, c.apps.length ? BigInt(Math.min(...c.apps.map((a) => a.id))) - 1n : 1000n);
      for (const a of c.apps) {
        const approval = teal(readFileSync(resolve(FIXTURES, a.approval), 'utf8'));
        const clear = a.clear ? teal(readFileSync(resolve(FIXTURES, a.clear), 'utf8')) : undefined;
        net.createApp(BigInt(a.id), approval, clear, a.schema);
      }
      for (const [id, kv] of Object.entries(c.globals ?? {})) {
        for (const [k, v] of Object.entries(kv)) net.ledger.state.setGlobal(BigInt(id), new TextEncoder().encode(k), BigInt(v));
        net.ledger.state.commit();
      }
      if (c.optInSenders !== undefined) {
        // The recording's senders had opted in earlier; we hold no keys for them, so the state is set directly.
        for (const s of senders) net.ledger.state.optIn(s.publicKey, BigInt(c.optInSenders));
        net.ledger.state.commit();
      }
      for (const [id, amount] of Object.entries(c.fundApps ?? {})) net.fund(Address.forApp(BigInt(id)), BigInt(amount));
      for (const [addr, amount] of Object.entries(c.fundAccounts ?? {})) net.fund(Address.fromString(addr), BigInt(amount));
      const ours = net.simulate(
        signed.map((s) => ({ txn: s.txn, ...(s.lsig ? { lsig: s.lsig } : {}) })),
        { 'exec-trace-config': recorded['exec-trace-config'] },
      ) as O;
      const ourResults = ours['txn-groups'][0]['txn-results'] as O[];
      results.forEach((r, i) => {
        const want = r['exec-trace'] ? normalizeTrace(asNodeJson(r['exec-trace'])) : undefined;
        const got = ourResults[i]!['exec-trace'] ? normalizeTrace(ourResults[i]!['exec-trace']) : undefined;
        assert.deepEqual(got, want, `exec-trace of transaction ${i}`);
      });
      // The inner transactions each result lists (a failed group's included), by type and sender.
      const recordedInners = (r: O): unknown[] =>
        ((r['inner-txns'] ?? []) as O[]).map((i) => ({ type: i.txn.txn.type, sender: i.txn.txn.snd, inner: recordedInners(i) }));
      const ourInners = (r: O): unknown[] =>
        ((r['inner-txns'] ?? []) as O[]).map((i) => ({ type: i.txn.txn.type, sender: String(i.txn.txn.sender), inner: ourInners(i) }));
      results.forEach((r, i) => assert.deepEqual(ourInners(ourResults[i]!['txn-result']), recordedInners(r['txn-result']), `inner-txns of transaction ${i}`));
      assert.deepEqual(ours['txn-groups'][0]['failed-at'], recorded['txn-groups'][0]['failed-at']);
    });
  }
});
