import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Tealworks } from '@tealworks/sdk';
import { generateAppClient } from '../../../sdk/src/client/codegen.js';
import { loadAppSpec } from '../../../sdk/src/abi/arc56.js';

// Issue 27: a generated typed client deploys for real. The State contract of AlgoKit's test
// fixtures has an ABI create-only method (create_abi) and an ABI update method (update_abi); the
// client `tealworks generate client` writes for it creates the app through create_abi, then
// updates it through update_abi when the program changes, on a devnet. (Before the fix, createAbi
// was an ordinary call — "err opcode executed" — and updateAbi sent an empty program.)

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const specPath = join(repoRoot, 'test/sdk/abi/fixtures/public/State.arc56.json');

interface DeployedState {
  appId: bigint;
  deployment?: { action: string; returnValue?: unknown; confirmedRound?: bigint; appId: bigint };
  app: { call<T>(method: string, args: unknown[]): Promise<{ returnValue?: T }> };
  callAbi(args: { value: string }): Promise<{ returnValue?: string }>;
}
interface StateClientClass {
  deploy(tw: Tealworks, params: Record<string, unknown>): Promise<DeployedState>;
  fromCreatorAndName(tw: Tealworks, creator: unknown): Promise<DeployedState>;
}

describe('client: a generated typed client deploys (create, then update) on the devnet', function () {
  this.timeout(120_000);
  let dir: string;
  let tw: Tealworks;
  let StateClient: StateClientClass;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-codegen-deploy-'));
    // The generated module imports '@tealworks/sdk'; from a temp folder that package is not
    // resolvable, so point it at the SDK source this test run uses (the same module instance).
    const code = generateAppClient(loadAppSpec(readFileSync(specPath, 'utf8')), { sourceName: 'State.arc56.json' }).replace(
      /from '@tealworks\/sdk'/g,
      `from ${JSON.stringify(pathToFileURL(join(repoRoot, 'sdk/src/index.ts')).href)}`,
    );
    assert.match(code, /export class StateClient/);
    writeFileSync(join(dir, 'State.ts'), code);
    StateClient = ((await import(pathToFileURL(join(dir, 'State.ts')).href)) as { StateClient: StateClientClass }).StateClient;
    tw = await Tealworks.connect.devnet({ inProcess: true });
  });
  after(async () => {
    await tw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('create_abi creates, a rerun does nothing, a new TMPL_VALUE updates through update_abi', async () => {
    const creator = tw.account.dispenser;
    const base = {
      creator,
      updatable: true,
      deletable: false,
      create: { method: 'createAbi', args: { input: 'first' } },
      update: { method: 'updateAbi', args: { input: 'second' } },
    };

    const created = await StateClient.deploy(tw, { ...base, template: { VALUE: 1 } });
    assert.equal(created.deployment?.action, 'create');
    assert.equal(created.deployment?.returnValue, 'first');
    assert.ok(created.appId > 0n);
    assert.ok((created.deployment?.confirmedRound ?? 0n) > 0n);
    // The app runs: an ordinary typed call answers.
    assert.equal((await created.callAbi({ value: 'there' })).returnValue, 'Hello, there');
    const firstProgram = (await tw.node.account(creator.address)).createdApps.find((a) => a.id === created.appId)!.params.approvalProgram;

    const again = await StateClient.deploy(tw, { ...base, template: { VALUE: 1 } });
    assert.equal(again.deployment?.action, 'nothing');
    assert.equal(again.appId, created.appId);

    const updated = await StateClient.deploy(tw, { ...base, template: { VALUE: 2 }, onUpdate: 'update' });
    assert.equal(updated.deployment?.action, 'update');
    assert.equal(updated.appId, created.appId, 'an update keeps the app id');
    assert.equal(updated.deployment?.returnValue, 'second');
    // The update carried the new program (TMPL_VALUE 2 in its int constants), not an empty one.
    const secondProgram = (await tw.node.account(creator.address)).createdApps.find((a) => a.id === created.appId)!.params.approvalProgram;
    assert.equal(secondProgram.length, firstProgram.length);
    assert.notDeepEqual(secondProgram, firstProgram);
    assert.equal((await updated.callAbi({ value: 'again' })).returnValue, 'Hello, again');

    const found = await StateClient.fromCreatorAndName(tw, creator);
    assert.equal(found.appId, created.appId);
  });
});
