import assert from 'node:assert/strict';
import { AbiContract, AbiInterface, AbiLookupError, AbiMethod } from '../../../sdk/src/abi/index.js';
import { parseJson, stringifyJson } from '../../../sdk/src/encoding/json.js';
import { exampleTables, fixturesAvailable, readFixture } from './fixtures.js';

/** unit/abijson.feature, step by step. */
describe('abi: abijson.feature (algorand-sdk-testing)', function () {
  let tables: Array<Array<Record<string, string>>> = [];
  before(function () {
    if (!fixturesAvailable(this)) return;
    tables = exampleTables(readFixture('unit/abijson.feature'));
  });
  const json = (dir: string, file: string): string => readFixture(`unit/${dir}/${file}`).trim();

  it('serializes Method objects from signatures into the recorded JSON', () => {
    const rows = tables.find((t) => t[0]?.methodsig !== undefined && t[0]?.jsonfile !== undefined)!;
    assert.equal(rows.length, 8);
    for (const row of rows) {
      const method = AbiMethod.fromSignature(row.methodsig!);
      assert.equal(stringifyJson(method.toJson()), json(row.directory!, row.jsonfile!), row.methodsig);
      // …and the JSON comes back as the same method.
      assert.equal(AbiMethod.fromJson(parseJson(json(row.directory!, row.jsonfile!))).signature, row.methodsig);
    }
  });

  it('builds methods from parts (names, descriptions) with the recorded JSON', () => {
    const named = new AbiMethod({
      name: 'add',
      args: [
        { name: 'first', type: 'uint32' },
        { name: 'second', type: 'uint32' },
      ],
      returns: { type: 'uint32' },
    });
    assert.equal(stringifyJson(named.toJson()), json('abi_responsejsons', 'addMethodWithArgNames.json'));
    const described = new AbiMethod({
      name: 'add',
      desc: 'method description',
      args: [
        { type: 'uint32', desc: 'first description' },
        { type: 'uint16', desc: 'second description' },
      ],
      returns: { type: 'uint32' },
    });
    const text = json('abi_responsejsons', 'addMethodWithDescription.json');
    assert.equal(stringifyJson(described.toJson()), text);
    assert.deepEqual(AbiMethod.fromJson(parseJson(text)).toJson(), described.toJson());
    const plain = new AbiMethod({ name: 'add', args: [{ type: 'uint32' }, { type: 'uint32' }], returns: { type: 'uint32' } });
    assert.equal(stringifyJson(plain.toJson()), json('abi_responsejsons', 'addMethod.json'));
  });

  it('counts transactions and computes selectors', () => {
    const counts = tables.find((t) => t[0]?.txncount !== undefined)!;
    for (const row of counts) assert.equal(AbiMethod.fromSignature(row.methodsig!).txnCount, Number(row.txncount), row.methodsig);
    const selectors = tables.find((t) => t[0]?.methodselector !== undefined)!;
    for (const row of selectors) assert.equal(AbiMethod.fromSignature(row.methodsig!).selectorHex, row.methodselector);
  });

  it('serializes Interface and Contract objects', () => {
    const add = AbiMethod.fromSignature('add(uint32,uint32)uint32');
    const iface = new AbiInterface({ name: 'ExampleInterface', desc: 'This is an example interface', methods: [add] });
    const ifaceText = json('abi_responsejsons', 'interface.json');
    assert.equal(stringifyJson(iface.toJson()), ifaceText);
    assert.deepEqual(AbiInterface.fromJson(parseJson(ifaceText)).toJson(), iface.toJson());
    const contract = new AbiContract({
      name: 'ExampleContract',
      desc: 'This is an example contract',
      networks: { 'wGHE2Pwdvd7S12BL5FaOP20EGYesN73ktiC1qzkkit8=': { appID: 1234 }, 'SGO1GKSzyE7IEPItTxCByw9x8FmnrCDexi9/cOUJOiI=': { appID: 5678n } },
      methods: [add],
    });
    const contractText = json('abi_responsejsons', 'contract.json');
    assert.equal(stringifyJson(contract.toJson()), contractText);
    assert.deepEqual(AbiContract.fromJson(parseJson(contractText)).toJson(), contract.toJson());
  });

  it('gets methods by name from interfaces and contracts, with the reference errors', () => {
    const byName = tables.filter((t) => t[0]?.extramethod !== undefined);
    assert.equal(byName.length, 2);
    for (const rows of byName) {
      for (const row of rows) {
        const methods = [row.methodsig, row.extramethod].filter((s) => s).map((s) => AbiMethod.fromSignature(s!));
        for (const holder of [new AbiInterface({ name: 'I', methods }), new AbiContract({ name: 'C', methods })]) {
          if (row.error) {
            assert.throws(
              () => holder.getMethod(row.name!),
              (e: unknown) => e instanceof AbiLookupError && e.message.startsWith(row.error!),
            );
          } else {
            assert.equal(holder.getMethod(row.name!).signature, row.methodsig);
          }
        }
      }
    }
  });
});
