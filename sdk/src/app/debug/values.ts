import { toHex } from '../../encoding/hex.js';
import { bytesView, displayBytes } from '../state-decode.js';
import type { DebugValue } from './replay.js';

/** One way of reading a value, for the debugger's variable views and the panel's stack. */
export interface TypedView {
  /** e.g. "uint64", "hex", "utf8", "address", "abi string". */
  label: string;
  text: string;
}

/** The value's type name as the AVM reports it. */
export function avmTypeName(v: DebugValue): 'uint64' | 'bytes' {
  return typeof v === 'bigint' ? 'uint64' : 'bytes';
}

/** The short form: a number, printable text in quotes, an address, or 0x-hex. */
export function formatDebugValue(v: DebugValue): string {
  if (typeof v === 'bigint') return v.toString();
  return v.length === 0 ? '0x (empty)' : displayBytes(v);
}

/**
 * Every reading of a value: uint64 as decimal and hex; bytes as hex, UTF-8 (when printable),
 * base64, an address (32 bytes), a big-endian integer (1…8 bytes) and the ABI types the bytes
 * fit exactly (uint64, bool, string, byte[], address).
 */
export function typedViews(v: DebugValue): TypedView[] {
  if (typeof v === 'bigint')
    return [
      { label: 'uint64', text: v.toString() },
      { label: 'hex', text: '0x' + v.toString(16).padStart(16, '0') },
    ];
  const out: TypedView[] = [
    { label: 'hex', text: '0x' + toHex(v) },
    { label: 'length', text: String(v.length) },
  ];
  const view = bytesView(v);
  if (view.utf8 !== undefined) out.push({ label: 'utf8', text: JSON.stringify(view.utf8) });
  out.push({ label: 'base64', text: view.base64 });
  if (view.address !== undefined) out.push({ label: 'address', text: view.address });
  if (view.uint !== undefined) out.push({ label: 'uint (big-endian)', text: view.uint.toString() });
  if (v.length === 8) out.push({ label: 'abi uint64', text: view.uint!.toString() });
  if (v.length === 1 && (v[0] === 0 || v[0] === 0x80)) out.push({ label: 'abi bool', text: v[0] === 0x80 ? 'true' : 'false' });
  if (v.length >= 2 && ((v[0]! << 8) | v[1]!) === v.length - 2) {
    const inner = v.subarray(2);
    const iv = bytesView(inner);
    if (iv.utf8 !== undefined || inner.length === 0) out.push({ label: 'abi string', text: JSON.stringify(iv.utf8 ?? '') });
    else out.push({ label: 'abi byte[]', text: '0x' + iv.hex });
  }
  return out;
}
