import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { opByBytes, opByName, fieldsAt, opCost, staticCost, OPCODES } from '../../../sdk/src/teal/spec/opcodes.js';
import { needShared } from '../../helpers/shared.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const langspec = resolve(repo, '../shared/data/langspec');

describe('teal: opcode table', () => {
  it('is what the generator produces from the langspec files', function () {
    needShared(this, langspec);
    // Regenerate into a scratch copy of the repo layout and compare with the committed module.
    const scratch = mkdtempSync(join(tmpdir(), 'tw-gen-'));
    mkdirSync(join(scratch, 'scripts'));
    mkdirSync(join(scratch, 'sdk/src/teal/spec'), { recursive: true });
    copyFileSync(join(repo, 'scripts/gen-opcodes.ts'), join(scratch, 'scripts/gen-opcodes.ts'));
    execFileSync(process.execPath, ['--import', 'tsx', join(scratch, 'scripts/gen-opcodes.ts'), '--langspec', langspec], { cwd: repo, stdio: 'pipe' });
    const fresh = readFileSync(join(scratch, 'sdk/src/teal/spec/opcodes.generated.ts'), 'utf8');
    const committed = readFileSync(join(repo, 'sdk/src/teal/spec/opcodes.generated.ts'), 'utf8');
    assert.equal(fresh, committed, 'opcodes.generated.ts is stale: run `npm run gen:opcodes`');
  });

  it('tracks per-version changes of cost, size and encoding', () => {
    assert.equal(opByName('sha256', 1)!.cost, 7);
    assert.equal(opByName('sha256', 2)!.cost, 35);
    assert.equal(opByName('bnz', 12)!.size, 3);
    assert.equal(opByName('bnz', 13)!.immediates[0]!.encoding, 'varintLabel');
    assert.equal(opByName('ed25519verify', 4)!.modes, 1);
    assert.equal(opByName('ed25519verify', 5)!.modes, 3);
    assert.equal(opByName('box_get', 7), undefined);
    assert.equal(opByName('box_get', 8)!.opcode, 0xbe);
  });

  it('decodes two-byte opcodes', () => {
    assert.equal(opByBytes(13, 0xd4, 0x06)!.name, 'app_box_get');
    assert.equal(opByBytes(12, 0xd4, 0x06), undefined);
    assert.equal(opByBytes(13, 0x01)!.name, 'sha256');
  });

  it('gates fields by version and mode', () => {
    const txn = opByName('txn', 13)!;
    assert.ok(!fieldsAt(txn, 1).some((f) => f.name === 'ApplicationID'));
    assert.equal(fieldsAt(txn, 2).find((f) => f.name === 'ApplicationID')!.value, 24);
    const global = opByName('global', 13)!;
    assert.equal(global.spec.fields!.find((f) => f.name === 'CurrentApplicationID')!.modes, 2);
    const itxnField = opByName('itxn_field', 13)!;
    assert.equal(itxnField.spec.fields!.find((f) => f.name === 'Note')!.version, 6);
  });

  it('computes length-dependent and per-field costs', () => {
    assert.equal(
      opCost(opByName('sha512', 13)!.cost, undefined, () => 65),
      15 + 2 * 3,
    );
    assert.equal(
      opCost(opByName('ecdsa_verify', 13)!.cost, 'Secp256r1', () => 0),
      2500,
    );
    assert.equal(
      opCost(opByName('ec_pairing_check', 13)!.cost, 'BN254g1', (i) => (i === 1 ? 128 : 0)),
      8000 + 7400 * 2,
    );
    assert.equal(staticCost(opByName('json_ref', 13)!.cost), 25);
  });

  it('has unique opcode bytes within each version', () => {
    for (let v = 1; v <= 13; v++) {
      const seen = new Set<string>();
      for (const op of OPCODES) {
        if (op.introduced > v) continue;
        const key = `${op.prefix ?? ''}:${op.opcode}`;
        assert.ok(!seen.has(key), `duplicate opcode ${key} at v${v}`);
        seen.add(key);
      }
    }
  });
});
