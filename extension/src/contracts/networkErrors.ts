// What the editor says when a network cannot be reached: instead of the socket's code
// (`ECONNREFUSED`, `ENOTFOUND`), what happened in words, what to do next, and the actions the
// notification offers (VS Code's convention: an error notification with buttons). Pure (no vscode
// import), so the wording is unit-tested.
import { NetworkError, TimeoutError } from '@tealworks/sdk/adapters';
import { DEVNET, LOCALNET } from './networks.js';

/** A button of the notification; main.ts runs it. */
export type NetworkAction = 'Start Devnet' | 'Switch to Devnet' | 'Open Settings' | 'Switch Network';

export interface NetworkProblem {
  /** One or two sentences: what failed, where, and what to do. */
  message: string;
  actions: NetworkAction[];
}

/** The first NetworkError or TimeoutError in `error`'s cause chain. */
function requestFailure(error: unknown): NetworkError | TimeoutError | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 6 && e && typeof e === 'object'; depth++) {
    if (e instanceof NetworkError || e instanceof TimeoutError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `http://host:port` of a request URL (path, query and credentials left out). */
export function endpointOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return url;
  }
}

/**
 * A network failure explained for the network it happened on, or undefined when `error` is not a
 * failure to reach a service (a rejected transaction, a bad form value …: shown as they are).
 */
export function describeNetworkError(error: unknown, network: string): NetworkProblem | undefined {
  const e = requestFailure(error);
  if (!e) return undefined;
  const where = endpointOf(e.url);
  const code = e instanceof NetworkError ? e.code : undefined;
  const settingHint = network === LOCALNET ? 'tealworks.localnet.host' : network === DEVNET ? undefined : `the ${network} entry of tealworks.networks`;
  const actions: NetworkAction[] =
    network === DEVNET ? ['Start Devnet'] : network === LOCALNET ? ['Open Settings', 'Switch to Devnet'] : ['Open Settings', 'Switch Network'];
  let what: string;
  let todo: string;
  if (e instanceof TimeoutError || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    what = `${network} did not answer in time at ${where}.`;
    todo = `The node may be busy or your connection slow or offline: try again${settingHint ? `, or check ${settingHint}` : ''}.`;
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    what = `Cannot reach ${network}: the host name in ${where} was not found.`;
    todo = `Check the URL${settingHint ? ` (${settingHint})` : ''}, and that you are online.`;
  } else if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') {
    what = `Cannot reach ${network} at ${where}: no route to that host.`;
    todo = 'Check that you are online (and any VPN or proxy).';
  } else if (code === 'ECONNREFUSED') {
    what = `Cannot reach ${network}: nothing answers at ${where}.`;
    todo =
      network === DEVNET
        ? 'The devnet is not running: start it.'
        : network === LOCALNET
          ? 'Start LocalNet (algokit localnet start), or set tealworks.localnet.host to where it runs; the embedded devnet needs no set-up.'
          : `Check that its node is running and that ${settingHint} has the right URL.`;
  } else {
    what = `The connection to ${network} at ${where} failed${code ? ` (${code})` : ''}.`;
    todo = 'Try again; if it keeps failing, check that the node is running.';
  }
  return { message: `${what} ${todo}`, actions };
}

/** The text to show for any error: a network failure explained, anything else as it is. */
export function errorMessageFor(error: unknown, network: string): string {
  return describeNetworkError(error, network)?.message ?? (error instanceof Error ? error.message : String(error));
}
