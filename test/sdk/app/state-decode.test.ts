import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArc56 } from '../../../sdk/src/abi/arc56.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { concatBytes, uint64ToBytes, utf8 } from '../../../sdk/src/encoding/bytes.js';
import {
  bytesView,
  decodeBoxes,
  decodeGlobalState,
  decodeLocalState,
  formatStorageItem,
  storageKeyFor,
  storageMapKey,
} from '../../../sdk/src/app/state-decode.js';

const here = dirname(fileURLToPath(import.meta.url));
const spec = parseArc56(readFileSync(join(here, 'fixtures/sample.arc56.json'), 'utf8'));
const owner = Address.forApp(1n);

describe('app/state-decode', () => {
  it('offers raw views of bytes', () => {
    assert.deepEqual(bytesView(utf8('hi')), { hex: '6869', base64: 'aGk=', utf8: 'hi', uint: 0x6869n });
    const v = bytesView(owner.publicKey);
    assert.equal(v.address, owner.toString());
    assert.equal(v.uint, undefined);
    assert.equal(bytesView(new Uint8Array([0, 1])).utf8, undefined);
    assert.deepEqual(bytesView(new Uint8Array(0)), { hex: '', base64: '' });
  });

  it('decodes global and local state by ARC-56 keys', () => {
    const g = decodeGlobalState(
      [
        { key: utf8('count'), value: 7n },
        { key: utf8('owner'), value: owner.publicKey },
        { key: utf8('other'), value: utf8('x') },
      ],
      spec,
    );
    assert.equal(g[0]!.match!.name, 'count');
    assert.equal(g[0]!.decoded, 7n);
    assert.equal(String(g[1]!.decoded), owner.toString());
    assert.equal(g[2]!.match, undefined);
    assert.equal(g[2]!.valueView!.utf8, 'x');
    assert.equal(formatStorageItem(g[0]!), 'count (AVMUint64) = 7');
    assert.equal(formatStorageItem(g[2]!), '"other" = "x"');
    const l = decodeLocalState([{ key: utf8('bal'), value: 12n }], spec);
    assert.equal(l[0]!.decoded, 12n);
  });

  it('decodes boxes by maps (prefix + key) and keys, structs as objects', () => {
    const userValue = spec.getStruct('User').encode({ age: 30n, nick: 'al' });
    const boxes = decodeBoxes(
      [
        { name: concatBytes(utf8('u:'), owner.publicKey), value: userValue },
        { name: utf8('cfg'), value: concatBytes(uint64ToBytes(9n), new Uint8Array([0x80])) },
        { name: utf8('u:short') },
      ],
      spec,
    );
    assert.equal(boxes[0]!.match!.kind, 'map');
    assert.equal(String(boxes[0]!.mapKey), owner.toString());
    assert.deepEqual(boxes[0]!.decoded, { age: 30n, nick: 'al' });
    assert.deepEqual(boxes[1]!.decoded, [9n, true]);
    assert.equal(formatStorageItem(boxes[1]!), 'cfg ((uint64,bool)) = [9, true]');
    // A name that matches a map prefix but not its key type keeps its raw views and says why.
    assert.match(boxes[2]!.decodeError!, /key does not decode as address/);
    assert.equal(boxes[2]!.keyView.utf8, 'u:short');
  });

  it('never throws on values that do not fit the declared type', () => {
    const [item] = decodeGlobalState([{ key: utf8('owner'), value: utf8('short') }], spec);
    assert.match(item!.decodeError!, /value does not decode as address/);
    assert.equal(item!.valueView!.utf8, 'short');
  });

  it('decodes raw without a spec', () => {
    const [item] = decodeBoxes([{ name: uint64ToBytes(5n), value: owner.publicKey }]);
    assert.equal(item!.keyView.uint, 5n);
    assert.equal(item!.valueView!.address, owner.toString());
    assert.equal(formatStorageItem(item!), `0x0000000000000005 = ${owner.toString()}`);
  });

  it('finds keys by name and builds map keys', () => {
    assert.deepEqual(storageKeyFor(spec, 'global', 'count'), utf8('count'));
    assert.deepEqual(storageKeyFor(spec, 'global', 'raw'), utf8('raw'));
    assert.deepEqual(storageMapKey(spec, 'box', 'users', owner.toString()), concatBytes(utf8('u:'), owner.publicKey));
    assert.throws(() => storageMapKey(spec, 'box', 'nope', 1n), /has no box map "nope" \(it has users\)/);
  });
});
