import assert from 'node:assert/strict';
import { compileProgram } from '../../../sdk/src/avm/program.js';
import { assemble } from '../../../sdk/src/teal/index.js';

// Compiled programs are shared by content: each fresh test chain, fork or decoded transaction
// holds its own copy of an app's bytes, and none of them decodes the program again.
describe('avm: compiled programs shared by content', () => {
  const source = (n: number) => `#pragma version 10\nint ${n}\npushbytes "abc"\npop\nreturn`;

  it('the same bytes in another array give the same compiled program', () => {
    const bytes = assemble(source(424242)).program;
    const a = compileProgram(bytes, 'app');
    const b = compileProgram(bytes.slice(), 'app');
    assert.equal(b, a);
    // Other modes and limits are compiled on their own.
    assert.notEqual(compileProgram(bytes.slice(), 'logicsig'), a);
  });

  it('changing an array after it was compiled changes nothing another caller runs', () => {
    const bytes = assemble(source(515151)).program;
    const mine = bytes.slice();
    const compiled = compileProgram(mine, 'app');
    const before = compiled.code.filter(Boolean).map((i) => `${i!.name}:${i!.bigImm ?? ''}:${i!.bytes ? [...i!.bytes].join(',') : ''}`);
    mine.fill(0);
    const again = compileProgram(bytes.slice(), 'app');
    assert.equal(again, compiled);
    assert.deepEqual([...again.bytes], [...bytes]);
    assert.deepEqual(
      again.code.filter(Boolean).map((i) => `${i!.name}:${i!.bigImm ?? ''}:${i!.bytes ? [...i!.bytes].join(',') : ''}`),
      before,
    );
    assert.ok(
      before.some((t) => t.startsWith('pushbytes:') && t.endsWith('97,98,99')),
      before.join(' '),
    );
  });

  it('stays bounded: a program pushed out by many others is compiled again, correctly', () => {
    const first = assemble(source(1)).program;
    const compiled = compileProgram(first.slice(), 'app');
    for (let i = 2; i < 400; i++) compileProgram(assemble(source(i)).program, 'app');
    const again = compileProgram(first.slice(), 'app');
    assert.notEqual(again, compiled);
    assert.deepEqual([...again.bytes], [...first]);
  });

  it('a program that fails its checks is refused every time, from any array', () => {
    const bad = new Uint8Array([10, 0xff]);
    assert.throws(() => compileProgram(bad, 'app'));
    assert.throws(() => compileProgram(bad.slice(), 'app'));
  });
});
