// Finds `int N` statements whose number is compared with a transaction field that has named values
// (TypeEnum, OnCompletion): `txn TypeEnum; int 6; ==` reads better as `int appl`. Inlay hints show
// the name; a code action writes it.
import type { TokenInfo } from '@tealworks/sdk/teal';
import type { DocumentModel } from '../document.js';
import { NAMED_INT_CONSTANTS } from '../language.js';
import { parseTealUint } from '@tealworks/sdk/teal';

export interface NamedNumber {
  /** The number token (written at its use site, not inside a macro body). */
  token: TokenInfo;
  value: number;
  name: string;
  field: 'TypeEnum' | 'OnCompletion';
}

const FIELD_OPS = new Set(['txn', 'gtxn', 'gtxns', 'itxn', 'gitxn', 'txnas', 'gtxnas', 'gtxnsas']);
const COMPARE = new Set(['==', '!=']);

const cache = new WeakMap<DocumentModel, NamedNumber[]>();

export function namedNumbers(model: DocumentModel): NamedNumber[] {
  let out = cache.get(model);
  if (!out) cache.set(model, (out = find(model)));
  return out;
}

function find(model: DocumentModel): NamedNumber[] {
  const out: NamedNumber[] = [];
  const st = (model.analysis?.statements ?? []).filter((s) => s.op);
  const fieldOf = (i: number): 'TypeEnum' | 'OnCompletion' | undefined => {
    const s = st[i];
    if (!s?.op || !FIELD_OPS.has(s.op)) return undefined;
    const last = s.tokens[s.tokens.length - 1]?.text;
    return last === 'TypeEnum' || last === 'OnCompletion' ? last : undefined;
  };
  st.forEach((s, i) => {
    if (s.op !== 'int') return;
    const numTok = s.tokens[s.tokens.length - 1]!;
    if (numTok.definition || s.tokens.length !== (s.label ? 3 : 2)) return;
    const v = parseTealUint(numTok.text);
    if (v === undefined) return;
    let field: 'TypeEnum' | 'OnCompletion' | undefined;
    if (fieldOf(i - 1) && COMPARE.has(st[i + 1]?.op ?? '')) field = fieldOf(i - 1);
    else if (fieldOf(i + 1) && COMPARE.has(st[i + 2]?.op ?? '')) field = fieldOf(i + 1);
    if (!field) return;
    const named = NAMED_INT_CONSTANTS.find((c) => c.kind === field && BigInt(c.value) === v);
    if (named) out.push({ token: numTok, value: Number(v), name: named.name, field });
  });
  return out;
}
