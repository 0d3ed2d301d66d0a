import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { decodeProgram, disassemble, disassembleDetailed } from '../../../../sdk/src/teal/disassembler/index.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import { hexToBytes, isAssembleError, sharedData, toHexString, withoutTypeTracking } from './assembler-bridge.js';
import { needShared } from '../../../helpers/shared.js';

const conformanceDir = resolve(sharedData, 'teal-conformance');
const sdkPrograms = resolve(sharedData, 'fixtures/algorand-sdk-testing/features/resources/programs');
const corpusDir = resolve(sharedData, 'teal-corpus');

const needData = needShared;

/** Disassembles, reassembles the text, and requires the same bytes back. */
function assertReassembles(program: Uint8Array, what: string): string {
  const text = disassemble(program);
  let again: Uint8Array;
  try {
    again = assemble(withoutTypeTracking(text)).program;
  } catch (e) {
    const detail = isAssembleError(e) ? e.diagnostics.map((d) => `${d.range.line + 1}:${d.range.column + 1}: ${d.message}`).join('\n') : String(e);
    assert.fail(`${what}: disassembly does not reassemble:\n${detail}\n--- text ---\n${text}`);
  }
  assert.equal(toHexString(again), toHexString(program), `${what}: reassembled bytes differ`);
  return text;
}

function tealFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, name.name);
    if (name.isDirectory()) out.push(...tealFiles(p));
    else if (name.name.endsWith('.teal')) out.push(p);
  }
  return out.sort();
}

describe('teal disassembler: conformance programs', function () {
  for (let v = 2; v <= 13; v++) {
    it(`v${v}.hex disassembles, one line per instruction`, function () {
      needData(this, conformanceDir);
      const program = hexToBytes(readFileSync(join(conformanceDir, `v${v}.hex`), 'utf8'));
      const d = disassembleDetailed(program);
      assert.equal(d.version, v);
      const lines = d.text.split('\n');
      assert.equal(lines[0], `#pragma version ${v}`);
      assert.equal(d.lines.length, decodeProgram(program).instructions.length);
      // Every line is a pragma, a label, or an instruction named by the opcode table.
      const names = new Set(d.decoded.instructions.map((i) => i.op.name));
      for (const line of lines.slice(1)) {
        if (line === '' || line.startsWith('#pragma ') || /^label\d+:$/.test(line)) continue;
        assert.ok(names.has(line.split(' ')[0]!), `unexpected line ${JSON.stringify(line)}`);
      }
    });
  }

  it('reassemble to the same bytes (all twelve versions)', function () {
    needData(this, conformanceDir);
    for (let v = 2; v <= 13; v++) {
      const program = hexToBytes(readFileSync(join(conformanceDir, `v${v}.hex`), 'utf8'));
      assertReassembles(program, `v${v}.hex`);
    }
  });

  it('assemble → disassemble → reassemble keeps the bytes for the conformance sources', function () {
    needData(this, conformanceDir);
    for (let v = 2; v <= 13; v++) {
      const program = assemble(readFileSync(join(conformanceDir, `v${v}.teal`), 'utf8')).program;
      assertReassembles(program, `v${v}.teal`);
    }
  });
});

describe('teal disassembler: sdk-testing programs', function () {
  it('every .teal.tok disassembles and reassembles to the same bytes', function () {
    needData(this, sdkPrograms);
    // box_app.teal.tok says v7 but uses box_create (a v8 opcode): it predates the final opcode
    // table, and the reference disassembler rejects it the same way.
    const stale = 'box_app.teal.tok';
    assert.throws(() => disassemble(new Uint8Array(readFileSync(join(sdkPrograms, stale)))), /invalid opcode b9 at pc=42/);
    const toks = readdirSync(sdkPrograms).filter((n) => n.endsWith('.teal.tok') && n !== stale);
    assert.ok(toks.length >= 10, `only ${toks.length} .tok files`);
    for (const name of toks) disassemble(new Uint8Array(readFileSync(join(sdkPrograms, name))));
    for (const name of toks) assertReassembles(new Uint8Array(readFileSync(join(sdkPrograms, name))), name);
  });
});

describe('teal disassembler: sdk-testing sources', function () {
  it('every .teal that assembles survives disassemble → reassemble', function () {
    needData(this, sdkPrograms);
    let checked = 0;
    for (const name of readdirSync(sdkPrograms).filter((n) => n.endsWith('.teal'))) {
      let program: Uint8Array;
      try {
        program = assemble(readFileSync(join(sdkPrograms, name), 'utf8')).program;
      } catch (e) {
        if (!isAssembleError(e)) throw e;
        continue; // invalid.teal is meant not to assemble
      }
      assertReassembles(program, name);
      checked++;
    }
    assert.ok(checked >= 15, `only ${checked} sources assembled`);
  });
});

describe('teal disassembler: teal-corpus programs', function () {
  this.timeout(20_000);
  it('assemble → disassemble → reassemble keeps the bytes', function () {
    needData(this, corpusDir);
    const files = tealFiles(corpusDir);
    let checked = 0;
    const refused: string[] = [];
    for (const file of files) {
      let program: Uint8Array;
      try {
        program = assemble(readFileSync(file, 'utf8')).program;
      } catch (e) {
        if (!isAssembleError(e)) throw e;
        refused.push(file.slice(corpusDir.length + 1));
        continue;
      }
      assertReassembles(program, file.slice(corpusDir.length + 1));
      checked++;
    }
    if (refused.length)
      console.log(`    (${refused.length} corpus programs did not assemble: ${refused.slice(0, 5).join(', ')}${refused.length > 5 ? ', …' : ''})`);
    assert.ok(checked >= files.length * 0.9, `only ${checked} of ${files.length} corpus programs assembled`);
  });
});
