/*
 * The one description of the workflow file format. It is a JSON Schema (draft-07, which the
 * VS Code YAML extension handles best) so editors validate and complete `tealworks.yaml`; the
 * parser (file.ts) checks files against this same object with schema-check.ts, which implements
 * the subset of keywords used here. `schemas/tealworks.schema.json` is this object printed; a test
 * keeps the two identical (regenerate with `npx tsx sdk/src/workflow/print-schema.ts`).
 */

/** The JSON Schema subset the workflow schema uses. */
export type JsonSchema = {
  $schema?: string;
  $id?: string;
  $ref?: string;
  title?: string;
  description?: string;
  type?:
    | 'object'
    | 'array'
    | 'string'
    | 'integer'
    | 'boolean'
    | 'null'
    | 'number'
    | Array<'object' | 'array' | 'string' | 'integer' | 'boolean' | 'null' | 'number'>;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  enum?: Array<string | number | boolean>;
  const?: string | number | boolean;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  default?: unknown;
  examples?: unknown[];
  definitions?: Record<string, JsonSchema>;
};

const EXPR = '\\$\\{\\{.*\\}\\}';
const ref = (name: string, description?: string): JsonSchema =>
  description ? { $ref: `#/definitions/${name}`, description } : { $ref: `#/definitions/${name}` };
const str = (description: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({ type: 'string', description, ...extra });
const bool = (description: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({ type: 'boolean', description, ...extra });
const NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_-]*$';

const callProperties: Record<string, JsonSchema> = {
  app: ref('appRef', 'The application to call: its id, or an expression such as `${{ steps.deploy.app-id }}`.'),
  contract: ref(
    'contractRef',
    'Contract (from `contracts`) whose app spec gives method types, return decoding, events and error messages. Optional when `app` comes from a deploy step of that contract.',
  ),
  method: str('ABI method: a full signature (`add(uint64,uint64)uint64`) or, with an app spec, just the name. Leave out for a bare call.'),
  args: {
    type: 'array',
    description: 'Method arguments in order. Integers, strings, booleans, lists for arrays/tuples, objects for structs; `${{ … }}` expressions anywhere.',
    items: ref('value'),
  },
  'app-args': {
    type: 'array',
    description: 'Raw application arguments for a bare call (strings are UTF-8; use hex()/itob() expressions for bytes).',
    items: ref('value'),
  },
  sender: ref('accountRef', 'Account that sends and signs the call.'),
  'on-complete': {
    type: 'string',
    description: "What the call does to the caller's relation to the app.",
    enum: ['noop', 'optin', 'closeout', 'clear', 'update', 'delete'],
    default: 'noop',
  },
  boxes: {
    type: 'array',
    description: 'Box references to attach (filled in from a simulate run when left out and `populate-resources` is on).',
    items: ref('boxRef'),
  },
  accounts: { type: 'array', description: 'Extra account references.', items: ref('addressRef') },
  apps: { type: 'array', description: 'Extra application references.', items: ref('uint') },
  assets: { type: 'array', description: 'Extra asset references.', items: ref('uint') },
  fee: ref('uint', 'Fee in micro-units; by default the suggested fee.'),
  'extra-fee': ref('uint', 'Added to the fee, e.g. to cover inner transactions.'),
  note: str('Transaction note (text, or an expression giving bytes).'),
  'populate-resources': bool('Fill missing account/app/asset/box references from a simulate run before sending.', { default: true }),
};

const payProperties: Record<string, JsonSchema> = {
  from: ref('accountRef', 'Paying account.'),
  to: ref('addressRef', 'Receiver: an account name, an address, or an expression.'),
  amount: ref('uint', 'Amount in micro-units.'),
  note: str('Transaction note.'),
  fee: ref('uint', 'Fee in micro-units; by default the suggested fee.'),
};

const groupTxn: JsonSchema = {
  type: 'object',
  description: 'One transaction of a group: exactly one of `call` or `pay`.',
  properties: {
    call: { type: 'object', description: 'An application call.', properties: callProperties, required: ['app', 'sender'], additionalProperties: false },
    pay: { type: 'object', description: 'A payment.', properties: payProperties, required: ['from', 'to', 'amount'], additionalProperties: false },
  },
  oneOf: [{ required: ['call'] }, { required: ['pay'] }],
  additionalProperties: false,
};

const STEP_KINDS = ['fund', 'deploy', 'call', 'group', 'simulate', 'assert', 'read', 'wait'] as const;
/** A kind of workflow step. */
export type StepKind = (typeof STEP_KINDS)[number];
/** Every step kind. */
export const STEP_KIND_NAMES: readonly StepKind[] = STEP_KINDS;

const comparisons: Record<string, JsonSchema> = {
  equals: ref('value', 'Passes when the subject equals this (bytes, integers, strings, lists compared by value).'),
  'not-equals': ref('value', 'Passes when the subject differs from this.'),
  'greater-than': ref('value', 'Passes when the subject is greater (integers, strings, bytes).'),
  'less-than': ref('value', 'Passes when the subject is smaller.'),
  'at-least': ref('value', 'Passes when the subject is greater or equal.'),
  'at-most': ref('value', 'Passes when the subject is smaller or equal.'),
  contains: ref('value', 'Passes when the subject (string, bytes or list) contains this.'),
};

/** The JSON Schema of workflow files (also served to editors as schemas/tealworks.schema.json). */
export const WORKFLOW_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://tealworks.dev/schemas/tealworks.schema.json',
  title: 'Tealworks workflow',
  description:
    'A Tealworks workflow (`tealworks.yaml` or `*.workflow.yaml`): the network, accounts, contracts, and the steps that deploy, call, simulate and check them.',
  type: 'object',
  properties: {
    $schema: str('Schema of this file, for editors.'),
    name: str('Name shown in logs and reports.'),
    network: {
      description: 'Where to run: `devnet` (the built-in development network), `localnet`, `testnet`, `mainnet`, or explicit service addresses.',
      anyOf: [
        { type: 'string', enum: ['devnet', 'localnet', 'testnet', 'mainnet'], description: 'A named network profile.' },
        {
          type: 'object',
          description: 'Explicit service addresses.',
          properties: {
            name: str('Name for this network; checkpoints are kept per name. Defaults to the node URL.'),
            node: str('Node service URL.', { pattern: '^https?://' }),
            api: {
              type: 'string',
              enum: ['algod', 'node-service'],
              default: 'algod',
              description: 'Which API the node URL speaks: the public /v2 node API (`algod`) or the Tealworks node service.',
            },
            query: str('Query service URL (needed to find earlier deployments).', { pattern: '^https?://' }),
            kmd: str('Key-manager service URL.', { pattern: '^https?://' }),
            'token-env': str('Environment variable holding the node token.', { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
            'kmd-token-env': str('Environment variable holding the key-manager token.', { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
          },
          required: ['node'],
          additionalProperties: false,
        },
      ],
      default: 'devnet',
    },
    vars: {
      type: 'object',
      description: 'Named constants, readable in expressions as `vars.NAME`.',
      propertyNames: { pattern: NAME_PATTERN, description: 'Variable name.' },
      additionalProperties: ref('value'),
    },
    accounts: {
      type: 'object',
      description: 'Accounts by name. Steps refer to them by name; expressions read `accounts.NAME.address`.',
      propertyNames: { pattern: NAME_PATTERN, description: 'Account name.' },
      additionalProperties: ref('account'),
    },
    contracts: {
      type: 'object',
      description: 'Contracts by name: TEAL sources and/or an ARC-56/ARC-32 app spec.',
      propertyNames: { pattern: NAME_PATTERN, description: 'Contract name.' },
      additionalProperties: ref('contract'),
    },
    steps: {
      type: 'array',
      description: 'What to do, in order. A rerun skips steps that completed with the same definition.',
      items: ref('step'),
      minItems: 1,
    },
  },
  required: ['steps'],
  additionalProperties: false,
  definitions: {
    expr: { type: 'string', pattern: EXPR, description: 'A `${{ … }}` expression. Inside `{ }` or `[ ]` flow collections, put it in quotes.' },
    uint: {
      description: 'A non-negative integer (underscores allowed as separators), or an expression.',
      anyOf: [
        { type: 'integer', minimum: 0, description: 'An integer.' },
        { type: 'string', pattern: `^([0-9][0-9_]*|.*${EXPR}.*)$`, description: 'Digits with `_` separators, or an expression.' },
      ],
    },
    value: { description: 'Any value: integer, string, boolean, null, list or object; strings may contain `${{ … }}` expressions.' },
    accountRef: { type: 'string', description: 'The name of an account from `accounts`, or an expression.' },
    contractRef: { type: 'string', description: 'The name of a contract from `contracts`.' },
    addressRef: { type: 'string', description: 'An account name, a 58-character address, or an expression.' },
    appRef: ref('uint', 'An application id or an expression.'),
    boxRef: {
      description: 'A box reference: the box name (string, or an expression giving bytes) or `{ app, name }`.',
      anyOf: [
        { type: 'string', description: 'Box name of the called app.' },
        {
          type: 'object',
          description: 'Box of a given app.',
          properties: { app: ref('uint', 'App owning the box (0 or absent: the called app).'), name: str('Box name (text, or an expression giving bytes).') },
          required: ['name'],
          additionalProperties: false,
        },
      ],
    },
    account: {
      type: 'object',
      description: "Where an account's key comes from: exactly one of `generate`, `mnemonic-env`, `kmd`, `keystore`, `address`.",
      properties: {
        generate: bool("Create a fresh account (devnet/localnet only), funded from the network's dispenser.", { const: true }),
        'mnemonic-env': str('Environment variable holding the 25-word mnemonic. The mnemonic is never written to logs or state files.', {
          pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
        }),
        kmd: {
          type: 'object',
          description: 'An account held by the key-manager service.',
          properties: {
            wallet: str("Wallet name (default: the network's default wallet)."),
            'password-env': str('Environment variable holding the wallet password.', { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
            address: str("Which of the wallet's accounts (default: the first)."),
          },
          additionalProperties: false,
        },
        keystore: str('Name of a key in the local Tealworks keystore.'),
        address: str('A watch-only address: usable as a receiver or in reads, not as a signer.'),
        fund: ref('uint', 'Top the account up to at least this many micro-units before the first step (devnet/localnet).'),
        description: str('What the account is for.'),
      },
      oneOf: [{ required: ['generate'] }, { required: ['mnemonic-env'] }, { required: ['kmd'] }, { required: ['keystore'] }, { required: ['address'] }],
      additionalProperties: false,
    },
    contract: {
      type: 'object',
      description: "A contract: `approval` and `clear` TEAL files, an app spec, or both (sources then win over the spec's byte code); or a `logicsig` program.",
      properties: {
        approval: str('Approval program TEAL file, relative to the workflow file.'),
        logicsig: str(
          'Logic-signature program TEAL file, relative to the workflow file: its address is `contracts.NAME.address`, and transactions from that address are signed with the program.',
        ),
        clear: str('Clear-state program TEAL file, relative to the workflow file.'),
        spec: str('ARC-56 (or ARC-32) app spec JSON file, relative to the workflow file.'),
        name: str("App name recorded in the deploy note (default: the contract's key)."),
        template: {
          type: 'object',
          description: 'Template variables (`TMPL_NAME` in TEAL; write the name with or without the prefix): integers, strings, or expressions giving bytes.',
          propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'Template variable name.' },
          additionalProperties: ref('value'),
        },
        schema: ref('schema', 'State schema to create the app with (default: from the app spec).'),
        'extra-pages': { type: 'integer', minimum: 0, maximum: 3, description: 'Extra program pages (default: as few as the programs need).' },
        description: str('What the contract is.'),
      },
      anyOf: [{ required: ['approval', 'clear'] }, { required: ['spec'] }, { required: ['logicsig'] }],
      additionalProperties: false,
    },
    schema: {
      type: 'object',
      description: 'Application state schema.',
      properties: {
        'global-ints': { type: 'integer', minimum: 0, maximum: 64, description: 'Global uint slots.' },
        'global-bytes': { type: 'integer', minimum: 0, maximum: 64, description: 'Global byte-slice slots.' },
        'local-ints': { type: 'integer', minimum: 0, maximum: 16, description: 'Local uint slots per opted-in account.' },
        'local-bytes': { type: 'integer', minimum: 0, maximum: 16, description: 'Local byte-slice slots per opted-in account.' },
      },
      additionalProperties: false,
    },
    lifecycleCall: {
      type: 'object',
      description: 'The ABI method (and arguments) to use for this lifecycle transaction instead of a bare call.',
      properties: { method: str('Method name or signature.'), args: { type: 'array', description: 'Method arguments.', items: ref('value') } },
      required: ['method'],
      additionalProperties: false,
    },
    readGlobal: {
      type: 'object',
      description: 'Global state of an app (all keys, or one with `key`).',
      properties: {
        app: ref('appRef', 'The app.'),
        key: str('Key name (ARC-56 key name, or raw text) to read just one.'),
        contract: ref('contractRef', 'Contract whose app spec decodes the values.'),
      },
      required: ['app'],
      additionalProperties: false,
    },
    readLocal: {
      type: 'object',
      description: 'Local state of an account in an app.',
      properties: {
        app: ref('appRef', 'The app.'),
        account: ref('addressRef', 'The account.'),
        key: str('Key name to read just one.'),
        contract: ref('contractRef', 'Contract whose app spec decodes the values.'),
      },
      required: ['app', 'account'],
      additionalProperties: false,
    },
    readBox: {
      type: 'object',
      description: 'One box of an app.',
      properties: {
        app: ref('appRef', 'The app.'),
        name: str('Box name (text or an expression giving bytes).'),
        contract: ref('contractRef', 'Contract whose app spec decodes the value.'),
      },
      required: ['app', 'name'],
      additionalProperties: false,
    },
    readBoxes: {
      type: 'object',
      description: 'Box names (and values) of an app, paged.',
      properties: {
        app: ref('appRef', 'The app.'),
        prefix: str('Only boxes whose name starts with this.'),
        limit: ref('uint', 'At most this many boxes.'),
        values: bool("Also read each box's value.", { default: false }),
        contract: ref('contractRef', 'Contract whose app spec decodes names and values.'),
      },
      required: ['app'],
      additionalProperties: false,
    },
    readTarget: {
      type: 'object',
      description: 'What to read: exactly one of `global`, `local`, `box`, `boxes`, `balance`.',
      properties: {
        global: ref('readGlobal', 'Global state of an app.'),
        local: ref('readLocal', 'Local state of an account in an app.'),
        box: ref('readBox', 'One box.'),
        boxes: ref('readBoxes', 'Box names (and values), paged.'),
        balance: ref('addressRef', 'Balance (micro-units) of an account.'),
      },
      oneOf: [{ required: ['global'] }, { required: ['local'] }, { required: ['box'] }, { required: ['boxes'] }, { required: ['balance'] }],
      additionalProperties: false,
    },
    step: {
      type: 'object',
      description: 'One step: exactly one of `fund`, `deploy`, `call`, `group`, `simulate`, `assert`, `read`, `wait`, plus optional `id`, `name`, `if`.',
      properties: {
        id: str('Step id, for expressions (`steps.ID.…`) and checkpoints. Defaults to `step-N`.', { pattern: NAME_PATTERN }),
        name: str('Human-readable description shown in progress output.'),
        if: str('Run the step only when this expression is true.', { pattern: EXPR }),
        'continue-on-error': bool('Record a failure of this step and go on instead of stopping.', { default: false }),
        fund: {
          type: 'object',
          description: "Send funds to an account (from `from`, or the network's dispenser).",
          properties: {
            to: ref('addressRef', 'Receiver.'),
            amount: ref('uint', 'Micro-units to send.'),
            from: ref('accountRef', 'Paying account (default: the dispenser).'),
            note: str('Transaction note.'),
          },
          required: ['to', 'amount'],
          additionalProperties: false,
        },
        deploy: {
          type: 'object',
          description:
            'Idempotent deploy: find the app by creator and name (ARC-2 deploy note, AlgoKit-compatible), simulate, then create, update, replace, append or leave it.',
          properties: {
            contract: ref('contractRef', 'Contract to deploy.'),
            creator: ref('accountRef', 'Account that creates (and owns) the app.'),
            name: str("App name in the deploy note (default: the contract's `name` or key)."),
            version: str('Version recorded in the deploy note.', { default: '1.0' }),
            'on-update': {
              type: 'string',
              enum: ['fail', 'update', 'replace', 'append'],
              default: 'fail',
              description: 'When the programs changed: stop, update in place, delete and recreate, or create another app.',
            },
            'on-schema-break': {
              type: 'string',
              enum: ['fail', 'replace', 'append'],
              default: 'fail',
              description: 'When the app needs more state or pages than it has: stop, delete and recreate, or create another app.',
            },
            updatable: bool('Deploy-time permission: sets `TMPL_UPDATABLE` and is recorded in the note.'),
            deletable: bool('Deploy-time permission: sets `TMPL_DELETABLE` and is recorded in the note.'),
            template: {
              type: 'object',
              description: "Template variables for this deploy, overriding the contract's.",
              propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'Template variable name.' },
              additionalProperties: ref('value'),
            },
            create: ref('lifecycleCall', 'ABI method for the create transaction.'),
            update: ref('lifecycleCall', 'ABI method for an update transaction.'),
            delete: ref('lifecycleCall', 'ABI method for the delete transaction of a replace.'),
            'extra-fee': ref('uint', 'Added to the fees of the deploy transactions.'),
          },
          required: ['contract', 'creator'],
          additionalProperties: false,
        },
        call: {
          type: 'object',
          description: 'Call an application (ABI method or bare call).',
          properties: callProperties,
          required: ['app', 'sender'],
          additionalProperties: false,
        },
        group: {
          type: 'object',
          description: 'Send transactions as one atomic group.',
          properties: { txns: { type: 'array', description: 'The transactions, in order.', items: groupTxn, minItems: 1 } },
          required: ['txns'],
          additionalProperties: false,
        },
        simulate: {
          type: 'object',
          description: 'Simulate a call or group without changing anything, and check the outcome.',
          properties: {
            call: {
              type: 'object',
              description: 'The call to simulate.',
              properties: callProperties,
              required: ['app', 'sender'],
              additionalProperties: false,
            },
            group: { type: 'array', description: 'The group to simulate.', items: groupTxn, minItems: 1 },
            expect: { type: 'string', enum: ['success', 'failure', 'any'], default: 'success', description: 'Outcome the step requires.' },
            message: str('With `expect: failure`, text the failure message (or the ARC-56 error message) must contain.'),
            'extra-opcode-budget': ref('uint', 'Extra opcode budget for the simulation.'),
            'allow-unnamed-resources': bool('Let the simulation touch resources the transactions do not reference (and report them).', { default: true }),
          },
          oneOf: [{ required: ['call'] }, { required: ['group'] }],
          additionalProperties: false,
        },
        assert: {
          type: 'object',
          description:
            'Check a value: `that` (an expression) or a state read (`global`, `local`, `box`, `balance`), with a comparison; with no comparison `that` must be true.',
          properties: {
            that: ref('value', 'The value to check, usually an expression over earlier steps.'),
            global: ref('readGlobal', 'Read global state (needs `key`).'),
            local: ref('readLocal', 'Read local state (needs `key`).'),
            box: ref('readBox', 'Read a box.'),
            balance: ref('addressRef', 'Balance of an account.'),
            ...comparisons,
            message: str('Shown when the assertion fails.'),
          },
          oneOf: [{ required: ['that'] }, { required: ['global'] }, { required: ['local'] }, { required: ['box'] }, { required: ['balance'] }],
          additionalProperties: false,
        },
        read: ref('readTarget', "Read state, boxes or a balance into the step's output (`steps.ID.value`)."),
        wait: {
          type: 'object',
          description: 'Wait for rounds or seconds.',
          properties: { rounds: ref('uint', 'Rounds to wait.'), seconds: ref('uint', 'Seconds to wait.') },
          oneOf: [{ required: ['rounds'] }, { required: ['seconds'] }],
          additionalProperties: false,
        },
      },
      oneOf: STEP_KINDS.map((k) => ({ required: [k] })),
      additionalProperties: false,
    },
  },
};
