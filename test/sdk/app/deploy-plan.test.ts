import { strict as assert } from 'node:assert';
import { fromUtf8, utf8 } from '../../../sdk/src/encoding/bytes.js';
import { decodeDeployNote, encodeDeployNote, isDeployNote } from '../../../sdk/src/app/deploy-note.js';
import {
  assertDeployable,
  indexDeployments,
  planDeploy,
  requiredExtraPages,
  type DesiredApp,
  type ExistingDeployment,
  type OnChainApp,
  type OnSchemaBreak,
  type OnUpdate,
} from '../../../sdk/src/app/deploy-plan.js';
import { DeployNoteError, DeployPlanError } from '../../../sdk/src/app/errors.js';

const A = new Uint8Array([0x0a, 0x81, 0x01, 0x43]);
const B = new Uint8Array([0x0a, 0x81, 0x02, 0x43]);
const C = new Uint8Array([0x0a, 0x81, 0x01]);
const schema = { globalInts: 1, globalBytes: 1, localInts: 0, localBytes: 0 };

function desired(over: Partial<DesiredApp> = {}): DesiredApp {
  return { name: 'counter', version: '2.0', updatable: true, deletable: true, approval: A, clear: C, schema, ...over };
}
function deployment(over: Partial<ExistingDeployment> = {}, meta: Partial<ExistingDeployment['metadata']> = {}): ExistingDeployment {
  const metadata = { name: 'counter', version: '1.0', updatable: true, deletable: true, ...meta };
  return { appId: 1001n, createdRound: 5n, updatedRound: 5n, deleted: false, metadata, createdMetadata: metadata, ...over };
}
function chain(over: Partial<OnChainApp> = {}): OnChainApp {
  return { approval: A, clear: C, schema, extraPages: 0, ...over };
}

describe('app/deploy-note', () => {
  it('writes the AlgoKit layout byte for byte', () => {
    const note = encodeDeployNote({ name: 'counter', version: '1.0', updatable: true, deletable: false });
    assert.equal(fromUtf8(note), 'ALGOKIT_DEPLOYER:j{"name":"counter","version":"1.0","updatable":true,"deletable":false}');
    assert.equal(fromUtf8(encodeDeployNote({ name: 'x', version: 'v1' })), 'ALGOKIT_DEPLOYER:j{"name":"x","version":"v1"}');
  });
  it('round-trips and reads notes written with other key orders', () => {
    const meta = { name: 'n', version: '3', updatable: false, deletable: true };
    assert.deepEqual(decodeDeployNote(encodeDeployNote(meta)), meta);
    assert.deepEqual(decodeDeployNote('ALGOKIT_DEPLOYER:j{"deletable":true,"name":"n","version":"3","updatable":false}'), meta);
  });
  it('ignores notes of other dApps and formats', () => {
    assert.equal(decodeDeployNote(undefined), undefined);
    assert.equal(decodeDeployNote('hello'), undefined);
    assert.equal(decodeDeployNote('ALGOKIT_DEPLOYER:u{"name":"x"}'), undefined);
    assert.equal(decodeDeployNote(new Uint8Array([0xff, 0xfe, 0x00])), undefined);
    assert.equal(isDeployNote(utf8('ALGOKIT_DEPLOYER:j{}')), true);
    assert.equal(isDeployNote('OTHER:j{}'), false);
  });
  it('rejects broken deploy notes', () => {
    assert.throws(() => decodeDeployNote('ALGOKIT_DEPLOYER:j{"name":'), DeployNoteError);
    assert.throws(() => decodeDeployNote('ALGOKIT_DEPLOYER:j{"version":"1"}'), /name/);
    assert.throws(() => decodeDeployNote('ALGOKIT_DEPLOYER:j{"name":"a","updatable":"yes"}'), /updatable/);
    assert.throws(() => encodeDeployNote({ name: '', version: '1' }), DeployNoteError);
    assert.throws(() => encodeDeployNote({ name: 'x'.repeat(1100), version: '1' }), /1024/);
  });
});

describe('app/deploy-plan', () => {
  it('counts extra pages exactly at page boundaries', () => {
    assert.equal(requiredExtraPages(new Uint8Array(2000), new Uint8Array(48)), 0);
    assert.equal(requiredExtraPages(new Uint8Array(2000), new Uint8Array(49)), 1);
    assert.equal(requiredExtraPages(new Uint8Array(8192), new Uint8Array(0)), 3);
  });

  it('indexes deployments by name, latest creation winning, update notes overriding', () => {
    const note = (name: string, version: string) => encodeDeployNote({ name, version, updatable: true });
    const { byName, problems } = indexDeployments([
      { appId: 20n, createdRound: 9n, creationNote: note('a', '2') },
      { appId: 10n, createdRound: 3n, creationNote: note('a', '1') },
      { appId: 11n, createdRound: 4n, creationNote: note('b', '1'), latestNote: note('b', '5'), updatedRound: 8n, deleted: true },
      { appId: 12n, createdRound: 4n, creationNote: 'plain note' },
      { appId: 13n, createdRound: 4n, creationNote: 'ALGOKIT_DEPLOYER:j{oops' },
    ]);
    assert.equal(byName.get('a')!.appId, 20n);
    assert.equal(byName.get('b')!.metadata.version, '5');
    assert.equal(byName.get('b')!.createdMetadata.version, '1');
    assert.equal(byName.get('b')!.updatedRound, 8n);
    assert.equal(byName.get('b')!.deleted, true);
    assert.equal(byName.size, 2);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /app 13/);
  });

  it('creates when nothing is deployed, and when the deployment was deleted', () => {
    const p = planDeploy(desired(), undefined);
    assert.equal(p.action, 'create');
    assert.equal(fromUtf8(p.note), 'ALGOKIT_DEPLOYER:j{"name":"counter","version":"2.0","updatable":true,"deletable":true}');
    const d = planDeploy(desired(), { deployment: deployment({ deleted: true }), onChain: chain({ approval: B }) });
    assert.equal(d.action, 'create');
    assert.match(d.reason, /deleted/);
  });

  it('does nothing when programs match and the schema fits (even if smaller is asked)', () => {
    for (const onUpdate of ['fail', 'update', 'replace', 'append'] as OnUpdate[]) {
      const p = planDeploy(
        desired({ schema: { ...schema, globalInts: 0 } }),
        { deployment: deployment(), onChain: chain() },
        { onUpdate, onSchemaBreak: 'fail' },
      );
      assert.equal(p.action, 'nothing');
      assert.equal(p.note.length, 0);
    }
  });

  const updateTable: Array<[OnUpdate, string]> = [
    ['fail', 'fail'],
    ['update', 'update'],
    ['replace', 'replace'],
    ['append', 'append'],
  ];
  for (const [onUpdate, action] of updateTable) {
    it(`code change with onUpdate=${onUpdate} → ${action}`, () => {
      for (const change of [{ approval: B }, { clear: A }]) {
        const p = planDeploy(desired(), { deployment: deployment(), onChain: chain(change) }, { onUpdate });
        assert.equal(p.action, action);
        assert.deepEqual(p.warnings, []);
        if (p.action === 'update') assert.equal(p.appId, 1001n);
        if (p.action === 'replace') assert.equal(p.deleteAppId, 1001n);
        if (p.action === 'fail' || p.action === 'replace' || p.action === 'append') assert.equal(p.trigger, 'update');
      }
    });
  }

  it('defaults to fail on a code change', () => {
    const p = planDeploy(desired(), { deployment: deployment(), onChain: chain({ approval: B }) });
    assert.equal(p.action, 'fail');
    assert.throws(
      () => assertDeployable(p),
      (e: unknown) => e instanceof DeployPlanError && e.trigger === 'update' && e.appId === 1001n,
    );
  });

  it('still plans update/replace of apps marked immutable, with a warning', () => {
    const u = planDeploy(desired(), { deployment: deployment({}, { updatable: false }), onChain: chain({ approval: B }) }, { onUpdate: 'update' });
    assert.equal(u.action, 'update');
    assert.match(u.warnings[0]!, /not updatable/);
    const unknown = planDeploy(desired(), { deployment: deployment({}, { updatable: undefined }), onChain: chain({ approval: B }) }, { onUpdate: 'update' });
    assert.match(unknown.warnings[0]!, /not known to be updatable/);
    const r = planDeploy(desired(), { deployment: deployment({}, { deletable: false }), onChain: chain({ approval: B }) }, { onUpdate: 'replace' });
    assert.equal(r.action, 'replace');
    assert.match(r.warnings[0]!, /not deletable/);
  });

  const breakTable: Array<[OnSchemaBreak, string]> = [
    ['fail', 'fail'],
    ['replace', 'replace'],
    ['append', 'append'],
  ];
  for (const [onSchemaBreak, action] of breakTable) {
    it(`schema break with onSchemaBreak=${onSchemaBreak} → ${action}, whatever onUpdate says`, () => {
      for (const field of ['globalInts', 'globalBytes', 'localInts', 'localBytes'] as const) {
        for (const onUpdate of ['update', 'fail'] as OnUpdate[]) {
          const p = planDeploy(
            desired({ schema: { ...schema, [field]: schema[field] + 1 } }),
            { deployment: deployment(), onChain: chain({ approval: B }) },
            { onUpdate, onSchemaBreak },
          );
          assert.equal(p.action, action, field);
          assert.match(p.reason, new RegExp(field));
          if (p.action === 'fail' || p.action === 'replace' || p.action === 'append') assert.equal(p.trigger, 'schema-break');
        }
      }
    });
  }

  it('treats needing more extra pages as a schema break', () => {
    const big = new Uint8Array(3000);
    const p = planDeploy(
      desired({ approval: big }),
      { deployment: deployment(), onChain: chain({ approval: big, extraPages: 0 }) },
      { onSchemaBreak: 'append' },
    );
    assert.equal(p.action, 'append');
    assert.match(p.reason, /extraPages 0 → 1/);
    assert.equal(p.extraPages, 1);
    const ok = planDeploy(desired({ approval: big }), { deployment: deployment(), onChain: chain({ approval: big, extraPages: 2 }) });
    assert.equal(ok.action, 'nothing');
  });

  it('warns when replacing on a schema break an app not known deletable', () => {
    const p = planDeploy(
      desired({ schema: { ...schema, localInts: 3 } }),
      { deployment: deployment({}, { deletable: undefined }), onChain: chain() },
      { onSchemaBreak: 'replace' },
    );
    assert.equal(p.action, 'replace');
    assert.equal(p.warnings.length, 1);
  });

  it('rejects bad input with specific errors', () => {
    assert.throws(() => planDeploy(desired({ extraPages: 4 }), undefined), /extraPages must be 0..3/);
    assert.throws(() => planDeploy(desired({ approval: new Uint8Array(3000), extraPages: 0 }), undefined), /need 1 extra page/);
    assert.throws(() => planDeploy(desired({ schema: { ...schema, localInts: -1 } }), undefined), /schema.localInts/);
    assert.throws(() => planDeploy(desired(), undefined, { onUpdate: 'yes' as OnUpdate }), /onUpdate must be one of/);
    assert.throws(() => planDeploy(desired(), undefined, { onSchemaBreak: 'update' as OnSchemaBreak }), /onSchemaBreak must be one of/);
  });
});
