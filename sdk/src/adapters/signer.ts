import { Address, encodeAddress } from '../encoding/address.js';
import { Ed25519KeyPair } from '../crypto/ed25519.js';
import { keyFromMnemonic } from '../crypto/mnemonic.js';
import { signTransactionToBytes } from '../txn/sign.js';
import type { Transaction } from '../txn/types.js';
import { AdapterError } from './http/errors.js';
import type { WalletSession } from './kmd/client.js';

/**
 * Anything that can authorise transactions. `sign` signs `txns[i]` for each i in `indexes` and
 * returns the encoded signed transactions in the order of `indexes`; the other members of `txns`
 * are context (a group is signed as a whole, even when one signer holds only some keys).
 */
export interface Signer {
  sign(txns: readonly Transaction[], indexes: readonly number[]): Promise<Uint8Array[]>;
  /**
   * True when signing asks no one and costs nothing but time (keys held in this process): a
   * composer may then sign a group before it knows the group passes, and sign it again. Wallets,
   * key managers and anything that prompts a person leave it unset.
   */
  readonly signsLocally?: boolean;
}

/** A signer cannot sign: no key for the address, an index outside the group, or a bad key. */
export class SignerError extends AdapterError {}

function checkIndexes(txns: readonly Transaction[], indexes: readonly number[]): void {
  for (const i of indexes) {
    if (!Number.isInteger(i) || i < 0 || i >= txns.length) throw new SignerError(`signing index ${i} is outside the group of ${txns.length}`);
  }
}

/** The address whose key must sign: the rekeyed authoriser if one is known, else the sender. */
function authorizer(txn: Transaction, authAddresses: ReadonlyMap<string, string>): string {
  const sender = txn.sender.toString();
  return authAddresses.get(sender) ?? sender;
}

/**
 * Signs with keys held in memory. Key material comes from 25-word mnemonics, 32-byte seeds or an
 * encrypted keystore file (see keystore.ts); it is never part of an error message.
 */
export class LocalSigner implements Signer {
  /** Keys held here: see {@link Signer.signsLocally}. */
  readonly signsLocally = true;
  readonly #keys = new Map<string, Ed25519KeyPair>();
  readonly #auth = new Map<string, string>();

  static fromSeed(seed: Uint8Array): LocalSigner {
    return new LocalSigner().addSeed(seed);
  }

  static fromMnemonic(mnemonic: string): LocalSigner {
    return new LocalSigner().addMnemonic(mnemonic);
  }

  get addresses(): string[] {
    return [...this.#keys.keys()];
  }

  addSeed(seed: Uint8Array): this {
    if (!(seed instanceof Uint8Array) || seed.length !== 32)
      throw new SignerError(`a signing seed must be 32 bytes, got ${seed instanceof Uint8Array ? seed.length : typeof seed}`);
    const pair = Ed25519KeyPair.fromSeed(seed);
    this.#keys.set(encodeAddress(pair.publicKey), pair);
    return this;
  }

  addMnemonic(mnemonic: string): this {
    let seed: Uint8Array;
    try {
      seed = keyFromMnemonic(mnemonic);
    } catch {
      // The underlying message can quote a word of the phrase; a secret must not leak through errors.
      throw new SignerError('the mnemonic is not a valid 25-word key phrase (wrong word, word count or checksum)');
    }
    return this.addSeed(seed);
  }

  /** Declares that `account` (rekeyed) is authorised by `authAddress`, whose key this signer holds. */
  setAuthAddress(account: string | Address, authAddress: string | Address): this {
    this.#auth.set(account.toString(), authAddress.toString());
    return this;
  }

  async sign(txns: readonly Transaction[], indexes: readonly number[]): Promise<Uint8Array[]> {
    checkIndexes(txns, indexes);
    return indexes.map((i) => {
      const txn = txns[i]!;
      const who = authorizer(txn, this.#auth);
      const pair = this.#keys.get(who);
      if (!pair) throw new SignerError(`no key for ${who} (transaction ${i} of the group)`);
      return signTransactionToBytes(txn, pair).blob;
    });
  }

  /** Never reveals keys when logged or serialised. */
  toJSON(): { addresses: string[] } {
    return { addresses: this.addresses };
  }
}

/** Signs through an open key-manager wallet session. */
export class KeyManagerSigner implements Signer {
  readonly #auth = new Map<string, string>();

  constructor(readonly session: WalletSession) {}

  setAuthAddress(account: string | Address, authAddress: string | Address): this {
    this.#auth.set(account.toString(), authAddress.toString());
    return this;
  }

  async sign(txns: readonly Transaction[], indexes: readonly number[]): Promise<Uint8Array[]> {
    checkIndexes(txns, indexes);
    const out: Uint8Array[] = [];
    for (const i of indexes) {
      const txn = txns[i]!;
      const who = authorizer(txn, this.#auth);
      const publicKey = who === txn.sender.toString() ? undefined : Address.fromString(who).publicKey;
      out.push(await this.session.signTransaction(txn, publicKey));
    }
    return out;
  }
}
