import { fromBase64, toBase64 } from '../../encoding/base64.js';
import { utf8 } from '../../encoding/bytes.js';
import { parseJson, stringifyJson } from '../../encoding/json.js';
import { DecodeError } from '../../errors.js';
import { checkScryptParams, CIPHER, type Sealed, type ScryptParams } from './wallet-crypto.js';

/**
 * One wallet = one JSON file. The header (id, name, KDF settings) is readable so wallets can be
 * listed without passwords; everything secret sits in `sealed`.
 */

export const WALLET_FILE_FORMAT = 'tealworks-wallet';
export const WALLET_FILE_VERSION = 1;

export interface WalletRecord {
  id: string;
  name: string;
  driver: string;
  kdf: ScryptParams & { salt: Uint8Array };
  box: Sealed;
}

/** A key stored in a wallet: public key, and the secret or its derivation index. */
export interface WalletKey {
  /** 64 bytes: seed ‖ public key. */
  secretKey: Uint8Array;
  /** Set for keys derived from the master derivation key. */
  index?: bigint;
}

/** A multisig account stored in a wallet (public name `WalletMultisigPreimage`). */
export interface MultisigPreimage {
  version: number;
  threshold: number;
  publicKeys: Uint8Array[];
}

/** The plaintext inside a wallet file. */
export interface WalletSecrets {
  masterDerivationKey: Uint8Array;
  /** Highest derivation index handed out so far (0 = none). */
  maxIndex: bigint;
  keys: WalletKey[];
  multisig: MultisigPreimage[];
}

/** Authenticated with the ciphertext: changing the id or weakening the KDF breaks the seal. */
export function walletAad(record: Pick<WalletRecord, 'id' | 'kdf'>): Uint8Array {
  const k = record.kdf;
  return utf8(`${WALLET_FILE_FORMAT}/${WALLET_FILE_VERSION}/${record.id}/${CIPHER}/scrypt/${k.N}/${k.r}/${k.p}/${toBase64(k.salt)}`);
}

export function serializeRecord(record: WalletRecord): string {
  return (
    stringifyJson(
      {
        format: WALLET_FILE_FORMAT,
        version: WALLET_FILE_VERSION,
        id: record.id,
        name: record.name,
        driver: record.driver,
        kdf: { alg: 'scrypt', N: record.kdf.N, r: record.kdf.r, p: record.kdf.p, salt: toBase64(record.kdf.salt) },
        cipher: CIPHER,
        nonce: toBase64(record.box.nonce),
        sealed: toBase64(record.box.sealed),
      },
      { indent: 2 },
    ) + '\n'
  );
}

function fail(why: string): never {
  throw new DecodeError(`not a wallet file: ${why}`);
}

function str(o: Record<string, unknown>, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') fail(`${key} is missing`);
  return v;
}

function int(o: Record<string, unknown>, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(`${key} is not an integer`);
  return v;
}

function b64(o: Record<string, unknown>, key: string): Uint8Array {
  try {
    return fromBase64(str(o, key));
  } catch {
    fail(`${key} is not base64`);
  }
}

export function parseRecord(text: string): WalletRecord {
  let o: unknown;
  try {
    o = parseJson(text);
  } catch {
    fail('not JSON');
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) fail('not an object');
  const r = o as Record<string, unknown>;
  if (r.format !== WALLET_FILE_FORMAT) fail('unknown format');
  if (r.version !== WALLET_FILE_VERSION) fail(`unsupported version ${String(r.version)}`);
  if (r.cipher !== CIPHER) fail('unknown cipher');
  const kdf = r.kdf;
  if (typeof kdf !== 'object' || kdf === null || (kdf as Record<string, unknown>).alg !== 'scrypt') fail('unknown key derivation');
  const k = kdf as Record<string, unknown>;
  const params = { N: int(k, 'N'), r: int(k, 'r'), p: int(k, 'p') };
  try {
    checkScryptParams(params);
  } catch {
    fail('key derivation parameters out of range');
  }
  const id = str(r, 'id');
  if (!/^[0-9a-f]{32}$/.test(id)) fail('bad wallet id');
  return {
    id,
    name: str(r, 'name'),
    driver: str(r, 'driver'),
    kdf: { ...params, salt: b64(k, 'salt') },
    box: { nonce: b64(r, 'nonce'), sealed: b64(r, 'sealed') },
  };
}

export function encodeSecrets(s: WalletSecrets): Uint8Array {
  return utf8(
    stringifyJson({
      mdk: toBase64(s.masterDerivationKey),
      maxIndex: s.maxIndex.toString(),
      keys: s.keys.map((k) => (k.index === undefined ? { sk: toBase64(k.secretKey) } : { sk: toBase64(k.secretKey), index: k.index.toString() })),
      multisig: s.multisig.map((m) => ({ v: m.version, thr: m.threshold, pks: m.publicKeys.map(toBase64) })),
    }),
  );
}

export function decodeSecrets(bytes: Uint8Array): WalletSecrets {
  const o = parseJson(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  const keys = (o.keys as Record<string, unknown>[]).map((k) => {
    const out: WalletKey = { secretKey: fromBase64(k.sk as string) };
    if (typeof k.index === 'string') out.index = BigInt(k.index);
    return out;
  });
  const multisig = (o.multisig as Record<string, unknown>[]).map((m) => ({
    version: m.v as number,
    threshold: m.thr as number,
    publicKeys: (m.pks as string[]).map((p) => fromBase64(p)),
  }));
  return { masterDerivationKey: fromBase64(o.mdk as string), maxIndex: BigInt(o.maxIndex as string), keys, multisig };
}
