/**
 * Named integer constants accepted by the `int` pseudo-op, and the assembler directives. Values are
 * protocol facts; the sentences are ours.
 */
export type NamedConstantKind = 'TypeEnum' | 'OnCompletion';

export interface NamedConstantDoc {
  readonly value: number;
  readonly kind: NamedConstantKind;
  readonly doc: string;
}

const PAY = 'A payment: moves microalgos from Sender to Receiver, optionally closing the sender account.';
const KEYREG = 'A key registration: brings an account online with participation keys, or takes it offline.';
const ACFG = 'An asset configuration: creates, reconfigures or destroys an asset (ASA).';
const AXFER = 'An asset transfer: moves asset units, opts in (0 units to oneself), opts out, or claws back.';
const AFRZ = 'An asset freeze: freezes or unfreezes one account’s holding of an asset.';
const APPL = 'An application call: runs an app’s approval or clear-state program, or creates an app.';

export const NAMED_CONSTANTS: Readonly<Record<string, NamedConstantDoc>> = {
  unknown: { value: 0, kind: 'TypeEnum', doc: 'No valid transaction type; no real transaction has this value.' },
  pay: { value: 1, kind: 'TypeEnum', doc: PAY },
  keyreg: { value: 2, kind: 'TypeEnum', doc: KEYREG },
  acfg: { value: 3, kind: 'TypeEnum', doc: ACFG },
  axfer: { value: 4, kind: 'TypeEnum', doc: AXFER },
  afrz: { value: 5, kind: 'TypeEnum', doc: AFRZ },
  appl: { value: 6, kind: 'TypeEnum', doc: APPL },
  stpf: { value: 7, kind: 'TypeEnum', doc: 'A state proof transaction, submitted by the network itself rather than by users.' },
  hb: { value: 8, kind: 'TypeEnum', doc: 'A heartbeat: shows that an online account is still participating.' },
  Payment: { value: 1, kind: 'TypeEnum', doc: `Long name of \`pay\`. ${PAY}` },
  KeyRegistration: { value: 2, kind: 'TypeEnum', doc: `Long name of \`keyreg\`. ${KEYREG}` },
  AssetConfig: { value: 3, kind: 'TypeEnum', doc: `Long name of \`acfg\`. ${ACFG}` },
  AssetTransfer: { value: 4, kind: 'TypeEnum', doc: `Long name of \`axfer\`. ${AXFER}` },
  AssetFreeze: { value: 5, kind: 'TypeEnum', doc: `Long name of \`afrz\`. ${AFRZ}` },
  ApplicationCall: { value: 6, kind: 'TypeEnum', doc: `Long name of \`appl\`. ${APPL}` },
  NoOp: { value: 0, kind: 'OnCompletion', doc: 'A plain call: only the approval program runs, with no other effect.' },
  OptIn: { value: 1, kind: 'OnCompletion', doc: 'Allocates the sender’s local state for the app before the approval program runs.' },
  CloseOut: { value: 2, kind: 'OnCompletion', doc: 'Removes the sender’s local state for the app once the approval program has approved.' },
  ClearState: {
    value: 3,
    kind: 'OnCompletion',
    doc: 'Runs the clear-state program instead of the approval program and removes the sender’s local state even if that program rejects.',
  },
  UpdateApplication: {
    value: 4,
    kind: 'OnCompletion',
    doc: 'Replaces both of the app’s programs with the ones in the transaction once the approval program has approved.',
  },
  DeleteApplication: { value: 5, kind: 'OnCompletion', doc: 'Deletes the app once the approval program has approved.' },
};

export interface DirectiveDoc {
  readonly syntax: string;
  readonly summary: string;
  readonly details: string;
}

/** Keyed by how the directive starts in source. */
export const DIRECTIVE_DOCS: Readonly<Record<string, DirectiveDoc>> = {
  '#pragma version': {
    syntax: '#pragma version N',
    summary: 'Choose the AVM version the program is assembled for.',
    details:
      'Must come before the first instruction; without it the program is assembled as v1. N is written like any integer (decimal, 0x…, 0o…, 0b…). It decides which opcodes and fields exist and how branches and constants are encoded. Repeating the same version is harmless; a different one is an error.',
  },
  '#pragma typetrack': {
    syntax: '#pragma typetrack true|false',
    summary: 'Turn the assembler’s stack type checking on or off from this point.',
    details:
      'On by default. While off, type and stack-height errors are not reported, which compiler output sometimes needs. Turning it back on forgets what was known about the stack, so checking resumes from an unknown state. Allowed anywhere, any number of times.',
  },
  '#pragma autosalt': {
    syntax: '#pragma autosalt true|false',
    summary: 'Control whether the assembler salts a logicsig so its hash is not an Ed25519 point.',
    details:
      'From v13, programs that use no application-only opcodes are salted by default: an extra intcblock value is added until the program hash, which is also the logicsig address, cannot be a public key. `false` turns this off (with a warning if the hash lands on the curve); `true` forces it. Must come before the first instruction.',
  },
  '#define': {
    syntax: '#define NAME BODY…',
    summary: 'Define a macro: every later use of NAME is replaced by the body tokens.',
    details:
      'The body may contain several statements separated by `;`. A name may not be an opcode or field name of the program’s version, a named constant such as `pay`, a pseudo-op name or a label, and definitions that would expand forever are rejected. Redefining a name replaces its body.',
  },
};
