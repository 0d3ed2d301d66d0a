// A tiny test-only assembler: one instruction per line, exact immediates, no pseudo-ops beyond
// `int`/`byte` aliases for pushint/pushbytes. It exists so interpreter tests can be written as
// readable text while the real assembler is under construction; it reads the same opcode table.
import { opByName, fieldsAt } from '../../../../sdk/src/teal/spec/opcodes.js';
import type { VersionedOp } from '../../../../sdk/src/teal/spec/opcodes.js';

function uvarint(n: bigint): number[] {
  const out: number[] = [];
  do {
    let b = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) b |= 0x80;
    out.push(b);
  } while (n > 0n);
  return out;
}

function parseBytes(tok: string): number[] {
  if (tok.startsWith('0x')) {
    const h = tok.slice(2);
    const out: number[] = [];
    for (let i = 0; i < h.length; i += 2) out.push(parseInt(h.slice(i, i + 2), 16));
    return out;
  }
  if (tok.startsWith('"')) return [...new TextEncoder().encode(JSON.parse(tok) as string)];
  throw new Error(`bad bytes literal ${tok}`);
}

function tokenize(line: string): string[] {
  const out: string[] = [];
  const re = /"(?:[^"\\]|\\.)*"|\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m[0]);
  return out;
}

export function asm(source: string, version = 8): Uint8Array {
  const lines = source
    .split('\n')
    .map((l) => l.replace(/\/\/.*$/, '').trim())
    .filter((l) => l.length > 0);
  const bytes: number[] = [...uvarint(BigInt(version))];
  const labels = new Map<string, number>();
  const fixups: { at: number; label: string; kind: 'int16' | 'varint3'; base: number; opPos: number }[] = [];
  for (const line of lines) {
    if (line.startsWith('#pragma')) continue;
    if (line.endsWith(':')) {
      labels.set(line.slice(0, -1), bytes.length);
      continue;
    }
    let [name, ...args] = tokenize(line);
    if (name === 'int') name = 'pushint';
    if (name === 'byte') name = 'pushbytes';
    const op: VersionedOp | undefined = opByName(name!, version);
    if (!op) throw new Error(`unknown op ${name} at v${version}`);
    const opPos = bytes.length;
    if (op.prefix !== undefined) bytes.push(op.prefix);
    bytes.push(op.opcode);
    let ai = 0;
    for (const imm of op.immediates) {
      const tok = args[ai++];
      switch (imm.encoding) {
        case 'uint8':
        case 'int8': {
          let v: number;
          if (imm.fieldGroup && tok !== undefined && !/^-?\d+$/.test(tok)) {
            const f = fieldsAt(op, 99).find((x) => x.name === tok);
            if (!f) throw new Error(`unknown field ${tok}`);
            v = f.value;
          } else v = Number(tok);
          bytes.push(v & 0xff);
          break;
        }
        case 'varuint':
          bytes.push(...uvarint(BigInt(tok!)));
          break;
        case 'bytes': {
          const b = parseBytes(tok!);
          bytes.push(...uvarint(BigInt(b.length)), ...b);
          break;
        }
        case 'uints': {
          const vals = args.slice(ai - 1);
          ai = args.length;
          bytes.push(...uvarint(BigInt(vals.length)));
          for (const v of vals) bytes.push(...uvarint(BigInt(v)));
          break;
        }
        case 'bytesList': {
          const vals = args.slice(ai - 1);
          ai = args.length;
          bytes.push(...uvarint(BigInt(vals.length)));
          for (const v of vals) {
            const b = parseBytes(v);
            bytes.push(...uvarint(BigInt(b.length)), ...b);
          }
          break;
        }
        case 'label':
          fixups.push({ at: bytes.length, label: tok!, kind: 'int16', base: bytes.length + 2, opPos });
          bytes.push(0, 0);
          break;
        case 'varintLabel':
          fixups.push({ at: bytes.length, label: tok!, kind: 'varint3', base: bytes.length + 3, opPos });
          bytes.push(0, 0, 0);
          break;
        case 'labels': {
          const ls = args.slice(ai - 1);
          ai = args.length;
          bytes.push(ls.length);
          const start = bytes.length;
          const end = start + 2 * ls.length;
          ls.forEach((l, i) => {
            fixups.push({ at: start + 2 * i, label: l, kind: 'int16', base: end, opPos });
            bytes.push(0, 0);
          });
          break;
        }
      }
    }
  }
  for (const f of fixups) {
    const target = labels.get(f.label);
    if (target === undefined) throw new Error(`undefined label ${f.label}`);
    if (f.kind === 'int16') {
      const off = target - f.base;
      bytes[f.at] = (off >> 8) & 0xff;
      bytes[f.at + 1] = off & 0xff;
    } else {
      const off = target >= f.base ? target - f.base : target - f.opPos;
      // zigzag, padded to three bytes (the decoder accepts non-minimal varints)
      let zz = BigInt(off >= 0 ? off * 2 : -off * 2 - 1);
      for (let i = 0; i < 3; i++) {
        bytes[f.at + i] = Number(zz & 0x7fn) | (i < 2 ? 0x80 : 0);
        zz >>= 7n;
      }
    }
  }
  return Uint8Array.from(bytes);
}
