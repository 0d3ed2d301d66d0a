// A custom request/notification pair feeding the extension's status bar: version, mode, size.
import { NotificationType, RequestType } from 'vscode-languageserver';
import type { DocumentModel } from '../document.js';

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

export const documentInfoRequest = new RequestType<{ uri: string }, DocumentInfo | null, void>('tealworks/documentInfo');
export const documentInfoNotification = new NotificationType<DocumentInfo>('tealworks/documentInfoChanged');

export function documentInfo(model: DocumentModel): DocumentInfo {
  const info: DocumentInfo = {
    uri: model.uri,
    avmVersion: model.avmVersion,
    versionDeclared: model.versionDeclared,
    errors: model.diagnostics.filter((d) => d.severity === 'error').length,
  };
  if (model.mode) info.mode = model.mode;
  if (model.modeAssumed) info.modeAssumed = true;
  if (model.program?.size !== undefined) info.size = model.program.size;
  return info;
}
