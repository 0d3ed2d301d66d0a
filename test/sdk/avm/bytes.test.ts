import assert from 'node:assert/strict';
import { runSig } from './helpers/fixtures.js';
import { approves, failsWith, prng } from './helpers/expect.js';
import { asm } from './helpers/asm.js';

const hex = (b: bigint, width?: number) => {
  let h = b.toString(16);
  if (h.length % 2) h = '0' + h;
  if (b === 0n) h = '';
  if (width !== undefined) h = h.padStart(width * 2, '0');
  return '0x' + h;
};

function top(body: string, expected: string, version = 8) {
  return approves(runSig(`${body}\nbyte ${expected}\n==`, { version }));
}

describe('avm byte manipulation', () => {
  it('concat, substring, substring3, extract family', () => {
    top('byte 0x0102\nbyte 0x0304\nconcat', '0x01020304');
    top('byte 0x0102030405\nsubstring 1 3', '0x0203');
    top('byte 0x0102030405\nint 2\nint 5\nsubstring3', '0x030405');
    failsWith(runSig('byte 0x0102\nsubstring 2 1'), 'substring end before start');
    failsWith(runSig('byte 0x0102\nint 0\nint 3\nsubstring3'), 'substring range beyond length of string');
    top('byte 0x0102030405\nextract 1 0', '0x02030405');
    top('byte 0x0102030405\nint 1\nint 2\nextract3', '0x0203');
    failsWith(runSig('byte 0x0102\nint 1\nint 2\nextract3'), 'extraction end 3 is beyond length: 2');
    failsWith(runSig('byte 0x0102\nextract 3 0'), 'extraction start 3 is beyond length: 2');
    approves(runSig('byte 0x00ff01020304050607\nint 1\nextract_uint64\nint 0xff01020304050607\n=='));
    approves(runSig('byte 0x00ff01\nint 1\nextract_uint16\nint 0xff01\n=='));
    approves(runSig('byte 0xaabbccdd\nint 0\nextract_uint32\nint 0xaabbccdd\n=='));
    failsWith(runSig('byte 0x0102\nint 1\nextract_uint16'), 'extraction end 3 is beyond length: 2');
  });

  it('concat refuses results over 4096 bytes', () => {
    failsWith(runSig('int 4096\nbzero\nbyte 0x01\nconcat'), 'concat produced a too big (4097) byte-array');
    failsWith(runSig('int 4097\nbzero'), 'bzero attempted to create a too large string');
  });

  it('replace2, replace3, getbyte, setbyte, getbit, setbit', () => {
    top('byte 0x010203\nbyte 0xff\nreplace2 1', '0x01ff03');
    top('byte 0x010203\nint 2\nbyte 0xee\nreplace3', '0x0102ee');
    failsWith(runSig('byte 0x010203\nint 2\nbyte 0xeeee\nreplace3'), 'replacement end 4 beyond original length: 3');
    approves(runSig('byte 0x0a0b\nint 1\ngetbyte\nint 11\n=='));
    top('byte 0x0a0b\nint 0\nint 255\nsetbyte', '0xff0b');
    failsWith(runSig('byte 0x0a\nint 0\nint 256\nsetbyte'), 'setbyte value > 255');
    failsWith(runSig('byte 0x0a\nint 1\ngetbyte'), 'getbyte index beyond array length');
    approves(runSig('byte 0x80\nint 0\ngetbit'));
    approves(runSig('int 8\nint 3\ngetbit'));
    top('byte 0x00\nint 7\nint 1\nsetbit', '0x01');
    approves(runSig('int 0\nint 63\nint 1\nsetbit\nint 9223372036854775808\n=='));
    failsWith(runSig('int 0\nint 64\ngetbit'), 'getbit index > 63 with Uint');
    failsWith(runSig('byte 0x00\nint 8\ngetbit'), 'getbit index beyond byteslice');
    failsWith(runSig('byte 0x00\nint 0\nint 2\nsetbit'), 'setbit value > 1');
  });

  it('base64_decode follows Go strict decoding, padded or not', () => {
    top('byte "aGVsbG8="\nbase64_decode StdEncoding', '"hello"', 7);
    top('byte "aGVsbG8"\nbase64_decode StdEncoding', '"hello"', 7);
    top('byte "_-8"\nbase64_decode URLEncoding', '0xffef', 7);
    top('byte "aGVs\\nbG8="\nbase64_decode StdEncoding', '"hello"', 7);
    failsWith(runSig('byte "aGVsbG9="\nbase64_decode StdEncoding', { version: 7 }), 'illegal base64 data at input byte');
    failsWith(runSig('byte "_-8="\nbase64_decode StdEncoding', { version: 7 }), 'illegal base64 data at input byte 0');
    failsWith(runSig('byte "aGVsbG8=="\nbase64_decode StdEncoding', { version: 7 }), 'illegal base64 data');
    // cost 1 + 1 per 16 bytes of input
    const r = approves(runSig('byte "aGVsbG8gd29ybGQhIQ=="\nbase64_decode StdEncoding\nlen', { version: 7 }));
    assert.equal(r.cost, 1 + (1 + 2) + 1);
  });

  it('json_ref reads strings, uint64s and objects', () => {
    const doc = '"{\\"a\\": \\"x\\", \\"n\\": 18446744073709551615, \\"o\\": {\\"k\\": [1, 2]}}"';
    top(`byte ${doc}\nbyte "a"\njson_ref JSONString`, '"x"', 7);
    approves(runSig(`byte ${doc}\nbyte "n"\njson_ref JSONUint64\nint 18446744073709551615\n==`, { version: 7 }));
    top(`byte ${doc}\nbyte "o"\njson_ref JSONObject`, '"{\\"k\\": [1, 2]}"', 7);
    failsWith(runSig(`byte ${doc}\nbyte "zz"\njson_ref JSONString`, { version: 7 }), 'key zz not found in JSON text');
    failsWith(runSig('byte "[1]"\nbyte "a"\njson_ref JSONString', { version: 7 }), 'only json object is allowed');
    failsWith(runSig('byte "{\\"a\\":1,\\"a\\":2}"\nbyte "a"\njson_ref JSONUint64', { version: 7 }), 'duplicate keys not allowed');
    failsWith(runSig(`byte ${doc}\nbyte "a"\njson_ref JSONUint64`, { version: 7 }), 'cannot unmarshal string');
  });
});

describe('avm byte math', () => {
  it('fixed examples, limits and costs', () => {
    top('byte 0xff\nbyte 0x01\nb+', '0x0100');
    top('byte 0x0100\nbyte 0x01\nb-', '0xff');
    top('byte 0x01\nbyte 0x01\nb-', '0x');
    failsWith(runSig('byte 0x01\nbyte 0x02\nb-'), 'byte math would have negative result');
    failsWith(runSig('byte 0x01\nbyte 0x\nb/'), 'division by zero');
    failsWith(runSig('byte 0x01\nbyte 0x00\nb%'), 'modulo by zero');
    failsWith(runSig('int 65\nbzero\nbyte 0x01\nb+'), 'math attempted on large byte-array');
    top('byte 0x00f0\nbyte 0x0f\nb|', '0x00ff');
    top('byte 0x0ff0\nbyte 0xff\nb&', '0x00f0');
    top('byte 0x00ff\nb~', '0xff00');
    top('byte 0x0100\nbsqrt', '0x10');
    approves(runSig('byte 0x0001\nbyte 0x01\nb=='));
    const r = approves(runSig('byte 0x01\nbyte 0x01\nb+\nbyte 0x02\nb==', {}));
    assert.equal(r.cost, 1 + 1 + 10 + 1 + 1);
  });

  it('agrees with BigInt on random operands up to 64 bytes (seeded)', () => {
    const rnd = prng(0xb16n);
    const randBig = () => {
      const words = Number(rnd() % 9n);
      let v = 0n;
      for (let i = 0; i < words; i++) v = (v << 64n) | rnd();
      return v >> (rnd() % 64n);
    };
    for (let i = 0; i < 150; i++) {
      const a = randBig();
      const b = randBig();
      const cases: [string, bigint | undefined][] = [
        ['b+', a + b],
        ['b-', a >= b ? a - b : undefined],
        ['b*', a * b],
        ['b/', b === 0n ? undefined : a / b],
        ['b%', b === 0n ? undefined : a % b],
      ];
      for (const [op, want] of cases) {
        const src = `byte ${hex(a)}\nbyte ${hex(b)}\n${op}\n` + (want === undefined ? '' : `byte ${hex(want)}\n==`);
        const r = runSig(asm(src, 8));
        assert.equal(r.approved, want !== undefined, `${op} ${a} ${b}: ${r.error?.message}`);
      }
      const lt = runSig(asm(`byte ${hex(a, 3)}\nbyte ${hex(b)}\nb<\nint ${a < b ? 1 : 0}\n==`, 8));
      assert.equal(lt.approved, true);
    }
  });
});
