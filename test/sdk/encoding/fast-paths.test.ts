import assert from 'node:assert/strict';
import { Address } from '../../../sdk/src/encoding/address.js';
import { tryFromUtf8 } from '../../../sdk/src/encoding/bytes.js';
import { failingOpcodes } from '../../../sdk/src/teal/disassembler/disassemble.js';
import { assemble } from '../../../sdk/src/teal/index.js';

// Fast paths taken on the in-process call path: each must answer exactly as the slow path did.
describe('encoding: fast paths answer as the slow paths', () => {
  const strict = new TextDecoder('utf-8', { fatal: true });
  const reference = (b: Uint8Array): string | undefined => {
    try {
      return strict.decode(b);
    } catch {
      return undefined;
    }
  };

  it('tryFromUtf8 agrees with the strict decoder on boundary bytes and random mixes', () => {
    const edges = [
      0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
    ];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let t = 0; t < 200_000; t++) {
      const b = new Uint8Array(next() % 7);
      for (let i = 0; i < b.length; i++) b[i] = next() % 3 === 0 ? next() % 256 : edges[next() % edges.length]!;
      assert.equal(tryFromUtf8(b), reference(b), `bytes ${[...b].join(',')}`);
    }
    for (const text of ['', 'plain', '\ufeffbom kept out as the decoder does', 'héllo', '😀 emoji', 'x'.repeat(65), 'é'.repeat(40)]) {
      const b = new TextEncoder().encode(text);
      assert.equal(tryFromUtf8(b), reference(b), text);
    }
  });

  it('Address.forApp hands out independent addresses (the cached key is never shared)', () => {
    const a = Address.forApp(77n);
    a.publicKey.fill(0);
    assert.equal(Address.forApp(77).toString(), 'PCYUFPA2ZTOYWTP43MX2MOX2OWAIAXUDNC2WFCXAGMRUZ3DYD6BWFDL5YM');
    assert.throws(() => Address.forApp(1.5), RangeError);
  });

  it('failingOpcodes gives the same text again, and follows a program changed in place', () => {
    const program = assemble('#pragma version 10\nint 1\nint 2\n+\nint 10\n<\nassert\nint 1\n').program;
    const pcOfAssert = program.indexOf(0x44);
    const first = failingOpcodes(program, pcOfAssert);
    assert.match(first, /assert/);
    assert.equal(failingOpcodes(program, pcOfAssert), first);
    assert.equal(failingOpcodes(program.slice(), pcOfAssert), first);
    // `assert` (0x44) becomes `pop` (0x48): the cached listing must not be reused.
    program[pcOfAssert] = 0x48;
    assert.match(failingOpcodes(program, pcOfAssert), /pop/);
    assert.doesNotMatch(failingOpcodes(program, pcOfAssert), /assert/);
  });
});
