// Writes the ARC-56 specs of the examples, with `sourceInfo` error messages taken from the
// `assert // message` comments at their program counters. Run after editing an example's TEAL:
//   npx tsx examples/specs.gen.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assemble } from '@tealworks/sdk/teal';
import { toBase64 } from '@tealworks/sdk/encoding';
import { utf8 } from '@tealworks/sdk/encoding';

const here = dirname(fileURLToPath(import.meta.url));
const b64 = (s: string) => toBase64(utf8(s));

function errors(file: string, vars: Record<string, bigint> = {}): Array<{ pc: number[]; errorMessage: string }> {
  const src = readFileSync(join(here, file), 'utf8');
  const { sourceMap } = assemble(src, { templateVars: vars });
  const lines = src.split('\n');
  const out: Array<{ pc: number[]; errorMessage: string }> = [];
  for (const m of sourceMap) {
    const c = /^\s*assert\s*\/\/\s*(.*)$/.exec(lines[m.use.line] ?? '');
    if (c && !m.definition) out.push({ pc: [m.pc], errorMessage: c[1]!.trim() });
  }
  return out;
}

const sourceInfo = (file: string, vars?: Record<string, bigint>) => ({
  approval: { sourceInfo: errors(file, vars), pcOffsetMethod: 'none' },
  clear: { sourceInfo: [], pcOffsetMethod: 'none' },
});
const noop = { create: [], call: ['NoOp'] };

const counter = {
  arcs: [4, 28, 56],
  name: 'Counter',
  desc: 'A counter with a box per caller.',
  structs: {},
  methods: [
    {
      name: 'increment',
      args: [{ type: 'uint64', name: 'amount' }],
      returns: { type: 'uint64', desc: 'the new count' },
      actions: noop,
      events: [
        {
          name: 'Incremented',
          args: [
            { type: 'address', name: 'caller' },
            { type: 'uint64', name: 'amount' },
          ],
        },
      ],
    },
    { name: 'get_count', args: [], returns: { type: 'uint64' }, actions: noop, readonly: true },
  ],
  state: {
    schema: { global: { ints: 1, bytes: 1 }, local: { ints: 0, bytes: 0 } },
    keys: {
      global: {
        count: { keyType: 'AVMString', valueType: 'uint64', key: b64('count') },
        owner: { keyType: 'AVMString', valueType: 'address', key: b64('owner') },
      },
      local: {},
      box: {},
    },
    maps: { global: {}, local: {}, box: { counts: { keyType: 'address', valueType: 'uint64', prefix: b64('c:') } } },
  },
  bareActions: { create: ['NoOp'], call: ['UpdateApplication', 'DeleteApplication'] },
  events: [
    {
      name: 'Incremented',
      args: [
        { type: 'address', name: 'caller' },
        { type: 'uint64', name: 'amount' },
      ],
    },
  ],
  templateVariables: {},
  sourceInfo: sourceInfo('counter/abi/counter.teal', { TMPL_UPDATABLE: 1n, TMPL_DELETABLE: 1n }),
};

const router = {
  arcs: [4, 28, 56],
  name: 'Router',
  desc: 'An ARC-4 router with deposits, an inner-payment withdrawal and per-account greeting counts.',
  structs: {},
  methods: [
    {
      name: 'hello',
      args: [{ type: 'string', name: 'name' }],
      returns: { type: 'string' },
      actions: noop,
      events: [{ name: 'Greeted', args: [{ type: 'string', name: 'name' }] }],
    },
    { name: 'deposit', args: [{ type: 'pay', name: 'payment' }], returns: { type: 'uint64', desc: 'total deposited' }, actions: noop },
    {
      name: 'withdraw',
      args: [
        { type: 'uint64', name: 'amount' },
        { type: 'account', name: 'to' },
      ],
      returns: { type: 'void' },
      actions: noop,
    },
  ],
  state: {
    schema: { global: { ints: 1, bytes: 1 }, local: { ints: 1, bytes: 0 } },
    keys: {
      global: {
        total: { keyType: 'AVMString', valueType: 'uint64', key: b64('total') },
        owner: { keyType: 'AVMString', valueType: 'address', key: b64('owner') },
      },
      local: { greetings: { keyType: 'AVMString', valueType: 'uint64', key: b64('greetings') } },
      box: {},
    },
    maps: { global: {}, local: {}, box: {} },
  },
  bareActions: { create: ['NoOp'], call: ['OptIn'] },
  events: [{ name: 'Greeted', args: [{ type: 'string', name: 'name' }] }],
  sourceInfo: sourceInfo('abi-router/router.teal'),
};

writeFileSync(join(here, 'counter/abi/counter.arc56.json'), JSON.stringify(counter, null, 2) + '\n');
writeFileSync(join(here, 'abi-router/router.arc56.json'), JSON.stringify(router, null, 2) + '\n');
console.log('wrote counter/abi/counter.arc56.json and abi-router/router.arc56.json');
