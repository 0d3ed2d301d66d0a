/**
 * MicroAlgos as the node prints them in its error texts (since consensus v42's node): `0.0A`,
 * `999uA`, `1mA`, `1.601mA`, `5A`, `1.000001A`. Integers elsewhere (JSON fields) are unchanged.
 */
export function formatMicroAlgos(micro: bigint): string {
  if (micro === 0n) return '0.0A';
  if (micro < 1_000n) return `${micro}uA`;
  if (micro < 1_000_000n) {
    const frac = micro % 1_000n;
    return frac === 0n ? `${micro / 1_000n}mA` : `${micro / 1_000n}.${frac.toString().padStart(3, '0')}mA`;
  }
  const frac = micro % 1_000_000n;
  return frac === 0n ? `${micro / 1_000_000n}A` : `${micro / 1_000_000n}.${frac.toString().padStart(6, '0')}A`;
}
