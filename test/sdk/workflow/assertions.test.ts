import { strict as assert } from 'node:assert';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { checkAssertion } from '../../../sdk/src/workflow/assertions.js';

describe('workflow/assertions', () => {
  it('checks truthiness when no comparison is given', () => {
    assert.equal(checkAssertion(true, {}).passed, true);
    const r = checkAssertion(0n, {}, 'counter must be set');
    assert.equal(r.passed, false);
    assert.equal(r.failure, 'counter must be set');
  });
  it('compares integers exactly, across the decimal-string spelling', () => {
    assert.equal(checkAssertion(18446744073709551615n, { equals: '18446744073709551615' }).passed, true);
    assert.equal(checkAssertion(5n, { atLeast: 5n, lessThan: 6n }).passed, true);
    const r = checkAssertion(5n, { greaterThan: 5n });
    assert.equal(r.passed, false);
    assert.equal(r.failure, 'expected 5 > 5');
  });
  it('compares bytes with text and looks inside lists and bytes', () => {
    assert.equal(checkAssertion(utf8('hello'), { equals: 'hello' }).passed, true);
    assert.equal(checkAssertion(utf8('hello'), { contains: 'ell' }).passed, true);
    assert.equal(checkAssertion([1n, 2n], { contains: 2n }).passed, true);
    assert.equal(checkAssertion([1n, 2n], { notEquals: [1n, 2n] }).passed, false);
  });
  it('explains comparisons that make no sense instead of throwing', () => {
    const r = checkAssertion(utf8('x'), { greaterThan: 1n });
    assert.equal(r.passed, false);
    assert.match(r.failure!, /cannot compare bytes with integer/);
    assert.match(checkAssertion(5n, { contains: 1n }).failure!, /cannot look for integer in integer/);
  });
});
