import assert from 'node:assert/strict';
import {
  assemble,
  assembleCollect,
  analyze,
  AssembleError,
  formatDiagnostic,
  isEdwards25519Point,
  programHash,
  replaceTemplateVariables,
  splitLines,
  tokenizeLine,
} from '../../../../sdk/src/teal/index.js';
import { sha512_256 } from '../../../../sdk/src/crypto/hash.js';
import { encodeAddress } from '../../../../sdk/src/encoding/address.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const asm = (src: string, version?: number) => hex(assemble(src, version === undefined ? {} : { version }).program);
const errors = (src: string, version?: number) =>
  assembleCollect(src, version === undefined ? {} : { version })
    .diagnostics.filter((d) => d.severity === 'error')
    .map(formatDiagnostic);
const vhex = (v: number, rest: string) => v.toString(16).padStart(2, '0') + rest;

describe('teal assembler: tokens and lines', () => {
  const toks = (line: string) => tokenizeLine(line, 0).map((t) => t.str);

  it('splits on spaces, tabs and ; (which is also a token)', () => {
    assert.deepEqual(toks('int 1; int 2'), ['int', '1', ';', 'int', '2']);
    assert.deepEqual(toks('int 1;;;int 2'), ['int', '1', ';', ';', ';', 'int', '2']);
    assert.deepEqual(toks(' ; '), [';']);
    assert.deepEqual(toks('\tb\tx'), ['b', 'x']);
  });

  it('keeps strings whole, with the \\" quirk, and only starts them at a token start', () => {
    assert.deepEqual(toks('op "test1 test2 // not a comment" // comment'), ['op', '"test1 test2 // not a comment"']);
    assert.deepEqual(toks('op "test1 test2"//'), ['op', '"test1 test2"']);
    assert.deepEqual(toks('op "test1 test2\\"'), ['op', '"test1 test2\\"']);
    assert.deepEqual(toks('op \\"test1 test2\\"'), ['op', '\\"test1', 'test2\\"']);
    assert.deepEqual(toks('"a\\\\" b'), ['"a\\\\" b']);
  });

  it('does not treat // in base64 payloads as a comment', () => {
    assert.deepEqual(toks('op base64 ABC//== //'), ['op', 'base64', 'ABC//==']);
    assert.deepEqual(toks('op b64(ABC//==) // comment'), ['op', 'b64(ABC//==)']);
    assert.deepEqual(toks('b(ABC//==) //'), ['b(ABC']);
    assert.deepEqual(toks('int 1//x'), ['int', '1']);
  });

  it('gives byte and UTF-16 columns', () => {
    const [a, b] = tokenizeLine('byte "é" x', 3).slice(1);
    assert.deepEqual([a!.col, a!.ucol, a!.blen], [5, 5, 4]);
    assert.deepEqual([b!.col, b!.ucol, b!.line], [10, 9, 3]);
  });

  it('splits lines on \\n only, dropping one trailing \\r', () => {
    assert.deepEqual(splitLines('a\r\nb\rc\n').lines, ['a', 'b\rc']);
    assert.equal(splitLines('x'.repeat(65535) + '\nint 1').tooLong, undefined);
    assert.equal(splitLines('int 1\n' + 'x'.repeat(65536) + '\nint 1').tooLong, 1);
  });

  it('reports line too long and empty programs', () => {
    assert.deepEqual(errors('int 1\n' + ' '.repeat(70000) + '\nint 1'), ['2: line too long']);
    assert.deepEqual(errors(' \n\t\n'), ['1: Cannot assemble empty program text']);
  });
});

describe('teal assembler: literals', () => {
  it('assembles all 16 byte spellings identically (v1–v3 block, v4+ pushbytes)', () => {
    const forms = [
      'byte b32 MFRGGZDFMY',
      'byte base32 MFRGGZDFMY',
      'byte base32(MFRGGZDFMY)',
      'byte b32(MFRGGZDFMY)',
      'byte b32 MFRGGZDFMY======',
      'byte base32 MFRGGZDFMY======',
      'byte base32(MFRGGZDFMY======)',
      'byte b32(MFRGGZDFMY======)',
      'byte b64 YWJjZGVm',
      'byte base64 YWJjZGVm',
      'byte b64(YWJjZGVm)',
      'byte base64(YWJjZGVm)',
      'byte 0x616263646566',
      'byte "\\x61\\x62\\x63\\x64\\x65\\x66"',
      'byte "abcdef"',
      'byte base32  MFRGGZDFMY',
    ];
    for (const v of [1, 3, 4, 12]) {
      for (const f of forms) {
        assert.equal(asm(f, v), vhex(v, v >= 4 ? '8006616263646566' : '26010661626364656628'), `${f} v${v}`);
      }
    }
  });

  it('assembles int 0xcafef00d per version', () => {
    assert.equal(asm('int 0xcafef00d', 3), '0320018de0fbd70c22');
    assert.equal(asm('int 0xcafef00d', 4), '04818de0fbd70c');
  });

  it('parses numbers the way Go ParseUint does', () => {
    assert.equal(asm('#pragma version 4\npushint 0x10\npushint 010\npushint 0b11\npushint 0o7\npushint 1_000'), '04811081088103810781e807');
    assert.deepEqual(errors('#pragma version 4\npushint 1__0'), ['2:8: unable to parse "1__0" as integer']);
    assert.deepEqual(errors('#pragma version 4\npushint 18446744073709551616'), ['2:8: unable to parse "18446744073709551616" as integer']);
    assert.equal(asm('#pragma version 0x4\nint 1'), '048101');
  });

  it('accepts named constants in int but not in pushint', () => {
    assert.equal(asm('#pragma version 4\nint pay\nint OptIn\nint appl\nint ApplicationCall'), '04200201062222' + '2323');
    assert.deepEqual(errors('#pragma version 4\npushint pay'), ['2:8: unable to parse "pay" as integer']);
  });

  it('reports literal errors with the reference texts and columns', () => {
    assert.deepEqual(errors('byte base64(YWJ#ZGVm)'), ['1:5: byte illegal base64 data at input byte 10']);
    assert.deepEqual(errors('byte b32 MFrggzdfmy'), ['1:9: byte illegal base32 data at input byte 2']);
    assert.deepEqual(errors('byte 0xFFGG'), ["1:5: byte encoding/hex: invalid byte: U+0047 'G'"]);
    assert.deepEqual(errors('byte "jo\\qhn"'), ['1:5: byte invalid escape sequence \\q']);
    assert.deepEqual(errors('byte "a\\x4"'), ['1:5: byte non-terminated hex sequence']);
    assert.deepEqual(errors('byte'), ['1:4: byte needs byte literal argument']);
    assert.deepEqual(errors('byte "john" "doe"'), ['1:12: byte with extraneous argument']);
  });

  it('assembles addr and method, and warns on a bad method signature', () => {
    const a = 'WSJHNPJ6YCLX5K4GUMQ4ISPK3ABMS3AL3F6CSVQTCUI5F4I65PWEMCWT3M';
    assert.equal(asm(`#pragma version 4\naddr ${a}`), '048020b49276bd3ec0977eab86a321c449ead802c96c0bd97c2956131511d2f11eebec');
    assert.match(errors(`addr ${a.slice(0, -1)}A`)[0]!, /checksum verification failed|non-canonical|failed to decode/);
    const m = assemble('#pragma version 4\nmethod "add(uint64,uint64)uint128"');
    assert.equal(hex(m.program), '048004' + hex(sha512_256(new TextEncoder().encode('add(uint64,uint64)uint128')).slice(0, 4)));
    assert.equal(m.warnings.length, 0);
    const bad = assemble('#pragma version 4\nmethod "add(uint64,uint64"');
    assert.equal(bad.warnings.length, 1);
    assert.match(bad.warnings[0]!.message, /^invalid ARC-4 ABI method signature for method op: /);
  });
});

describe('teal assembler: constant blocks (protocol.md §1.7)', () => {
  it('orders by reference count and turns singletons into push ops (v4+)', () => {
    assert.equal(asm('int 1\nint OptIn\nint 2\nint 3\nint 3\nint ClearState', 4), '042002030123238102222222');
    const ints = 'int 1; int OptIn; int 2; int 3; int 4; int ClearState; int 4; int 3; int 4';
    assert.equal(
      asm(ints, 5),
      '0520030304012424810222232223222322'.replace(
        '0520030304012424810222232223222322',
        asm('intcblock 3 4 1; intc_2; intc_2; pushint 2; intc_0; intc_1; intc_0; intc_1; intc_0; intc_1', 5),
      ),
    );
    const bytes = `byte 0x0102
byte base64(AQI=)
byte base32(AEBA====)
byte "test"
byte base32(ORSXG5A=)
addr WSJHNPJ6YCLX5K4GUMQ4ISPK3ABMS3AL3F6CSVQTCUI5F4I65PWEMCWT3M
byte 0x0103
byte base64(AQM=)
byte base32(AEBQ====)`;
    const expected = `bytecblock 0x0102 0x0103 0x74657374
bytec_0; bytec_0; bytec_0; bytec_2; bytec_2
pushbytes 0xb49276bd3ec0977eab86a321c449ead802c96c0bd97c2956131511d2f11eebec
bytec_1; bytec_1; bytec_1`;
    assert.equal(asm(bytes, 6), asm(expected, 6));
  });

  it('keeps first-seen order and singletons before v4', () => {
    assert.equal(asm('int 5; int 7; int 7', 3), '0320020507222323');
  });

  it('applies the manual-block rules', () => {
    // v4+: int after a manual intcblock becomes pushint with a warning.
    const r = assemble('#pragma version 4\nintcblock 1 2\nint 3');
    assert.equal(hex(r.program), '04200201028103');
    assert.equal(r.warnings[0]!.message, 'int 3 used with explicit intcblock. must pushint');
    // v<4 with one manual block: the value must be in it.
    assert.equal(asm('intcblock 1 2\nint 2', 2), '022002010223');
    assert.deepEqual(errors('intcblock 1 2\nint 3', 2), ['2:4: value 3 does not appear in existing intcblock']);
    assert.deepEqual(errors('int 1\nintcblock 1', 3), ['2: intcblock following int']);
    assert.deepEqual(errors('intcblock 1\nintcblock 2\nint 2', 2), ['3: int 2 used with manual intcblocks. Use intc.']);
    assert.deepEqual(errors('bytecblock 0x01\naddr WSJHNPJ6YCLX5K4GUMQ4ISPK3ABMS3AL3F6CSVQTCUI5F4I65PWEMCWT3M', 5), [
      '2:5: value 0xb49276bd3ec0977eab86a321c449ead802c96c0bd97c2956131511d2f11eebec does not appear in existing bytecblock',
    ]);
    // A manual block in dead code is not bookkeeping: the pseudo int still gets an automatic block.
    assert.equal(asm('int 1\nreturn\nintcblock 9\nint 1\nreturn', 2), '02200101' + '2243' + '200109' + '2243');
  });

  it('writes explicit intc/bytec in the two-byte form and arg in the short form', () => {
    // Explicit intc/bytec use the one-byte forms for indexes 0–3, like the int pseudo-op.
    assert.equal(asm('intcblock 1 2 3 4 5\nintc 0\nintc 4', 2), '02200501020304052221' + '04');
    assert.equal(asm('arg 0\narg 3\narg 4', 2), '022d302c04');
    assert.deepEqual(errors('intc 1', 2), ['1:5: intc 1 is not defined']);
  });
});

describe('teal assembler: branches (protocol.md §1.8)', () => {
  it('uses int16 offsets up to v12 and shrinking varints from v13', () => {
    assert.equal(asm('b label1\npushint 1\nlabel1:\npushint 1', 12), '0c42000281018101');
    assert.equal(asm('b label1\npushint 1\nlabel1:\npushint 1\nreturn', 13), '0d42048101810143');
    assert.equal(asm('#pragma version 12\npushint 1\nbnz x\nerr\nerr\nerr\nx:\npushint 1\nreturn').slice(0, 10), '0c81014000');
    assert.equal(asm('#pragma version 13\npushint 1\nbnz x\nerr\nerr\nerr\nx:\npushint 1\nreturn').slice(0, 10), '0d81014006');
    // callsub over `b` which itself shrinks first: the callsub distance is measured after.
    const v12 = asm('#pragma version 12\ncallsub s\nb e\ns:\nretsub\ne:\npushint 1');
    assert.ok(v12.startsWith('0c880003420001'), v12);
    const v13 = asm('#pragma version 13\ncallsub s\nb e\ns:\nretsub\ne:\npushint 1\nreturn');
    assert.ok(v13.startsWith('0d8804420289'), v13);
  });

  it('encodes v13 back jumps from the start of the instruction', () => {
    // loop: int 1 (2 bytes) ; bnz loop → offset −2 from the bnz opcode → zigzag 3.
    assert.equal(asm('#pragma version 13\nloop:\npushint 1\nbnz loop\nint 1\nreturn').slice(0, 10), '0d81014003');
  });

  it('grows varint offsets with distance (63 forward fits one byte, 64 needs two)', () => {
    const far = (n: number) => '#pragma version 13\nb end\n' + 'pushint 1\npop\n'.repeat(n) + 'end:\npushint 1\nreturn';
    const p21 = assemble(far(21)).program; // 63 bytes skipped
    assert.equal(hex(p21.slice(0, 3)), '0d427e');
    const p22 = assemble(far(22)).program; // 66 bytes skipped
    assert.equal(hex(p22.slice(0, 4)), '0d42840' + '1');
  });

  it('reports label errors as the reference does', () => {
    assert.deepEqual(errors('b nowhere', 2), ['1:2: reference to undefined label "nowhere"']);
    assert.deepEqual(errors('x:\nint 1\nx:\nint 1', 2), ['3: duplicate label "x"']);
    assert.deepEqual(errors('x:\nint 1\nbnz x', 3), ['3:4: label "x" is a back reference, back jump support was introduced in v4']);
    assert.deepEqual(errors('int 1\nbnz end\nend:', 1), ['2:4: label "end" is too far away']);
    assert.equal(asm('int 1\nbnz end\nend:', 2), '0220010122400000');
    assert.deepEqual(errors('#pragma version 13\nx: b x'), ['2:5: branch to start of same instruction: "x" ']);
  });

  it('assembles switch and match with int16 offsets in every version', () => {
    assert.equal(asm('#pragma version 8\npushint 1\nswitch a b\na:\nb:\npushint 1'), '0881018d02000000008101');
    assert.equal(asm('#pragma version 13\nl: pushint 1\nswitch l\npushint 1').slice(0, 14), '0d81018d01fffa');
  });
});

describe('teal assembler: auto-salt (protocol.md §1.10)', () => {
  const onCurve = (p: Uint8Array) => isEdwards25519Point(programHash(p));

  it('appends a trailing intcblock salt to an on-curve v13 logicsig', () => {
    const r = assemble('#pragma version 13\npushint 12');
    assert.equal(hex(r.program), '0d810c200100');
    assert.equal(onCurve(r.program), false);
    assert.equal(onCurve(Uint8Array.from([0x0d, 0x81, 0x0c])), true);
  });

  it('extends an automatic intcblock, or salts after a manual one', () => {
    const auto = assemble('#pragma version 13\nint 1\nbnz done\nbytecblock 0x01234576 0xababcdcd 0xf000baad\npushint 1\npop\ndone:\nint 1');
    assert.equal(hex(auto.program.slice(0, 5)), '0d20020100');
    assert.equal(hex(assemble('#pragma version 13\nintcblock 0\nintc_0').program), '0d2001002220010' + '2');
  });

  it('honours #pragma autosalt with the reference warnings', () => {
    const off = assemble('#pragma version 13\n#pragma autosalt false\npushint 12');
    assert.equal(hex(off.program), '0d810c');
    assert.deepEqual(
      off.warnings.map((w) => w.message),
      ['#pragma autosalt false leaves program hash on curve'],
    );
    const on12 = assemble('#pragma version 12\n#pragma autosalt true\npushint 1');
    assert.equal(onCurve(on12.program), false);
    assert.equal(hex(assemble('#pragma version 12\npushint 1').program), '0c8101');
    const stateful = assemble('#pragma version 13\n#pragma autosalt true\nbyte 0x01\napp_global_get\npop\npushint 1');
    assert.deepEqual(
      stateful.warnings.map((w) => w.message),
      ['#pragma autosalt true used with stateful opcodes'],
    );
    assert.equal(stateful.stateful, true);
    assert.deepEqual(errors('#pragma version 13\nint 1\n#pragma autosalt true'), ['3: #pragma autosalt is only allowed before instructions']);
  });

  it('computes the on-curve test with sign bit ignored and non-canonical y reduced', () => {
    const y1 = new Uint8Array(32);
    y1[0] = 1; // y = 1 → x = 0, a point
    assert.equal(isEdwards25519Point(y1), true);
    const signed = y1.slice();
    signed[31] = 0x80;
    assert.equal(isEdwards25519Point(signed), true);
    // p + 1 ≡ 1 (non-canonical encoding of y = 1)
    const p1 = new Uint8Array(32).fill(0xff);
    p1[0] = 0xee;
    p1[31] = 0x7f;
    assert.equal(isEdwards25519Point(p1), true);
    const y2 = new Uint8Array(32);
    y2[0] = 2; // (4-1)/(4d+1) is not a square
    assert.equal(isEdwards25519Point(y2), false);
  });

  it('gives the logicsig address of the final program', () => {
    const r = assemble('#pragma version 13\npushint 12');
    assert.equal(r.address, encodeAddress(programHash(r.program)));
  });
});

describe('teal assembler: pragmas', () => {
  it('parses #pragma version with Go base prefixes and rejects misuse', () => {
    assert.equal(asm('#pragma version 010\nint 1'), '08' + '8101');
    assert.equal(asm('#pragma version 0\nint 1'), '0020010122');
    assert.deepEqual(errors('#pragma version 15'), ['1:16: unsupported version: 15']);
    assert.deepEqual(errors('#pragma version x'), ['1:16: bad #pragma version: "x"']);
    assert.deepEqual(errors('#pragma version'), ['1:8: no version value']);
    assert.deepEqual(errors('#pragma version 5; int 1'), ['1:17: unexpected extra tokens: ; int 1']);
    assert.deepEqual(errors('int 1\n#pragma version 5'), ['2: #pragma version is only allowed before instructions']);
    assert.deepEqual(errors('start:\n#pragma version 8\nint 1'), ['2:16: version mismatch: assembling v8 with v1 assembler']);
    assert.deepEqual(errors('#pragma version 5', 6), ['1:16: version mismatch: assembling v5 with v6 assembler']);
    assert.deepEqual(errors('#pragma'), ['1: empty pragma']);
    assert.deepEqual(errors('#pragma versions 5'), ['1: unsupported pragma directive: "versions"']);
    assert.deepEqual(errors('#foo: int 1'), ['1: unknown directive: foo:']);
    assert.deepEqual(errors(';#define x 1'), ['1:1: unknown opcode: #define']);
  });

  it('turns type checking off and back on with #pragma typetrack', () => {
    assert.deepEqual(errors('#pragma version 8\nint 1\nbyte 0x01\n+'), ['4: + arg 1 wanted type uint64 got [1]byte']);
    assert.deepEqual(errors('#pragma version 8\n#pragma typetrack false\nint 1\nbyte 0x01\n+'), []);
    assert.deepEqual(errors('#pragma version 8\n#pragma typetrack false\n+\n#pragma typetrack TRUE\n+\nreturn'), []);
    assert.deepEqual(errors('#pragma typetrack maybe'), ['1:18: bad #pragma typetrack: "maybe"']);
    assert.deepEqual(errors('#pragma version 8\n+', 8), ['2: + expects 2 stack arguments but stack height is 0']);
    assert.deepEqual(assembleCollect('#pragma version 8\n+', { typetrack: false }).diagnostics, []);
  });
});

describe('teal assembler: macros', () => {
  it('expands with late binding, chaining and redefinition', () => {
    assert.equal(
      asm(
        '#pragma version 8\n#define rowSize 3\n#define columnSize 5\n#define dims rowSize columnSize\npushbytes 0x100000000000; substring dims\n#define rowSize 0\n#define columnSize 1\nsubstring dims',
      ),
      asm('#pragma version 8\npushbytes 0x100000000000; substring 3 5; substring 0 1'),
    );
    assert.equal(asm('#pragma version 8\n#define -> ; store\nint 3 -> 0\nload 0\nreturn'), asm('#pragma version 8\nint 3\nstore 0\nload 0\nreturn'));
    assert.equal(asm('#pragma version 8\n#define X ;\nint 1 X return'), asm('#pragma version 8\nint 1\nreturn'));
  });

  it('reports cycles and restores the previous body', () => {
    assert.deepEqual(errors('#define X X\nint 3'), ['1:8: macro expansion cycle discovered: X -> X']);
    const src = '#pragma version 8\n#define c +\n#define x a c\n#define d x\n#define c d\nint 1\nint 1\nc\nreturn';
    assert.deepEqual(errors(src), ['5:8: macro expansion cycle discovered: c -> d -> x -> c']);
  });

  it('checks every macro-name rule', () => {
    const cases: [string, string][] = [
      ['#define wh@t 1', '1:8: @ character not allowed in macro name'],
      ['#define 1x 1', '1:8: Cannot begin macro name with number: 1x'],
      ['#define -1x 1', '1:8: Cannot begin macro name with number: -1x'],
      ['#define b32 AA', '1:8: Cannot use b32 as macro name'],
      ['#define pay 1', '1:8: Named constants cannot be used as macro names: pay'],
      ['#define method 1', '1:8: Macro names cannot be pseudo-ops: method'],
      ['#pragma version 8\n#define dup 1', '2:8: Macro names cannot be opcodes: dup'],
      ['#pragma version 8\n#define Sender 1', '2:8: Macro names cannot be field names: Sender'],
      ['l:\n#define l 1', '2:8: Labels cannot be used as macro names: l'],
      ['#define l 1\nl:', '2: Cannot create label with same name as macro: l'],
      ['#define x', '1:8: define directive requires a name and body'],
    ];
    for (const [src, want] of cases) assert.ok(errors(src).includes(want), `${src}: ${errors(src).join(' | ')}`);
    // é is a letter; opcodes of later versions are fine names.
    assert.deepEqual(errors('#pragma version 1\n#define é 1\n#define return hi\nint é'), []);
  });

  it('rechecks names when the version settles', () => {
    assert.deepEqual(errors('#define dup 1\n#pragma version 8\nint 1'), [
      '1:8: Macro names cannot be opcodes: dup',
      '2:16: version is incompatible with defined macros',
    ]);
    assert.deepEqual(errors('#define err pop\nint 1; err'), ['1:8: Macro names cannot be opcodes: err']);
  });

  it('reports errors from expanded code at the use site, pointing into the #define', () => {
    const r = assembleCollect('#pragma version 8\n#define c +\nint 1\n  c\nreturn');
    const d = r.diagnostics.find((x) => x.severity === 'error')!;
    assert.equal(d.message, '+ expects 2 stack arguments but stack height is 1');
    assert.deepEqual([d.range.line, d.range.column, d.range.endColumn], [3, 2, 3]);
    assert.deepEqual([d.definition!.line, d.definition!.column], [1, 10]);
    assert.deepEqual(d.macros, ['c']);
    assert.equal(formatDiagnostic(d), '2:10: + expects 2 stack arguments but stack height is 1');
  });

  it('creates labels at each use of a body with a label (so two uses collide)', () => {
    const src = '#pragma version 8\n#define test int 1; int 2; b a; a:\ntest\ntest\nreturn';
    assert.deepEqual(errors(src), ['2:32: duplicate label "a"']);
  });

  it('maps pcs to the use site and records the definition', () => {
    const r = assemble('#pragma version 8\n#define two pushint 2\nint 1\n two\n+\nreturn');
    const m = r.sourceMap.find((x) => x.use.line === 3)!;
    assert.equal(m.pc, 3);
    assert.equal(m.use.column, 1);
    assert.deepEqual([m.definition!.line, m.definition!.column], [1, 12]);
  });
});

describe('teal assembler: type tracking and dead code', () => {
  it('checks argument types and stack height', () => {
    assert.deepEqual(errors('#pragma version 8\nbyte 0x01\nbyte 0x02\n+\nreturn'), [
      '4: + arg 1 wanted type uint64 got [1]byte',
      '4: + arg 0 wanted type uint64 got [1]byte',
    ]);
    assert.deepEqual(errors('#pragma version 8\nint 1\ntxn Sender\nitxn_field Amount\nreturn'), ['4: itxn_field Amount arg 0 wanted type uint64 got address']);
  });

  it('stops checking after unconditional jumps until a label', () => {
    assert.deepEqual(errors('#pragma version 8\nint 1\nreturn\n+\n+'), []);
    assert.deepEqual(errors('#pragma version 8\nb l\nl:\n+\nreturn'), []);
    assert.deepEqual(errors('#pragma version 8\nint 1\nl:\n+\nreturn'), ['4: + expects 2 stack arguments but stack height is 1']);
  });

  it('rejects proto reachable from the previous instruction', () => {
    assert.deepEqual(errors('#pragma version 8\nint 1\nproto 0 0\nreturn'), ['3: proto must be unreachable from previous PC']);
  });
});

describe('teal assembler: immediates and fields', () => {
  it('picks the real op from the number of immediates', () => {
    const src = '#pragma version 5\n#pragma typetrack false\ntxn Accounts 1\ngtxn 0 Sender\ngtxn 0 Accounts 1\nextract 1 2\nextract\nreturn';
    assert.equal(asm(src), '05' + '361c01' + '330000' + '37001c01' + '570102' + '58' + '43');
    assert.deepEqual(errors('txn Accounts 1', 1), [
      '1: txn opcode with 2 immediates was introduced in v2',
      '1:4: txn Accounts field was introduced in v2. Missed #pragma version?',
    ]);
    assert.deepEqual(errors('#pragma version 5\ntxn ApplicationArgs'), ['2:4: "ApplicationArgs" field of txn can only be used with 2 immediates']);
    assert.deepEqual(errors('#pragma version 5\nextract 1'), ['2: extract expects 0 or 2 immediate arguments']);
  });

  it('checks field versions and the itxn_field / app_params_set subsets', () => {
    assert.deepEqual(errors('txn ApplicationID', 1), ['1:4: txn ApplicationID field was introduced in v2. Missed #pragma version?']);
    assert.deepEqual(errors('#pragma version 5\nbyte 0x00\nitxn_field Note'), ['3:11: itxn_field Note field was introduced in v6. Missed #pragma version?']);
    assert.deepEqual(errors('#pragma version 6\n#pragma typetrack false\nitxn_field TxID'), ['3:11: itxn_field "TxID" is not allowed.']);
    assert.deepEqual(errors('#pragma version 13\nint 1\napp_params_set AppCreator'), ['3:15: app_params_set "AppCreator" is not settable.']);
    assert.deepEqual(errors('txn 0', 2), ['1:4: txn unknown field: "0"']);
    assert.deepEqual(errors('sha512 ', 12), ['1: sha512 opcode was introduced in v13']);
    assert.deepEqual(errors('frobnicate'), ['1: unknown opcode: frobnicate']);
  });
});

describe('teal assembler: template variables', () => {
  it('substitutes outside strings and comments', () => {
    const src = 'int TMPL_A // TMPL_A\nbyte TMPL_B\nbyte TMPL_S\nbyte "TMPL_A"\nint TMPL_AB';
    const out = replaceTemplateVariables(src, { A: 5n, TMPL_B: Uint8Array.of(1, 255), S: 'say "hi"\n', AB: 7 });
    assert.equal(out, 'int 5 // TMPL_A\nbyte 0x01ff\nbyte "say \\"hi\\"\\n"\nbyte "TMPL_A"\nint 7');
  });

  it('is applied by assemble when templateVars is given', () => {
    assert.equal(hex(assemble('#pragma version 4\nint TMPL_X\nreturn', { templateVars: { X: 9 } }).program), '04810943');
    assert.equal(hex(assemble('#pragma version 4\nint TMPL_X\nreturn', { templateVars: { X: '9' } }).program), '04810943');
  });
});

describe('teal assembler: errors and analysis', () => {
  it('collects every error and throws AssembleError from assemble', () => {
    assert.throws(
      () => assemble('#pragma version 8\nfoo\nbar'),
      (e: unknown) => e instanceof AssembleError && e.diagnostics.filter((d) => d.severity === 'error').length === 2,
    );
  });

  it('exposes statements, labels, macros and mode from one pass', () => {
    const a = analyze('#pragma version 8\n#define route txna ApplicationArgs 0; ==; bnz\nmethod "f()void"; route go\nerr\ngo:\nbyte "x"\nlog\nint 1\nreturn');
    assert.equal(a.version, 8);
    assert.equal(a.mode, 'application');
    const go = a.labels.find((l) => l.name === 'go')!;
    assert.equal(go.references.length, 1);
    assert.deepEqual([go.references[0]!.range.line, go.references[0]!.range.column], [2, 24]);
    const route = a.macros.find((m) => m.name === 'route')!;
    assert.equal(route.uses.length, 1);
    assert.equal(route.body[0]!.text, 'txna');
    const bnz = a.statements.find((s) => s.op === 'bnz')!;
    assert.deepEqual(bnz.tokens[0]!.macros, ['route']);
    assert.equal(bnz.pc, 11);
    assert.deepEqual(bnz.stackBefore, { types: ['bool'], exact: true });
    assert.ok(a.program);
    const sig = analyze('#pragma version 5\narg 0\nlen');
    assert.equal(sig.mode, 'logicsig');
    assert.equal(analyze('#pragma version 5\nglobal CurrentApplicationID').mode, 'application');
    assert.equal(analyze('#pragma version 5\nint 1').mode, 'any');
  });

  it('reports byte and UTF-16 columns for non-ASCII lines, and accepts CRLF sources', () => {
    const d = assembleCollect('#pragma version 8\r\nbyte "é"; frob\r\nreturn').diagnostics.find((x) => x.severity === 'error')!;
    assert.equal(d.message, 'unknown opcode: frob');
    assert.deepEqual([d.range.line, d.range.column, d.range.endColumn, d.range.utf16Column, d.range.utf16EndColumn], [1, 11, 15, 10, 14]);
    assert.equal(hex(assemble('#pragma version 8\r\npushint 1\r\nreturn\r\n').program), '08810143');
  });

  it('records label mentions inside #define bodies and references in switch lists', () => {
    const a = analyze('#pragma version 8\n#define unused b done\npushint 0\nswitch done other\nother:\ndone:\npushint 1\nreturn');
    const done = a.labels.find((l) => l.name === 'done')!;
    assert.equal(done.references.length, 1);
    assert.deepEqual(
      done.macroBodyMentions.map((m) => [m.range.line, m.range.column]),
      [[1, 17]],
    );
    assert.equal(done.pc, 9);
    assert.equal(a.macros[0]!.uses.length, 0);
  });

  it('still gives pcs and diagnostics when the source does not assemble', () => {
    const a = analyze('#pragma version 8\nint 7\nint 7\nfrob\nreturn');
    assert.equal(a.program, undefined);
    assert.deepEqual(a.diagnostics.map(formatDiagnostic), ['4: unknown opcode: frob']);
    assert.deepEqual(
      a.statements.map((s) => s.pc),
      [4, 5, undefined, 6],
    );
  });
});
