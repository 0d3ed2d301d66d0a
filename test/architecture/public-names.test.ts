import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// One name per thing across the public surface: the round a transaction was confirmed in is
// `confirmedRound`, an application's account address is `appAddress`, the key-manager service
// (endpoint or client) is `keyManager`, the query (indexer-like) service is `query`. The retired
// synonyms (`round` on results, `address` on app clients, `kmd`, `indexer`) must not come back as
// members of exported types. Checked over the sources of every entry point sdk/package.json exports.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(repoRoot, 'sdk/package.json'), 'utf8')) as { exports: Record<string, unknown> };
const entries = Object.entries(pkg.exports)
  .filter(([, v]) => typeof v === 'object' && v !== null && 'types' in v)
  .map(([k]) => k)
  .map((k) => join(repoRoot, 'sdk/src', k === '.' ? 'index.ts' : `${k.slice(2)}/index.ts`));

/**
 * Exported types that describe a user-facing file format, kept as it is: the record in `devnet.lock` written
 * by a running devnet (read by other processes and tools), and a workflow YAML account's `kmd:`.
 */
const FILE_FORMATS = new Set(['RunningDevnetRecord', 'AccountSpec']);

/**
 * Round names: `latestRound` is the newest round a ledger, index or source holds. `lastRound` survives only in
 * types that mirror the node API's `last-round` (status, suggested parameters, simulate results) or end a
 * `firstRound`..`lastRound` range; `currentRound` only in types that mirror the query API's `current-round`.
 * The files that may declare them (wire shapes, named by the API they mirror):
 */
const ROUND_WIRE_NAMES: Record<string, readonly string[]> = {
  lastRound: [
    'sdk/src/adapters/node/types.ts', // NodeStatus, NodeSuggestedParams, SimulateResult: algod's `last-round`
    'sdk/src/adapters/node/errors.ts', // ConfirmationTimeoutError: the status `last-round` last seen
    'sdk/src/adapters/node/v1-model.ts', // V1Transaction: the /v1 node API's field of that name
    'sdk/src/adapters/node/node-service.ts', // AccountTransactionsQuery: the /v1 `firstRound`..`lastRound` range
    'sdk/src/app/simulate-report.ts', // SimulateReport: the simulate response's `last-round`
  ],
  currentRound: ['sdk/src/adapters/query/types.ts'],
};

/** Every exported name of the entry points. */
const exportedNames: string[] = [];

/** Every exported interface, class and object type alias of the entry points, with its member names. */
function exportedMembers(): Map<string, { file: string; members: Set<string> }> {
  const program = ts.createProgram(entries, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, { file: string; members: Set<string> }>();
  for (const file of entries) {
    const source = program.getSourceFile(file);
    assert.ok(source, `cannot load ${file}`);
    const mod = checker.getSymbolAtLocation(source);
    if (!mod) continue;
    for (const sym of checker.getExportsOfModule(mod)) {
      exportedNames.push(sym.getName());
      const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
      if (!(target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.TypeAlias))) continue;
      const decl = target.declarations?.[0];
      if (!decl) continue;
      const type = checker.getDeclaredTypeOfSymbol(target);
      // A member kept only as a `@deprecated` alias of its new name does not count.
      const members = new Set(
        checker
          .getPropertiesOfType(type)
          .filter((p) => !p.getJsDocTags().some((t) => t.name === 'deprecated'))
          .map((p) => p.getName()),
      );
      out.set(sym.getName(), { file: relative(repoRoot, decl.getSourceFile().fileName), members });
    }
  }
  return out;
}

describe('architecture: one name per thing in the public types', function () {
  this.timeout(120_000);
  let types: Map<string, { file: string; members: Set<string> }>;
  before(() => {
    types = exportedMembers();
  });
  const membersOf = (name: string): Set<string> => {
    const t = types.get(name);
    assert.ok(t, `${name} is not exported by any entry point`);
    return t.members;
  };

  it('finds the exported types (the check is not vacuous)', () => {
    assert.ok(types.size > 300, `only ${types.size} exported types found`);
  });

  it('results say `confirmedRound`, never `round`', () => {
    for (const name of ['AppCallResult', 'DeployResult', 'SentTxn', 'ConfirmedTransaction']) {
      const m = membersOf(name);
      assert.ok(m.has('confirmedRound'), `${name} has no confirmedRound`);
      assert.ok(!m.has('round'), `${name} still has round`);
    }
  });

  it("an app's account address is `appAddress` (app clients and deploy results)", () => {
    for (const name of ['AppClient', 'DeployResult']) {
      const m = membersOf(name);
      assert.ok(m.has('appAddress'), `${name} has no appAddress`);
      assert.ok(!m.has('address'), `${name} still has address`);
    }
  });

  it('the key-manager service is `keyManager` and the query service `query`', () => {
    for (const name of ['RunningDevnet', 'WorkflowNetwork', 'Tealworks', 'NetworkProfile']) {
      const m = membersOf(name);
      assert.ok(m.has('keyManager'), `${name} has no keyManager`);
      assert.ok(!m.has('kmd'), `${name} still has kmd`);
    }
    for (const name of ['RunningDevnet', 'Tealworks', 'NetworkProfile', 'AppChain']) assert.ok(membersOf(name).has('query'), `${name} has no query`);
    assert.ok(membersOf('DevnetPorts').has('keyManager'));
  });

  it('no exported type has a member named `kmd` or `indexer` (file formats aside)', () => {
    const bad: string[] = [];
    for (const [name, { file, members }] of types) {
      if (FILE_FORMATS.has(name)) continue;
      for (const retired of ['kmd', 'indexer']) if (members.has(retired)) bad.push(`${name}.${retired} (${file})`);
    }
    assert.deepEqual(bad, []);
  });

  it('no exported name spells the key manager `kmd` (its wire constants and classes say KeyManager)', () => {
    assert.ok(exportedNames.includes('KeyManagerClient') && exportedNames.includes('KeyManager'));
    assert.deepEqual([...new Set(exportedNames.filter((n) => /kmd/i.test(n)))], []);
  });

  it('rounds: `latestRound` is ours; `lastRound` and `currentRound` only where a type mirrors an API field', () => {
    for (const name of ['Ledger', 'QueryIndex', 'TxnIndex', 'FollowSource']) assert.ok(membersOf(name).has('latestRound'), `${name} has no latestRound`);
    const bad: string[] = [];
    for (const [name, { file, members }] of types) {
      for (const [member, files] of Object.entries(ROUND_WIRE_NAMES)) if (members.has(member) && !files.includes(file)) bad.push(`${name}.${member} (${file})`);
    }
    assert.deepEqual(bad, []);
  });
});
