import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevnet, type RunningDevnet } from '../../sdk/src/services/devnet/index.js';
import { runWorkflow } from '../../sdk/src/workflow/engine.js';

// A workflow step calling a Puya app deployed from its shipped TEAL: the failing step's report and
// its text name the .py line (the .puya.map beside the TEAL), the spec's message and the chain.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = resolve(repoRoot, '../shared/data/fixtures/puya-examples/struct_in_box/out');

describe('e2e: workflow steps failing in a Puya app name the .py line', function () {
  this.timeout(120_000);
  let devnet: RunningDevnet | undefined;
  let dir: string | undefined;
  before(async function () {
    if (!existsSync(OUT)) return this.skip();
    devnet = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 } });
    dir = mkdtempSync(join(tmpdir(), 'tealworks-puya-wf-'));
  });
  after(async () => {
    await devnet?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('get_user for a missing id fails at contract.py:14 with the spec message', async () => {
    const file = join(dir!, 'tealworks.yaml');
    writeFileSync(
      file,
      [
        'name: puya struct_in_box',
        'network: devnet',
        'accounts:',
        '  me: { generate: true, fund: 2_000_000 }',
        'contracts:',
        `  users: { approval: ${OUT}/ExampleContract.approval.teal, clear: ${OUT}/ExampleContract.clear.teal, spec: ${OUT}/ExampleContract.arc56.json }`,
        'steps:',
        '  - id: deploy',
        '    deploy: { contract: users, creator: me }',
        '  - id: missing',
        '    call: { app: "${{ steps.deploy.app-id }}", method: get_user, args: [99], sender: me }',
        '',
      ].join('\n'),
    );
    const s = await runWorkflow(file, { devnet: devnet! });
    assert.equal(s.ok, false);
    const step = s.steps.find((x) => x.id === 'missing')!;
    assert.equal(step.status, 'failed');
    const report = step.error!.report!;
    assert.equal(report.failure!.userSource!.file, resolve(OUT, '../contract.py'));
    assert.equal(report.failure!.userSource!.line, 14);
    assert.equal(report.failure!.errorMessage, 'User with that id does not exist');
    assert.match(step.error!.message, /User with that id does not exist \[contract\.py:14:9\]/);
    assert.match(
      step.error!.reportText!,
      /call chain:\n {4}txn 0 {2}app \d+ \(ExampleContract\) {2}get_user\(uint64\)\(string,uint64,uint64\).*at contract\.py:14:9/,
    );
  });
});
