import type { Signer } from '../adapters/signer.js';
import type { Transaction, TransactionType } from '../txn/types.js';
import { ClientError } from './errors.js';

/*
 * Types the generated clients use so that a wrong argument is a compile error: transaction
 * arguments of the right type, and byte arrays of the length the method declares.
 */

/**
 * A transaction argument of an ABI method: a transaction of type `T` (from `tw.build.*`, or built
 * by hand), alone or with the signer that signs it. `TxnArg` alone accepts any type (`txn` arguments).
 */
export type TxnArg<T extends TransactionType = TransactionType> = (Transaction & { type: T }) | { txn: Transaction & { type: T }; signer?: Signer };

/** Bytes known to be exactly `N` long (a `byte[N]` argument); make them with {@link fixedBytes}. */
export type FixedBytes<N extends number> = Uint8Array & { readonly fixedLength: N };

/**
 * Checks that `value` (bytes, or text as UTF-8) is exactly `length` bytes long and types it so.
 *
 * @example
 * ```ts
 * await merkle.verify({ root: fixedBytes(32, hash) });
 * ```
 */
export function fixedBytes<N extends number>(length: N, value: Uint8Array | string): FixedBytes<N> {
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  if (!(bytes instanceof Uint8Array)) throw new ClientError(`fixedBytes(${length}, …) takes bytes or text`);
  if (bytes.length !== length) throw new ClientError(`expected exactly ${length} bytes, got ${bytes.length}`);
  return bytes as FixedBytes<N>;
}
