// Status bar wording, kept free of the vscode module so it can be unit-tested in plain Node.

import type { DocumentInfo } from '../../server/src/protocol.js';
export type { DocumentInfo };

export function statusText(info: DocumentInfo): string {
  const parts = [`TEAL v${info.avmVersion}${info.versionDeclared ? '' : ' (default)'}`];
  if (info.mode) parts.push(`${info.mode === 'application' ? 'app' : 'logicsig'}${info.modeAssumed ? '?' : ''}`);
  if (info.size !== undefined) parts.push(`${info.size} B`);
  else if (info.errors > 0) parts.push(`${info.errors} error${info.errors === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

export function statusTooltip(info: DocumentInfo): string {
  return [
    `AVM version ${info.avmVersion}${info.versionDeclared ? '' : ' (no #pragma version: assembled as v1)'}`,
    `Mode: ${info.mode ? `${info.mode}${info.modeAssumed ? ' (assumed from the tealworks.defaultMode setting)' : ''}` : 'not determined'}`,
    `Size: ${info.size !== undefined ? `${info.size} bytes` : 'program does not assemble yet'}`,
  ].join('\n');
}
