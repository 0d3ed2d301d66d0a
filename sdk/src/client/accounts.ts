import type { Signer } from '../adapters/signer.js';
import { KeyManagerSigner } from '../adapters/signer.js';
import type { KeyManagerClient } from '../adapters/kmd/client.js';
import { Ed25519KeyPair } from '../crypto/ed25519.js';
import { keyFromMnemonic, mnemonicFromSeed } from '../crypto/mnemonic.js';
import { Address, encodeAddress } from '../encoding/address.js';
import { encodeSignedTransaction } from '../txn/encode.js';
import { makeLogicSig, logicSigAddress } from '../txn/logicsig.js';
import { appendSignMultisigTransaction, multisigAddress, signMultisigTransaction, type MultisigMetadata } from '../txn/multisig.js';
import { signTransactionToBytes } from '../txn/sign.js';
import type { LogicSig, SignedTransaction, Transaction } from '../txn/types.js';
import { LogicSigSigner } from '../app/composer.js';
import { ClientError } from './errors.js';

/*
 * Accounts a script signs with. Each has an address and a signer; the client remembers every
 * account it made, so a transaction from that address is signed without naming the signer again.
 */

/** An address together with what signs for it. What `tw.account.*` returns and every `sender` accepts. */
export interface SigningAccount {
  /** The account's address (58 characters). */
  readonly address: string;
  /** Signs transactions sent from {@link address}. */
  readonly signer: Signer;
}

/** A sender: a {@link SigningAccount}, or an address whose signer the client already knows. */
export type SenderLike = SigningAccount | string;

/** The address of a {@link SenderLike} or of an {@link Address}. */
export function addressOf(who: SenderLike | Address): string {
  return typeof who === 'string' ? who : who instanceof Address ? who.toString() : who.address;
}

/** An account whose ed25519 key is held in this process. */
export class LocalAccount implements SigningAccount, Signer {
  /** Its key is held here: see {@link Signer.signsLocally}. */
  readonly signsLocally = true;
  readonly #pair: Ed25519KeyPair;
  readonly #seed: Uint8Array;
  /** The account's address. */
  readonly address: string;

  /** From a 32-byte seed; prefer `tw.account.random()` / `tw.account.fromMnemonic()`. */
  constructor(seed: Uint8Array) {
    if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new ClientError('an account seed must be 32 bytes');
    this.#seed = seed.slice();
    this.#pair = Ed25519KeyPair.fromSeed(this.#seed);
    this.address = encodeAddress(this.#pair.publicKey);
  }

  /** This account signs for itself. */
  get signer(): Signer {
    return this;
  }

  /** The 25-word phrase that restores this account. Treat it as the key itself. */
  get mnemonic(): string {
    return mnemonicFromSeed(this.#seed);
  }

  /** The raw key pair, for multisig and logic-signature delegation. */
  get keyPair(): Ed25519KeyPair {
    return this.#pair;
  }

  /** Signs `txns[i]` for each index (see {@link Signer}). */
  async sign(txns: readonly Transaction[], indexes: readonly number[]): Promise<Uint8Array[]> {
    return indexes.map((i) => {
      const t = txns[i];
      if (!t) throw new ClientError(`signing index ${i} is outside the group of ${txns.length}`);
      return signTransactionToBytes(t, this.#pair).blob;
    });
  }

  /** Never reveals the key when logged or serialised. */
  toJSON(): { address: string } {
    return { address: this.address };
  }
}

/** A multisig account: its parameters and the local accounts that sign for it (at least `threshold` of them). */
export class MultisigAccount implements SigningAccount, Signer {
  /** Its members' keys are held here: see {@link Signer.signsLocally}. */
  readonly signsLocally = true;
  /** The multisig address. */
  readonly address: string;

  /** Prefer `tw.account.multisig(params, signers)`. */
  constructor(
    /** Version, threshold and the ordered member addresses. */
    readonly params: MultisigMetadata,
    /** The members that sign here. */
    readonly members: readonly LocalAccount[],
  ) {
    this.address = multisigAddress(params).toString();
    const listed = new Set(params.addrs.map((a) => a.toString()));
    for (const m of members)
      if (!listed.has(m.address)) throw new ClientError(`${m.address} is not a member of the multisig ${this.address} (members: ${[...listed].join(', ')})`);
    if (members.length < params.threshold)
      throw new ClientError(`the multisig needs ${params.threshold} signatures but only ${members.length} signer(s) were given`);
  }

  /** This account signs for itself. */
  get signer(): Signer {
    return this;
  }

  /** Signs each indexed transaction with the first `threshold` members. */
  async sign(txns: readonly Transaction[], indexes: readonly number[]): Promise<Uint8Array[]> {
    return indexes.map((i) => {
      const t = txns[i];
      if (!t) throw new ClientError(`signing index ${i} is outside the group of ${txns.length}`);
      const [first, ...rest] = this.members.slice(0, this.params.threshold);
      let stxn: SignedTransaction = signMultisigTransaction(t, this.params, first!.keyPair);
      for (const m of rest) stxn = appendSignMultisigTransaction(stxn, this.params, m.keyPair);
      return encodeSignedTransaction(stxn);
    });
  }
}

/** A logic-signature account (the program's own escrow address). */
export class LogicSigAccount implements SigningAccount {
  /** The escrow address: the hash of the program. */
  readonly address: string;
  /** The logic signature (program and arguments). */
  readonly lsig: LogicSig;
  /** Signs with the program; simulations run it too. */
  readonly signer: LogicSigSigner;

  /** Prefer `tw.account.logicsig(program, args)`. */
  constructor(program: Uint8Array, args: readonly Uint8Array[] = []) {
    this.lsig = makeLogicSig(program, args);
    this.address = logicSigAddress(program).toString();
    this.signer = new LogicSigSigner(this.lsig);
  }
}

/** A new account from 32 random bytes of the platform's secure generator. */
export function randomAccount(): LocalAccount {
  return new LocalAccount(crypto.getRandomValues(new Uint8Array(32)));
}

/** The account of a 25-word phrase; a phrase that does not check out is refused without quoting it. */
export function accountFromMnemonic(mnemonic: string): LocalAccount {
  let seed: Uint8Array;
  try {
    seed = keyFromMnemonic(mnemonic);
  } catch {
    throw new ClientError('the mnemonic is not a valid 25-word key phrase (wrong word, word count or checksum)');
  }
  return new LocalAccount(seed);
}

/** Signs through a key-manager wallet (opened by `tw.account.fromKeyManager`). */
export async function keyManagerAccount(keyManager: KeyManagerClient, address: string, wallet: { name: string; password: string }): Promise<SigningAccount> {
  const session = await keyManager.openWallet(wallet.name, wallet.password);
  const keys = await session.listKeys();
  if (!keys.includes(address)) {
    await session.close();
    throw new ClientError(
      `the key-manager wallet ${JSON.stringify(wallet.name)} holds no key for ${address} (it holds ${keys.length ? keys.join(', ') : 'none'})`,
    );
  }
  return { address, signer: new KeyManagerSigner(session) };
}
