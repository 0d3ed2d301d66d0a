import { decodeAddress } from '../../encoding/address.js';
import { fromBase64 } from '../../encoding/base64.js';
import { fromBase32 } from '../../encoding/base32.js';
import { utf8 } from '../../encoding/bytes.js';
import { ValidationError } from '../../errors.js';

/** A box name parameter that does not follow the `encoding:value` grammar. */
export class BoxNameError extends ValidationError {
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function uint64Bytes(text: string): Uint8Array {
  if (!/^\d+$/.test(text) || BigInt(text) >= 1n << 64n) {
    throw new BoxNameError(text, `Could not parse uint64 from string (${text}): invalid syntax or out of range`);
  }
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(text));
  return out;
}

/**
 * Parses `encoding:value` (protocol.md §6.4): str/string, int/integer (8 bytes big-endian),
 * addr/address (32-byte key), b32/base32 (padded std base32), b64/base64 (padded std base64).
 * The `abi:` form needs an ABI type parser and is refused with a clear message.
 */
export function parseBoxName(input: string): Uint8Array {
  const colon = input.indexOf(':');
  if (colon < 0) throw new BoxNameError(input, "all arguments and box names should be of the form 'encoding:value'");
  const encoding = input.slice(0, colon);
  const value = input.slice(colon + 1);
  switch (encoding) {
    case 'str':
    case 'string':
      return utf8(value);
    case 'int':
    case 'integer':
      return uint64Bytes(value);
    case 'addr':
    case 'address':
      try {
        return decodeAddress(value);
      } catch (e) {
        throw new BoxNameError(input, `Could not unmarshal checksummed address from string (${value}): ${(e as Error).message}`);
      }
    case 'b32':
    case 'base32':
    case 'byte base32':
      try {
        return fromBase32(value, { padding: 'required' });
      } catch (e) {
        throw new BoxNameError(input, (e as Error).message);
      }
    case 'b64':
    case 'base64':
    case 'byte base64':
      try {
        return fromBase64(value);
      } catch (e) {
        throw new BoxNameError(input, (e as Error).message);
      }
    case 'abi':
      throw new BoxNameError(input, 'abi box names are not supported by this service; use b64: with the encoded bytes');
    default:
      throw new BoxNameError(input, `Unknown encoding: ${encoding}`);
  }
}
