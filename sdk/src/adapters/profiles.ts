import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { AdapterError } from './http/errors.js';
import type { ConnectionOptions } from './http/connection.js';
import { AlgodAdapter } from './node/algod.js';
import { NodeServiceAdapter } from './node/node-service.js';
import type { NodeAdapter } from './node/adapter.js';
import { QueryClient } from './query/client.js';
import { KeyManagerClient } from './kmd/client.js';

/** Where the three services of one network live. */
export interface NetworkProfile {
  name: string;
  node: ServiceEndpoint & { api: 'node-service' | 'algod' };
  query?: ServiceEndpoint;
  keyManager?: ServiceEndpoint;
}

/** Where one service of a network lives: URL, token and the header that carries it. */
export interface ServiceEndpoint {
  url: string;
  token?: string;
  tokenHeader?: string;
}

/** A network profile that cannot be built (bad URL, unknown name, invalid config file). */
export class ProfileError extends AdapterError {}

/** The usual local node set-up (AlgoKit LocalNet and the older sandbox): fixed ports and a well-known development token. */
export const LOCALNET_TOKEN = 'a'.repeat(64);

/** The usual local node: node on 4001, query service on 8980, key manager on 4002, development token. */
export function localnetProfile(host = 'http://localhost'): NetworkProfile {
  return {
    name: 'localnet',
    node: { api: 'algod', url: `${host}:4001`, token: LOCALNET_TOKEN },
    query: { url: `${host}:8980`, token: LOCALNET_TOKEN },
    keyManager: { url: `${host}:4002`, token: LOCALNET_TOKEN },
  };
}

/**
 * The embedded devnet speaks the specified services (node-service.md and friends). A devnet picks
 * free ports unless told otherwise; these are the ports to pass it for a fixed, predictable set-up
 * (prefer {@link profileFromDevnet} with the running devnet's own report).
 */
export const DEVNET_DEFAULT_PORTS = Object.freeze({ node: 4101, query: 4180, keyManager: 4102 });

/** A profile for an embedded devnet on known ports (prefer `profileFromDevnet` with a running devnet). */
export function devnetProfile(ports: Partial<typeof DEVNET_DEFAULT_PORTS> = {}, token?: string, host = 'http://127.0.0.1'): NetworkProfile {
  const p = { ...DEVNET_DEFAULT_PORTS, ...ports };
  const t = token !== undefined ? { token } : {};
  return {
    name: 'devnet',
    node: { api: 'node-service', url: `${host}:${p.node}`, ...t },
    query: { url: `${host}:${p.query}`, ...t },
    keyManager: { url: `${host}:${p.keyManager}`, ...t },
  };
}

/**
 * The profile of a running embedded devnet, from what it reports on start (its ports are picked
 * at start-up and its tokens are generated per data directory, so they cannot be known before).
 */
export function profileFromDevnet(running: {
  node: { url: string; token: string };
  query: { url: string; token: string };
  keyManager: { url: string; token: string };
}): NetworkProfile {
  return {
    name: 'devnet',
    node: { api: 'node-service', url: running.node.url, token: running.node.token },
    query: { url: running.query.url, token: running.query.token },
    keyManager: { url: running.keyManager.url, token: running.keyManager.token },
  };
}

/** Public endpoints used for `testnet` / `mainnet` (free, no token). */
export const PUBLIC_ENDPOINTS: Readonly<Record<'testnet' | 'mainnet', { node: string; query: string }>> = {
  testnet: { node: 'https://testnet-api.4160.nodely.dev', query: 'https://testnet-idx.4160.nodely.dev' },
  mainnet: { node: 'https://mainnet-api.4160.nodely.dev', query: 'https://mainnet-idx.4160.nodely.dev' },
};

/** Any public network by URL (public /v2 node API; query service optional). */
export function publicProfile(name: string, nodeUrl: string, queryUrl?: string, token?: string): NetworkProfile {
  const t = token !== undefined ? { token } : {};
  return { name, node: { api: 'algod', url: nodeUrl, ...t }, ...(queryUrl ? { query: { url: queryUrl, ...t } } : {}) };
}

function joinServerPort(server: string, port: string | undefined): string {
  const trimmed = server.replace(/\/+$/, '');
  if (!port) return trimmed;
  try {
    const u = new URL(trimmed);
    u.port = port;
    return u.href.replace(/\/+$/, '');
  } catch {
    throw new ProfileError(`server ${JSON.stringify(trimmed)} is not a URL (expected e.g. http://localhost)`);
  }
}

/**
 * The ecosystem's environment variables (ALGOD_SERVER/PORT/TOKEN, INDEXER_…, KMD_…). Returns
 * undefined when ALGOD_SERVER is not set. `NODE_API=node-service` selects the /v1 node service.
 */
export function profileFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): NetworkProfile | undefined {
  const server = env.ALGOD_SERVER;
  if (!server) return undefined;
  const endpoint = (prefix: string): ServiceEndpoint | undefined => {
    const s = env[`${prefix}_SERVER`];
    if (!s) return undefined;
    const token = env[`${prefix}_TOKEN`];
    return { url: joinServerPort(s, env[`${prefix}_PORT`]), ...(token ? { token } : {}) };
  };
  const node = endpoint('ALGOD')!;
  const query = endpoint('INDEXER');
  const keyManager = endpoint('KMD');
  return {
    name: env.TEALWORKS_NETWORK ?? 'env',
    node: { ...node, api: env.NODE_API === 'node-service' ? 'node-service' : 'algod' },
    ...(query ? { query } : {}),
    ...(keyManager ? { keyManager } : {}),
  };
}

function endpointFromYaml(value: unknown, where: string): ServiceEndpoint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return { url: value };
  if (typeof value !== 'object') throw new ProfileError(`${where}: expected a URL or a mapping with server/url, port, token`);
  const v = value as Record<string, unknown>;
  const server = v.url ?? v.server;
  if (typeof server !== 'string') throw new ProfileError(`${where}: missing server (or url)`);
  const port = v.port === undefined ? undefined : String(v.port);
  const out: ServiceEndpoint = { url: joinServerPort(server, port) };
  if (v.token !== undefined) out.token = String(v.token);
  if (typeof v.tokenHeader === 'string') out.tokenHeader = v.tokenHeader;
  return out;
}

/**
 * `tealworks.config.yaml`: a `network` key naming the active profile and a `networks` map.
 * Each network has `node` (with `api: algod | node-service`), optional `query` and `keyManager`
 * (also accepted: `algod`, `indexer`, `kmd`). `devnet` and `localnet` exist without being declared.
 */
export function profilesFromYaml(text: string): { active: string; profiles: Map<string, NetworkProfile> } {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new ProfileError(`tealworks.config.yaml is not valid YAML: ${(e as Error).message}`);
  }
  const root = (doc ?? {}) as Record<string, unknown>;
  const profiles = new Map<string, NetworkProfile>([
    ['devnet', devnetProfile()],
    ['localnet', localnetProfile()],
  ]);
  const networks = (root.networks ?? {}) as Record<string, unknown>;
  if (typeof networks !== 'object') throw new ProfileError('tealworks.config.yaml: `networks` must be a mapping');
  for (const [name, raw] of Object.entries(networks)) {
    const n = (raw ?? {}) as Record<string, unknown>;
    const node = endpointFromYaml(n.node ?? n.algod, `networks.${name}.node`);
    if (!node) throw new ProfileError(`networks.${name}: a node (or algod) endpoint is required`);
    const nodeRaw = (n.node ?? n.algod) as Record<string, unknown>;
    const api = typeof nodeRaw === 'object' && nodeRaw?.api === 'node-service' ? 'node-service' : 'algod';
    const query = endpointFromYaml(n.query ?? n.indexer, `networks.${name}.query`);
    const keyManager = endpointFromYaml(n.keyManager ?? n.kmd, `networks.${name}.keyManager`);
    profiles.set(name, { name, node: { ...node, api }, ...(query ? { query } : {}), ...(keyManager ? { keyManager } : {}) });
  }
  const active = typeof root.network === 'string' ? root.network : 'devnet';
  if (!profiles.has(active))
    throw new ProfileError(`tealworks.config.yaml: network ${JSON.stringify(active)} is not defined (known: ${[...profiles.keys()].join(', ')})`);
  return { active, profiles };
}

/** Resolution order: explicit name in the config file > environment variables > config file's active network > devnet. */
export async function resolveProfile(
  options: { configPath?: string; name?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<NetworkProfile> {
  let fromFile: { active: string; profiles: Map<string, NetworkProfile> } | undefined;
  if (options.configPath) {
    let text: string | undefined;
    try {
      text = await readFile(options.configPath, 'utf8');
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw new ProfileError(`cannot read ${options.configPath}: ${(e as Error).message}`);
    }
    if (text !== undefined) fromFile = profilesFromYaml(text);
  }
  if (options.name) {
    const p =
      fromFile?.profiles.get(options.name) ?? (options.name === 'localnet' ? localnetProfile() : options.name === 'devnet' ? devnetProfile() : undefined);
    if (!p) throw new ProfileError(`unknown network ${JSON.stringify(options.name)}`);
    return p;
  }
  const env = profileFromEnv(options.env ?? process.env);
  if (env) return env;
  if (fromFile) return fromFile.profiles.get(fromFile.active)!;
  return devnetProfile();
}

type Extra = Omit<ConnectionOptions, 'url' | 'token' | 'tokenHeader'>;

function conn(e: ServiceEndpoint, extra: Extra): ConnectionOptions {
  return { ...extra, url: e.url, ...(e.token !== undefined ? { token: e.token } : {}), ...(e.tokenHeader ? { tokenHeader: e.tokenHeader } : {}) };
}

/** The node adapter for the profile's API: `NodeServiceAdapter` (/v1) or `AlgodAdapter` (/v2). */
export function nodeAdapterFor(profile: NetworkProfile, extra: Extra = {}): NodeAdapter {
  return profile.node.api === 'node-service' ? new NodeServiceAdapter(conn(profile.node, extra)) : new AlgodAdapter(conn(profile.node, extra));
}

/** A query-service client for the profile; throws when the network has none. */
export function queryClientFor(profile: NetworkProfile, extra: Extra = {}): QueryClient {
  if (!profile.query) throw new ProfileError(`network ${profile.name} has no query service configured`);
  return new QueryClient(conn(profile.query, extra));
}

/** A key-manager client for the profile; throws when the network has none. */
export function keyManagerFor(profile: NetworkProfile, extra: Extra = {}): KeyManagerClient {
  if (!profile.keyManager) throw new ProfileError(`network ${profile.name} has no key manager configured`);
  return new KeyManagerClient(conn(profile.keyManager, extra));
}
