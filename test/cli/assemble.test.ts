import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import algosdk from 'algosdk';
import { substituteTemplates } from '../../sdk/src/cli/commands/assemble.js';
import { parseNodeSourceMap } from '../../sdk/src/teal/sourcemap.js';
import { cli, cliProcess, tempDir } from './helpers.js';
import { MAX_AVM_VERSION } from '../../sdk/src/teal/spec/versions.js';

function bytesOf(path: string): string {
  return Buffer.from(readFileSync(path)).toString('hex');
}

describe('cli: tealworks assemble', function () {
  const tmp = tempDir('assemble');
  after(() => tmp.cleanup());
  const at = (name: string): string => join(tmp.path, name);

  function file(name: string, content: string): string {
    writeFileSync(at(name), content);
    return name;
  }

  it('writes FILE.teal.tok by default and prints size and logicsig address', async () => {
    const r = await cli(['assemble', file('ok.teal', '#pragma version 8\nint 1\nreturn\n')], tmp.path);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(bytesOf(at('ok.teal.tok')), '08810143');
    const address = new algosdk.LogicSigAccount(Uint8Array.from([0x08, 0x81, 0x01, 0x43])).address().toString();
    assert.equal(r.stdout, `ok.teal: v8, 4 bytes written to ok.teal.tok\nlogicsig address: ${address}\n`);
  });

  it('honours -o, --version and writes node-format source maps', async () => {
    mkdirSync(at('out'), { recursive: true });
    const src = file('mapped.teal', 'int 1\nint 2; +\n  return\n');
    const r = await cli(['assemble', src, '--version', '8', '-o', 'out/m.bin', '--map', 'out/m.map'], tmp.path);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(bytesOf(at('out/m.bin')), '08810181020843');
    const map = JSON.parse(readFileSync(at('out/m.map'), 'utf8'));
    // The source is named relative to the map, as goal does.
    assert.deepEqual(map.sources, ['../mapped.teal']);
    assert.deepEqual(
      parseNodeSourceMap(map).map((e) => [e.pc, e.line, e.column]),
      [
        [1, 0, 0],
        [3, 1, 0],
        [5, 1, 7],
        [6, 2, 2],
      ],
    );
    // -m puts the map next to the output.
    const m = await cli(['assemble', src, '--version=8', '-m'], tmp.path);
    assert.equal(m.code, 0, m.stderr);
    assert.ok(existsSync(at('mapped.teal.tok.map')));
    assert.deepEqual(JSON.parse(readFileSync(at('mapped.teal.tok.map'), 'utf8')).sources, ['mapped.teal']);
  });

  it('prints every error as FILE:line:col: message (1-based) and exits 1 without output', async () => {
    const src = file('bad.teal', '#pragma version 8\nbyte "é"; int pya\n#define x int qq\nx\nbnz nowhere\n');
    const r = await cli(['assemble', src], tmp.path);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.ok(lines.includes('bad.teal:2:15: unable to parse "pya" as integer'), r.stderr);
    assert.ok(lines.includes('bad.teal:4:1: unable to parse "qq" as integer'), r.stderr);
    assert.ok(lines.includes('bad.teal:3:15: note: from macro x defined here'), r.stderr);
    assert.ok(
      lines.some((l) => /^bad\.teal:5:5: reference to undefined label "nowhere"$/.test(l)),
      r.stderr,
    );
    assert.match(lines[lines.length - 1]!, /^bad\.teal: 3 errors$/);
    assert.ok(!existsSync(at('bad.teal.tok')));
  });

  it('prints warnings with warning: and still succeeds', async () => {
    const r = await cli(['assemble', file('warn.teal', '#pragma version 4\nintcblock 1\nint 1\n')], tmp.path);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, 'warn.teal:3:5: warning: int 1 used with explicit intcblock. must pushint\n');
    assert.equal(bytesOf(at('warn.teal.tok')), '0420010181' + '01');
  });

  it('substitutes --tmpl values and reports positions in the original text', async () => {
    const src = file('tmpl.teal', '#pragma version 8\nint TMPL_AMOUNT; byte TMPL_NOTE; int zz\n// TMPL_AMOUNT stays in comments\n');
    let r = await cli(['assemble', src, '--tmpl', 'AMOUNT=1000', '--tmpl', 'TMPL_NOTE=0x0102', '--tmpl', 'SPARE=1'], tmp.path);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'tmpl.teal: warning: template TMPL_SPARE does not appear in the source\ntmpl.teal:2:38: unable to parse "zz" as integer\ntmpl.teal: 1 error\n',
    );
    writeFileSync(at('tmpl.teal'), '#pragma version 8\nint TMPL_AMOUNT; byte TMPL_NOTE; pop\n');
    r = await cli(['assemble', src, '--tmpl', 'AMOUNT=1000', '--tmpl', 'NOTE=0x0102', '-m'], tmp.path);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(bytesOf(at('tmpl.teal.tok')), '0881e807800201024' + '8');
    const entries = parseNodeSourceMap(readFileSync(at('tmpl.teal.tok.map'), 'utf8'));
    assert.deepEqual(
      entries.map((e) => [e.pc, e.line, e.column]),
      [
        [1, 1, 0],
        [4, 1, 17],
        [8, 1, 33],
      ],
    );
  });

  it('substituteTemplates leaves strings, comments and longer names alone', () => {
    const out = substituteTemplates('byte "TMPL_A"; int TMPL_A // TMPL_A\nint TMPL_AB; int xTMPL_A', new Map([['TMPL_A', '7']]));
    assert.equal(out.text, 'byte "TMPL_A"; int 7 // TMPL_A\nint TMPL_AB; int xTMPL_A');
    assert.deepEqual(out.unused, []);
  });

  it('rejects bad usage with exit 2', async () => {
    for (const [args, message] of [
      [['assemble'], /missing input file/],
      [['assemble', 'a.teal', '--version', '0'], new RegExp(`--version must be a whole number from 1 to ${MAX_AVM_VERSION}`)],
      [['assemble', 'a.teal', '--version', 'x'], /--version must be/],
      [['assemble', 'a.teal', '--tmpl', 'NOEQUALS'], /--tmpl wants NAME=VALUE/],
      [['assemble', 'a.teal', '--tmpl', '1X=2'], /--tmpl name "1X"/],
      [['assemble', 'a.teal', '--tmpl', 'A=1', '--tmpl', 'TMPL_A=2'], /given twice/],
      [['assemble', 'a.teal', '--map'], /--map needs a value/],
      [['assemble', 'a.teal', '--wat'], /unknown option --wat/],
      [['assemble', 'a.teal', 'b.teal'], /one input file expected/],
    ] as const) {
      const r = await cli([...args], tmp.path);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Usage: tealworks assemble/);
    }
    const missing = await cli(['assemble', 'nope.teal'], tmp.path);
    assert.deepEqual(missing, { code: 1, stdout: '', stderr: 'nope.teal: cannot read: ENOENT\n' });
  });

  it('lists assemble and disassemble in help', async () => {
    const r = await cli(['help'], tmp.path);
    assert.match(r.stdout, /^ {2}assemble +Compile TEAL/m);
    assert.match(r.stdout, /^ {2}disassemble +Turn program bytes/m);
  });

  it('round-trips through the real binary: assemble, disassemble, reassemble', async function () {
    this.timeout(60_000);
    const source = '#pragma version 10\ntxn ApplicationID\nbz create\nint 1\nreturn\ncreate:\nbyte "hello"\nlog\nint 1\n';
    file('app.teal', source);
    const a = await cliProcess(['assemble', 'app.teal'], tmp.path);
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, /^app\.teal: v10, \d+ bytes written to app\.teal\.tok\nlogicsig address: [A-Z2-7]{58}\n$/);
    const d = await cliProcess(['disassemble', 'app.teal.tok', '-o', 'back.teal'], tmp.path);
    assert.deepEqual(d, { code: 0, stdout: '', stderr: '' });
    const again = await cli(['assemble', 'back.teal'], tmp.path);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(bytesOf(at('back.teal.tok')), bytesOf(at('app.teal.tok')));
    const bad = await cliProcess(['assemble', file('p-bad.teal', '#pragma version 8\nint\n')], tmp.path);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, 'p-bad.teal:2:4: int expects 1 immediate argument\np-bad.teal: 1 error\n');
  });
});
