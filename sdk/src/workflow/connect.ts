import { join } from 'node:path';
import { LocalSigner, type Signer } from '../adapters/signer.js';
import { keyManagerFor, nodeAdapterFor, queryClientFor, profileFromDevnet, type NetworkProfile } from '../adapters/profiles.js';
import type { KeyManagerClient } from '../adapters/kmd/client.js';
import { startDevnet, type RunningDevnet } from '../services/devnet/index.js';
import { DataDirInUseError, readRunningDevnetRecord } from '../services/devnet/lock.js';
import { toBase64 } from '../encoding/base64.js';
import type { AppChain } from '../app/chain.js';
import { findWalletDispenser, walletKeySeed } from '../app/dispenser.js';
import { ConnectError } from '../errors.js';
import { explainConnectFailure } from '../adapters/connect-failure.js';
import type { NetworkSpec } from './model.js';
import { networkProfileFor } from './network.js';

/*
 * Connecting a workflow run to its network. The embedded devnet is started (and stopped) by the
 * run; by default it keeps its chain under `.tealworks/devnet` beside the workflow, so a rerun sees
 * the apps and checkpoints of the previous one. Dev networks have a dispenser (a funded genesis or
 * wallet key) for `fund` steps and generated accounts.
 */

/** A workflow's connected network: chain, profile, key manager, dispenser, chain id, and `close()`. */
export interface WorkflowNetwork {
  name: string;
  chain: AppChain;
  profile: NetworkProfile;
  /** The key-manager service client, when the network has one. */
  keyManager?: KeyManagerClient;
  /** Funds `fund` steps without `from` and generated accounts (dev networks only). */
  dispenser?: { address: string; signer: Signer };
  /** Genesis id and hash: checkpoints from another chain are ignored. */
  chainId: string;
  isDev: boolean;
  /** True for the embedded devnet (its blocks only come with transactions). */
  embedded: boolean;
  devnet?: RunningDevnet;
  close(): Promise<void>;
}

/** Where a workflow's devnet keeps its data, whether in memory, the environment, and a devnet to share. */
export interface ConnectOptions {
  /** Folder the devnet's data goes under (`<baseDir>/.tealworks/devnet`). */
  baseDir: string;
  /** Run the embedded devnet in memory (nothing kept; checkpoints never match a later run). */
  inMemory?: boolean;
  /** The devnet's data directory instead of `<baseDir>/.tealworks/devnet` (the devnet serving it is used when one runs). */
  dataDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Use an already running devnet (the extension and tests share one); it is not stopped. */
  devnet?: RunningDevnet;
  /** Open a damaged devnet data directory by setting the damaged part aside (see `DevnetOptions.recover`). */
  recover?: boolean;
}

/**
 * The devnet that another process (`tealworks devnet`, another run) is serving from `dir`, read
 * from the lock file it holds; undefined when none is.
 */
function runningDevnetAt(dir: string): DevnetEndpoints | undefined {
  const record = readRunningDevnetRecord(dir);
  if (!record) return undefined;
  return {
    node: record.node,
    query: record.query,
    keyManager: record.kmd,
    accounts: record.accounts.map((a) => ({ address: a.address, genesisAmount: BigInt(a.genesisAmount) })),
    wallet: record.wallet,
  };
}

type DevnetEndpoints = Pick<RunningDevnet, 'node' | 'query' | 'keyManager' | 'accounts' | 'wallet'>;

async function chainIdOf(chain: AppChain): Promise<string> {
  const sp = await chain.node.suggestedParams();
  return `${sp.genesisId}:${toBase64(sp.genesisHash)}`;
}

async function devnetNetwork(devnet: DevnetEndpoints, owned: RunningDevnet | undefined): Promise<WorkflowNetwork> {
  const profile = profileFromDevnet(devnet);
  const chain: AppChain = { node: nodeAdapterFor(profile), query: queryClientFor(profile) };
  const keyManager = keyManagerFor(profile);
  const funded = devnet.accounts[0];
  if (!funded)
    throw new ConnectError('the devnet has no funded account to act as dispenser.', {
      url: devnet.node.url,
      hint: 'Start it with at least one genesis account.',
    });
  const signer = LocalSigner.fromSeed(await walletKeySeed(keyManager, devnet.wallet, funded.address));
  return {
    name: 'devnet',
    chain,
    profile,
    keyManager,
    dispenser: { address: funded.address, signer },
    chainId: await chainIdOf(chain),
    isDev: true,
    embedded: true,
    ...(owned ? { devnet: owned } : {}),
    close: async () => {
      await Promise.allSettled([chain.node.close(), chain.query!.close(), keyManager.close()]);
      if (owned) await owned.stop();
    },
  };
}

/** How many times (50 ms apart) a one-off command waits for another one holding the folder's devnet. */
const ONE_OFF_WAIT_ATTEMPTS = 1200;

/** Connects a workflow to its network; for the devnet, starts it (data under `.tealworks/devnet`, locked for the run) and finds the dispenser. */
export async function connectNetwork(spec: NetworkSpec, options: ConnectOptions): Promise<WorkflowNetwork> {
  const env = options.env ?? process.env;
  if (spec.kind === 'named' && spec.name === 'devnet') {
    if (options.devnet) return devnetNetwork(options.devnet, undefined);
    const dataDir = options.inMemory ? undefined : (options.dataDir ?? join(options.baseDir, '.tealworks', 'devnet'));
    // A devnet already serving this folder's chain (e.g. `tealworks devnet` in another terminal)
    // is used as it is: opening its files a second time would corrupt them.
    let devnet: RunningDevnet;
    // Another one-off command may be starting (or finishing with) the same folder's devnet: wait
    // for it to publish its services or let go of the folder, instead of refusing each other.
    for (let attempt = 0; ; attempt++) {
      const running = dataDir ? runningDevnetAt(dataDir) : undefined;
      if (running) return devnetNetwork(running, undefined);
      try {
        devnet = await startDevnet({
          ...(dataDir ? { dataDir } : { inMemory: true }),
          ...(options.recover ? { recover: true } : {}),
          ports: { node: 0, query: 0, keyManager: 0 },
        });
        break;
      } catch (e) {
        if (!(e instanceof DataDirInUseError)) throw e;
        if (attempt >= ONE_OFF_WAIT_ATTEMPTS) throw new ConnectError(e.message, { cause: e });
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    try {
      return await devnetNetwork(devnet, devnet);
    } catch (e) {
      await devnet.stop();
      throw e;
    }
  }
  const profile = networkProfileFor(spec, env);
  const chain: AppChain = { node: nodeAdapterFor(profile), ...(profile.query ? { query: queryClientFor(profile) } : {}) };
  const keyManager = profile.keyManager ? keyManagerFor(profile) : undefined;
  const isDev = spec.kind === 'named' ? spec.name === 'localnet' : /localhost|127\.0\.0\.1/.test(spec.node);
  let chainId: string;
  try {
    chainId = await chainIdOf(chain);
  } catch (e) {
    await Promise.allSettled([chain.node.close(), chain.query?.close(), keyManager?.close()]);
    // The same explanation as Tealworks.connect: the token, the node API, or a node that is not running.
    const tokenSource =
      spec.kind === 'custom' && spec.tokenEnv
        ? `the environment variable ${spec.tokenEnv} (token-env in the workflow's network)`
        : `the ${spec.name} network's well-known token`;
    throw await explainConnectFailure(e, profile, tokenSource);
  }
  const dispenser = isDev && keyManager ? await findWalletDispenser(keyManager, chain) : undefined;
  return {
    name: spec.name,
    chain,
    profile,
    ...(keyManager ? { keyManager } : {}),
    ...(dispenser ? { dispenser: { address: dispenser.address, signer: dispenser.signer } } : {}),
    chainId,
    isDev,
    embedded: false,
    close: async () => {
      if (dispenser) await dispenser.session.close();
      await Promise.allSettled([chain.node.close(), chain.query?.close(), keyManager?.close()]);
    },
  };
}
