import { PUBLIC_ENDPOINTS, localnetProfile, publicProfile, type NetworkProfile } from '../adapters/profiles.js';
import { ConnectError } from '../errors.js';
import type { NetworkSpec } from './model.js';

/*
 * A workflow's `network` → the service endpoints to use. The embedded devnet's endpoints are only
 * known once it runs, so the caller passes them; tokens of custom networks come from environment
 * variables named in the file and never appear in messages.
 */

/** Public endpoints used for `testnet` / `mainnet` (free, no token): the adapters' profile constant. */
export { PUBLIC_ENDPOINTS };

function tokenFrom(env: Readonly<Record<string, string | undefined>>, name: string | undefined, what: string): string | undefined {
  if (name === undefined) return undefined;
  const v = env[name];
  if (v === undefined || v === '')
    throw new ConnectError(`the ${what} token is read from the environment variable ${name}, which is not set;`, {
      hint: `set ${name} before running the workflow`,
    });
  return v;
}

/** The service endpoints of a workflow's network (tokens from the environment variables the file names). */
export function networkProfileFor(spec: NetworkSpec, env: Readonly<Record<string, string | undefined>>, devnet?: NetworkProfile): NetworkProfile {
  if (spec.kind === 'named') {
    if (spec.name === 'devnet') {
      if (!devnet) throw new ConnectError('the devnet profile is only known once the embedded devnet runs;', { hint: 'start it first' });
      return devnet;
    }
    if (spec.name === 'localnet') return localnetProfile();
    const p = PUBLIC_ENDPOINTS[spec.name];
    return publicProfile(spec.name, p.node, p.query);
  }
  const token = tokenFrom(env, spec.tokenEnv, 'node and query');
  const keyManagerToken = spec.kmdTokenEnv !== undefined ? tokenFrom(env, spec.kmdTokenEnv, 'key manager') : token;
  const t = (v: string | undefined) => (v !== undefined ? { token: v } : {});
  return {
    name: spec.name,
    node: { api: spec.api ?? 'algod', url: spec.node, ...t(token) },
    ...(spec.query ? { query: { url: spec.query, ...t(token) } } : {}),
    ...(spec.kmd ? { keyManager: { url: spec.kmd, ...t(keyManagerToken) } } : {}),
  };
}
