import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssembleError } from '../../../../sdk/src/teal/index.js';

/** Helpers shared by the round-trip and fuzz tests. */

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const sharedData = resolve(repoRoot, '../shared/data');

export function isAssembleError(e: unknown): e is AssembleError {
  return e instanceof AssembleError;
}

/** The text with type checking turned off right after its version line (disassembly loses types). */
export function withoutTypeTracking(text: string): string {
  const nl = text.indexOf('\n');
  if (nl < 0 || !text.startsWith('#pragma version')) return `#pragma typetrack false\n${text}`;
  return `${text.slice(0, nl + 1)}#pragma typetrack false\n${text.slice(nl + 1)}`;
}

export function hexToBytes(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export { toHex as toHexString } from '../../../../sdk/src/encoding/hex.js';
