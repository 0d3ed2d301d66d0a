import { ClientError } from './errors.js';

/*
 * Amounts of the native currency. One unit is 1,000,000 micro-units; everything on the wire is in
 * micro-units as a bigint. `algos(1.5)` and `microAlgos(5)` say the unit at the call site, so a
 * script cannot pay a million times too much by forgetting which one a bare number means.
 */

const MICRO_PER_UNIT = 1_000_000n;

/** An amount of the native currency, held exactly in micro-units. Make one with {@link algos} or {@link microAlgos}. */
export class AlgoAmount {
  /** The amount in micro-units. */
  readonly microAlgos: bigint;

  /** Prefer {@link algos} / {@link microAlgos}; this takes micro-units. */
  constructor(microUnits: bigint) {
    if (microUnits < 0n) throw new ClientError(`an amount cannot be negative (got ${microUnits} micro-units)`);
    if (microUnits >= 1n << 64n) throw new ClientError(`${microUnits} micro-units does not fit in 64 bits`);
    this.microAlgos = microUnits;
  }

  /** The amount in whole units as a decimal string, e.g. `"1.500000"`. */
  get algos(): string {
    return `${this.microAlgos / MICRO_PER_UNIT}.${(this.microAlgos % MICRO_PER_UNIT).toString().padStart(6, '0')}`;
  }

  /** `"1.500000 ALGO"`. */
  toString(): string {
    return `${this.algos} ALGO`;
  }

  /** JSON as the micro-unit count in a string (bigint-safe). */
  toJSON(): string {
    return this.microAlgos.toString();
  }
}

/** An amount: an {@link AlgoAmount}, or a bigint / safe integer number of micro-units. */
export type AmountLike = AlgoAmount | bigint | number;

/** `microAlgos(5)` is five micro-units. Numbers must be safe integers; larger values need a bigint. */
export function microAlgos(amount: bigint | number): AlgoAmount {
  return new AlgoAmount(toMicro(amount, 'microAlgos'));
}

/**
 * `algos(1.5)` is 1,500,000 micro-units. Accepts a number with at most six decimals, a bigint of
 * whole units, or a decimal string such as `"1.5"` (exact for any size).
 */
export function algos(amount: number | bigint | string): AlgoAmount {
  if (typeof amount === 'bigint') return new AlgoAmount(amount * MICRO_PER_UNIT);
  const text = typeof amount === 'number' ? numberText(amount) : amount.trim();
  const m = /^(\d+)(?:\.(\d{0,6}))?$/.exec(text);
  if (!m)
    throw new ClientError(`algos(${JSON.stringify(amount)}): expected a non-negative amount with at most 6 decimals, e.g. algos(1.5) or algos("0.000001")`);
  return new AlgoAmount(BigInt(m[1]!) * MICRO_PER_UNIT + BigInt((m[2] ?? '').padEnd(6, '0')));
}

function numberText(n: number): string {
  if (!Number.isFinite(n) || n < 0) throw new ClientError(`algos(${n}): expected a finite, non-negative number`);
  if (n * 1e6 > Number.MAX_SAFE_INTEGER)
    throw new ClientError(`algos(${n}) is too large to be exact as a JavaScript number; pass a string (algos("${n}")) or a bigint of whole units`);
  // Round to micro-units: 0.1 + 0.2 style binary noise must not make a seventh decimal.
  const micro = Math.round(n * 1e6);
  return `${Math.floor(micro / 1e6)}.${String(micro % 1e6).padStart(6, '0')}`;
}

function toMicro(amount: bigint | number, what: string): bigint {
  if (typeof amount === 'bigint') return amount;
  if (!Number.isInteger(amount)) throw new ClientError(`${what}(${amount}): micro-units are whole numbers; use algos(${amount}) for whole units with decimals`);
  if (!Number.isSafeInteger(amount)) throw new ClientError(unsafeNumberMessage(amount, what));
  return BigInt(amount);
}

/** The message for a number past 2^53: it has already lost precision, so only a bigint can say the value. */
export function unsafeNumberMessage(value: number, what: string): string {
  return `${what}: ${value} is larger than JavaScript numbers hold exactly (2^53 - 1); pass a bigint instead, e.g. ${BigInt(Math.trunc(value))}n`;
}

/** Micro-units of any {@link AmountLike}; rejects fractions, negatives and unsafe numbers with a message that says what to pass. */
export function toMicroAlgos(amount: AmountLike, what = 'amount'): bigint {
  if (amount instanceof AlgoAmount) return amount.microAlgos;
  const micro = toMicro(amount, what);
  if (micro < 0n) throw new ClientError(`${what} cannot be negative (got ${micro})`);
  return micro;
}

/** A uint64 argument given as a bigint or a safe integer number. */
export function toUint64(value: bigint | number, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isInteger(value)) throw new ClientError(`${what} must be a whole number, got ${value}`);
  if (!Number.isSafeInteger(value)) throw new ClientError(unsafeNumberMessage(value, what));
  return BigInt(value);
}
