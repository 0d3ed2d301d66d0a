// Integers in the query service's JSON. Bodies are written by the native serializer, which knows
// no bigint: a renderer writes each uint64 with `num`, a number when exact and otherwise a marked
// string that `jsonReply` turns back into a bare integer literal after serializing.

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Prefix of an integer written as text (a NUL character: no rendered string holds one). */
export const BIG_MARK = '\u0000n:';

/** A uint64 for a JSON body: a number when exact, else marked text that `jsonReply` unquotes. */
export function num(v: bigint): number | string {
  return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : BIG_MARK + v.toString();
}
