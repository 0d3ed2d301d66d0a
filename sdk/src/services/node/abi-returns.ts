import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Address } from '../../encoding/address.js';
import { toHex } from '../../encoding/hex.js';
import { parseJson, stringifyJson } from '../../encoding/json.js';
import { AbiContract, RETURN_PREFIX, type AbiMethod } from '../../abi/method.js';
import { loadAppSpec } from '../../abi/arc56.js';
import { isReturnLog } from '../../abi/method-call.js';
import type { AbiValue } from '../../abi/types.js';
import type { SignedTransaction } from '../../txn/types.js';
import { BadRequestError } from '../http/errors.js';

/**
 * ABI return values in simulate results (node-service.md: "decoded return values for ABI-compliant
 * calls"). For every top-level app call whose last log starts with the ARC-4 return prefix
 * (151f7c75), the transaction's result gets an `abi-return` object:
 *
 * - `raw` — the bytes after the prefix (base64 in JSON, bin in msgpack), always;
 * - `method` — the method signature, when the call's selector (first application argument) matches
 *   a method of a spec given in the request (`app-specs`) or registered with the devnet for the app
 *   (`PUT /v1/devnet/apps/{application-id}/spec`, done by our deploy tools);
 * - `type` — the method's ARC-4 return type, and `value` — the return value decoded with it (uint
 *   as integer, bool, string, address as text, byte arrays as base64/bin, arrays and tuples as
 *   lists, ARC-56 structs as objects by field name);
 * - `error` — instead of `value`, when the bytes do not decode as that type.
 */

/** Methods of one spec, by selector (hex). */
export type MethodTable = Map<string, AbiMethod>;

/** Reads an ARC-56, ARC-32 or ARC-4 contract description (object or JSON text) into its methods. */
export function methodTable(spec: unknown, what = 'app spec'): MethodTable {
  let json: unknown = spec;
  if (typeof spec === 'string') {
    try {
      json = parseJson(spec);
    } catch (e) {
      throw new BadRequestError(`${what} is not JSON: ${(e as Error).message}`);
    }
  }
  if (json instanceof Map) json = Object.fromEntries(json);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new BadRequestError(`${what} must be an ARC-56, ARC-32 or ARC-4 contract object`);
  let methods: readonly AbiMethod[];
  try {
    methods = loadAppSpec(json as object).methods.map((m) => m.method);
  } catch (arc56Error) {
    try {
      methods = AbiContract.fromJson(json as never).methods;
    } catch {
      throw new BadRequestError(`${what} is neither an ARC-56/ARC-32 spec nor an ARC-4 contract: ${(arc56Error as Error).message}`);
    }
  }
  const table: MethodTable = new Map();
  for (const m of methods) table.set(m.selectorHex, m);
  return table;
}

/**
 * App specs registered with the devnet, by application id; kept in a JSON file when one is given
 * (the devnet's data directory), so they survive restarts.
 */
export class AppSpecRegistry {
  readonly #specs = new Map<bigint, { json: unknown; table: MethodTable }>();
  readonly #file: string | undefined;

  constructor(file?: string) {
    this.#file = file;
    if (file && existsSync(file)) {
      try {
        const stored = parseJson(readFileSync(file, 'utf8'), { bigint: 'auto' }) as Record<string, unknown>;
        for (const [id, json] of Object.entries(stored)) this.#specs.set(BigInt(id), { json, table: methodTable(json) });
      } catch {
        // An unreadable registry only loses decoded return values; simulate still works.
      }
    }
  }

  register(appId: bigint, spec: unknown): MethodTable {
    const table = methodTable(spec);
    const json = typeof spec === 'string' ? parseJson(spec) : spec;
    this.#specs.set(appId, { json, table });
    if (this.#file) {
      const out: Record<string, unknown> = {};
      for (const [id, e] of this.#specs) out[id.toString()] = e.json;
      writeFileSync(`${this.#file}.tmp`, stringifyJson(out, { indent: 2 }) + '\n');
      renameSync(`${this.#file}.tmp`, this.#file);
    }
    return table;
  }

  get(appId: bigint): { json: unknown; table: MethodTable } | undefined {
    return this.#specs.get(appId);
  }
}

function wireValue(v: AbiValue): unknown {
  if (v instanceof Address) return v.toString();
  if (v instanceof Uint8Array || typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(wireValue);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wireValue(x as AbiValue)]));
}

/**
 * Adds `abi-return` to the wire results of a simulate response. `response` is the ledger's
 * response (raw logs), `wire` the body about to be written (same group/txn layout).
 */
export function addAbiReturns(
  wire: Record<string, unknown>,
  response: Record<string, unknown>,
  groups: readonly { txns: readonly SignedTransaction[] }[],
  requestSpecs: readonly MethodTable[],
  registry: AppSpecRegistry | undefined,
): void {
  const wireGroups = (wire['txn-groups'] as Record<string, unknown>[] | undefined) ?? [];
  const resGroups = (response['txn-groups'] as Record<string, unknown>[] | undefined) ?? [];
  wireGroups.forEach((wg, gi) => {
    const results = (wg['txn-results'] as Record<string, unknown>[] | undefined) ?? [];
    const raw = (resGroups[gi]?.['txn-results'] as Record<string, unknown>[] | undefined) ?? [];
    results.forEach((wr, ti) => {
      const stxn = groups[gi]?.txns[ti];
      const call = stxn?.txn.appCall;
      if (!call) return;
      const result = raw[ti]?.['txn-result'] as Record<string, unknown> | undefined;
      const logs = (result?.logs as Uint8Array[] | undefined) ?? [];
      const last = logs[logs.length - 1];
      if (!last || !isReturnLog(last)) return;
      const bytes = last.subarray(RETURN_PREFIX.length);
      const out: Record<string, unknown> = { raw: bytes };
      const selector = call.args[0] && call.args[0].length === 4 ? toHex(call.args[0]) : undefined;
      const appId = call.appId !== 0n ? call.appId : (result?.['application-index'] as bigint | undefined);
      let method: AbiMethod | undefined;
      if (selector) {
        for (const t of requestSpecs) if ((method = t.get(selector))) break;
        if (!method && appId !== undefined) method = registry?.get(BigInt(appId))?.table.get(selector);
      }
      if (method) {
        out.method = method.signature;
        out.type = method.returns.type;
        const type = method.returns.abiType;
        if (type) {
          try {
            out.value = wireValue(type.decode(bytes));
          } catch (e) {
            out.error = `the return value does not decode as ${method.returns.type}: ${(e as Error).message}`;
          }
        } else out.error = `${method.signature} returns void, but the call logged a return value`;
      }
      wr['abi-return'] = out;
    });
  });
}
