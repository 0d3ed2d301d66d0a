/** Macro-name rules for `#define`, with the reference's error texts. */
import { asmOp, fieldNamesAt } from './optable.js';

/** The named transaction-type constants (`pay`, `appl`, …) and their values, as `int` accepts them. */
export const TXN_TYPE_CONSTANTS: ReadonlyMap<string, bigint> = new Map([
  ['unknown', 0n],
  ['pay', 1n],
  ['keyreg', 2n],
  ['acfg', 3n],
  ['axfer', 4n],
  ['afrz', 5n],
  ['appl', 6n],
  ['stpf', 7n],
  ['hb', 8n],
  ['Payment', 1n],
  ['KeyRegistration', 2n],
  ['AssetConfig', 3n],
  ['AssetTransfer', 4n],
  ['AssetFreeze', 5n],
  ['ApplicationCall', 6n],
  ['State Proof', 7n],
  ['Consensus heartbeat', 8n],
]);

/** The named OnCompletion constants (`NoOp`, `OptIn`, …) and their values, as `int` accepts them. */
export const ON_COMPLETION_CONSTANTS: ReadonlyMap<string, bigint> = new Map([
  ['NoOp', 0n],
  ['OptIn', 1n],
  ['CloseOut', 2n],
  ['ClearState', 3n],
  ['UpdateApplication', 4n],
  ['DeleteApplication', 5n],
]);

/** Ops whose name is also a pseudo-op the assembler expands (so macro and label rules treat them alike). */
export const PSEUDO_OP_NAMES: ReadonlySet<string> = new Set(['int', 'byte', 'addr', 'method', 'txn', 'gtxn', 'gtxns', 'extract', 'replace']);

const OTHER_ALLOWED = new Set('+-*/^%&|~!><=?_');
const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;

/** The reason `name` cannot be a macro name, or undefined. `version` undefined = not yet known. */
export function macroNameProblem(name: string, version: number | undefined, labels: ReadonlyMap<string, unknown>): string | undefined {
  let first = '';
  let second = '';
  let count = 0;
  for (const r of name) {
    if (count === 0) first = r;
    else if (count === 1) second = r;
    if (!LETTER.test(r) && !DIGIT.test(r) && !OTHER_ALLOWED.has(r)) return `${r} character not allowed in macro name`;
    count++;
  }
  if (DIGIT.test(first)) return `Cannot begin macro name with number: ${name}`;
  if (name.length > 1 && (first === '-' || first === '+') && DIGIT.test(second)) return `Cannot begin macro name with number: ${name}`;
  if (name === 'b64' || name === 'base64' || name === 'b32' || name === 'base32') return `Cannot use ${name} as macro name`;
  if (TXN_TYPE_CONSTANTS.has(name) || ON_COMPLETION_CONSTANTS.has(name)) return `Named constants cannot be used as macro names: ${name}`;
  if (PSEUDO_OP_NAMES.has(name)) return `Macro names cannot be pseudo-ops: ${name}`;
  if (version !== undefined) {
    if (asmOp(name, version)) return `Macro names cannot be opcodes: ${name}`;
    if (fieldNamesAt(version).has(name)) return `Macro names cannot be field names: ${name}`;
  }
  if (labels.has(name)) return `Labels cannot be used as macro names: ${name}`;
  return undefined;
}
