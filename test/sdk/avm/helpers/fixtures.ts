import { Address } from '../../../../sdk/src/encoding/address.js';
import type { AppCallFields, Transaction } from '../../../../sdk/src/txn/types.js';
import { AvmGroupEvaluator, InMemoryLedgerView } from '../../../../sdk/src/avm/index.js';
import type { AppEvalResult as AppCallResult, AvmOptions, ProgramResult } from '../../../../sdk/src/avm/index.js';
import { asm } from './asm.js';
import { trackOpCoverage } from '../../../../sdk/src/avm/ops/registry.js';

// Every avm test records which opcodes ran successfully; the conformance report reads it.
export const OP_COVERAGE = trackOpCoverage();

export const SENDER = new Address(new Uint8Array(32).fill(1));
export const OTHER = new Address(new Uint8Array(32).fill(2));
export const APP_ID = 1234n;

export function appCall(fields: Partial<AppCallFields> = {}, header: Partial<Transaction> = {}): Transaction {
  return {
    type: 'appl',
    sender: SENDER,
    fee: 1000n,
    firstValid: 100n,
    lastValid: 1100n,
    ...header,
    appCall: {
      appId: APP_ID,
      onComplete: 0,
      args: [],
      accounts: [],
      foreignApps: [],
      foreignAssets: [],
      boxes: [],
      access: [],
      extraPages: 0,
      rejectVersion: 0n,
      ...fields,
    },
  };
}

export function payment(amount = 5000n, header: Partial<Transaction> = {}): Transaction {
  return {
    type: 'pay',
    sender: SENDER,
    fee: 1000n,
    firstValid: 100n,
    lastValid: 1100n,
    ...header,
    payment: { receiver: OTHER, amount },
  };
}

export interface AppRun {
  result: AppCallResult;
  ledger: InMemoryLedgerView;
  evaluator: AvmGroupEvaluator;
}

/** Runs `source` (or bytes) as the approval program of app APP_ID, called by txn 0 of `group`. */
export function runApp(
  program: string | Uint8Array,
  opts: { version?: number; txn?: Transaction; group?: Transaction[]; index?: number; ledger?: InMemoryLedgerView; options?: AvmOptions } = {},
): AppRun {
  const bytes = typeof program === 'string' ? asm(program, opts.version ?? 8) : program;
  const ledger = opts.ledger ?? new InMemoryLedgerView();
  ledger.fund(SENDER.publicKey, 10_000_000n);
  const existing = ledger.appParams(APP_ID);
  if (existing) existing.approvalProgram = bytes;
  else
    ledger.createApp(SENDER.publicKey, { approvalProgram: bytes, globalNumUint: 8n, globalNumByteSlice: 8n, localNumUint: 4n, localNumByteSlice: 4n }, APP_ID);
  const group = opts.group ?? [opts.txn ?? appCall()];
  const evaluator = new AvmGroupEvaluator(group, ledger, opts.options);
  const result = evaluator.evalApp(opts.index ?? 0);
  return { result, ledger, evaluator };
}

/** Runs `source` as a logic signature of a payment (or the given txn). */
export function runSig(
  program: string | Uint8Array,
  opts: { version?: number; txn?: Transaction; args?: Uint8Array[]; ledger?: InMemoryLedgerView; options?: AvmOptions } = {},
): ProgramResult {
  const bytes = typeof program === 'string' ? asm(program, opts.version ?? 8) : program;
  const ledger = opts.ledger ?? new InMemoryLedgerView();
  const txn = opts.txn ?? payment();
  const ev = new AvmGroupEvaluator([{ txn, lsig: { program: bytes, args: opts.args ?? [] } }], ledger, opts.options);
  return ev.evalLogicSig(0);
}
