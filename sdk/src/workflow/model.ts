import type { StepKind } from './schema.js';

/*
 * The typed workflow model the parser produces and the engine consumes. Keys are the YAML keys
 * in camelCase. Values that may hold `${{ … }}` expressions stay as written (strings) until the
 * engine resolves them with resolveValue(); integers are bigint.
 */

/** An integer, or a string holding an expression. */
export type UintValue = bigint | string;
/** Any YAML value; strings may hold expressions. */
export type TemplatedValue = unknown;

/** A workflow's network: a named one (devnet, localnet, testnet, mainnet) or one by URL. */
export type NetworkSpec =
  | { kind: 'named'; name: 'devnet' | 'localnet' | 'testnet' | 'mainnet' }
  | { kind: 'custom'; name: string; node: string; api?: 'algod' | 'node-service'; query?: string; kmd?: string; tokenEnv?: string; kmdTokenEnv?: string };

/** Where a workflow account comes from. */
export type AccountSource = 'generate' | 'mnemonic-env' | 'kmd' | 'keystore' | 'address';

/** A workflow account: its source, and funding. */
export interface AccountSpec {
  name: string;
  source: AccountSource;
  generate?: true;
  mnemonicEnv?: string;
  kmd?: { wallet?: string; passwordEnv?: string; address?: string };
  keystore?: string;
  address?: string;
  fund?: UintValue;
  description?: string;
}

/** A workflow contract: programs, spec, schema, template values. */
export interface ContractSpec {
  /** Key in `contracts`. */
  key: string;
  /** App name for deploy notes (the `name` field, else the key). */
  appName: string;
  approval?: string;
  clear?: string;
  spec?: string;
  /** A logic-signature program instead of an app. */
  logicsig?: string;
  template: Record<string, TemplatedValue>;
  schema?: { globalInts?: number | bigint; globalBytes?: number | bigint; localInts?: number | bigint; localBytes?: number | bigint };
  extraPages?: number | bigint;
  description?: string;
}

/** On-completion names a workflow accepts. */
export type OnCompleteName = 'noop' | 'optin' | 'closeout' | 'clear' | 'update' | 'delete';

/** A box reference of a call: app and name. */
export interface BoxRefSpec {
  app?: UintValue;
  name: string;
}

/** An app call in a workflow: app, method, arguments, sender, references, extra options. */
export interface CallSpec {
  app: UintValue;
  contract?: string;
  method?: string;
  args?: TemplatedValue[];
  appArgs?: TemplatedValue[];
  sender: string;
  onComplete?: OnCompleteName;
  boxes?: Array<string | BoxRefSpec>;
  accounts?: string[];
  apps?: UintValue[];
  assets?: UintValue[];
  fee?: UintValue;
  extraFee?: UintValue;
  note?: string;
  populateResources?: boolean;
}

/** A payment in a workflow. */
export interface PaySpec {
  from: string;
  to: string;
  amount: UintValue;
  note?: string;
  fee?: UintValue;
}

/** One transaction of a group step: a call or a payment. */
export type GroupTxnSpec = { call: CallSpec; pay?: undefined } | { pay: PaySpec; call?: undefined };

/** A method to call at create, update or delete. */
export interface LifecycleCallSpec {
  method: string;
  args?: TemplatedValue[];
}

/** A `fund` step: receiver, amount, payer. */
export interface FundStep {
  to: string;
  amount: UintValue;
  from?: string;
  note?: string;
}

/** A `deploy` step: contract, creator, version, permissions, update and schema-break policies. */
export interface DeployStep {
  contract: string;
  creator: string;
  name?: string;
  version?: string;
  onUpdate?: 'fail' | 'update' | 'replace' | 'append';
  onSchemaBreak?: 'fail' | 'replace' | 'append';
  updatable?: boolean;
  deletable?: boolean;
  template?: Record<string, TemplatedValue>;
  create?: LifecycleCallSpec;
  update?: LifecycleCallSpec;
  delete?: LifecycleCallSpec;
  extraFee?: UintValue;
}

/** A `group` step: calls and payments sent together. */
export interface GroupStep {
  txns: GroupTxnSpec[];
}

/** A `simulate` step: a call or group, and the outcome expected. */
export interface SimulateStep {
  call?: CallSpec;
  group?: GroupTxnSpec[];
  expect?: 'success' | 'failure' | 'any';
  message?: string;
  extraOpcodeBudget?: UintValue;
  allowUnnamedResources?: boolean;
}

/** Reading a global state key. */
export interface ReadGlobal {
  app: UintValue;
  key?: string;
  contract?: string;
}
/** Reading an account's local state key. */
export interface ReadLocal extends ReadGlobal {
  account: string;
}
/** Reading one box. */
export interface ReadBox {
  app: UintValue;
  name: string;
  contract?: string;
}
/** Reading every box of an app. */
export interface ReadBoxes {
  app: UintValue;
  prefix?: string;
  limit?: UintValue;
  values?: boolean;
  contract?: string;
}

/** A `read` step: global, local, box, boxes or balance. */
export type ReadStep = { global: ReadGlobal } | { local: ReadLocal } | { box: ReadBox } | { boxes: ReadBoxes } | { balance: string };

/** The comparisons an assertion can make (`equals`, `at-least`, …). */
export interface AssertComparisons {
  equals?: TemplatedValue;
  notEquals?: TemplatedValue;
  greaterThan?: TemplatedValue;
  lessThan?: TemplatedValue;
  atLeast?: TemplatedValue;
  atMost?: TemplatedValue;
  contains?: TemplatedValue;
}

/** An `assert` step: a condition, or a state value compared. */
export interface AssertStep extends AssertComparisons {
  that?: TemplatedValue;
  global?: ReadGlobal;
  local?: ReadLocal;
  box?: ReadBox;
  balance?: string;
  message?: string;
}

/** A `wait` step: rounds or seconds. */
export interface WaitStep {
  rounds?: UintValue;
  seconds?: UintValue;
}

/** The body of each step kind. */
export interface StepBodies {
  fund: FundStep;
  deploy: DeployStep;
  call: CallSpec;
  group: GroupStep;
  simulate: SimulateStep;
  assert: AssertStep;
  read: ReadStep;
  wait: WaitStep;
}

/** The fields every workflow step has, whatever its kind. */
export interface StepCommon {
  /** 0-based position in `steps`. */
  index: number;
  /** Explicit `id`, or `step-N` (1-based). */
  id: string;
  explicitId: boolean;
  name?: string;
  if?: string;
  continueOnError: boolean;
}

/** A step of a workflow: common fields and its kind's body. */
export type WorkflowStep = { [K in StepKind]: StepCommon & { kind: K; body: StepBodies[K] } }[StepKind];

/**
 * Output fields each kind of step produces (`steps.ID.<field>`); the parser rejects references to
 * other fields, and the engine must fill these. `status` ("done", "skipped", "failed") exists on every step.
 */
export const STEP_OUTPUTS: Readonly<Record<StepKind, readonly string[]>> = {
  fund: ['txid', 'round', 'amount', 'receiver'],
  deploy: ['app-id', 'app-address', 'action', 'name', 'version', 'txid', 'round', 'return', 'deleted-app-id', 'report'],
  call: ['txid', 'round', 'return', 'logs', 'events', 'inner', 'app-id', 'report'],
  group: ['txids', 'round', 'returns', 'logs', 'events', 'report'],
  simulate: ['would-succeed', 'failed-at', 'message', 'error-message', 'return', 'returns', 'logs', 'events', 'budget-consumed', 'budget-added', 'report'],
  assert: ['passed', 'value'],
  read: ['value', 'raw'],
  wait: ['round'],
};
/** Outputs every step has. */
export const COMMON_STEP_OUTPUTS: readonly string[] = ['status'];
