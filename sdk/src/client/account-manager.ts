import { fetchBalance } from '../app/chain.js';
import type { Signer } from '../adapters/signer.js';
import type { MultisigMetadata } from '../txn/multisig.js';
import type { AddressLike } from '../encoding/address.js';
import {
  accountFromMnemonic,
  addressOf,
  keyManagerAccount,
  LocalAccount,
  LogicSigAccount,
  MultisigAccount,
  randomAccount,
  type SenderLike,
  type SigningAccount,
} from './accounts.js';
import { toMicroAlgos, type AmountLike } from './amount.js';
import { ClientError } from './errors.js';
import type { Connection } from './network.js';
import type { ConfirmedTransaction } from './sender.js';
import type { ClientContext } from './context.js';
import type { TransactionSender } from './sender.js';

/** Multisig parameters as `tw.account.multisig` takes them. */
export interface MultisigParams {
  /** Signatures needed. */
  threshold: number;
  /** Member addresses, in order (the order is part of the address). */
  addrs: readonly AddressLike[];
  /** Always 1 (the default). */
  version?: number;
}

/** `tw.account`: where a script gets accounts, and money for them on development networks. */
export class AccountManager {
  readonly #tw: ClientContext;
  readonly #connection: Connection;
  readonly #send: TransactionSender;

  /** @internal Made by `Tealworks`. */
  constructor(tw: ClientContext, connection: Connection, send: TransactionSender) {
    this.#tw = tw;
    this.#connection = connection;
    this.#send = send;
  }

  #remember<T extends SigningAccount>(account: T): T {
    this.#tw.register(account.address, account.signer);
    return account;
  }

  /** A new account with a fresh random key (not funded: see {@link ensureFunded}). */
  random(): LocalAccount {
    return this.#remember(randomAccount());
  }

  /** The account of a 25-word mnemonic. */
  fromMnemonic(mnemonic: string): LocalAccount {
    return this.#remember(accountFromMnemonic(mnemonic));
  }

  /** An account held by the network's key manager (default wallet: the development wallet with an empty password). */
  async fromKeyManager(
    address: string,
    wallet: { name: string; password: string } = { name: 'unencrypted-default-wallet', password: '' },
  ): Promise<SigningAccount> {
    const keyManager = this.#connection.keyManager;
    if (!keyManager)
      throw new ClientError(
        `the ${this.#connection.name} network has no key manager configured (set KMD_SERVER, KMD_PORT and KMD_TOKEN, or use the devnet/localnet)`,
      );
    return this.#remember(await keyManagerAccount(keyManager, address, wallet));
  }

  /** A multisig account signed by local member accounts (at least `threshold` of them). */
  multisig(params: MultisigParams, signers: readonly LocalAccount[]): MultisigAccount {
    const meta: MultisigMetadata = { version: params.version ?? 1, threshold: params.threshold, addrs: params.addrs };
    return this.#remember(new MultisigAccount(meta, signers));
  }

  /** The escrow account of a logic-signature program (compiled bytes), with its arguments. */
  logicsig(program: Uint8Array, args: readonly Uint8Array[] = []): LogicSigAccount {
    return this.#remember(new LogicSigAccount(program, args));
  }

  /** Remembers an account made elsewhere (any address and signer). */
  add(account: SigningAccount): SigningAccount;
  add(address: string, signer: Signer): SigningAccount;
  add(a: SigningAccount | string, signer?: Signer): SigningAccount {
    const account = typeof a === 'string' ? { address: a, signer: signer! } : a;
    if (!account.signer) throw new ClientError(`no signer given for ${account.address}`);
    return this.#remember(account);
  }

  /**
   * Rekeys `account` to `to`: from now on `to`'s key signs for it (`rekey(a, a)` undoes it). The
   * client remembers, so `tw.send` and `tw.newGroup()` sign `account`'s transactions with `to`'s
   * signer; `account` itself stays the sender.
   *
   * @example
   * ```ts
   * await tw.account.rekey(alice, bob);
   * await tw.send.payment({ sender: alice, receiver: carol, amount: algos(1) }); // signed by bob
   * ```
   */
  async rekey(account: SenderLike, to: SenderLike, options: { note?: string | Uint8Array } = {}): Promise<ConfirmedTransaction> {
    if (typeof to !== 'string') this.#tw.register(to.address, to.signer);
    const address = addressOf(account);
    return this.#send.payment({
      sender: account,
      receiver: address,
      amount: 0n,
      rekeyTo: addressOf(to),
      ...(options.note !== undefined ? { note: options.note } : {}),
    });
  }

  /**
   * The account a script calls `name`, from the environment: the mnemonic in `NAME_MNEMONIC` (name
   * upper-cased, non-alphanumerics as `_`) when it is set; else, on a development network with a
   * key manager, the key of the key-manager wallet named `name` (created with a new key, and funded
   * with `fund` (default 1000 ALGO) from the dispenser, the first time). Elsewhere the variable is needed.
   *
   * @example
   * ```ts
   * const deployer = await tw.account.fromEnvironment('deployer'); // DEPLOYER_MNEMONIC, or a LocalNet wallet
   * ```
   */
  async fromEnvironment(name: string, options: { fund?: AmountLike } = {}): Promise<SigningAccount> {
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name)) throw new ClientError(`an account name is letters, digits, _ and -, got ${JSON.stringify(name)}`);
    const variable = `${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_MNEMONIC`;
    const mnemonic = (this.#connection.env ?? process.env)[variable];
    if (mnemonic) {
      try {
        return this.fromMnemonic(mnemonic);
      } catch {
        throw new ClientError(`${variable} is not a valid 25-word key phrase (wrong word, word count or checksum)`);
      }
    }
    const keyManager = this.#connection.keyManager;
    if (!this.#connection.isDev || !keyManager)
      throw new ClientError(
        `${variable} is not set: on the ${this.#connection.name} network the account "${name}" comes from that variable (its 25-word mnemonic)`,
      );
    const wallet = (await keyManager.listWallets()).find((w) => w.name === name);
    if (!wallet) await keyManager.createWallet(name, '');
    const session = await keyManager.openWallet(name, '');
    let address: string;
    let seed: Uint8Array;
    try {
      const keys = await session.listKeys();
      address = keys[0] ?? (await session.generateKey());
      seed = (await session.exportKey(address)).slice(0, 32);
    } finally {
      await session.close();
    }
    const account = this.#remember(new LocalAccount(seed));
    if (!wallet) await this.fund(account, options.fund ?? 1000_000_000n);
    return account;
  }

  /** The dispenser of this network (devnet/localnet genesis or wallet account, or the configured funder). */
  get dispenser(): SigningAccount {
    const d = this.#connection.dispenser;
    if (!d) throw new ClientError(`the ${this.#connection.name} network has no dispenser: pass { funder } to Tealworks.connect…(), or set DISPENSER_MNEMONIC`);
    return d;
  }

  /** Balance in micro-units. */
  async balance(who: SenderLike): Promise<bigint> {
    return fetchBalance(this.#tw.chain, addressOf(who));
  }

  /**
   * Makes sure `who` can spend at least `min` beyond its minimum balance, paying the difference from
   * the dispenser (or `from`). Returns `who` (so `const a = await tw.account.ensureFunded(tw.account.random(), algos(5))`
   * reads naturally) — the payment, if one was made, is in `lastFunding`.
   */
  async ensureFunded<T extends SenderLike>(who: T, min: AmountLike, options: { from?: SigningAccount } = {}): Promise<T> {
    const target = toMicroAlgos(min, 'ensureFunded amount');
    const address = addressOf(who);
    const info = await this.#tw.chain.node.account(address);
    const minBalance = info.minBalance ?? 100_000n;
    const spendable = info.amount > minBalance ? info.amount - minBalance : 0n;
    this.lastFunding = undefined;
    if (spendable >= target) return who;
    const funder = options.from ?? this.dispenser;
    // An empty account also needs its minimum balance before it can hold anything.
    const amount = target - spendable + (info.amount < minBalance ? minBalance - info.amount : 0n);
    this.lastFunding = await this.#send.payment({ sender: funder, receiver: address, amount });
    return who;
  }

  /** The payment the last {@link ensureFunded} made, or undefined when the account had enough. */
  lastFunding: ConfirmedTransaction | undefined;

  /** Pays `amount` from the dispenser (or `from`) to `who`, whatever it holds already. */
  async fund(who: SenderLike, amount: AmountLike, options: { from?: SigningAccount } = {}): Promise<ConfirmedTransaction> {
    return this.#send.payment({ sender: options.from ?? this.dispenser, receiver: addressOf(who), amount: toMicroAlgos(amount) });
  }
}
