import type { AppCallFields, AssetParams } from '../txn/types.js';
import { utf8 } from '../encoding/bytes.js';
import type { AppParamsRecord, AssetParamsRecord, TealValue } from './ledger-view.js';

/**
 * Records built from a creating transaction, and counts over stored state: the one place the
 * in-memory ledger, the ledger and the query index take them from.
 */

const ZERO32 = new Uint8Array(32);

/** The parameters an app-creating call gives its app (programs, schemas, extra pages; version 0). */
export function appParamsFromCreate(creator: Uint8Array, call: AppCallFields): AppParamsRecord {
  return {
    creator,
    approvalProgram: call.approvalProgram ?? new Uint8Array(),
    clearStateProgram: call.clearProgram ?? new Uint8Array(),
    globalNumUint: BigInt(call.globalSchema?.numUints ?? 0),
    globalNumByteSlice: BigInt(call.globalSchema?.numByteSlices ?? 0),
    localNumUint: BigInt(call.localSchema?.numUints ?? 0),
    localNumByteSlice: BigInt(call.localSchema?.numByteSlices ?? 0),
    extraProgramPages: BigInt(call.extraPages),
    version: 0n,
  };
}

/** The parameters an asset-creating config gives its asset (absent texts empty, absent addresses and hash zero). */
export function assetParamsFromCreate(creator: Uint8Array, p: AssetParams): AssetParamsRecord {
  return {
    creator,
    total: p.total,
    decimals: BigInt(p.decimals),
    defaultFrozen: p.defaultFrozen,
    unitName: utf8(p.unitName ?? ''),
    name: utf8(p.assetName ?? ''),
    url: utf8(p.url ?? ''),
    metadataHash: p.metadataHash ?? ZERO32,
    manager: p.manager?.publicKey ?? ZERO32,
    reserve: p.reserve?.publicKey ?? ZERO32,
    freeze: p.freeze?.publicKey ?? ZERO32,
    clawback: p.clawback?.publicKey ?? ZERO32,
  };
}

/** How many uint and byte-slice values a global or local state holds (what its schema is checked against). */
export function countStateValues(entries: Iterable<{ value: TealValue }>): { uints: number; bytes: number } {
  let uints = 0;
  let bytes = 0;
  for (const { value } of entries) {
    if (typeof value === 'bigint') uints++;
    else bytes++;
  }
  return { uints, bytes };
}
