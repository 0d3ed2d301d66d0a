import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArc56 } from '../../../sdk/src/abi/arc56.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { appKnowledge, compileContract, ContractCompileError, desiredApp, templatePlaceholders } from '../../../sdk/src/app/compile.js';
import { planDeploy } from '../../../sdk/src/app/deploy-plan.js';

const here = dirname(fileURLToPath(import.meta.url));
const specJson = JSON.parse(readFileSync(join(here, 'fixtures/sample.arc56.json'), 'utf8'));
const APPROVAL = '#pragma version 10\n// TMPL_IGNORED in a comment\nint TMPL_FEE\npop\nint TMPL_UPDATABLE\nreturn\n';
const CLEAR = '#pragma version 10\nint 1\n';

describe('app/compile', () => {
  it('finds placeholders in code only', () => {
    assert.deepEqual(templatePlaceholders('int TMPL_A // TMPL_B\nbyte "TMPL_C"\nbyte TMPL_D'), ['TMPL_A', 'TMPL_D']);
  });

  it('gives each compile of the same TEAL its own equal program, source map and placeholder list', () => {
    const teal = '#pragma version 10\n#define ONE int 1\nONE\nint TMPL_X\npop\n';
    const a = compileContract({ approval: teal, clear: CLEAR }, { template: { X: 7n } });
    const b = compileContract({ approval: teal, clear: CLEAR }, { template: { X: 7n } });
    assert.deepEqual(b.approval.bytes, a.approval.bytes);
    assert.deepEqual(b.approval.pcMap, a.approval.pcMap);
    assert.ok(
      a.approval.pcMap!.some((m) => m.definition),
      'a macro use maps to its definition too',
    );
    a.approval.bytes[0] = 0xff;
    a.approval.pcMap![0]!.use.line = 99;
    const withDef = a.approval.pcMap!.find((m) => m.definition)!;
    withDef.definition!.line = 99;
    const c = compileContract({ approval: teal, clear: CLEAR }, { template: { X: 7n } });
    assert.deepEqual(c.approval.bytes, b.approval.bytes, 'a caller that changes its copy changes no later compile');
    assert.deepEqual(c.approval.pcMap, b.approval.pcMap);
    const found = templatePlaceholders(teal);
    found.push('TMPL_CHANGED');
    assert.deepEqual(templatePlaceholders(teal), ['TMPL_X']);
  });

  it('substitutes template variables and deploy-time permissions', () => {
    const c = compileContract({ approval: APPROVAL, clear: CLEAR, approvalName: 'a.teal' }, { template: { FEE: 1000n }, updatable: true });
    assert.deepEqual(c.approval.bytes, assemble('#pragma version 10\nint 1000\npop\nint 1\nreturn\n').program);
    assert.equal(c.approval.sourceName, 'a.teal');
    assert.ok(c.approval.pcMap!.length > 0);
    assert.equal(c.approval.sourceLines![4], 'int 1');
    const off = compileContract({ approval: APPROVAL, clear: CLEAR }, { template: { TMPL_FEE: 1000n }, updatable: false });
    assert.notDeepEqual(off.approval.bytes, c.approval.bytes);
  });

  it('names missing template values and permissions', () => {
    assert.throws(
      () => compileContract({ approval: APPROVAL, clear: CLEAR }, { updatable: true }),
      (e: unknown) => e instanceof ContractCompileError && /TMPL_FEE has no value/.test(e.message) && e.program === 'approval',
    );
    assert.throws(
      () => compileContract({ approval: APPROVAL, clear: CLEAR }, { template: { FEE: 1n } }),
      /TMPL_UPDATABLE is used, so the deploy must say "updatable"/,
    );
    assert.throws(() => compileContract({ approval: '#pragma version 10\nbogus_op\n', clear: CLEAR }), /approval program: .*bogus_op/);
  });

  it('uses the spec: source with template defaults, else byte code; schema from the spec', () => {
    const withSource = parseArc56({
      ...specJson,
      source: { approval: toBase64(utf8('#pragma version 10\nint TMPL_X\n')), clear: toBase64(utf8(CLEAR)) },
      templateVariables: { X: { type: 'AVMUint64', value: toBase64(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 7])) } },
    });
    const c = compileContract({ spec: withSource });
    // A bytes default is substituted as a byte constant; the program still assembles.
    assert.ok(c.approval.bytes.length > 0);
    assert.deepEqual(c.schema, { globalInts: 1, globalBytes: 1, localInts: 1, localBytes: 0 });
    const program = assemble('#pragma version 10\nint 1\n').program;
    const withCode = parseArc56({ ...specJson, byteCode: { approval: toBase64(program), clear: toBase64(program) } });
    const b = compileContract({ spec: withCode });
    assert.equal(b.approval.fromByteCode, true);
    assert.deepEqual(b.clear.bytes, program);
    assert.throws(() => compileContract({ spec: withCode }, { template: { X: 1n } }), /need TEAL source/);
    assert.throws(() => compileContract({ spec: parseArc56(specJson) }), /no TEAL source and no byte code/);
  });

  it('feeds the deploy plan and the simulate report', () => {
    const c = compileContract({ approval: APPROVAL, clear: CLEAR }, { template: { FEE: 1n }, updatable: true });
    const d = desiredApp(c, { name: 'x', version: '1', updatable: true }, { schema: { globalInts: 3 } });
    assert.equal(d.schema.globalInts, 3);
    assert.equal(planDeploy(d, undefined).action, 'create');
    const k = appKnowledge(c, 'x');
    assert.equal(k.approval!.pcMap, c.approval.pcMap);
  });
});
