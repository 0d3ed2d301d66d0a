/**
 * What the per-op encoders may see and do in the running assembly. The assembler implements it;
 * the encoders depend only on this, so the two modules do not import each other.
 */
import type { TealDiagnostic } from '../types.js';
import type { ByteBuffer } from './bytes-buffer.js';
import type { AsmOp } from './optable.js';
import type { StackType } from './stacktypes.js';
import type { Token } from './tokenizer.js';
import type { Knowledge } from './type-refiners.js';

/** A constant-block reference: where its opcode is in the pending bytes, and the value's key. */
export interface ConstRef {
  pos: number;
  key: bigint | string;
}

export interface AssemblerContext {
  readonly version: number;
  readonly errors: TealDiagnostic[];
  readonly pending: ByteBuffer;
  readonly known: Knowledge;
  cntIntcBlock: number;
  cntBytecBlock: number;
  hasPseudoInt: boolean;
  hasPseudoByte: boolean;
  intcRefs: ConstRef[];
  bytecRefs: ConstRef[];
  fieldModes: number;
  error(tok: Token | undefined, message: string, code?: string): void;
  errorAfter(tok: Token, message: string, code?: string): void;
  warn(tok: Token | undefined, message: string): void;
  intLiteral(value: bigint, tok: Token): void;
  byteLiteral(value: Uint8Array, tok: Token): void;
  writeIntc(index: number, tok: Token): void;
  writeBytec(index: number, tok: Token): void;
  setIntc(values: bigint[]): void;
  setBytec(values: Uint8Array[]): void;
  referLabel(pos: number, label: Token, offsetPos: number, varint: boolean): void;
  refineReturn(spec: AsmOp, t: StackType): void;
}
