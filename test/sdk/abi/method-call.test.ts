import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { AbiEncodeError, AbiMethod, decodeMethodCallArgs, encodeMethodCall, parseAbiType, type AbiValue } from '../../../sdk/src/abi/index.js';
import { fromBase64 } from '../../../sdk/src/encoding/base64.js';
import { encodeAddress } from '../../../sdk/src/encoding/address.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { exampleTables, fixturesAvailable, readFixture } from './fixtures.js';

const SENDER = 'BH55E5RMBD4GYWXGX5W5PJ5JAHPGM5OXKDQH5DC4O2MGI7NW4H6VOE4CP4';

/** The feature passes arguments already encoded; turn each back into a value of its argument type. */
function argumentValues(method: AbiMethod, encoded: string[]): Array<AbiValue | undefined> {
  const out: Array<AbiValue | undefined> = [];
  let k = 0;
  for (const arg of method.args) {
    if (arg.kind === 'transaction') {
      out.push(undefined);
      continue;
    }
    const bytes = fromBase64(encoded[k++]!);
    if (arg.kind === 'value') out.push(arg.abiType.decode(bytes));
    else if (arg.type === 'account') out.push(encodeAddress(bytes));
    else out.push(parseAbiType('uint64').decode(bytes));
  }
  return out;
}

function appCallOf(golden: string) {
  const stx = algosdk.decodeSignedTransaction(fromBase64(golden));
  const call = stx.txn.applicationCall!;
  return {
    appId: call.appIndex,
    appArgs: call.appArgs.map((a) => toHex(a)),
    accounts: call.accounts.map((a) => a.toString()),
    apps: [...call.foreignApps],
    assets: [...call.foreignAssets],
  };
}

function checkCall(method: AbiMethod, encodedArgs: string[], golden: string): void {
  const expected = appCallOf(golden);
  const values = argumentValues(method, encodedArgs);
  const ours = encodeMethodCall(method, values, { sender: SENDER, appId: expected.appId });
  assert.deepEqual(
    ours.appArgs.map((a) => toHex(a)),
    expected.appArgs,
    `${method.signature} app args`,
  );
  assert.deepEqual(ours.accounts, expected.accounts, `${method.signature} accounts`);
  assert.deepEqual(ours.foreignApps, expected.apps, `${method.signature} apps`);
  assert.deepEqual(ours.foreignAssets, expected.assets, `${method.signature} assets`);
}

const split = (s: string): string[] => (s === '' ? [] : s.split(','));

describe('abi: method calls from atomic_transaction_composer.feature (app arguments and foreign arrays)', function () {
  let tables: Array<Array<Record<string, string>>> = [];
  let feature = '';
  before(function () {
    if (!fixturesAvailable(this)) return;
    feature = readFixture('unit/atomic_transaction_composer.feature');
    tables = exampleTables(feature);
  });

  it('encodes every "Method call construction" example like the signed goldens (refs, 15/16/17 args)', () => {
    const rows = tables.find((t) => t[0]?.['app-args'] !== undefined && t[0]?.goldens !== undefined)!;
    assert.equal(rows.length, 8);
    for (const row of rows) checkCall(AbiMethod.fromSignature(row['method-signature']!), split(row['app-args']!), row.goldens!);
  });

  it('encodes methods with transaction arguments (the app call is the last transaction)', () => {
    const rows = tables.find((t) => t[0]?.['app-args-part-1'] !== undefined)!;
    assert.equal(rows.length, 3);
    for (const row of rows) {
      const goldens = row.goldens!.split(',');
      checkCall(AbiMethod.fromSignature(row['method-signature']!), [row['app-args-part-1']!, row['app-args-part-2']!], goldens[goldens.length - 1]!);
    }
  });

  it('encodes the create call and the multi-call group', () => {
    const createRows = tables.find((t) => t[0]?.['on-complete'] !== undefined)!;
    for (const row of createRows) checkCall(AbiMethod.fromSignature('create(uint64)uint64'), ['AAAAAAAAAAQ='], row.goldens!);
    const line = feature.split('\n').find((l) => l.includes('the base64 encoded signed transactions should equal "gqNzaWfEQKVD98'))!;
    const goldens = line.slice(line.indexOf('"') + 1, line.lastIndexOf('"')).split(',');
    assert.equal(goldens.length, 5);
    checkCall(AbiMethod.fromSignature('optIn(string)string'), ['AAxBbGdvcmFuZCBGYW4='], goldens[0]!);
    checkCall(AbiMethod.fromSignature('payment(pay,uint64)bool'), ['AAAAAAAS1oc='], goldens[2]!);
    checkCall(AbiMethod.fromSignature('add(uint64,uint64)uint64'), ['AAAAAAAAAAE=', 'AAAAAAAAAAI='], goldens[3]!);
    checkCall(AbiMethod.fromSignature('closeOut()string'), [], goldens[4]!);
  });

  it('rejects argument count mismatches (atc_method_args examples)', () => {
    const rows = tables.find((t) => t[0]?.['none-or-exception-key'] !== undefined)!;
    assert.equal(rows.length, 15);
    for (const row of rows) {
      const method = AbiMethod.fromSignature(row['method-signature']!);
      const encoded = split(row['app-args']!);
      const attempt = () => {
        // Decoding is only possible for the right count; for the wrong one pass raw uint8/strings.
        const values = encoded.map((b, i) => {
          const arg = method.args[Math.min(i, method.args.length - 1)];
          return arg && arg.kind === 'value' ? arg.abiType.decode(fromBase64(b)) : 0n;
        });
        return encodeMethodCall(method, values, { sender: SENDER, appId: 42 });
      };
      if (row['none-or-exception-key'] === 'none') assert.doesNotThrow(attempt, row['method-signature']);
      else assert.throws(attempt, (e: unknown) => e instanceof AbiEncodeError && /takes \d+ arguments, got \d+/.test(e.message), row['method-signature']);
    }
  });
});

describe('abi: method calls (no fixtures needed)', () => {
  it('packs arguments 15+ into one tuple and unpacks them again', () => {
    const sig = `many(${Array(17).fill('uint16').join(',')})void`;
    const method = AbiMethod.fromSignature(sig);
    const values = Array.from({ length: 17 }, (_, i) => BigInt(i * 1000));
    const { appArgs } = encodeMethodCall(method, values, { sender: SENDER, appId: 1 });
    assert.equal(appArgs.length, 16);
    assert.equal(toHex(appArgs[15]!), '36b03a983e80'); // 14000, 15000, 16000
    assert.deepEqual(decodeMethodCallArgs(method, appArgs), values);
  });

  it('resolves references: sender/current app are 0, duplicates reuse their slot, existing arrays are kept', () => {
    const other = 'PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI';
    const method = AbiMethod.fromSignature('refs(account,account,application,application,asset,asset,asset)void');
    const call = encodeMethodCall(method, [SENDER, other, 7n, 99, 5n, 6, 5n], { sender: SENDER, appId: 7, foreignAssets: [6n] });
    assert.deepEqual(
      call.appArgs.slice(1).map((a) => toHex(a)),
      ['00', '01', '00', '01', '01', '00', '01'],
    );
    assert.deepEqual(call.accounts, [other]);
    assert.deepEqual(call.foreignApps, [99n]);
    assert.deepEqual(call.foreignAssets, [6n, 5n]);
  });

  it('reports a bad argument with its position', () => {
    const method = AbiMethod.fromSignature('f(uint8,(uint64,string))void');
    assert.throws(
      () => encodeMethodCall(method, [1, [2n ** 64n, 'x']], { sender: SENDER, appId: 1 }),
      (e: unknown) =>
        e instanceof AbiEncodeError && e.message.includes('f argument 1[0]') && e.message.includes('uint64') && e.message.includes('out of range'),
    );
  });
});
