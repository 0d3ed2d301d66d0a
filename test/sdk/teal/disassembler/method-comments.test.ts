import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assemble, disassemble, disassembleDetailed, tealMethodLines } from '../../../../sdk/src/teal/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('disassembler: selectors commented with their methods', () => {
  const src = readFileSync(resolve(repoRoot, 'extension/sample/approval.teal'), 'utf8').replace(/TMPL_[A-Z_]+/g, '1');
  const program = assemble(src).program;
  const signatures = tealMethodLines(src).map((m) => m.signature);

  it('comments a pushed selector with `method "sig"` when the signature is known', () => {
    const text = disassembleDetailed(program, { methodSignatures: signatures }).text;
    assert.match(text, /^pushbytes 0x289e7621 \/\/ method "increment\(uint64\)uint64"$/m);
    assert.match(text, /^pushbytes 0x755f9589 \/\/ method "get_count\(\)uint64"$/m);
    assert.match(text, /^pushbytes 0xdfa71b35 \/\/ method "Incremented\(address,uint64\)"$/m);
    // Not a selector of a known method: the reference's comment stays.
    assert.match(text, /^bytec_2 \/\/ 0x151f7c75$/m);
    // Comments only: the text reassembles to the same bytes.
    assert.deepEqual(assemble(text).program, program);
  });

  it("without signatures the text is the reference's (the selector commented with its own hex)", () => {
    const text = disassemble(program);
    assert.match(text, /^pushbytes 0x289e7621 \/\/ 0x289e7621$/m);
  });

  it('names selectors in a bytec block use and in pushbytess (Puya routers)', () => {
    const router = [
      '#pragma version 10',
      'bytecblock 0x289e7621 0x01',
      'bytec_0',
      'pop',
      'pushbytess 0x289e7621 0x755f9589 0x0102',
      'pop',
      'pop',
      'pop',
      'int 1',
    ].join('\n');
    const p = assemble(router).program;
    const text = disassembleDetailed(p, { methodSignatures: ['increment(uint64)uint64', 'get_count()uint64'] }).text;
    assert.match(text, /^bytec_0 \/\/ method "increment\(uint64\)uint64"$/m);
    assert.match(text, /^pushbytess 0x289e7621 0x755f9589 0x0102 \/\/ method "increment\(uint64\)uint64", method "get_count\(\)uint64", 0x0102$/m);
    assert.deepEqual(assemble(text).program, p);
    assert.doesNotMatch(disassemble(p), /method/);
  });
});
