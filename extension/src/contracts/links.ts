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
  /** The app each source's lens calls (its newest deploy), by source. */
  current?: Record<string, string>;
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

  /**
   * Links `appId` (with its source and spec). Every app keeps its own link, so an app deployed
   * earlier from the same file keeps its source and spec (its state, returns and failures stay
   * decoded); the file's lens moves to the newest deploy. Returns the app the source's lens called
   * before, when this moved it.
   */
  async link(genesis: string, network: string, appId: bigint, link: AppLink = {}): Promise<bigint | undefined> {
    const s = this.#read();
    const c = (s.chains[genesis] ??= { networks: [], apps: {} });
    if (!c.networks.includes(network)) c.networks.push(network);
    const id = appId.toString();
    const prev = c.apps[id] ?? {};
    c.apps[id] = { ...prev, ...link };
    let moved: bigint | undefined;
    if (link.source) {
      const before = currentFor(c, link.source);
      if (before !== undefined && before !== id) moved = BigInt(before);
      c.current = { ...(c.current ?? {}), [link.source]: id };
    }
    await this.#write(s);
    return moved;
  }

  async unlink(genesis: string, appId: bigint): Promise<void> {
    const s = this.#read();
    const c = s.chains[genesis];
    if (c) {
      delete c.apps[appId.toString()];
      // The source's lens falls back to another app deployed from it, if any.
      for (const [src, id] of Object.entries(c.current ?? {})) if (id === appId.toString()) delete c.current![src];
    }
    await this.#write(s);
  }

  /** True when `appId` is the app its source's lens calls (its newest deploy); false for an earlier deploy. */
  isCurrent(genesis: string | undefined, appId: bigint): boolean {
    if (!genesis) return false;
    const c = this.#read().chains[genesis];
    const src = c?.apps[appId.toString()]?.source;
    return c !== undefined && src !== undefined && currentFor(c, src) === appId.toString();
  }

  apps(genesis: string | undefined): bigint[] {
    if (!genesis) return [];
    return Object.keys(this.#read().chains[genesis]?.apps ?? {}).map((k) => BigInt(k));
  }

  get(genesis: string | undefined, appId: bigint): AppLink | undefined {
    if (!genesis) return undefined;
    return this.#read().chains[genesis]?.apps[appId.toString()];
  }

  /** The app the source's lens calls: its newest deploy on this chain. */
  appForSource(genesis: string | undefined, source: string): bigint | undefined {
    if (!genesis) return undefined;
    const c = this.#read().chains[genesis];
    const hit = c ? currentFor(c, source) : undefined;
    return hit !== undefined ? BigInt(hit) : undefined;
  }

  sourceForApp(genesis: string | undefined, appId: bigint): string | undefined {
    return this.get(genesis, appId)?.source;
  }

  /** Genesis hashes with links (for diagnostics and tests). */
  chains(): string[] {
    return Object.keys(this.#read().chains);
  }
}

/** The app id a source's lens calls on one chain: the one recorded as current, else the last linked with it. */
function currentFor(c: ChainLinks, source: string): string | undefined {
  const recorded = c.current?.[source];
  if (recorded !== undefined && c.apps[recorded]?.source === source) return recorded;
  const all = Object.entries(c.apps)
    .filter(([, l]) => l.source === source)
    .map(([id]) => id);
  return all.length ? all[all.length - 1] : undefined;
}

/** What the user is told when a deploy moves a source's lens to a new app. */
export function linkMovedText(source: string, from: bigint, to: bigint): string {
  return `${source} was deployed again: its Call lens now calls app ${to}. App ${from}, deployed from it earlier, stays in the State Inspector with its spec.`;
}

/** An app's source in the State Inspector: an earlier deploy of a file that was deployed again says so. */
export function appSourceLabel(source: string | undefined, current: boolean): string {
  if (!source) return '';
  return current ? source : `${source} (earlier deploy)`;
}
