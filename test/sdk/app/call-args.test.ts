import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArc56 } from '../../../sdk/src/abi/arc56.js';
import { AbiMethod } from '../../../sdk/src/abi/method.js';
import { encodeMethodCall } from '../../../sdk/src/abi/method-call.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../sdk/src/encoding/base64.js';
import { uint64ToBytes, utf8 } from '../../../sdk/src/encoding/bytes.js';
import { CallArgsError, prepareMethodArgs, resolveMethod } from '../../../sdk/src/app/call-args.js';

const here = dirname(fileURLToPath(import.meta.url));
const base = JSON.parse(readFileSync(join(here, 'fixtures/sample.arc56.json'), 'utf8'));
const spec = parseArc56({
  ...base,
  methods: [
    ...base.methods,
    {
      name: 'register',
      args: [
        { type: 'pay', name: 'payment' },
        { type: '(uint64,string)', struct: 'User', name: 'user' },
        { type: 'byte[]', name: 'tag' },
        { type: 'uint64', name: 'fee', defaultValue: { source: 'literal', data: toBase64(uint64ToBytes(1000n)) } },
        { type: 'uint64', name: 'cap', defaultValue: { source: 'global', data: toBase64(utf8('cap')) } },
      ],
      returns: { type: 'void' },
      actions: { create: [], call: ['NoOp'] },
    },
  ],
});

describe('app/call-args', () => {
  it('resolves methods by name with a spec, by signature without', () => {
    assert.equal(resolveMethod('add', spec).method.signature, 'add(uint64,uint64)uint64');
    assert.ok(resolveMethod('add', spec).arc56);
    assert.equal(resolveMethod('other(uint64)void').method.signature, 'other(uint64)void');
    assert.equal(resolveMethod('other(uint64)void', spec).arc56, undefined);
    assert.throws(() => resolveMethod('add'), /needs a full signature/);
    assert.throws(() => resolveMethod('nope', spec), CallArgsError);
    assert.throws(() => resolveMethod('bad(uint7)void'), /invalid method signature/);
  });

  it('converts YAML-friendly values by type and encodes through encodeMethodCall', () => {
    const { method, arc56 } = resolveMethod('add', spec);
    const p = prepareMethodArgs(method, ['18446744073709551615', 2n], arc56);
    assert.deepEqual(p.values, [18446744073709551615n, 2n]);
    const enc = encodeMethodCall(method, p.values, { sender: Address.zero(), appId: 5n });
    assert.deepEqual(enc.appArgs[1], uint64ToBytes(18446744073709551615n));
  });

  it('handles structs, byte arrays, transaction arguments and defaults', () => {
    const { method, arc56 } = resolveMethod('register', spec);
    const p = prepareMethodArgs(method, [{ age: '30', nick: 'al' }, 'tag'], arc56);
    assert.deepEqual(p.transactionArgs, [0]);
    assert.equal(p.values[0], undefined);
    assert.deepEqual(p.values[1], { age: 30n, nick: 'al' });
    assert.deepEqual(p.values[2], utf8('tag'));
    assert.equal(p.values[3], 1000n);
    assert.deepEqual(p.pendingDefaults, [{ index: 4, source: 'global', data: toBase64(utf8('cap')) }]);
  });

  it('names the argument in errors', () => {
    const { method, arc56 } = resolveMethod('register', spec);
    assert.throws(
      () => prepareMethodArgs(method, [{ age: 1n, nick: 'x', extra: 1 }, 'x'], arc56),
      /argument 1 \(user\) of register: struct User has no field "extra"/,
    );
    assert.throws(
      () => prepareMethodArgs(method, [{ age: 1n, nick: 'x' }], arc56),
      (e: unknown) => e instanceof CallArgsError && e.argIndex === 2 && /argument 2 \(tag\) of register is missing/.test(e.message),
    );
    const add = resolveMethod('add', spec);
    assert.throws(() => prepareMethodArgs(add.method, [1n, 'x'], add.arc56), /argument 1 \(b\) of add: .*uint64/);
    assert.throws(() => prepareMethodArgs(add.method, [1n, 2n, 3n]), /takes 2 arguments/);
  });

  it('locates a bad value inside a struct or an array, and says a typed text is no number', () => {
    const { method, arc56 } = resolveMethod('register', spec);
    assert.throws(
      () => prepareMethodArgs(method, [{ age: 'thirty', nick: 'x' }, 'x'], arc56),
      (e: unknown) =>
        e instanceof CallArgsError &&
        e.argIndex === 1 &&
        e.path === '.age' &&
        /argument 1 \(user\) of register: .*at \.age.*expected a whole number, got "thirty"/.test(e.message),
    );
    const A = 'CUD246QOE6Z5PMJ4MIKPIHDAXVO32RAWAD4X3B2AQ7AXWJGQRCKWNAYB4M';
    const arr = AbiMethod.fromSignature('sum(uint64[],(uint8,address))void');
    assert.throws(
      () =>
        prepareMethodArgs(arr, [
          ['1', 'two'],
          ['1', A],
        ]),
      (e: unknown) => e instanceof CallArgsError && e.argIndex === 0 && e.path === '[1]',
    );
    assert.throws(
      () => prepareMethodArgs(arr, [['1'], ['300', A]]),
      (e: unknown) => e instanceof CallArgsError && e.argIndex === 1 && e.path === '[0]' && /out of range/.test(e.message),
    );
    const add = resolveMethod('add', spec);
    assert.throws(
      () => prepareMethodArgs(add.method, [1n, 'x'], add.arc56),
      (e: unknown) => e instanceof CallArgsError && e.path === '' && /expected a whole number, got "x"/.test(e.message),
    );
  });
});
