import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import algosdk from 'algosdk';
import {
  Arc56AppSpec,
  Arc56Error,
  arc32ToArc56,
  decodeArc56Value,
  decodeMethodReturn,
  encodeArc56Value,
  encodeMethodReturnLog,
  isArc32AppSpec,
  parseArc56,
  AbiReturnError,
  AbiMethod,
  cblocksOffset,
  encodeMethodCall,
  literalDefaultValue,
  loadAppSpec,
} from '../../../sdk/src/abi/index.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { fromBase64 } from '../../../sdk/src/encoding/base64.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = (name: string): string => readFileSync(resolve(here, 'fixtures', name), 'utf8');
const KEY = 'PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI';

describe('abi: ARC-56 app specs', () => {
  const spec = parseArc56(fixture('marketplace.arc56.json'));

  it('resolves methods with struct arguments, defaults, actions and readonly flags', () => {
    assert.equal(spec.name, 'Marketplace');
    assert.equal(spec.methods.length, 6);
    const list = spec.getMethod('list');
    assert.equal(list.method.signature, 'list(axfer,(address,uint64,uint64),uint64,string[])(uint64,uint64,string[],(bool,string))');
    assert.equal(list.method.txnCount, 2);
    assert.equal(list.argStructs[1]?.structName, 'ListingKey');
    assert.equal(list.returnStruct?.structName, 'Listing');
    assert.deepEqual(list.defaultValues[2], { source: 'literal', data: 'AAAAAAAPQkA=', type: 'uint64' });
    assert.deepEqual(list.actions, { create: [], call: ['NoOp'] });
    assert.equal(spec.getMethod('getListing').readonly, true);
    const arc4 = spec.toAbiContract();
    assert.equal(arc4.networks['wGHE2Pwdvd7S12BL5FaOP20EGYesN73ktiC1qzkkit8=']?.appID, 1234567n);
    assert.equal(arc4.getMethod('buy').signature, 'buy(pay,(address,uint64,uint64),account,asset)uint64');
    assert.deepEqual(spec.getMethod('createApplication').actions.create, ['NoOp']);
    // The selector is the ARC-4 one (algosdk agrees).
    assert.equal(toHex(list.method.selector), toHex(algosdk.ABIMethod.fromSignature(list.method.signature).getSelector()));
  });

  it('encodes struct arguments from objects and decodes struct returns', () => {
    const key = spec.getMethod('list').argStructs[1]!;
    const bytes = key.encode({ owner: KEY, asset: 31566704n, nonce: 1n });
    assert.equal(bytes.length, 48);
    const listing = spec.getStruct('Listing');
    const value = { price: 1_000_000n, deposited: 1n, tags: ['art', 'rare'], meta: { active: true, note: 'first' } };
    const getListing = spec.getMethod('getListing');
    const log = encodeMethodReturnLog(getListing.method, value);
    assert.equal(toHex(log.subarray(0, 4)), '151f7c75');
    assert.equal(toHex(log.subarray(4)), toHex(listing.encode(value)));
    assert.deepEqual(spec.decodeReturn(getListing, [utf8('debug line'), log]), value);
    assert.deepEqual(decodeMethodReturn(getListing.method, [log]), value);
    // Without the spec the same log decodes as the plain tuple.
    const plain = AbiMethod.fromSignature(getListing.method.signature);
    assert.deepEqual(decodeMethodReturn(plain, [log]), [1_000_000n, 1n, ['art', 'rare'], [true, 'first']]);
  });

  it('builds method calls with struct objects and literal defaults', () => {
    const getListing = spec.getMethod('getListing');
    const call = encodeMethodCall(getListing.method, [{ owner: KEY, asset: 9n, nonce: 1n }], { sender: KEY, appId: 1234567 });
    assert.equal(toHex(call.appArgs[1]!), toHex(getListing.argStructs[0]!.encode([KEY, 9n, 1n])));
    assert.equal(literalDefaultValue(spec.getMethod('list'), 2), 1_000_000n);
    assert.equal(literalDefaultValue(spec.getMethod('list'), 0), undefined);
  });

  it('reads state keys, maps, template and scratch variables with their types', () => {
    assert.deepEqual(
      spec.keys.global.map((k) => [k.name, new TextDecoder().decode(k.key), k.valueType.text]),
      [
        ['feeBps', 'feeBps', 'AVMUint64'],
        ['admin', 'admin', 'address'],
        ['sales', 'sales', 'uint64'],
      ],
    );
    const listings = spec.maps.box.find((m) => m.name === 'listings')!;
    assert.equal(new TextDecoder().decode(listings.prefix), 'listings');
    assert.equal(listings.keyType.kind === 'abi' && listings.keyType.struct, 'ListingKey');
    const names = spec.maps.box.find((m) => m.name === 'names')!;
    assert.equal(names.prefix.length, 0);
    // Values round-trip through their declared types.
    const stored = encodeArc56Value(listings.valueType, { price: 5n, deposited: 0n, tags: [], meta: { active: false, note: '' } });
    assert.deepEqual(decodeArc56Value(listings.valueType, stored), { price: 5n, deposited: 0n, tags: [], meta: { active: false, note: '' } });
    assert.equal(decodeArc56Value(spec.keys.global[0]!.valueType, 7n), 7n);
    assert.equal(decodeArc56Value(spec.keys.global[2]!.valueType, 7), 7n);
    assert.equal(decodeArc56Value(spec.keys.box[0]!.valueType, utf8('hello')), 'hello');
    assert.equal(spec.templateVariables.get('MAX_TAGS')?.value?.[7], 8);
    assert.equal(spec.scratchVariables.get('keySlot')?.slot, 4);
    assert.equal(spec.scratchVariables.get('keySlot')?.type.text, 'ListingKey');
  });

  it('maps program counters to error messages (cblocks offsets) and carries source and byte code', () => {
    // byteCode: version 10 (1 byte), intcblock 0 1 (4 bytes), bytecblock "listings" (11 bytes) → first op at pc 16.
    assert.equal(spec.pcOffset('approval'), 16);
    assert.equal(cblocksOffset(spec.byteCode('approval')!), 16);
    assert.equal(spec.errorMessageAt('approval', 12 + 16), 'only the creator may list');
    assert.equal(spec.errorMessageAt('approval', 21 + 16), 'unsupported bare action');
    assert.equal(spec.errorMessageAt('approval', 3 + 16), undefined);
    assert.equal(spec.sourceInfoAt('approval', 13 + 16)?.source, 'contracts/marketplace.algo.ts:40');
    // A program deployed with other template values has a different offset; pass the bytes that ran.
    const longer = new Uint8Array([0x0a, 0x20, 0x02, 0x00, 0x80, 0x01, 0x26, 0x01, 0x08, ...utf8('listings')]);
    assert.equal(spec.errorMessageAt('approval', 12 + 17, longer), 'only the creator may list');
    assert.equal(spec.pcOffset('clear'), 0);
    assert.match(spec.source('approval')!, /^#pragma version 10/);
    assert.deepEqual(spec.byteCode('clear'), new Uint8Array([0x0a, 0x81, 0x01, 0x43]));
  });

  it('decodes ARC-28 events declared on the contract and on methods', () => {
    const sold = spec.events.find((e) => e.name === 'Sold')!;
    assert.equal(sold.signature, 'Sold((address,uint64,uint64),address,uint64)');
    const log = sold.encodeLog([[KEY, 1n, 2n], KEY, 500n]);
    const decoded = spec.decodeEvent(log)!;
    assert.equal(decoded.event.name, 'Sold');
    assert.deepEqual(decoded.named.key, { owner: KEY, asset: 1n, nonce: 2n });
    assert.equal(decoded.named.paid, 500n);
    assert.ok(spec.events.some((e) => e.name === 'Listed'));
    assert.equal(spec.decodeEvent(utf8('plain log')), undefined);
  });

  it('lists every problem of an invalid spec with its JSON path', () => {
    const broken = JSON.parse(fixture('marketplace.arc56.json'));
    broken.methods[1].args[1].struct = 'Missing';
    broken.methods[2].actions.call.push('Explode');
    broken.state.keys.global.admin.valueType = 'uint63';
    broken.state.maps.box.listings.prefix = 'not base64!';
    broken.sourceInfo.approval.pcOffsetMethod = 'weird';
    broken.scratchVariables.priceSlot.slot = 300;
    broken.methods[3].returns.type = 'bogus';
    try {
      parseArc56(broken);
      assert.fail('expected Arc56Error');
    } catch (e) {
      assert.ok(e instanceof Arc56Error, String(e));
      const text = e.issues.join('\n');
      for (const expected of [
        'methods[1].args[1].struct: unknown struct "Missing"',
        'methods[2].actions.call[1]: "Explode" is not one of',
        'state.keys.global.admin.valueType:',
        'state.maps.box.listings.prefix: not valid base64',
        'sourceInfo.approval.pcOffsetMethod',
        'scratchVariables.priceSlot.slot: scratch slots are 0..255',
        'methods[3].returns.type: invalid ABI type "bogus"',
      ]) {
        assert.ok(text.includes(expected), `missing issue ${expected} in\n${text}`);
      }
    }
    assert.throws(() => parseArc56('{"name": 5'), /invalid JSON/);
    assert.throws(
      () =>
        parseArc56({
          name: 'X',
          methods: [
            { name: 'f', args: [{ type: 'uint64' }], returns: { type: 'void' }, actions: { create: [], call: [] } },
            { name: 'f', args: [{ type: 'uint64' }], returns: { type: 'void' }, actions: { create: [], call: [] } },
          ],
        }),
      /listed twice/,
    );
  });

  it('accepts the real ARC-56 files compiled by puya and TEALScript (test data from algokit-utils-ts)', () => {
    const dir = resolve(here, 'fixtures/public');
    const files = readdirSync(dir).filter((f) => f.endsWith('.arc56.json'));
    assert.ok(files.length >= 3);
    for (const file of files) {
      const s = Arc56AppSpec.parse(readFileSync(resolve(dir, file), 'utf8'));
      assert.ok(s.methods.length > 0, file);
      for (const m of s.methods)
        assert.equal(toHex(m.method.selector), toHex(algosdk.ABIMethod.fromSignature(m.method.signature).getSelector()), `${file} ${m.method.signature}`);
      if (s.json.byteCode) assert.ok(s.byteCode('approval')!.length > 0);
    }
    const nested = Arc56AppSpec.parse(readFileSync(resolve(dir, 'NestedStruct.arc56.json'), 'utf8'));
    const struct2 = nested.getStruct('Struct2');
    assert.equal(struct2.toString(), '((string))');
    assert.deepEqual(struct2.decode(struct2.encode({ x: { a: 'hi' } })), { x: { a: 'hi' } });
    const state = Arc56AppSpec.parse(readFileSync(resolve(dir, 'State.arc56.json'), 'utf8'));
    assert.equal(state.getMethod('structs').returnStruct?.structName, 'Output');
    assert.equal(state.json.sourceInfo?.approval.pcOffsetMethod, 'cblocks');
    assert.equal(state.errorMessageAt('approval', 169 + state.pcOffset('approval')), 'Deliberate error');
    assert.ok(state.pcOffset('approval') > 4);
    assert.equal(literalDefaultValue(state.getMethod('default_value'), 0), 'default value');
    assert.equal(literalDefaultValue(state.getMethod('default_value_int'), 0), 123n);
    assert.equal(literalDefaultValue(state.getMethod('default_value_from_global_state'), 0), undefined);
    const boxMap = state.maps.box.find((m) => m.name === 'box')!;
    assert.equal(boxMap.prefix.length, 0);
    assert.equal(boxMap.keyType.text, 'byte[4]');
    const bmt = Arc56AppSpec.parse(readFileSync(resolve(dir, 'BoxMapTest.arc56.json'), 'utf8'));
    assert.equal(new TextDecoder().decode(bmt.maps.box.find((m) => m.name === 'bMap')!.prefix), 'b');
  });

  it('reports return-value problems precisely', () => {
    const method = spec.getMethod('feeFor').method;
    assert.throws(
      () => decodeMethodReturn(method, []),
      (e: unknown) => e instanceof AbiReturnError && /logged nothing/.test(e.message),
    );
    assert.throws(() => decodeMethodReturn(method, [utf8('no prefix here')]), /return prefix 151f7c75/);
    assert.throws(() => decodeMethodReturn(method, [fromBase64('FR98dQAB')]), /does not decode as uint64/);
    assert.equal(decodeMethodReturn(method, [fromBase64('FR98dQAAAAAAAAAq')]), 42n);
    assert.equal(decodeMethodReturn(spec.getMethod('optInToApplication').method, []), undefined);
  });
});

describe('abi: ARC-32 → ARC-56 conversion', () => {
  const arc32 = JSON.parse(fixture('hello.arc32.json'));

  it('maps methods, hints, structs, defaults, state and bare actions like AlgoKit', () => {
    assert.ok(isArc32AppSpec(arc32));
    const out = arc32ToArc56(arc32);
    assert.equal(out.name, 'HelloWorld');
    assert.deepEqual(out.arcs, []);
    assert.deepEqual(out.structs, {
      Point: [
        { name: 'x', type: 'uint64' },
        { name: 'y', type: 'uint64' },
      ],
    });
    const byName = Object.fromEntries(out.methods.map((m) => [m.name, m]));
    assert.deepEqual(byName.hello!.actions, { create: [], call: ['NoOp'] });
    assert.deepEqual(byName.create!.actions, { create: ['NoOp', 'OptIn'], call: ['OptIn'] });
    assert.deepEqual(byName.create!.args[1]!.defaultValue, { source: 'literal', data: 'aGk=', type: 'AVMString' });
    assert.deepEqual(byName.withNumber!.args[0]!.defaultValue, { source: 'literal', data: 'AAAAAAAAACo=', type: 'uint64' });
    assert.deepEqual(byName.setPoint!.args[0]!.struct, 'Point');
    assert.deepEqual(byName.setPoint!.args[1]!.defaultValue, { source: 'global', data: 'c2NhbGU=' });
    assert.equal(byName.setPoint!.returns.struct, 'Point');
    assert.deepEqual(byName.withDefault!.args[0]!.defaultValue, { source: 'method', data: 'read' });
    assert.deepEqual(byName.fromLocal!.args[0]!.defaultValue, { source: 'local', data: 'Y291bnQ=' });
    assert.equal(byName.read!.readonly, true);
    assert.deepEqual(out.state.schema, { global: { ints: 1, bytes: 1 }, local: { ints: 1, bytes: 0 } });
    assert.deepEqual(out.state.keys.global.owner, { key: 'b3du', keyType: 'AVMString', valueType: 'AVMBytes' });
    assert.deepEqual(out.state.keys.global.scale, { key: 'c2NhbGU=', keyType: 'AVMString', valueType: 'AVMUint64', desc: 'multiplier' });
    assert.deepEqual(out.bareActions, { create: ['NoOp'], call: ['DeleteApplication', 'UpdateApplication'] });
    assert.equal(out.source?.approval, (JSON.parse(fixture('hello.arc32.json')) as { source: { approval: string } }).source.approval);
    // The result is a valid ARC-56 spec.
    const spec = parseArc56(out);
    assert.equal(spec.getMethod('setPoint').argStructs[0]?.structName, 'Point');
  });

  it('converts a real ARC-32 file (TestContract from algokit-utils-ts)', () => {
    const text = readFileSync(resolve(here, 'fixtures/public/TestContract.arc32.json'), 'utf8');
    assert.equal(loadAppSpec(text).name, JSON.parse(text).contract.name);
    assert.equal(loadAppSpec(fixture('marketplace.arc56.json')).name, 'Marketplace');
    const real = JSON.parse(text);
    assert.ok(isArc32AppSpec(real));
    const spec = parseArc56(arc32ToArc56(real));
    assert.equal(spec.methods.length, real.contract.methods.length);
    const math = spec.getMethod('doMath');
    assert.equal(math.method.signature, 'doMath(uint64,uint64,string)uint64');
    assert.ok(math.actions.call.includes('NoOp'));
    assert.ok(!isArc32AppSpec(JSON.parse(fixture('marketplace.arc56.json'))));
  });
});
