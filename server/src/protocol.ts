// The Tealworks language server's custom requests and notifications: method names and payloads in
// one place, imported by the server that answers them and by the VS Code extension that sends
// them (and available to other editors' clients). Depends only on the LSP protocol package.
import { NotificationType, RequestType, type Location } from 'vscode-languageserver-protocol';

/** The status-bar facts of one TEAL document: version, mode, size. */
export interface DocumentInfo {
  uri: string;
  avmVersion: number;
  versionDeclared: boolean;
  mode?: 'logicsig' | 'application';
  /** The mode is the configured default, not something the program shows. */
  modeAssumed?: boolean;
  /** Assembled size in bytes; absent while the program does not assemble (or no assembler yet). */
  size?: number;
  errors: number;
}

/** The program with every macro expanded. */
export interface ExpandedResult {
  text: string;
}

/** The assembled program with its disassembly. */
export interface AssembledResult {
  /** Absent when the program does not assemble (`errors` > 0). */
  hex?: string;
  size?: number;
  pages?: number;
  disassembly?: string;
  /** For each disassembly line with an instruction, its pc. */
  lines?: { pc: number; line: number }[];
  errors: number;
}

/** Where the instruction at a program counter is written. */
export interface PcLocation {
  /** Where the instruction is written (the macro use site when it came from a macro). */
  location: Location;
  /** The token inside a `#define` body that produced it, if any. */
  definition?: Location;
  /** The pc of the instruction found (at or before the one asked for). */
  pc: number;
}

/** `tealworks/documentInfo`: the status-bar facts of a document. */
export const documentInfoRequest = new RequestType<{ uri: string }, DocumentInfo | null, void>('tealworks/documentInfo');
/** `tealworks/documentInfoChanged`: pushed when a document's status-bar facts change. */
export const documentInfoNotification = new NotificationType<DocumentInfo>('tealworks/documentInfoChanged');
/** `tealworks/expanded`: the macro-free program. */
export const expandedRequest = new RequestType<{ uri: string }, ExpandedResult | null, void>('tealworks/expanded');
/** `tealworks/assembled`: the bytes and disassembly. */
export const assembledRequest = new RequestType<{ uri: string }, AssembledResult | null, void>('tealworks/assembled');
/** `tealworks/pcLocation`: the source of a program counter. */
export const pcLocationRequest = new RequestType<{ uri: string; pc: number }, PcLocation | null, void>('tealworks/pcLocation');

/** Debug adapter custom request: where the session is paused (`{ position, pc, frame, path, reason }`). */
export const DAP_POSITION_REQUEST = 'tealworks/position';
/** Debug adapter custom request: write the run as a `.trace.avm.json` file (`{ path }`). */
export const DAP_EXPORT_TRACE_REQUEST = 'tealworks/exportTrace';

/** The body of a `tealworks/position` response. */
export interface DapPosition {
  position: number;
  pc: number;
  frame: number;
  /** The frame's place in the group: the transaction index, then each inner-transaction index. */
  path: number[];
  reason?: string;
}
