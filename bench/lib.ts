import { forgetMadeSignatures } from '../sdk/src/crypto/ed25519.js';

/**
 * Shared measuring tools for `npm run bench`. Each bench module measures ours and the peer in the
 * same process and run, so the ratio is what we report; absolute numbers are only context.
 */
export interface BenchEntry {
  name: string;
  unit: string;
  ours: number;
  peer: number | null;
  ratio: number | null;
  /** Extra context printed in the table (not written to results.json). */
  note?: string;
}

export interface BenchModule {
  name: string;
  description: string;
  run(): Promise<BenchEntry[]>;
}

export interface MeasureOptions {
  /** Minimum wall time per sample, ms. */
  minTimeMs?: number;
  /** Samples taken; the median is reported. */
  samples?: number;
  /** Work units done by one call of fn (e.g. transactions per batch). */
  unitsPerCall?: number;
}

/** Runs fn repeatedly and returns the median throughput in units per second. */
export async function opsPerSecond(fn: () => unknown | Promise<unknown>, options: MeasureOptions = {}): Promise<number> {
  const minTime = options.minTimeMs ?? 300;
  const samples = options.samples ?? 5;
  const units = options.unitsPerCall ?? 1;
  // Warm up so the JIT has compiled the hot path before we time it.
  const warmEnd = performance.now() + Math.min(200, minTime);
  while (performance.now() < warmEnd) await fn();
  const rates: number[] = [];
  for (let s = 0; s < samples; s++) {
    let calls = 0;
    const start = performance.now();
    let now = start;
    while (now - start < minTime) {
      await fn();
      calls++;
      now = performance.now();
    }
    rates.push((calls * units * 1000) / (now - start));
  }
  return median(rates);
}

/** Median wall time of fn in milliseconds over `samples` runs (after one warm-up run). */
export async function medianMs(fn: () => unknown | Promise<unknown>, samples = 15): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * Throughput of ours and the peer measured in alternating short rounds, each side's median kept:
 * on a loaded machine both sides see the same load instead of whichever ran in a busy spell.
 */
export async function pairedOpsPerSecond(
  ours: () => unknown,
  peer: () => unknown,
  options: { unitsPerCall?: number; rounds?: number; minTimeMs?: number } = {},
): Promise<[number, number]> {
  const o: number[] = [];
  const p: number[] = [];
  const each = { unitsPerCall: options.unitsPerCall ?? 1, minTimeMs: options.minTimeMs ?? 120, samples: 1 };
  for (let round = 0; round < (options.rounds ?? 7); round++) {
    o.push(await opsPerSecond(ours, each));
    p.push(await opsPerSecond(peer, each));
  }
  return [median(o), median(p)];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

/** Entry where higher is better (throughput): ratio = ours / peer. */
export function throughputEntry(name: string, unit: string, ours: number, peer: number | null, note?: string): BenchEntry {
  return { name, unit, ours, peer, ratio: peer ? ours / peer : null, ...(note ? { note } : {}) };
}

/** Entry where lower is better (latency): ratio = peer / ours, so > 1 still means "we are faster". */
export function latencyEntry(name: string, unit: string, ours: number, peer: number | null, note?: string): BenchEntry {
  return { name, unit, ours, peer, ratio: peer ? peer / ours : null, ...(note ? { note } : {}) };
}

/**
 * `signed`, after the signatures this process made so far are forgotten. They are remembered, and
 * a ledger in this process takes one it finds there as checked (crypto/ed25519.ts); groups that
 * stand for other processes' (a script, a wallet), whose signatures a node checks, go through here.
 */
export function signedElsewhere<T>(signed: T): T {
  forgetMadeSignatures();
  return signed;
}
