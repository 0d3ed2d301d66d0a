// The light half of the contract features, loaded at activation: it registers the commands, the
// three side-bar trees and the CodeLens provider as thin proxies, and loads the heavy half
// (main.ts: the SDK's node clients, assembler, devnet, …) in the background right after, or on
// first use. Activation then does not pay for parsing and initialising the SDK.
import * as vscode from 'vscode';
import type { Contracts } from './main.js';

export const CONTRACT_COMMANDS = [
  'tealworks.startDevnet',
  'tealworks.stopDevnet',
  'tealworks.selectNetwork',
  'tealworks.addNetwork',
  'tealworks.removeNetwork',
  'tealworks.forkNetwork',
  'tealworks.importAccount',
  'tealworks.copyAddress',
  'tealworks.fundAccount',
  'tealworks.refreshAccounts',
  'tealworks.simulate',
  'tealworks.openSimulatePanel',
  'tealworks.deploy',
  'tealworks.call',
  'tealworks.state.refresh',
  'tealworks.state.addApp',
  'tealworks.state.removeApp',
  'tealworks.state.moreBoxes',
  'tealworks.state.displayAs',
  'tealworks.state.copyValue',
  'tealworks.state.openValue',
  'tealworks.state.exportJson',
  'tealworks.runWorkflow',
  'tealworks.openSample',
  'tealworks.setTemplateValues',
  'tealworks.toggleCoverage',
] as const;

class LazyTree implements vscode.TreeDataProvider<unknown> {
  readonly #emitter = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.#emitter.event;
  #inner: vscode.TreeDataProvider<unknown> | undefined;

  constructor(private readonly get: () => Promise<vscode.TreeDataProvider<unknown>>) {}

  async #resolve(): Promise<vscode.TreeDataProvider<unknown>> {
    if (!this.#inner) {
      this.#inner = await this.get();
      this.#inner.onDidChangeTreeData?.((e) => this.#emitter.fire(e));
    }
    return this.#inner;
  }

  getTreeItem(e: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    // Elements only come from getChildren, which resolved the real tree first.
    return this.#inner!.getTreeItem(e);
  }

  async getChildren(e?: unknown): Promise<unknown[]> {
    return ((await (await this.#resolve()).getChildren(e)) ?? []) as unknown[];
  }
}

export function registerContracts(context: vscode.ExtensionContext): void {
  let loading: Promise<Contracts> | undefined;
  // The proxy forwards the real provider's change events: lenses repaint on every deploy, network
  // switch and devnet start/stop, not only when the editor is switched. Hooked once, on load.
  const lensChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(lensChanged);
  // A separate bundle (dist/contracts.cjs, built from main.ts), so not even its parsing is on the activation path.
  const load = (): Promise<Contracts> =>
    (loading ??= Promise.resolve().then(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the lazily loaded CommonJS bundle
      const c = (require(context.asAbsolutePath('dist/contracts.cjs')) as typeof import('./main.js')).createContracts(context);
      c.lens.onDidChangeCodeLenses?.(() => lensChanged.fire());
      return c;
    }));
  const lensProxy: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensChanged.event,
    provideCodeLenses: async (doc, token) => (await load()).lens.provideCodeLenses(doc, token),
  };
  for (const id of CONTRACT_COMMANDS)
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: unknown[]) => (await load()).run(id, args)));
  context.subscriptions.push(
    vscode.window.registerTreeDataProvider('tealworks.networks', new LazyTree(async () => (await load()).networks)),
    vscode.window.registerTreeDataProvider('tealworks.accounts', new LazyTree(async () => (await load()).accounts)),
    vscode.window.registerTreeDataProvider('tealworks.state', new LazyTree(async () => (await load()).state)),
    vscode.window.registerTreeDataProvider('tealworks.workflowResults', new LazyTree(async () => (await load()).workflowResults)),
    // Files on disk only: the read-only expanded and assembled views (tealworks-view:) are not programs to deploy.
    vscode.languages.registerCodeLensProvider({ scheme: 'file', language: 'teal' }, lensProxy),
    // Algorand Python / TypeScript contracts with compiler output (the lens finds their TEAL through the source maps).
    vscode.languages.registerCodeLensProvider(
      [
        { scheme: 'file', pattern: '**/*.py' },
        { scheme: 'file', pattern: '**/*.algo.ts' },
      ],
      lensProxy,
    ),
    // The simulate panel comes back after a window reload (activation event onWebviewPanel:tealworks.simulate).
    vscode.window.registerWebviewPanelSerializer('tealworks.simulate', {
      deserializeWebviewPanel: async (panel, state) => (await load()).restorePanel(panel, state),
    }),
  );
  // Off the activation path: the status bar item and the trees appear a moment later.
  setTimeout(() => void load(), 0);
}
