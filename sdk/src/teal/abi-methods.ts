/**
 * ARC-4 methods of hand-written TEAL, read from its `method "name(args)ret"` lines: what an ABI
 * router written by hand compares `ApplicationArgs 0` with. Editors use it where no ARC-56 spec
 * exists (a typed call form, selector hovers, a disassembly's comments).
 */
import { AbiMethod, methodSelector } from '../abi/method.js';
import { toHex } from '../encoding/hex.js';
import { lexTeal, statementsOf, type LexToken } from './lexer.js';

/** One `method "…"` in TEAL source. */
export interface TealMethodLine {
  /** The signature as written (between the quotes). */
  signature: string;
  /** The 4-byte selector the line pushes: sha512_256(signature)[0:4]. */
  selector: Uint8Array;
  /** The selector in hex (8 digits). */
  selectorHex: string;
  /**
   * `method`: an ARC-4 method signature (`name(args)ret`); `event`: no return type, an ARC-28
   * event's log prefix (`Name(args)`); `inner`: a method this program calls with an inner
   * transaction (the next statement is `itxn_field`); `invalid`: text no ARC-4 type parses.
   */
  kind: 'method' | 'event' | 'inner' | 'invalid';
  /** The parsed method (for `method` and `inner`). */
  method?: AbiMethod;
  /** 0-based line and UTF-16 columns of the quoted signature token. */
  line: number;
  start: number;
  end: number;
  /** True when the line is inside a `#define` body (it takes effect where the macro is used). */
  inMacro: boolean;
}

/** The signature text of a quoted TEAL string token, when it is a plain one (no escapes). */
function quoted(token: LexToken | undefined): string | undefined {
  const t = token?.text;
  if (!t || t.length < 2 || !t.startsWith('"') || !t.endsWith('"')) return undefined;
  const inner = t.slice(1, -1);
  return inner.includes('\\') ? undefined : inner;
}

/** Index of the `)` closing the first `(` (the argument list), or -1. */
function closingParen(sig: string): number {
  let depth = 0;
  for (let i = sig.indexOf('('); i >= 0 && i < sig.length; i++) {
    if (sig[i] === '(') depth++;
    else if (sig[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Every `method "…"` of `source` (code and `#define` bodies), in source order. */
export function tealMethodLines(source: string): TealMethodLine[] {
  const out: TealMethodLine[] = [];
  const lines = lexTeal(source);
  for (const l of lines) {
    const first = l.tokens[0]?.text;
    const inMacro = first === '#define';
    if (first?.startsWith('#') && !inMacro) continue;
    const tokens = inMacro ? l.tokens.slice(2) : l.tokens;
    const statements = statementsOf(tokens);
    statements.forEach((st, k) => {
      const body = st[0]?.text.endsWith(':') ? st.slice(1) : st;
      if (body[0]?.text !== 'method') return;
      const signature = quoted(body[1]);
      if (signature === undefined) return;
      const tok = body[1]!;
      const selector = methodSelector(signature);
      const entry: TealMethodLine = {
        signature,
        selector,
        selectorHex: toHex(selector),
        kind: 'invalid',
        line: l.line,
        start: tok.start,
        end: tok.end,
        inMacro,
      };
      const argsEnd = closingParen(signature);
      if (argsEnd === signature.length - 1) entry.kind = /^[^(]+\(/.test(signature) ? 'event' : 'invalid';
      else {
        try {
          entry.method = AbiMethod.fromSignature(signature);
          entry.kind = nextOpIsItxnField(lines, l.line, statements, k) ? 'inner' : 'method';
        } catch {
          entry.kind = 'invalid';
        }
      }
      out.push(entry);
    });
  }
  return out;
}

/** Whether the statement after statement `k` of line `line` (same line, else the next code line) is `itxn_field`. */
function nextOpIsItxnField(lines: ReturnType<typeof lexTeal>, line: number, statements: LexToken[][], k: number): boolean {
  const opOf = (st: LexToken[] | undefined) => (st?.[0]?.text.endsWith(':') ? st[1]?.text : st?.[0]?.text);
  if (k + 1 < statements.length) return opOf(statements[k + 1]) === 'itxn_field';
  for (let i = line + 1; i < lines.length && i < line + 50; i++) {
    const toks = lines[i]!.tokens;
    if (!toks.length) continue;
    if (toks[0]!.text.startsWith('#')) return false;
    return opOf(statementsOf(toks)[0]) === 'itxn_field';
  }
  return false;
}

/**
 * The ARC-4 methods a hand-written router answers: the distinct `method "name(args)ret"`
 * signatures of `source`, in source order, without ARC-28 event prefixes, methods called through
 * inner transactions, or text that does not parse.
 */
export function tealAbiMethods(source: string): AbiMethod[] {
  const seen = new Set<string>();
  const out: AbiMethod[] = [];
  for (const m of tealMethodLines(source)) {
    if (m.kind !== 'method' || !m.method || seen.has(m.method.signature)) continue;
    seen.add(m.method.signature);
    out.push(m.method);
  }
  return out;
}
