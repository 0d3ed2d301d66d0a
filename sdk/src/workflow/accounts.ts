import { chmod, mkdir, readFile, writeFile, rename } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { KeyManagerSigner, LocalSigner, type Signer } from '../adapters/signer.js';
import { signerFromKeystoreFile } from '../adapters/keystore.js';
import { Ed25519KeyPair } from '../crypto/ed25519.js';
import { fromBase64, toBase64 } from '../encoding/base64.js';
import { encodeAddress } from '../encoding/address.js';
import { TealworksError } from '../errors.js';
import type { WalletSession } from '../adapters/kmd/client.js';
import type { AccountSpec } from './model.js';
import type { WorkflowNetwork } from './connect.js';

/*
 * Turning `accounts:` into addresses and signers. Generated accounts (dev networks only) keep their
 * key in `.tealworks/keys/<network>.json` (mode 0600) beside the workflow so reruns act as the same
 * accounts; secrets from the environment or the key manager are never written anywhere.
 */

/** An account of a workflow that cannot be made (missing variable, bad mnemonic, unknown key). */
export class AccountError extends TealworksError {}

/** One workflow account: address, signer and where it came from. */
export interface ResolvedAccount {
  name: string;
  address: string;
  signer?: Signer;
  source: AccountSpec['source'];
}

/** A workflow's accounts by name, with their signers. */
export interface AccountSet {
  byName: Map<string, ResolvedAccount>;
  signerFor(address: string): Signer | undefined;
  /** Adds a signer (e.g. a logic signature for its escrow address). */
  addSigner(address: string, signer: Signer): void;
  close(): Promise<void>;
}

async function loadKeys(path: string): Promise<Record<string, string>> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new AccountError(`cannot read generated keys at ${path}: ${(e as Error).message}`);
  }
}

async function saveKeys(path: string, keys: Record<string, string>): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}

function keystorePath(name: string, baseDir: string): string {
  if (name.endsWith('.json') || name.includes('/')) return isAbsolute(name) ? name : resolve(baseDir, name);
  return join(homedir(), '.tealworks', 'keystore', `${name}.json`);
}

/** Makes a workflow's accounts (generated, from mnemonics, the key manager or keystores) and funds those that ask. */
export async function resolveAccounts(
  specs: Record<string, AccountSpec>,
  network: WorkflowNetwork,
  options: { baseDir: string; networkKey: string; env: Readonly<Record<string, string | undefined>>; persistKeys: boolean },
): Promise<AccountSet> {
  const byName = new Map<string, ResolvedAccount>();
  const sessions: WalletSession[] = [];
  const keysPath = join(options.baseDir, '.tealworks', 'keys', `${options.networkKey.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`);
  let keys: Record<string, string> | undefined;
  let keysChanged = false;
  for (const [name, spec] of Object.entries(specs)) {
    switch (spec.source) {
      case 'generate': {
        if (!network.isDev) throw new AccountError(`account ${name}: generated accounts are only for dev networks (devnet, localnet)`);
        keys ??= await loadKeys(keysPath);
        let seed = keys[name] ? fromBase64(keys[name]!) : undefined;
        if (!seed) {
          seed = crypto.getRandomValues(new Uint8Array(32));
          keys[name] = toBase64(seed);
          keysChanged = true;
        }
        const signer = LocalSigner.fromSeed(seed);
        byName.set(name, { name, address: encodeAddress(Ed25519KeyPair.fromSeed(seed).publicKey), signer, source: spec.source });
        break;
      }
      case 'mnemonic-env': {
        const phrase = options.env[spec.mnemonicEnv!];
        if (!phrase) throw new AccountError(`account ${name}: the environment variable ${spec.mnemonicEnv} (its mnemonic) is not set`);
        const signer = LocalSigner.fromMnemonic(phrase);
        byName.set(name, { name, address: signer.addresses[0]!, signer, source: spec.source });
        break;
      }
      case 'kmd': {
        if (!network.keyManager) throw new AccountError(`account ${name}: this network has no key manager configured`);
        const k = spec.kmd ?? {};
        const password = k.passwordEnv ? options.env[k.passwordEnv] : '';
        if (password === undefined) throw new AccountError(`account ${name}: the environment variable ${k.passwordEnv} (the wallet password) is not set`);
        const session = await network.keyManager.openWallet(k.wallet ?? 'unencrypted-default-wallet', password);
        sessions.push(session);
        const list = await session.listKeys();
        const address = k.address ?? list[0];
        if (!address || !list.includes(address))
          throw new AccountError(
            `account ${name}: wallet ${k.wallet ?? 'unencrypted-default-wallet'} ${address ? `has no key for ${address}` : 'has no keys'}`,
          );
        byName.set(name, { name, address, signer: new KeyManagerSigner(session), source: spec.source });
        break;
      }
      case 'keystore': {
        const password = options.env.TEALWORKS_KEYSTORE_PASSWORD;
        if (password === undefined)
          throw new AccountError(`account ${name}: set TEALWORKS_KEYSTORE_PASSWORD to unlock keystore ${JSON.stringify(spec.keystore)}`);
        const signer = await signerFromKeystoreFile(keystorePath(spec.keystore!, options.baseDir), password);
        byName.set(name, { name, address: signer.addresses[0]!, signer, source: spec.source });
        break;
      }
      case 'address':
        byName.set(name, { name, address: spec.address!, source: spec.source });
        break;
    }
  }
  if (keysChanged && keys && options.persistKeys) await saveKeys(keysPath, keys);
  const byAddress = new Map<string, Signer>();
  for (const a of byName.values()) if (a.signer) byAddress.set(a.address, a.signer);
  if (network.dispenser && !byAddress.has(network.dispenser.address)) byAddress.set(network.dispenser.address, network.dispenser.signer);
  return {
    byName,
    signerFor: (address) => byAddress.get(address),
    addSigner: (address, signer) => {
      byAddress.set(address, signer);
    },
    close: async () => {
      await Promise.allSettled(sessions.map((s) => s.close()));
    },
  };
}
