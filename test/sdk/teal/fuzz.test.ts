import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { decodeProgram, disassemble } from '../../../sdk/src/teal/disassembler/index.js';
import { parseNodeSourceMap, toNodeSourceMap } from '../../../sdk/src/teal/sourcemap.js';
import { MAX_AVM_VERSION, opsAt } from '../../../sdk/src/teal/spec/index.js';
import { DisassembleError } from '../../../sdk/src/teal/types.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import { hexToBytes, isAssembleError, sharedData, toHexString, withoutTypeTracking } from './disassembler/assembler-bridge.js';

/*
 * Bounded fuzzing of the assembler and disassembler: mutated real sources and random bytes must
 * either work or fail with AssembleError / DisassembleError — never another exception — and every
 * program that assembles must survive disassemble → reassemble unchanged.
 *
 * TEALWORKS_FUZZ_ITERATIONS scales the run (default keeps `npm test` to a few seconds);
 * TEALWORKS_FUZZ_SEED picks another seed. A failure prints the seed and the offending input.
 */

const ITERATIONS = Math.max(1, Number(process.env.TEALWORKS_FUZZ_ITERATIONS ?? '') || 150);
const SEED = Number(process.env.TEALWORKS_FUZZ_SEED ?? '') || 0x7ea1;
/** No generated input is larger than this, so no single case can run long. */
const MAX_SOURCE_CHARS = 96 * 1024;
const MAX_PROGRAM_BYTES = 2048;
/**
 * What source with no statement at all (e.g. only a comment) assembles to: its version is never
 * settled and the reference writes its "no version" marker 2^64−1. Nothing to round-trip there.
 */
const NO_VERSION_PROGRAM = 'ffffffffffffffffff01';

/** mulberry32: small, fast, good enough to drive mutations reproducibly. */
function prng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]!, chance: (p: number) => next() < p };
}

interface Rng {
  next(): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

const conformanceDir = resolve(sharedData, 'teal-conformance');
const corpusDir = resolve(sharedData, 'teal-corpus');

function readSources(): string[] {
  const out: string[] = [];
  if (existsSync(conformanceDir)) {
    for (let v = 2; v <= MAX_AVM_VERSION; v++) out.push(readFileSync(join(conformanceDir, `v${v}.teal`), 'utf8'));
  }
  if (existsSync(corpusDir)) {
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else if (e.name.endsWith('.teal')) out.push(readFileSync(join(dir, e.name), 'utf8'));
      }
    };
    walk(corpusDir);
  }
  // Small hand-written seeds so the fuzzer has material even without the shared data.
  out.push(
    '#pragma version 8\nint 1\nbnz a\nbyte "x"\npop\na:\nint 2\nreturn\n',
    '#pragma version 13\nmain:\ncallsub f\nint 1\nreturn\nf:\nproto 0 0\nretsub\n',
    '#pragma version 10\nint 3\nswitch a b c\na:\nb:\nc:\nint 1\n',
    '#pragma version 4\n#define two int 2\ntwo; two; +\n',
  );
  return out;
}

function readHexPrograms(): Uint8Array[] {
  if (!existsSync(conformanceDir)) return [];
  const out: Uint8Array[] = [];
  for (let v = 2; v <= MAX_AVM_VERSION; v++) out.push(hexToBytes(readFileSync(join(conformanceDir, `v${v}.hex`), 'utf8')));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Source mutations

const HUGE_NUMBERS = [
  '18446744073709551615',
  '18446744073709551616',
  '99999999999999999999999999999999999999',
  '9'.repeat(2000),
  '0x' + 'f'.repeat(40),
  '0x10000000000000000',
  '0b' + '1'.repeat(70),
  '0o7777777777777777777777777',
  '-1',
  '-0',
  '1e10',
  '0x',
  '0_1',
  '1__0',
  '256',
  '-129',
  '128',
  '0777',
  '08',
];

const UNICODE = ['é', 'ß', '中文', '😀', '\u200b', '\u202e', '\u2028', '\ufeff', '\ud800', '\udc00', 'Ω', '\u0000', '\t', '\v', '\f'];
const PUNCT = ['"', '\\', ';', ':', '//', '(', ')', '#', '=', ',', '0x', 'b64', 'base64(', 'b32(', '\\x', '\\x4'];
const MACRO_NAMES = ['x', 'loop', 'pay', 'int', 'txn', 'b64', '+', '-1', '1x', 'label1', 'Sender', 'ApplicationID', 'foo', 'a', 'main', 'NoOp'];

function tokensOf(line: string): string[] {
  return line.split(/[ \t]+/).filter((t) => t !== '');
}

function mutateSource(src: string, rng: Rng): string {
  const lines = src.split('\n');
  const randomLine = (): number => rng.int(lines.length);
  const rounds = 1 + rng.int(3);
  for (let r = 0; r < rounds; r++) {
    const at = randomLine();
    const line = lines[at] ?? '';
    switch (rng.int(13)) {
      case 0: {
        // swap two tokens, possibly across lines
        const other = randomLine();
        const a = tokensOf(line);
        const b = tokensOf(lines[other] ?? '');
        if (a.length && b.length) {
          const i = rng.int(a.length);
          const j = rng.int(b.length);
          const t = a[i]!;
          a[i] = b[j]!;
          b[j] = t;
          lines[at] = a.join(' ');
          if (other !== at) lines[other] = b.join(' ');
        }
        break;
      }
      case 1: {
        const toks = tokensOf(line);
        if (toks.length) toks.splice(rng.int(toks.length), 1);
        lines[at] = toks.join(' ');
        break;
      }
      case 2:
        lines.splice(at, 1 + rng.int(3));
        break;
      case 3:
        lines.splice(at, 0, ...lines.slice(randomLine(), randomLine() + 1 + rng.int(4)));
        break;
      case 4: {
        // random bytes (as chars) inserted into a line
        const pos = rng.int(line.length + 1);
        let junk = '';
        for (let k = 1 + rng.int(4); k > 0; k--) junk += String.fromCharCode(rng.int(128));
        lines[at] = line.slice(0, pos) + junk + line.slice(pos);
        break;
      }
      case 5: {
        // a macro, maybe self-referencing or shadowing something
        const name = rng.pick(MACRO_NAMES);
        const body: string[] = [];
        for (let k = 1 + rng.int(4); k > 0; k--)
          body.push(rng.chance(0.3) ? rng.pick(MACRO_NAMES) : rng.pick(tokensOf(lines[randomLine()] ?? 'int 1').concat(['int', '1'])));
        lines.splice(at, 0, `#define ${name} ${body.join(' ')}`);
        if (rng.chance(0.5)) lines.splice(randomLine(), 0, name);
        break;
      }
      case 6: {
        const toks = tokensOf(line);
        const numeric = toks.findIndex((t) => /^-?\d/.test(t));
        const huge = rng.pick(HUGE_NUMBERS);
        if (numeric >= 0) toks[numeric] = huge;
        else toks.push(huge);
        lines[at] = toks.join(' ');
        break;
      }
      case 7: {
        const pos = rng.int(line.length + 1);
        lines[at] = line.slice(0, pos) + rng.pick(PUNCT) + line.slice(pos);
        break;
      }
      case 8: {
        const pos = rng.int(line.length + 1);
        lines[at] = line.slice(0, pos) + rng.pick(UNICODE) + line.slice(pos);
        break;
      }
      case 9:
        // line endings: this line gets CR, CRLF or a lone CR inside
        lines[at] = rng.pick([line + '\r', '\r' + line, line.replace(' ', '\r')]);
        break;
      case 10: {
        const v = rng.pick(['0', '1', '3', '8', '13', '14', '255', '0x0d', '99999999999999999999', 'x', '']);
        const idx = lines.findIndex((l) => l.startsWith('#pragma version'));
        lines[idx >= 0 ? idx : at] = `#pragma version ${v}`;
        break;
      }
      case 11: {
        // labels: duplicate one, or branch somewhere that does not exist
        const label = lines.find((l) => /^\w+:\s*$/.test(l));
        lines.splice(at, 0, rng.chance(0.5) && label ? label : `${rng.pick(['b', 'bz', 'bnz', 'callsub'])} ${rng.pick(['nowhere', 'label1', '1', ''])}`);
        break;
      }
      default:
        if (rng.chance(0.1))
          lines[at] = 'int 1 ' + 'x'.repeat(70 * 1024); // line too long
        else lines[at] = line + ' ' + rng.pick(tokensOf(lines[randomLine()] ?? '').concat(['pop']));
        break;
    }
  }
  return lines.join(rng.chance(0.15) ? '\r\n' : '\n').slice(0, MAX_SOURCE_CHARS);
}

// ---------------------------------------------------------------------------------------------
// Byte mutations

function mutateProgram(program: Uint8Array, rng: Rng): Uint8Array {
  const bytes = [...program];
  for (let r = 1 + rng.int(4); r > 0; r--) {
    const at = rng.int(bytes.length + 1);
    switch (rng.int(4)) {
      case 0:
        if (bytes.length) bytes[Math.min(at, bytes.length - 1)] = rng.int(256);
        break;
      case 1:
        bytes.splice(at, 1 + rng.int(3));
        break;
      case 2:
        bytes.splice(at, 0, rng.int(256));
        break;
      default:
        bytes.length = Math.min(bytes.length, at);
        break;
    }
  }
  return Uint8Array.from(bytes.slice(0, MAX_PROGRAM_BYTES));
}

/** Random bytes that mostly decode: a version, then opcodes of that version with random immediates. */
function randomProgram(rng: Rng): Uint8Array {
  const version = rng.chance(0.05) ? rng.int(20) : 1 + rng.int(MAX_AVM_VERSION);
  const out = [version];
  const ops = opsAt(Math.max(1, Math.min(version, MAX_AVM_VERSION)));
  for (let n = rng.int(12); n > 0; n--) {
    if (rng.chance(0.1)) {
      out.push(rng.int(256));
      continue;
    }
    const op = rng.pick(ops);
    if (op.prefix !== undefined) out.push(op.prefix);
    out.push(op.opcode);
    for (let k = rng.int(5); k > 0; k--) out.push(rng.chance(0.5) ? rng.int(4) : rng.int(256));
  }
  return Uint8Array.from(out);
}

// ---------------------------------------------------------------------------------------------

function describeInput(x: string | Uint8Array): string {
  if (typeof x !== 'string') return `bytes ${toHexString(x)}`;
  return x.length > 2000 ? `${JSON.stringify(x.slice(0, 2000))}… (${x.length} chars)` : JSON.stringify(x);
}

/** Every mapped pc starts an instruction, and the node-format export reads back the same pcs. */
function checkSourceMap(program: Uint8Array, pcs: number[], what: string): void {
  const starts = new Set(decodeProgram(program).instructions.map((i) => i.pc));
  for (const pc of pcs) assert.ok(starts.has(pc), `${what}: source map pc ${pc} is not an instruction start (seed ${SEED})`);
  const unique = [...new Set(pcs)].sort((a, b) => a - b);
  const back = parseNodeSourceMap(
    toNodeSourceMap(pcs.map((pc) => ({ pc, use: { line: pc % 7, column: pc % 5, endColumn: 0, utf16Column: 0, utf16EndColumn: 0 } }))),
  );
  assert.deepEqual(
    back.map((e) => e.pc),
    unique,
    `${what}: source map pcs changed through export (seed ${SEED})`,
  );
}

function tryDisassemble(program: Uint8Array, what: string): string | undefined {
  try {
    return disassemble(program);
  } catch (e) {
    if (e instanceof DisassembleError) return undefined;
    assert.fail(`${what}: disassemble threw ${String(e)} (seed ${SEED}) for ${describeInput(program)}`);
  }
}

function tryAssemble(source: string, what: string): Uint8Array | undefined {
  let result: ReturnType<typeof assemble>;
  try {
    result = assemble(source);
  } catch (e) {
    if (isAssembleError(e)) return undefined;
    assert.fail(
      `${what}: assemble threw ${e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e)} (seed ${SEED}) for ${describeInput(source)}`,
    );
  }
  if (toHexString(result.program) !== NO_VERSION_PROGRAM)
    checkSourceMap(
      result.program,
      result.sourceMap.map((m) => m.pc),
      what,
    );
  return result.program;
}

/**
 * Text modulo what reassembly legitimately changes: the autosalt pragma, and the long forms
 * `intc 0`…`intc 3`, `bytec 0`…, `arg 0`… which the assembler (like the reference) writes short.
 */
const normalize = (text: string): string => text.replace(/^#pragma autosalt false\n/m, '').replace(/^(intc|bytec|arg) ([0-3])\b/gm, '$1_$2');

describe('teal fuzz', function () {
  this.timeout(120_000);
  const sources = readSources();
  const hexPrograms = readHexPrograms();

  it(`disassembler survives ${ITERATIONS * 10} random and mutated programs`, function () {
    const rng = prng(SEED);
    let decoded = 0;
    let reassembled = 0;
    for (let i = 0; i < ITERATIONS * 10; i++) {
      const program = hexPrograms.length && rng.chance(0.4) ? mutateProgram(rng.pick(hexPrograms), rng) : randomProgram(rng);
      const text = tryDisassemble(program, `case ${i}`);
      if (text === undefined) continue;
      decoded++;
      // Random bytes may use non-minimal encodings, so compare texts, not bytes. Salting is held off
      // so that a re-encoded v13 program is not given a salt the original did not have.
      const salt = /^#pragma version (\d+)/.exec(text) && Number(/^#pragma version (\d+)/.exec(text)![1]) >= 13 ? '#pragma autosalt false\n' : '';
      const again = tryAssemble(withoutTypeTracking(text).replace('#pragma typetrack false\n', `#pragma typetrack false\n${salt}`), `case ${i} (reassembly)`);
      if (again === undefined) continue;
      reassembled++;
      const text2 = tryDisassemble(again, `case ${i} (redisassembly)`);
      assert.equal(text2 && normalize(text2), normalize(text), `case ${i}: text changed through reassembly for ${describeInput(program)} (seed ${SEED})`);
    }
    console.log(`    (${decoded} of ${ITERATIONS * 10} decoded, ${reassembled} reassembled)`);
  });

  it(`assembler survives ${ITERATIONS} mutated sources, and what assembles round-trips`, function () {
    const rng = prng(SEED ^ 0x5eed);
    let assembled = 0;
    let unversioned = 0;
    let slowest = { ms: 0, chars: 0 };
    for (let i = 0; i < ITERATIONS; i++) {
      const source = mutateSource(rng.pick(sources), rng);
      const started = performance.now();
      const program = tryAssemble(source, `case ${i}`);
      // Reported, not asserted: a sign of super-linear behaviour worth a look.
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { ms, chars: source.length };
      if (program === undefined) continue;
      assembled++;
      if (toHexString(program) === NO_VERSION_PROGRAM) {
        unversioned++;
        continue;
      }
      let text: string;
      try {
        text = disassemble(program);
      } catch (e) {
        assert.fail(
          `case ${i}: assembler output does not disassemble: ${String(e)} (seed ${SEED})\nsource: ${describeInput(source)}\nbytes: ${toHexString(program)}`,
        );
      }
      const again = tryAssemble(withoutTypeTracking(text), `case ${i} (reassembly)`);
      assert.ok(again, `case ${i}: disassembly does not reassemble (seed ${SEED})\nsource: ${describeInput(source)}\ntext:\n${text}`);
      assert.equal(toHexString(again), toHexString(program), `case ${i}: bytes changed through disassembly (seed ${SEED})\nsource: ${describeInput(source)}`);
    }
    console.log(
      `    (${assembled} of ${ITERATIONS} mutated sources assembled${unversioned ? `, ${unversioned} of them statement-free` : ''}; slowest ${slowest.ms.toFixed(0)} ms for ${slowest.chars} chars)`,
    );
  });

  it('assembler survives random text', function () {
    const rng = prng(SEED ^ 0xabc);
    const alphabet = [
      '#pragma version 8\n',
      'int ',
      'byte ',
      '"',
      '\\',
      ' ',
      '\n',
      '\r',
      ';',
      ':',
      '//',
      '0x',
      '1',
      'b',
      'a',
      'é',
      '😀',
      '\ud800',
      '#define ',
      'switch ',
      'label',
    ];
    for (let i = 0; i < ITERATIONS; i++) {
      let text = '';
      for (let k = rng.int(60); k > 0; k--) text += rng.pick(alphabet);
      tryAssemble(text, `random text ${i}`);
    }
  });
});
