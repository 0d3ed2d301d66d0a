import type { NetworkProfile } from '../adapters/profiles.js';
import type { KeyManagerClient } from '../adapters/kmd/client.js';
import type { NodeAdapter } from '../adapters/node/adapter.js';
import type { QueryClient } from '../adapters/query/client.js';
import type { Signer } from '../adapters/signer.js';
import type { AppChain } from '../app/chain.js';
import { GroupComposer, type SimulateGroupOptions } from '../app/composer.js';
import type { SimulateReport } from '../app/simulate-report.js';
import type { Transaction } from '../txn/types.js';
import { AccountManager } from './account-manager.js';
import { AppManager } from './app-manager.js';
import { TxnGroup } from './group.js';
import {
  connectDevnet,
  connectFromEnv,
  connectLocalnet,
  connectPublic,
  type Connection,
  type ConnectOptionsBase,
  type DevnetConnectOptions,
  type LocalnetConnectOptions,
} from './network.js';
import { TransactionSender } from './sender.js';
import { InProcessChain, type InProcessOptions } from './in-process.js';
import { TransactionBuilder } from './builder.js';
import type { ClientContext } from './context.js';
import { TransactionLog, txnLogLevel, type TxnLogOptions } from './txn-log.js';

/*
 * The entry object of the SDK. Connect once, then reach everything by dot-completion:
 * `tw.account` (keys, funding), `tw.send` (one transaction: build, sign, simulate, send, confirm),
 * `tw.newGroup()` (several at once), `tw.app` (deploy, clients, state), `tw.simulate(group)`.
 * It is a facade over the per-layer subpaths, which stay available for everything it does not say.
 */

/** `Tealworks.connect`: from the environment when called, or by network name through its members. */
export interface Connect {
  /** From ALGOD_SERVER/PORT/TOKEN, INDEXER_*, KMD_* (`NODE_API=node-service` for the Tealworks /v1 node service). */
  (options?: ConnectOptionsBase): Promise<Tealworks>;
  /** The embedded devnet: one `tealworks devnet` keeps running (found through its data directory), else one started in this process. */
  devnet(options?: DevnetConnectOptions): Promise<Tealworks>;
  /** The local node on ports 4001/8980/4002 with the development token (`tealworks devnet --localnet`, AlgoKit LocalNet). */
  localnet(options?: LocalnetConnectOptions): Promise<Tealworks>;
  /** The public test network (free public endpoints). */
  testnet(options?: ConnectOptionsBase): Promise<Tealworks>;
  /** The public main network (free public endpoints). */
  mainnet(options?: ConnectOptionsBase): Promise<Tealworks>;
}

/** What a {@link Tealworks} client is connected to. */
export interface NetworkInfo {
  /** `devnet`, `localnet`, `testnet`, `mainnet`, or the name from `TEALWORKS_NETWORK` (default `env`). */
  name: string;
  /** True on development networks (devnet, localnet, local URLs): they have a dispenser. */
  isDev: boolean;
  /** The service endpoints (tokens included: do not log it). */
  profile: NetworkProfile;
  /** True when `connect.devnet()` found no running devnet (data directory or `--localnet`) and started a throwaway one in this process. */
  inProcess: boolean;
}

/** The transaction log's settings from the options, else `TEALWORKS_LOG`. */
function logOptions(options: ConnectOptionsBase | undefined): TxnLogOptions {
  const given = options?.log;
  if (typeof given === 'string') return { level: txnLogLevel(given, 'the log option') };
  if (given?.level !== undefined) return given;
  const env = (options?.env ?? process.env).TEALWORKS_LOG;
  return { ...given, ...(env ? { level: txnLogLevel(env, 'TEALWORKS_LOG') } : {}) };
}

/**
 * Checks the options that need no network (the log level) first, then connects: a bad option must not
 * leave a devnet started for nothing behind it.
 */
async function open<O extends ConnectOptionsBase>(options: O | undefined, connectTo: (options: O | undefined) => Promise<Connection>): Promise<Tealworks> {
  const log = logOptions(options);
  return new Tealworks(await connectTo(options), { log });
}

const connect: Connect = Object.assign((options?: ConnectOptionsBase) => open(options, connectFromEnv), {
  devnet: (options?: DevnetConnectOptions) => open(options, connectDevnet),
  localnet: (options?: LocalnetConnectOptions) => open(options, connectLocalnet),
  testnet: (options?: ConnectOptionsBase) => open(options, (o) => connectPublic('testnet', o)),
  mainnet: (options?: ConnectOptionsBase) => open(options, (o) => connectPublic('mainnet', o)),
});

/**
 * The client a script starts from.
 *
 * @example
 * ```ts
 * import { Tealworks, algos } from '@tealworks/sdk';
 * const tw = await Tealworks.connect.devnet();
 * const alice = await tw.account.ensureFunded(tw.account.random(), algos(10));
 * await tw.send.payment({ sender: alice, receiver: tw.account.random(), amount: algos(1) });
 * await tw.close();
 * ```
 */
export class Tealworks implements ClientContext {
  /** Connects: `Tealworks.connect()` from the environment, or `.devnet()`, `.localnet()`, `.testnet()`, `.mainnet()`. */
  static readonly connect: Connect = connect;

  /**
   * A client on a fresh chain in this process: the real ledger and AVM, no sockets, no key
   * manager; funded accounts in `tw.testChain.accounts`, snapshots and cheats on `tw.testChain`.
   *
   * @example
   * ```ts
   * const tw = await Tealworks.inProcess();
   * const [alice] = tw.testChain.accounts;
   * const id = tw.testChain.snapshot();
   * await tw.send.payment({ sender: alice!, receiver: tw.account.random(), amount: algos(1) });
   * tw.testChain.revert(id);
   * ```
   */
  static async inProcess(options: InProcessOptions = {}): Promise<Tealworks & { readonly testChain: InProcessChain }> {
    const chain = await InProcessChain.open(options);
    const tw = new Tealworks(chain.connection, { testChain: chain });
    return tw as Tealworks & { readonly testChain: InProcessChain };
  }

  /** The in-process chain behind a client from {@link Tealworks.inProcess} (snapshots, cheats); undefined otherwise. */
  readonly testChain: InProcessChain | undefined;

  /** The network this client talks to. */
  readonly network: NetworkInfo;
  /** Node adapter (either node API). */
  readonly node: NodeAdapter;
  /** Query service (indexer) client, when the network has one. */
  readonly query: QueryClient | undefined;
  /** Key-manager (kmd) client, when the network has one. */
  readonly keyManager: KeyManagerClient | undefined;
  /** Node plus query service, as the app layer's functions take them. */
  readonly chain: AppChain;
  /** Accounts: random, from a mnemonic or the key manager, multisig, logic signature; funding. */
  readonly account: AccountManager;
  /** One transaction at a time: built, signed, simulated first, sent, confirmed. */
  readonly send: TransactionSender;
  /** The same inputs as {@link send}, built into unsigned transactions for composing by hand. */
  readonly build: TransactionBuilder;
  /** Apps: idempotent deploy, clients by spec and id, decoded state and boxes. */
  readonly app: AppManager;
  /** The transaction log: set `tw.log.level` to `info` or `debug` (or connect with `{ log }`, or `TEALWORKS_LOG`). */
  readonly log: TransactionLog;
  readonly #connection: Connection;
  readonly #signers = new Map<string, Signer>();
  /** Rekeyed accounts this client knows of: address → auth address. */
  readonly #auth = new Map<string, string>();

  /** Use {@link Tealworks.connect}. */
  constructor(connection: Connection, options: { log?: TxnLogOptions; testChain?: InProcessChain } = {}) {
    this.#connection = connection;
    this.testChain = options.testChain;
    this.log = new TransactionLog(options.log);
    this.network = { name: connection.name, isDev: connection.isDev, profile: connection.profile, inProcess: connection.inProcess === true };
    this.chain = connection.chain;
    this.node = connection.chain.node;
    this.query = connection.chain.query;
    this.keyManager = connection.keyManager;
    this.send = new TransactionSender(this);
    this.build = new TransactionBuilder(this);
    this.account = new AccountManager(this, connection, this.send);
    this.app = new AppManager(this, this.account);
    if (connection.dispenser) this.register(connection.dispenser.address, connection.dispenser.signer);
    options.testChain?.bindSigners((address, signer) => {
      const before = this.#signers.get(address);
      if (signer) this.#signers.set(address, signer);
      else this.#signers.delete(address);
      return before;
    });
  }

  /** Remembers who signs for `address`; accounts made through {@link account} are registered already. */
  register(address: string, signer: Signer): this {
    this.#signers.set(address, signer);
    return this;
  }

  /** The signer known for `address`, if any: its auth address's when the account was rekeyed (see {@link rekeyed}). */
  signerFor(address: string): Signer | undefined {
    const auth = this.#auth.get(address);
    return (auth !== undefined ? this.#signers.get(auth) : undefined) ?? this.#signers.get(address);
  }

  /**
   * Records that `address` was rekeyed to `authAddress` (back to itself: the rekey is undone), so
   * its transactions are signed by the auth account's signer. `tw.account.rekey` and any send with
   * `rekeyTo` call it; sends also find a rekey the client missed, by simulating with fix-signers.
   */
  rekeyed(address: string, authAddress: string): this {
    if (authAddress === address) this.#auth.delete(address);
    else this.#auth.set(address, authAddress);
    return this;
  }

  /** A group composer whose signers come from this client's accounts (the app layer's `GroupComposer`), reporting to {@link log}. */
  composer(): GroupComposer {
    return new GroupComposer(this.chain, (a) => this.signerFor(a), this.log);
  }

  /** A new group: add payments, asset transfers, app calls and transactions, then `simulate()` or `send()`. */
  newGroup(): TxnGroup {
    return new TxnGroup(this);
  }

  /** Simulates a group without sending it and returns the report (failing index, message, TEAL line, logs, state changes); rekeyed senders are simulated with their auth address (fix-signers). */
  async simulate(group: TxnGroup | GroupComposer | readonly Transaction[], options: SimulateGroupOptions = {}): Promise<SimulateReport> {
    if (group instanceof TxnGroup) return group.simulate(options);
    if (group instanceof GroupComposer) return group.simulate({ fixSigners: true, ...options });
    const c = this.composer();
    for (const t of group) c.add(t);
    return c.simulate({ fixSigners: true, ...options });
  }

  /** Closes the connections (and stops a devnet this client started). */
  async close(): Promise<void> {
    // An in-process chain's close stops the same services, and then refuses cheats and snapshots.
    if (this.testChain) await this.testChain.close();
    else await this.#connection.close();
  }

  /** `await using tw = await Tealworks.connect.devnet()` closes it at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
