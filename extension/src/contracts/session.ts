// The active network and everything tied to it: which network is active and its endpoints, the
// node/query/key-manager clients and the chain they reach, and the apps this workspace linked on
// that chain. Two jobs live beside it and are reached through it: the embedded devnet
// (devnetHost.ts) and who can sign (signers.ts: wallets and local accounts).
import * as vscode from 'vscode';
import type { RunningDevnet } from '@tealworks/sdk/services';
import { keyManagerFor, nodeAdapterFor, profileFromDevnet, queryClientFor, type NetworkProfile } from '@tealworks/sdk/adapters';
import { ConnectError, type KeyManagerClient } from '@tealworks/sdk/adapters';
import type { Signer } from '@tealworks/sdk/adapters';
import type { AppChain } from '@tealworks/sdk/app';
import { builderParams } from '@tealworks/sdk/app';
import { toBase64 } from '@tealworks/sdk/encoding';
import { DevnetHost } from './devnetHost.js';
import { AppLinks, type AppLink } from './links.js';
import { errorMessageFor } from './networkErrors.js';
import { customProfile, DEVNET, LOCALNET, localnetProfileFor, parseCustomNetworks, secretKey, settingsMoveEndpoints, type CustomNetwork } from './networks.js';
import { Signers, type WalletEntry } from './signers.js';

export type { WalletEntry } from './signers.js';

export class ContractSession implements vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<void>();
  /** Fires when the network, the devnet, wallets, accounts or known apps change. */
  readonly onDidChange = this.#changed.event;
  activeName: string;
  #chain: AppChain | undefined;
  #keyManager: KeyManagerClient | undefined;
  readonly log: vscode.OutputChannel;
  /** App links by chain (genesis hash). */
  readonly links: AppLinks;
  /** Genesis hash (base64) of the chain the active network runs, once connected. */
  genesis: string | undefined;
  #chainSeq = 0;
  readonly #devnet: DevnetHost;
  readonly #signers: Signers;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.activeName =
      context.workspaceState.get<string>('tealworks.activeNetwork') ?? vscode.workspace.getConfiguration('tealworks').get<string>('network', DEVNET);
    this.log = vscode.window.createOutputChannel('Tealworks Contracts');
    this.links = new AppLinks(context.workspaceState);
    this.#devnet = new DevnetHost(context, this.log);
    this.#signers = new Signers(context, this.log, {
      keyManager: () => this.keyManager(),
      devnetWallet: () => (this.isDevnet && this.devnet ? this.devnet.wallet : undefined),
      changed: () => this.changed(),
    });
  }

  /** The running devnet, if any. */
  get devnet(): RunningDevnet | undefined {
    return this.#devnet.devnet;
  }

  /** The devnet's dispenser: a genesis account of its own, not one of the user's accounts. */
  get dispenser(): string | undefined {
    return this.#devnet.dispenser;
  }

  /** The configured network the running devnet forks (its name), or undefined for a chain of its own. */
  get forkOf(): string | undefined {
    return this.#devnet.forkOf;
  }

  /** The key manager's wallets, once listed; set to undefined to list them again. */
  get wallets(): WalletEntry[] | undefined {
    return this.#signers.wallets;
  }

  set wallets(wallets: WalletEntry[] | undefined) {
    if (wallets === undefined) this.#signers.forgetWallets();
    else this.#signers.wallets = wallets;
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
        this.log.appendLine(
          `${this.activeName}: cannot read the chain's genesis (${errorMessageFor(e, this.activeName)}); app links are hidden until it answers`,
        );
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
    if (!this.genesis)
      throw new ConnectError(`cannot reach ${this.activeName} to learn which chain it runs;`, {
        hint: 'check that its node is running (the Tealworks Contracts output says why it did not answer)',
      });
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
    this.#devnet.forkTarget = { name, url: p.node.url, ...(p.node.token ? { token: p.node.token } : {}) };
    try {
      return await this.startDevnet();
    } finally {
      this.#devnet.forkTarget = undefined;
    }
  }

  /** Starts the embedded devnet (or joins the start under way); the active network's clients follow it. */
  async startDevnet(): Promise<RunningDevnet> {
    if (this.devnet) return this.devnet;
    const dn = await this.#devnet.start();
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
    return this.#devnet.inMemory;
  }

  async stopDevnet(): Promise<void> {
    const dn = this.devnet;
    if (!dn) return;
    const gone = dn.dataDir === undefined && this.isDevnet ? this.genesis : undefined;
    if (this.isDevnet) await this.#closeClients();
    await this.#devnet.stop();
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
    if (!settingsMoveEndpoints(this.activeName, affects)) return false;
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
      if (!dn) throw new ConnectError('the devnet is not running:', { hint: 'start it from the Networks view' });
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
    const [nodeToken, queryToken, keyManagerToken] = await Promise.all([
      s.get(secretKey(n.name, 'nodeToken')),
      s.get(secretKey(n.name, 'queryToken')),
      s.get(secretKey(n.name, 'keyManagerToken')),
    ]);
    return customProfile(n, { ...(nodeToken ? { nodeToken } : {}), ...(queryToken ? { queryToken } : {}), ...(keyManagerToken ? { keyManagerToken } : {}) });
  }

  async chain(): Promise<AppChain> {
    if (this.#chain) return this.#chain;
    const p = await this.profile();
    this.#chain = { node: nodeAdapterFor(p), ...(p.query ? { query: queryClientFor(p) } : {}) };
    return this.#chain;
  }

  /**
   * The chain the state inspector reads apps, boxes and balances from. On a devnet that forks a
   * network this is the devnet's public `/v2` API (served on the same port): its reads copy what
   * they touch from the remote on first read, whereas the query service only indexes the fork's
   * own blocks and knows none of the remote's apps. Elsewhere it is `chain()`.
   */
  async stateChain(): Promise<AppChain> {
    const chain = await this.chain();
    if (!this.isDevnet || !this.devnet?.fork) return chain;
    const p = await this.profile();
    return { ...chain, node: nodeAdapterFor({ ...p, node: { ...p.node, api: 'algod' } }) };
  }

  async keyManager(): Promise<KeyManagerClient | undefined> {
    if (this.#keyManager) return this.#keyManager;
    const p = await this.profile();
    if (!p.keyManager) return undefined;
    this.#keyManager = keyManagerFor(p);
    return this.#keyManager;
  }

  listWallets(): Promise<WalletEntry[]> {
    return this.#signers.listWallets();
  }

  /** Opens a wallet; the devnet's default wallet has a known empty password, others are asked for. */
  unlock(wallet: WalletEntry, password?: string): Promise<WalletEntry> {
    return this.#signers.unlock(wallet, password);
  }

  localAccounts(): Promise<string[]> {
    return this.#signers.localAccounts();
  }

  /** Keeps the mnemonic in SecretStorage only; settings and state hold just the address. */
  importMnemonic(mnemonic: string): Promise<string> {
    return this.#signers.importMnemonic(mnemonic);
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
    return this.#signers.signerFor(address);
  }

  /** Apps linked to this workspace on the active chain (deployed or added by hand). */
  knownApps(): bigint[] {
    return this.links.apps(this.genesis);
  }

  /** Links an app; returns the app `source`'s lens called before when the link moved (see AppLinks.link). */
  async linkApp(appId: bigint, source?: string, link: Omit<AppLink, 'source'> = {}): Promise<bigint | undefined> {
    const genesis = await this.activeGenesis();
    const moved = await this.links.link(genesis, this.activeName, appId, { ...link, ...(source ? { source } : {}) });
    if (moved !== undefined)
      this.log.appendLine(`${source}: its lens now calls app ${appId}; app ${moved}, deployed from it earlier, stays linked with its spec`);
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
    const keyManager = this.#keyManager;
    this.#chain = undefined;
    this.#keyManager = undefined;
    await this.#signers.closeWallets();
    await chain?.node.close().catch(() => undefined);
    await chain?.query?.close().catch(() => undefined);
    await keyManager?.close().catch(() => undefined);
  }

  async dispose(): Promise<void> {
    await this.#closeClients();
    await this.#devnet.stop().catch(() => undefined);
    this.#changed.dispose();
    this.log.dispose();
  }
}
