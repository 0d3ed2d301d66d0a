import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArc56 } from '../../../sdk/src/abi/arc56.js';
import { compileContract } from '../../../sdk/src/app/compile.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import {
  currentValue,
  fieldPrompt,
  missingFields,
  workflowTemplateValues,
  parseTemplateValue,
  templateFields,
  templateOptions,
  templateValueProblem,
  TemplateValueError,
} from '../../../extension/src/contracts/templateForm.js';
import { repoRoot } from '../../server/lspClient.js';

const sample = (f: string) => readFileSync(resolve(repoRoot, 'extension/sample', f), 'utf8');
const ADDR = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';

describe('extension contracts: the template-variable form', () => {
  const spec = parseArc56(sample('counter.arc56.json'));
  const approval = sample('approval.teal');
  const clear = sample('clear.teal');

  it('lists one field per placeholder, typed by the ARC-56 spec, flags last and as yes/no', () => {
    const fields = templateFields(approval, clear, spec);
    assert.deepEqual(
      fields.map((f) => [f.name, f.type, f.typeFrom]),
      [
        ['TMPL_MAX_INCREMENT', 'uint64', 'spec'],
        ['TMPL_UPDATABLE', 'bool', 'flag'],
        ['TMPL_DELETABLE', 'bool', 'flag'],
      ],
    );
    assert.match(fieldPrompt(fields[0]!), /TMPL_MAX_INCREMENT \(uint64 from the ARC-56 spec\): a whole number/);
    assert.match(fieldPrompt(fields[1]!), /may the creator update/);
  });

  it('prefills what the workspace remembered (with or without the prefix) and the spec value', () => {
    const withValue = parseArc56({
      ...JSON.parse(sample('counter.arc56.json')),
      templateVariables: { MAX_INCREMENT: { type: 'uint64', value: Buffer.from([0, 0, 0, 0, 0, 0, 0, 7]).toString('base64') } },
    });
    const [max] = templateFields(approval, clear, withValue, { MAX_INCREMENT: '12', TMPL_UPDATABLE: 'true' });
    assert.equal(max!.specValue, '7');
    assert.equal(max!.remembered, '12');
    assert.deepEqual(
      missingFields(templateFields(approval, clear, withValue, { TMPL_UPDATABLE: 'true' })).map((f) => f.name),
      ['TMPL_DELETABLE'],
    );
    const undeclared = templateFields('#pragma version 10\nint TMPL_OTHER\n', clear, spec);
    assert.deepEqual([undeclared[0]!.type, undeclared[0]!.undeclared], ['unknown', true]);
  });

  it('validates each field by its type, naming the field', () => {
    const u64 = { name: 'TMPL_MAX_INCREMENT', type: 'uint64' };
    assert.equal(parseTemplateValue(u64, ' 1_000 '), 1000n);
    assert.equal(templateValueProblem(u64, 'ten'), 'expected a whole number, got "ten"');
    assert.equal(templateValueProblem(u64, '18446744073709551616'), 'larger than 18446744073709551615 (the largest uint64)');
    assert.equal(templateValueProblem(u64, ''), 'a value is required');
    assert.equal(templateValueProblem({ name: 'TMPL_B', type: 'uint8' }, '256'), 'larger than 255 (the largest uint8)');
    assert.equal(parseTemplateValue({ name: 'TMPL_U', type: 'bool' }, 'yes'), true);
    assert.match(templateValueProblem({ name: 'TMPL_U', type: 'bool' }, 'maybe')!, /true or false/);
    assert.equal((parseTemplateValue({ name: 'TMPL_A', type: 'address' }, ADDR) as Uint8Array).length, 32);
    assert.match(templateValueProblem({ name: 'TMPL_A', type: 'address' }, 'nope')!, /not a valid address/);
    assert.deepEqual(parseTemplateValue({ name: 'TMPL_H', type: 'AVMBytes' }, '0x01ff'), new Uint8Array([1, 255]));
    assert.match(templateValueProblem({ name: 'TMPL_H', type: 'AVMBytes' }, '0x123')!, /even number/);
    assert.equal(parseTemplateValue({ name: 'TMPL_S', type: 'AVMBytes' }, 'hello'), 'hello');
    assert.match(templateValueProblem({ name: 'TMPL_F', type: 'byte[4]' }, 'abc')!, /exactly 4 bytes/);
    assert.equal(parseTemplateValue({ name: 'TMPL_X', type: 'unknown' }, '42'), 42n);
    assert.throws(
      () => templateOptions([{ name: 'TMPL_Q', type: 'uint64', typeFrom: 'spec' }], { TMPL_Q: 'x' }),
      (e: unknown) => e instanceof TemplateValueError && e.field === 'TMPL_Q',
    );
  });

  it('turns the form into compile options that assemble the sample exactly like substituting by hand', () => {
    const fields = templateFields(approval, clear, spec);
    const options = templateOptions(fields, { TMPL_MAX_INCREMENT: '10', TMPL_UPDATABLE: 'true', TMPL_DELETABLE: 'false' });
    assert.deepEqual(options, { template: { TMPL_MAX_INCREMENT: 10n }, updatable: true, deletable: false });
    const compiled = compileContract({ approval, clear, spec }, options);
    const byHand = assemble(
      approval.replace('int TMPL_MAX_INCREMENT', 'int 10').replace('int TMPL_UPDATABLE', 'int 1').replace('int TMPL_DELETABLE', 'int 0'),
    ).program;
    assert.deepEqual(compiled.approval.bytes, byHand);
    assert.throws(() => templateOptions(fields, { TMPL_UPDATABLE: 'true', TMPL_DELETABLE: 'false' }), /TMPL_MAX_INCREMENT: a value is required/);
  });

  it("takes defaults from the workflow that deploys the program (the sample's tealworks.yaml), after this workspace's answers", () => {
    const dir = resolve(repoRoot, 'extension/sample');
    const fromYaml = workflowTemplateValues(sample('tealworks.yaml'), dir, resolve(dir, 'approval.teal'));
    assert.deepEqual(fromYaml, { TMPL_MAX_INCREMENT: '10' });
    assert.deepEqual(workflowTemplateValues(sample('tealworks.yaml'), dir, resolve(dir, 'other.teal')), {});
    assert.deepEqual(workflowTemplateValues('contracts: [not: a map', dir, resolve(dir, 'approval.teal')), {});
    const fields = templateFields(approval, clear, spec, {}, fromYaml);
    const max = fields.find((f) => f.name === 'TMPL_MAX_INCREMENT')!;
    assert.equal(currentValue(max), '10');
    // Only the deploy flags are still missing; an answer given before wins over the workflow's.
    assert.deepEqual(
      missingFields(fields).map((f) => f.name),
      ['TMPL_UPDATABLE', 'TMPL_DELETABLE'],
    );
    assert.equal(currentValue(templateFields(approval, clear, spec, { MAX_INCREMENT: '7' }, fromYaml).find((f) => f.name === 'TMPL_MAX_INCREMENT')!), '7');
  });
});
