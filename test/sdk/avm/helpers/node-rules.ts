// The node rules the AVM suite checks (test/sdk/avm/node-rules.test.ts states the cases); the
// conformance report (docs/avm-conformance.md) lists them with where they are tested.

/** One rule of the node's evaluator and where our suite checks it (rendered into the conformance doc). */
export interface NodeRule {
  id: string;
  rule: string;
  /** Where the node states it (go-algorand paths, for readers who want the source of truth). */
  node: string;
  /** Where our suite checks it. */
  tested: string;
}

export const NODE_RULES: NodeRule[] = [
  {
    id: 'low-lookup',
    rule: 'Since V38 (AppForbidLowResources) an app or asset reference that resolves to an id ≤ 255 fails: `low App lookup N` / `low Asset lookup N` — for direct ids, foreign-array slots and pre-v4 slot lookups, holdings and locals alike.',
    node: 'data/transactions/logic/eval.go (appReference, resolveApp, assetReference, resolveAsset)',
    tested: 'node-rules.test.ts › low-lookup (V41, V42, rule switched off)',
  },
  {
    id: 'inner-well-formed',
    rule: 'Every inner transaction is checked as the node checks any transaction (WellFormed) at itxn_submit, with its messages: asset id 0, empty freeze account, close by clawback, fields of another type, schemas / extra pages on a non-creating call (V42 lets an update change them), program sizes, empty or mismatched programs on create, keyreg coherence. The ledger applies the same checks and messages to top-level transactions.',
    node: 'data/transactions/transaction.go WellFormed, payment.go, keyreg.go, asset.go, application.go',
    tested: 'node-rules.test.ts › inner-well-formed (V41, V42; top-level through simulate); inner-fees.test.ts (program sizes with fees)',
  },
  {
    id: 'block-window',
    rule: '`block` and `txn FirstValidTime` read only rounds in [LastValid − MaxTxnLife − 1, FirstValid − 1] of the running transaction (uint64 wrap-arounds: a window starting at 0 starts at 1, FirstValid 0 leaves it empty), whatever the ledger round.',
    node: 'data/transactions/logic/eval.go (availableRound, opBlock)',
    tested: 'node-rules.test.ts › block-window (V41, V42)',
  },
  {
    id: 'global-missing-app',
    rule: 'Reading the global state of an app that does not exist fails the program: `app N does not exist`.',
    node: 'ledger/eval/applications.go (GetGlobal → fetchAppCreator)',
    tested: 'node-rules.test.ts › global-missing-app (V41, V42)',
  },
  {
    id: 'field-immediates',
    rule: 'A field immediate the version does not know fails when the instruction runs, naming the field byte, not an array index: `invalid txn field TxnField(N)`, `unsupported array field X` (a scalar field in txna/gtxna/gtxnsa/txnas/itxna/gitxna…), `invalid txn field X` (an array field in txn/gtxn/itxn…), `invalid global field GlobalField(N)`.',
    node: 'data/transactions/logic/eval.go (fetchField, opTxna…), fields_string.go',
    tested: 'node-rules.test.ts › field-immediates (V41, V42)',
  },
  {
    id: 'consensus-params',
    rule: "One consensus parameter table (V42 current, V41 previous) gives every limit: AVM defaults equal the ledger's and the devnet's (note 4096, args 16384, extra pages 7 in V42; 1024 / 2048 / 3 in V41), inner asset decimals/name/unit/URL, schema caps, LogicSigVersion, simulate's extra-budget and more-logging ceilings.",
    node: 'config/consensus.go (v41, v42)',
    tested: 'node-rules.test.ts › consensus-params (V41, V42, custom tables); inner-fees.test.ts',
  },
  {
    id: 'simulate-trace-shapes',
    rule: "Simulate exec-traces are step for step what algod returns: pops counted before each opcode (a failing opcode reports them), additions are everything above the popped height afterwards (frame_bury shows the write into the frame; dupn pops 1 and adds n+1; dig adds 1; cover/uncover/bury/retsub/return as algod), itxn_submit lists every inner transaction it starts in spawned-inners (a failing one included, before authorization), inner-trace has one entry per inner transaction with the failing one's program trace; state writes are named before the opcode runs (a failing write lists its key without a new value); a rejecting clear-state program reports clear-state-rollback.",
    node: 'ledger/simulation/tracer.go, data/transactions/logic/opcodeExplain.go',
    tested:
      "trace-conformance.test.ts (our groups, algod's expected traces as data); trace-replay.test.ts (the AVM Debugger sample workspace's recorded algod responses, when placed under ../shared/data/fixtures/avm-debugger-traces/); trace.test.ts",
  },
  {
    id: 'error-wording',
    rule: "Failures the node words differently use its wording: `invalid Account reference N exceeds length of tx.Accounts M` / `… of tx.Access M`, `address reference N is not an Address in tx.Access`, `LogicSig not supported`, and json_ref of a null member fails with `unexpected end of JSON input` (the node's codec keeps null as empty text, which `encoding/json` then refuses).",
    node: 'data/transactions/application.go (AddressByIndex), logic/eval.go (errLogicSigNotSupported, opJSONRef)',
    tested: 'node-rules.test.ts › error-wording (V41, V42)',
  },
];
