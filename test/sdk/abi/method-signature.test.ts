import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { AbiMethod, AbiTupleType, AbiTypeError, methodSelector, parseAbiType, parseMethodSignature, splitTupleElements } from '../../../sdk/src/abi/index.js';
import { DOORKEEPER_RESET, SELECTOR_CACHE_LIMIT, resetSelectorCache, selectorCacheState, selectorWord } from '../../../sdk/src/abi/selector.js';
import { setNativeHashing } from '../../../sdk/src/crypto/hash.js';
import { nativeDigest, nativeDigestWord, nativeOneShotAvailable } from '../../../sdk/src/encoding/native-hash.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { Gen, prng } from './random.js';

/** A random method signature: value types (some nested), references and transactions, any return. */
function randomSignature(gen: Gen, name: string): string {
  const extras = ['account', 'asset', 'application', 'txn', 'pay', 'keyreg', 'acfg', 'axfer', 'afrz', 'appl'];
  const args = Array.from({ length: gen.int(0, 8) }, () => (gen.rand() < 0.2 ? gen.pick(extras) : gen.type(1).toString()));
  const ret = gen.rand() < 0.3 ? 'void' : gen.type(1).toString();
  return `${name}(${args.join(',')})${ret}`;
}

/** What parseMethodSignature answered before its single pass: the first "(" and its match, the arguments split as a tuple's elements. */
function referenceSplit(signature: string): { name: string; args: string[]; returns: string } {
  const open = signature.indexOf('(');
  let depth = 0;
  let close = -1;
  for (let i = open; i < signature.length && close < 0; i++) {
    if (signature[i] === '(') depth++;
    else if (signature[i] === ')' && --depth === 0) close = i;
  }
  return { name: signature.slice(0, open), args: splitTupleElements(signature.slice(open + 1, close)), returns: signature.slice(close + 1) };
}

describe('abi: method signatures and selectors', () => {
  afterEach(() => setNativeHashing(true));

  it('rejects bad signatures with the same errors as before', () => {
    // Wording pinned from the implementation before the single-pass parser.
    const cases: Array<[unknown, string]> = [
      [123, 'method signature must be a string, got number'],
      [undefined, 'method signature must be a string, got undefined'],
      ['', 'invalid method signature "": missing "("'],
      ['foo', 'invalid method signature "foo": missing "("'],
      ['foo(uint64', 'invalid method signature "foo(uint64": unbalanced parentheses'],
      ['foo((uint64)void', 'invalid method signature "foo((uint64)void": unbalanced parentheses'],
      ['foo(()void', 'invalid method signature "foo(()void": unbalanced parentheses'],
      ['(uint64)void', 'invalid method signature "(uint64)void": "" is not a valid method name'],
      ['1foo(uint64)void', 'invalid method signature "1foo(uint64)void": "1foo" is not a valid method name'],
      [' foo(uint64)void', 'invalid method signature " foo(uint64)void": " foo" is not a valid method name'],
      ['fé(uint64)void', 'invalid method signature "fé(uint64)void": "fé" is not a valid method name'],
      ['(,)', 'invalid method signature "(,)": "" is not a valid method name'],
      ['foo(uint64)', 'invalid method signature "foo(uint64)": missing return type (use "void")'],
      ['foo(,)', 'invalid method signature "foo(,)": missing return type (use "void")'],
      ['foo(uint64,)void', 'invalid method signature "foo(uint64,)void": invalid ABI type "uint64,": empty tuple element (stray comma)'],
      ['foo(,uint64)void', 'invalid method signature "foo(,uint64)void": invalid ABI type ",uint64": empty tuple element (stray comma)'],
      ['foo(,)void', 'invalid method signature "foo(,)void": invalid ABI type ",": empty tuple element (stray comma)'],
      ['foo(a,,(b,c))void', 'invalid method signature "foo(a,,(b,c))void": invalid ABI type "a,,(b,c)": empty tuple element (stray comma)'],
      ['foo(uint7)void', 'method foo argument 0: invalid ABI type "uint7": uint size 7 must be a multiple of 8 between 8 and 512'],
      ['foo(uint64,uint7)uint7', 'method foo argument 1: invalid ABI type "uint7": uint size 7 must be a multiple of 8 between 8 and 512'],
      ['foo(uint64)uint7', 'method foo return type: invalid ABI type "uint7": uint size 7 must be a multiple of 8 between 8 and 512'],
      ['foo(uint64)(uint8', 'method foo return type: invalid ABI type "(uint8": tuple "(uint8" does not end with ")"'],
      ['foo(uint64))void', 'method foo return type: invalid ABI type ")void": unknown type ")void"'],
      ['foo(pay)pay', 'method foo return type: invalid ABI type "pay": unknown type "pay"'],
      ['foo(uint64)account', 'method foo return type: invalid ABI type "account": unknown type "account"'],
      ['foo(uint64[)void', 'method foo argument 0: invalid ABI type "uint64[": unknown type "uint64["'],
      ['foo((uint64,))void', 'method foo argument 0: invalid ABI type "(uint64,)": empty tuple element (stray comma)'],
      ['foo(Uint64)void', 'method foo argument 0: invalid ABI type "Uint64": unknown type "Uint64"'],
      ['foo( uint64)void', 'method foo argument 0: invalid ABI type " uint64": unknown type " uint64"'],
      ['foo(uint64 )void', 'method foo argument 0: invalid ABI type "uint64 ": unknown type "uint64 "'],
      ['foo(byte[65536])void', 'method foo argument 0: invalid ABI type "byte[65536]": static array length 65536 is larger than 65535'],
      ['foo(void)void', 'method foo argument 0: invalid ABI type "void": unknown type "void"'],
      ['foo(Pay)void', 'method foo argument 0: invalid ABI type "Pay": unknown type "Pay"'],
    ];
    for (const [signature, message] of cases) {
      assert.throws(
        () => AbiMethod.fromSignature(signature as string),
        (e: unknown) => e instanceof AbiTypeError && e.message === message,
        `${JSON.stringify(signature)} should fail with ${message}`,
      );
    }
  });

  it('splits signatures as a tuple split of the argument list does', () => {
    const gen = new Gen(prng(31_2026));
    for (let i = 0; i < 500; i++) {
      const signature = randomSignature(gen, `split_${i}`);
      assert.deepEqual(parseMethodSignature(signature), referenceSplit(signature), signature);
    }
    // Returns that hold parentheses, and argument lists that are empty or hold only a tuple.
    for (const signature of ['f()void', 'f(())()', 'f((uint8,(bool,bool)),string)(uint64,(byte[2],bool))', 'f(uint8[])uint8[3]']) {
      assert.deepEqual(parseMethodSignature(signature), referenceSplit(signature), signature);
    }
  });

  it('gives algosdk selectors and signatures for random methods, new and repeated, on the native and portable hash paths', () => {
    for (const native of [true, false]) {
      setNativeHashing(native);
      resetSelectorCache();
      const gen = new Gen(prng(native ? 7 : 8));
      const hot = Array.from({ length: 20 }, (_, i) => randomSignature(gen, `hot_${i}`));
      // Past the doorkeeper's reset and the cache's limit, with the hot few asked for all along.
      for (let i = 0; i < DOORKEEPER_RESET + 600; i++) {
        const signature = i % 3 === 0 ? hot[i % hot.length]! : randomSignature(gen, `m${i}`);
        const ours = AbiMethod.fromSignature(signature);
        const expected = toHex(algosdk.ABIMethod.fromSignature(signature).getSelector());
        assert.equal(ours.signature, signature);
        assert.equal(toHex(ours.selector), expected, signature);
        assert.equal(ours.selectorHex, expected, signature);
        assert.equal(toHex(methodSelector(signature)), expected, signature);
      }
    }
  });

  it('hands out a fresh selector array every time', () => {
    const method = AbiMethod.fromSignature('add(uint64,uint64)uint128');
    const first = method.selector;
    first.fill(0);
    assert.equal(toHex(method.selector), '8aa3b61f');
    const viaFunction = methodSelector('add(uint64,uint64)uint128');
    viaFunction.fill(0);
    assert.equal(toHex(methodSelector('add(uint64,uint64)uint128')), '8aa3b61f');
    assert.equal(toHex(AbiMethod.fromSignature('add(uint64,uint64)uint128').selector), '8aa3b61f');
  });

  it('caches a signature from its second request, keeps one-off signatures out, and stays bounded', () => {
    resetSelectorCache();
    const once = 'only_once(uint64,string)bool';
    const twice = 'asked_twice(uint64,string)bool';
    selectorWord(once);
    selectorWord(twice);
    assert.deepEqual(selectorCacheState(once), { size: 0, has: false });
    const word = selectorWord(twice);
    assert.deepEqual(selectorCacheState(twice), { size: 1, has: true });
    assert.equal(selectorWord(twice), word);

    // Many signatures seen once each: few get in (only those sharing a doorkeeper bucket).
    resetSelectorCache();
    const n = 3 * DOORKEEPER_RESET;
    for (let i = 0; i < n; i++) selectorWord(`one_off_${i}(uint64,(address,uint64)[],string)bool`);
    assert.ok(selectorCacheState().size < n / 10, `${selectorCacheState().size} of ${n} one-off signatures cached`);

    // Signatures seen twice each: all get in, and the cache never holds more than its limit.
    resetSelectorCache();
    for (let i = 0; i < SELECTOR_CACHE_LIMIT + 500; i++) {
      const signature = `twice_${i}(uint8)void`;
      selectorWord(signature);
      selectorWord(signature);
      assert.ok(selectorCacheState().size <= SELECTOR_CACHE_LIMIT);
    }
    assert.ok(selectorCacheState(`twice_${SELECTOR_CACHE_LIMIT + 499}(uint8)void`).has);
    resetSelectorCache();
  });

  it('answers the same for signatures the doorkeeper cannot tell apart', () => {
    // Same length, same last sixteen characters of the name, same middle and end: one bucket.
    resetSelectorCache();
    const a = 'x_abcdefghijklmnopqrstuvwxyz(uint64)void';
    const b = 'y_abcdefghijklmnopqrstuvwxyz(uint64)void';
    for (let round = 0; round < 3; round++) {
      for (const signature of [a, b]) assert.equal(toHex(methodSelector(signature)), toHex(algosdk.ABIMethod.fromSignature(signature).getSelector()));
    }
    resetSelectorCache();
  });

  it('nativeDigestWord is the first four bytes of the digest, or undefined without native hashing', () => {
    if (!nativeOneShotAvailable()) return;
    for (const data of ['', 'abc', 'add(uint64,uint64)uint128', 'é😀', new Uint8Array([0, 255, 128]), 'x'.repeat(300)]) {
      for (const algorithm of ['sha512-256', 'sha256', 'sha512'] as const) {
        const digest = nativeDigest(algorithm, data)!;
        const word = nativeDigestWord(algorithm, data)!;
        assert.equal(word.toString(16).padStart(8, '0'), toHex(digest.subarray(0, 4)), `${algorithm} ${String(data)}`);
      }
    }
    setNativeHashing(false);
    assert.equal(nativeDigestWord('sha512-256', 'abc'), undefined);
  });

  it('parses the common elementary types to the same types as the general parser', () => {
    for (const text of ['uint64', 'string', 'address', 'bool', 'byte', 'uint8', 'uint16', 'uint32', 'uint128', 'uint256']) {
      const type = parseAbiType(text);
      assert.equal(type.toString(), text);
      assert.equal(parseAbiType(text), type, `${text} is parsed once`);
      assert.ok(type.equals((parseAbiType(`(${text})`) as AbiTupleType).childTypes[0]!), text);
      const theirs = algosdk.ABIType.from(text);
      if (!type.dynamic) assert.equal(type.staticSize, theirs.byteLen(), text);
    }
  });

  it('caches a composite type from its second parse, and every parse is the same type', () => {
    for (let i = 0; i < 50; i++) {
      const text = `(uint64,(address,byte[${40_000 + i}])[],string,ufixed64x${(i % 160) + 1})`;
      const first = parseAbiType(text);
      const second = parseAbiType(text);
      assert.ok(first.equals(second), text);
      assert.equal(first.toString(), text);
      assert.equal(parseAbiType(text), second, `${text}: the second parse is the one cached`);
      assert.equal(parseAbiType(text), second);
    }
  });
});
