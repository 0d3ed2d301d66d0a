import assert from 'node:assert/strict';
import { lexLine, parseTealUint, splitSourceLines as splitLines, statementsOf } from '../../../sdk/src/teal/lexer.js';

const texts = (line: string) => lexLine(line, 0).tokens.map((t) => t.text);

describe('server: light tokenizer', () => {
  it('splits on space, tab and ; and emits every ; as a token', () => {
    assert.deepEqual(texts(';;int 1;\tint 2 ;'), [';', ';', 'int', '1', ';', 'int', '2', ';']);
  });

  it('keeps quoted strings whole, including separators and // inside', () => {
    assert.deepEqual(texts('byte "a; b // c" // real comment'), ['byte', '"a; b // c"']);
    const line = lexLine('byte "a; b // c" // real comment', 0);
    assert.equal(line.commentStart, 17);
  });

  it('ends a string only at a quote not preceded by a backslash (reference quirk)', () => {
    assert.deepEqual(texts('byte "a\\"b" x'), ['byte', '"a\\"b"', 'x']);
    // `"a\\"` does not terminate at the second quote: the string runs on to the next one.
    assert.deepEqual(texts('byte "a\\\\" x"'), ['byte', '"a\\\\" x"']);
  });

  it('does not treat // in a base64 payload as a comment', () => {
    assert.deepEqual(texts('byte base64 AA//AA== // c'), ['byte', 'base64', 'AA//AA==']);
    assert.deepEqual(texts('byte b64(AA//AA==) // c'), ['byte', 'b64(AA//AA==)']);
  });

  it('emits text glued to a comment as a token', () => {
    const line = lexLine('int 1//x', 0);
    assert.deepEqual(
      line.tokens.map((t) => t.text),
      ['int', '1'],
    );
    assert.equal(line.commentStart, 5);
  });

  it('reports columns in UTF-16 code units', () => {
    const line = lexLine('byte "😀é"; sha256', 0);
    const sha = line.tokens.find((t) => t.text === 'sha256')!;
    assert.equal(sha.start, 'byte "😀é"; '.length);
    assert.equal(sha.start, 12);
  });

  it('splits lines on \\n with a trailing \\r stripped; a lone \\r is not a break', () => {
    assert.deepEqual(splitLines('a\r\nb\rc\n'), ['a', 'b\rc', '']);
  });

  it('cuts statements at ; tokens', () => {
    assert.deepEqual(
      statementsOf(lexLine('a: int 1; ; int 2', 0).tokens).map((s) => s.map((t) => t.text)),
      [
        ['a:', 'int', '1'],
        ['int', '2'],
      ],
    );
  });

  it('parses integers with Go base prefixes', () => {
    assert.equal(parseTealUint('10'), 10n);
    assert.equal(parseTealUint('010'), 8n);
    assert.equal(parseTealUint('0x1f'), 31n);
    assert.equal(parseTealUint('0b101'), 5n);
    assert.equal(parseTealUint('0o17'), 15n);
    assert.equal(parseTealUint('18446744073709551615'), 18446744073709551615n);
    assert.equal(parseTealUint('18446744073709551616'), undefined);
    assert.equal(parseTealUint('09'), undefined);
    assert.equal(parseTealUint('x'), undefined);
    // The assembler's rules: `_` only between digits after a base prefix (1__2 and 1_ are not numbers).
    assert.equal(parseTealUint('1__2'), undefined);
    assert.equal(parseTealUint('1_'), undefined);
    assert.equal(parseTealUint('0x_1f'), 31n);
  });
});
