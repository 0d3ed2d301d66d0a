import { tryFromUtf8, utf8 } from '../encoding/bytes.js';
import { DeployNoteError } from './errors.js';

/**
 * ARC-2 note carried by app create/update transactions of idempotent deploys:
 * `ALGOKIT_DEPLOYER:j{"name":…,"version":…,"updatable":…,"deletable":…}`. We write and read the
 * same dApp name and JSON layout AlgoKit does, so apps either tool deployed are found by both.
 */
export const DEPLOY_NOTE_DAPP = 'ALGOKIT_DEPLOYER';
const JSON_PREFIX = `${DEPLOY_NOTE_DAPP}:j`;

/** What a deploy note records: app name, version, and the deploy-time permissions. */
export interface DeployMetadata {
  name: string;
  version: string;
  /** Recorded deploy-time permission; undefined when the deployer did not say. */
  updatable?: boolean;
  deletable?: boolean;
}

/** The note bytes for a create or update transaction. Key order follows AlgoKit's. */
export function encodeDeployNote(metadata: DeployMetadata): Uint8Array {
  if (typeof metadata.name !== 'string' || metadata.name === '') throw new DeployNoteError('deploy note needs a non-empty app name');
  if (typeof metadata.version !== 'string') throw new DeployNoteError(`deploy note version must be a string, got ${typeof metadata.version}`);
  const body: Record<string, unknown> = { name: metadata.name, version: metadata.version };
  if (metadata.updatable !== undefined) body.updatable = metadata.updatable;
  if (metadata.deletable !== undefined) body.deletable = metadata.deletable;
  const note = utf8(JSON_PREFIX + JSON.stringify(body));
  if (note.length > 1024) throw new DeployNoteError(`deploy note is ${note.length} bytes; a transaction note holds at most 1024`);
  return note;
}

/**
 * Reads a deploy note. Returns undefined for notes that are not deploy notes at all (other dApps,
 * other ARC-2 formats, binary notes) — like AlgoKit, such apps are simply not deployments. A note
 * that starts like a deploy note but holds broken JSON is an error, since silently ignoring it
 * would make the next deploy create a duplicate app.
 */
export function decodeDeployNote(note: Uint8Array | string | undefined): DeployMetadata | undefined {
  if (note === undefined) return undefined;
  const text = typeof note === 'string' ? note : tryFromUtf8(note);
  if (text === undefined || !text.startsWith(JSON_PREFIX + '{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(JSON_PREFIX.length));
  } catch (e) {
    throw new DeployNoteError(`deploy note JSON does not parse: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new DeployNoteError('deploy note JSON must be an object');
  const o = parsed as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name === '') throw new DeployNoteError('deploy note has no "name" string');
  const out: DeployMetadata = { name: o.name, version: typeof o.version === 'string' ? o.version : o.version === undefined ? '' : String(o.version) };
  for (const flag of ['updatable', 'deletable'] as const) {
    const v = o[flag];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw new DeployNoteError(`deploy note "${flag}" must be true or false, got ${JSON.stringify(v)}`);
    out[flag] = v;
  }
  return out;
}

/** Whether a note is a deploy note, without validating its body (for indexer note-prefix filters). */
export function isDeployNote(note: Uint8Array | string): boolean {
  const text = typeof note === 'string' ? note : (tryFromUtf8(note.subarray(0, JSON_PREFIX.length + 1)) ?? '');
  return text.startsWith(JSON_PREFIX + '{');
}

/** The prefix to filter an indexer transaction search by (base64 of this is the `note-prefix`). */
export const DEPLOY_NOTE_PREFIX: Uint8Array = utf8(`${DEPLOY_NOTE_DAPP}:`);
