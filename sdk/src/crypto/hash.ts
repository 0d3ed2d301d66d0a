import { sha256 as nobleSha256, sha512 as nobleSha512, sha512_256 as nobleSha512_256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 as nobleSha3_256 } from '@noble/hashes/sha3.js';
import { concatBytes, utf8 } from '../encoding/bytes.js';

export function sha512_256(data: Uint8Array): Uint8Array {
  return nobleSha512_256(data);
}

export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}

export function sha512(data: Uint8Array): Uint8Array {
  return nobleSha512(data);
}

export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

export function sha3_256(data: Uint8Array): Uint8Array {
  return nobleSha3_256(data);
}

/**
 * Domain-separated hash: every object the chain hashes is prefixed with a short tag
 * ("TX", "TG", "Program", …) so that bytes of one kind can never be passed off as another.
 */
export function hashWithPrefix(prefix: string, data: Uint8Array): Uint8Array {
  return nobleSha512_256(concatBytes(utf8(prefix), data));
}
