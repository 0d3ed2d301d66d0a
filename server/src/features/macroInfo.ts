// What a `#define` stands for: its body with nested macros expanded, whether it is a constant (and
// of which kind) or code, and the code's stack effect computed from the opcode table. Hover shows
// it; completion offers a macro only where what it expands to fits.
import { parseTealUint, type VersionedOp } from '@tealworks/sdk/teal';
import type { DocumentModel, MacroDefinition } from '../document.js';
import { NAMED_INT_CONSTANTS, opAt } from '../language.js';

/** How deep nested macro uses are expanded for display (the assembler's own limit is larger). */
const MAX_DEPTH = 16;

/** A macro body expanded: its statements (tokens of nested macros replaced by their bodies). */
export interface Expansion {
  statements: string[][];
  /** Set when a nested use could not be expanded (a cycle or too deep). */
  incomplete?: string;
}

/** Expands `macro`'s body through the document's other macros (each use, its last definition). */
export function expandMacro(model: DocumentModel, macro: MacroDefinition): Expansion {
  const out: string[] = [];
  let incomplete: string | undefined;
  const walk = (body: readonly { text: string }[], chain: readonly string[]) => {
    for (const t of body) {
      const inner = model.macros.get(t.text);
      if (inner && !chain.includes(t.text) && chain.length < MAX_DEPTH) walk(inner.body, [...chain, t.text]);
      else {
        if (inner) incomplete ??= chain.includes(t.text) ? `${t.text} uses itself` : `nested deeper than ${MAX_DEPTH} levels`;
        out.push(t.text);
      }
    }
  };
  walk(macro.body, [macro.name]);
  const statements: string[][] = [[]];
  for (const t of out) {
    if (t === ';') statements.push([]);
    else statements[statements.length - 1]!.push(t);
  }
  const result: Expansion = { statements: statements.filter((s) => s.length > 0) };
  if (incomplete) result.incomplete = incomplete;
  return result;
}

/** What a macro stands for, as far as an immediate or a constant's place is concerned. */
export type MacroKind =
  /** A constant: where it fits (`0x…` is both an integer and bytes; a `TMPL_` name either). */
  | { kind: 'constant'; uint: boolean; bytes: boolean; named?: 'TypeEnum' | 'OnCompletion'; template?: boolean }
  /** One bare word: a field, a label or a constant name, depending on where it is used. */
  | { kind: 'word'; word: string }
  | { kind: 'code' }
  | { kind: 'other' };

const BYTES_ENCODINGS = new Set(['base32', 'b32', 'base64', 'b64']);

/** Classifies what `macro` expands to (at the document's version). */
export function macroKind(model: DocumentModel, macro: MacroDefinition): MacroKind {
  const { statements } = expandMacro(model, macro);
  if (statements.length !== 1) return statements.length ? { kind: 'code' } : { kind: 'other' };
  const st = statements[0]!;
  const first = st[0]!;
  if (st.length === 1) {
    if (first.startsWith('TMPL_')) return { kind: 'constant', uint: true, bytes: true, template: true };
    const hex = /^0x[0-9a-fA-F]*$/.test(first);
    if (parseTealUint(first) !== undefined) return { kind: 'constant', uint: true, bytes: hex && first.length % 2 === 0 };
    if (hex) return { kind: 'constant', uint: false, bytes: true };
    const named = NAMED_INT_CONSTANTS.find((c) => c.name === first);
    if (named) return { kind: 'constant', uint: true, bytes: false, named: named.kind };
    if (first.startsWith('"') || /^(base32|b32|base64|b64)\(.*\)$/.test(first)) return { kind: 'constant', uint: false, bytes: true };
  }
  if (st.length === 2 && BYTES_ENCODINGS.has(first)) return { kind: 'constant', uint: false, bytes: true };
  const version = model.analysis?.version ?? model.avmVersion;
  if (opAt(first, version) || ['int', 'byte', 'addr', 'method'].includes(first) || first.endsWith(':')) return { kind: 'code' };
  if (st.length === 1 && /^[A-Za-z_][A-Za-z0-9_.]*$/.test(first)) return { kind: 'word', word: first };
  return { kind: 'other' };
}

/** The net stack effect of straight-line TEAL: what it takes from below and what it leaves. */
export interface StackEffect {
  /** Types taken from the stack below, bottom first. */
  takes: string[];
  /** Types left on the stack, bottom first. */
  leaves: string[];
  /** How control may leave the code early, e.g. "may branch to done" or "ends the program". */
  notes: string[];
  /** Set when the effect cannot be known statically (why). */
  unknown?: string;
}

function uintImm(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const v = parseTealUint(text);
  return v !== undefined && v < 256n ? Number(v) : undefined;
}

/** Stack arguments and results of one statement, from the table (dynamic ops from their immediates); `stop` when control does not fall through. */
export function opEffect(st: readonly string[], version: number): { args: string[]; returns: string[]; note?: string; stop?: string; unknown?: string } {
  const name = st[0]!;
  switch (name) {
    case 'int':
      return { args: [], returns: ['uint64'] };
    case 'byte':
      return { args: [], returns: ['[]byte'] };
    case 'addr':
      return { args: [], returns: ['address'] };
    case 'method':
      return { args: [], returns: ['[4]byte'] };
  }
  const op: VersionedOp | undefined = opAt(name, version);
  if (!op) return { args: [], returns: [], unknown: `\`${name}\` is not an opcode at v${version}` };
  const n = uintImm(st[1]);
  const any = (k: number) => Array.from({ length: k }, () => 'any');
  switch (name) {
    case 'pushints':
      return { args: [], returns: st.slice(1).map(() => 'uint64') };
    case 'pushbytess':
      return { args: [], returns: st.slice(1).map(() => '[]byte') };
    case 'dupn':
      return n === undefined ? { args: [], returns: [], unknown: 'dupn without a literal count' } : { args: ['any'], returns: any(n + 1) };
    case 'popn':
      return n === undefined ? { args: [], returns: [], unknown: 'popn without a literal count' } : { args: any(n), returns: [] };
    case 'dig':
      return n === undefined ? { args: [], returns: [], unknown: 'dig without a literal depth' } : { args: any(n + 1), returns: any(n + 2) };
    case 'cover':
    case 'uncover':
      return n === undefined ? { args: [], returns: [], unknown: `${name} without a literal depth` } : { args: any(n + 1), returns: any(n + 1) };
    case 'bury':
      return n === undefined || n === 0 ? { args: [], returns: [], unknown: 'bury without a literal depth' } : { args: any(n + 1), returns: any(n) };
    case 'match': {
      const labels = st.length - 1;
      return { args: any(labels + 1), returns: [], note: `may branch to ${st.slice(1).join(', ')}` };
    }
    case 'switch':
      return { args: ['uint64'], returns: [], note: `may branch to ${st.slice(1).join(', ')}` };
    case 'callsub':
      return { args: [], returns: [], unknown: `it calls subroutine ${st[1] ?? ''}, whose effect is its own` };
    case 'proto':
    case 'retsub':
    case 'frame_dig':
    case 'frame_bury':
      if (name === 'retsub') return { args: [], returns: [], stop: 'returns from the subroutine' };
      if (name === 'proto') return { args: [], returns: [], unknown: 'proto starts a subroutine frame' };
      break;
    case 'b':
      return { args: [], returns: [], stop: `branches to ${st[1] ?? '?'}` };
    case 'bnz':
    case 'bz':
      return { args: ['uint64'], returns: [], note: `may branch to ${st[1] ?? '?'}` };
    case 'return':
      return { args: ['uint64'], returns: [], stop: 'ends the program' };
    case 'err':
      return { args: [], returns: [], stop: 'fails the program' };
  }
  return { args: [...op.args], returns: [...op.returns] };
}

/** The stack effect of `statements` run in order (labels skipped), or why it is not static. */
export function stackEffect(statements: readonly (readonly string[])[], version: number): StackEffect {
  const takes: string[] = [];
  const own: string[] = [];
  const notes: string[] = [];
  for (const raw of statements) {
    const st = raw[0]?.endsWith(':') ? raw.slice(1) : raw;
    if (!st.length) continue;
    const e = opEffect(st, version);
    if (e.unknown) return { takes, leaves: own, notes, unknown: e.unknown };
    // Pop the arguments top first; what the code did not push itself comes from below.
    for (let i = e.args.length - 1; i >= 0; i--) {
      if (own.length) own.pop();
      else takes.unshift(e.args[i]!);
    }
    own.push(...e.returns);
    if (e.note) notes.push(e.note);
    if (e.stop) {
      notes.push(e.stop);
      break;
    }
  }
  return { takes, leaves: own, notes };
}

/** "A: uint64, B: []byte → X: bool"-style text for an effect (the opcode docs' naming). */
export function effectText(e: StackEffect): string {
  const takes = e.takes.map((t, i) => `${i < 23 ? String.fromCharCode(65 + i) : `A${i}`}: ${t}`).join(', ');
  const leaves = e.leaves.map((t, i) => `${i < 3 ? 'XYZ'[i] : `X${i}`}: ${t}`).join(', ');
  return `${takes || 'nothing'} → ${leaves || 'nothing'}`;
}

/** Hover Markdown for a macro: definition, expansion, and what it is or does to the stack. */
export function macroMarkdown(model: DocumentModel, macro: MacroDefinition, uses?: number): string {
  const fenced = (text: string) => '```teal\n' + text + '\n```';
  const bodyText = macro.body
    .map((t) => t.text)
    .join(' ')
    .replace(/ ;/g, ';');
  const out = [fenced(`#define ${macro.name} ${bodyText}`)];
  const exp = expandMacro(model, macro);
  const kind = macroKind(model, macro);
  const expandedText = exp.statements.map((s) => s.join(' ')).join('\n');
  const nested =
    exp.statements.flat().join(' ') !==
    macro.body
      .filter((t) => t.text !== ';')
      .map((t) => t.text)
      .join(' ');
  if (kind.kind !== 'code') {
    const what =
      kind.kind === 'constant'
        ? kind.template
          ? 'a template variable: the deploy tool gives its value'
          : kind.uint && kind.bytes
            ? 'a constant that reads as an integer after `int` and as bytes after `byte`'
            : kind.uint
              ? `an integer constant${kind.named ? ` (a ${kind.named} name)` : ''}: it goes after \`int\` or as a number immediate`
              : 'a byte-string constant: it goes after `byte` (or `pushbytes`)'
        : kind.kind === 'word'
          ? 'a name: a field, label or constant name where an immediate takes one'
          : 'text for an immediate';
    out.push('', `Stands for \`${expandedText}\`, ${what}.`);
  } else {
    if (nested) out.push('', 'Expands to:', fenced(expandedText));
    const effect = stackEffect(exp.statements, model.analysis?.version ?? model.avmVersion);
    if (effect.unknown) out.push('', `Stack effect: not static (${effect.unknown}).`);
    else {
      out.push('', `**Stack:** \`${effectText(effect)}\` (takes ${effect.takes.length}, leaves ${effect.leaves.length})`);
      if (effect.notes.length) out.push('', `Control: ${effect.notes.join('; ')}.`);
    }
  }
  if (exp.incomplete) out.push('', `Not fully expanded: ${exp.incomplete}.`);
  if (uses !== undefined) out.push('', `Used ${uses} time${uses === 1 ? '' : 's'} outside other macros.`);
  return out.join('\n');
}
