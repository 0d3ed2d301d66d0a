import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DapClient, repoRoot } from './dapClient.js';
import { replaceTemplateVariables } from '../../../sdk/src/teal/assembler/template.js';
import { templateLaunchText } from '../../../extension/src/contracts/templateForm.js';

// "Debug this group" on a program with TMPL_ placeholders (the walkthrough's sample): the trace
// names programs by hash, so the adapter must assemble the file with the values the group used.
describe('debug adapter over DAP: programs with template values', function () {
  this.timeout(120_000);
  let dap: DapClient | undefined;
  let dap2: DapClient | undefined;
  let dir = '';
  afterEach(async () => {
    await dap?.close();
    await dap2?.close();
    dap = dap2 = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lands a recorded run of the templated sample on its own source lines', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-dap-tmpl-'));
    const sample = resolve(repoRoot, 'extension/sample/approval.teal');
    const values = { TMPL_MAX_INCREMENT: 10n, TMPL_UPDATABLE: 1n, TMPL_DELETABLE: 0n };
    // Record a run of the substituted program (same lines), then replay it against the sample.
    const substituted = join(dir, 'approval.teal');
    writeFileSync(substituted, replaceTemplateVariables(readFileSync(sample, 'utf8'), values));
    dap = new DapClient();
    await dap.start({ program: substituted, debugCreate: true, stopOnEntry: true, cwd: repoRoot });
    await dap.stopped();
    const live = await dap.where();
    const trace = join(dir, 'run.trace.avm.json');
    assert.ok((await dap.request('tealworks/exportTrace', { path: trace })).success);

    dap2 = new DapClient();
    await dap2.start({ trace, programs: [sample], templates: { [sample]: templateLaunchText(values) }, stopOnEntry: true, cwd: repoRoot });
    await dap2.stopped();
    const replay = await dap2.where();
    assert.equal(replay.line, live.line);
    assert.ok(live.line > 0);
    assert.equal(replay.frames[0]!.source?.path, sample);

    // Without the values the sample does not assemble: the frame has no source to show.
    const dap3 = new DapClient();
    try {
      await dap3.start({ trace, programs: [sample], stopOnEntry: true, cwd: repoRoot });
      await dap3.stopped();
      assert.notEqual((await dap3.where()).frames[0]!.source?.path, sample);
    } finally {
      await dap3.close();
    }
  });

  it('writes template values for the launch configuration as decimal or 0x hex', () => {
    assert.deepEqual(templateLaunchText({ MAX: 10n, TMPL_NAME: 'hi', TMPL_DIGITS: '42', TMPL_KEY: new Uint8Array([1, 255]) }), {
      TMPL_MAX: '10',
      TMPL_NAME: '0x6869',
      TMPL_DIGITS: '42',
      TMPL_KEY: '0x01ff',
    });
  });
});
