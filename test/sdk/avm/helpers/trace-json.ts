// algod's JSON omits zero values (omitempty): an AVM value 0 is `{type: 2}`, an empty byte string
// `{type: 1}`. Our response objects may carry the zero explicitly; compare in algod's form.
export function normalizeTrace(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeTrace);
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      if (k === 'uint' && (v === 0n || v === 0)) continue;
      if (k === 'bytes' && v === '') continue;
      out[k] = normalizeTrace(v);
    }
    return out;
  }
  return value;
}
