import { TealworksError } from '../errors.js';

/**
 * The reason an instruction failed, thrown by op handlers. The run loop turns it into a
 * `LogicError` carrying where it happened; handlers never need to know the pc.
 */
export class AvmFault extends Error {
  constructor(message: string) {
    // A fault ends a program run and becomes the LogicError the caller sees (with its own stack):
    // capturing a stack here, on every rejected run, was a tenth of a failing call's time.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = 'AvmFault';
  }
}

/** Thrown for opcodes this interpreter cannot evaluate faithfully (never a guessed answer). */
export class AvmUnsupportedFault extends AvmFault {
  constructor(
    readonly opcode: string,
    detail?: string,
  ) {
    super(`not supported by this interpreter: ${opcode}${detail ? ` (${detail})` : ''}`);
    this.name = 'AvmUnsupportedFault';
  }
}

export function fault(message: string): never {
  throw new AvmFault(message);
}

/** Whether a program runs as a logic signature or an application. */
export type RunMode = 'logicsig' | 'app';

/** Why and where a program failed: reason, pc, opcode, mode, app, group path. */
export interface LogicErrorInfo {
  /** The failure itself, worded like the reference node so users can search for it. */
  reason: string;
  /** Program counter of the failing instruction (or of the check that rejected the program). */
  pc: number;
  /** Name of the failing opcode when one was being executed. */
  opcode?: string;
  mode: RunMode;
  /** App id for application programs. */
  appId?: bigint;
  /** Index path: [top-level group index, inner index, inner index …]. */
  groupPath: readonly number[];
  /** True when the static check (decoding, versions, static cost) rejected the program. */
  duringCheck?: boolean;
  /**
   * The disassembled instructions up to the failing one, as the node adds them (`, opcodes=…`)
   * when its developer API is on (LocalNet) and in simulate. Undefined: no `opcodes=` part.
   */
  opcodes?: string;
}

/**
 * A program failed. The message follows the node's shape — `logic eval error: <reason>. Details:
 * app=<id>, pc=<pc>, opcodes=<lines>` for applications and `rejected by logic err=<reason>. Details:
 * pc=<pc>, opcodes=<lines>` for
 * logic signatures — so existing searches and tooling keep working.
 */
export class LogicError extends TealworksError {
  readonly reason: string;
  readonly pc: number;
  readonly opcode: string | undefined;
  readonly mode: RunMode;
  readonly appId: bigint | undefined;
  readonly groupPath: readonly number[];
  readonly duringCheck: boolean;
  /** The node's `opcodes=` text (the failing instruction and up to two before it), when given. */
  readonly opcodes: string | undefined;

  constructor(info: LogicErrorInfo, options?: { cause?: unknown }) {
    const pcPart = `pc=${info.pc}${info.opcodes !== undefined ? `, opcodes=${info.opcodes}` : ''}`;
    const details = info.mode === 'app' ? `app=${info.appId ?? 0n}, ${pcPart}` : pcPart;
    const head = info.mode === 'app' ? `logic eval error: ${info.reason}` : `rejected by logic err=${info.reason}`;
    // A program's rejection is an outcome the ledger reports, not a fault of the caller's code: no
    // stack is captured (a ledger that throws it captures one where it throws; see AvmFault).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${head}. Details: ${details}`, options);
    Error.stackTraceLimit = limit;
    this.reason = info.reason;
    this.pc = info.pc;
    this.opcode = info.opcode;
    this.mode = info.mode;
    this.appId = info.appId;
    this.groupPath = info.groupPath;
    this.duringCheck = info.duringCheck ?? false;
    this.opcodes = info.opcodes;
  }

  /** True when the failure is an opcode this interpreter does not support. */
  get unsupported(): boolean {
    return this.reason.startsWith('not supported by this interpreter');
  }
}
