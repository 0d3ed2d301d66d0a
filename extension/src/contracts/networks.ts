// Which networks the extension knows and how each becomes a NetworkProfile. Tokens are not in
// settings: the caller passes what it read from SecretStorage. Pure, so it is unit-testable.
import { localnetProfile, type NetworkProfile } from '@tealworks/sdk/adapters';

export const DEVNET = 'devnet';
export const LOCALNET = 'localnet';

/** A user-added network, as stored in the `tealworks.networks` setting (never with a token). */
export interface CustomNetwork {
  name: string;
  nodeUrl: string;
  queryUrl?: string;
  keyManagerUrl?: string;
  /** `algod` (public /v2 node API, the default) or `node-service`. */
  api?: 'algod' | 'node-service';
}

export interface NetworkSecrets {
  nodeToken?: string;
  queryToken?: string;
  keyManagerToken?: string;
}

/**
 * Whether a settings change moves the active network's endpoints, so its clients must be made
 * again at once (not at the next network switch): `tealworks.localnet.*` for LocalNet,
 * `tealworks.networks` for a user-added network; never for the embedded devnet, whose endpoints
 * are its own. `affects` is VS Code's `ConfigurationChangeEvent.affectsConfiguration`.
 */
export function settingsMoveEndpoints(activeName: string, affects: (section: string) => boolean): boolean {
  if (activeName === DEVNET) return false;
  return activeName === LOCALNET ? affects('tealworks.localnet') : affects('tealworks.networks');
}

export class NetworkConfigError extends Error {
  override name = 'NetworkConfigError';
}

/** Checks a URL the user typed: http(s) only, no credentials or query in it. Returns it without a trailing slash. */
export function checkServiceUrl(text: string, what: string): string {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    throw new NetworkConfigError(`${what}: ${JSON.stringify(text.slice(0, 80))} is not a URL (expected e.g. https://testnet-api.example.net)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new NetworkConfigError(`${what}: only http and https URLs are supported`);
  if (u.username || u.password) throw new NetworkConfigError(`${what}: put the token in the token prompt, not in the URL`);
  if (u.search || u.hash) throw new NetworkConfigError(`${what}: the URL must not have a query or fragment`);
  if (/\s/.test(text.trim())) throw new NetworkConfigError(`${what}: a URL has no spaces`);
  // A host the URL parser accepts but no network has: "http://x" typed half-way, "http://.", "http://-".
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!/^([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)$/.test(host)) {
    throw new NetworkConfigError(`${what}: "${u.hostname}" is not a host name (expected e.g. testnet-api.example.net, localhost or 10.0.0.2)`);
  }
  if (/\/v[12]\/?$/.test(u.pathname)) throw new NetworkConfigError(`${what}: leave out ${u.pathname.replace(/\/$/, '')}: the client adds the API path itself`);
  return u.href.replace(/\/+$/, '');
}

/** Checks a network's name: not blank, 1-40 plain characters, not built in, not taken (case-insensitively). Returns it trimmed. */
export function checkNetworkName(name: string, existing: readonly string[]): string {
  const n = name.trim();
  if (!n) throw new NetworkConfigError('give the network a name (it is shown in the Networks view and the status bar)');
  if (!/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,39}$/.test(n))
    throw new NetworkConfigError('a network name is 1-40 letters, digits, spaces, dots, dashes or underscores');
  if (n.toLowerCase() === DEVNET || n.toLowerCase() === LOCALNET) throw new NetworkConfigError(`${n} is built in`);
  const taken = existing.find((e) => e.trim().toLowerCase() === n.toLowerCase());
  if (taken !== undefined) throw new NetworkConfigError(`a network named ${taken} already exists`);
  return n;
}

/** Reads the setting leniently: malformed entries are skipped and reported. */
export function parseCustomNetworks(value: unknown): { networks: CustomNetwork[]; problems: string[] } {
  const networks: CustomNetwork[] = [];
  const problems: string[] = [];
  if (!Array.isArray(value)) return { networks, problems: value === undefined ? [] : ['tealworks.networks must be a list'] };
  value.forEach((raw, i) => {
    const r = (raw ?? {}) as Record<string, unknown>;
    try {
      if (typeof r.name !== 'string' || typeof r.nodeUrl !== 'string') throw new NetworkConfigError('needs name and nodeUrl');
      // The same rules as the Add Network form: no blank, built-in or repeated names.
      const name = checkNetworkName(
        r.name,
        networks.map((x) => x.name),
      );
      const n: CustomNetwork = { name, nodeUrl: checkServiceUrl(r.nodeUrl, `${name} node`) };
      if (typeof r.queryUrl === 'string' && r.queryUrl) n.queryUrl = checkServiceUrl(r.queryUrl, `${r.name} query`);
      if (typeof r.keyManagerUrl === 'string' && r.keyManagerUrl) n.keyManagerUrl = checkServiceUrl(r.keyManagerUrl, `${r.name} key manager`);
      if (r.api === 'node-service') n.api = 'node-service';
      networks.push(n);
    } catch (e) {
      problems.push(`tealworks.networks[${i}]: ${(e as Error).message}`);
    }
  });
  return { networks, problems };
}

/** The profile for a custom network with its secrets filled in. */
export function customProfile(n: CustomNetwork, secrets: NetworkSecrets = {}): NetworkProfile {
  const tok = (t: string | undefined) => (t ? { token: t } : {});
  return {
    name: n.name,
    node: { api: n.api ?? 'algod', url: n.nodeUrl, ...tok(secrets.nodeToken) },
    ...(n.queryUrl ? { query: { url: n.queryUrl, ...tok(secrets.queryToken ?? secrets.nodeToken) } } : {}),
    ...(n.keyManagerUrl ? { keyManager: { url: n.keyManagerUrl, ...tok(secrets.keyManagerToken) } } : {}),
  };
}

/** LocalNet's well-known ports, optionally on another host. */
export function localnetProfileFor(host: string | undefined): NetworkProfile {
  return localnetProfile(host ? host.replace(/\/+$/, '') : undefined);
}

/** Sending here needs no confirmation: the embedded devnet's coins are worthless. */
export function needsConfirmation(networkName: string): boolean {
  return networkName !== DEVNET;
}

/** SecretStorage key for one secret of one network. */
export function secretKey(network: string, which: keyof NetworkSecrets | 'mnemonic', account?: string): string {
  return `tealworks.${network}.${which}${account ? `.${account}` : ''}`;
}
