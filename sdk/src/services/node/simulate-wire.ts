import { DecodeError, TealworksError } from '../../errors.js';
import { decodeMsgpack, decodeMsgpackSequence, MsgKeep, toUint64 } from '../../encoding/msgpack.js';
import { parseJson } from '../../encoding/json.js';
import { signedTransactionFromWire, signedTransactionToWire } from '../../txn/wire.js';
import { signedTransactionFromNodeJson, signedTransactionToNodeJson } from '../../txn/json.js';
import type { SignedTransaction } from '../../txn/types.js';
import type { SimulateRequest, SimulateResponse } from '../../ledger/simulate.js';
import { BadRequestError } from '../http/errors.js';
import { methodTable, type MethodTable } from './abi-returns.js';

/** A simulate request with the specs given in `app-specs` (tealworks extension). */
export type NodeSimulateRequest = SimulateRequest & { appSpecs?: MethodTable[] };

/**
 * Transport of `POST /v2/transactions/simulate` (protocol.md §4.1-4.3): the request body is read as
 * msgpack first and as JSON if that fails, whatever the Content-Type says; embedded signed
 * transactions use the wire form in msgpack and the node's JSON view in JSON.
 */

const REQUEST_KEYS = new Set([
  'txn-groups',
  'round',
  'allow-empty-signatures',
  'allow-more-logging',
  'allow-unnamed-resources',
  'extra-opcode-budget',
  'exec-trace-config',
  'fix-signers',
  // Tealworks extension: ARC-56/ARC-32/ARC-4 specs whose methods type the ABI return values.
  'app-specs',
]);
const TRACE_KEYS = new Set(['enable', 'stack-change', 'scratch-change', 'state-change']);

function asObject(v: unknown, what: string): Record<string, unknown> {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), x]));
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) throw new BadRequestError(`${what} must be an object`);
  return v as Record<string, unknown>;
}

function flag(v: unknown, what: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new BadRequestError(`${what} must be a boolean`);
  return v;
}

function toRequest(body: unknown, decodeTxn: (v: unknown, path: string) => SignedTransaction): NodeSimulateRequest {
  const o = asObject(body, 'simulate request');
  for (const k of Object.keys(o)) if (!REQUEST_KEYS.has(k)) throw new BadRequestError(`unknown field "${k}" in the simulate request`);
  const groupsRaw = o['txn-groups'];
  if (!Array.isArray(groupsRaw)) throw new BadRequestError('txn-groups must be an array of {txns: [...]}');
  const groups = groupsRaw.map((g, gi) => {
    const go = asObject(g, `txn-groups[${gi}]`);
    const txns = go.txns ?? [];
    if (!Array.isArray(txns)) throw new BadRequestError(`txn-groups[${gi}].txns must be an array`);
    return { txns: txns.map((t, ti) => decodeTxn(t, `txn-groups[${gi}].txns[${ti}]`)) };
  });
  const req: NodeSimulateRequest = { 'txn-groups': groups };
  if (o['app-specs'] !== undefined && o['app-specs'] !== null) {
    const specs = o['app-specs'];
    if (!Array.isArray(specs)) throw new BadRequestError('app-specs must be an array of ARC-56, ARC-32 or ARC-4 contract descriptions');
    req.appSpecs = specs.map((spec, i) => methodTable(spec, `app-specs[${i}]`));
  }
  const num = (k: string): bigint | undefined => {
    if (o[k] === undefined || o[k] === null) return undefined;
    try {
      return toUint64(o[k], k);
    } catch (e) {
      throw new BadRequestError((e as Error).message);
    }
  };
  const round = num('round');
  if (round !== undefined) req.round = round;
  const extra = num('extra-opcode-budget');
  if (extra !== undefined) req['extra-opcode-budget'] = extra;
  for (const k of ['allow-empty-signatures', 'allow-more-logging', 'allow-unnamed-resources', 'fix-signers'] as const) {
    const f = flag(o[k], k);
    if (f !== undefined) req[k] = f;
  }
  if (o['exec-trace-config'] !== undefined && o['exec-trace-config'] !== null) {
    const tc = asObject(o['exec-trace-config'], 'exec-trace-config');
    const out: NonNullable<SimulateRequest['exec-trace-config']> = {};
    for (const [k, v] of Object.entries(tc)) {
      if (!TRACE_KEYS.has(k)) throw new BadRequestError(`unknown field "${k}" in exec-trace-config`);
      const f = flag(v, `exec-trace-config.${k}`);
      if (f !== undefined) (out as Record<string, boolean>)[k] = f;
    }
    req['exec-trace-config'] = out;
  }
  return req;
}

function wrapTxnError(decode: (v: unknown) => SignedTransaction): (v: unknown, path: string) => SignedTransaction {
  return (v, path) => {
    try {
      return decode(v);
    } catch (e) {
      throw new BadRequestError(`${path}: ${e instanceof TealworksError ? e.message : 'not a signed transaction'}`);
    }
  };
}

/**
 * The request `decodeSimulateRequest` gives for a body of one group of the signed transactions
 * `signed` (each as msgpack) and no option but the full trace when `execTrace`, decoded the same way
 * (the same errors for a transaction it cannot read) without writing the body. Undefined when an
 * element is not exactly one msgpack value (empty, truncated, or more than one): a body made of
 * such bytes reads otherwise, so the caller decodes the body itself.
 */
export function simulateRequestOfSigned(signed: readonly Uint8Array[], execTrace: boolean): NodeSimulateRequest | undefined {
  const decodeTxn = wrapTxnError((v) => signedTransactionFromWire(v));
  const values: unknown[] = [];
  for (const b of signed) {
    if (!(b instanceof Uint8Array) || b.length === 0) return undefined;
    let one: unknown[];
    try {
      one = decodeMsgpackSequence(b);
    } catch {
      return undefined;
    }
    if (one.length !== 1) return undefined;
    values.push(one[0]);
  }
  const txns = values.map((v, i) => decodeTxn(v, `txn-groups[0].txns[${i}]`));
  const req: NodeSimulateRequest = { 'txn-groups': [{ txns }] };
  if (execTrace) req['exec-trace-config'] = { enable: true, 'scratch-change': true, 'stack-change': true, 'state-change': true };
  return req;
}

/** Decodes a simulate request body: msgpack first, then JSON. */
export function decodeSimulateRequest(body: Uint8Array): NodeSimulateRequest {
  if (body.length === 0) throw new BadRequestError('empty simulate request body');
  let msgpackError: string | undefined;
  try {
    const value = decodeMsgpack(body);
    // JSON text starts with "{" (a positive fixint) and so may decode as a lone number.
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array)) {
      return toRequest(
        value,
        wrapTxnError((v) => signedTransactionFromWire(v)),
      );
    }
    msgpackError = 'not a msgpack map';
  } catch (e) {
    if (e instanceof BadRequestError) throw e;
    msgpackError = e instanceof DecodeError ? e.message : 'invalid msgpack';
  }
  let json: unknown;
  try {
    json = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new BadRequestError(`simulate request is neither msgpack nor JSON (${msgpackError})`);
  }
  return toRequest(
    json,
    wrapTxnError((v) => signedTransactionFromNodeJson(v)),
  );
}

/** The format a response is written in, from the request's `format` parameter. */
export type ResponseFormat = 'json' | 'msgpack';

/** `?format=` of the node's /v2 operations: json (default), msgpack or msgp. */
export function responseFormat(query: URLSearchParams): ResponseFormat {
  const f = query.get('format');
  if (f === null || f === '' || f === 'json') return 'json';
  if (f === 'msgpack' || f === 'msgp') return 'msgpack';
  throw new BadRequestError('failed to parse the format option');
}

function pendingToWire(p: Record<string, unknown>, form: ResponseFormat): Record<string, unknown> {
  const out: Record<string, unknown> = { ...p };
  const stxn = p.txn as SignedTransaction | undefined;
  if (stxn) out.txn = form === 'json' ? signedTransactionToNodeJson(stxn) : signedTransactionToWire(stxn);
  // The node emits `pool-error` even when empty; the msgpack writer would otherwise drop "".
  if (form === 'msgpack') out['pool-error'] = new MsgKeep((p['pool-error'] as string | undefined) ?? '');
  if (Array.isArray(p['inner-txns'])) out['inner-txns'] = (p['inner-txns'] as Record<string, unknown>[]).map((i) => pendingToWire(i, form));
  return out;
}

const hasSignature = (s: SignedTransaction): boolean => !!(s.sig || s.msig || s.lsig || s.pqsig);

/**
 * The response for the wire: the ledger's version-2 fields in the node's shape. With
 * `withResultFields` (our `/v1` operation) it also carries the result fields node-service.md names:
 * `would_succeed`, `failed_at`, `failure_message` and, per transaction, `missing_signature`.
 */
export function simulateResponseToWire(
  res: SimulateResponse,
  request: SimulateRequest,
  form: ResponseFormat,
  withResultFields = true,
): Record<string, unknown> {
  if (!withResultFields) {
    const groups = (res['txn-groups'] as Record<string, unknown>[]).map((g) => ({
      ...g,
      'txn-results': (g['txn-results'] as Record<string, unknown>[]).map((r) => ({
        ...r,
        'txn-result': pendingToWire(r['txn-result'] as Record<string, unknown>, form),
      })),
    }));
    // `exec-trace-truncated` is ours too: the node has no trace size budget.
    const { 'exec-trace-truncated': _truncated, ...rest } = res;
    return { ...rest, 'txn-groups': groups };
  }
  const groups = (res['txn-groups'] as Record<string, unknown>[]).map((g, gi) => {
    const txns = request['txn-groups'][gi]?.txns ?? [];
    const results = (g['txn-results'] as Record<string, unknown>[]).map((r, ti) => {
      const out: Record<string, unknown> = { ...r, 'txn-result': pendingToWire(r['txn-result'] as Record<string, unknown>, form) };
      const stxn = txns[ti];
      out.missing_signature = stxn ? !hasSignature(stxn) : false;
      return out;
    });
    const out: Record<string, unknown> = { ...g, 'txn-results': results };
    out.failed_at = g['failed-at'] ?? [];
    if (g['failure-message'] !== undefined) out.failure_message = g['failure-message'];
    return out;
  });
  const failed = groups.some((g) => (g.failed_at as unknown[]).length > 0 || g.failure_message !== undefined);
  const missing = groups.some((g) => (g['txn-results'] as Record<string, unknown>[]).some((r) => r.missing_signature === true));
  return { ...res, 'txn-groups': groups, would_succeed: !failed && !missing };
}
