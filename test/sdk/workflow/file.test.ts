import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { isWorkflowFileName, loadWorkflow, parseWorkflow, resolveValue } from '../../../sdk/src/workflow/file.js';
import { WorkflowFileError } from '../../../sdk/src/workflow/errors.js';
import { toExprValue, type ExprScope } from '../../../sdk/src/workflow/expr.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, 'fixtures');
const read = (p: string) => readFileSync(join(fixtures, p), 'utf8');

function errorsOf(text: string) {
  return parseWorkflow(text, 'w.yaml').issues.filter((i) => i.severity === 'error');
}
function expectError(text: string, pattern: RegExp, line?: number, column?: number) {
  const errs = errorsOf(text);
  const hit = errs.find((e) => pattern.test(e.message));
  assert.ok(hit, `no error matching ${pattern}; got:\n${errs.map((e) => `${e.line}:${e.column} ${e.message}`).join('\n')}`);
  if (line !== undefined) assert.equal(hit.line, line, `line of ${hit.message}`);
  if (column !== undefined) assert.equal(hit.column, column, `column of ${hit.message}`);
}

const HEAD = 'accounts: { a: { generate: true } }\ncontracts: { c: { spec: c.json } }\n';

describe('workflow/file', () => {
  for (const name of readdirSync(join(fixtures, 'valid'))) {
    it(`accepts valid/${name}`, () => {
      const { workflow, issues } = parseWorkflow(read(`valid/${name}`), name);
      assert.deepEqual(
        issues.filter((i) => i.severity === 'error'),
        [],
      );
      assert.ok(workflow);
    });
  }

  it('builds a typed model with camelCase keys, bigint integers and default ids', () => {
    const w = loadWorkflow(read('valid/counter.workflow.yaml'), 'counter.workflow.yaml');
    assert.equal(w.name, 'counter demo');
    assert.deepEqual(w.network, { kind: 'named', name: 'devnet' });
    assert.equal(w.networkKey, 'devnet');
    assert.equal(w.accounts.deployer!.source, 'generate');
    assert.equal(w.accounts.deployer!.fund, 10_000_000n);
    assert.equal(w.accounts.alice!.source, 'mnemonic-env');
    assert.equal(w.accounts.alice!.mnemonicEnv, 'ALICE_MNEMONIC');
    assert.equal(w.accounts.treasury!.kmd!.wallet, 'unencrypted-default-wallet');
    assert.equal(w.contracts.counter!.appName, 'counter');
    assert.equal(w.contracts.counter!.template.FEE, 1000n);
    assert.deepEqual(
      w.steps.map((s) => s.id),
      ['deploy', 'fund-app', 'inc', 'step-4', 'step-5', 'g', 'step-7', 'step-8', 'step-9'],
    );
    const deploy = w.steps[0]!;
    assert.equal(deploy.kind, 'deploy');
    if (deploy.kind === 'deploy') {
      assert.equal(deploy.body.onUpdate, 'update');
      assert.equal(deploy.body.onSchemaBreak, 'fail');
      assert.equal(deploy.body.updatable, true);
    }
    const fund = w.steps[1]!;
    if (fund.kind === 'fund') assert.equal(fund.body.amount, 200_000n);
    const call = w.steps[2]!;
    if (call.kind === 'call') {
      assert.equal(call.body.app, '${{ steps.deploy.app-id }}');
      assert.deepEqual(call.body.boxes, ['counter', { name: "${{ concat('c', itob(1)) }}" }]);
    }
    assert.equal(w.steps[7]!.if, "${{ steps.inc.return > 3 && env.CI != 'true' }}");
    const custom = loadWorkflow(read('valid/custom-network.workflow.yaml'));
    assert.deepEqual(custom.network, {
      kind: 'custom',
      name: 'staging',
      node: 'https://node.example.org',
      query: 'https://query.example.org',
      tokenEnv: 'NODE_TOKEN',
    });
    assert.equal(custom.networkKey, 'staging');
    assert.deepEqual(custom.contracts.vault!.schema, { globalInts: 2n, localBytes: 1n });
  });

  it('resolves expressions in step bodies against a scope', () => {
    const w = loadWorkflow(read('valid/counter.workflow.yaml'));
    const scope = toExprValue({ steps: { deploy: { 'app-id': 77n } }, vars: w.vars, accounts: {}, env: {} }) as ExprScope;
    const call = w.steps[2]!;
    assert.equal(call.kind, 'call');
    const resolved = resolveValue(call.body, scope) as Record<string, unknown>;
    assert.equal(resolved.app, 77n);
    assert.deepEqual(resolved.args, [5n]);
    assert.deepEqual((resolved.boxes as unknown[])[1], { name: new Uint8Array([0x63, 0, 0, 0, 0, 0, 0, 0, 1]) });
  });

  it('maps run-time positions back to the file', () => {
    const w = loadWorkflow(read('valid/counter.workflow.yaml'), 'counter.workflow.yaml');
    const p = w.position(['steps', 2, 'call', 'method']);
    assert.deepEqual([p.file, p.line, p.column], ['counter.workflow.yaml', 26, 15]);
    // Offset 4 inside "${{ steps.deploy.app-address }}" (a quoted scalar) is the "s" of steps.
    const q = w.positionInString(['steps', 1, 'fund', 'to'], 4);
    assert.deepEqual([q.line, q.column], [21, 22]);
  });

  it('checks contract files relative to the workflow when asked', () => {
    const seen: string[] = [];
    const { issues } = parseWorkflow(read('valid/counter.workflow.yaml'), '/proj/counter.workflow.yaml', {
      fileExists: (p) => {
        seen.push(p);
        return p !== '/proj/contracts/clear.teal';
      },
    });
    assert.deepEqual(seen, ['/proj/contracts/counter.teal', '/proj/contracts/clear.teal', '/proj/counter.arc56.json']);
    const errs = issues.filter((i) => i.severity === 'error');
    assert.equal(errs.length, 1);
    assert.match(errs[0]!.message, /file not found: contracts\/clear\.teal/);
    assert.equal(errs[0]!.line, 14);
  });

  it('recognises workflow file names', () => {
    assert.ok(isWorkflowFileName('tealworks.yaml'));
    assert.ok(isWorkflowFileName('/x/y/deploy.workflow.yml'));
    assert.ok(!isWorkflowFileName('workflow.yaml'));
  });

  describe('reports every problem with line and column', () => {
    it('unknown keys, with a suggestion', () => expectError(read('invalid/unknown-key.yaml'), /unknown key "on-updates"; did you mean "on-update"\?/, 2, 40));
    it('unknown step kinds', () => expectError(read('invalid/unknown-kind.yaml'), /unknown key "deploi"; did you mean "deploy"\?/, 2, 5));
    it('wrong types', () => expectError(read('invalid/wrong-type.yaml'), /"many" is not valid here/, 2, 21));
    it('bad enum values', () => expectError(read('invalid/bad-enum.yaml'), /"update" is not one of "fail", "replace", "append"/, 4, 57));
    it('two step kinds in one step', () => expectError(read('invalid/two-kinds.yaml'), /has "fund" and "wait"; use exactly one/, 2, 5));
    it('missing steps', () => expectError(read('invalid/no-steps.yaml'), /missing "steps"/, 1, 1));
    it('contracts without code', () => expectError(read('invalid/contract-without-code.yaml'), /needs "approval" and "clear", or "spec"/, 1, 17));
    it('accounts with two key sources', () => expectError(read('invalid/account-two-sources.yaml'), /has "generate" and "keystore"/, 2, 6));
    it('unknown networks', () => expectError(read('invalid/bad-network.yaml'), /"moonnet" is not one of/, 1, 10));
    it('undefined accounts', () => expectError(HEAD + 'steps:\n  - deploy: { contract: c, creator: bob }\n', /unknown account "bob"/, 4, 37));
    it('undefined contracts', () => expectError(HEAD + 'steps:\n  - deploy: { contract: d, creator: a }\n', /unknown contract "d"; did you mean "c"\?/, 4, 25));
    it('receivers that are neither accounts nor addresses', () =>
      expectError(HEAD + 'steps:\n  - fund: { to: nobody, amount: 1 }\n', /"nobody" is neither a defined account nor a valid address/, 4, 17));
    it('duplicate step ids', () =>
      expectError('steps:\n  - id: x\n    wait: { rounds: 1 }\n  - id: x\n    wait: { rounds: 1 }\n', /duplicate step id "x" \(first used by step 1\)/, 4, 9));
    it('references to later steps', () =>
      expectError(HEAD + 'steps:\n  - assert: { that: "${{ steps.b.status }}" }\n  - id: b\n    wait: { rounds: 1 }\n', /step "b" runs after this one/, 4, 26));
    it('references to unknown steps', () =>
      expectError(
        HEAD + 'steps:\n  - id: dep\n    wait: { rounds: 1 }\n  - assert: { that: "${{ steps.deb.round }}" }\n',
        /no step with id "deb"; did you mean "dep"\?/,
        6,
        26,
      ));
    it('unknown step outputs', () =>
      expectError(
        HEAD + 'steps:\n  - id: d\n    deploy: { contract: c, creator: a }\n  - assert: { that: "${{ steps.d.app-idd == 1 }}" }\n',
        /a deploy step has no output "app-idd"; did you mean "app-id"\?/,
        6,
        26,
      ));
    it('unknown expression roots', () => expectError('steps:\n  - assert: { that: "${{ secret.x }}" }\n', /unknown name "secret"/, 2, 26));
    it('step results outside steps', () =>
      expectError('vars: { X: "${{ steps.a.status }}" }\nsteps:\n  - wait: { rounds: 1 }\n', /only be used inside steps/, 1, 17));
    it('expression syntax errors, at the character', () => expectError('steps:\n  - assert: { that: "${{ 1 == }}" }\n', /ends too early/, 2, 31));
    it('unquoted expressions inside flow mappings, with a hint', () =>
      expectError('steps:\n  - assert: { that: ${{ 1 }} }\n', /put \$\{\{ … \}\} expressions in quotes/, 2));
    it('duplicate keys', () => expectError('steps: []\nsteps: []\n', /[Mm]ap keys must be unique/, 2, 1));
    it('generated accounts on public networks', () =>
      expectError('network: testnet\naccounts: { a: { generate: true } }\nsteps:\n  - wait: { rounds: 1 }\n', /only works on devnet and localnet/, 2, 16));
    it('empty files', () => expectError('', /empty/));
    it('conditions with text around the expression', () =>
      expectError('steps:\n  - if: ${{ true }} or so\n    wait: { rounds: 1 }\n', /"if" must be a single/, 2, 9));
    it('each expression problem once', () => {
      const errs = errorsOf('steps:\n  - wait: { rounds: [ "${{ nope.x }}" ] }\n');
      assert.equal(errs.filter((e) => /unknown name "nope"/.test(e.message)).length, 1);
    });
    it('numbers where text is expected, with a quoting hint', () =>
      expectError(
        HEAD + 'steps:\n  - deploy: { contract: c, creator: a, version: 1.0 }\n',
        /expected a string, got an integer \(YAML read it as that; quote it to make it text\)/,
        4,
        49,
      ));
    it('several at once', () => {
      const errs = errorsOf(HEAD + 'steps:\n  - deploy: { contract: x, creator: y }\n  - wait: { rounds: -1 }\n  - bogus: 1\n');
      assert.ok(errs.length >= 4, errs.map((e) => e.message).join('\n'));
      assert.deepEqual(
        errs.map((e) => e.line),
        [...errs.map((e) => e.line)].sort((a, b) => a - b),
      );
    });
  });

  it('throws WorkflowFileError with all issues from loadWorkflow', () => {
    assert.throws(
      () => loadWorkflow(read('invalid/unknown-kind.yaml'), 'bad.yaml'),
      (e: unknown) => e instanceof WorkflowFileError && /bad\.yaml:2:5: error: unknown key "deploi"/.test(e.message) && e.issues.length >= 1,
    );
  });
});

describe('workflow schema (schemas/tealworks.schema.json)', () => {
  const repoRoot = resolve(here, '../../..');

  it('is the printed WORKFLOW_SCHEMA (regenerate: npx tsx sdk/src/workflow/print-schema.ts > schemas/tealworks.schema.json)', async () => {
    const { workflowSchemaJson } = await import('../../../sdk/src/workflow/print-schema.js');
    assert.equal(readFileSync(join(repoRoot, 'schemas/tealworks.schema.json'), 'utf8'), workflowSchemaJson());
  });

  it('describes every property (editors show the descriptions)', () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/tealworks.schema.json'), 'utf8'));
    const missing: string[] = [];
    const walk = (s: Record<string, unknown>, path: string) => {
      if (typeof s !== 'object' || s === null) return;
      const props = s.properties as Record<string, Record<string, unknown>> | undefined;
      for (const [k, v] of Object.entries(props ?? {})) {
        if (typeof v.description !== 'string' || v.description === '') missing.push(`${path}.${k}`);
        walk(v, `${path}.${k}`);
      }
      for (const key of ['items', 'additionalProperties']) if (typeof s[key] === 'object') walk(s[key] as Record<string, unknown>, `${path}.${key}`);
      for (const key of ['anyOf', 'oneOf']) ((s[key] as Record<string, unknown>[] | undefined) ?? []).forEach((b, i) => walk(b, `${path}.${key}[${i}]`));
      for (const [k, v] of Object.entries((s.definitions as Record<string, Record<string, unknown>> | undefined) ?? {})) {
        if (typeof v.description !== 'string') missing.push(`definitions.${k}`);
        walk(v, `definitions.${k}`);
      }
    };
    walk(schema, '$');
    assert.deepEqual(missing, []);
  });

  it('agrees with an independent JSON Schema validator on the fixtures', async function () {
    let Ajv: (new (opts: object) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown } }) | undefined;
    try {
      Ajv = ((await import('ajv')) as unknown as { default: typeof Ajv }).default;
    } catch {
      console.log('      (ajv is not installed; skipping the cross-check)');
      this.skip();
    }
    const validate = new Ajv!({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(repoRoot, 'schemas/tealworks.schema.json'), 'utf8')));
    for (const name of readdirSync(join(fixtures, 'valid'))) {
      const data = parseYaml(read(`valid/${name}`));
      assert.equal(validate(data), true, `${name}: ${JSON.stringify(validate.errors)}`);
    }
    for (const name of readdirSync(join(fixtures, 'invalid'))) {
      const text = read(`invalid/${name}`);
      const ours = errorsOf(text).length > 0;
      // Structural problems only: both must reject.
      assert.equal(ours, true, `${name}: our parser accepted it`);
      assert.equal(validate(parseYaml(text) ?? null), false, `${name}: ajv accepted it`);
    }
  });
});

describe('workflow/file resolveStepBody', () => {
  it('reports failing expressions with a file path that positionInString maps', async () => {
    const { resolveStepBody } = await import('../../../sdk/src/workflow/file.js');
    const { ExprPathError } = await import('../../../sdk/src/workflow/errors.js');
    const text =
      'accounts: { a: { generate: true } }\nsteps:\n  - id: x\n    wait: { rounds: 1 }\n  - call:\n      app: 1\n      sender: a\n      extra-fee: "${{ steps.x.round }}"\n';
    const w = loadWorkflow(text);
    const scope = toExprValue({ steps: { x: { status: 'done' } }, accounts: {}, env: {}, vars: {} }) as ExprScope;
    assert.throws(
      () => resolveStepBody(w.steps[1]!, scope),
      (e: unknown) => {
        assert.ok(e instanceof ExprPathError);
        assert.deepEqual(e.path, ['steps', 1, 'call', 'extra-fee']);
        const p = w.positionInString(e.path, e.offset);
        assert.deepEqual([p.line, p.column], [8, 23]);
        return true;
      },
    );
  });
});
