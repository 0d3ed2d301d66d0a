import { Ed25519KeyPair } from '../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { Ledger, type LedgerConfig } from '../../../sdk/src/ledger/index.js';
import { signTransaction } from '../../../sdk/src/txn/sign.js';
import { assignGroupId } from '../../../sdk/src/txn/group.js';
import type { SignedTransaction, Transaction } from '../../../sdk/src/txn/types.js';
import type { SuggestedParams } from '../../../sdk/src/txn/builders.js';
import { assemble } from '../../../sdk/src/teal/index.js';

export const ALGO = 1_000_000n;

export function key(n: number): Ed25519KeyPair {
  const seed = new Uint8Array(32);
  seed[0] = n;
  seed[31] = 0x5a;
  return Ed25519KeyPair.fromSeed(seed);
}

export const addrOf = (k: Ed25519KeyPair): Address => new Address(k.publicKey);

export interface Devnet {
  ledger: Ledger;
  keys: Ed25519KeyPair[];
  addr: (i: number) => Address;
  sp: (extra?: Partial<SuggestedParams>) => SuggestedParams;
  sign: (txn: Transaction, k?: Ed25519KeyPair) => SignedTransaction;
  /** Groups, signs each with the key of its sender (or the one given), submits. */
  send: (txns: Transaction[], signers?: (Ed25519KeyPair | undefined)[]) => ReturnType<Ledger['submit']>;
}

export function devnet(accounts = 4, config: LedgerConfig = {}): Devnet {
  const keys = Array.from({ length: accounts }, (_, i) => key(i + 1));
  let t = 1_700_000_000n;
  const ledger = new Ledger({
    genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 100n * ALGO })),
    genesisTimestamp: 1_700_000_000n,
    clock: () => (t += 1n),
    ...config,
  });
  const byAddr = new Map(keys.map((k) => [addrOf(k).toString(), k]));
  const sp = (extra: Partial<SuggestedParams> = {}): SuggestedParams => ({
    fee: 1000n,
    flatFee: true,
    firstValid: ledger.latestRound,
    lastValid: ledger.latestRound + 1000n,
    genesisId: ledger.genesisId,
    genesisHash: ledger.genesisHash,
    ...extra,
  });
  const sign = (txn: Transaction, k?: Ed25519KeyPair): SignedTransaction => signTransaction(txn, k ?? byAddr.get(txn.sender.toString())!);
  const send = (txns: Transaction[], signers: (Ed25519KeyPair | undefined)[] = []) => {
    const grouped = txns.length > 1 ? assignGroupId(txns) : txns;
    return ledger.submit(grouped.map((t, i) => sign(t, signers[i])));
  };
  return { ledger, keys, addr: (i) => addrOf(keys[i]!), sp, sign, send };
}

export function teal(source: string): Uint8Array {
  return assemble(source).program;
}
