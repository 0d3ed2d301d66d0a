// The node's evaluation rules our AVM must follow exactly, stated as cases with the node's
// outcome and error text, per consensus version where the rule changed (V41 = previous, V42 =
// current). Each rule id appears in docs/avm-conformance.md (written by conformance.test.ts from
// NODE_RULES below).
import assert from 'node:assert/strict';
import { Address } from '../../../sdk/src/encoding/address.js';
import { AvmGroupEvaluator, DEFAULT_AVM_LIMITS as DEFAULT_LIMITS, InMemoryLedgerView, avmLimitsFor } from '../../../sdk/src/avm/index.js';
import type { AvmOptions, ProgramResult } from '../../../sdk/src/avm/index.js';
import { CONSENSUS_PARAMS_V41, CONSENSUS_PARAMS_V42, CONSENSUS_CURRENT, Ledger } from '../../../sdk/src/ledger/index.js';
import { MAX_EXTRA_OPCODE_BUDGET } from '../../../sdk/src/ledger/simulate.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { CONSENSUS_V41, CONSENSUS_V42, type ConsensusLimits } from '../../../sdk/src/txn/limits.js';
import type { Transaction } from '../../../sdk/src/txn/types.js';
import { APP_ID, OTHER, SENDER, appCall, runApp, runSig } from './helpers/fixtures.js';
import { asm } from './helpers/asm.js';
import { NODE_RULES } from './helpers/node-rules.js';
import { traceDevnet } from './helpers/simulate-devnet.js';

const V41: AvmOptions = { consensus: CONSENSUS_V41 };
const V42: AvmOptions = { consensus: CONSENSUS_V42 };
const VERSIONS: [string, AvmOptions][] = [
  ['V41', V41],
  ['V42', V42],
];
const APP_ADDR = Address.forApp(APP_ID).publicKey;

type Outcome = { approve: true } | { error: string };
const ok: Outcome = { approve: true };
const err = (error: string): Outcome => ({ error });

function expectOutcome(r: ProgramResult, want: Outcome, label: string): void {
  if ('approve' in want) {
    assert.equal(r.error?.reason, undefined, `${label}: unexpected failure`);
    assert.equal(r.approved, true, `${label}: rejected`);
  } else {
    assert.equal(r.approved, false, `${label}: approved, expected "${want.error}"`);
    assert.equal(r.error?.reason, want.error, label);
  }
}

/** A ledger where the app account can pay for inner transactions and asset 300 (and 256) exist. */
function funded(): InMemoryLedgerView {
  const l = new InMemoryLedgerView();
  l.fund(APP_ADDR, 10_000_000n);
  l.createAsset(OTHER.publicKey, { total: 1000n }, 300n);
  l.createAsset(OTHER.publicKey, { total: 1000n }, 256n);
  return l;
}

/** Our assembler (named constants, pseudo-ops), at the given version. */
const prog = (src: string, version: number): Uint8Array => assemble(`#pragma version ${version}\n${src}`).program;

function run(src: string, opts: { version?: number; txn?: Transaction; options?: AvmOptions; ledger?: InMemoryLedgerView } = {}): ProgramResult {
  return runApp(prog(src, opts.version ?? 9), {
    ledger: opts.ledger ?? funded(),
    ...(opts.txn ? { txn: opts.txn } : {}),
    ...(opts.options ? { options: opts.options } : {}),
  }).result;
}

/** Runs the same case under V41 and V42 with the expected outcome of each. */
function perVersion(label: string, fn: (o: AvmOptions) => ProgramResult, want: Outcome | { V41: Outcome; V42: Outcome }): void {
  for (const [name, o] of VERSIONS) {
    const w = 'V41' in want ? want[name as 'V41' | 'V42'] : want;
    expectOutcome(fn(o), w, `${label} (${name})`);
  }
}

const ruleTitle = (id: string): string =>
  `node rule ${id}: ${NODE_RULES.find((r) => r.id === id)!
    .rule.split(':')[0]!
    .slice(0, 80)}`;

describe('avm node rules', () => {
  describe(ruleTitle('low-lookup'), () => {
    it('a direct app id ≤ 255 fails once resolved (v4+)', () => {
      perVersion(
        'app 5',
        (o) => run('int 5\napp_params_get AppApprovalProgram\npop\npop\nint 1', { txn: appCall({ foreignApps: [5n] }), options: o }),
        err('low App lookup 5'),
      );
    });
    it('a foreign-array slot that resolves to a low id fails too', () => {
      perVersion(
        'slot 1 → app 7',
        (o) => run('int 1\napp_params_get AppApprovalProgram\npop\npop\nint 1', { txn: appCall({ foreignApps: [7n] }), options: o }),
        err('low App lookup 7'),
      );
    });
    it('pre-v4 slot lookups are protected as well', () => {
      perVersion(
        'v3 slot',
        (o) => run('int 1\nbyte "k"\napp_global_get_ex\npop\npop\nint 1', { version: 3, txn: appCall({ foreignApps: [9n] }), options: o }),
        err('low App lookup 9'),
      );
    });
    it('assets: params and holdings', () => {
      perVersion(
        'asset 200',
        (o) => run('int 200\nasset_params_get AssetTotal\npop\npop\nint 1', { txn: appCall({ foreignAssets: [200n] }), options: o }),
        err('low Asset lookup 200'),
      );
      perVersion(
        'holding of asset 100',
        (o) => run('txn Sender\nint 100\nasset_holding_get AssetBalance\npop\npop\nint 1', { txn: appCall({ foreignAssets: [100n] }), options: o }),
        err('low Asset lookup 100'),
      );
    });
    it('256 is the first id allowed; the rule is a consensus switch', () => {
      perVersion(
        'asset 256',
        (o) => run('int 256\nasset_params_get AssetTotal\nassert\nint 1000\n==', { txn: appCall({ foreignAssets: [256n] }), options: o }),
        ok,
      );
      const off: ConsensusLimits = { ...CONSENSUS_V42, appForbidLowResources: false };
      expectOutcome(
        run('int 200\nasset_params_get AssetTotal\npop\npop\nint 1', { txn: appCall({ foreignAssets: [200n] }), options: { consensus: off } }),
        ok,
        'rule off',
      );
    });
  });

  describe(ruleTitle('inner-well-formed'), () => {
    const inner = (type: string, fields: string) => `itxn_begin\nint ${type}\nitxn_field TypeEnum\n${fields}\nitxn_submit\nint 1`;
    it('asset transfers, freezes: ids, accounts, clawback close', () => {
      perVersion(
        'axfer asset 0',
        (o) => run(inner('axfer', 'int 5\nitxn_field AssetAmount\ntxn Sender\nitxn_field AssetReceiver'), { options: o }),
        err('asset ID cannot be zero'),
      );
      perVersion('afrz asset 0', (o) => run(inner('afrz', 'txn Sender\nitxn_field FreezeAssetAccount'), { options: o }), err('asset ID cannot be zero'));
      perVersion(
        'afrz no account',
        (o) => run(inner('afrz', 'int 300\nitxn_field FreezeAsset'), { txn: appCall({ foreignAssets: [300n] }), options: o }),
        err('freeze account cannot be empty'),
      );
      perVersion(
        'close by clawback',
        (o) =>
          run(
            inner(
              'axfer',
              'int 300\nitxn_field XferAsset\ntxn Sender\nitxn_field AssetSender\ntxn Sender\nitxn_field AssetReceiver\ntxn Sender\nitxn_field AssetCloseTo',
            ),
            { txn: appCall({ foreignAssets: [300n] }), options: o },
          ),
        err('cannot close asset by clawback'),
      );
    });
    it('fields of another transaction type', () => {
      perVersion(
        'pay with XferAsset',
        (o) => run(inner('pay', 'txn Sender\nitxn_field Receiver\nint 300\nitxn_field XferAsset'), { txn: appCall({ foreignAssets: [300n] }), options: o }),
        err('transaction of type pay has non-zero fields for type axfer'),
      );
    });
    it('schemas and extra pages only when creating (V42: an update may change global schema and pages)', () => {
      const call = (f: string) => inner('appl', `global CurrentApplicationID\nitxn_field ApplicationID\n${f}`);
      perVersion(
        'local schema on a call',
        (o) => run(call('int 1\nitxn_field LocalNumUint'), { options: o }),
        err('inappropriate non-zero tx.LocalStateSchema ({NumUint:1 NumByteSlice:0})'),
      );
      perVersion(
        'global schema on a call',
        (o) => run(call('int 2\nitxn_field GlobalNumByteSlice'), { options: o }),
        err('inappropriate non-zero tx.GlobalStateSchema ({NumUint:0 NumByteSlice:2})'),
      );
      perVersion(
        'extra pages on a call',
        (o) => run(call('int 1\nitxn_field ExtraProgramPages'), { options: o }),
        err('inappropriate non-zero tx.ExtraProgramPages (1)'),
      );
      // An update carrying programs and one extra page: well formed in V42, so the self-call rule is what stops it.
      const update = call(
        `int UpdateApplication\nitxn_field OnCompletion\nbyte 0x098101\nitxn_field ApprovalProgram\nbyte 0x098101\nitxn_field ClearStateProgram\nint 1\nitxn_field ExtraProgramPages`,
      );
      perVersion('update with extra pages', (o) => run(update, { options: o }), {
        V41: err('inappropriate non-zero tx.ExtraProgramPages (1)'),
        V42: err('attempt to self-call'),
      });
    });
    it('inner creates: empty, mismatched and oversized programs', () => {
      const create = (f: string) => inner('appl', f);
      perVersion(
        'no clear program',
        (o) => run(create('byte 0x098101\nitxn_field ApprovalProgram'), { options: o }),
        err('bad ClearStateProgram: invalid program (empty)'),
      );
      perVersion(
        'no approval program',
        (o) => run(create('byte 0x098101\nitxn_field ClearStateProgram'), { options: o }),
        err('bad ApprovalProgram: invalid program (empty)'),
      );
      perVersion(
        'versions differ',
        (o) => run(create('byte 0x098101\nitxn_field ApprovalProgram\nbyte 0x068101\nitxn_field ClearStateProgram'), { options: o }),
        err('program version mismatch: 9 != 6'),
      );
      // int 1; return; then 2045 bytes that never run: 2049 bytes in all.
      const big =
        'byte 0x09810143\nitxn_field ApprovalProgramPages\nint 2045\nbzero\nitxn_field ApprovalProgramPages\nbyte 0x098101\nitxn_field ClearStateProgram';
      perVersion('2049-byte approval, no extra page', (o) => run(create(big), { options: o }), err('approval program too long. (2049 > 2048)'));
      perVersion('… with one extra page', (o) => run(create(`${big}\nint 1\nitxn_field ExtraProgramPages`), { options: o }), ok);
    });
    it('top-level transactions get the same checks and messages from the ledger (simulate and submit)', () => {
      const sender = new Address(new Uint8Array(32).fill(0x42));
      const net = traceDevnet([sender]);
      const header = { sender, fee: 1000n, firstValid: 1n, lastValid: 100n };
      const failure = (t: Transaction): string => String((net.simulate([t]) as Record<string, any>)['txn-groups'][0]['failure-message']);
      assert.match(failure({ ...header, type: 'axfer', assetTransfer: { assetId: 0n, amount: 5n, receiver: sender } }), /asset ID cannot be zero$/);
      assert.match(
        failure({ ...header, type: 'afrz', assetFreeze: { assetId: 7000n, account: new Address(new Uint8Array(32)), frozen: true } }),
        /freeze account cannot be empty$/,
      );
      assert.match(
        failure(appCall({ localSchema: { numUints: 1, numByteSlices: 0 } }, header)),
        /inappropriate non-zero tx.LocalStateSchema \(\{NumUint:1 NumByteSlice:0\}\)$/,
      );
      assert.match(
        failure({ ...header, type: 'pay', payment: { receiver: sender, amount: 1n, closeRemainderTo: sender } }),
        new RegExp(`transaction cannot close account to its sender ${sender}$`),
      );
    });
    it('key registrations must be coherent', () => {
      perVersion(
        'vote key alone',
        (o) => run(inner('keyreg', 'int 32\nbzero\nint 0\nint 1\nsetbyte\nitxn_field VotePK'), { options: o }),
        err('the following transaction fields need to be clear/set together : votekey, selkey, votekd'),
      );
    });
  });

  describe(ruleTitle('block-window'), () => {
    const withBlocks = (): InMemoryLedgerView => {
      const l = funded();
      for (const r of [1n, 98n, 99n, 899n, 950n]) {
        l.blocks.set(r, {
          seed: new Uint8Array(32),
          timestamp: 1_000n + r,
          proposer: new Uint8Array(32),
          feesCollected: 0n,
          bonus: 0n,
          branch: new Uint8Array(32),
          feeSink: new Uint8Array(32),
          protocol: new Uint8Array(),
          txnCounter: 0n,
          proposerPayout: 0n,
        });
      }
      return l;
    };
    it('the window comes from the transaction, not from the ledger round', () => {
      // Ledger round 1000: the ledger has round 950, but a transaction valid in [900, 1000] may only read up to 899.
      const txn = appCall({}, { firstValid: 900n, lastValid: 1000n });
      perVersion(
        'round 950',
        (o) => run('int 950\nblock BlkTimestamp\npop\nint 1', { version: 7, txn, ledger: withBlocks(), options: o }),
        err("round 950 is not available. It's outside [1-899]"),
      );
      perVersion('round 899', (o) => run('int 899\nblock BlkTimestamp\nint 1899\n==', { version: 7, txn, ledger: withBlocks(), options: o }), ok);
      // [LastValid − 1001, FirstValid − 1] = [99, 99] for a transaction valid in [100, 1100].
      const late = appCall({}, { firstValid: 100n, lastValid: 1100n });
      perVersion(
        'round 98',
        (o) => run('int 98\nblock BlkTimestamp\npop\nint 1', { version: 7, txn: late, ledger: withBlocks(), options: o }),
        err("round 98 is not available. It's outside [99-99]"),
      );
    });
    it('txn FirstValidTime reads FirstValid − 1 under the same window', () => {
      perVersion(
        'FirstValid 100',
        (o) =>
          run('txn FirstValidTime\nint 1099\n==', { version: 7, txn: appCall({}, { firstValid: 100n, lastValid: 1100n }), ledger: withBlocks(), options: o }),
        ok,
      );
      perVersion(
        'FirstValid 0',
        (o) => run('txn FirstValidTime\npop\nint 1', { version: 7, txn: appCall({}, { firstValid: 0n, lastValid: 500n }), ledger: withBlocks(), options: o }),
        err("round 18446744073709551615 is not available. It's outside [1-0]"),
      );
    });
  });

  describe(ruleTitle('global-missing-app'), () => {
    it('app_global_get_ex of a nonexistent app fails (direct id and pre-v4 slot)', () => {
      perVersion(
        'app 5000',
        (o) => run('int 5000\nbyte "k"\napp_global_get_ex\npop\npop\nint 1', { version: 8, txn: appCall({ foreignApps: [5000n] }), options: o }),
        err('app 5000 does not exist'),
      );
      perVersion(
        'v2 slot',
        (o) => run('int 1\nbyte "k"\napp_global_get_ex\npop\npop\nint 1', { version: 2, txn: appCall({ foreignApps: [5000n] }), options: o }),
        err('app 5000 does not exist'),
      );
    });
    it('an existing app without the key still answers "not found"', () => {
      perVersion('own app', (o) => run('int 0\nbyte "k"\napp_global_get_ex\n!\nswap\npop', { version: 8, options: o }), ok);
    });
  });

  describe(ruleTitle('field-immediates'), () => {
    const patched = (src: string, version: number, at: number, byte: number): Uint8Array => {
      const b = asm(src, version);
      b[at] = byte;
      return b;
    };
    const runBytes = (b: Uint8Array, o: AvmOptions): ProgramResult =>
      runApp(b, { ledger: funded(), txn: appCall({ args: [new Uint8Array([1])] }), options: o }).result;
    it('txna / gtxna / gtxnsa / txnas name the field byte', () => {
      perVersion('txna 99', (o) => runBytes(patched('txna ApplicationArgs 0\npop\nint 1', 8, 2, 99), o), err('invalid txn field TxnField(99)'));
      perVersion('txna Sender', (o) => runBytes(patched('txna ApplicationArgs 0\npop\nint 1', 8, 2, 0), o), err('unsupported array field Sender'));
      perVersion('gtxna 127', (o) => runBytes(patched('gtxna 0 ApplicationArgs 0\npop\nint 1', 8, 3, 127), o), err('invalid txn field TxnField(127)'));
      perVersion('gtxnsa Fee', (o) => runBytes(patched('int 0\ngtxnsa ApplicationArgs 0\npop\nint 1', 8, 4, 1), o), err('unsupported array field Fee'));
      perVersion('txnas 99', (o) => runBytes(patched('int 0\ntxnas ApplicationArgs\npop\nint 1', 8, 4, 99), o), err('invalid txn field TxnField(99)'));
    });
    it('itxna / gitxna too', () => {
      perVersion('itxna 99', (o) => runBytes(patched('itxna ApplicationArgs 0\npop\nint 1', 8, 2, 99), o), err('invalid txn field TxnField(99)'));
      perVersion('gitxna Sender', (o) => runBytes(patched('gitxna 0 Accounts 0\npop\nint 1', 8, 3, 0), o), err('unsupported array field Sender'));
    });
    it('scalar ops given an array field, and unknown global fields', () => {
      perVersion('txn ApplicationArgs', (o) => runBytes(patched('txn Sender\npop\nint 1', 8, 2, 26), o), err('invalid txn field ApplicationArgs'));
      perVersion('global 99', (o) => runBytes(patched('global ZeroAddress\npop\nint 1', 8, 2, 99), o), err('invalid global field GlobalField(99)'));
    });
  });

  describe(ruleTitle('consensus-params'), () => {
    it('the AVM, the ledger and the devnet read the same limits', () => {
      assert.deepEqual(DEFAULT_LIMITS, CONSENSUS_PARAMS_V42.avm);
      assert.equal(CONSENSUS_CURRENT, CONSENSUS_PARAMS_V42);
      assert.deepEqual(new Ledger().params.avm, DEFAULT_LIMITS);
      assert.deepEqual([DEFAULT_LIMITS.maxTxnNoteBytes, DEFAULT_LIMITS.maxAppTotalArgLen, DEFAULT_LIMITS.maxExtraAppProgramPages], [4096, 16384, 7]);
      const v41 = avmLimitsFor(CONSENSUS_V41);
      assert.deepEqual([v41.maxTxnNoteBytes, v41.maxAppTotalArgLen, v41.maxExtraAppProgramPages], [1024, 2048, 3]);
      assert.deepEqual(CONSENSUS_PARAMS_V41.avm, v41);
      assert.deepEqual([CONSENSUS_PARAMS_V41.maxAvmVersion, CONSENSUS_PARAMS_V42.maxAvmVersion], [12, 13]);
      assert.equal(MAX_EXTRA_OPCODE_BUDGET, CONSENSUS_V42.simulateMaxExtraOpcodeBudget);
    });
    it('inner notes, pages and program sizes', () => {
      const note = (n: number) => `itxn_begin\nint pay\nitxn_field TypeEnum\ntxn Sender\nitxn_field Receiver\nint ${n}\nbzero\nitxn_field Note\nint 1`;
      expectOutcome(run(note(4096)), ok, 'default AVM: 4096-byte note');
      perVersion('4096-byte note', (o) => run(note(4096), { options: o }), { V41: err('Note may not exceed 1024 bytes'), V42: ok });
      perVersion('1025-byte note', (o) => run(note(1025), { options: o }), { V41: err('Note may not exceed 1024 bytes'), V42: ok });
      const pages = (n: number) => `itxn_begin\nint appl\nitxn_field TypeEnum\nint ${n}\nitxn_field ExtraProgramPages\nint 1`;
      perVersion('4 extra pages', (o) => run(pages(4), { options: o }), { V41: err('4 is larger than max=3'), V42: ok });
      perVersion('8 extra pages', (o) => run(pages(8), { options: o }), { V41: err('8 is larger than max=3'), V42: err('8 is larger than max=7') });
    });
    it('inner asset and schema caps follow the parameters', () => {
      const f = (field: string, push: string) => `itxn_begin\nint acfg\nitxn_field TypeEnum\n${push}\nitxn_field ${field}\nint 1`;
      perVersion('decimals 20', (o) => run(f('ConfigAssetDecimals', 'int 20'), { options: o }), err('20 is larger than max=19'));
      perVersion('name 33 bytes', (o) => run(f('ConfigAssetName', 'int 33\nbzero'), { options: o }), err('value is too long'));
      perVersion('unit 9 bytes', (o) => run(f('ConfigAssetUnitName', 'int 9\nbzero'), { options: o }), err('value is too long'));
      perVersion('URL 97 bytes', (o) => run(f('ConfigAssetURL', 'int 97\nbzero'), { options: o }), err('value is too long'));
      const tight: ConsensusLimits = { ...CONSENSUS_V42, maxAssetDecimals: 10, maxGlobalSchemaEntries: 4 };
      expectOutcome(run(f('ConfigAssetDecimals', 'int 11'), { options: { consensus: tight } }), err('11 is larger than max=10'), 'custom decimals');
      expectOutcome(run(f('GlobalNumUint', 'int 5'), { options: { consensus: tight } }), err('5 is larger than max=4'), 'custom schema');
      perVersion('global schema 65', (o) => run(f('GlobalNumUint', 'int 65'), { options: o }), err('65 is larger than max=64'));
      perVersion('local schema 17', (o) => run(f('LocalNumByteSlice', 'int 17'), { options: o }), err('17 is larger than max=16'));
    });
    it("the protocol's program version", () => {
      perVersion('v13 program', (o) => run('int 1', { version: 13, options: o }), {
        V41: err('program version 13 greater than protocol supported version 12'),
        V42: ok,
      });
    });
  });

  describe(ruleTitle('error-wording'), () => {
    it('numeric account references name the array they index', () => {
      perVersion(
        'beyond tx.Accounts',
        (o) => run('int 3\nbalance\npop\nint 1', { txn: appCall({ accounts: [OTHER] }), options: o }),
        err('invalid Account reference 3 exceeds length of tx.Accounts 1'),
      );
      const access = appCall({
        access: [
          { kind: 'asset', assetId: 300n },
          { kind: 'address', address: OTHER },
        ],
      });
      perVersion(
        'not an address in tx.Access',
        (o) => run('int 1\nbalance\npop\nint 1', { txn: access, options: o }),
        err('address reference 1 is not an Address in tx.Access'),
      );
      perVersion(
        'beyond tx.Access',
        (o) => run('int 3\nbalance\npop\nint 1', { txn: access, options: o }),
        err('invalid Account reference 3 exceeds length of tx.Access 2'),
      );
      perVersion('an address in tx.Access', (o) => run('int 2\nbalance\npop\nint 1', { txn: access, options: o }), ok);
    });
    it('LogicSig not supported when the protocol has no program version', () => {
      expectOutcome(runSig(prog('int 1', 2), { options: { maxVersion: 0 } }), err('LogicSig not supported'), 'lsig');
      const ledger = funded();
      const ev = new AvmGroupEvaluator([appCall()], ledger, { maxVersion: 0 });
      ledger.createApp(SENDER.publicKey, { approvalProgram: prog('int 1', 2) }, APP_ID);
      expectOutcome(ev.evalApp(0), err('LogicSig not supported'), 'app');
    });
    it('json_ref of a null member fails: the node keeps null as empty text, which encoding/json refuses', () => {
      perVersion(
        'string',
        (o) => run('byte "{\\"a\\":null}"\nbyte "a"\njson_ref JSONString\nlen\n!', { version: 7, options: o }),
        err('unexpected end of JSON input'),
      );
      perVersion(
        'uint64',
        (o) => run('byte "{\\"a\\":null}"\nbyte "a"\njson_ref JSONUint64\n!', { version: 7, options: o }),
        err('unexpected end of JSON input'),
      );
      perVersion(
        'object',
        (o) => run('byte "{\\"a\\":null}"\nbyte "a"\njson_ref JSONObject\nbyte "null"\n==', { version: 7, options: o }),
        err('unexpected end of JSON input'),
      );
      perVersion(
        'top-level null',
        (o) => run('byte "null"\nbyte "a"\njson_ref JSONString\npop\nint 1', { version: 7, options: o }),
        err('error while parsing JSON text, invalid json text, only json object is allowed'),
      );
    });
  });
});
