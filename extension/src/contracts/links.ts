// Which apps this workspace knows, and from which source and spec each was deployed. Links belong
// to a chain, identified by its genesis hash, not to a network name: after a devnet restart (a new
// in-memory chain) or a network switch, a link of another chain is never shown — app ids restart at
// 1001 on a fresh chain, so a stale link could otherwise point at a different app. When a network
// turns out to run a chain other than the one its links were made on, that chain is gone (for the
// devnet, reset or restarted in memory) and its links are dropped. Pure (a Memento-shaped store),
// so it is unit-testable outside VS Code.

/** The part of vscode.Memento this needs. */
export interface LinkStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export interface AppLink {
  /** Workspace-relative path of the approval program. */
  source?: string;
  /** Workspace-relative path of the ARC-56 spec. */
  spec?: string;
  /** How the link was made. */
  via?: 'deploy' | 'workflow' | 'manual';
}

interface ChainLinks {
  /** Network names this chain was last seen on (for the log and the Networks view). */
  networks: string[];
  apps: Record<string, AppLink>;
}

interface Stored {
  version: 1;
  /** By genesis hash (base64). */
  chains: Record<string, ChainLinks>;
  /** The chain each network name was last seen running. */
  lastGenesis: Record<string, string>;
}

export const LINKS_KEY = 'tealworks.links.v1';

export class AppLinks {
  constructor(private readonly store: LinkStore) {}

  #read(): Stored {
    const raw = this.store.get<Partial<Stored> | undefined>(LINKS_KEY, undefined);
    return { version: 1, chains: { ...(raw?.chains ?? {}) }, lastGenesis: { ...(raw?.lastGenesis ?? {}) } };
  }

  async #write(s: Stored): Promise<void> {
    await this.store.update(LINKS_KEY, s);
  }

  /**
   * Records that `network` now runs the chain `genesis`. When the network's links were made on
   * another chain, that chain is gone: its links are dropped (unless another network still runs it).
   * Returns the genesis hashes whose links were dropped.
   */
  async observe(network: string, genesis: string): Promise<string[]> {
    const s = this.#read();
    const before = s.lastGenesis[network];
    s.lastGenesis[network] = genesis;
    const dropped: string[] = [];
    if (before && before !== genesis) {
      const stillRunning = Object.entries(s.lastGenesis).some(([n, g]) => n !== network && g === before);
      if (!stillRunning && s.chains[before]) {
        delete s.chains[before];
        dropped.push(before);
      }
    }
    const c = s.chains[genesis];
    if (c && !c.networks.includes(network)) c.networks.push(network);
    await this.#write(s);
    return dropped;
  }

  /** Drops every link of one chain (e.g. after the devnet's in-memory chain was discarded). */
  async dropChain(genesis: string): Promise<void> {
    const s = this.#read();
    delete s.chains[genesis];
    for (const [n, g] of Object.entries(s.lastGenesis)) if (g === genesis) delete s.lastGenesis[n];
    await this.#write(s);
  }

  async link(genesis: string, network: string, appId: bigint, link: AppLink = {}): Promise<void> {
    const s = this.#read();
    const c = (s.chains[genesis] ??= { networks: [], apps: {} });
    if (!c.networks.includes(network)) c.networks.push(network);
    const prev = c.apps[appId.toString()] ?? {};
    c.apps[appId.toString()] = { ...prev, ...link };
    // One app per source on a chain: the newest deploy of a file is the one its lens calls; older
    // deploys stay listed, without the source.
    if (link.source) {
      for (const [id, l] of Object.entries(c.apps)) {
        if (id === appId.toString() || l.source !== link.source) continue;
        const { source: _s, ...rest } = l;
        c.apps[id] = rest;
      }
    }
    await this.#write(s);
  }

  async unlink(genesis: string, appId: bigint): Promise<void> {
    const s = this.#read();
    delete s.chains[genesis]?.apps[appId.toString()];
    await this.#write(s);
  }

  apps(genesis: string | undefined): bigint[] {
    if (!genesis) return [];
    return Object.keys(this.#read().chains[genesis]?.apps ?? {}).map((k) => BigInt(k));
  }

  get(genesis: string | undefined, appId: bigint): AppLink | undefined {
    if (!genesis) return undefined;
    return this.#read().chains[genesis]?.apps[appId.toString()];
  }

  appForSource(genesis: string | undefined, source: string): bigint | undefined {
    if (!genesis) return undefined;
    const apps = Object.entries(this.#read().chains[genesis]?.apps ?? {});
    const hit = apps.find(([, l]) => l.source === source);
    return hit ? BigInt(hit[0]) : undefined;
  }

  sourceForApp(genesis: string | undefined, appId: bigint): string | undefined {
    return this.get(genesis, appId)?.source;
  }

  /** Genesis hashes with links (for diagnostics and tests). */
  chains(): string[] {
    return Object.keys(this.#read().chains);
  }
}
