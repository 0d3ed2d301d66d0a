import type { KeyManagerClient, WalletSession } from '../adapters/kmd/client.js';
import { KeyManagerSigner, type Signer } from '../adapters/signer.js';
import type { AppChain } from './chain.js';

/** The dispenser found in a local node's key manager: its address, a signer, and the open wallet session. */
export interface WalletDispenser {
  address: string;
  signer: Signer;
  /** Close it when done: the signer signs through this session. */
  session: WalletSession;
}

/**
 * The funded dispenser of a devnet or a LocalNet, from the key manager's `unencrypted-default-wallet`
 * (empty password): among the keys holding at least half as much as the richest, the first by
 * address. Genesis gives those accounts equal or far larger sums than scripts move, so the choice
 * stays the same from run to run (the richest alone would change as soon as one of two equal
 * accounts paid for something), and `creator: tw.account.dispenser` deploys stay idempotent.
 * Undefined when the wallet is missing, empty, or cannot be opened with the empty password.
 *
 * @example
 * const d = await findWalletDispenser(keyManager, chain);
 * if (d) try { … sign with d.signer … } finally { await d.session.close(); }
 */
export async function findWalletDispenser(keyManager: KeyManagerClient, chain: AppChain): Promise<WalletDispenser | undefined> {
  try {
    const session = await keyManager.openWallet('unencrypted-default-wallet', '');
    const held: Array<{ address: string; amount: bigint }> = [];
    for (const a of await session.listKeys()) held.push({ address: a, amount: (await chain.node.account(a)).amount });
    const richest = held.reduce((m, h) => (h.amount > m ? h.amount : m), 0n);
    const best = held.filter((h) => h.amount > 0n && h.amount * 2n >= richest).sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))[0];
    if (!best) {
      await session.close();
      return undefined;
    }
    return { address: best.address, signer: new KeyManagerSigner(session), session };
  } catch {
    return undefined;
  }
}

/**
 * The 32-byte seed of `address`'s key in a key-manager wallet (the devnet's funded accounts): with
 * it, signing is local, much faster than one key-manager round trip per transaction.
 */
export async function walletKeySeed(keyManager: KeyManagerClient, wallet: { name: string; password: string }, address: string): Promise<Uint8Array> {
  const session = await keyManager.openWallet(wallet.name, wallet.password);
  try {
    return (await session.exportKey(address)).slice(0, 32);
  } finally {
    await session.close();
  }
}
