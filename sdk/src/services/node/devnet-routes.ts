import { decodeAddress } from '../../encoding/address.js';
import { fromBase64 } from '../../encoding/base64.js';
import { TealworksError } from '../../errors.js';
import { LedgerNotFoundError, LedgerStoreError } from '../../ledger/errors.js';
import { BadRequestError, HttpError, NotFoundError } from '../http/errors.js';
import { jsonReply } from '../http/reply.js';
import type { Reply, RequestContext } from '../http/types.js';
import type { NodeContext, NodeEndpoint } from './routes.js';

/*
 * The devnet's cheat routes (`/v1/devnet/…`): snapshots and direct control of the chain for tests
 * written in any language, the CLI and the extension. They sit behind the node's API token like
 * every other route, and a node that is not a devnet (a follower of a real network, or a node
 * service started without cheats) refuses them with 403.
 */

/** A node that is not a devnet refuses cheats. */
export class CheatsRefusedError extends HttpError {
  constructor() {
    super(403, 'cheats are refused: this node is not a devnet (cheat routes work only on a devnet started by `tealworks devnet` without --follow)');
  }
}

type Body = Record<string, unknown>;

async function body(ctx: RequestContext): Promise<Body> {
  const v = await ctx.json<Body>();
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BadRequestError('the request body must be a JSON object');
  return v;
}

function uint(b: Body, name: string, optional = false): bigint | undefined {
  const v = b[name];
  if (v === undefined || v === null) {
    if (optional) return undefined;
    throw new BadRequestError(`missing "${name}" (a non-negative integer)`);
  }
  const text = typeof v === 'bigint' || typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  if (!/^\d{1,20}$/.test(text) || BigInt(text) >= 1n << 64n)
    throw new BadRequestError(`"${name}" must be a uint64 (a non-negative integer, as a number or decimal string)`);
  return BigInt(text);
}

function bytes(b: Body, name: string, optional = false): Uint8Array | undefined {
  const v = b[name];
  if (v === undefined || v === null) {
    if (optional) return undefined;
    throw new BadRequestError(`missing "${name}" (base64 bytes)`);
  }
  if (typeof v !== 'string') throw new BadRequestError(`"${name}" must be base64 text`);
  try {
    return fromBase64(v);
  } catch {
    throw new BadRequestError(`"${name}" is not valid base64`);
  }
}

function address(b: Body, name = 'address'): Uint8Array {
  const v = b[name];
  if (typeof v !== 'string') throw new BadRequestError(`missing "${name}" (an account address)`);
  try {
    return decodeAddress(v);
  } catch {
    throw new BadRequestError(`"${name}" is not a valid account address`);
  }
}

/** An optional true/false field (absent or null: `fallback`). */
function flag(b: Body, name: string, fallback: boolean): boolean {
  const v = b[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw new BadRequestError(`"${name}" must be true or false`);
  return v;
}

/** A snapshot id: ids are small integers, so one too large to have been given out names no snapshot. */
function snapshotId(b: Body): number {
  const id = uint(b, 'id')!;
  if (id > BigInt(Number.MAX_SAFE_INTEGER)) throw new NotFoundError(`no snapshot ${id}: snapshot ids are the ones /v1/devnet/snapshot returned`);
  return Number(id);
}

/** A state value from `{ uint }` or `{ bytes }` (base64), or undefined with `{ delete: true }`. */
function stateValue(b: Body): bigint | Uint8Array | undefined {
  if (flag(b, 'delete', false)) return undefined;
  if (b.uint !== undefined) return uint(b, 'uint');
  if (b.bytes !== undefined) return bytes(b, 'bytes');
  throw new BadRequestError('give the value as "uint" (integer) or "bytes" (base64), or "delete": true');
}

const CHEAT_RESPONSES = {
  '200': "the chain after the change: { round, timestamp } (plus the cheat's own fields)",
  '400': 'bad input',
  '401': 'missing or wrong API token',
  '403': 'this node is not a devnet',
  '404': 'no such snapshot, app, asset or opt-in',
};

function chainReply(node: NodeContext, extra: Record<string, unknown> = {}): Reply {
  const b = node.ledger.latestBlock.header;
  return jsonReply({ ...extra, round: b.round, timestamp: b.timestamp });
}

function cheat(
  operationId: string,
  path: string,
  summary: string,
  params: NodeEndpoint['params'],
  run: (b: Body, node: NodeContext) => Record<string, unknown> | void,
  enabled: () => boolean,
): NodeEndpoint {
  return {
    number: 0,
    operationId,
    method: 'POST',
    path,
    summary,
    params,
    consumes: ['application/json'],
    produces: ['application/json'],
    responses: CHEAT_RESPONSES,
    handler: async (ctx, node) => {
      if (!enabled()) throw new CheatsRefusedError();
      const b = await body(ctx);
      try {
        const extra = run(b, node) ?? {};
        return chainReply(node, extra);
      } catch (e) {
        if (e instanceof HttpError) throw e;
        if (e instanceof LedgerNotFoundError) throw new NotFoundError(e.message);
        if (e instanceof LedgerStoreError) throw new BadRequestError(e.message);
        if (e instanceof TealworksError) throw new BadRequestError(e.message);
        throw e;
      }
    },
  };
}

const p = (name: string, type: 'string' | 'integer' | 'boolean', description: string, required = true): NodeEndpoint['params'][number] => ({
  name,
  in: 'body',
  type,
  required,
  description,
});

/** The cheat routes; `enabled()` false (not a devnet) makes each answer 403. */
export function devnetEndpoints(enabled: () => boolean): NodeEndpoint[] {
  return [
    cheat(
      'DevnetSnapshot',
      '/v1/devnet/snapshot',
      'Remembers the whole chain state; returns its id for revert.',
      [],
      (_b, n) => ({ id: n.ledger.mark() }),
      enabled,
    ),
    cheat(
      'DevnetRevert',
      '/v1/devnet/revert',
      'Restores the chain to a snapshot (which stays usable; later ones are dropped).',
      [p('id', 'integer', 'snapshot id')],
      (b, n) => void n.ledger.revertToMark(snapshotId(b)),
      enabled,
    ),
    cheat(
      'DevnetRelease',
      '/v1/devnet/release',
      'Forgets a snapshot (404 for an id that names none, as revert).',
      [p('id', 'integer', 'snapshot id')],
      (b, n) => void n.ledger.releaseMark(snapshotId(b)),
      enabled,
    ),
    cheat(
      'DevnetAdvanceRounds',
      '/v1/devnet/advance-rounds',
      'Adds empty rounds at once (no transaction per round).',
      [p('rounds', 'integer', 'how many rounds')],
      (b, n) => void n.ledger.advanceRounds(uint(b, 'rounds')!),
      enabled,
    ),
    cheat(
      'DevnetSetTime',
      '/v1/devnet/set-time',
      "Commits one empty block with this timestamp (not before the latest block's: time never goes back).",
      [p('timestamp', 'integer', 'seconds since the epoch')],
      (b, n) => void n.ledger.setTime(uint(b, 'timestamp')!),
      enabled,
    ),
    cheat(
      'DevnetAdvanceTime',
      '/v1/devnet/advance-time',
      'Commits one empty block this many seconds after the latest.',
      [p('seconds', 'integer', 'seconds to add')],
      (b, n) => void n.ledger.advanceTime(uint(b, 'seconds')!),
      enabled,
    ),
    cheat(
      'DevnetImpersonate',
      '/v1/devnet/impersonate',
      "Accepts an account's transactions without checking its signature (send them with an empty signature); on: false stops.",
      [p('address', 'string', 'account'), p('on', 'boolean', 'default true', false)],
      (b, n) => void n.ledger.impersonate(address(b), flag(b, 'on', true)),
      enabled,
    ),
    cheat(
      'DevnetSetBalance',
      '/v1/devnet/set-balance',
      "Sets an account's balance (micro-units).",
      [p('address', 'string', 'account'), p('amount', 'integer', 'micro-units')],
      (b, n) => void n.ledger.setBalance(address(b), uint(b, 'amount')!),
      enabled,
    ),
    cheat(
      'DevnetSetAssetHolding',
      '/v1/devnet/set-asset-holding',
      "Sets (or with delete: true removes) an account's holding of an asset.",
      [
        p('address', 'string', 'account'),
        p('assetId', 'integer', 'asset'),
        p('amount', 'integer', 'base units', false),
        p('frozen', 'boolean', 'default false', false),
        p('delete', 'boolean', 'remove the holding', false),
      ],
      (b, n) =>
        void n.ledger.setAssetHolding(
          address(b),
          uint(b, 'assetId')!,
          flag(b, 'delete', false) ? undefined : { amount: uint(b, 'amount')!, frozen: flag(b, 'frozen', false) },
        ),
      enabled,
    ),
    cheat(
      'DevnetSetGlobal',
      '/v1/devnet/set-global',
      'Sets (or deletes) one global state key of an app.',
      [
        p('appId', 'integer', 'app'),
        p('key', 'string', 'base64 key'),
        p('uint', 'integer', 'a uint value', false),
        p('bytes', 'string', 'a base64 value', false),
        p('delete', 'boolean', 'delete the key', false),
      ],
      (b, n) => void n.ledger.setGlobal(uint(b, 'appId')!, bytes(b, 'key')!, stateValue(b)),
      enabled,
    ),
    cheat(
      'DevnetSetLocal',
      '/v1/devnet/set-local',
      'Sets (or deletes) one local state key of an opted-in account.',
      [
        p('address', 'string', 'account'),
        p('appId', 'integer', 'app'),
        p('key', 'string', 'base64 key'),
        p('uint', 'integer', 'a uint value', false),
        p('bytes', 'string', 'a base64 value', false),
        p('delete', 'boolean', 'delete the key', false),
      ],
      (b, n) => void n.ledger.setLocal(address(b), uint(b, 'appId')!, bytes(b, 'key')!, stateValue(b)),
      enabled,
    ),
    cheat(
      'DevnetSetBox',
      '/v1/devnet/set-box',
      'Writes (or deletes) a box of an app.',
      [
        p('appId', 'integer', 'app'),
        p('name', 'string', 'base64 box name'),
        p('value', 'string', 'base64 contents', false),
        p('delete', 'boolean', 'delete the box', false),
      ],
      (b, n) => void n.ledger.setBox(uint(b, 'appId')!, bytes(b, 'name')!, flag(b, 'delete', false) ? undefined : bytes(b, 'value')),
      enabled,
    ),
    cheat(
      'DevnetSetBlockSeed',
      '/v1/devnet/set-block-seed',
      'Sets the seed `block BlkSeed` reads for a round (default the latest).',
      [p('seed', 'string', 'base64, 32 bytes'), p('round', 'integer', 'default latest', false)],
      (b, n) => void n.ledger.setBlockSeed(bytes(b, 'seed'), uint(b, 'round', true)),
      enabled,
    ),
  ];
}
