// Wires the contract features into VS Code: the side-bar views, the simulate panel, CodeLens and
// commands for simulate/deploy/call, the network status bar item and the workflow command.
import * as vscode from 'vscode';
import { builderParams } from '@tealworks/sdk/app';
import { GroupComposer } from '@tealworks/sdk/app';
import { makePaymentTxn } from '@tealworks/sdk/txn';
import { ContractActions, sourceKey, uriOfSource } from './actions.js';
import { checkNetworkName, checkServiceUrl, DEVNET, secretKey, type CustomNetwork } from './networks.js';
import { ContractSession } from './session.js';
import { SimulatePanel } from './simulatePanel.js';
import { formatAmount } from './summary.js';
import { exportAppState, VALUE_VIEWS, type ValueView } from './valueFormat.js';
import { AccountsTree, NetworksTree, StateTree } from './views.js';
import { runWorkflowCommand, WorkflowResultsTree } from './workflows.js';
import { existsSync } from 'node:fs';

function activeTealUri(arg?: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const doc = vscode.window.activeTextEditor?.document;
  if (doc?.languageId === 'teal') return doc.uri;
  void vscode.window.showWarningMessage('Open a TEAL approval program first.');
  return undefined;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

class ContractLens implements vscode.CodeLensProvider {
  readonly #emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.#emitter.event;
  constructor(private readonly session: ContractSession) {
    session.onDidChange(() => this.#emitter.fire());
  }
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    // Only approval programs: clear programs are deployed with them.
    if (/clear/i.test(doc.uri.path.split('/').pop() ?? '')) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, { title: '▶ Simulate', command: 'tealworks.simulate', arguments: [doc.uri] }),
      new vscode.CodeLens(top, { title: '⇪ Deploy', command: 'tealworks.deploy', arguments: [doc.uri] }),
    ];
    const app = this.session.appForSource(sourceKey(doc.uri));
    if (app !== undefined) lenses.push(new vscode.CodeLens(top, { title: `☎ Call app ${app}`, command: 'tealworks.call', arguments: [doc.uri] }));
    return lenses;
  }
}

export interface Contracts {
  networks: vscode.TreeDataProvider<unknown>;
  accounts: vscode.TreeDataProvider<unknown>;
  state: vscode.TreeDataProvider<unknown>;
  workflowResults: vscode.TreeDataProvider<unknown>;
  lens: vscode.CodeLensProvider;
  run(id: string, args: unknown[]): Promise<unknown>;
}

/** Builds everything heavy; index.ts calls this on first use (or just after activation). */
export function createContracts(context: vscode.ExtensionContext): Contracts {
  const handlers = new Map<string, (...args: any[]) => unknown>();
  const session = new ContractSession(context);
  const actions = new ContractActions(session);
  const panel = new SimulatePanel(context.extensionUri, session, actions);
  const networks = new NetworksTree(session);
  const accounts = new AccountsTree(session);
  const state = new StateTree(session);
  state.specFor = async (appId) => {
    const src = session.sourceForApp(appId);
    if (!src) return undefined;
    try {
      return (await actions.compile(uriOfSource(src))).spec;
    } catch {
      return undefined;
    }
  };
  const status = vscode.window.createStatusBarItem('tealworks.network', vscode.StatusBarAlignment.Left, 50);
  status.name = 'Tealworks network';
  status.command = 'tealworks.selectNetwork';
  const paintStatus = () => {
    const running = session.isDevnet ? (session.devnet ? '' : ' (stopped)') : '';
    status.text = `$(globe) ${session.activeName}${running}`;
    status.tooltip = `Tealworks: transactions go to ${session.activeName}. Click to switch.`;
    status.show();
  };
  paintStatus();
  const refreshAll = () => {
    networks.refresh();
    accounts.refresh();
    state.refresh();
    paintStatus();
  };
  session.onDidChange(refreshAll);
  actions.onSent = () => {
    accounts.refresh();
    state.refresh();
  };

  const lens = new ContractLens(session);
  const workflowResults = new WorkflowResultsTree();
  context.subscriptions.push(session, actions, panel, status);

  // Auto-refresh of the inspector while it is visible, when the setting asks for it.
  let timer: ReturnType<typeof setInterval> | undefined;
  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    const secs = vscode.workspace.getConfiguration('tealworks.inspector').get<number>('autoRefreshSeconds', 0);
    if (secs > 0) timer = setInterval(() => state.refresh(), secs * 1000);
  };
  schedule();
  context.subscriptions.push({ dispose: () => timer && clearInterval(timer) }, vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('tealworks') && (schedule(), refreshAll())));

  const command = (id: string, fn: (...args: any[]) => unknown) => handlers.set(id, fn);

  const pickSender = async (): Promise<string> => {
    const list = await session.signableAccounts();
    if (!list.length) throw new Error(`no account to sign with on ${session.activeName}: unlock a wallet or import an account in the Accounts view`);
    const preferred = vscode.workspace.getConfiguration('tealworks').get<string>('defaultSender');
    if (preferred && list.includes(preferred)) return preferred;
    if (list.length === 1 || session.isDevnet) return list[0]!;
    const pick = await vscode.window.showQuickPick(list, { placeHolder: 'Sign with which account?' });
    if (!pick) throw new vscode.CancellationError();
    return pick;
  };

  // --- networks ---
  command('tealworks.startDevnet', async () => {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting the Tealworks devnet…' }, () => session.startDevnet());
    if (!session.isDevnet) await session.select(DEVNET);
  });
  command('tealworks.stopDevnet', () => session.stopDevnet());
  command('tealworks.selectNetwork', async (name?: unknown) => {
    const target = typeof name === 'string' ? name : (await vscode.window.showQuickPick(session.networkNames(), { placeHolder: `Active: ${session.activeName}` })) ?? undefined;
    if (target) await session.select(target);
  });
  command('tealworks.addNetwork', async () => {
    const cfg = vscode.workspace.getConfiguration('tealworks');
    const existing = session.customNetworks();
    const name = await vscode.window.showInputBox({ prompt: 'Network name', validateInput: (v) => { try { checkNetworkName(v, existing.map((n) => n.name)); return undefined; } catch (e) { return errorText(e); } } });
    if (!name) return;
    const nodeUrl = await vscode.window.showInputBox({ prompt: 'Node URL (public /v2 API)', placeHolder: 'https://testnet-api.example.net', validateInput: (v) => { try { checkServiceUrl(v, 'node'); return undefined; } catch (e) { return errorText(e); } } });
    if (!nodeUrl) return;
    const queryUrl = await vscode.window.showInputBox({ prompt: 'Query service URL (optional; needed to list boxes and local state)', validateInput: (v) => { if (!v) return undefined; try { checkServiceUrl(v, 'query'); return undefined; } catch (e) { return errorText(e); } } });
    const token = await vscode.window.showInputBox({ prompt: 'API token (optional; kept in VS Code secret storage, never in settings)', password: true });
    const entry: CustomNetwork = { name: name.trim(), nodeUrl: checkServiceUrl(nodeUrl, 'node'), ...(queryUrl ? { queryUrl: checkServiceUrl(queryUrl, 'query') } : {}) };
    await cfg.update('networks', [...(cfg.get<unknown[]>('networks') ?? []), entry], vscode.ConfigurationTarget.Global);
    if (token) await context.secrets.store(secretKey(entry.name, 'nodeToken'), token);
    session.changed();
  });
  command('tealworks.removeNetwork', async (node?: { label?: string }) => {
    const name = typeof node?.label === 'string' ? node.label : await vscode.window.showQuickPick(session.customNetworks().map((n) => n.name));
    if (!name) return;
    const cfg = vscode.workspace.getConfiguration('tealworks');
    await cfg.update('networks', (cfg.get<CustomNetwork[]>('networks') ?? []).filter((n) => n.name !== name), vscode.ConfigurationTarget.Global);
    for (const k of ['nodeToken', 'queryToken', 'keyManagerToken'] as const) await context.secrets.delete(secretKey(name, k));
    if (session.activeName === name) await session.select(DEVNET);
    session.changed();
  });

  // --- accounts ---
  command('tealworks.importAccount', async () => {
    const m = await vscode.window.showInputBox({ prompt: '25-word mnemonic (kept in VS Code secret storage only)', password: true, ignoreFocusOut: true });
    if (!m) return;
    const address = await session.importMnemonic(m);
    void vscode.window.showInformationMessage(`Imported ${address}`);
  });
  command('tealworks.copyAddress', async (node?: { address?: string }) => {
    if (node?.address) await vscode.env.clipboard.writeText(node.address);
  });
  command('tealworks.fundAccount', async (node?: { address?: string }, amountArg?: number) => {
    if (!session.isDevnet) throw new Error('the dispenser is only available on the devnet');
    const dn = session.devnet ?? (await session.startDevnet());
    const receiver = node?.address ?? (await vscode.window.showInputBox({ prompt: 'Address to fund' }));
    if (!receiver) return;
    const amount = BigInt(amountArg ?? vscode.workspace.getConfiguration('tealworks.devnet').get<number>('dispenserAmount', 10_000_000));
    await session.signableAccounts();
    const dispenser = dn.accounts.find((a) => a.address !== receiver)?.address ?? dn.accounts[0]!.address;
    const chain = await session.chain();
    const pay = makePaymentTxn({ sender: dispenser, receiver, amount, suggestedParams: await builderParams(chain) });
    await new GroupComposer(chain, (a) => session.signerFor(a)).add(pay).send();
    void vscode.window.showInformationMessage(`Funded ${receiver.slice(0, 8)}… with ${formatAmount(amount)} from the devnet dispenser`);
    accounts.refresh();
  });
  command('tealworks.refreshAccounts', () => {
    session.wallets = undefined;
    accounts.refresh();
  });

  // --- simulate / deploy / call ---
  command('tealworks.simulate', async (arg?: unknown) => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.languageId === 'teal' ? vscode.window.activeTextEditor.document.uri : undefined;
    const sender = await pickSender();
    const rows = uri ? [{ kind: 'appcall' as const, sender, appId: '0', source: sourceKey(uri) }] : [];
    await panel.open(rows, rows.length > 0);
  });
  command('tealworks.openSimulatePanel', async () => panel.open([], false));
  command('tealworks.deploy', async (arg?: unknown) => {
    const uri = activeTealUri(arg);
    if (!uri) return;
    const sender = await pickSender();
    const { appId, report } = await actions.deploy(uri, sender);
    if (appId === undefined) {
      if (!report.wouldSucceed) {
        void vscode.window.showErrorMessage('Deploy stopped: the create would fail. See the simulate panel.');
        await panel.open([{ kind: 'appcall', sender, appId: '0', source: sourceKey(uri) }], true);
      }
      return;
    }
    void vscode.window.showInformationMessage(`Deployed app ${appId} on ${session.activeName}`);
    state.refresh();
    return appId.toString();
  });
  command('tealworks.call', async (arg?: unknown) => {
    let appId: bigint | undefined;
    let source: string | undefined;
    if (arg instanceof vscode.Uri) {
      source = sourceKey(arg);
      appId = session.appForSource(source);
    } else if (typeof arg === 'string' && /^\d+$/.test(arg)) appId = BigInt(arg);
    else if (arg && typeof arg === 'object' && 'appId' in arg) appId = (arg as { appId: bigint }).appId;
    if (appId === undefined) {
      const text = await vscode.window.showInputBox({ prompt: 'App id to call', validateInput: (v) => (/^\d+$/.test(v.trim()) ? undefined : 'a whole number') });
      if (!text) return;
      appId = BigInt(text.trim());
    }
    source ??= session.sourceForApp(appId);
    const sender = await pickSender();
    await panel.open([{ kind: 'appcall', sender, appId: appId.toString(), ...(source ? { source } : {}), onComplete: 'NoOp' }], true);
  });

  // --- state inspector ---
  command('tealworks.state.refresh', () => state.refresh());
  command('tealworks.state.addApp', async () => {
    const text = await vscode.window.showInputBox({ prompt: 'App id to inspect', validateInput: (v) => (/^\d+$/.test(v.trim()) ? undefined : 'a whole number') });
    if (text) await session.linkApp(BigInt(text.trim()));
  });
  command('tealworks.state.removeApp', async (node?: { appId?: bigint }) => node?.appId !== undefined && session.unlinkApp(node.appId));
  command('tealworks.state.moreBoxes', async (appIdText?: string) => {
    if (!appIdText) return;
    const id = BigInt(appIdText);
    await state.loadBoxes(id, await state.specFor(id), true);
    state.repaint();
  });
  command('tealworks.state.displayAs', async (view?: unknown) => {
    const pick = typeof view === 'string' && (VALUE_VIEWS as readonly string[]).includes(view) ? view : await vscode.window.showQuickPick([...VALUE_VIEWS], { placeHolder: `Show values as (now: ${state.view})` });
    if (!pick) return;
    state.view = pick as ValueView;
    state.refresh();
  });
  command('tealworks.state.copyValue', async (node?: { copyText?: string }) => node?.copyText !== undefined && vscode.env.clipboard.writeText(node.copyText));
  command('tealworks.state.exportJson', async (node?: { appId?: bigint }) => {
    const id = node?.appId ?? session.knownApps()[0];
    if (id === undefined) throw new Error('no app to export');
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: exportAppState(id, await state.storage(id)) });
    await vscode.window.showTextDocument(doc, { preview: true });
  });

  // --- workflows ---
  const workflowChannel = vscode.window.createOutputChannel('Tealworks Workflows');
  context.subscriptions.push(workflowChannel);
  command('tealworks.runWorkflow', async (arg?: unknown) => {
    await runWorkflowCommand(session, workflowResults, workflowChannel, arg);
    state.refresh();
  });

  // --- walkthrough ---
  command('tealworks.openSample', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const candidates = [folder && vscode.Uri.joinPath(folder.uri, 'examples/counter/approval.teal'), vscode.Uri.joinPath(context.extensionUri, 'examples/counter/approval.teal')].filter((u): u is vscode.Uri => !!u && existsSync(u.fsPath));
    if (!candidates.length) throw new Error('the counter sample is not in this workspace (examples/counter/approval.teal)');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(candidates[0]!));
  });

  return {
    networks: networks as vscode.TreeDataProvider<unknown>,
    accounts: accounts as vscode.TreeDataProvider<unknown>,
    state: state as vscode.TreeDataProvider<unknown>,
    workflowResults: workflowResults as vscode.TreeDataProvider<unknown>,
    lens,
    async run(id, args) {
      const fn = handlers.get(id);
      if (!fn) throw new Error(`unknown command ${id}`);
      try {
        return await fn(...args);
      } catch (e) {
        if (e instanceof vscode.CancellationError) return undefined;
        session.log.appendLine(`${id}: ${errorText(e)}`);
        void vscode.window.showErrorMessage(`Tealworks: ${errorText(e)}`);
        return undefined;
      }
    },
  };
}
