import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TealworksError } from '../../errors.js';

/** The configuration file of a data directory, as the node names it. */
export const NODE_CONFIG_FILE = 'config.json';

/**
 * Node settings of a data directory's `config.json`, under the node's own key names, so one file
 * serves both the devnet and a node. The devnet acts on the settings documented on each member;
 * any other key is kept in the file and ignored.
 */
export interface NodeConfig {
  /** Follower mode (node-service.md): no transactions, paused at sync round 0, deltas of the sync window. Needs a source (`--follow URL`). */
  EnableFollowMode?: boolean;
  /** Width of the delta window: rounds R .. R + MaxAcctLookback - 1 on a follower, the latest ones otherwise. The devnet's default is 64 (the suggested value); the node's is 4. */
  MaxAcctLookback?: number;
  /** Blocks a follower fetches at once while catching up (default 16). */
  CatchupParallelBlocks?: number;
  /** `host:port` of the node service (port 0 = any free port). Command-line `--host`/`--ports` win. */
  EndpointAddress?: string;
  /** Developer operations. Recorded; the devnet's node service serves its operations whatever the value. */
  EnableDeveloperAPI?: boolean;
  /** Dev mode (default true): each submitted group is committed at once in its own block. False: blocks every `--block-interval` ms (3000 if not given). */
  DevMode?: boolean;
  /** Serve the node service without checking its API token. */
  DisableAPIAuth?: boolean;
  /** Any other setting of the node (kept as written, not acted on). */
  [key: string]: unknown;
}

/** A data directory's configuration file is unreadable or has a setting of the wrong type. */
export class NodeConfigError extends TealworksError {}

const BOOLEAN_KEYS = ['EnableFollowMode', 'EnableDeveloperAPI', 'DevMode', 'DisableAPIAuth'] as const;
const POSITIVE_INT_KEYS: readonly [key: string, max: number][] = [
  ['MaxAcctLookback', 100_000],
  ['CatchupParallelBlocks', 256],
];

/** Checks the settings the devnet acts on; throws `NodeConfigError` naming the key and the file. */
export function validateNodeConfig(cfg: unknown, where = NODE_CONFIG_FILE): NodeConfig {
  if (typeof cfg !== 'object' || cfg === null || Array.isArray(cfg)) throw new NodeConfigError(`${where} must hold a JSON object of settings`);
  const c = cfg as Record<string, unknown>;
  for (const k of BOOLEAN_KEYS) {
    if (c[k] !== undefined && typeof c[k] !== 'boolean') throw new NodeConfigError(`${where}: ${k} must be true or false, got ${JSON.stringify(c[k])}`);
  }
  for (const [k, max] of POSITIVE_INT_KEYS) {
    const v = c[k];
    if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= max))
      throw new NodeConfigError(`${where}: ${k} must be a whole number from 1 to ${max}, got ${JSON.stringify(v)}`);
  }
  if (c.EndpointAddress !== undefined) parseEndpointAddress(c.EndpointAddress, where);
  return c as NodeConfig;
}

/** `host:port`, `[v6]:port` or `:port` (any address) → host and port. */
export function parseEndpointAddress(v: unknown, where = NODE_CONFIG_FILE): { host: string | undefined; port: number } {
  const m = typeof v === 'string' ? /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(v) : null;
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new NodeConfigError(`${where}: EndpointAddress must be "host:port" (port 0 = any free port), got ${JSON.stringify(v)}`);
  const host = m[1] ?? m[2];
  return { host: host === '' ? undefined : host, port };
}

/** Reads `<dir>/config.json`; an absent file is an empty configuration. */
export function readNodeConfig(dir: string): NodeConfig {
  const path = join(dir, NODE_CONFIG_FILE);
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new NodeConfigError(
      `${path} is not valid JSON: ${(e as Error).message}; fix it or write a profile with \`tealworks node profile set <profile> -d ${dir} -y\``,
    );
  }
  return validateNodeConfig(parsed, path);
}

/** Writes `<dir>/config.json` atomically (a reader never sees half a file). */
export function writeNodeConfig(dir: string, cfg: NodeConfig): string {
  const path = join(dir, NODE_CONFIG_FILE);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(cfg, null, 2) + '\n');
  renameSync(tmp, path);
  return path;
}

/** A named set of settings, after the node's configuration profiles. */
export interface NodeProfile {
  name: string;
  /** One line on what the profile is for and what it sets. */
  description: string;
  settings: NodeConfig;
}

/**
 * The four profiles of node-service.md, with the settings the node's own profiles write (its
 * `relay` is the websocket relay profile). `development` also sets `DevMode`, which the node keeps
 * in its genesis rather than in config.json; here it is the devnet's dev-mode switch.
 */
export const NODE_PROFILES: readonly NodeProfile[] = [
  {
    name: 'participation',
    description: 'Take part in consensus or just validate blocks: the default settings (a regular devnet that takes transactions).',
    settings: {},
  },
  {
    name: 'conduit',
    description: 'Provide data for indexing tools: a follower (EnableFollowMode) with a 64-round delta window, fetching 64 blocks at once.',
    settings: { EnableFollowMode: true, MaxAcctLookback: 64, CatchupParallelBlocks: 64 },
  },
  {
    name: 'relay',
    description: 'Relay consensus messages and serve blocks and ledger state for catch-up (block and ledger services, 22000 rounds of history, catchpoints).',
    settings: {
      MaxBlockHistoryLookback: 22000,
      CatchpointFileHistoryLength: 3,
      CatchpointTracking: 2,
      EnableLedgerService: true,
      EnableBlockService: true,
      NetAddress: ':4160',
    },
  },
  {
    name: 'development',
    description: 'Build contracts: dev mode, developer and experimental APIs, no API token, a 256-round delta window, transaction-group deltas.',
    settings: {
      EnableExperimentalAPI: true,
      EnableDeveloperAPI: true,
      MaxAcctLookback: 256,
      EnableTxnEvalTracer: true,
      DisableAPIAuth: true,
      DevMode: true,
    },
  },
];

/** The profile of that name, or a `NodeConfigError` listing the valid names. */
export function nodeProfile(name: string): NodeProfile {
  const p = NODE_PROFILES.find((x) => x.name === name);
  if (!p) throw new NodeConfigError(`unknown profile "${name}": the profiles are ${NODE_PROFILES.map((x) => x.name).join(', ')}`);
  return p;
}
