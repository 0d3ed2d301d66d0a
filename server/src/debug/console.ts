// The debug console's expressions beyond the watch language (`evaluateWatch`): fields of the
// current transaction and of the others in the group, in TEAL's own spellings (`txn Amount`,
// `gtxn 0 Amount`, `txna ApplicationArgs 1`) or dotted (`txn.Amount`, `gtxn[0].Receiver`,
// `txn.ApplicationArgs[1]`), and comparisons of any two values (`txn.Amount == 1000`,
// `stack[-1] == gtxn[0].Amount`). Breakpoint conditions use the same evaluator.
import { evaluateWatch, WatchError, type DebugValue, type ReplaySnapshot } from '@tealworks/sdk/app';
import { decodeAddress, fromBase64, fromHex, isValidAddress, toHex, utf8 } from '@tealworks/sdk/encoding';

type Obj = Record<string, unknown>;

/** What an expression can read besides the paused snapshot: the group's top-level transactions. */
export interface ConsoleContext {
  snap: ReplaySnapshot;
  /** The group's transactions (simulate's `txn-result.txn.txn` form), by group index. */
  group: readonly Obj[];
}

/** A console result: a value, a comparison's verdict, or why a value is absent. */
export type ConsoleResult = { value: DebugValue } | { verdict: boolean } | { absent: string };

type FieldKind = 'uint' | 'addr' | 'bytes';
/** Transaction fields by their TEAL name: the transaction's wire key and what it holds. */
const FIELDS: Record<string, { key: string; kind: FieldKind }> = {
  Sender: { key: 'snd', kind: 'addr' },
  Fee: { key: 'fee', kind: 'uint' },
  FirstValid: { key: 'fv', kind: 'uint' },
  LastValid: { key: 'lv', kind: 'uint' },
  Note: { key: 'note', kind: 'bytes' },
  Lease: { key: 'lx', kind: 'bytes' },
  Receiver: { key: 'rcv', kind: 'addr' },
  Amount: { key: 'amt', kind: 'uint' },
  CloseRemainderTo: { key: 'close', kind: 'addr' },
  RekeyTo: { key: 'rekey', kind: 'addr' },
  XferAsset: { key: 'xaid', kind: 'uint' },
  AssetAmount: { key: 'aamt', kind: 'uint' },
  AssetSender: { key: 'asnd', kind: 'addr' },
  AssetReceiver: { key: 'arcv', kind: 'addr' },
  AssetCloseTo: { key: 'aclose', kind: 'addr' },
  ApplicationID: { key: 'apid', kind: 'uint' },
  OnCompletion: { key: 'apan', kind: 'uint' },
  ApprovalProgram: { key: 'apap', kind: 'bytes' },
  ClearStateProgram: { key: 'apsu', kind: 'bytes' },
  ExtraProgramPages: { key: 'apep', kind: 'uint' },
  ConfigAsset: { key: 'caid', kind: 'uint' },
  FreezeAsset: { key: 'faid', kind: 'uint' },
  FreezeAssetAccount: { key: 'fadd', kind: 'addr' },
  VoteFirst: { key: 'votefst', kind: 'uint' },
  VoteLast: { key: 'votelst', kind: 'uint' },
  VoteKeyDilution: { key: 'votekd', kind: 'uint' },
};
/** Array fields: wire key, element kind, and the count field's name. */
const ARRAYS: Record<string, { key: string; kind: FieldKind | 'uint-elem'; count: string }> = {
  ApplicationArgs: { key: 'apaa', kind: 'bytes', count: 'NumAppArgs' },
  Accounts: { key: 'apat', kind: 'addr', count: 'NumAccounts' },
  Assets: { key: 'apas', kind: 'uint-elem', count: 'NumAssets' },
  Applications: { key: 'apfa', kind: 'uint-elem', count: 'NumApplications' },
};
const TYPE_ENUM: Record<string, bigint> = { pay: 1n, keyreg: 2n, acfg: 3n, axfer: 4n, afrz: 5n, appl: 6n, stpf: 7n, hb: 8n };
const ALL_FIELDS = [...Object.keys(FIELDS), 'Type', 'TypeEnum', 'GroupIndex', ...Object.keys(ARRAYS), ...Object.values(ARRAYS).map((a) => a.count)];

function uintOf(v: unknown): bigint {
  if (v === undefined || v === null) return 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  throw new WatchError(`not a number in the transaction: ${JSON.stringify(v)}`);
}

function bytesOf(v: unknown, kind: 'addr' | 'bytes'): Uint8Array {
  if (v === undefined || v === null) return new Uint8Array(kind === 'addr' ? 32 : 0);
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') {
    if (kind === 'addr' && v.length === 58 && isValidAddress(v)) return decodeAddress(v);
    return fromBase64(v);
  }
  throw new WatchError(`not bytes in the transaction: ${JSON.stringify(v)}`);
}

/** Reads field `name` (element `index` of an array field) of a transaction. */
export function txnField(txn: Obj, name: string, groupIndex: number, index?: number): DebugValue {
  const arr = ARRAYS[name];
  if (arr) {
    if (index === undefined) throw new WatchError(`${name} is an array field: give an index, as txn.${name}[0] or txna ${name} 0`);
    const items = Array.isArray(txn[arr.key]) ? (txn[arr.key] as unknown[]) : [];
    // As the AVM reads them: Accounts 0 is the sender, Applications 0 the called app.
    if (name === 'Accounts') return index === 0 ? bytesOf(txn.snd, 'addr') : element(items, index - 1, name, index, (v) => bytesOf(v, 'addr'));
    if (name === 'Applications') return index === 0 ? uintOf(txn.apid) : element(items, index - 1, name, index, uintOf);
    return element(items, index, name, index, arr.kind === 'uint-elem' ? uintOf : (v) => bytesOf(v, 'bytes'));
  }
  if (index !== undefined) throw new WatchError(`${name} is not an array field: drop the index`);
  const count = Object.entries(ARRAYS).find(([, a]) => a.count === name);
  if (count) return BigInt(Array.isArray(txn[count[1].key]) ? (txn[count[1].key] as unknown[]).length : 0);
  if (name === 'GroupIndex') return BigInt(groupIndex);
  if (name === 'Type') return utf8(typeof txn.type === 'string' ? txn.type : '');
  if (name === 'TypeEnum') return TYPE_ENUM[typeof txn.type === 'string' ? txn.type : ''] ?? 0n;
  const f = FIELDS[name];
  if (!f) {
    const close = ALL_FIELDS.filter((n) => n.toLowerCase() === name.toLowerCase());
    throw new WatchError(
      `no transaction field ${JSON.stringify(name)}${close.length ? ` (did you mean ${close[0]}?)` : ''}: fields are ${ALL_FIELDS.slice(0, 12).join(', ')}, …`,
    );
  }
  return f.kind === 'uint' ? uintOf(txn[f.key]) : bytesOf(txn[f.key], f.kind);
}

function element(items: unknown[], at: number, name: string, index: number, read: (v: unknown) => DebugValue): DebugValue {
  if (at < 0 || at >= items.length)
    throw new WatchError(
      `${name}[${index}] is out of range: the transaction has ${name === 'Accounts' || name === 'Applications' ? items.length + 1 : items.length}`,
    );
  return read(items[at]);
}

const NAME = '([A-Za-z]+)';
const INT = '(\\d+)';
/** The transaction-field spellings, each with the group index (if any), field, array index. */
const TXN_FORMS: { re: RegExp; group?: number; field: number; index?: number }[] = [
  { re: new RegExp(`^txn\\s*\\.\\s*${NAME}(?:\\s*\\[\\s*${INT}\\s*\\])?$`), field: 1, index: 2 },
  { re: new RegExp(`^txna?\\s+${NAME}(?:\\s+${INT})?$`), field: 1, index: 2 },
  { re: new RegExp(`^gtxn\\s*\\[\\s*${INT}\\s*\\]\\s*\\.\\s*${NAME}(?:\\s*\\[\\s*${INT}\\s*\\])?$`), group: 1, field: 2, index: 3 },
  { re: new RegExp(`^gtxna?\\s+${INT}\\s+${NAME}(?:\\s+${INT})?$`), group: 1, field: 2, index: 3 },
];

/** Evaluates a transaction-field expression, or returns undefined when `e` is not one. */
function txnExpression(e: string, ctx: ConsoleContext): DebugValue | undefined {
  for (const form of TXN_FORMS) {
    const m = form.re.exec(e);
    if (!m) continue;
    const index = form.index !== undefined && m[form.index] !== undefined ? Number(m[form.index]) : undefined;
    const field = m[form.field]!;
    if (form.group === undefined) {
      const txn = ctx.snap.frame.txn;
      const groupIndex = ctx.snap.frame.path.length === 1 ? ctx.snap.frame.path[0]! : ctx.snap.frame.path[ctx.snap.frame.path.length - 1]!;
      return txnField(txn, field, groupIndex, index);
    }
    const g = Number(m[form.group]);
    const txn = ctx.group[g];
    if (!txn)
      throw new WatchError(
        `gtxn ${g} is out of range: the group has ${ctx.group.length} transaction${ctx.group.length === 1 ? '' : 's'} (0…${ctx.group.length - 1})`,
      );
    return txnField(txn, field, g, index);
  }
  return undefined;
}

/** A literal: a number, "text", 0x-hex or an address. */
function literal(t: string): DebugValue | undefined {
  if (/^\d+$/.test(t)) return BigInt(t);
  if (/^0x([0-9a-fA-F]{2})*$/.test(t)) return fromHex(t.slice(2));
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(t);
  if (m) return utf8(JSON.parse(`"${m[1]}"`) as string);
  if (t.length === 58 && isValidAddress(t)) return decodeAddress(t);
  return undefined;
}

/** One operand: a literal, a transaction field, or a watch expression. */
export function evaluateOperand(expression: string, ctx: ConsoleContext): { value: DebugValue } | { absent: string } {
  const e = expression.trim();
  const lit = literal(e);
  if (lit !== undefined) return { value: lit };
  const field = txnExpression(e, ctx);
  if (field !== undefined) return { value: field };
  if (/^g?txna?\b/.test(e)) {
    throw new WatchError(`cannot read "${e}": write txn.Amount, txn Amount, txn.ApplicationArgs[0], gtxn[1].Receiver or gtxn 1 Receiver`);
  }
  const r = evaluateWatch(e, ctx.snap);
  return r.value !== undefined ? { value: r.value } : { absent: r.absent ?? '(none)' };
}

/** Splits `a OP b` at the first comparison operator outside quotes and brackets. */
function splitComparison(e: string): { left: string; op: string; right: string } | undefined {
  let depth = 0;
  let quote = false;
  for (let i = 0; i < e.length; i++) {
    const c = e[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === '"') quote = false;
      continue;
    }
    if (c === '"') quote = true;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0) {
      const two = e.slice(i, i + 2);
      const op = ['==', '!=', '<=', '>='].includes(two) ? two : c === '<' || c === '>' ? c : undefined;
      if (op) return { left: e.slice(0, i).trim(), op, right: e.slice(i + op.length).trim() };
    }
  }
  return undefined;
}

/** Equality for `==` / `!=`: bytes must match exactly. */
function equal(a: DebugValue, b: DebugValue): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  if (typeof a !== 'bigint' && typeof b !== 'bigint') return toHex(a) === toHex(b);
  throw mixed();
}

/** Order for `<` `<=` `>` `>=`: numbers, or byte strings as big-endian numbers (as the AVM's `b<`). */
function order(a: DebugValue, b: DebugValue): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a !== 'bigint' && typeof b !== 'bigint') {
    const x = toHex(a).replace(/^(00)+/, '');
    const y = toHex(b).replace(/^(00)+/, '');
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    return x === y ? 0 : x < y ? -1 : 1;
  }
  throw mixed();
}

function mixed(): WatchError {
  return new WatchError('cannot compare a uint64 with bytes: compare like with like (0x0000000000000005 is bytes, 5 a number)');
}

/** Evaluates a console expression: a comparison, a transaction field, or a watch expression. */
export function evaluateConsole(expression: string, ctx: ConsoleContext): ConsoleResult {
  const e = expression.trim();
  const cmp = splitComparison(e);
  if (cmp) {
    if (!cmp.left || !cmp.right) throw new WatchError(`"${e}" compares nothing: write a value on each side of ${cmp.op}`);
    const left = evaluateOperand(cmp.left, ctx);
    const right = evaluateOperand(cmp.right, ctx);
    // An absent state entry equals nothing, and differs from everything.
    if (!('value' in left) || !('value' in right)) return { verdict: cmp.op === '!=' };
    if (cmp.op === '==' || cmp.op === '!=') return { verdict: equal(left.value, right.value) === (cmp.op === '==') };
    const c = order(left.value, right.value);
    const verdict = cmp.op === '<' ? c < 0 : cmp.op === '<=' ? c <= 0 : cmp.op === '>' ? c > 0 : c >= 0;
    return { verdict };
  }
  return evaluateOperand(e, ctx);
}

/** A breakpoint condition: true when the comparison holds, or the value is non-zero / non-empty. */
export function consoleConditionHolds(condition: string, ctx: ConsoleContext): boolean {
  const r = evaluateConsole(condition, ctx);
  if ('verdict' in r) return r.verdict;
  if ('absent' in r) return false;
  return typeof r.value === 'bigint' ? r.value !== 0n : r.value.length > 0;
}
