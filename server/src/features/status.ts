// A custom request/notification pair feeding the extension's status bar: version, mode, size.
import type { DocumentModel } from '../document.js';
import type { DocumentInfo } from '../protocol.js';

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
