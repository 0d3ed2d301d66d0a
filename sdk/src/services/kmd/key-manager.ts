import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Address, decodeAddress, encodeAddress } from '../../encoding/address.js';
import { bytesEqual, concatBytes, isAllZero, nameTextProblem, utf8 } from '../../encoding/bytes.js';
import { toHex } from '../../encoding/hex.js';
import { encodeMsgpack } from '../../encoding/msgpack.js';
import { Ed25519KeyPair } from '../../crypto/ed25519.js';
import { sha512_256 } from '../../crypto/hash.js';
import { MASTER_DERIVATION_KEY_LENGTH, nextDerivedKey } from '../../crypto/kmd-derivation.js';
import { bytesToSign, decodeTransaction } from '../../txn/encode.js';
import { addMultisigSignature, MSIG_PROGRAM_PREFIX, multisigAddressOf } from '../../txn/multisig.js';
import { signTransactionToBytes } from '../../txn/sign.js';
import type { MultisigSig, Transaction } from '../../txn/types.js';
import { multisigToWire } from '../../txn/wire.js';
import { badRequest, MSG, unauthorized, WalletError } from './errors.js';
import { DEFAULT_HANDLE_LIFETIME_SECONDS, HandleTable, type Clock } from './handles.js';
import { PasswordGate, type PasswordBackoffOptions, type PasswordGateStats } from './password-gate.js';
import { DEFAULT_SCRYPT, deriveWalletKey, openSealed, randomSalt, sealBytes, type ScryptParams } from './wallet-crypto.js';
import {
  decodeSecrets,
  encodeSecrets,
  parseRecord,
  serializeRecord,
  walletAad,
  type MultisigPreimage,
  type WalletKey,
  type WalletRecord,
  type WalletSecrets,
} from './wallet-file.js';
import { FileWalletStore, MemoryWalletStore, type WalletStore } from './wallet-store.js';

/**
 * Wallets, handles, keys and signing: the key manager without HTTP. The service routes call this;
 * the devnet calls it directly to set up its default wallet.
 */

// The reference daemon's only driver; clients (algosdk's createWallet among them) send this name.
export const DRIVER_NAME = 'sqlite';
/** Version of the wallet driver the key manager reports. */
export const DRIVER_VERSION = 1;
/** Transaction types the wallet driver reports as supported. */
export const SUPPORTED_TXS: readonly string[] = ['pay', 'keyreg'];
/** Longest wallet name, in UTF-8 bytes. */
export const MAX_WALLET_NAME_BYTES = 64;
const PROGRAM_PREFIX = utf8('Program');

/** A wallet as the key manager lists it: id, name, driver. */
export interface WalletInfo {
  id: string;
  name: string;
  driverName: string;
  driverVersion: number;
  mnemonicUx: boolean;
  supportedTxs: string[];
}

/** An open handle as the key manager reports it: wallet and seconds left. */
export interface HandleInfo {
  wallet: WalletInfo;
  expiresSeconds: number;
}

/** Where the key manager keeps its wallets and its key-derivation cost (public name `KeyManagerServiceOptions`). */
export interface KeyManagerOptions {
  /** Wallet files go to this directory (one file per wallet). Ignored when `store` is given. */
  dataDir?: string;
  /** Default: in memory (sealed exactly as on disk, but nothing is written). */
  store?: WalletStore;
  clock?: Clock;
  handleLifetimeSeconds?: number;
  /** scrypt cost for new wallets; existing files keep the cost they were sealed with. */
  kdf?: ScryptParams;
  /** How often expired handles are dropped and idle wallets locked; 0 disables the timer. */
  sweepIntervalMs?: number;
  /** How wrong passwords slow further attempts (every password-checking route). */
  passwordBackoff?: PasswordBackoffOptions;
}

/** Cancels a password-checked call whose client went away (the HTTP request's signal). */
export interface PasswordCallOptions {
  signal?: AbortSignal;
}

interface Header {
  id: string;
  name: string;
  driver: string;
}

/** A wallet whose password was given: its secrets and file key stay in memory while handles are live. */
interface Unlocked {
  id: string;
  key: Uint8Array;
  kdf: WalletRecord['kdf'];
  secrets: WalletSecrets;
  verifierSalt: Uint8Array;
  verifier: Uint8Array;
  pairs: Map<string, Ed25519KeyPair> | undefined;
}

function wipe(bytes: Uint8Array): void {
  bytes.fill(0);
}

function verifierFor(salt: Uint8Array, password: string): Uint8Array {
  return sha512_256(concatBytes(salt, utf8(password)));
}

function parseAddress(address: string): Uint8Array {
  try {
    return decodeAddress(address);
  } catch {
    throw badRequest(MSG.decodeAddress);
  }
}

function preimageAddress(p: MultisigPreimage): string {
  return multisigAddressOf({ version: p.version, threshold: p.threshold, subsigs: p.publicKeys.map((publicKey) => ({ publicKey })) }).toString();
}

function checkMultisigShape(version: number, threshold: number, keys: readonly Uint8Array[]): void {
  if (version !== 1) throw badRequest(`unsupported multisig version ${version} (only 1 exists)`);
  if (keys.length < 1 || keys.length > 255) throw badRequest(`a multisig account needs 1..255 public keys, got ${keys.length}`);
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > keys.length) {
    throw badRequest(`multisig threshold ${threshold} must be between 1 and the number of keys (${keys.length})`);
  }
  if (keys.some((k) => k.length !== 32)) throw badRequest('every multisig public key must be 32 bytes');
}

/** The key manager behind the key-manager service: encrypted wallet files, handles, key generation and import, signing. */
export class KeyManager {
  readonly #store: WalletStore;
  readonly #handles: HandleTable;
  readonly #kdf: ScryptParams;
  readonly #headers = new Map<string, Header>();
  readonly #unlocked = new Map<string, Unlocked>();
  readonly #locks = new Map<string, Promise<unknown>>();
  /** The one path every password check takes (back-off, cap on waiting attempts). */
  readonly #gate: PasswordGate;
  #kdfRuns = 0;
  readonly #timer: NodeJS.Timeout | undefined;
  /** Files that could not be read as wallets at startup (id → reason); they are left untouched. */
  readonly unreadable = new Map<string, string>();
  #closed = false;

  private constructor(options: KeyManagerOptions, store: WalletStore) {
    this.#store = store;
    const lifetime = options.handleLifetimeSeconds ?? DEFAULT_HANDLE_LIFETIME_SECONDS;
    if (!(lifetime > 0)) throw badRequest('handle lifetime must be positive');
    this.#handles = new HandleTable(options.clock ?? Date.now, lifetime * 1000);
    this.#kdf = options.kdf ?? DEFAULT_SCRYPT;
    this.#gate = new PasswordGate(options.passwordBackoff);
    const every = options.sweepIntervalMs ?? 60_000;
    if (every > 0) {
      this.#timer = setInterval(() => void this.sweep(), every);
      this.#timer.unref();
    }
  }

  static async open(options: KeyManagerOptions = {}): Promise<KeyManager> {
    const store = options.store ?? (options.dataDir ? new FileWalletStore(options.dataDir) : new MemoryWalletStore());
    const km = new KeyManager(options, store);
    for (const [fileId, text] of await store.loadAll()) {
      try {
        const r = parseRecord(text);
        if (r.id !== fileId) throw new Error('file name does not match the wallet id');
        km.#headers.set(r.id, { id: r.id, name: r.name, driver: r.driver });
      } catch (e) {
        km.unreadable.set(fileId, e instanceof Error ? e.message : 'unreadable');
      }
    }
    return km;
  }

  get store(): WalletStore {
    return this.#store;
  }

  get handleLifetimeSeconds(): number {
    return this.#handles.lifetimeMs / 1000;
  }

  // ---- wallets ----------------------------------------------------------------------------

  listWallets(): WalletInfo[] {
    return [...this.#headers.values()].map((h) => this.#info(h));
  }

  findWallet(name: string): WalletInfo | undefined {
    const h = [...this.#headers.values()].find((w) => w.name === name);
    return h && this.#info(h);
  }

  async createWallet(request: { name: string; password: string; driverName?: string; masterDerivationKey?: Uint8Array }): Promise<WalletInfo> {
    this.#checkOpen();
    const driver = request.driverName ?? '';
    if (driver !== '' && driver !== DRIVER_NAME) throw badRequest(MSG.unknownDriver);
    this.#checkName(request.name);
    let mdk = request.masterDerivationKey;
    if (mdk && mdk.length > 0 && !isAllZero(mdk)) {
      if (mdk.length !== MASTER_DERIVATION_KEY_LENGTH) throw badRequest(`master derivation key must be ${MASTER_DERIVATION_KEY_LENGTH} bytes`);
      mdk = mdk.slice();
    } else {
      mdk = new Uint8Array(randomBytes(MASTER_DERIVATION_KEY_LENGTH));
    }
    const password = request.password;
    return this.#withLock('#names', async () => {
      if (this.findWallet(request.name)) throw badRequest(MSG.walletNameExists);
      let id: string;
      do id = randomBytes(16).toString('hex');
      while (this.#headers.has(id));
      const kdf = { ...this.#kdf, salt: randomSalt() };
      const key = await deriveWalletKey(password, kdf.salt, kdf);
      const secrets: WalletSecrets = { masterDerivationKey: mdk, maxIndex: 0n, keys: [], multisig: [] };
      const header = { id, name: request.name, driver: DRIVER_NAME };
      try {
        await this.#persist(header, { key, kdf }, secrets);
      } finally {
        wipe(key);
        wipe(mdk);
      }
      this.#headers.set(id, header);
      return this.#info(header);
    });
  }

  async renameWallet(walletId: string, password: string, newName: string, options: PasswordCallOptions = {}): Promise<WalletInfo> {
    this.#checkOpen();
    const header = this.#header(walletId);
    this.#checkName(newName);
    // The password is checked (after any back-off) before the wallet's lock is taken.
    await this.#gate.attempt(
      walletId,
      options.signal,
      () => this.#opensWallet(walletId, password),
      () => unauthorized(MSG.wrongPassword),
    );
    return this.#withLock('#names', () =>
      this.#withLock(walletId, async () => {
        const other = this.findWallet(newName);
        if (other && other.id !== walletId) throw badRequest(MSG.walletNameExists);
        const record = await this.#readRecord(walletId);
        record.name = newName;
        await this.#store.write(walletId, serializeRecord(record));
        header.name = newName;
        return this.#info(header);
      }),
    );
  }

  /** `true` when `password` opens the wallet (a key derivation either way); `undefined` when it does not. */
  async #opensWallet(walletId: string, password: string): Promise<true | undefined> {
    const cached = this.#unlocked.get(walletId);
    if (cached) return (await this.#passwordOpens(cached, password)) || undefined;
    const record = await this.#readRecord(walletId);
    const key = await this.#derive(password, record.kdf);
    const plain = openSealed(key, record.box, walletAad(record));
    wipe(key);
    if (!plain) return undefined;
    wipe(plain);
    return true;
  }

  // ---- handles -------------------------------------------------------------------------------

  async initHandle(walletId: string, password: string, options: PasswordCallOptions = {}): Promise<string> {
    this.#checkOpen();
    this.#header(walletId);
    // Back-off and the key derivation run outside the wallet's lock: a guesser never queues the owner.
    const opened = await this.#gate.attempt(
      walletId,
      options.signal,
      () => this.#unlockCandidate(walletId, password),
      () => unauthorized(MSG.wrongPassword),
    );
    return this.#withLock(walletId, async () => {
      this.#checkOpen();
      let u: true | Unlocked | undefined = opened;
      // Locked again by the sweep while we waited for the lock: open it once more (the password is known right).
      if (u === true && !this.#unlocked.has(walletId)) u = await this.#unlockCandidate(walletId, password);
      if (u === undefined || (u === true && !this.#unlocked.has(walletId))) throw unauthorized(MSG.wrongPassword);
      if (u !== true) {
        if (this.#unlocked.has(walletId)) this.#lock(u);
        else this.#unlocked.set(walletId, u);
      }
      return this.#handles.create(walletId);
    });
  }

  /** `true` when the wallet is already unlocked and `password` opens it, a freshly unlocked wallet, or `undefined`. */
  async #unlockCandidate(walletId: string, password: string): Promise<true | Unlocked | undefined> {
    const cached = this.#unlocked.get(walletId);
    if (cached) return (await this.#passwordOpens(cached, password)) || undefined;
    const record = await this.#readRecord(walletId);
    const key = await this.#derive(password, record.kdf);
    const plain = openSealed(key, record.box, walletAad(record));
    if (!plain) {
      wipe(key);
      return undefined;
    }
    const secrets = decodeSecrets(plain);
    wipe(plain);
    const verifierSalt = new Uint8Array(randomBytes(16));
    return { id: walletId, key, kdf: record.kdf, secrets, verifierSalt, verifier: verifierFor(verifierSalt, password), pairs: undefined };
  }

  /** Key derivations run so far (each password check at handle creation or rename costs one). */
  get kdfRuns(): number {
    return this.#kdfRuns;
  }

  /** The delay the next password attempt on `walletId` waits, after repeated wrong passwords (ms). */
  backoffMs(walletId: string): number {
    return this.#gate.backoffMs(walletId);
  }

  /** Counts of password checks, delayed, refused (429) and abandoned attempts so far. */
  get passwordStats(): Readonly<PasswordGateStats> {
    return { ...this.#gate.stats };
  }

  /** Password attempts on `walletId` waiting for their back-off right now. */
  passwordAttemptsWaiting(walletId: string): number {
    return this.#gate.waiting(walletId);
  }

  #derive(password: string, kdf: ScryptParams & { salt: Uint8Array }): Promise<Uint8Array> {
    this.#kdfRuns++;
    return deriveWalletKey(password, kdf.salt, kdf);
  }

  /**
   * Checks a password against an unlocked wallet by deriving its key again: a guess costs the same
   * key derivation whether or not someone holds the wallet open.
   */
  async #passwordOpens(u: Unlocked, password: string): Promise<boolean> {
    const key = await this.#derive(typeof password === 'string' ? password : '', u.kdf);
    const ok = timingSafeEqual(key, u.key);
    wipe(key);
    return ok;
  }

  handleInfo(token: string): HandleInfo {
    const h = this.#handles.get(token);
    return { wallet: this.#info(this.#header(h.walletId)), expiresSeconds: this.#handles.secondsLeft(h) };
  }

  renewHandle(token: string): HandleInfo {
    const h = this.#handles.renew(token);
    return { wallet: this.#info(this.#header(h.walletId)), expiresSeconds: this.#handles.secondsLeft(h) };
  }

  async releaseHandle(token: string): Promise<void> {
    this.#handles.release(token);
    await this.sweep();
  }

  /** Drops expired handles and locks wallets nobody holds a handle for (wiping their secrets). */
  async sweep(): Promise<void> {
    const inUse = this.#handles.walletsInUse();
    for (const id of [...this.#unlocked.keys()]) {
      if (inUse.has(id)) continue;
      await this.#withLock(id, async () => {
        if (this.#handles.walletsInUse().has(id)) return;
        const u = this.#unlocked.get(id);
        if (!u) return;
        this.#unlocked.delete(id);
        this.#lock(u);
      });
    }
  }

  // ---- keys ---------------------------------------------------------------------------------

  async exportMasterKey(token: string, password: string, options: PasswordCallOptions = {}): Promise<Uint8Array> {
    const u = await this.#checkedSession(token, password, options);
    return u.secrets.masterDerivationKey.slice();
  }

  async generateKey(token: string, displayMnemonic = false): Promise<string> {
    const { walletId } = this.#handles.get(token);
    if (displayMnemonic) throw badRequest(MSG.noMnemonicUx);
    return this.#mutate(walletId, token, (s) => {
      const taken = new Set(s.keys.map((k) => encodeAddress(k.secretKey.subarray(32))));
      const next = nextDerivedKey(s.masterDerivationKey, s.maxIndex, (a) => taken.has(a));
      wipe(next.seed);
      return [{ ...s, maxIndex: next.index, keys: [...s.keys, { secretKey: next.secretKey, index: next.index }] }, next.address];
    });
  }

  async importKey(token: string, secretKey: Uint8Array): Promise<string> {
    const { walletId } = this.#handles.get(token);
    let pair: Ed25519KeyPair;
    try {
      pair = Ed25519KeyPair.fromSecretKey(secretKey);
    } catch {
      throw badRequest('private key must be 64 bytes: the seed followed by its public key');
    }
    return this.#mutate(walletId, token, (s) => {
      if (s.keys.some((k) => bytesEqual(k.secretKey.subarray(32), pair.publicKey))) throw badRequest(MSG.keyExists);
      return [{ ...s, keys: [...s.keys, { secretKey: pair.secretKey }] }, encodeAddress(pair.publicKey)];
    });
  }

  async exportKey(token: string, password: string, address: string, options: PasswordCallOptions = {}): Promise<Uint8Array> {
    const u = await this.#checkedSession(token, password, options);
    return this.#key(u, parseAddress(address)).secretKey.slice();
  }

  async deleteKey(token: string, password: string, address: string, options: PasswordCallOptions = {}): Promise<void> {
    const u = await this.#checkedSession(token, password, options);
    const pk = parseAddress(address);
    this.#key(u, pk);
    await this.#mutate(u.id, token, (s) => [{ ...s, keys: s.keys.filter((k) => !bytesEqual(k.secretKey.subarray(32), pk)) }, undefined]);
  }

  listKeys(token: string): string[] {
    const u = this.#session(token);
    return u.secrets.keys.map((k) => encodeAddress(k.secretKey.subarray(32)));
  }

  // ---- multisig -----------------------------------------------------------------------------

  async importMultisig(token: string, version: number, threshold: number, publicKeys: readonly Uint8Array[]): Promise<string> {
    const { walletId } = this.#handles.get(token);
    checkMultisigShape(version, threshold, publicKeys);
    const preimage: MultisigPreimage = { version, threshold, publicKeys: publicKeys.map((k) => k.slice()) };
    const address = preimageAddress(preimage);
    return this.#mutate(walletId, token, (s) => {
      const others = s.multisig.filter((m) => preimageAddress(m) !== address);
      return [{ ...s, multisig: [...others, preimage] }, address];
    });
  }

  exportMultisig(token: string, address: string): MultisigPreimage {
    const u = this.#session(token);
    const p = this.#preimage(u, parseAddress(address));
    return { version: p.version, threshold: p.threshold, publicKeys: p.publicKeys.map((k) => k.slice()) };
  }

  listMultisig(token: string): string[] {
    return this.#session(token).secrets.multisig.map(preimageAddress);
  }

  async deleteMultisig(token: string, password: string, address: string, options: PasswordCallOptions = {}): Promise<void> {
    const u = await this.#checkedSession(token, password, options);
    const text = encodeAddress(parseAddress(address));
    this.#preimage(u, decodeAddress(text));
    await this.#mutate(u.id, token, (s) => [{ ...s, multisig: s.multisig.filter((m) => preimageAddress(m) !== text) }, undefined]);
  }

  // ---- signing ------------------------------------------------------------------------------

  /** Signs with the key for `publicKey` when given (non-zero), else the sender's; returns the signed transaction's msgpack. */
  async signTransaction(
    token: string,
    password: string,
    transaction: Uint8Array,
    publicKey?: Uint8Array,
    options: PasswordCallOptions = {},
  ): Promise<Uint8Array> {
    const u = await this.#checkedSession(token, password, options);
    const txn = this.#decodeTxn(transaction);
    const pk = publicKey && publicKey.length > 0 && !isAllZero(publicKey) ? publicKey : txn.sender.publicKey;
    return signTransactionToBytes(txn, this.#pair(u, pk)).blob;
  }

  /** ed25519 over `"Program" || data` with the key of `address`. */
  async signProgram(token: string, password: string, address: string, data: Uint8Array, options: PasswordCallOptions = {}): Promise<Uint8Array> {
    const u = await this.#checkedSession(token, password, options);
    return this.#pair(u, parseAddress(address)).sign(concatBytes(PROGRAM_PREFIX, data));
  }

  /**
   * Adds the signature of `publicKey` to a multisig over the transaction. Without a partial
   * signature, the preimage stored for the signer (or the sender) is used. Returns the msgpack
   * of the resulting multisig signature.
   */
  async signMultisigTransaction(
    token: string,
    password: string,
    request: { transaction: Uint8Array; publicKey: Uint8Array; partial?: MultisigSig; signer?: Uint8Array },
    options: PasswordCallOptions = {},
  ): Promise<Uint8Array> {
    const u = await this.#checkedSession(token, password, options);
    const txn = this.#decodeTxn(request.transaction);
    const signer = request.signer && request.signer.length > 0 && !isAllZero(request.signer) ? request.signer : undefined;
    if (signer && signer.length !== 32) throw badRequest(MSG.decodeBody);
    const msig = this.#startMultisig(u, request.partial, signer ?? txn.sender.publicKey, (addr) => {
      const ok = addr.equals(txn.sender) || (signer !== undefined && bytesEqual(addr.publicKey, signer));
      if (!ok) throw badRequest(MSG.msigWrongAddress);
    });
    return this.#addSignature(u, msig, request.publicKey, bytesToSign(txn));
  }

  /**
   * Multisig delegation of a program: signs `"MsigProgram" || address || program`, or
   * `"Program" || program` when `useLegacy` asks for the pre-V41 form.
   */
  async signMultisigProgram(
    token: string,
    password: string,
    request: { address: string; program: Uint8Array; publicKey: Uint8Array; partial?: MultisigSig; useLegacy?: boolean },
    options: PasswordCallOptions = {},
  ): Promise<Uint8Array> {
    const u = await this.#checkedSession(token, password, options);
    const addr = parseAddress(request.address);
    const msig = this.#startMultisig(u, request.partial, addr, (a) => {
      if (!bytesEqual(a.publicKey, addr)) throw badRequest('given multisig preimage does not hash to the given address');
    });
    const message = request.useLegacy ? concatBytes(PROGRAM_PREFIX, request.program) : concatBytes(MSIG_PROGRAM_PREFIX, addr, request.program);
    return this.#addSignature(u, msig, request.publicKey, message);
  }

  // ---- devnet helpers -------------------------------------------------------------------------

  /**
   * Opens (or creates) the wallet called `name` and makes sure it holds at least `keyCount`
   * generated keys; returns its addresses in order. The devnet funds these at genesis.
   */
  async ensureWallet(request: {
    name: string;
    password: string;
    masterDerivationKey?: Uint8Array;
    keyCount?: number;
  }): Promise<{ wallet: WalletInfo; addresses: string[] }> {
    let wallet = this.findWallet(request.name);
    if (!wallet) {
      if (this.unreadable.size > 0) {
        // The wallet may be one of these: a new wallet with new keys would silently orphan its accounts.
        const files = [...this.unreadable].map(([id, why]) => `${id}.wallet.json (${why})`).join(', ');
        throw new WalletError(
          500,
          `wallet "${request.name}" was not found and ${this.unreadable.size === 1 ? 'a wallet file is' : 'wallet files are'} damaged in ${this.#store.location}: ${files}. ` +
            'No new wallet was created and nothing was changed: restore the damaged file from a backup, or move it out of the folder to start with a new wallet.',
        );
      }
      wallet = await this.createWallet(request);
    }
    const token = await this.initHandle(wallet.id, request.password);
    try {
      let addresses = this.listKeys(token);
      while (addresses.length < (request.keyCount ?? 0)) {
        await this.generateKey(token);
        addresses = this.listKeys(token);
      }
      return { wallet: this.#info(this.#header(wallet.id)), addresses };
    } finally {
      await this.releaseHandle(token);
    }
  }

  /** Resolves once every write started so far has reached the store. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.#locks.values()]);
  }

  /** Waits for pending writes, drops every handle and wipes unlocked secrets. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await Promise.allSettled([...this.#locks.values()]);
    this.#handles.clear();
    for (const u of this.#unlocked.values()) this.#lock(u);
    this.#unlocked.clear();
  }

  // ---- internals ------------------------------------------------------------------------------

  #checkOpen(): void {
    if (this.#closed) throw new WalletError(503, 'key manager is closed');
  }

  #checkName(name: string): void {
    const n = utf8(name).length;
    if (n === 0) throw badRequest('wallet name must not be empty');
    if (n > MAX_WALLET_NAME_BYTES) throw badRequest(`wallet name too long, must be <= ${MAX_WALLET_NAME_BYTES} bytes`);
    const problem = nameTextProblem(name);
    if (problem) throw badRequest(`wallet name ${problem}; choose a name of printable characters`);
  }

  #info(h: Header): WalletInfo {
    return { id: h.id, name: h.name, driverName: DRIVER_NAME, driverVersion: DRIVER_VERSION, mnemonicUx: false, supportedTxs: [...SUPPORTED_TXS] };
  }

  #header(walletId: string): Header {
    const h = typeof walletId === 'string' ? this.#headers.get(walletId) : undefined;
    if (!h) throw badRequest(MSG.walletNotFound);
    return h;
  }

  async #readRecord(walletId: string): Promise<WalletRecord> {
    const text = await this.#store.read(walletId);
    if (text === undefined) throw new WalletError(500, 'wallet file is missing');
    try {
      return parseRecord(text);
    } catch (e) {
      throw new WalletError(
        500,
        `wallet file ${walletId}.wallet.json in ${this.#store.location} is damaged (${e instanceof Error ? e.message : 'unreadable'}); it was left as it is`,
      );
    }
  }

  #passwordMatches(u: Unlocked, password: string): boolean {
    return timingSafeEqual(verifierFor(u.verifierSalt, typeof password === 'string' ? password : ''), u.verifier);
  }

  /** The unlocked wallet behind a live handle. */
  #session(token: string): Unlocked {
    this.#checkOpen();
    const h = this.#handles.get(token);
    const u = this.#unlocked.get(h.walletId);
    if (!u) throw unauthorized(MSG.handleMissing);
    return u;
  }

  /**
   * The unlocked wallet behind a live handle, once `password` was checked against it through the
   * password gate (400 on mismatch). The handle is looked up again after any back-off.
   */
  async #checkedSession(token: string, password: string, options: PasswordCallOptions): Promise<Unlocked> {
    const u = this.#session(token);
    await this.#gate.attempt(
      u.id,
      options.signal,
      () => this.#passwordMatches(u, password) || undefined,
      () => badRequest(MSG.wrongPassword),
    );
    return this.#session(token);
  }

  #key(u: Unlocked, publicKey: Uint8Array): WalletKey {
    const k = u.secrets.keys.find((x) => bytesEqual(x.secretKey.subarray(32), publicKey));
    if (!k) throw badRequest(MSG.keyMissing);
    return k;
  }

  #pair(u: Unlocked, publicKey: Uint8Array): Ed25519KeyPair {
    u.pairs ??= new Map();
    const id = toHex(publicKey);
    let pair = u.pairs.get(id);
    if (!pair) {
      pair = Ed25519KeyPair.fromSecretKey(this.#key(u, publicKey).secretKey);
      u.pairs.set(id, pair);
    }
    return pair;
  }

  #preimage(u: Unlocked, address: Uint8Array): MultisigPreimage {
    const text = encodeAddress(address);
    const p = u.secrets.multisig.find((m) => preimageAddress(m) === text);
    if (!p) throw badRequest(MSG.msigMissing);
    return p;
  }

  #decodeTxn(bytes: Uint8Array): Transaction {
    try {
      return decodeTransaction(bytes);
    } catch {
      throw badRequest(MSG.decodeTransaction);
    }
  }

  #startMultisig(u: Unlocked, partial: MultisigSig | undefined, lookupAddress: Uint8Array, checkAddress: (a: Address) => void): MultisigSig {
    const blank = !partial || (partial.version === 0 && partial.threshold === 0 && partial.subsigs.length === 0);
    if (blank) {
      const p = this.#preimage(u, lookupAddress);
      return { version: p.version, threshold: p.threshold, subsigs: p.publicKeys.map((publicKey) => ({ publicKey })) };
    }
    const keys = partial.subsigs.map((s) => s.publicKey);
    checkMultisigShape(partial.version, partial.threshold, keys);
    if (partial.subsigs.some((s) => s.signature !== undefined && s.signature.length !== 64 && s.signature.length !== 0)) {
      throw badRequest('multisig signatures must be 64 bytes');
    }
    checkAddress(multisigAddressOf(partial));
    return {
      version: partial.version,
      threshold: partial.threshold,
      subsigs: partial.subsigs.map((s) =>
        s.signature && s.signature.length > 0 ? { publicKey: s.publicKey, signature: s.signature } : { publicKey: s.publicKey },
      ),
    };
  }

  #addSignature(u: Unlocked, msig: MultisigSig, publicKey: Uint8Array, message: Uint8Array): Uint8Array {
    if (!msig.subsigs.some((s) => bytesEqual(s.publicKey, publicKey))) throw badRequest(MSG.msigWrongKey);
    const signed = addMultisigSignature(msig, message, this.#pair(u, publicKey));
    return encodeMsgpack(multisigToWire(signed));
  }

  /** Applies a change to an unlocked wallet's secrets and writes the sealed file before adopting it. */
  async #mutate<T>(walletId: string, token: string, change: (s: WalletSecrets) => [WalletSecrets, T]): Promise<T> {
    this.#checkOpen();
    return this.#withLock(walletId, async () => {
      // Re-check under the lock: the handle may have been released while we waited.
      const h = this.#handles.get(token);
      const u = this.#unlocked.get(h.walletId);
      if (!u) throw unauthorized(MSG.handleMissing);
      const [next, result] = change(u.secrets);
      await this.#persist(this.#header(walletId), u, next);
      u.secrets = next;
      u.pairs = undefined;
      return result;
    });
  }

  async #persist(header: Header, sealer: { key: Uint8Array; kdf: WalletRecord['kdf'] }, secrets: WalletSecrets): Promise<void> {
    const plain = encodeSecrets(secrets);
    const aadSource = { id: header.id, kdf: sealer.kdf };
    const box = sealBytes(sealer.key, plain, walletAad(aadSource));
    wipe(plain);
    const record: WalletRecord = { id: header.id, name: header.name, driver: header.driver, kdf: sealer.kdf, box };
    try {
      await this.#store.write(header.id, serializeRecord(record));
    } catch (e) {
      // The file store writes a temp file and renames it: a failure leaves the old file intact.
      const code = (e as NodeJS.ErrnoException | undefined)?.code;
      const full = code === 'ENOSPC' || code === 'EDQUOT';
      throw new WalletError(
        full || code === 'EIO' ? 503 : 500,
        `could not write the wallet file in ${this.#store.location}${code ? ` (${code}${full ? ': the disk is full; free some space and retry' : ''})` : ''}; the wallet is unchanged`,
      );
    }
  }

  #lock(u: Unlocked): void {
    wipe(u.key);
    wipe(u.secrets.masterDerivationKey);
    for (const k of u.secrets.keys) wipe(k.secretKey);
    u.pairs = undefined;
  }

  #withLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.#locks.get(id) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.#locks.set(id, tail);
    void tail.then(() => {
      if (this.#locks.get(id) === tail) this.#locks.delete(id);
    });
    return run;
  }
}
