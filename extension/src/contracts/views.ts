// The three trees of the Tealworks side bar: networks, accounts (wallets and local keys, with
// balances) and the state inspector (apps → global state, local state per account, boxes paged).
import * as vscode from 'vscode';
import { appAddressOf, fetchApp, fetchBox, fetchBoxNames, fetchLocalState } from '@tealworks/sdk/app';
import { decodeBoxes, decodeGlobalState, decodeLocalState, type StorageItem } from '@tealworks/sdk/app';
import type { Arc56AppSpec } from '@tealworks/sdk/abi';
import { DEVNET, LOCALNET, localnetProfileFor } from './networks.js';
import { errorMessageFor } from './networkErrors.js';
import { appSourceLabel } from './links.js';
import type { ContractSession, WalletEntry } from './session.js';
import { formatBalance, shortAddress, walletDescription } from './summary.js';
import { itemLabel, itemRow, type ValueView } from './valueFormat.js';
import { forkDescription, forkTooltip, withOrigin } from './forkLabels.js';
import type { ForkOrigin, ForkResource } from '@tealworks/sdk/ledger';
import { addressBytes } from '@tealworks/sdk/encoding';

type Node = vscode.TreeItem & { children?: () => Promise<Node[]> };

function item(label: string, opts: Partial<vscode.TreeItem> & { children?: () => Promise<Node[]> } = {}): Node {
  const t = new vscode.TreeItem(label, opts.children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None) as Node;
  Object.assign(t, opts);
  return t;
}

abstract class Tree implements vscode.TreeDataProvider<Node> {
  /** The active network's name, for explaining a network that cannot be reached. */
  protected network(): string {
    return '';
  }
  protected readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  refresh(): void {
    this.emitter.fire(undefined);
  }
  getTreeItem(n: Node): vscode.TreeItem {
    return n;
  }
  async getChildren(n?: Node): Promise<Node[]> {
    try {
      return n ? ((await n.children?.()) ?? []) : await this.roots();
    } catch (e) {
      if (e instanceof vscode.CancellationError) return [];
      const text = errorMessageFor(e, this.network());
      return [item(text, { tooltip: text, iconPath: new vscode.ThemeIcon('warning') })];
    }
  }
  protected abstract roots(): Promise<Node[]>;
}

export class NetworksTree extends Tree {
  constructor(private readonly session: ContractSession) {
    super();
  }
  protected async roots(): Promise<Node[]> {
    return this.session.networkNames().map((name) => {
      const active = name === this.session.activeName;
      const isDevnet = name === DEVNET;
      const running = isDevnet && this.session.devnet !== undefined;
      const fork = running ? this.session.devnet!.fork : undefined;
      const description = [
        active ? '● active' : '',
        isDevnet
          ? running
            ? fork
              ? forkDescription(this.session.forkOf, fork.status())
              : 'running'
            : 'stopped'
          : name === LOCALNET
            ? localnetProfileFor(vscode.workspace.getConfiguration('tealworks.localnet').get<string>('host') || undefined).node.url.replace(/^https?:\/\//, '')
            : '',
      ]
        .filter(Boolean)
        .join(' · ');
      return item(name, {
        description,
        contextValue: isDevnet ? (running ? 'network.devnet.running' : 'network.devnet.stopped') : name === LOCALNET ? 'network.localnet' : 'network.custom',
        command: { command: 'tealworks.selectNetwork', title: 'Use this network', arguments: [name] },
        tooltip:
          isDevnet && running
            ? `${fork ? `${forkTooltip(this.session.forkOf, fork.status())}\n` : ''}node ${this.session.devnet!.node.url}\nquery ${this.session.devnet!.query.url}\nkey manager ${this.session.devnet!.keyManager.url}`
            : `Use ${name}`,
        id: `network:${name}`,
        iconPath: new vscode.ThemeIcon(
          isDevnet ? 'vm' : name === LOCALNET ? 'server-environment' : 'globe',
          active ? new vscode.ThemeColor('charts.green') : undefined,
        ),
      });
    });
  }
}

export class AccountsTree extends Tree {
  constructor(private readonly session: ContractSession) {
    super();
  }
  protected override network(): string {
    return this.session.activeName;
  }
  protected async roots(): Promise<Node[]> {
    // Empty: the view's welcome content (package.json viewsWelcome) offers Start Devnet.
    if (this.session.isDevnet && !this.session.devnet) return [];
    const out: Node[] = [];
    let wallets: WalletEntry[] = [];
    try {
      wallets = await this.session.listWallets();
    } catch (e) {
      const text = errorMessageFor(e, this.session.activeName);
      out.push(item(`key manager: ${text}`, { tooltip: text, iconPath: new vscode.ThemeIcon('warning') }));
    }
    for (const w of wallets) {
      const open = w.session?.isOpen === true;
      const status = walletDescription({
        open,
        ...(w.addresses ? { accounts: w.addresses.length } : {}),
        noPassword: this.session.isDevnet && w.name === this.session.devnet?.wallet.name,
      });
      out.push(
        item(`Wallet ${w.name}`, {
          description: status.description,
          tooltip: status.tooltip,
          contextValue: w.session?.isOpen ? 'wallet.unlocked' : 'wallet.locked',
          id: `wallet:${this.session.activeName}:${w.id}`,
          iconPath: new vscode.ThemeIcon(w.session?.isOpen ? 'unlock' : 'lock'),
          children: async () => {
            await this.session.unlock(w);
            return this.accounts(w.addresses ?? [], 'account.wallet');
          },
        }),
      );
    }
    const local = await this.session.localAccounts();
    out.push(
      item('Local accounts', {
        description: `${local.length}`,
        id: 'local',
        iconPath: new vscode.ThemeIcon('key'),
        children: async () =>
          local.length
            ? this.accounts(local, 'account.local')
            : [item('Import one with “Import Account from Mnemonic”', { command: { command: 'tealworks.importAccount', title: 'Import' } })],
      }),
    );
    return out;
  }

  private async accounts(addresses: string[], contextValue: string): Promise<Node[]> {
    const chain = await this.session.chain();
    return Promise.all(
      addresses.map(async (a) => {
        let balance = '?';
        try {
          balance = formatBalance((await chain.node.account(a)).amount);
        } catch {
          // An account the node has never seen has no record yet.
          balance = formatBalance(0n);
        }
        const dispenser = this.session.isDevnet && a === this.session.dispenser;
        return item(shortAddress(a), {
          description: dispenser ? `dispenser · ${balance}` : balance,
          tooltip: dispenser ? `${a}\nThe devnet's dispenser: "Fund from Devnet Dispenser" pays from here.` : a,
          iconPath: new vscode.ThemeIcon(dispenser ? 'credit-card' : 'account'),
          contextValue: this.session.isDevnet ? `${contextValue}.devnet` : contextValue,
          id: `acct:${this.session.activeName}:${a}`,
          ...({ address: a } as object),
        });
      }),
    );
  }
}

export interface AppStorage {
  global: StorageItem[];
  local: Array<{ address: string; items: StorageItem[] }>;
  boxes: StorageItem[];
}

export class StateTree extends Tree {
  view: ValueView = 'auto';
  readonly #boxPages = new Map<string, { items: StorageItem[]; next?: string }>();
  specFor: (appId: bigint) => Promise<Arc56AppSpec | undefined> = async () => undefined;

  constructor(private readonly session: ContractSession) {
    super();
  }
  protected override network(): string {
    return this.session.activeName;
  }

  /** On a devnet that forks a network: whose state a resource is (the remote's at a round, or local). */
  #origin(resource: ForkResource): ForkOrigin | undefined {
    return this.session.isDevnet ? this.session.devnet?.fork?.origin(resource) : undefined;
  }

  override refresh(): void {
    this.#boxPages.clear();
    super.refresh();
  }

  /** Re-renders from the cached box pages (after "Load more"). */
  repaint(): void {
    super.refresh();
  }

  protected async roots(): Promise<Node[]> {
    // Empty views show their welcome content (package.json viewsWelcome) with buttons.
    if (this.session.isDevnet && !this.session.devnet) return [];
    const apps = this.session.knownApps();
    if (!apps.length) return [];
    // A fork copies the remote's apps on first read: read them now, so each row says whose it is.
    const fork = this.session.isDevnet ? this.session.devnet?.fork : undefined;
    if (fork) await fork.prefetch(apps.map((id) => ({ kind: 'app' as const, id }))).catch(() => undefined);
    return apps.map((id) =>
      item(`App ${id}`, {
        description: withOrigin(appSourceLabel(this.session.sourceForApp(id), this.session.isCurrentDeploy(id)), this.#origin({ kind: 'app', id })),
        tooltip: `account ${appAddressOf(id)}`,
        contextValue: 'app',
        // Keyed by chain: an app of a restarted devnet is a different item, never a stale one.
        id: `app:${this.session.genesis ?? this.session.activeName}:${id}`,
        iconPath: new vscode.ThemeIcon('symbol-class'),
        collapsibleState: vscode.TreeItemCollapsibleState.Expanded,
        ...({ appId: id } as object),
        children: async () => this.appChildren(id),
      }),
    );
  }

  private async appChildren(appId: bigint): Promise<Node[]> {
    const spec = await this.specFor(appId);
    const chain = await this.session.stateChain();
    const info = await fetchApp(chain, appId);
    const global = decodeGlobalState(info.globalState, spec);
    return [
      item('Global state', {
        description: withOrigin(`${global.length}`, this.#origin({ kind: 'app', id: appId })),
        id: `g:${appId}`,
        collapsibleState: vscode.TreeItemCollapsibleState.Expanded,
        children: async () => global.map((g) => this.itemNode(g, `g:${appId}`)),
      }),
      item('Local state', { id: `l:${appId}`, children: async () => this.localNodes(appId, spec) }),
      item('Boxes', { id: `b:${appId}`, collapsibleState: vscode.TreeItemCollapsibleState.Expanded, children: async () => this.boxNodes(appId, spec) }),
    ];
  }

  private async localNodes(appId: bigint, spec: Arc56AppSpec | undefined): Promise<Node[]> {
    const chain = await this.session.stateChain();
    const out: Node[] = [];
    for (const a of await this.session.signableAccounts()) {
      const entries = await fetchLocalState(chain, appId, a).catch(() => undefined);
      if (!entries) continue;
      const items = decodeLocalState(entries, spec);
      out.push(
        item(shortAddress(a), {
          tooltip: a,
          description: withOrigin(`${items.length}`, this.#origin({ kind: 'account', address: addressBytes(a) })),
          children: async () => items.map((i) => this.itemNode(i, `l:${appId}:${a}`)),
        }),
      );
    }
    return out.length ? out : [item('No known account has opted in', {})];
  }

  async loadBoxes(appId: bigint, spec: Arc56AppSpec | undefined, more: boolean): Promise<{ items: StorageItem[]; next?: string }> {
    const key = `${this.session.activeName}:${appId}`;
    const page = this.#boxPages.get(key);
    if (page && !more) return page;
    const chain = await this.session.stateChain();
    const size = vscode.workspace.getConfiguration('tealworks.inspector').get<number>('boxPageSize', 50);
    const res = await fetchBoxNames(chain, appId, { limit: size, ...(more && page?.next ? { next: page.next } : {}) });
    const boxes = await Promise.all(res.names.map(async (name) => ({ name, value: await fetchBox(chain, appId, name) })));
    const items = [
      ...(more && page ? page.items : []),
      ...decodeBoxes(
        boxes.map((b) => ({ name: b.name, ...(b.value ? { value: b.value } : {}) })),
        spec,
      ),
    ];
    // A full page may have a successor; a short one is the last.
    const next = res.next && res.names.length >= size ? res.next : undefined;
    const stored = { items, ...(next ? { next } : {}) };
    this.#boxPages.set(key, stored);
    return stored;
  }

  private async boxNodes(appId: bigint, spec: Arc56AppSpec | undefined): Promise<Node[]> {
    let page;
    try {
      page = await this.loadBoxes(appId, spec, false);
    } catch (e) {
      // The query service lists a fork's own boxes only: a remote app it never saw is unknown to it.
      if (this.session.isDevnet && this.session.devnet?.fork && /\b404\b|not found/i.test((e as Error).message)) {
        return [
          item('No boxes written on the fork yet', {
            tooltip: "The remote's boxes are copied when a transaction or simulate reads them; this list shows the boxes the fork's own blocks wrote.",
            iconPath: new vscode.ThemeIcon('info'),
          }),
        ];
      }
      throw e;
    }
    const nodes = page.items.map((b) => this.itemNode(b, `b:${appId}`, this.#origin({ kind: 'box', appId, name: b.key })));
    if (page.next)
      nodes.push(item('Load more…', { command: { command: 'tealworks.state.moreBoxes', title: 'Load more boxes', arguments: [appId.toString()] } }));
    return nodes.length ? nodes : [item('No boxes', {})];
  }

  async storage(appId: bigint): Promise<AppStorage> {
    const spec = await this.specFor(appId);
    const chain = await this.session.stateChain();
    const info = await fetchApp(chain, appId);
    const boxes = await this.loadBoxes(appId, spec, false);
    const local: AppStorage['local'] = [];
    for (const a of await this.session.signableAccounts()) {
      const entries = await fetchLocalState(chain, appId, a).catch(() => undefined);
      if (entries) local.push({ address: a, items: decodeLocalState(entries, spec) });
    }
    return { global: decodeGlobalState(info.globalState, spec), local, boxes: boxes.items };
  }

  private itemNode(i: StorageItem, parent: string, origin?: ForkOrigin): Node {
    const r = itemRow(i, this.view);
    return item(r.label, {
      description: withOrigin(r.type, origin),
      tooltip: r.tooltip,
      // A long value is cut in its row: clicking it (or "Show Whole Value") opens all of it.
      contextValue: r.clipped ? 'stateItem.clipped' : 'stateItem',
      id: `${parent}:${itemLabel(i, this.view).key}`,
      ...(r.clipped ? { command: { command: 'tealworks.state.openValue', title: 'Show Whole Value', arguments: [{ copyText: r.value }] } } : {}),
      ...({ copyText: r.value } as object),
    });
  }
}
