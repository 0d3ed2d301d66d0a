import assert from 'node:assert/strict';
import { createSign, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { runApp, runSig } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { asm } from './helpers/asm.js';
import { Ed25519KeyPair } from '../../../sdk/src/crypto/ed25519.js';
import { sha256, sha512_256 } from '../../../sdk/src/crypto/hash.js';
import { bn254 } from '@noble/curves/bn254.js';
import { bls12_381 } from '@noble/curves/bls12-381.js';

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');
const te = (s: string) => new TextEncoder().encode(s);
const big32 = (n: bigint, len = 32) => '0x' + n.toString(16).padStart(len * 2, '0');

describe('avm hashing (published vectors)', () => {
  it('sha256, keccak256, sha512_256, sha3_256, sha512 and their costs', () => {
    approves(runSig('byte 0x666E6F7264\nkeccak256\nbyte 0xc195eca25a6f4c82bfba0287082ddb0d602ae9230f9cf1f1a40b68f8e2c41567\n=='));
    approves(runSig('byte 0x666E6F7264\nsha3_256\nbyte 0xd757297405c5c89f7ceca368ee76c2f1893ee24f654e60032e65fb53b01aae10\n==', { version: 7 }));
    approves(runSig('byte 0x666E6F7264\nsha512_256\nbyte 0x98D2C31612EA500279B6753E5F6E780CA63EBA8274049664DAD66A2565ED1D2A\n=='));
    approves(runSig('byte "abc"\nsha256\nbyte 0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n=='));
    approves(
      runSig(
        'byte "hello"\nsha512\nbyte 0x9b71d224bd62f3785d96d46ad3ea3d73319bfbc2890caadae2dff72519673ca72323c3d99ba5c11d7c7acc6e14b8c5da0c4663475c2e5c3adef46f73bcdec043\n==',
        { version: 13 },
      ),
    );
    assert.equal(approves(runSig('byte 0x\nsha256\nlen', { version: 3 })).cost, 1 + 35 + 1);
    // v1 hash costs were lower
    assert.equal(approves(runSig(Uint8Array.of(1, 0x26, 0x01, 0x00, 0x28, 0x01, 0x15))).cost, 1 + 1 + 7 + 1);
  });

  it('mimc matches the reference vectors for both curves', () => {
    const vectors: [string, string, string][] = [
      [
        'BN254Mp110',
        '0x23a950068dd3d1e21cee48e7919be7ae32cdef70311fc486336ea9d4b5042535',
        '12886436712380113721405259596386800092738845035233065858332878701083870690753',
      ],
      [
        'BN254Mp110',
        '0x183de351a72141d79c51a27d10405549c98302cb2536c5968deeb3cba635121723a950068dd3d1e21cee48e7919be7ae32cdef70311fc486336ea9d4b504253530644e72e131a029b85045b68181585d2833e84879b9709143e1f593ef676981',
        '6040222623731283351958201178122781676432899642144860863024149088913741383362',
      ],
      [
        'BLS12_381Mp111',
        '0x23a950068dd3d1e21cee48e7919be7ae32cdef70311fc486336ea9d4b5042535',
        '8791766422525455185980675814845076441443662947059416063736889106252015893524',
      ],
      [
        'BLS12_381Mp111',
        '0x183de351a72141d79c51a27d10405549c98302cb2536c5968deeb3cba635121723a950068dd3d1e21cee48e7919be7ae32cdef70311fc486336ea9d4b504253530644e72e131a029b85045b68181585d2833e84879b9709143e1f593ef676981',
        '12964111614552580241101202600014316932811348627866250816177200046290462797607',
      ],
    ];
    for (const [cfg, input, out] of vectors) {
      const r = approves(runSig(`byte ${input}\nmimc ${cfg}\nbyte ${big32(BigInt(out))}\n==`, { version: 11 }));
      const blocks = (input.length - 2) / 64;
      assert.equal(r.cost, 1 + (10 + 550 * blocks) + 1 + 1);
    }
    failsWith(runSig('byte 0x\nmimc BN254Mp110\nlen', { version: 11 }), 'the input data cannot be empty');
    failsWith(runSig('byte 0xdeadf00d\nmimc BN254Mp110\nlen', { version: 11 }), 'the input data must be a multiple of 32 bytes');
    failsWith(
      runSig('byte 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000002\nmimc BLS12_381Mp111\nlen', { version: 11 }),
      'invalid mimc input',
    );
  });
});

describe('avm poseidon2', () => {
  it('matches the reference vectors for both curves, with per-block cost', () => {
    const vectors: [string, string, string][] = [
      [
        'BN254t2',
        '0x23a950068dd3d1e21cee48e7919be7ae32cdef70311fc486336ea9d4b5042535',
        '9508867777362231262564394485161648897131889139474639535709054689562539246209',
      ],
      [
        'BN254t2',
        '0x183de351a72141d79c51a27d10405549c98302cb2536c5968deeb3cba635121723a950068dd3d1e21cee48e7919be7ae32cdef70311fc486336ea9d4b504253530644e72e131a029b85045b68181585d2833e84879b9709143e1f593ef676981',
        '6791735139456093729163685856803485582211494197517701835714118539027901440151',
      ],
      [
        'BLS12_381t2',
        '0x23a950068dd3d1e21cee48e7919be7ae32cdef70311fc486336ea9d4b5042535',
        '34960972753749415790402211978912014226528569245540044525901549350192685584856',
      ],
      [
        'BLS12_381t2',
        '0x183de351a72141d79c51a27d10405549c98302cb2536c5968deeb3cba635121723a950068dd3d1e21cee48e7919be7ae32cdef70311fc486336ea9d4b504253530644e72e131a029b85045b68181585d2833e84879b9709143e1f593ef676981',
        '42428992405405528150674275794637337448740652553021708843638392031995718438793',
      ],
    ];
    for (const [cfg, input, out] of vectors) {
      const r = approves(runSig(`byte ${input}\nposeidon2 ${cfg}\nbyte ${big32(BigInt(out))}\n==`, { version: 13 }));
      assert.equal(r.cost, 1 + (7 + 350 * ((input.length - 2) / 64)) + 1 + 1);
    }
    failsWith(runSig('byte 0x\nposeidon2 BN254t2\nlen', { version: 13 }), 'the input data cannot be empty');
    failsWith(runSig('byte 0xdeadf00d\nposeidon2 BN254t2\nlen', { version: 13 }), 'the input data must be a multiple of 32 bytes');
    failsWith(
      runSig('byte 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000002\nposeidon2 BLS12_381t2\nlen', { version: 13 }),
      'invalid poseidon2 input',
    );
  });
});

describe('avm signatures', () => {
  const key = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(5));
  const data = Buffer.from('62fdfc072182654f163f5f0f9a621d729566c74d0aa413bf009c9800418c19cd', 'hex');

  it('ed25519verify signs "ProgData" || program hash || data', () => {
    const program = asm('arg 0\narg 1\narg 2\ned25519verify', 5);
    const progHash = sha512_256(new Uint8Array([...te('Program'), ...program]));
    const sig = key.sign(new Uint8Array([...te('ProgData'), ...progHash, ...data]));
    approves(runSig(program, { args: [data, sig, key.publicKey] }));
    assert.equal(runSig(program, { args: [Uint8Array.from(data).fill(1, 0, 1), sig, key.publicKey] }).approved, false);
    failsWith(runSig(program, { args: [data, sig.subarray(1), key.publicKey] }), 'invalid signature');
    failsWith(runSig(program, { args: [data, sig, key.publicKey.subarray(1)] }), 'invalid public key');
    const cost = approves(runSig(program, { args: [data, sig, key.publicKey] })).cost;
    assert.equal(cost, 3 + 1900);
  });

  it('ed25519verify_bare verifies the data itself (also in apps)', () => {
    const sig = key.sign(data);
    approves(runApp(`byte ${hex(data)}\nbyte ${hex(sig)}\nbyte ${hex(key.publicKey)}\ned25519verify_bare`, { version: 7, options: { extraBudget: 2000 } }));
  });

  it('ecdsa_pk_recover: the reference Ethereum address vector', () => {
    approves(
      runSig(
        `byte "hello from ethereum"
keccak256
int 0
byte 0x745e8f55ac6189ee89ed707c36694868e3903988fbf776c8096c45da2e60c638
byte 0x30c8e4a9b5d2eb53ddc6294587dd00bed8afe2c45dd72f6b4cf752e46d5ba681
ecdsa_pk_recover Secp256k1
concat
keccak256
substring 12 32
byte 0x5ce9454909639d2d17a3f753ce7d93fa0b9ab12e
==`,
        { version: 5 },
      ),
    );
    failsWith(runSig('byte 0x00\nint 4\nbyte 0x00\nbyte 0x00\necdsa_pk_recover Secp256k1', { version: 5 }), 'invalid recovery id: 4');
  });

  for (const [curve, name, version, lowS] of [
    ['secp256k1', 'Secp256k1', 5, true],
    ['prime256v1', 'Secp256r1', 7, false],
  ] as const) {
    it(`ecdsa_verify and ecdsa_pk_decompress on ${name}, cross-checked with OpenSSL signatures`, () => {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
      const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
      const x = Buffer.from(jwk.x, 'base64url');
      const y = Buffer.from(jwk.y, 'base64url');
      const msg = te('testdata');
      const digest = sha256(msg);
      const sig = nodeSign('sha256', msg, { key: privateKey, dsaEncoding: 'ieee-p1363' });
      let r: Uint8Array = sig.subarray(0, 32);
      let s = BigInt('0x' + Buffer.from(sig.subarray(32)).toString('hex'));
      const n =
        curve === 'secp256k1'
          ? 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
          : 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
      const low = s > n / 2n ? n - s : s;
      const high = n - low;
      const prog = (sv: bigint) => `byte ${hex(digest)}\nbyte ${hex(r)}\nbyte ${big32(sv)}\nbyte ${hex(x)}\nbyte ${hex(y)}\necdsa_verify ${name}`;
      const ok = approves(runSig(prog(low), { version }));
      assert.equal(ok.cost, 5 + (name === 'Secp256k1' ? 1700 : 2500));
      // libsecp256k1 accepts only low-S; Go's P-256 verifier accepts both.
      assert.equal(runSig(prog(high), { version }).approved, !lowS);
      r = Uint8Array.from(r);
      r[0] ^= 1;
      assert.equal(runSig(prog(low), { version }).approved, false);
      s = low;
      const compressed = Uint8Array.from([2 + (y[31]! & 1), ...x]);
      approves(runSig(`byte ${hex(compressed)}\necdsa_pk_decompress ${name}\nbyte ${hex(y)}\n==\nswap\nbyte ${hex(x)}\n==\n&&`, { version }));
      failsWith(runSig(`byte ${hex(compressed.subarray(1))}\necdsa_pk_decompress ${name}\nlen`, { version }), 'invalid');
      void createSign;
    });
  }

  it('vrf_verify: ECVRF-ED25519-SHA512-Elligator2 reference vectors', () => {
    const vectors = [
      [
        'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
        'b6b4699f87d56126c9117a7da55bd0085246f4c56dbc95d20172612e9d38e8d7ca65e573a126ed88d4e30a46f80a666854d675cf3ba81de0de043c3774f061560f55edc256a787afe701677c0f602900',
        '',
        '5b49b554d05c0cd5a5325376b3387de59d924fd1e13ded44648ab33c21349a603f25b84ec5ed887995b33da5e3bfcb87cd2f64521c4c62cf825cffabbe5d31cc',
      ],
      [
        '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
        'ae5b66bdf04b4c010bfe32b2fc126ead2107b697634f6f7337b9bff8785ee111200095ece87dde4dbe87343f6df3b107d91798c8a7eb1245d3bb9c5aafb093358c13e6ae1111a55717e895fd15f99f07',
        '72',
        '94f4487e1b2fec954309ef1289ecb2e15043a2461ecc7b2ae7d4470607ef82eb1cfa97d84991fe4a7bfdfd715606bc27e2967a6c557cfb5875879b671740b7d8',
      ],
    ];
    for (const [pk, pi, alpha, beta] of vectors) {
      const r = approves(runSig(`byte 0x${alpha}\nbyte 0x${pi}\nbyte 0x${pk}\nvrf_verify VrfAlgorand\nassert\nbyte 0x${beta}\n==`, { version: 7 }));
      assert.equal(r.cost, 3 + 5700 + 1 + 1 + 1);
      const bad = pi!.slice(0, 100) + (pi![100] === '0' ? '1' : '0') + pi!.slice(101);
      approves(runSig(`byte 0x${alpha}\nbyte 0x${bad}\nbyte 0x${pk}\nvrf_verify VrfAlgorand\n!\nassert\nint 64\nbzero\n==`, { version: 7 }));
    }
    failsWith(runSig('byte 0x1122\nbyte 0x2233\nbyte 0x3344\nvrf_verify VrfAlgorand', { version: 7 }), 'vrf proof wrong size 2 != 80');
    failsWith(runSig('byte 0x1122\nint 80\nbzero\nbyte 0x3344\nvrf_verify VrfAlgorand', { version: 7 }), 'vrf pubkey wrong size 2 != 32');
  });

  it('unsupported cryptography fails explicitly, never with a guess', () => {
    failsWith(runSig('byte 0x\nbyte 0x\nbyte 0x\nfalcon_verify', { version: 12 }), 'not supported by this interpreter: falcon_verify');
  });
});

describe('avm elliptic-curve ops', () => {
  const enc = (p: ReturnType<typeof bn254.G1.Point.BASE.multiply> | any, fp: number, ext: boolean): string => {
    const a = p.toAffine();
    const f = (v: bigint) => v.toString(16).padStart(fp * 2, '0');
    return '0x' + (ext ? f(a.x.c0) + f(a.x.c1) + f(a.y.c0) + f(a.y.c1) : f(a.x) + f(a.y));
  };
  const curves = [
    { g: 'BN254g1', P: bn254.G1.Point, fp: 32, ext: false },
    { g: 'BN254g2', P: bn254.G2.Point, fp: 32, ext: true },
    { g: 'BLS12_381g1', P: bls12_381.G1.Point, fp: 48, ext: false },
    { g: 'BLS12_381g2', P: bls12_381.G2.Point, fp: 48, ext: true },
  ];

  for (const c of curves) {
    it(`${c.g}: add, scalar_mul, multi_scalar_mul agree; infinity is all zeros`, () => {
      const G = enc(c.P.BASE, c.fp, c.ext);
      const G2 = enc(c.P.BASE.double(), c.fp, c.ext);
      const G5 = enc(c.P.BASE.multiply(5n), c.fp, c.ext);
      const size = c.fp * (c.ext ? 4 : 2);
      const budget = { options: { extraBudget: 300000 } };
      approves(runApp(`byte ${G}\nbyte ${G}\nec_add ${c.g}\nbyte ${G2}\n==`, { version: 10, ...budget }));
      approves(runApp(`byte ${G}\nbyte 0x05\nec_scalar_mul ${c.g}\nbyte ${G5}\n==`, { version: 10, ...budget }));
      approves(
        runApp(
          `byte ${G}\nbyte ${G2}\nconcat\nbyte ${big32(3n)}\nbyte ${big32(1n)}\nconcat\nec_multi_scalar_mul ${c.g}\nbyte ${enc(c.P.BASE.multiply(5n), c.fp, c.ext)}\n==`,
          { version: 10, ...budget },
        ),
      );
      approves(runApp(`int ${size}\nbzero\nec_subgroup_check ${c.g}`, { version: 10, ...budget }));
      approves(runApp(`byte ${G}\nint ${size}\nbzero\nec_add ${c.g}\nbyte ${G}\n==`, { version: 10, ...budget }));
      failsWith(runApp(`int ${size + 1}\nbzero\nec_subgroup_check ${c.g}`, { version: 10, ...budget }), `bad length ${size + 1}. Expected ${size}`);
      const bad = G.slice(0, -1) + (G.endsWith('1') ? '2' : '1');
      failsWith(runApp(`byte ${bad}\nec_subgroup_check ${c.g}`, { version: 10, ...budget }), 'point not on curve');
    });
  }

  it('pairing checks: e(aP, Q)·e(−P, aQ) = 1 on both curves', () => {
    for (const [curve, g1, g2, fp] of [
      [bn254, 'BN254g1', 'BN254g2', 32],
      [bls12_381, 'BLS12_381g1', 'BLS12_381g2', 48],
    ] as const) {
      const P = (curve as any).G1.Point.BASE;
      const Q = (curve as any).G2.Point.BASE;
      const g1s = enc(P.multiply(7n), fp, false).slice(2) + enc(P.negate(), fp, false).slice(2);
      const g2s = enc(Q, fp, true).slice(2) + enc(Q.multiply(7n), fp, true).slice(2);
      const budget = { options: { extraBudget: 300000 } };
      approves(runApp(`byte 0x${g1s}\nbyte 0x${g2s}\nec_pairing_check ${g1}`, { version: 10, ...budget }));
      approves(runApp(`byte 0x${g2s}\nbyte 0x${g1s}\nec_pairing_check ${g2}`, { version: 10, ...budget }));
      const wrong = enc(P.multiply(6n), fp, false).slice(2) + enc(P.negate(), fp, false).slice(2);
      assert.equal(runApp(`byte 0x${wrong}\nbyte 0x${g2s}\nec_pairing_check ${g1}`, { version: 10, ...budget }).result.approved, false);
    }
  });

  it('scalar multiplication refuses points outside the subgroup instead of guessing', () => {
    // A BLS12-381 G1 point on the curve but not in the subgroup: x = 0 gives y^2 = 4.
    const fp = 48;
    const pt = '0x' + '00'.repeat(fp) + 2n.toString(16).padStart(fp * 2, '0');
    const budget = { options: { extraBudget: 300000 } };
    approves(runApp(`byte ${pt}\nec_subgroup_check BLS12_381g1\n!`, { version: 10, ...budget }));
    failsWith(runApp(`byte ${pt}\nbyte 0x02\nec_scalar_mul BLS12_381g1\nlen`, { version: 10, ...budget }), 'not supported by this interpreter: ec_scalar_mul');
    approves(runApp(`byte ${pt}\nbyte ${pt}\nec_add BLS12_381g1\nlen\nint 96\n==`, { version: 10, ...budget }));
  });

  it('BLS12-381 map_to lands in the subgroup (reference test programs)', () => {
    const budget = { options: { extraBudget: 300000 } };
    approves(runApp('int 27\nitob\nec_map_to BLS12_381g1\nec_subgroup_check BLS12_381g1', { version: 10, ...budget }));
    approves(
      runApp('int 48\nbzero\nint 67\nitob\nb|\nint 48\nbzero\nint 2783\nitob\nb|\nconcat\nec_map_to BLS12_381g2\nec_subgroup_check BLS12_381g2', {
        version: 10,
        ...budget,
      }),
    );
    failsWith(runApp('int 27\nitob\nec_map_to BLS12_381g2', { version: 10, ...budget }), 'bad encoded element length');
  });
});
