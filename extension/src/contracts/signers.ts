// Who can sign, one job of the contract session (session.ts): the key manager's wallets (opened
// with their password; the devnet's default wallet with its known one) and local accounts imported
// from a mnemonic, whose secrets live in VS Code's SecretStorage only (state holds the addresses).
import * as vscode from 'vscode';
import type { KeyManagerClient, WalletSession } from '@tealworks/sdk/adapters';
import { KeyManagerSigner, LocalSigner, type Signer } from '@tealworks/sdk/adapters';
import { secretKey } from './networks.js';

export interface WalletEntry {
  id: string;
  name: string;
  session?: WalletSession;
  addresses?: string[];
}

/** What the signers need of the session: its key manager, the devnet's default wallet, change events. */
export interface SignerHost {
  keyManager(): Promise<KeyManagerClient | undefined>;
  /** The default wallet of the devnet when it is the active network and running. */
  devnetWallet(): { name: string; password: string } | undefined;
  changed(): void;
}

export class Signers {
  /** The key manager's wallets, once listed (undefined: list again). */
  wallets: WalletEntry[] | undefined;
  readonly #local = new LocalSigner();
  #localLoaded = false;
  /** The listing under way, shared: two callers at once get the same entries, not one list each. */
  #listing: { promise: Promise<WalletEntry[]>; gen: number } | undefined;
  /** Bumped whenever the list is forgotten, so a listing started before does not put it back. */
  #gen = 0;
  /** Wallets being opened, shared by concurrent callers (one session per wallet, not two). */
  readonly #opening = new WeakMap<WalletEntry, Promise<WalletEntry>>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.OutputChannel,
    private readonly host: SignerHost,
  ) {}

  async listWallets(): Promise<WalletEntry[]> {
    if (this.wallets) return this.wallets;
    if (this.#listing?.gen === this.#gen) return this.#listing.promise;
    const gen = this.#gen;
    const promise = (async () => {
      const keyManager = await this.host.keyManager();
      const listed = keyManager ? (await keyManager.listWallets()).map((w) => ({ id: w.id, name: w.name })) : [];
      // The list was forgotten meanwhile (the network changed): these entries are of the old one.
      if (gen === this.#gen) this.wallets = listed;
      return listed;
    })();
    this.#listing = { promise, gen };
    const clear = () => {
      if (this.#listing?.promise === promise) this.#listing = undefined;
    };
    promise.then(clear, clear);
    return promise;
  }

  /** Forgets the listed wallets (without closing them): the next listing asks the key manager again. */
  forgetWallets(): void {
    this.wallets = undefined;
    this.#gen++;
  }

  /** Opens a wallet; the devnet's default wallet has a known empty password, others are asked for. */
  async unlock(wallet: WalletEntry, password?: string): Promise<WalletEntry> {
    if (wallet.session?.isOpen) return wallet;
    // A caller with a password of its own opens with it; others share the opening under way.
    const pending = password === undefined ? this.#opening.get(wallet) : undefined;
    if (pending) return pending;
    const opening = this.#open(wallet, password);
    this.#opening.set(wallet, opening);
    try {
      return await opening;
    } finally {
      if (this.#opening.get(wallet) === opening) this.#opening.delete(wallet);
    }
  }

  async #open(wallet: WalletEntry, password?: string): Promise<WalletEntry> {
    const keyManager = await this.host.keyManager();
    if (!keyManager) throw new Error('this network has no key manager');
    let pw = password;
    const devnetWallet = this.host.devnetWallet();
    if (pw === undefined && devnetWallet && wallet.name === devnetWallet.name) pw = devnetWallet.password;
    if (pw === undefined) {
      pw = await vscode.window.showInputBox({ prompt: `Password for wallet ${wallet.name}`, password: true, ignoreFocusOut: true });
      if (pw === undefined) throw new vscode.CancellationError();
    }
    // The session renews its handle in the background while it is open.
    wallet.session = await keyManager.openWallet(wallet.id, pw);
    wallet.addresses = await wallet.session.listKeys();
    this.host.changed();
    return wallet;
  }

  async localAccounts(): Promise<string[]> {
    if (!this.#localLoaded) {
      this.#localLoaded = true;
      const names = this.context.globalState.get<string[]>(`tealworks.localAccounts`, []);
      for (const address of names) {
        const m = await this.context.secrets.get(secretKey('local', 'mnemonic', address));
        if (m) {
          try {
            this.#local.addMnemonic(m);
          } catch {
            this.log.appendLine(`stored key for ${address} is unusable; remove and import it again`);
          }
        }
      }
    }
    return this.#local.addresses;
  }

  /** Keeps the mnemonic in SecretStorage only; settings and state hold just the address. */
  async importMnemonic(mnemonic: string): Promise<string> {
    const probe = LocalSigner.fromMnemonic(mnemonic.trim());
    const address = probe.addresses[0]!;
    await this.context.secrets.store(secretKey('local', 'mnemonic', address), mnemonic.trim());
    const list = new Set(this.context.globalState.get<string[]>('tealworks.localAccounts', []));
    list.add(address);
    await this.context.globalState.update('tealworks.localAccounts', [...list]);
    this.#local.addMnemonic(mnemonic.trim());
    this.host.changed();
    return address;
  }

  signerFor(address: string): Signer | undefined {
    if (this.#local.addresses.includes(address)) return this.#local;
    const w = (this.wallets ?? []).find((x) => x.session?.isOpen && x.addresses?.includes(address));
    return w?.session ? new KeyManagerSigner(w.session) : undefined;
  }

  /** Closes the open wallets and forgets the list (the network changed). */
  async closeWallets(): Promise<void> {
    const wallets = this.wallets;
    this.forgetWallets();
    for (const w of wallets ?? []) await w.session?.close().catch(() => undefined);
  }
}
