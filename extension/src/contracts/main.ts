// Wires the contract features into VS Code: the side-bar views, the simulate panel, CodeLens and
// commands for simulate/deploy/call, the network status bar item and the workflow command.
import * as vscode from 'vscode';
import { appAddressOf, builderParams, sourceMapsFor } from '@tealworks/sdk/app';
import { GroupComposer } from '@tealworks/sdk/app';
import { makePaymentTxn } from '@tealworks/sdk/txn';
import { ContractActions, sourceKey, specPathFor, uriOfSource, workflowValuesFor } from './actions.js';
import { createSampleProject, resumeSample, WALKTHROUGH_CONTEXT } from './sample.js';
import { workflowDeployLinks } from './workflowLinks.js';
import { templateFields } from './templateForm.js';
import { askTemplateValues, rememberedTemplateValues } from './templatePrompt.js';
import { readFile } from 'node:fs/promises';
import { checkNetworkName, checkServiceUrl, customProfile, DEVNET, LOCALNET, secretKey, type CustomNetwork } from './networks.js';
import { describeNetworkError, errorMessageFor, type NetworkProblem } from './networkErrors.js';
import { nodeAdapterFor } from '@tealworks/sdk/adapters';
import { ContractSession } from './session.js';
import { SimulatePanel } from './simulatePanel.js';
import { formatBalance } from './summary.js';
import { exportAppState, VALUE_VIEWS, type ValueView } from './valueFormat.js';
import { AccountsTree, NetworksTree, StateTree } from './views.js';
import { runWorkflowCommand, WorkflowResultsTree } from './workflows.js';
import { callNotice, withTransactionArgRows } from './groupForm.js';
import { CoverageGutter } from './coverageGutter.js';
import type { TxnFormInput } from './messages.js';

/** A contract source compilers map back to: Algorand Python or Algorand TypeScript. */
export function isContractSource(path: string): boolean {
  return /\.(py|algo\.ts)$/.test(path);
}

/** The approval TEAL a `.py` / `.algo.ts` compiled to (through the source maps in out/, artifacts/ or .algokit/sources). */
export function approvalTealFor(source: vscode.Uri): vscode.Uri | undefined {
  const found = sourceMapsFor(source.fsPath).filter((m) => m.program !== 'clear' && m.teal);
  return found.length ? vscode.Uri.file(found[0]!.teal!) : undefined;
}

function activeTealUri(arg?: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return isContractSource(arg.fsPath) ? (approvalTealFor(arg) ?? arg) : arg;
  const doc = vscode.window.activeTextEditor?.document;
  if (doc?.languageId === 'teal') return doc.uri;
  if (doc && isContractSource(doc.uri.fsPath)) {
    const teal = approvalTealFor(doc.uri);
    if (teal) return teal;
  }
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
    // An Algorand Python / TypeScript contract: the lenses act on the approval TEAL its compiler
    // wrote (found through the source maps); sources without compiler output get none.
    let target = doc.uri;
    let top = new vscode.Range(0, 0, 0, 0);
    if (isContractSource(doc.uri.fsPath)) {
      const found = sourceMapsFor(doc.uri.fsPath).filter((m) => m.program !== 'clear' && m.teal);
      if (!found.length) return [];
      target = vscode.Uri.file(found[0]!.teal!);
      // Above the first line the map gives code to (the contract class).
      const lines = [...(found[0]!.map.linesWithCode().get(found[0]!.source) ?? [])].sort((a, b) => a - b);
      if (lines.length) top = new vscode.Range(lines[0]!, 0, lines[0]!, 0);
    }
    const lenses = [
      new vscode.CodeLens(top, { title: '$(beaker) Simulate', command: 'tealworks.simulate', arguments: [target] }),
      new vscode.CodeLens(top, { title: '$(cloud-upload) Deploy', command: 'tealworks.deploy', arguments: [target] }),
    ];
    if (target !== doc.uri)
      lenses.push(
        new vscode.CodeLens(top, {
          title: '$(debug-alt) Debug',
          tooltip: `Create ${vscode.workspace.asRelativePath(target, false)} on an in-memory ledger and step through a call in this file`,
          command: 'tealworks.debugFile',
          arguments: [doc.uri],
        }),
      );
    // Only an app of the chain the active network runs right now (links are per genesis hash).
    const app = this.session.appForSource(sourceKey(target));
    if (app !== undefined)
      lenses.push(
        new vscode.CodeLens(top, {
          title: `$(call-outgoing) Call app ${app}`,
          tooltip: `on ${this.session.activeName}`,
          command: 'tealworks.call',
          arguments: [target],
        }),
      );
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
  /** Takes back the simulate panel VS Code kept across a window reload. */
  restorePanel(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

/** Builds everything heavy; index.ts calls this on first use (or just after activation). */
export function createContracts(context: vscode.ExtensionContext): Contracts {
  // Command arguments come from VS Code untyped; each handler declares what it accepts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const handlers = new Map<string, (...args: any[]) => unknown>();
  const session = new ContractSession(context);
  const actions = new ContractActions(session, context.workspaceState);
  const panel = new SimulatePanel(context.extensionUri, session, actions, context.storageUri);
  const networks = new NetworksTree(session);
  const accounts = new AccountsTree(session);
  const state = new StateTree(session);
  state.specFor = async (appId) => {
    const linked = session.specPathForApp(appId);
    const src = session.sourceForApp(appId);
    if (linked) return actions.specFor(uriOfSource(linked), uriOfSource(linked).fsPath);
    return src ? actions.specFor(uriOfSource(src)) : undefined;
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
  // Learn which chain the active network runs (never starting the devnet for it).
  void session.refreshChain();
  void resumeSample(context).catch((e: Error) => session.log.appendLine(`sample: ${e.message}`));
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
  context.subscriptions.push(
    { dispose: () => timer && clearInterval(timer) },
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('tealworks')) return;
      schedule();
      // A new tealworks.localnet.host (or custom network URL) applies at once: new clients.
      if (!(await session.endpointsChanged((s) => e.affectsConfiguration(s)))) refreshAll();
    }),
  );

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
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

  /** A network that cannot be reached: the explanation, with buttons for what to do about it. */
  const offerNetworkActions = async (problem: NetworkProblem): Promise<void> => {
    const pick = await vscode.window.showErrorMessage(`Tealworks: ${problem.message}`, ...problem.actions);
    if (pick === 'Start Devnet' || pick === 'Switch to Devnet') await vscode.commands.executeCommand('tealworks.startDevnet');
    else if (pick === 'Open Settings')
      await vscode.commands.executeCommand('workbench.action.openSettings', session.activeName === LOCALNET ? 'tealworks.localnet.host' : 'tealworks.networks');
    else if (pick === 'Switch Network') await vscode.commands.executeCommand('tealworks.selectNetwork');
  };
  panel.onNetworkProblem = (p) => void offerNetworkActions(p);

  // --- networks ---
  command('tealworks.startDevnet', async () => {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting the Tealworks devnet…' }, () => session.startDevnet());
    if (!session.isDevnet) await session.select(DEVNET);
  });
  command('tealworks.stopDevnet', async (options?: { confirmed?: boolean }) => {
    if (!session.devnet) return;
    // An in-memory chain cannot be brought back: say what is lost before it is.
    if (session.devnetInMemory && options?.confirmed !== true && vscode.workspace.getConfiguration('tealworks.devnet').get<boolean>('confirmStop', true)) {
      const apps = session.isDevnet ? session.knownApps().length : 0;
      const choice = await vscode.window.showWarningMessage(
        'Stop the devnet and discard its chain?',
        {
          modal: true,
          detail: `The devnet keeps its chain in memory: its accounts' balances${apps ? ` and the ${apps} app${apps === 1 ? '' : 's'} linked here` : ' and every app on it'} are gone once it stops. Set tealworks.devnet.persist to keep the chain across restarts.`,
        },
        'Stop and Discard',
      );
      if (choice !== 'Stop and Discard') return;
    }
    await session.stopDevnet();
  });
  command('tealworks.selectNetwork', async (name?: unknown) => {
    const target =
      typeof name === 'string'
        ? name
        : ((await vscode.window.showQuickPick(session.networkNames(), { placeHolder: `Active: ${session.activeName}` })) ?? undefined);
    if (target) await session.select(target);
  });
  command('tealworks.addNetwork', async () => {
    const cfg = vscode.workspace.getConfiguration('tealworks');
    const existing = session.customNetworks();
    const validate = (check: (v: string) => unknown) => (v: string) => {
      try {
        check(v);
        return undefined;
      } catch (e) {
        return errorText(e);
      }
    };
    const title = (step: number) => `Add Network (${step}/4)`;
    const name = await vscode.window.showInputBox({
      title: title(1),
      prompt: 'Network name, shown in the Networks view and the status bar',
      placeHolder: 'e.g. testnet',
      ignoreFocusOut: true,
      validateInput: validate((v) =>
        checkNetworkName(
          v,
          existing.map((n) => n.name),
        ),
      ),
    });
    if (name === undefined) return;
    let nodeUrl: string | undefined;
    for (let value = ''; ;) {
      const typed = await vscode.window.showInputBox({
        title: title(2),
        prompt: 'Node URL (its public /v2 API, without /v2)',
        placeHolder: 'https://testnet-api.example.net',
        value,
        ignoreFocusOut: true,
        validateInput: validate((v) => checkServiceUrl(v, 'node URL')),
      });
      if (typed === undefined) return;
      nodeUrl = checkServiceUrl(typed, 'node URL');
      // Any well-formed URL passes the form: ask the node before keeping it (a typo is found now, not at the first call).
      const probe = nodeAdapterFor(customProfile({ name: name.trim(), nodeUrl }), { timeoutMs: 5000, retry: false });
      const answer: unknown = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Asking ${nodeUrl} for its status…` },
        () =>
          probe.status().then(
            () => undefined,
            (e: unknown) => e,
          ),
      );
      await probe.close().catch(() => undefined);
      if (answer === undefined) break;
      // 401/403: a node that wants its token (asked next) — it answered, so it is there.
      if ((answer as { status?: number }).status === 401 || (answer as { status?: number }).status === 403) break;
      const choice = await vscode.window.showWarningMessage(
        `No node answered at ${nodeUrl}: ${errorMessageFor(answer, name.trim())}`,
        { modal: true },
        'Edit URL',
        'Add Anyway',
      );
      if (choice === 'Add Anyway') break;
      if (choice !== 'Edit URL') return;
      value = typed;
    }
    const queryUrl = await vscode.window.showInputBox({
      title: title(3),
      prompt: 'Query service URL (optional; needed to list boxes and local state)',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? validate((x) => checkServiceUrl(x, 'query URL'))(v) : undefined),
    });
    if (queryUrl === undefined) return;
    const token = await vscode.window.showInputBox({
      title: title(4),
      prompt: 'API token (optional; kept in VS Code secret storage, never in settings)',
      password: true,
      ignoreFocusOut: true,
    });
    if (token === undefined) return;
    const entry: CustomNetwork = {
      name: checkNetworkName(
        name,
        existing.map((n) => n.name),
      ),
      nodeUrl,
      ...(queryUrl.trim() ? { queryUrl: checkServiceUrl(queryUrl, 'query URL') } : {}),
    };
    await cfg.update('networks', [...(cfg.get<unknown[]>('networks') ?? []), entry], vscode.ConfigurationTarget.Global);
    if (token) await context.secrets.store(secretKey(entry.name, 'nodeToken'), token);
    session.changed();
    void vscode.window.showInformationMessage(`Added network ${entry.name}: pick it in the Networks view or the status bar to use it.`);
  });
  command('tealworks.removeNetwork', async (node?: { label?: string }) => {
    const name = typeof node?.label === 'string' ? node.label : await vscode.window.showQuickPick(session.customNetworks().map((n) => n.name));
    if (!name) return;
    const cfg = vscode.workspace.getConfiguration('tealworks');
    await cfg.update(
      'networks',
      (cfg.get<CustomNetwork[]>('networks') ?? []).filter((n) => n.name !== name),
      vscode.ConfigurationTarget.Global,
    );
    for (const k of ['nodeToken', 'queryToken', 'keyManagerToken'] as const) await context.secrets.delete(secretKey(name, k));
    if (session.activeName === name) await session.select(DEVNET);
    session.changed();
  });

  command('tealworks.forkNetwork', async (node?: { label?: string }) => {
    const name =
      typeof node?.label === 'string'
        ? node.label
        : await vscode.window.showQuickPick(
            session.networkNames().filter((n) => n !== DEVNET),
            { placeHolder: 'Fork which network? The devnet restarts with its chain and state (copied on first read).' },
          );
    if (!name) return;
    if (session.devnet && session.devnetInMemory && vscode.workspace.getConfiguration('tealworks.devnet').get<boolean>('confirmStop', true)) {
      const choice = await vscode.window.showWarningMessage(
        `Restart the devnet as a fork of ${name}?`,
        { modal: true, detail: 'The running devnet keeps its chain in memory: it is discarded.' },
        'Fork',
      );
      if (choice !== 'Fork') return;
    }
    const dn = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Forking ${name}…` }, () => session.forkNetwork(name));
    if (!session.isDevnet) await session.select(DEVNET);
    const s = dn.fork?.status();
    if (s)
      vscode.window.showInformationMessage(`The devnet is a fork of ${name} at round ${s.forkRound}: simulate and send run on it; nothing reaches ${name}.`);
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
    if (!session.devnet) await session.startDevnet();
    const receiver = node?.address ?? (await vscode.window.showInputBox({ prompt: 'Address to fund' }));
    if (!receiver) return;
    const amount = BigInt(amountArg ?? vscode.workspace.getConfiguration('tealworks.devnet').get<number>('dispenserAmount', 10_000_000));
    await session.signableAccounts();
    // The devnet's own dispenser account (created at genesis for this), never one of the user's.
    const dispenser = session.dispenser;
    if (!dispenser)
      throw new Error(
        'this devnet has no dispenser account (its data directory predates it): fund from one of its accounts with the simulate panel, or start it with tealworks.devnet.persist off',
      );
    if (dispenser === receiver) throw new Error('that is the dispenser itself');
    const chain = await session.chain();
    const pay = makePaymentTxn({ sender: dispenser, receiver, amount, suggestedParams: await builderParams(chain) });
    await new GroupComposer(chain, (a) => session.signerFor(a)).add(pay).send();
    void vscode.window.showInformationMessage(`Funded ${receiver.slice(0, 8)}… with ${formatBalance(amount)} from the devnet dispenser`);
    accounts.refresh();
  });
  command('tealworks.refreshAccounts', () => {
    session.wallets = undefined;
    accounts.refresh();
  });

  // --- simulate / deploy / call ---
  command('tealworks.simulate', async (arg?: unknown) => {
    const uri =
      arg instanceof vscode.Uri
        ? arg
        : vscode.window.activeTextEditor?.document.languageId === 'teal'
          ? vscode.window.activeTextEditor.document.uri
          : undefined;
    if (!uri) {
      // Nothing to simulate: say so instead of starting the devnet for an empty panel.
      const pick = await vscode.window.showWarningMessage(
        'Open a TEAL approval program to simulate, or open the simulate panel to build a group by hand.',
        'Open Simulate Panel',
      );
      if (pick) await panel.open([], false);
      return;
    }
    const sender = await pickSender();
    const rows = [{ kind: 'appcall' as const, sender, appId: '0', source: sourceKey(uri) }];
    const ok = await panel.open(rows, true);
    if (ok) await vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT.simulated, true);
  });
  command('tealworks.openSimulatePanel', async () => panel.open([], false));
  command('tealworks.deploy', async (arg?: unknown) => {
    const uri = activeTealUri(arg);
    if (!uri) return;
    const sender = await pickSender();
    const { appId, report, rows, notes } = await actions.deploy(uri, sender);
    if (appId === undefined) {
      if (!report.wouldSucceed) {
        void vscode.window.showErrorMessage('Deploy stopped: the create would fail. See the simulate panel.');
        await panel.open(rows, true);
      }
      return;
    }
    const moved = notes.find((n) => n.includes('was deployed again'));
    void vscode.window.showInformationMessage(`Deployed app ${appId} on ${session.activeName}${moved ? `. ${moved}` : ''}`);
    await vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT.deployed, true);
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
      const text = await vscode.window.showInputBox({
        prompt: 'App id to call',
        validateInput: (v) => (/^\d+$/.test(v.trim()) ? undefined : 'a whole number'),
      });
      if (!text) return;
      appId = BigInt(text.trim());
    }
    source ??= session.sourceForApp(appId);
    const sender = await pickSender();
    // Never simulate a meaningless bare call: with a spec, pick the method first; the panel then
    // waits for its arguments (or for raw arguments, without a spec) before simulating.
    const linkedSpec = session.specPathForApp(appId);
    const spec = linkedSpec
      ? await actions.specFor(uriOfSource(linkedSpec), uriOfSource(linkedSpec).fsPath)
      : source
        ? await actions.specFor(uriOfSource(source))
        : undefined;
    let method: string | undefined;
    // Without a spec nothing says what the app expects: the panel waits for raw arguments (a bare
    // call run unasked fails on most apps and leaves a Problems entry behind).
    let run = false;
    if (spec && spec.methods.length) {
      const items = spec.methods.map((m) => ({
        label: m.method.name,
        description: m.method.signature,
        detail: m.json.desc ?? '',
        signature: m.method.signature,
        ready: m.method.args.length === 0,
      }));
      const pick =
        items.length === 1
          ? items[0]
          : await vscode.window.showQuickPick(items, { title: `Call app ${appId}`, placeHolder: 'Method to call', matchOnDescription: true });
      if (!pick) return;
      method = pick.signature;
      // Simulate at once only when there is nothing to type (no arguments); else the form waits.
      run = pick.ready;
    }
    let rows: TxnFormInput[] = [
      { kind: 'appcall', sender, appId: appId.toString(), ...(source ? { source } : {}), onComplete: 'NoOp', ...(method ? { method, args: [] } : {}) },
    ];
    // Transaction arguments (ARC-4) are rows right above the call, paid to the app's account.
    const picked = method ? spec?.methods.find((m) => m.method.signature === method) : undefined;
    if (picked) rows = withTransactionArgRows(rows, 0, picked.method, appAddressOf(appId));
    await panel.open(rows, run, spec ? undefined : callNotice(appId, source));
  });
  command('tealworks.setTemplateValues', async (arg?: unknown) => {
    const uri = activeTealUri(arg);
    if (!uri) return;
    const approval = (await vscode.workspace.openTextDocument(uri)).getText();
    const spec = await actions.specFor(uri);
    const src = sourceKey(uri);
    const fields = templateFields(approval, '', spec, rememberedTemplateValues(context.workspaceState, src), workflowValuesFor(uri.fsPath));
    if (!fields.length) {
      void vscode.window.showInformationMessage(`${src} has no TMPL_ template variables.`);
      return;
    }
    await askTemplateValues(context.workspaceState, src, fields, true);
  });

  // --- state inspector ---
  command('tealworks.state.refresh', () => state.refresh());
  command('tealworks.state.addApp', async () => {
    const text = await vscode.window.showInputBox({
      prompt: 'App id to inspect',
      validateInput: (v) => (/^\d+$/.test(v.trim()) ? undefined : 'a whole number'),
    });
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
    const pick =
      typeof view === 'string' && (VALUE_VIEWS as readonly string[]).includes(view)
        ? view
        : await vscode.window.showQuickPick([...VALUE_VIEWS], { placeHolder: `Show values as (now: ${state.view})` });
    if (!pick) return;
    state.view = pick as ValueView;
    state.refresh();
  });
  command('tealworks.state.copyValue', async (node?: { copyText?: string }) => node?.copyText !== undefined && vscode.env.clipboard.writeText(node.copyText));
  // A value too long for its tree row: the whole of it in a read-only-ish untitled editor.
  command('tealworks.state.openValue', async (node?: { copyText?: string; label?: unknown }) => {
    if (node?.copyText === undefined) return;
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: node.copyText });
    await vscode.window.showTextDocument(doc, { preview: true });
  });
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
    if (!vscode.workspace.isTrusted) throw new Error('workflows do not run in Restricted Mode: trust this workspace to run its tealworks.yaml');
    const run = await runWorkflowCommand(session, workflowResults, workflowChannel, arg);
    // Apps the workflow deployed are linked like the editor's own deploys: source and spec.
    if (run && session.isDevnet && run.summary.network === DEVNET) {
      await session.refreshChain();
      for (const l of workflowDeployLinks(await readFile(run.file, 'utf8'), run.file, run.summary.outputs)) {
        const rel = (p: string | undefined) => (p ? vscode.workspace.asRelativePath(p, false) : undefined);
        const source = rel(l.approval);
        const spec = rel(l.spec ?? (l.approval ? specPathFor(l.approval) : undefined));
        await session
          .linkApp(l.appId, source, { via: 'workflow', ...(spec ? { spec } : {}) })
          .catch((e: Error) => void session.log.appendLine(`workflow link ${l.appId}: ${e.message}`));
      }
    }
    state.refresh();
  });

  // --- coverage in the gutter (lcov from `tealworks test --coverage`) ---
  const coverage = new CoverageGutter(context.extensionUri, context.workspaceState, (m) => session.log.appendLine(m));
  context.subscriptions.push(coverage);
  command('tealworks.toggleCoverage', async () => {
    const shown = await coverage.toggle();
    if (shown && !coverage.files.length)
      void vscode.window.showInformationMessage(
        'No coverage yet: run `npx tealworks test --coverage` (it writes coverage/lcov.info); the gutter shows it as soon as the file appears.',
      );
    else
      vscode.window.setStatusBarMessage(
        shown
          ? `Tealworks: coverage shown from ${coverage.files.map((f) => vscode.workspace.asRelativePath(f, false)).join(', ')}`
          : 'Tealworks: coverage hidden',
        4000,
      );
  });

  // --- walkthrough ---
  command('tealworks.openSample', async (target?: unknown) =>
    createSampleProject(context, target instanceof vscode.Uri ? target : undefined, (m) => session.log.appendLine(m)),
  );

  return {
    networks: networks as vscode.TreeDataProvider<unknown>,
    accounts: accounts as vscode.TreeDataProvider<unknown>,
    state: state as vscode.TreeDataProvider<unknown>,
    workflowResults: workflowResults as vscode.TreeDataProvider<unknown>,
    lens,
    restorePanel: (p, saved) => panel.restore(p, saved),
    async run(id, args) {
      const fn = handlers.get(id);
      if (!fn) throw new Error(`unknown command ${id}`);
      try {
        return await fn(...args);
      } catch (e) {
        if (e instanceof vscode.CancellationError) return undefined;
        session.log.appendLine(`${id}: ${errorText(e)}`);
        const problem = describeNetworkError(e, session.activeName);
        if (problem) void offerNetworkActions(problem);
        else void vscode.window.showErrorMessage(`Tealworks: ${errorText(e)}`);
        return undefined;
      }
    },
  };
}
