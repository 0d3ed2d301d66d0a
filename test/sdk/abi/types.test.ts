import assert from 'node:assert/strict';
import { AbiDecodeError, AbiEncodeError, AbiTypeError, AbiStructType, buildStructTypes, parseAbiType, type AbiValue } from '../../../sdk/src/abi/index.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { fromHex, toHex } from '../../../sdk/src/encoding/hex.js';

const ADDR = '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU';

function enc(type: string, value: AbiValue): string {
  return toHex(parseAbiType(type).encode(value));
}

describe('abi: type strings', () => {
  it('parses and prints every kind of type', () => {
    for (const text of [
      'uint8',
      'uint512',
      'ufixed64x2',
      'ufixed512x160',
      'bool',
      'byte',
      'address',
      'string',
      'byte[32]',
      'uint64[]',
      '(uint64,(bool,string)[2])[]',
      '()',
      '(())',
      'bool[0]',
    ]) {
      assert.equal(parseAbiType(text).toString(), text);
    }
    assert.equal(parseAbiType('(uint64,address,string,bool[])').dynamic, true);
    assert.equal(parseAbiType('(uint64,bool,bool,address)').staticSize, 8 + 1 + 32);
    assert.equal(parseAbiType('bool[9]').staticSize, 2);
  });

  it('rejects malformed types with the reason', () => {
    const bad: Array<[string, RegExp]> = [
      ['uint7', /multiple of 8/],
      ['uint520', /multiple of 8/],
      ['uint0', /unknown type/],
      ['ufixed8x0', /unknown type/],
      ['ufixed8x161', /precision 161/],
      ['ufixed12x2', /multiple of 8/],
      ['(uint8,,bool)', /stray comma/],
      ['(uint8', /does not end/],
      ['uint8)', /unknown type/],
      ['((uint8)', /unbalanced/],
      ['byte[01]', /not a non-negative integer/],
      ['byte[-1]', /not a non-negative integer/],
      ['[2]', /unbalanced/],
      ['int64', /unknown type "int64"/],
      ['', /empty type/],
      ['account', /unknown type/],
    ];
    for (const [text, re] of bad) {
      assert.throws(
        () => parseAbiType(text),
        (e: unknown) => e instanceof AbiTypeError && re.test(e.message),
        text,
      );
    }
  });
});

describe('abi: encoding goldens (ARC-4 rules)', () => {
  it('encodes scalars', () => {
    assert.equal(enc('uint8', 255n), 'ff');
    assert.equal(enc('uint16', 258), '0102');
    assert.equal(enc('uint64', 2n ** 64n - 1n), 'ffffffffffffffff');
    assert.equal(enc('uint64', 2 ** 53 - 1), '001fffffffffffff');
    assert.equal(enc('uint128', 1n), '00000000000000000000000000000001');
    assert.equal(enc('ufixed32x2', 12345n), '00003039');
    assert.equal(enc('bool', true), '80');
    assert.equal(enc('bool', false), '00');
    assert.equal(enc('byte', 10), '0a');
    assert.equal(enc('string', 'asdf'), '000461736466');
    assert.equal(enc('string', 'é'), '0002c3a9');
    assert.equal(enc('address', ADDR), toHex(Address.fromString(ADDR).publicKey));
    assert.equal(enc('address', Address.fromString(ADDR)), enc('address', ADDR));
  });

  it('packs consecutive bools and lays out heads and tails', () => {
    assert.equal(enc('bool[]', [true, false, true]), '0003a0');
    assert.equal(enc('bool[9]', [true, true, true, true, true, true, true, true, true]), 'ff80');
    assert.equal(enc('(bool,bool,uint8,bool)', [true, true, 1n, true]), 'c00180');
    // ARC-4 example: ("AB", true, false, true, false, "DE")
    assert.equal(enc('(string,bool,bool,bool,bool,string)', ['AB', true, false, true, false, 'DE']), '0005a000090002414200024445');
    assert.equal(enc('uint8[]', [1n, 2n, 3n]), '0003010203');
    assert.equal(enc('string[2]', ['a', 'bc']), '000400070001610002' + '6263');
    assert.equal(enc('(uint16,string)[]', [[1n, 'x']]), '0001' + '0002' + '0001000400017' + '8');
    assert.equal(enc('()', []), '');
    assert.equal(enc('(uint64,address)[0]', []), '');
  });

  it('accepts Uint8Array for byte arrays and returns Uint8Array when decoding them', () => {
    assert.equal(enc('byte[]', new Uint8Array([1, 2])), '00020102');
    assert.equal(enc('byte[2]', new Uint8Array([1, 2])), '0102');
    assert.equal(enc('byte[2]', [1, 2]), '0102');
    assert.deepEqual(parseAbiType('byte[]').decode(fromHex('00020102')), new Uint8Array([1, 2]));
    assert.deepEqual(parseAbiType('(byte[2],uint8)').decode(fromHex('010203')), [new Uint8Array([1, 2]), 3n]);
  });
});

describe('abi: encoding errors are specific', () => {
  const cases: Array<[string, AbiValue, RegExp]> = [
    ['uint64', 2n ** 64n, /as uint64: value 18446744073709551616 is out of range/],
    ['uint8', 256, /as uint8: value 256 is out of range \(max 255\)/],
    ['uint64', -1n, /negative/],
    ['uint64', 1.5, /not an integer/],
    ['uint64', 2 ** 60, /beyond 2\^53; pass a bigint/],
    ['uint64', '5', /expected a bigint or number/],
    ['bool', 1, /expected a boolean/],
    ['byte', 256, /0\.\.255/],
    ['address', 'NOTANADDRESS', /58 characters/],
    ['address', new Uint8Array(31), /32 bytes/],
    ['byte[3]', new Uint8Array(2), /expected 3 bytes, got 2/],
    ['uint8[2]', [1n], /expected 2 elements, got 1/],
    ['(uint8,bool)', [1n], /expected 2 elements, got 1/],
    ['(uint8,(bool,uint16))', [1n, [true, 70000n]], /value at \[1\]\[1\] as uint16: value 70000 is out of range/],
    ['(uint8,bool,bool)', [1n, true, 'yes'], /value at \[2\] as bool/],
    ['uint16[]', 'abc', /expected an array/],
    ['byte[]', 'abc', /encode text with utf8\(\) first/],
    ['string', 5, /expected a string/],
    ['string', 'x'.repeat(70000), /65535-byte limit/],
  ];
  for (const [type, value, re] of cases) {
    it(`${type} ← ${typeof value === 'string' && value.length > 20 ? 'long string' : String(value)}`, () => {
      assert.throws(
        () => parseAbiType(type).encode(value),
        (e: unknown) => e instanceof AbiEncodeError && re.test(e.message),
      );
    });
  }

  it('refuses encodings whose offsets do not fit in 2 bytes', () => {
    const big = 'x'.repeat(40000);
    assert.throws(() => parseAbiType('(string,string,string)').encode([big, big, 'y']), /2-byte offset limit/);
  });
});

describe('abi: strict decoding', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['bool', '01', /neither 0x00 nor 0x80/],
    ['uint64', '0102', /expected 8 bytes, got 2/],
    ['uint8', '0102', /expected 1 bytes, got 2/],
    ['string', '000361', /length prefix says 3 bytes but 1 follow/],
    ['string', '00', /2-byte length prefix/],
    ['(string)', '0003ff', /should start right after the 2-byte head/],
    ['(string,string)', '0004000a00016100', /beyond the 8 available bytes/],
    ['(string,string)', '0004000300000000', /goes backwards/],
    ['(bool,bool)', 'c1', /non-zero padding bits/],
    ['uint16[]', '0002000100', /expected 4 bytes, got 3/],
    ['byte[2]', '010203', /expected 2 bytes, got 3/],
  ];
  for (const [type, hex, re] of cases) {
    it(`${type} ✗ ${hex}`, () => {
      assert.throws(
        () => parseAbiType(type).decode(fromHex(hex)),
        (e: unknown) => e instanceof AbiDecodeError && re.test(e.message),
      );
    });
  }
});

describe('abi: structs', () => {
  const structs = buildStructTypes({
    Point: [
      { name: 'x', type: 'uint64' },
      { name: 'y', type: 'uint64' },
    ],
    Shape: [
      { name: 'name', type: 'string' },
      { name: 'origin', type: 'Point' },
      {
        name: 'style',
        type: [
          { name: 'filled', type: 'bool' },
          { name: 'tags', type: 'string[]' },
        ],
      },
    ],
  });

  it('encode from objects exactly like the tuple, and decode to objects (nested too)', () => {
    const shape = structs.get('Shape')!;
    assert.equal(shape.toString(), '(string,(uint64,uint64),(bool,string[]))');
    const value = { name: 'sq', origin: { x: 1n, y: 2n }, style: { filled: true, tags: ['a'] } };
    const bytes = shape.encode(value);
    assert.equal(toHex(bytes), toHex(parseAbiType(shape.toString()).encode(['sq', [1n, 2n], [true, ['a']]])));
    assert.deepEqual(shape.decode(bytes), value);
    // Arrays are accepted as well.
    assert.equal(toHex(shape.encode(['sq', [1n, 2n], [true, ['a']]])), toHex(bytes));
  });

  it('names missing, unknown and ill-typed fields', () => {
    const point = structs.get('Point')!;
    assert.throws(() => point.encode({ x: 1n }), /missing field "y"/);
    assert.throws(() => point.encode({ x: 1n, y: 2n, z: 3n }), /has no field "z"/);
    assert.throws(
      () => structs.get('Shape')!.encode({ name: 'a', origin: { x: -1n, y: 0n }, style: { filled: true, tags: [] } }),
      /value at \.origin\.x as uint64: value -1 is negative/,
    );
  });

  it('rejects cyclic and unknown struct references', () => {
    assert.throws(() => buildStructTypes({ A: [{ name: 'b', type: 'B' }], B: [{ name: 'a', type: 'A' }] }), /contains itself/);
    assert.throws(() => buildStructTypes({ A: [{ name: 'b', type: 'Nope' }] }), /field "b".*no struct of that name/);
    assert.ok(structs.get('Point') instanceof AbiStructType);
  });
});

describe('abi: address strings', () => {
  it('accepts exactly what decodeAddress accepts', async () => {
    const { decodeAddress, encodeAddress } = await import('../../../sdk/src/encoding/address.js');
    const t = parseAbiType('address');
    const good = encodeAddress(Uint8Array.from({ length: 32 }, (_, i) => i * 7));
    assert.equal(toHex(t.encode(good)), toHex(decodeAddress(good)));
    // Bad checksum, non-canonical trailing bits, lowercase, wrong length: all refused like decodeAddress.
    const variants = [good.slice(0, 10) + (good[10] === 'A' ? 'B' : 'A') + good.slice(11), good.slice(0, 57) + 'B', good.toLowerCase(), good.slice(1)];
    for (const v of variants) {
      assert.throws(() => decodeAddress(v));
      assert.throws(
        () => t.encode(v),
        (e: unknown) => e instanceof AbiEncodeError,
        v,
      );
    }
  });
});
