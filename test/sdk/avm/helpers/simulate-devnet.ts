// A devnet whose app ids can be chosen, for running simulate on groups recorded elsewhere (or
// written as test data) and comparing the responses with algod's in its JSON form.
import { Ed25519KeyPair } from '../../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { parseJson, stringifyJson } from '../../../../sdk/src/encoding/json.js';
import { Ledger, simulate } from '../../../../sdk/src/ledger/index.js';
import type { SimulateRequest } from '../../../../sdk/src/ledger/index.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import { makeAppCallTxn, makePaymentTxn } from '../../../../sdk/src/txn/builders.js';
import { assignGroupId } from '../../../../sdk/src/txn/group.js';
import { signTransaction } from '../../../../sdk/src/txn/sign.js';
import type { LogicSig, Transaction } from '../../../../sdk/src/txn/types.js';

export const ALGO = 1_000_000n;

function keyOf(n: number): Ed25519KeyPair {
  const seed = new Uint8Array(32).fill(n);
  seed[31] = 0x13;
  return Ed25519KeyPair.fromSeed(seed);
}

export interface TraceDevnet {
  ledger: Ledger;
  /** The funded account that creates apps and pays setup transactions. */
  creator: Address;
  /** Creates an app whose id is exactly `id` (setup payments advance the transaction counter first). */
  createApp(
    id: bigint,
    approval: Uint8Array,
    clear?: Uint8Array,
    opts?: { globalUints?: number; globalBytes?: number; localUints?: number; localBytes?: number },
  ): void;
  /** Sends `amount` microAlgos from the creator. */
  fund(to: Address, amount: bigint): void;
  /**
   * Simulates `txns` (validity moved to the current round, group id assigned): plain ones with
   * empty signatures, those given with a logic signature keep it (a delegation signs the program,
   * not the transaction, so it stays valid).
   */
  simulate(txns: (Transaction | { txn: Transaction; lsig?: LogicSig })[], extra?: Partial<SimulateRequest>): Record<string, unknown>;
}

/** `accounts` are funded at genesis with 100 Algos each (recorded senders, for instance). */
export function traceDevnet(accounts: Address[] = [], initialTxnCounter = 1000n): TraceDevnet {
  const key = keyOf(7);
  const creator = new Address(key.publicKey);
  let t = 1_700_000_000n;
  const ledger = new Ledger({
    genesisAccounts: [{ address: creator.publicKey, amount: 1_000_000n * ALGO }, ...accounts.map((a) => ({ address: a.publicKey, amount: 100n * ALGO }))],
    genesisTimestamp: t,
    clock: () => (t += 1n),
    initialTxnCounter,
  });
  const sp = () => ({
    fee: 1000n,
    flatFee: true,
    firstValid: ledger.latestRound,
    lastValid: ledger.latestRound + 1000n,
    genesisId: ledger.genesisId,
    genesisHash: ledger.genesisHash,
  });
  const send = (txn: Transaction) => {
    ledger.submit([signTransaction(txn, key)]);
  };
  let filler = 0;
  const fund = (to: Address, amount: bigint) =>
    send(makePaymentTxn({ sender: creator, receiver: to, amount, note: new Uint8Array([filler++ & 0xff, filler >> 8]), suggestedParams: sp() }));
  return {
    ledger,
    creator,
    fund,
    createApp(id, approval, clear, o = {}) {
      if (ledger.state.txnCounter >= id) throw new Error(`app id ${id} is already behind the transaction counter ${ledger.state.txnCounter}`);
      while (ledger.state.txnCounter < id - 1n) fund(creator, 0n);
      send(
        makeAppCallTxn({
          sender: creator,
          appId: 0n,
          approvalProgram: approval,
          clearProgram: clear ?? assemble(`#pragma version ${approval[0]}\nint 1`).program,
          globalSchema: { numUints: o.globalUints ?? 0, numByteSlices: o.globalBytes ?? 0 },
          localSchema: { numUints: o.localUints ?? 0, numByteSlices: o.localBytes ?? 0 },
          extraPages: Math.max(0, Math.ceil(approval.length / 2048) - 1),
          suggestedParams: sp(),
        }),
      );
      if (!ledger.app(id)) throw new Error(`app ${id} was not created at the expected id`);
    },
    simulate(entries, extra = {}) {
      const parts = entries.map((e) =>
        'txn' in e && 'sender' in (e as { txn: Transaction }).txn ? (e as { txn: Transaction; lsig?: LogicSig }) : { txn: e as Transaction },
      );
      const moved = parts.map(({ txn: x }) => ({
        ...x,
        firstValid: ledger.latestRound,
        lastValid: ledger.latestRound + 1000n,
        genesisHash: ledger.genesisHash,
        genesisId: ledger.genesisId,
        group: undefined,
      }));
      const grouped = moved.length > 1 ? assignGroupId(moved) : moved;
      const res = simulate(ledger, {
        'txn-groups': [{ txns: grouped.map((x, i) => ({ txn: x, ...(parts[i]!.lsig ? { lsig: parts[i]!.lsig } : {}) })) }],
        'allow-empty-signatures': true,
        'exec-trace-config': { enable: true, 'stack-change': true, 'scratch-change': true, 'state-change': true },
        ...extra,
      });
      return asNodeJson(res) as Record<string, unknown>;
    },
  };
}

/** The value as algod's JSON would carry it: bytes as base64, every integer a bigint. */
export function asNodeJson(value: unknown): unknown {
  return parseJson(stringifyJson(value), { bigint: 'always' });
}

export function teal(source: string): Uint8Array {
  return assemble(source).program;
}
