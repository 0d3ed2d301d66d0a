// From the simulate panel's form (all text) to transactions. Pure: program bytes, app specs and
// suggested params come from the caller, so this runs (and is tested) outside VS Code.
import type { Arc56AppSpec, Arc56Method } from '@tealworks/sdk/abi';
import type { AbiMethod } from '@tealworks/sdk/abi';
import { encodeMethodCall } from '@tealworks/sdk/abi';
import { tealAbiMethods } from '@tealworks/sdk/teal';
import { CallArgsError, prepareMethodArgs, resolveMethod } from '@tealworks/sdk/app';
import { decodeAddress, isValidAddress } from '@tealworks/sdk/encoding';
import { fromBase64 } from '@tealworks/sdk/encoding';
import { utf8 } from '@tealworks/sdk/encoding';
import { fromHex } from '@tealworks/sdk/encoding';
import { makeAppCallTxn, makeAssetTransferTxn, makePaymentTxn, type SuggestedParams } from '@tealworks/sdk/txn';
import { OnComplete, type Transaction } from '@tealworks/sdk/txn';
import type { TxnFormInput, TxnKind } from './messages.js';

/** A problem in one field of one row of the form, so the panel can point at it. */
export class FormError extends Error {
  constructor(
    readonly index: number,
    readonly field: string,
    message: string,
  ) {
    super(`txn ${index}, ${field}: ${message}`);
    this.name = 'FormError';
  }
}

export interface CreateProgram {
  approval: Uint8Array;
  clear: Uint8Array;
  schema: { globalInts: number; globalBytes: number; localInts: number; localBytes: number };
  extraPages: number;
}

export interface BuildContext {
  params: SuggestedParams;
  /** The program to create for an app call with app id 0 (by the row's `source`). */
  programFor?: (source: string) => CreateProgram | undefined;
  /** The app spec for a row (by source file for creates, by app id for calls). */
  specFor?: (row: TxnFormInput) => Arc56AppSpec | undefined;
  /** The whole group (set by buildGroup): transaction arguments are the rows above a call. */
  rows?: readonly TxnFormInput[];
}

export interface BuiltTxn {
  txn: Transaction;
  method?: AbiMethod | Arc56Method;
  /** For app creates: the source the program came from. */
  source?: string;
}

const UINT64_MAX = (1n << 64n) - 1n;

export function parseUint(text: string | undefined, index: number, field: string, fallback?: bigint): bigint {
  const t = (text ?? '').trim().replace(/_/g, '');
  if (t === '') {
    if (fallback !== undefined) return fallback;
    throw new FormError(index, field, 'required');
  }
  if (!/^\d+$/.test(t)) throw new FormError(index, field, `expected a whole number, got ${JSON.stringify(t.slice(0, 30))}`);
  const v = BigInt(t);
  if (v > UINT64_MAX) throw new FormError(index, field, 'larger than 2^64-1');
  return v;
}

function address(text: string | undefined, index: number, field: string): string {
  const t = (text ?? '').trim();
  if (!isValidAddress(t)) throw new FormError(index, field, t ? 'not a valid address' : 'required');
  return t;
}

/**
 * The form's name for a place inside an argument, from the encoder's path: `.level` → `.level`,
 * `[2].owner[0]` → `.2.owner.0` (the panel names a struct field by its name, an item by its index).
 */
export function subField(path: string): string {
  return path.replace(/\[(\d+)\]/g, '.$1');
}

/**
 * A raw application argument: `int:5` (8-byte big-endian), `0x0102` (hex), `b64:AQI=`,
 * `addr:ADDRESS` (32-byte public key), anything else as UTF-8 text.
 */
export function parseRawArg(text: string, index: number): Uint8Array {
  const t = text;
  if (/^int:/i.test(t)) {
    const v = parseUint(t.slice(4), index, 'args');
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, v);
    return out;
  }
  try {
    if (/^0x[0-9a-f]*$/i.test(t)) return fromHex(t.slice(2));
    if (/^b64:/i.test(t)) return fromBase64(t.slice(4));
  } catch (e) {
    throw new FormError(index, 'args', (e as Error).message);
  }
  if (/^addr:/i.test(t)) {
    const a = address(t.slice(5), index, 'args');
    return decodeAddress(a);
  }
  return utf8(t);
}

/**
 * An ABI argument typed in a text box: JSON for numbers, booleans, arrays, tuples and structs
 * (numbers may be written bare; they are kept exact), `0x…` hex for byte arrays, else the text itself.
 */
export function parseAbiArgText(text: string, type: string): unknown {
  const t = text.trim();
  if (/^(byte\[\d*\])$/.test(type) && /^0x[0-9a-f]*$/i.test(t)) return fromHex(t.slice(2));
  if (type === 'string' || type === 'address' || type === 'account' || /^byte\[\d*\]$/.test(type)) return type === 'string' ? text : t;
  if (type === 'bool') {
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
    return t;
  }
  if (/^(uint\d+|ufixed\d+x\d+)$/.test(type) || type === 'asset' || type === 'application' || type === 'byte') return t.replace(/_/g, '');
  if (/^[[{"]/.test(t)) {
    try {
      // Bare numbers become digit strings, which the argument converter turns into exact bigints.
      return JSON.parse(t.replace(/(?<=[[,:]\s*)(\d+)(?=\s*[,\]}])/g, '"$1"'));
    } catch {
      return t;
    }
  }
  return t;
}

const ON_COMPLETE: Record<string, OnComplete> = {
  NoOp: OnComplete.NoOp,
  OptIn: OnComplete.OptIn,
  CloseOut: OnComplete.CloseOut,
  ClearState: OnComplete.ClearState,
  UpdateApplication: OnComplete.UpdateApplication,
  DeleteApplication: OnComplete.DeleteApplication,
};

/** The form's row kinds that can stand for an ARC-4 transaction argument of each type. */
export const TXN_ARG_ROW_KINDS: Readonly<Record<string, readonly TxnKind[]>> = {
  pay: ['payment'],
  axfer: ['assetTransfer'],
  appl: ['appcall'],
  txn: ['payment', 'assetTransfer', 'appcall'],
  keyreg: [],
  acfg: [],
  afrz: [],
};

const KIND_LABEL: Record<TxnKind, string> = { payment: 'a payment', assetTransfer: 'an asset transfer', appcall: 'an app call' };

/** The transaction arguments of a method: its argument index, name and type, in order. */
export function transactionArgs(method: AbiMethod): { index: number; name?: string; type: string }[] {
  return method.args.flatMap((a, index) => (a.kind === 'transaction' ? [{ index, type: a.type, ...(a.name ? { name: a.name } : {}) }] : []));
}

/**
 * Checks that the rows right above an ABI call are its transaction arguments (ARC-4: the last one
 * directly before the call), with kinds that fit their types. Throws FormError on the row to fix.
 */
export function checkTransactionArgs(rows: readonly TxnFormInput[], i: number, method: AbiMethod): void {
  const txnArgs = transactionArgs(method);
  if (!txnArgs.length) return;
  const n = txnArgs.length;
  const list = txnArgs.map((a) => a.type).join(', ');
  if (i < n)
    throw new FormError(
      i,
      'method',
      `${method.signature} takes ${n === 1 ? 'a transaction argument' : `${n} transaction arguments`} (${list}): ${n === 1 ? 'it is the row' : 'they are the rows'} right above the call; pick the method again to insert ${n === 1 ? 'it' : 'them'}, or move this call down`,
    );
  txnArgs.forEach((a, k) => {
    const j = i - n + k;
    const kinds = TXN_ARG_ROW_KINDS[a.type] ?? [];
    const what = `txn ${j} is argument ${a.index}${a.name ? ` (${a.name})` : ''} of ${method.name} in txn ${i}`;
    if (!kinds.length) throw new FormError(j, 'kind', `${what}: the panel cannot build a ${a.type} transaction; send it from a script or a workflow`);
    const kind = rows[j]!.kind;
    if (!kinds.includes(kind))
      throw new FormError(
        j,
        'kind',
        `${what}: expected ${kinds.map((k2) => KIND_LABEL[k2]).join(' or ')} (${a.type}), got ${KIND_LABEL[kind]}; reorder the rows or change this one's kind`,
      );
  });
}

/**
 * Inserts rows for a method's transaction arguments right above the call at `index`, unless the
 * rows there already fit. Payments and asset transfers are sent to `receiver` (the app's address,
 * when known) by the call's sender. Returns the new rows (the input is not changed).
 */
export function withTransactionArgRows(rows: readonly TxnFormInput[], index: number, method: AbiMethod, receiver?: string): TxnFormInput[] {
  const txnArgs = transactionArgs(method);
  const out = [...rows];
  const call = out[index];
  if (!txnArgs.length || !call) return out;
  const n = txnArgs.length;
  const fits = index >= n && txnArgs.every((a, k) => (TXN_ARG_ROW_KINDS[a.type] ?? []).includes(out[index - n + k]!.kind));
  if (fits) return out;
  const inserted: TxnFormInput[] = txnArgs.map((a) => {
    const kind: TxnKind = (TXN_ARG_ROW_KINDS[a.type] ?? [])[0] ?? 'payment';
    const row: TxnFormInput = { kind, sender: call.sender };
    if (kind !== 'appcall' && receiver) row.receiver = receiver;
    if (kind === 'appcall') row.appId = '';
    return row;
  });
  out.splice(index, 0, ...inserted);
  return out;
}

function appCall(row: TxnFormInput, i: number, ctx: BuildContext): BuiltTxn {
  const sender = address(row.sender, i, 'sender');
  const appId = parseUint(row.appId, i, 'appId', 0n);
  const onComplete = ON_COMPLETE[row.onComplete ?? 'NoOp'] ?? OnComplete.NoOp;
  let create: CreateProgram | undefined;
  if (appId === 0n) {
    if (!row.source) throw new FormError(i, 'source', 'an app id, or a TEAL file to create the app from, is required');
    create = ctx.programFor?.(row.source);
    if (!create) throw new FormError(i, 'source', `${row.source} does not assemble`);
  }
  let appArgs: Uint8Array[];
  let accounts: string[] = [];
  let foreignApps: bigint[] = [];
  let foreignAssets: bigint[] = [];
  let method: AbiMethod | Arc56Method | undefined;
  const spec = ctx.specFor?.(row);
  if (row.method) {
    let resolved: ReturnType<typeof resolveMethod>;
    try {
      resolved = resolveMethod(row.method, spec);
    } catch (e) {
      throw new FormError(i, 'method', (e as Error).message);
    }
    method = resolved.arc56 ?? resolved.method;
    checkTransactionArgs(ctx.rows ?? [], i, resolved.method);
    const types = resolved.method.args.filter((a) => a.kind !== 'transaction').map((a) => a.type);
    const given = (row.args ?? []).slice(0, types.length).map((text, k) => (text.trim() === '' ? undefined : parseAbiArgText(text, types[k]!)));
    try {
      const prepared = prepareMethodArgs(resolved.method, given, resolved.arc56);
      if (prepared.pendingDefaults.length) {
        const p = prepared.pendingDefaults[0]!;
        const k = resolved.method.args.slice(0, p.index).filter((a) => a.kind !== 'transaction').length;
        throw new FormError(i, `args.${k}`, `argument ${p.index} needs a value (its default is read from the chain)`);
      }
      const encoded = encodeMethodCall(resolved.method, prepared.values, { sender, appId });
      ({ appArgs, accounts, foreignApps, foreignAssets } = encoded);
    } catch (e) {
      if (e instanceof FormError) throw e;
      // Point at the argument's own field (`args.K`, K among the value arguments) when known.
      const argIndex =
        e instanceof CallArgsError && e.argIndex !== undefined ? e.argIndex : Number(/\bargument (\d+)\b/.exec((e as Error).message)?.[1] ?? NaN);
      if (Number.isInteger(argIndex) && argIndex < resolved.method.args.length) {
        const k = resolved.method.args.slice(0, argIndex).filter((a) => a.kind !== 'transaction').length;
        throw new FormError(i, `args.${k}${e instanceof CallArgsError ? subField(e.path) : ''}`, (e as Error).message);
      }
      throw new FormError(i, 'args', (e as Error).message);
    }
  } else {
    appArgs = (row.args ?? []).filter((a) => a !== '').map((a) => parseRawArg(a, i));
  }
  const common = {
    sender,
    suggestedParams: ctx.params,
    appId,
    onComplete,
    args: appArgs,
    accounts,
    foreignApps,
    foreignAssets,
    ...(row.note ? { note: row.note } : {}),
  };
  try {
    const txn = create
      ? makeAppCallTxn({
          ...common,
          approvalProgram: create.approval,
          clearProgram: create.clear,
          globalSchema: { numUints: create.schema.globalInts, numByteSlices: create.schema.globalBytes },
          localSchema: { numUints: create.schema.localInts, numByteSlices: create.schema.localBytes },
          extraPages: create.extraPages,
        })
      : makeAppCallTxn(common);
    return { txn, ...(method ? { method } : {}), ...(create && row.source ? { source: row.source } : {}) };
  } catch (e) {
    throw new FormError(i, 'appcall', (e as Error).message);
  }
}

/** Builds every row (no group id yet: the composer assigns it). Throws FormError on the first bad field. */
export function buildGroup(rows: readonly TxnFormInput[], ctx: BuildContext): BuiltTxn[] {
  if (rows.length === 0) throw new FormError(0, 'group', 'add at least one transaction');
  if (rows.length > 16) throw new FormError(16, 'group', 'a group holds at most 16 transactions');
  return rows.map((row, i) => {
    const withFee = (t: Transaction): Transaction => {
      if (row.fee && row.fee.trim() !== '') t.fee = parseUint(row.fee, i, 'fee');
      return t;
    };
    switch (row.kind) {
      case 'payment':
        return {
          txn: withFee(
            wrap(i, () =>
              makePaymentTxn({
                sender: address(row.sender, i, 'sender'),
                receiver: address(row.receiver, i, 'receiver'),
                amount: parseUint(row.amount, i, 'amount', 0n),
                suggestedParams: ctx.params,
                ...(row.note ? { note: row.note } : {}),
              }),
            ),
          ),
        };
      case 'assetTransfer':
        return {
          txn: withFee(
            wrap(i, () =>
              makeAssetTransferTxn({
                sender: address(row.sender, i, 'sender'),
                receiver: address(row.receiver, i, 'receiver'),
                amount: parseUint(row.amount, i, 'amount', 0n),
                assetId: parseUint(row.assetId, i, 'assetId'),
                suggestedParams: ctx.params,
                ...(row.note ? { note: row.note } : {}),
              }),
            ),
          ),
        };
      case 'appcall': {
        const built = appCall(row, i, { ...ctx, rows });
        withFee(built.txn);
        return built;
      }
    }
  });
}

function wrap<T>(i: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof FormError) throw e;
    throw new FormError(i, 'txn', (e as Error).message);
  }
}

/**
 * The ABI methods that create the app, when its ARC-56 spec allows no bare create (Puya's and
 * TEALScript's `create` methods); empty when a bare create works.
 */
export function abiCreateMethods(spec: Arc56AppSpec): Arc56Method[] {
  if (spec.json.bareActions.create.length) return [];
  return spec.methods.filter((m) => m.actions.create.length > 0);
}

/** The on-completion a create method is called with: NoOp when it allows it, else its first. */
export function createOnComplete(m: Arc56Method): string {
  return m.actions.create.includes('NoOp') ? 'NoOp' : (m.actions.create[0] ?? 'NoOp');
}

/** Whether two programs are the same bytes (what their hashes compare). */
export function sameProgram(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The warning shown when an app's linked source no longer assembles to the program it runs. */
export function staleProgramWarning(appId: bigint, source: string): string {
  return `App ${appId} runs the program deployed earlier, not ${source} as it is now (their program hashes differ): failures are shown by pc, not mapped onto the edited lines. Deploy again to run your edits.`;
}

/**
 * What the panel says when *Call app N* opens on an app without an ARC-4 spec: nothing is run
 * (a bare call made unasked fails on most apps), the row waits for the arguments.
 */
export function callNotice(appId: bigint, source?: string): string {
  const where = source ? `no ARC-56 spec beside ${source}` : 'no source or ARC-56 spec linked here';
  return `App ${appId} has ${where}, so its methods are unknown: type its arguments (int:5, 0x01ff, b64:…, addr:…, text; none for a bare call), then Simulate.`;
}

/** A method the typed call form offers: the ABI method, and its ARC-56 entry when a spec gives one. */
export interface FormMethod {
  method: AbiMethod;
  arc56?: Arc56Method;
}

/**
 * The methods the typed form offers for a program: its ARC-56 spec's when it has one; otherwise
 * those its hand-written router names in `method "name(args)ret"` lines (ARC-28 event prefixes
 * and methods called through inner transactions left out). A call by full signature needs no spec.
 */
export function formMethods(spec: Arc56AppSpec | undefined, tealSource: string | undefined): FormMethod[] {
  if (spec) return spec.methods.map((m) => ({ method: m.method, arc56: m }));
  return tealSource ? tealAbiMethods(tealSource).map((method) => ({ method })) : [];
}
