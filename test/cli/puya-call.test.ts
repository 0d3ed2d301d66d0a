import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../sdk/src/cli/main.js';

// `tealworks call` on a Puya app deployed from its shipped TEAL: the failure names the `.py` line
// (the `.puya.map` beside the TEAL or the spec is found without flags) and the spec's message.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = resolve(repoRoot, '../shared/data/fixtures/puya-examples/struct_in_box/out');

describe('cli: failing calls on a Puya app name the .py line', function () {
  this.timeout(120_000);
  let cwd: string;
  before(function () {
    if (!existsSync(OUT)) return this.skip();
    cwd = mkdtempSync(join(tmpdir(), 'tealworks-puya-cli-'));
  });
  after(() => cwd && rmSync(cwd, { recursive: true, force: true }));

  async function cli(...args: string[]): Promise<{ code: number; out: string }> {
    let out = '';
    const code = await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (out += t), cwd });
    return { code, out };
  }

  it('deploy from the TEAL, then call get_user for a missing id, with --spec and with --source', async () => {
    const spec = ['--spec', `${OUT}/ExampleContract.arc56.json`];
    const d = await cli('deploy', `${OUT}/ExampleContract.approval.teal`, ...spec);
    assert.equal(d.code, 0, d.out);
    const id = /create: app (\d+)/.exec(d.out)?.[1];
    assert.ok(id, d.out);
    for (const extra of [[], ['--source', `${OUT}/ExampleContract.approval.teal`]]) {
      const r = await cli('call', id!, 'get_user', '99', ...spec, ...extra);
      assert.notEqual(r.code, 0, r.out);
      assert.match(r.out, /error: User with that id does not exist/);
      assert.ok(r.out.includes(`at ${resolve(OUT, '../contract.py')}:14:9  assert exists, "User with that id does not exist"`), r.out);
      assert.match(r.out, /call chain:\n {4}txn 0 {2}app \d+ \(ExampleContract\) {2}get_user\(uint64\)\(string,uint64,uint64\).*at contract\.py:14:9/);
    }
  });
});
