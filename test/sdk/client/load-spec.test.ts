// Specs read from files are parsed once per text: a test file that deploys the same contract on
// each fresh chain shares one parsed spec, and a changed file is read afresh.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec } from '../../../sdk/src/client/app-manager.js';

describe('client: loadSpec', () => {
  it('shares the parsed spec of a file by its text, and reads a changed file afresh', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-load-spec-'));
    try {
      const text = readFileSync('examples/counter/abi/counter.arc56.json', 'utf8');
      writeFileSync(join(dir, 'app.arc56.json'), text);
      const a = loadSpec('app.arc56.json', dir);
      const b = loadSpec(join(dir, 'app.arc56.json'));
      assert.equal(b, a, 'the same text: the same parsed spec');
      const json = JSON.parse(text) as { name: string };
      writeFileSync(join(dir, 'app.arc56.json'), JSON.stringify({ ...json, name: 'Renamed' }));
      const c = loadSpec('app.arc56.json', dir);
      assert.notEqual(c, a);
      assert.equal(c.name, 'Renamed');
      assert.equal(a.name, json.name, 'the earlier spec is unchanged');
      writeFileSync(join(dir, 'app.arc56.json'), '{ not json');
      assert.throws(() => loadSpec('app.arc56.json', dir), /app spec file .*app\.arc56\.json is not a valid app spec/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
