// The active network and everything tied to it: the embedded devnet (started in this process on
// demand, stopped with the extension), the node/query/key-manager clients, unlocked wallets and
// local accounts (their secrets live in SecretStorage), and the apps this workspace deployed.
import { describeRecovery, devnetRecoveryPrompt } from './devnetRecovery.js';
import * as vscode from 'vscode';
import type { RunningDevnet } from '@tealworks/sdk/services';
import { keyManagerFor, nodeAdapterFor, profileFromDevnet, queryClientFor, type NetworkProfile } from '@tealworks/sdk/adapters';
import type { KeyManagerClient, WalletSession } from '@tealworks/sdk/adapters';
import { KeyManagerSigner, LocalSigner, type Signer } from '@tealworks/sdk/adapters';
import type { AppChain } from '@tealworks/sdk/app';
import { builderParams } from '@tealworks/sdk/app';
import { toBase64 } from '@tealworks/sdk/encoding';
import { AppLinks, type AppLink } from './links.js';
import { errorMessageFor } from './networkErrors.js';
import { customProfile, DEVNET, LOCALNET, localnetProfileFor, parseCustomNetworks, secretKey, type CustomNetwork } from './networks.js';

export interface WalletEntry {
  id: string;
  name: string;
  session?: WalletSession;
  addresses?: string[];
}

export class ContractSession implements vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<void>();
  /** Fires when the network, the devnet, wallets, accounts or known apps change. */
  readonly onDidChange = this.#changed.event;
  devnet: RunningDevnet | undefined;
  #devnetStarting: Promise<RunningDevnet> | undefined;
  activeName: string;
  #chain: AppChain | undefined;
  #kmd: KeyManagerClient | undefined;
  wallets: WalletEntry[] | undefined;
  readonly #local = new LocalSigner();
  #localLoaded = false;
  readonly log: vscode.OutputChannel;
  /** App links by chain (genesis hash). */
  readonly links: AppLinks;
  /** Genesis hash (base64) of the chain the active network runs, once connected. */
  genesis: string | undefined;
  /** The devnet's dispenser: a genesis account of its own, not one of the user's accounts. */
  dispenser: string | undefined;
  /** The configured network the running devnet forks (its name), or undefined for a chain of its own. */
  forkOf: string | undefined;
  #chainSeq = 0;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.activeName = context.workspaceState.get<string>('tealworks.activeNetwork') ?? vscode.workspace.getConfiguration('tealworks').get<string>('network', DEVNET);
    this.log = vscode.window.createOutputChannel('Tealworks Contracts');
    this.links = new AppLinks(context.workspaceState);
  }

  /**
   * Learns which chain the active network runs (its genesis hash) and drops the links of a chain
   * that is gone. Never starts the devnet. Fires onDidChange when done, so lenses and views repaint.
   */
  async refreshChain(): Promise<void> {
    const seq = ++this.#chainSeq;
    let genesis: string | undefined;
    if (!this.isDevnet || this.devnet) {
      try {
        const gh = (await builderParams(await this.chain())).genesisHash;
        genesis = gh === undefined ? undefined : typeof gh === 'string' ? gh : toBase64(gh);
      } catch (e) {
        this.log.appendLine(`${this.activeName}: cannot read the chain's genesis (${errorMessageFor(e, this.activeName)}); app links are hidden until it answers`);
      }
    }
    if (seq !== this.#chainSeq) return; // a newer switch is under way
    if (genesis) {
      const dropped = await this.links.observe(this.activeName, genesis);
      if (dropped.length) this.log.appendLine(`${this.activeName} now runs another chain: dropped the app links of the chain that is gone`);
    }
    this.genesis = genesis;
    this.changed();
  }

  /** The genesis hash of the active chain, connecting if needed (the devnet starts on demand). */
  async activeGenesis(): Promise<string> {
    if (!this.genesis) {
      await this.profile();
      await this.refreshChain();
    }
    if (!this.genesis) throw new Error(`cannot reach ${this.activeName} to learn which chain it runs`);
    return this.genesis;
  }

  changed(): void {
    this.#changed.fire();
  }

  customNetworks(): CustomNetwork[] {
    const { networks, problems } = parseCustomNetworks(vscode.workspace.getConfiguration('tealworks').get('networks'));
    for (const p of problems) this.log.appendLine(p);
    return networks;
  }

  networkNames(): string[] {
    return [DEVNET, LOCALNET, ...this.customNetworks().map((n) => n.name)];
  }

  get isDevnet(): boolean {
    return this.activeName === DEVNET;
  }

  /**
   * Restarts the devnet as a fork of the configured network `name`: the network's chain id and
   * state, copied from its node on first read; transactions stay local. With
   * `tealworks.devnet.persist` the fetched state is kept per network (restarts work offline).
   */
  async forkNetwork(name: string): Promise<RunningDevnet> {
    if (name === DEVNET) throw new Error('the devnet cannot fork itself: pick LocalNet or a configured network');
    const p = await this.profileFor(name);
    if (this.devnet) await this.stopDevnet();
    this.#forkTarget = { name, url: p.node.url, ...(p.node.token ? { token: p.node.token } : {}) };
    try {
      return await this.startDevnet();
    } finally {
      this.#forkTarget = undefined;
    }
  }

  #forkTarget: { name: string; url: string; token?: string } | undefined;

  async startDevnet(): Promise<RunningDevnet> {
    if (this.devnet) return this.devnet;
    if (!this.#devnetStarting) {
      this.#devnetStarting = (async () => {
        const started = Date.now();
        // Loaded on first use so activation does not pay for the ledger and the services.
        const { startDevnet } = await import('@tealworks/sdk/services');
        const cfg = vscode.workspace.getConfiguration('tealworks.devnet');
        const persist = cfg.get<boolean>('persist', false);
        const localnet = cfg.get<boolean>('localnet', false);
        // A LocalNet-style devnet is another chain (genesis id dockernet-v1): its own directory.
        const fork = this.#forkTarget;
        // A fork is another chain again (the remote's): its own directory per forked network.
        const dirName = fork ? `devnet-fork-${fork.name.replace(/[^\w.-]+/g, '_')}` : localnet ? 'devnet-localnet' : 'devnet';
        const dataDir = persist && this.context.storageUri ? vscode.Uri.joinPath(this.context.storageUri, dirName).fsPath : undefined;
        // One genesis account more than asked for: the last one is the dispenser, so funding never
        // drains one of the user's accounts.
        const wanted = cfg.get<number>('accounts', 3);
        let dn: RunningDevnet;
        try {
          dn = await startDevnet({ ...(dataDir ? { dataDir } : { inMemory: true }), accounts: wanted + 1, ...(localnet ? { localnet: true } : {}), ...(fork ? { fork: { url: fork.url, ...(fork.token ? { token: fork.token } : {}) } } : {}) });
        } catch (e) {
          // A fork's remote that cannot be used says so itself; nothing to recover here.
          if (!dataDir || fork) throw e;
          const prompt = devnetRecoveryPrompt(e, dataDir);
          if (prompt) {
            // Damaged chain data: nothing was changed; recovering is the user's call.
            this.log.appendLine(`devnet: ${(e as Error).message}`);
            const choice = await vscode.window.showWarningMessage(prompt.message, { modal: true, detail: prompt.detail }, prompt.action);
            if (choice !== prompt.action) throw e;
            dn = await startDevnet({ dataDir, recover: true, ...(localnet ? { localnet: true } : {}) });
            this.log.appendLine(describeRecovery(dn.recovered));
          } else {
            // A data directory made with another account count keeps its own genesis.
            this.log.appendLine(`devnet: ${(e as Error).message}; starting with the data directory's own accounts`);
            dn = await startDevnet({ dataDir, ...(localnet ? { localnet: true } : {}) });
          }
        }
        this.devnet = dn;
        this.forkOf = fork?.name;
        if (dn.fork) dn.fork.onRequest = (r) => this.log.appendLine(`fork of ${fork?.name ?? dn.fork!.head.url}: fetched ${r.resource} (${r.found ? `remote round ${r.round}` : 'not on the remote'})`);
        this.dispenser = dn.accounts.length > wanted ? dn.accounts[dn.accounts.length - 1]!.address : undefined;
        this.log.appendLine(`devnet started in ${Date.now() - started} ms: node ${dn.node.url}, query ${dn.query.url}, key manager ${dn.keyManager.url}${dataDir ? `, data in ${dataDir}` : ' (in memory)'}`);
        return dn;
      })().finally(() => (this.#devnetStarting = undefined));
    }
    const dn = await this.#devnetStarting;
    if (this.isDevnet) {
      this.#reset();
      this.genesis = undefined;
      this.changed();
      await this.refreshChain();
    } else this.changed();
    return dn;
  }

  /** True when the running devnet keeps its chain in memory only (stopping it discards the chain). */
  get devnetInMemory(): boolean {
    return this.devnet !== undefined && this.devnet.dataDir === undefined;
  }

  async stopDevnet(): Promise<void> {
    const dn = this.devnet;
    if (!dn) return;
    const gone = dn.dataDir === undefined && this.isDevnet ? this.genesis : undefined;
    if (this.isDevnet) await this.#closeClients();
    this.devnet = undefined;
    this.dispenser = undefined;
    this.forkOf = undefined;
    await dn.stop();
    if (this.isDevnet) this.genesis = undefined;
    // An in-memory chain is gone for good: so are the links to its apps.
    if (gone) await this.links.dropChain(gone);
    this.log.appendLine('devnet stopped');
    this.changed();
  }

  async select(name: string): Promise<void> {
    if (name === this.activeName) return;
    await this.#closeClients();
    this.activeName = name;
    this.genesis = undefined;
    await this.context.workspaceState.update('tealworks.activeNetwork', name);
    this.changed();
    await this.refreshChain();
  }

  /**
   * The settings that say where the active network is changed (`tealworks.localnet.host`, a
   * custom network's URLs): drop the clients made for the old endpoints and learn the chain again,
   * so the change applies now, not after the next network switch. True when it applied to the
   * active network.
   */
  async endpointsChanged(affects: (section: string) => boolean): Promise<boolean> {
    const applies = this.activeName === LOCALNET ? affects('tealworks.localnet') : !this.isDevnet && affects('tealworks.networks');
    if (!applies) return false;
    await this.#closeClients();
    this.genesis = undefined;
    this.log.appendLine(`${this.activeName}: its endpoints changed in the settings; reconnecting`);
    this.changed();
    await this.refreshChain();
    return true;
  }

  async profile(): Promise<NetworkProfile> {
    if (this.isDevnet) {
      const dn = this.devnet ?? (vscode.workspace.getConfiguration('tealworks.devnet').get<boolean>('autoStart', true) ? await this.startDevnet() : undefined);
      if (!dn) throw new Error('the devnet is not running: start it from the Networks view');
      return profileFromDevnet(dn);
    }
    return this.profileFor(this.activeName);
  }

  /** The endpoints of a configured network (LocalNet or a custom one; tokens from SecretStorage). */
  async profileFor(name: string): Promise<NetworkProfile> {
    if (name === LOCALNET) return localnetProfileFor(vscode.workspace.getConfiguration('tealworks.localnet').get<string>('host') || undefined);
    const n = this.customNetworks().find((c) => c.name === name);
    if (!n) throw new Error(`network ${name} is not configured (tealworks.networks)`);
    const s = this.context.secrets;
    const [nodeToken, queryToken, keyManagerToken] = await Promise.all([s.get(secretKey(n.name, 'nodeToken')), s.get(secretKey(n.name, 'queryToken')), s.get(secretKey(n.name, 'keyManagerToken'))]);
    return customProfile(n, { ...(nodeToken ? { nodeToken } : {}), ...(queryToken ? { queryToken } : {}), ...(keyManagerToken ? { keyManagerToken } : {}) });
  }

  async chain(): Promise<AppChain> {
    if (this.#chain) return this.#chain;
    const p = await this.profile();
    this.#chain = { node: nodeAdapterFor(p), ...(p.query ? { query: queryClientFor(p) } : {}) };
    return this.#chain;
  }

  async keyManager(): Promise<KeyManagerClient | undefined> {
    if (this.#kmd) return this.#kmd;
    const p = await this.profile();
    if (!p.keyManager) return undefined;
    this.#kmd = keyManagerFor(p);
    return this.#kmd;
  }

  async listWallets(): Promise<WalletEntry[]> {
    if (this.wallets) return this.wallets;
    const kmd = await this.keyManager();
    if (!kmd) return (this.wallets = []);
    this.wallets = (await kmd.listWallets()).map((w) => ({ id: w.id, name: w.name }));
    return this.wallets;
  }

  /** Opens a wallet; the devnet's default wallet has a known empty password, others are asked for. */
  async unlock(wallet: WalletEntry, password?: string): Promise<WalletEntry> {
    if (wallet.session?.isOpen) return wallet;
    const kmd = await this.keyManager();
    if (!kmd) throw new Error('this network has no key manager');
    let pw = password;
    if (pw === undefined && this.isDevnet && this.devnet && wallet.name === this.devnet.wallet.name) pw = this.devnet.wallet.password;
    if (pw === undefined) {
      pw = await vscode.window.showInputBox({ prompt: `Password for wallet ${wallet.name}`, password: true, ignoreFocusOut: true });
      if (pw === undefined) throw new vscode.CancellationError();
    }
    // The session renews its handle in the background while it is open.
    wallet.session = await kmd.openWallet(wallet.id, pw);
    wallet.addresses = await wallet.session.listKeys();
    this.changed();
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
    this.changed();
    return address;
  }

  /** Every address we can sign for right now. */
  async signableAccounts(): Promise<string[]> {
    const out = new Set<string>(await this.localAccounts());
    if (this.isDevnet) await this.profile(); // starts the devnet on demand (tealworks.devnet.autoStart)
    if (this.isDevnet && this.devnet) {
      const wallets = await this.listWallets();
      const def = wallets.find((w) => w.name === this.devnet!.wallet.name);
      if (def) await this.unlock(def);
    }
    for (const w of this.wallets ?? []) if (w.session?.isOpen) for (const a of w.addresses ?? []) out.add(a);
    return [...out];
  }

  signerFor(address: string): Signer | undefined {
    if (this.#local.addresses.includes(address)) return this.#local;
    const w = (this.wallets ?? []).find((x) => x.session?.isOpen && x.addresses?.includes(address));
    return w?.session ? new KeyManagerSigner(w.session) : undefined;
  }

  /** Apps linked to this workspace on the active chain (deployed or added by hand). */
  knownApps(): bigint[] {
    return this.links.apps(this.genesis);
  }

  /** Links an app; returns the app `source`'s lens called before when the link moved (see AppLinks.link). */
  async linkApp(appId: bigint, source?: string, link: Omit<AppLink, 'source'> = {}): Promise<bigint | undefined> {
    const genesis = await this.activeGenesis();
    const moved = await this.links.link(genesis, this.activeName, appId, { ...link, ...(source ? { source } : {}) });
    if (moved !== undefined) this.log.appendLine(`${source}: its lens now calls app ${appId}; app ${moved}, deployed from it earlier, stays linked with its spec`);
    this.changed();
    return moved;
  }

  /** False for an app deployed earlier from a source that has a newer deploy. */
  isCurrentDeploy(appId: bigint): boolean {
    return this.links.isCurrent(this.genesis, appId);
  }

  appForSource(source: string): bigint | undefined {
    return this.links.appForSource(this.genesis, source);
  }

  sourceForApp(appId: bigint): string | undefined {
    return this.links.sourceForApp(this.genesis, appId);
  }

  /** The ARC-56 spec (workspace-relative) an app was linked with, if any. */
  specPathForApp(appId: bigint): string | undefined {
    return this.links.get(this.genesis, appId)?.spec;
  }

  async unlinkApp(appId: bigint): Promise<void> {
    if (this.genesis) await this.links.unlink(this.genesis, appId);
    this.changed();
  }

  #reset(): void {
    void this.#closeClients();
  }

  async #closeClients(): Promise<void> {
    const chain = this.#chain;
    const kmd = this.#kmd;
    const wallets = this.wallets;
    this.#chain = undefined;
    this.#kmd = undefined;
    this.wallets = undefined;
    for (const w of wallets ?? []) await w.session?.close().catch(() => undefined);
    await chain?.node.close().catch(() => undefined);
    await chain?.query?.close().catch(() => undefined);
    await kmd?.close().catch(() => undefined);
  }

  async dispose(): Promise<void> {
    await this.#closeClients();
    await this.devnet?.stop().catch(() => undefined);
    this.devnet = undefined;
    this.#changed.dispose();
    this.log.dispose();
  }
}
