import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevnet, type RunningDevnet } from '../../../sdk/src/services/devnet/index.js';
import { abiToExpr, runWorkflow, type ProgressEvent } from '../../../sdk/src/workflow/engine.js';
import { mnemonicFromSeed } from '../../../sdk/src/crypto/mnemonic.js';
import { Address } from '../../../sdk/src/encoding/address.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('workflow/engine', function () {
  this.timeout(30_000);
  let devnet: RunningDevnet;
  let dir: string;
  before(async () => {
    devnet = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 } });
    dir = mkdtempSync(join(tmpdir(), 'tealworks-engine-'));
    for (const f of ['router.teal', 'clear.teal', 'router.arc56.json']) copyFileSync(join(repoRoot, 'examples/abi-router', f), join(dir, f));
  });
  after(async () => {
    await devnet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns ABI values into expression values', () => {
    assert.deepEqual(abiToExpr([1, 2n, true, 'x', { a: 3 }] as never), [1n, 2n, true, 'x', { a: 3n }]);
    const addr = new Address(new Uint8Array(32));
    assert.equal(abiToExpr(addr as never), addr.toString());
    assert.equal(abiToExpr(undefined), null);
  });

  it('skips steps whose condition is false, goes on after continue-on-error, passes rounds, uses every account source', async () => {
    const seed = new Uint8Array(32).fill(3);
    const file = join(dir, 'misc.workflow.yaml');
    writeFileSync(
      file,
      `network: devnet
vars: { GREETING: hi }
accounts:
  gen: { generate: true, fund: 3_000_000 }
  env-key: { mnemonic-env: TW_TEST_MNEMONIC, fund: 1_000_000 }
  wallet: { kmd: { wallet: unencrypted-default-wallet } }
  watch: { address: ${new Address(new Uint8Array(32).fill(5)).toString()} }
contracts:
  router: { approval: router.teal, clear: clear.teal, spec: router.arc56.json }
steps:
  - id: deploy
    deploy: { contract: router, creator: env-key }
  - id: skipped
    if: \${{ vars.GREETING == 'bye' }}
    fund: { to: watch, amount: 1 }
  - id: broken
    continue-on-error: true
    call: { app: "\${{ steps.deploy.app-id }}", method: withdraw, args: [5, gen], sender: gen }
  - id: greet
    call: { app: "\${{ steps.deploy.app-id }}", method: hello, args: ["\${{ vars.GREETING }}"], sender: wallet }
  - assert: { that: "\${{ steps.greet.return }}", equals: "Hello, hi" }
  - assert: { that: "\${{ steps.skipped.status }}", equals: skipped }
  - id: before
    read: { balance: watch }
  - id: w
    wait: { rounds: 2 }
  - id: after
    wait: { rounds: 0 }
  - assert: { that: "\${{ steps.after.round >= steps.w.round }}" }
`,
    );
    const events: ProgressEvent[] = [];
    const s = await runWorkflow(file, { devnet, env: { TW_TEST_MNEMONIC: mnemonicFromSeed(seed) }, onProgress: (e) => events.push(e) });
    assert.equal(s.error, undefined, s.error?.message);
    const st = Object.fromEntries(s.steps.map((x) => [x.id, x.status]));
    assert.equal(st.skipped, 'skipped');
    assert.equal(st.broken, 'failed');
    assert.match(s.steps.find((x) => x.id === 'broken')!.error!.message, /only the owner may withdraw/);
    assert.equal(st.greet, 'done');
    assert.equal(s.ok, true, 'continue-on-error keeps the run green');
    const round = (id: string) => (s.outputs[id] as Record<string, bigint>).round!;
    assert.ok(round('w') >= round('greet') + 2n, 'two rounds passed on the embedded devnet');
    assert.equal(events[0]!.type, 'start');
    assert.equal(events.at(-1)!.type, 'end');
    assert.equal(events.filter((e) => e.type === 'step-end').length, s.steps.length);
  });

  it('returns file problems with positions instead of running', async () => {
    const file = join(dir, 'bad.workflow.yaml');
    writeFileSync(file, 'steps:\n  - call: { app: 1, sender: ghost, method: "x()void" }\n');
    const s = await runWorkflow(file, { devnet });
    assert.equal(s.ok, false);
    assert.equal(s.steps.length, 0);
    assert.ok(s.error!.issues!.some((i) => i.line === 2 && /ghost/.test(i.message)));
  });

  it('points an expression that fails at run time to its place in the file', async () => {
    const file = join(dir, 'expr.workflow.yaml');
    writeFileSync(file, 'steps:\n  - id: w\n    wait: { rounds: 0 }\n  - assert:\n      that: "${{ int(\'x\') }}"\n');
    const s = await runWorkflow(file, { devnet });
    const failed = s.steps.find((x) => x.status === 'failed')!;
    assert.equal(failed.error!.position.line, 5);
    assert.ok(failed.error!.position.column > 13);
  });
});
