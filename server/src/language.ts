// Facts about TEAL source that are not in the opcode table: pseudo-ops, named constants for `int`,
// directives and pragmas. Kept in one place so completion, semantic tokens and the grammar agree.
import { MAX_AVM_VERSION, MODE_APP, MODE_LOGICSIG, opByName, type VersionedOp } from '@tealworks/sdk/teal';

export { MAX_AVM_VERSION, MODE_APP, MODE_LOGICSIG };

export type Mode = 'logicsig' | 'application';

export function modeBit(mode: Mode | undefined): number {
  return mode === 'logicsig' ? MODE_LOGICSIG : mode === 'application' ? MODE_APP : MODE_LOGICSIG | MODE_APP;
}

export interface PseudoOp {
  name: string;
  /** Snippet body after the name (LSP snippet syntax). */
  snippet: string;
  summary: string;
}

/** Assembler-only spellings that expand to one or more real opcodes. */
export const PSEUDO_OPS: readonly PseudoOp[] = [
  { name: 'int', snippet: '${1:0}', summary: 'push a uint64 (intc or pushint, chosen by the assembler)' },
  { name: 'byte', snippet: '${1:0x00}', summary: 'push bytes (bytec or pushbytes, chosen by the assembler)' },
  { name: 'addr', snippet: '${1:ADDRESS}', summary: 'push the 32-byte public key of an address' },
  { name: 'method', snippet: '"${1:name(args)return}"', summary: 'push the 4-byte ABI selector of a method signature' },
];

export const PSEUDO_OP_NAMES = new Set(PSEUDO_OPS.map((p) => p.name));

/** Names `int` accepts in place of a number: transaction types and OnCompletion actions. */
export const NAMED_INT_CONSTANTS: readonly { name: string; value: number; kind: 'TypeEnum' | 'OnCompletion' }[] = [
  { name: 'unknown', value: 0, kind: 'TypeEnum' },
  { name: 'pay', value: 1, kind: 'TypeEnum' },
  { name: 'keyreg', value: 2, kind: 'TypeEnum' },
  { name: 'acfg', value: 3, kind: 'TypeEnum' },
  { name: 'axfer', value: 4, kind: 'TypeEnum' },
  { name: 'afrz', value: 5, kind: 'TypeEnum' },
  { name: 'appl', value: 6, kind: 'TypeEnum' },
  { name: 'stpf', value: 7, kind: 'TypeEnum' },
  { name: 'hb', value: 8, kind: 'TypeEnum' },
  { name: 'NoOp', value: 0, kind: 'OnCompletion' },
  { name: 'OptIn', value: 1, kind: 'OnCompletion' },
  { name: 'CloseOut', value: 2, kind: 'OnCompletion' },
  { name: 'ClearState', value: 3, kind: 'OnCompletion' },
  { name: 'UpdateApplication', value: 4, kind: 'OnCompletion' },
  { name: 'DeleteApplication', value: 5, kind: 'OnCompletion' },
];

export const DIRECTIVES = ['#pragma', '#define'] as const;
export const PRAGMAS = ['version', 'typetrack', 'autosalt'] as const;

/** The op a statement's first token names at this version, or undefined (pseudo-op, macro, typo). */
export function opAt(name: string, version: number): VersionedOp | undefined {
  return opByName(name, version);
}

/** Branch-style immediates take label names. */
export function isLabelImmediate(encoding: string): boolean {
  return encoding === 'label' || encoding === 'varintLabel' || encoding === 'labels';
}
