// The embedded devnet, one job of the contract session (session.ts): started in this process on
// demand (in memory, or persisted in the workspace storage folder; LocalNet-style or a fork of a
// configured network when asked), offering to recover damaged chain data, stopped with the
// extension. Knows nothing of the active network: the session decides what a start or stop means.
import * as vscode from 'vscode';
import type { RunningDevnet } from '@tealworks/sdk/services';
import { describeRecovery, devnetRecoveryPrompt } from './devnetRecovery.js';
import { corsSetting } from './devnetCors.js';

/** The network a devnet start forks: its name (for the data folder and the log) and its node. */
export interface ForkTarget {
  name: string;
  url: string;
  token?: string;
}

export class DevnetHost {
  /** The running devnet, if any. */
  devnet: RunningDevnet | undefined;
  /** The devnet's dispenser: a genesis account of its own, not one of the user's accounts. */
  dispenser: string | undefined;
  /** The configured network the running devnet forks (its name), or undefined for a chain of its own. */
  forkOf: string | undefined;
  /** What the next start forks (set around a start by ContractSession.forkNetwork). */
  forkTarget: ForkTarget | undefined;
  #starting: Promise<RunningDevnet> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.OutputChannel,
  ) {}

  /** True when the running devnet keeps its chain in memory only (stopping it discards the chain). */
  get inMemory(): boolean {
    return this.devnet !== undefined && this.devnet.dataDir === undefined;
  }

  /** Starts the devnet, or joins the start under way; the running one when there is one. */
  start(): Promise<RunningDevnet> {
    if (!this.#starting) {
      this.#starting = (async () => {
        const started = Date.now();
        // Loaded on first use so activation does not pay for the ledger and the services.
        const { startDevnet } = await import('@tealworks/sdk/services');
        const cfg = vscode.workspace.getConfiguration('tealworks.devnet');
        const persist = cfg.get<boolean>('persist', false);
        const localnet = cfg.get<boolean>('localnet', false);
        // A LocalNet-style devnet is another chain (genesis id dockernet-v1): its own directory.
        const fork = this.forkTarget;
        // A fork is another chain again (the remote's): its own directory per forked network.
        const dirName = fork ? `devnet-fork-${fork.name.replace(/[^\w.-]+/g, '_')}` : localnet ? 'devnet-localnet' : 'devnet';
        const dataDir = persist && this.context.storageUri ? vscode.Uri.joinPath(this.context.storageUri, dirName).fsPath : undefined;
        // One genesis account more than asked for: the last one is the dispenser, so funding never
        // drains one of the user's accounts.
        const wanted = cfg.get<number>('accounts', 3);
        // Browser origins allowed to call the services (`--cors`); LocalNet mode allows every origin.
        const cors = localnet
          ? []
          : corsSetting(cfg.get<unknown>('cors', []), (bad) =>
              this.log.appendLine(`devnet: tealworks.devnet.cors: ignoring "${bad}": not a browser origin such as http://localhost:5173 (or *)`),
            );
        const corsOpt = cors.length ? { corsOrigins: cors } : {};
        let dn: RunningDevnet;
        try {
          dn = await startDevnet({
            ...(dataDir ? { dataDir } : { inMemory: true }),
            accounts: wanted + 1,
            ...corsOpt,
            ...(localnet ? { localnet: true } : {}),
            ...(fork ? { fork: { url: fork.url, ...(fork.token ? { token: fork.token } : {}) } } : {}),
          });
        } catch (e) {
          // A fork's remote that cannot be used says so itself; nothing to recover here.
          if (!dataDir || fork) throw e;
          const prompt = devnetRecoveryPrompt(e, dataDir);
          if (prompt) {
            // Damaged chain data: nothing was changed; recovering is the user's call.
            this.log.appendLine(`devnet: ${(e as Error).message}`);
            const choice = await vscode.window.showWarningMessage(prompt.message, { modal: true, detail: prompt.detail }, prompt.action);
            if (choice !== prompt.action) throw e;
            dn = await startDevnet({ dataDir, recover: true, ...corsOpt, ...(localnet ? { localnet: true } : {}) });
            this.log.appendLine(describeRecovery(dn.recovered));
          } else {
            // A data directory made with another account count keeps its own genesis.
            this.log.appendLine(`devnet: ${(e as Error).message}; starting with the data directory's own accounts`);
            dn = await startDevnet({ dataDir, ...corsOpt, ...(localnet ? { localnet: true } : {}) });
          }
        }
        this.devnet = dn;
        this.forkOf = fork?.name;
        if (dn.fork)
          dn.fork.onRequest = (r) =>
            this.log.appendLine(
              `fork of ${fork?.name ?? dn.fork!.head.url}: fetched ${r.resource} (${r.found ? `remote round ${r.round}` : 'not on the remote'})`,
            );
        this.dispenser = dn.accounts.length > wanted ? dn.accounts[dn.accounts.length - 1]!.address : undefined;
        this.log.appendLine(
          `devnet started in ${Date.now() - started} ms: node ${dn.node.url}, query ${dn.query.url}, key manager ${dn.keyManager.url}${dataDir ? `, data in ${dataDir}` : ' (in memory)'}`,
        );
        return dn;
      })().finally(() => (this.#starting = undefined));
    }
    return this.#starting;
  }

  /** Forgets the running devnet, then stops it. */
  async stop(): Promise<void> {
    const dn = this.devnet;
    this.devnet = undefined;
    this.dispenser = undefined;
    this.forkOf = undefined;
    await dn?.stop();
  }
}
