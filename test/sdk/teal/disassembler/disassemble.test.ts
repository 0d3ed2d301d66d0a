import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeProgram, describeBytes, disassemble, disassembleDetailed } from '../../../../sdk/src/teal/disassembler/index.js';
import { DisassembleError } from '../../../../sdk/src/teal/types.js';
import { programHashIsOnCurve } from '../../../../sdk/src/teal/oncurve.js';
import { hexToBytes as hex, sharedData } from './assembler-bridge.js';
import { needShared } from '../../../helpers/shared.js';

function lines(...ls: string[]): string {
  return ls.join('\n') + '\n';
}

function throwsAt(program: string, pattern: RegExp, pc: number): void {
  assert.throws(
    () => disassemble(hex(program)),
    (e: unknown) => {
      assert.ok(e instanceof DisassembleError, `expected DisassembleError, got ${String(e)}`);
      assert.match(e.message, pattern);
      assert.equal(e.pc, pc, `pc of "${e.message}"`);
      return true;
    },
  );
}

describe('teal disassembler: text', () => {
  it('prints the sdk-testing golden disassembly of eight.teal.tok', function () {
    const dir = resolve(sharedData, 'fixtures/algorand-sdk-testing/features/resources/programs');
    needShared(this, dir);
    const program = new Uint8Array(readFileSync(resolve(dir, 'eight.teal.tok')));
    assert.equal(disassemble(program), readFileSync(resolve(dir, 'eight_disassembled.teal'), 'utf8'));
  });

  it('comments intc/bytec uses with the block values (reference TestDisassembleBytecblock, at v12)', () => {
    const ints = hex('0c 20 06 00 01 02 03 04 05 22 23 24 25 21 04 83 01 06 22 23 24 25 21 04');
    assert.equal(
      disassemble(ints),
      lines(
        '#pragma version 12',
        'intcblock 0 1 2 3 4 5',
        'intc_0 // 0',
        'intc_1 // 1',
        'intc_2 // 2',
        'intc_3 // 3',
        'intc 4 // 4',
        'pushints 6',
        'intc_0 // 0',
        'intc_1 // 1',
        'intc_2 // 2',
        'intc_3 // 3',
        'intc 4 // 4',
      ),
    );
    const bytes = hex('0c 26 05 02 6869 03 414243 04 74657374 04 666f7572 04 6c617374 28 29 2a 2b 27 04 82 01 04 6576696c 28 29 2a 2b 27 04');
    assert.equal(
      disassemble(bytes),
      lines(
        '#pragma version 12',
        'bytecblock 0x6869 0x414243 0x74657374 0x666f7572 0x6c617374',
        'bytec_0 // "hi"',
        'bytec_1 // "ABC"',
        'bytec_2 // "test"',
        'bytec_3 // "four"',
        'bytec 4 // "last"',
        'pushbytess 0x6576696c',
        'bytec_0 // "hi"',
        'bytec_1 // "ABC"',
        'bytec_2 // "test"',
        'bytec_3 // "four"',
        'bytec 4 // "last"',
      ),
    );
  });

  it('leaves intc/bytec uncommented before any block and past its end', () => {
    assert.equal(disassemble(hex('02 22 20 01 07 22 23 21 05')), lines('#pragma version 2', 'intc_0', 'intcblock 7', 'intc_0 // 7', 'intc_1', 'intc 5'));
    assert.equal(disassemble(hex('02 28 27 00')), lines('#pragma version 2', 'bytec_0', 'bytec 0'));
  });

  it('shows push constants as the reference does (TestConstantDisassembly)', () => {
    const cases: [string, string][] = [
      ['0d 81 2f', 'pushint 47'],
      ['0d 80 04 6a6f686e', 'pushbytes 0x6a6f686e // "john"'],
      ['0d 80 03 21267e', 'pushbytes 0x21267e // "!&~"'],
      ['0d 80 03 010720', 'pushbytes 0x010720 // 0x010720'],
      ['0d 80 20' + '00'.repeat(32), 'pushbytes 0x' + '00'.repeat(32) + ' // addr AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ'],
      ['0d 81 ffffffffffffffffff01', 'pushint 18446744073709551615'],
    ];
    for (const [program, line] of cases) {
      const text = disassemble(hex(program));
      assert.ok(text.split('\n').includes(line), `${program} → ${JSON.stringify(text)} lacks ${line}`);
    }
  });

  it('prints field names, signed int8 and plain uint8 immediates', () => {
    assert.equal(
      disassemble(hex('08 31 00 37 01 1a 02 36 1c 00 32 03 8b fe 8c 7f 45 01 51 2a 63 2c 05 2e 5e 01')),
      lines(
        '#pragma version 8',
        'txn Sender',
        'gtxna 1 ApplicationArgs 2',
        'txna Accounts 0',
        'global ZeroAddress',
        'frame_dig -2',
        'frame_bury 127',
        'bury 1',
        'substring 42 99',
        'arg 5',
        'arg_1',
        'base64_decode StdEncoding',
      ),
    );
  });

  it('numbers labels in order of first reference, forward and back (v4)', () => {
    // 1: pushint 1 | 3: bnz +3 → 9 | 6: b -8 → 1 | 9: pushint 2
    assert.equal(
      disassemble(hex('04 81 01 40 00 03 42 ff f8 81 02')),
      lines('#pragma version 4', 'label2:', 'pushint 1', 'bnz label1', 'b label2', 'label1:', 'pushint 2'),
    );
  });

  it('labels a jump to the very end of the program (TestDisassembleLastLabel)', () => {
    assert.equal(disassemble(hex('02 20 01 01 22 40 00 00')), lines('#pragma version 2', 'intcblock 1', 'intc_0 // 1', 'bnz label1', 'label1:'));
  });

  it('gives an uncalled subroutine its proto label (TestDisassembleDeadSubroutine)', () => {
    assert.equal(
      disassemble(hex('08 42 00 09 8a 02 01 8b fe 8b ff 08 89 81 01')),
      lines('#pragma version 8', 'b label1', 'label2:', 'proto 2 1', 'frame_dig -2', 'frame_dig -1', '+', 'retsub', 'label1:', 'pushint 1'),
    );
    // A proto reached by callsub keeps the callsub's label.
    assert.equal(disassemble(hex('08 88 00 01 89 8a 00 00 89')), lines('#pragma version 8', 'callsub label1', 'retsub', 'label1:', 'proto 0 0', 'retsub'));
  });

  it('prints switch and match label lists, offsets from the end of the instruction', () => {
    // From protocol.md §1.8: 81 01 8d 02 fff8 0000 81 01
    assert.equal(
      disassemble(hex('08 81 01 8d 02 ff f8 00 00 81 01')),
      lines('#pragma version 8', 'label1:', 'pushint 1', 'switch label1 label2', 'label2:', 'pushint 1'),
    );
    assert.equal(disassemble(hex('08 8e 01 00 00')), lines('#pragma version 8', 'match label1', 'label1:'));
    assert.equal(disassemble(hex('08 8d 00')), lines('#pragma version 8', 'switch '));
  });

  it('decodes v13 zigzag branches: forward from the end, backward from the start', () => {
    // The same program as v12 `88 0003 42 0001` (protocol.md §1.8): both disassemble alike.
    const body = ['callsub label1', 'b label2', 'label1:', 'retsub', 'label2:', 'pushint 1'];
    assert.equal(disassemble(hex('0c 88 00 03 42 00 01 89 81 01')), lines('#pragma version 12', ...body));
    assert.equal(disassemble(hex('0d 88 04 42 02 89 81 01')), lines('#pragma version 13', '#pragma autosalt false', ...body));
    // b at pc 3 with offset −2 lands on pc 1 (measured from the opcode byte).
    assert.equal(disassemble(hex('0d 81 01 42 03')), lines('#pragma version 13', 'label1:', 'pushint 1', 'b label1'));
    // offset 0 → the instruction's end, here the end of the program.
    assert.equal(disassemble(hex('0d 80 01 06 64 40 00')), lines('#pragma version 13', 'pushbytes 0x06 // 0x06', 'app_global_get', 'bnz label1', 'label1:'));
  });

  it('tests program hashes for curve membership (TestAssemblerIntcblockSalt vectors)', () => {
    // Salts 0 and 1 leave `intcblock 0; intc_0` on curve, 2 moves it off (protocol.md §1.10).
    assert.equal(programHashIsOnCurve(hex('0d 20 01 00 22')), true);
    assert.equal(programHashIsOnCurve(hex('0d 20 01 00 22 20 01 00')), true);
    assert.equal(programHashIsOnCurve(hex('0d 20 01 00 22 20 01 01')), true);
    assert.equal(programHashIsOnCurve(hex('0d 20 01 00 22 20 01 02')), false);
  });

  it('says `#pragma autosalt false` only for stateless v13 programs hashing on curve', () => {
    // protocol.md §1.10: 0d 81 0c is on curve, and the assembler salts it to 0d 81 0c 20 01 00.
    assert.equal(disassemble(hex('0d 81 0c')), lines('#pragma version 13', '#pragma autosalt false', 'pushint 12'));
    assert.equal(disassemble(hex('0d 81 0c 20 01 00')), lines('#pragma version 13', 'pushint 12', 'intcblock 0'));
    // On curve too, but app_global_get is application-only, so no salt would be added.
    assert.equal(disassemble(hex('0d 80 01 06 64')), lines('#pragma version 13', 'pushbytes 0x06 // 0x06', 'app_global_get'));
    // Before v13 never.
    assert.ok(!disassemble(hex('0c 81 0c')).includes('autosalt'));
    assert.equal(disassembleDetailed(hex('0d 81 0c')).autosaltOff, true);
  });

  it('decodes two-byte app_box opcodes at v13 only', () => {
    assert.equal(disassemble(hex('0d d4 01 d4 09')), lines('#pragma version 13', 'app_box_create', 'app_box_resize'));
    throwsAt('0c d4 01', /invalid opcode d4 at pc=1/, 1);
  });

  it('prints absolute targets with numericTargets and no label lines', () => {
    assert.equal(
      disassemble(hex('04 81 01 40 00 03 42 ff f8 81 02'), { numericTargets: true }),
      lines('#pragma version 4', 'pushint 1', 'bnz 9', 'b 1', 'pushint 2'),
    );
  });

  it('maps every pc to its line of text', () => {
    const d = disassembleDetailed(hex('04 81 01 40 00 03 42 ff f8 81 02'));
    const text = d.text.split('\n');
    assert.deepEqual(
      d.lines.map((l) => l.pc),
      [1, 3, 6, 9],
    );
    assert.deepEqual(
      d.lines.map((l) => text[l.line]),
      ['pushint 1', 'bnz label1', 'b label2', 'pushint 2'],
    );
    assert.deepEqual(
      [...d.labels],
      [
        [9, 'label1'],
        [1, 'label2'],
      ],
    );
  });
});

describe('teal disassembler: errors', () => {
  it('rejects bad version prefixes', () => {
    throwsAt('', /invalid program \(empty\)/, 0);
    throwsAt('80', /invalid version/, 0);
    throwsAt('ffffffffffffffffffff7f', /invalid version/, 0);
    throwsAt('0f', /unsupported version 15/, 0);
    // v14 (the reference's newest) decodes with the v13 table.
    assert.equal(disassemble(hex('0e 81 01 64')), lines('#pragma version 14', 'pushint 1', 'app_global_get'));
    throwsAt('ff 01', /unsupported version 255/, 0);
  });

  it('reads version 0 as v1, like the reference', () => {
    assert.equal(disassemble(hex('00 20 01 01 22 31 00')), lines('#pragma version 0', 'intcblock 1', 'intc_0 // 1', 'txn Sender'));
    throwsAt('00 81 01', /invalid opcode 81 at pc=1/, 1);
  });

  it('rejects opcodes the version does not have, with the reference wording', () => {
    throwsAt('02 ff', /^invalid opcode ff at pc=1$/, 1);
    throwsAt('01 81 01', /invalid opcode 81 at pc=1/, 1); // pushint arrived in v3
    throwsAt('0d 01 d4', /prefix opcode 0xd4 missing sub-opcode at pc=2/, 2);
    throwsAt('0d d4 00', /prefix opcode 0xd4 with improper sub-opcode 0x00 at pc=1/, 1);
  });

  it('rejects truncated fixed-size immediates, naming the immediate (TestAssembleDisassembleErrors)', () => {
    throwsAt('02 31', /program end while reading immediate f for txn/, 1);
    throwsAt('02 37 00 1c', /program end while reading immediate i for gtxna/, 1);
    throwsAt('02 37 00', /program end while reading immediate f for gtxna/, 1);
    throwsAt('02 37', /program end while reading immediate t for gtxna/, 1);
    throwsAt('02 51 00', /program end while reading immediate e for substring/, 1);
    throwsAt('08 8b', /program end while reading immediate i for frame_dig/, 1);
  });

  it('rejects field values the op does not know', () => {
    throwsAt('02 31 50', /invalid immediate f for txn: 80/, 1);
    throwsAt('02 36 50 00', /invalid immediate f for txna: 80/, 1);
    throwsAt('02 32 50', /invalid immediate f for global: 80/, 1);
    throwsAt('02 22 70 50', /invalid immediate f for asset_holding_get: 80/, 2);
  });

  it('rejects bad varuints and constant lists', () => {
    throwsAt('03 81', /could not decode immediate uint for pushint/, 1);
    throwsAt('03 81 80 80', /could not decode immediate uint for pushint: varuint runs past the end/, 1);
    throwsAt('03 81 ffffffffffffffffff02', /could not decode immediate uint for pushint: varuint overflows uint64/, 1);
    throwsAt('03 80 05 41', /could not decode immediate bytes for pushbytes: 5 bytes declared, 1 left/, 1);
    throwsAt('02 20', /could not decode length of int list for intcblock/, 1);
    throwsAt('02 20 05 01', /const int list with too many items for intcblock: 5/, 1);
    throwsAt('02 20 02 01 80', /could not decode int const\[1\] at pc=4/, 1);
    throwsAt('02 26 01 05 41', /const bytes list ran past end of program for bytecblock/, 1);
    throwsAt('08 83 ff ff ff ff 0f', /const int list with too many items for pushints/, 1);
  });

  it('rejects truncated branch offsets and label lists', () => {
    for (const op of ['40', '41', '42']) {
      throwsAt(`02 ${op}`, /program end while reading label/, 1);
      throwsAt(`02 ${op} 01`, /program end while reading label/, 1);
    }
    throwsAt('0d 42', /could not decode label for b: varint runs past the end/, 1);
    throwsAt('0d 88 80', /could not decode label for callsub/, 1);
    throwsAt('08 8d', /could not decode label count for switch/, 1);
    throwsAt('08 8e 02 00 00 00', /could not decode labels for match/, 1);
  });

  it('rejects branches outside the program or into an instruction, unless told not to', () => {
    throwsAt('02 40 00 05', /branch target 9 of bnz at pc=1 is outside the program/, 1);
    throwsAt('04 40 ff 00', /branch target -252 of bnz at pc=1 is outside the program/, 1);
    throwsAt('04 81 01 42 ff fc', /branch target 2 of b at pc=3 is not the start of an instruction/, 3);
    throwsAt('0d 81 01 42 01', /branch target 2 of b at pc=3 is not the start of an instruction/, 3);
    throwsAt('08 8d 01 00 01', /branch target 6 of switch/, 1);
    // The reference prints such programs anyway (TestDisassembleBadBranch); so does lenient mode.
    assert.equal(disassemble(hex('02 40 00 05'), { strictTargets: false }), lines('#pragma version 2', 'bnz label1'));
    assert.equal(disassemble(hex('02 40 00 01 00')), lines('#pragma version 2', 'bnz label1', 'err', 'label1:'));
  });
});

describe('teal disassembler: decodeProgram', () => {
  it('returns pc, size, op, immediates and targets', () => {
    const d = decodeProgram(hex('0d 81 01 40 04 81 02 20 02 05 8001 26 01 02 6869 8d 02 00 00 ff f5'));
    assert.equal(d.version, 13);
    assert.equal(d.headerSize, 1);
    assert.equal(d.hasStatefulOps, false);
    const summary = d.instructions.map((i) => [i.pc, i.size, i.op.name, i.targets]);
    assert.deepEqual(summary, [
      [1, 2, 'pushint', []],
      [3, 2, 'bnz', [7]],
      [5, 2, 'pushint', []],
      [7, 5, 'intcblock', []],
      [12, 5, 'bytecblock', []],
      [17, 6, 'switch', [23, 12]],
    ]);
    assert.deepEqual(d.instructions[0]!.immediates, [{ encoding: 'varuint', name: 'uint', value: 1n }]);
    assert.deepEqual(d.instructions[1]!.immediates, [{ encoding: 'varintLabel', name: 'target', offset: 2, target: 7 }]);
    assert.deepEqual(d.instructions[3]!.immediates, [{ encoding: 'uints', name: 'uint', values: [5n, 128n] }]);
    assert.deepEqual(d.instructions[4]!.immediates, [{ encoding: 'bytesList', name: 'bytes', values: [hex('6869')] }]);
    assert.deepEqual(d.instructions[5]!.immediates, [{ encoding: 'labels', name: 'target', offsets: [0, -11], targets: [23, 12] }]);
  });

  it('accepts non-minimal varuints, as the AVM does', () => {
    const d = decodeProgram(hex('03 81 81 80 00'));
    assert.deepEqual(d.instructions[0]!.immediates, [{ encoding: 'varuint', name: 'uint', value: 1n }]);
    assert.equal(d.instructions[0]!.size, 4);
  });

  it('leaves target checks to the caller unless asked', () => {
    assert.equal(decodeProgram(hex('02 40 00 05')).instructions[0]!.targets[0], 9);
    assert.throws(() => decodeProgram(hex('02 40 00 05'), { checkTargets: true }), DisassembleError);
  });

  it('flags application-only opcodes', () => {
    assert.equal(decodeProgram(hex('0d 80 01 06 64')).hasStatefulOps, true);
    assert.equal(decodeProgram(hex('0d 31 18')).hasStatefulOps, false);
  });
});

describe('teal disassembler: describeBytes', () => {
  it('chooses address, quoted ASCII or hex like the reference', () => {
    assert.equal(describeBytes(new Uint8Array(32)), 'addr AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ');
    assert.equal(describeBytes(hex('61225c7e20')), '"a\\"\\\\~ "');
    assert.equal(describeBytes(new Uint8Array(0)), '""');
    assert.equal(describeBytes(hex('610a')), '0x610a');
    assert.equal(describeBytes(hex('7f')), '0x7f');
  });
});
