import { mkdir, readFile, rename, writeFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sha256 } from '../crypto/hash.js';
import { fromBase64, toBase64 } from '../encoding/base64.js';
import { utf8 } from '../encoding/bytes.js';
import { toHex } from '../encoding/hex.js';
import { CheckpointError } from './errors.js';
import { setOwn, type ExprValue } from './expr.js';

/*
 * Per-network run state: which steps completed, with which resolved definition, and what they
 * produced. A rerun skips a step whose resolved definition hashes the same as the recorded one
 * and replays its outputs; a changed step (or one whose inputs changed because an earlier step
 * produced something new) runs again. A failed run leaves its failure recorded, so the rerun
 * naturally resumes at that step. Writes go to a temporary file that is renamed over the old
 * one, so a crash mid-write never leaves half a state file.
 */

/** Version of the checkpoint file format. */
export const CHECKPOINT_VERSION = 1;

/** A step's checkpoint: input hash, status, outputs or error, and when. */
export interface CheckpointEntry {
  hash: string;
  status: 'done' | 'failed';
  outputs?: ExprValue;
  error?: string;
  /** ISO time. */
  at: string;
}

/** A workflow's checkpoint file: chain id and the entry of each step. */
export interface CheckpointData {
  version: number;
  workflow: string;
  network: string;
  /** Identity of the chain the steps ran on (e.g. genesis id + hash); a different chain makes every entry stale. */
  chain?: string;
  steps: Record<string, CheckpointEntry>;
}

/** Where a workflow's state for a network lives: `.tealworks/state/<file>.<network>.json` next to the workflow. */
export function checkpointPath(workflowFile: string, networkKey: string): string {
  const safeNetwork = networkKey.replace(/^[a-z]+:\/\//i, '').replace(/[^A-Za-z0-9._-]+/g, '_');
  const base = basename(workflowFile).replace(/\.ya?ml$/i, '');
  return join(dirname(workflowFile), '.tealworks', 'state', `${base}.${safeNetwork}.json`);
}

// ---------------------------------------------------------------------------------------------
// Lossless JSON for expression values: integers become {"$int": "…"}, bytes {"$bytes": base64};
// objects whose keys start with "$" are wrapped so they cannot be mistaken for either.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** An expression value as checkpoint JSON (bigints and bytes kept). */
export function encodeValue(v: ExprValue): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return { $int: v.toString() };
  if (v instanceof Uint8Array) return { $bytes: toBase64(v) };
  if (Array.isArray(v)) return v.map(encodeValue);
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, encodeValue(x));
  return Object.keys(v).some((k) => k.startsWith('$')) ? { $obj: out } : out;
}

/** An expression value from its checkpoint JSON. */
export function decodeValue(j: unknown, where = 'value'): ExprValue {
  if (j === null || typeof j === 'boolean' || typeof j === 'string') return j;
  if (typeof j === 'number') {
    if (!Number.isSafeInteger(j)) throw new CheckpointError(`${where}: number ${j} is not an exact integer`);
    return BigInt(j);
  }
  if (Array.isArray(j)) return j.map((x, i) => decodeValue(x, `${where}[${i}]`));
  if (typeof j === 'object') {
    const o = j as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === '$int') {
      if (typeof o.$int !== 'string' || !/^-?[0-9]+$/.test(o.$int)) throw new CheckpointError(`${where}: bad $int ${JSON.stringify(o.$int)}`);
      return BigInt(o.$int);
    }
    if (keys.length === 1 && keys[0] === '$bytes') {
      if (typeof o.$bytes !== 'string') throw new CheckpointError(`${where}: bad $bytes`);
      return fromBase64(o.$bytes);
    }
    const inner = keys.length === 1 && keys[0] === '$obj' ? (o.$obj as Record<string, unknown>) : o;
    const out: Record<string, ExprValue> = {};
    for (const [k, x] of Object.entries(inner)) setOwn(out, k, decodeValue(x, `${where}.${k}`));
    return out;
  }
  throw new CheckpointError(`${where}: unexpected ${typeof j}`);
}

/** Canonical text of a value: object keys sorted, so equal definitions hash equally. */
function canonical(v: Json): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`)
    .join(',')}}`;
}

/** Hash of a step's resolved definition (kind + body after expressions were evaluated). */
export function stepHash(kind: string, resolvedBody: ExprValue): string {
  return toHex(sha256(utf8(canonical({ kind, body: encodeValue(resolvedBody) }))));
}

// ---------------------------------------------------------------------------------------------

/** Where checkpoints live and whether to ignore them (`--fresh`). */
export interface CheckpointOpenOptions {
  /** Ignore what is recorded (`--fresh`); the first write replaces the file. */
  fresh?: boolean;
  /** Current chain identity; recorded entries from another chain are ignored. */
  chain?: string;
  /** `--simulate-only`: read checkpoints but never write (nothing on chain changed). */
  readOnly?: boolean;
}

/** The checkpoints of one workflow run: what is done, so a rerun skips it. */
export class Checkpoints {
  private constructor(
    readonly path: string,
    private data: CheckpointData,
    private readonly readOnly: boolean,
    /** Why recorded entries were set aside (fresh run, other chain, unreadable file), if they were. */
    readonly discarded: string | undefined,
  ) {}

  static async open(path: string, workflow: string, network: string, options: CheckpointOpenOptions = {}): Promise<Checkpoints> {
    const empty: CheckpointData = {
      version: CHECKPOINT_VERSION,
      workflow,
      network,
      ...(options.chain !== undefined ? { chain: options.chain } : {}),
      steps: {},
    };
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new CheckpointError(`cannot read state file ${path}: ${(e as Error).message}`);
    }
    if (text === undefined) return new Checkpoints(path, empty, options.readOnly === true, undefined);
    if (options.fresh) return new Checkpoints(path, empty, options.readOnly === true, 'fresh run requested');
    let parsed: CheckpointData;
    try {
      parsed = parseCheckpointData(text);
    } catch (e) {
      // A damaged state file must not block a run; start over and say so.
      return new Checkpoints(path, empty, options.readOnly === true, `state file was unreadable (${(e as Error).message})`);
    }
    if (options.chain !== undefined && parsed.chain !== undefined && parsed.chain !== options.chain) {
      return new Checkpoints(path, empty, options.readOnly === true, `state file belongs to another chain (${parsed.chain})`);
    }
    return new Checkpoints(
      path,
      { ...parsed, network, workflow, ...(options.chain !== undefined ? { chain: options.chain } : {}) },
      options.readOnly === true,
      undefined,
    );
  }

  /** Outputs of a step that completed with this same definition, else undefined (run it). */
  completed(stepId: string, hash: string): ExprValue | undefined {
    const e = this.data.steps[stepId];
    return e && e.status === 'done' && e.hash === hash ? (e.outputs ?? null) : undefined;
  }

  entry(stepId: string): CheckpointEntry | undefined {
    return this.data.steps[stepId];
  }

  /** Ids of steps recorded as failed (where a rerun resumes). */
  failedSteps(): string[] {
    return Object.entries(this.data.steps)
      .filter(([, e]) => e.status === 'failed')
      .map(([id]) => id);
  }

  async recordDone(stepId: string, hash: string, outputs: ExprValue, now = new Date()): Promise<void> {
    this.data.steps[stepId] = { hash, status: 'done', outputs, at: now.toISOString() };
    await this.save();
  }

  async recordFailure(stepId: string, hash: string, message: string, now = new Date()): Promise<void> {
    this.data.steps[stepId] = { hash, status: 'failed', error: message, at: now.toISOString() };
    await this.save();
  }

  /** Drops entries of steps no longer in the workflow. */
  async prune(keepIds: Iterable<string>): Promise<void> {
    const keep = new Set(keepIds);
    let changed = false;
    for (const id of Object.keys(this.data.steps)) {
      if (!keep.has(id)) {
        delete this.data.steps[id];
        changed = true;
      }
    }
    if (changed) await this.save();
  }

  snapshot(): CheckpointData {
    return structuredClone(this.data);
  }

  private async save(): Promise<void> {
    if (this.readOnly) return;
    await writeAtomic(this.path, serializeCheckpointData(this.data));
  }
}

/** Writes a checkpoint file. */
export function serializeCheckpointData(data: CheckpointData): string {
  const steps: Record<string, Json> = {};
  for (const [id, e] of Object.entries(data.steps)) {
    steps[id] = {
      hash: e.hash,
      status: e.status,
      at: e.at,
      ...(e.outputs !== undefined ? { outputs: encodeValue(e.outputs) } : {}),
      ...(e.error !== undefined ? { error: e.error } : {}),
    };
  }
  return (
    JSON.stringify(
      { version: data.version, workflow: data.workflow, network: data.network, ...(data.chain !== undefined ? { chain: data.chain } : {}), steps },
      null,
      2,
    ) + '\n'
  );
}

/** Reads a checkpoint file. */
export function parseCheckpointData(text: string): CheckpointData {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CheckpointError(`not JSON: ${(e as Error).message}`);
  }
  const o = raw as Record<string, unknown>;
  if (typeof o !== 'object' || o === null) throw new CheckpointError('not an object');
  if (o.version !== CHECKPOINT_VERSION) throw new CheckpointError(`unsupported version ${JSON.stringify(o.version)}`);
  if (typeof o.steps !== 'object' || o.steps === null) throw new CheckpointError('no "steps" object');
  const steps: Record<string, CheckpointEntry> = {};
  for (const [id, v] of Object.entries(o.steps as Record<string, Record<string, unknown>>)) {
    if (typeof v.hash !== 'string' || (v.status !== 'done' && v.status !== 'failed')) throw new CheckpointError(`step ${id}: needs "hash" and "status"`);
    steps[id] = {
      hash: v.hash,
      status: v.status,
      at: typeof v.at === 'string' ? v.at : '',
      ...(v.outputs !== undefined ? { outputs: decodeValue(v.outputs, `steps.${id}.outputs`) } : {}),
      ...(typeof v.error === 'string' ? { error: v.error } : {}),
    };
  }
  return {
    version: CHECKPOINT_VERSION,
    workflow: typeof o.workflow === 'string' ? o.workflow : '',
    network: typeof o.network === 'string' ? o.network : '',
    ...(typeof o.chain === 'string' ? { chain: o.chain } : {}),
    steps,
  };
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(tmp, text, { encoding: 'utf8', mode: 0o600 });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw new CheckpointError(`cannot write state file ${path}: ${(e as Error).message}`);
  }
}
