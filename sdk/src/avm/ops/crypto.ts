import { sha256 as nSha256, sha512 as nSha512, sha512_256 as nSha512_256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { p256 } from '@noble/curves/nist.js';
import { fault, AvmUnsupportedFault } from '../errors.js';
import { declareUnsupported, defineOp } from './registry.js';
import type { EvalContext } from '../context.js';
import type { Instr } from '../program.js';
import { ed25519Verify } from '../../crypto/ed25519.js';
import { bigToFixedBytes, bytesToBigUnsigned, concat2 } from '../value.js';
import { mimcHash } from './mimc.js';
import { vrfVerify } from './vrf.js';
import { poseidon2Hash } from './poseidon2.js';

function hashOp(name: string, f: (b: Uint8Array) => Uint8Array): void {
  defineOp(name, (cx) => {
    const s = cx.stack;
    s[cx.sp - 1] = f(s[cx.sp - 1] as Uint8Array);
  });
}
hashOp('sha256', nSha256);
hashOp('sha512_256', nSha512_256);
hashOp('sha512', nSha512);
hashOp('keccak256', keccak_256);
hashOp('sha3_256', sha3_256);

const PROG_DATA = new TextEncoder().encode('ProgData');
const PROGRAM = new TextEncoder().encode('Program');
const programHashes = new WeakMap<Uint8Array, Uint8Array>();

function programHash(cx: EvalContext): Uint8Array {
  const p = cx.program.bytes;
  let h = programHashes.get(p);
  if (!h) programHashes.set(p, (h = nSha512_256(concat2(PROGRAM, p))));
  return h;
}

function edArgs(cx: EvalContext): { data: Uint8Array; sig: Uint8Array; pk: Uint8Array } {
  const s = cx.stack;
  const pk = s[cx.sp - 1] as Uint8Array;
  const sig = s[cx.sp - 2] as Uint8Array;
  const data = s[cx.sp - 3] as Uint8Array;
  if (pk.length !== 32) fault('invalid public key');
  if (sig.length !== 64) fault('invalid signature');
  return { data, sig, pk };
}

// Signs "ProgData" || program hash || data, so a signature is bound to one program.
defineOp('ed25519verify', (cx) => {
  const { data, sig, pk } = edArgs(cx);
  const msg = concat2(concat2(PROG_DATA, programHash(cx)), data);
  cx.sp -= 2;
  cx.stack[cx.sp - 1] = ed25519Verify(pk, msg, sig) ? 1 : 0;
});
defineOp('ed25519verify_bare', (cx) => {
  const { data, sig, pk } = edArgs(cx);
  cx.sp -= 2;
  cx.stack[cx.sp - 1] = ed25519Verify(pk, data, sig) ? 1 : 0;
});

const SECP256K1_N = secp256k1.Point.Fn.ORDER;

function uncompressed(x: Uint8Array, y: Uint8Array): Uint8Array | undefined {
  if (x.length > 32 || y.length > 32) return undefined;
  const out = new Uint8Array(65);
  out[0] = 4;
  out.set(bigToFixedBytes(bytesToBigUnsigned(x), 32), 1);
  out.set(bigToFixedBytes(bytesToBigUnsigned(y), 32), 33);
  return out;
}

defineOp('ecdsa_verify', (cx, ins) => {
  const s = cx.stack;
  const sp = cx.sp;
  const y = s[sp - 1] as Uint8Array;
  const x = s[sp - 2] as Uint8Array;
  const sigS = s[sp - 3] as Uint8Array;
  const sigR = s[sp - 4] as Uint8Array;
  const msg = s[sp - 5] as Uint8Array;
  if (msg.length !== 32) fault(`the signed data must be 32 bytes long, not ${msg.length}`);
  let ok = false;
  const pub = uncompressed(x, y);
  try {
    if (ins.field!.name === 'Secp256k1') {
      // libsecp256k1 semantics: exactly r||s of 64 bytes, low-S only.
      if (pub && sigR.length + sigS.length === 64) {
        ok = secp256k1.verify(concat2(sigR, sigS), msg, pub, { prehash: false, lowS: true, format: 'compact' });
      }
    } else if (pub) {
      const r = bytesToBigUnsigned(sigR);
      const sv = bytesToBigUnsigned(sigS);
      const n = p256.Point.Fn.ORDER;
      if (r > 0n && r < n && sv > 0n && sv < n) {
        const sig = concat2(bigToFixedBytes(r, 32), bigToFixedBytes(sv, 32));
        ok = p256.verify(sig, msg, pub, { prehash: false, lowS: false, format: 'compact' });
      }
    }
  } catch {
    ok = false;
  }
  cx.sp = sp - 4;
  s[cx.sp - 1] = ok ? 1 : 0;
});

defineOp('ecdsa_pk_decompress', (cx, ins) => {
  const s = cx.stack;
  const pk = s[cx.sp - 1] as Uint8Array;
  const k1 = ins.field!.name === 'Secp256k1';
  let point;
  try {
    if (pk.length !== 33 || (pk[0] !== 2 && pk[0] !== 3)) throw new Error('bad prefix');
    point = (k1 ? secp256k1 : p256).Point.fromBytes(pk).toAffine();
  } catch {
    fault(k1 ? 'invalid pubkey' : 'invalid compressed pubkey');
  }
  s[cx.sp - 1] = bigToFixedBytes(point!.x, 32);
  s[cx.sp++] = bigToFixedBytes(point!.y, 32);
});

defineOp('ecdsa_pk_recover', (cx, ins) => {
  if (ins.field!.name !== 'Secp256k1') fault(`unsupported curve ${ins.field!.value}`);
  const s = cx.stack;
  const sp = cx.sp;
  const sigS = s[sp - 1] as Uint8Array;
  const sigR = s[sp - 2] as Uint8Array;
  const recid = s[sp - 3] as number | bigint;
  const msg = s[sp - 4] as Uint8Array;
  if (recid > 3) fault(`invalid recovery id: ${recid}`);
  let point;
  try {
    if (sigR.length + sigS.length !== 64) throw new Error('invalid signature length');
    if (msg.length !== 32) throw new Error('invalid message length, need 32 bytes');
    const r = bytesToBigUnsigned(sigR);
    const sv = bytesToBigUnsigned(sigS);
    if (r === 0n || sv === 0n || r >= SECP256K1_N || sv >= SECP256K1_N) throw new Error('recovery failed');
    const sig = new secp256k1.Signature(r, sv, Number(recid));
    point = sig.recoverPublicKey(msg).toAffine();
  } catch (e) {
    fault(`pubkey recover failed: ${(e as Error).message}`);
  }
  s[sp - 4] = bigToFixedBytes(point!.x, 32);
  s[sp - 3] = bigToFixedBytes(point!.y, 32);
  cx.sp = sp - 2;
});

/** mimc and poseidon2 hash a run of 32-byte field elements on the curve their immediate names. */
function fieldElementHashOp<F extends string>(name: string, hash: (field: F, data: Uint8Array) => Uint8Array): void {
  defineOp(name, (cx: EvalContext, ins: Instr) => {
    const s = cx.stack;
    const data = s[cx.sp - 1] as Uint8Array;
    if (data.length === 0) fault('the input data cannot be empty');
    if (data.length % 32 !== 0) fault('the input data must be a multiple of 32 bytes');
    s[cx.sp - 1] = hash(ins.field!.name as F, data);
  });
}
fieldElementHashOp('mimc', mimcHash);
fieldElementHashOp('poseidon2', poseidon2Hash);

defineOp('vrf_verify', (cx) => {
  const s = cx.stack;
  const sp = cx.sp;
  const pk = s[sp - 1] as Uint8Array;
  const proof = s[sp - 2] as Uint8Array;
  const data = s[sp - 3] as Uint8Array;
  if (proof.length !== 80) fault(`vrf proof wrong size ${proof.length} != 80`);
  if (pk.length !== 32) fault(`vrf pubkey wrong size ${pk.length} != 32`);
  const r = vrfVerify(pk, proof, data);
  s[sp - 3] = r.output;
  s[sp - 2] = r.ok ? 1 : 0;
  cx.sp = sp - 1;
});

// No maintained JavaScript implementation of these exists that we could verify against the
// reference; they fail explicitly rather than risk a wrong answer.
for (const name of ['falcon_verify']) {
  declareUnsupported(name, new AvmUnsupportedFault(name).message);
  defineOp(name, () => {
    throw new AvmUnsupportedFault(name);
  });
}
