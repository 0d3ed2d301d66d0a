import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArc56 } from '../../../sdk/src/abi/arc56.js';
import { AbiMethod } from '../../../sdk/src/abi/method.js';
import { argProblem, methodInfo } from '../../../extension/src/contracts/argForm.js';
import { buildGroup, FormError, subField } from '../../../extension/src/contracts/groupForm.js';
import { workflowDeployLinks } from '../../../extension/src/contracts/workflowLinks.js';
import { repoRoot } from '../../server/lspClient.js';

const A = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';
const params = { fee: 0n, minFee: 1000n, firstValid: 10n, lastValid: 1010n, genesisId: 'devnet-v1', genesisHash: new Uint8Array(32).fill(7) };

const structSpec = parseArc56({
  name: 'Shop',
  structs: {
    Item: [
      { name: 'sku', type: 'uint64' },
      { name: 'label', type: 'string' },
    ],
  },
  methods: [
    {
      name: 'buy',
      desc: 'Buys items for someone.',
      args: [
        { type: '(uint64,string)', struct: 'Item', name: 'item', desc: 'What to buy' },
        { type: 'uint64[]', name: 'counts' },
        { type: 'account', name: 'for', desc: 'Who receives it' },
        { type: 'uint16', name: 'priority', defaultValue: { source: 'literal', data: 'AAU=', type: 'uint16' } },
      ],
      returns: { type: 'void' },
      actions: { create: [], call: ['NoOp'] },
    },
  ],
  state: {
    schema: { global: { ints: 0, bytes: 0 }, local: { ints: 0, bytes: 0 } },
    keys: { global: {}, local: {}, box: {} },
    maps: { global: {}, local: {}, box: {} },
  },
  bareActions: { create: ['NoOp'], call: [] },
  arcs: [56],
});

describe('extension contracts: the typed method form (ARC-56 names, editors, validation)', () => {
  const m = structSpec.methods[0]!;

  it('describes arguments by ARC-56 name, type, description and default, with editors by type', () => {
    const info = methodInfo(m.method, m);
    assert.equal(info.desc, 'Buys items for someone.');
    assert.deepEqual(
      info.args.map((a) => [a.name, a.type, a.editor.kind]),
      [
        ['item', '(uint64,string)', 'struct'],
        ['counts', 'uint64[]', 'array'],
        ['for', 'account', 'text'],
        ['priority', 'uint16', 'text'],
      ],
    );
    const item = info.args[0]!;
    assert.equal(item.desc, 'What to buy');
    assert.ok(
      item.editor.kind === 'struct' &&
        item.editor.struct === 'Item' &&
        item.editor.fields.map((f) => `${f.name}:${f.type}`).join() === 'sku:uint64,label:string',
    );
    assert.ok(info.args[2]!.editor.kind === 'text' && info.args[2]!.editor.picker === 'account');
    assert.equal(info.args[3]!.defaultText, '5');
    const sample = parseArc56(readFileSync(resolve(repoRoot, 'extension/sample/counter.arc56.json'), 'utf8'));
    const inc = methodInfo(sample.methods[0]!.method, sample.methods[0]!);
    assert.deepEqual([inc.args[0]!.name, inc.args[0]!.defaultText, inc.returns?.desc], ['amount', '1', 'the new count']);
    assert.match(inc.args[0]!.desc!, /below the MAX_INCREMENT/);
  });

  it('says what is wrong with one field, and nothing for a good one or an empty one with a default', () => {
    assert.equal(argProblem(m.method, m, 0, '{"sku": 7, "label": "pen"}'), undefined);
    assert.match(argProblem(m.method, m, 0, '{"sku": 7, "colour": "red"}')!, /struct Item has no field "colour"/);
    assert.equal(argProblem(m.method, m, 1, '[1, 2, 3]'), undefined);
    assert.match(argProblem(m.method, m, 2, 'not-an-address')!, /address|account/i);
    assert.equal(argProblem(m.method, m, 3, ''), undefined, 'the literal default fills it');
    assert.match(argProblem(m.method, m, 3, '70000')!, /uint16|range|large|bits/i);
    const plain = AbiMethod.fromSignature('add(uint64,uint64)uint64');
    assert.match(argProblem(plain, undefined, 1, '')!, /missing and has no default/);
  });

  it("puts the group builder's error on the argument's own field", () => {
    const row = { kind: 'appcall' as const, sender: A, appId: '9', method: m.method.signature, args: ['{"sku": 1, "label": "x"}', '[1]', 'bad', '1'] };
    assert.throws(
      () => buildGroup([row], { params, specFor: () => structSpec }),
      (e: unknown) => e instanceof FormError && e.index === 0 && e.field === 'args.2',
    );
  });

  it('puts an error inside a struct or an array on that field or item of the typed form', () => {
    const row = { kind: 'appcall' as const, sender: A, appId: '9', method: m.method.signature, args: ['{"sku": "seven", "label": "x"}', '[1]', A, '1'] };
    assert.throws(
      () => buildGroup([row], { params, specFor: () => structSpec }),
      (e: unknown) => e instanceof FormError && e.field === 'args.0.sku' && /expected a whole number, got "seven"/.test(e.message),
    );
    const items = { ...row, args: ['{"sku": 7, "label": "x"}', '[1, "lots"]', A, '1'] };
    assert.throws(
      () => buildGroup([items], { params, specFor: () => structSpec }),
      (e: unknown) => e instanceof FormError && e.field === 'args.1.1',
    );
    assert.equal(subField('[2].owner[0]'), '.2.owner.0');
    assert.equal(subField(''), '');
  });

  it('links a workflow deploy with the approval and spec of its contract', () => {
    const yaml =
      'network: devnet\naccounts:\n  d: { generate: true, fund: 1_000_000 }\ncontracts:\n  counter:\n    approval: app/approval.teal\n    clear: app/clear.teal\n    spec: app/counter.arc56.json\nsteps:\n  - id: dep\n    deploy: { contract: counter, creator: d }\n';
    const links = workflowDeployLinks(yaml, '/ws/tealworks.yaml', { dep: { 'app-id': 1005n } });
    assert.deepEqual(links, [{ appId: 1005n, contract: 'counter', approval: '/ws/app/approval.teal', spec: '/ws/app/counter.arc56.json' }]);
    assert.deepEqual(workflowDeployLinks('not: [valid', '/ws/x.yaml', {}), []);
  });
});
