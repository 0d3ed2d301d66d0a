import assert from 'node:assert/strict';
import { runApp, runSig } from './helpers/fixtures.js';
import { approves, failsWith, prng } from './helpers/expect.js';
import { asm } from './helpers/asm.js';

const M64 = (1n << 64n) - 1n;

/** Runs `body` and checks the top of the stack equals each expected value (deepest first). */
function stackIs(body: string, expected: (bigint | string)[], version = 8) {
  const checks = expected
    .slice()
    .reverse()
    .map((e) => (typeof e === 'bigint' ? `int ${e}\n==\nassert` : `byte ${e}\n==\nassert`))
    .join('\n');
  return approves(runSig(`${body}\n${checks}\nint 1`, { version }));
}

describe('avm arithmetic', () => {
  it('adds, subtracts, multiplies, divides with exact cost 1 each', () => {
    const r = approves(runApp('int 7\nint 5\n+\nint 3\n-\nint 4\n*\nint 6\n/\nint 6\n==', {}));
    assert.equal(r.cost, 11);
    stackIs('int 17\nint 5\n%', [2n]);
  });

  it('fails on overflow, underflow and division by zero with the node wording', () => {
    failsWith(runSig(`int ${M64}\nint 1\n+`), '+ overflowed');
    failsWith(runSig('int 1\nint 2\n-'), '- would result negative');
    failsWith(runSig(`int ${1n << 32n}\nint ${1n << 32n}\n*`), '* overflowed');
    failsWith(runSig('int 1\nint 0\n/'), '/ 0');
    failsWith(runSig('int 1\nint 0\n%'), '% 0');
  });

  it('handles values across the 2^53 boundary', () => {
    stackIs(`int ${2n ** 53n - 1n}\nint 1\n+`, [2n ** 53n]);
    stackIs(`int ${2n ** 53n}\nint 1\n-`, [2n ** 53n - 1n]);
    stackIs(`int ${2n ** 32n}\nint ${2n ** 31n}\n*`, [2n ** 63n]);
    stackIs(`int ${M64}\nint 3\n/`, [M64 / 3n]);
    stackIs(`int ${2n ** 60n}\nint ${2n ** 53n - 1n}\n<`, [0n]);
  });

  it('compares and combines booleans', () => {
    stackIs('int 1\nint 2\n<\nint 2\nint 2\n<=\nint 3\nint 2\n>\nint 2\nint 3\n>=', [1n, 1n, 1n, 0n]);
    stackIs('int 1\nint 0\n&&\nint 1\nint 0\n||\nint 0\n!', [0n, 1n, 1n]);
    failsWith(runSig('int 1\nbyte 0x01\n=='), 'cannot compare (uint64 to []byte)');
  });

  it('bitwise ops on full 64-bit values', () => {
    stackIs(`int ${M64}\nint 255\n&\nint ${2n ** 63n}\nint 1\n|\nint ${2n ** 40n + 5n}\nint 5\n^\nint 0\n~`, [255n, 2n ** 63n + 1n, 2n ** 40n, M64]);
  });

  it('mulw, addw, divmodw, divw, expw with exact costs', () => {
    stackIs(`int ${M64}\nint ${M64}\nmulw`, [M64 - 1n, 1n]);
    stackIs(`int ${M64}\nint 2\naddw`, [1n, 1n]);
    stackIs('int 1\nint 0\nint 0\nint 3\ndivmodw', [0n, 6148914691236517205n, 0n, 1n]);
    stackIs('int 1\nint 0\nint 3\ndivw', [6148914691236517205n]);
    failsWith(runSig('int 1\nint 0\nint 1\ndivw'), 'divw overflow: 1 <= 1');
    failsWith(runSig('int 0\nint 0\nint 0\ndivw'), 'divw 0');
    stackIs('int 2\nint 64\nexpw', [1n, 0n]);
    failsWith(runSig('int 2\nint 128\nexpw'), '2^128 overflow');
    const r = approves(runSig('int 0\nint 1\nint 0\nint 1\ndivmodw\npop\npop\nswap\npop'));
    assert.equal(r.cost, 4 + 20 + 4);
  });

  it('exp, sqrt, bitlen, shl, shr', () => {
    stackIs('int 2\nint 63\nexp\nint 3\nint 0\nexp', [2n ** 63n, 1n]);
    failsWith(runSig('int 2\nint 64\nexp'), '2^64 overflow');
    failsWith(runSig('int 0\nint 0\nexp'), '0^0 is undefined');
    stackIs(`int ${M64}\nsqrt\nint 15\nsqrt`, [4294967295n, 3n]);
    stackIs(`int 0\nbitlen\nint ${2n ** 63n}\nbitlen\nbyte 0x0001ff\nbitlen`, [0n, 64n, 9n]);
    stackIs(`int 1\nint 63\nshl\nint ${M64}\nint 60\nshr\nint 3\nint 63\nshl`, [2n ** 63n, 15n, 2n ** 63n]);
    failsWith(runSig('int 1\nint 64\nshl'), 'shl arg too big, (64)');
    failsWith(runSig('int 1\nint 64\nshr'), 'shr arg too big, (64)');
  });

  it('itob, btoi, len', () => {
    stackIs(`int ${2n ** 56n + 3n}\nitob`, ['0x0100000000000003']);
    stackIs('byte 0x0102\nbtoi\nbyte 0x\nbtoi\nbyte 0xffffffffffffffff\nbtoi', [258n, 0n, M64]);
    failsWith(runSig('byte 0x010203040506070809\nbtoi'), 'btoi arg too long, got 9 bytes');
    stackIs('byte "hello"\nlen', [5n]);
  });

  it('type-checks arguments like the node', () => {
    failsWith(runSig('byte 0x01\nint 1\n+'), '+ arg 0 wanted uint64 but got []byte');
    failsWith(runSig('int 1\n+'), 'stack underflow in +');
    failsWith(runSig('int 1\nlen'), 'len arg 0 wanted []byte but got uint64');
  });

  it('agrees with BigInt on random uint64 operands (seeded)', () => {
    const rnd = prng(0x5eedn);
    const ops: [string, (a: bigint, b: bigint) => bigint | undefined][] = [
      ['+', (a, b) => (a + b > M64 ? undefined : a + b)],
      ['-', (a, b) => (a < b ? undefined : a - b)],
      ['*', (a, b) => (a * b > M64 ? undefined : a * b)],
      ['/', (a, b) => (b === 0n ? undefined : a / b)],
      ['%', (a, b) => (b === 0n ? undefined : a % b)],
      ['&', (a, b) => a & b],
      ['|', (a, b) => a | b],
      ['^', (a, b) => a ^ b],
      ['<', (a, b) => (a < b ? 1n : 0n)],
      ['==', (a, b) => (a === b ? 1n : 0n)],
    ];
    const pick = (): bigint => {
      const v = rnd();
      const shape = Number(v & 3n);
      return shape === 0 ? v : shape === 1 ? v >> 11n : shape === 2 ? v >> 40n : v & 0xffn;
    };
    for (let i = 0; i < 300; i++) {
      const a = pick();
      const b = pick();
      for (const [op, f] of ops) {
        const want = f(a, b);
        const prog = asm(`int ${a}\nint ${b}\n${op}\n${want === undefined ? '' : `int ${want}\n==`}`, 8);
        const r = runSig(prog);
        if (want === undefined) assert.equal(r.approved, false, `${a} ${op} ${b} should fail`);
        else assert.equal(r.approved, true, `${a} ${op} ${b} = ${want}: ${r.error?.message}`);
      }
      const wide = asm(`int ${a}\nint ${b}\nmulw\nint ${(a * b) & M64}\n==\nassert\nint ${(a * b) >> 64n}\n==`, 8);
      assert.equal(runSig(wide).approved, true);
    }
  });
});
