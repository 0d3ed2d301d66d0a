/** A growable byte array; the assembler writes into it and later patches and splices it. */
export class ByteBuffer {
  data: Uint8Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Uint8Array(capacity);
  }

  private grow(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    let cap = this.data.length * 2;
    while (cap < this.length + extra) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  byte(b: number): void {
    if (this.length === this.data.length) this.grow(1);
    this.data[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    this.grow(b.length);
    this.data.set(b, this.length);
    this.length += b.length;
  }

  uvarint(v: bigint | number): void {
    if (typeof v === 'number' && v < 0x80) {
      this.byte(v);
      return;
    }
    let x = BigInt(v);
    while (x >= 0x80n) {
      this.byte(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.byte(Number(x));
  }

  view(): Uint8Array {
    return this.data.subarray(0, this.length);
  }

  replace(data: Uint8Array): void {
    this.data = data;
    this.length = data.length;
  }
}

export function uvarintBytes(v: bigint | number): Uint8Array {
  const b = new ByteBuffer(10);
  b.uvarint(v);
  return b.view().slice();
}

/** Go's binary.PutVarint length: zigzag then uvarint. */
export function varintLength(n: number): number {
  let zz = n >= 0 ? n * 2 : -n * 2 - 1;
  let len = 1;
  while (zz >= 0x80) {
    zz = Math.floor(zz / 128);
    len++;
  }
  return len;
}

export function putVarint(out: Uint8Array, at: number, n: number): number {
  let zz = n >= 0 ? n * 2 : -n * 2 - 1;
  let i = at;
  while (zz >= 0x80) {
    out[i++] = (zz % 128) | 0x80;
    zz = Math.floor(zz / 128);
  }
  out[i++] = zz;
  return i - at;
}
