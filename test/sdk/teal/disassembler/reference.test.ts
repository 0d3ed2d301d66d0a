import assert from 'node:assert/strict';
import { assemble, disassemble, programHashIsOnCurve } from '../../../../sdk/src/teal/index.js';
import { ASSEMBLE_DISASSEMBLE_BODY } from './reference-texts.js';

/*
 * Source → bytes → text expectations from the reference's assembler tests. The reference appends
 * a trailing salt (`intcblock s`) when a v13+ stateless program hashes on curve; then the
 * disassembly only starts with the source (its requireDisassembledSource does the same).
 */
function assertDisassemblesTo(source: string, expected = source, version?: number): void {
  const { program } = assemble(source, version !== undefined ? { version } : {});
  const text = disassemble(program);
  if (text !== expected && text.startsWith(expected)) {
    assert.match(text.slice(expected.length), /^intcblock \d+\n$/, `only a salt may follow:\n${text}`);
    assert.equal(programHashIsOnCurve(program), false);
    return;
  }
  assert.equal(text, expected);
}

describe('teal disassembler: reference texts', () => {
  it('reproduces TestAssembleDisassemble exactly at v13 and v14', () => {
    for (const v of [13, 14]) assertDisassemblesTo(`#pragma version ${v}\n${ASSEMBLE_DISASSEMBLE_BODY}`);
  });

  it('TestDisassembleSingleOp: arg_0 at every version', () => {
    for (let v = 1; v <= 13; v++) assertDisassemblesTo(`#pragma version ${v}\narg_0\n`, undefined, v);
  });

  it('TestDisassembleTxna / TestDisassembleGtxna: txn/gtxn with an index print as txna/gtxna', () => {
    for (let v = 2; v <= 13; v++) {
      assertDisassemblesTo(`#pragma version ${v}\ntxn Sender\n`);
      assertDisassemblesTo(`#pragma version ${v}\ntxna Accounts 0\n`);
      assertDisassemblesTo(`#pragma version ${v}\ntxn Accounts 0\n`, `#pragma version ${v}\ntxna Accounts 0\n`);
      assertDisassemblesTo(`#pragma version ${v}\ngtxn 0 Sender\n`);
      assertDisassemblesTo(`#pragma version ${v}\ngtxn 0 Accounts 0\n`, `#pragma version ${v}\ngtxna 0 Accounts 0\n`);
    }
  });

  it('TestDisassemblePushConst', () => {
    assertDisassemblesTo('#pragma version 13\npushint 1\n');
    assertDisassemblesTo('#pragma version 13\npushbytes 0x01\n', '#pragma version 13\npushbytes 0x01 // 0x01\n');
    assertDisassemblesTo('#pragma version 13\npushbytes "a"\n', '#pragma version 13\npushbytes 0x61 // "a"\n');
  });

  it('TestDisassembleLastLabel: a branch to the end, v2 onwards', () => {
    for (let v = 2; v <= 13; v++) assertDisassemblesTo(`#pragma version ${v}\nintcblock 1\nintc_0 // 1\nbnz label1\nlabel1:\n`);
  });

  it('TestDisassembleInt: repeated ints share a block slot, single ones are pushed', () => {
    const text = disassemble(assemble('#pragma version 13\nint 17\nint 27\nint 37\nint 47\nint 5\nint 17\n').program);
    for (const part of ['// 17', 'pushint 27', 'pushint 37', 'pushint 47', 'pushint 5']) assert.ok(text.includes(part), `${part} missing in\n${text}`);
  });

  it('TestConstantDisassembly', () => {
    const cases: [string, string][] = [
      ['int 47', 'pushint 47'],
      ['byte "john"', 'pushbytes 0x6a6f686e // "john"'],
      ['byte "!&~"', 'pushbytes 0x21267e // "!&~"'],
      ['byte 0x010720', 'pushbytes 0x010720 // 0x010720'],
      [
        'addr AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ',
        'pushbytes 0x' + '00'.repeat(32) + ' // addr AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ',
      ],
    ];
    for (const [source, line] of cases) assert.ok(disassemble(assemble(source, { version: 13 }).program).includes(line + '\n'), source);
  });

  it('TestDisassembleDeadSubroutine: reassembles at every frame version', () => {
    for (let v = 8; v <= 13; v++) {
      const source = `#pragma version ${v}\nb main\n\ndead_sub:\nproto 2 1\nframe_dig -2\nframe_dig -1\n+\nretsub\n\nmain:\nint 1\n`;
      const { program } = assemble(source);
      assert.deepEqual(assemble(disassemble(program)).program, program, `v${v}`);
    }
  });

  it('TestDisassembleBadSwitch / BadMatch texts assemble and disassemble back', () => {
    const sw = assemble('int 1\nswitch label1 label2\nlabel1:\nlabel2:\n', { version: 13 }).program;
    assert.equal(assemble(disassemble(sw)).program.join(), sw.join());
  });
});
