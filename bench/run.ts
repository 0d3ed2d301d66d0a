import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchEntry, BenchModule } from './lib.js';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));

const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();

// Each benchmark module runs in its own process: a module that leaves a large heap behind (the
// devnet and query benches index a million transactions) must not slow down the ones after it.
const childFlag = process.argv.indexOf('--child');
if (childFlag < 0) {
  const names: string[] = [];
  const selected: string[] = [];
  for (const file of files) {
    const name = /export default \{[\s\S]*?name: '([^']+)'/.exec(readFileSync(join(here, file), 'utf8'))?.[1] ?? file.replace(/\.bench\.ts$/, '');
    names.push(name);
    if (wanted.length === 0 || wanted.includes(name)) selected.push(file);
  }
  if (selected.length === 0) {
    console.error(`no benchmark named ${wanted.join(', ')}; available: ${names.join(', ')}`);
    process.exit(2);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'tw-bench-'));
  const all: BenchEntry[] = [];
  for (const file of selected) {
    const out = join(scratch, `${file}.json`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', file, out], { stdio: 'inherit' });
    if (run.status !== 0) {
      console.error(`benchmark ${file} failed (exit ${run.status ?? run.signal})`);
      process.exitCode = 1;
      continue;
    }
    all.push(...(JSON.parse(readFileSync(out, 'utf8')) as BenchEntry[]));
  }
  writeResults(all);
  process.exit();
}

const modules: BenchModule[] = [((await import(pathToFileURL(join(here, process.argv[childFlag + 1]!)).href)) as { default: BenchModule }).default];

function fmt(n: number | null): string {
  if (n === null) return '—';
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toPrecision(3);
}

const all: BenchEntry[] = [];
for (const mod of modules) {
  console.log(`\n## ${mod.name} — ${mod.description}`);
  const entries = await mod.run();
  const rows = entries.map((e) => [e.name, e.unit, fmt(e.ours), fmt(e.peer), e.ratio === null ? '—' : `${e.ratio.toFixed(2)}×`, e.note ?? '']);
  const header = ['figure', 'unit', 'ours', 'peer', 'ratio', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  for (const e of entries) all.push({ name: e.name, unit: e.unit, ours: e.ours, peer: e.peer, ratio: e.ratio });
}
writeFileSync(process.argv[childFlag + 2]!, JSON.stringify(all));

function writeResults(all: BenchEntry[]): void {
  // A partial run (`npm run bench -- NAME`) refreshes its own figures and keeps the others'.
  const resultsPath = join(here, 'results.json');
  let merged = all;
  if (wanted.length > 0 && existsSync(resultsPath)) {
    try {
      const previous = JSON.parse(readFileSync(resultsPath, 'utf8')) as BenchEntry[];
      const fresh = new Set(all.map((e) => e.name));
      merged = [...previous.filter((e) => !fresh.has(e.name)), ...all];
    } catch {
      merged = all;
    }
  }
  writeFileSync(resultsPath, JSON.stringify(merged, null, 2) + '\n');
  console.log(`\nwrote ${all.length} figures to bench/results.json (${merged.length} in the file)`);
}
