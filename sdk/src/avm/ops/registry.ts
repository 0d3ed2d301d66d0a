import { AvmUnsupportedFault } from '../errors.js';
import type { Handler, Instr } from '../context.js';

export interface OpImplementation {
  exec: Handler;
  /** Turns immediates into ready-to-use data once, when the program is decoded. */
  prepare?: (ins: Instr, version: number) => void;
}

const implementations = new Map<string, OpImplementation>();
const unsupported = new Map<string, string>();
let coverage: Set<string> | undefined;

/**
 * Records, from now on, which opcodes execute successfully (used by the conformance report).
 * Must be called before programs are compiled: compiled programs keep the handlers they got.
 */
export function trackOpCoverage(): Set<string> {
  coverage ??= new Set();
  return coverage;
}

/** Marks an op (or some of its fields) as refusing to run, with the exact error users will see. */
export function declareUnsupported(name: string, error: string): void {
  unsupported.set(name, error);
}

export function unsupportedOps(): ReadonlyMap<string, string> {
  return unsupported;
}

/** Registers the behaviour of the op called `name` (names come from the opcode table). */
export function defineOp(name: string, exec: Handler, prepare?: (ins: Instr, version: number) => void): void {
  implementations.set(name, prepare ? { exec, prepare } : { exec });
}

/** True when the AVM implements the opcode of this name. */
export function hasImplementation(name: string): boolean {
  return implementations.has(name);
}

export function implementationFor(name: string): OpImplementation {
  const impl = implementations.get(name);
  if (impl && coverage) {
    const seen = coverage;
    const exec = impl.exec;
    return {
      ...impl,
      exec: (cx, ins) => {
        try {
          exec(cx, ins);
        } catch (e) {
          // `err` does its job by failing.
          if (name === 'err') seen.add(name);
          throw e;
        }
        seen.add(name);
      },
    };
  }
  if (impl) return impl;
  return {
    exec: () => {
      throw new AvmUnsupportedFault(name);
    },
  };
}
