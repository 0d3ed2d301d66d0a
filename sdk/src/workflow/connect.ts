import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyManagerSigner, LocalSigner, type Signer } from '../adapters/signer.js';
import { keyManagerFor, nodeAdapterFor, queryClientFor, profileFromDevnet, type NetworkProfile } from '../adapters/profiles.js';
import type { KeyManagerClient, WalletSession } from '../adapters/kmd/client.js';
import { startDevnet, type RunningDevnet } from '../services/devnet/index.js';
import { toBase64 } from '../encoding/base64.js';
import type { AppChain } from '../app/chain.js';
import { TealworksError } from '../errors.js';
import type { NetworkSpec } from './model.js';
import { networkProfileFor } from './network.js';

/*
 * Connecting a workflow run to its network. The embedded devnet is started (and stopped) by the
 * run; by default it keeps its chain under `.tealworks/devnet` beside the workflow, so a rerun sees
 * the apps and checkpoints of the previous one. Dev networks have a dispenser (a funded genesis or
 * wallet key) for `fund` steps and generated accounts.
 */

/** A workflow's network cannot be reached or used. */
export class NetworkConnectError extends TealworksError {}

/** A workflow's connected network: chain, profile, key manager, dispenser, chain id, and `close()`. */
export interface WorkflowNetwork {
  name: string;
  chain: AppChain;
  profile: NetworkProfile;
  kmd?: KeyManagerClient;
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
  env?: Readonly<Record<string, string | undefined>>;
  /** Use an already running devnet (the extension and tests share one); it is not stopped. */
  devnet?: RunningDevnet;
}

/**
 * One process at a time on a devnet data directory: two ledgers appending to one journal would
 * corrupt it. A lock file names the holder; one left by a process that is gone is taken over.
 */
function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, 'tealworks-run.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(readFileSync(path, 'utf8').trim());
      let alive = holder === process.pid;
      try {
        if (!alive && Number.isInteger(holder) && holder > 0) {
          process.kill(holder, 0);
          alive = true;
        }
      } catch {
        alive = false;
      }
      if (alive) throw new NetworkConnectError(`the devnet data in ${dir} is in use by ${holder === process.pid ? 'another run in this process' : `process ${holder}`}; wait for it, or use --in-memory`);
      rmSync(path, { force: true });
    }
  }
  throw new NetworkConnectError(`cannot lock the devnet data in ${dir}`);
}

async function chainIdOf(chain: AppChain): Promise<string> {
  const sp = await chain.node.suggestedParams();
  return `${sp.genesisId}:${toBase64(sp.genesisHash)}`;
}

async function devnetNetwork(devnet: RunningDevnet, owned: boolean): Promise<WorkflowNetwork> {
  const profile = profileFromDevnet(devnet);
  const chain: AppChain = { node: nodeAdapterFor(profile), query: queryClientFor(profile) };
  const kmd = keyManagerFor(profile);
  const funded = devnet.accounts[0];
  if (!funded) throw new NetworkConnectError('the devnet has no funded account to act as dispenser');
  const session = await kmd.openWallet(devnet.wallet.name, devnet.wallet.password);
  // Local signing is much faster than one key-manager round trip per transaction.
  const secret = await session.exportKey(funded.address);
  await session.close();
  const signer = LocalSigner.fromSeed(secret.slice(0, 32));
  return {
    name: 'devnet',
    chain,
    profile,
    kmd,
    dispenser: { address: funded.address, signer },
    chainId: await chainIdOf(chain),
    isDev: true,
    embedded: true,
    devnet,
    close: async () => {
      await Promise.allSettled([chain.node.close(), chain.query!.close(), kmd.close()]);
      if (owned) await devnet.stop();
    },
  };
}

async function walletDispenser(kmd: KeyManagerClient, chain: AppChain): Promise<{ address: string; signer: Signer; session: WalletSession } | undefined> {
  try {
    const session = await kmd.openWallet('unencrypted-default-wallet', '');
    let best: { address: string; amount: bigint } | undefined;
    for (const a of await session.listKeys()) {
      const amount = (await chain.node.account(a)).amount;
      if (!best || amount > best.amount) best = { address: a, amount };
    }
    if (!best) {
      await session.close();
      return undefined;
    }
    return { address: best.address, signer: new KeyManagerSigner(session), session };
  } catch {
    return undefined;
  }
}

/** Connects a workflow to its network; for the devnet, starts it (data under `.tealworks/devnet`, locked for the run) and finds the dispenser. */
export async function connectNetwork(spec: NetworkSpec, options: ConnectOptions): Promise<WorkflowNetwork> {
  const env = options.env ?? process.env;
  if (spec.kind === 'named' && spec.name === 'devnet') {
    if (options.devnet) return devnetNetwork(options.devnet, false);
    const dataDir = options.inMemory ? undefined : join(options.baseDir, '.tealworks', 'devnet');
    const unlock = dataDir ? lockDataDir(dataDir) : () => {};
    let devnet: RunningDevnet;
    try {
      devnet = await startDevnet({ ...(dataDir ? { dataDir } : { inMemory: true }), ports: { node: 0, query: 0, kmd: 0 } });
    } catch (e) {
      unlock();
      throw e;
    }
    try {
      const net = await devnetNetwork(devnet, true);
      const close = net.close;
      return { ...net, close: async () => {
        try {
          await close();
        } finally {
          unlock();
        }
      } };
    } catch (e) {
      await devnet.stop();
      unlock();
      throw e;
    }
  }
  const profile = networkProfileFor(spec, env);
  const chain: AppChain = { node: nodeAdapterFor(profile), ...(profile.query ? { query: queryClientFor(profile) } : {}) };
  const kmd = profile.keyManager ? keyManagerFor(profile) : undefined;
  const isDev = spec.kind === 'named' ? spec.name === 'localnet' : /localhost|127\.0\.0\.1/.test(spec.node);
  let chainId: string;
  try {
    chainId = await chainIdOf(chain);
  } catch (e) {
    await Promise.allSettled([chain.node.close(), chain.query?.close(), kmd?.close()]);
    throw new NetworkConnectError(`cannot reach the ${spec.name} node at ${profile.node.url}: ${(e as Error).message}`);
  }
  const dispenser = isDev && kmd ? await walletDispenser(kmd, chain) : undefined;
  return {
    name: spec.name,
    chain,
    profile,
    ...(kmd ? { kmd } : {}),
    ...(dispenser ? { dispenser: { address: dispenser.address, signer: dispenser.signer } } : {}),
    chainId,
    isDev,
    embedded: false,
    close: async () => {
      if (dispenser) await dispenser.session.close();
      await Promise.allSettled([chain.node.close(), chain.query?.close(), kmd?.close()]);
    },
  };
}
