import { TealInterpreter } from 'teal-interpreter';
import { assemble } from '../sdk/src/teal/index.js';
import { Address } from '../sdk/src/encoding/address.js';
import { AvmGroupEvaluator, InMemoryLedgerView } from '../sdk/src/avm/index.js';
import type { Transaction } from '../sdk/src/txn/types.js';
import { opsPerSecond, throughputEntry, type BenchModule } from './lib.js';

const SENDER = new Address(new Uint8Array(32).fill(1));
const APP_ID = 1234n;

/**
 * A counting loop around `body`. Executed instructions = 3 + iterations × (body ops + 8); the
 * loop counter lives in scratch slot 0 so bodies may read it.
 */
function loop(body: string[], iterations: number, version: number): { source: string; ops: number } {
  const lines = [
    `#pragma version ${version}`,
    'int 0',
    'store 0',
    'loop:',
    ...body,
    'load 0',
    'int 1',
    '+',
    'dup',
    'store 0',
    `int ${iterations}`,
    '<',
    'bnz loop',
    'int 1',
  ];
  return { source: lines.join('\n'), ops: 3 + iterations * (body.length + 8) };
}

const WORKLOADS: { name: string; body: string[]; peer: boolean }[] = [
  { name: 'arithmetic', body: ['load 0', 'int 3', '*', 'int 7', '%', 'pop'], peer: true },
  { name: 'byte manipulation', body: ['byte 0x0102030405060708', 'load 0', 'itob', 'concat', 'extract 2 8', 'btoi', 'pop'], peer: true },
  { name: 'hashing (sha256 of 8 bytes)', body: ['load 0', 'itob', 'sha256', 'pop'], peer: true },
  { name: 'state access (global put/get)', body: ['byte "k"', 'load 0', 'app_global_put', 'byte "k"', 'app_global_get', 'pop'], peer: false },
];

function appCall(): Transaction {
  return {
    type: 'appl',
    sender: SENDER,
    fee: 1000n,
    firstValid: 1n,
    lastValid: 1000n,
    appCall: {
      appId: APP_ID,
      onComplete: 0,
      args: [],
      accounts: [],
      foreignApps: [],
      foreignAssets: [],
      boxes: [],
      access: [],
      extraPages: 0,
      rejectVersion: 0n,
    },
  };
}

function ours(source: string): () => void {
  const program = assemble(source).program;
  const ledger = new InMemoryLedgerView();
  ledger.createApp(SENDER.publicKey, { approvalProgram: program, globalNumUint: 4n }, APP_ID);
  const group = [appCall()];
  return () => {
    const ev = new AvmGroupEvaluator(group, ledger, { limits: { maxAppProgramCost: 1_000_000_000 } });
    const r = ev.evalApp(0);
    if (!r.approved) throw new Error(`benchmark program failed: ${r.error?.message}`);
  };
}

function peer(source: string): () => Promise<void> {
  const it = new TealInterpreter();
  it.load(source);
  return async () => {
    it.configure({});
    await it.run();
  };
}

const bench: BenchModule = {
  name: 'avm',
  description: 'AVM interpreter: executed opcodes per second on loops (ours vs the teal-interpreter package, v5 programs)',
  async run() {
    const entries = [];
    for (const w of WORKLOADS) {
      const big = loop(w.body, 20_000, 5);
      const mine = await opsPerSecond(ours(big.source), { unitsPerCall: big.ops, minTimeMs: 400, samples: 5 });
      let theirs: number | null = null;
      if (w.peer) {
        const small = loop(w.body, 500, 5);
        theirs = await opsPerSecond(peer(small.source), { unitsPerCall: small.ops, minTimeMs: 400, samples: 3 });
      }
      entries.push(throughputEntry(w.name, 'opcodes/s', mine, theirs, w.peer ? undefined : 'peer has no app state'));
    }
    return entries;
  },
};

export default bench;
