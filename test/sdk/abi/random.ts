import { encodeAddress } from '../../../sdk/src/encoding/address.js';
import {
  AbiAddressType,
  AbiBoolType,
  AbiByteType,
  AbiDynamicArrayType,
  AbiStaticArrayType,
  AbiStringType,
  AbiTupleType,
  AbiUfixedType,
  AbiUintType,
  type AbiType,
  type AbiValue,
} from '../../../sdk/src/abi/index.js';

export { prng } from '../../helpers/random.js';

export class Gen {
  constructor(readonly rand: () => number) {}

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => this.int(0, 255));
  }

  /** Uniform-ish over bit lengths so small, edge and maximal values all show up. */
  uint(bits: number): bigint {
    const choice = this.int(0, 9);
    const max = (1n << BigInt(bits)) - 1n;
    if (choice === 0) return 0n;
    if (choice === 1) return max;
    const len = this.int(1, bits);
    let v = 0n;
    for (let i = 0; i < len; i++) v = (v << 1n) | BigInt(this.int(0, 1));
    return v & max;
  }

  type(depth = 0): AbiType {
    const leaf = depth >= 3 || this.rand() < 0.45;
    if (leaf) {
      switch (this.int(0, 6)) {
        case 0:
          return new AbiUintType(this.pick([8, 16, 32, 64, 64, 64, 128, 256, 512]) as number);
        case 1:
          return new AbiUfixedType(this.pick([8, 64, 128, 256]) as number, this.int(1, 160));
        case 2:
        case 3:
          return new AbiBoolType();
        case 4:
          return new AbiByteType();
        case 5:
          return new AbiAddressType();
        default:
          return new AbiStringType();
      }
    }
    switch (this.int(0, 2)) {
      case 0:
        return new AbiStaticArrayType(this.type(depth + 1), this.int(0, 5));
      case 1:
        return new AbiDynamicArrayType(this.type(depth + 1));
      default: {
        const n = this.int(0, 6);
        return new AbiTupleType(Array.from({ length: n }, () => this.type(depth + 1)));
      }
    }
  }

  value(type: AbiType): AbiValue {
    if (type instanceof AbiUintType || type instanceof AbiUfixedType) return this.uint(type.bitSize);
    if (type instanceof AbiBoolType) return this.rand() < 0.5;
    if (type instanceof AbiByteType) return this.int(0, 255);
    if (type instanceof AbiAddressType) return encodeAddress(this.bytes(32));
    if (type instanceof AbiStringType) {
      const alphabet = ['a', 'Z', '0', ' ', 'é', '€', '😀', '\n', '"'];
      return Array.from({ length: this.int(0, 12) }, () => this.pick(alphabet)).join('');
    }
    if (type instanceof AbiStaticArrayType) {
      if (type.childType instanceof AbiByteType) return this.bytes(type.length);
      return Array.from({ length: type.length }, () => this.value(type.childType));
    }
    if (type instanceof AbiDynamicArrayType) {
      const n = this.int(0, 5);
      if (type.childType instanceof AbiByteType) return this.bytes(n);
      return Array.from({ length: n }, () => this.value(type.childType));
    }
    if (type instanceof AbiTupleType) return type.childTypes.map((t) => this.value(t));
    throw new Error(`no generator for ${type.toString()}`);
  }
}

/** Our decoded values use Uint8Array for byte arrays; algosdk uses number arrays. */
export function normalize(value: unknown): unknown {
  if (value instanceof Uint8Array) return Array.from(value);
  if (Array.isArray(value)) return value.map(normalize);
  return value;
}
