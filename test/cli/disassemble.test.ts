import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeMsgpack } from '../../sdk/src/encoding/msgpack.js';
import { programFromFileBytes } from '../../sdk/src/cli/commands/disassemble.js';
import { cli, cliProcess, tempDir } from './helpers.js';

const EIGHT = Uint8Array.from([0x08, 0x81, 0x08]);
const EIGHT_TEXT = '#pragma version 8\npushint 8\n';

describe('cli: tealworks disassemble', function () {
  const tmp = tempDir('disassemble');
  after(() => tmp.cleanup());

  function file(name: string, content: Uint8Array | string): string {
    writeFileSync(join(tmp.path, name), content);
    return name;
  }

  it('prints the TEAL of a binary program', async () => {
    const r = await cli(['disassemble', file('eight.teal.tok', EIGHT)], tmp.path);
    assert.deepEqual(r, { code: 0, stdout: EIGHT_TEXT, stderr: '' });
  });

  it('accepts hex, 0x-hex, base64 and msgpack LogicSig input', async () => {
    for (const [name, content] of [
      ['p.hex', '088108\n'],
      ['p0x.txt', '0x08 81 08'],
      ['p.b64', 'CIEI\n'],
      ['p.lsig', encodeMsgpack({ l: EIGHT })],
      ['p.stxn', encodeMsgpack({ lsig: { l: EIGHT }, txn: { type: 'pay' } })],
    ] as const) {
      const r = await cli(['disassemble', file(name, content)], tmp.path);
      assert.deepEqual(r, { code: 0, stdout: EIGHT_TEXT, stderr: '' }, name);
    }
    assert.equal(programFromFileBytes(new TextEncoder().encode('CIEI')).form, 'base64');
    assert.equal(programFromFileBytes(new TextEncoder().encode('0d8100')).form, 'hex');
    assert.equal(programFromFileBytes(new TextEncoder().encode('\n0d8100\n')).form, 'hex');
    // v9, v10 and v13 programs start with tab, LF or CR but are binary.
    assert.equal(programFromFileBytes(Uint8Array.from([0x0a, 0x31, 0x18, 0x41, 0x00, 0x03])).form, 'binary');
    assert.equal(programFromFileBytes(Uint8Array.from([0x0d, 0x81, 0x01])).form, 'binary');
  });

  it('writes the text with -o', async () => {
    const r = await cli(['disassemble', file('w.tok', EIGHT), '-o', 'w.teal'], tmp.path);
    assert.deepEqual(r, { code: 0, stdout: '', stderr: '' });
    assert.equal(readFileSync(join(tmp.path, 'w.teal'), 'utf8'), EIGHT_TEXT);
  });

  it('reports bad programs as FILE: message, exit 1', async () => {
    let r = await cli(['disassemble', file('bad.tok', Uint8Array.from([2, 0xff]))], tmp.path);
    assert.deepEqual(r, { code: 1, stdout: '', stderr: 'bad.tok: invalid opcode ff at pc=1\n' });
    r = await cli(['disassemble', file('src.teal', '#pragma version 8\nint 1\n')], tmp.path);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^src\.teal: this looks like TEAL source.*tealworks assemble/);
    r = await cli(['disassemble', file('empty.tok', new Uint8Array(0))], tmp.path);
    assert.deepEqual(r, { code: 1, stdout: '', stderr: 'empty.tok: file is empty\n' });
    r = await cli(['disassemble', 'missing.tok'], tmp.path);
    assert.deepEqual(r, { code: 1, stdout: '', stderr: 'missing.tok: cannot read: ENOENT\n' });
  });

  it('rejects bad usage with exit 2 and no stack trace', async () => {
    for (const [args, message] of [
      [['disassemble'], /missing input file/],
      [['disassemble', 'a', 'b'], /one input file expected/],
      [['disassemble', 'a', '--frobnicate'], /unknown option --frobnicate/],
      [['disassemble', 'a', '-o'], /-o needs a file name/],
    ] as const) {
      const r = await cli([...args], tmp.path);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Usage: tealworks disassemble/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  it('runs as a real process', async function () {
    this.timeout(60_000);
    const ok = await cliProcess(['disassemble', file('proc.tok', EIGHT)], tmp.path);
    assert.deepEqual(ok, { code: 0, stdout: EIGHT_TEXT, stderr: '' });
    const bad = await cliProcess(['disassemble', file('proc-bad.tok', Uint8Array.from([2, 0xff]))], tmp.path);
    assert.deepEqual(bad, { code: 1, stdout: '', stderr: 'proc-bad.tok: invalid opcode ff at pc=1\n' });
  });
});
