// brokenVersionPragma looks only at the lines before the first instruction (lexed one by one).
import assert from 'node:assert/strict';
import { brokenVersionPragma } from '../../server/src/features/pragma.js';

describe('server: broken #pragma version detection', () => {
  it('finds a broken version line after other directives, with CRLF line ends', () => {
    const source = '#define x int 1\r\n#pragma version banana\r\nint 1\r\n';
    const b = brokenVersionPragma(source);
    assert.ok(b);
    assert.equal(b.line, 1);
    assert.equal(b.start, 0);
    assert.equal(b.end, '#pragma version banana'.length);
    assert.equal(b.repaired.startsWith('#define x int 1\r\n#pragma version '), true);
    assert.equal(b.repaired.endsWith('\r\nint 1\r\n'), true);
    assert.equal(b.diagnostic.range.line, 1);
  });

  it('ignores a #pragma after the first instruction and a valid one', () => {
    assert.equal(brokenVersionPragma('int 1\n#pragma version banana\n'), undefined);
    assert.equal(brokenVersionPragma('#pragma version 8\nint 1\n'), undefined);
    assert.equal(brokenVersionPragma('int 1\n'), undefined);
  });

  it('keeps the text around an indented broken pragma on the last line', () => {
    const b = brokenVersionPragma('// c\n  #pragma version 9999');
    assert.ok(b);
    assert.equal(b.line, 1);
    assert.equal(b.repaired.slice(0, 7), '// c\n  ');
  });
});
