// A broken `#pragma version` line (a bare `#pragma`, `#pragma version` with no number, a number the
// assembler does not know, a misspelt key) makes the assembler fall back to v1, and every later
// op or field newer than v1 is then reported too: dozens of errors for one mistake. The editor
// reports the one mistake precisely, checks the rest of the program as the latest AVM version
// (what a fresh program targets), and its quick fix writes that version.
import { lexLine, MAX_AVM_VERSION, parseTealUint, type TealDiagnostic } from '@tealworks/sdk/teal';

/** The version a broken or missing `#pragma version` is checked as and fixed to: the newest. */
export const LATEST_AVM_VERSION = MAX_AVM_VERSION;

/** A broken version line the server works around: where it is and what is wrong with it. */
export interface BrokenPragma {
  /** 0-based line of the `#pragma` directive. */
  line: number;
  /** Code-unit columns of the directive's first and last token. */
  start: number;
  end: number;
  /** The source with that line replaced by `#pragma version <latest>`. */
  repaired: string;
  /** The one diagnostic that replaces the assembler's cascade. */
  diagnostic: TealDiagnostic;
}

/** The text that sets the latest version (for the quick fix). */
export function latestPragma(): string {
  return `#pragma version ${LATEST_AVM_VERSION}`;
}

/** What is wrong with a `#pragma` line's tokens when it was meant to set the version, or undefined. */
function versionProblem(tokens: readonly { text: string }[]): string | undefined {
  const key = tokens[1]?.text;
  const fix = `write \`${latestPragma()}\` (the latest AVM version) or the version the program targets; until then the program is checked as v${LATEST_AVM_VERSION}`;
  if (key === undefined) return `empty pragma: ${fix}`;
  if (key === 'version') {
    const value = tokens[2]?.text;
    if (value === undefined) return `no version value: ${fix}`;
    const v = parseTealUint(value);
    if (v === undefined) return `bad #pragma version: "${value}": ${fix}`;
    if (v === 0n || v > BigInt(LATEST_AVM_VERSION)) return `unsupported version: ${value}: AVM versions are 1 to ${LATEST_AVM_VERSION}; ${fix}`;
    return undefined;
  }
  if (key === 'typetrack' || key === 'autosalt') return undefined;
  // A misspelt key (`#pragma versio 10`) on the line that should set the version.
  if (/^v/i.test(key) || /^\d+$/.test(key)) return `unsupported pragma directive: "${key}": ${fix}`;
  return undefined;
}

/**
 * The program's version line when it is broken and no valid `#pragma version` precedes its first
 * instruction; undefined otherwise (then the assembler's own diagnostics stand).
 */
export function brokenVersionPragma(source: string): BrokenPragma | undefined {
  if (!source.includes('#pragma')) return undefined;
  // Only the lines before the first instruction matter: lex them one by one (this runs on every
  // analysis, and lexing a whole large program each time costs more than the incremental analysis).
  let lineStart = 0;
  for (let i = 0; lineStart <= source.length; i++) {
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = source.length;
    let text = source.slice(lineStart, lineEnd);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    const from0 = lineStart;
    lineStart = lineEnd + 1;
    const tokens = lexLine(text, i).tokens;
    const first = tokens[0];
    if (!first) continue;
    if (first.text !== '#pragma') {
      // Other directives (`#define`) may come first; the first instruction ends the search.
      if (first.text.startsWith('#')) continue;
      return undefined;
    }
    if (tokens[1]?.text === 'version' && versionProblem(tokens) === undefined) return undefined;
    const problem = versionProblem(tokens);
    if (!problem) continue;
    const last = tokens[tokens.length - 1]!;
    const from = from0 + first.start;
    const to = from0 + last.end;
    const replacement = latestPragma();
    const repaired = source.slice(0, from) + replacement + source.slice(to);
    const utf16 = { column: first.start, endColumn: last.end, utf16Column: first.start, utf16EndColumn: last.end };
    return {
      line: i,
      start: first.start,
      end: last.end,
      repaired,
      diagnostic: { severity: 'error', message: problem, range: { line: i, ...utf16 }, code: 'pragma' },
    };
  }
  return undefined;
}

/**
 * Keeps the analysis of the repaired text honest about the real one: drops what the assembler said
 * about the substituted line and puts the one precise diagnostic first.
 */
export function withBrokenPragma(diagnostics: readonly TealDiagnostic[], broken: BrokenPragma): TealDiagnostic[] {
  return [broken.diagnostic, ...diagnostics.filter((d) => d.range.line !== broken.line)];
}
