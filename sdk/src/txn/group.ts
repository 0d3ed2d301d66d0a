import { utf8 } from '../encoding/bytes.js';
import { encodeMsgpackWithPrefix } from '../encoding/msgpack.js';
import { sha512_256 } from '../crypto/hash.js';
import { TX_PREFIX } from './encode.js';
import { TxnValidationError } from './errors.js';
import { DEFAULT_LIMITS, type ConsensusLimits } from './limits.js';
import type { Transaction } from './types.js';
import { transactionToWire } from './wire.js';

const TG_PREFIX = utf8('TG');

function txidWithoutGroup(txn: Transaction): Uint8Array {
  const wire = transactionToWire(txn);
  delete wire.grp;
  return sha512_256(encodeMsgpackWithPrefix(TX_PREFIX, wire));
}

/** `sha512_256("TG" || msgpack({txlist: [txid…]}))`, each txid computed with `grp` absent. */
export function computeGroupId(txns: readonly Transaction[], limits: ConsensusLimits = DEFAULT_LIMITS): Uint8Array {
  if (txns.length === 0) throw new TxnValidationError('group', 'a group needs at least one transaction', { value: 0 });
  if (txns.length > limits.maxTxGroupSize) {
    throw new TxnValidationError('group', `group has ${txns.length} transactions, more than the limit of ${limits.maxTxGroupSize}`, {
      value: txns.length,
      limit: limits.maxTxGroupSize,
    });
  }
  return sha512_256(encodeMsgpackWithPrefix(TG_PREFIX, { txlist: txns.map(txidWithoutGroup) }));
}

/** Returns copies of the transactions with `group` set to their group id (inputs are not changed). */
export function assignGroupId(txns: readonly Transaction[], limits: ConsensusLimits = DEFAULT_LIMITS): Transaction[] {
  const group = computeGroupId(txns, limits);
  return txns.map((t) => ({ ...t, group }));
}
