import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import algosdk from 'algosdk';
import { tealAbiMethods, tealMethodLines } from '../../../sdk/src/teal/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('teal: ARC-4 methods from `method "…"` lines', () => {
  it('reads the sample router: methods with selectors, the ARC-28 event apart', () => {
    const src = readFileSync(resolve(repoRoot, 'extension/sample/approval.teal'), 'utf8');
    const lines = tealMethodLines(src);
    assert.deepEqual(
      lines.map((l) => [l.kind, l.signature, l.selectorHex]),
      [
        ['method', 'increment(uint64)uint64', Buffer.from(algosdk.ABIMethod.fromSignature('increment(uint64)uint64').getSelector()).toString('hex')],
        ['method', 'get_count()uint64', Buffer.from(algosdk.ABIMethod.fromSignature('get_count()uint64').getSelector()).toString('hex')],
        ['event', 'Incremented(address,uint64)', createHash('sha512-256').update('Incremented(address,uint64)').digest('hex').slice(0, 8)],
      ],
    );
    const inc = lines[0]!;
    assert.equal(src.split('\n')[inc.line]!.slice(inc.start, inc.end), '"increment(uint64)uint64"');
    assert.deepEqual(
      tealAbiMethods(src).map((m) => m.signature),
      ['increment(uint64)uint64', 'get_count()uint64'],
    );
  });

  it('tuple returns, macro bodies, inner calls, duplicates and bad text', () => {
    const src = [
      '#pragma version 10',
      '#define SEL_PAIR method "pair()(uint64,bool)"',
      'txna ApplicationArgs 0',
      'SEL_PAIR; ==; bnz pair',
      'txna ApplicationArgs 0; method "pay_in(pay,uint64)void"; ==; bnz pay_in',
      'txna ApplicationArgs 0',
      'method "pay_in(pay,uint64)void"',
      '==',
      'itxn_begin',
      'method "other(uint64)void"',
      'itxn_field ApplicationArgs',
      'method "bad(foo)void"',
      'method "Evt(uint64)"',
      'byte "method \\"x()void\\""',
      'pair: pay_in: int 1',
    ].join('\n');
    const lines = tealMethodLines(src);
    assert.deepEqual(
      lines.map((l) => [l.kind, l.signature, l.inMacro]),
      [
        ['method', 'pair()(uint64,bool)', true],
        ['method', 'pay_in(pay,uint64)void', false],
        ['method', 'pay_in(pay,uint64)void', false],
        ['inner', 'other(uint64)void', false],
        ['invalid', 'bad(foo)void', false],
        ['event', 'Evt(uint64)', false],
      ],
    );
    const methods = tealAbiMethods(src);
    assert.deepEqual(
      methods.map((m) => m.signature),
      ['pair()(uint64,bool)', 'pay_in(pay,uint64)void'],
    );
    assert.equal(methods[1]!.args[0]!.kind, 'transaction');
  });
});
