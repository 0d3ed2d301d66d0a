// The messages the simulate panel's webview and the extension exchange, and a small schema
// validator for them. The webview is treated as untrusted input: every message it posts is checked
// against these shapes before anything acts on it, and unknown or malformed ones are dropped.
// No `vscode` import here, so it is unit-testable in plain Node.

export type Schema =
  | { kind: 'string'; max?: number; pattern?: RegExp }
  | { kind: 'number'; integer?: boolean; min?: number; max?: number }
  | { kind: 'boolean' }
  | { kind: 'literal'; value: string }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'array'; items: Schema; max: number }
  | { kind: 'object'; fields: Record<string, Schema>; optional?: readonly string[] };

const str = (max = 4096, pattern?: RegExp): Schema => (pattern ? { kind: 'string', max, pattern } : { kind: 'string', max });
const int = (min: number, max: number): Schema => ({ kind: 'number', integer: true, min, max });
const obj = (fields: Record<string, Schema>, optional: readonly string[] = []): Schema => ({ kind: 'object', fields, optional });

/**
 * A workspace-relative .teal path: the webview may only point at programs inside the workspace
 * (no absolute paths, no `..` segments), since the extension reads and opens what it names.
 */
export const WORKSPACE_TEAL = /^(?![\\/])(?![A-Za-z]:)(?!(?:.*[\\/])?\.\.(?:[\\/]|$))[^\0]*\.teal$/;
/** A workspace-relative TEAL file or a contract source compilers map back to (Algorand Python `.py`, Algorand TypeScript `.algo.ts`). */
export const WORKSPACE_SOURCE = /^(?![\\/])(?![A-Za-z]:)(?!(?:.*[\\/])?\.\.(?:[\\/]|$))[^\0]*\.(?:teal|py|algo\.ts)$/;

/** Decimal uint64 text (the webview keeps amounts and ids as text so they stay exact). */
const UINT_TEXT = /^\s*\d{0,20}\s*$/;

export const TXN_KINDS = ['appcall', 'payment', 'assetTransfer'] as const;
export type TxnKind = (typeof TXN_KINDS)[number];

/** One transaction of the group as the form holds it: everything is text until built. */
export interface TxnFormInput {
  kind: TxnKind;
  sender: string;
  /** Payment/asset transfer. */
  receiver?: string;
  amount?: string;
  assetId?: string;
  /** App call: '' or '0' creates from the program in `source`. */
  appId?: string;
  /** App call: the TEAL file (workspace-relative path) whose program is created, for app id 0. */
  source?: string;
  onComplete?: string;
  /** ABI method signature from the app spec, or '' for raw arguments. */
  method?: string;
  /** One text per ABI argument, or raw arguments (`0x…`, `int:5`, plain text). */
  args?: string[];
  fee?: string;
  note?: string;
}

const txnSchema = obj(
  {
    kind: { kind: 'enum', values: TXN_KINDS },
    sender: str(58),
    receiver: str(58),
    amount: str(24, UINT_TEXT),
    assetId: str(24, UINT_TEXT),
    appId: str(24, UINT_TEXT),
    source: str(1024, WORKSPACE_TEAL),
    onComplete: { kind: 'enum', values: ['NoOp', 'OptIn', 'CloseOut', 'ClearState', 'UpdateApplication', 'DeleteApplication'] },
    method: str(1024),
    args: { kind: 'array', items: str(4096), max: 16 },
    fee: str(24, UINT_TEXT),
    note: str(1024),
  },
  ['receiver', 'amount', 'assetId', 'appId', 'source', 'onComplete', 'method', 'args', 'fee', 'note'],
);

/** Messages the webview may post. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'simulate'; group: TxnFormInput[] }
  | { type: 'send'; group: TxnFormInput[] }
  | { type: 'rows'; group: TxnFormInput[] }
  | { type: 'reveal'; file: string; line: number; column: number }
  | { type: 'copy'; text: string }
  | { type: 'debug' }
  | { type: 'appAddress'; appId: string }
  | { type: 'fund'; address: string; amount: string };

const webviewSchemas: Record<WebviewMessage['type'], Schema> = {
  ready: obj({ type: { kind: 'literal', value: 'ready' } }),
  simulate: obj({ type: { kind: 'literal', value: 'simulate' }, group: { kind: 'array', items: txnSchema, max: 16 } }),
  send: obj({ type: { kind: 'literal', value: 'send' }, group: { kind: 'array', items: txnSchema, max: 16 } }),
  // The rows as typed (kept by the extension too, so a window reload brings them back even when
  // the webview's own saved state does not survive it).
  rows: obj({ type: { kind: 'literal', value: 'rows' }, group: { kind: 'array', items: txnSchema, max: 16 } }),
  reveal: obj({ type: { kind: 'literal', value: 'reveal' }, file: str(1024, WORKSPACE_SOURCE), line: int(1, 1_000_000), column: int(1, 100_000) }),
  copy: obj({ type: { kind: 'literal', value: 'copy' }, text: str(65536) }),
  // Opens the debugger on the last simulated group (the extension keeps it; nothing else is trusted).
  debug: obj({ type: { kind: 'literal', value: 'debug' } }),
  // The account address of an app (a receiver for a transaction argument); answered with the same type.
  appAddress: obj({ type: { kind: 'literal', value: 'appAddress' }, appId: str(20, /^[1-9]\d{0,19}$/) }),
  // Tops up an account a minimum-balance rejection named (the extension asks before sending off the devnet).
  fund: obj({ type: { kind: 'literal', value: 'fund' }, address: str(58, /^[A-Z2-7]{58}$/), amount: str(20, /^\d{1,20}$/) }),
};

/** Checks `value` against `schema`; returns the first problem as a path and reason, or undefined. */
export function validate(value: unknown, schema: Schema, path = '$'): string | undefined {
  switch (schema.kind) {
    case 'string':
      if (typeof value !== 'string') return `${path}: expected a string`;
      if (schema.max !== undefined && value.length > schema.max) return `${path}: longer than ${schema.max} characters`;
      if (schema.pattern && !schema.pattern.test(value)) return `${path}: does not match ${schema.pattern}`;
      return undefined;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${path}: expected a number`;
      if (schema.integer && !Number.isInteger(value)) return `${path}: expected an integer`;
      if (schema.min !== undefined && value < schema.min) return `${path}: below ${schema.min}`;
      if (schema.max !== undefined && value > schema.max) return `${path}: above ${schema.max}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${path}: expected true or false`;
    case 'literal':
      return value === schema.value ? undefined : `${path}: expected ${JSON.stringify(schema.value)}`;
    case 'enum':
      return typeof value === 'string' && schema.values.includes(value) ? undefined : `${path}: expected one of ${schema.values.join(', ')}`;
    case 'array': {
      if (!Array.isArray(value)) return `${path}: expected a list`;
      if (value.length > schema.max) return `${path}: more than ${schema.max} entries`;
      for (let i = 0; i < value.length; i++) {
        const problem = validate(value[i], schema.items, `${path}[${i}]`);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${path}: expected an object`;
      const o = value as Record<string, unknown>;
      const optional = new Set(schema.optional ?? []);
      for (const key of Object.keys(o)) if (!(key in schema.fields)) return `${path}: unexpected field ${JSON.stringify(key.slice(0, 40))}`;
      for (const [key, s] of Object.entries(schema.fields)) {
        if (!(key in o) || o[key] === undefined) {
          if (optional.has(key)) continue;
          return `${path}.${key}: missing`;
        }
        const problem = validate(o[key], s, `${path}.${key}`);
        if (problem) return problem;
      }
      return undefined;
    }
  }
}

export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

/** Validates one message from the webview. Never throws. */
export function parseWebviewMessage(value: unknown): Parsed<WebviewMessage> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'message is not an object' };
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(webviewSchemas, type)) {
    return { ok: false, reason: `unknown message type ${JSON.stringify(typeof type === 'string' ? type.slice(0, 40) : typeof type)}` };
  }
  const problem = validate(value, webviewSchemas[type as WebviewMessage['type']]);
  return problem ? { ok: false, reason: problem } : { ok: true, message: value as WebviewMessage };
}

/** A saved panel state as VS Code (or the rows file) hands it back: the object, or its JSON text. */
function savedObject(saved: unknown): Record<string, unknown> | undefined {
  let value = saved;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The rows a webview saved (vscode.setState) as VS Code hands them back: the object, or its JSON text. */
export function restoredRows(saved: unknown): unknown[] {
  const rows = savedObject(saved)?.rows;
  return Array.isArray(rows) ? rows : [];
}

/**
 * The network and chain (genesis id) saved rows were made on, when the saved state says
 * (short names only: anything else is left out), else undefined.
 */
export function restoredChain(saved: unknown): { network?: string; chain?: string } | undefined {
  const o = savedObject(saved);
  const pick = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined);
  const network = pick(o?.network);
  const chain = pick(o?.chain);
  if (network === undefined && chain === undefined) return undefined;
  return { ...(network !== undefined ? { network } : {}), ...(chain !== undefined ? { chain } : {}) };
}
