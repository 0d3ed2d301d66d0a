// Members worked out when first read (sdk/src/lazy.ts): plain members once read or written, and
// still right on an object frozen before that.
import assert from 'node:assert/strict';
import { defineLazy, settleLazy } from '../../sdk/src/lazy.js';

describe('lazy members', () => {
  const literal = () => {
    let builds = 0;
    const o: { a: number; n: number; count: () => number } = {
      a: 1,
      get n() {
        builds++;
        return settleLazy(o, 'n', 42);
      },
      set n(v) {
        settleLazy(o, 'n', v);
      },
      count: () => builds,
    };
    return o;
  };

  it('an accessor pair in a literal settles into a plain member, read or written first', () => {
    const o = literal();
    assert.deepEqual(Object.keys(o), ['a', 'n', 'count']);
    assert.equal(o.n, 42);
    assert.equal(o.n, 42);
    assert.equal(o.count(), 1, 'built once');
    assert.equal(Object.getOwnPropertyDescriptor(o, 'n')!.get, undefined);
    assert.deepEqual(Object.keys(o), ['a', 'n', 'count'], 'in its place');
    const w = literal();
    w.n = 7;
    assert.equal(w.n, 7);
    assert.equal(w.count(), 0, 'a write first builds nothing');
  });

  it('on an object frozen or sealed before the first read, the value is still given', () => {
    const f = Object.freeze(literal());
    assert.equal(f.n, 42);
    assert.equal(f.n, 42);
    const s = Object.seal(literal());
    assert.equal(s.n, 42);
    const d: { v?: string } = {};
    defineLazy(d, 'v', () => 'x');
    Object.freeze(d);
    assert.equal(d.v, 'x');
  });
});
