// How the state inspector and the simulate panel show values: one storage item in the view the
// user picked (bytes, UTF-8, uint, address, or the ARC-56 type), JSON export, and the simulate
// report turned into plain JSON (no bigint, no Uint8Array) for the webview.
import type { LogEntry, SimulateReport, StateChange, TxnReport, UnnamedResources } from '@tealworks/sdk/app';
import { bytesView, displayBytes, formatAbi, MinimumBalanceError, renderFailureChain, simulateFailure, type StorageItem } from '@tealworks/sdk/app';
import { formatBalance } from './summary.js';
import type { AbiValue } from '@tealworks/sdk/abi';
import { failureExplanation, verdictView, type FailureExplainView, type VerdictView } from './explainView.js';

export const VALUE_VIEWS = ['auto', 'bytes', 'utf8', 'uint', 'address', 'abi'] as const;
export type ValueView = (typeof VALUE_VIEWS)[number];

/** A raw value (bytes or a uint slot) in the chosen view; explains when the view does not apply. */
export function formatValue(value: Uint8Array | bigint, view: ValueView, decoded?: AbiValue): string {
  if (typeof value === 'bigint') {
    if (view === 'bytes') return '0x' + value.toString(16).padStart(16, '0');
    return value.toString();
  }
  const v = bytesView(value);
  switch (view) {
    case 'bytes':
      return '0x' + v.hex;
    case 'utf8':
      return v.utf8 !== undefined ? JSON.stringify(v.utf8) : `(not text) 0x${v.hex}`;
    case 'uint':
      return v.uint !== undefined ? v.uint.toString() : `(${value.length} bytes, not a uint) 0x${v.hex}`;
    case 'address':
      return v.address ?? `(${value.length} bytes, not an address) 0x${v.hex}`;
    case 'abi':
      return decoded !== undefined ? formatAbi(decoded) : displayBytes(value);
    case 'auto':
      return decoded !== undefined ? formatAbi(decoded) : displayBytes(value);
  }
}

/** The tree label for an item: the spec's name (or the key shown for people) and its value. */
export function itemLabel(item: StorageItem, view: ValueView): { key: string; value: string; type: string } {
  const key = item.match ? (item.match.kind === 'map' ? `${item.match.name}[${formatAbi(item.mapKey)}]` : item.match.name) : displayBytes(item.key);
  const type = item.match ? item.match.valueType : typeof item.value === 'bigint' ? 'uint64' : 'bytes';
  return { key, value: formatValue(item.value, view, item.decoded), type };
}

/** Longest value a State Inspector row shows; the tooltip shows more, "Show Whole Value" all of it. */
export const TREE_VALUE_MAX = 120;
const TOOLTIP_VALUE_MAX = 2000;

/** A storage item's tree row: label (value cut), tooltip (cut longer), whether it was cut, and the whole value to copy. */
export function itemRow(item: StorageItem, view: ValueView): { label: string; type: string; tooltip: string; clipped: boolean; value: string } {
  const l = itemLabel(item, view);
  const shown = clipValue(l.value, TREE_VALUE_MAX);
  return {
    label: `${l.key} = ${shown.text}`,
    type: l.type,
    tooltip: `${l.key}\n${l.type}\n${clipText(l.value, TOOLTIP_VALUE_MAX)}${item.decodeError ? `\n${item.decodeError}` : ''}`,
    clipped: shown.full !== undefined,
    value: l.value,
  };
}

/** Recursively replaces bigints with decimal strings and bytes with hex, for JSON and postMessage. */
export function toPlain(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return '0x' + bytesView(value).hex;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value && typeof value === 'object') {
    if ((value as object).constructor?.name === 'Address') return String(value);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toPlain(v);
    return out;
  }
  return value;
}

export function itemToJson(item: StorageItem): Record<string, unknown> {
  const v = bytesView(item.key);
  return {
    key: { hex: v.hex, base64: v.base64, ...(v.utf8 !== undefined ? { utf8: v.utf8 } : {}) },
    ...(item.match ? { name: item.match.name, type: item.match.valueType } : {}),
    value:
      typeof item.value === 'bigint'
        ? { uint: item.value.toString() }
        : toPlain({
            hex: item.valueView?.hex,
            base64: item.valueView?.base64,
            utf8: item.valueView?.utf8,
            uint: item.valueView?.uint,
            address: item.valueView?.address,
          }),
    ...(item.decoded !== undefined ? { decoded: toPlain(item.decoded) } : {}),
    ...(item.decodeError ? { decodeError: item.decodeError } : {}),
  };
}

/** The JSON export of one app's storage. */
export function exportAppState(
  appId: bigint,
  state: { global: StorageItem[]; boxes: StorageItem[]; local: Array<{ address: string; items: StorageItem[] }> },
): string {
  return (
    JSON.stringify(
      {
        appId: appId.toString(),
        global: state.global.map(itemToJson),
        local: state.local.map((l) => ({ address: l.address, state: l.items.map(itemToJson) })),
        boxes: state.boxes.map(itemToJson),
      },
      null,
      2,
    ) + '\n'
  );
}

// ---------------------------------------------------------------------------------------------
// The simulate report for the webview

export interface LogView {
  kind: LogEntry['kind'];
  /** Cut when long (see `full`). */
  text: string;
  /** The whole text, when `text` was cut: the panel's "show all" shows it. */
  full?: string;
  hex: string;
  /** The raw bytes as 0x hex (cut when long), when they add to the text. */
  raw?: string;
  utf8?: string;
}
export interface ChangeView {
  scope: 'global' | 'local' | 'box';
  account?: string;
  action: 'set' | 'delete';
  text: string;
  /** The whole text, when `text` was cut. */
  full?: string;
}
export interface TxnView {
  path: number[];
  label: string;
  type: string;
  sender?: string;
  appId?: string;
  createdAppId?: string;
  method?: string;
  failed: boolean;
  returnValue?: string;
  /** The whole return value, when `returnValue` was cut. */
  returnFull?: string;
  returnError?: string;
  logs: LogView[];
  changes: ChangeView[];
  budget?: number;
  resources: string[];
  inner: TxnView[];
}
export interface ReportView {
  wouldSucceed: boolean;
  failedAt?: number[];
  failedAtLabel?: string;
  message?: string;
  errorMessage?: string;
  pc?: number;
  program?: string;
  source?: { file?: string; line: number; column: number; text?: string; definition?: { line: number; column: number } };
  /** The TEAL line, when `source` is in the user's own source (Algorand Python / TypeScript). */
  teal?: { file?: string; line: number; column: number; text?: string };
  /** The failing program and the app calls around it, outermost first (one readable line each, with its location to link). */
  chain?: Array<{ text: string; file?: string; line?: number; column?: number; failing: boolean }>;
  budget: { added?: number; consumed?: number };
  txns: TxnView[];
  resources: string[];
  /** Why it failed: the failing op, its operands, the stack and the path (see explainView.ts). */
  explain?: FailureExplainView;
  verdict: VerdictView;
  /** A minimum-balance rejection: whose account, by how much, and (for an app's account) the app to fund. */
  minBalance?: MinBalanceView;
}

export interface MinBalanceView {
  address: string;
  appId?: string;
  /** Micro-units the account lacks (decimal text). */
  shortBy: string;
  text: string;
}

/** Explains a minimum-balance rejection (not a program failure: no TEAL line is to blame). */
export function minBalanceView(r: SimulateReport): MinBalanceView | undefined {
  if (r.wouldSucceed) return undefined;
  const appIds: bigint[] = [];
  const walk = (ts: readonly TxnReport[]) =>
    ts.forEach((t) => {
      if (t.appId !== undefined) appIds.push(t.appId);
      walk(t.inner);
    });
  walk(r.txns);
  const e = simulateFailure(r, appIds);
  if (!(e instanceof MinimumBalanceError)) return undefined;
  const whose = e.appId !== undefined ? `The account of app ${e.appId}` : `Account ${e.address.slice(0, 8)}…`;
  const fix = e.appId !== undefined ? 'fund the app account (boxes, assets and opt-ins raise what it must hold), then simulate again' : 'fund it, or send less';
  return {
    address: e.address,
    ...(e.appId !== undefined ? { appId: e.appId.toString() } : {}),
    shortBy: e.shortBy.toString(),
    text: `${whose} would drop below its minimum balance: it is short by ${formatBalance(e.shortBy)}. Not a program failure: ${fix}.`,
  };
}

export function pathText(path: readonly number[]): string {
  return path.map((p, i) => (i === 0 ? `txn ${p}` : `inner ${p}`)).join(' › ');
}

/** Longest text a log line shows before it is cut (the full value stays in the raw hex's tooltip and the copy). */
export const LOG_TEXT_MAX = 160;

/** `text` cut to `max` characters with what was left out said, e.g. `abc… (+2,000 characters)`. */
export function clipText(text: string, max = LOG_TEXT_MAX): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (+${(text.length - max).toLocaleString('en-US')} characters)`;
}

/** Longest value (return value, state change) the panel shows before it offers "show all". */
export const VALUE_TEXT_MAX = 200;

/**
 * A value for the panel: `text` cut to `max` characters (saying how much was left out) and, when it
 * was cut, the whole value as `full`, which the panel's "show all" expands to.
 */
export function clipValue(text: string, max = VALUE_TEXT_MAX): { text: string; full?: string } {
  const cut = clipText(text, max);
  return cut === text ? { text } : { text: cut, full: text };
}

/**
 * One log line for the panel. The kind is shown as its own tag, so the text does not repeat it
 * ("event Name(…)" was shown as "event event Name(…)"); the raw hex is given only when it says
 * something the text does not; long values are cut.
 */
export function logView(l: LogEntry): LogView {
  let text: string;
  if (l.kind === 'event' && l.event)
    text = `${l.event.name}(${
      Object.entries(l.event.named)
        .map(([k, v]) => `${k}=${formatAbi(v)}`)
        .join(', ') || l.event.args.map((a) => formatAbi(a)).join(', ')
    })`;
  else if (l.kind === 'return') text = `0x${l.view.hex.slice(8)}`;
  else text = displayBytes(l.bytes);
  const raw = `0x${l.view.hex}`;
  const showRaw = l.kind === 'event' || (l.kind !== 'return' && text !== raw);
  const shown = clipValue(text, LOG_TEXT_MAX);
  return {
    kind: l.kind,
    text: shown.text,
    ...(shown.full !== undefined ? { full: shown.full } : {}),
    hex: l.view.hex,
    ...(showRaw ? { raw: clipText(raw, 2 * 64 + 2) } : {}),
    ...(l.view.utf8 !== undefined ? { utf8: l.view.utf8 } : {}),
  };
}

function changeText(c: StateChange): string {
  if (c.action === 'delete') return `delete ${itemLabel(c.item, 'auto').key}`;
  const l = itemLabel(c.item, 'auto');
  return `${l.key} = ${l.value}`;
}

export function resourcesText(u: UnnamedResources | undefined): string[] {
  if (!u) return [];
  const out: string[] = [];
  for (const a of u.accounts) out.push(`account ${a}`);
  for (const a of u.apps) out.push(`app ${a}`);
  for (const a of u.assets) out.push(`asset ${a}`);
  for (const b of u.boxes) out.push(`box ${displayBytes(b.name)} of app ${b.app}`);
  if (u.extraBoxRefs) out.push(`${u.extraBoxRefs} extra box reference${u.extraBoxRefs === 1 ? '' : 's'} (I/O budget)`);
  for (const h of u.assetHoldings) out.push(`holding of asset ${h.asset} by ${h.account}`);
  for (const h of u.appLocals) out.push(`local state of app ${h.app} for ${h.account}`);
  return out;
}

const TYPE_NAMES: Record<string, string> = {
  pay: 'payment',
  axfer: 'asset transfer',
  appl: 'app call',
  acfg: 'asset config',
  afrz: 'asset freeze',
  keyreg: 'key registration',
};

function txnView(t: TxnReport): TxnView {
  const changes: ChangeView[] = [];
  for (const c of t.globalChanges) {
    // Box writes are reported with the global changes by some services; the key scope tells.
    changes.push({ scope: 'global', action: c.action, ...clipValue(changeText(c)) });
  }
  for (const l of t.localChanges)
    for (const c of l.changes) changes.push({ scope: 'local', account: l.address, action: c.action, ...clipValue(changeText(c)) });
  for (const c of t.boxChanges) changes.push({ scope: 'box', action: c.action, ...clipValue(changeText(c)) });
  const view: TxnView = {
    path: t.path,
    label: pathText(t.path),
    type: TYPE_NAMES[t.type ?? ''] ?? t.type ?? '?',
    failed: t.failed,
    logs: t.logs.map(logView),
    changes,
    resources: resourcesText(t.unnamedResources),
    inner: t.inner.map(txnView),
  };
  if (t.sender) view.sender = t.sender;
  if (t.appId !== undefined) view.appId = t.appId.toString();
  if (t.createdAppId !== undefined) view.createdAppId = t.createdAppId.toString();
  if (t.method) view.method = t.method;
  if (t.returnValue !== undefined) {
    const r = clipValue(formatAbi(t.returnValue));
    view.returnValue = r.text;
    if (r.full !== undefined) view.returnFull = r.full;
  }
  if (t.returnError) view.returnError = t.returnError;
  if (t.appBudgetConsumed !== undefined) view.budget = t.appBudgetConsumed;
  return view;
}

/**
 * The node's failure text as the panel shows it: without the leading `transaction <txid>: ` (the
 * failing transaction is named beside it, with its id) and without the second `pc=N` of
 * `Details:` when it repeats the pc already given (`assert failed pc=87. Details: app=1001, pc=87, …`).
 */
export function panelFailureMessage(message: string): string {
  let text = message.replace(/^transaction [A-Z2-7]{52}: /, '');
  const pc = /\bpc=(\d+)\. Details: /.exec(text);
  if (pc) text = text.replace(new RegExp(`(\\. Details: (?:[^,]*, )*?)pc=${pc[1]}, `), '$1');
  return text;
}

export function reportView(r: SimulateReport): ReportView {
  const view: ReportView = {
    wouldSucceed: r.wouldSucceed,
    budget: { ...r.budget },
    txns: r.txns.map(txnView),
    resources: resourcesText(r.unnamedResources),
    verdict: verdictView({ wouldSucceed: r.wouldSucceed, ...(r.failedAt ? { failedAtLabel: pathText(r.failedAt) } : {}) }),
  };
  const explain = failureExplanation(r);
  if (explain) view.explain = explain;
  if (r.failedAt) {
    view.failedAt = r.failedAt;
    view.failedAtLabel = pathText(r.failedAt);
  }
  if (r.failureMessage) view.message = panelFailureMessage(r.failureMessage);
  const minBalance = minBalanceView(r);
  if (minBalance) view.minBalance = minBalance;
  const f = r.failure;
  if (f) {
    if (f.errorMessage) view.errorMessage = f.errorMessage;
    if (f.pc !== undefined) view.pc = f.pc;
    view.program = f.program;
    if (f.userSource) {
      view.source = { ...f.userSource };
      if (f.source) view.teal = { ...f.source };
    } else if (f.source) view.source = { ...f.source };
    if (f.chain && (f.chain.length > 1 || f.userSource)) {
      const lines = renderFailureChain(f.chain);
      view.chain = f.chain.map((c, i) => ({
        text: lines[i]!,
        failing: c.failing,
        ...(c.source?.file !== undefined ? { file: c.source.file, line: c.source.line, column: c.source.column } : {}),
      }));
    }
  }
  return view;
}
