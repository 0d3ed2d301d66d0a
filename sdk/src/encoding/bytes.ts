const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();
const utf8StrictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Encodes text as UTF-8. */
export function utf8(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/** Decodes UTF-8 text (invalid sequences throw). */
export function fromUtf8(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/** Decodes UTF-8, or returns undefined when the bytes are not valid UTF-8. */
export function tryFromUtf8(bytes: Uint8Array): string | undefined {
  // Checked here first: most bytes shown are short (keys, logs, addresses), and a decoder that
  // throws on invalid input costs an exception per value that is not text.
  const ascii = utf8Kind(bytes);
  if (ascii === undefined) return undefined;
  if (ascii && bytes.length <= 64) {
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]!);
    return out;
  }
  try {
    return utf8StrictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** `true` for ASCII, `false` for other well-formed UTF-8 (the WHATWG decoder's rules), `undefined` when malformed. */
function utf8Kind(b: Uint8Array): boolean | undefined {
  let ascii = true;
  const n = b.length;
  let i = 0;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => k < n && b[k]! >= lo && b[k]! <= hi;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    ascii = false;
    if (c >= 0xc2 && c <= 0xdf) {
      if (!cont(i + 1)) return undefined;
      i += 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      const lo = c === 0xe0 ? 0xa0 : 0x80;
      const hi = c === 0xed ? 0x9f : 0xbf;
      if (!cont(i + 1, lo, hi) || !cont(i + 2)) return undefined;
      i += 3;
    } else if (c >= 0xf0 && c <= 0xf4) {
      const lo = c === 0xf0 ? 0x90 : 0x80;
      const hi = c === 0xf4 ? 0x8f : 0xbf;
      if (!cont(i + 1, lo, hi) || !cont(i + 2) || !cont(i + 3)) return undefined;
      i += 4;
    } else return undefined;
  }
  return ascii;
}

/** The arrays joined into one. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * A copy of the bytes in a plain `Uint8Array` of its own, whatever the array given (a Node
 * `Buffer`'s own `slice` is a view onto the caller's memory). @internal
 */
export function copyBytes(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes);
}

/** True when both arrays hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Bytewise lexicographic order, the order canonical msgpack uses for map keys. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** True when every byte is zero. */
export function isAllZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** Big-endian 8-byte encoding of a uint64. */
export function uint64ToBytes(value: bigint | number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

/**
 * Writes a 64-bit value given as its high and low 32-bit halves, big-endian, at `out[at..at+8)`.
 * For hot paths that already hold the halves (ABI uint64, SHA-512 words) and must not allocate.
 */
export function writeU64HalvesBE(out: Uint8Array, at: number, hi: number, lo: number): void {
  out[at] = hi >>> 24;
  out[at + 1] = (hi >>> 16) & 0xff;
  out[at + 2] = (hi >>> 8) & 0xff;
  out[at + 3] = hi & 0xff;
  out[at + 4] = lo >>> 24;
  out[at + 5] = (lo >>> 16) & 0xff;
  out[at + 6] = (lo >>> 8) & 0xff;
  out[at + 7] = lo & 0xff;
}

/** A big-endian integer of up to 8 bytes. */
export function bytesToUint64(bytes: Uint8Array): bigint {
  if (bytes.length > 8) throw new RangeError(`uint64 needs at most 8 bytes, got ${bytes.length}`);
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/**
 * Why `text` is unfit as a name people read (a wallet or an app spec's name), or `undefined`:
 * control characters (NUL among them), bidirectional overrides and isolates (which can make a
 * name display as something else), and lone surrogates (not valid Unicode, unencodable as UTF-8).
 */
export function nameTextProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const hex = () => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    if (c === 0) return 'contains a NUL character (U+0000)';
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return `contains a control character (${hex()})`;
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x061c || c === 0x200e || c === 0x200f) {
      return `contains a bidirectional-text control (${hex()}) that can make it display as different text`;
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return `contains a lone surrogate (${hex()}), which is not valid Unicode`;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return `contains a lone surrogate (${hex()}), which is not valid Unicode`;
  }
  return undefined;
}
