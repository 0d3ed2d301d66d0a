import assert from 'node:assert/strict';
import type { ProgramResult } from '../../../../sdk/src/avm/index.js';

/** Asserts the program ran to completion and approved. */
export function approves<T extends ProgramResult>(r: T | { result: T }): T {
  const res = 'result' in r ? r.result : r;
  assert.equal(res.error?.message, undefined, 'unexpected failure');
  assert.equal(res.approved, true, 'program rejected');
  return res;
}

/** Asserts the program failed with a reason containing `reason` (the node's wording). */
export function failsWith<T extends ProgramResult>(r: T | { result: T }, reason: string | RegExp): T {
  const res = 'result' in r ? r.result : r;
  assert.equal(res.approved, false);
  assert.ok(res.error, 'expected a LogicError');
  if (typeof reason === 'string') assert.ok(res.error!.reason.includes(reason), `reason "${res.error!.reason}" lacks "${reason}"`);
  else assert.match(res.error!.reason, reason);
  return res;
}

/** Deterministic PRNG (xorshift64*) so property tests are reproducible. */
export function prng(seed: bigint): () => bigint {
  let x = seed || 1n;
  const M = (1n << 64n) - 1n;
  return () => {
    x ^= x >> 12n;
    x ^= (x << 25n) & M;
    x ^= x >> 27n;
    return (x * 0x2545f4914f6cdd1dn) & M;
  };
}
