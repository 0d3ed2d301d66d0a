import { toBase64 } from '../../encoding/base64.js';
import { HttpClient, pathOf } from '../http/client.js';
import { HttpError } from '../http/errors.js';
import { arr, bytes, camelize, obj, str } from '../wire.js';
import { HttpNodeAdapter } from './http-node-adapter.js';
import { pendingState } from './adapter.js';
import { TransactionNotFoundError } from './errors.js';
import type { ConnectionOptions } from '../http/connection.js';
import { toAccountInfo, toAppInfo, toAssetInfo, toBlockInfo, toBox, toBoxesPage, toNodeStatus, toPending, toSuggestedParams, toSupply } from './normalize.js';
import type {
  AccountInfo,
  AppInfo,
  AssetInfo,
  BlockInfo,
  BoxesPage,
  BoxValue,
  CompileResult,
  NodeStatus,
  PendingTransaction,
  SuggestedParams,
  Supply,
} from './types.js';
import type { NodeVersion } from './v1-model.js';
import { toNodeVersion } from './v1-model.js';
import { DecodeError } from '../../errors.js';
import { decodeMsgpack } from '../../encoding/msgpack.js';
import { ProtocolError } from '../http/errors.js';
import type { HttpResponse } from '../http/client.js';
import { encodeAddress } from '../../encoding/address.js';
import { settleLazy } from '../../lazy.js';
import type { TxnApplyData } from '../../ledger/block.js';
import { encodeSignedTransaction } from '../../txn/encode.js';
import type { SignedTransaction } from '../../txn/types.js';
import {
  MsgReader,
  readSignedTransaction,
  decodeBlockResponse,
  decodePendingResponse,
  decodeStateDelta,
  type DecodedBlock,
  type DecodedPending,
  type DecodedStateDelta,
} from './typed-decode.js';

/** Runs a typed decoder on an msgpack body; a JSON body (some proxies, test doubles) takes `fallback`. */
function typedBody<T>(res: HttpResponse, decode: (b: Uint8Array) => T, fallback: () => T): T {
  const type = res.contentType ?? '';
  if (type.includes('json') || type.includes('html')) return fallback();
  try {
    return decode(res.body);
  } catch (e) {
    if (e instanceof DecodeError) {
      throw new ProtocolError({
        method: res.method,
        url: res.url,
        status: res.status,
        contentType: type,
        reason: `malformed or truncated msgpack body (${res.body.length} bytes): ${e.message}`,
        cause: e,
      });
    }
    throw e;
  }
}

/** A pending-transaction answer (decoded from the node's msgpack) as `pending` returns it. */
export function pendingFromDecoded(d: DecodedPending, txid?: string): PendingTransaction {
  const round = d.confirmedRound ?? 0n;
  const out: PendingTransaction = {
    state: pendingState(round, d.poolError),
    confirmedRound: round,
    poolError: d.poolError,
    sender: encodeAddress(d.txn.txn.sender.publicKey),
    txn: d.txn,
  };
  if (txid !== undefined) out.txid = txid;
  if (d.assetIndex !== undefined) out.assetIndex = d.assetIndex;
  if (d.applicationIndex !== undefined) out.applicationIndex = d.applicationIndex;
  if (d.logs) out.logs = d.logs;
  if (d.innerTxns) out.innerTxns = d.innerTxns.map((i) => pendingFromDecoded(i));
  return out;
}

/**
 * What `pendingFromDecoded` gives for the node's msgpack answer about a transaction the ledger of
 * this process committed (`round`; 0n for an inner transaction), made from the ledger's own record
 * without the wire: the same members, and values that are copies (changing them changes nothing
 * on the chain). The signed transaction is decoded from its wire form when first read.
 * @internal The in-process chain's adapter.
 */
export function pendingFromConfirmed(stxn: SignedTransaction, ad: TxnApplyData, round: bigint, txid?: string): PendingTransaction {
  const out: PendingTransaction = {
    state: pendingState(round, ''),
    confirmedRound: round,
    poolError: '',
    sender: encodeAddress(stxn.txn.sender.publicKey),
    get txn() {
      return settleLazy(out, 'txn', readSignedTransaction(new MsgReader(encodeSignedTransaction(stxn))));
    },
    set txn(v) {
      settleLazy(out, 'txn', v);
    },
  };
  if (txid !== undefined) out.txid = txid;
  if (ad.createdAssetId) out.assetIndex = ad.createdAssetId;
  if (ad.createdAppId) out.applicationIndex = ad.createdAppId;
  if (ad.logs.length) out.logs = ad.logs.map((l) => l.slice());
  if (ad.inner.length) out.innerTxns = ad.inner.map((i) => pendingFromConfirmed({ txn: i.txn }, i.ad, 0n));
  return out;
}

/** The header that carries a public node's API token. */
export const ALGOD_TOKEN_HEADER = 'X-Algo-API-Token';

/** What `/v2/accounts/{address}` may leave out of its answer. */
export type AccountExclude = 'all' | 'none' | 'created-apps-params' | 'created-assets-params';

/** Box names go on the wire as `b64:<base64>`, the one encoding that carries any bytes. */
export function boxNameParam(name: Uint8Array): string {
  return `b64:${toBase64(name)}`;
}

/**
 * The public network's node API (`/v2`, token header `X-Algo-API-Token`), normalised into the
 * same model as the node service. Also offers the /v2-only reads the SDK uses (boxes, proofs,
 * compile) as thin typed calls.
 */
export class AlgodAdapter extends HttpNodeAdapter {
  readonly kind = 'algod' as const;

  constructor(options: ConnectionOptions | HttpClient) {
    super(options, ALGOD_TOKEN_HEADER);
  }

  async health(): Promise<void> {
    await this.http.send({ method: 'GET', path: '/health' });
  }

  async ready(): Promise<void> {
    await this.http.send({ method: 'GET', path: '/ready' });
  }

  async versions(): Promise<NodeVersion> {
    return toNodeVersion(await this.http.json({ method: 'GET', path: '/versions' }));
  }

  async genesis(): Promise<unknown> {
    return this.http.json({ method: 'GET', path: '/genesis' });
  }

  async status(): Promise<NodeStatus> {
    return toNodeStatus(await this.http.json({ method: 'GET', path: '/v2/status' }));
  }

  async waitForBlockAfter(round: bigint, options: { signal?: AbortSignal } = {}): Promise<NodeStatus> {
    const body = await this.http.json({
      method: 'GET',
      path: pathOf('v2', 'status', 'wait-for-block-after', round),
      timeoutMs: 90_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return toNodeStatus(body);
  }

  async suggestedParams(): Promise<SuggestedParams> {
    return toSuggestedParams(await this.http.json({ method: 'GET', path: '/v2/transactions/params' }));
  }

  protected async postRaw(raw: Uint8Array, signal?: AbortSignal): Promise<string> {
    const body = await this.http.json({
      method: 'POST',
      path: '/v2/transactions',
      body: raw,
      contentType: 'application/x-binary',
      idempotent: false,
      ...(signal ? { signal } : {}),
    });
    return str(obj(body, 'submit').txId, 'txId');
  }

  async pending(txid: string): Promise<PendingTransaction> {
    let res: HttpResponse;
    try {
      res = await this.http.send({
        method: 'GET',
        path: pathOf('v2', 'transactions', 'pending', txid),
        query: { format: 'msgpack' },
        accept: 'application/msgpack',
      });
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) throw new TransactionNotFoundError(txid);
      throw e;
    }
    return typedBody(
      res,
      (b) => pendingFromDecoded(decodePendingResponse(b), txid),
      () => toPending(this.http.parseMsgpackBody(res), txid),
    );
  }

  /**
   * The pending-transaction response with every member typed (the signed transaction as a
   * `SignedTransaction`-shaped record, deltas, logs, inner transactions), decoded without the
   * generic msgpack tree.
   */
  async pendingDecoded(txid: string): Promise<DecodedPending> {
    try {
      const res = await this.http.send({
        method: 'GET',
        path: pathOf('v2', 'transactions', 'pending', txid),
        query: { format: 'msgpack' },
        accept: 'application/msgpack',
      });
      return typedBody(res, decodePendingResponse, () => {
        throw new ProtocolError({
          method: res.method,
          url: res.url,
          status: res.status,
          contentType: res.contentType ?? '',
          reason: 'expected an msgpack pending-transaction response',
        });
      });
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) throw new TransactionNotFoundError(txid);
      throw e;
    }
  }

  /** The pool's transactions (`max` 0 or unset = all). */
  async pendingTransactions(query: { max?: number } = {}): Promise<{ totalTransactions: bigint; transactions: PendingTransaction[] }> {
    return pendingList(await this.http.msgpack({ method: 'GET', path: '/v2/transactions/pending', query: { format: 'msgpack', max: query.max || undefined } }));
  }

  async pendingByAddress(address: string, query: { max?: number } = {}): Promise<{ totalTransactions: bigint; transactions: PendingTransaction[] }> {
    return pendingList(
      await this.http.msgpack({
        method: 'GET',
        path: pathOf('v2', 'accounts', address, 'transactions', 'pending'),
        query: { format: 'msgpack', max: query.max || undefined },
      }),
    );
  }

  async account(address: string, options: { exclude?: AccountExclude | readonly AccountExclude[] } = {}): Promise<AccountInfo> {
    const exclude = typeof options.exclude === 'string' ? [options.exclude] : options.exclude;
    return toAccountInfo(await this.http.json({ method: 'GET', path: pathOf('v2', 'accounts', address), query: { exclude } }));
  }

  async accountAsset(address: string, assetId: bigint): Promise<unknown> {
    return camelize(await this.http.json({ method: 'GET', path: pathOf('v2', 'accounts', address, 'assets', assetId) }));
  }

  async accountApplication(address: string, appId: bigint): Promise<unknown> {
    return camelize(await this.http.json({ method: 'GET', path: pathOf('v2', 'accounts', address, 'applications', appId) }));
  }

  async accountAssets(address: string, query: { limit?: number; next?: string } = {}): Promise<unknown> {
    return camelize(
      await this.http.json({
        method: 'GET',
        path: pathOf('v2', 'accounts', address, 'assets'),
        query: { limit: query.limit || undefined, next: query.next || undefined },
      }),
    );
  }

  async accountApplications(address: string, query: { limit?: number; next?: string; include?: 'params' } = {}): Promise<unknown> {
    return camelize(
      await this.http.json({
        method: 'GET',
        path: pathOf('v2', 'accounts', address, 'applications'),
        query: { limit: query.limit || undefined, next: query.next || undefined, include: query.include },
      }),
    );
  }

  async asset(id: bigint): Promise<AssetInfo> {
    return toAssetInfo(await this.http.json({ method: 'GET', path: pathOf('v2', 'assets', id) }));
  }

  async application(id: bigint): Promise<AppInfo> {
    return toAppInfo(await this.http.json({ method: 'GET', path: pathOf('v2', 'applications', id) }));
  }

  async box(appId: bigint, name: Uint8Array): Promise<BoxValue> {
    return toBox(await this.http.json({ method: 'GET', path: pathOf('v2', 'applications', appId, 'box'), query: { name: boxNameParam(name) } }));
  }

  /** Box names of an application (`max` 0 or unset = all). */
  async boxes(appId: bigint, query: { max?: number } = {}): Promise<Uint8Array[]> {
    const body = obj(
      await this.http.json({ method: 'GET', path: pathOf('v2', 'applications', appId, 'boxes'), query: { max: query.max || undefined } }),
      'boxes',
    );
    return arr(body.boxes, 'boxes.boxes').map((b, i) => bytes(obj(b, `boxes[${i}]`).name, `boxes[${i}].name`));
  }

  /**
   * One page of an application's boxes in the node's paged form: names ascending after `next`
   * (exclusive) and under `prefix`, at most `limit`, with values when `values` is set, read at
   * `round` (default: the node's latest). Check the answer's `round`: a node that predates the
   * paged form ignores these parameters and lists every name (see {@link BoxesPage}).
   */
  async boxesPage(appId: bigint, query: { limit?: bigint; next?: Uint8Array; prefix?: Uint8Array; values?: boolean; round?: bigint } = {}): Promise<BoxesPage> {
    return toBoxesPage(
      await this.http.json({
        method: 'GET',
        path: pathOf('v2', 'applications', appId, 'boxes'),
        query: {
          limit: query.limit,
          next: query.next ? boxNameParam(query.next) : undefined,
          prefix: query.prefix ? boxNameParam(query.prefix) : undefined,
          include: query.values ? 'values' : undefined,
          round: query.round,
        },
      }),
    );
  }

  async block(round: bigint, options: { headerOnly?: boolean } = {}): Promise<BlockInfo> {
    const res = await this.http.send({
      method: 'GET',
      path: pathOf('v2', 'blocks', round),
      query: { format: 'msgpack', 'header-only': options.headerOnly ? true : undefined },
      accept: 'application/msgpack',
    });
    return typedBody(
      res,
      (body) => {
        const decoded = decodeBlockResponse(body);
        const h = decoded.header;
        let raw: unknown;
        return {
          round: h.round,
          timestamp: h.timestamp,
          ...(h.genesisId ? { genesisId: h.genesisId } : {}),
          genesisHash: h.genesisHash,
          decoded,
          // The generic tree only when someone asks for it.
          get raw(): unknown {
            return (raw ??= decodeMsgpack(body));
          },
        };
      },
      () => toBlockInfo(this.http.parseMsgpackBody(res)),
    );
  }

  /** The block with its header and payset typed (transactions, ApplyData, inner transactions). */
  async blockDecoded(round: bigint): Promise<DecodedBlock> {
    const info = await this.block(round);
    if (!info.decoded)
      throw new ProtocolError({
        method: 'GET',
        url: `/v2/blocks/${round}`,
        status: 200,
        contentType: 'application/json',
        reason: 'the node answered the block in JSON; a typed block needs msgpack',
      });
    return info.decoded;
  }

  /** A round's ledger state delta with its accounts, box changes and txids typed. */
  async deltasDecoded(round: bigint): Promise<DecodedStateDelta> {
    const res = await this.http.send({ method: 'GET', path: pathOf('v2', 'deltas', round), query: { format: 'msgpack' }, accept: 'application/msgpack' });
    return typedBody(res, decodeStateDelta, () => {
      throw new ProtocolError({
        method: res.method,
        url: res.url,
        status: res.status,
        contentType: res.contentType ?? '',
        reason: 'expected an msgpack state delta',
      });
    });
  }

  async blockHash(round: bigint): Promise<string> {
    return str(obj(await this.http.json({ method: 'GET', path: pathOf('v2', 'blocks', round, 'hash') }), 'block hash').blockHash, 'blockHash');
  }

  async blockTxids(round: bigint): Promise<string[]> {
    const body = obj(await this.http.json({ method: 'GET', path: pathOf('v2', 'blocks', round, 'txids') }), 'block txids');
    return arr(body.blockTxids, 'blockTxids').map((t, i) => str(t, `blockTxids[${i}]`));
  }

  async transactionProof(round: bigint, txid: string, options: { hashType?: 'sha512_256' | 'sha256' } = {}): Promise<unknown> {
    return this.http.msgpack({
      method: 'GET',
      path: pathOf('v2', 'blocks', round, 'transactions', txid, 'proof'),
      query: { format: 'msgpack', hashtype: options.hashType },
    });
  }

  async lightBlockHeaderProof(round: bigint): Promise<unknown> {
    return camelize(await this.http.json({ method: 'GET', path: pathOf('v2', 'blocks', round, 'lightheader', 'proof') }));
  }

  async stateProof(round: bigint): Promise<unknown> {
    return camelize(await this.http.json({ method: 'GET', path: pathOf('v2', 'stateproofs', round) }));
  }

  async supply(): Promise<Supply> {
    return toSupply(await this.http.json({ method: 'GET', path: '/v2/ledger/supply' }));
  }

  async transactionGroupDeltas(round: bigint): Promise<unknown> {
    return this.http.msgpack({ method: 'GET', path: pathOf('v2', 'deltas', round, 'txn', 'group'), query: { format: 'msgpack' } }, { maps: true });
  }

  async deltasForTransactionGroup(id: string): Promise<unknown> {
    return this.http.msgpack({ method: 'GET', path: pathOf('v2', 'deltas', 'txn', 'group', id), query: { format: 'msgpack' } }, { maps: true });
  }

  async setBlockTimestampOffset(seconds: number): Promise<void> {
    await this.http.send({ method: 'POST', path: pathOf('v2', 'devmode', 'blocks', 'offset', seconds), idempotent: true });
  }

  async getBlockTimestampOffset(): Promise<number> {
    return Number(obj(await this.http.json({ method: 'GET', path: '/v2/devmode/blocks/offset' }), 'offset').offset);
  }

  async compile(source: string): Promise<CompileResult> {
    const body = obj(await this.http.json({ method: 'POST', path: '/v2/teal/compile', body: source, contentType: 'text/plain', idempotent: true }), 'compile');
    return { hash: str(body.hash, 'compile.hash'), program: bytes(body.result, 'compile.result') };
  }

  async disassemble(program: Uint8Array): Promise<string> {
    const body = obj(
      await this.http.json({ method: 'POST', path: '/v2/teal/disassemble', body: program, contentType: 'application/x-binary', idempotent: true }),
      'disassemble',
    );
    return str(body.result, 'disassemble.result');
  }
}

function pendingList(body: unknown): { totalTransactions: bigint; transactions: PendingTransaction[] } {
  const o = obj(body, 'pending transactions');
  const list = arr(o['top-transactions'], 'top-transactions').map((t) => toPending({ txn: t }));
  const total = o['total-transactions'];
  return { totalTransactions: typeof total === 'bigint' ? total : BigInt((total as number | undefined) ?? list.length), transactions: list };
}
