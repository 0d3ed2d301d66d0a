import { hash_to_field } from '@noble/curves/abstract/hash-to-curve.js';
import { bn254 } from '@noble/curves/bn254.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { runApp, runSig } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';

const hex32 = (n: bigint): string => n.toString(16).padStart(64, '0');
const P = bn254.fields.Fp.ORDER;

/**
 * gnark-crypto's BN254 G1 vectors (suite BN254G1_XMD:SHA-256_SVDW_NU_): u → map_to_curve(u), which
 * for G1 (cofactor 1) is exactly what ec_map_to returns.
 */
const G1: [string, string, string][] = [
  [
    '0cb81538a98a2e3580076eed495256611813f6dae9e16d3d4f8de7af0e9833e1',
    '1bb8810e2ceaf04786d4efd216fc2820ddd9363712efc736ada11049d8af5925',
    '1efbf8d54c60d865cce08437668ea30f5bf90d287dbd9b5af31da852915e8f11',
  ],
  [
    '0ba35e127276e9000b33011860904ddee28f1d48ddd3577e2a797ef4a5e62319',
    '0da4a96147df1f35b0f820bd35c6fac3b80e8e320de7c536b1e054667b22c332',
    '189bd3fbffe4c8740d6543754d95c790e44cd2d162858e3b733d2b8387983bb7',
  ],
  [
    '11852286660cd970e9d7f46f99c7cca2b75554245e91b9b19d537aa6147c28fc',
    '2ff727cfaaadb3acab713fa22d91f5fddab3ed77948f3ef6233d7ea9b03f4da1',
    '304080768fd2f87a852155b727f97db84b191e41970506f0326ed4046d1141aa',
  ],
  [
    '174d1c85d8a690a876cc1deba0166d30569fafdb49cb3ed28405bd1c5357a1cc',
    '11a2eaa8e3e89de056d1b3a288a7f733c8a1282efa41d28e71af065ab245df9b',
    '060f37c447ac29fd97b9bb83be98ddccf15e34831a9cdf5493b7fede0777ae06',
  ],
  [
    '073b81432b4cf3a8a9076201500d1b94159539f052a6e0928db7f2df74bff672',
    '27409dccc6ee4ce90e24744fda8d72c0bc64e79766f778da0c1c0ef1c186ea84',
    '1ac201a542feca15e77f30370da183514dc99d8a0b2c136d64ede35cd0b51dc0',
  ],
];

/**
 * G2 outputs of gnark-crypto's Z = 1 map with its cofactor clearing (EncodeToG2 /
 * HashToG2 for the BN254G2_XMD:SHA-256_SVDW suites, as published with a port cross-checked
 * against gnark): x.c0, x.c1, y.c0, y.c1. The field elements u come from the suite's
 * hash_to_field (expand_message_xmd with SHA-256, L = 48).
 */
const G2_ENCODE: [string, bigint[]][] = [
  [
    'abc',
    [
      7290337032722028742894312496454770035215478865307401781131202361899492945880n,
      18605632812439984129247614998320701910992924251662446522071513278020164236983n,
      18565926515830203734257806009639634340842708214357641080049757818108383758101n,
      21026435153745179081072575128771379049563093023676092614267505429710510687357n,
    ],
  ],
  [
    '',
    [
      2222545202255207121622252341720884612662004487208664408317925491033383016781n,
      3167015911722190124689644160541231412539898594125261078778351544051685395067n,
      20450065928984038040963910334909877834263207751235246619699259708122680403961n,
      4743914079645712786687283872900604142971897405422186449887746314931053675188n,
    ],
  ],
  [
    'abcdef0123456789',
    [
      7148036967840401493869354348463445038937751410382870212181508408551260940454n,
      20374759774184409322905764368361574346849498692562411327726753719663647349306n,
      10483260641720359876745669935893009958901176103433938324656495809668720301952n,
      4967329811281913502786824686629199594924414673725274625361393684486574196665n,
    ],
  ],
];
const G2_HASH: [string, bigint[]][] = [
  [
    'abc',
    [
      10305213714312555419584685236164610766057227018997600762219755820581571775698n,
      5140998983273781645596043003996621170933075714207210952317183701750931672829n,
      12782657610222102886506935265351398708799194735435757564502179253917869011884n,
      15746452850775091549966312821847336261590899319279618339578671846526379873840n,
    ],
  ],
  [
    '',
    [
      7947280525355502288245767042139433332619084425813891508679326584140902765312n,
      10530141512348869141982713319207053343182583313484148698392330696376288318261n,
      2079515028849057274649333561166551431956364880890028320215862191123161285080n,
      20169147323092870078028771345234445157617856249189458168875341276090072581620n,
    ],
  ],
];

function fieldElements(msg: string, suite: 'NU' | 'RO', count: number): string[] {
  const u = hash_to_field(new TextEncoder().encode(msg), count, {
    DST: `QUUX-V01-CS02-with-BN254G2_XMD:SHA-256_SVDW_${suite}_`,
    p: P,
    m: 2,
    k: 128,
    expand: 'xmd',
    hash: sha256,
  });
  return u.map(([c0, c1]) => `0x${hex32(c0!)}${hex32(c1!)}`);
}
const point = (coords: bigint[]): string => `0x${coords.map(hex32).join('')}`;

describe('avm ec_map_to on BN254 (SvdW, gnark-crypto choices)', () => {
  it('G1 matches the reference vectors', () => {
    for (const [u, x, y] of G1) approves(runSig(`byte 0x${u}\nec_map_to BN254g1\nbyte 0x${x}${y}\n==`, { version: 10 }));
  });

  it('G2 matches the reference map with cofactor clearing', () => {
    for (const [msg, want] of G2_ENCODE) {
      const [u] = fieldElements(msg, 'NU', 1);
      approves(runSig(`byte ${u}\nec_map_to BN254g2\nbyte ${point(want)}\n==`, { version: 10 }));
    }
    // Hashing maps two elements and adds them before clearing; clearing is a homomorphism, so
    // two ec_map_to results added give the same point.
    for (const [msg, want] of G2_HASH) {
      const [u0, u1] = fieldElements(msg, 'RO', 2);
      approves(runSig(`byte ${u0}\nec_map_to BN254g2\nbyte ${u1}\nec_map_to BN254g2\nec_add BN254g2\nbyte ${point(want)}\n==`, { version: 10 }));
    }
  });

  it('runs the reference test programs and rejects bad input like the reference', () => {
    const budget = { options: { extraBudget: 20000 } };
    approves(runApp('int 27\nitob\nec_map_to BN254g1\nec_subgroup_check BN254g1', { version: 10, ...budget }));
    approves(
      runApp('int 32\nbzero\nint 67\nitob\nb|\nint 32\nbzero\nint 2783\nitob\nb|\nconcat\nec_map_to BN254g2\nec_subgroup_check BN254g2', {
        version: 10,
        ...budget,
      }),
    );
    failsWith(runApp('int 27\nitob\nec_map_to BN254g2', { version: 10, ...budget }), 'bad encoded element length: 8');
    failsWith(runSig(`byte 0x${hex32(P)}\nec_map_to BN254g1`, { version: 10 }), `field element ${P} larger than modulus ${P}`);
    // Zero maps too (the map is total).
    approves(runSig('byte 0x\nec_map_to BN254g1\nec_subgroup_check BN254g1', { version: 10 }));
  });
});
