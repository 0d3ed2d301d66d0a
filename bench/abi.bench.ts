import algosdk from 'algosdk';
import { AbiMethod, parseAbiType, type AbiValue } from '../sdk/src/abi/index.js';
import { encodeAddress } from '../sdk/src/encoding/address.js';
import { pairedOpsPerSecond, throughputEntry, type BenchEntry, type BenchModule } from './lib.js';

/** Deterministic filler so runs compare like with like. */
function bytes(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 17) & 0xff);
}

interface Case {
  name: string;
  type: string;
  /** The values encoded (and whose encodings are decoded), in turn. */
  values: AbiValue[];
  /** Operations per timed call (small cases are batched to keep timer overhead out). */
  batch: number;
}

/**
 * 4,096 different addresses, taken in turn: more than the SDK's address caches hold (1,024 each
 * way), so every conversion works the checksum out, as algosdk does, and no cache flatters ours.
 */
const ADDRESSES = Array.from({ length: 4096 }, (_, i) => {
  const key = bytes(32, 1);
  new DataView(key.buffer).setUint32(0, i);
  return encodeAddress(key);
});
const cases: Case[] = [
  { name: 'uint64', type: 'uint64', values: [18446744073709551615n], batch: 2000 },
  {
    name: '(uint64,address,string,bool[])',
    type: '(uint64,address,string,bool[])',
    values: ADDRESSES.map((a) => [123456789n, a, 'hello, world', [true, false, true, true, false]]),
    batch: 500,
  },
  {
    name: '(uint64,string,bool)[] ×50',
    type: '(uint64,string,bool)[]',
    values: [Array.from({ length: 50 }, (_, i) => [BigInt(i) * 1_000_003n, `item-${i}`, i % 2 === 0])],
    batch: 20,
  },
];

/** Results land here so the JIT cannot drop the work as dead code. */
let sink: unknown;
export function lastResult(): unknown {
  return sink;
}

const SIGNATURES = [
  'add(uint64,uint64)uint128',
  'swap(axfer,pay,asset,uint64,(address,uint64)[])(uint64,uint64)',
  'register(string,byte[32],account,application,(bool,bool,uint8)[3])void',
];

const bench: BenchModule = {
  name: 'abi',
  description: 'ARC-4 encode/decode throughput and method selectors, ours vs algosdk',
  async run(): Promise<BenchEntry[]> {
    const out: BenchEntry[] = [];
    for (const c of cases) {
      const ours = parseAbiType(c.type);
      const theirs = algosdk.ABIType.from(c.type);
      const values = c.values;
      const encoded = values.map((v) => ours.encode(v));
      const peerValues = values as algosdk.ABIValue[];
      const m = values.length;
      const n = c.batch;
      let j = 0;
      let q = 0;
      const [oursEnc, peerEnc] = await pairedOpsPerSecond(
        () => {
          for (let i = 0; i < n; i++) sink = ours.encode(values[j++ % m]!);
        },
        () => {
          for (let i = 0; i < n; i++) sink = theirs.encode(peerValues[q++ % m]!);
        },
        { unitsPerCall: n },
      );
      out.push(throughputEntry(`encode ${c.name}`, 'ops/s', oursEnc, peerEnc));
      const [oursDec, peerDec] = await pairedOpsPerSecond(
        () => {
          for (let i = 0; i < n; i++) sink = ours.decode(encoded[j++ % m]!);
        },
        () => {
          for (let i = 0; i < n; i++) sink = theirs.decode(encoded[q++ % m]!);
        },
        { unitsPerCall: n },
      );
      out.push(throughputEntry(`decode ${c.name}`, 'ops/s', oursDec, peerDec));
    }
    const batch = 300;
    const [oursSel, peerSel] = await pairedOpsPerSecond(
      () => {
        for (let i = 0; i < batch; i++) for (const s of SIGNATURES) sink = AbiMethod.fromSignature(s).selector;
      },
      () => {
        for (let i = 0; i < batch; i++) for (const s of SIGNATURES) sink = algosdk.ABIMethod.fromSignature(s).getSelector();
      },
      { unitsPerCall: batch * SIGNATURES.length },
    );
    out.push(throughputEntry('method selector, repeated signatures', 'ops/s', oursSel, peerSel, 'our type and selector caches are warm'));
    // Fresh signatures every time: no selector cache helps (the argument types repeat, as in a real contract).
    let k = 0;
    const [oursFresh, peerFresh] = await pairedOpsPerSecond(
      () => {
        for (let i = 0; i < batch; i++) sink = AbiMethod.fromSignature(`m${k++}(uint64,(address,uint64)[],string)bool`).selector;
      },
      () => {
        for (let i = 0; i < batch; i++) sink = algosdk.ABIMethod.fromSignature(`m${k++}(uint64,(address,uint64)[],string)bool`).getSelector();
      },
      { unitsPerCall: batch },
    );
    out.push(
      throughputEntry(
        'method selector, unique signatures',
        'ops/s',
        oursFresh,
        peerFresh,
        'new method names, common argument types (our type cache answers them; algosdk has none); Node one-shot SHA-512/256 (one-block JS without it) vs js-sha512',
      ),
    );
    // New argument types as well (a static byte array of a new length each time, up to the 65,535
    // the ABI allows, far more than any type cache holds): nothing cached.
    const [oursNew, peerNew] = await pairedOpsPerSecond(
      () => {
        for (let i = 0; i < batch; i++) sink = AbiMethod.fromSignature(`m${k}(uint64,(address,byte[${(k++ % 65535) + 1}])[],string)bool`).selector;
      },
      () => {
        for (let i = 0; i < batch; i++) sink = algosdk.ABIMethod.fromSignature(`m${k}(uint64,(address,byte[${(k++ % 65535) + 1}])[],string)bool`).getSelector();
      },
      { unitsPerCall: batch },
    );
    out.push(
      throughputEntry(
        'method selector, unique signatures and argument types',
        'ops/s',
        oursNew,
        peerNew,
        'new method names and composite types every time: no cache of ours helps; parse + SHA-512/256 on both sides',
      ),
    );
    return out;
  },
};

export default bench;
