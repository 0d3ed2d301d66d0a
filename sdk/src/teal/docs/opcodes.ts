/**
 * Tealworks' own prose for every TEAL opcode and pseudo-op. Facts that the opcode table already
 * carries (stack types, costs, versions, modes, encodings) are rendered from the table, so the
 * text here explains behaviour: what happens to the stack, when the program fails, and how the op
 * is typically used. Stack arguments are named A, B, C… from the deepest; results X, Y, Z.
 */
export interface OpcodeDoc {
  /** One line, at most 100 characters (completion lists). */
  readonly summary: string;
  /** A short paragraph for hover. */
  readonly details?: string;
  /** Keyed by the immediate's name as the table spells it (e.g. "F", "TARGET ..."). */
  readonly immediates?: Readonly<Record<string, string>>;
}

const GROUP_INDEX = 'Position of a transaction in the current group, counting from 0.';
const TXN_FIELD = 'Transaction field to read.';
const ARRAY_FIELD = 'Array-valued transaction field to read.';
const ARRAY_INDEX = 'Element index within the array field.';
const SCRATCH_SLOT = 'Scratch slot number, 0–255.';
const CURVE = 'Which elliptic curve to use.';
const EC_GROUP = 'Which curve group the points belong to.';
const BRANCH_TARGET = 'Label to jump to; the assembler turns it into a relative offset.';

function intcN(n: number): OpcodeDoc {
  return {
    summary: `Push integer constant ${n} from the intcblock (one-byte form of \`intc ${n}\`).`,
    details: `Fails if the current intcblock has fewer than ${n + 1} entries. The assembler uses this form when \`int\` values land in the first four slots of the block it builds.`,
  };
}

function bytecN(n: number): OpcodeDoc {
  return {
    summary: `Push byte constant ${n} from the bytecblock (one-byte form of \`bytec ${n}\`).`,
    details: `Fails if the current bytecblock has fewer than ${n + 1} entries. The assembler uses this form when \`byte\`, \`addr\` or \`method\` values land in the first four slots of the block it builds.`,
  };
}

function argN(n: number): OpcodeDoc {
  return {
    summary: `Push logicsig argument ${n} (one-byte form of \`arg ${n}\`).`,
    details: `Fails if the signature carries fewer than ${n + 1} arguments. Arguments travel with the signature, not inside the signed transaction, so anyone relaying the transaction can change them — never treat them as authenticated.`,
  };
}

function compare(word: string, symbol: string): OpcodeDoc {
  return {
    summary: `1 if A ${symbol} B, else 0 (unsigned 64-bit comparison).`,
    details: `Pops two uint64 values and pushes 1 when A is ${word} B, otherwise 0. For byte-array numbers use \`b${symbol}\`.`,
  };
}

function byteCompare(word: string, symbol: string): OpcodeDoc {
  return {
    summary: `1 if A ${symbol} B as big-endian unsigned integers, else 0.`,
    details: `Compares the numeric values of two byte arrays, so leading zero bytes do not matter (0x0001 and 0x01 are equal numbers). Pushes 1 when A is ${word} B. Fails if either input is longer than 64 bytes.`,
  };
}

function byteLogic(word: string): OpcodeDoc {
  return {
    summary: `Bitwise ${word} of byte arrays A and B, the shorter one zero-extended on the left.`,
    details: `The result is as long as the longer input: the shorter array is padded with leading zero bytes before combining byte by byte. Unlike byte math, inputs may be up to the full 4096 bytes and leading zeros are kept.`,
  };
}

const EC_POINTS =
  'Points are affine X‖Y with each coordinate big-endian and below the field modulus (G2 coordinates are two such numbers, c0 then c1); the point at infinity is all zero bytes.';

const BOX_NAME_RULES = 'names must be 1–64 bytes and sizes at most 32768';

function appBox(base: string, shifted: string): string {
  return `Same as \`${base}\` but for a box of application A, with the remaining arguments shifted by one (${shifted}). An app may always use it on its own boxes. Another app's box can be read only if that app set \`AppForeignBoxReads\`, or if it set \`AppFamilyBoxAccess\` and both apps have the same creator; writing requires the family case. The box must be referenced by the transaction group as usual, and boxes are never accessible from a ClearState program.`;
}

export const OPCODE_DOCS: Readonly<Record<string, OpcodeDoc>> = {
  // ---- Flow control -------------------------------------------------------------------------
  err: {
    summary: 'Fail the program immediately.',
    details:
      'Evaluation stops with an error and the transaction is rejected, whatever is on the stack. Typical use: the fall-through case of a method router. Code after it is unreachable until the next label.',
  },
  bnz: {
    summary: 'Pop A and jump to TARGET if A is not zero.',
    details:
      'A is consumed whether or not the jump is taken. Targets must be the start of an instruction. Up to v3 only forward jumps exist; v4 added backward jumps, which make loops possible. From v2 a jump may land exactly at the end of the program, which ends it with the stack as it is. From v13 the offset is a zigzag varint of 1–3 bytes: a forward offset counts from the end of the instruction, a backward one from its first byte.',
    immediates: { TARGET: BRANCH_TARGET },
  },
  bz: {
    summary: 'Pop A and jump to TARGET if A is zero.',
    details: 'The mirror image of `bnz`: consumes A and branches only when it is 0. Offset rules and version changes are the same as for `bnz`.',
    immediates: { TARGET: BRANCH_TARGET },
  },
  b: {
    summary: 'Jump to TARGET unconditionally.',
    details:
      'Touches no stack values. Code after it is unreachable until the next label. Offset encoding follows the same rules as `bnz` (int16 up to v12, zigzag varint from v13).',
    immediates: { TARGET: BRANCH_TARGET },
  },
  return: {
    summary: 'End the program now: succeed if A is non-zero, fail if it is zero.',
    details: 'Pops A and stops; anything else left on the stack is ignored. Inside a subroutine it ends the whole program, not just the subroutine.',
  },
  assert: {
    summary: 'Pop A and fail the program unless A is a non-zero integer.',
    details: 'The usual way to check a precondition inline, e.g. `txn Sender; global CreatorAddress; ==; assert`.',
  },
  pop: {
    summary: 'Discard the top value.',
  },
  popn: {
    summary: 'Discard the top N values.',
    details: 'Fails if the stack holds fewer than N values. `popn 0` does nothing.',
    immediates: { N: 'How many values to remove, 0–255.' },
  },
  dup: {
    summary: 'Push a second copy of the top value.',
  },
  dup2: {
    summary: 'Copy the top two values: A B becomes A B A B.',
  },
  dupn: {
    summary: 'Push N more copies of the top value.',
    details:
      'With N = 0 the stack is unchanged. Fails if the result would exceed the 1000-value stack limit. Handy for reserving local slots before `frame_bury`.',
    immediates: { N: 'Number of extra copies, 0–255.' },
  },
  dig: {
    summary: 'Push a copy of the value N positions below the top (`dig 0` equals `dup`).',
    details: 'The stack is otherwise unchanged. Fails if the stack holds N or fewer values.',
    immediates: { N: 'Depth to copy from; 0 is the top of the stack.' },
  },
  bury: {
    summary: 'Pop A and use it to overwrite the value N positions below it.',
    details:
      'N counts from A itself, so `bury 1` replaces the value directly beneath A, which then becomes the top. `bury 0` is rejected, as is a depth beyond the stack. Often used to update a local reserved earlier with `dupn`.',
    immediates: { N: 'Depth of the value to overwrite, counted from A; at least 1.' },
  },
  cover: {
    summary: 'Move the top value down so that N values sit above it.',
    details: 'The values that were below it shift up by one. `cover 0` does nothing. Fails if the stack holds N or fewer values.',
    immediates: { N: 'How many values end up above the moved one.' },
  },
  uncover: {
    summary: 'Move the value N positions below the top up to the top.',
    details: 'The values that were above it shift down by one; `uncover 1` equals `swap`. Fails if the stack holds N or fewer values.',
    immediates: { N: 'Depth of the value to bring to the top.' },
  },
  swap: {
    summary: 'Exchange the top two values: A B becomes B A.',
  },
  select: {
    summary: 'Pop A, B, C; push B if C is non-zero, otherwise A.',
    details: 'A branch-free conditional. C must be a uint64; A and B may be of any type.',
  },
  callsub: {
    summary: 'Call the subroutine at TARGET; `retsub` comes back to the next instruction.',
    details:
      'The return address goes on a separate call stack that only `callsub`, `proto` and `retsub` use; the data stack is shared with the subroutine. Offset encoding follows the same rules as `bnz`.',
    immediates: { TARGET: 'Label of the subroutine; the assembler turns it into a relative offset.' },
  },
  retsub: {
    summary: 'Return from the current subroutine to the instruction after its `callsub`.',
    details:
      'Fails if there is no active call. If the subroutine began with `proto A R`, retsub also cleans the frame: it removes the A arguments and any locals, leaving exactly the R results in their place; it fails if fewer than R values sit above the frame.',
  },
  proto: {
    summary: 'Declare that this subroutine takes A stack arguments and leaves R results.',
    details:
      'Must be the first instruction run after `callsub`, otherwise the program fails; it also fails if fewer than A values are on the stack. It enables `frame_dig`/`frame_bury` with negative indexes for the arguments and makes `retsub` tidy the stack automatically.',
    immediates: { A: 'Number of arguments the caller pushed.', R: 'Number of values the subroutine returns.' },
  },
  frame_dig: {
    summary: 'Push a copy of frame slot I: negative I reaches arguments, 0 and up reach locals.',
    details:
      'Slots are counted from the stack height at the `callsub`: -1 is the last argument, -2 the one before it, 0 the first value pushed inside the subroutine. Fails outside a subroutine, when the slot is above the stack top or below the stack bottom, and, after `proto`, when -I exceeds the declared argument count.',
    immediates: { I: 'Signed slot index relative to the frame start, -128 to 127.' },
  },
  frame_bury: {
    summary: 'Pop A and store it in frame slot I (negative I: an argument, 0 and up: a local).',
    details:
      'Uses the same slot numbering and failure rules as `frame_dig`. Typical use is updating locals that were reserved with `dupn` or `pushints` right after `proto`.',
    immediates: { I: 'Signed slot index relative to the frame start, -128 to 127.' },
  },
  switch: {
    summary: 'Pop A and jump to the A-th label in the list (from 0); fall through if A is past the end.',
    details:
      'A convenient jump table, e.g. for dispatching on an enum. When A is greater than or equal to the number of labels execution continues with the next instruction. Offsets are always int16, even from v13.',
    immediates: { 'TARGET ...': 'Labels in order; the first is taken for A = 0.' },
  },
  match: {
    summary: 'Compare the top value with the N values below it; jump to the label of the first equal one.',
    details:
      'With N labels, pops N+1 values: N candidates (the deepest pairs with the first label) and, on top, the value to look for. Jumps to the label of the first candidate equal to it (same type and contents); if none matches, execution continues with the next instruction. Fails if the stack holds fewer than N+1 values. Useful for routing ABI method selectors.',
    immediates: { 'TARGET ...': 'One label per candidate value, in the order the values were pushed.' },
  },

  // ---- Arithmetic ---------------------------------------------------------------------------
  '+': {
    summary: 'A plus B. Fails if the sum exceeds 2^64−1.',
    details: 'Overflow stops the program rather than wrapping. Use `addw` when you need the carry instead.',
  },
  '-': {
    summary: 'A minus B. Fails if B is greater than A.',
    details: 'There are no negative numbers in the AVM, so an underflow stops the program.',
  },
  '/': {
    summary: 'A divided by B, rounded towards zero. Fails if B is zero.',
    details: 'For 128-bit dividends (for example the result of `mulw`) use `divw` or `divmodw`.',
  },
  '*': {
    summary: 'A times B. Fails if the product exceeds 2^64−1.',
    details: 'Overflow stops the program. `mulw` gives the full 128-bit product without failing.',
  },
  '%': {
    summary: 'Remainder of A divided by B. Fails if B is zero.',
  },
  '<': compare('less than', '<'),
  '>': compare('greater than', '>'),
  '<=': compare('less than or equal to', '<='),
  '>=': compare('greater than or equal to', '>='),
  '&&': {
    summary: '1 if both A and B are non-zero, else 0.',
    details: 'Both operands are already on the stack, so there is no short-circuiting.',
  },
  '||': {
    summary: '1 if A or B (or both) is non-zero, else 0.',
    details: 'Both operands are already evaluated; there is no short-circuiting.',
  },
  '==': {
    summary: '1 if A and B are equal, else 0. Compares two integers or two byte arrays.',
    details:
      'Both values must have the same type; comparing an integer with a byte array fails the program. Byte arrays are equal only with identical length and contents, so 0x01 and 0x0001 differ — use `b==` to compare them as numbers.',
  },
  '!=': {
    summary: '1 if A and B differ, else 0. Compares two integers or two byte arrays.',
    details: 'The same typing rules as `==` apply: mixing an integer and a byte array fails the program.',
  },
  '!': {
    summary: 'Logical not: 1 if A is zero, else 0.',
  },
  '|': { summary: 'Bitwise OR of A and B.' },
  '&': { summary: 'Bitwise AND of A and B.' },
  '^': { summary: 'Bitwise exclusive OR of A and B.' },
  '~': { summary: 'Flip all 64 bits of A.' },
  shl: {
    summary: 'A shifted left by B bits, keeping the low 64 bits. Fails if B > 63.',
    details: 'Bits shifted past the top are lost without error; only the shift amount is checked.',
  },
  shr: {
    summary: 'A shifted right by B bits (unsigned). Fails if B > 63.',
  },
  sqrt: {
    summary: 'Integer square root of A: the largest I with I·I ≤ A.',
  },
  bitlen: {
    summary: 'Index of the highest set bit of A, plus one; 0 for zero. Accepts a uint64 or bytes.',
    details:
      'A byte array is read as a big-endian number of any length, so leading zero bytes do not count. For example 8 gives 4 and 255 gives 8. Note that this ordering is the reverse of the bit numbering used by `getbit`/`setbit` on byte arrays.',
  },
  exp: {
    summary: 'A raised to the power B. Fails on overflow and for 0 to the power 0.',
  },
  expw: {
    summary: 'A to the power B as a 128-bit number: X high word, Y low word.',
    details: 'Fails when A and B are both zero, or when the result does not fit in 128 bits.',
  },
  mulw: {
    summary: 'Full 128-bit product of A and B: X is the high word, Y the low word.',
    details: 'Cannot overflow. Combine with `divw` or `divmodw` to compute A·B/C exactly.',
  },
  addw: {
    summary: 'A plus B with carry: X is the carry (0 or 1), Y the low 64 bits of the sum.',
    details: 'Never fails, unlike `+`.',
  },
  divw: {
    summary: 'Divide the 128-bit number A,B (A high) by C. Fails if C is zero or the quotient overflows.',
    details: 'Pushes a single uint64 quotient, so the high word A must be smaller than C. Pairs with `mulw` for exact A·B/C in one step.',
  },
  divmodw: {
    summary: 'Divide 128-bit A,B by 128-bit C,D: quotient W,X and remainder Y,Z. Fails if C,D is 0.',
    details:
      'Each pair is one 128-bit number with the deeper value as the high word. Pushes four values: quotient high, quotient low, remainder high, remainder low.',
  },
  itob: {
    summary: 'Convert uint64 A to 8 big-endian bytes.',
    details: 'The result is always 8 bytes, including leading zeros; 1 becomes 0x0000000000000001.',
  },
  btoi: {
    summary: 'Read byte array A as a big-endian uint64. Fails if A is longer than 8 bytes.',
    details: 'Shorter inputs behave as if padded with leading zeros; the empty array gives 0.',
  },

  // ---- Byte arrays --------------------------------------------------------------------------
  len: {
    summary: 'Length of byte array A, in bytes.',
  },
  concat: {
    summary: 'Join byte arrays A and B (A first). Fails if the result exceeds 4096 bytes.',
  },
  substring: {
    summary: 'Bytes of A from position S up to, not including, E.',
    details: 'S and E are fixed in the instruction. Fails if E is before S or beyond the end of A.',
    immediates: { S: 'Start position, 0–255.', E: 'End position (exclusive), 0–255, not below S.' },
  },
  substring3: {
    summary: 'Bytes of A from position B up to, not including, C.',
    details: 'The stack-driven form of `substring`. Fails if C is before B or C is beyond the end of A.',
  },
  extract: {
    summary: 'L bytes of A starting at S; L = 0 means "to the end".',
    details:
      'Fails if S or S+L lies beyond the end of A. Because L = 0 means "the rest", it cannot produce an empty slice except at the very end. Written without immediates, `extract` assembles to `extract3`.',
    immediates: { S: 'Start position, 0–255.', L: 'Length in bytes, 0–255; 0 takes everything from S on.' },
  },
  extract3: {
    summary: 'C bytes of A starting at position B.',
    details: 'Fails if B+C lies beyond the end of A. A length of 0 yields an empty array. Also reachable as `extract` with no immediates.',
  },
  extract_uint16: {
    summary: 'The 2 big-endian bytes of A at position B, as a uint64.',
    details: 'Fails if B+2 lies beyond the end of A. Common for reading ABI length prefixes and offsets.',
  },
  extract_uint32: {
    summary: 'The 4 big-endian bytes of A at position B, as a uint64.',
    details: 'Fails if B+4 lies beyond the end of A.',
  },
  extract_uint64: {
    summary: 'The 8 big-endian bytes of A at position B, as a uint64.',
    details: 'Fails if B+8 lies beyond the end of A.',
  },
  replace2: {
    summary: 'Copy of A with the bytes from position S overwritten by B.',
    details: 'The length never changes: fails if S+len(B) exceeds len(A). `replace S` in source assembles to this op.',
    immediates: { S: 'Position where B is written, 0–255.' },
  },
  replace3: {
    summary: 'Copy of A with the bytes from position B overwritten by C.',
    details: 'The length never changes: fails if B+len(C) exceeds len(A). `replace` without immediates assembles to this op.',
  },
  getbit: {
    summary: 'Bit B of A (a uint64 or a byte array), as 0 or 1.',
    details:
      'For a uint64, bit 0 is the least significant. For a byte array, bit 0 is the highest bit of the first byte and numbering runs left to right. Fails if B is not below the value’s width in bits (64 for integers, 8·len(A) for bytes).',
  },
  setbit: {
    summary: 'Copy of A (uint64 or bytes) with bit B set to C.',
    details:
      'Uses the same bit numbering as `getbit`: from the least significant end for integers, from the leftmost bit for byte arrays (setting bit 3 of 0x00 gives 0x10). Fails if C is not 0 or 1, or B is outside the value.',
  },
  getbyte: {
    summary: 'Byte B of A as an integer 0–255.',
    details: 'Fails if B is not smaller than len(A).',
  },
  setbyte: {
    summary: 'Copy of A with byte B set to C.',
    details: 'Fails if B is not smaller than len(A) or if C is greater than 255.',
  },
  base64_decode: {
    summary: 'Decode base64 text A using the alphabet E. Fails on malformed input.',
    details:
      'Padding must be exactly what the encoding requires and unused bits in the last character must be zero; line breaks (CR, LF) are skipped, any other character outside the alphabet fails the program. Decoding costs grow with input length; prefer raw bytes unless a third party only signs base64.',
    immediates: { E: 'Which base64 alphabet A uses.' },
  },
  json_ref: {
    summary: 'Value of key B in JSON object A, returned as type R.',
    details:
      'A must be a valid JSON object text (the AVM accepts a restricted JSON dialect); B is a top-level key. Fails if the text does not parse, the key is missing, or the value does not have the requested type. Expensive and limited — only for interop with signers that produce JSON.',
    immediates: { R: 'How to interpret and return the value.' },
  },

  // ---- Byte math ----------------------------------------------------------------------------
  'b+': {
    summary: 'Sum of A and B read as big-endian unsigned integers.',
    details: 'Inputs may be at most 64 bytes each; the result can reach 65 bytes. Results carry no leading zero bytes, and zero is the empty array.',
  },
  'b-': {
    summary: 'A minus B as big-endian unsigned integers. Fails if B is larger than A.',
    details: 'Inputs may be at most 64 bytes each. Results have no leading zero bytes; zero is the empty array.',
  },
  'b/': {
    summary: 'A divided by B (rounded down) as big-endian unsigned integers. Fails if B is zero.',
    details: 'Inputs may be at most 64 bytes each. Results have no leading zero bytes.',
  },
  'b*': {
    summary: 'Product of A and B read as big-endian unsigned integers.',
    details: 'Inputs may be at most 64 bytes each; the result can reach 128 bytes. Results have no leading zero bytes.',
  },
  'b%': {
    summary: 'Remainder of A divided by B as big-endian unsigned integers. Fails if B is zero.',
    details: 'Inputs may be at most 64 bytes each. Results have no leading zero bytes.',
  },
  'b<': byteCompare('less than', '<'),
  'b>': byteCompare('greater than', '>'),
  'b<=': byteCompare('less than or equal to', '<='),
  'b>=': byteCompare('greater than or equal to', '>='),
  'b==': byteCompare('equal to', '=='),
  'b!=': byteCompare('not equal to', '!='),
  bsqrt: {
    summary: 'Integer square root of big-endian number A (largest I with I·I ≤ A).',
    details: 'A may be at most 64 bytes. The result has no leading zero bytes.',
  },
  'b|': byteLogic('OR'),
  'b&': byteLogic('AND'),
  'b^': byteLogic('exclusive OR'),
  'b~': {
    summary: 'Byte array A with every bit inverted; the length stays the same.',
  },
  bzero: {
    summary: 'A byte array of A zero bytes. Fails if A exceeds 4096.',
    details: 'Useful as a fixed-width buffer for `b|` padding or as a template for `replace`.',
  },

  // ---- Constants and loading ----------------------------------------------------------------
  intcblock: {
    summary: 'Set up the block of integer constants that `intc` and `intc_0..3` read.',
    details:
      'Each run replaces the whole block. The assembler normally writes this for you from `int` pseudo-ops; if you write one yourself, later `int` values are assembled as `pushint` (v4+) or must already appear in your block.',
    immediates: { 'UINT ...': 'The constants, each as a varuint.' },
  },
  intc: {
    summary: 'Push integer constant I from the current intcblock.',
    details: 'Fails if the block has no entry I.',
    immediates: { I: 'Index into the intcblock, 0–255.' },
  },
  intc_0: intcN(0),
  intc_1: intcN(1),
  intc_2: intcN(2),
  intc_3: intcN(3),
  bytecblock: {
    summary: 'Set up the block of byte constants that `bytec` and `bytec_0..3` read.',
    details:
      'Each run replaces the whole block. The assembler normally writes this for you from `byte`, `addr` and `method` pseudo-ops; if you write one yourself, later `byte` values become `pushbytes` (v4+), and `addr`/`method` values must already be in your block.',
    immediates: { 'BYTES ...': 'The constants, each as a varuint length followed by its bytes.' },
  },
  bytec: {
    summary: 'Push byte constant I from the current bytecblock.',
    details: 'Fails if the block has no entry I.',
    immediates: { I: 'Index into the bytecblock, 0–255.' },
  },
  bytec_0: bytecN(0),
  bytec_1: bytecN(1),
  bytec_2: bytecN(2),
  bytec_3: bytecN(3),
  pushint: {
    summary: 'Push the integer written inline in the instruction.',
    details:
      'Does not touch the intcblock. From v4 the assembler uses it for `int` values that occur only once. Unlike `int`, it does not accept named constants such as `pay` or `OptIn`.',
    immediates: { UINT: 'The value, as a varuint.' },
  },
  pushints: {
    summary: 'Push several inline integers; the first listed ends up deepest.',
    details: 'Does not touch the intcblock. Handy for initialising several locals at once.',
    immediates: { 'UINT ...': 'The values, as a varuint count followed by varuints.' },
  },
  pushbytes: {
    summary: 'Push the byte string written inline in the instruction.',
    details: 'Does not touch the bytecblock. From v4 the assembler uses it for `byte` values that occur only once. Accepts the same literal forms as `byte`.',
    immediates: { BYTES: 'The bytes, as a varuint length followed by the data.' },
  },
  pushbytess: {
    summary: 'Push several inline byte strings; the first listed ends up deepest.',
    details: 'Does not touch the bytecblock. Often used to push a list of ABI selectors before `match`.',
    immediates: { 'BYTES ...': 'The values, as a varuint count, then each with its varuint length.' },
  },
  arg: {
    summary: 'Push logicsig argument N.',
    details:
      'Fails if the signature carries fewer than N+1 arguments. Arguments travel with the signature, not inside the signed transaction, so they are not authenticated by it. The assembler writes `arg_0`…`arg_3` for small N.',
    immediates: { N: 'Argument index, 0–255.' },
  },
  arg_0: argN(0),
  arg_1: argN(1),
  arg_2: argN(2),
  arg_3: argN(3),
  args: {
    summary: 'Pop A and push logicsig argument number A.',
    details: 'The stack-indexed form of `arg`. Fails if there is no argument A.',
  },
  load: {
    summary: 'Push the value in scratch slot I (slots start as integer 0).',
    immediates: { I: SCRATCH_SLOT },
  },
  store: {
    summary: 'Pop A and put it in scratch slot I.',
    details: 'Scratch slots hold any type and keep their value for the rest of the program; later app calls in the group can read them with `gload`.',
    immediates: { I: SCRATCH_SLOT },
  },
  loads: {
    summary: 'Pop A and push the value in scratch slot A.',
    details: 'Fails if A is 256 or more.',
  },
  stores: {
    summary: 'Pop A and B and put B in scratch slot A.',
    details: 'Fails if A is 256 or more.',
  },
  gload: {
    summary: 'Push scratch slot I as it was left by the app call at group position T.',
    details:
      'Fails unless T is an earlier transaction in the group, is an application call, and actually ran a program. Lets cooperating apps pass values along a group.',
    immediates: { T: GROUP_INDEX, I: SCRATCH_SLOT },
  },
  gloads: {
    summary: 'Pop A and push scratch slot I of the app call at group position A.',
    details: 'The same rules as `gload`, with the transaction chosen at run time.',
    immediates: { I: SCRATCH_SLOT },
  },
  gloadss: {
    summary: 'Pop A and B and push scratch slot B of the app call at group position A.',
    details: 'The same rules as `gload`; fails if B is 256 or more.',
  },
  gaid: {
    summary: 'ID of the asset or application created by the transaction at group position T.',
    details: 'Fails unless T is an earlier transaction in the group that created an asset or an application.',
    immediates: { T: GROUP_INDEX },
  },
  gaids: {
    summary: 'Pop A and push the ID of the asset or app created by group transaction A.',
    details: 'The same rules as `gaid`, with the position chosen at run time.',
  },

  // ---- Transaction and global fields ---------------------------------------------------------
  txn: {
    summary: 'Push field F of the current transaction.',
    details:
      'The pushed type depends on the field. Array fields take an index: `txn F I` assembles to `txna`, and `txnas` takes the index from the stack. Fields describing results (logs, created IDs) are application-only and, before v6, readable only through `itxn`.',
    immediates: { F: TXN_FIELD },
  },
  txna: {
    summary: 'Push element I of array field F of the current transaction.',
    details:
      'Fails if I is out of range. For `Accounts`, index 0 is the sender and the listed accounts start at 1; for `Applications`, index 0 is the current app. Also written `txn F I`.',
    immediates: { F: ARRAY_FIELD, I: ARRAY_INDEX },
  },
  txnas: {
    summary: 'Pop A and push element A of array field F of the current transaction.',
    details: 'Like `txna` with the index taken from the stack; fails if A is out of range.',
    immediates: { F: ARRAY_FIELD },
  },
  gtxn: {
    summary: 'Push field F of the transaction at group position T.',
    details:
      'Fails if T is not smaller than the group size. Result fields such as logs or created IDs can only be read from earlier transactions. `gtxn T F I` assembles to `gtxna`.',
    immediates: { T: GROUP_INDEX, F: TXN_FIELD },
  },
  gtxna: {
    summary: 'Push element I of array field F of the transaction at group position T.',
    details: 'Fails if T or I is out of range. Also written `gtxn T F I`.',
    immediates: { T: GROUP_INDEX, F: ARRAY_FIELD, I: ARRAY_INDEX },
  },
  gtxnas: {
    summary: 'Pop A and push element A of array field F of group transaction T.',
    details: 'Like `gtxna` with the element index taken from the stack.',
    immediates: { T: GROUP_INDEX, F: ARRAY_FIELD },
  },
  gtxns: {
    summary: 'Pop A and push field F of the transaction at group position A.',
    details:
      'Lets the position be computed, typically `txn GroupIndex; int 1; -; gtxns Amount` to inspect the previous transaction. Fails if A is not smaller than the group size. `gtxns F I` assembles to `gtxnsa`.',
    immediates: { F: TXN_FIELD },
  },
  gtxnsa: {
    summary: 'Pop A and push element I of array field F of group transaction A.',
    details: 'Also written `gtxns F I`. Fails if A or I is out of range.',
    immediates: { F: ARRAY_FIELD, I: ARRAY_INDEX },
  },
  gtxnsas: {
    summary: 'Pop A and B and push element B of array field F of group transaction A.',
    details: 'Both the transaction and the element are chosen at run time.',
    immediates: { F: ARRAY_FIELD },
  },
  global: {
    summary: 'Push global value F: protocol parameters, round, group and app context.',
    details: 'Some fields (round, timestamp, current app …) exist only in application mode.',
    immediates: { F: 'Global field to read.' },
  },

  // ---- Block and ledger ---------------------------------------------------------------------
  block: {
    summary: 'Push field F of the header of block A.',
    details:
      'A must be a round before the transaction’s FirstValid and after its LastValid minus 1002; otherwise the program fails. This keeps the answer the same wherever in the validity window the transaction is evaluated.',
    immediates: { F: 'Block header field to read.' },
  },
  log: {
    summary: 'Append A to the logs of this application call.',
    details:
      'Logs are returned to clients and readable by later transactions via `Logs`/`LastLog`. A program may log at most 32 times and 1024 bytes in total; exceeding either fails it. ABI methods log their return value with the 0x151f7c75 prefix.',
  },
  online_stake: {
    summary: 'Total online stake, in microalgos, as of the balance round (320 rounds ago).',
  },

  // ---- Accounts -----------------------------------------------------------------------------
  balance: {
    summary: 'Balance of account A in microalgos, as it stands at this point of the group.',
    details:
      'Reflects earlier transactions in the group, the fee of the current one, and inner transactions already submitted. Before v4 A is an index into Accounts; from v4 it may also be an available address. The figure includes the part locked by the minimum balance (see `min_balance`).',
  },
  min_balance: {
    summary: 'Minimum balance account A must keep, in microalgos.',
    details:
      'Grows with asset holdings, created and opted-in apps, state schema, extra pages and boxes. Opting in or creating raises it before the program runs; closing out or deleting lowers it only afterwards. Account A is given like for `balance`.',
  },
  acct_params_get: {
    summary: 'Field F of account A; Y is 1 if the account holds a positive balance, else 0.',
    details: 'A must be an available account (address, or index into Accounts). When Y is 0, X is the zero value of the field type.',
    immediates: { F: 'Account parameter to read.' },
  },
  voter_params_get: {
    summary: 'Field F of online account A as of the balance round; Y is 1 if it was online with stake.',
    details: 'The balance round is 320 rounds before the current one — the data consensus uses for voting. When Y is 0, X is the zero value of the field type.',
    immediates: { F: 'Voting parameter to read.' },
  },

  // ---- Application state --------------------------------------------------------------------
  app_opted_in: {
    summary: '1 if account A has opted in to application B, else 0.',
    details: 'A is an account (before v4 only an index into Accounts); B is an available application ID or, from v4, an index into Applications.',
  },
  app_local_get: {
    summary: "Value of key B in account A's local state of the current app; integer 0 if absent.",
    details:
      'A missing key is indistinguishable from a stored 0 — use `app_local_get_ex` when that matters. Fails if the account is not available or has not opted in to the app.',
  },
  app_local_get_ex: {
    summary: "Key C of app B in account A's local state: X the value, Y 1 if the key exists.",
    details:
      'Reads local state of any available app, not only the current one. When Y is 0, X is integer 0. Fails if the account has not opted in to app B; check with `app_opted_in` first if unsure.',
  },
  app_global_get: {
    summary: "Value of key A in the current app's global state; integer 0 if absent.",
    details: 'A missing key is indistinguishable from a stored 0 — use `app_global_get_ex` to tell them apart.',
  },
  app_global_get_ex: {
    summary: "Key B of app A's global state: X the value, Y 1 if the key exists, else 0.",
    details: 'A is an available application ID or an index into Applications (0 means the current app). When Y is 0, X is integer 0.',
  },
  app_local_put: {
    summary: "Store C under key B in account A's local state of the current app.",
    details:
      'Fails if the account has not opted in, if the write would exceed the local schema declared at creation, if the key exceeds 64 bytes, or if key plus value exceeds 128 bytes.',
  },
  app_global_put: {
    summary: "Store B under key A in the current app's global state.",
    details: 'Fails if the write would exceed the global schema declared at creation, if the key exceeds 64 bytes, or if key plus value exceeds 128 bytes.',
  },
  app_local_del: {
    summary: "Delete key B from account A's local state of the current app.",
    details: 'Deleting a key that does not exist is not an error.',
  },
  app_global_del: {
    summary: "Delete key A from the current app's global state.",
    details: 'Deleting a key that does not exist is not an error.',
  },
  app_params_get: {
    summary: 'Field F of application A; Y is 1 if the app exists, else 0.',
    details: 'A must be an available application (ID, or index into Applications). When Y is 0, X is the zero value of the field type.',
    immediates: { F: 'Application parameter to read.' },
  },
  app_params_set: {
    summary: 'Set the box-sharing flag F of the current app to A (non-zero on, zero off).',
    details:
      '`AppForeignBoxReads` lets any app read this app’s boxes; `AppFamilyBoxAccess` lets apps with the same creator read and write them, subject to a reentrancy rule that stops a family member from writing shared boxes while an app from outside the family sits between it and a family caller that already used them. Only the app itself can change its flags, at any time.',
    immediates: { F: 'Which flag to change.' },
  },

  // ---- Assets -------------------------------------------------------------------------------
  asset_holding_get: {
    summary: "Field F of account A's holding of asset B; Y is 1 if A is opted in to B, else 0.",
    details:
      'A is an account (an index into Accounts before v4; from v4 also an available address) and B an asset ID (from v4 an index into Assets also works). When Y is 0, X is the zero value of the field type.',
    immediates: { F: 'Holding field to read.' },
  },
  asset_params_get: {
    summary: 'Field F of asset A; Y is 1 if the asset exists, else 0.',
    details: 'Before v4 A is an index into Assets; from v4 it is an available asset ID. When Y is 0, X is the zero value of the field type.',
    immediates: { F: 'Asset parameter to read.' },
  },

  // ---- Boxes --------------------------------------------------------------------------------
  box_create: {
    summary: 'Create box A of B zero bytes; pushes 1 if created, 0 if it already existed.',
    details: `Fails if the box exists with a different size, or unless ${BOX_NAME_RULES}. The app account must afford the extra minimum balance (a flat amount plus a per-byte amount for name and contents) by the end of the transaction. The box must be referenced by the group.`,
  },
  box_extract: {
    summary: 'C bytes of box A starting at offset B.',
    details: 'Fails if the box does not exist or the range runs past its end. The way to read boxes larger than 4096 bytes.',
  },
  box_replace: {
    summary: 'Overwrite box A with bytes C starting at offset B.',
    details: 'The size never changes: fails if the box does not exist or the range runs past its end.',
  },
  box_splice: {
    summary: 'Replace C bytes of box A at offset B with D, keeping the box size.',
    details:
      'The bytes after the replaced range move to make room or close the gap; since the box keeps its size, extra bytes fall off the end or zero bytes are appended. Fails if the box does not exist, B+C is past its end, or D does not fit between B and the end of the box.',
  },
  box_del: {
    summary: 'Delete box A; pushes 1 if it existed, 0 otherwise.',
    details: 'Frees the minimum balance the box held.',
  },
  box_len: {
    summary: 'X is the size of box A, Y is 1 if it exists (otherwise X is 0 and Y is 0).',
  },
  box_get: {
    summary: 'X is the contents of box A, Y is 1 if it exists (otherwise X is empty and Y is 0).',
    details: 'Fails for boxes over 4096 bytes, since no stack value can hold them; use `box_extract` for those.',
  },
  box_put: {
    summary: 'Set the contents of box A to B, creating the box if needed.',
    details: `Fails if the box exists with a length different from len(B). When creating, the same limits as \`box_create\` apply (${BOX_NAME_RULES}).`,
  },
  box_resize: {
    summary: 'Change the size of box A to B bytes, cutting or zero-filling at the end.',
    details: `Fails if the box does not exist or B exceeds 32768. The minimum balance requirement changes with the size.`,
  },
  app_box_create: {
    summary: 'Create box B of C zero bytes for app A; 1 if created, 0 if it already existed.',
    details: appBox('box_create', 'B name, C size') + ' The box’s minimum balance is charged to app A’s account.',
  },
  app_box_extract: {
    summary: 'D bytes of box B of app A, starting at offset C.',
    details: appBox('box_extract', 'B name, C offset, D length'),
  },
  app_box_replace: {
    summary: 'Overwrite box B of app A with bytes D starting at offset C.',
    details: appBox('box_replace', 'B name, C offset, D bytes'),
  },
  app_box_del: {
    summary: 'Delete box B of app A; pushes 1 if it existed, 0 otherwise.',
    details: appBox('box_del', 'B name'),
  },
  app_box_len: {
    summary: 'X is the size of box B of app A, Y is 1 if it exists.',
    details: appBox('box_len', 'B name'),
  },
  app_box_get: {
    summary: 'X is the contents of box B of app A, Y is 1 if it exists.',
    details: appBox('box_get', 'B name'),
  },
  app_box_put: {
    summary: 'Set the contents of box B of app A to C, creating the box if needed.',
    details: appBox('box_put', 'B name, C contents'),
  },
  app_box_splice: {
    summary: 'Replace D bytes of box B of app A at offset C with E, keeping the box size.',
    details: appBox('box_splice', 'B name, C offset, D length, E replacement'),
  },
  app_box_resize: {
    summary: 'Change the size of box B of app A to C bytes.',
    details: appBox('box_resize', 'B name, C new size'),
  },

  // ---- Inner transactions -------------------------------------------------------------------
  itxn_begin: {
    summary: 'Start building a new inner transaction, the first of a new inner group.',
    details:
      'The draft starts with Sender set to the app address, FirstValid/LastValid copied from the calling transaction, Fee set to a default that covers what the group owes so far, and everything else empty. Fails if a previous draft was not submitted, and in ClearState programs.',
  },
  itxn_next: {
    summary: 'Start another inner transaction in the same group as the one being built.',
    details: 'The new draft gets the same defaults as with `itxn_begin`. Fails unless `itxn_begin` was used first.',
  },
  itxn_field: {
    summary: 'Pop A and set field F of the inner transaction being built.',
    details:
      'Fails if A has the wrong type or size for the field, if an account, asset or app in A is not available to this program, or if an array field would grow beyond its limit. Array fields (ApplicationArgs, Accounts, Assets, Applications, program pages) append one element per call.',
    immediates: { F: 'Field to set.' },
  },
  itxn_submit: {
    summary: 'Execute the inner transaction group built since `itxn_begin`.',
    details:
      'Fails if any inner transaction fails, the group underpays its fees, or the inner transaction limit would be exceeded. Inner app calls may not call the current app or one already on the call stack. Afterwards the results are available through `itxn`/`gitxn` and a new `itxn_begin` is needed.',
  },
  itxn: {
    summary: 'Push field F of the last inner transaction submitted.',
    details: '`itxn F I` assembles to `itxna`. Typical use: `itxn CreatedAssetID` after creating an asset, or `itxn LastLog` after an ABI call.',
    immediates: { F: TXN_FIELD },
  },
  itxna: {
    summary: 'Push element I of array field F of the last inner transaction submitted.',
    details: 'Also written `itxn F I`. Fails if I is out of range.',
    immediates: { F: ARRAY_FIELD, I: ARRAY_INDEX },
  },
  itxnas: {
    summary: 'Pop A and push element A of array field F of the last inner transaction.',
    immediates: { F: ARRAY_FIELD },
  },
  gitxn: {
    summary: 'Push field F of transaction T of the last inner group submitted.',
    details: 'Fails if T is beyond the size of that group. `gitxn T F I` assembles to `gitxna`.',
    immediates: { T: 'Position within the last inner group, counting from 0.', F: TXN_FIELD },
  },
  gitxna: {
    summary: 'Push element I of array field F of transaction T of the last inner group.',
    details: 'Also written `gitxn T F I`.',
    immediates: { T: 'Position within the last inner group, counting from 0.', F: ARRAY_FIELD, I: ARRAY_INDEX },
  },
  gitxnas: {
    summary: 'Pop A and push element A of array field F of transaction T of the last inner group.',
    immediates: { T: 'Position within the last inner group, counting from 0.', F: ARRAY_FIELD },
  },

  // ---- Cryptography -------------------------------------------------------------------------
  sha256: {
    summary: 'SHA-256 digest of A (32 bytes).',
  },
  keccak256: {
    summary: 'Keccak-256 digest of A (32 bytes), as used by Ethereum.',
    details: 'This is the original Keccak padding, so results differ from `sha3_256` for the same input.',
  },
  sha512_256: {
    summary: 'SHA-512/256 digest of A (32 bytes) — the hash behind Algorand IDs and addresses.',
    details: 'The standardised SHA-512/256 variant with its own initial values, not a truncated SHA-512.',
  },
  sha3_256: {
    summary: 'SHA3-256 digest of A (32 bytes), the NIST standard form.',
    details: 'Differs from `keccak256` only in padding, but the results are entirely different.',
  },
  sha512: {
    summary: 'SHA-512 digest of A (64 bytes).',
    details: 'Its cost grows with the length of A.',
  },
  ed25519verify: {
    summary: 'Check Ed25519 signature B by key C over "ProgData" ‖ program hash ‖ A; push 1 or 0.',
    details:
      'The signed message is not A alone: it is the bytes "ProgData", then the 32-byte hash of the running program (the hash that forms a logicsig’s address), then A. That binds the signature to this exact program. Use `ed25519verify_bare` for a signature over A itself. Fails if B is not 64 bytes or C is not 32 bytes.',
  },
  ed25519verify_bare: {
    summary: 'Check Ed25519 signature B by public key C over the bytes of A; push 1 or 0.',
    details: 'No prefix is added to the message. Fails if B is not 64 bytes or C is not 32 bytes.',
  },
  ecdsa_verify: {
    summary: 'Check ECDSA signature (B, C) = (r, s) over 32-byte hash A for public key (D, E); push 1 or 0.',
    details:
      'All values are big-endian. A is the message hash, not the message; the program fails if A is not 32 bytes. On Secp256k1 only low-s signatures are accepted, as in Bitcoin and Ethereum.',
    immediates: { V: CURVE },
  },
  ecdsa_pk_decompress: {
    summary: 'Expand 33-byte compressed public key A into its coordinates X and Y.',
    details: 'Both results are 32 bytes, big-endian. Fails if A is not a valid compressed point on the chosen curve.',
    immediates: { V: CURVE },
  },
  ecdsa_pk_recover: {
    summary: 'Recover the public key (X, Y) from hash A, recovery id B and signature (C, D).',
    details:
      'C and D are the r and s values, all big-endian; results are 32-byte coordinates. Fails if B is greater than 3 or no key can be recovered. Only Secp256k1 is supported; other curves fail the program.',
    immediates: { V: CURVE },
  },
  vrf_verify: {
    summary: 'Verify VRF proof B of message A for public key C: X is the 64-byte output, Y 1 if valid.',
    details: 'B must be 80 bytes and C 32 bytes, otherwise the program fails. Only the VRF Algorand uses for sortition is offered.',
    immediates: { S: 'Which VRF standard to apply.' },
  },
  falcon_verify: {
    summary: 'Check a deterministic Falcon-1024 signature B by public key C over data A; push 1 or 0.',
    details: 'B uses the compressed encoding and is variable-length. Fails if C is not exactly 1793 bytes.',
  },
  ec_add: {
    summary: 'Sum of curve points A and B in group G.',
    details: `${EC_POINTS} Fails if either point is not on the curve; the prime-order subgroup is not checked (use \`ec_subgroup_check\` when that matters).`,
    immediates: { G: EC_GROUP },
  },
  ec_scalar_mul: {
    summary: 'Curve point A multiplied by scalar B, in group G.',
    details: `B is a big-endian unsigned integer of at most 32 bytes. ${EC_POINTS} Fails if A is not on the curve or B is too long.`,
    immediates: { G: EC_GROUP },
  },
  ec_pairing_check: {
    summary: '1 if the product of pairings of the points in A with those in B is the identity, else 0.',
    details: `A holds concatenated points of G and B the same number of points of the partner group (G2 for G1 and vice versa). ${EC_POINTS} Fails if the counts differ or any point is off the curve or outside the prime-order subgroup. The 4096-byte value limit caps how many pairs fit. Cost grows with the number of points.`,
    immediates: { G: 'Group of the points in A; B holds points of the partner group.' },
  },
  ec_multi_scalar_mul: {
    summary: 'Sum of B[i]·A[i] over the points in A and 32-byte scalars in B, in group G.',
    details: `A is a list of concatenated points and B a list of scalars, each exactly 32 bytes big-endian, one per point. ${EC_POINTS} Cheaper than separate \`ec_scalar_mul\`/\`ec_add\` calls; cost grows with the number of points.`,
    immediates: { G: EC_GROUP },
  },
  ec_subgroup_check: {
    summary: '1 if point A lies in the prime-order subgroup of G (infinity included), else 0.',
    details: 'Fails, rather than returning 0, if A is not on the curve at all.',
    immediates: { G: EC_GROUP },
  },
  ec_map_to: {
    summary: 'Map field element A to a point of group G.',
    details:
      'G1 takes a base-field element (it may be shorter than the full width; the empty array is 0), G2 a quadratic-extension element at full width. BN254 uses the SVDW map and BLS12-381 the SSWU map. Fails if A is not a valid field element.',
    immediates: { G: EC_GROUP },
  },
  mimc: {
    summary: 'MiMC hash of the 32-byte field elements in A, with configuration C.',
    details:
      'A must be a non-empty multiple of 32 bytes, each chunk a big-endian number below the scalar field modulus; otherwise the program fails. This hashes field elements, not arbitrary bytes — meant to match zero-knowledge circuits, not as a general-purpose hash.',
    immediates: { C: 'Curve and parameter set.' },
  },
  poseidon2: {
    summary: 'Poseidon2 hash of the 32-byte field elements in A, with configuration C.',
    details:
      'A must be a non-empty multiple of 32 bytes, each chunk a big-endian number below the scalar field modulus; otherwise the program fails. Like `mimc`, it is meant to match zero-knowledge circuits, not to hash arbitrary data.',
    immediates: { C: 'Curve and parameter set.' },
  },

  // ---- Pseudo-ops (assembler conveniences with no opcode byte of their own) ------------------
  int: {
    summary: 'Push an integer constant; the assembler picks intc, intc_N or pushint.',
    details:
      'Accepts decimal, 0x hex, 0o or leading-0 octal and 0b binary, with optional underscores, plus named constants: transaction types (`pay`, `appl` …) and OnCompletion values (`NoOp`, `OptIn` …). The assembler pools repeated values in an intcblock and, from v4, pushes one-off values inline.',
  },
  byte: {
    summary: 'Push a byte constant; the assembler picks bytec, bytec_N or pushbytes.',
    details:
      'Literal forms: `0x` hex, `base64 …`/`b64 …`, `base64(…)`, `base32 …`/`b32 …`, `base32(…)`, and quoted strings with \\n \\r \\t \\\\ \\" \\xHH escapes. At most 4096 bytes.',
  },
  addr: {
    summary: 'Push the 32-byte public key behind a 58-character Algorand address.',
    details: 'The checksum is verified at assembly time. The value is pooled with other byte constants.',
  },
  method: {
    summary: 'Push the 4-byte ABI selector of a method signature, e.g. method "add(uint64,uint64)uint64".',
    details:
      'The selector is the first 4 bytes of the SHA-512/256 hash of the signature text. Typically compared against `txna ApplicationArgs 0` or used with `match`.',
  },
  replace: {
    summary: 'Overwrite part of a byte array: `replace S` → replace2, plain `replace` → replace3.',
    details: 'The assembler chooses the opcode by the number of immediates. See `replace2` and `replace3`.',
  },
};

/** Pseudo-op names documented above that have no opcode of their own. */
export const PSEUDO_OPS: readonly string[] = ['int', 'byte', 'addr', 'method', 'replace'];
