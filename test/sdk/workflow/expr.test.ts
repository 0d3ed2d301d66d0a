import { strict as assert } from 'node:assert';
import { Address } from '../../../sdk/src/encoding/address.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { ExprError } from '../../../sdk/src/workflow/errors.js';
import { evaluate, interpolate, parseExpression, parseTemplate, references, toExprValue, type ExprScope } from '../../../sdk/src/workflow/expr.js';

const ALICE = Address.forApp(7n).toString();
const scope: ExprScope = toExprValue({
  steps: { deploy: { 'app-id': 1234n, 'app-address': 'X' }, inc: { return: 5n, logs: [utf8('hi'), new Uint8Array([1, 2])] } },
  accounts: { alice: { address: ALICE } },
  env: { X: 'ex', BIG: '18446744073709551615' },
}) as ExprScope;

const ev = (src: string) => evaluate(parseExpression(src), scope);

function throwsAt(src: string, offset: number, pattern: RegExp): void {
  assert.throws(
    () => ev(src),
    (e: unknown) => {
      assert.ok(e instanceof ExprError, String(e));
      assert.match(e.detail, pattern);
      assert.equal(e.offset, offset, `offset for ${src}: ${e.detail}`);
      return true;
    },
  );
}

describe('workflow/expr', () => {
  it('reads properties with dashed names, indexes and string keys', () => {
    assert.equal(ev('steps.deploy.app-id'), 1234n);
    assert.equal(ev("steps['deploy']['app-id']"), 1234n);
    assert.equal(ev('accounts.alice.address'), ALICE);
    assert.equal(ev('env.X'), 'ex');
    assert.deepEqual(ev('steps.inc.logs[1]'), new Uint8Array([1, 2]));
    assert.deepEqual(ev('steps.inc.logs.0'), utf8('hi'));
    assert.equal(ev('steps.inc.logs[1][1]'), 2n);
  });

  it('keeps integers exact beyond 2^53', () => {
    assert.equal(ev('18446744073709551615'), 18446744073709551615n);
    assert.equal(ev('int(env.BIG) == 18_446_744_073_709_551_615'), true);
    assert.equal(ev('0xff'), 255n);
  });

  it('compares and combines', () => {
    assert.equal(ev('steps.inc.return == 5'), true);
    assert.equal(ev('steps.inc.return != 5'), false);
    assert.equal(ev('steps.inc.return >= 5 && steps.inc.return < 6'), true);
    assert.equal(ev("!(env.X == 'ex') || false"), false);
    assert.equal(ev("null || 'fallback'"), 'fallback');
    assert.equal(ev("'a' < 'b'"), true);
    assert.equal(ev('[1, 2] == [1, 2]'), true);
    assert.equal(ev("hex('0102') == steps.inc.logs[1]"), true);
    // && short-circuits: the right side would fail.
    assert.equal(ev('false && steps.nope.x'), false);
  });

  it('has pure helper functions', () => {
    assert.equal(ev("len('héllo')"), 6n);
    assert.equal(ev('len(steps.inc.logs)'), 2n);
    assert.equal(toHex(ev('itob(258)') as Uint8Array), '0000000000000102');
    assert.equal(ev('btoi(itob(258))'), 258n);
    assert.equal(ev("concat('a', 'b')"), 'ab');
    assert.deepEqual(ev("concat('a', hex('00'))"), new Uint8Array([0x61, 0]));
    assert.equal(ev("to_hex(b64('AQI='))"), '0102');
    assert.equal(ev("to_b64(bytes('hi'))"), 'aGk=');
    assert.equal(ev('app_address(7)'), ALICE);
    assert.equal(ev('address(address_bytes(accounts.alice.address))'), ALICE);
    assert.equal(ev("to_hex(method('add(uint64,uint64)uint128'))"), '8aa3b61f');
    assert.equal(ev("contains(steps.inc.logs, bytes('hi'))"), true);
    assert.equal(ev("starts_with(env.X, 'e')"), true);
    assert.equal(ev("str(bytes('ok'))"), 'ok');
    assert.equal(to(ev("sha256('abc')")), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('reports errors with the offset of the offending part', () => {
    throwsAt('steps.deploy.appid', 0, /has no "appid"; it has app-id, app-address/);
    throwsAt('steps.nope', 0, /has no "nope"/);
    throwsAt('secrets.x', 0, /unknown name "secrets"/);
    throwsAt('1 == ', 5, /ends too early/);
    throwsAt('len(1, 2)', 0, /takes 1 argument/);
    throwsAt('eval(1)', 0, /unknown function eval/);
    throwsAt('1 < 2 < 3', 6, /do not chain/);
    throwsAt("itob('x')", 5, /needs an integer/);
    throwsAt('steps.inc.logs[5]', 15, /out of range/);
    throwsAt("'abc", 0, /unterminated/);
    throwsAt('1 @ 2', 2, /unexpected character/);
    throwsAt("1 < 'a'", 0, /cannot order integer against string/);
  });

  it('has no way to reach the host', () => {
    // Names outside the scope are unknown, and prototype members are not properties.
    assert.throws(() => ev('constructor'), /unknown name/);
    assert.throws(() => ev('env.constructor'), /has no "constructor"/);
    assert.throws(() => ev("env['__proto__']"), /has no "__proto__"/);
    assert.throws(() => ev('process.exit(1)'), ExprError);
  });

  it('interpolates templates, keeping the type of whole expressions', () => {
    assert.equal(interpolate('${{ steps.deploy.app-id }}', scope), 1234n);
    assert.equal(interpolate('  ${{ steps.deploy.app-id }} ', scope), 1234n);
    assert.equal(interpolate('app ${{ steps.deploy.app-id }} at ${{ "}}" }}', scope), 'app 1234 at }}');
    assert.equal(interpolate('raw ${{ steps.inc.logs[1] }}', scope), 'raw 0x0102');
    assert.equal(interpolate('no template', scope), 'no template');
    assert.throws(
      () => parseTemplate('x ${{ 1 '),
      (e: unknown) => e instanceof ExprError && e.offset === 2,
    );
    assert.throws(() => parseTemplate('x ${{ }}'), /empty expression/);
    // Offsets inside a template count from the start of the text.
    assert.throws(
      () => interpolate('ab ${{ nope }}', scope),
      (e: unknown) => e instanceof ExprError && e.offset === 7,
    );
  });

  it('lists the paths an expression reads', () => {
    const refs = references(parseExpression("steps.a.x == len(steps['b'].y) && accounts.alice.address != env.Z[0]"));
    assert.deepEqual(refs, [
      ['steps', 'a', 'x'],
      ['steps', 'b', 'y'],
      ['accounts', 'alice', 'address'],
      ['env', 'Z'],
    ]);
  });
});

function to(v: unknown): string {
  return toHex(v as Uint8Array);
}

describe('workflow/expr: odd keys', () => {
  it('keeps __proto__ as an ordinary key through YAML, resolution and checkpoints', async () => {
    const { loadWorkflow, resolveValue } = await import('../../../sdk/src/workflow/file.js');
    const { encodeValue, decodeValue } = await import('../../../sdk/src/workflow/checkpoint.js');
    const w = loadWorkflow('vars:\n  __proto__: { polluted: 1 }\nsteps:\n  - assert: { that: "${{ vars[\'__proto__\'].polluted }}" }\n');
    assert.ok(Object.prototype.hasOwnProperty.call(w.vars, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const scope = toExprValue({ vars: w.vars, steps: {}, env: {}, accounts: {} }) as ExprScope;
    assert.equal(resolveValue(w.steps[0]!.body, scope, []) && (resolveValue(w.steps[0]!.body, scope) as Record<string, unknown>).that, 1n);
    const back = decodeValue(JSON.parse(JSON.stringify(encodeValue(toExprValue(w.vars))))) as Record<string, unknown>;
    assert.ok(Object.prototype.hasOwnProperty.call(back, '__proto__'));
  });
});
