import { fromHex, toHex } from '../../encoding/hex.js';
import { utf8 } from '../../encoding/bytes.js';
import { AppError } from '../errors.js';
import type { DebugValue, ReplaySnapshot } from './replay.js';

/*
 * Watch expressions, evaluated against a snapshot:
 *   stack[-1]  stack[0]  scratch[3]  pc  budget  logs[0]
 *   app[1001].global["count"]  app[1001].box["last"]  app[1001].local["ADDR…"]["k"]
 *   global["count"]  box[0x6b]  local["ADDR…"]["k"]   (the current program's app)
 * Keys are quoted text or 0x-hex. State reads answer with the value now; `.before` after the
 * key (`global["count"].before`) reads the value before the group ran.
 */

export class WatchError extends AppError {}

export interface WatchResult {
  value?: DebugValue;
  /** Set when the key or slot exists but holds nothing (deleted box, empty slot). */
  absent?: string;
}

function keyBytes(tok: string): Uint8Array {
  if (/^0x[0-9a-fA-F]*$/.test(tok)) {
    if ((tok.length - 2) % 2) throw new WatchError(`hex key ${tok} has an odd number of digits`);
    return fromHex(tok.slice(2));
  }
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(tok) ?? /^'((?:[^'\\]|\\.)*)'$/.exec(tok);
  if (!m) throw new WatchError(`key ${tok} must be "text" or 0x-hex`);
  return utf8(JSON.parse(`"${m[1]!.replace(/\\'/g, "'")}"`) as string);
}

/** Evaluates one watch expression; throws `WatchError` with what is wrong in it. */
export function evaluateWatch(expression: string, snap: ReplaySnapshot): WatchResult {
  const e = expression.trim();
  let m: RegExpExecArray | null;
  if (e === 'pc') return { value: BigInt(snap.pc) };
  if (e === 'budget') {
    if (snap.budgetUsed === undefined) throw new WatchError('budget is unknown without the program bytes');
    return { value: BigInt(snap.budgetUsed) };
  }
  if ((m = /^stack\s*\[\s*(-?\d+)\s*\]$/.exec(e))) {
    const i = Number(m[1]);
    const idx = i < 0 ? snap.stack.length + i : i;
    if (idx < 0 || idx >= snap.stack.length)
      throw new WatchError(`stack[${i}] is out of range: the stack has ${snap.stack.length} item${snap.stack.length === 1 ? '' : 's'}`);
    return { value: snap.stack[idx]! };
  }
  if ((m = /^scratch\s*\[\s*(\d+)\s*\]$/.exec(e))) {
    const slot = Number(m[1]);
    if (slot > 255) throw new WatchError(`scratch slots are 0…255, not ${slot}`);
    return { value: snap.scratch.get(slot) ?? 0n };
  }
  if ((m = /^logs\s*\[\s*(-?\d+)\s*\]$/.exec(e))) {
    const i = Number(m[1]);
    const idx = i < 0 ? snap.logs.length + i : i;
    const v = snap.logs[idx];
    if (!v) throw new WatchError(`logs[${i}] is out of range: ${snap.logs.length} log${snap.logs.length === 1 ? '' : 's'} so far`);
    return { value: v };
  }
  const state =
    /^(?:app\s*\[\s*(\d+)\s*\]\s*\.\s*)?(global|box|local)\s*\[\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|0x[0-9a-fA-F]*)\s*\](?:\s*\[\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|0x[0-9a-fA-F]*)\s*\])?(\s*\.\s*before)?$/.exec(
      e,
    );
  if (state) {
    const appId = state[1] !== undefined ? BigInt(state[1]) : snap.frame.appId;
    if (appId === undefined) throw new WatchError('this program is not an app: name one, as app[ID].global["key"]');
    const kind = state[2] as 'global' | 'box' | 'local';
    const app = snap.apps.get(appId);
    let entry: { before?: DebugValue; now?: DebugValue } | undefined;
    let what: string;
    if (kind === 'local') {
      if (state[4] === undefined) throw new WatchError('local state needs an account and a key: local["ADDRESS"]["key"]');
      const account = JSON.parse(state[3]!.replace(/^'|'$/g, '"')) as string;
      entry = app?.local.get(account)?.get(toHex(keyBytes(state[4])));
      what = `local ${state[4]} of ${account.slice(0, 8)}…`;
    } else {
      if (state[4] !== undefined) throw new WatchError(`${kind} state takes one key`);
      entry = (kind === 'global' ? app?.global : app?.box)?.get(toHex(keyBytes(state[3]!)));
      what = `${kind} ${state[3]}`;
    }
    const v = state[5] ? entry?.before : entry?.now;
    if (v === undefined) return { absent: `app ${appId} has no ${what}${state[5] ? ' before the group' : ''} that this run read or wrote` };
    return { value: v };
  }
  throw new WatchError(`cannot evaluate "${e}": try stack[-1], scratch[3], pc, budget, logs[0], global["key"], box["key"] or app[ID].global["key"]`);
}
