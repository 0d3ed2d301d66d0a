import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assemble } from '../../../sdk/src/teal/index.js';
import { ProgramSourceMap, SourceMapError, subroutineShortName, toNodeSourceMap } from '../../../sdk/src/teal/index.js';
import { findSourceMap, sourceMapsFor } from '../../../sdk/src/app/debug/discover.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FIX = resolve(repoRoot, '../shared/data/fixtures');
const HELLO = join(FIX, 'puya-examples/hello_world_arc4');
const POA = join(FIX, 'avm-debugger-traces/puya');

describe('teal/source-maps: one model for assembler, TEAL and Puya maps', () => {
  it('assembler maps: every pc maps to its instruction, macros to the use site and the body', () => {
    const a = assemble('#pragma version 10\n#define TWO int 1; int 1\nTWO\n+\nreturn');
    const m = ProgramSourceMap.fromAssembler(a.sourceMap, 'x.teal');
    assert.equal(m.kind, 'assembler');
    const plus = a.sourceMap.find((e) => e.use.line === 3)!;
    assert.deepEqual(m.at(plus.pc), { source: 0, file: 'x.teal', line: 3, column: 0 });
    const fromMacro = m.at(a.sourceMap.find((e) => e.use.line === 2)!.pc)!;
    assert.equal(fromMacro.line, 2);
    assert.equal(fromMacro.definition?.line, 1);
    assert.deepEqual(m.pcsAtLine('x.teal', 1).length, 2, 'the macro body line holds both of its instructions');
  });

  it('node / AlgoKit TEAL maps read back what we write', () => {
    const a = assemble('#pragma version 10\nint 1\nint 2\n+\nreturn');
    const m = ProgramSourceMap.parse(JSON.stringify(toNodeSourceMap(a.sourceMap, { sources: ['p.teal'] })));
    assert.equal(m.kind, 'teal-map');
    for (const e of a.sourceMap) assert.equal(m.at(e.pc)?.line, e.use.line);
  });

  it('rejects what is not a pc-keyed v3 map, with a reason', () => {
    assert.throws(
      () => ProgramSourceMap.parse('{'),
      (e: Error) => e instanceof SourceMapError && /not JSON/.test(e.message),
    );
    assert.throws(() => ProgramSourceMap.parse({ version: 2, mappings: '' }), /unsupported source map version 2/);
    assert.throws(() => ProgramSourceMap.parse({ version: 3 }), /no "mappings"/);
    assert.throws(() => ProgramSourceMap.parse({ version: 3, sources: ['a'], mappings: 'ACAA' }), /refers to source 1, but the map lists 1/);
  });

  it('Puya maps: .py lines, subroutines and errors by pc; only mapped instructions answer', function () {
    if (!existsSync(HELLO)) return this.skip();
    const found = findSourceMap(join(HELLO, 'out/HelloWorldContract.approval.teal'))!;
    assert.equal(found.path, join(HELLO, 'out/HelloWorldContract.approval.puya.map'));
    const m = found.map;
    assert.equal(m.kind, 'puya');
    assert.deepEqual(m.files, [join(HELLO, 'contract.py')]);
    assert.equal(m.at(52)?.line, 9, 'the router assert is on the @arc4.abimethod line (0-based 9)');
    assert.equal(m.errorAt(52), 'invalid number of bytes for arc4.dynamic_array<arc4.uint8>');
    assert.equal(subroutineShortName(m.subroutineAt(52)!), 'HelloWorldContract.hello[routing]');
    assert.equal(m.at(0), undefined, 'the version byte has no source');
    assert.deepEqual(m.pcsAtLine(join(HELLO, 'contract.py'), 11), [56, 65, 66], 'return "Hello, " + name');
    assert.ok(m.linesWithCode().get(0)!.has(11));
    // From the .py: the maps in Puya's out/ folder, with their TEAL and spec.
    const forPy = sourceMapsFor(join(HELLO, 'contract.py'));
    assert.deepEqual(
      forPy.map((f) => [f.program, f.teal, f.spec]),
      [['approval', join(HELLO, 'out/HelloWorldContract.approval.teal'), join(HELLO, 'out/HelloWorldContract.arc56.json')]],
    );
  });

  it('Puya maps with op_pc_offset count from after the constant blocks (bytes or a trace give the base)', function () {
    if (!existsSync(POA)) return this.skip();
    const m = ProgramSourceMap.parse(readFileSync(join(POA, 'ProofOfAttendance.approval.puya.map'), 'utf8'));
    assert.equal(m.opPcOffset, 2);
    assert.equal(m.needsBase, true);
    // The recorded run: intcblock at pc 1, bytecblock at 7, first instruction at 66.
    assert.equal(m.baseFor({ tracePcs: [1, 7, 66, 68] }), 66);
    // Program bytes: version, intcblock 1 0, bytecblock 1 "a", then the code.
    assert.equal(m.baseFor({ bytes: new Uint8Array([10, 0x20, 1, 0, 0x26, 1, 1, 0x61, 0x31, 0x18]) }), 8);
    assert.equal(m.at(66 + 369, 66)?.line, 23, 'assert self.total_attendees < self.max_attendees (0-based 23)');
    assert.equal(m.event(66 + 369, 66)?.op, 'assert // Max attendees reached');
  });
});
