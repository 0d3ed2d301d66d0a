import { toBase64 } from '../../encoding/base64.js';
import { decodeMsgpack } from '../../encoding/msgpack.js';
import { decodeSignedTransaction, encodeTransaction } from '../../txn/encode.js';
import type { MultisigSig, Transaction } from '../../txn/types.js';
import { multisigFromWire } from '../../txn/wire.js';
import { HttpClient, type HttpMethod } from '../http/client.js';
import { httpClientFor, type ConnectionOptions } from '../http/connection.js';
import { AdapterError, HttpError } from '../http/errors.js';
import { arr, bool, bytes, compact, isObj, obj, optStr, small, str, type Obj } from '../wire.js';

/** The header that carries the key manager's API token. */
export const KEY_MANAGER_TOKEN_HEADER = 'X-KMD-API-Token';

/** The key manager reported `error: true` in its body. */
export class KeyManagerError extends AdapterError {
  constructor(
    readonly operation: string,
    readonly serviceMessage: string,
  ) {
    super(`key manager ${operation} failed: ${serviceMessage}`);
  }
}

/** A key-manager wallet: id, name, driver and supported transaction types. */
export interface Wallet {
  id: string;
  name: string;
  driverName: string;
  driverVersion: number;
  mnemonicUx: boolean;
  supportedTxs: string[];
}

/** An open wallet handle and when it expires. */
export interface WalletHandle {
  wallet: Wallet;
  expiresSeconds: number;
}

/** A multisig account as the key manager stores it: version, threshold and member public keys. */
export interface MultisigPreimage {
  version: number;
  threshold: number;
  publicKeys: Uint8Array[];
}

/** Options of a `KeyManagerClient`: the connection, and the wire forms for byte fields and multisig data. */
export interface KeyManagerOptions extends ConnectionOptions {
  /**
   * How byte fields go out: `array` (JSON arrays of 0..255, as key-manager-service.md specifies)
   * or `base64` (what the reference daemon writes). Responses are read in either form.
   */
  byteForm?: 'array' | 'base64';
  /**
   * Member names of `partial_multisig`: `spec` (`Version`/`Threshold`/`Subsigs` with `Key`/`Sig`)
   * or `codec` (`v`/`thr`/`subsig` with `pk`/`s`, the reference daemon's names).
   */
  multisigForm?: 'spec' | 'codec';
}

function toWallet(value: unknown, what = 'wallet'): Wallet {
  const w = obj(value, what);
  return {
    id: str(w.id ?? '', `${what}.id`),
    name: str(w.name ?? '', `${what}.name`),
    driverName: str(w.driver_name ?? '', `${what}.driver_name`),
    driverVersion: small(w.driver_version ?? 0, `${what}.driver_version`),
    mnemonicUx: bool(w.mnemonic_ux ?? false, `${what}.mnemonic_ux`),
    supportedTxs: arr(w.supported_txs, `${what}.supported_txs`).map((t, i) => str(t, `${what}.supported_txs[${i}]`)),
  };
}

function toHandle(value: unknown): WalletHandle {
  const h = obj(value, 'wallet_handle');
  return { wallet: toWallet(h.wallet, 'wallet_handle.wallet'), expiresSeconds: small(h.expires_seconds ?? 0, 'wallet_handle.expires_seconds') };
}

function addresses(body: Obj): string[] {
  return arr(body.addresses, 'addresses').map((a, i) => str(a, `addresses[${i}]`));
}

/**
 * The key manager signs a bare transaction; given a signed-transaction envelope, its inner
 * transaction is what goes out (key-manager-service.md, /v1/transaction/sign).
 */
export function unsignedTransactionBytes(transaction: Transaction | Uint8Array): Uint8Array {
  if (!(transaction instanceof Uint8Array)) return encodeTransaction(transaction);
  try {
    return encodeTransaction(decodeSignedTransaction(transaction).txn);
  } catch {
    return transaction;
  }
}

/** A multisig signature as the key manager returns it: base64 of its msgpack. */
export function decodeMultisig(b64: string): MultisigSig {
  return multisigFromWire(decodeMsgpack(bytes(b64, 'multisig')), 'multisig');
}

/**
 * Client for the key manager service (key-manager-service.md): every operation, with the wallet
 * handle token passed explicitly. {@link openWallet} wraps a handle in a {@link WalletSession}
 * that keeps it alive and releases it.
 */
export class KeyManagerClient {
  readonly http: HttpClient;
  readonly #byteForm: 'array' | 'base64';
  readonly #msigForm: 'spec' | 'codec';

  constructor(options: KeyManagerOptions | HttpClient, forms: Pick<KeyManagerOptions, 'byteForm' | 'multisigForm'> = {}) {
    if (options instanceof HttpClient) {
      this.http = options;
    } else {
      const { byteForm, multisigForm, ...conn } = options;
      this.http = httpClientFor(conn, KEY_MANAGER_TOKEN_HEADER);
      forms = { byteForm, multisigForm, ...forms };
    }
    this.#byteForm = forms.byteForm ?? 'array';
    this.#msigForm = forms.multisigForm ?? 'spec';
  }

  /** Byte field in the configured outgoing form. */
  wireBytes(value: Uint8Array): string | number[] {
    return this.#byteForm === 'base64' ? toBase64(value) : Array.from(value);
  }

  wireMultisig(m: MultisigSig): Obj {
    if (this.#msigForm === 'codec') {
      return {
        v: m.version,
        thr: m.threshold,
        subsig: m.subsigs.map((s) => (s.signature ? { pk: this.wireBytes(s.publicKey), s: this.wireBytes(s.signature) } : { pk: this.wireBytes(s.publicKey) })),
      };
    }
    return {
      Version: m.version,
      Threshold: m.threshold,
      Subsigs: m.subsigs.map((s) =>
        s.signature ? { Key: this.wireBytes(s.publicKey), Sig: this.wireBytes(s.signature) } : { Key: this.wireBytes(s.publicKey) },
      ),
    };
  }

  /** One call; `secrets` are request values (passwords, keys) that must never be echoed in errors. */
  async call(operation: string, method: HttpMethod, path: string, body: Obj | undefined, options: { idempotent: boolean; secrets?: string[] }): Promise<Obj> {
    const response = await this.http.json({
      method,
      path,
      ...(body !== undefined ? { json: body } : {}),
      idempotent: options.idempotent,
      secrets: options.secrets ?? [],
    });
    const o = isObj(response) ? response : {};
    if (o.error === true) throw new KeyManagerError(operation, this.http.redact(String(o.message ?? 'no message'), options.secrets ?? []));
    return o;
  }

  async swagger(): Promise<unknown> {
    return this.http.json({ method: 'GET', path: '/swagger.json' });
  }

  async versions(): Promise<string[]> {
    const o = await this.call('versions', 'GET', '/versions', undefined, { idempotent: true });
    return arr(o.versions, 'versions').map((v, i) => str(v, `versions[${i}]`));
  }

  async listWallets(): Promise<Wallet[]> {
    const o = await this.call('list wallets', 'GET', '/v1/wallets', undefined, { idempotent: true });
    return arr(o.wallets, 'wallets').map((w, i) => toWallet(w, `wallets[${i}]`));
  }

  async createWallet(name: string, password: string, options: { driverName?: string; masterDerivationKey?: Uint8Array } = {}): Promise<Wallet> {
    const body: Obj = { wallet_name: name, wallet_password: password, wallet_driver_name: options.driverName ?? 'sqlite' };
    if (options.masterDerivationKey) body.master_derivation_key = this.wireBytes(options.masterDerivationKey);
    const o = await this.call('create wallet', 'POST', '/v1/wallet', body, { idempotent: false, secrets: [password] });
    return toWallet(o.wallet);
  }

  async initWalletHandle(walletId: string, password: string): Promise<string> {
    const o = await this.call(
      'init wallet handle',
      'POST',
      '/v1/wallet/init',
      { wallet_id: walletId, wallet_password: password },
      { idempotent: false, secrets: [password] },
    );
    return str(o.wallet_handle_token, 'wallet_handle_token');
  }

  async walletInfo(token: string): Promise<WalletHandle> {
    return toHandle(
      (await this.call('wallet info', 'POST', '/v1/wallet/info', { wallet_handle_token: token }, { idempotent: true, secrets: [token] })).wallet_handle,
    );
  }

  async renewWalletHandle(token: string): Promise<WalletHandle> {
    return toHandle(
      (await this.call('renew wallet handle', 'POST', '/v1/wallet/renew', { wallet_handle_token: token }, { idempotent: true, secrets: [token] }))
        .wallet_handle,
    );
  }

  async releaseWalletHandle(token: string): Promise<void> {
    await this.call('release wallet handle', 'POST', '/v1/wallet/release', { wallet_handle_token: token }, { idempotent: true, secrets: [token] });
  }

  async renameWallet(walletId: string, newName: string, password: string): Promise<Wallet> {
    const o = await this.call(
      'rename wallet',
      'POST',
      '/v1/wallet/rename',
      { wallet_id: walletId, wallet_name: newName, wallet_password: password },
      { idempotent: true, secrets: [password] },
    );
    return toWallet(o.wallet);
  }

  async generateKey(token: string, displayMnemonic = false): Promise<string> {
    const o = await this.call(
      'generate key',
      'POST',
      '/v1/key',
      { wallet_handle_token: token, display_mnemonic: displayMnemonic },
      { idempotent: false, secrets: [token] },
    );
    return str(o.address, 'address');
  }

  async deleteKey(token: string, password: string, address: string): Promise<void> {
    await this.call(
      'delete key',
      'DELETE',
      '/v1/key',
      { address, wallet_handle_token: token, wallet_password: password },
      { idempotent: true, secrets: [token, password] },
    );
  }

  async exportKey(token: string, password: string, address: string): Promise<Uint8Array> {
    const o = await this.call(
      'export key',
      'POST',
      '/v1/key/export',
      { address, wallet_handle_token: token, wallet_password: password },
      { idempotent: true, secrets: [token, password] },
    );
    return bytes(o.private_key, 'private_key');
  }

  async importKey(token: string, privateKey: Uint8Array): Promise<string> {
    const wire = this.wireBytes(privateKey);
    const o = await this.call(
      'import key',
      'POST',
      '/v1/key/import',
      { private_key: wire, wallet_handle_token: token },
      { idempotent: false, secrets: [token, toBase64(privateKey)] },
    );
    return str(o.address, 'address');
  }

  async listKeys(token: string): Promise<string[]> {
    return addresses(await this.call('list keys', 'POST', '/v1/key/list', { wallet_handle_token: token }, { idempotent: true, secrets: [token] }));
  }

  async exportMasterKey(token: string, password: string): Promise<Uint8Array> {
    const o = await this.call(
      'export master key',
      'POST',
      '/v1/master-key/export',
      { wallet_handle_token: token, wallet_password: password },
      { idempotent: true, secrets: [token, password] },
    );
    return bytes(o.master_derivation_key, 'master_derivation_key');
  }

  async deleteMultisig(token: string, password: string, address: string): Promise<void> {
    await this.call(
      'delete multisig',
      'DELETE',
      '/v1/multisig',
      { address, wallet_handle_token: token, wallet_password: password },
      { idempotent: true, secrets: [token, password] },
    );
  }

  async exportMultisig(token: string, address: string): Promise<MultisigPreimage> {
    const o = await this.call(
      'export multisig',
      'POST',
      '/v1/multisig/export',
      { address, wallet_handle_token: token },
      { idempotent: true, secrets: [token] },
    );
    return {
      version: small(o.multisig_version ?? 0, 'multisig_version'),
      threshold: small(o.threshold ?? 0, 'threshold'),
      publicKeys: arr(o.pks, 'pks').map((k, i) => bytes(k, `pks[${i}]`)),
    };
  }

  async importMultisig(token: string, preimage: MultisigPreimage): Promise<string> {
    const body = {
      multisig_version: preimage.version,
      threshold: preimage.threshold,
      pks: preimage.publicKeys.map((k) => this.wireBytes(k)),
      wallet_handle_token: token,
    };
    return str((await this.call('import multisig', 'POST', '/v1/multisig/import', body, { idempotent: false, secrets: [token] })).address, 'address');
  }

  async listMultisig(token: string): Promise<string[]> {
    return addresses(await this.call('list multisig', 'POST', '/v1/multisig/list', { wallet_handle_token: token }, { idempotent: true, secrets: [token] }));
  }

  /** Starts or extends a multisig signature over a transaction; returns the updated signature. */
  async signMultisigTransaction(
    token: string,
    password: string,
    request: { transaction: Transaction | Uint8Array; publicKey: Uint8Array; partial?: MultisigSig; signer?: Uint8Array },
  ): Promise<{ multisig: MultisigSig; raw: Uint8Array }> {
    const txnBytes = unsignedTransactionBytes(request.transaction);
    const body: Obj = { transaction: toBase64(txnBytes), public_key: this.wireBytes(request.publicKey), wallet_handle_token: token, wallet_password: password };
    if (request.partial) body.partial_multisig = this.wireMultisig(request.partial);
    if (request.signer) body.signer = this.wireBytes(request.signer);
    const o = await this.call('sign multisig transaction', 'POST', '/v1/multisig/sign', body, { idempotent: true, secrets: [token, password] });
    const raw = bytes(o.multisig, 'multisig');
    return { multisig: multisigFromWire(decodeMsgpack(raw), 'multisig'), raw };
  }

  /** Multisig delegation of a program (signs "MsigProgram" || address || program). */
  async signMultisigProgram(
    token: string,
    password: string,
    request: { address: string; program: Uint8Array; publicKey: Uint8Array; partial?: MultisigSig },
  ): Promise<{ multisig: MultisigSig; raw: Uint8Array }> {
    const body: Obj = {
      address: request.address,
      data: toBase64(request.program),
      public_key: this.wireBytes(request.publicKey),
      wallet_handle_token: token,
      wallet_password: password,
    };
    if (request.partial) body.partial_multisig = this.wireMultisig(request.partial);
    const o = await this.call('sign multisig program', 'POST', '/v1/multisig/signprogram', body, { idempotent: true, secrets: [token, password] });
    const raw = bytes(o.multisig, 'multisig');
    return { multisig: multisigFromWire(decodeMsgpack(raw), 'multisig'), raw };
  }

  /** Delegates a program with the key of `address` (ed25519 over "Program" || program). */
  async signProgram(token: string, password: string, address: string, program: Uint8Array): Promise<Uint8Array> {
    const o = await this.call(
      'sign program',
      'POST',
      '/v1/program/sign',
      { address, data: toBase64(program), wallet_handle_token: token, wallet_password: password },
      { idempotent: true, secrets: [token, password] },
    );
    return bytes(o.sig, 'sig');
  }

  /** Signs with the sender's key, or with `publicKey`'s (rekeyed accounts); returns the encoded signed transaction. */
  async signTransaction(token: string, password: string, transaction: Transaction | Uint8Array, publicKey?: Uint8Array): Promise<Uint8Array> {
    const txnBytes = unsignedTransactionBytes(transaction);
    const body: Obj = { transaction: toBase64(txnBytes), wallet_handle_token: token, wallet_password: password };
    if (publicKey) body.public_key = this.wireBytes(publicKey);
    const o = await this.call('sign transaction', 'POST', '/v1/transaction/sign', body, { idempotent: true, secrets: [token, password] });
    return bytes(o.signed_transaction, 'signed_transaction');
  }

  /** Unlocks a wallet (by id or name) and returns a session that keeps its handle alive. */
  async openWallet(idOrName: string, password: string, options: { renewEveryMs?: number } = {}): Promise<WalletSession> {
    const wallets = await this.listWallets();
    const wallet = wallets.find((w) => w.id === idOrName) ?? wallets.find((w) => w.name === idOrName);
    if (!wallet) throw new KeyManagerError('open wallet', `no wallet with id or name ${JSON.stringify(idOrName)}`);
    const session = new WalletSession(this, wallet, password, options.renewEveryMs);
    await session.start();
    return session;
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function isExpiredHandle(e: unknown): boolean {
  if (e instanceof HttpError) return e.status === 401 && /expired|does not exist|invalid token/i.test(e.serviceMessage ?? '');
  if (e instanceof KeyManagerError) return /handle expired|handle does not exist/i.test(e.serviceMessage);
  return false;
}

/**
 * An unlocked wallet. The handle token is renewed on a timer (at half its lifetime) while the
 * session is open, re-acquired once if the service says it expired anyway, and released by
 * `close()` or `await using`.
 */
export class WalletSession {
  readonly wallet: Wallet;
  readonly #client: KeyManagerClient;
  readonly #password: string;
  readonly #renewEveryMs: number | undefined;
  #token = '';
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  /** The last background renewal failure, surfaced on the next use rather than lost. */
  #renewError: unknown;
  #reinit: Promise<string> | undefined;

  constructor(client: KeyManagerClient, wallet: Wallet, password: string, renewEveryMs?: number) {
    this.#client = client;
    this.wallet = wallet;
    this.#password = password;
    this.#renewEveryMs = renewEveryMs;
  }

  get isOpen(): boolean {
    return !this.#closed;
  }

  async start(): Promise<void> {
    this.#token = await this.#client.initWalletHandle(this.wallet.id, this.#password);
    let every = this.#renewEveryMs;
    if (every === undefined) {
      const info = await this.#client.walletInfo(this.#token);
      every = Math.max(1_000, (info.expiresSeconds * 1000) / 2);
    }
    this.#timer = setInterval(() => {
      this.#client.renewWalletHandle(this.#token).then(
        () => (this.#renewError = undefined),
        (e) => (this.#renewError = e),
      );
    }, every);
    // A forgotten session must not keep the process alive.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  async #use<T>(fn: (token: string, password: string) => Promise<T>): Promise<T> {
    if (this.#closed) throw new KeyManagerError('wallet session', `the session for wallet ${JSON.stringify(this.wallet.name)} is closed`);
    const used = this.#token;
    try {
      return await fn(used, this.#password);
    } catch (e) {
      if (!isExpiredHandle(e) && !isExpiredHandle(this.#renewError)) throw e;
      // Concurrent calls that all hit the expiry share one re-initialisation (one new handle);
      // a call whose token was already replaced just retries with the new one.
      if (this.#token === used) {
        this.#reinit ??= this.#client.initWalletHandle(this.wallet.id, this.#password).then(
          (fresh) => {
            this.#token = fresh;
            this.#renewError = undefined;
            this.#reinit = undefined;
            return fresh;
          },
          (err: unknown) => {
            this.#reinit = undefined;
            throw err;
          },
        );
        await this.#reinit;
      }
      return fn(this.#token, this.#password);
    }
  }

  info(): Promise<WalletHandle> {
    return this.#use((t) => this.#client.walletInfo(t));
  }
  renew(): Promise<WalletHandle> {
    return this.#use((t) => this.#client.renewWalletHandle(t));
  }
  rename(newName: string): Promise<Wallet> {
    return this.#client.renameWallet(this.wallet.id, newName, this.#password);
  }
  generateKey(displayMnemonic = false): Promise<string> {
    return this.#use((t) => this.#client.generateKey(t, displayMnemonic));
  }
  deleteKey(address: string): Promise<void> {
    return this.#use((t, p) => this.#client.deleteKey(t, p, address));
  }
  exportKey(address: string): Promise<Uint8Array> {
    return this.#use((t, p) => this.#client.exportKey(t, p, address));
  }
  importKey(privateKey: Uint8Array): Promise<string> {
    return this.#use((t) => this.#client.importKey(t, privateKey));
  }
  listKeys(): Promise<string[]> {
    return this.#use((t) => this.#client.listKeys(t));
  }
  exportMasterKey(): Promise<Uint8Array> {
    return this.#use((t, p) => this.#client.exportMasterKey(t, p));
  }
  deleteMultisig(address: string): Promise<void> {
    return this.#use((t, p) => this.#client.deleteMultisig(t, p, address));
  }
  exportMultisig(address: string): Promise<MultisigPreimage> {
    return this.#use((t) => this.#client.exportMultisig(t, address));
  }
  importMultisig(preimage: MultisigPreimage): Promise<string> {
    return this.#use((t) => this.#client.importMultisig(t, preimage));
  }
  listMultisig(): Promise<string[]> {
    return this.#use((t) => this.#client.listMultisig(t));
  }
  signTransaction(transaction: Transaction | Uint8Array, publicKey?: Uint8Array): Promise<Uint8Array> {
    return this.#use((t, p) => this.#client.signTransaction(t, p, transaction, publicKey));
  }
  signProgram(address: string, program: Uint8Array): Promise<Uint8Array> {
    return this.#use((t, p) => this.#client.signProgram(t, p, address, program));
  }
  signMultisigTransaction(request: Parameters<KeyManagerClient['signMultisigTransaction']>[2]): Promise<{ multisig: MultisigSig; raw: Uint8Array }> {
    return this.#use((t, p) => this.#client.signMultisigTransaction(t, p, request));
  }
  signMultisigProgram(request: Parameters<KeyManagerClient['signMultisigProgram']>[2]): Promise<{ multisig: MultisigSig; raw: Uint8Array }> {
    return this.#use((t, p) => this.#client.signMultisigProgram(t, p, request));
  }

  /**
   * The `Signer` contract (see signer.ts): signs `txns[i]` for each i in `indexes` with the
   * senders' keys held by this wallet. For rekeyed senders use `KeyManagerSigner`.
   */
  async sign(txns: readonly Transaction[], indexes: readonly number[]): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    for (const i of indexes) {
      const txn = txns[i];
      if (!txn) throw new KeyManagerError('sign', `signing index ${i} is outside the group of ${txns.length}`);
      out.push(await this.signTransaction(txn));
    }
    return out;
  }

  /** Stops renewing and releases the handle. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    try {
      await this.#client.releaseWalletHandle(this.#token);
    } catch (e) {
      // An already-expired handle is as good as released.
      if (!isExpiredHandle(e)) throw e;
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Shown in logs and inspectors: never the token or password. */
  toJSON(): Obj {
    return compact({ wallet: this.wallet.name, open: !this.#closed, walletId: optStr(this.wallet.id, 'id') });
  }
}
