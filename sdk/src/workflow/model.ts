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

export type NetworkSpec =
  | { kind: 'named'; name: 'devnet' | 'localnet' | 'testnet' | 'mainnet' }
  | { kind: 'custom'; name: string; node: string; api?: 'algod' | 'node-service'; query?: string; kmd?: string; tokenEnv?: string; kmdTokenEnv?: string };

export type AccountSource = 'generate' | 'mnemonic-env' | 'kmd' | 'keystore' | 'address';

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

export type OnCompleteName = 'noop' | 'optin' | 'closeout' | 'clear' | 'update' | 'delete';

export interface BoxRefSpec {
  app?: UintValue;
  name: string;
}

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

export interface PaySpec {
  from: string;
  to: string;
  amount: UintValue;
  note?: string;
  fee?: UintValue;
}

export type GroupTxnSpec = { call: CallSpec; pay?: undefined } | { pay: PaySpec; call?: undefined };

export interface LifecycleCallSpec {
  method: string;
  args?: TemplatedValue[];
}

export interface FundStep {
  to: string;
  amount: UintValue;
  from?: string;
  note?: string;
}

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

export interface GroupStep {
  txns: GroupTxnSpec[];
}

export interface SimulateStep {
  call?: CallSpec;
  group?: GroupTxnSpec[];
  expect?: 'success' | 'failure' | 'any';
  message?: string;
  extraOpcodeBudget?: UintValue;
  allowUnnamedResources?: boolean;
}

export interface ReadGlobal {
  app: UintValue;
  key?: string;
  contract?: string;
}
export interface ReadLocal extends ReadGlobal {
  account: string;
}
export interface ReadBox {
  app: UintValue;
  name: string;
  contract?: string;
}
export interface ReadBoxes {
  app: UintValue;
  prefix?: string;
  limit?: UintValue;
  values?: boolean;
  contract?: string;
}

export type ReadStep = { global: ReadGlobal } | { local: ReadLocal } | { box: ReadBox } | { boxes: ReadBoxes } | { balance: string };

export interface AssertComparisons {
  equals?: TemplatedValue;
  notEquals?: TemplatedValue;
  greaterThan?: TemplatedValue;
  lessThan?: TemplatedValue;
  atLeast?: TemplatedValue;
  atMost?: TemplatedValue;
  contains?: TemplatedValue;
}

export interface AssertStep extends AssertComparisons {
  that?: TemplatedValue;
  global?: ReadGlobal;
  local?: ReadLocal;
  box?: ReadBox;
  balance?: string;
  message?: string;
}

export interface WaitStep {
  rounds?: UintValue;
  seconds?: UintValue;
}

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

interface StepCommon {
  /** 0-based position in `steps`. */
  index: number;
  /** Explicit `id`, or `step-N` (1-based). */
  id: string;
  explicitId: boolean;
  name?: string;
  if?: string;
  continueOnError: boolean;
}

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
export const COMMON_STEP_OUTPUTS: readonly string[] = ['status'];
