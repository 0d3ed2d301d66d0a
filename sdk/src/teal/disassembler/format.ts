import { encodeAddress } from '../../encoding/address.js';
import { toHex } from '../../encoding/hex.js';

function allPrintableAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 32 || b > 126) return false;
  }
  return true;
}

/**
 * How a byte constant is shown in a disassembly comment, as the reference does it: 32 bytes read
 * as an address, printable ASCII as a quoted string, anything else as hex.
 */
export function describeBytes(bytes: Uint8Array): string {
  if (bytes.length === 32) return `addr ${encodeAddress(bytes)}`;
  if (allPrintableAscii(bytes)) {
    let s = '"';
    for (let i = 0; i < bytes.length; i++) {
      const c = String.fromCharCode(bytes[i]!);
      s += c === '"' || c === '\\' ? `\\${c}` : c;
    }
    return s + '"';
  }
  return hexLiteral(bytes);
}

export function hexLiteral(bytes: Uint8Array): string {
  return `0x${toHex(bytes)}`;
}
