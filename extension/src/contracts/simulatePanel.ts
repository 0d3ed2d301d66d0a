// The simulate panel: a webview with the group form and the last report. Strict CSP (nonce'd
// script, no remote content, default-src 'none'); every message from the webview is validated.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FormError, formMethods } from './groupForm.js';
import { parseWebviewMessage, restoredChain, restoredRows, WORKSPACE_SOURCE, type TxnFormInput } from './messages.js';
import type { ContractActions } from './actions.js';
import { uriOfSource } from './actions.js';
import type { ContractSession } from './session.js';
import { revealLine } from './highlight.js';
import { reportView, toPlain } from './valueFormat.js';
import { verdictView } from './explainView.js';
import { debugReport, hasTrace } from './debugGroup.js';
import type { SimulateReport } from '@tealworks/sdk/app';
import { methodInfo, type MethodInfo } from './argForm.js';
import { appAddressOf } from '@tealworks/sdk/app';
import { describeNetworkError, type NetworkProblem } from './networkErrors.js';

/** File (in the workspace's storage folder) with the rows the panel shows: what a window reload brings back. */
const ROWS_FILE = 'simulate-panel-rows.json';

export class SimulatePanel implements vscode.Disposable {
  static readonly viewType = 'tealworks.simulate';
  #panel: vscode.WebviewPanel | undefined;
  #ready: Promise<void> | undefined;
  #markReady: () => void = () => undefined;
  /** The last report shown and the rows it came from: what "Debug" opens. */
  /** The rows the panel shows (what a restored or reset panel simulates again). */
  #rows: TxnFormInput[] = [];
  #last: { report: SimulateReport; rows: TxnFormInput[] } | undefined;
  /** The network and chain (genesis) the last run was on. */
  #chainShown = '';
  readonly #subscription: vscode.Disposable;
  /** Called when a run failed because the network cannot be reached (main.ts offers the actions). */
  onNetworkProblem: (problem: NetworkProblem) => void = () => undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly session: ContractSession,
    private readonly actions: ContractActions,
    private readonly storage?: vscode.Uri,
  ) {
    // The header and the account pickers follow the active network.
    this.#subscription = session.onDidChange(() => void this.#networkChanged());
  }

  async #networkChanged(): Promise<void> {
    // Another network or chain: the last run is of a chain the panel no longer shows.
    if (this.#chainShown !== `${this.session.activeName}|${this.session.genesis ?? ''}`) {
      this.#chainShown = `${this.session.activeName}|${this.session.genesis ?? ''}`;
      this.#last = undefined;
      // Nor may a Problems entry of a run on a chain that is not shown any more stay.
      this.actions.highlight.clear();
    }
    if (!this.#panel) return;
    let accounts: string[] | undefined;
    if (!this.session.isDevnet || this.session.devnet) {
      try {
        accounts = await this.session.signableAccounts();
      } catch {
        accounts = undefined;
      }
    }
    await this.#post({ type: 'network', network: this.session.activeName, chain: this.session.genesis ?? '', ...(accounts ? { accounts } : {}) });
  }

  /**
   * Opens (or focuses) the panel with these rows; runs the simulation right away when asked.
   * True when a simulation ran and produced a report.
   */
  async open(rows: TxnFormInput[], run: boolean, notice?: string): Promise<boolean> {
    this.#rows = rows;
    await this.#keepRows(rows);
    // A new group: the last run's Problems entry and line highlight describe another one.
    this.actions.highlight.clear();
    if (!this.#panel) this.#create();
    else this.#panel.reveal(vscode.ViewColumn.Beside, true);
    await this.#ready;
    const context = await this.#context();
    await this.#post({ type: 'init', rows, chain: this.session.genesis ?? '', ...(notice ? { notice } : {}), ...context });
    await this.#accountsSince(context.accounts);
    return run ? this.#simulate(rows) : false;
  }

  async #context(): Promise<{
    accounts: string[];
    sources: string[];
    network: string;
    methods: Record<string, string[]>;
    methodInfo: Record<string, MethodInfo[]>;
    appAddresses: Record<string, string>;
    assets: string[];
  }> {
    let accounts: string[] = [];
    try {
      accounts = await this.session.signableAccounts();
    } catch (e) {
      this.session.log.appendLine(`accounts: ${(e as Error).message}`);
    }
    const files = await vscode.workspace.findFiles('**/*.teal', '**/node_modules/**', 200);
    const methods: Record<string, string[]> = {};
    const infos: Record<string, MethodInfo[]> = {};
    for (const f of files) {
      // The spec alone (no assembling: a program with template variables is listed all the same).
      const spec = await this.actions.specFor(f);
      // Without a spec: the methods its `method "…"` lines route (hand-written ABI TEAL).
      const listed = formMethods(
        spec,
        spec
          ? undefined
          : await vscode.workspace.fs.readFile(f).then(
              (b) => new TextDecoder().decode(b),
              () => undefined,
            ),
      );
      if (!listed.length) continue;
      const rel = vscode.workspace.asRelativePath(f, false);
      methods[rel] = listed.map((m) => m.method.signature);
      infos[rel] = listed.map((m) => methodInfo(m.method, m.arc56));
    }
    // Asset picker: the assets the signable accounts hold or created.
    const assets = new Set<string>();
    if (accounts.length) {
      try {
        const chain = await this.session.chain();
        for (const a of accounts.slice(0, 20)) {
          const info = await chain.node.account(a).catch(() => undefined);
          for (const h of info?.assets ?? []) assets.add(h.assetId.toString());
          for (const c of info?.createdAssets ?? []) assets.add(c.index.toString());
        }
      } catch {
        // No chain yet: the picker stays empty, typing an id still works.
      }
    }
    assets.delete('');
    // Receivers offered for transaction arguments: the accounts of the apps linked here.
    const appAddresses = Object.fromEntries(this.session.knownApps().map((id) => [id.toString(), appAddressOf(id)]));
    return {
      accounts,
      sources: files.map((f) => vscode.workspace.asRelativePath(f, false)).sort(),
      network: this.session.activeName,
      methods,
      methodInfo: infos,
      appAddresses,
      assets: [...assets],
    };
  }

  #create(): void {
    const media = vscode.Uri.joinPath(this.extensionUri, 'extension', 'media');
    const panel = vscode.window.createWebviewPanel(
      SimulatePanel.viewType,
      'Tealworks Simulate',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        localResourceRoots: [media],
        retainContextWhenHidden: true,
      },
    );
    this.#adopt(panel);
  }

  /**
   * After a window reload VS Code hands back the panel it kept open (VS Code's serializer
   * convention): the form comes back with the rows the webview saved, validated like any message;
   * the last report does not (it described a run of the previous session).
   */
  async restore(panel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    // The webview's saved state, else the rows the extension kept (workspace storage), each with
    // the network and chain the rows were made on.
    const fromWebview = restoredRows(saved);
    const kept = fromWebview.length ? saved : await this.#kept();
    const rows = fromWebview.length ? fromWebview : restoredRows(kept);
    const from = restoredChain(kept);
    const parsed = parseWebviewMessage({ type: 'simulate', group: rows });
    this.#rows = parsed.ok && parsed.message.type === 'simulate' ? parsed.message.group : [];
    this.session.log.appendLine(
      `simulate panel: restored after a window reload with ${this.#rows.length} row${this.#rows.length === 1 ? '' : 's'}${parsed.ok ? '' : ` (the saved rows were refused: ${parsed.reason})`}`,
    );
    this.#adopt(panel);
    // Not awaited: VS Code shows the panel only once this returns, and the webview says it is
    // ready only once it is shown (waiting here for 'ready' left a blank panel for good).
    void this.#ready!.then(async () => {
      const context = await this.#context();
      await this.#post({
        type: 'init',
        rows: this.#rows,
        ...context,
        // After #context: the accounts asked for start the devnet, whose chain is then known.
        chain: this.session.genesis ?? '',
        restored: true,
        ...(from ? { restoredFrom: from } : {}),
      });
      await this.#accountsSince(context.accounts);
    }).catch((e: unknown) => this.#error(e));
  }

  /**
   * The rows kept on disk in the workspace's storage folder: written at once, so they survive a
   * window reload that gives the webview's saved state and the workspace state no time to be stored.
   */
  #rowsFile(): string | undefined {
    return this.storage ? join(this.storage.fsPath, ROWS_FILE) : undefined;
  }

  async #keepRows(rows: TxnFormInput[]): Promise<void> {
    const file = this.#rowsFile();
    if (!file) return;
    try {
      await mkdir(this.storage!.fsPath, { recursive: true });
      await writeFile(file, JSON.stringify({ rows, network: this.session.activeName, chain: this.session.genesis ?? '' }));
    } catch (e) {
      this.session.log.appendLine(`simulate panel: could not keep the rows: ${(e as Error).message}`);
    }
  }

  /** What #keepRows wrote last (its JSON text), if anything. */
  async #kept(): Promise<string | undefined> {
    const file = this.#rowsFile();
    return file ? await readFile(file, 'utf8').catch(() => undefined) : undefined;
  }

  #adopt(panel: vscode.WebviewPanel): void {
    const media = vscode.Uri.joinPath(this.extensionUri, 'extension', 'media');
    panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
    this.#panel = panel;
    this.#ready = new Promise((r) => (this.#markReady = r));
    const nonce = randomBytes(16).toString('base64');
    const csp = [
      `default-src 'none'`,
      `img-src ${panel.webview.cspSource}`,
      `style-src ${panel.webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
      `font-src ${panel.webview.cspSource}`,
    ].join('; ');
    const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'simulate.js'));
    const argScript = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'argForm.js'));
    const style = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'simulate.css'));
    panel.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${style}"><title>Tealworks Simulate</title></head>
<body><main id="app"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${argScript}"></script>
<script nonce="${nonce}" src="${script}"></script></body></html>`;
    panel.webview.onDidReceiveMessage((raw: unknown) => void this.#receive(raw));
    panel.onDidDispose(() => {
      this.#panel = undefined;
    });
  }

  async #receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      // Rows half-typed (an amount being written) are simply not kept yet: no log line per keystroke.
      if ((raw as { type?: unknown } | null)?.type === 'rows') return;
      this.session.log.appendLine(`simulate panel: rejected a message: ${parsed.reason}`);
      return;
    }
    const m = parsed.message;
    switch (m.type) {
      case 'ready':
        this.#markReady();
        return;
      case 'simulate':
        this.#rows = m.group;
        await this.#simulate(m.group);
        return;
      case 'send':
        this.#rows = m.group;
        await this.#send(m.group);
        return;
      case 'rows':
        this.#rows = m.group;
        await this.#keepRows(m.group);
        return;
      case 'reveal':
        await revealLine(uriOfSource(m.file), m.line, m.column);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(m.text);
        return;
      case 'appAddress': {
        const id = BigInt(m.appId);
        if (id >= 1n << 64n) return;
        await this.#post({ type: 'appAddress', appId: m.appId, address: appAddressOf(id) });
        return;
      }
      case 'fund': {
        // What it lacks plus 0.1 for the next box or opt-in, at least 0.1; the devnet's dispenser pays.
        const amount = BigInt(m.amount) + 100_000n;
        try {
          if (!this.session.isDevnet)
            throw new Error(`on ${this.session.activeName}, add a payment to ${m.address} above the call (the dispenser exists on the devnet only)`);
          await vscode.commands.executeCommand('tealworks.fundAccount', { address: m.address }, Number(amount));
          if (this.#rows.length) await this.#simulate(this.#rows);
        } catch (e) {
          await this.#error(e);
        }
        return;
      }
      case 'debug':
        if (!this.#last) return void vscode.window.showInformationMessage('Tealworks: simulate the group first, then debug it.');
        try {
          await debugReport(this.#last.report, this.#last.rows, this.actions, this.session);
        } catch (e) {
          await this.#error(e);
        }
        return;
    }
  }

  async #simulate(rows: TxnFormInput[]): Promise<boolean> {
    await this.#post({ type: 'busy', busy: true, what: 'Simulating…' });
    try {
      const { report, warnings } = await this.actions.simulate(rows);
      this.#last = { report, rows };
      await this.#post({
        type: 'report',
        debuggable: hasTrace(report),
        report: toPlain(this.#linkable(reportView(report))),
        sourceFile: this.#sourceOf(report, rows),
        network: this.session.activeName,
        warnings,
      });
      return true;
    } catch (e) {
      this.actions.highlight.clear();
      await this.#error(e);
      return false;
    } finally {
      await this.#post({ type: 'busy', busy: false });
    }
  }

  async #send(rows: TxnFormInput[]): Promise<void> {
    await this.#post({ type: 'busy', busy: true, what: 'Sending…' });
    try {
      const { result, report, warnings } = await this.actions.send(rows);
      this.#last = { report, rows };
      const view = this.#linkable(reportView(report));
      const sent = result
        ? { txids: result.txids, confirmedRound: result.confirmedRound.toString(), created: result.txns.map((t) => t.createdAppId?.toString() ?? '') }
        : undefined;
      // After Sign and Send the headline says what happened: confirmed, or not sent at all.
      view.verdict = verdictView({ wouldSucceed: report.wouldSucceed, ...(view.failedAtLabel ? { failedAtLabel: view.failedAtLabel } : {}) }, sent, !result);
      await this.#post({
        type: 'report',
        debuggable: hasTrace(report),
        report: toPlain(view),
        sourceFile: this.#sourceOf(report, rows),
        network: this.session.activeName,
        warnings,
        ...(sent ? { sent } : {}),
      });
    } catch (e) {
      await this.#error(e);
    } finally {
      await this.#post({ type: 'busy', busy: false });
    }
  }

  /** Chain locations as workspace-relative paths (the only files the webview may ask to reveal); others are not links. */
  #linkable(view: ReturnType<typeof reportView>): ReturnType<typeof reportView> {
    for (const c of view.chain ?? []) {
      if (c.file === undefined) continue;
      const rel = c.file.startsWith('/') ? vscode.workspace.asRelativePath(vscode.Uri.file(c.file), false) : undefined;
      if (rel && !rel.startsWith('/') && WORKSPACE_SOURCE.test(rel)) c.file = rel;
      else delete c.file;
    }
    return view;
  }

  #sourceOf(report: import('@tealworks/sdk/app').SimulateReport, rows: TxnFormInput[]): string | undefined {
    const uri = this.actions.failureSource(report, rows);
    return uri ? vscode.workspace.asRelativePath(uri, false) : undefined;
  }

  async #error(e: unknown): Promise<void> {
    if (e instanceof vscode.CancellationError) return;
    const problem = describeNetworkError(e, this.session.activeName);
    const message = problem?.message ?? (e instanceof Error ? e.message : String(e));
    this.session.log.appendLine(`simulate panel: ${e instanceof Error ? e.message : String(e)}`);
    // A network that cannot be reached also gets the notification with what to do (its buttons).
    if (problem) this.onNetworkProblem(problem);
    await this.#post({ type: 'error', message, ...(e instanceof FormError ? { index: e.index, field: e.field } : {}) });
  }

  /**
   * The init message carries the accounts as they were when it was made. A wallet opened meanwhile
   * (the devnet starting after a window reload) was announced before the init and overwritten by
   * it: the accounts as they are now follow the init when they differ.
   */
  async #accountsSince(sent: string[]): Promise<void> {
    let now: string[];
    try {
      now = await this.session.signableAccounts();
    } catch {
      return;
    }
    if (now.length !== sent.length || now.some((a, i) => a !== sent[i])) await this.#post({ type: 'accounts', accounts: now });
  }

  async #post(message: Record<string, unknown>): Promise<void> {
    await this.#panel?.webview.postMessage(message);
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#panel?.dispose();
  }
}
