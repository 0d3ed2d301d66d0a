import { UsageError, type CliIo, type Command } from '../command.js';
import { readInputBytes, writeOutput } from '../files.js';
import { disassembleDetailed } from '../../teal/disassembler/index.js';
import { DisassembleError } from '../../teal/types.js';
import { fromHex } from '../../encoding/hex.js';
import { fromBase64Lenient } from '../../encoding/base64.js';
import { decodeMsgpack } from '../../encoding/msgpack.js';
import { fromUtf8 } from '../../encoding/bytes.js';

export type ProgramInputForm = 'binary' | 'hex' | 'base64' | 'logicsig' | 'signed-transaction';

/** Why the bytes of a file are not a program we can find. */
export class ProgramInputError extends Error {}

/**
 * Finds the program in a file's bytes: raw program bytes (`.tok`), hex or base64 text, or a
 * msgpack LogicSig / signed transaction carrying one. A real program's first byte is its version
 * (0..127, never a msgpack map); only versions 9, 10 and 13 look like text (tab, LF, CR), and the
 * rest of a program is almost never all printable.
 */
export function programFromFileBytes(bytes: Uint8Array): { program: Uint8Array; form: ProgramInputForm } {
  if (bytes.length === 0) throw new ProgramInputError('file is empty');
  const first = bytes[0]!;
  if ((first >= 0x80 && first <= 0x8f) || first === 0xde || first === 0xdf) {
    const fromMsgpack = programFromMsgpack(bytes);
    if (fromMsgpack) return fromMsgpack;
  }
  if (first >= 0x20 && first < 0x7f) return programFromText(fromUtf8Lenient(bytes));
  // Versions 9, 10 and 13 are also tab, LF and CR: such a file is text only if all of it is.
  if ((first === 0x09 || first === 0x0a || first === 0x0d) && isPrintableText(bytes)) return programFromText(fromUtf8Lenient(bytes));
  return { program: bytes, form: 'binary' };
}

function isPrintableText(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b < 0x7f));
}

function fromUtf8Lenient(bytes: Uint8Array): string {
  try {
    return fromUtf8(bytes);
  } catch {
    return '';
  }
}

function programFromMsgpack(bytes: Uint8Array): { program: Uint8Array; form: ProgramInputForm } | undefined {
  let value: unknown;
  try {
    value = decodeMsgpack(bytes);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record.l instanceof Uint8Array) return { program: record.l, form: 'logicsig' };
  const lsig = record.lsig as Record<string, unknown> | undefined;
  if (lsig && typeof lsig === 'object' && lsig.l instanceof Uint8Array) return { program: lsig.l, form: 'signed-transaction' };
  return undefined;
}

function programFromText(text: string): { program: Uint8Array; form: ProgramInputForm } {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') throw new ProgramInputError('file holds only whitespace');
  // Hex of a program starts with "0" (version byte below 0x10); base64 of one starts with A–D.
  const hexBody = compact.startsWith('0x') || compact.startsWith('0X') ? compact.slice(2) : compact;
  if (/^[0-9a-fA-F]+$/.test(hexBody) && hexBody.length % 2 === 0 && (hexBody.startsWith('0') || compact !== hexBody)) {
    return { program: fromHex(hexBody), form: 'hex' };
  }
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) {
    try {
      return { program: fromBase64Lenient(compact), form: 'base64' };
    } catch (e) {
      throw new ProgramInputError(`text is not valid base64: ${(e as Error).message}`);
    }
  }
  if (/#pragma|^\s*[a-z_]+[\s\n]/m.test(text)) {
    throw new ProgramInputError('this looks like TEAL source, not program bytes (use `tealworks assemble` to compile it)');
  }
  throw new ProgramInputError('text is neither hex nor base64 program bytes');
}

interface DisassembleArgs {
  file: string;
  out?: string;
  numericTargets: boolean;
}

function parseArgs(args: string[]): DisassembleArgs {
  let file: string | undefined;
  let out: string | undefined;
  let numericTargets = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-o' || a === '--out' || a === '--outfile') {
      const v = args[++i];
      if (v === undefined || v === '') throw new UsageError(`${a} needs a file name`);
      out = v;
    } else if (a.startsWith('--out=')) {
      out = a.slice('--out='.length);
      if (out === '') throw new UsageError('--out needs a file name');
    } else if (a === '--numeric-targets') {
      numericTargets = true;
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a}`);
    } else if (file === undefined) {
      file = a;
    } else {
      throw new UsageError(`one input file expected, got "${file}" and "${a}"`);
    }
  }
  if (file === undefined) throw new UsageError('missing input file (program bytes, hex or base64)');
  return { file, ...(out !== undefined ? { out } : {}), numericTargets };
}

async function run(args: string[], io: CliIo): Promise<number> {
  const opts = parseArgs(args);
  const bytes = await readInputBytes(io, opts.file);
  if (bytes === undefined) return 1;
  let text: string;
  try {
    const { program } = programFromFileBytes(bytes);
    text = disassembleDetailed(program, { numericTargets: opts.numericTargets }).text;
  } catch (e) {
    if (e instanceof ProgramInputError || e instanceof DisassembleError) {
      io.stderr(`${opts.file}: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  if (opts.out === undefined) {
    io.stdout(text);
    return 0;
  }
  return (await writeOutput(io, opts.out, text)) ? 0 : 1;
}

export const disassembleCommand: Command = {
  name: 'disassemble',
  summary: 'Turn program bytes (binary, hex, base64 or a LogicSig) back into TEAL',
  usage: 'tealworks disassemble FILE [-o OUT.teal] [--numeric-targets]',
  run,
};
