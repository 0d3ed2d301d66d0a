import { encodeAddress } from '../../encoding/address.js';
import { toBase32 } from '../../encoding/base32.js';
import { toBase64 } from '../../encoding/base64.js';
import { encodeMsgpack, MsgStr, type MapKey, type MsgpackValue } from '../../encoding/msgpack.js';
import { fromBase32 } from '../../encoding/base32.js';
import { stateDeltaObject, type DeltaLeaves, type RoundDelta } from '../../ledger/delta.js';

/**
 * `/v2/deltas/{round}`: a round's changes in the shape of the node's ledgercore.StateDelta
 * (protocol.md §7.2). The node encodes that struct by reflection, so keys are Go field names and
 * nested protocol records keep their short codec keys. Values are built once, when the block
 * commits (later rounds may reuse the same account objects), as a tree whose few special leaves
 * say how each encoding renders them.
 */

type Kind = 'addr' | 'blk' | 'txid' | 'str';

/** A leaf whose rendering differs between JSON and msgpack. */
class Tagged {
  constructor(
    readonly kind: Kind,
    readonly bytes: Uint8Array,
  ) {}
}

/** A ledger state delta in the node's wire structure (msgpack maps). */
export type DeltaTree = unknown;

/** The node's leaves: tagged so the JSON and msgpack forms can each render them their own way. */
const TAGGED: DeltaLeaves = {
  addr: (b) => new Tagged('addr', b),
  str: (b) => new Tagged('str', b),
  blk: (b) => new Tagged('blk', b),
  txid: (t) => new Tagged('txid', fromBase32(t)),
};

/** Builds the StateDelta tree of one committed round: the ledger's one builder, with tagged leaves. */
export function buildStateDelta(d: RoundDelta, prevTimestamp: bigint): DeltaTree {
  return stateDeltaObject(d, prevTimestamp, TAGGED);
}

const lossyText = (b: Uint8Array): string => new TextDecoder('utf-8', { fatal: false }).decode(b);

function jsonKey(k: unknown): string {
  if (k instanceof Tagged) return k.kind === 'txid' ? toBase32(k.bytes) : k.kind === 'addr' ? encodeAddress(k.bytes) : lossyText(k.bytes);
  return String(k);
}

/** JSON view: addresses as text, block hashes as `blk-…`, other bytes base64, map keys as strings. */
export function deltaToJsonValue(v: DeltaTree, key = ''): unknown {
  if (v instanceof Tagged) {
    switch (v.kind) {
      case 'addr':
        return encodeAddress(v.bytes);
      case 'blk':
        return `blk-${toBase32(v.bytes)}`;
      case 'txid':
        return toBase32(v.bytes);
      case 'str':
        return lossyText(v.bytes);
    }
  }
  if (v instanceof Uint8Array) return toBase64(v);
  if (v instanceof Map) {
    // The node cannot express lease keys (structs) as JSON map keys and writes null instead.
    if (key === 'Txleases') return null;
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[jsonKey(k)] = deltaToJsonValue(x);
    return o;
  }
  if (Array.isArray(v)) return v.map((x) => deltaToJsonValue(x));
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = deltaToJsonValue(x, k);
    return o;
  }
  return v;
}

// Go strings (TEAL keys and byte values, box keys) are msgpack str on the node's wire, whatever their bytes.
const wireOf = (t: Tagged): Uint8Array | MsgStr => (t.kind === 'str' ? new MsgStr(t.bytes) : t.bytes);

function toMsgpackValue(v: DeltaTree): MsgpackValue {
  if (v instanceof Tagged) return wireOf(v);
  if (v instanceof Map) {
    const m = new Map<MapKey, MsgpackValue>();
    for (const [k, x] of v) m.set(k instanceof Tagged ? wireOf(k) : (k as bigint | string), toMsgpackValue(x));
    return m;
  }
  if (Array.isArray(v)) return v.map(toMsgpackValue);
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const o: Record<string, MsgpackValue> = {};
    for (const [k, x] of Object.entries(v)) o[k] = toMsgpackValue(x);
    return o;
  }
  return v as MsgpackValue;
}

/**
 * Msgpack bytes. Our canonical encoder leaves zero values out, where the node's reflection
 * encoder writes them; decoders read an absent field as zero, so the meaning is the same.
 */
export function deltaToMsgpack(v: DeltaTree): Uint8Array {
  return encodeMsgpack(toMsgpackValue(v));
}
