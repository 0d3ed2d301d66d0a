import type { NodeAdapter } from '../adapters/node/adapter.js';
import type { QueryClient } from '../adapters/query/client.js';
import type { SuggestedParams as BuilderParams } from '../txn/builders.js';
import { fromBase64 } from '../encoding/base64.js';
import { Address } from '../encoding/address.js';
import type { AppSchema } from './deploy-plan.js';
import { AppError } from './errors.js';
import type { StateEntry } from './state-decode.js';

/*
 * The network as the app layer sees it: a node for params, simulate and submission, and the query
 * service for what the /v1 node service cannot answer (apps, boxes, local state, deploy notes).
 * Public /v2 nodes answer app and box lookups themselves; we ask them first when they can.
 */

/** The services app operations need: a node adapter and, for listings and deploy lookups, a query client. */
export interface AppChain {
  node: NodeAdapter;
  query?: QueryClient;
  /** Rounds a transaction stays valid (default 1000). */
  validRounds?: bigint;
}

/** An app as deployed: programs, schema, extra pages, creator and global state. */
export interface OnChainAppInfo {
  appId: bigint;
  address: string;
  creator?: string;
  approval: Uint8Array;
  clear: Uint8Array;
  schema: AppSchema;
  extraPages: number;
  globalState: StateEntry[];
}

/** The account address of an app ("appID" prefix hash of its id). */
export function appAddressOf(appId: bigint): string {
  return Address.forApp(appId).toString();
}

/** The node has no app with this id (never created, or deleted). */
export class AppNotFoundError extends AppError {
  constructor(readonly appId: bigint) {
    super(`app ${appId} does not exist (or was deleted)`);
  }
}

/** Fresh suggested params in the form the txn builders take. */
export async function builderParams(chain: AppChain): Promise<BuilderParams & { minFee: bigint }> {
  const sp = await chain.node.suggestedParams();
  return {
    fee: sp.feePerByte,
    minFee: sp.minFee,
    firstValid: sp.lastRound,
    lastValid: sp.lastRound + (chain.validRounds ?? 1000n),
    genesisId: sp.genesisId,
    genesisHash: sp.genesisHash,
  };
}

function needQuery(chain: AppChain, what: string): QueryClient {
  if (!chain.query) throw new AppError(`${what} needs the query service, and this network has none configured`);
  return chain.query;
}

function isNotFound(e: unknown): boolean {
  const status = (e as { status?: number }).status;
  return status === 404 || /not found|does not exist|no application/i.test((e as Error)?.message ?? '');
}

type QueryTealValue = { type: number; bytes?: string; uint?: bigint };

/** State entries from the query service's key-value form. */
export function stateFromQuery(kv: ReadonlyArray<{ key: string; value: QueryTealValue }> | undefined): StateEntry[] {
  return (kv ?? []).map((e) => ({ key: fromBase64(e.key), value: e.value.type === 1 ? fromBase64(e.value.bytes ?? '') : (e.value.uint ?? 0n) }));
}

/** Reads an app from the node; throws `AppNotFoundError` when there is none. */
export async function fetchApp(chain: AppChain, appId: bigint): Promise<OnChainAppInfo> {
  if (chain.node.kind === 'algod' || !chain.query) {
    try {
      const info = await chain.node.application(appId);
      const p = info.params;
      return {
        appId,
        address: appAddressOf(appId),
        ...(p.creator !== undefined ? { creator: p.creator } : {}),
        approval: p.approvalProgram,
        clear: p.clearStateProgram,
        schema: {
          globalInts: p.globalSchema?.numUint ?? 0,
          globalBytes: p.globalSchema?.numByteSlice ?? 0,
          localInts: p.localSchema?.numUint ?? 0,
          localBytes: p.localSchema?.numByteSlice ?? 0,
        },
        extraPages: p.extraProgramPages ?? 0,
        globalState: p.globalState.map((kv) => ({ key: kv.key, value: kv.value })),
      };
    } catch (e) {
      if (isNotFound(e)) throw new AppNotFoundError(appId);
      if (!chain.query) throw e;
    }
  }
  const q = needQuery(chain, 'reading an app');
  let res;
  try {
    res = await q.lookupApplication(appId);
  } catch (e) {
    if (isNotFound(e)) throw new AppNotFoundError(appId);
    throw e;
  }
  const app = res.application;
  if (!app || app.deleted) throw new AppNotFoundError(appId);
  const p = app.params;
  return {
    appId,
    address: appAddressOf(appId),
    ...(p.creator !== undefined ? { creator: p.creator } : {}),
    approval: fromBase64(p.approvalProgram ?? ''),
    clear: fromBase64(p.clearStateProgram ?? ''),
    schema: {
      globalInts: p.globalStateSchema?.numUint ?? 0,
      globalBytes: p.globalStateSchema?.numByteSlice ?? 0,
      localInts: p.localStateSchema?.numUint ?? 0,
      localBytes: p.localStateSchema?.numByteSlice ?? 0,
    },
    extraPages: p.extraProgramPages ?? 0,
    globalState: stateFromQuery(p.globalState as never),
  };
}

/** An account's local state in an app, or undefined when it has not opted in. */
export async function fetchLocalState(chain: AppChain, appId: bigint, address: string): Promise<StateEntry[] | undefined> {
  const q = needQuery(chain, 'reading local state');
  const res = await q.lookupAccountAppLocalStates(address, { applicationId: appId });
  const found = (res.appsLocalStates ?? []).find((s) => s.id === appId && !s.deleted);
  return found ? stateFromQuery(found.keyValue as never) : undefined;
}

/** One box's value, or undefined when the box does not exist. */
export async function fetchBox(chain: AppChain, appId: bigint, name: Uint8Array): Promise<Uint8Array | undefined> {
  if (chain.node.kind === 'algod' || !chain.query) {
    try {
      return (await chain.node.box(appId, name)).value;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      if (!chain.query) throw e;
    }
  }
  try {
    const box = await needQuery(chain, 'reading a box').lookupApplicationBox(appId, name);
    return fromBase64(box.value);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** Box names, one page at a time (the query service pages; `next` continues). */
export async function fetchBoxNames(
  chain: AppChain,
  appId: bigint,
  page: { limit?: number; next?: string } = {},
): Promise<{ names: Uint8Array[]; next?: string }> {
  const res = await needQuery(chain, 'listing boxes').searchApplicationBoxes(appId, {
    ...(page.limit !== undefined ? { limit: page.limit } : {}),
    ...(page.next !== undefined ? { next: page.next } : {}),
  });
  return { names: (res.boxes ?? []).map((b) => fromBase64(b.name)), ...(res.nextToken ? { next: res.nextToken } : {}) };
}

/** The balance of an account in micro-units. */
export async function fetchBalance(chain: AppChain, address: string): Promise<bigint> {
  return (await chain.node.account(address)).amount;
}
