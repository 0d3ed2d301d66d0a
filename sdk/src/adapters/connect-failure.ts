// Why connecting to a network's node failed, in words that say what to change: the token (401/403),
// the node API (404: probes whether the server speaks the other one), or the node not running
// (refused, timed out). Shared by the client's connect and by workflow runs.
import { ConnectError } from '../errors.js';
import { HttpError, NetworkError, TimeoutError } from './http/errors.js';
import { AlgodAdapter } from './node/algod.js';
import { NodeServiceAdapter } from './node/node-service.js';
import type { NetworkProfile } from './profiles.js';

/** A connect failure turned into what to do about it (401: the token; 404: the API; refused: start it). */
export async function explainConnectFailure(e: unknown, profile: NetworkProfile, tokenSource: string): Promise<ConnectError> {
  const url = profile.node.url;
  if (e instanceof HttpError && (e.status === 401 || e.status === 403)) {
    return new ConnectError(`the node at ${url} refused the API token (HTTP ${e.status}).`, {
      url,
      hint: `Check the token: it comes from ${tokenSource}`,
      cause: e,
    });
  }
  if (e instanceof HttpError && e.status === 404) {
    const other = profile.node.api === 'algod' ? 'node-service' : 'algod';
    const probe =
      other === 'algod'
        ? new AlgodAdapter({ url, ...(profile.node.token ? { token: profile.node.token } : {}), retry: false })
        : new NodeServiceAdapter({ url, ...(profile.node.token ? { token: profile.node.token } : {}), retry: false });
    let speaksOther = false;
    try {
      await probe.suggestedParams();
      speaksOther = true;
    } catch {
      speaksOther = false;
    } finally {
      await probe.close();
    }
    const api = (k: string) => (k === 'algod' ? 'public algod /v2 node API' : 'Tealworks node-service /v1 API');
    const hint = speaksOther
      ? `it speaks the ${api(other)}: ${other === 'node-service' ? 'set NODE_API=node-service (or use Tealworks.connect.devnet())' : 'unset NODE_API (or use Tealworks.connect.localnet())'}`
      : 'check the URL and port: this server speaks neither node API';
    return new ConnectError(
      `the server at ${url} has no ${e.url.replace(/^[a-z]+:\/\/[^/]+/, '')} (HTTP 404); it does not speak the ${api(profile.node.api)};`,
      { url, hint, cause: e },
    );
  }
  if (e instanceof NetworkError || e instanceof TimeoutError) {
    const start =
      profile.name === 'localnet'
        ? 'Start it (e.g. `npx tealworks devnet --localnet`, or AlgoKit LocalNet).'
        : profile.name === 'devnet'
          ? 'Start it with `npx tealworks devnet`.'
          : undefined;
    return new ConnectError(`cannot reach the ${profile.name} node at ${url}: ${e.message}.`, { url, ...(start ? { hint: start } : {}), cause: e });
  }
  return new ConnectError(`connecting to the ${profile.name} node at ${url} failed: ${e instanceof Error ? e.message : String(e)}`, { url, cause: e });
}
